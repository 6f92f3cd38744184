"""The numpy core of `world.light.lighting`: relaxing a box of light to its least fixed point.

Each pass sets every voxel to the brightest of its source and its six neighbours less the loss
into it; at most 16 passes, as every step that is not lossless loses at least 1. A pass works on
the box around what the last pass changed, one voxel wider, so a lamp's light (spreading from a
point) costs little more than its own diamond.

Two ways to relight a box after an edit. `relax` resets the box to its sources and refills it
from its shell: a pass over the whole box, then passes around what changes (cheap for sparse
light, and the way to light new chunks). `relight` is Minecraft's and Luanti's
remove-then-refill, on flat indices, one numpy step per light level over the wave's front
alone: it darkens only the voxels whose light may have come through the changed ones and
floods light back into them (cheap for dense light: sky light, where an edit at the surface
changes a handful of voxels, and a new lamp's light, which only spreads).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["MAX_LIGHT", "relax", "relight", "relight_edits"]

MAX_LIGHT = 15


def relax(
    fields: tuple[NDArray[np.int8], ...],
    sources: tuple[NDArray[np.int8], ...],
    loss: NDArray[np.int8],
) -> None:
    """Relax padded (X+2, Y+2, Z+2) fields in place; the shell stays fixed.

    ``loss`` is ``max(1, opacity)`` and 16 in opaque voxels, so that only their source remains.
    Each pass works on the box around what the last pass changed, one voxel wider (a lamp's
    light spreads from a point: its passes are small); a channel with no source and no light
    in its shell is dark without a pass.
    """
    inner = (slice(1, -1),) * 3
    for field, src in zip(fields, sources, strict=True):
        field[inner] = src
        if not src.any() and not field.any():  # no source inside, none in the shell
            continue
        _spread(field, src, loss)


def relight_edits(
    origin: tuple[int, int, int],
    edits: NDArray[np.int64],
    fields: tuple[NDArray[np.int8], NDArray[np.int8]],
    sources: tuple[NDArray[np.int8], NDArray[np.int8]],
    loss: NDArray[np.int8],
) -> None:
    """Relight the padded (sky, block) fields of a lit box whose voxels ``edits`` (world
    positions; ``origin``, the box's lowest corner) changed: remove-then-refill around them
    (`relight`), but block light from its sources when an edit was in block light (breaking a
    lamp would remove its whole diamond, which `relax`, with nothing else lit, skips in one
    check), and a channel whose light to remove is large by `relax` too."""
    sky = fields[0]
    at = edits - np.array(origin) + 1
    inside = ((at >= 1) & (at <= np.array(loss.shape))).all(axis=1)
    if not inside.any():  # the edits are in chunks not loaded
        relax(fields, sources, loss)
        return
    seeds = np.ravel_multi_index(tuple(at[inside].T), sky.shape).astype(np.intp)
    lo, hi = at[inside].min(axis=0) - 1, at[inside].max(axis=0)
    columns = (slice(int(lo[0]), int(hi[0])), slice(int(lo[2]), int(hi[2])))
    costs = np.full(sky.shape, MAX_LIGHT + 1, dtype=np.int8)  # the shell takes no light
    costs[(slice(1, -1),) * 3] = loss
    for field, src, down in zip(fields, sources, (True, False), strict=True):
        lit = not down and field.reshape(-1)[seeds].any()
        if lit or not relight(field, src, costs, seeds, columns, lossless_down=down):
            relax((field,), (src,), loss)


def relight(
    field: NDArray[np.int8],
    src: NDArray[np.int8],
    costs: NDArray[np.int8],
    seeds: NDArray[np.intp],
    columns: tuple[slice, slice],
    lossless_down: bool,
) -> bool:
    """Relight a padded field in place after the voxels ``seeds`` changed (flat indices into
    the padded field), remove-then-refill: False, the field untouched, when the light to
    remove reaches an eighth of the box (`relax` is then as cheap).

    ``field`` is C-contiguous (it is worked on through flat indices); ``costs`` is the padded
    loss, 16 in the shell (which takes no light and is never cleared); ``columns``, (x, z)
    slices of the box, holds every voxel whose source may have risen (sky light rises down
    the columns of the changed voxels); ``lossless_down`` for sky.
    """
    if not field.flags.c_contiguous:
        raise ValueError("field must be C-contiguous: it is relit through flat indices")
    inner = field[(slice(1, -1),) * 3]
    cleared = _unlight(field, costs, seeds, lossless_down, limit=inner.size // 8)
    if cleared is None:
        return False
    shape = field.shape
    flat = field.reshape(-1)
    at = np.unravel_index(cleared, shape)
    flat[cleared] = src[tuple(a - 1 for a in at)]
    lo = [max(int(at[a].min()) - 2, 0) for a in range(3)]  # inner coordinates, one wider
    hi = [min(int(at[a].max()) + 1, n) for a, n in enumerate(src.shape)]
    xs, zs = columns
    part = inner[xs, :, zs]
    rising = np.nonzero(src[xs, :, zs] > part)
    if len(rising[0]):
        np.maximum(part, src[xs, :, zs], out=part)
        base = (xs.start, 0, zs.start)
        lo = [min(lo[a], max(int(rising[a].min()) + base[a] - 1, 0)) for a in range(3)]
        hi = [
            max(hi[a], min(int(rising[a].max()) + base[a] + 2, n)) for a, n in enumerate(src.shape)
        ]
    moved = np.nonzero(_pass(field, src, costs[(slice(1, -1),) * 3], lo, hi))
    if len(moved[0]):
        front = np.ravel_multi_index(tuple(moved[a] + lo[a] + 1 for a in range(3)), shape)
        _flood(flat, costs.reshape(-1), front.astype(np.intp), _offsets(shape))
    return True


def _unlight(
    field: NDArray[np.int8],
    costs: NDArray[np.int8],
    seeds: NDArray[np.intp],
    lossless_down: bool,
    limit: int,
) -> NDArray[np.intp] | None:
    """The voxels whose light may have come through the ``seeds`` (included), as flat indices
    into the padded field; None past ``limit`` voxels.

    A wave from the seeds, one step per pass over its front alone: a neighbour joins when it
    takes light (not opaque, not the shell) and its light is lit and below the light of the
    voxel the wave comes from (it may have been lit through it), or, with ``lossless_down``
    (sky light), when it is right below one at full light and at full light itself. Light no
    seed can have reached stays: it has another way to its source.
    """
    flat = field.reshape(-1)
    cost = costs.reshape(-1)
    offsets = _offsets(field.shape)
    seen = np.zeros(flat.size, dtype=bool)
    seen[seeds] = True
    stamps = np.empty(flat.size, dtype=np.intp)
    found = [seeds]
    count = len(seeds)
    front = seeds
    while len(front):
        level = flat[front][:, None]
        near = front[:, None] + offsets
        lit = flat[near]
        joins = (lit < level) & (lit > 0)
        if lossless_down:
            joins[:, _DOWN] |= (lit[:, _DOWN] == MAX_LIGHT) & (level[:, 0] == MAX_LIGHT)
        near = near[joins]
        near = near[~seen[near] & (cost[near] <= MAX_LIGHT)]
        front = _distinct(near, stamps)
        seen[front] = True
        found.append(front)
        count += len(front)
        if count > limit:
            return None
    return np.concatenate(found)


def _flood(
    flat: NDArray[np.int8],
    costs: NDArray[np.int8],
    front: NDArray[np.intp],
    offsets: NDArray[np.intp],
) -> None:
    """Spread light from the voxels ``front`` over a flat padded field, brightest first: each
    voxel is raised at most once, from the brightest light that reaches it."""
    waiting: list[list[NDArray[np.intp]]] = [[] for _ in range(MAX_LIGHT + 1)]
    _wait(waiting, front, flat[front])
    stamps = np.empty(flat.size, dtype=np.intp)
    for level in range(MAX_LIGHT, 0, -1):
        if not waiting[level]:
            continue
        front = _distinct(np.concatenate(waiting[level]), stamps)
        near = (front[:, None] + offsets).reshape(-1)
        light = level - costs[near]
        up = light > flat[near]
        near, light = near[up], light[up]
        if len(near):
            flat[near] = light  # a voxel gets one light from one level: its loss is its own
            _wait(waiting, near, light)


def _wait(
    waiting: list[list[NDArray[np.intp]]], voxels: NDArray[np.intp], light: NDArray[np.int8]
) -> None:
    """File voxels under their light, for `_flood` to spread from (one level, as a rule)."""
    low, high = int(light.min()), int(light.max())
    if low == high:
        waiting[low].append(voxels)
        return
    for value in range(low, high + 1):
        waiting[value].append(voxels[light == value])


def _distinct(voxels: NDArray[np.intp], stamps: NDArray[np.intp]) -> NDArray[np.intp]:
    """``voxels`` without repeats, in one pass (no sort): each writes its position into
    ``stamps`` (as large as the field, its contents free); of each repeated voxel, the one
    whose position stayed written (numpy keeps one of them) stays."""
    order = np.arange(len(voxels), dtype=np.intp)
    stamps[voxels] = order
    kept: NDArray[np.intp] = voxels[stamps[voxels] == order]
    return kept


def _offsets(shape: tuple[int, ...]) -> NDArray[np.intp]:
    """Flat-index steps to the six neighbours in an array of ``shape``: ±x, ±y, ±z."""
    sx, sy = shape[1] * shape[2], shape[2]
    return np.array([sx, -sx, sy, -sy, 1, -1], dtype=np.intp)


_DOWN = 3  # the column of -y in `_offsets`


def _pass(
    field: NDArray[np.int8],
    src: NDArray[np.int8],
    loss: NDArray[np.int8],
    lo: list[int],
    hi: list[int],
) -> NDArray[np.bool_]:
    """One relaxation pass over the inner box [lo, hi); a mask of the voxels it changed."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    cur = field[x0 + 1 : x1 + 1, y0 + 1 : y1 + 1, z0 + 1 : z1 + 1]
    m = np.maximum(
        field[x0:x1, y0 + 1 : y1 + 1, z0 + 1 : z1 + 1],
        field[x0 + 2 : x1 + 2, y0 + 1 : y1 + 1, z0 + 1 : z1 + 1],
    )
    np.maximum(m, field[x0 + 1 : x1 + 1, y0:y1, z0 + 1 : z1 + 1], out=m)
    np.maximum(m, field[x0 + 1 : x1 + 1, y0 + 2 : y1 + 2, z0 + 1 : z1 + 1], out=m)
    np.maximum(m, field[x0 + 1 : x1 + 1, y0 + 1 : y1 + 1, z0:z1], out=m)
    np.maximum(m, field[x0 + 1 : x1 + 1, y0 + 1 : y1 + 1, z0 + 2 : z1 + 2], out=m)
    m -= loss[x0:x1, y0:y1, z0:z1]
    np.maximum(m, src[x0:x1, y0:y1, z0:z1], out=m)
    changed: NDArray[np.bool_] = m != cur
    cur[...] = m
    return changed


def _spread(field: NDArray[np.int8], src: NDArray[np.int8], loss: NDArray[np.int8]) -> None:
    """Relaxation passes over a padded field until nothing changes, each over the box around
    what the last one changed, one voxel wider."""
    lo, hi = [0, 0, 0], list(src.shape)
    for _ in range(MAX_LIGHT + 1):
        changed = _pass(field, src, loss, lo, hi)
        count = np.count_nonzero(changed)
        if count == 0:
            break
        # The next pass: around what changed, one voxel wider (found when few changed in a
        # large box; else this pass's box, one voxel wider).
        few = count * 8 < changed.size > 4096
        for axis, others in ((0, (1, 2)), (1, (0, 2)), (2, (0, 1))):
            first, last = 0, hi[axis] - lo[axis] - 1
            if few:
                where = np.flatnonzero(changed.any(axis=others))
                first, last = int(where[0]), int(where[-1])
            start_at = lo[axis]
            lo[axis] = max(start_at + first - 1, 0)
            hi[axis] = min(start_at + last + 2, src.shape[axis])
