"""Boxes moved through the world's collision shapes: the collision sweep under
`world.physics.movement`.

`move_aabb` moves an axis-aligned box by a displacement one axis at a time, y first, then x,
then z (as Minecraft does): each sweep stops the box at the first collision face in its way,
however long the move, so nothing tunnels through a wall at any speed. Overlaps and gaps thinner
than ``EPS`` count as touching.

What collides is each voxel's collision shape (``world.registry.collision_boxes[id]``): a state
whose shape is the unit cube (``registry.collision_full``) is the fast path, a whole-voxel numpy
sweep; any other shape is swept box by box (slabs, stairs, fences reaching ``y = 1.5``); ``()``
(air, water, torches, plants) never collides. A box the moving box already overlaps on all three
axes is ignored (a block placed into the body does not trap it), so a box that starts clear of
every collision box never ends inside one. Pure: no engine, no clock.

Limits. The box's min corner lies within ``±WORLD_LIMIT`` and the box is at most ``MAX_BOX``
wide on every axis (`ValueError` naming ``lo`` or ``hi`` otherwise). The world's edge is a wall:
a move never takes the min corner beyond ``±WORLD_LIMIT``; it stops there, blocked on that axis.
Cost: a move within ``_PIECE`` on every axis (every tick of play) reads one grid of block ids
around the whole move (one voxel of margin, enough for boxes up to 1.5 high); a longer one is
swept along each axis in pieces, each with the grid of the column it crosses, so its work grows
with its length and its memory stays bounded. A physics tick makes several moves (the move, the
step-up's tries, the hop out of water's room test): it reads one `Region` around them all
(`collision_region`) and passes it to each. Shaped voxels cost a Python loop over their boxes:
cheap near a body (a few), not meant for a move across a field of fences.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.geometry import Vec3
from world.validate import WORLD_LIMIT, vec3
from world.voxels.chunks import World
from world.voxels.layout import CHUNK, CHUNK_SHIFT

__all__ = [
    "EPS",
    "MAX_BOX",
    "Region",
    "block_ids",
    "collision_region",
    "move_aabb",
    "move_stepping",
    "sweep_boxes",
]

EPS = 1e-7  # overlaps and gaps thinner than this count as touching (float rounding of the box)
MAX_BOX = 64.0  # the widest box `move_aabb` moves, per axis (the player is 0.6 x 1.8 x 0.6)
_PIECE = 256.0  # a longer move along an axis is swept in pieces of this length (bounded grids)
_LIMIT = float(WORLD_LIMIT)

Boxes = list[tuple[float, float, float, float, float, float]]
"""Collision boxes in world coordinates: (x0, y0, z0, x1, y1, z1)."""


class Region(NamedTuple):
    """What collides in a stretch of the world, read once for several moves (`collision_region`).

    ``full``: full-cube flags and ``ids``: block ids, both indexed from the voxel ``origin``;
    ``boxes``: the collision boxes of the other colliding voxels in world coordinates;
    ``lo``, ``hi``: the stretch a moving box may sweep through and still be answered from here.
    """

    full: NDArray[np.bool_]
    origin: tuple[int, int, int]
    boxes: Boxes
    ids: NDArray[np.uint16]
    lo: Vec3
    hi: Vec3


def block_ids(
    world: World, lo: Vec3, hi: Vec3, region: Region | None = None
) -> tuple[NDArray[np.uint16], tuple[int, int, int]]:
    """The block ids of every voxel the box [lo, hi] touches, and the grid's origin voxel.

    Parameters
    ----------
    world : World
    lo, hi : tuple of 3 float
        The box's corners (trusted: callers pass a validated body box).
    region : Region or None
        Ids read before (`collision_region`): used when the box lies inside its stretch.

    Returns
    -------
    ids : ndarray of uint16, shape (nx, ny, nz)
        Voxels ``floor(lo) .. floor(hi)`` on each axis, indexed from ``origin`` (a view into
        ``region.ids`` when it was used: read only).
    origin : tuple of 3 int
    """
    start = [math.floor(v) for v in lo]
    stop = [math.floor(v) + 1 for v in hi]
    if region is not None and all(
        r <= a and b <= q for r, a, b, q in zip(region.lo, lo, hi, region.hi, strict=True)
    ):
        o = region.origin
        ids = region.ids[
            start[0] - o[0] : stop[0] - o[0],
            start[1] - o[1] : stop[1] - o[1],
            start[2] - o[2] : stop[2] - o[2],
        ]
        return ids, (start[0], start[1], start[2])
    return _ids(world, start, stop), (start[0], start[1], start[2])


def _ids(world: World, start: list[int], stop: list[int]) -> NDArray[np.uint16]:
    """Block ids of the voxels start..stop-1, copied chunk by chunk with numpy slices."""
    ids = np.zeros([b - a for a, b in zip(start, stop, strict=True)], dtype=np.uint16)
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
                ids[
                    w0[0] - start[0] : w1[0] - start[0],
                    w0[1] - start[1] : w1[1] - start[1],
                    w0[2] - start[2] : w1[2] - start[2],
                ] = blocks[
                    w0[0] - origin[0] : w1[0] - origin[0],
                    w0[1] - origin[1] : w1[1] - origin[1],
                    w0[2] - origin[2] : w1[2] - origin[2],
                ]
    return ids


def collision_region(world: World, lo: Vec3, hi: Vec3) -> Region:
    """Read what collides around the stretch [lo, hi] once, for `move_aabb`'s ``region``.

    Parameters
    ----------
    world : World
    lo, hi : tuple of 3 float
        The stretch's corners (trusted: a body's box grown by its reach this tick).

    Returns
    -------
    Region
    """
    return _solid_grid(world, list(lo), list(hi))


def _solid_grid(world: World, lo: list[float], hi: list[float]) -> Region:
    """What collides around the box [lo, hi]: full-cube flags, the grid's origin voxel, and the
    collision boxes of the shaped voxels in world coordinates (one voxel of margin; a box of the
    voxel below may reach up to ``COLLISION_TOP``, into the box).
    """
    start = [math.floor(v) - 1 for v in lo]
    stop = [math.floor(v) + 2 for v in hi]
    registry = world.registry
    ids = _ids(world, start, stop)
    full: NDArray[np.bool_] = registry.collision_full[ids]
    boxes: Boxes = []
    shaped = registry.solid[ids] & ~full
    if shaped.any():  # rare: slabs, stairs, fences near the body; boxes are checked one by one
        shapes = registry.collision_boxes
        for gx, gy, gz in np.argwhere(shaped).tolist():
            wx, wy, wz = gx + start[0], gy + start[1], gz + start[2]
            for x0, y0, z0, x1, y1, z1 in shapes[int(ids[gx, gy, gz])]:
                boxes.append((wx + x0, wy + y0, wz + z0, wx + x1, wy + y1, wz + z1))
    return Region(
        full,
        (start[0], start[1], start[2]),
        boxes,
        ids,
        (lo[0], lo[1], lo[2]),
        (hi[0], hi[1], hi[2]),
    )


def _sweep(grid: Region, lo: list[float], hi: list[float], axis: int, delta: float) -> float | None:
    """The box's new min coordinate on ``axis`` when something stops it within ``delta``, else
    None: the nearest full-cube face or collision-box face ahead of it."""
    if delta == 0.0:
        return None
    return sweep_boxes(
        grid[2], lo, hi, axis, delta, _sweep_cubes(grid[0], grid[1], lo, hi, axis, delta)
    )


def sweep_boxes(
    boxes: Boxes,
    lo: Sequence[float],
    hi: Sequence[float],
    axis: int,
    delta: float,
    stop: float | None = None,
) -> float | None:
    """The box [lo, hi]'s new min coordinate on ``axis`` when one of ``boxes`` (world
    coordinates) stops it within ``delta`` (or ``stop``, a stop found already, if nearer), else
    ``stop``: the nearest face ahead of it."""
    size = hi[axis] - lo[axis]
    a, b = (1, 2) if axis == 0 else (0, 2) if axis == 1 else (0, 1)  # the two other axes
    for box in boxes:
        # Only boxes the moving box overlaps on both other axes can be hit; a box it already
        # overlaps on this axis too (it started inside) is ignored, so it may move out.
        if not (
            box[a] < hi[a] - EPS
            and box[a + 3] > lo[a] + EPS
            and box[b] < hi[b] - EPS
            and box[b + 3] > lo[b] + EPS
        ):
            continue
        if delta > 0.0:
            face = box[axis]
            if hi[axis] - EPS <= face < hi[axis] + delta - EPS:
                at = face - size
                stop = at if stop is None else min(stop, at)
        else:
            face = box[axis + 3]
            if lo[axis] + delta + EPS < face <= lo[axis] + EPS:
                stop = face if stop is None else max(stop, face)
    return stop


def _sweep_cubes(
    solid: NDArray[np.bool_],
    origin: tuple[int, int, int],
    lo: list[float],
    hi: list[float],
    axis: int,
    delta: float,
) -> float | None:
    """The new min coordinate on ``axis`` when a full cube stops the box within ``delta``."""
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
            return None
        ahead = np.flatnonzero(slabs[first - origin[axis] : end - origin[axis]])
        if not len(ahead):
            return None
        wall = first + int(ahead[0])
        return wall - (hi[axis] - lo[axis])
    first = math.floor(lo[axis] + EPS) - 1
    end = math.floor(lo[axis] + delta + EPS)
    if end > first:
        return None
    behind = np.flatnonzero(slabs[end - origin[axis] : first + 1 - origin[axis]])
    if not len(behind):
        return None
    wall = end + int(behind[-1])
    return float(wall + 1)


def move_aabb(
    world: World, lo: Vec3, hi: Vec3, delta: Vec3, region: Region | None = None
) -> tuple[Vec3, tuple[bool, bool, bool]]:
    """Move a box by ``delta`` through the world's collision shapes, one axis at a time (y, x, z).

    Parameters
    ----------
    world : World
        Voxels; their states' collision shapes decide what collides.
    lo, hi : tuple of 3 float
        The box's min and max corners: ``lo`` within ``±WORLD_LIMIT``, ``hi - lo`` in
        [0, `MAX_BOX`] on every axis.
    delta : tuple of 3 float
        The wanted displacement; any finite length (the sweep covers every voxel on the way, in
        pieces); the world's edge stops it.
    region : Region or None
        What collides around the move, read before (`collision_region`) for several moves in one
        tick; used when the whole move lies inside its stretch, else the world is read as usual.

    Returns
    -------
    new_lo : tuple of 3 float
        The box's min corner after the move (the max corner keeps its offset). A blocked axis
        ends exactly on the blocking face (an integer coordinate for a full cube's face).
    blocked : tuple of 3 bool
        Per axis, whether a collision box (or the world's edge) stopped the move.

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
        if region is not None and all(
            r <= a and b <= q
            for r, a, b, q in zip(region.lo, reach_lo, reach_hi, region.hi, strict=True)
        ):
            # Only the boxes this move can reach: the region holds those of several moves.
            near = [
                box
                for box in region.boxes
                if box[0] < reach_hi[0] + EPS
                and box[3] > reach_lo[0] - EPS
                and box[1] < reach_hi[1] + EPS
                and box[4] > reach_lo[1] - EPS
                and box[2] < reach_hi[2] + EPS
                and box[5] > reach_lo[2] - EPS
            ]
            grid = region._replace(boxes=near)
        else:
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


def move_stepping(
    world: World,
    lo: Vec3,
    hi: Vec3,
    delta: Vec3,
    *,
    step_height: float,
    standing: bool,
    region: Region | None = None,
) -> tuple[Vec3, tuple[bool, bool, bool], bool]:
    """`move_aabb` with Minecraft's step-up (``Entity.collide``), for a body.

    A horizontal move stopped by something while the box stands on something (or lands in this
    move) is tried again lifted by up to ``step_height``, then lowered back by as much as the
    move allows; the lifted try wins when it gets further across. The lifted box must fit: each
    part is a `move_aabb`, so nothing ends inside a collision box.

    Parameters
    ----------
    world : World
    lo, hi, delta : tuple of 3 float
        As `move_aabb`.
    step_height : float
        How high a ledge may be stepped onto; 0 for none.
    standing : bool
        The box stood on something before this move.
    region : Region or None
        As `move_aabb`.

    Returns
    -------
    new_lo : tuple of 3 float
    blocked : tuple of 3 bool
        As `move_aabb`, for the move taken.
    on_ground : bool
        A downward move was stopped: the box stands on something.
    """
    new_lo, blocked = move_aabb(world, lo, hi, delta, region)
    dx, dy, dz = delta
    on_ground = blocked[1] and dy < 0.0
    if not (step_height > 0.0 and (standing or on_ground) and (blocked[0] or blocked[2])):
        return new_lo, blocked, on_ground
    up_lo, up_blocked = move_aabb(world, lo, hi, (dx, step_height, dz), region)
    lift = up_lo[1] - lo[1]
    if lift <= 0.0:
        return new_lo, blocked, on_ground
    up_hi = (up_lo[0] + hi[0] - lo[0], up_lo[1] + hi[1] - lo[1], up_lo[2] + hi[2] - lo[2])
    down = dy - lift
    step_lo, down_blocked = move_aabb(world, up_lo, up_hi, (0.0, down, 0.0), region)
    across = (new_lo[0] - lo[0]) ** 2 + (new_lo[2] - lo[2]) ** 2
    stepped = (step_lo[0] - lo[0]) ** 2 + (step_lo[2] - lo[2]) ** 2
    if stepped <= across + EPS * EPS:
        return new_lo, blocked, on_ground
    return step_lo, (up_blocked[0], down_blocked[1], up_blocked[2]), down_blocked[1] and down < 0.0


def _move_axis(
    world: World,
    grid: Region | None,
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
        here = grid
        if here is None:
            reach_lo, reach_hi = list(lo), list(hi)
            reach_lo[axis] = min(lo[axis], lo[axis] + piece)
            reach_hi[axis] = max(hi[axis], hi[axis] + piece)
            here = _solid_grid(world, reach_lo, reach_hi)
        stop = _sweep(here, lo, hi, axis, piece)
        if stop is not None:
            return stop, True
        remaining -= piece
        if remaining == 0.0:
            return lo[axis] + piece, False
        lo[axis] += piece
        hi[axis] += piece
