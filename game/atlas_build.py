"""The block atlas a run draws with: the base atlas, plus every loaded mod's own PNG tiles.

`build_atlas_image` starts from the committed base atlas (``assets/atlas.png``: its tiles keep
their cells) and copies each mod tile that `world.mod_textures.find_tile_files` found into the
cell the registry numbered it (numpy slices, one per tile: no per-pixel Python). A missing,
unreadable or wrongly sized PNG is recorded against its mod (`world.mods.Mods.record`, shown to
the player like any mod error) and its cell keeps the magenta "missing" checker. 32×32 tiles are
averaged down 2×2 to the atlas's 16×16.

The atlas is sampled nearest with no mipmaps (crisp pixels at every distance, as the base game
already draws), so no tile can bleed into its neighbour through a mipmap level.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from panda3d.core import SamplerState
from panda3d.core import Texture as PandaTexture
from PIL import Image, UnidentifiedImageError

from world.atlas import ATLAS_PATH, ATLAS_PX, TILE_PX, tile_pixel_box
from world.blocks import BlockRegistry
from world.mod_textures import find_tile_files
from world.mods import Mods

__all__ = ["atlas_texture", "build_atlas_image", "read_tile"]

TEXTURE_ERROR = "textures"
"""The `world.mods.ModError.where` of a mod's texture problems."""


def read_tile(path: Path) -> NDArray[np.uint8]:
    """A tile file as (16, 16, 4) RGBA, row 0 at the top; ``ValueError`` naming the file."""
    try:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGBA"), dtype=np.uint8)
    except (OSError, UnidentifiedImageError, ValueError) as exc:
        raise ValueError(f"texture file {path} is not a readable PNG ({exc})") from None
    size = pixels.shape[:2]
    if size == (TILE_PX, TILE_PX):
        return pixels
    if size == (2 * TILE_PX, 2 * TILE_PX):
        quads = pixels.reshape(TILE_PX, 2, TILE_PX, 2, 4).astype(np.uint16)
        averaged: NDArray[np.uint8] = ((quads.sum(axis=(1, 3)) + 2) // 4).astype(np.uint8)
        return averaged
    raise ValueError(
        f"texture file {path} is {size[1]}×{size[0]} pixels; tiles are {TILE_PX}×{TILE_PX} "
        f"(or {2 * TILE_PX}×{2 * TILE_PX}, averaged down)"
    )


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
