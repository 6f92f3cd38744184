"""Chunk streaming: which chunks to load, mesh and drop around the player, under a time budget.

The game calls `ChunkStreamer.update` with the player's position and view direction each frame
and then `ChunkStreamer.work` with a few milliseconds of budget:

1. *load*: every chunk of every column within ``view_distance + 1.5`` (so every neighbour of a
   shown chunk, diagonal ones included, is loaded before it is meshed) is requested from a
   `world.stream.loader.ChunkLoader`, which reads saved chunks in batches (one SQLite query
   per group) and generates the others off the main thread; `work` swaps the finished arrays in
   (`World.install_loaded`: the world's dict is only touched by the main thread). Requests for
   columns that left the range are cancelled (a re-plan replaces the list; late results are
   thrown away), and a result read before its chunk was saved and forgotten is stale and
   thrown away too (loader epochs);
2. *mesh*: hand the chunk to ``on_mesh`` — for chunks within ``view_distance`` whose 26
   neighbours are loaded, so meshing never triggers a generation; jobs are handed out while
   the budget has room (the game meshes in the worker process when it has room, else itself);
3. *drop*: a chunk leaving ``view_distance`` is un-shown (``on_drop``: the game removes its
   entity); a chunk leaving ``view_distance + 1.5`` is forgotten by the world, after chunks with
   unsaved changes are handed to ``on_save`` (a chunk that still has unsaved changes is kept:
   no block is ever lost to streaming). Columns that left are let go a few per update, oldest
   first (a column back in range meanwhile stays): `LET_GO_COLUMNS` notes why.

Order: nearest first, and in front of the camera first — a column's rank is its distance times
``1 - 0.5 cos(angle to the view)`` (the view direction in 16 sectors; turning into another
sector re-plans), so a column straight ahead at distance 6 comes with one at 2 behind.

Distances are horizontal, in chunk columns (Euclidean, as Minecraft's render distance is a
circle); every column spans ``cy_range`` vertically. Recentring works column by column (the
columns in range come from a cached ordered list of offsets, and per-column counts of loaded
and meshed chunks skip complete columns), so it costs about 1 ms at view distance 8 and 3 ms at
16, rather than a walk over every chunk in range (4 ms and 20 ms).

A mesh job's cost is estimated from the average of past jobs; a job runs only while the frame's
budget has room for it, and at least one job runs per call so streaming never starves at low
frame rates. Loading runs in a worker process in the game (`world.stream.worker`: with a thread,
the GIL made the streaming frames take twice their CPU time), else a thread, or ``threaded=False``
(the default here) in `work`, one chunk a job: deterministic, for tests. Meshing is
``on_mesh``'s: the game sends copies of a chunk to the worker process (`game.chunk_view`).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import product

from world.stream.loader import ChunkLoader
from world.stream.worker import WorkerRecipe
from world.voxels.chunks import World
from world.voxels.layout import CHUNK, ChunkKey

__all__ = ["LET_GO_COLUMNS", "MAX_VIEW_DISTANCE", "MIN_VIEW_DISTANCE", "ChunkStreamer"]

MIN_VIEW_DISTANCE = 2
MAX_VIEW_DISTANCE = 16
# Starting guesses of a job's seconds (generation ~ a few ms, meshing ~1 ms); replaced by
# running averages as soon as jobs have run.
_FIRST_GUESS = {"load": 0.003, "mesh": 0.002}
_AVERAGE_WEIGHT = 0.2
# A neighbour of a column at distance r is at most r + sqrt(2) away.
_NEIGHBOUR_RING = 1.5

Column = tuple[int, int]
_SECTORS = 16  # view directions told apart when ordering columns (22.5° each)
_FRONT_WEIGHT = 0.5
_MESH_LOOKAHEAD = 16  # mesh jobs looked at for one whose neighbours are loaded
_NEIGHBOURS = tuple(product((-1, 0, 1), repeat=3))
# Columns let go (un-shown, or forgotten) per `ChunkStreamer.update`, of each kind: a crossing at
# view distance 8 leaves 19 columns of 16 layers, and letting all go at once took 10-16 ms; a
# column is 0.3-1 ms, not counted in the game's streaming budget (taken from it, it slowed the
# meshing of the columns coming in: hole frames in the flight).
LET_GO_COLUMNS = 2  # or, of a longer backlog (a teleport's), a LET_GO_SPREAD th an update
LET_GO_SPREAD = 8


class ChunkStreamer:
    """Keeps the chunks around a player loaded and meshed, nearest and view-direction first.

    Parameters
    ----------
    world : World
    view_distance : int
        Radius in chunk columns of what is meshed and shown (2..16).
    cy_range : (int, int)
        Chunk layers ``low <= cy < high`` streamed in every column.
    on_mesh : callable, optional
        ``on_mesh(key)``: the chunk ``key`` is ready to be meshed and shown. It may return
        False to decline it for now (the game's worker process is full): the job goes back to
        the head of the queue and the frame's meshing stops.
    on_drop : callable, optional
        ``on_drop(key)``: the chunk ``key`` left the view; remove what shows it.
    on_save : callable, optional
        ``on_save(keys)``: save these chunks (unsaved changes) before they are dropped.
    on_forget : callable, optional
        ``on_forget(key)``: the world forgot chunk ``key`` (what was kept about it can go).
    clock : callable
        Seconds, monotonic (tests pass a fake clock).
    threaded : bool
        Load in a worker thread (`world.stream.loader`); ``False`` loads in `work`, one
        batch per job, deterministic (tests).
    worker : WorkerRecipe, optional
        Threaded: load in a worker process built from it instead (`world.stream.worker`).
    on_mod_error : callable, optional
        ``on_mod_error(mod, where, message)``: a mod failed in the worker process.
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
        on_forget: Callable[[ChunkKey], object] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        threaded: bool = False,
        worker: WorkerRecipe | None = None,
        on_mod_error: Callable[[str, str, str], object] | None = None,
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
        self.on_forget = on_forget
        self.clock = clock
        self.center: Column | None = None
        self.sector: int | None = None  # the view direction, in 1/_SECTORS turns
        self.loaded: set[ChunkKey] = set()
        self.meshed: set[ChunkKey] = set()
        # In the frame, one chunk a job (a job must fit a budget); in the thread, batches.
        self.loader = ChunkLoader(
            world.generator,
            threaded=threaded,
            batch=16 if threaded else 1,
            worker=worker,
            on_mod_error=on_mod_error,
        )
        self._mesh_queue: deque[ChunkKey] = deque()
        self._keep_load: set[Column] = set()
        self._keep_mesh: set[Column] = set()
        # Columns that left the mesh / load range, let go a few an update (`_let_go`).
        self._leaving_mesh: dict[Column, None] = {}
        self._leaving_load: dict[Column, None] = {}
        self._let_go_now = False  # the view distance changed: let go at once
        self.let_go_seconds = 0.0  # what letting go took in the last `update`
        # Per column, how many of its chunks are in `loaded` / `meshed` (no entry: none).
        self._loaded_in: dict[Column, int] = {}
        self._meshed_in: dict[Column, int] = {}
        # The loader epoch in which a chunk was last forgotten: older results are stale.
        self._dropped_at: dict[ChunkKey, int] = {}
        self._cost = dict(_FIRST_GUESS)
        self.last_work_seconds = 0.0
        self.cancelled = 0  # results thrown away: their chunk left the range or went stale

    # -- what is wanted ---------------------------------------------------------------------

    def set_view_distance(self, view_distance: int) -> None:
        """Change the radius; the queues are rebuilt on the next `update`, which lets go of
        every column beyond it at once (a menu's change shows in the next frame)."""
        self.view_distance = _check_view_distance(view_distance)
        self.center = None
        self._let_go_now = True

    def update(self, pos: Iterable[float], facing: tuple[float, float] | None = None) -> None:
        """Re-plan when the player has moved to another chunk column or turned (cheap otherwise).

        ``facing`` is the horizontal view direction ``(dx, dz)``: columns in front of the camera
        come before columns at the same distance behind it.
        """
        px, _, pz = pos
        center = (math.floor(px) // CHUNK[0], math.floor(pz) // CHUNK[2])
        sector = _sector(facing)
        if center == self.center and sector == self.sector:
            self._let_go()
            return
        self.center, self.sector = center, sector
        load_columns = _columns_within(center, self.view_distance + _NEIGHBOUR_RING, sector)
        mesh_columns = _columns_within(center, self.view_distance, sector)
        height = self.cy_range[1] - self.cy_range[0]
        self.loader.request(
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
        self._keep_mesh = keep_mesh = set(mesh_columns)
        self._keep_load = keep_load = set(load_columns)
        self._leaving_mesh.update(dict.fromkeys(c for c in self._meshed_in if c not in keep_mesh))
        self._leaving_load.update(dict.fromkeys(c for c in self._loaded_in if c not in keep_load))
        if self._let_go_now:
            self._let_go_now = False
            self.let_go_all()
        else:
            self._let_go()

    def _let_go(self, columns: int | None = None) -> None:
        """Un-show, then forget, up to ``columns`` (`LET_GO_COLUMNS`, or a `LET_GO_SPREAD` th of
        a backlog) columns that left, oldest first, keeping any back in range; nothing is
        forgotten while one waits to be un-shown (a chunk still shown may be remeshed, and the
        mesher would load again what was forgotten). Its time is `let_go_seconds`."""
        began = self.clock()
        for leaving, keep, forget in (
            (self._leaving_mesh, self._keep_mesh, False),
            (self._leaving_load, self._keep_load, True),
        ):
            if forget and self._leaving_mesh:
                break
            most = (
                max(LET_GO_COLUMNS, -(-len(leaving) // LET_GO_SPREAD))
                if columns is None
                else columns
            )
            far: set[ChunkKey] = set()
            for _ in range(min(most, len(leaving))):
                column = next(iter(leaving))
                del leaving[column]
                if column in keep:
                    continue
                for key in self._chunks_of(column):
                    if not forget and key in self.meshed:
                        self._unmesh(key)
                    elif forget and key in self.loaded:
                        far.add(key)
            self._drop(far)
        self.let_go_seconds = self.clock() - began

    def let_go_all(self) -> None:
        """Un-show and forget at once every column that left the range (tests, teleports)."""
        self._let_go(len(self._leaving_mesh) + len(self._leaving_load))

    def _chunks_of(self, column: Column) -> Iterator[ChunkKey]:
        """The column's chunks, bottom up."""
        cx, cz = column
        return ((cx, cy, cz) for cy in range(*self.cy_range))

    def _drop(self, far: set[ChunkKey]) -> None:
        if not far:
            return
        unsaved = [k for k in far if k in self.world.modified]
        if unsaved and self.on_save is not None:
            self.on_save(unsaved)
        # A load that started before now may hold rows older than this save: stale.
        self.loader.epoch += 1
        for key in far:
            if self.world.unload_chunk(*key):
                self.loaded.discard(key)
                _count(self._loaded_in, key, -1)
                self._dropped_at[key] = self.loader.epoch
                if self.on_forget is not None:
                    self.on_forget(key)

    def _unmesh(self, key: ChunkKey) -> None:
        self.meshed.discard(key)
        _count(self._meshed_in, key, -1)
        if self.on_drop is not None:
            self.on_drop(key)

    # -- doing it ---------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Jobs still waiting (chunks to load, loaded ones to take, meshes)."""
        return self.loader.in_flight + len(self._mesh_queue)

    @property
    def waiting_meshes(self) -> int:
        """Chunks within the view distance loaded with their neighbours and waiting to be
        meshed: what the player would see and does not yet."""
        return len(self._mesh_queue)

    def work(self, budget: float, *, wait: bool = False) -> int:
        """Take finished loads, then mesh nearest first while ``budget`` seconds have room.

        Returns the jobs run (meshes; loads too when not threaded). With ``wait``, a threaded
        loader is waited for while the budget lasts (start-up: the whole view at once).
        """
        start = self.clock()
        jobs = self.take_loaded()
        while self._mesh_queue or self.loader.in_flight:
            kind, key = self._next_job()
            elapsed = self.clock() - start
            if kind is None:
                if not wait or not self.loader.in_flight or elapsed >= budget:
                    break
                self.loader.wait(min(budget - elapsed, 0.05))
                jobs += self.take_loaded()
                continue
            if jobs and elapsed + self._cost[kind] > budget:
                if kind == "mesh":  # not this frame: back to the head of its queue
                    self._mesh_queue.appendleft(key)
                break
            began = self.clock()
            if kind == "load":
                self.loader.pump()
                self.take_loaded()
            else:
                self.meshed.add(key)
                _count(self._meshed_in, key, 1)
                if self.on_mesh is not None and self.on_mesh(key) is False:
                    self.give_back((key,))  # declined: for a later frame
                    break
            took = self.clock() - began
            self._cost[kind] += _AVERAGE_WEIGHT * (took - self._cost[kind])
            jobs += 1
        self.last_work_seconds = self.clock() - start
        return jobs

    def take_loaded(self) -> int:
        """Swap the loader's finished arrays into the world; returns how many were taken."""
        results = self.loader.take()
        for key, blocks, epoch in results:
            if (key[0], key[2]) not in self._keep_load or epoch < self._dropped_at.get(key, -1):
                self.cancelled += 1  # left the range meanwhile, or read before a save
                continue
            self.world.install_loaded(key, blocks)  # (kept if loaded meanwhile)
            if key not in self.loaded:
                self.loaded.add(key)
                _count(self._loaded_in, key, 1)
        if not self.loader.in_flight:
            self._dropped_at.clear()  # no load older than now is left
        return len(results) if not self.loader.threaded else 0

    def _next_job(self) -> tuple[str | None, ChunkKey]:
        """A near mesh job whose neighbours are loaded, else a load batch (not threaded)."""
        queue = self._mesh_queue
        while queue and queue[0] in self.meshed:
            queue.popleft()
        looked: list[ChunkKey] = []
        found: ChunkKey | None = None
        # Threaded, loads land out of order: a few jobs further on may be ready first.
        lookahead = _MESH_LOOKAHEAD if self.loader.threaded else 1
        while queue and len(looked) < lookahead:
            key = queue.popleft()
            if key in self.meshed:
                continue
            if self._neighbours_loaded(key):
                found = key
                break
            looked.append(key)
        queue.extendleft(reversed(looked))
        if found is not None:
            return "mesh", found
        if not self.loader.threaded and self.loader.queued:
            return "load", (0, 0, 0)
        if queue and not self.loader.in_flight:
            # Nothing left to load: mesh anyway (the mesher reads what it needs).
            return "mesh", queue.popleft()
        return None, (0, 0, 0)

    def _neighbours_loaded(self, key: ChunkKey) -> bool:
        cx, cy, cz = key
        low, high = self.cy_range
        loaded, world = self.loaded, self.world
        for dx, dy, dz in _NEIGHBOURS:
            n = (cx + dx, cy + dy, cz + dz)
            if low <= n[1] < high and n not in loaded and not world.is_loaded(*n):
                return False
        return True

    def around(
        self, pos: Iterable[float], radius: float
    ) -> tuple[frozenset[ChunkKey], frozenset[ChunkKey]]:
        """The chunks of the columns within ``radius`` (at most the view distance) of the column
        under ``pos``, which streaming meshes and shows, and the chunks loaded for them (those
        and their neighbours' columns, which their meshes read): what a view of that radius
        waits for (the game's first view)."""
        px, _, pz = pos
        center = (math.floor(px) // CHUNK[0], math.floor(pz) // CHUNK[2])
        columns = _columns_within(center, min(float(radius), float(self.view_distance)))
        around = {
            (cx + dx, cz + dz) for cx, cz in columns for dx in (-1, 0, 1) for dz in (-1, 0, 1)
        }
        shown = frozenset(key for column in columns for key in self._chunks_of(column))
        loaded = frozenset(key for column in around for key in self._chunks_of(column))
        return shown, loaded

    def give_back(self, keys: Iterable[ChunkKey]) -> None:
        """Chunks handed to ``on_mesh`` that were not meshed after all (the game's first view
        meshes only its own): they are handed over again first, in the order given."""
        back = [key for key in keys if key in self.meshed]
        for key in back:
            self.meshed.discard(key)
            _count(self._meshed_in, key, -1)
        self._mesh_queue.extendleft(reversed(back))

    def ready_at(self, pos: Iterable[float]) -> bool:
        """Whether the column under ``pos`` is loaded (the player may move: ground is there)."""
        px, _, pz = pos
        cx, cz = math.floor(px) // CHUNK[0], math.floor(pz) // CHUNK[2]
        low, high = self.cy_range
        return all(self.world.is_loaded(cx, cy, cz) for cy in range(low, high))

    def close(self) -> None:
        """Stop the loader thread (pending loads are dropped)."""
        self.loader.close()


def _sector(facing: tuple[float, float] | None) -> int | None:
    """The horizontal direction as one of `_SECTORS` sectors (None: no direction)."""
    if facing is None:
        return None
    dx, dz = facing
    if not (math.isfinite(dx) and math.isfinite(dz)) or dx * dx + dz * dz < 1e-12:
        return None
    turn = math.atan2(dz, dx) / (2.0 * math.pi)
    return round(turn * _SECTORS) % _SECTORS


@lru_cache(maxsize=64)
def _ordered_offsets(radius: float, sector: int | None) -> tuple[Column, ...]:
    """`_offsets_within`, columns in front of the sector's direction first at equal distance.

    A column's rank is its distance times ``1 - _FRONT_WEIGHT * cos(angle to the view)``: a
    column straight ahead at distance 6 comes with one at distance 2 straight behind.
    """
    offsets = _offsets_within(radius)
    if sector is None:
        return offsets
    angle = 2.0 * math.pi * sector / _SECTORS
    fx, fz = math.cos(angle), math.sin(angle)

    def rank(offset: Column) -> float:
        dx, dz = offset
        d = math.hypot(dx, dz)
        if d == 0.0:
            return 0.0
        return d * (1.0 - _FRONT_WEIGHT * (dx * fx + dz * fz) / d)

    return tuple(sorted(offsets, key=rank))


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


def _columns_within(center: Column, radius: float, sector: int | None = None) -> list[Column]:
    """The columns within ``radius`` of ``center``, nearest (and in front) first."""
    cx0, cz0 = center
    return [(cx0 + dx, cz0 + dz) for dx, dz in _ordered_offsets(radius, sector)]


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
