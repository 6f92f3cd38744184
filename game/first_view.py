"""The first view: the chunk work a window's world waits for before it is shown, a frame at a time.

Minecraft's "Loading terrain": when a window's game starts, the chunks of the columns within
`FIRST_VIEW_RADIUS` of the player (at most the view distance) are loaded (generated or read from
the save, with their neighbours, which their meshes read), lit and meshed before the world is
drawn, while the loading screen (`game.loading`) shows how far that is; the rest of the view
streams in afterwards, nearest first, as it does while walking. Each `FirstView.step` does
`FRAME_BUDGET_S` of that work and returns, so the window keeps drawing the screen and answering
the desktop (one blocking call made it a grey window for seconds).

The order is `game.chunk_view.ChunkView.load_all`'s, spread over frames: load first (the meshes
streaming asks for are held), then light them in one relight (one long frame: 0.5 ms a chunk,
where the streaming's small jobs cost several times that), then mesh each chunk once, with its
light, part of it in the worker process (started once the loads are in, as at any start); the
chunks streaming handed over beyond the first view are handed back to it.
`FirstViewProgress` counts each stage over the chunks it needs, so the bar only moves forward.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass
from enum import Enum

from game.chunk_view import ChunkView
from world.geometry import Vec3
from world.voxels.layout import ChunkKey

__all__ = ["FIRST_VIEW_RADIUS", "FRAME_BUDGET_S", "FirstView", "FirstViewProgress"]

FIRST_VIEW_RADIUS = 4  # chunk columns all round: 64 blocks of ground before the world shows
FRAME_BUDGET_S = 0.05  # chunk work a loading frame: the screen redraws about 15 times a second
_WORKER_WAIT_S = 5.0  # at most, for the worker's meshes once every chunk was sent


class Stage(Enum):
    """Where the first view's work is."""

    LOAD = "load"
    LIGHT = "light"
    MESH = "mesh"
    DONE = "done"


@dataclass(frozen=True)
class FirstViewProgress:
    """How far the first view is: its chunks loaded (with their neighbours), lit and shown.

    ``lit`` is None for a world without light (then the bar is loading and meshing only).
    """

    loads: int  # chunks to load: the shown ones and their neighbours
    loaded: int
    needed: int  # chunks to show
    lit: int | None
    shown: int

    @property
    def fraction(self) -> float:
        """The share of the work done, 0..1 (each stage weighs the same)."""
        parts = [self.loaded / max(self.loads, 1), self.shown / max(self.needed, 1)]
        if self.lit is not None:
            parts.append(self.lit / max(self.needed, 1))
        return sum(parts) / len(parts)


class FirstView:
    """The first view's chunk work around ``eye`` (module notes); `step` once a frame until
    `done`. ``facing``: the horizontal view direction (x, z), what streaming loads first."""

    def __init__(
        self,
        chunks: ChunkView,
        eye: Vec3,
        facing: tuple[float, float],
        radius: float = FIRST_VIEW_RADIUS,
    ) -> None:
        self.chunks, self.eye, self.facing = chunks, eye, facing
        self.needed, self.loads = chunks.streamer.around(eye, radius)
        self.stage = Stage.LOAD
        self._held: list[ChunkKey] = []
        self._to_mesh: deque[ChunkKey] = deque()
        self._sent: set[ChunkKey] = set()
        self._all_sent_at = math.inf
        chunks.hold_meshes()

    @property
    def done(self) -> bool:
        """Whether the first view is ready: every chunk it needs drawn."""
        return self.stage is Stage.DONE

    def step(self, budget_s: float = FRAME_BUDGET_S) -> FirstViewProgress:
        """One frame's work, ``budget_s`` of it (at least one job); returns the progress."""
        started = time.perf_counter()
        chunks = self.chunks
        if self.stage is Stage.LOAD:
            chunks.update(self.eye, budget_s, self.facing, wait=True)
            streamer = chunks.streamer
            if self.needed <= streamer.meshed or not streamer.pending:
                # Every chunk needed is loaded with its neighbours (streaming handed it over).
                streamer.loader.start_worker()
                held = chunks.release_meshes()
                # Only the first view's own chunks now; the others stream in once it shows.
                self._held = [key for key in held if key in self.needed]
                streamer.give_back(key for key in held if key not in self.needed)
                self.stage = Stage.LIGHT
                return self.progress()  # the loads shown done before the light's long frame
        if self.stage is Stage.LIGHT:
            if chunks.lights is not None:
                # In one relight: 0.6 ms a chunk at view distance 8, where the streaming's
                # jobs of a 2×2 group of columns each took six times as long.
                chunks.lights.light_all(self._held)
            self._to_mesh = deque(self._held)
            self.stage = Stage.MESH
            return self.progress()
        if self.stage is Stage.MESH:
            self._mesh(started, budget_s)
        return self.progress()

    def _mesh(self, started: float, budget_s: float) -> None:
        """Send chunks to be meshed while the budget lasts; done once every mesh is drawn."""
        chunks = self.chunks
        chunks.take_meshes(max(budget_s - (time.perf_counter() - started), 0.0))
        while self._to_mesh and self._left(started, budget_s):
            key = self._to_mesh.popleft()
            chunks.mesh(key)
            self._sent.add(key)
        if self._to_mesh:
            return
        if self._all_sent_at == math.inf:
            self._all_sent_at = time.perf_counter()
        if chunks.meshing and time.perf_counter() - self._all_sent_at > _WORKER_WAIT_S:
            chunks.mesh_lost()  # the worker stopped answering: meshed here
        if not chunks.meshing:
            chunks.forget_relit()  # lit before any was meshed: nothing to remesh for light
            self.stage = Stage.DONE

    @staticmethod
    def _left(started: float, budget_s: float) -> bool:
        return time.perf_counter() - started < budget_s

    def progress(self) -> FirstViewProgress:
        """How far the work is now."""
        chunks = self.chunks
        world, lights = chunks.world, chunks.lights
        return FirstViewProgress(
            loads=len(self.loads),
            loaded=sum(1 for key in self.loads if world.is_loaded(*key)),
            needed=len(self.needed),
            lit=None if lights is None else len(self.needed & lights.lit),
            shown=sum(1 for key in self.needed if key in self._sent and not chunks.in_worker(key)),
        )
