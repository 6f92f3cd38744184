"""The chunk layout: a chunk's size, its flat index formula, `Chunk`, and what fills chunks.

A chunk is ``CHUNK = (16, 16, 16)`` voxels in ONE flat numpy array; local voxel (lx, ly, lz) is at
``lx*wy*wz + ly*wz + lz`` (`local_index`). World voxel coordinates map to chunk coordinates by an
arithmetic shift (floor division by 16: ``-1 >> 4 == -1``) and to local ones by a mask
(`chunk_index`). `world.chunks.World` keeps the chunks; this module is the arithmetic every
kernel (mesher, raycast, storage) shares, with nothing to check: callers pass valid coordinates.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CHUNK",
    "CHUNK_MASK",
    "CHUNK_SHIFT",
    "CHUNK_VOLUME",
    "DEFAULT_BUILD_HEIGHT",
    "STRIDE_X",
    "STRIDE_Y",
    "Chunk",
    "ChunkGenerator",
    "ChunkKey",
    "ChunkSource",
    "chunk_index",
    "local_index",
]

CHUNK: tuple[int, int, int] = (16, 16, 16)
CHUNK_SHIFT = 4  # 16 == 1 << 4: floor division by a power of two is an arithmetic shift
CHUNK_MASK = 15
CHUNK_VOLUME = CHUNK[0] * CHUNK[1] * CHUNK[2]
# Strides of the flat index: x*wy*wz + y*wz + z.
STRIDE_X = CHUNK[1] * CHUNK[2]
STRIDE_Y = CHUNK[2]
DEFAULT_BUILD_HEIGHT = (0, 256)  # placing is allowed for 0 <= wy < 256, as in Minecraft 1.17-

ChunkKey = tuple[int, int, int]


class ChunkSource(Protocol):
    """Fills a chunk the first time it is read: its flat uint16 blocks, or ``None`` for air."""

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None: ...


class ChunkGenerator(ChunkSource, Protocol):
    """A `ChunkSource` that a save can record by its name and seed.

    Chunks come from their coordinates and the seed alone, and
    ``world.generators.make_generator(gen.name, gen.seed, registry)`` rebuilds the generator, so the
    chunks a player never changed are not saved but generated again.

    Attributes
    ----------
    name : str
        The generator's name in ``world.generators.GENERATORS``.
    seed : int
        Signed 64-bit seed.
    """

    @property
    def name(self) -> str: ...

    @property
    def seed(self) -> int: ...


def local_index(lx: int, ly: int, lz: int) -> int:
    """Flat index of a local voxel in a chunk's array."""
    return lx * STRIDE_X + ly * STRIDE_Y + lz


def chunk_index(wx: int, wy: int, wz: int) -> tuple[ChunkKey, int]:
    """The chunk holding a world voxel, and the voxel's flat index in it."""
    return (wx >> CHUNK_SHIFT, wy >> CHUNK_SHIFT, wz >> CHUNK_SHIFT), (
        (wx & CHUNK_MASK) * STRIDE_X + (wy & CHUNK_MASK) * STRIDE_Y + (wz & CHUNK_MASK)
    )


class Chunk:
    """One 16³ block of voxels.

    Attributes
    ----------
    key : tuple of int
        Chunk coordinates (cx, cy, cz).
    blocks : ndarray of uint16, shape (4096,)
        Block ids, local (lx, ly, lz) at ``lx*256 + ly*16 + lz``.
    """

    __slots__ = ("blocks", "key")

    def __init__(self, key: ChunkKey, blocks: NDArray[np.uint16] | None = None) -> None:
        if blocks is None:
            blocks = np.zeros(CHUNK_VOLUME, dtype=np.uint16)
        elif blocks.dtype != np.uint16 or blocks.shape != (CHUNK_VOLUME,):
            raise ValueError(
                f"blocks must be a flat uint16 array of {CHUNK_VOLUME}, "
                f"got {blocks.dtype} {blocks.shape}"
            )
        self.key = key
        self.blocks = blocks

    def view3d(self) -> NDArray[np.uint16]:
        """The blocks as a (16, 16, 16) view indexed [lx, ly, lz] (no copy)."""
        return self.blocks.reshape(CHUNK)

    def __repr__(self) -> str:
        return f"Chunk({self.key}, {np.count_nonzero(self.blocks)} non-air)"
