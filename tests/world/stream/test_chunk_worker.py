"""The chunk worker process: it loads and meshes what the main thread would, and the game never
depends on it (a registry that differs, a worker that dies, a batch that fails: the loader
carries on, and the game meshes what the worker did not)."""

from __future__ import annotations

import logging
import os
import pickle
import signal
import socket
import sqlite3
import struct
import threading
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np
import pytest

from world import World
from world.base import GAME, GAME_PATH
from world.gen.worldgen import mod_hooks, worldgen_factory
from world.geometry import Int3
from world.light.lighting import Light, solve_light
from world.mesh.mesher import MeshInputs, padded_blocks
from world.mesh.pack import OTHER, PackedMesh, drawn_mesh
from world.mods.guard import HookGuard
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.registration import make_registry
from world.save.format import SaveError
from world.save.storage import WorldStore
from world.stream.loader import MESHES_IN_FLIGHT, ChunkLoader
from world.stream.worker import Link, WorkerRecipe, registry_fingerprint
from world.voxels.layout import ChunkKey
from world.voxels.padded import neighbour_keys

SEED = 11
KEYS: list[ChunkKey] = [(cx, cy, cz) for cx in range(-2, 2) for cz in range(-1, 2) for cy in (1, 2)]
SAVED: list[ChunkKey] = [(0, 1, 0), (-1, 1, 1)]
MARKED = Int3(3, 20, 5)  # in (0, 1, 0): per-voxel data saved with the chunk
WAIT_S = 60.0  # a fresh interpreter imports numpy and the mods: seconds on a busy machine


def _open(
    path: Path, mods_dirs: tuple[Path, ...], *, read_only: bool = False
) -> tuple[World, Mods, WorldStore]:
    mods = load_mods(mods_dirs, game=GAME)
    registry = make_registry(mods)
    store = WorldStore(path, read_only=read_only)
    factory = worldgen_factory(mod_hooks(mods, HookGuard(mods.record)))
    return store.load(registry, generator_factory=factory), mods, store


def _saved_world(path: Path, mods_dirs: tuple[Path, ...]) -> tuple[World, Mods, WorldStore]:
    """A terrain world with two edited chunks and per-voxel data saved; reopened."""
    WorldStore.create(path, seed=SEED, generator="terrain").close()
    world, _, store = _open(path, mods_dirs)
    stone = world.registry.id("base:stone")
    for key in SAVED:
        chunk = world.chunk(*key)
        assert chunk is not None
        chunk.blocks[::7] = stone  # differs from the terrain: a read must use the row
        world.modified.add(key)
    world.block_data.write(MARKED, "owner", "ada")
    store.save(world)
    store.close()
    return _open(path, mods_dirs)


def _recipe(world: World, path: Path, mods_dirs: tuple[Path, ...]) -> WorkerRecipe:
    return WorkerRecipe(
        mods_dirs=tuple(str(d) for d in mods_dirs),
        entry_points=True,
        save=str(path),
        generator=None,
        seed=0,
        fingerprint=registry_fingerprint(world.registry),
        game=GAME_PATH,
    )


def _load_all(loader: ChunkLoader, keys: list[ChunkKey]) -> dict[ChunkKey, object]:
    """Request ``keys`` and wait for every result."""
    loader.request(keys)
    found: dict[ChunkKey, object] = {}
    deadline = time.monotonic() + WAIT_S
    while loader.in_flight and time.monotonic() < deadline:
        loader.wait(0.05)
        found.update((key, blocks) for key, blocks, _ in loader.take())
    assert not loader.in_flight, "the loader never finished"
    return found


def _ready(loader: ChunkLoader) -> None:
    loader.start_worker()
    deadline = time.monotonic() + WAIT_S
    while loader.worker is not None and not loader.worker.ready:
        assert time.monotonic() < deadline, "the worker never said it was ready"
        loader.take()
        time.sleep(0.02)


def _expected(path: Path, keys: list[ChunkKey]) -> dict[ChunkKey, object]:
    """Each chunk read on this thread through a second store of the same file."""
    world, _, store = _open(path, (DEFAULT_MODS_DIR,), read_only=True)
    try:
        return {key: world.generator(*key) for key in keys}
    finally:
        store.close()


def _same(found: dict[ChunkKey, object], expected: dict[ChunkKey, object]) -> None:
    assert found.keys() == expected.keys()
    for key, blocks in expected.items():
        got = found[key]
        if blocks is None or not np.asarray(blocks).any():
            assert got is None, key
        else:
            np.testing.assert_array_equal(got, blocks, err_msg=str(key))


