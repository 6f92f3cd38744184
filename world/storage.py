"""World saves in one SQLite file: chunks that never lose a block, and the world's metadata.

Contract
--------
- `WorldStore` opens (or creates) one SQLite file per world. `WorldStore.save` writes the chunks
  in ``world.modified`` and the metadata in ONE transaction (WAL journal), then clears those
  flags: a crash or SIGKILL at any moment leaves the previous save whole, and a chunk row is
  always one save's version of that chunk, never a mix.
- `WorldStore.load` returns a `World` whose chunks load lazily on first read: a saved chunk comes
  from its row, a chunk never saved is generated again from the seed by the named generator.
- Block ids are written in the file's own id space, a name→id table that only ever grows, so
  rows written years apart stay valid and a save survives any change of registration order. A
  saved name the registry lacks loads as a placeholder block ``"unknown:<mod>_<name>"``
  (solid, pointable, missing texture), is reported once, and is saved back under its original
  name.
- Nothing is ever unpickled or evaluated: chunk rows are zlib-compressed little-endian uint16
  ids, metadata values are JSON. Any problem with a file (not SQLite, SQLite but not a Blockpick
  save, a newer schema, a damaged database, a corrupt row) raises `SaveError` naming the file and
  the problem. Opening validates through a read-only connection before anything may write, so a
  file that fails to open is left byte-identical; a corrupt row found later (rows load lazily)
  turns the store read-only for the rest of the run.

The file format is documented in ``docs/save-format.md``.

Threads: one store may be used from several threads (a loader thread reading chunks while the
main thread saves); its connection is guarded by a lock.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import os
import re
import secrets
import sqlite3
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from world.blocks import AIR, MAX_BLOCKS, BlockRegistry, BlockType, default_registry
from world.chunks import CHUNK_VOLUME, DEFAULT_BUILD_HEIGHT, ChunkGenerator, ChunkKey, World

__all__ = [
    "APPLICATION_ID",
    "CHUNK_FORMAT_ZLIB",
    "FORMAT_NAME",
    "GAME_MODES",
    "SCHEMA_VERSION",
    "SEED_RANGE",
    "GeneratorFactory",
    "PlayerState",
    "SaveError",
    "WorldInfo",
    "WorldStore",
    "placeholder_name",
    "random_seed",
]

SCHEMA_VERSION: Final = 1
FORMAT_NAME: Final = "blockpick-world"
# Written into the SQLite header (offset 68) so tools and this module recognise the file; "BPKW".
APPLICATION_ID: Final = 0x42504B57
# Chunk row format 0: zlib stream of the 4096 block ids as little-endian uint16 (8192 bytes).
CHUNK_FORMAT_ZLIB: Final = 0
RAW_CHUNK_BYTES: Final = CHUNK_VOLUME * 2
# Measured on world.terrain chunks: level 6 rows are 40% smaller than level 1 (169 vs 290 bytes)
# for ~50 µs per chunk instead of 16; level 9 saves 10% more for 4× the time of level 6.
ZLIB_LEVEL: Final = 6
GAME_MODES: Final = ("survival", "creative")
PLACEHOLDER_GROUP: Final = "unknown"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
# A seed is a signed 64-bit integer, as in Minecraft, so every tool can hold it.
SEED_RANGE: Final = (-(2**63), 2**63)

_log = logging.getLogger(__name__)

GeneratorFactory = Callable[[str, int, BlockRegistry], ChunkGenerator]
"""Rebuilds a chunk generator from its name and seed (``world.terrain.make_generator``)."""

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
    "CREATE TABLE block_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    "CREATE TABLE chunks (cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL, "
    "format INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (cx, cy, cz))",
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
_UPSERT_CHUNK = (
    "INSERT INTO chunks (cx, cy, cz, format, data) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (cx, cy, cz) DO UPDATE SET format = excluded.format, data = excluded.data"
)
_UPSERT_META = (
    "INSERT INTO meta (key, value) VALUES (?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


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


def _finite(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class PlayerState:
    """The player part of a save: where the player is, where they look, what they hold.

    Parameters
    ----------
    position : (float, float, float)
        Feet position in world coordinates.
    yaw : float
        Degrees about the vertical axis.
    pitch : float
        Degrees up (+) or down (-), within [-90, 90].
    hotbar : tuple of (str or None)
        Block names per slot (names, not ids, so they survive registration changes); ``None``
        is an empty slot. The game decides what to do with a name it no longer knows.
    selected : int
        Index of the selected hotbar slot.
    flying : bool
        Whether fly mode is on.
    """

    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    yaw: float = 0.0
    pitch: float = 0.0
    hotbar: tuple[str | None, ...] = ()
    selected: int = 0
    flying: bool = False

    def __post_init__(self) -> None:
        position = tuple(self.position)
        if len(position) != 3:
            raise ValueError(f"position must hold 3 numbers, got {self.position!r}")
        xyz = tuple(_finite(v, "position") for v in position)
        object.__setattr__(self, "position", xyz)
        object.__setattr__(self, "yaw", _finite(self.yaw, "yaw"))
        pitch = _finite(self.pitch, "pitch")
        if not -90.0 <= pitch <= 90.0:
            raise ValueError(f"pitch must be within [-90, 90] degrees, got {pitch!r}")
        object.__setattr__(self, "pitch", pitch)
        hotbar = tuple(self.hotbar)
        for slot in hotbar:
            if slot is not None and not (isinstance(slot, str) and slot):
                raise ValueError(f"hotbar slots must be block names or None, got {slot!r}")
        object.__setattr__(self, "hotbar", hotbar)
        selected = self.selected
        if isinstance(selected, bool) or not isinstance(selected, int):
            raise ValueError(f"selected must be a slot index, got {selected!r}")
        if not 0 <= selected < max(len(hotbar), 1):
            raise ValueError(
                f"selected must be a slot of the hotbar of {len(hotbar)}, got {selected}"
            )
        if not isinstance(self.flying, bool):
            raise ValueError(f"flying must be a bool, got {self.flying!r}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON object stored under the ``player`` metadata key."""
        return {
            "position": list(self.position),
            "yaw": self.yaw,
            "pitch": self.pitch,
            "hotbar": list(self.hotbar),
            "selected": self.selected,
            "flying": self.flying,
        }

    @classmethod
    def from_dict(cls, data: object) -> PlayerState:
        """Rebuild from `to_dict` output; ``ValueError`` for anything else."""
        if not isinstance(data, dict):
            raise ValueError(f"player must be a JSON object, got {type(data).__name__}")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"player has unknown fields {sorted(unknown)}")
        for key in ("position", "hotbar"):
            if key in data and not isinstance(data[key], list):
                raise ValueError(f"player {key} must be a JSON array, got {data[key]!r}")
        try:
            return cls(
                position=tuple(data.get("position", (0.0, 0.0, 0.0))),
                yaw=data.get("yaw", 0.0),
                pitch=data.get("pitch", 0.0),
                hotbar=tuple(data.get("hotbar", ())),
                selected=data.get("selected", 0),
                flying=data.get("flying", False),
            )
        except TypeError as exc:
            raise ValueError(f"player: {exc}") from None


