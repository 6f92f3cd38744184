"""The neighbour queue: changed voxels whose neighbours' ``on_neighbor_changed`` is still due.

Every change an action or a hook makes is pushed here; the rules pop changes oldest first and
notify the six face neighbours of each. The queue is bounded by construction:

- **Coalescing.** One entry per voxel and *cause* (the mod whose hook made the change, or
  ``None`` for the action itself). A voxel changed again before it was popped keeps its place in
  the queue, its first ``old`` block and takes the latest ``new`` one, so a mod that keeps
  toggling the same voxels cannot grow the queue beyond the voxels it touches.
- **A cap.** At most `MAX_PENDING` entries wait. A change that would add one more is still made
  (no block is lost) but its neighbours are not told; the first time a cause overflows the
  queue, the ``on_overflow`` callback reports it (the rules log it once per mod). A bulk write
  (`NeighborQueue.push_many`) stops at the first change the full queue refuses: the rest of it
  is dropped at once, without looking for voxels already queued.

Pushes return an undo record, so the rules can take back exactly the notifications of a hook
call they roll back (pops never happen inside one hook call, so an undo always concerns the
newest entries). Push, pop and undo are O(1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.geometry import Int3

__all__ = ["MAX_PENDING", "NeighborQueue", "Pending", "Undo"]

# 64 ticks' worth of `world.rules.TICK_NEIGHBOR_BUDGET`: about a second of backlog at 60 fps,
# a few hundred kilobytes; more would only delay what the player sees.
MAX_PENDING = 4096

Key = tuple[Int3, str | None]


class Pending(NamedTuple):
    """One changed voxel still to be notified: where, its first old and latest new id, by whom."""

    pos: Int3
    old: int
    new: int
    cause: str | None


class Undo(NamedTuple):
    """How to take back one push: the entry's key and its ``new`` before (None: it was added)."""

    key: Key
    previous: int | None


class NeighborQueue:
    """Changed voxels waiting for their neighbours to be notified (see the module notes).

    Parameters
    ----------
    cap : int
        The most entries that wait (`MAX_PENDING`).
    on_overflow : callable, optional
        Called with the cause (a mod name, or None) the first time a push of that cause is
        dropped because the queue is full.
    """

    def __init__(
        self, cap: int = MAX_PENDING, on_overflow: Callable[[str | None], None] | None = None
    ) -> None:
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
            raise ValueError(f"cap must be an integer >= 0, got {cap!r}")
        self.cap = cap
        self.on_overflow = on_overflow
        self.dropped = 0  # pushes refused because the queue was full, over its whole life
        self._order: deque[Key] = deque()
        self._entries: dict[Key, list[int]] = {}  # key -> [old, new]
        self._overflowed: set[str | None] = set()

    def __len__(self) -> int:
        return len(self._entries)

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __repr__(self) -> str:
        return f"NeighborQueue({len(self)} pending, {self.dropped} dropped)"

    def push(self, pos: Int3, old: int, new: int, cause: str | None) -> Undo | None:
        """Queue the change of ``pos`` from ``old`` to ``new``; the undo record, or None if the
        queue was full and the change's notifications were dropped."""
        key = (pos, cause)
        entry = self._entries.get(key)
        if entry is not None:
            previous, entry[1] = entry[1], new
            return Undo(key, previous)
        if len(self._entries) >= self.cap:
            self.dropped += 1
            if cause not in self._overflowed:
                self._overflowed.add(cause)
                if self.on_overflow is not None:
                    self.on_overflow(cause)
            return None
        self._entries[key] = [old, new]
        self._order.append(key)
        return Undo(key, None)

    def push_many(
        self,
        pos: NDArray[np.int64],
        old: NDArray[np.int64],
        new: NDArray[np.int64],
        cause: str | None,
    ) -> list[Undo | None]:
        """`push` for the N changes of a bulk write, (N, 3), (N,), (N,), in order, while the
        queue has room; the rest are dropped at once (counted, reported as `push` does), so a
        write of 262,144 voxels costs the queue's room, not a call per voxel."""
        records: list[Undo | None] = []
        for i in range(len(old)):
            if len(self._entries) >= self.cap:
                rest = len(old) - i
                self.dropped += rest - 1
                records.append(self.push(Int3(*pos[i].tolist()), int(old[i]), int(new[i]), cause))
                break
            records.append(self.push(Int3(*pos[i].tolist()), int(old[i]), int(new[i]), cause))
        return records

    def undo(self, record: Undo) -> None:
        """Take back one push (the newest not yet taken back)."""
        key, previous = record
        entry = self._entries.get(key)
        if entry is None:  # popped since (only when a whole tick is undone on the way out)
            return
        if previous is not None:
            entry[1] = previous
            return
        del self._entries[key]
        if self._order and self._order[-1] == key:
            self._order.pop()
        else:  # not the newest (cannot happen within one hook call): find it
            self._order.remove(key)

    def pop(self) -> Pending | None:
        """The oldest entry, removed; None when the queue is empty."""
        if not self._order:
            return None
        key = self._order.popleft()
        old, new = self._entries.pop(key)
        return Pending(key[0], old, new, key[1])

    def merge(self, other: NeighborQueue) -> None:
        """Move every entry of ``other`` to the end of this queue (coalescing, capped)."""
        while (entry := other.pop()) is not None:
            self.push(entry.pos, entry.old, entry.new, entry.cause)

    def clear(self) -> None:
        """Forget every entry."""
        self._order.clear()
        self._entries.clear()
