"""The numpy core of `world.light`: relaxing a box of light to its least fixed point.

Each pass sets every voxel to the brightest of its source and its six neighbours less the loss
into it; at most 16 passes, as every step that is not lossless loses at least 1. A pass works on
the box around what the last pass changed, one voxel wider, so a lamp's light (spreading from a
point) costs little more than its own diamond.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["MAX_LIGHT", "relax"]

MAX_LIGHT = 15


def relax(
    fields: tuple[NDArray[np.int8], NDArray[np.int8]],
    sources: tuple[NDArray[np.int8], NDArray[np.int8]],
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
        lo, hi = [0, 0, 0], list(src.shape)
        for _ in range(MAX_LIGHT + 1):
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
            changed = m != cur
            count = np.count_nonzero(changed)
            if count == 0:
                break
            cur[...] = m
            # The next pass: around what changed, one voxel wider (found when few changed in a
            # large box; else this pass's box, one voxel wider).
            few = count * 8 < changed.size > 4096
            for axis, others in ((0, (1, 2)), (1, (0, 2)), (2, (0, 1))):
                first, last = 0, hi[axis] - lo[axis] - 1
                if few:
                    where = np.flatnonzero(changed.any(axis=others))
                    first, last = int(where[0]), int(where[-1])
                start = lo[axis]
                lo[axis] = max(start + first - 1, 0)
                hi[axis] = min(start + last + 2, src.shape[axis])
