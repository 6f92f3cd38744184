"""The chunk layout: a chunk's size, its flat index formula, `Chunk`, and what fills chunks.

A chunk is ``CHUNK = (16, 16, 16)`` voxels in ONE flat numpy array; local voxel (lx, ly, lz) is at
``lx*wy*wz + ly*wz + lz`` (`local_index`). World voxel coordinates map to chunk coordinates by an
arithmetic shift (floor division by 16: ``-1 >> 4 == -1``) and to local ones by a mask
(`chunk_index`). `world.voxels.chunks.World` keeps the chunks; this module is the arithmetic every
kernel (mesher, raycast, storage) shares, with nothing to check: callers pass valid coordinates;
the one check is `saved_voxel_index`, a voxel's index as a saved row writes it (block data, liquid
ticks).
"""

from __future__ import annotations

import reprlib
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
    "by_chunk",
    "chunk_index",
    "chunk_layers",
    "local_index",
    "saved_voxel_index",
    "voxel_at",
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
    ``world.gen.generators.make_generator(gen.name, gen.seed, registry)`` rebuilds the generator, so
    the chunks a player never changed are not saved but generated again.

    Attributes
    ----------
    name : str
        The generator's name in ``world.gen.generators.GENERATORS``.
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


def voxel_at(key: ChunkKey, index: int) -> tuple[int, int, int]:
    """The world voxel at flat ``index`` of chunk ``key``: the inverse of `chunk_index`."""
    return (
        (key[0] << CHUNK_SHIFT) + index // STRIDE_X,
        (key[1] << CHUNK_SHIFT) + index // STRIDE_Y % CHUNK[1],
        (key[2] << CHUNK_SHIFT) + index % CHUNK[2],
    )


def chunk_layers(wy_low: int, wy_high: int) -> range:
    """The layers of chunks (``cy``) that the block heights ``wy_low <= wy < wy_high`` cross."""
    return range(wy_low >> CHUNK_SHIFT, ((wy_high - 1) >> CHUNK_SHIFT) + 1)


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


_DENSE_CHUNKS = 64  # `by_chunk` counts per chunk of a bounding box of at most this many chunks


def by_chunk(
    cells: NDArray[np.int64],
) -> tuple[list[tuple[ChunkKey, NDArray[np.intp]]], NDArray[np.int64]]:
    """Group (N, 3) world voxels by chunk.

    Returns each chunk's key with the positions (into ``cells``, in their original order) of its
    voxels, and every voxel's flat index in its chunk. O(N log N), no per-voxel Python loop.
    """
    keys = cells >> CHUNK_SHIFT
    low = keys.min(axis=0)
    span = keys.max(axis=0) - low + 1
    local = cells & CHUNK_MASK
    flat = local[:, 0] * STRIDE_X + local[:, 1] * STRIDE_Y + local[:, 2]
    boxes = float(np.prod(span.astype(np.float64)))
    if boxes < 2.0**62:
        # One integer per chunk (a dense numbering of the keys' bounding box); the voxels in
        # its order (a stable sort: each chunk's in their original order).
        sy, sz = int(span[1]), int(span[2])
        packed = ((keys[:, 0] - low[0]) * sy + (keys[:, 1] - low[1])) * sz + (keys[:, 2] - low[2])
        order = np.argsort(packed, kind="stable")
        if boxes <= _DENSE_CHUNKS:  # few chunks (a mod reading the cube around a block): count
            counts = np.bincount(packed)
            codes = np.flatnonzero(counts)
            counts = counts[codes]
        else:  # np.unique on one integer is a hash, far faster than np.unique(axis=0)'s sort
            found = np.unique(packed, return_counts=True)
            codes, counts = found[0], found[1]
        kx, rest = np.divmod(codes, sy * sz)
        ky, kz = np.divmod(rest, sz)
        unique = list(
            zip((kx + low[0]).tolist(), (ky + low[1]).tolist(), (kz + low[2]).tolist(), strict=True)
        )
    else:  # voxels too far apart for one int64 number per chunk: sort the key rows instead
        rows, inverse = np.unique(keys, axis=0, return_inverse=True)
        unique = [(r[0], r[1], r[2]) for r in rows.tolist()]
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        counts = np.bincount(inverse, minlength=len(unique))
    bounds = np.concatenate(([0], np.cumsum(counts)))
    groups = [(key, order[bounds[n] : bounds[n + 1]]) for n, key in enumerate(unique)]
    return groups, flat


def saved_voxel_index(raw: object, what: str) -> int:
    """A voxel's flat index as a saved row writes it: decimal digits, no sign, no leading zero
    (two keys never name one voxel), within the chunk; ``ValueError`` naming ``what`` else."""
    text = str(raw)
    if not (text.isascii() and text.isdigit()) or text != str(int(text)):
        raise ValueError(f"{what} voxel index {reprlib.repr(raw)} is not a voxel index")
    index = int(text)
    if not 0 <= index < CHUNK_VOLUME:
        raise ValueError(f"{what} voxel index {index} is outside the chunk")
    return index
