"""Raycast speed: scalar `raycast` per ray and `raycast_many` rays per second.

Rays start at eye height (1.62 above the ground column they stand on) over a random rolling
ground of 8×8 chunk columns, in uniformly random directions, as a player's view rays do. Also:

- *short player rays*: eye height, random yaw, looking down 0–70° (most hit within 3 blocks),
  timed against a plain dict-based DDA (`dict_dda`, written here: a dict of solid voxels, the
  textbook accumulating loop, no validation and no exactness) in the same run;
- a *shaped world*: the same ground with half its blocks (all of the top layer's and a random
  half of the rest) replaced by slabs, stairs, fences, torches and doors (`world.blocks.shapes`), so
  eye-height rays meet selection boxes, for `raycast` and `raycast_many`.

Run: ``python -m bench.raycast``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.common import median_seconds, print_table
from world import World
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FACINGS, door, fence, slab, stairs, torch
from world.ray import raycast, raycast_many
from world.voxels.layout import Chunk

EYE = 1.62
SCALAR_RAYS = 10_000
BATCH_RAYS = 100_000
SCALAR_TARGET_US = 5.0
BATCH_TARGET = 2_000_000
SHAPED_TARGET_US = 8.0
SHAPED_BATCH_TARGET = 1_000_000
BLOCK = 250  # rays per timed block
SHORT_TARGET = 0.5  # raycast time / dict DDA time on short player rays


def shaped_registry() -> tuple[BlockRegistry, list[int]]:
    """The default blocks and a few shaped ones; returns it and the shaped state ids."""
    registry = default_registry()
    blocks = [
        BlockType(
            "bench:slab",
            properties={"half": ("bottom", "top")},
            selection=lambda p: slab(str(p["half"])),
        ),
        BlockType(
            "bench:stairs",
            properties={"facing": FACINGS, "half": ("bottom", "top")},
            selection=lambda p: stairs(str(p["facing"]), str(p["half"])),
        ),
        BlockType(
            "bench:fence",
            properties={"north": (False, True), "east": (False, True)},
            selection=lambda p: fence(bool(p["north"]), bool(p["east"]), True, True),
        ),
        BlockType("bench:torch", solid=False, selection=torch()),
        BlockType(
            "bench:door", properties={"facing": FACINGS}, selection=lambda p: door(str(p["facing"]))
        ),
    ]
    for block in blocks:
        registry.register(block)
    shaped = [i for i in range(len(registry)) if registry.selection_boxes[i]]
    return registry, shaped


def ground_world(
    seed: int = 1, size: int = 8, shaped: tuple[BlockRegistry, list[int]] | None = None
) -> tuple[World, NDArray[np.int64]]:
    """A world of rolling stone ground; returns it and the height map (top solid y + 1).

    With ``shaped`` (a registry and shaped state ids): the top layer and a random half of the
    other solid blocks are random shaped states instead (half the blocks at eye level).
    """
    rng = np.random.default_rng(seed)
    n = size * 16
    xs = np.arange(n)
    heights = (
        20
        + 4 * np.sin(xs[:, None] / 9.0 + rng.uniform(0, 6))
        + 3 * np.cos(xs[None, :] / 7.0 + rng.uniform(0, 6))
        + rng.integers(0, 2, (n, n))
    ).astype(np.int64)
    ys = np.arange(48)
    solid = ys[None, :, None] < heights[:, None, :]
    ids = solid.astype(np.uint16)
    if shaped is None:
        w = World()
    else:
        registry, states = shaped
        w = World(registry=registry)
        top = ys[None, :, None] == heights[:, None, :] - 1
        pick = solid & (top | (rng.random(solid.shape) < 0.5))
        ids[pick] = rng.choice(np.array(states, dtype=np.uint16), int(pick.sum()))
    for cx in range(size):
        for cy in range(3):
            for cz in range(size):
                part = ids[cx * 16 : cx * 16 + 16, cy * 16 : cy * 16 + 16, cz * 16 : cz * 16 + 16]
                if part.any():
                    blocks = np.ascontiguousarray(part).reshape(-1)
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


def player_rays(
    heights: NDArray[np.int64], n: int, seed: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Eye positions as `eye_rays`, looking down 0–70° below the horizon at a random yaw."""
    origins, _ = eye_rays(heights, n, seed)
    rng = np.random.default_rng(seed + 100)
    yaw = rng.uniform(0.0, 2.0 * math.pi, n)
    pitch = np.radians(rng.uniform(0.0, 70.0, n))
    directions = np.column_stack(
        (np.cos(pitch) * np.cos(yaw), -np.sin(pitch), np.cos(pitch) * np.sin(yaw))
    )
    return origins, directions


def solid_dict(w: World) -> dict[tuple[int, int, int], int]:
    """The world's non-air voxels as a dict from (x, y, z) to block id."""
    out: dict[tuple[int, int, int], int] = {}
    for (cx, cy, cz), chunk in w.chunks.items():
        blocks = chunk.blocks.reshape(16, 16, 16)
        for lx, ly, lz in np.argwhere(blocks).tolist():
            out[(cx * 16 + lx, cy * 16 + ly, cz * 16 + lz)] = int(blocks[lx, ly, lz])
    return out


