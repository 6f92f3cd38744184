"""The scalar ray walk of `world.ray`: `traverse` and `segment_voxels` (`raycast` is in `_cast`).

The contract, the limits and how exactness is kept are in `world.ray`'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from world.geometry import Int3, Vec3
from world.ray._exact import NEAR, ExactForm, exact_form, first_axis, within_reach
from world.validate import WORLD_LIMIT, number, vec3
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y

__all__ = ["MAX_REACH", "Hit", "Step", "segment_voxels", "traverse"]

# The longest ray (reach, max_distance) and segment, in blocks (or cells): 200 times a player's
# reach and beyond the view distance (128 blocks). Measured here: the longest walk, a diagonal
# through air with an exact tie at every step (1,774 voxels), takes about 1 ms for `raycast` and
# 3 ms for `traverse`; through a terrain world generating every chunk it passes, about 45 ms
# (4096 blocks: 190 ms, too long for one frame).
MAX_REACH = 1024.0
# The world limit as a float: comparing floats with a float is faster than with an int.
_LIMIT = float(WORLD_LIMIT)
# A "world edge" no walk reaches: segments in their own grid are bounded by their length alone.
_NO_EDGE = 1 << 62


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
        The block's id (its state id).
    box : int
        Index of the selection box hit in ``registry.selection_boxes[block_id]``; 0 for a full
        cube.
    """

    block: Int3
    face: Int3
    distance: float
    point: tuple[float, float, float]
    block_id: int
    box: int = 0

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


def _direction(value: object) -> tuple[float, float, float, float]:
    """The validated direction (rescaled by a power of two if extreme) and its length."""
    dx, dy, dz = vec3(value, "direction")
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
    """A reach in [0, MAX_REACH] (or ``inf`` when allowed); never a bool or a string."""
    if (type(value) is float or type(value) is int) and 0 <= value <= MAX_REACH:
        return float(value)
    reach = number(value, name)
    if not reach >= 0.0:
        raise ValueError(f"{name} must be >= 0, got {reach}")
    if reach > MAX_REACH and not (allow_inf and reach == math.inf):
        raise ValueError(f"{name} must be at most MAX_REACH = {MAX_REACH:g}, got {reach}")
    return reach


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


def _ray(origin: object, direction: object) -> tuple[Vec3, Vec3, float]:
    """The validated origin (within the world) and direction (rescaled if extreme), and |d|."""
    o = vec3(origin, "origin", limit=_LIMIT)
    dx, dy, dz, norm = _direction(direction)
    return o, (dx, dy, dz), norm


