"""Random ticks: every game tick, a few random voxels of each loaded chunk get the chance to act.

Minecraft picks ``randomTickSpeed`` (3) random blocks per 16³ section every game tick (20 a
second); Luanti's active block modifiers are the same idea. Crops grow, leaves decay and grass
spreads this way, untouched by any player, at a rate independent of how many blocks there are.

`RandomTicker.pick` draws the voxels with numpy (one ``integers`` call for every chunk at once)
and filters them through the registry's per-state table ``registry.random_ticks`` (the blocks
that declare ``on_random_tick``); Python then runs only for the voxels that react. The filter is
a plain loop over the picks with list lookups: for 256 chunks it measured 0.10 ms per tick,
against 0.54 ms for per-chunk numpy fancy indexing and 0.36 ms for stacking the chunks (the
arrays are tiny: numpy's per-call cost dominates).

Only chunks whose 26 neighbours are loaded too are ticked (Minecraft ticks no chunk at the edge of
the loaded area): a reaction that looks around (leaves seeking a log 4 blocks away) never makes the
world generate or load a chunk, and the edge of the view never changes by itself. With a player,
only the chunks of the columns within the simulation distance of its column, in the world's
build height, are ticked (Minecraft's simulation distance; its sections exist only in the build
height). Finding the chunks that hold a reacting block among those alone rather than among
every loaded one took a sprint-flight at view distance 8 from 0.72 to 0.36 ms a tick (medians;
the looks at chunks loaded far away, out of reach, were most of it).

`RandomTicker.due` turns frame time into whole game ticks (`TICK_SECONDS` each, at most
`MAX_CATCH_UP` per call so a long pause never floods the world with ticks). The ticker only
draws: running the picks, under the tick's time budget that may drop some, is
`world.ticks.block_ticks.BlockTicks`'s.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from world.geometry import Int3
from world.validate import integer, number, vec3
from world.voxels.chunks import World
from world.voxels.layout import (
    CHUNK_MASK,
    CHUNK_SHIFT,
    CHUNK_VOLUME,
    STRIDE_X,
    STRIDE_Y,
    Chunk,
    ChunkKey,
    chunk_layers,
)

__all__ = [
    "MAX_CATCH_UP",
    "RANDOM_TICK_SPEED",
    "SIMULATION_DISTANCE",
    "TICK_SECONDS",
    "RandomTicker",
]

RANDOM_TICK_SPEED = 3  # Minecraft's default game rule: voxels per 16³ chunk per tick
TICK_SECONDS = 0.05  # a game tick, 20 per second
MAX_CATCH_UP = 5  # game ticks run by one `due` call at most
RECHECK_TICKS = 100  # every chunk is looked at again for reacting blocks within this many ticks
# Chunks new to the simulated area looked at for reacting blocks per tick, at most: one look
# costs about 16 µs, and 64 a tick were 1 ms of a frame; walking into a new column brings 9
# columns' chunks that are not air (about 40 on the default terrain), looked at within 3 ticks.
LOOK_PER_TICK = 16
SIMULATION_DISTANCE = 4  # chunk columns around the player whose chunks are ticked
_AROUND = tuple(
    (dx, dy, dz)
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
    for dz in (-1, 0, 1)
    if (dx, dy, dz) != (0, 0, 0)
)


class RandomTicker:
    """Picks the random-tick voxels of a world's loaded chunks.

    Parameters
    ----------
    world : World
    per_chunk : int
        Voxels picked per loaded chunk per game tick (`RANDOM_TICK_SPEED`; 0 turns them off).
    seed : int, optional
        For reproducible picks (tests); random otherwise.
    distance : int
        The simulation distance: chunk columns around `around` that are ticked (module notes).

    Attributes
    ----------
    around : tuple of int, optional
        The chunk column (cx, cz) the simulated area is centred on; ``None`` ticks every loaded
        chunk.
    """

    def __init__(
        self,
        world: World,
        per_chunk: int = RANDOM_TICK_SPEED,
        seed: int | None = None,
        *,
        distance: int = SIMULATION_DISTANCE,
    ) -> None:
        if not isinstance(world, World):
            raise TypeError(f"world must be a World, got {type(world).__name__}")
        if not 0 <= integer(per_chunk, "per_chunk") <= CHUNK_VOLUME:
            raise ValueError(f"per_chunk must be 0..{CHUNK_VOLUME}, got {per_chunk!r}")
        if integer(distance, "distance") < 0:
            raise ValueError(f"distance must be chunk columns >= 0, got {distance!r}")
        self.world = world
        self.per_chunk = per_chunk
        self.distance = distance
        self.around: tuple[int, int] | None = None
        self._rng = np.random.default_rng(seed)
        self._owed = 0.0  # game time not yet ticked
        # The loaded chunks looked at, and of those the ones holding a reacting block.
        self._seen: set[ChunkKey] = set()
        self._hot: dict[ChunkKey, None] = {}
        self._table_size = 0
        self._turn = 0
        # The chunk keys of the simulated area's columns, for the `around` they were made for.
        self._candidates: tuple[tuple[int, int] | None, set[ChunkKey]] = (None, set())

    def centre_on(self, pos: Iterable[float] | None) -> None:
        """Centre the simulated area on the chunk column of world position ``pos`` (the
        player's); ``None`` ticks every loaded chunk."""
        if pos is None:
            self.around = None
        else:
            x, _, z = vec3(pos, "around")
            self.around = (math.floor(x) >> CHUNK_SHIFT, math.floor(z) >> CHUNK_SHIFT)

    def due(self, dt: float) -> int:
        """How many game ticks `dt` more seconds of game time make (at most `MAX_CATCH_UP`)."""
        seconds = number(dt, "dt")
        if not 0.0 <= seconds < float("inf"):
            raise ValueError(f"dt must be a finite number of seconds >= 0, got {dt!r}")
        self._owed += seconds
        ticks = int(self._owed / TICK_SECONDS)
        self._owed -= ticks * TICK_SECONDS
        if ticks > MAX_CATCH_UP:
            self._owed = 0.0
            ticks = MAX_CATCH_UP
        return ticks

    def _surrounded(self, key: tuple[int, int, int]) -> bool:
        """Whether all 26 neighbours of a chunk are loaded (reading them generates nothing).

        A neighbour in memory is found in the chunk table; `World.is_loaded`, with its
        argument checks, is asked only about the others (known air, or not loaded): with every
        loaded chunk reacting (an ABM on stone, bench/ticks.py) this took drawing the picks of
        249 chunks from 1.37 to 0.85 ms (medians).
        """
        if self.world.generator is None:
            return True  # nothing to generate: every chunk reads for free
        cx, cy, cz = key
        chunks, loaded = self.world.chunks, self.world.is_loaded
        for dx, dy, dz in _AROUND:
            near = (cx + dx, cy + dy, cz + dz)
            if near not in chunks and not loaded(*near):
                return False
        return True

    def _area(self) -> set[ChunkKey]:
        """The loaded chunks ticked: those of the columns within the simulation distance of
        `around`, in the world's build height (every loaded chunk when `around` is None).

        Found by intersecting the loaded chunks with the keys of those columns (a set made once
        per `around`: 784 keys at distance 4) rather than by a Python loop over every loaded
        chunk (about 1,000 at view distance 8).
        """
        chunks = self.world.chunks
        if self.around is None:
            return set(chunks)
        if self._candidates[0] != self.around:
            ax, az = self.around
            reach = self.distance * self.distance
            layers = chunk_layers(*self.world.build_height)
            keys = {
                (ax + dx, cy, az + dz)
                for dx in range(-self.distance, self.distance + 1)
                for dz in range(-self.distance, self.distance + 1)
                if dx * dx + dz * dz <= reach
                for cy in layers
            }
            self._candidates = (self.around, keys)
        return chunks.keys() & self._candidates[1]

    def _reacting_chunks(self, reacts: NDArray[np.bool_]) -> list[Chunk]:
        """The ticked chunks (`_area`) holding a block that reacts, from a per-chunk cache.

        A chunk is looked at again when it is new to the area (loaded, or come within the
        simulation distance, since it was last looked at), when it is in ``world.dirty``
        (edited or installed anew since the view last remeshed), and in a rotating slice of
        1/`RECHECK_TICKS` of the area each tick, so an edit the cache missed (one made by a
        tick and remeshed before the next) is noticed within that many ticks. At most
        `LOOK_PER_TICK` new chunks are looked at a tick (a column come into the area may wait
        a few ticks for its first random tick). Chunks loaded far from the player are never
        looked at: at view distance 8 a sprint-flight loads a chunk every few frames, out of
        reach of the simulation distance.
        """
        chunks = self.world.chunks
        seen, hot = self._seen, self._hot
        if len(reacts) != self._table_size:
            seen.clear()
            hot.clear()
            self._table_size = len(reacts)
        inside = self._area()
        for key in seen - inside:  # unloaded, or out of the area
            seen.discard(key)
            hot.pop(key, None)
        self._turn = (self._turn + 1) % RECHECK_TICKS
        # Edits and this tick's slice of the rotation, every one; chunks new to the area, at
        # most LOOK_PER_TICK a tick: the rest stay new and are looked at in the next ticks.
        look = self.world.dirty & inside
        look.update(list(inside)[self._turn :: RECHECK_TICKS])
        look.update(itertools.islice(inside - seen - look, LOOK_PER_TICK))
        for key in look:
            seen.add(key)
            if reacts[chunks[key].blocks].any():
                hot[key] = None
            else:
                hot.pop(key, None)
        return [chunks[key] for key in hot]

    def pick(self) -> list[tuple[Int3, int]]:
        """One game tick's picks that react: (world position, state id) pairs, in chunk order.

        Only chunks holding a reacting block, within the simulation distance of `around`, are
        drawn from (`_reacting_chunks`): the others could only give picks that do nothing.
        """
        reacts = self.world.registry.random_ticks
        if not self.world.chunks or self.per_chunk == 0 or not reacts.any():
            return []
        chunks = self._reacting_chunks(reacts)
        if not chunks:
            return []
        table = reacts.tolist()
        picks = self._rng.integers(0, CHUNK_VOLUME, (len(chunks), self.per_chunk)).tolist()
        found: list[tuple[Int3, int]] = []
        inner: dict[tuple[int, int, int], bool] = {}
        for chunk, indices in zip(chunks, picks, strict=True):
            blocks = chunk.blocks
            for index in indices:
                state = blocks.item(index)
                if table[state]:
                    if chunk.key not in inner:
                        inner[chunk.key] = self._surrounded(chunk.key)
                    if not inner[chunk.key]:
                        break
                    cx, cy, cz = chunk.key
                    found.append(
                        (
                            Int3(
                                (cx << CHUNK_SHIFT) + index // STRIDE_X,
                                (cy << CHUNK_SHIFT) + (index // STRIDE_Y) % (CHUNK_MASK + 1),
                                (cz << CHUNK_SHIFT) + index % (CHUNK_MASK + 1),
                            ),
                            state,
                        )
                    )
        return found
