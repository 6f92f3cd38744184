"""Entities: what 500 dropped stacks and 50 creatures cost a game tick.

Figures (medians, and the 99th percentile, over `TICKS` game ticks of 1/20 s, each running one
entity step: `world.ticks.entity_ticks`), through `world.rules.Rules.tick`, the game's own call,
on the loaded terrain of `bench.ticks` with every example mod loaded and a player standing in
the middle:

- the tick with no entity (the baseline);
- the tick with 500 dropped stacks scattered over the surface (falling first, then resting: the
  first `SETTLE` ticks are not counted) and 50 creatures of the example `creatures` mod
  wandering; target: <= 2 ms a tick;
- the same with one busy core: a background process spinning, started and stopped by the bench
  (the machines here are shared: the figure a player meets when something else runs).

Run: ``python -m bench.entities``.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import time

from bench.common import print_table
from bench.ticks import SEED, loaded_world
from world.gen.terrain import surface_height
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.rules import Rules
from world.voxels.chunks import World
from world.voxels.entities import drop_item

TICKS = 600
SETTLE = 100
ITEMS = 500
CREATURES = 50
TARGET_MS = 2.0
ITEM_NAMES = ("base:dirt", "base:cobblestone", "base:planks", "base:sand", "base:log")


def populate(world: World) -> str | None:
    """500 stacks and 50 creatures over the surface near the middle; the creature kind used
    (None when no example mod defines one)."""
    rng = random.Random(SEED)
    for _ in range(ITEMS):
        wx, wz = rng.randrange(-24, 24), rng.randrange(-24, 24)
        wy = surface_height(SEED, wx, wz) + 2
        stack = ItemStack(rng.choice(ITEM_NAMES), rng.randrange(1, 65))
        drop_item(world.entities, Int3(wx, wy, wz), stack, pos=(wx + 0.5, wy + 0.5, wz + 0.5))
    kinds = [name for name in world.registry.entities if name.startswith("creatures:")]
    if not kinds:
        return None
    for _ in range(CREATURES):
        wx, wz = rng.randrange(-24, 24), rng.randrange(-24, 24)
        wy = surface_height(SEED, wx, wz) + 1
        world.entities.add(kinds[0], (wx + 0.5, wy + 0.1, wz + 0.5))
    return kinds[0]


def ticks_ms(rules: Rules, around: tuple[float, float, float]) -> tuple[float, float]:
    """Median and p99 of `TICKS` ticks of 1/20 s, in ms, after `SETTLE` ticks."""
    for _ in range(SETTLE):
        rules.tick(1 / 20, around)
    times = []
    for _ in range(TICKS):
        start = time.perf_counter()
        rules.tick(1 / 20, around)
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def _spin(stop: multiprocessing.synchronize.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def measure(busy: bool) -> tuple[tuple[float, float], tuple[float, float], str | None, int]:
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True) if busy else None
    if spinner is not None:
        spinner.start()
    try:
        world, rules = loaded_world()
        player_at = (0.5, float(surface_height(SEED, 0, 0) + 1), 0.5)
        world.players.join("bench", player_at)
        bare = ticks_ms(rules, player_at)
        kind = populate(world)
        full = ticks_ms(rules, player_at)
        return bare, full, kind, len(world.entities)
    finally:
        if spinner is not None:
            stop.set()
            spinner.join()


def main() -> None:
    rows = []
    for busy in (False, True):
        (bare, bare99), (full, full99), kind, count = measure(busy)
        label = "one core busy" if busy else "quiet"
        what = f"{ITEMS} stacks + {CREATURES} {kind or '(no creature mod)'}"
        rows += [
            (f"tick, no entity ({label})", f"{bare:.2f} ms (p99 {bare99:.2f})", "-", "-"),
            (
                f"tick, {what} ({label})",
                f"{full:.2f} ms (p99 {full99:.2f}; {count} left)",
                f"<= {TARGET_MS:g} ms",
                f"{TARGET_MS / full:.2f} ({'ok' if full <= TARGET_MS else 'over'})",
            ),
        ]
    print_table("entities: one game tick (1/20 s, one entity step), `bench.entities`", rows)


if __name__ == "__main__":
    main()
