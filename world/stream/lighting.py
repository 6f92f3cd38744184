"""Which loaded chunks to light next: nearest the camera first, grouped, under a time budget.

A `LightScheduler` keeps the chunks lit whole (`LightScheduler.lit`) and a queue of the loaded
chunks waiting to be lit, kept by 2×2 chunk columns: choosing the next job is a pass over
those groups, not a sort of every waiting chunk (thousands wait in a fast flight). A job lights
the waiting chunks of the group nearest the camera, nearest layers first, in one relight
(`world.light.lighting.Light.add_chunks`): new columns of terrain cost 0.9-1.6 ms a chunk lit two
columns together, 1.7-2.1 ms a column at a time, 2.7-3.6 ms one by one. A job starts only when
the usual cost of a chunk (a running average) fits what is left of the budget, and takes as
many chunks as fit, at most `LIGHT_GROUP`; with ``force`` one job runs anyway.

With a solver (the chunk worker process, through `world.stream.loader.ChunkLoader`), a job is
solved there: the frame reads the group's box (`Light.begin_chunks`), the worker relaxes it
(`world.light.lighting.solve_light`) and a later frame writes the answer (`Light.finish_chunks`),
or lights the group again when a chunk the job read changed meanwhile (an edit's relight, a
chunk forgotten). One job is out at a time: the next group's box overlaps the last one's (15
voxels around each), and a job begun before the last one's answer was written would be stale.
A job the solver refuses (no worker ready) or loses is solved in the frame.

Engine-free, as the streamer (`world.stream.streamer`) it sits beside: the game's chunk view
(`game.chunk_view`) asks it for work in the frame time the streaming leaves, and remeshes the
drawn chunks whose light the jobs changed. A chunk the world forgets is forgotten here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Protocol

from world.light.lighting import Light, LightAnswer, LightInputs, LightJob, solve_light
from world.voxels.chunks import World
from world.voxels.layout import ChunkKey

__all__ = ["LIGHT_GROUP", "LIGHT_GROUP_PAST_BUDGET", "LightScheduler", "LightSolver"]

LIGHT_GROUP = 8  # chunks lit together in one job, at most
LIGHT_GROUP_PAST_BUDGET = 3  # chunks of a job for the solver sent when the budget is spent
_COST_WEIGHT = 0.1  # how fast the job's running cost follows new measurements
_AROUND = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


class LightSolver(Protocol):
    """Where light jobs are solved off the main thread (the chunk worker process)."""

    def send_light(self, job_id: int, inputs: LightInputs) -> bool:
        """Hand a job over; False when it cannot be taken now (it is solved here)."""
        ...

    def take_lights(self) -> list[tuple[int, LightAnswer | None]]:
        """The answers since the last call, by job id; None for a job lost or failed."""
        ...


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
        # The job out at a solver (`work`), by id, and the main thread's seconds a chunk of
        # such a job usually takes (reading its box, writing the answer).
        self._out: dict[int, LightJob] = {}
        self._job_id = 0
        self.cost_out = 0.002

    @property
    def waiting(self) -> bool:
        """Whether any chunk waits to be lit (or for its light from a solver)."""
        return bool(self._queue) or bool(self._out)

    @property
    def backlog(self) -> int:
        """Chunks waiting to be lit (not counting the job out)."""
        return sum(len(waiting) for waiting in self._queue.values())

    def _lighting(self, key: ChunkKey) -> bool:
        return any(key in job.keys for job in self._out.values())

    def want(self, key: ChunkKey) -> None:
        """Queue the chunk and its loaded neighbours that are not lit yet (it is meshed: its
        light reads one voxel across its borders)."""
        cx, cy, cz = key
        for dx, dy, dz in _AROUND:
            n = (cx + dx, cy + dy, cz + dz)
            if n not in self.lit and self.world.is_loaded(*n) and not self._lighting(n):
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
        solver: LightSolver | None = None,
    ) -> int:
        """Light waiting chunks, nearest ``camera`` first, while ``budget_s`` from ``started``
        lasts (one job anyway with ``force``); ``changed`` is told the chunks each job's light
        reached and the chunks it lit (a chunk drawn before its light came is drawn again with
        it, even where lighting it changed nothing: a dark cave's light stays 0). With a
        ``solver``, its answers are written first, and the next job goes to it when none is out
        (module notes). Returns the jobs done (sent, written or lit here)."""
        done = 0 if solver is None else self._take(solver, changed)
        cx, cy, cz = camera
        queue = self._queue
        while queue and not self._out:
            out = solver is not None
            cost = self.cost_out if out else self.cost
            left = budget_s - (self.clock() - started)
            # With a solver, a job goes whenever none is out (else the solver idles): its
            # cost to the frame, reading the box, is two thirds of lighting it here; past the
            # budget it takes `LIGHT_GROUP_PAST_BUDGET` chunks (a frame read 8.8 ms for 8).
            if not out and (done or not force) and left < cost:
                break
            if out:
                left = max(left, LIGHT_GROUP_PAST_BUDGET * cost)
            fits = (  # (an infinite budget, at start-up, takes whole groups)
                LIGHT_GROUP if left >= LIGHT_GROUP * cost else max(1, int(left / cost))
            )
            nearest = min(queue, key=lambda b: (2 * b[0] + 1 - cx) ** 2 + (2 * b[1] + 1 - cz) ** 2)
            group = sorted(queue[nearest], key=lambda k: abs(k[1] - cy))[:fits]
            for k in group:
                self._unqueue(k)
            group = [k for k in group if k not in self.lit and self.world.is_loaded(*k)]
            if not group:
                continue
            began = self.clock()
            if solver is not None:
                job = self.light.begin_chunks(group)
                assert job is not None  # the group is loaded
                self._job_id += 1
                if solver.send_light(self._job_id, job.inputs):
                    self._out[self._job_id] = job
                    self._measure(began, len(group), out=True)
                    done += 1
                    break
                self._finish(job, solve_light(job.inputs), changed)
            else:
                self.lit.update(group)
                changed(self.light.add_chunks(group) | set(group))
            self._measure(began, len(group), out=False)
            done += 1
        return done

    def _take(self, solver: LightSolver, changed: Callable[[Iterable[ChunkKey]], object]) -> int:
        """Write the solver's answers (a lost job is solved here); the jobs written."""
        done = 0
        for job_id, answer in solver.take_lights():
            job = self._out.pop(job_id, None)
            if job is None:
                continue
            began = self.clock()
            if answer is None:
                answer = solve_light(job.inputs)
            self._finish(job, answer, changed)
            self._measure(began, len(job.keys), out=True)
            done += 1
        return done

    def _finish(
        self, job: LightJob, answer: LightAnswer, changed: Callable[[Iterable[ChunkKey]], object]
    ) -> None:
        """Write a job's answer, or queue its chunks again when it is stale."""
        keys = self.light.finish_chunks(job, answer)
        loaded = [k for k in job.keys if self.world.is_loaded(*k)]
        if keys is None:
            for k in loaded:
                self._queue.setdefault((k[0] >> 1, k[2] >> 1), {})[k] = None
            return
        self.lit.update(loaded)
        changed(keys | set(loaded))

    def _measure(self, began: float, chunks: int, *, out: bool) -> None:
        """Follow the usual cost of a chunk's light on the main thread."""
        took = (self.clock() - began) / chunks
        if out:
            self.cost_out += _COST_WEIGHT * (took - self.cost_out)
        else:
            self.cost += _COST_WEIGHT * (took - self.cost)
