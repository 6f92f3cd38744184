"""A neighbour cascade that never settles, simulated headless: memory and tick time stay flat.

The ping-pong mod answers every neighbour change of a ping or pong block (glass / planks here)
by toggling that block, so each change makes up to six more, forever. The rules' neighbour
queue coalesces (one entry per voxel and cause) and is capped, and each tick drains at most
`world.rules.TICK_NEIGHBOR_BUDGET` changed voxels in place: the backlog stays bounded, memory
flat and the tick short. ``python -m bench.mod_cascade [minutes]`` (10 by default, at 60 ticks a
second) prints the table.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

from bench.common import print_table
from world import World
from world.actions.neighbors import MAX_PENDING
from world.base import GAME, default_registry
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.view import ModWorld
from world.ray import Hit
from world.rules import Rules

DT = 1 / 60
PING, PONG = "base:glass", "base:planks"
TOGGLE = {PING: PONG, PONG: PING}
SIDE = 20  # a 20 x 20 x 20 cluster: 8000 voxels, more than the queue's cap


class PingPong:
    """Toggles every ping or pong block whose neighbour changed: a cascade without end."""

    description = "ping-pong: a neighbour cascade that never settles"

    @hookimpl
    def on_neighbor_changed(self, world: ModWorld, pos: Int3) -> None:
        name = world.registry.name(world.get_block(*pos))
        other = TOGGLE.get(name)
        if other is not None:
            world.set_block(*pos, other)


def start_cascade(side: int = SIDE, max_pending: int = MAX_PENDING) -> Rules:
    """A world holding a ``side``³ checkerboard of ping and pong blocks, the cascade started by
    breaking a stone beside it; the rules (queue capped at ``max_pending``), with the ping-pong
    mod loaded."""
    mods = load_mods([], entry_points=False, plugins={"pingpong": PingPong()}, game=GAME)
    world = World(default_registry())
    ping, pong = world.registry.id(PING), world.registry.id(PONG)
    for x in range(side):
        for y in range(side):
            for z in range(side):
                world.set_block(x, y, z, ping if (x + y + z) % 2 else pong)
    world.set_block(-1, 0, 0, world.registry.id("base:stone"))
    rules = Rules(world, mods, max_pending=max_pending)
    hit = Hit(Int3(-1, 0, 0), Int3(0, 1, 0), 1.0, (0.0, 0.0, 0.0), world.get_block(-1, 0, 0))
    outcome = rules.break_block(hit, Actor.at("bench", (-50.5, 0.0, 0.5)))
    assert outcome.done, outcome.reason
    return rules


def resident_mb() -> float:
    """The process's resident memory in MB (Linux /proc; else the peak from getrusage)."""
    statm = Path("/proc/self/statm")
    if statm.exists():
        pages = int(statm.read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def main(minutes: float = 10.0) -> None:
    """Run ``minutes`` of simulated ticks and print memory and tick time."""
    rules = start_cascade()
    ticks = round(minutes * 60 / DT)
    warm = min(600, ticks // 10)
    for _ in range(warm):
        rules.tick(DT)
    gc.collect()
    before = resident_mb()
    times = []
    max_pending = 0
    for _ in range(ticks - warm):
        started = time.perf_counter()
        rules.tick(DT)
        times.append(time.perf_counter() - started)
        max_pending = max(max_pending, rules.pending)
    gc.collect()
    after = resident_mb()
    median_ms = statistics.median(times) * 1000
    grown = after - before
    print_table(
        f"neighbour cascade, ping-pong mod, {minutes:g} min of ticks at 60/s (`bench.mod_cascade`)",
        [
            ("median tick", f"{median_ms:.2f} ms", "<= 12 ms", "ok" if median_ms <= 12 else "SLOW"),
            ("p99 tick", f"{sorted(times)[int(len(times) * 0.99)] * 1000:.2f} ms", "-", "-"),
            (
                "memory growth",
                f"{grown:+.1f} MB",
                "within ±5 MB",
                "ok" if abs(grown) <= 5 else "GROWS",
            ),
            ("largest backlog", f"{max_pending} voxels", "<= cap", "-"),
            ("resident memory", f"{after:.0f} MB", "-", "-"),
        ],
    )


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
