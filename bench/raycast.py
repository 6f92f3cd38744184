"""Raycast speed: scalar `raycast` per ray and `raycast_many` rays per second.

Rays start at eye height (1.62 above the ground column they stand on) over a random rolling
ground of 8×8 chunk columns, in uniformly random directions, as a player's view rays do.
Run: ``python -m bench.raycast``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from numpy.typing import NDArray

from bench.common import median_seconds, print_table
from world import World
from world.chunks import Chunk
from world.ray import raycast, raycast_many

EYE = 1.62
SCALAR_RAYS = 10_000
BATCH_RAYS = 100_000
SCALAR_TARGET_US = 5.0
BATCH_TARGET = 2_000_000


def ground_world(seed: int = 1, size: int = 8) -> tuple[World, NDArray[np.int64]]:
    """A world of rolling stone ground; returns it and the height map (top solid y + 1)."""
    rng = np.random.default_rng(seed)
    n = size * 16
    xs = np.arange(n)
    heights = (
        20
        + 4 * np.sin(xs[:, None] / 9.0 + rng.uniform(0, 6))
        + 3 * np.cos(xs[None, :] / 7.0 + rng.uniform(0, 6))
        + rng.integers(0, 2, (n, n))
    ).astype(np.int64)
    w = World()
    ys = np.arange(48)
    solid = ys[None, :, None] < heights[:, None, :]
    for cx in range(size):
        for cy in range(3):
            for cz in range(size):
                part = solid[cx * 16 : cx * 16 + 16, cy * 16 : cy * 16 + 16, cz * 16 : cz * 16 + 16]
                if part.any():
                    blocks = np.ascontiguousarray(part, dtype=np.uint16).reshape(-1)
                    w.chunks[(cx, cy, cz)] = Chunk((cx, cy, cz), blocks)
    return w, heights


def eye_rays(
    heights: NDArray[np.int64], n: int, seed: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Eye positions over the ground's inner area and uniformly random view directions."""
    rng = np.random.default_rng(seed)
    size = heights.shape[0]
    cols = rng.integers(8, size - 8, (n, 2))
    origins = np.column_stack(
        (
            cols[:, 0] + rng.random(n),
            heights[cols[:, 0], cols[:, 1]] + EYE,
            cols[:, 1] + rng.random(n),
        )
    )
    directions = rng.normal(size=(n, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    return origins, directions


def main() -> None:
    """Print the raycast table."""
    w, heights = ground_world()
    origins, directions = eye_rays(heights, SCALAR_RAYS, seed=2)
    rays = list(zip(origins.tolist(), directions.tolist(), strict=True))
    for o, d in rays[:1000]:  # warm-up
        raycast(w, o, d, 5.0)
    per_ray = []
    clock = time.perf_counter
    hits = 0
    for o, d in rays:
        start = clock()
        hit = raycast(w, o, d, 5.0)
        per_ray.append(clock() - start)
        hits += hit is not None
    scalar_us = statistics.median(per_ray) * 1e6
    rows = [
        (
            "raycast, reach 5, median per ray",
            f"{scalar_us:.2f} µs",
            f"<= {SCALAR_TARGET_US:.0f} µs",
            f"{SCALAR_TARGET_US / scalar_us:.2f}× target ({hits / len(rays):.0%} hit)",
        )
    ]
    b_origins, b_dirs = eye_rays(heights, BATCH_RAYS, seed=3)
    for reach in (5.0, 64.0):
        seconds = median_seconds(lambda r=reach: raycast_many(w, b_origins, b_dirs, r), repeat=15)
        rate = BATCH_RAYS / seconds
        verdict = f"{rate / BATCH_TARGET:.2f}× target" if reach == 5.0 else "reported"
        rows.append(
            (
                f"raycast_many, {BATCH_RAYS:,} rays, reach {reach:.0f}",
                f"{rate:,.0f} rays/s",
                f">= {BATCH_TARGET:,} rays/s" if reach == 5.0 else "-",
                verdict,
            )
        )
        if reach == 5.0:
            ratio = rate * scalar_us / 1e6
            rows.append(("batch / scalar speed, reach 5", f"{ratio:.1f}×", "-", "reported"))
    print_table("Raycast (median of runs; plain CPython, numpy)", rows)


if __name__ == "__main__":
    main()
