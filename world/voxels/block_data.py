"""Per-block data and timers: what a sign, a chest or a growing crop keeps on its own voxel.

Contract
--------
- ``world.meta(pos)`` is a small key→value store on one voxel (Luanti's node metadata,
  Minecraft's block entity data): keys are non-empty str, values str, int, float or bytes; one
  voxel holds at most `MAX_DATA_BYTES` (keys and values counted as UTF-8 / raw bytes, numbers as
  8), refused beyond with a `ValueError` naming the key. It is created on the first write; a
  voxel whose mapping becomes empty holds nothing. ``meta[key] = None`` is a `ValueError`
  (``del meta[key]`` removes a key), and so is a write on an air voxel: nothing is kept on air.
- ``world.start_timer(pos, seconds)`` starts (or restarts) the voxel's one timer (Luanti's node
  timer): when it runs out, the block's ``on_timer`` runs with the seconds that actually passed.
  ``seconds`` is a finite number in (0, `MAX_TIMER_SECONDS`]; air takes no timer.
  `BlockData.due` hands out the timers that ran out, oldest first, at most as many as asked
  (the rest wait for the next tick); a running timer costs nothing until it is due (a heap).
- Data and timers belong to the block: when a voxel's block *type* changes (not its state: a
  door opening keeps them), they are detached. Inside an action they stay readable until the
  old block's ``on_destruct`` has run (the transaction calls `BlockData.discard` after it);
  outside one they go at once.
- Stored per chunk, beside the chunk's flat array: a chunk without data costs a missing dict
  entry; `BlockData.chunk_rows` / `BlockData.restore_chunk` give a chunk's data and timers as
  JSON-ready values (bytes as base64) for the save, which writes them in the chunk's row in the
  same transaction as its blocks; never pickled. A saved row that is not what `chunk_rows`
  writes (a value of another type, a voxel over the limit, a timer out of range) is refused
  whole with a `ValueError` naming the voxel; the store reports it as a `SaveError`.
- One path: every data and timer change marks its chunk unsaved and is recorded in the running
  action's undo log, both through the world's `world.voxels.journal.Journal`, the same way block
  changes are; a failed or stopped action leaves no data change behind.
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
import heapq
import math
from collections.abc import Callable, Container, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from world.blocks.labels import shown_text
from world.geometry import Int3
from world.voxels.journal import Entry, Journal
from world.voxels.layout import ChunkKey, chunk_index, saved_voxel_index, voxel_at
from world.voxels.liquid_ticks import LiquidTicks

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
    "timer_seconds",
]

Value = str | int | float | bytes
MAX_DATA_BYTES = 16 * 1024
MAX_TIMER_SECONDS = 1.0e7  # about four months of play
INFOTEXT = "infotext"
MAX_INFOTEXT_LINES = 6
MAX_INFOTEXT_LINE = 60  # characters


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
    """Every voxel's data and timers in one world (see the module notes).

    Parameters
    ----------
    journal : Journal, optional
        The world's edit journal (`world.voxels.journal`): every change marks its chunk unsaved
        there and is recorded in the running action's undo log. A standalone store keeps its own.
    """

    def __init__(self, journal: Journal | None = None) -> None:
        self.journal = journal if journal is not None else Journal(set())
        self.chunks: dict[ChunkKey, dict[int, dict[str, Value]]] = {}
        self.timers: dict[ChunkKey, dict[int, Timer]] = {}
        self.clock = 0.0  # world time in seconds
        self.detached: dict[Int3, tuple[dict[str, Value] | None, Timer | None]] = {}
        self.deferring = False  # inside an action: detached data waits for on_destruct
        # Every running timer once, by its end (lazily: a restarted or stopped timer's entry
        # stays until it reaches the top, then is skipped): (end, order, key, index, timer).
        self._heap: list[tuple[float, int, ChunkKey, int, Timer]] = []
        self._pushed = 0
        self._running = 0  # timers held, for compacting the heap
        # The scheduled liquid ticks, saved in the same rows (`world.voxels.liquid_ticks`).
        self.liquids = LiquidTicks(self.journal)

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
        """Write one key (``None`` removes it: `VoxelData` refuses a None value, ``del``
        removes), checked, journalled."""
        key, index = chunk_index(*pos)
        entries = self.chunks.get(key, {})
        data = dict(entries.get(index, {}))
        if value is None:
            if name not in data:
                return
            data.pop(name)
        else:
            _check(name, value)
            data[name] = value
            total = _total(data)
            if total > MAX_DATA_BYTES:
                raise ValueError(
                    f"block data {name!r} at {tuple(pos)} would make the voxel's data "
                    f"{total} bytes; a voxel holds at most {MAX_DATA_BYTES}"
                )
        self._put(key, index, data or None)

    def _put(self, key: ChunkKey, index: int, data: dict[str, Value] | None) -> None:
        entries = self.chunks.get(key)
        old = None if entries is None else entries.get(index)
        self.journal.record(
            ("data", key, index, old)
        )  # before the change: see world.voxels.journal
        if data is None:
            if entries is not None:
                entries.pop(index, None)
                if not entries:
                    del self.chunks[key]
        else:
            self.chunks.setdefault(key, {})[index] = data
        self.journal.touch(key)

    def timer(self, pos: Int3) -> Timer | None:
        key, index = chunk_index(*pos)
        return self.timers.get(key, {}).get(index)

    def start_timer(self, pos: Int3, seconds: float) -> None:
        """Start (or restart) the voxel's timer; `seconds` in (0, `MAX_TIMER_SECONDS`]."""
        self._put_timer(*chunk_index(*pos), Timer(self.clock, timer_seconds(seconds, "seconds")))

    def stop_timer(self, pos: Int3) -> None:
        key, index = chunk_index(*pos)
        self._put_timer(key, index, None)

    def _put_timer(self, key: ChunkKey, index: int, timer: Timer | None) -> None:
        timers = self.timers.get(key)
        old = None if timers is None else timers.get(index)
        self.journal.record(("timer", key, index, old))
        self._running += (timer is not None) - (old is not None)
        if timer is None:
            if timers is not None:
                timers.pop(index, None)
                if not timers:
                    del self.timers[key]
        else:
            self.timers.setdefault(key, {})[index] = timer
            self._push(key, index, timer)
        self.journal.touch(key)

    def _push(self, key: ChunkKey, index: int, timer: Timer) -> None:
        self._pushed += 1
        heapq.heappush(self._heap, (timer.end, self._pushed, key, index, timer))
        if len(self._heap) > 2 * self._running + 64:  # mostly stale: rebuild from the live ones
            live = [(k, i, t) for k, timers in self.timers.items() for i, t in timers.items()]
            first = self._pushed + 1
            self._pushed += len(live)
            self._heap = [(t.end, first + n, k, i, t) for n, (k, i, t) in enumerate(live)]
            heapq.heapify(self._heap)

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
            self.journal.record(("detached", pos))
            self.detached[pos] = (data, timer)

    def discard(self, pos: Int3) -> None:
        """The old block's on_destruct has run: its detached data is gone for good."""
        self.detached.pop(pos, None)

    # -- transactions (the journal is the world's: `world.voxels.journal`)
    # -----------------------------

    def begin(self) -> None:
        """An action starts: keep detached data for on_destruct."""
        self.deferring = True

    def undo(self, entry: Entry) -> bool:
        """Replay one of this store's undo entries (`world.voxels.journal`); False for another
        kind."""
        kind = entry[0]
        if kind == "data":
            self._put(entry[1], entry[2], entry[3])
        elif kind == "timer":
            self._put_timer(entry[1], entry[2], entry[3])
        elif kind == "detached":
            self.detached.pop(entry[1], None)
        else:
            return False
        return True

    def commit(self) -> None:
        """The action is over: forget any data still detached."""
        self.deferring = False
        self.detached.clear()

    # -- time -------------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """World time passes (the game calls it each frame)."""
        if not 0.0 <= seconds < math.inf:
            raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
        self.clock += seconds

    def due(
        self, loaded: Container[ChunkKey] | None = None, limit: int | None = None
    ) -> list[tuple[Int3, float]]:
        """Timers that ran out, as (position, elapsed seconds), oldest end first; removed.

        Only chunks in `loaded` count (all when None): the others' timers wait. At most
        `limit` (all when None): the rest stay due, for the next call. Cost: nothing per
        running timer; a timer's end is looked at once (a heap), and a due timer in a chunk
        not loaded is looked at again by every call until its chunk loads or goes.
        """
        found: list[tuple[Int3, float]] = []
        waiting: list[tuple[float, int, ChunkKey, int, Timer]] = []
        heap = self._heap
        while heap and heap[0][0] <= self.clock and (limit is None or len(found) < limit):
            entry = heapq.heappop(heap)
            _, _, key, index, timer = entry
            if self.timers.get(key, {}).get(index) is not timer:
                continue  # restarted, stopped or gone since
            if loaded is not None and key not in loaded:
                waiting.append(entry)
                continue
            self._put_timer(key, index, None)
            found.append((Int3(*voxel_at(key, index)), self.clock - timer.start))
        for entry in waiting:
            heapq.heappush(heap, entry)
        return found

    # -- saving -----------------------------------------------------------------------------

    def chunk_rows(self, key: ChunkKey) -> dict[str, Any] | None:
        """A chunk's data and timers as JSON-ready values, or None when it holds none."""
        data = self.chunks.get(key)
        timers = self.timers.get(key)
        liquids = self.liquids.chunk_rows(key)
        if not data and not timers and liquids is None:
            return None
        rows: dict[str, Any] = {
            "data": {
                str(i): {k: _encode(v) for k, v in entries.items()}
                for i, entries in (data or {}).items()
            },
            "timers": {str(i): [t.start, t.seconds] for i, t in (timers or {}).items()},
        }
        if liquids is not None:
            rows["liquids"] = liquids
        return rows

    def restore_chunk(self, key: ChunkKey, rows: object) -> None:
        """Load a chunk's data and timers from `chunk_rows` output, replacing what is held.

        Raises
        ------
        ValueError
            Naming the voxel (its index in the chunk) and the key when anything is not what
            `chunk_rows` writes: not objects, unknown fields, a value that is not str, int,
            float or bytes, a voxel over `MAX_DATA_BYTES`, a timer that is not
            ``[start >= 0, seconds in (0, MAX_TIMER_SECONDS]]``. Nothing is loaded then.
        """
        if not isinstance(rows, dict) or not set(rows) <= {"data", "timers", "liquids"}:
            raise ValueError('block data must be an object with "data", "timers" and "liquids"')
        raw_data, raw_timers = rows.get("data", {}), rows.get("timers", {})
        if not isinstance(raw_data, dict) or not isinstance(raw_timers, dict):
            raise ValueError('block data\'s "data" and "timers" must be objects')
        data: dict[int, dict[str, Value]] = {}
        for raw_index, entries in raw_data.items():
            index = saved_voxel_index(raw_index, "block data")
            if not isinstance(entries, dict) or not entries:
                raise ValueError(f"block data of voxel {index} must be a non-empty object")
            decoded: dict[str, Value] = {}
            for name, raw in entries.items():
                value = _decode(raw, index, name)
                try:
                    _check(name, value)
                except ValueError as exc:
                    raise ValueError(f"voxel {index}: {exc}") from None
                decoded[name] = value
            if _total(decoded) > MAX_DATA_BYTES:
                raise ValueError(f"block data of voxel {index} is over {MAX_DATA_BYTES} bytes")
            data[index] = decoded
        timers: dict[int, Timer] = {}
        for raw_index, pair in raw_timers.items():
            index = saved_voxel_index(raw_index, "block data")
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError(f"timer of voxel {index} must be [start, seconds]")
            start = _finite(pair[0], f"timer of voxel {index}: start")
            if start < 0:
                raise ValueError(f"timer of voxel {index}: start must be >= 0, got {start!r}")
            timers[index] = Timer(start, timer_seconds(pair[1], f"timer of voxel {index}"))
        self.liquids.restore_chunk(key, rows.get("liquids"))  # checked whole before any change
        self.forget_chunk(key, liquids=False)
        if data:
            self.chunks[key] = data
        if timers:
            self.timers[key] = timers
            self._running += len(timers)
            for index, timer in timers.items():
                self._push(key, index, timer)

    def forget_chunk(self, key: ChunkKey, *, liquids: bool = True) -> None:
        """A chunk was unloaded (it holds no unsaved change): drop its data from memory."""
        if liquids:
            self.liquids.forget_chunk(key)
        self.chunks.pop(key, None)
        self._running -= len(self.timers.pop(key, {}))


