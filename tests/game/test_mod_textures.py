"""Mods ship their own PNG tiles: the run's atlas holds them, and a bad file is reported by name."""

from __future__ import annotations

import struct
import textwrap
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.atlas_build import MAX_TILE_FILE_BYTES, build_atlas_image, read_tile
from world import World
from world.base import GAME
from world.blocks.atlas import ATLAS_PATH, ATLAS_TILES, TILE_PX, tile_pixel_box
from world.blocks.block_type import BlockType
from world.mesh.mesher import mesh_chunk
from world.mods.loader import load_mods
from world.mods.registration import make_registry

RUBY_MOD = """
    from world.blocks.registry import BlockType
    from world.mods.hooks import hookimpl

    @hookimpl
    def register_blocks(registry):
        registry.register(BlockType(
            "gems:ruby",
            tiles={
                "top": "gems_ruby_top.png",
                "side": "gems_ruby_side.png",
                "bottom": "gems:ruby_top",
            },
        ))
        registry.register(BlockType("gems:broken", tiles=("gems_broken.png",)))
        registry.register(BlockType("gems:absent", tiles=("gems:absent",)))
        registry.register(BlockType("gems:bomb", tiles=("gems_bomb.png",)))
"""

TOP = (200, 10, 30, 255)
SIDE = (20, 180, 40, 255)


def write_png(path: Path, rgba: tuple[int, int, int, int], size: int = TILE_PX) -> None:
    Image.new("RGBA", (size, size), rgba).save(path)


@pytest.fixture
def gem_mods(tmp_path: Path) -> Path:
    folder = tmp_path / "mods"
    (folder / "gems" / "textures").mkdir(parents=True)
    (folder / "gems" / "__init__.py").write_text(textwrap.dedent(RUBY_MOD))
    write_png(folder / "gems" / "textures" / "gems_ruby_top.png", TOP)
    write_png(folder / "gems" / "textures" / "gems_ruby_side.png", SIDE, size=2 * TILE_PX)
    (folder / "gems" / "textures" / "gems_broken.png").write_bytes(b"not a png at all")
    return folder


def test_a_mod_block_is_drawn_from_the_mods_own_png_tiles(gem_mods: Path) -> None:
    mods = load_mods([gem_mods], entry_points=False, game=GAME)
    registry = make_registry(mods)
    atlas = build_atlas_image(registry, mods)
    ruby = registry.id("gems:ruby")
    top_tile, side_tile = int(registry.face_tiles[ruby][2]), int(registry.face_tiles[ruby][0])
    assert top_tile >= len(ATLAS_TILES) and side_tile >= len(ATLAS_TILES)
    for tile, colour in ((top_tile, TOP), (side_tile, SIDE)):  # the 32×32 side is averaged down
        left, top, right, bottom = tile_pixel_box(tile)
        assert (atlas[top:bottom, left:right] == colour).all()
    # The base tiles keep their cells untouched.
    with Image.open(ATLAS_PATH) as image:
        base = np.asarray(image.convert("RGBA"))
    stone = registry.tile_id("base:stone")
    left, top, right, bottom = tile_pixel_box(stone)
    assert (atlas[top:bottom, left:right] == base[top:bottom, left:right]).all()

    # The mesh's uvs for the block's top face sample the mod's top colour from this atlas.
    world = World(registry)
    world.set_block(3, 3, 3, ruby)
    mesh = mesh_chunk(world, 0, 0, 0)
    normals = mesh.normals.reshape(-1, 3)
    uvs = mesh.uvs.reshape(-1, 2)
    up = (normals == (0, 1, 0)).all(axis=1)
    centre = uvs[up].mean(axis=0)
    height, width = atlas.shape[:2]
    px, py = int(centre[0] * width), int((1 - centre[1]) * height)
    assert tuple(atlas[py, px]) == TOP


def test_a_bad_or_missing_png_is_reported_by_mod_and_file_and_keeps_the_checker(
    gem_mods: Path,
) -> None:
    mods = load_mods([gem_mods], entry_points=False, game=GAME)
    registry = make_registry(mods)
    atlas = build_atlas_image(registry, mods)
    errors = [str(e) for e in mods.errors if e.mod == "gems"]
    assert any("gems_broken.png" in e and "not a readable PNG" in e for e in errors)
    assert any("gems_absent.png" in e and "missing" in e for e in errors)
    broken = int(registry.face_tiles[registry.id("gems:broken")][0])
    with Image.open(ATLAS_PATH) as image:
        base = np.asarray(image.convert("RGBA"))
    left, top, right, bottom = tile_pixel_box(broken)
    assert (atlas[top:bottom, left:right] == base[top:bottom, left:right]).all()  # the checker
    assert "gems:ruby" in registry  # the mod still loads: only its art is missing


