"""One save file held open: its lock, its connection, its name table, its chunk, data and entity
rows.

Contract
--------
- `SaveFile(path, read_only=...)` refuses, before anything opens the file, a path that is not a
  regular file (a FIFO would block the open forever) and, for writing, a write-protected file;
  creates a missing file (for writing); takes the one-writer lock (`world.save.lock`: a second
  writer gets `WorldLocked`); validates the file through a read-only probe
  (`world.save.format.probe_file`), so a refused file stays byte-identical; and only then
  connects.
- A read-only store that holds the shared lock (no writer can start) reads alone and creates,
  changes or removes no file next to the world, whatever a killed game left there
  (`world.save.format`). One that a writer kept out reads beside it; if that writer closed
  while the file was being probed, the store takes the shared lock then and reads alone.
- `SaveFile._check_lock`, called by every save before it writes: a store whose lock file was
  removed or replaced (`world.save.lock.FileLock.check`) raises `SaveError` saying so and turns
  read-only for the rest of the run, as for a corrupt row.
- Chunk rows are decoded (`world.save.codec`) and checked when read: a corrupt row, an id beyond
  the name table (re-read first, in case another connection added names) or a key outside the
  world limit raises `SaveError` naming the file and the chunk, and turns the file read-only for
  the rest of the run, so a run that found damage never overwrites it. A chunk's block data and
  entities rows are read and checked likewise, with the chunk (`world.save.saved_chunks`).
- A table a later schema added is looked for by the file's version, read again while it is
  lower (`SaveFile._holds`): a worker process's store opened beside the game sees a table the
  game's first save of some block data or entities added.
- `world.save.storage.WorldStore` builds on it: worlds in memory, load and save.

Threads: the connection is guarded by a re-entrant lock; every method takes it. A batch read
(`SaveFile._read_chunks`, one query for a group of chunks) holds it only for the query: its rows
are decompressed outside it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Self

import numpy as np
from numpy.typing import NDArray

import world.validate as validate
from world.blocks.registry import BlockRegistry
from world.geometry import Int3
from world.items.inventory import ItemStack, stacks_from_data
from world.save.codec import (
    CHUNK_KEY_RANGE,
    chunk_key,
    decode_blob,
    decode_entities,
    turned_half,
)
from world.save.format import (
    BLOCK_DATA_SCHEMA,
    ENTITIES_SCHEMA,
    SaveError,
    connect,
    create_file,
    probe_file,
    regular_file,
)
from world.save.lock import FileLock
from world.save.meta import WorldInfo
from world.save.names import NameTable
from world.voxels.block_data import MAX_DATA_BYTES
from world.voxels.layout import CHUNK_VOLUME, ChunkKey

__all__ = ["MAX_BLOCK_DATA_ROW", "SaveFile"]

# The longest block data row read: every voxel of a chunk full (4096 × MAX_DATA_BYTES), each
# byte written at worst as a 6-character JSON escape (a control character: "\u0001"), with
# room for the JSON around each voxel and its timer; a longer one is damage, refused unparsed.
MAX_BLOCK_DATA_ROW = CHUNK_VOLUME * (6 * MAX_DATA_BYTES + 256)


class SaveFile:
    """A save file open for reading, or for writing by this store alone.

    The base of `world.save.storage.WorldStore`, whose docstring lists the parameters, the errors
    and the attributes (one public description, not two).
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._damage: str | None = None
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if self.path.exists() or self.path.is_symlink():
            regular_file(self.path)  # before anything opens it: a FIFO would block the open
        elif read_only:
            raise SaveError(self.path, "no such world file")
        else:
            create_file(self.path, WorldInfo(name=self.path.stem, seed=0, generator=None))
        if not read_only and not os.access(self.path, os.W_OK):
            raise SaveError(
                self.path,
                "is write-protected, so it cannot be saved: open it read-only (--read-only)",
            )
        self._file_lock = FileLock(self.path, write=not read_only)
        try:
            state = probe_file(self.path, alone=self._file_lock.held)
            self.info = state.info
            self.player = state.player
            self._mod_storage = state.mod_storage
            self._schema = state.schema_version
            self._bearing_yaws = state.bearing_yaws  # for the file's life (`format.ENTITY_YAW`)
            if not self._file_lock.held:
                # A writer kept this reader out. If it closed while the file was probed, its
                # -wal and -shm are gone and an ordinary reader would create them: take the
                # shared lock now and read alone.
                self._file_lock = FileLock(self.path, write=False)
            # Holding the shared lock (no writer is active) a reader reads alone: no file
            # appears or changes, and a world on read-only media opens. Without it a writer
            # may be active, and the reader reads beside it through SQLite's WAL.
            self._conn = connect(self.path, read_only=read_only, alone=self._file_lock.held)
            self._names = NameTable(self.path)
            self._names.sync(self._conn)
        except BaseException:
            self.close()
            raise

    # -- lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (checkpointing the WAL into it) and give up its lock. Idempotent."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if hasattr(self, "_file_lock"):
                self._file_lock.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise SaveError(self.path, "the world store is closed")
        return self._conn

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "read-write"
        return f"{type(self).__name__}({str(self.path)!r}, {mode})"

    @property
    def unknown_blocks(self) -> list[str]:
        """Saved block names the registry of the last `load` lacked (each a placeholder)."""
        return self._names.unknown_blocks

    # -- chunks -------------------------------------------------------------------------------

    def _damaged(self, problem: str) -> SaveError:
        # From now on this run never writes the file: it holds something we cannot read, or
        # another game may be writing it.
        self._damage = problem
        self.read_only = True
        return SaveError(self.path, problem)

    def _check_lock(self) -> None:
        """`SaveError` unless this store still holds its world's lock (read-only from then on);
        every save calls it, in its transaction, before it writes."""
        try:
            self._file_lock.check()
        except SaveError as exc:
            raise self._damaged(exc.problem) from None

    def _sync(self, conn: sqlite3.Connection) -> None:
        try:
            self._names.sync(conn)
        except SaveError as exc:
            raise self._damaged(exc.problem) from None

    def _decode(self, key: ChunkKey, fmt: object, data: object) -> NDArray[np.uint16]:
        """File-id blocks of one row, checked (`world.save.codec.decode_blob`, id range)."""
        try:
            ids = decode_blob(fmt, data)
        except ValueError as exc:
            raise self._damaged(f"chunk {key} {exc}") from None
        top = int(ids.max())
        if top >= len(self._names.names):
            with self._lock:  # (a loader thread decodes outside the lock)
                self._sync(self._live())  # another program may have added names since
        if top >= len(self._names.names):
            raise self._damaged(
                f"chunk {key} is corrupt: block id {top} is beyond the {len(self._names.names)} "
                "saved block names"
            )
        return ids

    def _read_chunk(self, key: ChunkKey, registry: BlockRegistry) -> NDArray[np.uint16] | None:
        low, high = CHUNK_KEY_RANGE
        if not all(low <= c <= high for c in key):
            return None  # outside the world limit: no save can hold it
        with self._lock:
            try:
                row = (
                    self._live()
                    .execute(
                        "SELECT format, data FROM chunks WHERE cx = ? AND cy = ? AND cz = ?", key
                    )
                    .fetchone()
                )
                if row is None:
                    return None
                ids = self._decode(key, row[0], row[1])
            except sqlite3.Error as exc:
                raise self._damaged(f"cannot read chunk {key}: {exc}") from None
            return self._names.bind(registry)[ids]

    def _holds(self, since: int) -> bool:
        """Whether the file has the tables of schema version ``since`` (lock held). Another
        connection may have moved the file up since this store read its version (the game, for
        a worker process's store): the version is read again until it is that far."""
        if self._schema >= since:
            return True
        row = self._live().execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        try:
            version = json.loads(row[0])
        except (TypeError, ValueError):
            raise self._damaged("damaged metadata: schema_version is not a number") from None
        if isinstance(version, int) and not isinstance(version, bool) and version > self._schema:
            self._schema = version  # only ever up: a save moves a file up, never down
        return self._schema >= since

    def _read_block_data(self, key: ChunkKey) -> object | None:
        """The chunk's saved per-voxel data and timers (JSON), or None when it has none."""
        with self._lock:
            conn = self._live()
            try:
                if not self._holds(BLOCK_DATA_SCHEMA):
                    return None
                row = conn.execute(
                    "SELECT data FROM block_data WHERE cx = ? AND cy = ? AND cz = ?", key
                ).fetchone()
            except sqlite3.Error as exc:
                raise self._damaged(f"cannot read the block data of chunk {key}: {exc}") from None
        if row is None:
            return None
        text = row[0]
        if not isinstance(text, str | bytes) or len(text) > MAX_BLOCK_DATA_ROW:
            raise self._damaged(f"the block data of chunk {key} is not a saved data row")
        try:
            data: object = json.loads(text)
        except (TypeError, ValueError, RecursionError):  # nested past the parser's depth
            raise self._damaged(f"the block data of chunk {key} is not valid JSON") from None
        if not isinstance(data, dict):  # `null`, a number: never what a save writes
            raise self._damaged(f"the block data of chunk {key} is not a JSON object")
        return data

    def _dropped(self) -> list[tuple[Int3, ItemStack]]:
        """The stacks lying in the world that a save from before entities kept in its ``dropped``
        metadata (``[[x, y, z, item, count], ...]``); none in any other file. `WorldStore.load`
        turns them into item entities, and the next save deletes the key."""
        with self._lock:
            row = self._live().execute("SELECT value FROM meta WHERE key = 'dropped'").fetchone()
        if row is None:
            return []
        try:
            rows = json.loads(row[0])
            if not isinstance(rows, list):  # as long as a save wrote it: no count is refused
                raise ValueError("not a list of stacks")
            dropped = []
            for entry in rows:
                if not isinstance(entry, list) or len(entry) != 5:
                    raise ValueError(f"{entry!r} is not [x, y, z, item, count]")
                pos = validate.position(entry[:3], "position")
                [stack] = stacks_from_data([entry[3:]], 1, "dropped stack")
                if stack is not None:
                    dropped.append((pos, stack))
        except (TypeError, ValueError, RecursionError) as exc:
            raise self._damaged(f"damaged metadata: the dropped stacks: {exc}") from None
        return dropped

    def _read_entities(self, keys: list[ChunkKey]) -> dict[ChunkKey, list[dict[str, object]]]:
        """The saved entities of the chunks among ``keys`` that hold some, in ONE query, each
        row decoded and checked (`world.save.codec.decode_entities`: a damaged row raises
        `SaveError` naming the chunk); none in a file from before entities were saved."""
        wanted, query, flat = _rows_of(keys, "entities", "data")
        if not wanted:
            return {}
        with self._lock:
            try:
                if not self._holds(ENTITIES_SCHEMA):
                    return {}
                rows = self._live().execute(query, flat).fetchall()
            except sqlite3.Error as exc:
                raise self._damaged(
                    f"cannot read the entities of chunks {wanted[0]}..: {exc}"
                ) from None
        found = {}
        for cx, cy, cz, text in rows:
            key = (int(cx), int(cy), int(cz))
            try:
                found[key] = decode_entities(text, key)
                if self._bearing_yaws:  # a file from before Minecraft's yaw: its bearings
                    for record in found[key]:
                        record["yaw"] = turned_half(record["yaw"])
            except ValueError as exc:
                raise self._damaged(f"the entities of chunk {key} are damaged: {exc}") from None
        return found

    def _world_time(self) -> float:
        """The saved world time (timers count it), 0 in a file from before it was saved."""
        with self._lock:
            row = self._live().execute("SELECT value FROM meta WHERE key = 'world_time'").fetchone()
        try:
            value = 0.0 if row is None else float(json.loads(row[0]))
        except (TypeError, ValueError):
            raise self._damaged("damaged metadata: world_time is not a number") from None
        if not 0.0 <= value < float("inf"):
            raise self._damaged(f"damaged metadata: world_time is {value!r}")
        return value

    def _read_chunks(
        self, keys: list[ChunkKey], registry: BlockRegistry
    ) -> dict[ChunkKey, NDArray[np.uint16]]:
        """The saved chunks among ``keys``, in ONE query (keys with no row are left out).

        A batch of a loader thread: SQLite looks each key up by the primary key; the rows are
        fetched under the connection's lock, then decoded (zlib releases the GIL) outside it,
        so a save on the main thread waits for one query, not for the decompression.
        """
        wanted, query, flat = _rows_of(keys, "chunks", "format, data")
        if not wanted:
            return {}
        with self._lock:
            try:
                rows = self._live().execute(query, flat).fetchall()
            except sqlite3.Error as exc:
                raise self._damaged(f"cannot read chunks {wanted[0]}..: {exc}") from None
        found = {}
        for cx, cy, cz, fmt, data in rows:
            key = (int(cx), int(cy), int(cz))
            found[key] = self._decode(key, fmt, data)
        with self._lock:
            to_registry = self._names.bind(registry)
        return {key: to_registry[ids] for key, ids in found.items()}

    def _keys(self, rows: list[tuple[object, ...]]) -> list[ChunkKey]:
        try:
            return [chunk_key(*row[:3]) for row in rows]
        except ValueError as exc:
            raise self._damaged(str(exc)) from None

    def chunk_keys(self) -> Iterator[ChunkKey]:
        """Coordinates of every saved chunk row (`SaveError` for a key outside the world)."""
        with self._lock:
            rows = self._live().execute("SELECT cx, cy, cz FROM chunks").fetchall()
        return iter(self._keys(rows))

    def chunk_count(self) -> int:
        """Number of saved chunk rows."""
        with self._lock:
            return int(self._live().execute("SELECT count(*) FROM chunks").fetchone()[0])

    def verify(self) -> None:
        """Check the whole file: SQLite integrity and every chunk row; `SaveError` on a problem."""
        with self._lock:
            conn = self._live()
            try:
                problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
                if problems != ["ok"]:
                    raise self._damaged(f"the SQLite database is damaged: {'; '.join(problems)}")
                for row in conn.execute("SELECT cx, cy, cz, format, data FROM chunks"):
                    (key,) = self._keys([row])
                    self._decode(key, row[3], row[4])
            except sqlite3.Error as exc:
                raise self._damaged(f"the SQLite database is damaged: {exc}") from None


def _rows_of(
    keys: list[ChunkKey], table: str, columns: str
) -> tuple[list[ChunkKey], str, list[int]]:
    """The keys among ``keys`` a save can hold, and ONE query for their rows of ``table``
    (``cx, cy, cz`` then ``columns``; SQLite looks each key up by the primary key) with its
    parameters."""
    low, high = CHUNK_KEY_RANGE
    wanted = [key for key in keys if all(low <= c <= high for c in key)]
    values = ",".join("(?,?,?)" for _ in wanted)
    query = (
        f"WITH k(x, y, z) AS (VALUES {values}) SELECT cx, cy, cz, {columns} "
        f"FROM k CROSS JOIN {table} ON cx = k.x AND cy = k.y AND cz = k.z"
    )
    return wanted, query, [c for key in wanted for c in key]
