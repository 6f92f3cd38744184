"""The texture atlas: tile layout, uv rectangles, the committed PNG matching its script, and the
base atlas knowing no mod (the example mods ship their own tiles)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import world
from tools.make_atlas import MOD_TEXTURES, PAINTERS, build_atlas, mod_texture_path, paint_tile
from world.base import GAME, default_registry
from world.blocks.atlas import (
    ATLAS_PATH,
    ATLAS_PX,
    ATLAS_TILES,
    TILE_CAPACITY,
    TILE_PX,
    TILES_PER_ROW,
    tile_pixel_box,
    tile_uv_rect,
    tile_uv_rects,
)
from world.mods.loader import load_mods
from world.mods.registration import make_registry
from world.mods.textures import find_tile_files

REG = default_registry()
WORLD = Path(world.__file__).resolve().parent
GAME_SHELL = WORLD.parent / "game"  # the shell: it draws content, it names none
BASE_CONTENT = WORLD / "base"  # the base game's content: the one place in world/ that names blocks


@pytest.fixture(scope="module")
def atlas() -> np.ndarray:
    with Image.open(ATLAS_PATH) as image:
        assert image.mode == "RGBA"
        return np.asarray(image).copy()


def tile_pixels(atlas: np.ndarray, name: str) -> np.ndarray:
    left, top, right, bottom = tile_pixel_box(REG.tile_id(name))
    return atlas[top:bottom, left:right]


def test_tile_zero_is_the_top_left_cell_and_indices_run_along_rows():
    assert tile_uv_rect(0) == (0.0, 1.0 - 1 / 16, 1 / 16, 1.0)
    assert tile_pixel_box(0) == (0, 0, TILE_PX, TILE_PX)
    assert tile_uv_rect(1) == (1 / 16, 1.0 - 1 / 16, 2 / 16, 1.0)
    # The next row is lower in the image, so lower in v (v = 0 is the bottom row of the PNG).
    below = tile_uv_rect(TILES_PER_ROW)
    assert below[0] == 0.0 and below[3] == tile_uv_rect(0)[1]


@given(st.integers(0, TILE_CAPACITY - 1))
@settings(max_examples=60, deadline=None)
def test_uv_rect_and_pixel_box_describe_the_same_cell(tile):
    u0, v0, u1, v1 = tile_uv_rect(tile)
    left, top, right, bottom = tile_pixel_box(tile)
    width, height = ATLAS_PX
    assert 0.0 <= u0 < u1 <= 1.0 and 0.0 <= v0 < v1 <= 1.0
    assert (right - left, bottom - top) == (TILE_PX, TILE_PX)
    assert (u0, u1) == (left / width, right / width)
    assert (v0, v1) == (1.0 - bottom / height, 1.0 - top / height)
    assert tile_uv_rects([tile])[0].tolist() == [u0, v0, u1, v1]


def test_inset_rectangles_stay_inside_their_tile():
    tiles = np.arange(TILE_CAPACITY)
    exact = tile_uv_rects(tiles)
    inset = tile_uv_rects(tiles, inset_px=0.25)
    assert np.all(inset[:, :2] > exact[:, :2]) and np.all(inset[:, 2:] < exact[:, 2:])
    assert np.allclose(inset[:, 2] - inset[:, 0], (TILE_PX - 0.5) / ATLAS_PX[0])


def test_tiles_outside_the_atlas_draw_the_missing_tile():
    rects = tile_uv_rects([TILE_CAPACITY, 70_000, 3])
    assert rects[0].tolist() == list(tile_uv_rect(0)) == rects[1].tolist()
    assert rects[2].tolist() == list(tile_uv_rect(3))


@pytest.mark.parametrize("bad", [-1, TILE_CAPACITY, 1.0, True, "3"])
def test_bad_tile_index_is_a_value_error_naming_the_argument(bad):
    with pytest.raises(ValueError, match="tile_index"):
        tile_uv_rect(bad)
    with pytest.raises(ValueError, match="tile_index"):
        tile_pixel_box(bad)


def test_bad_inset_is_a_value_error():
    with pytest.raises(ValueError, match="inset_px"):
        tile_uv_rects([0], inset_px=-1.0)


def test_committed_atlas_is_what_the_script_draws(atlas):
    assert atlas.shape == (ATLAS_PX[1], ATLAS_PX[0], 4)
    assert np.array_equal(atlas, build_atlas())


def test_every_tile_of_the_default_registry_has_its_own_painting(atlas):
    missing = tile_pixels(atlas, "base:missing")
    assert set(REG.tile_names) <= set(PAINTERS)
    tiles = {name: tile_pixels(atlas, name) for name in REG.tile_names}
    for name, pixels in tiles.items():
        assert np.array_equal(pixels, paint_tile(name)), name
        if name != "base:missing":
            assert not np.array_equal(pixels, missing), name
            assert pixels[..., 3].any(), f"{name} is fully transparent"
    distinct = {pixels.tobytes() for pixels in tiles.values()}
    assert len(distinct) == len(tiles)


def test_unused_cells_show_the_missing_checker(atlas):
    missing = tile_pixels(atlas, "base:missing")
    for index in (len(REG.tile_names), TILE_CAPACITY - 1):
        left, top, right, bottom = tile_pixel_box(index)
        assert np.array_equal(atlas[top:bottom, left:right], missing)


def test_textures_are_pixel_art_not_flat_colours(atlas):
    for name in ("base:stone", "base:dirt", "base:grass_top", "base:sand", "base:planks"):
        rgb = tile_pixels(atlas, name)[..., :3].reshape(-1, 3)
        assert len(np.unique(rgb, axis=0)) >= 12, name


def test_transparency_where_a_player_expects_it(atlas):
    for name in ("base:stone", "base:dirt", "base:grass_side", "base:log_side", "base:lamp"):
        assert np.all(tile_pixels(atlas, name)[..., 3] == 255), name
    glass = tile_pixels(atlas, "base:glass")[..., 3]
    assert np.all(glass[0] == 255) and np.all(glass[:, 0] == 255)  # the frame
    assert (glass[2:-2, 2:-2] == 0).mean() > 0.8  # a clear pane
    leaves = tile_pixels(atlas, "base:leaves")[..., 3]
    assert 0 < (leaves == 0).mean() < 0.15  # a few gaps, mostly foliage
    tall_grass = tile_pixels(atlas, "base:tall_grass")[..., 3]
    assert (tall_grass == 0).mean() > 0.5 and tall_grass[-1].any()  # blades rise from the bottom
    water = tile_pixels(atlas, "base:water")[..., 3]
    assert np.all((water > 0) & (water < 255))  # see-through


def test_grass_side_is_green_on_top_and_soil_below(atlas):
    side = tile_pixels(atlas, "base:grass_side")[..., :3].astype(int)
    top_row, bottom_row = side[0], side[-1]
    assert np.all(top_row[:, 1] > top_row[:, 0])  # green dominates red at the top
    assert np.all(bottom_row[:, 0] > bottom_row[:, 1])  # brown soil at the bottom


@pytest.fixture(scope="module")
def example_mods():
    """The project's example mods, loaded as the game loads them, and their registry."""
    mods = load_mods(entry_points=False, game=GAME)
    assert mods.errors == []
    return mods, make_registry(mods)


