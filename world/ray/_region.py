"""The dense voxel region `raycast_many` marches through: what each cell does to a ray.

Per cell one byte: `PASS` (the ray walks on), `STOP` (a hit), `SHAPE` (test the state's
selection boxes) or `UNREAD` (its chunk is read, so generated, when a ray first reaches it).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from world.voxels.chunks import World
from world.voxels.layout import CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOLUME, STRIDE_X, STRIDE_Y

__all__ = ["PASS", "SHAPE", "STOP", "UNREAD", "Region"]

PASS, STOP, UNREAD, SHAPE = 0, 1, 2, 3


class Region:
    """Which voxels stop a ray, densely over a chunk-aligned box: one gather per ray step.

    Cells of chunks not in memory start as ``UNREAD`` and are read (so generated) only when a
    ray reaches them, as the scalar raycast does.
    """

    def __init__(
        self,
        world: World,
        stops: NDArray[np.uint8],
        kmin: NDArray[np.int64],
        extent: NDArray[np.int64],
    ) -> None:
        self.world = world
        self.stops = stops.astype(np.uint8)
        self.lo = kmin << CHUNK_SHIFT
        self.shape = tuple(int(e) << CHUNK_SHIFT for e in extent)
        self.strides = (self.shape[1] * self.shape[2], self.shape[2], 1)
        self.cells = np.full(self.shape, UNREAD if world.generator else PASS, dtype=np.uint8)
        self.flat = self.cells.reshape(-1)
        self.unread = world.generator is not None
        # The chunks read, for the hits' block ids: a slot per chunk of the box (0: air).
        self.extent = extent
        self.slots = np.zeros(int(np.prod(extent)), dtype=np.int64)
        self.arrays: list[NDArray[np.uint16]] = [np.zeros(CHUNK_VOLUME, dtype=np.uint16)]
        self.joined: NDArray[np.uint16] | None = None  # the arrays concatenated, once needed
        k0, k1, k2 = (int(k) for k in kmin)
        for key in list(world.chunks):
            rel = (key[0] - k0, key[1] - k1, key[2] - k2)
            if all(0 <= r < int(e) for r, e in zip(rel, extent, strict=True)):
                self._fill(key)

    def _fill(self, key: tuple[int, int, int]) -> None:
        chunk = self.world.chunk(*key)
        x0, y0, z0 = ((k << CHUNK_SHIFT) - int(lo) for k, lo in zip(key, self.lo, strict=True))
        box = (slice(x0, x0 + 16), slice(y0, y0 + 16), slice(z0, z0 + 16))
        if chunk is None:
            self.cells[box] = PASS
        else:
            self.cells[box] = self.stops[chunk.blocks].reshape(16, 16, 16)
            self.slots[self._slot_index(np.array([key]))[0]] = len(self.arrays)
            self.arrays.append(chunk.blocks)
            self.joined = None

    def _slot_index(self, keys: NDArray[np.int64]) -> NDArray[np.int64]:
        rel = keys - (self.lo >> CHUNK_SHIFT)
        ey, ez = int(self.extent[1]), int(self.extent[2])
        slot: NDArray[np.int64] = (rel[:, 0] * ey + rel[:, 1]) * ez + rel[:, 2]
        return slot

    def block_ids(self, cells: NDArray[np.int64]) -> NDArray[np.uint16]:
        """Block ids of (N, 3) world cells that rays have reached (so their chunks are read)."""
        slot = self.slots[self._slot_index(cells >> CHUNK_SHIFT)]
        local = cells & CHUNK_MASK
        flat = slot * CHUNK_VOLUME + local[:, 0] * STRIDE_X + local[:, 1] * STRIDE_Y + local[:, 2]
        if self.joined is None:
            self.joined = np.concatenate(self.arrays)
        ids: NDArray[np.uint16] = self.joined[flat]
        return ids

    def index(self, cell: NDArray[np.int64]) -> NDArray[np.int64]:
        """Flat indices of world cells given as (3, N) rows, inside the box."""
        rel = cell - self.lo[:, None]
        flat: NDArray[np.int64] = rel[0] * self.strides[0] + rel[1] * self.strides[1] + rel[2]
        return flat

    def cell(self, flat: NDArray[np.int64]) -> NDArray[np.int64]:
        """World cells (N, 3) of flat indices."""
        return np.column_stack(np.unravel_index(flat, self.shape)) + self.lo

    def read(self, flat: NDArray[np.int64]) -> NDArray[np.uint8]:
        """The cells' values, reading any chunk not read yet first."""
        values: NDArray[np.uint8] = self.flat.take(flat)
        if self.unread:
            unread = values == UNREAD
            if unread.any():
                keys = np.unique(self.cell(flat[unread]) >> CHUNK_SHIFT, axis=0)
                for key in keys.tolist():
                    self._fill((key[0], key[1], key[2]))
                values = self.flat.take(flat)
        return values