@dataclass(frozen=True)
class WorldInfo:
    """World-level metadata of a save.

    Parameters
    ----------
    name : str
        Shown in the world list.
    seed : int
        Signed 64-bit seed of the generator.
    generator : str or None
        Name of the generator that makes chunks never saved (``None``: they are air).
    build_height : (int, int)
        Players may place blocks at ``low <= wy < high``.
    game_mode : str
        ``"survival"`` or ``"creative"``.
    created, last_played : float
        Unix times in seconds.
    """

    name: str
    seed: int
    generator: str | None
    build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT
    game_mode: str = "survival"
    created: float = field(default_factory=time.time)
    last_played: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string, got {self.name!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ValueError(f"seed must be an integer, got {self.seed!r}")
        if not SEED_RANGE[0] <= self.seed < SEED_RANGE[1]:
            raise ValueError(f"seed must fit in a signed 64-bit integer, got {self.seed}")
        if self.generator is not None and not (isinstance(self.generator, str) and self.generator):
            raise ValueError(f"generator must be a generator name or None, got {self.generator!r}")
        low_high = tuple(self.build_height)
        if (
            len(low_high) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in low_high)
            or not low_high[0] < low_high[1]
        ):
            raise ValueError(
                f"build_height must be (low, high) integers, low < high, got {low_high}"
            )
        object.__setattr__(self, "build_height", low_high)
        if self.game_mode not in GAME_MODES:
            raise ValueError(f"game_mode must be one of {GAME_MODES}, got {self.game_mode!r}")
        object.__setattr__(self, "created", _finite(self.created, "created"))
        object.__setattr__(self, "last_played", _finite(self.last_played, "last_played"))


