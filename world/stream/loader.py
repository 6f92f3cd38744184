"""Reading and generating chunks off the main thread, for `world.stream.streamer.ChunkStreamer`.

A `ChunkLoader` holds an ordered request list (the streamer's nearest-first, view-direction-first
plan) and hands back finished block arrays; it never touches the `World`: the main thread swaps
the arrays in (`World.install_loaded`), so the world's dict is only ever used from one thread.
Asking again replaces the list: requests for chunks that left the view are cancelled before
they start.

A batch is a group of up to ``batch`` requests of the same chunk columns: a saved world reads
them in ONE SQLite query (``source.load_many``, `world.save.storage`), decompresses them (zlib
releases the GIL) and generates the ones never saved (numpy, which releases it too); the
store's connection is guarded by its lock, so the main thread may save meanwhile (the one-writer
rule and the save lock are the store's and stay as they are).

Each result carries the *epoch* the batch started in (`ChunkLoader.epoch`, which the streamer
advances whenever it forgets chunks): a result read before its chunk was saved and forgotten is
recognised as stale and never installed.

``threaded=False`` loads in the caller's thread, one batch per `ChunkLoader.pump` (tests, and
deterministic replays).

With a `world.stream.worker.WorkerRecipe` (the game's), batches go to a worker *process* instead
(why: `world.stream.worker`), at most `IN_FLIGHT` at a time so that a re-plan still cancels the
rest; the main thread sends them and takes the answers in `take` and `wait`. The worker is
started by `start_worker` (the game's view calls it once the start-up view is loaded), and the
thread loads until it answers ``ready``. The thread is also what takes over, for good, when the
worker's registry differs from the game's or the worker dies (logged); a batch the worker failed
on is loaded again by the main thread, so its error (a damaged save) is raised here as the
thread's would be.

The worker meshes too: `send_mesh` hands it a chunk's mesh job (at most `MESHES_IN_FLIGHT` wait)
and `take_meshes` gives the meshes back; a job the worker failed on, or lost when it stopped,
comes back as ``None`` for the caller to mesh itself. Without a ready worker `send_mesh` says
no and the caller meshes in the frame, as before. It lights too, the same way: `send_light`
hands it a box of light to solve (`world.stream.lighting.LightScheduler` sends one at a time)
and `take_lights` gives the answers back (``None``: solved by the caller).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from world.light.lighting import LightAnswer, LightInputs
from world.mesh.mesher import MeshInputs
from world.mesh.pack import PackedMesh
from world.stream.worker import (
    Blocks,
    WorkerProcess,
    WorkerRecipe,
    read_batch,
)
from world.voxels.layout import ChunkKey

__all__ = ["IN_FLIGHT", "MESHES_IN_FLIGHT", "ChunkLoader", "Loaded"]

Loaded = tuple[ChunkKey, Blocks, int]  # key, blocks (None: all air), the batch's epoch
ModErrorReport = Callable[[str, str, str], object]  # (mod, where, message)
IN_FLIGHT = 4  # batches sent to a worker process and not answered yet, at most
# Mesh jobs sent and not answered yet, at most: some 30 ms of the worker's time, so a job is
# answered within a few frames; meanwhile the streaming's next chunks wait (`meshes_full`). 16
# rather than 8 (session 39, the wall-clock sprint-flight at view distance 12 over a saved world,
# two runs each): 144-147 frames with a hole ahead rather than 208-211, the frames alike; more
# (32) kept the worker from its loads when it ran below the game's niceness.
MESHES_IN_FLIGHT = 16
LOADER_THREAD_NICENESS = 5  # the loader thread's (no worker process): below the frame
_log = logging.getLogger(__name__)


class ChunkLoader:
    """Loads requested chunks from a chunk source, in request order, in a worker thread.

    Parameters
    ----------
    source : callable or None
        ``source(cx, cy, cz) -> blocks or None`` (a world's generator); when it has
        ``load_many(keys) -> {key: blocks or None}`` that is used for a batch. ``None``: air.
    threaded : bool
        Load in a daemon worker thread (the game), or only in `pump` (tests).
    batch : int
        Most requests loaded together (one SQLite query for a saved world).
    worker : WorkerRecipe, optional
        Load in a worker process built from this recipe (threaded only; see the module notes).
    on_mod_error : callable, optional
        ``on_mod_error(mod, where, message)``: a mod failed in the worker (its ``on_generated``).
    """

    def __init__(
        self,
        source: Any,
        *,
        threaded: bool = True,
        batch: int = 16,
        worker: WorkerRecipe | None = None,
        on_mod_error: ModErrorReport | None = None,
    ) -> None:
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        self.source = source
        self.threaded = threaded
        self.batch = batch
        self.recipe = worker if threaded else None
        self.on_mod_error = on_mod_error
        self.worker: WorkerProcess | None = None  # running (and, once it said so, ready)
        self._sent: dict[int, tuple[list[ChunkKey], int]] = {}  # batch id: keys, epoch
        self._batch_id = 0
        self.epoch = 0  # advanced by the streamer (main thread) when it forgets chunks
        self._cond = threading.Condition()
        self._queue: deque[ChunkKey] = deque()
        self._busy: set[ChunkKey] = set()
        self._done: deque[Loaded] = deque()
        self._error: BaseException | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        self.loaded_count = 0  # chunks loaded so far (figures)
        self._meshing: set[int] = set()  # mesh jobs sent to the worker, not answered
        self._meshes: list[tuple[int, PackedMesh | None]] = []  # answered, not taken
        self.meshed_count = 0  # meshes the worker made (figures)
        self._lighting: set[int] = set()  # light jobs sent to the worker, not answered
        self._lights: list[tuple[int, LightAnswer | None]] = []  # answered, not taken
        self.lit_count = 0  # light jobs the worker solved (figures)

    # -- the main thread's side -----------------------------------------------------------------

    def request(self, keys: Iterable[ChunkKey]) -> None:
        """Load ``keys`` in this order; drops earlier requests not started (cancelled)."""
        with self._cond:
            self._queue = deque(key for key in keys if key not in self._busy)
            if self._queue and self.threaded:
                self._start()
                self._cond.notify()
        if self._queue and self.worker is not None:
            self._exchange(0.0)

    def take(self) -> list[Loaded]:
        """The results finished since the last call (re-raises a worker's error)."""
        if self.worker is not None:
            self._exchange(0.0)
        with self._cond:
            if self._error is not None:
                error, self._error = self._error, None
                raise error
            done = list(self._done)
            self._done.clear()
        return done

    def wait(self, timeout: float) -> None:
        """Block until a result is ready, nothing is left to load, or ``timeout`` s passed."""
        if not self.threaded:
            self.pump()
            return
        if self.worker is not None and self.worker.ready:
            with self._cond:
                if self._done or self._error is not None or not self.in_flight:
                    return
            self._exchange(timeout)
            return
        with self._cond:
            self._cond.wait_for(
                lambda: bool(self._done) or self._error is not None or not self.in_flight,
                timeout,
            )

    def send_mesh(self, job_id: int, job: MeshInputs) -> bool:
        """Hand a mesh job to the worker process; False when there is no worker ready or
        `MESHES_IN_FLIGHT` jobs wait (the caller meshes it itself)."""
        if not self._ready or len(self._meshing) >= MESHES_IN_FLIGHT:
            return False
        assert self.worker is not None
        try:
            self.worker.send_mesh(job_id, job)
        except OSError as exc:
            self._give_up_worker(f"it stopped ({type(exc).__name__}: {exc})")
            return False
        self._meshing.add(job_id)
        return True

    @property
    def meshes_full(self) -> bool:
        """Whether a worker process is ready but `MESHES_IN_FLIGHT` jobs already wait there."""
        return self._ready and len(self._meshing) >= MESHES_IN_FLIGHT

    def take_meshes(self) -> list[tuple[int, PackedMesh | None]]:
        """The meshes the worker finished since the last call, by job id; None for a job it
        failed on or lost (the caller meshes that chunk itself)."""
        if self.worker is not None:
            self._exchange(0.0)
        meshes, self._meshes = self._meshes, []
        return meshes

    def send_light(self, job_id: int, inputs: LightInputs) -> bool:
        """Hand a light job to the worker process; False when there is no worker ready (the
        caller solves it itself)."""
        if not self._ready:
            return False
        assert self.worker is not None
        try:
            self.worker.send_light(job_id, inputs)
        except OSError as exc:
            self._give_up_worker(f"it stopped ({type(exc).__name__}: {exc})")
            return False
        self._lighting.add(job_id)
        return True

    def take_lights(self) -> list[tuple[int, LightAnswer | None]]:
        """The light jobs the worker solved since the last call, by job id; None for a job it
        failed on or lost (the caller solves it itself)."""
        if self.worker is not None:
            self._exchange(0.0)
        lights, self._lights = self._lights, []
        return lights

    def wait_meshes(self, timeout: float) -> None:
        """Wait up to ``timeout`` s for the worker's next answer (at once when none is due)."""
        if self.worker is not None and self._meshing:
            self._exchange(timeout)

    @property
    def meshing(self) -> int:
        """Mesh jobs sent to the worker and not answered yet."""
        return len(self._meshing)

    @property
    def in_flight(self) -> int:
        """Requests queued, being loaded, or loaded and not yet taken."""
        return len(self._queue) + len(self._busy) + len(self._done)

    @property
    def queued(self) -> int:
        """Requests not started yet."""
        return len(self._queue)

    def is_busy(self, key: ChunkKey) -> bool:
        """Whether ``key`` is queued or being loaded."""
        with self._cond:
            return key in self._busy or key in self._queue

    def pump(self) -> int:
        """Load one batch in the calling thread (``threaded=False``); returns chunks loaded."""
        with self._cond:
            keys = self._next_batch()
            epoch = self.epoch
        if not keys:
            return 0
        self._load(keys, epoch)
        return len(keys)

    def close(self) -> None:
        """Stop the thread (it finishes the batch it is on) and the worker process; every
        request not taken yet is dropped."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        self.recipe = None
        if self.worker is not None:
            self.worker.close()
            self.worker = None
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        with self._cond:
            self._sent.clear()
            self._busy.clear()
            self._done.clear()
        self._meshing.clear()
        self._meshes.clear()
        self._lighting.clear()
        self._lights.clear()

    # -- the worker's side ---------------------------------------------------------------------

    def _start(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="chunk-loader", daemon=True)
            self._thread.start()

    def _next_batch(self) -> list[ChunkKey]:
        """Up to ``batch`` requests from the head, of at most two chunk columns (lock held)."""
        keys: list[ChunkKey] = []
        columns: set[tuple[int, int]] = set()
        while self._queue and len(keys) < self.batch:
            key = self._queue[0]
            column = (key[0], key[2])
            if column not in columns and len(columns) == 2:
                break
            columns.add(column)
            keys.append(self._queue.popleft())
        self._busy.update(keys)
        return keys

    def _run(self) -> None:
        # Below the main thread for the OS scheduler: when the cores are busy, the frame first
        # (a thread shares the frame's GIL; the worker process has its own, and the game's
        # niceness: `world.stream.worker.WorkerProcess`).
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOADER_THREAD_NICENESS)
        while True:
            with self._cond:
                # Idle while a worker process is ready: it takes the batches.
                self._cond.wait_for(lambda: self._closed or (bool(self._queue) and not self._ready))
                if self._closed:
                    return
                keys = self._next_batch()
                epoch = self.epoch
            self._load(keys, epoch)

    def _load(self, keys: list[ChunkKey], epoch: int) -> None:
        try:
            found = read_batch(self.source, keys)
        except BaseException as exc:  # handed to the main thread by `take`
            with self._cond:
                self._busy.difference_update(keys)
                self._error = exc
                self._cond.notify_all()
            return
        self._finish(keys, found, epoch)

    def _finish(self, keys: list[ChunkKey], found: dict[ChunkKey, Blocks], epoch: int) -> None:
        """A batch is loaded (by the thread, the caller or the worker): its results wait for
        `take`."""
        with self._cond:
            self._busy.difference_update(keys)
            self._done.extend((key, found[key], epoch) for key in keys)
            self.loaded_count += len(keys)
            self._cond.notify_all()

    # -- a worker process (the main thread's side) ---------------------------------------------

    @property
    def _ready(self) -> bool:
        return self.worker is not None and self.worker.ready

    def start_worker(self) -> None:
        """Start the worker process, if there is a recipe and none runs yet."""
        if self.recipe is None or self.worker is not None:
            return
        try:
            self.worker = WorkerProcess(self.recipe)
        except OSError as exc:
            self._give_up_worker(f"it could not start: {exc}")

    def _exchange(self, timeout: float) -> None:
        """Take the worker's answers (waiting up to ``timeout`` s for the first), send more."""
        worker = self.worker
        if worker is None:
            return
        try:
            while worker.poll(timeout):
                timeout = 0.0
                self._answer(worker.recv())
                if self.worker is None:
                    return
            with self._cond:
                while worker.ready and self._queue and len(self._sent) < IN_FLIGHT:
                    keys = self._next_batch()
                    self._batch_id += 1
                    self._sent[self._batch_id] = (keys, self.epoch)
                    worker.send(self._batch_id, keys)
        except (EOFError, OSError) as exc:
            self._give_up_worker(f"it stopped ({type(exc).__name__}: {exc})")

    def _answer(self, message: tuple[Any, ...]) -> None:
        assert self.worker is not None
        kind = message[0]
        if kind == "ready":
            assert self.recipe is not None
            if message[1] != self.recipe.fingerprint:
                self._give_up_worker(
                    "its blocks differ from the game's (a mod registers them "
                    "differently in another interpreter)"
                )
            else:
                self.worker.ready = True
        elif kind == "broken":
            self._give_up_worker(f"it could not build the world's chunks: {message[1]}")
        elif kind == "done":
            _, batch_id, found, data, errors = message
            keys, epoch = self._sent.pop(batch_id)
            if data:
                hold = getattr(self.source, "hold_pending", None)
                if hold is not None:
                    hold(data)
            if self.on_mod_error is not None:
                for mod, where, text in errors:
                    self.on_mod_error(mod, where, text)
            self._finish(keys, found, epoch)
        elif kind == "meshed" or kind == "mesh failed":
            self._meshing.discard(message[1])
            if kind == "meshed":
                self.meshed_count += 1
                self._meshes.append((message[1], message[2]))
            else:
                _log.warning("the chunk worker failed on a mesh; meshing it here:\n%s", message[2])
                self._meshes.append((message[1], None))
        elif kind == "lit" or kind == "light failed":
            self._lighting.discard(message[1])
            if kind == "lit":
                self.lit_count += 1
                self._lights.append((message[1], message[2]))
            else:
                _log.warning("the chunk worker failed on light; lighting it here:\n%s", message[2])
                self._lights.append((message[1], None))
        elif kind == "failed":
            keys, epoch = self._sent.pop(message[1])
            _log.warning("the chunk worker failed on a batch; loading it here:\n%s", message[2])
            self._load(keys, epoch)  # raises here, in `take`, what it raised there

    def _give_up_worker(self, why: str) -> None:
        """Load in the thread from now on; the worker's unanswered batches go back first."""
        _log.warning("chunks load in a thread instead of a worker process: %s", why)
        worker, self.worker, self.recipe = self.worker, None, None
        self._meshes.extend((job_id, None) for job_id in self._meshing)  # meshed by the caller
        self._meshing.clear()
        self._lights.extend((job_id, None) for job_id in self._lighting)  # lit by the caller
        self._lighting.clear()
        with self._cond:
            for keys, _ in reversed(list(self._sent.values())):
                self._busy.difference_update(keys)
                self._queue.extendleft(reversed(keys))
            self._sent.clear()
            if self._queue:
                self._start()
            self._cond.notify_all()
        if worker is not None:
            worker.close()
