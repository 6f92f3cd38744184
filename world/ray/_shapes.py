"""The ray against a voxel's selection boxes, exactly: which box it enters first, and where.

A box ``Box(x0, y0, z0, x1, y1, z1)`` of the voxel (X, Y, Z) is the open box
``(X + x0, X + x1) × …`` of world space (the floats taken as exact rationals); the ray hits it when
it passes through that open interior at some ``t >= 0``. Per axis with a non-zero direction
component the ray is inside the box's slab for ``t`` in ``(enter, exit)``; on an axis with a zero
component it is inside for every ``t`` when ``lo <= o - X < hi`` (the floor convention of the
voxel walk) and never otherwise. The box is hit when ``max(0, enters) < min(exits)`` and that
entry, ``max(0, enters)``, lies within the reach. The face is the axis of the largest enter (the
lower axis on a tie) when that enter is ``>= 0``, else none (the origin is inside the box). The
box hit is the one with the smallest entry, the lower index on a tie.

The decision is made in floats when no comparison it rests on is within rounding of going the
other way (each float parameter carries an absolute error far below ``_ERR`` times its operands'
scale), and otherwise again exactly, with `fractions.Fraction`. Either way the entry parameter
reported is the float ``(bound - (o - X)) / d`` of the chosen box and axis, so the scalar and the
batch walks, and the float and the exact decisions, give identical answers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from world.blocks.shapes import Box
from world.ray._exact import NEAR

__all__ = ["box_hit", "boxes_many", "exact_box_hit"]

# Bound on the float error of a box parameter, relative to (|o - X| + 1) / |d| (the true error
# is below 2^-51 of it): comparisons closer than this are decided exactly.
_ERR = 2.0**-46
_INF = math.inf

BoxHit = tuple[int, int, float]
"""(box index, face axis or -1 for an origin inside the box, entry parameter t)."""


def box_hit(
    boxes: Sequence[Box],
    x: int,
    y: int,
    z: int,
    o: tuple[float, float, float],
    d: tuple[float, float, float],
    t_max: float,
    reach: float,
) -> BoxHit | None:
    """The first box of voxel (x, y, z) the ray enters within ``t_max = reach / |d|``, or None."""
    ox, oy, oz = o
    dx, dy, dz = d
    rx, ry, rz = ox - x, oy - y, oz - z
    m = 0.0
    if dx:
        m = (abs(rx) + 1.0) / abs(dx)
    if dy:
        m = max(m, (abs(ry) + 1.0) / abs(dy))
    if dz:
        m = max(m, (abs(rz) + 1.0) / abs(dz))
    m *= _ERR
    m2 = m + m
    t_in = t_max * (1.0 - NEAR) - m
    t_out = t_max * (1.0 + NEAR) + m
    best: BoxHit | None = None
    best_t = _INF
    # On an axis the ray runs parallel to, ``o - X`` may be rounded (a tiny negative o) onto a
    # bound it is not on: within rounding of a bound, the side is decided exactly.
    px = _ERR * (abs(rx) + 1.0) if not dx else _INF
    py = _ERR * (abs(ry) + 1.0) if not dy else _INF
    pz = _ERR * (abs(rz) + 1.0) if not dz else _INF
    for i, (x0, y0, z0, x1, y1, z1) in enumerate(boxes):
        if dx > 0.0:
            ex, fx = (x0 - rx) / dx, (x1 - rx) / dx
        elif dx < 0.0:
            ex, fx = (x1 - rx) / dx, (x0 - rx) / dx
        elif abs(rx - x0) <= px or abs(rx - x1) <= px:
            return exact_box_hit(boxes, x, y, z, o, d, reach)
        elif x0 <= rx < x1:
            ex, fx = -_INF, _INF
        else:
            continue
        if dy > 0.0:
            ey, fy = (y0 - ry) / dy, (y1 - ry) / dy
        elif dy < 0.0:
            ey, fy = (y1 - ry) / dy, (y0 - ry) / dy
        elif abs(ry - y0) <= py or abs(ry - y1) <= py:
            return exact_box_hit(boxes, x, y, z, o, d, reach)
        elif y0 <= ry < y1:
            ey, fy = -_INF, _INF
        else:
            continue
        if dz > 0.0:
            ez, fz = (z0 - rz) / dz, (z1 - rz) / dz
        elif dz < 0.0:
            ez, fz = (z1 - rz) / dz, (z0 - rz) / dz
        elif abs(rz - z0) <= pz or abs(rz - z1) <= pz:
            return exact_box_hit(boxes, x, y, z, o, d, reach)
        elif z0 <= rz < z1:
            ez, fz = -_INF, _INF
        else:
            continue
        enter, axis = ex, 0
        if ey > enter:
            enter, axis = ey, 1
        if ez > enter:
            enter, axis = ez, 2
        leave = min(fx, fy, fz)
        t = enter if enter > 0.0 else 0.0
        if t > leave + m2 or t > t_out:
            continue  # clearly missed, or clearly beyond the reach
        if t >= leave - m2 or t > t_in or -m <= enter <= m:
            return exact_box_hit(boxes, x, y, z, o, d, reach)
        if enter > 0.0 and (
            (axis != 0 and ex >= enter - m2)
            or (axis != 1 and ey >= enter - m2)
            or (axis != 2 and ez >= enter - m2)
        ):
            return exact_box_hit(boxes, x, y, z, o, d, reach)  # which face: too close to call
        if abs(t - best_t) <= m2:
            return exact_box_hit(boxes, x, y, z, o, d, reach)  # which box: too close to call
        if t < best_t:
            best_t = t
            best = (i, axis if enter > 0.0 else -1, t)
    return best


def exact_box_hit(
    boxes: Sequence[Box],
    x: int,
    y: int,
    z: int,
    o: tuple[float, float, float],
    d: tuple[float, float, float],
    reach: float,
) -> BoxHit | None:
    """`box_hit` decided in rational arithmetic (the entry parameter reported is the float)."""
    cell = (x, y, z)
    oq = [Fraction(c) for c in o]
    dq = [Fraction(c) for c in d]
    norm2 = dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]
    reach2 = Fraction(reach) ** 2
    best: tuple[Fraction, int, int] | None = None
    for i, box in enumerate(boxes):
        enter: Fraction | None = None
        leave: Fraction | None = None
        axis = -1
        for a in range(3):
            lo = cell[a] + Fraction(box[a])
            hi = cell[a] + Fraction(box[a + 3])
            if dq[a] == 0:
                if not lo <= oq[a] < hi:
                    break
                continue
            t0, t1 = (lo - oq[a]) / dq[a], (hi - oq[a]) / dq[a]
            if dq[a] < 0:
                t0, t1 = t1, t0
            if enter is None or t0 > enter:
                enter, axis = t0, a
            leave = t1 if leave is None or t1 < leave else leave
        else:
            assert enter is not None and leave is not None
            if enter < 0:
                enter, axis = Fraction(0), -1
            within = enter < leave and enter * enter * norm2 <= reach2
            if within and (best is None or enter < best[0]):
                best = (enter, i, axis)
    if best is None:
        return None
    _, i, axis = best
    return i, axis, entry_t(boxes[i], axis, cell, o, d)


def entry_t(
    box: Box, axis: int, cell: tuple[int, int, int], o: Sequence[float], d: Sequence[float]
) -> float:
    """The float entry parameter of ``box`` through its face on ``axis`` (0.0 for none)."""
    if axis < 0:
        return 0.0
    bound = box[axis] if d[axis] > 0.0 else box[axis + 3]
    return (bound - (o[axis] - cell[axis])) / d[axis]


def box_point(
    box: Box,
    axis: int,
    cell: tuple[int, int, int],
    o: Sequence[float],
    d: Sequence[float],
    t: float,
) -> tuple[float, float, float]:
    """The entry point: ``o + t*d`` with the entered face's coordinate set to the face's."""
    if axis < 0:
        return o[0], o[1], o[2]
    p = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]]
    p[axis] = cell[axis] + (box[axis] if d[axis] > 0.0 else box[axis + 3])
    return p[0], p[1], p[2]


def boxes_many(
    table: NDArray[np.float64],
    ids: NDArray[np.integer],
    cells: NDArray[np.int64],
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    t_max: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], NDArray[np.bool_]]:
    """`box_hit` for K rays at once (columns of o, d; cells (K, 3)), without the exact path.

    ``table`` is ``registry.box_table``: each state's boxes as rows, zero-padded. Returns
    ``(box, axis, t, doubt)``: box -1 where the ray misses every box; ``doubt`` marks the rays
    whose answer must come from the exact scalar path. The float operations are those of
    `box_hit` (on a non-zero axis the two slab parameters ordered by min and max are its
    ``e`` and ``f``), so where neither doubts, both give the same box, axis and t.
    """
    boxes = table[ids]  # (K, B, 6)
    k = boxes.shape[0]
    valid = boxes[:, :, 3] > boxes[:, :, 0]  # the table's zero padding is no box
    r = o - cells.T  # (3, K), as `box_hit`'s ``o - x``
    zero = d == 0.0
    parallel_doubt = np.zeros(k, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(zero, 0.0, (np.abs(r) + 1.0) / np.abs(d))
        m = scale.max(axis=0) * _ERR  # (K,)
        enters = []
        leave: NDArray[np.float64] | None = None
        for a in range(3):
            ra, da = r[a][:, None], d[a][:, None]
            t0 = boxes[:, :, a] - ra
            t0 /= da
            t1 = boxes[:, :, a + 3] - ra
            t1 /= da
            e = np.minimum(t0, t1)
            f = np.maximum(t0, t1, out=t1)
            if zero[a].any():  # the rays running parallel to this axis: inside the slab or not
                rows = np.flatnonzero(zero[a])
                rr = r[a][rows][:, None]
                lo, hi = boxes[rows, :, a], boxes[rows, :, a + 3]
                inside = (lo <= rr) & (rr < hi)
                e[rows] = np.where(inside, -_INF, _INF)
                f[rows] = np.where(inside, _INF, -_INF)
                # ``o - X`` within rounding of a bound: the side is for the exact path.
                near = _ERR * (np.abs(rr) + 1.0)
                close = (np.abs(rr - lo) <= near) | (np.abs(rr - hi) <= near)
                parallel_doubt[rows] |= (close & valid[rows]).any(axis=1)
            enters.append(e)
            leave = f if leave is None else np.minimum(leave, f, out=leave)
    assert leave is not None
    ex, ey, ez = enters
    enter = np.maximum(ex, ey)
    np.maximum(enter, ez, out=enter)
    t = np.maximum(enter, 0.0)
    m2 = (m + m)[:, None]
    tm = t_max[:, None]
    t_in = tm * (1.0 - NEAR) - m[:, None]
    t_out = tm * (1.0 + NEAR) + m[:, None]
    candidate = t <= leave + m2
    candidate &= valid
    candidate &= t <= t_out
    hit = t < leave - m2
    hit &= candidate
    hit &= t <= t_in
    doubt = (candidate & ~hit).any(axis=1)  # hit or miss, within reach or not: too close
    doubt |= parallel_doubt
    tt = np.where(hit, t, _INF)
    best = np.argmin(tt, axis=1)
    rows = np.arange(k)
    best_t = tt[rows, best]
    tt[rows, best] = _INF
    doubt |= tt.min(axis=1) - best_t <= m + m  # a second box too close to the best to call
    # The best box's face: the axis of its largest enter, lowest on a tie; none when negative.
    bx, by, bz, be = ex[rows, best], ey[rows, best], ez[rows, best], enter[rows, best]
    axis = np.where(bx == be, 0, np.where(by == be, 1, 2))
    lim = be - (m + m)
    face_doubt = (
        ((axis != 0) & (bx >= lim)) | ((axis != 1) & (by >= lim)) | ((axis != 2) & (bz >= lim))
    )
    found = np.isfinite(best_t)
    doubt |= found & ((np.abs(be) <= m) | ((be > 0.0) & face_doubt))
    box = np.where(found, best, -1)
    face_axis = np.where(found & (be > 0.0), axis, -1)
    return box, face_axis, np.where(found, best_t, 0.0), doubt
