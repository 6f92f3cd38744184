"""`raycast_many`: the DDA of `world.raycast` run for N rays at once in numpy.

Every ray performs exactly the float operations of the scalar `raycast` (same formulas, same
order, same tie rule), so the answers are identical; a ray that meets a near-tie between two
crossings, or a crossing within rounding of its reach, is handed to the scalar `raycast`, which
decides it exactly. Each loop iteration advances every live ray by one voxel over whole arrays;
finished rays are dropped from the arrays once they are the majority.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.chunks import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y, World
from world.raycast import _HUGE, _NEAR, _TINY, raycast

__all__ = ["RayBatch", "raycast_many"]


class RayBatch(NamedTuple):
    """Answers of `raycast_many` for N rays; rows where ``hit`` is False hold zeros and ``inf``."""

    hit: NDArray[np.bool_]
    block: NDArray[np.int64]
    face: NDArray[np.int64]
    distance: NDArray[np.float64]
    block_id: NDArray[np.int64]


# A dense chunk-index grid over the rays' bounding box is used while it has at most this many
# cells (4 MiB of int32); wider ray sets are split in two along their widest axis.
_MAX_GRID = 1 << 20


class _ChunkGrid:
    """Block lookup for many cells at once: a dense grid of chunk slots over a bounding box.

    Chunks are fetched (and generated) only when a ray first reaches them.
    """

    def __init__(self, world: World, kmin: NDArray[np.int64], extent: NDArray[np.int64]) -> None:
        self.world = world
        self.kmin = kmin
        self.extent = extent
        self.slots = np.full(int(np.prod(extent)), -1, dtype=np.int32)
        self.arrays: list[NDArray[np.uint16]] = [np.zeros(CHUNK_VOLUME, dtype=np.uint16)]
        self.flat = np.concatenate(self.arrays)

    def lookup(
        self, x: NDArray[np.int64], y: NDArray[np.int64], z: NDArray[np.int64]
    ) -> NDArray[np.uint16]:
        """Block ids at the cells (x[i], y[i], z[i])."""
        k0, k1, k2 = (int(k) for k in self.kmin)
        ey, ez = int(self.extent[1]), int(self.extent[2])
        gidx = (((x >> CHUNK_SHIFT) - k0) * ey + ((y >> CHUNK_SHIFT) - k1)) * ez + (
            (z >> CHUNK_SHIFT) - k2
        )
        slot = self.slots[gidx]
        if (slot < 0).any():
            self._fetch(np.unique(gidx[slot < 0]))
            slot = self.slots[gidx]
        flat = (
            slot.astype(np.int64) * CHUNK_VOLUME
            + (x & CHUNK_MASK) * STRIDE_X
            + (y & CHUNK_MASK) * STRIDE_Y
            + (z & CHUNK_MASK)
        )
        ids: NDArray[np.uint16] = self.flat[flat]
        return ids

    def _fetch(self, gidx: NDArray[np.int64]) -> None:
        ey, ez = int(self.extent[1]), int(self.extent[2])
        for g in gidx.tolist():
            kx, rest = divmod(g, ey * ez)
            ky, kz = divmod(rest, ez)
            key = (kx + int(self.kmin[0]), ky + int(self.kmin[1]), kz + int(self.kmin[2]))
            chunk = self.world.chunk(*key)
            if chunk is None:
                self.slots[g] = 0
            else:
                self.slots[g] = len(self.arrays)
                self.arrays.append(chunk.blocks)
        self.flat = np.concatenate(self.arrays)


def _rows(value: ArrayLike, name: str) -> NDArray[np.float64]:
    arr = np.array(value, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (N, 3), got {arr.shape}")
    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        raise ValueError(f"{name} must be finite: row {int(np.flatnonzero(bad)[0])} is not")
    return arr


def raycast_many(
    world: World,
    origins: ArrayLike,
    directions: ArrayLike,
    reach: float | ArrayLike,
    *,
    hits: ArrayLike | None = None,
) -> RayBatch:
    """`raycast` for N rays at once, vectorised in numpy, with the same answers.

    Parameters
    ----------
    world : World
    origins, directions : array_like of float, shape (N, 3)
    reach : float or array_like of float, shape (N,)
        Inclusive maximum Euclidean entry distance per ray; finite and >= 0.
    hits : array_like of bool, shape (len(registry),), optional
        Which block ids stop a ray; the registry's ``pointable`` table by default.

    Returns
    -------
    RayBatch
        ``hit`` (N,) bool, ``block`` (N, 3) int64, ``face`` (N, 3) int64, ``distance`` (N,)
        float64 (``inf`` for a miss) and ``block_id`` (N,) int64.

    Notes
    -----
    Each loop iteration advances every live ray by one voxel, so the cost is about
    (voxels crossed by the longest ray) numpy passes over the live rays. Rays that meet a
    near-tie between two crossings, or a crossing within rounding of the reach, are answered by
    the scalar `raycast` (exact); they are rare outside axis-diagonal rays.
    """
    o = _rows(origins, "origins")
    d = _rows(directions, "directions")
    if o.shape != d.shape:
        raise ValueError(f"origins {o.shape} and directions {d.shape} must have the same shape")
    zero = ~d.any(axis=1)
    if zero.any():
        raise ValueError(f"directions must be non-zero: row {int(np.flatnonzero(zero)[0])} is zero")
    reach_arr = np.broadcast_to(np.asarray(reach, dtype=np.float64), (len(o),))
    if (np.isnan(reach_arr) | (reach_arr < 0) | np.isinf(reach_arr)).any():
        raise ValueError("reach must be finite and >= 0 for every ray")
    mask = (
        world.registry.pointable if hits is None else np.asarray(hits, dtype=np.bool_).reshape(-1)
    )
    if len(mask) < len(world.registry):
        raise ValueError(f"hits must have one entry per block id ({len(world.registry)})")
    big = np.abs(d).max(axis=1)
    rescale = (big > _HUGE) | (big < _TINY)
    if rescale.any():
        d[rescale] = np.ldexp(d[rescale], -np.frexp(big[rescale])[1][:, None])
    out = RayBatch(
        np.zeros(len(o), dtype=np.bool_),
        np.zeros((len(o), 3), dtype=np.int64),
        np.zeros((len(o), 3), dtype=np.int64),
        np.full(len(o), np.inf),
        np.zeros(len(o), dtype=np.int64),
    )
    _batch(world, o, d, reach_arr.copy(), mask, np.arange(len(o)), out)
    return out


def _batch(
    world: World,
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    reach: NDArray[np.float64],
    mask: NDArray[np.bool_],
    rows: NDArray[np.int64],
    out: RayBatch,
) -> None:
    """Answer the rays ``rows`` into ``out``, splitting them while their bounding box is wide."""
    if not len(rows):
        return
    ro, rd, rr = o[rows], d[rows], reach[rows]
    norm = np.sqrt(rd[:, 0] * rd[:, 0] + rd[:, 1] * rd[:, 1] + rd[:, 2] * rd[:, 2])
    ends = ro + rd * (rr / norm)[:, None]
    lo = (np.floor(np.minimum(ro, ends)).astype(np.int64) - 1) >> CHUNK_SHIFT
    hi = (np.floor(np.maximum(ro, ends)).astype(np.int64) + 1) >> CHUNK_SHIFT
    kmin, kmax = lo.min(axis=0), hi.max(axis=0)
    extent = kmax - kmin + 1
    if float(np.prod(extent.astype(np.float64))) > _MAX_GRID and len(rows) > 1:
        axis = int(np.argmax(extent))
        order = np.argsort(ro[:, axis], kind="stable")
        half = len(rows) // 2
        _batch(world, o, d, reach, mask, rows[order[:half]], out)
        _batch(world, o, d, reach, mask, rows[order[half:]], out)
        return
    grid = _ChunkGrid(world, kmin, extent)
    exact = _march_many(grid, ro, rd, rr, norm, mask, rows, out)
    for r in exact.tolist():
        hit = raycast(world, o[r], d[r], float(reach[r]), hits=lambda b: bool(mask[b]))
        if hit is not None:
            out.hit[r] = True
            out.block[r] = hit.block
            out.face[r] = hit.face
            out.distance[r] = hit.distance
            out.block_id[r] = hit.block_id


def _march_many(
    grid: _ChunkGrid,
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    reach: NDArray[np.float64],
    norm: NDArray[np.float64],
    mask: NDArray[np.bool_],
    rows: NDArray[np.int64],
    out: RayBatch,
) -> NDArray[np.int64]:
    """The DDA of `world.raycast._march` for many rays; returns rows needing the exact path."""
    n = len(o)
    ox, oy, oz = (np.ascontiguousarray(o[:, a]) for a in range(3))
    dx, dy, dz = (np.ascontiguousarray(d[:, a]) for a in range(3))
    cells, steps, bounds, t_next = [], [], [], []
    with np.errstate(divide="ignore", invalid="ignore"):
        for oa, da in ((ox, dx), (oy, dy), (oz, dz)):
            pos, neg = da > 0, da < 0
            cell = np.where(neg, np.ceil(oa) - 1, np.floor(oa))
            bound = cell + pos
            cells.append(cell.astype(np.int64))
            steps.append(pos.astype(np.int64) - neg)
            bounds.append(bound)
            t_next.append(np.where(pos | neg, (bound - oa) / da, np.inf))
    x, y, z = cells
    sx, sy, sz = steps
    bx, by, bz = bounds
    tx, ty, tz = t_next
    # Start face: the first axis whose origin coordinate lies on the start voxel's entry face.
    on = [(s != 0) & (oa == b - s) for s, oa, b in ((sx, ox, bx), (sy, oy, by), (sz, oz, bz))]
    face_axis = np.where(on[0], 0, np.where(on[1], 1, np.where(on[2], 2, -1))).astype(np.int8)
    t_max = reach / norm
    t_in, t_out = t_max * (1.0 - _NEAR), t_max * (1.0 + _NEAR)
    t_enter = np.zeros(n)
    live = np.ones(n, dtype=np.bool_)
    stops = mask
    exact: list[NDArray[np.int64]] = []
    with np.errstate(divide="ignore", invalid="ignore"):
        while True:
            ids = grid.lookup(x, y, z)
            got = stops[ids] & live
            if got.any():
                r = rows[got]
                out.hit[r] = True
                out.block[r] = np.column_stack((x[got], y[got], z[got]))
                fa = face_axis[got].astype(np.int64)
                hit_face = np.zeros((len(r), 3), dtype=np.int64)
                has = fa >= 0
                step_of = np.column_stack((sx[got], sy[got], sz[got]))
                hit_face[has, fa[has]] = -step_of[has, fa[has]]
                out.face[r] = hit_face
                out.distance[r] = t_enter[got] * norm[got]
                out.block_id[r] = ids[got]
                live &= ~got
            ax0 = (tx <= ty) & (tx <= tz)
            ax1 = ~ax0 & (ty <= tz)
            ax2 = ~(ax0 | ax1)
            t = np.where(ax0, tx, np.where(ax1, ty, tz))
            near = t + t * _NEAR
            ties = (
                (tx <= near).view(np.uint8)
                + (ty <= near).view(np.uint8)
                + (tz <= near).view(np.uint8)
            ) > 1
            beyond = t >= t_in
            doubt = live & (ties | (beyond & (t <= t_out)))
            if doubt.any():
                exact.append(rows[doubt])
            live &= ~(doubt | beyond)
            count = int(np.count_nonzero(live))
            if count == 0:
                break
            # Finished rays stay where they are (their cells stay inside the grid).
            ax0 &= live
            ax1 &= live
            ax2 &= live
            x += sx * ax0
            y += sy * ax1
            z += sz * ax2
            bx += sx * ax0
            by += sy * ax1
            bz += sz * ax2
            tx = np.where(ax0, (bx - ox) / dx, tx)
            ty = np.where(ax1, (by - oy) / dy, ty)
            tz = np.where(ax2, (bz - oz) / dz, tz)
            face_axis = np.where(ax0, 0, np.where(ax1, 1, 2)).astype(np.int8)
            t_enter = t
            if count * 2 < len(live):
                keep = live
                x, y, z, sx, sy, sz = x[keep], y[keep], z[keep], sx[keep], sy[keep], sz[keep]
                bx, by, bz, tx, ty, tz = bx[keep], by[keep], bz[keep], tx[keep], ty[keep], tz[keep]
                ox, oy, oz, dx, dy, dz = ox[keep], oy[keep], oz[keep], dx[keep], dy[keep], dz[keep]
                t_in, t_out, norm, rows = t_in[keep], t_out[keep], norm[keep], rows[keep]
                face_axis, t_enter = face_axis[keep], t_enter[keep]
                live = np.ones(count, dtype=np.bool_)
    return np.concatenate(exact) if exact else np.zeros(0, dtype=np.int64)
