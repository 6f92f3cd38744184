"""Light (`world.light.lighting`): lighting a newly generated chunk, and relighting after a lamp
edit.

Figures (medians):

- `Light.add_chunk` for a newly generated terrain chunk at the surface whose neighbours are
  loaded and lit (the chunk's box plus 15 voxels around it and its open-sky columns);
- `Light.update` after placing or after breaking a lamp (light 15) at a random surface voxel, and
  the worst of 100 such edits;
- lighting a 9 × 9 × 12 block of loaded chunks one chunk at a time, nearest first, as the game
  does while streaming (`streaming_order_ms`): the median and the worst job.

Measured on the shared 2-core machine (medians vary up to 1.8× between runs): new chunk
1.06–1.80 ms, place lamp 1.67–3.08 ms (1.7–1.9 in quiet runs), break lamp 1.01–1.80 ms, worst of
100 edits 1.9–3.7 ms (edits relit by remove-then-refill over the wave's front; before it, in
alternating runs, place 2.28–3.91 ms and break 1.23–2.17 ms). A later, slower phase of the
machine: place 2.19–2.51 ms and break 1.23–1.46 ms with an edit's sky sources taken from the
light before it, against 2.44–3.54 and 1.42–2.08 ms without, in alternating runs; new chunk
1.23–1.94 ms.

Run: ``python -m bench.light``.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.common import print_table
from world import World
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.gen.generators import make_generator
from world.gen.terrain import surface_height
from world.light.lighting import Light

SEED = 1
CHUNK_TARGET_MS = 2.0
EDIT_TARGET_MS = 3.0
WORST_TARGET_MS = 10.0
EDITS = 100


def setup() -> tuple[World, Light, list[tuple[int, int, int]]]:
    registry = default_registry()
    registry.register(BlockType("bench:lamp", light=15, tiles=("base:lamp",)))
    world = World(registry, make_generator("terrain", SEED, registry))
    light = Light(world)
    columns = [(cx, cz) for cx in range(-3, 3) for cz in range(-3, 3)]
    todo = []
    for cx, cz in columns:
        top = surface_height(SEED, cx * 16 + 8, cz * 16 + 8) // 16
        for cy in range(top + 1, top - 3, -1):
            todo.append((cx, cy, cz))
    return world, light, todo


def streaming_order_ms() -> list[float]:
    """Each `Light.add_chunks([key])` over a 9 × 9 × 12 block of loaded chunks around the
    spawn, nearest first, as `game.chunk_view` lights them (their neighbours loaded first)."""
    registry = default_registry()
    world = World(registry, make_generator("terrain", SEED, registry))
    keys = [(cx, cy, cz) for cx in range(-4, 5) for cz in range(-4, 5) for cy in range(-4, 8)]
    for key in keys:
        world.chunk(*key)
    light = Light(world)
    keys.sort(key=lambda k: k[0] ** 2 + k[2] ** 2 + (k[1] - 2) ** 2)
    times = []
    for key in keys:
        start = time.perf_counter()
        light.add_chunks([key])
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    world, light, todo = setup()
    chunk_times = []
    for key in todo:
        world.chunk(*key)
        start = time.perf_counter()
        light.add_chunk(key)
        chunk_times.append(time.perf_counter() - start)
    rng = random.Random(1)
    lamp = world.registry.id("bench:lamp")
    place, brk = [], []
    for _ in range(EDITS // 2):
        wx, wz = rng.randrange(-40, 40), rng.randrange(-40, 40)
        wy = surface_height(SEED, wx, wz) + 1
        old = world.get_block(wx, wy, wz)
        world.set_block(wx, wy, wz, lamp)
        start = time.perf_counter()
        light.update([(wx, wy, wz)])
        place.append(time.perf_counter() - start)
        world.set_block(wx, wy, wz, old)
        start = time.perf_counter()
        light.update([(wx, wy, wz)])
        brk.append(time.perf_counter() - start)
    stream_ms = streaming_order_ms()
    chunk_ms = statistics.median(chunk_times) * 1000
    place_ms = statistics.median(place) * 1000
    break_ms = statistics.median(brk) * 1000
    worst_ms = max(place + brk) * 1000

    def verdict(value: float, target: float) -> str:
        return f"{value / target:.2f} {'ok' if value <= target else 'MISSED'}"

    print_table(
        f"light ({len(todo)} chunks lit, {EDITS} lamp edits)",
        [
            (
                "light a new chunk",
                f"{chunk_ms:.2f} ms",
                f"{CHUNK_TARGET_MS} ms",
                verdict(chunk_ms, CHUNK_TARGET_MS),
            ),
            (
                "relight: place lamp",
                f"{place_ms:.2f} ms",
                f"{EDIT_TARGET_MS} ms",
                verdict(place_ms, EDIT_TARGET_MS),
            ),
            (
                "relight: break lamp",
                f"{break_ms:.2f} ms",
                f"{EDIT_TARGET_MS} ms",
                verdict(break_ms, EDIT_TARGET_MS),
            ),
            (
                "light chunks one at a time, nearest first (as the game streams): median / worst",
                f"{statistics.median(stream_ms):.2f} / {max(stream_ms):.2f} ms",
                "",
                "",
            ),
            (
                "relight: worst edit",
                f"{worst_ms:.2f} ms",
                f"{WORST_TARGET_MS} ms",
                verdict(worst_ms, WORST_TARGET_MS),
            ),
        ],
    )


if __name__ == "__main__":
    main()
