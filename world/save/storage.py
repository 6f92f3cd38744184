"""World saves in one SQLite file: chunks that never lose a block, and the world's metadata.

Contract
--------
- `WorldStore` opens (or creates) one SQLite file per world. `WorldStore.save` writes the chunks
  marked modified (`World.modified`: each one's blocks, per-voxel data and timers, and the
  entities standing in it), the world's mod storage (when changed) and the metadata in ONE
  transaction (WAL journal): a crash or SIGKILL at any moment leaves the previous save whole,
  and a chunk's rows are always one save's version of that chunk, never a mix. Only a save that was
  written unmarks what it wrote, and only what has not changed since; a save that fails unmarks
  nothing. A save may be copied on the playing thread and written on another
  (`WorldStore.prepare_save`, `WorldStore.write`, `world.save.job`).
- One writer per world: a store opened for writing holds an OS lock on the file for its whole
  life (`world.save.lock`: why an OS lock and not SQLite's exclusive mode is written there). A
  second writer gets `WorldLocked` naming the world; it may open the world read-only. The lock
  dies with its process, so a crashed game never blocks the next start. Every save first checks
  that the lock file is still the one the store locked: one removed or replaced meanwhile may
  have let another game in, so the save raises `SaveError` saying so and the store turns
  read-only for the rest of the run (it never writes over the other game's saves).
- `WorldStore.load(registry, generator_factory=...)` returns a `World` whose chunks load lazily
  on first read: a saved chunk comes from its row, a chunk never saved is generated again by the
  generator the caller's factory rebuilds from the saved name and seed (the game passes
  ``world.gen.generators.make_generator``). A chunk's saved data, timers and entities come
  back when the chunk is read (`world.save.saved_chunks`). Its ``world.voxels.mod_storage``
  holds what the mods saved. The stacks an older save kept lying in the world (its ``dropped``
  metadata) load as ``builtin:item`` entities (`world.voxels.entities.drop_item`) in chunks
  marked unsaved, so the next save writes them with their chunks and deletes the key, in one
  transaction.
- Block ids are written in the file's own id space, a name→id table that only ever grows, so
  rows written years apart stay valid and a save survives any change of registration order. The
  table is re-read whenever another connection changed the file (``PRAGMA data_version``), so a
  stale table never mislabels a healthy row. A saved name the registry lacks loads as a
  placeholder block ``"unknown:<mod>_<name>"`` (solid, pointable, missing texture) whose
  `BlockType.saved_name` keeps the original name; it is reported once and saved back under it.
- Nothing is ever unpickled or evaluated (rows are decoded by `world.save.codec`, metadata is
  JSON). Any problem with a file (not a regular file, not SQLite, not a Blockpick save, a newer
  schema, damage, a corrupt row, a key outside the world limit) raises `SaveError` naming the
  file and the problem. Opening validates through a read-only connection before anything may
  write, so a file that fails to open is left byte-identical; a corrupt row found later (rows
  load lazily) turns the store read-only for the rest of the run.

The jobs around the store live in their own modules: the open file (lock, connection, name
table, chunk rows) in `world.save.file`, whose `SaveFile` this store extends with worlds; the
file's format (schema, validation, creation) in `world.save.format`; its metadata values in
`world.save.meta`; row bytes in `world.save.codec`; the block id space in `world.save.names`;
the one-writer lock in `world.save.lock`. ``docs/save-format.md`` documents the format for
people.

Threads: one store may be used from several threads (a loader thread reading chunks while the
main thread saves); its connection is guarded by a lock.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from world.blocks.registry import BlockRegistry
from world.save.codec import (
    CHUNK_FORMAT_ZLIB,
    chunk_key,
    encode_blob,
    encode_mod_rows,
    turn_entities,
)
from world.save.file import SaveFile
from world.save.format import (
    BLOCK_DATA_SCHEMA,
    ENTITIES_SCHEMA,
    MOD_STORAGE_SCHEMA,
    UPSERT_CHUNK,
    UPSERT_META,
    GeneratorFactory,
    SaveError,
    create_file,
    tables_up_to,
)
from world.save.job import SaveJob
from world.save.meta import PlayerState, WorldInfo, random_seed
from world.save.saved_chunks import SavedChunks
from world.voxels.chunks import World
from world.voxels.entities import drop_item
from world.voxels.layout import DEFAULT_BUILD_HEIGHT, ChunkSource

__all__ = [
    "WorldStore",
]

_log = logging.getLogger(__name__)


class WorldStore(SaveFile):
    """One world's save file: open or create it, load a lazily filled `World`, save changes.

    Parameters
    ----------
    path : str or path-like
        The SQLite file. A missing file is created (unless `read_only`) with no generator and
        seed 0; its first `save` records the world's generator. `WorldStore.create` chooses them
        up front.
    read_only : bool
        Open without ever writing (for a save the user wants to look at but not change, or one
        another game is playing); `save` then raises `SaveError`.

    Raises
    ------
    WorldLocked
        Opened for writing while another store (another game) has it open for writing.
    SaveError
        The file is not a regular file, not SQLite, SQLite but not a Blockpick save, has a
        newer schema version, is damaged, is write-protected (when opened for writing), or
        cannot be read or created. The file is left byte-identical.

    Attributes
    ----------
    path : Path
    read_only : bool
        True when opened read-only, after a corrupt row was found, or after a save found the
        lock file removed or replaced.
    info : WorldInfo
        World metadata as last loaded or saved.
    player : PlayerState or None
        The saved player, ``None`` before the first save with a player.
    """

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

        Temporary files an interrupted creation of the same path left behind (their process
        gone) are removed first.

        Parameters
        ----------
        seed : int, optional
            Signed 64-bit seed; random when omitted.
        generator : str, optional
            Generator name for the `GeneratorFactory` (``None``: chunks never saved are air).
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
        if target.exists() or target.is_symlink():
            raise SaveError(target, "already exists: a new world is never written over it")
        create_file(target, info)
        return cls(target)

    # -- load and save ------------------------------------------------------------------------

    def load(self, registry: BlockRegistry, *, generator_factory: GeneratorFactory) -> World:
        """A `World` over this save: saved chunks load on first read, others are generated.

        Parameters
        ----------
        registry : BlockRegistry
            The game's blocks, mods' blocks included. Saved names it lacks are registered into
            it as placeholder blocks and listed in `unknown_blocks`.
        generator_factory : callable
            ``factory(name, seed, registry) -> generator`` rebuilding the saved generator
            (``world.gen.generators.make_generator`` in the game).

        Raises
        ------
        SaveError
            The saved generator name is unknown. Later chunk reads raise it for a corrupt row.
        """
        if not isinstance(registry, BlockRegistry):
            raise ValueError(f"registry must be a BlockRegistry, got {type(registry).__name__}")
        with self._lock:
            self._live()
            self._names.bind(registry)
        info = self.info
        base: ChunkSource | None = None
        if info.generator is not None:
            try:
                base = generator_factory(info.generator, info.seed, registry)
            except (ValueError, KeyError) as exc:
                raise SaveError(
                    self.path, f"its world generator {info.generator!r} is not available: {exc}"
                ) from None
        saved = SavedChunks(self, registry, base, info.generator, info.seed)
        world = World(registry, generator=saved, build_height=info.build_height)
        world.mod_storage.restore(self._mod_storage)
        world.block_data.clock = self._world_time()
        saved.block_data = world.block_data
        saved.entities = world.entities
        for voxel, stack in self._dropped():  # an older save's stacks: entities from now on
            try:
                drop_item(world.entities, voxel, stack)
            except ValueError as exc:
                raise self._damaged(f"damaged metadata: the dropped stacks: {exc}") from None
        return world

    def save(
        self,
        world: World,
        player: PlayerState | None = None,
        *,
        game_mode: str | None = None,
    ) -> int:
        """Write the world's modified chunks, its mod storage and the metadata in one transaction.

        `prepare_save`, `write` and `SaveJob.settle` in a row (a game's autosave runs `write`
        on another thread: `world.save.job`).

        Parameters
        ----------
        world : World
            A world loaded from this store, or a new one (its generator must then be a
            `world.voxels.chunks.ChunkGenerator`, with ``name`` and ``seed``, or ``None``, so
            unsaved chunks can be remade).
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
            The store is read-only (asked for, a corrupt row was found, or its lock file was
            removed or replaced: this save then finds it and says so), a modified chunk lies
            outside the world limit, or SQLite failed; the previous save is then intact and the
            world's chunks and mod storage are still marked modified.
        """
        job = self.prepare_save(world, player, game_mode=game_mode)
        count = self.write(job)
        job.settle(world)
        return count

    def prepare_save(
        self,
        world: World,
        player: PlayerState | None = None,
        *,
        game_mode: str | None = None,
    ) -> SaveJob:
        """Copy what `save` writes (`world.save.job.SaveJob.take`), on the thread that edits
        the world; arguments and errors as `save`'s, but nothing is written or unmarked."""
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
        meta: dict[str, object] = {
            "generator": info.generator,
            "seed": info.seed,
            "build_height": list(info.build_height),
            "game_mode": info.game_mode,
            "last_played": info.last_played,
        }
        if player is not None:
            meta["player"] = player.to_dict()
        return SaveJob.take(world, info, meta, player)

    def write(self, job: SaveJob) -> int:
        """Write a job (`prepare_save`) in one transaction, on any thread; returns the chunk
        rows written. Raises `SaveError` as `save` does (the previous save is then intact)."""
        if not isinstance(job, SaveJob):
            raise ValueError(f"job must be a SaveJob, got {type(job).__name__}")
        with self._lock:
            count = self._commit(self._live(), job)
            self.info = job.info
            if job.player is not None:
                self.player = job.player
            if job.mods is not None:
                self._mod_storage = job.mods
        return count

    def _commit(self, conn: sqlite3.Connection, job: SaveJob) -> int:
        """One transaction: new block names, chunk rows with their data and entities rows, mod
        storage, metadata; all or nothing."""
        try:
            for key in job.keys:
                chunk_key(*key)
        except ValueError as exc:
            raise SaveError(self.path, f"not saved: {exc}") from None
        meta = dict(job.meta)
        mod_rows = [] if job.mods is None else encode_mod_rows(job.mods)
        # Every saved chunk's data and entities rows are written, or deleted when it holds none
        # (a file from before that table has no row to delete, and gets the table, moving up to
        # its schema version, only when a row is written).
        data_rows = [(k, r) for k, r in zip(job.keys, job.data, strict=True) if r is not None]
        no_data = [k for k, r in zip(job.keys, job.data, strict=True) if r is None]
        entity_rows = [(k, t) for k, t in zip(job.keys, job.entities, strict=True) if t is not None]
        if self._bearing_yaws:  # a file from before Minecraft's yaw keeps its bearings
            entity_rows = [(k, turn_entities(t)) for k, t in entity_rows]
        no_entities = [k for k, t in zip(job.keys, job.entities, strict=True) if t is None]
        version = max(
            self._schema,
            MOD_STORAGE_SCHEMA if job.mods is not None else 0,
            BLOCK_DATA_SCHEMA if data_rows else 0,
            ENTITIES_SCHEMA if entity_rows else 0,
        )
        if version > self._schema:
            meta["schema_version"] = version
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._check_lock()  # the last moment before writing: is the world still ours?
                # Inside the write transaction: the name table cannot change under us now.
                self._sync(conn)
                to_file, new_names = self._names.to_file(job.registry, list(job.blocks))
                first_new = len(self._names.names)
                identity = bool(np.array_equal(to_file, np.arange(len(to_file), dtype=np.uint16)))
                rows = [
                    (*key, CHUNK_FORMAT_ZLIB, encode_blob(blocks if identity else to_file[blocks]))
                    for key, blocks in zip(job.keys, job.blocks, strict=True)
                ]
                conn.executemany(
                    "INSERT INTO block_names (id, name) VALUES (?, ?)",
                    [(first_new + i, name) for i, name in enumerate(new_names)],
                )
                conn.executemany(UPSERT_CHUNK, rows)
                for statement in tables_up_to(version):  # an older file moving up: its tables
                    conn.execute(statement)
                if job.mods is not None:
                    conn.execute("DELETE FROM mod_storage")
                    conn.executemany(
                        "INSERT INTO mod_storage (mod, key, kind, value) VALUES (?, ?, ?, ?)",
                        mod_rows,
                    )
                if version >= BLOCK_DATA_SCHEMA:
                    conn.executemany(
                        "INSERT INTO block_data (cx, cy, cz, data) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (cx, cy, cz) DO UPDATE SET data = excluded.data",
                        [(*k, json.dumps(r)) for k, r in data_rows],
                    )
                    conn.executemany(
                        "DELETE FROM block_data WHERE cx = ? AND cy = ? AND cz = ?", no_data
                    )
                if version >= ENTITIES_SCHEMA:
                    conn.executemany(
                        "INSERT INTO entities (cx, cy, cz, data) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (cx, cy, cz) DO UPDATE SET data = excluded.data",
                        [(*k, text) for k, text in entity_rows],
                    )
                    conn.executemany(
                        "DELETE FROM entities WHERE cx = ? AND cy = ? AND cz = ?", no_entities
                    )
                conn.executemany(UPSERT_META, [(k, json.dumps(v)) for k, v in meta.items()])
                # An older save's stacks were made entities when it loaded (`load`): they are
                # written with their chunks now, in this transaction, so the key goes.
                conn.execute("DELETE FROM meta WHERE key = 'dropped'")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OverflowError) as exc:
            raise SaveError(self.path, f"not saved (the previous save is intact): {exc}") from None
        self._names.added(new_names)
        self._schema = version
        return len(rows)

    def _generator_identity(self, world: World) -> tuple[str | None, int]:
        gen = world.generator
        if isinstance(gen, SavedChunks):
            if gen.store is not self:
                raise ValueError(
                    f"world was loaded from {gen.store.path}; save it there (this store would "
                    "only get its unsaved chunks)"
                )
            return gen.name, gen.seed
        if gen is None:
            return None, self.info.seed
        # Any callable may fill a World; only a ChunkGenerator (name and seed) can be saved.
        name, seed = getattr(gen, "name", None), getattr(gen, "seed", None)
        if not isinstance(name, str) or isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(
                "world.generator must be a ChunkGenerator with a str `name` and an int `seed` "
                "(as world.gen.terrain generators are), so chunks that are not saved can be "
                "generated again"
            )
        return name, seed
