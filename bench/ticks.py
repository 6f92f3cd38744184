"""Blocks acting over time, and terrain with ores: what the example mods cost.

Figures (medians):

- one game tick of `world.rules.Rules.tick` (1/20 s: random ticks of 3 voxels per chunk, the
  example mods' ABMs and hooks) over 256 loaded chunks of generated terrain (16 columns of 16
  chunks... arranged 8 × 8 columns × 4 layers at the surface), with every example mod loaded
  (`leaf_decay`'s ABM reads a 9³ cube around each leaves block picked);
- one game tick over what view distance 8 keeps loaded (the columns within 9.5 of the
  player's, 6 layers at the surface), every chunk ticked, against the game's tick with the
  player in the middle: random ticks reach only the chunks within the simulation distance
  (4 columns);
- one game tick with 100 running timers among them;
- one game tick with 1,000,000 running timers that are not due (target: as fast as a tick
  without them, <= 1 ms: a running timer costs nothing until it is due);
- the ticks after all of them fell due at once: each runs a share of them within the block
  work's budget (`world.ticks.block_ticks.BLOCK_TICK_BUDGET`, 2 ms), the rest waiting, in order;
- an ABM flood: an ABM on stone with chance 1 over the loaded terrain (every loaded chunk
  ticked): the ABM calls a tick against that same budget, and how many fit in it;
- generating one chunk of terrain with the `ores` mod's coal and iron veins, against without.

The budget is for the timers', random ticks' and ABMs' calls (`world.ticks.block_ticks`): what those
take a tick is timed apart (inside `BlockTicks.run`, less drawing the picks) and held to it, one
call over at most. The tick's other work comes on top and is reported: the mods' ``on_tick``,
the neighbour notifications, and drawing the picks (bounded by the simulated area, not by the
budget: in the flood, every loaded chunk holds a reacting block).

Run: ``python -m bench.ticks``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.common import median_seconds, print_table
from world import World
from world.base import GAME
from world.blocks.abm import Abm
from world.blocks.block_type import BlockType
from world.gen.terrain import clear_cache, surface_height
from world.gen.worldgen import mod_hooks, worldgen_factory
from world.geometry import Int3
from world.mods.guard import HookGuard
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.registrar import BlockRegistrar
from world.mods.registration import make_registry
from world.mods.view import ModWorld
from world.rules import Rules
from world.ticks.block_ticks import BLOCK_TICK_BUDGET

SEED = 1
TICK_TARGET_MS = 1.0
ORE_TARGET_MS = 2.0
TICKS = 400
IDLE_TIMERS = 1_000_000
BUDGET_MS = BLOCK_TICK_BUDGET * 1000


class BenchMod:
    """The bench's own mod: a bell whose timer does next to nothing, and with ``flood`` an ABM
    on stone with chance 1 (each call reads the block it was given)."""

    def __init__(self, flood: bool = False) -> None:
        self.flood = flood
        self.rang = 0
        self.acted = 0

    @hookimpl
    def register_blocks(self, registry: BlockRegistrar) -> None:
        registry.register(BlockType("bench:bell", on_timer=self.ring))
        if self.flood:
            registry.register_abm(Abm(("base:stone",), self.act))

    def ring(self) -> None:
        self.rang += 1

    def act(self, world: ModWorld, pos: Int3) -> None:
        self.acted += 1
        world.get_block(*pos)


def loaded_world(radius: float | None = None, bench: BenchMod | None = None) -> tuple[World, Rules]:
    """Chunks around the surface, their neighbours loaded too (ticked chunks need them): a
    10 × 10 square of columns, or the columns within ``radius`` of column (0, 0); ``bench``
    loads the bench's own mod beside the example mods."""
    plugins = {} if bench is None else {"bench": bench}
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=plugins, game=GAME)
    registry = make_registry(mods)
    factory = worldgen_factory(mod_hooks(mods, HookGuard(mods.record)))
    world = World(registry, factory("terrain", SEED, registry))
    reach = 5 if radius is None else int(radius) + 1
    for cx in range(-reach, reach):
        for cz in range(-reach, reach):
            if radius is not None and cx * cx + cz * cz > radius * radius:
                continue
            top = surface_height(SEED, cx * 16 + 8, cz * 16 + 8) // 16
            for cy in range(top - 3, top + 3):
                world.chunk(cx, cy, cz)
    return world, Rules(world, mods)