def placeholder_name(original: str) -> str:
    """The block name a missing block loads as: ``"mymod:ruby"`` -> ``"unknown:mymod_ruby"``."""
    flat = re.sub(r"[^a-z0-9_]", "_", original.lower().replace(":", "_", 1))
    return f"unknown:{flat or 'block'}"


def random_seed() -> int:
    """A fresh signed 64-bit seed."""
    return secrets.randbelow(SEED_RANGE[1] - SEED_RANGE[0]) + SEED_RANGE[0]


# -- file probing ----------------------------------------------------------------------------


def _ro_uri(path: Path, *, immutable: bool) -> str:
    # immutable=1 reads the main file without creating -wal/-shm files; it is only exact when no
    # -wal file holds committed pages, which the caller checks.
    query = "immutable=1" if immutable else "mode=ro"
    return f"{path.resolve().as_uri()}?{query}"


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


def _parse_meta(path: Path, meta: dict[str, Any]) -> tuple[WorldInfo, PlayerState | None]:
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
    return info, player


def _read_names(path: Path, conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute("SELECT id, name FROM block_names ORDER BY id").fetchall()
    names: list[str] = []
    for expected, (block_id, name) in enumerate(rows):
        if block_id != expected or not isinstance(name, str) or not name:
            raise SaveError(
                path, f"damaged block name table at id {expected}: {block_id}, {name!r}"
            )
        names.append(name)
    if len(names) > MAX_BLOCKS:
        raise SaveError(path, f"damaged block name table: {len(names)} names, ids are uint16")
    return names


@dataclass
class _FileState:
    info: WorldInfo
    player: PlayerState | None
    names: list[str]


def _probe(path: Path) -> _FileState:
    """Validate a world file through a read-only connection; never changes the file."""
    wal = Path(f"{path}-wal")
    wal_pending = wal.exists() and wal.stat().st_size > 0
    _check_header(path, wal_pending=wal_pending)
    try:
        conn = sqlite3.connect(_ro_uri(path, immutable=not wal.exists()), uri=True)
    except sqlite3.Error as exc:
        raise SaveError(path, f"cannot open the SQLite database: {exc}") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id != APPLICATION_ID or "meta" not in tables:
            raise SaveError(path, "an SQLite database, but not a Blockpick world save")
        meta = _json_meta(path, conn.execute("SELECT key, value FROM meta").fetchall())
        info, player = _parse_meta(path, meta)
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise SaveError(path, f"the SQLite database is damaged: {'; '.join(problems)}")
        if not {"block_names", "chunks"} <= tables:
            raise SaveError(path, "damaged: the block_names or chunks table is missing")
        names = _read_names(path, conn)
    except sqlite3.Error as exc:
        raise SaveError(path, f"the SQLite database is damaged: {exc}") from None
    finally:
        conn.close()
    return _FileState(info, player, names)


def _create_file(path: Path, info: WorldInfo) -> None:
    """Build a new save beside `path`, then link it in place: never half a file, never over one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path, f"cannot create its folder: {exc.strerror or exc}") from None
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
    }
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("BEGIN")
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for statement in _SCHEMA:
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
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)


# -- the store -------------------------------------------------------------------------------


class _SavedChunks:
    """A `ChunkGenerator` for a loaded world: the saved row when there is one, else the base's.

    Carries ``name`` and ``seed`` like every named generator, so a saved world records them.
    """

    def __init__(
        self,
        store: WorldStore,
        registry: BlockRegistry,
        base: ChunkGenerator | None,
        name: str | None,
        seed: int,
    ) -> None:
        self.store = store
        self.registry = registry
        self.base = base
        self.name = name
        self.seed = seed

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        blocks = self.store._read_chunk((cx, cy, cz), self.registry)
        if blocks is not None:
            return blocks
        return None if self.base is None else self.base(cx, cy, cz)


class WorldStore:
    """One world's save file: open or create it, load a lazily filled `World`, save changes.

    Parameters
    ----------
    path : str or path-like
        The SQLite file. A missing file is created (unless `read_only`) with no generator and
        seed 0; its first `save` records the world's generator. `WorldStore.create` chooses them
        up front.
    read_only : bool
        Open without ever writing (for a save the user wants to look at but not change);
        `save` then raises `SaveError`. It assumes no other program starts writing the file
        while it is open.

    Raises
    ------
    SaveError
        The file is not SQLite, is SQLite but not a Blockpick save, has a newer schema version,
        is damaged, or cannot be read or created. The file is left byte-identical.

    Attributes
    ----------
    path : Path
    read_only : bool
        True when opened read-only, or after a corrupt row was found.
    info : WorldInfo
        World metadata as last loaded or saved.
    player : PlayerState or None
        The saved player, ``None`` before the first save with a player.
    unknown_blocks : list of str
        Saved block names the registry of the last `load` lacked (each loads as a placeholder).
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.unknown_blocks: list[str] = []
        self._damage: str | None = None
        self._lock = threading.RLock()
        if self.path.is_dir():
            raise SaveError(self.path, "is a folder, not a world file")
        if not self.path.exists():
            if read_only:
                raise SaveError(self.path, "no such world file")
            _create_file(self.path, WorldInfo(name=self.path.stem, seed=0, generator=None))
        state = _probe(self.path)
        self.info = state.info
        self.player = state.player
        self._names = state.names
        self._name_ids = {name: i for i, name in enumerate(self._names)}
        self._conn: sqlite3.Connection | None = self._connect()
        # File id -> runtime id for the registry last bound (by load or save).
        self._registry: BlockRegistry | None = None
        self._to_runtime = np.zeros(0, dtype=np.uint16)

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        *,
        seed: int | None = None,
        generator: str | None = None,
        name: str | None = None,
        game_mode: str = "survival",
        build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT,
    ) -> WorldStore:
        """Create a new world file and open it; `SaveError` if the path already exists.

        Parameters
        ----------
        seed : int, optional
            Signed 64-bit seed; random when omitted.
        generator : str, optional
            Generator name for `GeneratorFactory` (``None``: chunks never saved are air).
        name : str, optional
            World name; the file name without its suffix when omitted.
        """
        target = Path(path)
        info = WorldInfo(
            name=target.stem if name is None else name,
            seed=random_seed() if seed is None else seed,
            generator=generator,
            build_height=build_height,
            game_mode=game_mode,
        )
        if target.exists():
            raise SaveError(target, "already exists: a new world is never written over it")
        _create_file(target, info)
        return cls(target)

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            # Without a -wal file (no writer is active, nothing uncommitted to replay) read the
            # file as immutable: no -wal/-shm files appear beside it, and a world on read-only
            # media opens. This assumes no other program starts writing it meanwhile.
            uri = _ro_uri(self.path, immutable=not Path(f"{self.path}-wal").exists())
        else:
            # mode=rw: a file deleted since the probe is an error, not a new empty database.
            uri = f"{self.path.resolve().as_uri()}?mode=rw"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            if not self.read_only:
                conn.execute("PRAGMA journal_mode=WAL")
                # FULL syncs the WAL at each commit: a save that returned survives a power cut.
                conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            raise SaveError(
                self.path, f"cannot open for writing: {exc} (open it read-only?)"
            ) from None
        return conn

    # -- lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the file (checkpointing the WAL into it). Idempotent."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> WorldStore:
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
        return f"WorldStore({str(self.path)!r}, {mode})"

    # -- block ids ----------------------------------------------------------------------------

    def _bind(self, registry: BlockRegistry) -> None:
        """Make the file->runtime map cover every saved name, registering placeholders."""
        if registry is not self._registry:
            self._registry = registry
            self._to_runtime = np.zeros(0, dtype=np.uint16)
            self.unknown_blocks = []
        known = len(self._to_runtime)
        if known == len(self._names):
            return
        placeholders = _PLACEHOLDERS.setdefault(registry, {})
        missing: list[str] = []
        extra = np.empty(len(self._names) - known, dtype=np.uint16)
        for i, name in enumerate(self._names[known:]):
            if name in placeholders:
                extra[i] = placeholders[name]
            elif name in registry:
                extra[i] = registry.id(name)
            else:
                extra[i] = placeholders[name] = _register_placeholder(registry, name)
            if name in placeholders:
                missing.append(name)
        self._to_runtime = np.concatenate([self._to_runtime, extra])
        if missing:
            self.unknown_blocks.extend(missing)
            _log.warning(
                "%s: %d saved block type(s) are not registered, loaded as placeholder blocks "
                "and kept under their names when saved: %s",
                self.path,
                len(missing),
                ", ".join(missing),
            )

    def _to_file_map(
        self, registry: BlockRegistry, arrays: list[NDArray[np.uint16]]
    ) -> tuple[NDArray[np.uint16], list[str]]:
        """Runtime id -> file id, and the names the file must add for the blocks being written.

        Only names that occur in `arrays` are added, so the file's table (which never shrinks)
        holds no name the world never used.
        """
        originals = {rid: name for name, rid in _PLACEHOLDERS.get(registry, {}).items()}
        saved_as = [originals.get(rid, name) for rid, name in enumerate(registry.names)]
        file_ids = [self._name_ids.get(name) for name in saved_as]
        used = np.zeros(len(saved_as), dtype=bool)
        if None in file_ids:
            for blocks in arrays:
                used[blocks] = True
        new_names: list[str] = []
        to_file = np.zeros(len(saved_as), dtype=np.uint16)
        for rid, file_id in enumerate(file_ids):
            if file_id is None:
                if not used[rid]:
                    continue  # not in any row written: it needs no file id
                file_id = len(self._names) + len(new_names)
                new_names.append(saved_as[rid])
            to_file[rid] = file_id
        if len(self._names) + len(new_names) > MAX_BLOCKS:
            raise SaveError(self.path, f"more than {MAX_BLOCKS} block names: ids are uint16")
        return to_file, new_names

    # -- chunks -------------------------------------------------------------------------------

    def _damaged(self, problem: str) -> SaveError:
        # From now on this run never writes the file: it holds something we cannot read.
        self._damage = problem
        self.read_only = True
        return SaveError(self.path, problem)

    def _decode(self, key: ChunkKey, fmt: object, data: object) -> NDArray[np.uint16]:
        """File-id blocks of one row, checked: format, zlib stream, length, id range."""
        if fmt != CHUNK_FORMAT_ZLIB:
            raise self._damaged(f"chunk {key} has unknown format {fmt!r} (a newer Blockpick?)")
        if not isinstance(data, bytes):
            raise self._damaged(f"chunk {key} data is {type(data).__name__}, not a blob")
        inflater = zlib.decompressobj()
        try:
            # The length cap stops a hostile row from inflating without bound.
            raw = inflater.decompress(data, RAW_CHUNK_BYTES + 1)
        except zlib.error as exc:
            raise self._damaged(f"chunk {key} is corrupt: zlib: {exc}") from None
        if not inflater.eof or inflater.unconsumed_tail or len(raw) != RAW_CHUNK_BYTES:
            raise self._damaged(
                f"chunk {key} is corrupt: {len(raw)} bytes of block ids, expected "
                f"{RAW_CHUNK_BYTES} in one complete zlib stream"
            )
        ids = np.frombuffer(raw, dtype="<u2")
        top = int(ids.max())
        if top >= len(self._names):
            raise self._damaged(
                f"chunk {key} is corrupt: block id {top} is beyond the {len(self._names)} "
                "saved block names"
            )
        return ids

    def _read_chunk(self, key: ChunkKey, registry: BlockRegistry) -> NDArray[np.uint16] | None:
        with self._lock:
            try:
                row = (
                    self._live()
                    .execute(
                        "SELECT format, data FROM chunks WHERE cx = ? AND cy = ? AND cz = ?", key
                    )
                    .fetchone()
                )
            except sqlite3.Error as exc:
                raise self._damaged(f"cannot read chunk {key}: {exc}") from None
            if row is None:
                return None
            ids = self._decode(key, row[0], row[1])
            self._bind(registry)
            return self._to_runtime[ids]

    def chunk_keys(self) -> Iterator[ChunkKey]:
        """Coordinates of every saved chunk row."""
        with self._lock:
            rows = self._live().execute("SELECT cx, cy, cz FROM chunks").fetchall()
        return ((cx, cy, cz) for cx, cy, cz in rows)

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
                for cx, cy, cz, fmt, data in conn.execute(
                    "SELECT cx, cy, cz, format, data FROM chunks"
                ):
                    self._decode((cx, cy, cz), fmt, data)
            except sqlite3.Error as exc:
                raise self._damaged(f"the SQLite database is damaged: {exc}") from None

    # -- load and save ------------------------------------------------------------------------

    def load(
        self,
        registry: BlockRegistry | None = None,
        *,
        generator_factory: GeneratorFactory | None = None,
    ) -> World:
        """A `World` over this save: saved chunks load on first read, others are generated.

        Parameters
        ----------
        registry : BlockRegistry, optional
            The game's blocks (the default registry when omitted). Saved names it lacks are
            registered into it as placeholder blocks and listed in `unknown_blocks`.
        generator_factory : callable, optional
            ``factory(name, seed, registry) -> generator`` rebuilding the saved generator;
            ``world.terrain.make_generator`` when omitted.

        Raises
        ------
        SaveError
            The saved generator name is unknown. Later chunk reads raise it for a corrupt row.
        """
        registry = default_registry() if registry is None else registry
        with self._lock:
            self._live()
            self._bind(registry)
        info = self.info
        base: ChunkGenerator | None = None
        if info.generator is not None:
            factory = generator_factory if generator_factory is not None else _terrain_factory
            try:
                base = factory(info.generator, info.seed, registry)
            except (ValueError, KeyError, ImportError) as exc:
                raise SaveError(
                    self.path, f"its world generator {info.generator!r} is not available: {exc}"
                ) from None
        saved = _SavedChunks(self, registry, base, info.generator, info.seed)
        return World(registry, generator=saved, build_height=info.build_height)

    def save(
        self,
        world: World,
        player: PlayerState | None = None,
        *,
        game_mode: str | None = None,
    ) -> int:
        """Write the chunks in ``world.modified`` and the metadata in one transaction.

        Parameters
        ----------
        world : World
            A world loaded from this store, or a new one (its generator must then carry
            ``name`` and ``seed`` attributes, or be ``None``, so unsaved chunks can be remade).
        player : PlayerState, optional
            Saved when given; the saved player is kept otherwise.
        game_mode : str, optional
            ``"survival"`` or ``"creative"``, saved when given.

        Returns
        -------
        int
            The number of chunk rows written.

        Raises
        ------
        SaveError
            The store is read-only (asked for, or a corrupt row was found), or SQLite failed;
            the previous save is then intact and ``world.modified`` is unchanged.
        """
        if self.read_only:
            why = "opened read-only" if self._damage is None else f"{self._damage} (found earlier)"
            raise SaveError(self.path, f"not saved: {why}; the file is left as it is")
        if player is not None and not isinstance(player, PlayerState):
            raise ValueError(f"player must be a PlayerState, got {type(player).__name__}")
        generator, seed = self._generator_identity(world)
        info = replace(
            self.info,
            generator=generator,
            seed=seed,
            build_height=world.build_height,
            game_mode=self.info.game_mode if game_mode is None else game_mode,
            last_played=time.time(),
        )
        meta: Mapping[str, object] = {
            "generator": info.generator,
            "seed": info.seed,
            "build_height": list(info.build_height),
            "game_mode": info.game_mode,
            "last_played": info.last_played,
        }
        if player is not None:
            meta = {**meta, "player": player.to_dict()}
        with self._lock:
            conn = self._live()
            self._bind(world.registry)
            # The flags are taken before the blocks are read: an edit made meanwhile (from
            # another thread) marks its chunk again and goes into the next save, never lost.
            keys = list(world.modified)
            world.modified.difference_update(keys)
            try:
                rows, new_names = self._chunk_rows(world, keys)
                self._commit(conn, rows, new_names, meta)
            except BaseException:
                world.modified.update(keys)
                raise
        self.info = info
        if player is not None:
            self.player = player
        return len(rows)

    def _chunk_rows(
        self, world: World, keys: list[ChunkKey]
    ) -> tuple[list[tuple[int, int, int, int, bytes]], list[str]]:
        """The rows of the chunks at `keys` in file ids, and the block names the file must add."""
        arrays = [self._blocks_of(world, key) for key in keys]
        to_file, new_names = self._to_file_map(world.registry, arrays)
        identity = bool(np.array_equal(to_file, np.arange(len(to_file), dtype=np.uint16)))
        rows = [
            (*key, CHUNK_FORMAT_ZLIB, _encode(blocks if identity else to_file[blocks]))
            for key, blocks in zip(keys, arrays, strict=True)
        ]
        return rows, new_names

    def _commit(
        self,
        conn: sqlite3.Connection,
        rows: list[tuple[int, int, int, int, bytes]],
        new_names: list[str],
        meta: Mapping[str, object],
    ) -> None:
        """One transaction: new block names, chunk rows, metadata; rolled back on any error."""
        first_new = len(self._names)
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(
                    "INSERT INTO block_names (id, name) VALUES (?, ?)",
                    [(first_new + i, name) for i, name in enumerate(new_names)],
                )
                conn.executemany(_UPSERT_CHUNK, rows)
                conn.executemany(_UPSERT_META, [(k, json.dumps(v)) for k, v in meta.items()])
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise SaveError(self.path, f"not saved (the previous save is intact): {exc}") from None
        self._names.extend(new_names)
        self._name_ids.update((name, first_new + i) for i, name in enumerate(new_names))
        if self._registry is not None:
            self._bind(self._registry)

    @staticmethod
    def _blocks_of(world: World, key: ChunkKey) -> NDArray[np.uint16]:
        chunk = world.chunks.get(key)
        # A modified key without an array was emptied to air: its row must say so, or the
        # generator would bring the old terrain back.
        return _AIR if chunk is None else chunk.blocks

    def _generator_identity(self, world: World) -> tuple[str | None, int]:
        gen = world.generator
        if isinstance(gen, _SavedChunks):
            if gen.store is not self:
                raise ValueError(
                    f"world was loaded from {gen.store.path}; save it there (this store would "
                    "only get its unsaved chunks)"
                )
            return gen.name, gen.seed
        if gen is None:
            return None, self.info.seed
        name, seed = getattr(gen, "name", None), getattr(gen, "seed", None)
        if not isinstance(name, str) or isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(
                "world.generator must have a str `name` and an int `seed` (as world.terrain "
                "generators do), so chunks that are not saved can be generated again"
            )
        return name, seed


