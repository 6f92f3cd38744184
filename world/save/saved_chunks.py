"""The chunk source of a world loaded from a save: the saved row when there is one, else the
generator's chunk; and each chunk's saved per-voxel data, timers and entities, loaded with its
blocks whether or not its blocks were ever saved (a generated chest or crop holds data too, and
an item may lie on generated ground).

A lazily loaded `world.voxels.chunks.World` reads chunks through `SavedChunks.__call__` (one row,
its data and entities put into the world at once); a loader thread reads batches through
`SavedChunks.load_many` (one query per batch for the blocks, one for the entities). A batch's
data and entities wait here until the main thread installs the chunk (`World.install_loaded`
calls `SavedChunks.adopt`), so only the main thread ever touches the world's `BlockData` and
`Entities`; a chunk the main thread held already (read meanwhile, perhaps edited) keeps its own,
and the batch's are dropped. A worker process's batch carries them over its link
(`world.stream.worker`: `take_pending` there, `hold_pending` here).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.voxels.block_data import BlockData
from world.voxels.entities import Entities
from world.voxels.layout import ChunkKey, ChunkSource

if TYPE_CHECKING:
    from world.save.file import SaveFile

__all__ = ["Pending", "SavedChunks"]

Pending = tuple[object | None, list[dict[str, object]] | None]
"""What a batch read of one chunk besides its blocks: its block data row (JSON, checked when it
is put into the world) and its entities (decoded and checked: `world.save.codec.decode_entities`,
each with the world time it appeared, aged as it is put in), each None when it has none."""


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
        # The loaded world's, set by `WorldStore.load`.
        self.block_data: BlockData | None = None
        self.entities: Entities | None = None
        # What a loader thread read with its batch, until the main thread installs the chunk
        # (`World.install_loaded` calls `adopt`): the world is touched by one thread only.
        self._pending: dict[ChunkKey, Pending] = {}
        self._pending_lock = threading.Lock()

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        key = (cx, cy, cz)
        blocks = self.store._read_chunk(key, self.registry)
        # With its blocks, saved or generated again; all read (and generated) before any is put
        # in, so a read that fails puts nothing in and the next read starts afresh.
        rows = self.store._read_block_data(key)
        saved = self.store._read_entities([key]).get(key)
        if blocks is None and self.base is not None:
            blocks = self.base(cx, cy, cz)
        self._put(key, (rows, saved))
        return blocks

    def load_many(self, keys: list[ChunkKey]) -> dict[ChunkKey, NDArray[np.uint16] | None]:
        """Several chunks at once (a loader thread's batch): saved rows in one query, the rest
        generated; their data and entities wait for `adopt`."""
        saved: dict[ChunkKey, NDArray[np.uint16] | None] = dict(
            self.store._read_chunks(keys, self.registry)
        )
        entities = self.store._read_entities(keys)
        for key in keys:  # a chunk never edited block-wise may hold data: it has a data row
            rows = self.store._read_block_data(key)
            if rows is not None or key in entities:
                with self._pending_lock:
                    self._pending[key] = (rows, entities.get(key))
        for key in keys:
            if key not in saved:
                saved[key] = None if self.base is None else self.base(*key)
        return saved

    def take_pending(self, keys: list[ChunkKey]) -> dict[ChunkKey, Pending]:
        """The data and entities a batch read, taken out (a worker process hands them to the
        game's)."""
        with self._pending_lock:
            return {key: self._pending.pop(key) for key in keys if key in self._pending}

    def hold_pending(self, pending: dict[ChunkKey, Pending]) -> None:
        """The data and entities a worker process read with its batch, until `adopt` takes
        them."""
        with self._pending_lock:
            self._pending.update(pending)

    def adopt(self, key: ChunkKey, installed: bool) -> None:
        """The main thread took (or, already holding the chunk, skipped) a batch's chunk: its
        data and entities read with the batch go into the world, or are dropped."""
        with self._pending_lock:
            pending = self._pending.pop(key, None)
        if pending is not None and installed:
            self._put(key, pending)

    def _put(self, key: ChunkKey, pending: Pending) -> None:
        """A chunk's saved data and entities into the world (`SaveError` naming the chunk for
        what the world refuses)."""
        rows, saved = pending
        if rows is not None and self.block_data is not None:
            try:
                self.block_data.restore_chunk(key, rows)
            except ValueError as exc:
                raise self.store._damaged(
                    f"the block data of chunk {key} is damaged: {exc}"
                ) from None
        if saved is not None and self.entities is not None:
            now = self.entities.clock
            try:
                self.entities.install(key, [_aged(record, now) for record in saved])
            except ValueError as exc:
                raise self.store._damaged(
                    f"the entities of chunk {key} are damaged: {exc}"
                ) from None


def _aged(record: dict[str, object], now: float) -> dict[str, object]:
    """A decoded entity in the form `Entities.install` takes: its age, the world time since it
    appeared (0 for one that appeared after ``now``: a world clock set back)."""
    born = record["born"]
    assert isinstance(born, float)  # decode_entities checked it
    aged = {name: value for name, value in record.items() if name != "born"}
    aged["age"] = max(0.0, now - born)
    return aged
