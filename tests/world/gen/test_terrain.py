"""World generation: deterministic chunks, seamless borders, layers, sea, trees, generators."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.blocks.registry import BlockRegistry
from world.gen.biomes import SEA_LEVEL, biome_map
from world.gen.caves import LAVA_LEVEL
from world.gen.generators import (
    FlatGenerator,
    TerrainGenerator,
)
from world.gen.plants import TREE_LINE, tree_trunks
from world.gen.terrain import (
    DIRT_DEPTH,
    SANDSTONE_DEPTH,
    SEA_ROOF,
    clear_cache,
    generate_chunk,
    generate_region,
    surface_height,
)
from world.voxels.layout import CHUNK_VOLUME

REG = default_registry()
ID = {name.split(":")[-1]: REG.id(name) for name in REG.names if name != "air"}
AIR = 0
GROUND = {ID[n] for n in ("stone", "dirt", "grass", "sand", "gravel", "bedrock", "sandstone")}
CAVE = {AIR, *([ID["lava"]] if "lava" in ID else [])}  # what a cave holds
SEED = 20240601


def stitched(seed: int, chunks_x: range, chunks_y: range, chunks_z: range) -> np.ndarray:
    """The world made of separately generated chunks, as one [x, y, z] array."""
    out = np.zeros((16 * len(chunks_x), 16 * len(chunks_y), 16 * len(chunks_z)), np.uint16)
    for i, j, k in itertools.product(*(range(len(r)) for r in (chunks_x, chunks_y, chunks_z))):
        blocks = generate_chunk(seed, chunks_x[i], chunks_y[j], chunks_z[k], REG)
        if blocks is not None:
            out[16 * i : 16 * i + 16, 16 * j : 16 * j + 16, 16 * k : 16 * k + 16] = blocks.reshape(
                16, 16, 16
            )
    return out


# -- determinism ---------------------------------------------------------------------------------


@given(
    st.integers(-(2**70), 2**70), st.integers(-500, 500), st.integers(0, 5), st.integers(-500, 500)
)
@settings(max_examples=25, deadline=None)
def test_same_seed_and_chunk_give_identical_blocks_even_with_a_cold_cache(seed, cx, cy, cz):
    first = generate_chunk(seed, cx, cy, cz, REG)
    clear_cache()
    second = generate_chunk(seed, cx, cy, cz, REG)
    assert (first is None) == (second is None)
    if first is not None:
        assert first.dtype == np.uint16 and first.shape == (CHUNK_VOLUME,)
        assert np.array_equal(first, second)


def test_different_seeds_give_different_worlds():
    a = stitched(1, range(2), range(2, 4), range(2))
    b = stitched(2, range(2), range(2, 4), range(2))
    assert not np.array_equal(a, b)


def test_generation_order_does_not_change_the_world():
    keys = list(itertools.product(range(-2, 2), range(0, 6), range(-2, 2)))
    shuffled = keys[:]
    random.Random(5).shuffle(shuffled)
    worlds = []
    for order in (keys, shuffled[::-1]):
        clear_cache()
        world = World(REG, generator=TerrainGenerator(REG, SEED))
        for key in order:
            world.chunk(*key)
        worlds.append(world)
    for key in keys:
        assert np.array_equal(worlds[0].chunk_blocks(*key), worlds[1].chunk_blocks(*key)), key


def test_generated_arrays_are_fresh_and_writable():
    first = generate_chunk(SEED, 0, 0, 0, REG)
    assert first is not None and first.flags.writeable
    first[:] = ID["glass"]
    assert not np.array_equal(generate_chunk(SEED, 0, 0, 0, REG), first)
    flat = FlatGenerator(REG)
    block = flat(0, 0, 0)
    assert block is not None and block.flags.writeable
    block[:] = 0
    assert flat(0, 0, 0).any()


# -- seams ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("origin", [(0, 0), (-3, 5), (40, -17)])
def test_chunks_join_without_seams(origin):
    """Chunks generated one by one equal the same box generated in one piece."""
    cx0, cz0 = origin
    whole = generate_region(SEED, (16 * cx0, 0, 16 * cz0), (48, 96, 48), REG)
    pieces = stitched(SEED, range(cx0, cx0 + 3), range(6), range(cz0, cz0 + 3))
    assert np.array_equal(whole, pieces)


def test_hills_cross_chunk_borders_smoothly():
    heights = np.array(
        [[surface_height(SEED, wx, wz) for wz in range(-40, 40, 7)] for wx in range(-40, 40)]
    )
    # A height map of smooth noise: no cliff along the chunk grid lines.
    step_x = np.abs(np.diff(heights, axis=0))
    border = step_x[[7, 23, 39, 55]].mean()
    inside = np.delete(step_x, [7, 23, 39, 55], axis=0).mean()
    assert border <= 2 * inside + 0.5


def border_tree(seed: int) -> np.ndarray:
    """A tree whose canopy crosses a chunk border on the x axis."""
    for tree in tree_trunks(seed, -256, -256, 256, 256):
        if tree[0] % 16 in (0, 1, 14, 15):
            return tree
    raise AssertionError("no tree near a chunk border")


def test_a_tree_crossing_a_chunk_border_is_whole():
    wx, wy, wz, height, _ = border_tree(SEED).tolist()
    world = World(REG, generator=TerrainGenerator(REG, SEED))
    column = [world.get_block(wx, wy + dy, wz) for dy in range(-1, height)]
    assert column == [ID["dirt"]] + [ID["log"]] * height
    top = wy + height - 1
    # Leaves on both sides of the trunk, in two different chunks.
    for dx in (-2, 2):
        assert world.get_block(wx + dx, top, wz) == ID["leaves"]
        assert world.get_block(wx, top, wz + dx) == ID["leaves"]
    assert world.get_block(wx, top + 1, wz) == ID["leaves"]
    assert (wx - 2) // 16 != (wx + 2) // 16


# -- layers, sea, trees ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def region() -> np.ndarray:
    return generate_region(SEED, (-64, 0, -64), (128, 112, 128), REG)


def test_bedrock_floor_and_nothing_below_it(region):
    assert np.all(region[:, 0, :] == ID["bedrock"])
    assert np.all(region[:, 1:, :] != ID["bedrock"])
    assert generate_chunk(SEED, 0, -1, 0, REG) is None
    assert generate_chunk(SEED, 5, -7, 3, REG) is None


def test_air_above_the_hills(region):
    assert not region[:, 100:, :].any()
    assert generate_chunk(SEED, 0, 8, 0, REG) is None


def test_columns_are_grass_over_dirt_over_stone_or_sand_by_the_sea_where_no_cave_cuts_them(region):
    kinds = set()
    biomes = biome_map(SEED, np.arange(-64, 64)[:, None], np.arange(-64, 64)[None, :])
    for x, z in itertools.product(range(0, 128, 3), repeat=2):
        height = surface_height(SEED, x - 64, z - 64)
        column = region[x, :, z]
        top = column[height - 1]
        if height - 1 > SEA_LEVEL:
            kind, expected_top, expected_sub = "land", {ID["grass"], ID["dirt"]}, ID["dirt"]
        elif height - 1 >= SEA_LEVEL - 3:
            kind, expected_top, expected_sub = "beach", {ID["sand"]}, ID["sand"]
        else:
            kind, expected_top, expected_sub = "sea", {ID["sand"], ID["gravel"]}, ID["dirt"]
        assert biomes[x, z] == (0 if kind == "sea" else biomes[x, z])  # the deep sea is ocean
        kinds.add(kind)
        cave = np.isin(column, list(CAVE))
        # dirt on land only under a tree trunk; a cave's mouth may have taken the top block
        assert top in expected_top or cave[height - 1]
        sub = slice(height - 1 - DIRT_DEPTH, height - 1)
        assert np.all((column[sub] == expected_sub) | cave[sub])
        deep = slice(1, height - 1 - DIRT_DEPTH)
        assert np.all((column[deep] == ID["stone"]) | cave[deep])
        above = column[height:]
        if height < SEA_LEVEL:
            assert np.all(above[: SEA_LEVEL - height] == ID["water"])
        assert not np.isin(above[max(0, SEA_LEVEL - height) :], [ID["water"], *GROUND]).any()
    assert kinds == {"land", "beach", "sea"}


def test_the_sea_fills_up_to_sea_level_and_no_higher(region):
    water = region == ID["water"]
    assert water.any()
    assert not water[:, SEA_LEVEL:, :].any()
    assert water[:, SEA_LEVEL - 1, :].any()


def test_tall_grass_grows_on_grass_and_trees_on_dirt(region):
    below_tall_grass = region[:, :-1, :][region[:, 1:, :] == ID["tall_grass"]]
    assert len(below_tall_grass) and np.all(below_tall_grass == ID["grass"])
    below_logs = region[:, :-1, :][(region[:, 1:, :] == ID["log"])]
    assert len(below_logs) and np.all(np.isin(below_logs, [ID["dirt"], ID["log"]]))
    assert (region == ID["leaves"]).any()


def test_trees_stand_on_land_below_the_tree_line():
    trees = tree_trunks(SEED, -200, -200, 200, 200)
    assert len(trees) > 10
    for wx, wy, wz, height, _ in trees.tolist():
        ground = wy - 1
        assert SEA_LEVEL < ground <= TREE_LINE
        assert surface_height(SEED, wx, wz) == wy
        assert 4 <= height <= 6


def test_surface_height_is_where_a_player_stands(region):
    for wx, wz in [(-64, -64), (0, 0), (17, -33), (63, 63)]:
        height = surface_height(SEED, wx, wz)
        column = region[wx + 64, :, wz + 64]
        assert column[height - 1] in GROUND
        assert column[height] not in GROUND


def test_spawn_point_is_on_dry_ground_with_room_to_stand():
    gen = TerrainGenerator(REG, SEED)
    wx, wy, wz = gen.spawn_point()
    world = World(REG, generator=gen)
    assert world.get_block(wx, wy - 1, wz) in GROUND
    assert world.get_block(wx, wy - 1, wz) != ID["sand"] or wy - 1 > SEA_LEVEL - 1
    assert not REG.solid[world.get_block(wx, wy, wz)]
    assert not REG.solid[world.get_block(wx, wy + 1, wz)]
    assert wy == gen.surface_height(wx, wz)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: generate_chunk(1.5, 0, 0, 0, REG), "seed"),
        (lambda: generate_chunk(1, 0, "0", 0, REG), "cy"),
        (lambda: surface_height(1, 0.5, 0), "wx"),
        (lambda: TerrainGenerator(REG, True), "seed"),
        (lambda: TerrainGenerator(None, 1), "registry"),
        (lambda: FlatGenerator(REG, layers=[("base:stone", -1)]), "thickness"),
        (lambda: generate_region(1, (0, 0, 0), (0, 1, 1), REG), "shape"),
    ],
)
def test_bad_arguments_are_value_errors_naming_them(call, argument):
    with pytest.raises(ValueError, match=argument):
        call()


# -- caves -----------------------------------------------------------------------------------------


def test_caves_hollow_the_ground_and_open_at_the_surface_in_places(region):
    xs = np.arange(-64, 64)
    ground = np.array([[surface_height(SEED, x, z) - 1 for z in xs] for x in xs])
    wy = np.arange(region.shape[1])[None, :, None]
    underground = (wy >= 2) & (wy < ground[:, None, :] - DIRT_DEPTH)
    hollow = np.isin(region, list(CAVE)) & underground
    assert 0.03 < hollow.sum() / underground.sum() < 0.3  # a few percent of the rock is cave
    assert (hollow.any(axis=1)).mean() > 0.2  # in many columns
    top = region[np.arange(128)[:, None], ground, np.arange(128)[None, :]]
    land = ground >= SEA_LEVEL
    mouths = (top == AIR) & land
    assert 0 < mouths.sum() < 0.1 * land.sum()  # some mouths, most ground whole


def ocean_region() -> tuple[tuple[int, int, int], np.ndarray]:
    """A box of mostly deep sea, found on the biome map."""
    xs = np.arange(-2048, 2048, 64)
    ocean = biome_map(SEED, xs[:, None], xs[None, :]) == 0
    i, j = np.argwhere(ocean)[0]
    origin = (int(xs[i]) - 48, 0, int(xs[j]) - 48)
    return origin, generate_region(SEED, origin, (96, SEA_LEVEL + 4, 96), REG)


def test_no_cave_opens_into_the_sea():
    _, box = ocean_region()
    water = box == ID["water"]
    assert water.sum() > 20_000
    hollow = np.isin(box, list(CAVE))
    for axis in range(3):
        for step in (1, -1):
            beside = np.roll(water, step, axis=axis)
            edge = [slice(None)] * 3
            edge[axis] = 0 if step == 1 else -1
            beside[tuple(edge)] = False
            touching = hollow & beside
            # Only the open air over the sea's surface touches water.
            assert not touching[:, :SEA_LEVEL, :].any(), (axis, step)


def test_caves_under_the_sea_keep_a_roof_of_rock():
    origin, box = ocean_region()
    xs = np.arange(origin[0], origin[0] + 96)
    zs = np.arange(origin[2], origin[2] + 96)
    ground = np.array([[surface_height(SEED, x, z) - 1 for z in zs] for x in xs])
    wy = np.arange(box.shape[1])[None, :, None]
    near_floor = (wy > ground[:, None, :] - SEA_ROOF) & (wy <= ground[:, None, :])
    sea = ground[:, None, :] < SEA_LEVEL - 1
    assert not (np.isin(box, list(CAVE)) & near_floor & sea).any()


def test_lava_lies_only_low_down_in_caves(region):
    lava = region == ID["lava"]
    assert lava.any()  # lava lakes
    assert not lava[:, LAVA_LEVEL + 1 :, :].any()
    below = region[:, :-1, :][lava[:, 1:, :]]
    assert np.isin(below, [ID["lava"], ID["stone"], ID["sandstone"], ID["bedrock"]]).all()
    assert REG.id("base:lava") == REG.id("base:lava")  # the source state: lava lakes stay still
    assert REG.props(REG.id("base:lava"))["level"] == 8


def test_a_registry_without_lava_leaves_the_deep_caves_empty():
    plain = BlockRegistry()
    for block in REG.blocks:
        if block.name not in ("air", "base:lava"):
            plain.register(block)
    box = generate_region(SEED, (-64, 0, -64), (128, LAVA_LEVEL + 1, 128), plain)
    with_lava = generate_region(SEED, (-64, 0, -64), (128, LAVA_LEVEL + 1, 128), REG)
    lava = with_lava == ID["lava"]
    assert lava.any() and np.all(box[lava] == 0)


# -- desert sandstone ------------------------------------------------------------------------------


def test_desert_sand_lies_on_sandstone():
    xs = np.arange(-4096, 4096, 32)
    desert = np.argwhere(biome_map(SEED, xs[:, None], xs[None, :]) == 3)
    found = 0
    for i, j in desert[:: max(1, len(desert) // 40)]:
        x, z = int(xs[i]), int(xs[j])
        height = surface_height(SEED, x, z)
        if height - 1 <= SEA_LEVEL:
            continue
        column = generate_region(SEED, (x, 0, z), (1, height + 1, 1), REG)[0, :, 0]
        layers = column[height - 1 - DIRT_DEPTH - SANDSTONE_DEPTH : height]
        cave = np.isin(layers, list(CAVE))
        expected = [ID["sandstone"]] * SANDSTONE_DEPTH + [ID["sand"]] * (DIRT_DEPTH + 1)
        assert np.all((layers == expected) | cave)
        found += 1
    assert found > 10
