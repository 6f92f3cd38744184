"""The block atlas a run draws with: the base atlas, plus every loaded mod's own PNG tiles.

`build_atlas_image` starts from the committed base atlas (``assets/atlas.png``: its tiles keep
their cells) and copies each mod tile that `world.mods.textures.find_tile_files` found into the
cell the registry numbered it (numpy slices, one per tile: no per-pixel Python). A missing,
unreadable or wrongly sized PNG is recorded against its mod (`world.mods.host.Mods.record`, shown to
the player like any mod error) and its cell keeps the magenta "missing" checker. 32×32 tiles are
averaged down 2×2 to the atlas's 16×16.

A mod's file is untrusted, so `read_tile` bounds what it costs before any decoding: a file over
`MAX_TILE_FILE_BYTES` (1 MiB; a 32×32 RGBA tile takes at most 4 KiB of pixels, the rest is room
for metadata) is refused unread, and the PNG header (signature, then the IHDR chunk with width
and height, the first 33 bytes) must declare one of the accepted tile sizes, at most
`MAX_TILE_PX` (32) square: a PNG that declares 20000×20000 pixels, or a few kilobytes of zeros
that inflate to a gigabyte, is refused without being decoded. So decoding costs at most one
32×32 image, whatever the file says. Pillow's own decompression-bomb check stays as a second
net; everything Pillow raises for a bad file (its bomb error, ``UnidentifiedImageError``,
``OSError``, ``SyntaxError``, ``ValueError``) becomes the same ``ValueError`` naming the file,
recorded against the mod while the game starts.

The atlas is sampled nearest with no mipmaps (crisp pixels at every distance, as the base game
already draws), so no tile can bleed into its neighbour through a mipmap level.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray
from panda3d.core import SamplerState
from panda3d.core import Texture as PandaTexture
from PIL import Image

from world.blocks.atlas import ATLAS_PATH, ATLAS_PX, TILE_PX, tile_pixel_box
from world.blocks.registry import BlockRegistry
from world.mods.host import Mods
from world.mods.textures import find_tile_files

__all__ = [
    "MAX_TILE_FILE_BYTES",
    "MAX_TILE_PX",
    "atlas_texture",
    "build_atlas_image",
    "read_tile",
]

TEXTURE_ERROR = "textures"
"""The `world.mods.calls.ModError.where` of a mod's texture problems."""

MAX_TILE_FILE_BYTES: Final = 1 << 20
"""The largest tile file read: far above any real 16×16 or 32×32 PNG, with its metadata."""

MAX_TILE_PX: Final = 2 * TILE_PX
"""The largest tile side a header may declare (32×32 tiles are averaged down)."""

_TILE_SIZES: Final = ((TILE_PX, TILE_PX), (MAX_TILE_PX, MAX_TILE_PX))
"""The accepted (width, height) of a tile file."""

_PNG_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_IHDR = struct.Struct(">I4sII")  # the first chunk's length and type, then width and height
_PNG_HEADER_BYTES: Final = len(_PNG_SIGNATURE) + _IHDR.size + 5 + 4  # depth..interlace, CRC: 33

# Everything Pillow raises for a file it cannot decode: an unknown format is an OSError
# (UnidentifiedImageError), a broken chunk a SyntaxError, and its bomb warning is an error where
# warnings are, as in the tests.
_PILLOW_ERRORS = (
    OSError,
    SyntaxError,
    ValueError,
    Image.DecompressionBombError,
    Image.DecompressionBombWarning,
)


def _png_size(header: bytes) -> tuple[int, int] | None:
    """The (width, height) a PNG's first 33 bytes declare; None when they are not a PNG's."""
    if len(header) < _PNG_HEADER_BYTES or not header.startswith(_PNG_SIGNATURE):
        return None
    length, kind, width, height = _IHDR.unpack_from(header, len(_PNG_SIGNATURE))
    if length != 13 or kind != b"IHDR":
        return None
    return width, height


def read_tile(path: Path) -> NDArray[np.uint8]:
    """A tile file as (16, 16, 4) RGBA, row 0 at the top; ``ValueError`` naming the file.

    Checked before decoding (module notes): at most `MAX_TILE_FILE_BYTES` read, and a header
    declaring 16×16 or 32×32.
    """
    try:
        with path.open("rb") as file:
            data = file.read(MAX_TILE_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"texture file {path} cannot be read ({exc})") from None
    if len(data) > MAX_TILE_FILE_BYTES:
        raise ValueError(
            f"texture file {path} is larger than {MAX_TILE_FILE_BYTES} bytes; "
            "a tile's PNG is a few kilobytes"
        )
    size = _png_size(data)
    if size is None:
        raise ValueError(f"texture file {path} is not a readable PNG (no PNG header)")
    if size not in _TILE_SIZES:
        raise ValueError(
            f"texture file {path} is {size[0]}×{size[1]} pixels; tiles are {TILE_PX}×{TILE_PX} "
            f"(or {MAX_TILE_PX}×{MAX_TILE_PX}, averaged down)"
        )
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            pixels = np.asarray(image.convert("RGBA"), dtype=np.uint8)
    except _PILLOW_ERRORS as exc:
        raise ValueError(f"texture file {path} is not a readable PNG ({exc})") from None
    if pixels.shape[:2] == (MAX_TILE_PX, MAX_TILE_PX):
        quads = pixels.reshape(TILE_PX, 2, TILE_PX, 2, 4).astype(np.uint16)
        averaged: NDArray[np.uint8] = ((quads.sum(axis=(1, 3)) + 2) // 4).astype(np.uint8)
        return averaged
    return pixels


def build_atlas_image(
    registry: BlockRegistry, mods: Mods, base: Path = ATLAS_PATH
) -> NDArray[np.uint8]:
    """The atlas as (height, width, 4) RGBA, row 0 at the top, with every mod tile copied in.

    Problems are recorded in ``mods.errors`` (mod name, ``"textures"``, the file); never raises
    for a mod's file.
    """
    with Image.open(base) as image:
        atlas = np.array(image.convert("RGBA"), dtype=np.uint8)
    if atlas.shape[:2] != (ATLAS_PX[1], ATLAS_PX[0]):
        raise ValueError(f"the base atlas {base} is not {ATLAS_PX[0]}×{ATLAS_PX[1]} pixels")
    files, problems = find_tile_files(registry, mods)
    for mod, message in problems:
        mods.record(mod, TEXTURE_ERROR, ValueError(message), traceback=False)
    for tile in files:
        try:
            pixels = read_tile(tile.path)
        except ValueError as exc:
            mods.record(tile.mod, TEXTURE_ERROR, exc, traceback=False)
            continue
        left, top, right, bottom = tile_pixel_box(tile.tile)
        atlas[top:bottom, left:right] = pixels
    return atlas


def atlas_texture(pixels: NDArray[np.uint8]) -> PandaTexture:
    """A Panda3D texture of an RGBA image (row 0 at the top), sampled nearest, no mipmaps."""
    height, width = pixels.shape[:2]
    texture = PandaTexture("blockpick-atlas")
    texture.setup2dTexture(width, height, PandaTexture.T_unsigned_byte, PandaTexture.F_rgba8)
    # Panda3D keeps images bottom row first, its channels as B, G, R, A.
    flipped = np.ascontiguousarray(pixels[::-1, :, [2, 1, 0, 3]])
    texture.setRamImage(flipped.tobytes())
    texture.setMinfilter(SamplerState.FT_nearest)
    texture.setMagfilter(SamplerState.FT_nearest)
    texture.setWrapU(SamplerState.WM_clamp)
    texture.setWrapV(SamplerState.WM_clamp)
    return texture
