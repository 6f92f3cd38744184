"""Random ticks: N random voxels per loaded chunk per game tick, only reacting blocks reported."""

from __future__ import annotations

import math

import numpy as np
import pytest

from world.blocks import BlockType, default_registry
from world.chunks import World
from world.random_ticks import MAX_CATCH_UP, TICK_SECONDS, RandomTicker
from world.rules import Rules


def crop_world() -> tuple[World, int]:
    registry = default_registry()
    crop = registry.register(BlockType("farm:crop", on_random_tick=lambda *a: None))
    return World(registry), crop


def test_picks_land_on_reacting_blocks_at_their_world_positions() -> None:
    world, crop = crop_world()
    stone = world.registry.id("base:stone")
    for x in range(-16, 16):
        for z in range(-16, 16):
            world.set_block(x, -1, z, stone)
    world.set_block(-3, -20, 7, crop)  # a lone crop, in chunk (-1, -2, 0)
    ticker = RandomTicker(world, per_chunk=4096, seed=1)  # about 63 % of each chunk's voxels
    picks = [pick for _ in range(10) for pick in ticker.pick()]
    assert set(picks) == {((-3, -20, 7), crop)}


def test_the_rate_is_per_chunk_and_per_tick() -> None:
    world, crop = crop_world()
    # Four chunks, each a quarter full of crops.
    for cx in range(2):
        for cz in range(2):
            base = np.array([cx * 16, 0, cz * 16])
            xyz = np.argwhere(np.ones((16, 4, 16), dtype=bool)) + base
            world.set_blocks(xyz, np.full(len(xyz), crop, dtype=np.uint16))
    ticker = RandomTicker(world, per_chunk=3, seed=7)
    ticks = 4000
    hits = sum(len(ticker.pick()) for _ in range(ticks))
    expected = ticks * 4 * 3 * 0.25  # 4 chunks, 3 picks each, a quarter of voxels react
    assert abs(hits - expected) < 4 * np.sqrt(expected * 0.75)  # 4 standard deviations


def test_frame_time_becomes_whole_game_ticks_with_a_bounded_catch_up() -> None:
    world, _ = crop_world()
    ticker = RandomTicker(world)
    assert [ticker.due(1 / 60) for _ in range(6)] == [0, 0, 1, 0, 0, 1]
    assert ticker.due(10.0) == MAX_CATCH_UP  # a long pause does not flood the world
    assert ticker.due(0.0) == 0
    with pytest.raises(ValueError, match="dt must be"):
        ticker.due(-1.0)
    with pytest.raises(ValueError, match="per_chunk must be"):
        RandomTicker(world, per_chunk=5000)


def test_no_reacting_blocks_means_no_work() -> None:
    world = World(default_registry())
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    assert RandomTicker(world, seed=1).pick() == []


def test_chunks_at_the_edge_of_the_loaded_area_are_not_ticked() -> None:
    registry = default_registry()
    crop = registry.register(BlockType("farm:crop", on_random_tick=lambda *a: None))
    generated: list[tuple[int, int, int]] = []

    def generator(cx: int, cy: int, cz: int) -> None:
        generated.append((cx, cy, cz))

    world = World(registry, generator)
    world.set_blocks(np.argwhere(np.ones((16, 16, 16), dtype=bool)), crop)  # chunk (0, 0, 0)
    ticker = RandomTicker(world, per_chunk=64, seed=3)
    assert ticker.pick() == [] and len(generated) == 1  # only its own read: no neighbour made
    for key in [(x, y, z) for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1)]:
        world.chunk(*key)
    assert len(ticker.pick()) == 64  # surrounded: ticked


def ticking_world() -> tuple[World, int, set[tuple[int, int]]]:
    """A world with a crop block whose random ticks record their chunk column (cx, cz)."""
    ticked: set[tuple[int, int]] = set()

    def grow(pos: tuple[int, int, int]) -> None:
        ticked.add((pos[0] >> 4, pos[2] >> 4))

    registry = default_registry()
    crop = registry.register(BlockType("farm:crop", on_random_tick=grow))
    return World(registry), crop, ticked


def test_only_chunks_within_the_simulation_distance_of_the_player_are_ticked() -> None:
    world, crop, ticked = ticking_world()
    # One crop-filled chunk in each column of a 21×21 square around the origin's column.
    for cx in range(-10, 11):
        for cz in range(-10, 11):
            xyz = np.argwhere(np.ones((16, 1, 16), dtype=bool)) + np.array([cx * 16, 0, cz * 16])
            world.set_blocks(xyz, np.full(len(xyz), crop, dtype=np.uint16))
    rules = Rules(world, random_tick_seed=5, simulation_distance=3)
    player = (5 * 16 + 0.5, 1.0, -2 * 16 + 0.5)  # in column (5, -2)
    for _ in range(100):  # a column misses 100 ticks with a chance of 4e-9
        rules.tick(TICK_SECONDS, player)
    # Every column within 3 of (5, -2) ticks, none beyond: a circle, as the view distance.
    assert ticked == {
        (cx, cz)
        for cx in range(-10, 11)
        for cz in range(-10, 11)
        if (cx - 5) ** 2 + (cz + 2) ** 2 <= 9
    }
    ticked.clear()
    for _ in range(100):
        rules.tick(TICK_SECONDS)  # no player: every loaded chunk
    assert len(ticked) == 21 * 21
    with pytest.raises(ValueError, match="around"):
        rules.tick(TICK_SECONDS, (math.nan, 0.0, 0.0))
    with pytest.raises(ValueError, match="distance"):
        Rules(world, simulation_distance=-1)


def test_chunks_come_into_the_simulated_area_as_the_player_moves_and_loads() -> None:
    world, crop, ticked = ticking_world()
    layer = np.argwhere(np.ones((16, 1, 16), dtype=bool))
    for cx in range(0, 3):
        world.set_blocks(layer + np.array([cx * 16, 0, 0]), crop)
    rules = Rules(world, random_tick_seed=2, simulation_distance=1)

    def play(pos: tuple[float, float, float]) -> None:
        ticked.clear()
        for _ in range(40):
            rules.tick(TICK_SECONDS, pos)

    play((0.5, 1.0, 0.5))  # column (0, 0): it and (1, 0) are within 1
    assert ticked == {(0, 0), (1, 0)}
    play((40.5, 1.0, 0.5))  # walked to (2, 0): (0, 0) drops out, (2, 0) comes in
    assert ticked == {(1, 0), (2, 0)}
    world.set_blocks(layer + np.array([48, 0, 0]), crop)  # loaded next to the player
    world.set_blocks(layer + np.array([32, -32, 16]), crop)  # below the build height: never
    play((40.5, 1.0, 0.5))
    assert ticked == {(1, 0), (2, 0), (3, 0)}
