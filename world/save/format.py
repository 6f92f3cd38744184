"""The world save file's format: its schema, metadata values, validation and creation.

Everything `world.save.storage.WorldStore` needs to know about the bytes of a file, and nothing
about worlds in memory: the SQLite schema and the meta keys, `SaveError`, the `PlayerState` and
`WorldInfo` values kept in the meta table (`world.save.meta`), the connection a store keeps,
the read-only probe that validates a file before anything may write to it, and the creation of
a new file. ``docs/save-format.md`` documents the format for people.

Contract
--------
- Reading creates, changes and removes no file next to the world when the caller keeps writers
  out (``alone``: the store holds its lock, `world.save.lock`): with no ``-wal`` file the file
  is read as immutable; with one (left by a game killed before it folded the WAL back, even in
  the middle of closing) its committed pages are read with SQLite's WAL index in private
  memory rather than in a ``-shm`` file. Beside a writer it reads as an ordinary SQLite
  reader, through the writer's ``-wal`` and ``-shm``.
- The ``-wal`` file is looked at once per connection (a writer closing deletes it between any
  two looks): one that is gone counts as absent, one that cannot be looked at is a `SaveError`
  naming it.
- `create_file` builds the file under a temporary name and links it in place, never over a
  file; it first removes every leftover of an earlier creation of the same path whose process
  is gone: the temporary, and SQLite's ``-journal``, ``-wal`` and ``-shm`` beside it.

One piece: validating, opening and creating a file share the rules of SQLite's side files (the
``-wal`` looked at once, the read mode a lock allows, a creation's ``-journal``); the opening of
connections (some 70 lines) is the part to move into a module of its own if this one grows.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from world.blocks.block_type import AIR, MAX_BLOCKS
from world.blocks.registry import BlockRegistry
from world.save.codec import decode_mod_rows
from world.save.meta import PlayerState, WorldInfo
from world.voxels.layout import ChunkGenerator
from world.voxels.mod_storage import ModStorage, Value

__all__ = [
    "APPLICATION_ID",
    "BLOCK_DATA_SCHEMA",
    "BLOCK_DATA_TABLE",
    "ENTITIES_SCHEMA",
    "ENTITIES_TABLE",
    "ENTITY_YAW",
    "FORMAT_NAME",
    "MOD_STORAGE_SCHEMA",
    "MOD_STORAGE_TABLE",
    "PLACEHOLDER_GROUP",
    "SCHEMA_VERSION",
    "UPSERT_CHUNK",
    "UPSERT_META",
    "FileState",
    "GeneratorFactory",
    "SaveError",
    "connect",
    "create_file",
    "placeholder_name",
    "probe_file",
    "read_mod_storage",
    "read_names",
    "regular_file",
    "remove_stale_temporaries",
    "tables_up_to",
]

# 1: meta, block_names, chunks. 2: + mod_storage (a version 1 file opens as it is; the first
# save that writes mod storage adds the table and moves it to version 2). 3: + block_data, the
# per-voxel data and timers of each chunk (likewise added by the first save that writes some).
# 4: + entities, the entities standing in each chunk (likewise), which replace the ``dropped``
# metadata of the stacks lying in the world (read once, as entities, and deleted by a save).
SCHEMA_VERSION: Final = 4
# The metadata key and value of a file whose entities' yaws are Minecraft's (0 south, 90 west),
# as every file made since the world's frame became Minecraft's holds. An older file has none:
# its entities' yaws are compass bearings (0 north, 90 east), Minecraft's yaw + 180, and stay so
# for the file's life (`world.save.codec.turn_entities`, on reading and on writing its rows), so
# every reader of one file, in any process, reads its rows one way.
ENTITY_YAW: Final = ("entity_yaw", "minecraft")
FORMAT_NAME: Final = "blockpick-world"
# Written into the SQLite header (offset 68) so tools and this module recognise the file; "BPKW".
APPLICATION_ID: Final = 0x42504B57
PLACEHOLDER_GROUP: Final = "unknown"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"

# SQLite's side files of a database: what a killed creation may leave beside its temporary.
_SIDE_SUFFIXES: Final = ("-journal", "-wal", "-shm")
# SQLite's unix VFS without file locks and without shared memory: a WAL reader on it must set
# locking_mode=EXCLUSIVE before its first read, and then keeps the WAL index in its own heap
# memory rather than in a -shm file. Right only while no writer can be active (``alone``).
_PRIVATE_WAL_VFS: Final = "unix-none"

_log = logging.getLogger(__name__)

GeneratorFactory = Callable[[str, int, BlockRegistry], ChunkGenerator]
"""Rebuilds a chunk generator from its name and seed (``world.gen.generators.make_generator``)."""

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
    "CREATE TABLE block_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    "CREATE TABLE chunks (cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL, "
    "format INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (cx, cy, cz))",
)
MOD_STORAGE_SCHEMA: Final = 2  # the first schema version with the mod_storage table
MOD_STORAGE_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS mod_storage (mod TEXT NOT NULL, key TEXT NOT NULL, "
    "kind TEXT NOT NULL, value NOT NULL, PRIMARY KEY (mod, key)) WITHOUT ROWID"
)
BLOCK_DATA_SCHEMA: Final = 3  # the first schema version with the block_data table
BLOCK_DATA_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS block_data (cx INTEGER NOT NULL, cy INTEGER NOT NULL, "
    "cz INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (cx, cy, cz)) WITHOUT ROWID"
)
ENTITIES_SCHEMA: Final = 4  # the first schema version with the entities table
ENTITIES_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS entities (cx INTEGER NOT NULL, cy INTEGER NOT NULL, "
    "cz INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (cx, cy, cz)) WITHOUT ROWID"
)
_ADDED_TABLES = (
    (MOD_STORAGE_SCHEMA, "mod_storage", MOD_STORAGE_TABLE),
    (BLOCK_DATA_SCHEMA, "block_data", BLOCK_DATA_TABLE),
    (ENTITIES_SCHEMA, "entities", ENTITIES_TABLE),
)
_META_KEYS = (
    "format",
    "schema_version",
    "name",
    "seed",
    "generator",
    "build_height",
    "game_mode",
    "created",
    "last_played",
    "player",
)
UPSERT_CHUNK = (
    "INSERT INTO chunks (cx, cy, cz, format, data) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (cx, cy, cz) DO UPDATE SET format = excluded.format, data = excluded.data"
)
UPSERT_META = (
    "INSERT INTO meta (key, value) VALUES (?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


def tables_up_to(version: int) -> list[str]:
    """The statements creating (if missing) every table added after version 1 up to ``version``:
    what a save that moves an older file up to ``version`` runs in its transaction."""
    return [statement for since, _, statement in _ADDED_TABLES if since <= version]


class SaveError(Exception):
    """A world file that cannot be used as it is; the message names the file and the problem.

    Attributes
    ----------
    path : Path
        The world file.
    problem : str
        What is wrong, in words a player can act on.
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def placeholder_name(original: str) -> str:
    """The block name a missing block loads as: ``"mymod:ruby"`` -> ``"unknown:mymod_ruby"``."""
    flat = re.sub(r"[^a-z0-9_]", "_", original.lower().replace(":", "_", 1))
    return f"unknown:{flat or 'block'}"


