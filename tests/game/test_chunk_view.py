"""Chunk nodes: direction groups left out only when none of their faces can face the camera;
faces drawn shaded by their direction."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from world.mesh.mesher import mesh_chunk, mesh_inputs
from world.mesh.pack import VERTEX_ROW, PackedMesh, drawn_mesh


def _drawn_vertices(game: Any, key: tuple[int, int, int], *, lit: bool = True) -> int:
    """The vertices of the chunk's mesh as the game draws it now (`world.mesh.pack.drawn_mesh`)."""
    light = game.light.padded(key) if lit else None
    return drawn_mesh(game.world.registry, mesh_inputs(game.world, *key, light)).vertex_count


def hidden_faces_checked(game: Any, eye: tuple[float, float, float]) -> bool:
    """Check every drawn chunk against a camera at ``eye`` in the frame the camera gets there
    (some chunks not fitted yet) and once the game fitted them all; returns whether any face
    was left out then."""
    view = game.chunks
    view.face_camera(eye)
    faces_checked(game, eye)
    for _ in range(100):
        view.face_camera(eye)
        if not view._unfitted:
            break
    assert not view._unfitted
    return faces_checked(game, eye)


def faces_checked(game: Any, eye: tuple[float, float, float]) -> bool:
    """Every face a drawn chunk leaves out faces away from ``eye``; returns whether any was."""
    view = game.chunks
    hidden_any = False
    for key, parts in view._parts.items():
        data = mesh_chunk(game.world, *key)
        # The winding's normal as the mesher states it: the cross product's, times ``wound``.
        first = data.vertices.reshape(-1, 3)[data.indices.reshape(-1, 3)]
        crossed = np.cross(first[:, 1] - first[:, 0], first[:, 2] - first[:, 0])
        stated = data.normals.reshape(-1, 3)[data.indices.reshape(-1, 3)[:, 0]]
        dots = np.einsum("ij,ij->i", crossed, stated)
        on_axis = np.abs(stated).max(axis=1) == 1.0
        wound = np.sign(dots[on_axis][0])
        assert (np.sign(dots[on_axis]) == wound).all()
        for part in parts:
            # The vertices are laid out from the corner of the chunk's cube: the chunk's own
            # corner is at ``part.corner``.
            origin = np.array(key) * 16 - np.array(part.corner)
            # One geom a part, one primitive: a subset of the part's triangles.
            assert part.node.node().getNumGeoms() == 1
            assert part.node.isHidden() == (part.geom is None)
            rows = np.frombuffer(memoryview(part.vdata.getArray(0)), dtype=VERTEX_ROW)
            drawn = {tuple(t) for t in part.drawn_triangles().tolist()}
            every = part.triangles()
            assert drawn <= {tuple(t) for t in every.tolist()}
            for triangle in every:
                if tuple(triangle.tolist()) in drawn:
                    continue
                hidden_any = True
                a, b, c = rows["pos"][triangle].astype(float)
                normal = wound * np.cross(b - a, c - a)
                normal /= np.abs(normal).max()
                assert np.abs(normal).max() == 1.0 and np.abs(normal).sum() == 1.0  # on an axis
                # Brute force: a face is seen from the side its normal points to.
                assert np.dot(np.array(eye) - (a + origin), normal) <= 0, key
    return hidden_any


EYES = [(3.5, 40.0, 5.5), (-20.0, 12.0, 30.0), (17.0, 90.0, -16.0), (8.0, -3.0, 8.0)]


@pytest.mark.parametrize("eye", EYES)
def test_the_faces_left_out_are_only_faces_turned_away(
    make_game: Callable[..., Any], eye: tuple[float, float, float]
) -> None:
    game = make_game(view_distance=2)
    assert hidden_faces_checked(game, eye)


def test_a_camera_crossing_into_other_chunks_gets_the_faces_that_now_face_it(
    make_game: Callable[..., Any],
) -> None:
    game = make_game(view_distance=2)
    for eye in [*EYES, EYES[0]]:
        assert hidden_faces_checked(game, eye)


