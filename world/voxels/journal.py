"""The world's edit journal: which chunks hold unsaved changes, and one action's undo log.

Contract
--------
- One path for every change. Blocks, block states, per-voxel data and timers all mark their
  chunk through `Journal.touch`: the chunk then holds *unsaved changes* (``World.modified``,
  the same set) until a save that holds them has been written (`world.save.job`). A chunk with
  unsaved changes of any kind is never forgotten by the streaming (`World.unload_chunk`
  refuses it), so a data-only edit (a chest emptied, a timer started) cannot be lost to a
  teleport nor overwritten by an older row when the chunk comes back.
- One undo log. While an action or tick runs (`Journal.begin` ... `Journal.end`, opened by
  `world.actions.transaction.Transaction`), every change is recorded *before* it is made, so that an
  interruption at any point, the watchdog's `world.mods.guard.HookTimeout` landing between two
  bytecodes of a bulk write included, leaves nothing that `World.rollback` cannot restore:
  a chunk's whole array is snapshotted the first time a bulk write touches it after the latest
  `Journal.mark` (copy-on-write, 8 KiB per chunk and mark), one voxel's old block is recorded
  for a single write, and `world.voxels.block_data.BlockData` records each data and timer change.
  Rolling back to a mark replays the entries after it newest first and takes back the unsaved
  marks they added, so a stopped hook leaves the world, its data, its timers and its save
  state exactly as they were at the mark.

Entries are plain tuples tagged by their first item; `World.rollback` and
`world.voxels.block_data.BlockData.undo` know how to replay them. Cost outside an action: one set
insertion per change; inside: one tuple per single change, one chunk copy per chunk and mark for
bulk writes (a 64³ write touches 64 chunks: 512 KiB).
"""

from __future__ import annotations

from typing import Any

from world.voxels.layout import ChunkKey

__all__ = ["Entry", "Journal"]

Entry = tuple[Any, ...]


class Journal:
    """Unsaved chunks and the running action's undo log (see the module notes).

    Parameters
    ----------
    modified : set of ChunkKey
        The world's set of chunks with unsaved changes (kept by reference: ``World.modified``).
    """

    def __init__(self, modified: set[ChunkKey]) -> None:
        self.modified = modified
        self.entries: list[Entry] | None = None  # None: no action is running
        self.replaying = False  # a rollback replays entries: nothing is recorded nor marked
        self._last_mark = 0
        # Per chunk, where in `entries` its latest snapshot lies (copy-on-write per mark), and
        # where it was first marked unsaved during this action (taken back by a rollback).
        self._snapped: dict[ChunkKey, int] = {}
        self._first_marked: dict[ChunkKey, int] = {}

    @property
    def active(self) -> bool:
        """Whether an action or tick is recording."""
        return self.entries is not None

    def touch(self, key: ChunkKey) -> None:
        """The chunk has an unsaved change."""
        if key in self.modified or self.replaying:
            return
        if self.entries is not None:  # first: a stop between the two lines is still undone
            self._first_marked[key] = len(self.entries)
        self.modified.add(key)

    def record(self, entry: Entry) -> None:
        """Keep an undo entry, made before the change it undoes (nothing outside an action)."""
        if self.entries is not None and not self.replaying:
            self.entries.append(entry)

    def wants_snapshot(self, key: ChunkKey) -> bool:
        """Whether a bulk write to ``key`` must snapshot the chunk first: recording, and no
        snapshot of it taken since the latest mark."""
        if self.entries is None:
            return False
        at = self._snapped.get(key)
        return at is None or at < self._last_mark

    def snapshot(self, entry: Entry, key: ChunkKey) -> None:
        """Record a chunk's snapshot entry (`wants_snapshot` said so)."""
        if self.entries is not None:
            self._snapped[key] = len(self.entries)
            self.entries.append(entry)

    # -- one action ---------------------------------------------------------------------------

    def begin(self) -> None:
        """An action or tick starts recording."""
        self.entries = []
        self._last_mark = 0
        self._snapped.clear()
        self._first_marked.clear()

    def mark(self) -> int:
        """A point to roll back to."""
        if self.entries is None:
            return 0
        self._last_mark = len(self.entries)
        return self._last_mark

    def take_since(self, mark: int) -> tuple[list[Entry], list[ChunkKey]]:
        """The entries after ``mark``, newest first, removed from the log; and the chunks first
        marked unsaved after it (the caller replays the entries, then unmarks those)."""
        entries = self.entries
        if entries is None:
            return [], []
        undo = entries[mark:]
        undo.reverse()
        del entries[mark:]
        self._last_mark = min(self._last_mark, mark)
        for key in [k for k, at in self._snapped.items() if at >= mark]:
            del self._snapped[key]
        # A writer records its undo first and marks its chunk second, so a mark taken right
        # after a write sits at the write's own position: only marks past it are later.
        fresh = [k for k, at in self._first_marked.items() if at > mark]
        for key in fresh:
            del self._first_marked[key]
        return undo, fresh

    def end(self) -> None:
        """The action or tick is over: its changes stand."""
        self.entries = None
        self._snapped.clear()
        self._first_marked.clear()
