"""Smooth lighting for the mesher (`world.mesher`): each vertex's sky and block light from the
voxels around it, as Minecraft's smooth lighting, read from the padded 18³ light of a chunk
(`world.light.Light.padded`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.mesher_shapes import (
    CORNER_AB,
    CORNER_CUBE,
    FRONT_OFFSETS,
    PADDED_INDEX,
    RIGHTS,
    UPS,
)

__all__ = ["AO_OFFSETS_12", "smooth_light"]

_PAD = 18
_STRIDES = np.array([_PAD * _PAD, _PAD, 1], dtype=np.int64)  # of the padded 18³ array
# (6, 4, 3) padded flat offsets, from the voxel in front of a face, of the voxels around each
# corner (what shades it and lights it): side along right, side along up, and the diagonal.
_SIDE_R = (2 * CORNER_AB[None, :, 0] - 1) * (RIGHTS @ _STRIDES)[:, None]
_SIDE_U = (2 * CORNER_AB[None, :, 1] - 1) * (UPS @ _STRIDES)[:, None]
AO_OFFSETS_12 = np.stack([_SIDE_R, _SIDE_U, _SIDE_R + _SIDE_U], axis=-1).reshape(6, 12)


def smooth_light(
    voxel: NDArray[Any],
    corner: NDArray[Any],
    normal: NDArray[Any],
    light: tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.int8]],
) -> NDArray[np.float32]:
    """(Q, 4, 2) sky and block light per vertex (the module notes' smooth lighting).

    A cube face's vertex averages the voxel in front of the face with the three around the
    vertex in that layer (the two sides and the diagonal, as ambient occlusion reads them) that
    are not opaque; the diagonal is left out when both sides are opaque (light cannot reach the
    corner past them). Other quads (box faces, plants, a liquid's underside) take their own
    voxel's light at every vertex.
    """
    sky, block, occludes = (array.reshape(-1) for array in light)
    own = PADDED_INDEX[voxel]
    out = np.empty((len(voxel), 4, 2), np.float32)
    out[..., 0] = sky[own][:, None]
    out[..., 1] = block[own][:, None]
    cube = np.flatnonzero((corner >= CORNER_CUBE) & (corner < CORNER_CUBE + 6))
    if not len(cube):
        return out
    face = normal[cube]
    front = own[cube] + FRONT_OFFSETS[face]
    around = (np.take(AO_OFFSETS_12, face, axis=0) + front[:, None]).reshape(-1, 4, 3)
    clear = occludes[around] == 0  # (C, 4, 3): side along right, side along up, diagonal
    clear[..., 2] &= clear[..., 0] | clear[..., 1]
    weight = 1.0 + clear.sum(axis=-1, dtype=np.float32)  # the front voxel always counts
    for channel, values in enumerate((sky, block)):
        total = values[front].astype(np.float32)[:, None] + np.where(clear, values[around], 0).sum(
            axis=-1, dtype=np.float32
        )
        out[cube, :, channel] = total / weight
    return out
