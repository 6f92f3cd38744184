"""Boxes moved through solid voxels: the collision sweep under `world.physics`.

`move_aabb` moves an axis-aligned box by a displacement one axis at a time, y first, then x,
then z (as Minecraft does): each sweep stops the box at the first solid voxel face in its way,
however long the move, so nothing tunnels through a wall at any speed. Overlaps and gaps thinner
than ``EPS`` count as touching. Pure: no engine, no clock.

Limits. The box's min corner lies within ``±WORLD_LIMIT`` and the box is at most ``MAX_BOX``
wide on every axis (`ValueError` naming ``lo`` or ``hi`` otherwise). The world's edge is a wall:
a move never takes the min corner beyond ``±WORLD_LIMIT``; it stops there, blocked on that axis.
Cost: a move within ``_PIECE`` on every axis (every tick of play) reads one grid of solid flags
around the whole move; a longer one is swept along each axis in pieces, each with the grid of the
column it crosses, so its work grows with its length and its memory stays bounded.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from world.chunks import CHUNK, CHUNK_SHIFT, World
from world.geometry import Vec3
from world.validate import WORLD_LIMIT, vec3

__all__ = ["EPS", "MAX_BOX", "move_aabb"]

EPS = 1e-7  # overlaps and gaps thinner than this count as touching (float rounding of the box)
MAX_BOX = 64.0  # the widest box `move_aabb` moves, per axis (the player is 0.6 x 1.8 x 0.6)
_PIECE = 256.0  # a longer move along an axis is swept in pieces of this length (bounded grids)
_LIMIT = float(WORLD_LIMIT)

Grid = tuple[NDArray[np.bool_], tuple[int, int, int]]


def _solid_grid(world: World, lo: list[float], hi: list[float]) -> Grid:
    """Solid flags around the box [lo, hi] (one voxel of margin) and the grid's origin voxel.

    Copied chunk by chunk with numpy slices: a body's box spans one to eight chunks.
    """
    start = [math.floor(v) - 1 for v in lo]
    stop = [math.floor(v) + 2 for v in hi]
    solid_of = world.registry.solid
    grid = np.zeros([b - a for a, b in zip(start, stop, strict=True)], dtype=np.bool_)
    spans = [
        range(a >> CHUNK_SHIFT, ((b - 1) >> CHUNK_SHIFT) + 1)
        for a, b in zip(start, stop, strict=True)
    ]
    for cx in spans[0]:
        for cy in spans[1]:
            for cz in spans[2]:
                origin = (cx << CHUNK_SHIFT, cy << CHUNK_SHIFT, cz << CHUNK_SHIFT)
                # The overlap of the grid and the chunk, in world voxels.
                w0 = [max(a, o) for a, o in zip(start, origin, strict=True)]
                w1 = [min(b, o + n) for b, o, n in zip(stop, origin, CHUNK, strict=True)]
                blocks = world.chunk_blocks(cx, cy, cz).reshape(CHUNK)
                grid[
                    w0[0] - start[0] : w1[0] - start[0],
                    w0[1] - start[1] : w1[1] - start[1],
                    w0[2] - start[2] : w1[2] - start[2],
                ] = solid_of[
                    blocks[
                        w0[0] - origin[0] : w1[0] - origin[0],
                        w0[1] - origin[1] : w1[1] - origin[1],
                        w0[2] - origin[2] : w1[2] - origin[2],
                    ]
                ]
    return grid, (start[0], start[1], start[2])


def _sweep(
    solid: NDArray[np.bool_],
    origin: tuple[int, int, int],
    lo: list[float],
    hi: list[float],
    axis: int,
    delta: float,
) -> tuple[float | None, bool]:
    """How far the box may move along one axis: (new min coordinate or None if free, blocked)."""
    if delta == 0.0:
        return None, False
    # Voxel index ranges (grid-relative) the box overlaps on the two other axes.
    index: list[slice | int] = []
    for other in range(3):
        if other == axis:
            index.append(slice(None))
            continue
        first = math.floor(lo[other] + EPS) - origin[other]
        last = math.ceil(hi[other] - EPS) - origin[other]
        index.append(slice(first, last))
    column = solid[tuple(index)]
    # Collapse the two other axes: is any voxel of each slab along `axis` solid?
    other_axes = tuple(a for a in range(column.ndim) if a != axis)
    slabs: NDArray[np.bool_] = np.asarray(column.any(axis=other_axes))
    if delta > 0.0:
        # Slabs ahead of the leading face, up to where the leading face would end.
        first = math.ceil(hi[axis] - EPS)
        end = math.ceil(hi[axis] + delta - EPS)
        if end <= first:
            return None, False
        ahead = np.flatnonzero(slabs[first - origin[axis] : end - origin[axis]])
        if not len(ahead):
            return None, False
        wall = first + int(ahead[0])
        return wall - (hi[axis] - lo[axis]), True
    first = math.floor(lo[axis] + EPS) - 1
    end = math.floor(lo[axis] + delta + EPS)
    if end > first:
        return None, False
    behind = np.flatnonzero(slabs[end - origin[axis] : first + 1 - origin[axis]])
    if not len(behind):
        return None, False
    wall = end + int(behind[-1])
    return float(wall + 1), True


def move_aabb(
    world: World, lo: Vec3, hi: Vec3, delta: Vec3
) -> tuple[Vec3, tuple[bool, bool, bool]]:
    """Move a box by ``delta`` through the world's solid voxels, one axis at a time (y, x, z).

    Parameters
    ----------
    world : World
        Voxels; ``world.registry.solid`` decides what collides.
    lo, hi : tuple of 3 float
        The box's min and max corners: ``lo`` within ``±WORLD_LIMIT``, ``hi - lo`` in
        [0, `MAX_BOX`] on every axis.
    delta : tuple of 3 float
        The wanted displacement; any finite length (the sweep covers every voxel on the way, in
        pieces); the world's edge stops it.

    Returns
    -------
    new_lo : tuple of 3 float
        The box's min corner after the move (the max corner keeps its offset). A blocked axis
        ends exactly on the blocking face (an integer coordinate for that side of the box).
    blocked : tuple of 3 bool
        Per axis, whether a solid voxel (or the world's edge) stopped the move.

    Raises
    ------
    ValueError
        Naming ``lo``, ``hi`` or ``delta`` when it is not 3 finite numbers, or out of range.
    """
    lo = vec3(lo, "lo", limit=_LIMIT)
    hi = vec3(hi, "hi")
    delta = vec3(delta, "delta")
    size = [h - low for low, h in zip(lo, hi, strict=True)]
    if not all(0.0 <= s <= MAX_BOX for s in size):
        raise ValueError(f"hi must be >= lo and at most MAX_BOX from it, got lo={lo!r} hi={hi!r}")
    # The world's edge stops the min corner at ±WORLD_LIMIT, as a wall would.
    want = [min(max(d, -_LIMIT - a), _LIMIT - a) for a, d in zip(lo, delta, strict=True)]
    grid = None
    if max(abs(w) for w in want) <= _PIECE:  # every tick: one grid around the whole move
        reach_lo = [min(a, a + d) for a, d in zip(lo, want, strict=True)]
        reach_hi = [max(b, b + d) for b, d in zip(hi, want, strict=True)]
        grid = _solid_grid(world, reach_lo, reach_hi)
    cur_lo = list(lo)
    cur_hi = list(hi)
    blocked = [False, False, False]
    for axis in (1, 0, 2):
        moved, blocked[axis] = _move_axis(world, grid, cur_lo, cur_hi, axis, want[axis])
        blocked[axis] |= want[axis] != delta[axis]
        cur_lo[axis] = moved
        cur_hi[axis] = cur_lo[axis] + size[axis]
    return (cur_lo[0], cur_lo[1], cur_lo[2]), (blocked[0], blocked[1], blocked[2])


def _move_axis(
    world: World,
    grid: Grid | None,
    lo: list[float],
    hi: list[float],
    axis: int,
    delta: float,
) -> tuple[float, bool]:
    """The box's new min coordinate on ``axis`` after moving ``delta`` along it, and blocked.

    ``grid`` covers the whole move when given; otherwise the move is swept in pieces of at most
    ``_PIECE``, each with its own grid of the column it crosses.
    """
    lo, hi = list(lo), list(hi)
    remaining = delta
    while True:
        piece = min(max(remaining, -_PIECE), _PIECE)
        if grid is None:
            reach_lo, reach_hi = list(lo), list(hi)
            reach_lo[axis] = min(lo[axis], lo[axis] + piece)
            reach_hi[axis] = max(hi[axis], hi[axis] + piece)
            solid, origin = _solid_grid(world, reach_lo, reach_hi)
        else:
            solid, origin = grid
        stop, blocked = _sweep(solid, origin, lo, hi, axis, piece)
        if stop is not None:
            return stop, blocked
        remaining -= piece
        if remaining == 0.0:
            return lo[axis] + piece, False
        lo[axis] += piece
        hi[axis] += piece
