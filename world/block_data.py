"""Per-block data and timers: what a sign, a chest or a growing crop keeps on its own voxel.

Contract
--------
- ``world.meta(pos)`` is a small key→value store on one voxel (Luanti's node metadata,
  Minecraft's block entity data): keys are non-empty str, values str, int, float or bytes; one
  voxel holds at most `MAX_DATA_BYTES` (keys and values counted as UTF-8 / raw bytes, numbers as
  8), refused beyond with a `ValueError` naming the key. It is created on the first write; a
  voxel whose mapping becomes empty holds nothing.
- ``world.start_timer(pos, seconds)`` starts (or restarts) the voxel's one timer (Luanti's node
  timer): when it runs out, the block's ``on_timer`` runs with the seconds that actually passed.
  `BlockData.due` lists the timers that ran out.
- Data and timers belong to the block: when a voxel's block *type* changes (not its state: a
  door opening keeps them), they are detached. Inside an action they stay readable until the
  old block's ``on_destruct`` has run (the transaction calls `BlockData.discard` after it);
  outside one they go at once. Nothing is kept on air.
- Stored per chunk, beside the chunk's flat array: a chunk without data costs a missing dict
  entry; `BlockData.chunk_rows` / `BlockData.restore_chunk` give a chunk's data and timers as
  JSON-ready values (bytes as base64) for the save, which writes them in the chunk's row in the
  same transaction as its blocks; never pickled.
- Journalled: `mark` / `rollback` restore data and timers as they were (a denied or failed
  action leaves no data change behind); `commit` ends a transaction's journal.
- ``infotext``: a voxel whose data holds this key (`INFOTEXT`, Luanti's name) shows its value
  while the player points at the voxel: a sign's words, "Chest", "Furnace (burning)". The game
  shows `infotext(value)`: a str, int or float as text without surrounding blanks, at most
  `MAX_INFOTEXT_LINES` lines of `MAX_INFOTEXT_LINE` characters (the rest cut with an ellipsis);
  bytes show nothing.
- Timers count *world time* (`BlockData.clock`, advanced by `advance`, saved with the world):
  a timer in a chunk that is not loaded waits, and on loading catches up, its callback told the
  whole elapsed time (Luanti's behaviour).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Container, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from world.chunk_layout import ChunkKey, chunk_index, voxel_at
from world.geometry import Int3

__all__ = [
    "INFOTEXT",
    "MAX_DATA_BYTES",
    "MAX_INFOTEXT_LINE",
    "MAX_INFOTEXT_LINES",
    "MAX_TIMER_SECONDS",
    "BlockData",
    "Timer",
    "Value",
    "VoxelData",
    "infotext",
    "shown_text",
]

Value = str | int | float | bytes
MAX_DATA_BYTES = 16 * 1024
MAX_TIMER_SECONDS = 1.0e7  # about four months of play
INFOTEXT = "infotext"
MAX_INFOTEXT_LINES = 6
MAX_INFOTEXT_LINE = 60  # characters


def shown_text(value: object, limit: int) -> str:
    """A data value as text to show: a str, int or float as text, cut to ``limit`` characters
    (before anything splits it: a value may be 16 KiB of one line or of empty lines), without
    surrounding blanks; "" for anything else (bytes, a bool, None)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return str(value)[:limit].strip()


def infotext(value: object) -> str:
    """The text shown for a voxel's `INFOTEXT` value (module notes): "" for none or bytes."""
    lines = shown_text(value, (MAX_INFOTEXT_LINE + 1) * (MAX_INFOTEXT_LINES + 1)).splitlines()
    shown = [
        line if len(line) <= MAX_INFOTEXT_LINE else line[: MAX_INFOTEXT_LINE - 1] + "…"
        for line in lines[:MAX_INFOTEXT_LINES]
    ]
    if len(lines) > MAX_INFOTEXT_LINES:
        shown[-1] = shown[-1][: MAX_INFOTEXT_LINE - 1] + "…"
    return "\n".join(shown)


@dataclass(frozen=True)
class Timer:
    """A voxel's timer: started at world time `start`, runs out at `start + seconds`."""

    start: float
    seconds: float

    @property
    def end(self) -> float:
        return self.start + self.seconds


def _size(key: str, value: Value) -> int:
    size = len(key.encode())
    if isinstance(value, str):
        return size + len(value.encode())
    if isinstance(value, bytes):
        return size + len(value)
    return size + 8


def _check(key: object, value: object) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"block data keys are non-empty str, got {key!r}")
    if isinstance(value, bool) or not isinstance(value, str | int | float | bytes):
        raise ValueError(
            f"block data {key!r} must be str, int, float or bytes, got {type(value).__name__}"
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"block data {key!r} must be a finite number, got {value!r}")
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise ValueError(f"block data {key!r} must fit in 64 bits, got {value!r}")


