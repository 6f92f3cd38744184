"""`raycast_many`: the DDA of `world.ray` run for N rays at once in numpy.

Every ray performs exactly the float operations of the scalar `raycast` (same formulas, same
order, same tie rule), so the answers are identical; a ray that meets a near-tie between two
crossings, or a crossing within rounding of its reach, is handed to the scalar `raycast`, which
decides it exactly. Each loop iteration advances every live ray by one voxel over whole arrays;
finished rays are dropped from the arrays once they are the majority. Rays in a voxel with
selection boxes are tested against them in the same iteration (`world.ray._shapes.boxes_many`):
a hit stops the ray, a miss walks on, and a test too close to call goes to the exact `raycast`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.ray._cast import raycast
from world.ray._exact import NEAR
from world.ray._region import PASS, SHAPE, Region
from world.ray._shapes import boxes_many
from world.ray._walk import MAX_REACH
from world.validate import WORLD_LIMIT, number
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_SHIFT, CHUNK_VOLUME

__all__ = ["RayBatch", "raycast_many"]


class RayBatch(NamedTuple):
    """Answers of `raycast_many` for N rays; rows where ``hit`` is False hold zeros and ``inf``.

    ``box`` is `Hit.box`: the index of the selection box hit (0 for a full cube).
    """

    hit: NDArray[np.bool_]
    block: NDArray[np.int64]
    face: NDArray[np.int64]
    distance: NDArray[np.float64]
    block_id: NDArray[np.int64]
    box: NDArray[np.int64]


# The rays' bounding box is held as one dense uint8 array of voxels while it has at most this
# many (32 MiB); wider ray sets are split in two along their widest axis.
_MAX_REGION = 1 << 25
_SLICE = 16384  # rays marched together; measured best of 8k, 16k, 32k and all at once
# Fewer rays than this are walked one by one by the scalar `raycast`: a batch step costs about
# 25 µs of numpy calls however few rays are live, a scalar step about 0.5 µs per ray, and the
# dense region costs its size (measured: 32 rays of reach 1024 took 300 ms batched, 16 ms one by
# one; 64 rays of reach 5, 7 ms and 0.6 ms).
_MIN_BATCH = 64


def _numbers(value: object, name: str) -> NDArray[np.float64]:
    """An array of real numbers as float64: never strings, bools or other objects."""
    try:
        raw: NDArray[Any] = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        raise ValueError(f"{name} must be an array of numbers, got a ragged sequence") from None
    if raw.dtype.kind == "O":  # e.g. Python integers beyond int64: each checked and converted
        flat = [number(v, name) for v in raw.flat]
        return np.array(flat, dtype=np.float64).reshape(raw.shape)
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold numbers, got dtype {raw.dtype}")
    return raw.astype(np.float64)


def _columns(value: object, name: str, limit: float = np.inf) -> NDArray[np.float64]:
    """An (N, 3) array of finite floats within ``±limit``, as contiguous (3, N) rows (a copy)."""
    arr = _numbers(value, name)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (N, 3), got {arr.shape}")
    cols = np.array(arr.T, order="C")  # a copy: rescaling directions never touches the caller's
    bad = ~np.isfinite(cols).all(axis=0)
    if bad.any():
        raise ValueError(f"{name} must be finite: row {int(np.flatnonzero(bad)[0])} is not")
    far = np.abs(cols).max(axis=0, initial=0.0) > limit
    if far.any():
        raise ValueError(
            f"{name} must lie within the world (|{name}| <= {limit:g}): "
            f"row {int(np.flatnonzero(far)[0])} does not"
        )
    return cols


def _reaches(value: object, n: int) -> NDArray[np.float64]:
    """One reach per ray, each in [0, MAX_REACH]."""
    arr = _numbers(value, "reach")
    try:
        reach = np.broadcast_to(arr, (n,))
    except ValueError:
        raise ValueError(f"reach must be one number or {n}, got shape {arr.shape}") from None
    bad = ~((reach >= 0.0) & (reach <= MAX_REACH))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"reach must be in [0, MAX_REACH = {MAX_REACH:g}] for every ray: "
            f"row {row} is {reach[row]}"
        )
    return reach


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
        Origins within ``±WORLD_LIMIT``; finite, non-zero directions.
    reach : float or array_like of float, shape (N,)
        Inclusive maximum Euclidean entry distance per ray, in [0, `MAX_REACH`].
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
    the scalar `raycast` (exact); they are rare outside axis-diagonal rays. So are rays that may
    reach the world's edge, where the walk stops, and any group of fewer than 64 rays, for which
    numpy's per-step overhead would cost more than the scalar walk.

    Raises
    ------
    ValueError
        As `raycast` does, naming ``origins``, ``directions`` or ``reach`` (and the row).
    """
    o = _columns(origins, "origins", WORLD_LIMIT)
    d = _columns(directions, "directions")
    if o.shape != d.shape:
        raise ValueError(f"origins {o.T.shape} and directions {d.T.shape} must have the same shape")
    n = o.shape[1]
    # The same norm and the same power-of-two rescaling of extreme directions as the scalar path.
    with np.errstate(over="ignore"):  # an overflow to inf marks the row extreme: rescaled below
        norm2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    extreme = ~((norm2 > 1e-200) & (norm2 < 1e200))
    if extreme.any():
        zero = extreme & ~d.any(axis=0)
        if zero.any():
            row = int(np.flatnonzero(zero)[0])
            raise ValueError(f"directions must be non-zero: row {row} is zero")
        shift = -np.frexp(np.abs(d[:, extreme]).max(axis=0))[1]
        d[:, extreme] = np.ldexp(d[:, extreme], shift)
        norm2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    reach_arr = _reaches(reach, n)
    if not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    try:
        mask = (
            world.registry.pointable
            if hits is None
            else np.asarray(hits, dtype=np.bool_).reshape(-1)
        )
    except (ValueError, TypeError):
        raise ValueError("hits must be an array of bools, one per block id") from None
    if len(mask) < len(world.registry):
        raise ValueError(f"hits must have one entry per block id ({len(world.registry)})")
    out = RayBatch(
        np.zeros(n, dtype=np.bool_),
        np.zeros((n, 3), dtype=np.int64),
        np.zeros((n, 3), dtype=np.int64),
        np.full(n, np.inf),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
    )
    # What a ray does in a voxel, by state id: pass, stop, or test the state's selection boxes.
    registry = world.registry
    stops = mask.astype(np.uint8)
    shaped = np.flatnonzero(mask[: len(registry)] & ~registry.full_cube)
    stops[shaped] = SHAPE
    norm = np.sqrt(norm2)
    # Rays that may reach the world's edge stop there: the scalar walk answers them, exactly.
    ends = o + d * (reach_arr / norm)
    edge = np.maximum(np.abs(o), np.abs(ends)).max(axis=0, initial=0.0) >= WORLD_LIMIT - 2
    rows = np.arange(n)
    _batch(world, o, d, norm, reach_arr, stops, rows[~edge], out)
    _scalar(world, o, d, reach_arr, mask, rows[edge], rows[edge], out)
    return out


