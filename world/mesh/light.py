"""Smooth lighting for the mesher (`world.mesh.mesher`): each vertex's sky and block light from the
voxels around it, as Minecraft's smooth lighting, read from the padded 18³ light of a chunk
(`world.light.lighting.Light.padded`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.mesh.shapes import (
    CORNER_AB,
    CORNER_CUBE,
    CORNER_PLANT,
    CORNER_SLOPED,
    CORNER_SURFACE,
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
_TWELFTHS = np.array([0, 12, 6, 4, 3], dtype=np.uint16)  # twelfths per unit, by weight
AO_OFFSETS_12 = np.stack([_SIDE_R, _SIDE_U, _SIDE_R + _SIDE_U], axis=-1).reshape(6, 12)
# The corner rows lit from the voxel in front (a cube face, a liquid's top or side wherever its
# vertices stand); the others (plants, box faces, a liquid's faces from inside) by their own.
_FRONT_LIT = np.zeros(CORNER_PLANT + 1, np.bool_)
_FRONT_LIT[[*range(CORNER_CUBE, CORNER_CUBE + 6), CORNER_SURFACE]] = True
_FRONT_LIT[CORNER_SLOPED : CORNER_SLOPED + 6] = True


def smooth_light(
    voxel: NDArray[Any],
    corner: NDArray[Any],
    normal: NDArray[Any],
    light: tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.int8]],
    own_lit: NDArray[np.bool_] | None = None,
) -> tuple[NDArray[np.float32], NDArray[np.uint16]]:
    """(Q, 4, 2) sky and block light per vertex (the module notes' smooth lighting), and the
    same exactly as whole twelfths, sky << 8 | block (Q, 4) (an average of one to four levels
    is a whole number of twelfths: `world.mesh.merge` compares vertices with it).

    A cube face's vertex averages the voxel in front of the face with the three around the
    vertex in that layer (the two sides and the diagonal, as ambient occlusion reads them) that
    are not opaque; the diagonal is left out when both sides are opaque (light cannot reach the
    corner past them); a liquid's top and sides too, wherever their vertices stand (a sloped top
    as the flat top it replaces). Other quads (box faces, plants, a liquid's faces seen from
    inside it) take their own voxel's light at every vertex, and so do the quads ``own_lit``
    says (a glowing liquid's faces: lava shines with its own light, Minecraft's).
    """
    sky, block, occludes = (array.reshape(-1) for array in light)
    # Both channels in one integer (sky << 8 | block): a sum of up to four of them keeps the
    # channels apart (4 * 15 < 256), so one gather and one sum serve both.
    both = sky.astype(np.uint16) << 8 | block
    own = PADDED_INDEX[voxel]
    total = np.repeat(both[own], 4).reshape(-1, 4)
    weight = np.ones((len(voxel), 4), np.float32)
    front_lit = _FRONT_LIT[np.minimum(corner, CORNER_PLANT)]
    if own_lit is not None:
        front_lit &= ~own_lit
    cube = np.flatnonzero(front_lit)
    if len(cube):
        face = normal[cube]
        front = own[cube] + FRONT_OFFSETS[face]
        around = (np.take(AO_OFFSETS_12, face, axis=0) + front[:, None]).reshape(-1, 4, 3)
        clear = occludes[around] == 0  # (C, 4, 3): side along right, side along up, diagonal
        clear[..., 2] &= clear[..., 0] | clear[..., 1]
        # (Sums over the last axis of three spelled out: numpy's reduction over so short an
        # axis is four times slower.)
        lit = both[around] * clear
        total[cube] = both[front][:, None] + lit[..., 0] + lit[..., 1] + lit[..., 2]
        count = clear[..., 0].astype(np.float32) + clear[..., 1] + clear[..., 2]
        weight[cube] += count  # the front voxel always counts
    out = np.empty((len(voxel), 4, 2), np.float32)
    out[..., 0] = total >> 8
    out[..., 1] = total & 0xFF
    out /= weight[..., None]
    # In twelfths: total * 12 / weight per channel, at most 15 * 12 < 256 (no carry).
    return out, total * _TWELFTHS[weight.astype(np.intp)]