def test_the_base_atlas_holds_the_base_games_tiles_only():
    assert [name for name in ATLAS_TILES if not name.startswith("base:")] == []
    assert set(ATLAS_TILES) == set(PAINTERS)
    assert not set(MOD_TEXTURES) & set(ATLAS_TILES)


def test_no_example_mods_tile_is_drawn_in_the_base_atlas_picture(atlas):
    cells = {
        atlas[top:bottom, left:right].tobytes()
        for left, top, right, bottom in map(tile_pixel_box, range(TILE_CAPACITY))
    }
    assert [name for name in MOD_TEXTURES if paint_tile(name).tobytes() in cells] == []


def code_strings(path: Path) -> Iterator[tuple[int, str]]:
    """Every string constant of a module's code with its line, docstrings left out: a docstring's
    example (``registry.id("lamp:lamp_on")``) documents the mod API, it does not use a mod."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, documented)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


def test_the_engine_names_no_block_or_tile_of_a_mod(example_mods):
    mods, _ = example_mods
    names = "|".join(sorted(mod.name for mod in mods if mod.name not in dict(GAME)))
    assert "lamp" in names and "tnt" in names
    # "tnt:tnt", "lamp:lamp_on", or a tile's file name, "tnt_tnt_top.png".
    mod_name = re.compile(rf"(?<![\w.])(?:{names})(?::[a-z0-9_]|_[a-z0-9_]+\.png)")
    engine = [
        path
        for path in sorted(WORLD.rglob("*.py")) + sorted(GAME_SHELL.rglob("*.py"))
        if not path.is_relative_to(BASE_CONTENT)
    ]
    assert WORLD / "blocks" / "atlas.py" in engine
    found = [
        f"{path.relative_to(WORLD.parent)}:{line}: {text!r}"
        for path in engine
        for line, text in code_strings(path)
        if mod_name.search(text)
    ]
    assert found == []


def test_the_example_mods_tiles_are_their_own_pngs_as_the_tool_draws_them():
    assert {"lamp:lamp_on", "tnt:tnt_top", "tnt:tnt_bottom", "tnt:tnt_side"} <= set(MOD_TEXTURES)
    for name in MOD_TEXTURES:
        with Image.open(mod_texture_path(name)) as image:
            assert image.mode == "RGBA" and image.size == (TILE_PX, TILE_PX), name
            assert np.array_equal(np.asarray(image), paint_tile(name)), name


def test_every_tile_of_the_example_mods_has_its_file(example_mods):
    mods, registry = example_mods
    files, problems = find_tile_files(registry, mods)
    assert problems == []
    mod_tiles = registry.tile_names[len(ATLAS_TILES) :]
    assert {"lamp:lamp_on", "tnt:tnt_side"} <= set(mod_tiles)
    assert [tile.name for tile in files] == mod_tiles
