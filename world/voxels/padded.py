"""A chunk with a one-voxel border read from its 26 neighbours, as one (18, 18, 18) array.

The mesher reads blocks and light this way (`world.mesh.mesher`,
`world.light.lighting.Light.padded`): every face and vertex of a chunk sees the voxels around it,
across chunk borders as inside. `pad` joins the 27 chunks' flat arrays and takes the 18³ voxels with
one precomputed index, a few array operations rather than 27 slice copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from world.voxels.layout import CHUNK_SHIFT, CHUNK_VOLUME, ChunkKey

__all__ = ["PAD", "neighbour_keys", "pad"]

PAD = (1 << CHUNK_SHIFT) + 2
"""Edge of the padded array: the chunk and a voxel either side."""
_S = 1 << CHUNK_SHIFT
# The 27 neighbours (the chunk itself among them), x slowest, as `pad` takes them.
_OFFSETS = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


def _gather_index() -> NDArray[np.intp]:
    """For each padded voxel, its index into the 27 chunks' arrays joined in `_OFFSETS` order."""
    step = np.arange(-1, _S + 1)
    x, y, z = np.meshgrid(step, step, step, indexing="ij")
    neighbour = ((x >> CHUNK_SHIFT) + 1) * 9 + ((y >> CHUNK_SHIFT) + 1) * 3 + (z >> CHUNK_SHIFT) + 1
    local = (x & (_S - 1)) * _S * _S + (y & (_S - 1)) * _S + (z & (_S - 1))
    index: NDArray[np.intp] = (neighbour * CHUNK_VOLUME + local).reshape(-1).astype(np.intp)
    return index


_INDEX = _gather_index()

Scalar = TypeVar("Scalar", bound=np.generic)


def neighbour_keys(key: ChunkKey) -> list[ChunkKey]:
    """The 27 chunk keys around ``key`` (itself included), in the order `pad` takes them."""
    cx, cy, cz = key
    return [(cx + dx, cy + dy, cz + dz) for dx, dy, dz in _OFFSETS]


def pad(arrays: Sequence[NDArray[Scalar]]) -> NDArray[Scalar]:
    """(18, 18, 18): the middle chunk of ``arrays`` (27 flat chunk arrays in `neighbour_keys`
    order) with a one-voxel border from the others."""
    return np.concatenate(arrays).take(_INDEX).reshape(PAD, PAD, PAD)