# Placeholder blocks registered so far, per registry: saved name -> runtime id. Kept beside the
# registry rather than in a store, so every store binding that registry (a second load, a save
# after another world was loaded) reuses them and saves them back under their saved names.
_PLACEHOLDERS: weakref.WeakKeyDictionary[BlockRegistry, dict[str, int]] = (
    weakref.WeakKeyDictionary()
)


def _register_placeholder(registry: BlockRegistry, original: str) -> int:
    base = placeholder_name(original)
    candidate, n = base, 1
    while candidate in registry:
        n += 1
        candidate = f"{base}_{n}"
    return registry.register(
        BlockType(
            candidate,
            description=f"unknown block {original}",
            solid=True,
            pointable=True,
            groups=(PLACEHOLDER_GROUP,),
        )
    )


def _encode(file_ids: NDArray[np.uint16]) -> bytes:
    """A chunk row's blob: zlib of the file ids as little-endian uint16."""
    return zlib.compress(file_ids.astype("<u2", copy=False).tobytes(), ZLIB_LEVEL)


_AIR = np.zeros(CHUNK_VOLUME, dtype=np.uint16)
_AIR.flags.writeable = False


def _terrain_factory(name: str, seed: int, registry: BlockRegistry) -> ChunkGenerator:
    """``world.terrain.make_generator``, imported on first use."""
    terrain = importlib.import_module("world.terrain")
    make: GeneratorFactory | None = getattr(terrain, "make_generator", None)
    if make is None:
        raise ImportError("world.terrain has no make_generator")
    return make(name, seed, registry)