class BlockData:
    """Every voxel's data and timers in one world (see the module notes)."""

    def __init__(self) -> None:
        self.chunks: dict[ChunkKey, dict[int, dict[str, Value]]] = {}
        self.timers: dict[ChunkKey, dict[int, Timer]] = {}
        self.clock = 0.0  # world time in seconds
        self.modified: set[ChunkKey] = set()
        self.detached: dict[Int3, tuple[dict[str, Value] | None, Timer | None]] = {}
        self.deferring = False  # inside an action: detached data waits for on_destruct
        self._journal: list[tuple[str, Any, Any, Any]] | None = None

    # -- reading and writing one voxel ----------------------------------------------------------

    def _held(self, pos: Int3) -> dict[str, Value] | None:
        """The voxel's data as held, not a copy (its detached data while its on_destruct runs)."""
        if pos in self.detached:
            return self.detached[pos][0]
        key, index = chunk_index(*pos)
        entries = self.chunks.get(key)
        return None if entries is None else entries.get(index)

    def get(self, pos: Int3) -> dict[str, Value]:
        """A copy of the voxel's data (its detached data while its on_destruct runs)."""
        data = self._held(pos)
        return {} if data is None else dict(data)

    def value(self, pos: Int3, name: str) -> Value | None:
        """One key of the voxel's data (None when missing), without copying the rest."""
        data = self._held(pos)
        return None if data is None else data.get(name)

    def write(self, pos: Int3, name: str, value: Value | None) -> None:
        """Write one key (``None`` removes it), checked, journalled."""
        key, index = chunk_index(*pos)
        entries = self.chunks.get(key, {})
        data = dict(entries.get(index, {}))
        if value is None:
            data.pop(name, None)
        else:
            _check(name, value)
            data[name] = value
            total = sum(_size(k, v) for k, v in data.items())
            if total > MAX_DATA_BYTES:
                raise ValueError(
                    f"block data {name!r} at {tuple(pos)} would make the voxel's data "
                    f"{total} bytes; a voxel holds at most {MAX_DATA_BYTES}"
                )
        self._put(key, index, data or None)

    def _put(self, key: ChunkKey, index: int, data: dict[str, Value] | None) -> None:
        entries = self.chunks.setdefault(key, {})
        old = entries.get(index)
        if self._journal is not None:
            self._journal.append(("data", key, index, old))
        if data is None:
            entries.pop(index, None)
        else:
            entries[index] = data
        if not entries:
            del self.chunks[key]
        self.modified.add(key)

    def timer(self, pos: Int3) -> Timer | None:
        key, index = chunk_index(*pos)
        return self.timers.get(key, {}).get(index)

    def start_timer(self, pos: Int3, seconds: float) -> None:
        """Start (or restart) the voxel's timer; `seconds` in (0, `MAX_TIMER_SECONDS`]."""
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError(f"seconds must be a number, got {seconds!r}")
        if not 0.0 < seconds <= MAX_TIMER_SECONDS:
            raise ValueError(f"seconds must be in (0, {MAX_TIMER_SECONDS:g}], got {seconds!r}")
        key, index = chunk_index(*pos)
        self._put_timer(key, index, Timer(self.clock, float(seconds)))

    def stop_timer(self, pos: Int3) -> None:
        key, index = chunk_index(*pos)
        self._put_timer(key, index, None)

    def _put_timer(self, key: ChunkKey, index: int, timer: Timer | None) -> None:
        timers = self.timers.setdefault(key, {})
        old = timers.get(index)
        if self._journal is not None:
            self._journal.append(("timer", key, index, old))
        if timer is None:
            timers.pop(index, None)
        else:
            timers[index] = timer
        if not timers:
            del self.timers[key]
        self.modified.add(key)

    # -- the block changed ------------------------------------------------------------------

    def block_changed(self, pos: Int3, key: ChunkKey, index: int) -> None:
        """The voxel's block type changed: detach its data and timer (see the module notes)."""
        data = self.chunks.get(key, {}).get(index)
        timer = self.timers.get(key, {}).get(index)
        if data is None and timer is None:
            return
        if data is not None:
            self._put(key, index, None)
        if timer is not None:
            self._put_timer(key, index, None)
        if self.deferring:
            self.detached[pos] = (data, timer)
            if self._journal is not None:
                self._journal.append(("detached", pos, None, None))

    def discard(self, pos: Int3) -> None:
        """The old block's on_destruct has run: its detached data is gone for good."""
        self.detached.pop(pos, None)

    # -- transactions -----------------------------------------------------------------------

    def begin(self) -> None:
        """An action starts: journal every change, keep detached data for on_destruct."""
        self._journal = []
        self.deferring = True

    def mark(self) -> int:
        return 0 if self._journal is None else len(self._journal)

    def rollback(self, mark: int) -> None:
        """Undo every data and timer change since `mark`."""
        journal = self._journal
        if journal is None:
            return
        self._journal = None  # restoring is not journalled
        try:
            for kind, key, index, old in reversed(journal[mark:]):
                if kind == "data":
                    self._put(key, index, old)
                elif kind == "timer":
                    self._put_timer(key, index, old)
                else:
                    self.detached.pop(key, None)
            del journal[mark:]
        finally:
            self._journal = journal

    def commit(self) -> None:
        """The action is over: forget the journal and any data still detached."""
        self._journal = None
        self.deferring = False
        self.detached.clear()

    # -- time -------------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """World time passes (the game calls it each frame)."""
        if not 0.0 <= seconds < math.inf:
            raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
        self.clock += seconds

    def due(self, loaded: Container[ChunkKey] | None = None) -> list[tuple[Int3, float]]:
        """Timers that ran out, as (position, elapsed seconds), oldest end first; removed.

        Only chunks in `loaded` count (all when None): the others' timers wait.
        """
        found: list[tuple[float, Int3, float]] = []
        for key, timers in list(self.timers.items()):
            if loaded is not None and key not in loaded:
                continue
            for index, timer in list(timers.items()):
                if timer.end <= self.clock:
                    found.append((timer.end, Int3(*voxel_at(key, index)), self.clock - timer.start))
                    self._put_timer(key, index, None)
        found.sort(key=lambda item: item[0])
        return [(pos, elapsed) for _, pos, elapsed in found]

    # -- saving -----------------------------------------------------------------------------

    def chunk_rows(self, key: ChunkKey) -> dict[str, Any] | None:
        """A chunk's data and timers as JSON-ready values, or None when it holds none."""
        data = self.chunks.get(key)
        timers = self.timers.get(key)
        if not data and not timers:
            return None
        return {
            "data": {
                str(i): {k: _encode(v) for k, v in entries.items()}
                for i, entries in (data or {}).items()
            },
            "timers": {str(i): [t.start, t.seconds] for i, t in (timers or {}).items()},
        }

    def restore_chunk(self, key: ChunkKey, rows: object) -> None:
        """Load a chunk's data and timers from `chunk_rows` output; ``ValueError`` if damaged."""
        if not isinstance(rows, dict):
            raise ValueError("block data must be a JSON object")
        data: dict[int, dict[str, Value]] = {}
        for raw_index, entries in dict(rows.get("data", {})).items():
            index = _index(raw_index)
            if not isinstance(entries, dict):
                raise ValueError(f"block data of voxel {index} must be an object")
            decoded = {str(k): _decode(v) for k, v in entries.items()}
            for name, value in decoded.items():
                _check(name, value)
            data[index] = decoded
        timers: dict[int, Timer] = {}
        for raw_index, pair in dict(rows.get("timers", {})).items():
            index = _index(raw_index)
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(v, int | float) and math.isfinite(v) for v in pair)
            ):
                raise ValueError(f"timer of voxel {index} must be [start, seconds]")
            timers[index] = Timer(float(pair[0]), float(pair[1]))
        if data:
            self.chunks[key] = data
        if timers:
            self.timers[key] = timers

    def forget_chunk(self, key: ChunkKey) -> None:
        """A chunk was unloaded (after its save): drop its data from memory."""
        self.chunks.pop(key, None)
        self.timers.pop(key, None)


