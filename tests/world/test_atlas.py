"""The texture atlas: tile layout, uv rectangles, and the committed PNG matching its script."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tools.make_atlas import PAINTERS, build_atlas, paint_tile
from world.base import default_registry
from world.blocks.atlas import (
    ATLAS_PATH,
    ATLAS_PX,
    TILE_CAPACITY,
    TILE_PX,
    TILES_PER_ROW,
    tile_pixel_box,
    tile_uv_rect,
    tile_uv_rects,
)

REG = default_registry()


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