# -- file probing ----------------------------------------------------------------------------


def _wal_size(path: Path) -> int | None:
    """The size of the world file's ``-wal`` file, ``None`` when there is none.

    One look (a writer closing deletes its ``-wal`` between any two): a file gone counts as
    absent; one that cannot be looked at (a loop of links, no permission) is a `SaveError`
    naming it.
    """
    wal = Path(f"{path}-wal")
    try:
        return os.stat(wal).st_size
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise SaveError(path, f"cannot read its {wal.name} file: {exc.strerror or exc}") from None


_ReadMode = Literal["immutable", "private_wal", "beside_writer"]


def _read_mode(wal: int | None, *, alone: bool) -> _ReadMode:
    if not alone:
        return "beside_writer"
    # immutable reads the main file only: exact when no -wal file holds committed pages.
    return "immutable" if wal is None else "private_wal"


def _open_read_only(path: Path, mode: _ReadMode) -> sqlite3.Connection:
    """A read-only connection; "immutable" and "private_wal" create and change no file."""
    if mode == "private_wal" and os.name != "posix":
        mode = "beside_writer"  # no lock-free VFS of that name here: an ordinary reader
    query = {
        "immutable": "immutable=1",
        "private_wal": f"mode=ro&vfs={_PRIVATE_WAL_VFS}",
        "beside_writer": "mode=ro",
    }[mode]
    uri = f"{path.resolve().as_uri()}?{query}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    if mode == "private_wal":
        try:
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")  # before the first read: no -shm
        except BaseException:
            conn.close()
            raise
    return conn


def connect(path: Path, *, read_only: bool, alone: bool = False) -> sqlite3.Connection:
    """The connection a store keeps: WAL and synced commits for writing, or read-only.

    ``alone`` (read-only only): no writer can be active while the connection lives (the store
    holds the shared lock), so it reads without creating or changing any file next to the
    world (module notes); otherwise it is an ordinary SQLite reader beside the writer.
    """
    if read_only:
        try:
            return _open_read_only(path, _read_mode(_wal_size(path), alone=alone))
        except sqlite3.Error as exc:
            raise SaveError(path, f"cannot open the SQLite database: {exc}") from None
    # mode=rw: a file deleted since the probe is an error, not a new empty database.
    uri = f"{path.resolve().as_uri()}?mode=rw"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        # FULL syncs the WAL at each commit: a save that returned survives a power cut.
        conn.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error as exc:
        raise SaveError(path, f"cannot open for writing: {exc} (open it read-only?)") from None
    return conn


