"""The scalar ray walk of `world.ray`: `traverse`, `raycast` and `segment_voxels`.

The contract and how exactness is kept are in `world.ray`'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from world.chunks import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y, World
from world.geometry import Int3, Vec3

__all__ = ["Hit", "Step", "raycast", "segment_voxels", "traverse"]

# Two crossings whose float parameters are closer than this (relative) may be misordered by
# rounding (each parameter carries at most ~2 ulp = 4.4e-16 relative error); such cases are
# re-decided exactly. The margin is wide on purpose: the exact path is rare and always right.
_NEAR = 1e-12
# Directions with a component beyond these magnitudes are rescaled by a power of two (exact), so
# squaring them for the norm neither overflows nor underflows.
_HUGE = 2.0**400
_TINY = 2.0**-400


_ZERO = Int3(0, 0, 0)
_FACES = (
    (Int3(-1, 0, 0), Int3(1, 0, 0)),  # x crossed going +x (face -x), going -x (face +x)
    (Int3(0, -1, 0), Int3(0, 1, 0)),
    (Int3(0, 0, -1), Int3(0, 0, 1)),
)


MarchStep = tuple[int, int, int, Int3, float, Vec3, int]


class Hit(NamedTuple):
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


# Building the tuples directly skips NamedTuple's keyword-handling __new__ on the hot path.
_new_int3 = Int3._make
_new_hit = Hit._make


class Step(NamedTuple):
    """One voxel entered by `traverse`: its cell, entry face, entry distance and entry point."""

    cell: Int3
    face: Int3
    distance: float
    point: tuple[float, float, float]


def _vec3(value: object, name: str) -> tuple[float, float, float]:
    try:
        vx, vy, vz = value  # type: ignore[misc]
        x, y, z = float(vx), float(vy), float(vz)  # type: ignore[has-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be 3 numbers, got {value!r}") from None
    # x - x is 0.0 for every finite x and NaN for inf and NaN: one test for all three.
    if (x - x) + (y - y) + (z - z) != 0.0:
        raise ValueError(f"{name} must be finite, got {(x, y, z)}")
    return x, y, z


def _direction(value: object) -> tuple[float, float, float, float]:
    """The validated direction (rescaled by a power of two if extreme) and its length."""
    dx, dy, dz = _vec3(value, "direction")
    norm2 = dx * dx + dy * dy + dz * dz
    if not 1e-200 < norm2 < 1e200:
        if dx == 0.0 and dy == 0.0 and dz == 0.0:
            raise ValueError("direction must not be the zero vector")
        # Scale by a power of two (exact) so the largest component lies in [0.5, 1).
        shift = -math.frexp(max(abs(dx), abs(dy), abs(dz)))[1]
        dx, dy, dz = math.ldexp(dx, shift), math.ldexp(dy, shift), math.ldexp(dz, shift)
        norm2 = dx * dx + dy * dy + dz * dz
    return dx, dy, dz, math.sqrt(norm2)


def _reach(value: object, name: str, *, allow_inf: bool) -> float:
    try:
        reach = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not reach >= 0.0:
        raise ValueError(f"{name} must be >= 0, got {reach}")
    if reach == math.inf and not allow_inf:
        raise ValueError(f"{name} must be finite, got {reach}")
    return reach


def _exact_t(boundary: int, o: float, d: float) -> Fraction:
    return (boundary - Fraction(o)) / Fraction(d)


def _exact_axis(bounds: tuple[int, int, int], o: Vec3, d: Vec3) -> int:
    """The axis whose next crossing comes first, in exact arithmetic (lowest axis on a tie)."""
    best, best_t = -1, Fraction(0)
    for a in range(3):
        if d[a] == 0.0:
            continue
        t = _exact_t(bounds[a], o[a], d[a])
        if best < 0 or t < best_t:
            best, best_t = a, t
    return best


def _exact_within(boundary: int, axis: int, o: Vec3, d: Vec3, reach: float) -> bool:
    """Exactly: is the crossing of ``boundary`` on ``axis`` at a Euclidean distance <= reach?"""
    t = _exact_t(boundary, o[axis], d[axis])
    norm2 = sum((Fraction(c) ** 2 for c in d), Fraction(0))
    return t * t * norm2 <= Fraction(reach) ** 2


def _start_axis(o: float, d: float) -> tuple[int, int, int, float]:
    """Start cell, step, first boundary and its ray parameter on one axis (step 0: never)."""
    if d > 0.0:
        cell = math.floor(o)
        return cell, 1, cell + 1, (cell + 1 - o) / d
    if d < 0.0:
        cell = math.ceil(o) - 1
        return cell, -1, cell, (cell - o) / d
    return math.floor(o), 0, 0, math.inf


# What the march reads outside any chunk: air.
_AIR_VIEW = np.zeros(CHUNK_VOLUME, dtype=np.uint16).data


def _march(
    origin: object,
    direction: object,
    reach: float,
    world: World | None = None,
    accept: Sequence[bool] = (),
) -> Iterator[MarchStep]:
    """Validate the ray, then walk the voxels it enters, one loop iteration per voxel.

    Yields ``(x, y, z, face, t, axis, block_id)``: the start voxel first (``t = 0``,
    ``axis = -1``), then each later voxel with the axis crossed to enter it and the ray parameter
    ``t`` of the entry (distance = t * norm). Without a world it yields every voxel entered (with
    ``block_id = -1``); with one, only voxels whose block id ``accept`` marks true. It stops at
    the first crossing beyond ``reach``. The block lookup is inline (current chunk cached): this
    loop is the whole cost of a raycast.
    """
    o = _vec3(origin, "origin")
    dx, dy, dz, norm = _direction(direction)
    d = (dx, dy, dz)
    ox, oy, oz = o
    x, sx, bx, tx = _start_axis(ox, dx)
    y, sy, by, ty = _start_axis(oy, dy)
    z, sz, bz, tz = _start_axis(oz, dz)
    # The origin on the start voxel's entry face reports that face (first such axis).
    if sx and ox == bx - sx:
        face = _FACES[0][sx < 0]
    elif sy and oy == by - sy:
        face = _FACES[1][sy < 0]
    elif sz and oz == bz - sz:
        face = _FACES[2][sz < 0]
    else:
        face = _ZERO
    face_x, face_y, face_z = _FACES[0][sx < 0], _FACES[1][sy < 0], _FACES[2][sz < 0]
    t_max = reach / norm
    # Crossings clearly inside or beyond the reach are decided in floats; the band between is exact.
    t_in = t_max * (1.0 - _NEAR)
    t_out = t_max * (1.0 + _NEAR)
    t = 0.0
    axis = -1
    # The block lookup follows the walk: a step moves the flat index by one stride, and only a
    # step onto the first local coordinate of a new chunk fetches that chunk.
    blocks = _AIR_VIEW
    idx = 0
    stale = True
    jx, jy, jz = sx * STRIDE_X, sy * STRIDE_Y, sz
    ex = 0 if sx > 0 else CHUNK_MASK
    ey = 0 if sy > 0 else CHUNK_MASK
    ez = 0 if sz > 0 else CHUNK_MASK
    while True:
        if world is None:
            yield x, y, z, face, t * norm, _entry_point(o, d, x, y, z, axis, t), -1
        else:
            if stale:
                chunk = world.chunk(x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT)
                blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
                idx = (x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)
            block_id = blocks[idx]
            if accept[block_id]:
                yield x, y, z, face, t * norm, _entry_point(o, d, x, y, z, axis, t), block_id
                return
        if tx <= ty and tx <= tz:
            axis, t = 0, tx
            near = t + t * _NEAR
            if ty <= near or tz <= near:
                axis = _exact_axis((bx, by, bz), o, d)
        elif ty <= tz:
            axis, t = 1, ty
            near = t + t * _NEAR
            if tx <= near or tz <= near:
                axis = _exact_axis((bx, by, bz), o, d)
        else:
            axis, t = 2, tz
            near = t + t * _NEAR
            if tx <= near or ty <= near:
                axis = _exact_axis((bx, by, bz), o, d)
        if t >= t_in and (t > t_out or not _exact_within((bx, by, bz)[axis], axis, o, d, reach)):
            return
        if axis == 0:
            t = tx
            x += sx
            bx += sx
            tx = (bx - ox) / dx
            face = face_x
            idx += jx
            stale = x & CHUNK_MASK == ex
        elif axis == 1:
            t = ty
            y += sy
            by += sy
            ty = (by - oy) / dy
            face = face_y
            idx += jy
            stale = y & CHUNK_MASK == ey
        else:
            t = tz
            z += sz
            bz += sz
            tz = (bz - oz) / dz
            face = face_z
            idx += jz
            stale = z & CHUNK_MASK == ez


def _entry_point(o: Vec3, d: Vec3, x: int, y: int, z: int, axis: int, t: float) -> Vec3:
    """``o + t*d`` with the crossed axis set to its boundary coordinate exactly."""
    if axis < 0:
        return o
    p = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]]
    cell = (x, y, z)[axis]
    p[axis] = float(cell if d[axis] > 0 else cell + 1)
    return p[0], p[1], p[2]


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
    o = _vec3(origin, "origin")  # validated here, so a bad ray raises at the call
    dx, dy, dz, _ = _direction(direction)
    return _steps(o, (dx, dy, dz), reach)


def _steps(o: Vec3, d: Vec3, reach: float) -> Iterator[Step]:
    for x, y, z, face, distance, point, _ in _march(o, d, reach):
        yield Step(Int3(x, y, z), face, distance, point)


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
    registry = world.registry
    accept = (
        registry.pointable_list
        if hits is None
        else tuple(bool(hits(block_id)) for block_id in range(len(registry)))
    )
    for x, y, z, face, distance, point, block_id in _march(origin, direction, reach, world, accept):
        return _new_hit((_new_int3((x, y, z)), face, distance, point, block_id))
    return None


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
