"""Chunk streaming: which chunks to load, mesh and drop around the player, under a time budget.

The game calls `ChunkStreamer.update` with the player's position each frame and then
`ChunkStreamer.work` with a few milliseconds of budget. Work is done nearest-first, one chunk per
job, so no frame stalls on a whole column:

1. *load*: read the chunk (the world generates it, or the store loads it) — for every chunk of
   every column within ``view_distance + 1.5`` (so every neighbour of a shown chunk, diagonal
   ones included, is loaded before it is meshed);
2. *mesh*: hand the chunk to ``on_mesh`` — for chunks within ``view_distance`` whose 26
   neighbours are loaded, so meshing never triggers a generation inside the same job;
3. *drop*: a chunk leaving ``view_distance`` is un-shown (``on_drop``: the game removes its
   entity); a chunk leaving ``view_distance + 1.5`` is forgotten by the world, after chunks with
   unsaved changes are handed to ``on_save`` (a chunk that still has unsaved changes is kept:
   no block is ever lost to streaming).

So what is shown stays within the view distance, and what is loaded within 1.5 columns more.

Distances are horizontal, in chunk columns (Euclidean, as Minecraft's render distance is a
circle); every column spans ``cy_range`` vertically. Recentring works column by column (the
columns in range come from a cached nearest-first list of offsets, and per-column counts of
loaded and meshed chunks skip complete columns), so it costs about 1 ms at view distance 8 and
3 ms at 16 (16 layers of terrain chunks), rather than a walk over every chunk in range (4 ms and
20 ms).

A job's cost is estimated from the average of past jobs of its kind; a job runs only while the
frame's budget has room for it, and at least one job runs per call so streaming never starves
at low frame rates.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import product

from world.chunks import CHUNK, ChunkKey, World

__all__ = ["MAX_VIEW_DISTANCE", "MIN_VIEW_DISTANCE", "ChunkStreamer"]

MIN_VIEW_DISTANCE = 2
MAX_VIEW_DISTANCE = 16
# Starting guesses of a job's seconds (generation ~ a few ms, meshing ~1 ms); replaced by
# running averages as soon as jobs have run.
_FIRST_GUESS = {"load": 0.003, "mesh": 0.002}
_AVERAGE_WEIGHT = 0.2
# A neighbour of a column at distance r is at most r + sqrt(2) away.
_NEIGHBOUR_RING = 1.5

Column = tuple[int, int]


class ChunkStreamer:
    """Keeps the chunks around a player loaded and meshed, nearest first.

    Parameters
    ----------
    world : World
    view_distance : int
        Radius in chunk columns of what is meshed and shown (2..16).
    cy_range : (int, int)
        Chunk layers ``low <= cy < high`` streamed in every column.
    on_mesh : callable, optional
        ``on_mesh(key)``: the chunk ``key`` is ready to be meshed and shown.
    on_drop : callable, optional
        ``on_drop(key)``: the chunk ``key`` left the view; remove what shows it.
    on_save : callable, optional
        ``on_save(keys)``: save these chunks (unsaved changes) before they are dropped.
    clock : callable
        Seconds, monotonic (tests pass a fake clock).
    """

    def __init__(
        self,
        world: World,
        view_distance: int = 8,
        cy_range: tuple[int, int] = (0, 8),
        *,
        on_mesh: Callable[[ChunkKey], object] | None = None,
        on_drop: Callable[[ChunkKey], object] | None = None,
        on_save: Callable[[list[ChunkKey]], object] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.world = world
        self.view_distance = _check_view_distance(view_distance)
        low, high = cy_range
        if not low < high:
            raise ValueError(f"cy_range must be (low, high) with low < high, got {cy_range}")
        self.cy_range = (int(low), int(high))
        self.on_mesh = on_mesh
        self.on_drop = on_drop
        self.on_save = on_save
        self.clock = clock
        self.center: Column | None = None
        self.loaded: set[ChunkKey] = set()
        self.meshed: set[ChunkKey] = set()
        self._load_queue: deque[ChunkKey] = deque()
        self._mesh_queue: deque[ChunkKey] = deque()
        # Per column, how many of its chunks are in `loaded` / `meshed` (no entry: none).
        self._loaded_in: dict[Column, int] = {}
        self._meshed_in: dict[Column, int] = {}
        self._cost = dict(_FIRST_GUESS)
        self.last_work_seconds = 0.0

    # -- what is wanted ---------------------------------------------------------------------

    def set_view_distance(self, view_distance: int) -> None:
        """Change the radius; the queues are rebuilt on the next `update`."""
        self.view_distance = _check_view_distance(view_distance)
        self.center = None

    def update(self, pos: Iterable[float]) -> None:
        """Re-plan when the player has moved to another chunk column (cheap otherwise)."""
        px, _, pz = pos
        center = (math.floor(px) // CHUNK[0], math.floor(pz) // CHUNK[2])
        if center == self.center:
            return
        self.center = center
        load_columns = _columns_within(center, self.view_distance + _NEIGHBOUR_RING)
        mesh_columns = _columns_within(center, self.view_distance)
        height = self.cy_range[1] - self.cy_range[0]
        self._load_queue = deque(
            key
            for column in load_columns
            if self._loaded_in.get(column, 0) < height
            for key in self._chunks_of(column)
            if key not in self.loaded
        )
        self._mesh_queue = deque(
            key
            for column in mesh_columns
            if self._meshed_in.get(column, 0) < height
            for key in self._chunks_of(column)
            if key not in self.meshed
        )
        keep_mesh = set(mesh_columns)
        for column in [c for c in self._meshed_in if c not in keep_mesh]:
            for key in self._chunks_of(column):
                if key in self.meshed:
                    self._unmesh(key)
        keep_load = set(load_columns)
        self._drop(
            {
                key
                for column in self._loaded_in
                if column not in keep_load
                for key in self._chunks_of(column)
                if key in self.loaded
            }
        )

    def _chunks_of(self, column: Column) -> Iterator[ChunkKey]:
        """The column's chunks, bottom up."""
        cx, cz = column
        return ((cx, cy, cz) for cy in range(*self.cy_range))

    def _drop(self, far: set[ChunkKey]) -> None:
        unsaved = [k for k in far if k in self.world.modified]
        if unsaved and self.on_save is not None:
            self.on_save(unsaved)
        for key in far:
            if self.world.unload_chunk(*key):
                self.loaded.discard(key)
                _count(self._loaded_in, key, -1)

    def _unmesh(self, key: ChunkKey) -> None:
        self.meshed.discard(key)
        _count(self._meshed_in, key, -1)
        if self.on_drop is not None:
            self.on_drop(key)

    # -- doing it ---------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Jobs still queued (loads and meshes)."""
        return len(self._load_queue) + len(self._mesh_queue)

    def work(self, budget: float) -> int:
        """Run queued jobs, nearest first, while ``budget`` seconds have room; returns jobs run."""
        start = self.clock()
        jobs = 0
        while self._load_queue or self._mesh_queue:
            kind, key = self._next_job()
            if kind is None:
                break
            elapsed = self.clock() - start
            if jobs and elapsed + self._cost[kind] > budget:
                # Not this frame: the job goes back to the head of its queue.
                (self._load_queue if kind == "load" else self._mesh_queue).appendleft(key)
                break
            began = self.clock()
            if kind == "load":
                self.world.chunk(*key)
                self.loaded.add(key)
                _count(self._loaded_in, key, 1)
            else:
                self.meshed.add(key)
                _count(self._meshed_in, key, 1)
                if self.on_mesh is not None:
                    self.on_mesh(key)
            took = self.clock() - began
            self._cost[kind] += _AVERAGE_WEIGHT * (took - self._cost[kind])
            jobs += 1
        self.last_work_seconds = self.clock() - start
        return jobs

    def _next_job(self) -> tuple[str | None, ChunkKey]:
        """The nearest mesh job whose neighbours are loaded, else the next load job."""
        while self._mesh_queue and self._mesh_queue[0] in self.meshed:
            self._mesh_queue.popleft()
        if self._mesh_queue and self._neighbours_loaded(self._mesh_queue[0]):
            return "mesh", self._mesh_queue.popleft()
        while self._load_queue:
            key = self._load_queue.popleft()
            if key not in self.loaded:
                return "load", key
        if self._mesh_queue:  # nothing left to load: mesh anyway (the mesher reads what it needs)
            return "mesh", self._mesh_queue.popleft()
        return None, (0, 0, 0)

    def _neighbours_loaded(self, key: ChunkKey) -> bool:
        cx, cy, cz = key
        low, high = self.cy_range
        for dx, dy, dz in product((-1, 0, 1), repeat=3):
            n = (cx + dx, cy + dy, cz + dz)
            if low <= n[1] < high and n not in self.loaded and not self.world.is_loaded(*n):
                return False
        return True

    def ready_at(self, pos: Iterable[float]) -> bool:
        """Whether the column under ``pos`` is loaded (the player may move: ground is there)."""
        px, _, pz = pos
        cx, cz = math.floor(px) // CHUNK[0], math.floor(pz) // CHUNK[2]
        low, high = self.cy_range
        return all(self.world.is_loaded(cx, cy, cz) for cy in range(low, high))


