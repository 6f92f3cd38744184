"""The chunk source of a world loaded from a save: the saved row when there is one, else the
generator's chunk; and each chunk's saved per-voxel data and timers, loaded with its blocks
whether or not its blocks were ever saved (a generated chest or crop holds data too).

A lazily loaded `world.voxels.chunks.World` reads chunks through `SavedChunks.__call__` (one row); a
loader thread reads batches through `SavedChunks.load_many` (one query per batch). A batch's
block data waits here until the main thread installs the chunk (`World.install_loaded` calls
`SavedChunks.adopt`), so only the main thread ever touches the world's `BlockData`.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.voxels.block_data import BlockData
from world.voxels.layout import ChunkKey, ChunkSource

if TYPE_CHECKING:
    from world.save.file import SaveFile

__all__ = ["SavedChunks"]


class SavedChunks:
    """The `ChunkSource` of a loaded world: the saved row when there is one, else the base's."""

    def __init__(
        self,
        store: SaveFile,
        registry: BlockRegistry,
        base: ChunkSource | None,
        name: str | None,
        seed: int,
    ) -> None:
        self.store = store
        self.registry = registry
        self.base = base
        self.name = name
        self.seed = seed
        self.block_data: BlockData | None = None  # the loaded world's, set by `WorldStore.load`
        # Block data a loader thread read with its batch, until the main thread installs the
        # chunk (`World.install_loaded` calls `adopt`): the world is touched by one thread only.
        self._pending: dict[ChunkKey, object] = {}
        self._pending_lock = threading.Lock()

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        blocks = self.store._read_chunk((cx, cy, cz), self.registry)
        if self.block_data is not None:  # with its blocks, saved or generated again
            self.store._load_block_data((cx, cy, cz), self.block_data)
        if blocks is not None:
            return blocks
        return None if self.base is None else self.base(cx, cy, cz)

    def load_many(self, keys: list[ChunkKey]) -> dict[ChunkKey, NDArray[np.uint16] | None]:
        """Several chunks at once (a loader thread's batch): saved rows in one query, the rest
        generated."""
        saved: dict[ChunkKey, NDArray[np.uint16] | None] = dict(
            self.store._read_chunks(keys, self.registry)
        )
        for key in keys:  # a chunk never edited block-wise may hold data: it has a data row
            rows = self.store._read_block_data(key)
            if rows is not None:
                with self._pending_lock:
                    self._pending[key] = rows
        for key in keys:
            if key not in saved:
                saved[key] = None if self.base is None else self.base(*key)
        return saved

    def take_pending(self, keys: list[ChunkKey]) -> dict[ChunkKey, object]:
        """The block data a batch read, taken out (a worker process hands it to the game's)."""
        with self._pending_lock:
            return {key: self._pending.pop(key) for key in keys if key in self._pending}

    def hold_pending(self, rows: dict[ChunkKey, object]) -> None:
        """Block data a worker process read with its batch, until `adopt` takes it."""
        with self._pending_lock:
            self._pending.update(rows)

    def adopt(self, key: ChunkKey, installed: bool) -> None:
        """The main thread took (or, already holding the chunk, skipped) a batch's chunk: its
        block data read with the batch goes into the world, or is dropped."""
        with self._pending_lock:
            rows = self._pending.pop(key, None)
        if rows is None or not installed or self.block_data is None:
            return
        try:
            self.block_data.restore_chunk(key, rows)
        except ValueError as exc:
            raise self.store._damaged(f"the block data of chunk {key} is damaged: {exc}") from None