def _batch(
    world: World,
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    norm: NDArray[np.float64],
    reach: NDArray[np.float64],
    mask: NDArray[np.uint8],
    rows: NDArray[np.int64],
    out: RayBatch,
) -> None:
    """Answer the rays ``rows`` (columns of o, d) into ``out``, splitting a too-wide box.

    ``mask``: what each state id does to a ray (``PASS``, ``STOP`` or ``SHAPE``).
    """
    if not len(rows):
        return
    if len(rows) < o.shape[1]:
        o, d, norm, reach = o[:, rows], d[:, rows], norm[rows], reach[rows]
    if len(rows) < _MIN_BATCH:  # a few rays (or one long one) need no box at all
        _scalar(world, o, d, reach, mask, rows, np.arange(len(rows)), out)
        return
    ends = o + d * (reach / norm)
    lo = (np.floor(np.minimum(o, ends).min(axis=1)).astype(np.int64) - 1) >> CHUNK_SHIFT
    hi = (np.floor(np.maximum(o, ends).max(axis=1)).astype(np.int64) + 1) >> CHUNK_SHIFT
    extent = hi - lo + 1
    if float(np.prod(extent.astype(np.float64))) * CHUNK_VOLUME > _MAX_REGION:
        axis = int(np.argmax(extent))
        order = np.argsort(o[axis], kind="stable")
        half = len(rows) // 2
        for part in (order[:half], order[half:]):
            _batch(world, o[:, part], d[:, part], norm[part], reach[part], mask, rows[part], out)
        return
    region = Region(world, mask, lo, extent)
    # Marching in slices keeps each step's few dozen arrays in the CPU cache.
    exact = np.concatenate(
        [
            _march_many(region, o[:, s], d[:, s], reach[s], norm[s], rows[s], out)
            for s in (slice(i, i + _SLICE) for i in range(0, len(rows), _SLICE))
        ]
    )
    # The hits' ids, read once for all of them (the march itself only knows "stops" or not).
    hits = rows[out.hit[rows]]
    out.block_id[hits] = region.block_ids(out.block[hits])
    columns = np.flatnonzero(np.isin(rows, exact))
    _scalar(world, o, d, reach, mask, rows[columns], columns, out)