@lru_cache(maxsize=8)
def _offsets_within(radius: float) -> tuple[Column, ...]:
    """Column offsets (dx, dz) within ``radius`` of (0, 0), nearest first."""
    reach = math.ceil(radius)
    offsets = [
        (dx, dz)
        for dx, dz in product(range(-reach, reach + 1), repeat=2)
        if dx * dx + dz * dz <= radius * radius
    ]
    offsets.sort(key=lambda o: o[0] * o[0] + o[1] * o[1])
    return tuple(offsets)


def _columns_within(center: Column, radius: float) -> list[Column]:
    """The columns within ``radius`` of ``center``, nearest first."""
    cx0, cz0 = center
    return [(cx0 + dx, cz0 + dz) for dx, dz in _offsets_within(radius)]


def _count(counts: dict[Column, int], key: ChunkKey, change: int) -> None:
    """Add ``change`` to the count of the key's column, forgetting columns that reach 0."""
    column = (key[0], key[2])
    left = counts.get(column, 0) + change
    if left:
        counts[column] = left
    else:
        counts.pop(column, None)


def _check_view_distance(view_distance: int) -> int:
    if isinstance(view_distance, bool) or not isinstance(view_distance, int):
        raise ValueError(f"view_distance must be an integer, got {view_distance!r}")
    if not MIN_VIEW_DISTANCE <= view_distance <= MAX_VIEW_DISTANCE:
        raise ValueError(
            f"view_distance must be {MIN_VIEW_DISTANCE}..{MAX_VIEW_DISTANCE}, got {view_distance}"
        )
    return view_distance
