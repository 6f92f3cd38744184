"""`raycast`: the voxel walk of `world.ray._walk._march`, inlined for the first hit.

The same float steps, tie rule and exact decisions as `_march` (so `traverse` and `raycast`
agree voxel for voxel), written as one function without a generator: a player's ray usually
hits within three voxels, so the per-call set-up is most of its cost. In a voxel whose state has
selection boxes (``registry.selection_boxes[id]`` not None) the ray is tested against the boxes
(`world.ray._shapes`); a ray that misses them all walks on.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from world.geometry import Int3
from world.ray._exact import NEAR, ExactForm, exact_form, first_axis, within_reach
from world.ray._shapes import box_hit, box_point
from world.ray._walk import _FACES, _LIMIT, _ZERO, MAX_REACH, Hit, _direction, _reach
from world.validate import WORLD_LIMIT, vec3
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y

__all__ = ["raycast"]

_new = tuple.__new__  # building the NamedTuples directly skips their Python-level constructors
_floor = math.floor
_ceil = math.ceil
_sqrt = math.sqrt
_INF = math.inf
_MAX_REACH = float(MAX_REACH)
_AIR = np.zeros(CHUNK_VOLUME, dtype=np.uint16)  # what the walk reads outside any chunk
_AIR.flags.writeable = False
_EDGE = WORLD_LIMIT
_BELOW, _ABOVE, _NEAR_UP = 1.0 - NEAR, 1.0 + NEAR, 1.0 + NEAR
# The chunk layout the inlined lookups assume (16³, x-major): checked here, once.
assert (CHUNK_SHIFT, CHUNK_MASK, STRIDE_X, STRIDE_Y) == (4, 15, 256, 16)
# Per axis and direction sign (+, -, 0): step, entry face, flat-index stride, the local coordinate
# a step lands on when it enters a new chunk, and the first cell past the world's edge.
_AXIS_X = (
    (1, _FACES[0][0], STRIDE_X, 0, WORLD_LIMIT),
    (-1, _FACES[0][1], -STRIDE_X, CHUNK_MASK, -WORLD_LIMIT),
    (0, _FACES[0][0], 0, 0, 0),
)
_AXIS_Y = (
    (1, _FACES[1][0], STRIDE_Y, 0, WORLD_LIMIT),
    (-1, _FACES[1][1], -STRIDE_Y, CHUNK_MASK, -WORLD_LIMIT),
    (0, _FACES[1][0], 0, 0, 0),
)
_AXIS_Z = (
    (1, _FACES[2][0], 1, 0, WORLD_LIMIT),
    (-1, _FACES[2][1], -1, CHUNK_MASK, -WORLD_LIMIT),
    (0, _FACES[2][0], 0, 0, 0),
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

    A block with selection boxes (not a full cube) is hit only where the ray passes through one
    of its boxes: ``Hit.box`` is that box's index, ``face`` its entered face, ``point`` and
    ``distance`` the entry on the box (see `world.ray`).

    Parameters
    ----------
    world : World
        The voxels; chunks not yet generated are generated as the ray reads them.
    origin, direction : array_like of float, shape (3,)
        The ray (an eye position within ``±WORLD_LIMIT`` and a view vector; the direction need
        not be normalised).
    reach : float
        Inclusive maximum Euclidean entry distance, in [0, `MAX_REACH`].
    hits : callable, optional
        ``hits(block_id) -> bool`` replaces the registry's ``pointable`` test; a state with
        selection boxes that it accepts is still hit only through its boxes (none: never).

    Returns
    -------
    Hit or None
        None also when the ray leaves the world within its reach without a hit.

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction`` or ``reach`` when it is not numbers, NaN or infinite,
        the origin is outside the world, the direction is zero, or the reach is negative or
        beyond `MAX_REACH`.
    TypeError
        When ``world`` is not a `World` or ``hits`` is not callable.
    """
    if not (type(reach) is float and 0.0 <= reach <= _MAX_REACH):
        reach = _reach(reach, "reach", allow_inf=False)
    # Three plain floats (the hot path) pass by comparisons alone; anything else is checked.
    o_in: object = origin
    d_in: object = direction
    if (type(o_in) is tuple or type(o_in) is list) and len(o_in) == 3:
        ox, oy, oz = o_in
        if not (
            type(ox) is float
            and type(oy) is float
            and type(oz) is float
            and -_LIMIT <= ox <= _LIMIT
            and -_LIMIT <= oy <= _LIMIT
            and -_LIMIT <= oz <= _LIMIT
        ):
            ox, oy, oz = vec3(origin, "origin", limit=_LIMIT)
    else:
        ox, oy, oz = vec3(origin, "origin", limit=_LIMIT)
    o = (ox, oy, oz)
    if (type(d_in) is tuple or type(d_in) is list) and len(d_in) == 3:
        dx, dy, dz = d_in
        if not (type(dx) is float and type(dy) is float and type(dz) is float):
            dx, dy, dz = vec3(direction, "direction")
    else:
        dx, dy, dz = vec3(direction, "direction")
    norm2 = dx * dx + dy * dy + dz * dz
    if 1e-200 < norm2 < 1e200:  # also false for NaN and inf components
        norm = _sqrt(norm2)
    else:
        dx, dy, dz, norm = _direction((dx, dy, dz))
    d = (dx, dy, dz)
    if type(world) is not World and not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    registry = world.registry
    if hits is None:
        accept = registry.pointable_list
    elif callable(hits):
        accept = tuple(bool(hits(block_id)) for block_id in range(len(registry)))
    else:
        raise TypeError(f"hits must be a callable taking a block id, got {hits!r}")
    selection = registry.selection_boxes
    # Per axis: the start voxel, the first boundary ahead and its parameter (as
    # `_walk._start_axis`), and the step's constants (`_AXIS_*`: step, entry face, index stride,
    # the local coordinate that starts a new chunk, the first cell past the world's edge).
    if dx > 0.0:
        x = _floor(ox)
        bx = x + 1
        tx = (bx - ox) / dx
        sx, face_x, jx, ex, lim_x = _AXIS_X[0]
    elif dx < 0.0:
        x = _ceil(ox) - 1
        bx = x
        tx = (bx - ox) / dx
        sx, face_x, jx, ex, lim_x = _AXIS_X[1]
    else:
        x, bx, tx = _floor(ox), 0, _INF
        sx, face_x, jx, ex, lim_x = _AXIS_X[2]
    if dy > 0.0:
        y = _floor(oy)
        by = y + 1
        ty = (by - oy) / dy
        sy, face_y, jy, ey, lim_y = _AXIS_Y[0]
    elif dy < 0.0:
        y = _ceil(oy) - 1
        by = y
        ty = (by - oy) / dy
        sy, face_y, jy, ey, lim_y = _AXIS_Y[1]
    else:
        y, by, ty = _floor(oy), 0, _INF
        sy, face_y, jy, ey, lim_y = _AXIS_Y[2]
    if dz > 0.0:
        z = _floor(oz)
        bz = z + 1
        tz = (bz - oz) / dz
        sz, face_z, jz, ez, lim_z = _AXIS_Z[0]
    elif dz < 0.0:
        z = _ceil(oz) - 1
        bz = z
        tz = (bz - oz) / dz
        sz, face_z, jz, ez, lim_z = _AXIS_Z[1]
    else:
        z, bz, tz = _floor(oz), 0, _INF
        sz, face_z, jz, ez, lim_z = _AXIS_Z[2]
    if not (-_EDGE < x < _EDGE and -_EDGE < y < _EDGE and -_EDGE < z < _EDGE):
        return None  # the start voxel is outside the world
    # The origin on the start voxel's entry face reports that face (first such axis).
    if sx and ox == bx - sx:
        face = face_x
    elif sy and oy == by - sy:
        face = face_y
    elif sz and oz == bz - sz:
        face = face_z
    else:
        face = _ZERO
    form: ExactForm | None = None
    t_max = reach / norm
    t_in = t_max * _BELOW
    t_out = t_max * _ABOVE
    t = 0.0
    axis = -1
    loaded = world.chunks
    key = (x >> 4, y >> 4, z >> 4)
    chunk = loaded.get(key)
    if chunk is None:
        chunk = world.chunk(*key)
    blocks = chunk.blocks if chunk is not None else _AIR
    idx = (x & 15) * 256 + (y & 15) * 16 + (z & 15)
    stale = False
    near_up = _NEAR_UP
    while True:
        if stale:
            key = (x >> 4, y >> 4, z >> 4)
            chunk = loaded.get(key)
            if chunk is None:
                chunk = world.chunk(*key)
            blocks = chunk.blocks if chunk is not None else _AIR
            idx = (x & 15) * 256 + (y & 15) * 16 + (z & 15)
        block_id = blocks.item(idx)  # a Python int: faster than a memoryview made per chunk
        if accept[block_id]:
            boxes = selection[block_id]
            if boxes is None:  # a full cube: hit where the ray enters the voxel
                # The entry point, on the crossed boundary exactly (``b - s`` after the step).
                if axis == 0:
                    point = (float(bx - sx), oy + t * dy, oz + t * dz)
                elif axis == 1:
                    point = (ox + t * dx, float(by - sy), oz + t * dz)
                elif axis == 2:
                    point = (ox + t * dx, oy + t * dy, float(bz - sz))
                else:
                    point = o
                distance = min(t * norm, reach)  # within the reach exactly: never a rounding beyond
                return _new(Hit, (_new(Int3, (x, y, z)), face, distance, point, block_id, 0))
            found = box_hit(boxes, x, y, z, o, d, t_max, reach)
            if found is not None:
                index, box_axis, tb = found
                box = boxes[index]
                cell3 = (x, y, z)
                box_face = _ZERO if box_axis < 0 else _FACES[box_axis][d[box_axis] < 0.0]
                point = box_point(box, box_axis, cell3, o, d, tb)
                distance = min(tb * norm, reach)
                return _new(Hit, (_new(Int3, cell3), box_face, distance, point, block_id, index))
        if tx <= ty and tx <= tz:
            axis, t = 0, tx
            near = t * near_up
            if ty <= near or tz <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
                t = (tx, ty, tz)[axis]
        elif ty <= tz:
            axis, t = 1, ty
            near = t * near_up
            if tx <= near or tz <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
                t = (tx, ty, tz)[axis]
        else:
            axis, t = 2, tz
            near = t * near_up
            if tx <= near or ty <= near:
                form = form or exact_form(o, d)
                axis = first_axis(form, bx, by, bz)
                t = (tx, ty, tz)[axis]
        if t >= t_in and (t > t_out or not within_reach((bx, by, bz)[axis], axis, o, d, reach)):
            return None
        if axis == 0:
            x += sx
            if x == lim_x:
                return None
            bx += sx
            tx = (bx - ox) / dx
            face = face_x
            idx += jx
            stale = x & 15 == ex
        elif axis == 1:
            y += sy
            if y == lim_y:
                return None
            by += sy
            ty = (by - oy) / dy
            face = face_y
            idx += jy
            stale = y & 15 == ey
        else:
            z += sz
            if z == lim_z:
                return None
            bz += sz
            tz = (bz - oz) / dz
            face = face_z
            idx += jz
            stale = z & 15 == ez
