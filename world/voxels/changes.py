"""What an action changed: `Change`, one voxel, and `Changes`, the action's list of them.

Contract
--------
- `Change(pos, old, new)`: a voxel and its block ids before and after, a named tuple.
- `Changes` is an immutable sequence of `Change` in the order they were made (a bulk write's in
  chunk order, ascending index within a chunk). It compares equal to any sequence of the same
  changes (``outcome.changes == (Change(...),)``), and holds a bulk write as arrays: a hook
  that writes 64³ voxels costs three arrays, not 262,144 tuples, until someone iterates.
- `ChangeLog` is the growing list a `world.actions.transaction.Transaction` keeps: `append` one
change,
  `extend` a bulk write's arrays, `truncate` back to a length (a rollback), `since` a length
  (a nested action's own changes) as `Changes`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

import numpy as np
from numpy.typing import NDArray

from world.geometry import Int3

__all__ = ["Change", "ChangeLog", "Changes"]


class Change(NamedTuple):
    """One voxel changed by an action: where, and the block ids before and after."""

    pos: Int3
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class _Batch:
    """Changes of a bulk write: positions (N, 3), ids before (N,), after (N,)."""

    pos: NDArray[np.int64]
    old: NDArray[np.int64]
    new: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.old)


_Part = Change | _Batch


def _size(part: _Part) -> int:
    return len(part) if isinstance(part, _Batch) else 1


def _iterate(parts: Sequence[_Part]) -> Iterator[Change]:
    for part in parts:
        if isinstance(part, _Batch):
            for xyz, old, new in zip(
                part.pos.tolist(), part.old.tolist(), part.new.tolist(), strict=True
            ):
                yield Change(Int3(*xyz), old, new)
        else:
            yield part


class Changes(Sequence[Change]):
    """An immutable sequence of changes (see the module notes)."""

    __slots__ = ("_length", "_parts", "_tuple")

    def __init__(self, parts: Sequence[_Part] = ()) -> None:
        self._parts = tuple(parts)
        self._length = sum(_size(part) for part in self._parts)
        self._tuple: tuple[Change, ...] | None = None

    def _all(self) -> tuple[Change, ...]:
        if self._tuple is None:
            self._tuple = tuple(_iterate(self._parts))
        return self._tuple

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Change]:
        if self._tuple is not None:
            return iter(self._tuple)
        return _iterate(self._parts)

    @overload
    def __getitem__(self, index: int) -> Change: ...

    @overload
    def __getitem__(self, index: slice) -> Changes: ...

    def __getitem__(self, index: int | slice) -> Change | Changes:
        if isinstance(index, slice):
            return Changes(self._all()[index])
        return self._all()[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(self._all())

    def __bool__(self) -> bool:
        return self._length > 0

    def arrays(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """The changes as arrays, in order: positions (N, 3), ids before (N,) and after (N,),
        without a tuple per voxel of a bulk write."""
        pos: list[NDArray[np.int64]] = []
        old: list[NDArray[np.int64]] = []
        new: list[NDArray[np.int64]] = []
        singles: list[Change] = []

        def flush() -> None:
            if singles:
                pos.append(np.array([c.pos for c in singles], dtype=np.int64).reshape(-1, 3))
                old.append(np.array([c.old for c in singles], dtype=np.int64))
                new.append(np.array([c.new for c in singles], dtype=np.int64))
                singles.clear()

        for part in self._parts:
            if isinstance(part, _Batch):
                flush()
                pos.append(part.pos)
                old.append(part.old)
                new.append(part.new)
            else:
                singles.append(part)
        flush()
        if not pos:
            empty = np.zeros(0, dtype=np.int64)
            return np.zeros((0, 3), dtype=np.int64), empty, empty.copy()
        return np.concatenate(pos), np.concatenate(old), np.concatenate(new)

    def __repr__(self) -> str:
        if self._length > 8:
            return f"Changes({self._length} changes)"
        return f"Changes({list(self)!r})"


class ChangeLog:
    """The changes a transaction made so far, in order (see the module notes)."""

    __slots__ = ("_ends", "_parts")

    def __init__(self) -> None:
        self._parts: list[_Part] = []
        self._ends: list[int] = []  # the log's length after each part

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __bool__(self) -> bool:
        return bool(self._ends)

    def __iter__(self) -> Iterator[Change]:
        return _iterate(self._parts)

    def append(self, change: Change) -> None:
        """One more change."""
        self._ends.append(len(self) + 1)
        self._parts.append(change)

    def extend(
        self, pos: NDArray[np.int64], old: NDArray[np.int64], new: NDArray[np.int64]
    ) -> None:
        """A bulk write's changes, as arrays (N, 3), (N,), (N,)."""
        if len(old):
            self._ends.append(len(self) + len(old))
            self._parts.append(_Batch(pos, old, new))

    def truncate(self, length: int) -> None:
        """Forget every change after the first ``length`` (a rollback)."""
        at = int(np.searchsorted(self._ends, length, side="right"))
        del self._parts[at:], self._ends[at:]
        short = length - len(self)
        if short > 0:  # the cut falls inside the batch that was next
            raise ValueError(f"length {length} does not end a part of the log")

    def since(self, length: int) -> Changes:
        """The changes after the first ``length``."""
        at = int(np.searchsorted(self._ends, length, side="right"))
        parts: list[_Part] = list(self._parts[at:])
        start = self._ends[at - 1] if at else 0
        if start < length:  # the cut falls inside a batch
            raise ValueError(f"length {length} does not end a part of the log")
        return Changes(parts)

    def all(self) -> Changes:
        """Every change so far."""
        return Changes(self._parts)
