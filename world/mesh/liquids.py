"""A liquid's surface: how high each top corner of a liquid voxel stands, and its quads moved there.

Contract
--------
Minecraft's ``LiquidBlockRenderer``, read voxel by voxel. For a voxel of liquid ``F`` (a state
drawn as a liquid, ``registry.draw == DRAW_LIQUID``; two voxels hold the same liquid when they are
states of the same block), the *height* of a voxel ``Q`` as seen from ``F`` is:

- 1 when ``Q`` holds ``F`` and the voxel above ``Q`` holds ``F`` too (the liquid goes on up);
- else, when ``Q`` holds ``F``, its own height: ``level / 9`` (a source, level 8: 8/9), 8/9 for
  a falling state (Minecraft's falling fluid always has the amount 8), 1 for a liquid without
  levels (a block only in the ``"liquid"`` group: drawn as a full cube, as before liquids had
  levels);
- else 0 when ``Q`` has no collision (air, a plant, a torch, another liquid), and "none" (-1)
  when it has (stone, glass, a slab: it does not count).

A voxel whose own height is 1 has every corner at 1. Otherwise each of its four top corners
averages the voxel and the two beside it that share the corner, and the diagonal one when either
of those two holds ``F`` (Minecraft's ``calculateAverageHeight``): 1 when one of the two beside
(or the diagonal) has height 1; else the weighted mean of the heights, a height of at least 0.8
(8/9 and up) weighing 10, a lower one 1, "none" nothing. So a corner is shared: the voxels of
``F`` around it compute the same value from the same four voxels, and two neighbouring voxels of
one liquid meet without a step (no side is ever seen between them: Minecraft draws none). A
still lake (sources under air, against solid shores) is flat at 8/9; flowing water slopes down
from a source, and a corner beside air dips (air weighs 1 at height 0).

Heights are computed exactly as whole numbers: a weighted sum of ninths over a sum of weights,
so a corner at exactly 8/9 (a source's flat surface) is told apart from one a rounding away.

The quads (`liquid_quads`): the liquid's cube faces the mesher keeps (culled as cubes: against
opaque neighbours and the same liquid) are moved to the corners: the top's four vertices to the
corner heights, a side's two upper vertices to the heights of the corners at its ends (a quad
whose top edge follows them; its lower edge stays at the voxel's floor). A top whose corners are
all 1, or a side whose upper corners are, stays a cube face (it merges as before); a top whose
corners are all 8/9 is a *surface* quad (`world.mesh.shapes.CORNER_SURFACE`: merged with the
other surface quads of its plane, never with a full-height top); any other moved quad is a
*sloped* one (`world.mesh.shapes.CORNER_SLOPED`), left unmerged. The bottom stays as it is.
Every top and side is drawn from inside the liquid too (Minecraft draws them double-sided): the
same quad, vertices in the reverse order, facing the other way, lit by its own voxel.

Cost: a fixed number of gathers over the liquid quads of a chunk (the padded 18³ neighbourhood
holds every voxel a corner reads), no loop per voxel.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks.block_type import DRAW_LIQUID
from world.blocks.liquid import SOURCE
from world.blocks.registry import BlockRegistry
from world.geometry import FACE_NORMALS
from world.mesh.boxes import QuadArrays
from world.mesh.shapes import (
    CORNER_CUBE,
    CORNER_REVERSED,
    CORNER_SLOPED,
    CORNER_SURFACE,
    FACE_CORNERS,
    PADDED_INDEX,
)

__all__ = ["FULL", "LiquidQuads", "corner_heights", "liquid_quads", "liquid_states"]

FULL = 9
"""A height of 1 in ninths: the voxel above holds the same liquid (or it has no levels)."""
_NONE = -1  # a solid voxel: not counted
_HEAVY = 8  # ninths from which a height weighs 10 (Minecraft: a height of 0.8 and up)
_HEAVY_WEIGHT = 10

_PAD = 18
_ABOVE = _PAD  # the padded flat offset one voxel up
_UP = FACE_NORMALS.index((0, 1, 0))
_DOWN = FACE_NORMALS.index((0, -1, 0))
# The four top corners of a voxel, corner c at (x, z) = (c & 1, c >> 1): padded flat offsets of
# the voxel beside it along x, along z, and the diagonal one.
_DX = np.array([-1, 1, -1, 1]) * _PAD * _PAD
_DZ = np.array([-1, -1, 1, 1])
_AROUND = np.stack([_DX, _DZ, _DX + _DZ], axis=1)  # (4 corners, 3)
# Per face direction and vertex: the top corner the vertex stands at (-1: on the floor).
_VERTEX_CORNER = np.where(
    FACE_CORNERS[..., 1] == 1, FACE_CORNERS[..., 0] + 2 * FACE_CORNERS[..., 2], -1
)
_REVERSED = np.array([3, 2, 1, 0])


class LiquidStates(NamedTuple):
    """Per state: ``liquid`` (the block index of a state drawn as a liquid, -1 for any other),
    ``amount`` (its own height in ninths: `FULL` for a liquid without levels) and ``solid``."""

    liquid: NDArray[np.int32]
    amount: NDArray[np.int8]
    solid: NDArray[np.bool_]


def liquid_states(registry: BlockRegistry) -> LiquidStates:
    """The registry's `LiquidStates` (module notes)."""
    is_liquid = registry.draw == DRAW_LIQUID
    tables = registry.liquids
    amount = np.where(tables.kind < 0, FULL, np.where(tables.falling, SOURCE, tables.level)).astype(
        np.int8
    )
    return LiquidStates(
        np.where(is_liquid, registry.block_index, -1).astype(np.int32),
        amount,
        registry.solid,
    )


