"""Chunked voxel storage: the `World` of chunks (the chunk layout is `world.voxels.layout`).

A chunk is ``CHUNK = (16, 16, 16)`` voxels in ONE flat numpy array; local voxel (lx, ly, lz) is at
``lx*wy*wz + ly*wz + lz``. The world is a dict of chunks keyed by chunk coordinates; world voxel
coordinates map to chunk coordinates by floor division (``-1 // 16 == -1``). A chunk that was
never written nor generated is air and costs no array.

The world limit (`world.validate`): voxel coordinates lie within ``±(WORLD_LIMIT - 1)`` on every
axis, chunk coordinates within ``±CHUNK_LIMIT``. Every public method checks its coordinates there,
before any cast (a uint64 2^64 - 1 is refused, never wrapped to -1), and refuses anything else with
a `ValueError` naming the argument (``wx``, ``xyz``, ``cx``, ``key``, ``ids``, ``block_id``).

Two kinds of change tracking:

- ``world.dirty``: chunks whose mesh is stale: a change marks its chunk and the neighbours
  touching a border voxel (faces and ambient occlusion read one voxel across the border).
- ``world.modified``: chunks with unsaved changes of any kind, blocks, states, per-voxel data
  and timers alike (`world.voxels.journal`: one path for every change; generated chunks are not
  marked: they can be generated again). A chunk so marked is never forgotten (`World.unload_chunk`);
  a chunk forgotten takes its data and timers out of memory with it, and they load again with
  its blocks. Memory: 2 bytes a voxel of an allocated chunk, none for air.

While an action runs (`world.actions.transaction`), every write is recorded before it is made in the
journal's undo log, a bulk write as a copy of each chunk it touches (copy-on-write), so
`World.rollback` restores every voxel, its data and its timer exactly, even when the watchdog
stops a hook in the middle of a `set_blocks`.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.blocks.block_type import AIR
from world.blocks.registry import BlockRegistry
from world.geometry import Int3
from world.items.containers import MAX_CONTAINER_SLOTS, decode_slots
from world.validate import CHUNK_LIMIT, chunk_coord, coords, voxel
from world.voxels.block_data import BlockData, Value, VoxelData
from world.voxels.entities import Entities, drop_item
from world.voxels.journal import Journal
from world.voxels.layout import (
    CHUNK,
    CHUNK_MASK,
    CHUNK_VOLUME,
    DEFAULT_BUILD_HEIGHT,
    Chunk,
    ChunkKey,
    ChunkSource,
    by_chunk,
    chunk_index,
    voxel_at,
)
from world.voxels.mod_storage import ModStorage
from world.voxels.players import Players

__all__ = [
    "ChunkDiff",
    "World",
]


class ChunkDiff(NamedTuple):
    """What one bulk write changed in one chunk: flat indices (ascending), ids before, after."""

    key: ChunkKey
    idx: NDArray[np.intp]
    old: NDArray[np.uint16]
    new: NDArray[np.uint16]


_log = logging.getLogger(__name__)


def _key(cx: object, cy: object, cz: object) -> ChunkKey:
    """Checked chunk coordinates (`world.validate.chunk_coord`); plain ints in range go fast."""
    if (
        type(cx) is int
        and type(cy) is int
        and type(cz) is int
        and -CHUNK_LIMIT <= cx <= CHUNK_LIMIT
        and -CHUNK_LIMIT <= cy <= CHUNK_LIMIT
        and -CHUNK_LIMIT <= cz <= CHUNK_LIMIT
    ):
        return cx, cy, cz
    return chunk_coord(cx, "cx"), chunk_coord(cy, "cy"), chunk_coord(cz, "cz")


def _key_of(key: object, name: str) -> ChunkKey:
    """A chunk key given as one (cx, cy, cz) argument, checked."""
    if isinstance(key, str | bytes) or not isinstance(key, Sequence) or len(key) != 3:
        raise ValueError(f"{name} must be 3 integer chunk coordinates, got {key!r}")
    return (
        chunk_coord(key[0], f"{name}.cx"),
        chunk_coord(key[1], f"{name}.cy"),
        chunk_coord(key[2], f"{name}.cz"),
    )


class World:
    """A voxel world of 16³ chunks, ``±WORLD_LIMIT`` voxels on every axis.

    Parameters
    ----------
    registry : BlockRegistry
        Block types (the store knows no content: ``world.World()`` is the one that defaults to
        the base game's, `world.base.default_registry`).
    generator : callable, optional
        ``generator(cx, cy, cz) -> blocks or None`` fills a chunk the first time it is read.
    build_height : (int, int)
        Players may place blocks at ``low <= wy < high``; storage holds the whole world limit.
    """

    def __init__(
        self,
        registry: BlockRegistry,
        generator: ChunkSource | None = None,
        build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT,
    ) -> None:
        low, high = build_height
        if not low < high:
            raise ValueError(f"build_height must be (low, high), low < high, got {build_height}")
        if not isinstance(registry, BlockRegistry):
            raise ValueError(f"registry must be a BlockRegistry, got {type(registry).__name__}")
        self.registry = registry
        self.generator = generator
        self.build_height = (int(low), int(high))
        self.chunks: dict[ChunkKey, Chunk] = {}
        # Chunks known to be all air (generated empty): remembered so they are not generated again.
        self._air: set[ChunkKey] = set()
        self.dirty: set[ChunkKey] = set()
        self.modified: set[ChunkKey] = set()
        # Every change marks its chunk through it, and is recorded while an action runs.
        self.journal = Journal(self.modified)
        self.mod_storage = (
            ModStorage()
        )  # each mod's saved key→value store (world.voxels.mod_storage)
        self.block_data = BlockData(
            self.journal
        )  # per-voxel data and timers (world.voxels.block_data)
        self.light: Any = None  # the world's `world.light.lighting.Light` when the game keeps one
        # The entities by chunk (dropped items, falling blocks, mods' creatures) and the players,
        # each changed only through its store, which records and marks (`world.voxels.entities`,
        # `world.voxels.players`).
        self.entities = Entities(self.journal, lambda: self.block_data.clock)
        self.players = Players(self.journal, registry)

    # -- chunks -----------------------------------------------------------------------------

    def chunk(self, cx: int, cy: int, cz: int) -> Chunk | None:
        """The chunk at chunk coordinates, generating it on first read; ``None`` when all air."""
        key = _key(cx, cy, cz)
        chunk = self.chunks.get(key)
        if chunk is not None or key in self._air:
            return chunk
        return self._generate(key)

    def _generate(self, key: ChunkKey) -> Chunk | None:
        if self.generator is None:
            return None
        blocks = self.generator(*key)
        if blocks is None or not blocks.any():
            self._air.add(key)
            return None
        self._check_ids(blocks, "generator output")
        chunk = Chunk(key, blocks.astype(np.uint16, copy=False))
        self.chunks[key] = chunk
        return chunk

    def install_loaded(self, key: ChunkKey, blocks: NDArray[np.uint16] | None) -> bool:
        """Take a chunk a loader read or generated off the main thread, as a first read would.

        Nothing changes (returns False) when the chunk is already in memory: an array made
        meanwhile, and perhaps edited, is never replaced. Not marked dirty nor modified.
        """
        key = _key_of(key, "key")
        adopt = getattr(self.generator, "adopt", None)  # a save's block data read with it
        if key in self.chunks or key in self._air:
            if adopt is not None:
                adopt(key, False)
            return False
        if blocks is None or not blocks.any():
            self._air.add(key)
        else:
            self._check_ids(blocks, "blocks")
            self.chunks[key] = Chunk(key, blocks.astype(np.uint16, copy=False))
        if adopt is not None:
            adopt(key, True)
        return True

    def is_loaded(self, cx: int, cy: int, cz: int) -> bool:
        """True when the chunk is in memory (or known air): reading it costs no generation (in a
        world with no generator, every chunk: one never written is air)."""
        key = _key(cx, cy, cz)
        return key in self.chunks or key in self._air or self.generator is None

    def chunk_blocks(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16]:
        """A read-only view of a chunk's flat blocks (zeros for an air chunk)."""
        chunk = self.chunk(cx, cy, cz)
        if chunk is None:
            view = _AIR_BLOCKS
        else:
            view = chunk.blocks.view()
            view.flags.writeable = False
        return view

    def put_chunk(self, key: ChunkKey, blocks: NDArray[np.uint16] | None) -> None:
        """Install a whole chunk (as a loader does); not marked modified, marked dirty."""
        key = _key_of(key, "key")
        self.chunks.pop(key, None)
        self._air.discard(key)
        if blocks is None or not blocks.any():
            self._air.add(key)
        else:
            self._check_ids(blocks, "blocks")
            self.chunks[key] = Chunk(key, np.array(blocks, dtype=np.uint16))
        self._mark_around(key)

    def unload_chunk(self, cx: int, cy: int, cz: int) -> bool:
        """Forget a chunk that has no unsaved change of any kind, with its data and timers;
        returns False (and keeps it) otherwise."""
        key = _key(cx, cy, cz)
        if key in self.modified:
            return False
        self.chunks.pop(key, None)
        self._air.discard(key)
        self.dirty.discard(key)
        self.block_data.forget_chunk(key)
        self.entities.unload(key)
        return True

    def loaded_keys(self) -> Iterator[ChunkKey]:
        """Keys of the chunks held in memory with an array."""
        return iter(list(self.chunks))

    def pop_dirty(self) -> set[ChunkKey]:
        """Take the set of chunks whose mesh is stale, leaving it empty."""
        dirty, self.dirty = self.dirty, set()
        return dirty

    # -- per-voxel data and timers -------------------------------------------------------------

    def meta(self, wx: int, wy: int, wz: int) -> VoxelData:
        """The voxel's data (`world.voxels.block_data`): a mutable mapping of str to str, int, float
        or bytes, created on the first write, removed when the block is replaced. Writing a None
        value, or on an air voxel, is a `ValueError`."""
        pos = Int3(voxel(wx, "wx"), voxel(wy, "wy"), voxel(wz, "wz"))
        self.chunk(*chunk_index(*pos)[0])  # a saved chunk's data loads with its blocks
        return VoxelData(self.block_data, pos, self.write_data)

    def write_data(self, pos: Int3, name: str, value: Value | None) -> None:
        """Write one key of a checked voxel's data (None removes it): the one path every data
        write takes, its chunk loaded first and marked unsaved (`world.voxels.journal`)."""
        self._not_air(pos, f"block data {name!r}")
        self.block_data.write(pos, name, value)

    def start_timer(self, wx: int, wy: int, wz: int, seconds: float) -> None:
        """Start (or restart) the voxel's timer: its block's ``on_timer`` runs in `seconds`
        (a finite number in (0, `world.voxels.block_data.MAX_TIMER_SECONDS`]); air takes none."""
        pos = Int3(voxel(wx, "wx"), voxel(wy, "wy"), voxel(wz, "wz"))
        self._not_air(pos, "a timer")
        self.block_data.start_timer(pos, seconds)

    def _not_air(self, pos: Int3, what: str) -> None:
        """Load the voxel's chunk (its saved data comes with it); refuse an air voxel."""
        key, idx = chunk_index(*pos)
        chunk = self.chunk(*key)
        if chunk is None or chunk.blocks[idx] == AIR:
            raise ValueError(f"{what} cannot be kept at {tuple(pos)}: the voxel is air")

    # -- single voxels ----------------------------------------------------------------------

    def get_block(self, wx: int, wy: int, wz: int) -> int:
        """The block id at a world voxel (air where nothing was written or generated)."""
        wx = voxel(wx, "wx")
        wy = voxel(wy, "wy")
        wz = voxel(wz, "wz")
        key, idx = chunk_index(wx, wy, wz)
        chunk = self.chunk(*key)
        return AIR if chunk is None else int(chunk.blocks[idx])

    def set_block(self, wx: int, wy: int, wz: int, block_id: int) -> None:
        """Write one block id; marks the chunk (and touched neighbours) dirty when it changed."""
        wx = voxel(wx, "wx")
        wy = voxel(wy, "wy")
        wz = voxel(wz, "wz")
        block_id = self._check_id(block_id)
        key, idx = chunk_index(wx, wy, wz)
        chunk = self.chunk(*key)
        if chunk is None:
            if block_id == AIR:
                return
            chunk = self._new_chunk(key)
        old = int(chunk.blocks[idx])
        if old == block_id:
            return
        self.journal.record(("voxel", key, idx, old))  # before the write: `world.voxels.journal`
        chunk.blocks[idx] = block_id
        self.journal.touch(key)
        data = self.block_data
        if (key in data.chunks or key in data.timers) and (
            self.registry.block_index[old] != self.registry.block_index[block_id]
        ):
            self._detach(Int3(wx, wy, wz), key, idx, old)
        self._mark_voxel(key, wx & CHUNK_MASK, wy & CHUNK_MASK, wz & CHUNK_MASK)

    def _detach(self, pos: Int3, key: ChunkKey, idx: int, old: int) -> None:
        """A voxel's block type changed: its containers' stacks drop, its data and timer go
        (`world.voxels.block_data`)."""
        containers = self.registry[old].containers
        if containers:
            held = self.block_data.chunks.get(key, {}).get(idx, {})
            for name in containers:
                self._spill(pos, name, held.get(name))
        self.block_data.block_changed(pos, key, idx)

    def _spill(self, pos: Int3, name: str, value: object) -> None:
        """Drop the stacks a container's data value holds (recorded: a rollback takes them
        back); data that is not slots cannot be, and is logged."""
        if value is None:
            return
        try:
            stacks = decode_slots(value, MAX_CONTAINER_SLOTS)
        except ValueError as exc:
            _log.warning("the container %r at %s went with unreadable data: %s", name, pos, exc)
            return
        for stack in stacks:
            if stack is not None:
                drop_item(self.entities, pos, stack)

    def _new_chunk(self, key: ChunkKey) -> Chunk:
        """An air chunk's array, made for a write (recorded: a rollback takes it away)."""
        self.journal.record(("new", key, key in self._air))
        chunk = Chunk(key)
        self.chunks[key] = chunk
        self._air.discard(key)
        return chunk

    def _check_id(self, block_id: object) -> int:
        if isinstance(block_id, bool) or not isinstance(block_id, int | np.integer):
            raise ValueError(f"block_id must be an integer block id, got {block_id!r}")
        if not 0 <= int(block_id) < len(self.registry):
            raise ValueError(f"block_id {int(block_id)} is not a registered block")
        return int(block_id)

    def _check_ids(self, ids: NDArray[Any], name: str) -> None:
        """Integer ids of registered blocks only: floats are never silently truncated."""
        if ids.dtype.kind not in "iu":
            raise ValueError(f"{name} must hold integer block ids, got dtype {ids.dtype}")
        if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= len(self.registry)):
            bad = ids[(ids < 0) | (ids >= len(self.registry))]
            raise ValueError(f"{name} holds unregistered block ids: {sorted(set(bad.tolist()))}")

    # -- change tracking --------------------------------------------------------------------

    def _mark_voxel(self, key: ChunkKey, lx: int, ly: int, lz: int) -> None:
        cx, cy, cz = key
        offs = []
        for local, size in ((lx, CHUNK[0]), (ly, CHUNK[1]), (lz, CHUNK[2])):
            axis = [0]
            if local == 0:
                axis.append(-1)
            elif local == size - 1:
                axis.append(1)
            offs.append(axis)
        for dx, dy, dz in itertools.product(*offs):
            self.dirty.add((cx + dx, cy + dy, cz + dz))

    def _mark_around(self, key: ChunkKey) -> None:
        cx, cy, cz = key
        for dx, dy, dz in itertools.product((-1, 0, 1), repeat=3):
            self.dirty.add((cx + dx, cy + dy, cz + dz))

    # -- many voxels ------------------------------------------------------------------------

    def get_blocks(self, xyz: ArrayLike) -> NDArray[np.uint16]:
        """Block ids at N world voxels.

        Parameters
        ----------
        xyz : array_like of int, shape (N, 3)

        Returns
        -------
        ndarray of uint16, shape (N,)
        """
        cells = coords(xyz, "xyz")
        out = np.zeros(len(cells), dtype=np.uint16)
        if not len(cells):
            return out
        groups, idx = by_chunk(cells)
        for key, sel in groups:
            chunk = self.chunk(*key)
            if chunk is not None:
                out[sel] = chunk.blocks[idx[sel]]
        return out

    def set_blocks(self, xyz: ArrayLike, ids: ArrayLike) -> None:
        """Write block ids at N world voxels (for repeated coordinates the last one wins).

        Parameters
        ----------
        xyz : array_like of int, shape (N, 3)
        ids : array_like of int, shape (N,) or a scalar id for all
        """
        cells = coords(xyz, "xyz")
        try:
            values = np.asarray(ids)
        except (ValueError, TypeError, OverflowError):
            raise ValueError("ids must be a flat sequence of integer block ids") from None
        if values.dtype.kind not in "iu" and values.size:
            raise ValueError(f"ids must hold integer block ids, got dtype {values.dtype}")
        if values.ndim > 1 or (values.ndim == 1 and len(values) not in (1, len(cells))):
            raise ValueError(
                f"ids must be one id or {len(cells)} ids (one per voxel of xyz), "
                f"got shape {values.shape}"
            )
        if values.size:  # on the caller's dtype, before any cast: a uint64 2^64 - 1 is refused
            self._check_ids(values, "ids")
        values = np.broadcast_to(values, (len(cells),)).astype(np.int64)
        if len(cells):
            self.write_many(cells, values)

    def write_many(self, cells: NDArray[np.int64], values: NDArray[np.int64]) -> list[ChunkDiff]:
        """`set_blocks` on checked (N, 3) coordinates and N checked ids: the one bulk write.

        Returns
        -------
        list of ChunkDiff
            Per chunk that changed: its key, the flat indices that changed (ascending), their
            ids before and after.
        """
        diffs: list[ChunkDiff] = []
        groups, idx = by_chunk(cells)
        journal = self.journal
        for key, sel in groups:
            chunk = self.chunk(*key)
            if chunk is None:
                if not values[sel].any():
                    continue
                chunk = self._new_chunk(key)
            before = chunk.blocks.copy()
            if journal.wants_snapshot(key):  # before the write: `world.voxels.journal`
                journal.snapshot(("chunk", key, before), key)
            chunk.blocks[idx[sel]] = values[sel]
            changed = np.flatnonzero(before != chunk.blocks)
            if not len(changed):
                continue
            journal.touch(key)
            self.dirty.add(key)
            self._mark_voxels(key, np.unravel_index(changed, CHUNK))
            old, new = before[changed], chunk.blocks[changed]
            diffs.append(ChunkDiff(key, changed, old, new))
            data = self.block_data
            if key in data.chunks or key in data.timers:
                types = self.registry.block_index
                for i, was in zip(
                    changed[types[old] != types[new]].tolist(),
                    old[types[old] != types[new]].tolist(),
                    strict=True,
                ):
                    self._detach(Int3(*voxel_at(key, i)), key, i, was)
        return diffs

    def rollback(self, mark: int) -> None:
        """Undo every change recorded since the journal's ``mark`` (`world.voxels.journal`): blocks,
        data, timers; the chunks it first marked unsaved are unmarked again."""
        journal = self.journal
        entries, fresh = journal.take_since(mark)
        journal.replaying = True  # restoring records nothing and marks nothing
        try:
            for entry in entries:
                kind = entry[0]
                if kind == "voxel":
                    _, key, idx, old = entry
                    chunk = self.chunks.get(key)
                    if chunk is not None:
                        chunk.blocks[idx] = old
                        lx, ly, lz = voxel_at((0, 0, 0), idx)
                        self._mark_voxel(key, lx, ly, lz)
                elif kind == "chunk":
                    _, key, blocks = entry
                    chunk = self.chunks.get(key)
                    if chunk is not None:
                        chunk.blocks[:] = blocks
                        self._mark_around(key)
                elif kind == "undo":
                    entry[1](entry[2])
                elif kind == "new":
                    _, key, was_air = entry
                    if self.chunks.pop(key, None) is not None:
                        self._mark_around(key)
                    if was_air:
                        self._air.add(key)
                else:
                    self.block_data.undo(entry)
        finally:
            journal.replaying = False
        for key in fresh:
            self.modified.discard(key)

    def _mark_voxels(self, key: ChunkKey, local: tuple[NDArray[np.intp], ...]) -> None:
        """`_mark_voxel` for many changed voxels of one chunk, without a per-voxel loop."""
        # Per voxel and axis: -1 on the low border, +1 on the high one, else 0; each distinct
        # (ox, oy, oz) row marks the same chunks, and there are at most 27 of them.
        offsets = [
            (lc == size - 1).astype(np.int64) - (lc == 0)
            for lc, size in zip(local, CHUNK, strict=True)
        ]
        codes = np.unique((offsets[0] + 1) * 9 + (offsets[1] + 1) * 3 + (offsets[2] + 1))
        cx, cy, cz = key
        for code in codes.tolist():
            ox, oy, oz = code // 9 - 1, code // 3 % 3 - 1, code % 3 - 1
            for dx, dy, dz in itertools.product({0, ox}, {0, oy}, {0, oz}):
                self.dirty.add((cx + dx, cy + dy, cz + dz))

    def __repr__(self) -> str:
        return f"World({len(self.chunks)} chunks, {len(self.registry)} block types)"


_AIR_BLOCKS = np.zeros(CHUNK_VOLUME, dtype=np.uint16)
_AIR_BLOCKS.flags.writeable = False
