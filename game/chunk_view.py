"""Drawing the world: one scene node per chunk mesh, around the player, remeshed when dirty.

`world.mesh.mesher` turns a chunk into flat numpy arrays and `world.mesh.pack` packs them as drawn;
here they become one vertex buffer per chunk (position, RGBA8 colour, tile uv, tile corner
interleaved, 32 bytes a vertex, copied straight from numpy), under the node of the chunk's cube
of 4×4×4 chunks, placed at the cube's corner in ursina's scene (relative to the render origin,
`game.render_origin`, so nothing cracks far from 0, 0, 0) with the vertices laid out from it,
textured with the block atlas (nearest filtering: pixel look) and drawn by the
chunk shader (`game.chunk_shader`): the colour carries the shade (`MeshData.shade`) and the sky
and block light (`MeshData.light`), and one ``daylight`` input on the parent of every chunk
(`ChunkView.set_daylight`) turns day into night without remeshing. The node is a bare Panda3D
``NodePath`` (what an ursina Entity wraps): an Entity costs about 50 µs to make and as much to
destroy, 15 times a bare node, and streaming makes and drops hundreds of them as the player
walks.

Where meshes are made: by the chunk worker process (`world.stream.worker`) when the game has one
and it has room (`world.stream.loader.MESHES_IN_FLIGHT`; a chunk the streaming brings, or a remesh
for light, waits for a later frame while it has none: meshed here instead, several took a frame
20-30 ms): the frame sends copies of the chunk's padded blocks and light
(`world.mesh.mesher.mesh_padded`) and draws the packed answer in a later frame, so a streamed chunk
costs the frame about 0.3 ms rather than the 1.1-2 ms of its mesh. The answer comes with the
liquids' faces split off (`world.mesh.pack.drawn_mesh`), so building its nodes (`game.chunk_parts`)
takes 0.12 ms a chunk at view distance 8 (0.71 ms when the frame split them). An edit (a dirty
chunk, its light) is meshed in the frame, so it shows in the next one, and makes any answer still
on its way stale (dropped); so does dropping the chunk. A job the worker lost is meshed in the
frame. Without a worker (tests, a system without one) every mesh is made in the frame, under the
same budget.

A chunk's triangles are drawn by at most two nodes (solid, liquid), each one geom of one
primitive over the chunk's vertex buffer (`game.chunk_parts`); the directions that face away
from the camera's chunk are left out of the geoms, and in the eye's layer the tops above and
the bottoms below the eye's band of heights. That changes when the camera crosses into another
chunk or leaves its band; a way of drawing a chunk not made yet draws more meanwhile, and up to
`_FIT_BUDGET_S` of a frame makes them, nearest first. ursina's own ``Mesh`` builds one geom per
mesh with its own vertex data, which is why the geoms are built with Panda3D's API.

Light (`world.light.lighting.Light`, when given): a chunk meshed is queued to be lit with its 26
neighbours; which to light next is `world.stream.lighting.LightScheduler`'s (nearest the camera
first, grouped by 2×2 columns), in the frame time the streaming leaves (or one job a frame when
it had nothing to do), solved by the worker process when it runs (the frame reads the box and
writes the answer: the light of a flight costs the frame some 40 % less), so lighting never
holds up drawing:
a chunk the streaming brings waits up to `LIGHT_WAIT_S` for its light and is meshed once, lit
(measured, a 30 s wall-clock flight at view distance 12: 5,197 meshes rather than 5,766, hole
frames 17 rather than 33); one whose light is later is drawn in full daylight meanwhile, then
remeshed with its light. The
light of chunks that change (`relight`: lit later, or after an edit) reaches every drawn chunk
whose meshed light (its 18³ neighbourhood) it changes: remeshed under the budget, or at once
after an edit. Light of a chunk the world forgets is dropped with it. `load_all` (an offscreen
start) lights and meshes everything in view before the first frame: the worker process starts
while the main thread lights, then takes part of the meshing, and `load_all` waits for its
meshes (the start's Game() 3.0-4.5 s against 3.3-5.5 s at view distance 8, alternating runs).
A window's start does the same for its first view a frame at a time (`game.first_view`, through
`hold_meshes`, `release_meshes`, `mesh`, `take_meshes`), under the loading screen.

Which chunks: `world.stream.streamer.ChunkStreamer` decides. Chunk columns within ``view_distance``
of the player's column (a circle, as Minecraft's render distance) are loaded off the main thread, by
a worker process when the game gives a recipe for one, else a thread (saved rows read in batches,
the rest generated: `world.stream.loader`, `world.stream.worker`) and meshed nearest and
in-front-of-the-camera first, one chunk per job, under a per-frame time budget; columns beyond it
lose their nodes, and beyond ``view_distance + 1.5`` the world forgets them, handing chunks with
unsaved edits to ``on_save`` first. Time spent on chunks in a frame (recentring, remeshing, jobs)
is measured both by the wall clock and as the main thread's CPU time (`work_cpu_s`, what the Python
side spent, whatever else the machine runs). Chunks an action changed (`World.pop_dirty`) are
remeshed at once, budget or not, so an edit shows in the frame drawn right after it; chunks the
ticks changed (flowing liquids) go to the worker process as it has room, a frame or two later.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from collections.abc import Callable, Iterable

from panda3d.core import CullBinManager, NodePath
from panda3d.core import Texture as PandaTexture
from ursina import camera, scene

from game.chunk_parts import (
    ChunkPart,
    blended_state,
    chunk_parts,
    eye_band,
    facing_groups,
)
from game.chunk_shader import chunk_shader
from game.render_origin import RenderOrigin
from game.scene import to_scene, world_root
from world.light.lighting import Light
from world.mesh.mesher import PaddedLight, mesh_inputs
from world.mesh.pack import PackedMesh, drawn_mesh
from world.stream.lighting import LightScheduler
from world.stream.streamer import ChunkStreamer
from world.stream.worker import WorkerRecipe
from world.voxels.chunks import World
from world.voxels.layout import CHUNK, ChunkKey, chunk_layers

__all__ = ["ChunkView"]

_BIN = "chunks"
# Chunks draw front to back, so software GL's early depth test skips hidden pixels.
CullBinManager.getGlobalPtr().addBin(_BIN, CullBinManager.BTFrontToBack, 5)


_CUT_ALPHA = 0.5  # cut-outs: texels below half alpha are not drawn
# The eye's band of heights: the blocks below and above the eye's own block. A jump on flat
# ground (1.25 blocks, the eye 1.62 above the feet) stays in its band.
_BAND_BELOW, _BAND_ABOVE = 1, 1
# Chunks a side of a cube (`_cube_node`): a cube's node is placed at its corner and holds its
# chunks' nodes, whose vertices are laid out from that corner. Panda3D culls a cube out of view
# as one node, and draws a cube's chunks with one transform: turning at view distance 8,
# alternating rounds in one process against a node placed at each chunk's corner under nodes a
# column and a region of 4×4 columns (medians of the rounds' differences, two runs): -0.56 and
# -0.91 ms a frame, -0.59 and -0.73 ms of the main thread's CPU. Cubes of 8³ chunks did no
# better in probes; the vertices of 4³ stay within 64 blocks of their cube's corner.
_CUBE = 4
_FIT_BUDGET_S = 0.0005  # a frame's time for new ways of drawing chunks (`ChunkPart.show`)
_FITS_LOOKED_AT = 64  # the nearest chunks waiting for one, at most, looked at a frame
_START_WAIT_S = 5.0  # at most, for the worker's start-up meshes
# At most, for a streamed chunk's light before it is meshed in daylight (`_stream_mesh`).
LIGHT_WAIT_S = 0.25
_LIT_MESHES_PAST_BUDGET = 4  # chunks that waited for light, meshed in a frame past its budget
# No chunk waits for its light while more than this many wait to be lit: the light is behind
# (a busy machine, the worker starved), and waiting would leave holes (`_stream_mesh`).
LIGHT_BACKLOG = 32
_AROUND = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


def _cube_of(key: ChunkKey) -> ChunkKey:
    """The cube of `_CUBE`³ chunks that chunk ``key`` is in."""
    return (key[0] // _CUBE, key[1] // _CUBE, key[2] // _CUBE)


def _hash_light(lit: PaddedLight) -> int:
    """A hash of a chunk's padded light (whether a remesh would change its light)."""
    return hash((lit[0].tobytes(), lit[1].tobytes()))


