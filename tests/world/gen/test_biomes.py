"""Biomes: chosen by smooth climate noise, each with its blocks, blended at borders, the same in
any generation order, and readable by a mod."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from world import World
from world.base import default_registry
from world.gen.biomes import (
    BIOMES,
    DESERT,
    OCEAN,
    SEA_LEVEL,
    SNOWY,
    biome_at,
    biome_map,
    ground_height,
)
from world.gen.generators import TerrainGenerator
from world.gen.plants import cactus_stalks
from world.gen.terrain import clear_cache, generate_chunk, generate_region

REG = default_registry()
ID = {name.split(":")[-1]: REG.id(name) for name in REG.names if name != "air"}
SEED = 20240601
COARSE = np.arange(-4096, 4096, 32)


@pytest.fixture(scope="module")
def biomes() -> np.ndarray:
    return biome_map(SEED, COARSE[:, None], COARSE[None, :])


def first_column(biomes: np.ndarray, biome: int, dry: bool = True) -> tuple[int, int]:
    """A world column deep inside a biome (its neighbours on the coarse map share it)."""
    inside = biomes == biome
    inside[1:-1, 1:-1] &= (
        inside[:-2, 1:-1] & inside[2:, 1:-1] & inside[1:-1, :-2] & inside[1:-1, 2:]
    )
    for i, j in np.argwhere(inside[1:-1, 1:-1]) + 1:
        x, z = int(COARSE[i]), int(COARSE[j])
        if not dry or ground_height(SEED, np.array([[x]]), np.array([[z]]))[0, 0] > SEA_LEVEL + 1:
            return x, z
    raise AssertionError(f"no {BIOMES[biome]} found")


def test_every_biome_appears_and_each_has_a_fair_share(biomes):
    shares = np.bincount(biomes.ravel(), minlength=len(BIOMES)) / biomes.size
    assert all(0.08 < share < 0.4 for share in shares), shares


def test_biome_at_names_what_the_map_holds_and_checks_its_arguments(biomes):
    for i, j in [(0, 0), (17, 200), (120, 5), (255, 255)]:
        assert biome_at(SEED, int(COARSE[i]), int(COARSE[j])) == BIOMES[biomes[i, j]]
    assert biome_at(SEED, np.int64(5), 7) in BIOMES
    with pytest.raises(ValueError, match="wx"):
        biome_at(SEED, 1.5, 0)
    with pytest.raises(ValueError, match="seed"):
        biome_at("1", 0, 0)
    with pytest.raises(ValueError, match="wz"):
        biome_map(SEED, np.arange(3), np.linspace(0, 1, 3))


def test_land_biomes_are_large_smooth_regions(biomes):
    # Land neighbours on a 32-block grid mostly share their biome: regions, not noise (the
    # ocean follows the hills' finer noise).
    land = (biomes[1:] != OCEAN) & (biomes[:-1] != OCEAN)
    assert (biomes[1:] == biomes[:-1])[land].mean() > 0.85


def test_the_ocean_is_the_deep_sea():
    xs = np.arange(-1024, 1024, 8)
    ground = ground_height(SEED, xs[:, None], xs[None, :])
    ocean = biome_map(SEED, xs[:, None], xs[None, :]) == OCEAN
    assert np.array_equal(ocean, ground < SEA_LEVEL - 3)


def test_desert_columns_have_sand_tops_no_grass_and_cacti_stand_on_sand(biomes):
    x, z = first_column(biomes, DESERT)
    box = generate_region(SEED, (x - 32, 0, z - 32), (64, 120, 64), REG)
    map_ = biome_map(SEED, np.arange(x - 32, x + 32)[:, None], np.arange(z - 32, z + 32)[None, :])
    desert = map_ == DESERT
    assert desert.mean() > 0.5
    assert not (box == ID["grass"]).any(axis=1)[desert].any()
    assert not (box == ID["tall_grass"]).any(axis=1)[desert].any()
    ground = ground_height(
        SEED, np.arange(x - 32, x + 32)[:, None], np.arange(z - 32, z + 32)[None, :]
    )
    top = box[np.arange(64)[:, None], ground, np.arange(64)[None, :]]
    assert np.all(np.isin(top[desert], [ID["sand"], 0, ID["lava"]]))  # a cave's mouth is air
    cactus = box == ID["cactus"]
    assert cactus.any() and (box == ID["dead_bush"]).any()
    below = box[:, :-1, :][cactus[:, 1:, :]]
    assert np.all(np.isin(below, [ID["sand"], ID["cactus"]]))
    # No cactus has a block beside it (Minecraft's would break).
    inner = cactus[1:-1, :, 1:-1]
    for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        beside = box[1 + dx : 63 + dx, :, 1 + dz : 63 + dz][inner]
        assert not REG.solid[beside].any()


def test_cactus_stalks_stand_on_dry_desert_sand_one_to_three_high(biomes):
    x, z = first_column(biomes, DESERT)
    stalks = cactus_stalks(SEED, x - 64, z - 64, x + 64, z + 64)
    assert len(stalks) > 10
    for wx, wy, wz, height in stalks.tolist():
        assert biome_at(SEED, wx, wz) == "desert"
        assert wy - 1 >= SEA_LEVEL and 1 <= height <= 3


def test_snowy_columns_carry_snow_layers_and_the_cold_sea_freezes(biomes):
    x, z = first_column(biomes, SNOWY)
    box = generate_region(SEED, (x - 24, 0, z - 24), (48, 140, 48), REG)
    xs, zs = np.arange(x - 24, x + 24)[:, None], np.arange(z - 24, z + 24)[None, :]
    snowy = (biome_map(SEED, xs, zs) == SNOWY) & (ground_height(SEED, xs, zs) >= SEA_LEVEL)
    ground = ground_height(SEED, xs, zs)
    on_top = box[np.arange(48)[:, None], ground + 1, np.arange(48)[None, :]]
    top = box[np.arange(48)[:, None], ground, np.arange(48)[None, :]]
    covered = np.isin(on_top, [ID["snow"], ID["log"], ID["cactus"]]) | (top == 0)
    assert snowy.sum() > 500 and covered[snowy].all()
    assert (on_top[snowy & (top != 0)] == ID["snow"]).mean() > 0.97  # but trunks and cacti
    cold_sea = np.argwhere(biomes == OCEAN)
    frozen = 0
    for i, j in cold_sea[:: max(1, len(cold_sea) // 300)]:
        wx, wz = int(COARSE[i]), int(COARSE[j])
        surface = generate_region(SEED, (wx, SEA_LEVEL - 1, wz), (1, 1, 1), REG)[0, 0, 0]
        assert surface in (ID["water"], ID["ice"])
        frozen += surface == ID["ice"]
    assert frozen > 0


def test_heights_blend_across_biome_borders(biomes):
    xs = np.arange(-2048, 2048)
    for z in (-1000, 0, 777):
        row = ground_height(SEED, xs[:, None], np.array([[z]]))[:, 0]
        kinds = biome_map(SEED, xs[:, None], np.array([[z]]))[:, 0]
        border = np.flatnonzero(
            (kinds[1:] != kinds[:-1]) & (kinds[1:] != OCEAN) & (kinds[:-1] != OCEAN)
        )
        steps = np.abs(np.diff(row))
        assert len(border) > 2
        # No cliff where biomes meet: the steps there are like the hills' steps elsewhere.
        assert steps[border].max() <= max(3, np.percentile(steps, 99.5))
        assert steps[border].mean() <= 2 * steps.mean() + 0.5


def test_biome_chunks_come_out_the_same_in_any_order_and_as_one_region(biomes):
    for biome in (DESERT, SNOWY):
        x, z = first_column(biomes, biome)
        cx0, cz0 = x // 16 - 1, z // 16 - 1
        keys = list(itertools.product(range(cx0, cx0 + 3), range(0, 6), range(cz0, cz0 + 3)))
        worlds = []
        for order in (keys, keys[::-1]):
            clear_cache()
            world = World(REG, generator=TerrainGenerator(REG, SEED))
            for key in order:
                world.chunk(*key)
            worlds.append(world)
        whole = generate_region(SEED, (cx0 * 16, 0, cz0 * 16), (48, 96, 48), REG)
        for cx, cy, cz in keys:
            a, b = (w.chunk_blocks(cx, cy, cz) for w in worlds)
            assert np.array_equal(a, b)
            part = whole[16 * (cx - cx0) : 16 * (cx - cx0 + 1), 16 * cy : 16 * cy + 16]
            expected = part[:, :, 16 * (cz - cz0) : 16 * (cz - cz0 + 1)].reshape(-1)
            assert np.array_equal(a, expected)
        assert generate_chunk(SEED, cx0, 2, cz0, REG) is not None