def test_a_worker_process_loads_saved_and_generated_chunks_as_the_main_thread_reads_them(tmp_path):
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        assert loader.worker is not None and loader.worker.ready
        found = _load_all(loader, KEYS)
        assert loader.worker is not None, "it fell back to the thread"
        _same(found, _expected(path, KEYS))
        # The per-voxel data read with a saved chunk reaches the game's world when installed.
        for key in KEYS:
            world.install_loaded(key, found[key])  # type: ignore[arg-type]
        assert world.block_data.get(MARKED) == {"owner": "ada"}
    finally:
        loader.close()
        store.close()
    assert loader.worker is None


def test_a_worker_whose_blocks_differ_from_the_games_is_not_used(tmp_path, caplog):
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    recipe = replace(_recipe(world, path, (DEFAULT_MODS_DIR,)), fingerprint="another registry")
    loader = ChunkLoader(world.generator, worker=recipe)
    try:
        with caplog.at_level(logging.WARNING):
            _ready(loader)
            found = _load_all(loader, KEYS)
        assert loader.worker is None
        assert "blocks differ" in caplog.text
        _same(found, _expected(path, KEYS))  # the thread loaded them all
    finally:
        loader.close()
        store.close()


def test_when_the_worker_dies_its_batches_are_loaded_by_the_thread(tmp_path, caplog):
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        assert loader.worker is not None
        loader.worker.process.kill()
        loader.worker.process.wait()
        with caplog.at_level(logging.WARNING):
            found = _load_all(loader, KEYS)
        assert loader.worker is None
        assert "it stopped" in caplog.text
        _same(found, _expected(path, KEYS))
    finally:
        loader.close()
        store.close()


def test_a_damaged_row_the_worker_meets_is_raised_in_the_game_as_the_thread_raises_it(tmp_path):
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    with sqlite3.connect(path) as conn:  # another program damaged one row
        conn.execute("UPDATE chunks SET data = x'00ff' WHERE cx = 0 AND cy = 1 AND cz = 0")
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        with pytest.raises(SaveError, match=r"\(0, 1, 0\)"):
            _load_all(loader, KEYS)
        assert store.read_only  # the game's own store turned read-only: never overwritten
    finally:
        loader.close()
        store.close()


FAILING_MOD = """
from world.mods.hooks import hookimpl

@hookimpl
def on_generated(chunk):
    if chunk.key == (1, 2, 1):
        raise RuntimeError("no room for a tower here")
    chunk.blocks[0] = 1
"""


def test_a_mods_on_generated_runs_in_the_worker_and_its_failure_is_reported_in_the_game(
    tmp_path,
):
    mods_dir = tmp_path / "mods"
    mods_dir.mkdir()
    (mods_dir / "towers.py").write_text(FAILING_MOD)
    dirs = (DEFAULT_MODS_DIR, mods_dir)
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, dirs)
    reports: list[tuple[str, str, str]] = []
    loader = ChunkLoader(
        world.generator,
        worker=_recipe(world, path, dirs),
        on_mod_error=lambda *report: reports.append(report),
    )
    keys = [(1, 2, 1), (1, 3, 1), (-2, 2, -1)]
    try:
        _ready(loader)
        found = _load_all(loader, keys)
        assert loader.worker is not None
        assert [(mod, where) for mod, where, _ in reports] == [("towers", "on_generated")]
        assert "no room for a tower here" in reports[0][2]
        assert found[(1, 3, 1)] is not None and found[(1, 3, 1)][0] == 1  # type: ignore[index]
        _same(found, {key: world.generator(*key) for key in keys})
    finally:
        loader.close()
        store.close()


# -- meshing in the worker ----------------------------------------------------------------------


def _mesh_jobs(world: World, keys: list[ChunkKey]) -> list[MeshInputs]:
    """Each chunk's mesh job as the game makes it: unlit, then lit."""
    light = Light(world)
    blocks = {key: padded_blocks(world, *key) for key in keys}  # loads their neighbours
    light.add_chunks({near for key in keys for near in neighbour_keys(key)})
    floors = {key: world.build_height[0] - key[1] * 16 for key in keys}
    return [(blocks[key], floors[key], None) for key in keys] + [
        (blocks[key], floors[key], light.padded(key)) for key in keys
    ]


def _take_meshes(loader: ChunkLoader, count: int) -> dict[int, PackedMesh | None]:
    """Wait for ``count`` mesh answers."""
    answers: dict[int, PackedMesh | None] = {}
    deadline = time.monotonic() + WAIT_S
    while len(answers) < count:
        assert time.monotonic() < deadline, "the worker never answered"
        for job_id, packed in loader.take_meshes():
            assert job_id not in answers, "answered twice"
            answers[job_id] = packed
        time.sleep(0.01)
    return answers