class VoxelData(MutableMapping[str, Value]):
    """``world.meta(pos)``: one voxel's data as a mutable mapping (writes go to `BlockData`)."""

    def __init__(self, store: BlockData, pos: Int3, write: bool = True) -> None:
        self._store = store
        self._pos = pos
        self._write = write

    def __getitem__(self, name: str) -> Value:
        return self._store.get(self._pos)[name]

    def __setitem__(self, name: str, value: Value) -> None:
        if not self._write:
            raise RuntimeError("block data cannot be changed here (a can_* hook only decides)")
        self._store.write(self._pos, name, value)

    def __delitem__(self, name: str) -> None:
        if not self._write:
            raise RuntimeError("block data cannot be changed here (a can_* hook only decides)")
        if name not in self._store.get(self._pos):
            raise KeyError(name)
        self._store.write(self._pos, name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._store.get(self._pos))

    def __len__(self) -> int:
        return len(self._store.get(self._pos))

    def __repr__(self) -> str:
        return f"VoxelData({tuple(self._pos)}, {self._store.get(self._pos)!r})"


def _index(raw: object) -> int:
    try:
        index = int(str(raw))
    except ValueError:
        raise ValueError(f"block data voxel index {raw!r} is not a number") from None
    if not 0 <= index < 4096:
        raise ValueError(f"block data voxel index {index} is outside the chunk")
    return index


def _encode(value: Value) -> object:
    if isinstance(value, bytes):
        return {"b64": base64.b64encode(value).decode()}
    return value


def _decode(value: object) -> Value:
    if isinstance(value, dict) and set(value) == {"b64"}:
        return base64.b64decode(str(value["b64"]), validate=True)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"block data value {value!r} is not str, int, float or bytes")
    return value
