"""Exact voxel raycasting (Amanatides & Woo 1987): one loop iteration per voxel crossed.

The ray is ``p(t) = origin + t * direction`` for ``t >= 0``; voxel (i, j, k) is the cube
[i, i+1]×[j, j+1]×[k, k+1]. A voxel is *entered* when the ray passes through its interior.

- The start voxel is the one the ray is in just after leaving the origin: per axis ``floor(o)``
  for a direction component >= 0 (``-0.0`` counts as 0) and ``ceil(o) - 1`` for a negative one.
- Each later voxel is entered through one face; ``face`` is that face's unit normal, pointing back
  toward the origin, so the place position of a hit is ``hit.block + hit.face``. The start voxel's
  face is (0, 0, 0) when the origin is strictly inside it, and the entry face when the origin lies
  exactly on it (distance 0).
- Distances are Euclidean, from the origin to the entry point; a voxel whose entry distance equals
  the reach is within reach.

Exactness. The parameter of the next crossing on each axis is computed afresh from the boundary
coordinate, ``(boundary - o) / d``, never accumulated, so nothing drifts over long rays. Those two
float operations are each correctly rounded, so the float order of two crossings can only be wrong
when they lie within a few ulps of each other; such near-ties (and distances within a few ulps of
the reach) are decided again with exact rational arithmetic (`fractions.Fraction`) on the input
floats. Exact ties (the ray passes through an edge or a corner) go to the lower axis, x before y
before z. Direction vectors are rescaled by a power of two when huge or tiny, which is exact.

Performance: `raycast` is a scalar loop that caches the current chunk (a reach-5 ray costs a few
microseconds in CPython); `raycast_many` runs the same float steps for N rays at once in numpy,
and hands the rare rays that met a near-tie to `raycast`, so both give identical answers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.chunks import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y, World

__all__ = [
    "Hit",
    "Int3",
    "RayBatch",
    "Step",
    "raycast",
    "raycast_many",
    "segment_voxels",
    "traverse",
]

# Two crossings whose float parameters are closer than this (relative) may be misordered by
# rounding (each parameter carries at most ~2 ulp = 4.4e-16 relative error); such cases are
# re-decided exactly. The margin is wide on purpose: the exact path is rare and always right.
_NEAR = 1e-12
# Directions with a component beyond these magnitudes are rescaled by a power of two (exact), so
# squaring them for the norm neither overflows nor underflows.
_HUGE = 2.0**400
_TINY = 2.0**-400


class Int3(NamedTuple):
    """An integer triple whose ``+`` and ``-`` are elementwise (``hit.block + hit.face``)."""

    x: int
    y: int
    z: int

    def __add__(self, other: Sequence[int]) -> Int3:  # type: ignore[override]
        return Int3(self[0] + other[0], self[1] + other[1], self[2] + other[2])

    def __radd__(self, other: Sequence[int]) -> Int3:
        return Int3(other[0] + self[0], other[1] + self[1], other[2] + self[2])

    def __sub__(self, other: Sequence[int]) -> Int3:
        return Int3(self[0] - other[0], self[1] - other[1], self[2] - other[2])

    def __neg__(self) -> Int3:
        return Int3(-self[0], -self[1], -self[2])


_ZERO = Int3(0, 0, 0)
_FACES = (
    (Int3(-1, 0, 0), Int3(1, 0, 0)),  # x crossed going +x (face -x), going -x (face +x)
    (Int3(0, -1, 0), Int3(0, 1, 0)),
    (Int3(0, 0, -1), Int3(0, 0, 1)),
)


@dataclass(frozen=True, slots=True)
class Hit:
    """The voxel a ray targets.

    Attributes
    ----------
    block : Int3
        World voxel coordinates of the targeted block.
    face : Int3
        Unit normal of the face the ray entered through, pointing back at the origin;
        (0, 0, 0) when the origin is strictly inside the block.
    distance : float
        Euclidean distance from the origin to the entry point.
    point : tuple of float
        The entry point (the origin itself for a block the ray starts in).
    block_id : int
        The block's id.
    """

    block: Int3
    face: Int3
    distance: float
    point: tuple[float, float, float]
    block_id: int

    @property
    def place_position(self) -> Int3:
        """``block + face``: where a block placed against the entered face goes."""
        return self.block + self.face


class Step(NamedTuple):
    """One voxel entered by `traverse`: its cell, entry face, entry distance and entry point."""

    cell: Int3
    face: Int3
    distance: float
    point: tuple[float, float, float]


def _vec3(value: object, name: str) -> tuple[float, float, float]:
    try:
        seq = [float(v) for v in value]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be 3 numbers, got {value!r}") from None
    if len(seq) != 3:
        raise ValueError(f"{name} must have 3 components, got {len(seq)}")
    if not all(math.isfinite(v) for v in seq):
        raise ValueError(f"{name} must be finite, got {tuple(seq)}")
    return seq[0], seq[1], seq[2]


def _direction(value: object) -> tuple[float, float, float]:
    dx, dy, dz = _vec3(value, "direction")
    if dx == 0.0 and dy == 0.0 and dz == 0.0:
        raise ValueError("direction must not be the zero vector")
    biggest = max(abs(dx), abs(dy), abs(dz))
    if biggest > _HUGE or biggest < _TINY:
        scale = math.ldexp(1.0, -math.frexp(biggest)[1])  # a power of two: exact
        dx, dy, dz = dx * scale, dy * scale, dz * scale
    return dx, dy, dz


def _reach(value: object, name: str, *, allow_inf: bool) -> float:
    try:
        reach = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(reach) or reach < 0:
        raise ValueError(f"{name} must be >= 0, got {reach}")
    if math.isinf(reach) and not allow_inf:
        raise ValueError(f"{name} must be finite, got {reach}")
    return reach


def _exact_t(boundary: int, o: float, d: float) -> Fraction:
    return (boundary - Fraction(o)) / Fraction(d)


def _exact_axis(bounds: list[int], o: tuple[float, ...], d: tuple[float, ...]) -> int:
    """The axis whose next crossing comes first, in exact arithmetic (lowest axis on a tie)."""
    best, best_t = -1, Fraction(0)
    for a in range(3):
        if d[a] == 0.0:
            continue
        t = _exact_t(bounds[a], o[a], d[a])
        if best < 0 or t < best_t:
            best, best_t = a, t
    return best


def _exact_within(
    boundary: int, o: float, d: float, d_all: tuple[float, ...], reach: float
) -> bool:
    """Exactly: is the crossing of ``boundary`` (on one axis) at a distance <= reach?"""
    t = _exact_t(boundary, o, d)
    norm2 = sum((Fraction(c) ** 2 for c in d_all), Fraction(0))
    return t * t * norm2 <= Fraction(reach) ** 2


def _start(
    origin: object, direction: object
) -> tuple[tuple[float, float, float], tuple[float, float, float], list[int], list[int], Int3]:
    """Validated origin and direction, the start cell, the first boundaries, the start face."""
    o = _vec3(origin, "origin")
    d = _direction(direction)
    cell = [0, 0, 0]
    bounds = [0, 0, 0]
    face = _ZERO
    for a in range(3):
        oa, da = o[a], d[a]
        if da > 0.0:
            cell[a] = math.floor(oa)
            bounds[a] = cell[a] + 1
            if face is _ZERO and oa == cell[a]:
                face = _FACES[a][0]
        elif da < 0.0:
            cell[a] = math.ceil(oa) - 1
            bounds[a] = cell[a]
            if face is _ZERO and oa == cell[a] + 1:
                face = _FACES[a][1]
        else:
            cell[a] = math.floor(oa)
    return o, d, cell, bounds, face


def _march(
    o: tuple[float, float, float],
    d: tuple[float, float, float],
    cell: list[int],
    bounds: list[int],
    reach: float,
) -> Iterator[tuple[int, int, int, int, float]]:
    """Yield ``(x, y, z, axis, t)`` for each voxel entered after the start voxel.

    ``axis`` is the axis crossed to enter it and ``t`` the ray parameter of the entry. Stops at
    the first crossing beyond ``reach`` (Euclidean). One iteration per voxel.
    """
    ox, oy, oz = o
    dx, dy, dz = d
    x, y, z = cell
    bx, by, bz = bounds
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    sz = 1 if dz > 0 else -1
    inf = math.inf
    tx = (bx - ox) / dx if dx else inf
    ty = (by - oy) / dy if dy else inf
    tz = (bz - oz) / dz if dz else inf
    norm = math.sqrt(dx * dx + dy * dy + dz * dz)
    t_max = reach / norm
    # Crossings clearly inside or beyond the reach are decided in floats; the band between is exact.
    t_in = t_max * (1.0 - _NEAR)
    t_out = t_max * (1.0 + _NEAR)
    while True:
        if tx <= ty and tx <= tz:
            axis, t = 0, tx
        elif ty <= tz:
            axis, t = 1, ty
        else:
            axis, t = 2, tz
        near = t + t * _NEAR
        if (tx <= near) + (ty <= near) + (tz <= near) > 1:
            axis = _exact_axis([bx, by, bz], o, d)
            t = (tx, ty, tz)[axis]
        if t > t_in and (
            t > t_out or not _exact_within((bx, by, bz)[axis], o[axis], d[axis], d, reach)
        ):
            return
        if axis == 0:
            x += sx
            bx += sx
            tx = (bx - ox) / dx
        elif axis == 1:
            y += sy
            by += sy
            ty = (by - oy) / dy
        else:
            z += sz
            bz += sz
            tz = (bz - oz) / dz
        yield x, y, z, axis, t


def _entry_point(
    o: tuple[float, float, float], d: tuple[float, float, float], cell: int, axis: int, t: float
) -> tuple[float, float, float]:
    """``o + t*d`` with the crossed axis set to its boundary exactly."""
    p = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]]
    p[axis] = float(cell if d[axis] > 0 else cell + 1)
    return p[0], p[1], p[2]


def _norm(d: tuple[float, float, float]) -> float:
    return math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])


def traverse(origin: ArrayLike, direction: ArrayLike, max_distance: float) -> Iterator[Step]:
    """Yield every voxel the ray enters, in order, the start voxel first (distance 0).

    Parameters
    ----------
    origin, direction : array_like of float, shape (3,)
        The ray; the direction need not be normalised but must be finite and non-zero.
    max_distance : float
        Stop after the last voxel entered at a Euclidean distance <= this; may be ``inf``
        (then the caller stops iterating).

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction`` or ``max_distance`` when it is NaN, infinite (origin,
        direction), zero (direction) or negative (max_distance).
    """
    reach = _reach(max_distance, "max_distance", allow_inf=True)
    o, d, cell, bounds, face = _start(origin, direction)
    return _steps(o, d, cell, bounds, face, reach)


def _steps(
    o: tuple[float, float, float],
    d: tuple[float, float, float],
    cell: list[int],
    bounds: list[int],
    face: Int3,
    reach: float,
) -> Iterator[Step]:
    yield Step(Int3(*cell), face, 0.0, o)
    norm = _norm(d)
    for x, y, z, axis, t in _march(o, d, cell, bounds, reach):
        here = Int3(x, y, z)
        yield Step(
            here, _FACES[axis][d[axis] < 0], t * norm, _entry_point(o, d, here[axis], axis, t)
        )


def raycast(
    world: World,
    origin: ArrayLike,
    direction: ArrayLike,
    reach: float,
    *,
    hits: Callable[[int], bool] | None = None,
) -> Hit | None:
    """The first block along the ray within ``reach`` that is pointable (or that ``hits`` accepts).

    Parameters
    ----------
    world : World
        The voxels; chunks not yet generated are generated as the ray reads them.
    origin, direction : array_like of float, shape (3,)
        The ray (an eye position and a view vector; the direction need not be normalised).
    reach : float
        Inclusive maximum Euclidean entry distance; finite and >= 0.
    hits : callable, optional
        ``hits(block_id) -> bool`` replaces the registry's ``pointable`` test.

    Returns
    -------
    Hit or None

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction`` or ``reach`` when it is NaN or infinite, the direction
        is zero, or the reach is negative.
    """
    reach = _reach(reach, "reach", allow_inf=False)
    o, d, cell, bounds, face = _start(origin, direction)
    accept: Callable[[int], bool] = (
        hits if hits is not None else world.registry.pointable_list.__getitem__
    )
    chunk_of = world.chunk
    x, y, z = cell
    kx, ky, kz = x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT
    chunk = chunk_of(kx, ky, kz)
    blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
    block_id = blocks[(x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)]
    if accept(block_id):
        return Hit(Int3(x, y, z), face, 0.0, o, block_id)
    for x, y, z, axis, t in _march(o, d, cell, bounds, reach):
        if x >> CHUNK_SHIFT != kx or y >> CHUNK_SHIFT != ky or z >> CHUNK_SHIFT != kz:
            kx, ky, kz = x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT
            chunk = chunk_of(kx, ky, kz)
            blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
        block_id = blocks[
            (x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)
        ]
        if accept(block_id):
            here = Int3(x, y, z)
            return Hit(
                here,
                _FACES[axis][d[axis] < 0],
                t * _norm(d),
                _entry_point(o, d, here[axis], axis, t),
                block_id,
            )
    return None


_AIR_VIEW = np.zeros(CHUNK_VOLUME, dtype=np.uint16).data


def segment_voxels(
    start: ArrayLike, end: ArrayLike, voxel_size: float = 1.0
) -> list[tuple[Int3, tuple[float, float, float]]]:
    """The voxels of a grid of cell size ``voxel_size`` that the segment start→end enters.

    Returns ``(cell, entry_point)`` pairs in order, the start's cell first (entered at ``start``);
    entry points are in world units (for a world in millimetres with 100 mm voxels, pass
    ``voxel_size=100``). A zero-length segment gives its one cell.
    """
    size = _reach(voxel_size, "voxel_size", allow_inf=False)
    if size == 0.0:
        raise ValueError("voxel_size must be > 0, got 0.0")
    p0 = _vec3(start, "start")
    p1 = _vec3(end, "end")
    a = tuple(c / size for c in p0)
    delta = tuple((e - s) / size for s, e in zip(p0, p1, strict=True))
    if delta == (0.0, 0.0, 0.0):
        return [(Int3(*(math.floor(c) for c in a)), p0)]
    length = math.sqrt(sum(c * c for c in delta))
    out: list[tuple[Int3, tuple[float, float, float]]] = []
    for step in traverse(a, delta, length):
        point = (step.point[0] * size, step.point[1] * size, step.point[2] * size)
        out.append((step.cell, p0 if step.distance == 0.0 else point))
    return out


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
        self.stack = np.stack(self.arrays)

    def lookup(self, cell: NDArray[np.int64]) -> NDArray[np.uint16]:
        k = (cell >> CHUNK_SHIFT) - self.kmin
        ey, ez = int(self.extent[1]), int(self.extent[2])
        gidx = (k[:, 0] * ey + k[:, 1]) * ez + k[:, 2]
        slot = self.slots[gidx]
        if (slot < 0).any():
            self._fetch(np.unique(gidx[slot < 0]))
            slot = self.slots[gidx]
        local = cell & CHUNK_MASK
        flat = local[:, 0] * STRIDE_X + local[:, 1] * STRIDE_Y + local[:, 2]
        ids: NDArray[np.uint16] = self.stack[slot, flat]
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
        self.stack = np.stack(self.arrays)


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
        d[rescale] *= np.ldexp(1.0, -np.frexp(big[rescale])[1])[:, None]
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
    """The DDA of `_march` for many rays; returns the rows that need the exact scalar path."""
    pos, neg = d > 0, d < 0
    cell = np.where(neg, np.ceil(o) - 1, np.floor(o)).astype(np.int64)
    step = pos.astype(np.int64) - neg.astype(np.int64)
    bound = cell + pos
    t_next = np.full(o.shape, np.inf)
    np.divide(bound - o, d, out=t_next, where=step != 0)
    on_face = (pos & (o == cell)) | (neg & (o == cell + 1))
    face = np.zeros_like(cell)
    starts = np.flatnonzero(on_face.any(axis=1))
    first = np.argmax(on_face[starts], axis=1)
    face[starts, first] = -step[starts, first]
    t_max = reach / norm
    t_in, t_out = t_max * (1.0 - _NEAR), t_max * (1.0 + _NEAR)
    t_enter = np.zeros(len(o))
    live = np.arange(len(o))
    exact: list[NDArray[np.int64]] = []
    while len(live):
        ids = grid.lookup(cell)
        got = mask[ids]
        if got.any():
            r = rows[live[got]]
            out.hit[r] = True
            out.block[r] = cell[got]
            out.face[r] = face[got]
            out.distance[r] = t_enter[got] * norm[live[got]]
            out.block_id[r] = ids[got]
        axis = np.argmin(t_next, axis=1)
        n = np.arange(len(axis))
        t = t_next[n, axis]
        ties = (t_next <= (t + t * _NEAR)[:, None]).sum(axis=1) > 1
        doubt = ties | ((t > t_in[live]) & (t <= t_out[live]))
        exact.append(rows[live[doubt & ~got]])
        keep = ~got & ~doubt & (t <= t_in[live])
        live, axis, t = live[keep], axis[keep], t[keep]
        cell, bound, step, t_next = cell[keep], bound[keep], step[keep], t_next[keep]
        n = np.arange(len(live))
        s = step[n, axis]
        cell[n, axis] += s
        bound[n, axis] += s
        t_next[n, axis] = (bound[n, axis] - o[live, axis]) / d[live, axis]
        face = np.zeros_like(cell)
        face[n, axis] = -s
        t_enter = t
    return np.concatenate(exact) if exact else np.zeros(0, dtype=np.int64)
