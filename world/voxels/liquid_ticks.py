"""Scheduled liquid ticks: which voxels a liquid moves at which game tick, saved with their chunks.

Contract
--------
- A liquid moves only where something changed (Minecraft's scheduled fluid ticks): a voxel next
  to a change is *scheduled* for a game tick (20 a second of world time,
  `world.voxels.block_data.BlockData.clock`), and `world.ticks.liquids` steps the voxels whose
  tick came. A still lake holds no tick and costs nothing.
- `LiquidTicks.schedule` keeps a voxel's earliest tick (a voxel already due sooner keeps its
  tick, as Minecraft's tick list keeps the one it has); `LiquidTicks.pop_due` takes the ticks
  that came, in chunks that are loaded, oldest first, at most as many as asked: the rest wait.
  A tick in a chunk that is not loaded waits there, saved, and runs once the chunk is back.
- Stored per chunk (voxel index -> game tick), written into the chunk's block data row by
  `world.voxels.block_data.BlockData.chunk_rows` (``"liquids"``: JSON, never pickled) and read
  back by ``restore_chunk``; a row that is not what `chunk_rows` writes is refused whole with a
  `ValueError` naming the voxel.
- One path: every change of a chunk's ticks is recorded in the running action's undo log and
  marks the chunk unsaved, through the world's `world.voxels.journal.Journal`, as block and data
  changes are; a stopped or failed step leaves its ticks as they were.
"""

from __future__ import annotations

import math
from collections.abc import Container, Mapping

import numpy as np
from numpy.typing import NDArray

from world.voxels.journal import Journal
from world.voxels.layout import CHUNK, ChunkKey, by_chunk, chunk_index, saved_voxel_index

__all__ = ["GAME_TICKS_PER_SECOND", "MAX_TICK", "LiquidTicks", "game_tick"]

GAME_TICKS_PER_SECOND = 20
MAX_TICK = 2**53  # a saved tick past this is not a tick (the world clock's seconds × 20)

_SIDE = CHUNK[0]
_Undo = tuple[ChunkKey, Mapping[int, int | None]]


def game_tick(seconds: float) -> int:
    """The game tick a world time falls in (20 a second)."""
    return math.floor(seconds * GAME_TICKS_PER_SECOND + 1e-9)


class LiquidTicks:
    """Every scheduled liquid tick of one world (see the module notes).

    Parameters
    ----------
    journal : Journal
        The world's edit journal: each change is recorded and marks its chunk unsaved.
    """

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.chunks: dict[ChunkKey, dict[int, int]] = {}
        self._count = 0

    def __len__(self) -> int:
        """Scheduled ticks held (in memory)."""
        return self._count

    def due_at(self, pos: tuple[int, int, int]) -> int | None:
        """The game tick a voxel is scheduled for, or None."""
        key, index = chunk_index(*pos)
        return self.chunks.get(key, {}).get(index)

    def schedule(self, cells: NDArray[np.int64], ticks: NDArray[np.int64] | int) -> None:
        """Schedule N voxels (N, 3) for the given game ticks (one or N), keeping any earlier one."""
        if not len(cells):
            return
        due = np.broadcast_to(np.asarray(ticks, dtype=np.int64), (len(cells),))
        groups, index = by_chunk(cells)
        for key, sel in groups:
            held = self.chunks.get(key, {})
            wanted: dict[int, int] = {}
            for i, t in zip(index[sel].tolist(), due[sel].tolist(), strict=True):
                had = held.get(i)
                if (had is None or t < had) and t < wanted.get(i, MAX_TICK + 1):
                    wanted[i] = t
            self._put(key, wanted)

    def pop_due(
        self, now: int, loaded: Container[ChunkKey] | None = None, limit: int | None = None
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The voxels whose tick is at or before ``now``, in loaded chunks (all when None),
        oldest first, at most ``limit``: removed, as positions (N, 3) and their ticks (N,)."""
        found: list[tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]] = []
        for key, held in list(self.chunks.items()):
            if loaded is not None and key not in loaded:
                continue
            index = np.fromiter(held.keys(), dtype=np.int64, count=len(held))
            ticks = np.fromiter(held.values(), dtype=np.int64, count=len(held))
            came = ticks <= now
            if came.any():
                base = np.array(key, dtype=np.int64) * _SIDE
                found.append((base + _local(index[came]), ticks[came], index[came]))
        if not found:
            return np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64)
        cells = np.concatenate([f[0] for f in found])
        ticks = np.concatenate([f[1] for f in found])
        order = np.argsort(ticks, kind="stable")
        if limit is not None:
            order = order[:limit]
        cells, ticks = cells[order], ticks[order]
        self.remove(cells)
        return cells, ticks

    def remove(self, cells: NDArray[np.int64]) -> None:
        """Forget the ticks of N voxels (those without one are skipped)."""
        if not len(cells):
            return
        groups, index = by_chunk(cells)
        for key, sel in groups:
            held = self.chunks.get(key)
            if held:
                gone = {i: None for i in index[sel].tolist() if i in held}
                self._put(key, gone)

    def _put(self, key: ChunkKey, changes: Mapping[int, int | None]) -> None:
        """Set (a tick) or clear (None) voxels of one chunk, recorded and marked."""
        if not changes:
            return
        held = self.chunks.get(key, {})
        self.journal.record(("undo", self._restore, (key, {i: held.get(i) for i in changes})))
        self._apply(key, changes)
        self.journal.touch(key)

    def _apply(self, key: ChunkKey, changes: Mapping[int, int | None]) -> None:
        held = self.chunks.setdefault(key, {})
        for index, tick in changes.items():
            had = held.pop(index, None)
            self._count -= had is not None
            if tick is not None:
                held[index] = tick
                self._count += 1
        if not held:
            del self.chunks[key]

    def _restore(self, undo: _Undo) -> None:
        self._apply(*undo)

    # -- saving (through `world.voxels.block_data.BlockData`) -----------------------------------

    def chunk_rows(self, key: ChunkKey) -> dict[str, int] | None:
        """A chunk's ticks as JSON-ready values (voxel index as text -> game tick), or None."""
        held = self.chunks.get(key)
        return None if not held else {str(i): t for i, t in sorted(held.items())}

    def restore_chunk(self, key: ChunkKey, rows: object) -> None:
        """Load a chunk's ticks from `chunk_rows` output (None: none), replacing what is held.

        Raises
        ------
        ValueError
            Naming the voxel when anything is not what `chunk_rows` writes; nothing is loaded.
        """
        loaded: dict[int, int] = {}
        if rows is not None:
            if not isinstance(rows, dict):
                raise ValueError("liquid ticks must be an object of voxel index to game tick")
            for raw_index, tick in rows.items():
                index = saved_voxel_index(raw_index, "liquid tick")
                if isinstance(tick, bool) or not isinstance(tick, int) or not 0 <= tick <= MAX_TICK:
                    raise ValueError(
                        f"liquid tick of voxel {index} must be a game tick 0..{MAX_TICK}, "
                        f"got {tick!r}"
                    )
                loaded[index] = tick
        self.forget_chunk(key)
        if loaded:
            self.chunks[key] = loaded
            self._count += len(loaded)

    def forget_chunk(self, key: ChunkKey) -> None:
        """A chunk was unloaded (its ticks saved): drop them from memory."""
        self._count -= len(self.chunks.pop(key, {}))


def _local(index: NDArray[np.int64]) -> NDArray[np.int64]:
    return np.stack([index // (_SIDE * _SIDE), (index // _SIDE) % _SIDE, index % _SIDE], axis=1)
