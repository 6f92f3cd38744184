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
- generating one chunk of terrain with the `ores` mod's coal and iron veins, against without.

Run: ``python -m bench.ticks``.
"""

from __future__ import annotations

import statistics
import time

from bench.common import median_seconds, print_table
from world.chunks import World
from world.hook_guard import HookGuard
from world.mod_loader import DEFAULT_MODS_DIR, load_mods
from world.registration import make_registry
from world.rules import Rules
from world.terrain import clear_cache, surface_height
from world.worldgen import mod_hooks, worldgen_factory

SEED = 1
TICK_TARGET_MS = 1.0
ORE_TARGET_MS = 2.0
TICKS = 400


def loaded_world(radius: float | None = None) -> tuple[World, Rules]:
    """Chunks around the surface, their neighbours loaded too (ticked chunks need them): a
    10 × 10 square of columns, or the columns within ``radius`` of column (0, 0)."""
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
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


def tick_ms(rules: Rules, around: tuple[float, float, float] | None = None) -> float:
    times = []
    for _ in range(TICKS):
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

    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
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
            "generate a chunk (cold column) with the ores mod",
            f"{ores_ms:.2f} ms",
            f"<= {ORE_TARGET_MS:.0f} ms",
            f"{ORE_TARGET_MS / ores_ms:.1f}× target",
        ),
        ("  the same chunks without ores", f"{bare_ms:.2f} ms", "-", "reported"),
    ]
    print_table(f"Block ticks and ores (median of {TICKS} ticks, 200 chunks)", rows)


if __name__ == "__main__":
    main()
