"""Random ticks: N random voxels per loaded chunk per game tick, only reacting blocks reported;
and the budget the timers, random ticks and ABMs share in a tick (`world.ticks.block_ticks`)."""

from __future__ import annotations

import math
import sys
from types import FrameType

import numpy as np
import pytest

from world import World
from world.base import GAME, default_registry
from world.blocks.abm import Abm
from world.blocks.block_type import BlockType
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.registration import make_registry
from world.rules import Rules
from world.ticks.random_ticks import MAX_CATCH_UP, TICK_SECONDS, RandomTicker


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


# -- the block ticks' budget --------------------------------------------------------------------

COST = 1 / 1024  # seconds one timer or ABM call takes on the fake clock (exact in binary)
BUDGET = 10 * COST


class FakeClock:
    """The rules' clock in these tests: it moves only when a block's call says it took time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _calls_in_a_tick(timers: int) -> int:
    """Python and C calls one tick makes in a world holding ``timers`` running timers, none due."""
    world = World()
    stone = world.registry.id("base:stone")
    chunk = np.argwhere(np.ones((16, 16, 16), dtype=bool))
    for cx in range(-(-timers // 4096)):
        world.set_blocks(chunk + np.array([cx * 16, 0, 0]), stone)
    data = world.block_data
    for n in range(timers):
        cx, idx = divmod(n, 4096)
        data.start_timer(Int3(cx * 16 + idx // 256, idx // 16 % 16, idx % 16), 1000.0)
    rules = Rules(world)
    for _ in range(3):
        rules.tick(1 / 60)
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        calls += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        rules.tick(1 / 60)
    finally:
        sys.setprofile(None)
    assert sum(len(held) for held in data.timers.values()) == timers  # all still waiting
    return calls


def test_idle_timers_cost_a_tick_nothing_however_many_there_are() -> None:
    # The work of a tick, counted in calls rather than timed: a hundred thousand timers that
    # are not due cost what a thousand do (the store keeps them in a heap; a scan would make a
    # call or more per timer). bench/ticks.py times a million.
    few, many = _calls_in_a_tick(1_000), _calls_in_a_tick(100_000)
    assert many <= few + 50


def _bell_world(clock: FakeClock, cost: float) -> tuple[World, list[tuple[int, float]]]:
    """A row of 100 bells whose timers end in order along x; ringing takes ``cost`` seconds."""
    fired: list[tuple[int, float]] = []

    def ring(pos: Int3, elapsed: float) -> None:
        fired.append((pos.x, elapsed))
        clock.now += cost

    registry = default_registry()
    bell = registry.register(BlockType("farm:bell", on_timer=ring))
    world = World(registry)
    for x in range(100):
        world.set_block(x, 0, 0, bell)
        world.start_timer(x, 0, 0, 1.0 + x / 1000)
    return world, fired


def test_timers_due_together_fire_a_budget_s_worth_a_tick_oldest_first_told_the_real_time() -> None:
    clock = FakeClock()
    world, fired = _bell_world(clock, COST)
    rules = Rules(world, block_tick_budget=BUDGET, clock=clock)
    rules.tick(2.0)  # every timer is due
    per_tick = [len(fired)]
    assert sum(len(held) for held in world.block_data.timers.values()) == 90  # the rest wait
    while len(fired) < 100 and len(per_tick) < 50:
        before = len(fired)
        rules.tick(0.05)
        per_tick.append(len(fired) - before)
    assert per_tick == [10] * 10  # the budget's worth each tick: 10 calls of COST
    assert [x for x, _ in fired] == list(range(100))  # oldest end first, none lost or twice
    # A timer fired late is told the world time that really passed since it started.
    assert fired[0][1] == pytest.approx(2.0)
    assert fired[-1][1] == pytest.approx(2.0 + 9 * 0.05)


class Flood:
    """A mod whose ABM acts on every stone picked (chance 1), each call taking COST, and whose
    bell's timer takes ten budgets."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.acted: list[Int3] = []
        self.rang: list[Int3] = []

    @hookimpl
    def register_blocks(self, registry: object) -> None:
        registry.register_abm(Abm(("base:stone",), self.act))  # type: ignore[attr-defined]
        registry.register(BlockType("flood:bell", on_timer=self.ring))  # type: ignore[attr-defined]

    def act(self, pos: Int3) -> None:
        self.acted.append(pos)
        self.clock.now += COST

    def ring(self, pos: Int3) -> None:
        self.rang.append(pos)
        self.clock.now += 10 * BUDGET


def _flooded(clock: FakeClock, columns: int = 4) -> tuple[World, Rules, Flood]:
    """``columns`` × ``columns`` chunk columns, two chunks deep, all stone, under the flood."""
    flood = Flood(clock)
    mods = load_mods([], entry_points=False, plugins={"flood": flood}, game=GAME)
    assert mods.errors == []
    world = World(make_registry(mods))
    stone = world.registry.id("base:stone")
    chunk = np.argwhere(np.ones((16, 16, 16), dtype=bool))
    for cx in range(columns):
        for cz in range(columns):
            for cy in range(2):
                world.set_blocks(chunk + np.array([cx, cy, cz]) * 16, stone)
    rules = Rules(world, mods, random_tick_seed=1, block_tick_budget=BUDGET, clock=clock)
    return world, rules, flood


def test_an_abm_flood_runs_a_budget_s_worth_a_tick_and_the_next_ticks_go_on_over_every_chunk() -> (
    None
):
    clock = FakeClock()
    _, rules, flood = _flooded(clock)
    per_tick = []
    for _ in range(20):
        before, started = len(flood.acted), clock.now
        rules.tick(TICK_SECONDS)  # one game tick: 3 picks in each of 32 chunks, 96 calls due
        per_tick.append(len(flood.acted) - before)
        assert clock.now - started == BUDGET  # the tick kept to its budget
    assert per_tick == [10] * 20
    # The picks a tick has no time for are dropped, and the next tick starts where it was cut
    # off: every chunk gets its share, none is starved by its place in the order.
    acted_chunks = {(p.x >> 4, p.y >> 4, p.z >> 4) for p in flood.acted}
    assert acted_chunks == {(cx, cy, cz) for cx in range(4) for cy in range(2) for cz in range(4)}
    rules.close()


def test_timers_and_random_ticks_each_get_a_call_a_tick_even_past_the_budget() -> None:
    clock = FakeClock()
    world, rules, flood = _flooded(clock, columns=2)
    bell = world.registry.id("flood:bell")
    for x in range(3):
        world.set_block(x, 40, 0, bell)
        world.start_timer(x, 40, 0, 0.01)
    for tick in range(1, 4):
        rules.tick(TICK_SECONDS)
        # One timer (which alone takes ten budgets), and still one pick with its ABM.
        assert (len(flood.rang), len(flood.acted)) == (tick, tick)
    rules.tick(TICK_SECONDS)
    assert len(flood.rang) == 3 and len(flood.acted) == 4 + 9  # timers done: a budget's worth
    rules.close()


@pytest.mark.parametrize("budget", [0.0, -1.0, math.inf, math.nan, "2 ms"])
def test_a_bad_budget_is_refused_naming_it(budget: object) -> None:
    with pytest.raises(ValueError, match="block_tick_budget"):
        Rules(World(), block_tick_budget=budget)  # type: ignore[arg-type]