def test_a_worker_process_meshes_a_chunk_as_the_game_would_have_meshed_it(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    jobs = _mesh_jobs(world, [SAVED[0], (-2, 2, 0)])  # an edited chunk; grass with plants
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        for job_id, job in enumerate(jobs, start=10):
            assert loader.send_mesh(job_id, job)
        assert loader.meshing == len(jobs)
        answers = _take_meshes(loader, len(jobs))
        assert loader.worker is not None and loader.meshing == 0
        assert loader.meshed_count == len(jobs)
    finally:
        loader.close()
        store.close()
    assert set(answers) == set(range(10, 10 + len(jobs)))
    for job_id, job in enumerate(jobs, start=10):
        got = answers[job_id]
        expected = drawn_mesh(world.registry, job)  # as the game meshes it in the frame
        assert got is not None, job_id
        assert expected.vertex_count > 0, job_id
        assert got.rows.dtype == expected.rows.dtype
        assert got.rows.tobytes() == expected.rows.tobytes(), job_id
        assert len(got.groups) == len(expected.groups) == 7
        for group, want in zip(got.groups, expected.groups, strict=True):
            assert group.dtype == np.uint32
            np.testing.assert_array_equal(group, want, err_msg=str(job_id))
    # The plants' group was filled, and the lit jobs were meshed with the light they carried.
    unlit, plants, lit = answers[10], answers[11], answers[10 + len(jobs) // 2]
    assert plants is not None and len(plants.groups[OTHER]) > 0
    assert unlit is not None and lit is not None
    assert unlit.rows.tobytes() != lit.rows.tobytes()


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="stops the worker with SIGSTOP")
def test_mesh_jobs_the_worker_loses_when_it_dies_come_back_for_the_game_to_mesh(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    jobs = _mesh_jobs(world, [SAVED[0]])
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        assert loader.worker is not None
        process = loader.worker.process
        os.kill(process.pid, signal.SIGSTOP)  # it never answers what follows
        for job_id, job in enumerate(jobs, start=1):
            assert loader.send_mesh(job_id, job)
        process.kill()
        process.wait()
        with caplog.at_level(logging.WARNING):
            answers = _take_meshes(loader, len(jobs))
        assert answers == dict.fromkeys(range(1, len(jobs) + 1))  # None: mesh it yourself
        assert loader.worker is None and loader.meshing == 0 and loader.meshed_count == 0
        assert "it stopped" in caplog.text
        assert not loader.send_mesh(99, jobs[0])  # from now on the game meshes in the frame
        assert loader.take_meshes() == []
        keys = KEYS[:4]
        _same(_load_all(loader, keys), _expected(path, keys))  # and the thread loads
    finally:
        loader.close()
        store.close()


def test_without_a_ready_worker_a_mesh_job_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    job = _mesh_jobs(world, [SAVED[0]])[0]
    try:
        for loader in (
            ChunkLoader(world.generator, threaded=False),
            ChunkLoader(world.generator),  # a thread, no worker process
        ):
            assert not loader.send_mesh(1, job)
            assert loader.meshing == 0 and loader.take_meshes() == []
            loader.close()
        loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
        loader.start_worker()  # started, not ready: nothing has read its answer yet
        try:
            assert loader.worker is not None and not loader.worker.ready
            assert not loader.send_mesh(1, job)
            assert loader.meshing == 0
        finally:
            loader.close()
    finally:
        store.close()


def test_at_most_meshes_in_flight_jobs_wait_for_the_worker(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    job = _mesh_jobs(world, [SAVED[0]])[1]
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        # `send_mesh` reads no answers: only taking them frees a place.
        accepted = [loader.send_mesh(job_id, job) for job_id in range(MESHES_IN_FLIGHT + 3)]
        assert accepted == [True] * MESHES_IN_FLIGHT + [False] * 3
        assert loader.meshing == MESHES_IN_FLIGHT
        answers = _take_meshes(loader, MESHES_IN_FLIGHT)
        assert set(answers) == set(range(MESHES_IN_FLIGHT))
        assert all(packed is not None for packed in answers.values())
        assert loader.meshing == 0
        assert loader.send_mesh(100, job)  # room again
        assert _take_meshes(loader, 1).keys() == {100}
    finally:
        loader.close()
        store.close()


@pytest.fixture
def linked():
    """A `Link` on one end of a socket pair, and the other end (the worker's)."""
    ours, theirs = socket.socketpair()
    link = Link(ours)
    yield link, theirs
    link.close()
    theirs.close()


def test_an_answer_is_taken_only_once_whole_so_the_frame_never_waits_for_its_rest(linked) -> None:
    # The worker runs below the game for the scheduler: the rest of an answer may come only
    # when it next runs. Until then, poll says no answer is in and the frame goes on.
    reader, theirs = linked
    first = ("meshed", 7, np.arange(50_000, dtype=np.uint16))
    data = pickle.dumps(first)
    theirs.sendall(struct.pack("!i", len(data)) + data[: len(data) // 2])
    started = time.perf_counter()
    assert not reader.poll()
    assert not reader.poll(0.05)
    assert time.perf_counter() - started < 1.0
    theirs.sendall(data[len(data) // 2 :])
    # Two more at once, one in the long framing (-1, then an 8-byte length).
    second, third = pickle.dumps(("done", 8)), pickle.dumps(("ready", "x"))
    theirs.sendall(struct.pack("!i", len(second)) + second)
    theirs.sendall(struct.pack("!i", -1) + struct.pack("!Q", len(third)) + third)
    assert reader.poll(1.0)
    kind, job, array = reader.recv()
    assert (kind, job) == ("meshed", 7) and np.array_equal(array, first[2])
    assert reader.recv() == ("done", 8)
    assert reader.recv() == ("ready", "x")
    assert not reader.poll()
    theirs.close()
    assert reader.poll(1.0)  # the end is news too: recv says so
    with pytest.raises(EOFError):
        reader.recv()


def test_a_send_the_socket_cannot_take_now_waits_for_the_next_call_not_the_frame(linked) -> None:
    link, theirs = linked
    jobs = [("mesh", n, np.full(30_000, n, dtype=np.uint16)) for n in range(40)]  # 2.4 MB
    started = time.perf_counter()
    for job in jobs:
        link.send(job)  # nobody reads the other end yet: most of it waits
    assert time.perf_counter() - started < 1.0
    theirs_conn = Connection(theirs.detach())
    got: list = []
    reader = threading.Thread(  # the worker's side: a reader thread, as it has
        target=lambda: got.extend(theirs_conn.recv() for _ in jobs), daemon=True
    )
    reader.start()
    deadline = time.monotonic() + 30
    while reader.is_alive() and time.monotonic() < deadline:
        link.flush()  # each frame's exchange does this
        time.sleep(0.001)
    assert [g[1] for g in got] == list(range(40))
    assert all(np.array_equal(g[2], job[2]) for g, job in zip(got, jobs, strict=True))
    theirs_conn.close()


def test_the_worker_process_starts_as_the_package_s_main_without_a_warning() -> None:
    # Started as `python -m world.stream.worker`, the module the package imports ran twice,
    # and runpy warned on every start of the game.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "world.stream", "not-a-socket"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith("usage: python -m world.stream FD")


def test_a_worker_process_lights_a_box_as_the_game_would_have_lit_it(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    for key in KEYS:
        world.chunk(*key)
    light = Light(world)
    light.add_chunks([key for key in KEYS if key[0] < 0])
    job = light.begin_chunks([key for key in KEYS if key[0] == 0])  # beside lit chunks
    assert job is not None
    here = solve_light(pickle.loads(pickle.dumps(job.inputs)))  # as the frame solves it
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        _ready(loader)
        assert loader.send_light(7, job.inputs)
        deadline = time.monotonic() + WAIT_S
        while not (answers := loader.take_lights()):
            assert time.monotonic() < deadline, "the worker never answered"
            time.sleep(0.01)
        assert loader.lit_count == 1
    finally:
        loader.close()
        store.close()
    ((job_id, answer),) = answers
    assert job_id == 7 and answer is not None
    assert answer.keys() == here.keys() and set(job.keys) <= answer.keys()
    for key, (sky, block) in here.items():
        np.testing.assert_array_equal(answer[key][0], sky, err_msg=str(key))
        np.testing.assert_array_equal(answer[key][1], block, err_msg=str(key))
    assert light.finish_chunks(job, answer) == set(answer)
    assert light.at(8, 40, 8)[0] == 15  # open sky over the terrain


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="stops the worker with SIGSTOP")
def test_a_light_job_the_worker_loses_when_it_dies_comes_back_for_the_game(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, store = _saved_world(path, (DEFAULT_MODS_DIR,))
    world.chunk(0, 1, 0)
    job = Light(world).begin_chunks([(0, 1, 0)])
    assert job is not None
    loader = ChunkLoader(world.generator, worker=_recipe(world, path, (DEFAULT_MODS_DIR,)))
    try:
        assert not loader.send_light(1, job.inputs)  # no worker ready: the game lights it
        _ready(loader)
        assert loader.worker is not None
        process = loader.worker.process
        os.kill(process.pid, signal.SIGSTOP)
        assert loader.send_light(2, job.inputs)
        process.kill()
        process.wait()
        deadline = time.monotonic() + WAIT_S
        while not (answers := loader.take_lights()):
            assert time.monotonic() < deadline, "the lost job never came back"
            time.sleep(0.01)
        assert answers == [(2, None)]
        assert not loader.send_light(3, job.inputs)
    finally:
        loader.close()
        store.close()
