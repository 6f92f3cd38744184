"""Which loaded chunks to light next: nearest the camera first, grouped, under a time budget.

A `LightScheduler` keeps the chunks lit whole (`LightScheduler.lit`) and a queue of the loaded
chunks waiting to be lit, kept by 2×2 chunk columns: choosing the next job is a pass over
those groups, not a sort of every waiting chunk (thousands wait in a fast flight). A job lights
the waiting chunks of the group nearest the camera, nearest layers first, in one relight
(`world.light.lighting.Light.add_chunks`): new columns of terrain cost 0.9-1.6 ms a chunk lit two
columns together, 1.7-2.1 ms a column at a time, 2.7-3.6 ms one by one. A job starts only when
the usual cost of a chunk (a running average) fits what is left of the budget, and takes as
many chunks as fit, at most `LIGHT_GROUP`; with ``force`` one job runs anyway.

Engine-free, as the streamer (`world.stream.streamer`) it sits beside: the game's chunk view
(`game.chunk_view`) asks it for work in the frame time the streaming leaves, and remeshes the
drawn chunks whose light the jobs changed. A chunk the world forgets is forgotten here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from world.light.lighting import Light
from world.voxels.chunks import World
from world.voxels.layout import ChunkKey

__all__ = ["LIGHT_GROUP", "LightScheduler"]

LIGHT_GROUP = 8  # chunks lit together in one job, at most
_COST_WEIGHT = 0.1  # how fast the job's running cost follows new measurements
_AROUND = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


class LightScheduler:
    """The chunks of one world to light, and those lit (see the module notes).

    Parameters
    ----------
    world : World
    light : Light
        The world's light.
    clock : callable
        Seconds, monotonic (tests pass a fake one).
    """

    def __init__(
        self, world: World, light: Light, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.world = world
        self.light = light
        self.clock = clock
        self.lit: set[ChunkKey] = set()  # chunks lit whole (`Light.add_chunks`)
        # Loaded chunks waiting to be lit, by 2×2 columns (``(cx >> 1, cz >> 1)``).
        self._queue: dict[tuple[int, int], dict[ChunkKey, None]] = {}
        self.cost = 0.003  # seconds a chunk's light usually takes (a running average)

    @property
    def waiting(self) -> bool:
        """Whether any chunk waits to be lit."""
        return bool(self._queue)

    def want(self, key: ChunkKey) -> None:
        """Queue the chunk and its loaded neighbours that are not lit yet (it is meshed: its
        light reads one voxel across its borders)."""
        cx, cy, cz = key
        for dx, dy, dz in _AROUND:
            n = (cx + dx, cy + dy, cz + dz)
            if n not in self.lit and self.world.is_loaded(*n):
                self._queue.setdefault((n[0] >> 1, n[2] >> 1), {})[n] = None

    def _unqueue(self, key: ChunkKey) -> None:
        block = (key[0] >> 1, key[2] >> 1)
        waiting = self._queue.get(block)
        if waiting is not None:
            waiting.pop(key, None)
            if not waiting:
                del self._queue[block]

    def forget(self, key: ChunkKey) -> None:
        """The world forgot a chunk: so does the light."""
        self.light.remove_chunk(key)
        self.lit.discard(key)
        self._unqueue(key)

    def light_all(self, keys: Iterable[ChunkKey]) -> None:
        """Light these chunks and every chunk waiting, at once (the start: one relight over the
        whole view is grouped as a job is, 0.5 ms a chunk)."""
        for key in keys:
            self.want(key)
        todo = [key for waiting in self._queue.values() for key in waiting]
        self._queue.clear()
        self.lit.update(todo)
        self.light.add_chunks(todo)

    def work(
        self,
        camera: ChunkKey,
        started: float,
        budget_s: float,
        *,
        force: bool,
        changed: Callable[[Iterable[ChunkKey]], object],
    ) -> int:
        """Light waiting chunks, nearest ``camera`` first, while ``budget_s`` from ``started``
        lasts (one job anyway with ``force``); ``changed`` is told the chunks each job's light
        reached. Returns the jobs done."""
        done = 0
        cx, cy, cz = camera
        queue = self._queue
        while queue:
            left = budget_s - (self.clock() - started)
            if (done or not force) and left < self.cost:
                break
            fits = (  # (an infinite budget, at start-up, takes whole groups)
                LIGHT_GROUP if left >= LIGHT_GROUP * self.cost else max(1, int(left / self.cost))
            )
            nearest = min(queue, key=lambda b: (2 * b[0] + 1 - cx) ** 2 + (2 * b[1] + 1 - cz) ** 2)
            group = sorted(queue[nearest], key=lambda k: abs(k[1] - cy))[:fits]
            for k in group:
                self._unqueue(k)
            group = [k for k in group if k not in self.lit and self.world.is_loaded(*k)]
            if not group:
                continue
            self.lit.update(group)
            began = self.clock()
            changed(self.light.add_chunks(group))
            took = (self.clock() - began) / len(group)
            self.cost += _COST_WEIGHT * (took - self.cost)
            done += 1
        return done