def _scalar(
    world: World,
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    reach: NDArray[np.float64],
    mask: NDArray[np.bool_] | NDArray[np.uint8],
    rows: NDArray[np.int64],
    columns: NDArray[np.int64],
    out: RayBatch,
) -> None:
    """Answer the rays ``rows`` (columns ``columns`` of o, d) with the exact scalar `raycast`."""
    if not len(rows):
        return
    hits = tuple((mask[: len(world.registry)] != PASS).tolist()).__getitem__  # by block id
    origins, directions = o[:, columns].T.tolist(), d[:, columns].T.tolist()  # plain floats
    reaches = reach[columns].tolist()
    for r, oi, di, ri in zip(rows.tolist(), origins, directions, reaches, strict=True):
        hit = raycast(world, oi, di, ri, hits=hits)
        if hit is not None:
            out.hit[r] = True
            out.block[r] = hit.block
            out.face[r] = hit.face
            out.distance[r] = hit.distance
            out.block_id[r] = hit.block_id
            out.box[r] = hit.box


def _march_many(
    region: Region,
    o: NDArray[np.float64],
    d: NDArray[np.float64],
    reach: NDArray[np.float64],
    norm: NDArray[np.float64],
    rows: NDArray[np.int64],
    out: RayBatch,
) -> NDArray[np.int64]:
    """The DDA of `world.ray._walk._march` for many rays; returns rows needing the exact path.

    Per ray and axis: the next boundary ``b`` and its parameter ``t = (b - o) / d``, recomputed
    from ``b`` each step exactly as the scalar loop does; the ray's cell is a flat index into the
    region that moves by one stride per step.
    """
    d = d + 0.0  # -0.0 -> 0.0: a zero component's boundary parameter is then +inf, never the min
    pos, neg = d > 0, d < 0
    cell = np.where(neg, np.ceil(o) - 1, np.floor(o))
    step = pos.astype(np.float64) - neg
    bound = np.where(neg, cell, cell + 1)
    with np.errstate(divide="ignore", over="ignore"):  # inf: that axis is never crossed
        tx, ty, tz = (bound - o) / d
    on_face = (pos & (o == cell)) | (neg & (o == cell + 1))
    idx = region.index(cell.astype(np.int64))
    jx, jy, jz = step.astype(np.int64) * np.array(region.strides, dtype=np.int64)[:, None]
    ox, oy, oz = o
    dx, dy, dz = d
    bx, by, bz = bound
    sx, sy, sz = step
    step = np.ascontiguousarray(step.T)  # (N, 3), for the faces of hits
    # The axis of the face a ray entered its voxel through (-1: none).
    face_axis = np.where(on_face[0], 0, np.where(on_face[1], 1, np.where(on_face[2], 2, -1)))
    t_max = reach / norm
    t_in, t_out = t_max * (1.0 - NEAR), t_max * (1.0 + NEAR)
    registry = region.world.registry
    t_enter = np.zeros(len(rows))
    live = np.ones(len(rows), dtype=np.bool_)
    exact: list[NDArray[np.int64]] = []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        while True:
            values = region.read(idx)
            got = (values != PASS) & live
            shaped = got & (values == SHAPE)
            if shaped.any():
                # The rays in a voxel with selection boxes: hit a box, walk on, or go exact.
                at = np.flatnonzero(shaped)
                # The cell from the boundaries ahead: b - 1 going + (or along the axis), b going -.
                cells = np.column_stack(
                    [b[at] - (s[at] >= 0.0) for b, s in ((bx, sx), (by, sy), (bz, sz))]
                ).astype(np.int64)
                ray_o = np.stack((ox[at], oy[at], oz[at]))
                ray_d = np.stack((dx[at], dy[at], dz[at]))
                box, box_axis, tb, doubt = boxes_many(
                    registry.box_table,
                    region.block_ids(cells),
                    cells,
                    ray_o,
                    ray_d,
                    t_max[at],
                )
                won = (box >= 0) & ~doubt
                if doubt.any():
                    exact.append(rows[at[doubt]])
                    live[at[doubt]] = False
                if won.any():
                    hit_at = at[won]
                    _record(
                        region,
                        out,
                        rows[hit_at],
                        idx[hit_at],
                        box_axis[won],
                        step[hit_at],
                        tb[won] * norm[hit_at],
                    )
                    out.box[rows[hit_at]] = box[won]
                    live[hit_at] = False
                got &= ~shaped
            if got.any():
                _record(
                    region,
                    out,
                    rows[got],
                    idx[got],
                    face_axis[got],
                    step[got],
                    t_enter[got] * norm[got],
                )
                live &= ~got
            t = np.minimum(np.minimum(tx, ty), tz)
            ax0 = tx == t
            ax1 = (ty == t) > ax0
            ax2 = ~(ax0 | ax1)
            near = t + t * NEAR
            ties = (tx <= near).view(np.uint8) + (ty <= near).view(np.uint8) + (tz <= near).view(
                np.uint8
            ) > 1
            beyond = t >= t_in
            doubt = live & (ties | (beyond & (t <= t_out)))
            if doubt.any():
                exact.append(rows[doubt])
            live &= ~(doubt | beyond)
            count = int(np.count_nonzero(live))
            if count == 0:
                break
            # Finished rays stay where they are (their index stays inside the region).
            ax0 &= live
            ax1 &= live
            ax2 &= live
            idx += jx * ax0
            idx += jy * ax1
            idx += jz * ax2
            bx += sx * ax0
            by += sy * ax1
            bz += sz * ax2
            tx = (bx - ox) / dx
            ty = (by - oy) / dy
            tz = (bz - oz) / dz
            face_axis = ax1.view(np.int8) + 2 * ax2.view(np.int8)
            t_enter = t
            if count * 2 < len(live):
                keep = np.flatnonzero(live)
                idx, jx, jy, jz = (a.take(keep) for a in (idx, jx, jy, jz))
                bx, by, bz, tx, ty, tz = (a.take(keep) for a in (bx, by, bz, tx, ty, tz))
                ox, oy, oz, dx, dy, dz = (a.take(keep) for a in (ox, oy, oz, dx, dy, dz))
                sx, sy, sz, t_in, t_out = (a.take(keep) for a in (sx, sy, sz, t_in, t_out))
                t_max = t_max.take(keep)
                norm, t_enter, rows = norm.take(keep), t_enter.take(keep), rows.take(keep)
                face_axis, step = face_axis.take(keep), step[keep]
                live = np.ones(count, dtype=np.bool_)
    return np.concatenate(exact) if exact else np.zeros(0, dtype=np.int64)


def _record(
    region: Region,
    out: RayBatch,
    rows: NDArray[np.int64],
    idx: NDArray[np.int64],
    face_axis: NDArray[np.integer],
    step: NDArray[np.float64],
    distance: NDArray[np.float64],
) -> None:
    """Write the hits of the rays ``rows`` (cells by flat index) into ``out``."""
    cells = region.cell(idx)
    out.hit[rows] = True
    out.block[rows] = cells
    face = np.zeros((len(rows), 3), dtype=np.int64)
    has = np.flatnonzero(face_axis >= 0)
    axis = face_axis[has].astype(np.int64)
    face[has, axis] = -step[has, axis].astype(np.int64)
    out.face[rows] = face
    out.distance[rows] = distance