def corner_heights(
    states: LiquidStates, padded: NDArray[np.uint16], voxel: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """The top corners' heights of liquid voxels (module notes).

    Parameters
    ----------
    states : LiquidStates
        The registry's `liquid_states`.
    padded : ndarray of uint16, shape (18, 18, 18)
        The chunk with a one-voxel border from its neighbours.
    voxel : ndarray of int64, shape (N,)
        Chunk-local flat indices of voxels drawn as a liquid.

    Returns
    -------
    heights : ndarray of float64, shape (N, 4)
        Each voxel's corner ``c`` at (x, z) = (c & 1, c >> 1) of its top, 0 < height <= 1.
    surface : ndarray of bool, shape (N, 4)
        Whether the corner is exactly 8/9 (a source's flat surface).
    """
    flat = padded.reshape(-1)
    own = PADDED_INDEX[voxel]
    liquid = states.liquid[flat[own]]
    own_ninths = _ninths(states, flat, own, liquid)  # (N,)
    around = own[:, None, None] + _AROUND[None]  # (N, 4, 3)
    ninths = _ninths(states, flat, around, liquid[:, None, None])
    side_x, side_z, diagonal = ninths[..., 0], ninths[..., 1], ninths[..., 2]
    counts_diagonal = (side_x > 0) | (side_z > 0)
    full = (own_ninths[:, None] == FULL) | (side_x == FULL) | (side_z == FULL)
    full |= counts_diagonal & (diagonal == FULL)
    own_w = _weight(own_ninths)[:, None]
    weights = np.stack([_weight(side_x), _weight(side_z), _weight(diagonal) * counts_diagonal])
    values = np.stack([side_x, side_z, diagonal])
    total = own_w * own_ninths[:, None] + (weights * values).sum(axis=0)
    count = own_w + weights.sum(axis=0)
    heights = np.where(full, 1.0, total / (FULL * count))
    return heights, ~full & (total == _HEAVY * count)


def _ninths(
    states: LiquidStates,
    flat: NDArray[np.uint16],
    where: NDArray[np.int64],
    liquid: NDArray[np.int32],
) -> NDArray[np.int64]:
    """The heights in ninths of the padded voxels ``where`` as seen from ``liquid`` (broadcast):
    `FULL` under the same liquid, its amount, 0 for a voxel without collision, -1 for a solid."""
    state = flat[where]
    same = states.liquid[state] == liquid
    under = states.liquid[flat[where + _ABOVE]] == liquid
    own = np.where(under, FULL, states.amount[state]).astype(np.int64)
    return np.where(same, own, np.where(states.solid[state], _NONE, 0))


def _weight(ninths: NDArray[np.int64]) -> NDArray[np.int64]:
    """Minecraft's weight of a height: 10 from 0.8 up, 1 below, 0 for "none"."""
    return np.where(ninths >= _HEAVY, _HEAVY_WEIGHT, np.where(ninths >= 0, 1, 0))


class LiquidQuads(NamedTuple):
    """A chunk's liquid tops and sides moved to their corners, and their backs: per quad of each
    its row of corners (`world.mesh.shapes` rows), and how far each vertex lies below that row's
    (``drop`` (Q, 4), float32)."""

    front_corner: NDArray[np.int64]
    front_drop: NDArray[np.float32]
    back: QuadArrays
    back_drop: NDArray[np.float32]


def liquid_quads(
    states: LiquidStates, padded: NDArray[np.uint16], quads: QuadArrays, reverse_uv: int
) -> LiquidQuads:
    """The liquid cube faces ``quads`` (any order; ``normal`` their face direction) moved to
    their corners, and the tops' and sides' backs (module notes); ``reverse_uv`` is what turns a
    uv row into the same face's reversed row (``6 * len(registry)``)."""
    face = quads.normal
    heights, surface = corner_heights(states, padded, quads.voxel)
    at = _VERTEX_CORNER[face]  # (Q, 4)
    rows = np.arange(len(face))[:, None]
    vertex_height = np.where(at >= 0, heights[rows, at], 1.0)
    drop = (1.0 - vertex_height).astype(np.float32)
    moved = np.any(drop > 0, axis=1)
    flat_surface = (face == _UP) & np.all(surface, axis=1)
    corner = np.where(
        flat_surface, CORNER_SURFACE, np.where(moved, CORNER_SLOPED + face, CORNER_CUBE + face)
    )
    backs = np.flatnonzero(face != _DOWN)
    back_corner = np.where(
        flat_surface[backs],
        CORNER_SURFACE + 1,
        np.where(moved[backs], CORNER_SLOPED + 6 + face[backs], CORNER_REVERSED + face[backs]),
    )
    back = QuadArrays(
        quads.voxel[backs],
        back_corner,
        quads.uv[backs] + reverse_uv,
        quads.shade[backs][:, _REVERSED],
        ~quads.flip[backs],  # the same diagonal: the same surface from behind
        face[backs] ^ 1,
    )
    return LiquidQuads(corner, drop, back, drop[backs][:, _REVERSED])