class VoxelData(MutableMapping[str, Value]):
    """``world.meta(pos)``: one voxel's data as a mutable mapping.

    Parameters
    ----------
    store : BlockData
        Where it is read.
    pos : Int3
    writer : callable or None
        ``writer(pos, name, value or None)`` makes a write (the world's: it checks the voxel
        and marks its chunk); None: read-only (a ``can_*`` hook only decides).
    """

    def __init__(
        self,
        store: BlockData,
        pos: Int3,
        writer: Callable[[Int3, str, Value | None], None] | None = None,
    ) -> None:
        self._store = store
        self._pos = pos
        self._writer = writer

    def __getitem__(self, name: str) -> Value:
        return self._store.get(self._pos)[name]

    def __setitem__(self, name: str, value: Value) -> None:
        if value is None:
            raise ValueError(f"block data {name!r} cannot be None: delete the key instead")
        self._writable()(self._pos, name, value)

    def __delitem__(self, name: str) -> None:
        writer = self._writable()
        if name not in self._store.get(self._pos):
            raise KeyError(name)
        writer(self._pos, name, None)

    def _writable(self) -> Callable[[Int3, str, Value | None], None]:
        if self._writer is None:
            raise RuntimeError("block data cannot be changed here (a can_* hook only decides)")
        return self._writer

    def __iter__(self) -> Iterator[str]:
        return iter(self._store.get(self._pos))

    def __len__(self) -> int:
        return len(self._store.get(self._pos))

    def __repr__(self) -> str:
        return f"VoxelData({tuple(self._pos)}, {self._store.get(self._pos)!r})"