def test_chunk_nodes_hang_in_a_node_a_cube_of_chunks_placed_at_its_corner_gone_with_them(
    make_game: Callable[..., Any],
) -> None:
    """Panda3D culls a cube of 4×4×4 chunks out of view as one node, and draws its chunks with
    the cube's one transform: each chunk's vertices are laid out from the cube's corner, and
    drawn where the chunk is."""
    game = make_game(view_distance=2)
    view = game.chunks
    origin = np.array(view.origin.origin)
    cubes: dict[Any, set[tuple[int, int, int]]] = {}  # cube node: the cubes of its chunks
    for key, node in view.entities.items():
        cube = node.getParent()
        assert cube.getParent() == view.node
        assert node.getPos() == (0, 0, 0)
        at = (key[0] // 4, key[1] // 4, key[2] // 4)
        cubes.setdefault(cube, set()).add(at)
        assert np.array(cube.getPos()).tolist() == (np.array(at) * 64 - origin).tolist()
        drawn = mesh_chunk(game.world, *key).vertices.reshape(-1, 3)  # chunk-local
        for part in view._parts[key]:
            assert part.corner == (key[0] % 4 * 16, key[1] % 4 * 16, key[2] % 4 * 16)
            rows = np.frombuffer(memoryview(part.vdata.getArray(0)), dtype=VERTEX_ROW)
            local = rows["pos"] - np.array(part.corner, np.float32)
            assert {tuple(v) for v in local.tolist()} <= {tuple(v) for v in drawn.tolist()}
            box = part.every.getBounds()
            assert (box.getMin(), box.getMax()) == (part.corner, tuple(np.add(part.corner, 16)))
    assert all(len(held) == 1 for held in cubes.values())
    assert len(cubes) == view.node.getNumChildren() > 1
    cubes_before = view.node.getNumChildren()
    placed = len(view.origin._placed)
    for key in list(view.entities):  # every chunk of the cube of chunk (-1, 0, -1)
        if (key[0] // 4, key[1] // 4, key[2] // 4) == (-1, 0, -1):
            view._drop(key)
    assert view.node.getNumChildren() == cubes_before - 1
    assert len(view.origin._placed) == placed - 1  # the render origin forgot it
    for key in list(view.entities):
        view._drop(key)
    assert view.node.getNumChildren() == 0


def test_a_chunk_a_tick_changed_is_meshed_by_the_worker_and_an_actions_at_once(
    make_game: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood changes chunks every tick: the frame's pass sends them to the worker (none is
    meshed on the main thread), waiting while it is full; an action's redraw meshes at once."""
    game = make_game(view_distance=2)
    view = game.chunks
    loader = view.streamer.loader
    sent: list[int] = []
    monkeypatch.setattr(loader, "send_mesh", lambda job_id, job: sent.append(job_id) or True)
    here: list[tuple[int, int, int]] = []
    real_show = view._show
    monkeypatch.setattr(view, "_show", lambda key, mesh: (here.append(key), real_show(key, mesh)))
    key = next(k for k in view.entities if view.vertex_count(k) > 0)
    x, y, z = (c * 16 + 8 for c in key)
    game.world.set_block(x, y, z, game.world.registry.id("base:glass"))  # as a tick writes
    monkeypatch.setattr(type(loader), "meshes_full", property(lambda self: True))
    view.update(game.player.eye, 1.0)
    assert not sent and key not in here and not view.idle  # the worker is full: it waits
    monkeypatch.setattr(type(loader), "meshes_full", property(lambda self: False))
    view.update(game.player.eye, 1.0)
    assert sent and key in {view._jobs.get(job) for job in sent} and key not in here
    game.world.set_block(x, y, z, 0)  # an action's change: the hands redraw at once
    view.remesh_dirty()
    assert here == [key]


def test_meshes_made_by_the_worker_are_drawn_unless_the_chunk_changed_since(
    make_game: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streamed chunks are meshed by the worker process and drawn when its answer comes; an
    edit meanwhile is drawn at once and the late answer is dropped; a lost job is meshed here."""
    game = make_game(view_distance=2)
    view = game.chunks
    loader = view.streamer.loader
    sent: dict[int, Any] = {}  # job id: the job's copies, as the worker would get them
    monkeypatch.setattr(loader, "send_mesh", lambda job_id, job: sent.setdefault(job_id, job))
    answers: list[tuple[int, Any]] = []
    monkeypatch.setattr(loader, "take_meshes", lambda: [answers.pop() for _ in list(answers)])

    def made(job_id: int) -> PackedMesh:
        return drawn_mesh(game.world.registry, sent[job_id])  # what the worker answers

    eye = (40.5, 70.0, 8.5)  # two columns on: new chunks to mesh
    # Until the streaming has loaded and sent everything (the loader thread's pace is the
    # machine's: a count of updates raced it).
    view.update(eye, 1.0)
    deadline = time.monotonic() + 60.0
    while view.streamer.pending and time.monotonic() < deadline:
        view.update(eye, 1.0, wait=True)
    jobs = {view._jobs[job_id]: job_id for job_id in sent}
    assert jobs, "nothing was sent to the worker"
    assert not any(view.shown(key) for key in jobs)  # not drawn before the answer
    edited, lost, *rest = sorted(jobs, key=lambda k: -mesh_chunk(game.world, *k).vertex_count)
    # An edit while its mesh is in the worker: drawn at once (as the hands redraw after an
    # action), from the world now.
    x, y, z = (c * 16 for c in edited)
    voxels = [(x + i, y + j, z + k) for i in range(16) for j in range(16) for k in range(16)]
    solid = next(v for v in voxels if game.world.get_block(*v) != 0)
    game.world.set_block(*solid, 0)
    view.remesh_dirty()
    view.update(eye, 1.0)
    expected = _drawn_vertices(game, edited)
    assert view.shown(edited) and view.vertex_count(edited) == expected
    answers.append((jobs[edited], made(jobs[edited])))  # the stale mesh, answered late
    answers.append((jobs[lost], None))  # a job the worker lost
    answers.extend((jobs[key], made(jobs[key])) for key in rest)
    view.update(eye, 1.0)
    assert view.vertex_count(edited) == expected  # the stale answer was dropped
    for key in [lost, *rest]:
        assert view.shown(key)
        assert view.vertex_count(key) == _drawn_vertices(game, key, lit=key in view.lights.lit)


def test_the_view_is_idle_only_once_what_is_around_is_loaded_lit_and_drawn(
    make_game: Callable[..., Any],
) -> None:
    game = make_game(view_distance=2)
    view = game.chunks

    def settle() -> None:
        deadline = time.monotonic() + 60.0
        while not view.idle and time.monotonic() < deadline:
            view.update(game.player.eye, 0.05, wait=True)

    settle()
    assert view.idle and view.pending == 0
    assert all(view.shown(key) for key in view.streamer.meshed)
    assert set(view.entities) <= view.lights.lit  # every drawn chunk lit
    game.player.teleport((160.0, 60.0, 8.0))  # ten columns away: new chunks to load and light
    view.update(game.player.eye, 0.0)
    assert not view.idle
    settle()
    assert view.idle
    cx, cz = 160 // 16, 8 // 16
    assert any(key[0] == cx and key[2] == cz for key in view.entities)


def test_loading_a_view_at_once_shares_the_meshing_with_the_worker_and_draws_it_all(
    make_game: Callable[..., Any],
) -> None:
    """`load_all` (the start, or a script's wait for the whole view) meshes part of what it
    loaded in the worker process and waits for those meshes: everything is drawn when it
    returns, each chunk as the frame would have meshed it."""
    game = make_game(view_distance=3)
    view = game.chunks
    loader = view.streamer.loader
    deadline = time.monotonic() + 30.0
    while not loader._ready and time.monotonic() < deadline:  # the worker process is up
        loader.wait_meshes(0.05)
        loader.take_meshes()
        time.sleep(0.01)
    assert loader._ready
    before = loader.meshed_count
    game.player.teleport((400.0, 60.0, 8.0))  # 25 columns away: all of it new
    view.load_all(game.player.eye)
    assert loader.meshed_count > before  # the worker took part
    assert not view._in_worker  # and every one of its meshes is drawn
    assert view.streamer.meshed and all(view.shown(key) for key in view.streamer.meshed)
    for key in view._parts:
        assert view.vertex_count(key) == _drawn_vertices(game, key)


def test_a_plant_draws_from_both_sides(app: Any, make_game: Callable[..., Any]) -> None:
    """A plant is drawn one-sided both ways round: looked at square on to one of its planes,
    from in front or from behind, that plane covers as much (out of reach, so no outline)."""
    from game.engine import grab_frame

    game = make_game(flat=True, creative=True)
    registry = game.world.registry
    ground, plant = 4, (0, 4, 3)  # the flat world's feet height; the plant's block
    centre = np.array([0.5, 3.5])  # its middle, x and z
    # Sand round it: the grass would be as bright as the ground behind it (neither is shaded).
    patch = [(x, ground - 1, z) for x in range(-4, 6) for z in range(-1, 9)]
    game.world.set_blocks(np.array(patch), registry.id("base:sand"))

    def frame(direction: np.ndarray, block: str) -> np.ndarray:
        game.world.set_block(*plant, registry.id(block))
        game.chunks.remesh_dirty()  # now, as an edit's frame does: not within the frame budget
        x, z = centre - direction * 6.5
        game.player.teleport((float(x), float(ground), float(z)))
        yaw = float(np.degrees(np.arctan2(-direction[0], direction[1])))
        game.player.look(yaw, 12.0)
        for _ in range(3):
            app.step()
        # The teleport may have brought chunks into view (or out): the picture waits for them,
        # so the two frames of a direction differ by the plant only.
        for _ in range(600):
            if game.chunks.idle:
                break
            app.step()
        app.step()
        return grab_frame(app).astype(int)

    covered = []
    for dx, dz in ((1, 1), (-1, -1), (1, -1), (-1, 1)):  # along each diagonal, both ways
        direction = np.array([dx, dz]) / np.sqrt(2.0)
        with_plant = frame(direction, "base:tall_grass")
        without = frame(direction, "air")
        covered.append(int((np.abs(with_plant - without).max(axis=2) > 8).sum()))
    assert min(covered) > 100, covered  # on screen every way
    assert max(covered) < 1.3 * min(covered), covered  # as much from in front as from behind


def test_a_sand_step_and_a_lit_lamp_show_their_sides_darker_than_their_tops_in_full_daylight(
    app: Any, make_game: Callable[..., Any]
) -> None:
    """Every face is shaded by its direction, as Minecraft's: on a beach step of one block of
    sand under the open sky at noon (the same sky light everywhere), the step's north side
    (0.8) and west side (0.6) are darker than the tops of both levels (1.0), so the step reads
    as a step; a lit lamp's sides are darker than its top too (a light source has no ambient
    occlusion, but its direction's shade)."""
    from panda3d.core import Point2, Point3

    from game.engine import grab_frame
    from game.scene import world_root

    game = make_game(flat=True, creative=True)
    world, registry = game.world, game.world.registry
    ground = 4  # the flat world's feet height: its top blocks are at y = 3
    sand, lamp = registry.id("base:sand"), registry.id("lamp:lamp_on")
    lower = [(x, ground - 1, z) for x in range(0, 9) for z in range(0, 9)]
    upper = [(x, ground, z) for x in range(3, 9) for z in range(3, 9)]
    cells = [*lower, *upper, (5, ground, 0)]
    world.set_blocks(np.array(cells), np.array([sand] * (len(cells) - 1) + [lamp]))
    game.chunks.relight(game.light.update(cells), now=True)
    game.chunks.remesh_dirty()
    game.chunks.set_daylight(1.0)
    game.player.set_flying(True)  # held where it is put: the picture is the one measured
    game.player.teleport((-1.5, ground + 2.5, -1.5))
    game.player.look(315.0, 40.0)  # south-east, down at the step
    for _ in range(600):
        app.step()
        if game.chunks.idle:
            break
    app.step()
    frame = grab_frame(app).astype(np.float64).mean(axis=2)
    height, width = frame.shape

    def brightness(point: tuple[float, float, float]) -> float:
        """The mean of a few pixels round a world point's place on screen."""
        render = Point3(*(np.array(point) - np.array(game.origin.origin)))
        on_screen = Point2()
        assert app.camLens.project(app.cam.getRelativePoint(world_root(), render), on_screen)
        column = int((on_screen.x + 1) / 2 * width)
        row = int((1 - on_screen.y) / 2 * height)
        return float(frame[row - 2 : row + 3, column - 2 : column + 3].mean())

    step_top = brightness((6.0, ground + 1.0, 6.0))
    low_top = brightness((1.5, ground, 1.5))
    north_side = brightness((6.0, ground + 0.7, 3.0))  # near its top edge: no occlusion there
    west_side = brightness((3.0, ground + 0.7, 6.0))
    lamp_top = brightness((5.5, ground + 1.0, 0.5))
    lamp_north = brightness((5.5, ground + 0.5, 0.0))
    lamp_west = brightness((5.0, ground + 0.5, 0.5))
    assert abs(step_top - low_top) < 0.06 * step_top  # the two levels' tops alike
    assert north_side < 0.9 * step_top and west_side < 0.75 * step_top
    assert west_side < north_side
    assert lamp_north < 0.9 * lamp_top and lamp_west < 0.9 * lamp_north


def test_a_streamed_chunk_waits_for_its_light_and_is_meshed_once_lit_or_in_daylight_if_late(
    make_game: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk the streaming brings is meshed with its light when the light comes within
    `LIGHT_WAIT_S` (one mesh, not one in daylight and another lit); when it does not, it is
    drawn in daylight meanwhile, and meshed again once lit; while the light is behind, no
    chunk waits for it."""
    import game.chunk_view as chunk_view

    game = make_game(view_distance=2)
    view = game.chunks
    assert view.lights is not None
    meshed: list[tuple[tuple[int, int, int], bool]] = []  # each mesh made: its chunk, lit?
    real_mesh = view._mesh

    def mesh(key: tuple[int, int, int], *, now: bool = False) -> None:
        if game.world.chunk(*key) is not None:
            meshed.append((key, key in view.lights.lit))
        real_mesh(key, now=now)

    monkeypatch.setattr(view, "_mesh", mesh)

    def settle(*, idle: bool = True) -> None:
        view.update(game.player.eye, 1.0)  # the streaming plans for where the player is now
        deadline = time.monotonic() + 60.0
        while (view.pending or (idle and not view.idle)) and time.monotonic() < deadline:
            view.update(game.player.eye, 1.0, wait=True)
        assert not view.pending

    # However slow the machine (the light's round trip), nothing waits out its time here.
    monkeypatch.setattr(chunk_view, "LIGHT_WAIT_S", 3600.0)
    monkeypatch.setattr(chunk_view, "LIGHT_BACKLOG", 1 << 20)
    game.player.teleport((200.5, 70.0, 8.0))  # twelve columns away: all of it new
    settle()
    firsts = [key for key, _ in meshed if key[0] >= 200 // 16 - 2]
    assert firsts and all(lit for _, lit in meshed)  # every mesh made with its light
    assert len(firsts) == len(set(firsts))  # once each
    meshed.clear()
    monkeypatch.setattr(chunk_view, "LIGHT_WAIT_S", 0.0)
    real_work = view.lights.work
    monkeypatch.setattr(view.lights, "work", lambda *a, **k: 0)  # light comes late
    game.player.teleport((400.5, 70.0, 8.0))
    settle(idle=False)
    assert meshed and not any(lit for _, lit in meshed)  # drawn in daylight meanwhile
    assert all(view.shown(key) for key, _ in meshed)
    daylight = {key for key, _ in meshed}
    monkeypatch.setattr(view.lights, "work", real_work)
    meshed.clear()
    settle()
    drawn = {key for key in daylight if key in view._parts}  # (a chunk with no face: no node)
    assert drawn and drawn <= {key for key, lit in meshed if lit}  # meshed again, lit
    # The light behind (more chunks wait for it than LIGHT_BACKLOG): nothing waits for it.
    meshed.clear()
    monkeypatch.setattr(chunk_view, "LIGHT_WAIT_S", 3600.0)
    monkeypatch.setattr(chunk_view, "LIGHT_BACKLOG", -1)
    monkeypatch.setattr(view.lights, "work", lambda *a, **k: 0)
    game.player.teleport((600.5, 70.0, 8.0))
    settle(idle=False)
    assert meshed and not any(lit for _, lit in meshed)


def test_a_mesh_for_a_chunk_the_streaming_let_go_meanwhile_is_not_drawn(
    make_game: Callable[..., Any],
) -> None:
    # A far teleport lets the old place's chunks go while meshes for them may still come
    # (from the worker, or a chunk that waited for its light): none may leave a node behind.
    game = make_game(view_distance=2)
    view = game.chunks
    key = next(k for k in view.entities if view.vertex_count(k) > 0)
    mesh = drawn_mesh(game.world.registry, _inputs(game, key))
    view.streamer._unmesh(key)  # let go, as a column leaving the view is
    assert key not in view.entities
    view._show(key, mesh)
    assert key not in view.entities and not view.shown(key)


def _inputs(game: Any, key: tuple[int, int, int]) -> Any:
    from world.mesh.mesher import mesh_inputs

    return mesh_inputs(game.world, *key, game.light.padded(key))
