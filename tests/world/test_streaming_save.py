"""Streaming a saved world: batched reads, the loader thread, flight without lasting holes, and
no stale load ever replacing a saved edit."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from world.blocks import BlockRegistry, default_registry
from world.chunks import CHUNK_VOLUME, World
from world.storage import WorldStore
from world.streaming import ChunkStreamer

LAYERS = (0, 3)
FLIGHT_SPEED = 21.8  # blocks a second
FPS = 60
MOST_FRAMES_MISSING = 15  # a loaded chunk in view is drawn within a quarter of a second


class Hills:
    """A small named generator: ground whose height depends on the column (two layers)."""

    name = "hills"
    seed = 5

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        if cy >= 2:
            return None
        blocks = np.zeros((16, 16, 16), dtype=np.uint16)
        top = 4 + (cx * 7 + cz * 3) % 20 - cy * 16
        blocks[:, : max(0, min(16, top)), :] = 1 + (cx + cz) % 3
        return blocks.reshape(CHUNK_VOLUME)


def hills(name: str, seed: int, registry: BlockRegistry) -> Hills:
    if name != "hills":
        raise ValueError(f"unknown generator {name!r}")
    return Hills()


def saved_world(path: Path, columns: range, rows: range) -> WorldStore:
    """A world file whose chunks in ``columns`` × ``rows`` are all saved rows (edited: stone)."""
    store = WorldStore.create(path, seed=Hills.seed, generator="hills")
    world = store.load(default_registry(), generator_factory=hills)
    for cx in columns:
        for cz in rows:
            for cy in range(*LAYERS):
                world.chunk(cx, cy, cz)
    for key, chunk in world.chunks.items():
        chunk.blocks[0] = 1  # differs from the generator: a read that skips the row is caught
        world.modified.add(key)
    store.save(world)
    return store


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=15, deadline=None)
@given(
    keys=st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-1, 3), st.integers(-3, 3)),
        min_size=1,
        max_size=30,
        unique=True,
    )
)
def test_a_batch_read_gives_what_reading_each_chunk_alone_gives(tmp_path_factory, keys):
    path = tmp_path_factory.mktemp("batch") / "w.sqlite"
    with saved_world(path, range(-2, 2), range(-2, 2)) as store:
        registry = default_registry()
        store.load(registry, generator_factory=hills)
        batch = store._read_chunks(keys, registry)
        for key in keys:
            alone = store._read_chunk(key, registry)
            if alone is None:
                assert key not in batch
            else:
                np.testing.assert_array_equal(batch[key], alone)


def test_the_loader_thread_streams_what_reading_every_chunk_on_the_main_thread_gives(tmp_path):
    with saved_world(tmp_path / "w.sqlite", range(-5, 6), range(-5, 6)) as store:
        world = store.load(default_registry(), generator_factory=hills)
        streamer = ChunkStreamer(world, 3, LAYERS, threaded=True)
        try:
            streamer.update((8.0, 20.0, 8.0), (1.0, 0.0))
            streamer.work(math.inf, wait=True)
            assert streamer.pending == 0
            assert streamer.loader.loaded_count == len(streamer.loaded)
        finally:
            streamer.close()
        reference = store.load(default_registry(), generator_factory=hills)
        for key in streamer.loaded:
            np.testing.assert_array_equal(world.chunk_blocks(*key), reference.chunk_blocks(*key))


def test_columns_in_front_of_the_camera_are_loaded_before_columns_as_near_behind_it():
    order: list = []
    world = World(generator=lambda cx, cy, cz: order.append((cx, cz)))
    streamer = ChunkStreamer(world, 6, (0, 1))
    streamer.update((8.0, 0.0, 8.0), (1.0, 0.0))  # looking along +x
    while streamer.pending:
        streamer.work(1.0)
    rank = {column: n for n, column in enumerate(order)}
    for d in range(1, 6):
        assert rank[(d, 0)] < rank[(-d, 0)]
    assert order[0] == (0, 0)


def test_loads_of_columns_that_left_the_range_are_cancelled():
    world = World(generator=lambda cx, cy, cz: None)
    streamer = ChunkStreamer(world, 4, (0, 2))
    streamer.update((8.0, 0.0, 8.0))
    streamer.work(0.0)  # one batch
    streamer.update((16 * 40 + 8.0, 0.0, 8.0))  # far away before the rest was read
    while streamer.pending:
        streamer.work(1.0)
    assert all(abs(key[0] - 40) <= 6 for key in streamer.loaded)
    assert all(abs(key[0] - 40) <= 6 for key in world._air)


def test_a_load_finished_after_the_main_thread_edited_the_chunk_never_replaces_it(tmp_path):
    with saved_world(tmp_path / "w.sqlite", range(-1, 1), range(-1, 1)) as store:
        world = store.load(default_registry(), generator_factory=hills)
        streamer = ChunkStreamer(world, 2, LAYERS)
        streamer.update((8.0, 0.0, 8.0))
        streamer.loader.pump()  # the loader read the column (0, 0) ... not taken yet
        world.set_block(1, 1, 1, 3)  # the main thread reads the chunk itself and edits it
        while streamer.pending:
            streamer.work(1.0)
        assert world.get_block(1, 1, 1) == 3 and (0, 0, 0) in streamer.loaded


def test_a_load_read_before_an_edit_was_saved_and_forgotten_is_thrown_away(tmp_path):
    with saved_world(tmp_path / "w.sqlite", range(-1, 1), range(-1, 1)) as store:
        world = store.load(default_registry(), generator_factory=hills)
        streamer = ChunkStreamer(world, 2, LAYERS, on_save=lambda keys: store.save(world))
        streamer.update((8.0, 0.0, 8.0))
        while streamer.pending:
            streamer.work(1.0)
        old = world.chunk_blocks(0, 0, 0).copy()
        world.set_block(1, 1, 1, 3)
        streamer.update((16 * 30 + 8.0, 0.0, 8.0))  # away: saved and forgotten
        streamer.let_go_all()
        assert world.modified == set() and not world.is_loaded(0, 0, 0)
        streamer.update((8.0, 0.0, 8.0))  # back, while a worker still held the old rows:
        streamer.loader._done.append(((0, 0, 0), old, 0))  # read in epoch 0, before the save
        while streamer.pending:
            streamer.work(1.0)
        assert streamer.cancelled == 1
        assert world.get_block(1, 1, 1) == 3


def test_a_saved_world_streamed_while_flying_never_leaves_a_loaded_chunk_undrawn_for_long(
    tmp_path,
):
    # Deterministic: loads run in the frame (not threaded) and cost fake time, as meshes do.
    view_distance, seconds = 4, 6
    flight = range(-6, math.ceil(FLIGHT_SPEED * seconds / 16) + 7)
    with saved_world(tmp_path / "w.sqlite", flight, range(-6, 7)) as store:
        world = store.load(default_registry(), generator_factory=hills)
        clock = FakeClock()
        source = world.generator

        def slow_source(cx: int, cy: int, cz: int):
            clock.now += 0.0008  # a saved chunk: 0.8 ms (issue 13)
            return source(cx, cy, cz)

        def slow_mesh(key):
            clock.now += 0.001

        streamer = ChunkStreamer(world, view_distance, LAYERS, on_mesh=slow_mesh, clock=clock)
        streamer.loader.source = slow_source
        x = 8.0
        streamer.update((x, 40.0, 8.0), (1.0, 0.0))
        streamer.work(math.inf)
        missing_for: dict = {}
        worst = 0
        for _ in range(seconds * FPS):
            x += FLIGHT_SPEED / FPS
            streamer.update((x, 40.0, 8.0), (1.0, 0.0))
            streamer.work(0.006)
            clock.now += 1 / FPS
            cx, cz = math.floor(x) // 16, 0
            in_view = {
                key
                for key in list(world.chunks) + list(world._air)
                if (key[0] - cx) ** 2 + (key[2] - cz) ** 2 <= view_distance**2
            }
            missing_for = {
                key: missing_for.get(key, 0) + 1 for key in in_view if key not in streamer.meshed
            }
            worst = max(worst, *missing_for.values(), 0)
        assert worst <= MOST_FRAMES_MISSING, worst
        assert streamer.loader.loaded_count > 100  # it did stream from the save