def _check_header(path: Path, *, wal_pending: bool) -> None:
    """Cheap checks on the raw bytes: SQLite magic, and a file not shorter than its header says.

    With committed pages still in the -wal file the size check is skipped: a checkpoint killed
    midway legitimately leaves page 1 (with the new page count) written before the pages that
    grow the file, and SQLite finishes it from the WAL on the next open.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    if size == 0:
        raise SaveError(path, "the file is empty: it is not a Blockpick world save")
    if not header.startswith(SQLITE_MAGIC):
        raise SaveError(path, "not an SQLite database, so not a Blockpick world save")
    if len(header) < 100:
        raise SaveError(path, f"truncated: {size} bytes, shorter than an SQLite header")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The in-header page count is valid only when the change counter matches version-valid-for.
    valid = header[24:28] == header[92:96]
    if valid and pages and not wal_pending and size < pages * page_size:
        raise SaveError(
            path, f"truncated: its header promises {pages * page_size} bytes, it holds {size}"
        )


def _json_meta(path: Path, rows: list[tuple[object, object]]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, value in rows:
        if not isinstance(key, str) or not isinstance(value, str):
            raise SaveError(path, f"damaged metadata: row {key!r} is not text")
        try:
            meta[key] = json.loads(value)
        except ValueError:
            raise SaveError(path, f"damaged metadata: {key!r} is not valid JSON") from None
    return meta


def _parse_meta(
    path: Path, meta: dict[str, Any]
) -> tuple[WorldInfo, PlayerState | None, int, bool]:
    """Schema version first (a newer file may lay out the rest differently), then the rest."""
    if meta.get("format") != FORMAT_NAME:
        raise SaveError(path, "an SQLite database, but not a Blockpick world save")
    version = meta.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveError(path, f"damaged metadata: schema_version is {version!r}")
    if version > SCHEMA_VERSION:
        raise SaveError(
            path,
            f"saved by a newer Blockpick (schema version {version}; this version reads up to "
            f"{SCHEMA_VERSION}): update Blockpick to open it",
        )
    marker, minecraft = ENTITY_YAW
    if meta.get(marker, minecraft) != minecraft:
        raise SaveError(path, f"damaged metadata: {marker} is {meta[marker]!r}, not {minecraft!r}")
    missing = [key for key in _META_KEYS if key not in meta]
    if missing:
        raise SaveError(path, f"damaged metadata: missing {', '.join(missing)}")
    try:
        height = meta["build_height"]
        info = WorldInfo(
            name=meta["name"],
            seed=meta["seed"],
            generator=meta["generator"],
            build_height=tuple(height) if isinstance(height, list) else height,
            game_mode=meta["game_mode"],
            created=meta["created"],
            last_played=meta["last_played"],
        )
        player = None if meta["player"] is None else PlayerState.from_dict(meta["player"])
    except (ValueError, TypeError) as exc:
        raise SaveError(path, f"damaged metadata: {exc}") from None
    return info, player, version, marker not in meta


def read_names(path: Path, conn: sqlite3.Connection) -> list[str]:
    """The block name table, checked: dense ids from 0, id 0 is air, at most `MAX_BLOCKS`."""
    rows = conn.execute("SELECT id, name FROM block_names ORDER BY id").fetchall()
    names: list[str] = []
    for expected, (block_id, name) in enumerate(rows):
        if block_id != expected or not isinstance(name, str) or not name:
            raise SaveError(
                path, f"damaged block name table at id {expected}: {block_id}, {name!r}"
            )
        if (name == "air") != (block_id == AIR):
            # Every row is written in file ids: air anywhere but 0 would turn air into a block.
            raise SaveError(
                path, f"damaged block name table: id {block_id} is {name!r}, id 0 must be air"
            )
        names.append(name)
    if not names:
        raise SaveError(path, "damaged block name table: it is empty, id 0 must be air")
    if len(names) > MAX_BLOCKS:
        raise SaveError(path, f"damaged block name table: {len(names)} names, ids are uint16")
    return names


def read_mod_storage(path: Path, conn: sqlite3.Connection) -> dict[str, dict[str, Value]]:
    """The mod_storage table, checked like `world.voxels.mod_storage` checks what mods store."""
    try:
        data = decode_mod_rows(
            conn.execute("SELECT mod, key, kind, value FROM mod_storage ORDER BY mod, key")
        )
        ModStorage().restore(data)  # the same key and value checks as a mod's own writes
    except ValueError as exc:
        raise SaveError(path, f"damaged mod storage: {exc}") from None
    return data


@dataclass
class FileState:
    """What opening a file found: metadata, the block name table, mod storage, the schema."""

    info: WorldInfo
    player: PlayerState | None
    names: list[str]
    mod_storage: dict[str, dict[str, Value]]
    schema_version: int
    bearing_yaws: bool = False
    """Whether its entities' yaws are compass bearings (a file from before `ENTITY_YAW`)."""