class Stopwatch:
    """Wraps a function: the seconds spent inside it, summed until `take`."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.seconds = 0.0

    def __call__(self, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.function(*args)
        finally:
            self.seconds += time.perf_counter() - start

    def take(self) -> float:
        seconds, self.seconds = self.seconds, 0.0
        return seconds


def budgeted_ms(rules: Rules, ticks: int) -> tuple[float, float, float]:
    """Medians over ``ticks`` ticks, in ms: the whole tick, the budgeted calls (the time inside
    `BlockTicks.run` less drawing the picks), and drawing the picks."""
    block_ticks = rules._ticks
    run, pick = Stopwatch(block_ticks.run), Stopwatch(block_ticks.ticker.pick)
    setattr(block_ticks, "run", run)  # noqa: B010 - timing the instance's own calls
    setattr(block_ticks.ticker, "pick", pick)  # noqa: B010
    whole, calls, drawing = [], [], []
    for _ in range(ticks):
        start = time.perf_counter()
        rules.tick(1 / 20)
        whole.append(time.perf_counter() - start)
        drawn = pick.take()
        calls.append(run.take() - drawn)
        drawing.append(drawn)
    delattr(block_ticks, "run")
    delattr(block_ticks.ticker, "pick")
    tick, work, drawn = (statistics.median(t) * 1000 for t in (whole, calls, drawing))
    return tick, work, drawn


def tick_ms(
    rules: Rules, around: tuple[float, float, float] | None = None, ticks: int = TICKS
) -> float:
    times = []
    for _ in range(ticks):
        start = time.perf_counter()
        rules.tick(1 / 20, around)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    world, rules = loaded_world()
    loaded = len(world.chunks)
    plain = tick_ms(rules)
    wide, wide_rules = loaded_world(9.5)
    every = tick_ms(wide_rules)
    simulated = tick_ms(wide_rules, (8.0, 64.0, 8.0))
    registry = world.registry
    lamp = registry.id("base:lamp")
    for i in range(100):
        world.set_block(i, 120, 0, lamp)
        world.start_timer(i, 120, 0, 1000.0 + i)
    with_timers = tick_ms(rules)
    idle, (due, due_calls, _), fired = million_timers()
    flood = BenchMod(flood=True)
    flood_world, flood_rules = loaded_world(bench=flood)
    flood_world.dirty.clear()  # meshed, as in the game: the ticker looks at what changes
    flood_rules.tick(1 / 20)  # the ticker looks at every chunk once
    flood.acted = 0
    flooded, flood_calls, flood_drawing = budgeted_ms(flood_rules, 100)
    acted = flood.acted / 100

    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    registry = make_registry(mods)
    with_ores = worldgen_factory()("terrain", SEED, registry)
    bare = with_ores.base  # type: ignore[attr-defined]
    # Chunks just under the surface (stone, dirt and caves): where ores go and terrain is work.
    keys = []
    for i in range(200):
        cx, cz = (i % 20) * 3 - 30, (i // 20) * 3 - 15
        keys.append((cx, surface_height(SEED, cx * 16 + 8, cz * 16 + 8) // 16 - 1, cz))

    def generate(gen: object) -> float:
        clear_cache()
        times = []
        for key in keys:
            start = time.perf_counter()
            gen(*key)  # type: ignore[operator]
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    ores_ms, bare_ms = generate(with_ores), generate(bare)  # each from a cold column cache
    pick_ms = median_seconds(lambda: rules._ticks.ticker.pick(), 200) * 1000

    rows = [
        (
            f"one game tick, {loaded} loaded chunks, example mods",
            f"{plain:.3f} ms",
            f"<= {TICK_TARGET_MS:.0f} ms",
            f"{TICK_TARGET_MS / plain:.1f}× target",
        ),
        ("  of which picking the random-tick voxels", f"{pick_ms:.3f} ms", "-", "reported"),
        (
            f"one game tick, view distance 8's {len(wide.chunks)} chunks, all ticked",
            f"{every:.3f} ms",
            "-",
            "reported",
        ),
        (
            "  the player in the middle (simulation distance 4)",
            f"{simulated:.3f} ms",
            "-",
            f"{every / simulated:.1f}× faster",
        ),
        ("one game tick with 100 timers waiting", f"{with_timers:.3f} ms", "-", "reported"),
        (
            f"one game tick with {IDLE_TIMERS:,} timers waiting",
            f"{idle:.3f} ms",
            f"<= {TICK_TARGET_MS:.0f} ms",
            f"{TICK_TARGET_MS / idle:.1f}× target",
        ),
        (
            "  all due at once: the timers' calls a tick",
            f"{due_calls:.3f} ms",
            f"<= {BUDGET_MS:.0f} ms + a call",
            f"the budget; {fired:.0f} timers a tick",
        ),
        ("    the whole tick", f"{due:.3f} ms", "-", "reported"),
        (
            f"ABM flood (stone, chance 1, {loaded} chunks): ABM calls a tick",
            f"{flood_calls:.3f} ms",
            f"<= {BUDGET_MS:.0f} ms + a call",
            f"the budget; {acted:.0f} ABM calls a tick",
        ),
        ("    drawing the picks (not the budget's)", f"{flood_drawing:.3f} ms", "-", "reported"),
        ("    the whole tick", f"{flooded:.3f} ms", "-", "reported"),
        (
            "generate a chunk (cold column) with the ores mod",
            f"{ores_ms:.2f} ms",
            f"<= {ORE_TARGET_MS:.0f} ms",
            f"{ORE_TARGET_MS / ores_ms:.1f}× target",
        ),
        ("  the same chunks without ores", f"{bare_ms:.2f} ms", "-", "reported"),
    ]
    print_table(f"Block ticks and ores (median of {TICKS} ticks, 200 chunks)", rows)


def million_timers() -> tuple[float, tuple[float, float, float], float]:
    """`IDLE_TIMERS` bells with running timers above the example mods' terrain: the median tick
    while none is due; then, all of them due at once, the medians of the ticks after
    (`budgeted_ms`) and the timers each fired."""
    bench = BenchMod()
    world, rules = loaded_world(bench=bench)
    bell = world.registry.id("bench:bell")
    cube = np.argwhere(np.ones((16, 16, 16), dtype=bool))
    chunks = -(-IDLE_TIMERS // len(cube))
    for n in range(chunks):  # chunks of bells high above the terrain, side by side
        world.set_blocks(cube + np.array([n % 16, 20, n // 16]) * 16, bell)
    data = world.block_data
    for n in range(IDLE_TIMERS):
        chunk, idx = divmod(n, len(cube))
        x, y, z = cube[idx] + np.array([chunk % 16, 20, chunk // 16]) * 16
        data.start_timer(Int3(int(x), int(y), int(z)), 3600.0)
    world.dirty.clear()  # meshed, as in the game: the ticker looks at what changes
    idle = tick_ms(rules)
    data.advance(3600.0)
    rang = bench.rang
    due = budgeted_ms(rules, 100)
    return idle, due, (bench.rang - rang) / 100


if __name__ == "__main__":
    main()