def dict_dda(
    solid: dict[tuple[int, int, int], int],
    origin: tuple[float, float, float],
    direction: tuple[float, float, float],
    reach: float,
) -> tuple[tuple[int, int, int], tuple[int, int, int], float] | None:
    """A plain DDA over a dict: (block, face, distance) of the first solid voxel, or None.

    The textbook loop (accumulated crossing distances, a unit direction assumed), no argument
    checks and no exact ties: the baseline a short player ray is measured against.
    """
    ox, oy, oz = origin
    dx, dy, dz = direction
    x, y, z = math.floor(ox), math.floor(oy), math.floor(oz)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    sz = 1 if dz > 0 else -1
    inf = math.inf
    ddx = abs(1.0 / dx) if dx else inf
    ddy = abs(1.0 / dy) if dy else inf
    ddz = abs(1.0 / dz) if dz else inf
    tx = ((x + 1 - ox) if dx > 0 else (ox - x)) * ddx if dx else inf
    ty = ((y + 1 - oy) if dy > 0 else (oy - y)) * ddy if dy else inf
    tz = ((z + 1 - oz) if dz > 0 else (oz - z)) * ddz if dz else inf
    t = 0.0
    face = (0, 0, 0)
    while t <= reach:
        if (x, y, z) in solid:
            return (x, y, z), face, t
        if tx < ty and tx < tz:
            x += sx
            t = tx
            tx += ddx
            face = (-sx, 0, 0)
        elif ty < tz:
            y += sy
            t = ty
            ty += ddy
            face = (0, -sy, 0)
        else:
            z += sz
            t = tz
            tz += ddz
            face = (0, 0, -sz)
    return None


def per_ray_us(cast: Callable[..., object], target: object, rays: list[Any]) -> float:
    """µs per ray of ``cast(target, origin, direction, 5.0)``: the median over blocks of rays.

    Rays are timed in blocks of `BLOCK` (one clock read per block, no wrapper per call), after
    a warm-up; the figure is the median of the blocks' mean times.
    """
    for o, d in rays[:BLOCK]:
        cast(target, o, d, 5.0)
    clock = time.perf_counter
    times = []
    for i in range(0, len(rays), BLOCK):
        block = rays[i : i + BLOCK]
        start = clock()
        for o, d in block:
            cast(target, o, d, 5.0)
        times.append((clock() - start) / len(block))
    return statistics.median(times) * 1e6


def main() -> None:
    """Print the raycast table."""
    w, heights = ground_world()
    origins, directions = eye_rays(heights, SCALAR_RAYS, seed=2)
    rays = list(zip(origins.tolist(), directions.tolist(), strict=True))
    hits = sum(raycast(w, o, d, 5.0) is not None for o, d in rays)
    scalar_us = per_ray_us(raycast, w, rays)
    rows = [
        (
            "raycast, reach 5, median per ray",
            f"{scalar_us:.2f} µs",
            f"<= {SCALAR_TARGET_US:.0f} µs",
            f"{SCALAR_TARGET_US / scalar_us:.2f}× target ({hits / len(rays):.0%} hit)",
        )
    ]
    # Short player rays against the plain dict DDA, interleaved so both see the same machine.
    solid = solid_dict(w)
    p_origins, p_dirs = player_rays(heights, SCALAR_RAYS, seed=4)
    short = [(tuple(o), tuple(d)) for o, d in zip(p_origins.tolist(), p_dirs.tolist(), strict=True)]
    within3 = sum((h := raycast(w, o, d, 5.0)) is not None and h.distance <= 3.0 for o, d in short)
    ours, theirs = [], []
    for _ in range(3):
        ours.append(per_ray_us(raycast, w, short))
        theirs.append(per_ray_us(dict_dda, solid, short))
    ours_us, dict_us = statistics.median(ours), statistics.median(theirs)
    rows.append(
        (
            "raycast, short player rays, per ray",
            f"{ours_us:.2f} µs",
            f"<= {SHORT_TARGET:.1f}× dict DDA",
            f"{ours_us / dict_us:.2f}× the dict DDA's {dict_us:.2f} µs "
            f"({within3 / len(short):.0%} hit within 3)",
        )
    )
    b_origins, b_dirs = eye_rays(heights, BATCH_RAYS, seed=3)
    for reach in (5.0, 64.0):
        seconds = median_seconds(partial(raycast_many, w, b_origins, b_dirs, reach), repeat=9)
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
    # The shaped world: half the blocks at eye level are slabs, stairs, fences, torches, doors.
    sw, s_heights = ground_world(shaped=shaped_registry())
    s_origins, s_dirs = eye_rays(s_heights, SCALAR_RAYS, seed=5)
    s_rays = list(zip(s_origins.tolist(), s_dirs.tolist(), strict=True))
    s_hits = [raycast(sw, o, d, 5.0) for o, d in s_rays]
    boxed = sum(
        h is not None and sw.registry.selection_boxes[h.block_id] is not None for h in s_hits
    )
    shaped_us = per_ray_us(raycast, sw, s_rays)
    rows.append(
        (
            "raycast, shaped world, reach 5, per ray",
            f"{shaped_us:.2f} µs",
            f"<= {SHAPED_TARGET_US:.0f} µs",
            f"{SHAPED_TARGET_US / shaped_us:.2f}× target ({boxed / len(s_rays):.0%} hit a box)",
        )
    )
    sb_origins, sb_dirs = eye_rays(s_heights, BATCH_RAYS, seed=6)
    seconds = median_seconds(lambda: raycast_many(sw, sb_origins, sb_dirs, 5.0), repeat=9)
    rate = BATCH_RAYS / seconds
    rows.append(
        (
            f"raycast_many, shaped world, {BATCH_RAYS:,} rays, reach 5",
            f"{rate:,.0f} rays/s",
            f">= {SHAPED_BATCH_TARGET:,} rays/s",
            f"{rate / SHAPED_BATCH_TARGET:.2f}× target",
        )
    )
    print_table("Raycast (median of runs; plain CPython, numpy)", rows)


if __name__ == "__main__":
    main()