def test_a_tile_of_the_wrong_size_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "gems_odd.png"
    write_png(path, TOP, size=20)
    with pytest.raises(ValueError, match=r"gems_odd\.png is 20×20 pixels"):
        read_tile(path)


def test_tile_file_names_follow_luantis_mod_prefix() -> None:
    block = BlockType("gems:ruby", tiles=("gems_ruby_top.png",))
    assert block.tiles == ("gems:ruby_top",) * 6
    with pytest.raises(ValueError, match=r"must be named 'gems_<name>\.png'"):
        BlockType("gems:ruby", tiles=("ruby.png",))
    faces = BlockType("gems:x", tiles={"all": "gems:a", "north": "gems:n", "top": "gems:t"}).tiles
    assert faces == ("gems:a", "gems:a", "gems:t", "gems:a", "gems:a", "gems:n")
    with pytest.raises(ValueError, match="unknown face key 'up'"):
        BlockType("gems:x", tiles={"up": "gems:a"})


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_of_zeros(width: int, height: int, rows: bool = True) -> bytes:
    """An RGBA PNG declaring ``width``×``height``, its pixels all zero (compressed row by row,
    so no test holds them), or with no pixel data at all."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, not interlaced
    packer = zlib.compressobj(9)
    row = bytes(1 + 4 * width)  # filter byte, then the pixels
    pixels = b"".join(packer.compress(row) for _ in range(height if rows else 0))
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", pixels + packer.flush())
        + png_chunk(b"IEND", b"")
    )


def atlas_with_bomb(gem_mods: Path, data: bytes) -> tuple[list[str], bool, int]:
    """Build the atlas with ``data`` as gems_bomb.png: the mod's texture errors, whether the
    bomb's cell kept the checker, and the most memory Python held meanwhile (bytes)."""
    (gem_mods / "gems" / "textures" / "gems_bomb.png").write_bytes(data)
    mods = load_mods([gem_mods], entry_points=False, game=GAME)
    registry = make_registry(mods)
    tracemalloc.start()
    try:
        atlas = build_atlas_image(registry, mods)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    bomb = int(registry.face_tiles[registry.id("gems:bomb")][0])
    with Image.open(ATLAS_PATH) as image:
        base = np.asarray(image.convert("RGBA"))
    left, top, right, bottom = tile_pixel_box(bomb)
    checker = (atlas[top:bottom, left:right] == base[top:bottom, left:right]).all()
    ruby = int(registry.face_tiles[registry.id("gems:ruby")][2])
    left, top, right, bottom = tile_pixel_box(ruby)
    assert (atlas[top:bottom, left:right] == TOP).all()  # the mod's good tiles are still drawn
    return [str(e) for e in mods.errors if e.mod == "gems"], bool(checker), peak


def test_a_png_declaring_20000_pixels_square_is_refused_by_its_header_and_the_game_goes_on(
    gem_mods: Path,
) -> None:
    errors, checker, peak = atlas_with_bomb(gem_mods, png_of_zeros(20_000, 20_000, rows=False))
    assert any("gems_bomb.png is 20000×20000 pixels" in e for e in errors)
    assert checker
    assert peak < 4 << 20


def test_a_small_png_that_inflates_to_64_mib_is_refused_before_it_is_decoded(
    gem_mods: Path,
) -> None:
    data = png_of_zeros(4096, 4096)
    assert len(data) < 100_000  # 64 MiB of pixels in a file of a few tens of kilobytes
    errors, checker, peak = atlas_with_bomb(gem_mods, data)
    assert any("gems_bomb.png is 4096×4096 pixels" in e for e in errors)
    assert checker
    assert peak < 4 << 20  # the file itself, not its pixels


def test_a_tile_file_over_the_byte_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "gems_big.png"
    tile = png_of_zeros(TILE_PX, TILE_PX)
    path.write_bytes(tile + bytes(MAX_TILE_FILE_BYTES + 1 - len(tile)))  # a valid tile, padded
    with pytest.raises(ValueError, match=r"gems_big\.png is larger than 1048576 bytes"):
        read_tile(path)