def regular_file(path: Path) -> None:
    """`SaveError` unless `path` is a regular file (a FIFO would hang the open, a folder fail)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise SaveError(path, f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise SaveError(path, "is a folder, not a world file")
    if not stat.S_ISREG(mode):
        raise SaveError(path, "is not a regular file (a pipe or a device?), so not a world file")


def probe_file(path: Path, *, alone: bool = False) -> FileState:
    """Validate a world file through a read-only connection; never changes the file.

    ``alone`` as `connect`'s: no writer can be active, so a ``-wal`` file is read without a
    ``-shm`` file. With no ``-wal`` file the probe, brief, reads the file as immutable either
    way (as it always did: a writer just starting has committed nothing yet).
    """
    regular_file(path)
    wal = _wal_size(path)
    _check_header(path, wal_pending=bool(wal))
    mode: _ReadMode = "immutable" if wal is None else _read_mode(wal, alone=alone)
    try:
        conn = _open_read_only(path, mode)
    except sqlite3.Error as exc:
        raise SaveError(path, f"cannot open the SQLite database: {exc}") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id != APPLICATION_ID or "meta" not in tables:
            raise SaveError(path, "an SQLite database, but not a Blockpick world save")
        meta = _json_meta(path, conn.execute("SELECT key, value FROM meta").fetchall())
        info, player, version, bearings = _parse_meta(path, meta)
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise SaveError(path, f"the SQLite database is damaged: {'; '.join(problems)}")
        if not {"block_names", "chunks"} <= tables:
            raise SaveError(path, "damaged: the block_names or chunks table is missing")
        names = read_names(path, conn)
        for since, table, _ in _ADDED_TABLES:
            if version >= since and table not in tables:
                raise SaveError(path, f"damaged: schema {version} has no {table} table")
        mods = read_mod_storage(path, conn) if "mod_storage" in tables else {}
    except sqlite3.Error as exc:
        raise SaveError(path, f"the SQLite database is damaged: {exc}") from None
    finally:
        conn.close()
    return FileState(info, player, names, mods, version, bearings)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or a number no process has): leave its files
    return True


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Delete what an interrupted `create_file` of ``path`` left: ``.NAME.PID.HEX.tmp`` files
    and SQLite's ``-journal``, ``-wal`` and ``-shm`` beside them, whose process is gone;
    returns them. Live PIDs are kept.
    """
    removed: list[Path] = []
    sides = "|".join(re.escape(suffix) for suffix in _SIDE_SUFFIXES)
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(\d+)\.[0-9a-f]+\.tmp({sides})?")
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for leftover in candidates:
        match = pattern.fullmatch(leftover.name)
        if match is None or _process_alive(int(match.group(1))):
            continue
        try:
            leftover.unlink()
        except OSError:
            continue
        removed.append(leftover)
    return removed


def create_file(path: Path, info: WorldInfo) -> None:
    """Build a new save beside `path`, then link it in place: never half a file, never over one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path, f"cannot create its folder: {exc.strerror or exc}") from None
    remove_stale_temporaries(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    meta: dict[str, object] = {
        "format": FORMAT_NAME,
        "schema_version": SCHEMA_VERSION,
        "name": info.name,
        "seed": info.seed,
        "generator": info.generator,
        "build_height": list(info.build_height),
        "game_mode": info.game_mode,
        "created": info.created,
        "last_played": info.last_played,
        "player": None,
        ENTITY_YAW[0]: ENTITY_YAW[1],
    }
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("BEGIN")
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for statement in (*_SCHEMA, *tables_up_to(SCHEMA_VERSION)):
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in meta.items()],
            )
            conn.execute("INSERT INTO block_names (id, name) VALUES (?, ?)", (AIR, "air"))
            conn.execute("COMMIT")
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise SaveError(path, "already exists: a new world is never written over it") from None
        except OSError:
            # Filesystems without hard links: a plain rename after the existence check.
            if path.exists():
                raise SaveError(
                    path, "already exists: a new world is never written over it"
                ) from None
            os.replace(tmp, path)
    except (sqlite3.Error, OSError) as exc:
        raise SaveError(path, f"cannot create the world file: {exc}") from None
    finally:
        for leftover in (tmp, *(Path(f"{tmp}{suffix}") for suffix in _SIDE_SUFFIXES)):
            leftover.unlink(missing_ok=True)