def timer_seconds(value: object, name: str) -> float:
    """A timer's length: a finite number in (0, `MAX_TIMER_SECONDS`], else a `ValueError`
    naming ``name``."""
    seconds = _finite(value, name)
    if not 0.0 < seconds <= MAX_TIMER_SECONDS:
        raise ValueError(f"{name} must be in (0, {MAX_TIMER_SECONDS:g}] seconds, got {value!r}")
    return seconds


def _finite(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number


def _total(data: dict[str, Value]) -> int:
    return sum(_size(k, v) for k, v in data.items())


def _encode(value: Value) -> object:
    if isinstance(value, bytes):
        return {"b64": base64.b64encode(value).decode()}
    return value


def _decode(value: object, index: int, name: object) -> Value:
    if isinstance(value, dict):
        raw = value.get("b64") if set(value) == {"b64"} else None
        if not isinstance(raw, str) or len(raw) > 2 * MAX_DATA_BYTES:
            raise ValueError(f"block data {name!r} of voxel {index} is not base64 bytes")
        try:
            return base64.b64decode(raw, validate=True)
        except ValueError:
            raise ValueError(f"block data {name!r} of voxel {index} is not base64 bytes") from None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        shown = type(value).__name__
        raise ValueError(
            f"block data {name!r} of voxel {index} is {shown}, not str, int, float or bytes"
        )
    return value
