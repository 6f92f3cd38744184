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

from numpy.typing import ArrayLike

from world.chunks import CHUNK_MASK, CHUNK_SHIFT, STRIDE_X, STRIDE_Y, World
from world.geometry import Int3
from world.ray._exact import NEAR, ExactForm, exact_form, first_axis, within_reach
from world.ray._shapes import box_hit, box_point
from world.ray._walk import _AIR_VIEW, _FACES, _LIMIT, _ZERO, MAX_REACH, Hit, _direction, _reach
from world.validate import WORLD_LIMIT, vec3

__all__ = ["raycast"]

_new = tuple.__new__  # building the NamedTuples directly skips their Python-level constructors
_floor = math.floor
_ceil = math.ceil
_sqrt = math.sqrt
_INF = math.inf
_MAX_REACH = float(MAX_REACH)


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
    if not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    registry = world.registry
    if hits is None:
        accept = registry.pointable_list
    elif callable(hits):
        accept = tuple(bool(hits(block_id)) for block_id in range(len(registry)))
    else:
        raise TypeError(f"hits must be a callable taking a block id, got {hits!r}")
    selection = registry.selection_boxes
    # The start voxel, step, first boundary and its parameter per axis (as `_walk._start_axis`).
    if dx > 0.0:
        x = _floor(ox)
        sx, bx = 1, x + 1
        tx = (bx - ox) / dx
    elif dx < 0.0:
        x = _ceil(ox) - 1
        sx, bx = -1, x
        tx = (bx - ox) / dx
    else:
        x, sx, bx, tx = _floor(ox), 0, 0, _INF
    if dy > 0.0:
        y = _floor(oy)
        sy, by = 1, y + 1
        ty = (by - oy) / dy
    elif dy < 0.0:
        y = _ceil(oy) - 1
        sy, by = -1, y
        ty = (by - oy) / dy
    else:
        y, sy, by, ty = _floor(oy), 0, 0, _INF
    if dz > 0.0:
        z = _floor(oz)
        sz, bz = 1, z + 1
        tz = (bz - oz) / dz
    elif dz < 0.0:
        z = _ceil(oz) - 1
        sz, bz = -1, z
        tz = (bz - oz) / dz
    else:
        z, sz, bz, tz = _floor(oz), 0, 0, _INF
    edge = WORLD_LIMIT
    if not (-edge < x < edge and -edge < y < edge and -edge < z < edge):
        return None  # the start voxel is outside the world
    lim_x, lim_y, lim_z = sx * edge, sy * edge, sz * edge
    if sx and ox == bx - sx:
        face = _FACES[0][sx < 0]
    elif sy and oy == by - sy:
        face = _FACES[1][sy < 0]
    elif sz and oz == bz - sz:
        face = _FACES[2][sz < 0]
    else:
        face = _ZERO
    face_x, face_y, face_z = _FACES[0][sx < 0], _FACES[1][sy < 0], _FACES[2][sz < 0]
    form: ExactForm | None = None
    t_max = reach / norm
    t_in = t_max * (1.0 - NEAR)
    t_out = t_max * (1.0 + NEAR)
    t = 0.0
    axis = -1
    loaded = world.chunks
    key = (x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT)
    chunk = loaded.get(key)
    if chunk is None:
        chunk = world.chunk(*key)
    blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
    idx = (x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)
    stale = False
    jx, jy, jz = sx * STRIDE_X, sy * STRIDE_Y, sz
    ex = 0 if sx > 0 else CHUNK_MASK
    ey = 0 if sy > 0 else CHUNK_MASK
    ez = 0 if sz > 0 else CHUNK_MASK
    while True:
        if stale:
            key = (x >> CHUNK_SHIFT, y >> CHUNK_SHIFT, z >> CHUNK_SHIFT)
            chunk = loaded.get(key)
            if chunk is None:
                chunk = world.chunk(*key)
            blocks = chunk.blocks.data if chunk is not None else _AIR_VIEW
            idx = (x & CHUNK_MASK) * STRIDE_X + (y & CHUNK_MASK) * STRIDE_Y + (z & CHUNK_MASK)
        block_id = blocks[idx]
        if accept[block_id]:
            boxes = selection[block_id]
            if boxes is None:  # a full cube: hit where the ray enters the voxel
                if axis < 0:
                    point = o
                else:
                    p = [ox + t * dx, oy + t * dy, oz + t * dz]
                    cell = (x, y, z)[axis]
                    p[axis] = float(cell if d[axis] > 0.0 else cell + 1)
                    point = (p[0], p[1], p[2])
                return _new(Hit, (_new(Int3, (x, y, z)), face, t * norm, point, block_id, 0))
            found = box_hit(boxes, x, y, z, o, d, t_max, reach)
            if found is not None:
                index, box_axis, tb = found
                box = boxes[index]
                cell3 = (x, y, z)
                box_face = _ZERO if box_axis < 0 else _FACES[box_axis][d[box_axis] < 0.0]
                point = box_point(box, box_axis, cell3, o, d, tb)
                return _new(Hit, (_new(Int3, cell3), box_face, tb * norm, point, block_id, index))
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
            return None
        if axis == 0:
            t = tx
            x += sx
            if x == lim_x:
                return None
            bx += sx
            tx = (bx - ox) / dx
            face = face_x
            idx += jx
            stale = x & CHUNK_MASK == ex
        elif axis == 1:
            t = ty
            y += sy
            if y == lim_y:
                return None
            by += sy
            ty = (by - oy) / dy
            face = face_y
            idx += jy
            stale = y & CHUNK_MASK == ey
        else:
            t = tz
            z += sz
            if z == lim_z:
                return None
            bz += sz
            tz = (bz - oz) / dz
            face = face_z
            idx += jz
            stale = z & CHUNK_MASK == ez
