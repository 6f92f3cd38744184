"""One save's worth of a world: copied where the world is played, written on any thread.

Contract
--------
- `SaveJob.take` copies, on the thread that edits the world, everything one save writes: for
  every chunk with unsaved changes (`World.modified`: blocks, data, timers or entities,
  `world.voxels.journal`) its blocks (a marked chunk with no array was emptied to air and is
  written as air), its per-voxel data and timers (none: the saved data row is deleted) and the
  entities standing in it (`world.voxels.entities.Entity.saved` at the world's clock, encoded
  as the row holds them, `world.save.codec.encode_entities`; none: the saved row is deleted),
  the mod storage when it changed, and the metadata the store worked out. A marked chunk that
  is not in memory (an entity walked or was put into it) is read first, so its saved blocks,
  data and entities are written back with the change, never air and nothing over them. It
  unmarks nothing.
- `world.save.storage.WorldStore.write` writes a job in one transaction, on any thread: the copies
  cannot change under it however the world is edited meanwhile.
- `SaveJob.settle`, back on the editing thread once the write succeeded, unmarks what was
  written and still reads the same: a chunk whose blocks, data and entities all still match, the
  mod storage. Anything edited since its copy stays marked and goes into the next save.

So no edit is lost however a save ends. A save that fails unmarks nothing. A chunk stays marked
until a save that holds its current blocks has been written, and a marked chunk is never
forgotten by the streaming (`World.unload_chunk` refuses it), so a chunk in a save still being
written cannot leave memory meanwhile. The game's autosave uses this to write without holding up
a frame (`game.session.Session`); `WorldStore.save` is the three steps in a row.

Cost: one copy of each marked chunk (8 KiB) and the JSON of its entities, then one comparison
each when settling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.save.codec import CHUNK_KEY_RANGE, encode_entities
from world.save.meta import PlayerState, WorldInfo
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_VOLUME, ChunkKey
from world.voxels.mod_storage import Value

__all__ = ["SaveJob"]

_AIR = np.zeros(CHUNK_VOLUME, dtype=np.uint16)
_AIR.flags.writeable = False


def _blocks_of(world: World, key: ChunkKey) -> NDArray[np.uint16]:
    """A chunk's blocks as a save writes them: a marked key without an array was emptied to
    air, and its row must say so, or the generator would bring the old terrain back."""
    chunk = world.chunks.get(key)
    return _AIR if chunk is None else chunk.blocks


def _entities_of(world: World, key: ChunkKey, now: float) -> str | None:
    """A chunk's entities as a save writes them (ordered by id: a row does not change when an
    entity leaves the chunk and comes back)."""
    standing = sorted(world.entities.in_chunk(key), key=lambda entity: entity.id)
    return encode_entities([entity.saved(now) for entity in standing], now)


@dataclass(frozen=True, slots=True)
class SaveJob:
    """What one save writes, copied from the world (module notes).

    Attributes
    ----------
    registry : BlockRegistry
        The world's blocks (the names its ids are saved under).
    info : WorldInfo
        The store's metadata once the job is written.
    meta : dict of str to object
        The metadata rows to write (JSON values).
    player : PlayerState or None
        The player to save, ``None`` to keep the saved one.
    keys : tuple of ChunkKey
        The chunks marked modified, in order.
    blocks : tuple of ndarray of uint16, shape (4096,)
        A copy of each one's blocks.
    data : tuple of (dict or None)
        Each chunk's per-voxel data and timers, in the order of `keys`
        (`world.voxels.block_data.BlockData.chunk_rows`; None: it holds none now).
    entities : tuple of (str or None)
        Each chunk's entities row, in the order of `keys` (`world.save.codec.encode_entities`;
        None: none stands in it now).
    clock : float
        The world time of the copy, which the entities' ages count to.
    mods : dict of str to dict, or None
        Every mod's storage (`world.voxels.mod_storage.ModStorage.snapshot`) when it changed.
    """

    registry: BlockRegistry
    info: WorldInfo
    meta: dict[str, object]
    player: PlayerState | None
    keys: tuple[ChunkKey, ...]
    blocks: tuple[NDArray[np.uint16], ...]
    data: tuple[dict[str, Any] | None, ...]
    entities: tuple[str | None, ...]
    clock: float
    mods: dict[str, dict[str, Value]] | None

    @classmethod
    def take(
        cls,
        world: World,
        info: WorldInfo,
        meta: dict[str, object],
        player: PlayerState | None = None,
    ) -> SaveJob:
        """Copy what a save of ``world`` writes now, with the store's ``info`` and ``meta``
        (the world's clock is added to it). Call it on the thread that edits the world."""
        # sorted() copies each set in one step under the GIL: an edit from another thread
        # cannot change it mid-copy.
        keys = tuple(sorted(world.modified))
        low, high = CHUNK_KEY_RANGE  # a key outside the world is refused by the write
        for key in keys:
            if all(low <= c <= high for c in key) and not world.is_loaded(*key):
                world.chunk(*key)  # marked by an entity alone: its saved rows come first
        data = world.block_data
        clock = data.clock
        mods = world.mod_storage
        return cls(
            registry=world.registry,
            info=info,
            meta={**meta, "world_time": clock},
            player=player,
            keys=keys,
            blocks=tuple(_blocks_of(world, key).copy() for key in keys),
            data=tuple(data.chunk_rows(key) for key in keys),
            entities=tuple(_entities_of(world, key, clock) for key in keys),
            clock=clock,
            mods=mods.snapshot() if mods.modified else None,
        )

    def settle(self, world: World) -> None:
        """Once the job is written: unmark what it wrote that has not changed since."""
        data = world.block_data
        for key, blocks, rows, entities in zip(
            self.keys, self.blocks, self.data, self.entities, strict=True
        ):
            if (
                np.array_equal(_blocks_of(world, key), blocks)
                and data.chunk_rows(key) == rows
                and _entities_of(world, key, self.clock) == entities
            ):
                world.modified.discard(key)
        mods = world.mod_storage
        if self.mods is not None and mods.snapshot() == self.mods:
            mods.modified = False