def _march(
    o: Vec3,
    d: Vec3,
    norm: float,
    reach: float,
    world: World | None = None,
    accept: Sequence[bool] = (),
    *,
    edge: int = WORLD_LIMIT,
) -> Iterator[MarchStep]:
    """Walk the voxels a validated ray enters, one loop iteration per voxel.

    Yields ``(x, y, z, face, t, axis, block_id)``: the start voxel first (``t = 0``,
    ``axis = -1``), then each later voxel with the axis crossed to enter it and the ray parameter
    ``t`` of the entry (distance = t * norm, at most ``reach``: a crossing found within the
    reach exactly is never reported a rounding beyond it). Without a world it yields every voxel
    entered (with ``block_id = -1``); with one, only voxels whose block id ``accept`` marks
    true. It stops at the first crossing beyond ``reach`` and before the first voxel with a
    coordinate of magnitude ``>= edge`` (outside the world). The block lookup is inline (current
    chunk cached): this loop is the whole cost of a raycast.
    """
    ox, oy, oz = o
    dx, dy, dz = d
    x, sx, bx, tx = _start_axis(ox, dx)
    y, sy, by, ty = _start_axis(oy, dy)
    z, sz, bz, tz = _start_axis(oz, dz)
    if not (-edge < x < edge and -edge < y < edge and -edge < z < edge):
        return  # the start voxel is outside the world: nothing is entered
    # The first cell past the edge on each axis, in the direction of travel.
    lim_x, lim_y, lim_z = sx * edge, sy * edge, sz * edge
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
    form: ExactForm | None = None  # the exact form of the ray, made at its first near-tie
    t_max = reach / norm
    # Crossings clearly inside or beyond the reach are decided in floats; the band between is exact.
    t_in = t_max * (1.0 - NEAR)
    t_out = t_max * (1.0 + NEAR)
    t = 0.0
    axis = -1
    # The block lookup follows the walk: a step moves the flat index by one stride, and only a
    # step onto the first local coordinate of a new chunk fetches that chunk.
    blocks = _AIR_VIEW
    idx = 0
    stale = True
    loaded = {} if world is None else world.chunks
    jx, jy, jz = sx * STRIDE_X, sy * STRIDE_Y, sz
    ex = 0 if sx > 0 else CHUNK_MASK
    ey = 0 if sy > 0 else CHUNK_MASK
    ez = 0 if sz > 0 else CHUNK_MASK
    while True:
        if world is None:
            yield x, y, z, face, min(t * norm, reach), _entry_point(o, d, x, y, z, axis, t), -1
        else:
            if stale:
                # A chunk in memory is taken straight from the dict (the walk's keys are valid);
                # `World.chunk` checks the key and generates the chunk otherwise.
                key = (x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT)
                chunk = loaded.get(key)
                if chunk is None:
                    chunk = world.chunk(*key)
                blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
                idx = (x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)
            block_id = blocks[idx]
            if accept[block_id]:
                yield (
                    x,
                    y,
                    z,
                    face,
                    min(t * norm, reach),
                    _entry_point(o, d, x, y, z, axis, t),
                    block_id,
                )
                return
        if tx <= ty and tx <= tz:
            axis, t = 0, tx
            near = t + t * NEAR
            if ty <= near or tz <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
        elif ty <= tz:
            axis, t = 1, ty
            near = t + t * NEAR
            if tx <= near or tz <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
        else:
            axis, t = 2, tz
            near = t + t * NEAR
            if tx <= near or ty <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
        if t >= t_in and (t > t_out or not within_reach((bx, by, bz)[axis], axis, o, d, reach)):
            return
        if axis == 0:
            t = tx
            x += sx
            if x == lim_x:
                return
            bx += sx
            tx = (bx - ox) / dx
            face = face_x
            idx += jx
            stale = x & CHUNK_MASK == ex
        elif axis == 1:
            t = ty
            y += sy
            if y == lim_y:
                return
            by += sy
            ty = (by - oy) / dy
            face = face_y
            idx += jy
            stale = y & CHUNK_MASK == ey
        else:
            t = tz
            z += sz
            if z == lim_z:
                return
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
        The ray; the origin lies within ``±WORLD_LIMIT``; the direction need not be normalised
        but must be finite and non-zero.
    max_distance : float
        Stop after the last voxel entered at a Euclidean distance <= this; at most `MAX_REACH`,
        or ``inf`` (then the caller stops iterating, or the walk ends at the world's edge).

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction`` or ``max_distance`` when it is not numbers, NaN,
        infinite (origin, direction), outside the world (origin), zero (direction), negative or
        beyond `MAX_REACH` (max_distance).
    """
    reach = _reach(max_distance, "max_distance", allow_inf=True)
    o, d, norm = _ray(origin, direction)  # validated here, so a bad ray raises at the call
    return _steps(_march(o, d, norm, reach))


def _steps(march: Iterator[MarchStep]) -> Iterator[Step]:
    for x, y, z, face, distance, point, _ in march:
        yield Step(Int3(x, y, z), face, distance, point)


def segment_voxels(
    start: ArrayLike, end: ArrayLike, voxel_size: float = 1.0
) -> list[tuple[Int3, tuple[float, float, float]]]:
    """The voxels of a grid of cell size ``voxel_size`` that the segment start→end enters.

    Returns ``(cell, entry_point)`` pairs in order, the start's cell first (entered at ``start``);
    entry points are in world units (for a world in millimetres with 100 mm voxels, pass
    ``voxel_size=100``). A zero-length segment gives its one cell.

    Both ends lie within ``±WORLD_LIMIT``, in world units and in cells (``end / voxel_size``),
    and the segment is at most `MAX_REACH` cells long; otherwise a `ValueError` names
    ``start``, ``end`` or ``voxel_size``.
    """
    size = number(voxel_size, "voxel_size")
    if not 0.0 < size < math.inf:
        raise ValueError(f"voxel_size must be a finite number > 0, got {size}")
    p0 = vec3(start, "start", limit=_LIMIT)
    p1 = vec3(end, "end", limit=_LIMIT)
    a = _in_cells(p0, size, "start")
    delta = tuple((e - s) / size for s, e in zip(p0, p1, strict=True))
    _in_cells(p1, size, "end")
    if delta == (0.0, 0.0, 0.0):
        return [(Int3(*(math.floor(c) for c in a)), p0)]
    length = math.sqrt(sum(c * c for c in delta))
    if not length <= MAX_REACH:
        raise ValueError(f"end is {length:g} cells from start, more than MAX_REACH = {MAX_REACH:g}")
    dx, dy, dz, norm = _direction(delta)
    out: list[tuple[Int3, tuple[float, float, float]]] = []
    for step in _steps(_march(a, (dx, dy, dz), norm, length, edge=_NO_EDGE)):
        point = (step.point[0] * size, step.point[1] * size, step.point[2] * size)
        out.append((step.cell, p0 if step.distance == 0.0 else point))
    return out


def _in_cells(p: Vec3, size: float, name: str) -> Vec3:
    """A point in cells of ``size``; within ``±WORLD_LIMIT`` cells, so the walk stays exact."""
    x, y, z = p[0] / size, p[1] / size, p[2] / size
    if not max(abs(x), abs(y), abs(z)) <= WORLD_LIMIT:
        raise ValueError(
            f"{name} / voxel_size is outside the grid (|{name} / voxel_size| <= {WORLD_LIMIT}), "
            f"got {(x, y, z)}"
        )
    return x, y, z