class ChunkView:
    """The chunk nodes around the player, streamed in and out, each with its direction groups."""

    def __init__(
        self,
        world: World,
        texture: PandaTexture,
        view_distance: int,
        *,
        on_save: Callable[[list[ChunkKey]], object] | None = None,
        origin: RenderOrigin | None = None,
        threaded: bool = True,
        light: Light | None = None,
        worker: WorkerRecipe | None = None,
        on_mod_error: Callable[[str, str, str], object] | None = None,
        on_shown: Callable[[ChunkKey], object] | None = None,
        on_dropped: Callable[[ChunkKey], object] | None = None,
    ) -> None:
        self.world = world
        # Told when a chunk is drawn from a fresh mesh, and when it is no longer drawn.
        self._on_shown = on_shown
        self._on_dropped = on_dropped
        self.light = light
        # Which loaded chunks to light next (`world.stream.lighting`), when the world has light.
        self.lights = None if light is None else LightScheduler(world, light)
        # A hash of the light each drawn chunk was meshed with (None: meshed before it was lit).
        self._meshed_light: dict[ChunkKey, int | None] = {}
        self._relit: set[ChunkKey] = set()  # drawn chunks whose light may have changed
        self._relit_now: set[ChunkKey] = set()  # the same, after an edit: remeshed at once
        self._changed: set[ChunkKey] = set()  # changed by a tick, waiting for the worker's room
        self._deferred: list[ChunkKey] | None = None  # meshes `load_all` holds until it lit
        # Every chunk node hangs under one node holding the shader and its day light.
        self.node = world_root().attachNewNode("chunks")  # in world axes (`game.scene`)
        self.node.setShader(chunk_shader())
        self.daylight = 1.0  # the share of sky light showing (`set_daylight`)
        self.node.setShaderInput("daylight", self.daylight)
        self.node.setShaderInput("alpha_cut", _CUT_ALPHA)
        self.node.setBin(_BIN, 0)
        self._blended_state = blended_state()
        self._fog: tuple[tuple[float, float], tuple[float, ...]] | None = None  # as last set
        self._sync_fog()
        # Chunk nodes are drawn relative to the render origin (precision far from 0, 0, 0).
        self.origin = RenderOrigin() if origin is None else origin
        self.texture = texture
        self.entities: dict[ChunkKey, NodePath] = {}  # the drawn chunks' nodes
        self._cubes: dict[ChunkKey, NodePath] = {}  # the nodes holding them (`_cube_node`)
        self._parts: dict[ChunkKey, list[ChunkPart]] = {}  # each drawn chunk's nodes
        # Meshes made by the worker process (`_mesh`): job ids, the chunk each job is for, the
        # job each chunk waits for (a newer mesh makes it stale), answers not drawn yet.
        self._job_id = 0
        self._jobs: dict[int, ChunkKey] = {}
        self._in_worker: dict[ChunkKey, int] = {}
        # Chunks the streaming brought, not lit yet: meshed once their light comes, or in
        # daylight when it has not come by the time given (`_stream_mesh`).
        self._unlit: dict[ChunkKey, float] = {}
        self._light_keeps_up = True  # this frame: at most LIGHT_BACKLOG chunks wait for light
        self._answers: deque[tuple[int, PackedMesh | None]] = deque()
        self._camera_chunk: tuple[int, int, int] | None = None
        self._band: tuple[int, int] | None = None  # the eye's band of heights, [low, high)
        self._unfitted: set[ChunkKey] = set()  # chunks drawing more than needed (`face_camera`)
        layers = chunk_layers(*world.build_height)
        self.streamer = ChunkStreamer(
            world,
            view_distance,
            (layers.start, layers.stop),
            on_mesh=self._stream_mesh,
            on_drop=self._drop,
            on_save=on_save,
            on_forget=self._forget_light,
            threaded=threaded,
            worker=worker,
            on_mod_error=on_mod_error,
        )
        self.work_s = 0.0  # wall-clock seconds of chunk work in the last `update`
        self.work_cpu_s = 0.0  # the main thread's CPU seconds of the same

    def set_daylight(self, level: float) -> None:
        """How much of the sky light shows, 0..1 (1 at noon): one shader input, no remeshing."""
        if isinstance(level, bool) or not isinstance(level, int | float) or not 0 <= level <= 1:
            raise ValueError(f"level must be a number in 0..1, got {level!r}")
        if float(level) != self.daylight:  # a shader input set is a new render state
            self.daylight = float(level)
            self.node.setShaderInput("daylight", self.daylight)

    def _sync_fog(self) -> None:
        """Copy ursina's linear fog into the shader's inputs (no fog for any other kind)."""
        density, tint = scene.fog_density, scene.fog_color
        start, end = density if isinstance(density, tuple) else (1e9, 2e9)
        fog = ((float(start), max(float(end), float(start) + 1e-3)), tuple(float(c) for c in tint))
        if fog != self._fog:  # a shader input set is a new render state
            self._fog = fog
            self.node.setShaderInput("fog_range", fog[0])
            self.node.setShaderInput("fog_color", fog[1])

    def relight(self, changed: Iterable[ChunkKey], *, now: bool = False) -> None:
        """Chunks whose light changed: drawn chunks whose meshed light they touch are remeshed
        (only where their 18³ light really differs): by the next `remesh_dirty` with ``now``
        (an edit: it shows in the next frame with its light), else under the frame budget."""
        meshed, marked = self._meshed_light, self._relit_now if now else self._relit
        for cx, cy, cz in changed:
            for dx, dy, dz in _AROUND:
                key = (cx + dx, cy + dy, cz + dz)
                if key in meshed:
                    marked.add(key)

    def _light_work(self, started: float, budget_s: float, *, force: bool) -> int:
        """Light queued chunks (`world.stream.lighting.LightScheduler`), then remesh drawn
        chunks whose light changed, while ``budget_s`` from ``started`` lasts (one light job
        anyway with ``force``). Returns the jobs done."""
        if self.lights is None:
            return 0
        camera = self._camera_chunk or (0, 0, 0)
        done = self.lights.work(
            camera,
            started,
            budget_s,
            force=force,
            changed=self.relight,
            solver=self.streamer.loader,
        )
        meshed = self.streamer.meshed
        loader = self.streamer.loader
        # A remesh for light waits while the worker is full: the chunk is drawn meanwhile.
        while self._relit and time.perf_counter() - started < budget_s and not loader.meshes_full:
            key = self._relit.pop()
            if key in meshed and self._meshed_light.get(key) != self._light_hash(key):
                self._mesh(key)
                done += 1
        return done

    def _light_hash(self, key: ChunkKey) -> int:
        assert self.light is not None
        return _hash_light(self.light.padded(key))

    def _forget_light(self, key: ChunkKey) -> None:
        """The world forgot a chunk: so does the light."""
        if self.lights is not None:
            self.lights.forget(key)

    @property
    def view_distance(self) -> int:
        """Chunk columns shown around the player."""
        return self.streamer.view_distance

    def set_view_distance(self, view_distance: int) -> None:
        """Show more or fewer columns (2..16) from the next `update` on."""
        self.streamer.set_view_distance(view_distance)

    def update(
        self,
        eye: Iterable[float],
        budget_s: float,
        facing: tuple[float, float] | None = None,
        *,
        wait: bool = False,
    ) -> int:
        """One frame of chunk work around the camera at ``eye``; returns the chunks handled.

        Turns face groups to the camera, recentres the streaming (columns in front of the
        camera first: ``facing`` is the horizontal view direction (x, z), the camera's when
        omitted), remeshes dirty chunks first (an edit shows in the next frame), takes the
        chunks the loader thread finished, then meshes while what is left of ``budget_s`` has
        room (``wait``: waiting for the loader meanwhile).
        """
        started, started_cpu = time.perf_counter(), time.thread_time()
        x, y, z = eye
        if facing is None:
            forward = to_scene(camera.forward)  # the mirror is its own inverse
            facing = (float(forward[0]), float(forward[2]))
        self.face_camera((x, y, z))
        self._sync_fog()
        self.streamer.update((x, y, z), facing)
        self._light_keeps_up = self.lights is not None and self.lights.backlog <= LIGHT_BACKLOG
        done = self.remesh_dirty(now=False)
        done += self._take_meshes(started, budget_s)
        # Letting go of columns that left is bounded by its own count, not by the budget: the
        # budget is for what comes into view.
        left = budget_s - (time.perf_counter() - started - self.streamer.let_go_seconds)
        streamed = 0
        if self.streamer.pending and (left > 0.0 or wait):  # recentring may take the budget
            streamed = self.streamer.work(max(left, 0.0), wait=wait)
        # Light (and the remeshes it causes) when the streaming left room, or had nothing to do.
        force = not streamed and left > 0.0
        done += streamed + self._light_work(started, budget_s, force=force)
        done += self._mesh_lit(started, budget_s)
        self.work_s = time.perf_counter() - started
        self.work_cpu_s = time.thread_time() - started_cpu
        return done

    def load_all(self, eye: Iterable[float], limit_s: float = math.inf) -> None:
        """Load, light and mesh what is in view now, nearest first, for up to ``limit_s``
        seconds (loading; lighting and meshing what was loaded follow, part of the meshing in
        the worker process, whose meshes are waited for)."""
        # The start-up view is loaded: the worker process starts now and streams what follows
        # (`world.stream.worker`), the thread loading meanwhile.
        if self.light is None:
            self.update(eye, limit_s, wait=True)
            self.streamer.loader.start_worker()
            return
        # Load first, then light everything in view at once (grouped: 0.5 ms a chunk rather
        # than 2-3 ms one by one), then mesh: every chunk is meshed once, with its light.
        self._deferred = []
        try:
            self.update(eye, limit_s, wait=True)
        finally:
            deferred, self._deferred = self._deferred, None
        # The worker process starts while the chunks are lit, and takes part of the meshing.
        self.streamer.loader.start_worker()
        assert self.lights is not None
        self.lights.light_all(deferred)
        for key in deferred:
            self._take_meshes(time.perf_counter(), 0.0)
            self._mesh(key)
        self._relit.clear()
        deadline = time.perf_counter() + _START_WAIT_S
        while self._in_worker and (left := deadline - time.perf_counter()) > 0.0:
            self.streamer.loader.wait_meshes(left)
            self._take_meshes(time.perf_counter(), math.inf)
        self.mesh_lost()  # what the worker did not answer

    # -- the first view, a frame at a time (`game.first_view`) -----------------------------------

    def hold_meshes(self) -> None:
        """Hold the chunks streaming hands over for meshing until `release_meshes`: the first
        view meshes each once, after it is lit."""
        self._deferred = []

    def release_meshes(self) -> list[ChunkKey]:
        """Mesh as chunks come again; returns the chunks held, in the order they came."""
        held, self._deferred = self._deferred or [], None
        return held

    def mesh(self, key: ChunkKey) -> None:
        """Mesh a chunk: in the worker process when it has room (drawn by `take_meshes` in a
        later frame), else now."""
        self._mesh(key)

    def take_meshes(self, budget_s: float) -> int:
        """Draw the meshes the worker finished, for ``budget_s`` (one anyway)."""
        return self._take_meshes(time.perf_counter(), budget_s)

    def in_worker(self, key: ChunkKey) -> bool:
        """Whether the chunk's mesh is being made in the worker process (not drawn yet)."""
        return key in self._in_worker

    @property
    def meshing(self) -> int:
        """Meshes waited for from the worker process."""
        return len(self._in_worker)

    def mesh_lost(self) -> None:
        """Mesh here what the worker did not answer (it stopped, or is too slow)."""
        for key in list(self._in_worker):
            self._mesh(key, now=True)

    def forget_relit(self) -> None:
        """Chunks lit before any was meshed need no remesh for their light."""
        self._relit.clear()

    def ready_at(self, pos: Iterable[float]) -> bool:
        """Whether the column under ``pos`` is loaded (a body there has ground to stand on)."""
        return self.streamer.ready_at(pos)

    @property
    def pending(self) -> int:
        """Streaming jobs (chunk loads and meshings) still waiting, meshes in the worker
        process included."""
        return self.streamer.pending + len(self._in_worker) + len(self._unlit)

    @property
    def idle(self) -> bool:
        """Whether no chunk waits to be loaded, meshed or lit, nor to be remeshed for light."""
        waiting = self.lights is not None and self.lights.waiting
        return not self.pending and not waiting and not self._relit and not self._changed

    def face_camera(self, pos: tuple[float, float, float]) -> None:
        """Show only the faces that can face a camera at ``pos``: the direction groups that
        face the camera's chunk, and in the eye's layer the tops and bottoms an eye in its
        band of heights can face (`game.chunk_parts`). A chunk whose way of drawing is not
        made yet draws more faces until a later frame makes it (`_fit_more`)."""
        camera_chunk = (
            math.floor(pos[0]) // CHUNK[0],
            math.floor(pos[1]) // CHUNK[1],
            math.floor(pos[2]) // CHUNK[2],
        )
        band = self._band
        if band is None or not band[0] <= pos[1] < band[1]:
            height = math.floor(pos[1])
            band = (height - _BAND_BELOW, height + 1 + _BAND_ABOVE)
        before, old_band = self._camera_chunk, self._band
        if camera_chunk == before and band == old_band:
            self._fit_more()
            return
        self._camera_chunk, self._band = camera_chunk, band
        if before is None or old_band is None:
            changed = list(self._parts)
        else:
            # Groups change only in chunks between the old and the new camera chunk on an axis
            # that changed; cuts in the layers of the old band and the new.
            spans = [(min(a, b), max(a, b)) for a, b in zip(before, camera_chunk, strict=True)]
            layers = {*chunk_layers(*old_band), *chunk_layers(*band)}
            changed = [
                key
                for key in self._parts
                if key[1] in layers
                or any(
                    before[axis] != camera_chunk[axis] and low <= key[axis] <= high
                    for axis, (low, high) in enumerate(spans)
                )
            ]
        for key in changed:
            self._show_facing(key, build=False)
        self._fit_more()

    def _fit_more(self) -> None:
        """Make the ways of drawing of chunks that draw more faces than they need meanwhile,
        nearest first, for `_FIT_BUDGET_S` (one at least)."""
        if not self._unfitted:
            return
        started = time.perf_counter()
        cx, cy, cz = self._camera_chunk or (0, 0, 0)
        nearest = heapq.nsmallest(
            _FITS_LOOKED_AT,
            self._unfitted,
            key=lambda k: max(abs(k[0] - cx), abs(k[1] - cy), abs(k[2] - cz)),
        )
        for key in nearest:
            self._unfitted.discard(key)
            if key in self._parts:
                self._show_facing(key)
            if time.perf_counter() - started > _FIT_BUDGET_S:
                return

    def _show_facing(self, key: ChunkKey, *, build: bool = True) -> None:
        """Leave out of the chunk's geom the faces turned away from the camera: the direction
        groups facing away from the camera's chunk, and in the eye's layer the tops above and
        the bottoms below its band (made now only when ``build``, else more faces drawn
        meanwhile)."""
        groups = facing_groups(key, self._camera_chunk)
        band = eye_band(key, self._band)
        for part in self._parts[key]:
            if not part.show(groups, band, build=build):
                self._unfitted.add(key)

    def remesh_dirty(self, *, now: bool = True) -> int:
        """Remesh every shown chunk whose blocks changed; returns how many.

        ``now`` (after an action: it shows in the next frame) meshes them all here. Without it
        (the frame's own pass, after the ticks: liquids flowing, a mod's timer) they go to the
        worker process while it has room and wait for a later frame when it has none, so a
        flood changing chunks every tick costs the main thread no meshing."""
        meshed = self.streamer.meshed
        dirty = {key for key in self.world.pop_dirty() if key in meshed}
        dirty |= {key for key in self._changed if key in meshed}
        self._changed.clear()
        relit, self._relit_now = self._relit_now, set()
        if self.light is not None:
            dirty |= {
                key
                for key in relit - dirty
                if key in meshed and self._meshed_light.get(key) != self._light_hash(key)
            }
        done = 0
        for key in dirty:
            if not now and self.streamer.loader.meshes_full:
                self._changed.add(key)  # first in the next frame's pass
                continue
            self._mesh(key, now=now)
            done += 1
        return done

    def vertex_count(self, key: ChunkKey) -> int:
        """Vertices in the chunk's vertex buffer as Panda3D holds it (0 when not drawn)."""
        parts = self._parts.get(key)
        if not parts:
            return 0
        count: int = parts[0].vdata.getNumRows()
        return count

    def _stream_mesh(self, key: ChunkKey) -> bool:
        """A chunk the streaming brings into view: meshed by the worker process, or here when
        there is none; while the worker is full it waits for a later frame (False), rather than
        being meshed here (1-2 ms each: a frame that meshed several took 20-30 ms). A chunk not
        lit yet waits up to `LIGHT_WAIT_S` for its light (`_mesh_lit`), so that it is meshed
        once rather than in daylight first and again lit, unless the light is behind (more
        than `LIGHT_BACKLOG` chunks wait for it)."""
        if self.streamer.loader.meshes_full:
            return False
        if (
            self._light_keeps_up
            and self.lights is not None
            and self._deferred is None
            and key not in self.lights.lit
            and self.world.chunk(*key) is not None
        ):
            self.lights.want(key)
            self._unlit[key] = time.perf_counter() + LIGHT_WAIT_S
            return True
        self._mesh(key)
        return True

    def _mesh_lit(self, started: float, budget_s: float) -> int:
        """Mesh the chunks waiting for their light that have it, or waited long enough (drawn
        in daylight, remeshed once lit), while the worker has room; the meshes sent."""
        if not self._unlit or self.lights is None or self._deferred is not None:
            return 0  # (`load_all` meshes what it streams itself; these wait for a frame)
        lit, now, done = self.lights.lit, time.perf_counter(), 0
        loader = self.streamer.loader
        for key, deadline in list(self._unlit.items()):
            # The worker's room bounds the sends (some 0.3 ms each); past the budget a few
            # still go, or the chunks handed over (cheaply: no mesh yet) outrun the meshes.
            if loader.meshes_full or (
                done >= _LIT_MESHES_PAST_BUDGET and now - started >= budget_s
            ):
                break
            if key in lit or now >= deadline:
                del self._unlit[key]
                self._mesh(key)
                done += 1
        return done

    def _mesh(self, key: ChunkKey, *, now: bool = False) -> None:
        """Build (or rebuild, or drop) one chunk's node from a fresh mesh: made by the worker
        process when it has room (the node follows in a later frame), else here; ``now``
        (an edit) always here, so it shows in the next frame."""
        if self._deferred is not None:  # `load_all`: meshed once everything is lit
            self._deferred.append(key)
            return
        if self.world.chunk(*key) is None:  # all air: nothing to draw
            self._drop(key)
            return
        lit: PaddedLight | None = None
        if self.lights is not None:  # unlit yet: drawn in daylight, remeshed once lit
            self.lights.want(key)
            if key in self.lights.lit:
                lit = self.lights.light.padded(key)
            self._meshed_light[key] = None if lit is None else _hash_light(lit)
        self._in_worker.pop(key, None)  # a mesh on its way from the worker is stale now
        self._unlit.pop(key, None)
        job = mesh_inputs(self.world, *key, lit)  # copies: the chunk now, for the worker or here
        self._job_id += 1
        if not now and self.streamer.loader.send_mesh(self._job_id, job):
            self._in_worker[key] = self._job_id
            self._jobs[self._job_id] = key
            return
        self._show(key, drawn_mesh(self.world.registry, job))

    def _take_meshes(self, started: float, budget_s: float) -> int:
        """Draw the meshes the worker finished, while ``budget_s`` from ``started`` lasts (one
        anyway); a job the worker lost is meshed here. Returns the meshes drawn."""
        self._answers.extend(self.streamer.loader.take_meshes())
        done = 0
        while self._answers and (not done or time.perf_counter() - started < budget_s):
            job_id, data = self._answers.popleft()
            key = self._jobs.pop(job_id, None)
            if key is None or self._in_worker.get(key) != job_id:
                continue  # remeshed since, or no longer drawn
            del self._in_worker[key]
            if data is None:
                self._mesh(key, now=True)
            else:
                self._show(key, data)
            done += 1
        return done

    def shown(self, key: ChunkKey) -> bool:
        """Whether the chunk is drawn as meshed (a chunk with no visible face counts), not
        waiting for the streaming or for its first mesh from the worker."""
        return (
            key in self.streamer.meshed
            and key not in self._unlit
            and (key not in self._in_worker or key in self._parts)
        )

    def _show(self, key: ChunkKey, mesh: PackedMesh) -> None:
        """Put a chunk's fresh mesh on screen (or drop its node when it has no face, or when the
        streaming no longer shows the chunk: a mesh made for a chunk let go meanwhile)."""
        if mesh.vertex_count == 0 or key not in self.streamer.meshed:
            self._drop(key)
            return
        root = self.entities.get(key)
        if root is None:
            root = self._cube_node(key).attachNewNode(f"chunk {key}")
            root.setTexture(self.texture, 1)
            self.entities[key] = root
        for old in self._parts.get(key, []):
            old.node.removeNode()
        corner = (key[0] % _CUBE * CHUNK[0], key[1] % _CUBE * CHUNK[1], key[2] % _CUBE * CHUNK[2])
        self._parts[key] = chunk_parts(root, mesh, self._blended_state, corner)
        self._show_facing(key)
        if self._on_shown is not None:
            self._on_shown(key)

    def _drop(self, key: ChunkKey) -> None:
        """Forget a chunk's node (and a mesh on its way from the worker)."""
        self._in_worker.pop(key, None)
        self._unlit.pop(key, None)
        self._parts.pop(key, None)
        self._unfitted.discard(key)
        self._meshed_light.pop(key, None)
        self._relit.discard(key)
        if self._on_dropped is not None:
            self._on_dropped(key)
        root = self.entities.pop(key, None)
        if root is not None:
            root.removeNode()
            at = _cube_of(key)
            cube = self._cubes[at]
            if not cube.getNumChildren():
                self.origin.forget(cube)  # the node placed: the origin knows it by its id
                cube.removeNode()
                del self._cubes[at]

    def _cube_node(self, key: ChunkKey) -> NodePath:
        """The node holding the chunk's cube of `_CUBE`³ chunks (made when missing), placed at
        the cube's corner: its chunks' vertices are laid out from there (`_show`)."""
        at = _cube_of(key)
        cube = self._cubes.get(at)
        if cube is None:
            cube = self._cubes[at] = self.node.attachNewNode(f"chunk cube {at}")
            self.origin.place(cube, [a * _CUBE * size for a, size in zip(at, CHUNK, strict=True)])
        return cube

    def destroy(self) -> None:
        """Remove every chunk node and stop streaming."""
        for key in list(self.entities):
            self._drop(key)
        self.streamer.on_mesh = self.streamer.on_drop = self.streamer.on_save = None
        self.streamer.on_forget = None
        self.streamer.close()
        self._camera_chunk = self._band = None
        self._unfitted.clear()
        self.node.removeNode()
