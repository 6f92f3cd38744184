"""Chunk streaming: nearest-first, within the view distance, under a budget, never losing edits."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.stream.streamer import LET_GO_COLUMNS, LET_GO_SPREAD, ChunkStreamer
from world.voxels.layout import CHUNK_VOLUME

STONE = 1


def ground(cx: int, cy: int, cz: int) -> np.ndarray | None:
    if cy != 0:
        return None
    blocks = np.zeros(CHUNK_VOLUME, dtype=np.uint16)
    blocks.reshape(16, 16, 16)[:, :8, :] = STONE
    return blocks


class FakeClock:
    """Each job 'takes' a fixed time, so budgets are tested without timing anything."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def column_distance2(key, center):
    return (key[0] - center[0]) ** 2 + (key[2] - center[1]) ** 2


def make(view_distance=3, **kwargs):
    world = World(generator=ground)
    meshed: list = []
    dropped: list = []
    streamer = ChunkStreamer(
        world,
        view_distance,
        cy_range=(0, 2),
        on_mesh=meshed.append,
        on_drop=dropped.append,
        **kwargs,
    )
    return world, streamer, meshed, dropped


def test_meshes_nearest_first_and_only_with_loaded_neighbours():
    world, streamer, meshed, _ = make()
    streamer.update((8.0, 20.0, 8.0))
    while streamer.pending:
        streamer.work(budget=1.0)
    assert meshed[0] in {(0, 0, 0), (0, 1, 0)}
    distances = [column_distance2(k, (0, 0)) for k in meshed]
    assert distances == sorted(distances)
    assert {(k[0], k[2]) for k in meshed} == {
        (x, z) for x in range(-3, 4) for z in range(-3, 4) if x * x + z * z <= 9
    }
    for key in meshed:
        for dx in (-1, 0, 1):
            for dz in (-1, 0, 1):
                assert world.is_loaded(key[0] + dx, 0, key[2] + dz)


def test_walk_keeps_shown_and_loaded_sets_within_range():
    world, streamer, meshed, dropped = make(view_distance=4)
    shown: set = set()
    # Columns that left are let go LET_GO_COLUMNS an update, un-shown first: the at most 9 shown
    # and 12 loaded (view distance 4 + 1.5) that one crossing leaves go long before the next
    # crossing (64 updates).
    settle = math.ceil((9 + 12) / LET_GO_COLUMNS)
    since_crossing, center = settle, None
    for step in range(0, 200 * 4):
        x = 8.0 + step / 4  # 200 blocks along +x
        streamer.update((x, 20.0, 8.0))
        streamer.work(budget=1.0)
        shown |= set(meshed)
        shown -= set(dropped)
        meshed.clear()
        dropped.clear()
        since_crossing = 0 if streamer.center != center else since_crossing + 1
        center = streamer.center
        slack = 0 if since_crossing >= settle else 1  # one column more until they are let go
        assert all(column_distance2(k, center) <= (4 + slack) ** 2 for k in shown)
        assert all(column_distance2(k, center) <= (5.5 + slack) ** 2 for k in streamer.loaded)
        assert set(world.chunks) <= streamer.loaded
    assert shown == streamer.meshed


def test_columns_let_go_over_several_updates_are_never_loaded_again_by_a_remesh():
    # A shown chunk may be remeshed (its light changed) until it is un-shown; the mesher reads
    # its 26 neighbours, loading any the world forgot: nothing is forgotten before it is un-shown.
    world, streamer, _, _ = make(view_distance=3)
    streamer.update((8.0, 8.0, 8.0))
    while streamer.pending:
        streamer.work(1.0)
    for x in (8.0 + 16 * 40, 8.0 + 16 * 40.5, 8.0 + 16 * 80):  # a teleport, a step, another
        streamer.update((x, 8.0, 8.0))
        for _ in range(10 * LET_GO_SPREAD):  # an eighth of the backlog an update, at least 2
            for cx, cy, cz in list(streamer.meshed):  # every shown chunk remeshed
                for dx, dy, dz in product((-1, 0, 1), repeat=3):
                    world.chunk_blocks(cx + dx, cy + dy, cz + dz)
            assert set(world.chunks) <= streamer.loaded
            streamer.update((x, 8.0, 8.0))
            streamer.work(1.0)
        assert not streamer._leaving_mesh and not streamer._leaving_load


def test_budget_limits_jobs_per_frame():
    clock = FakeClock()
    world = World(generator=ground)

    def slow_mesh(key):
        clock.now += 0.004

    streamer = ChunkStreamer(world, 3, cy_range=(0, 2), on_mesh=slow_mesh, clock=clock)
    streamer.update((0.0, 0.0, 0.0))

    def slow_ground(cx, cy, cz):
        clock.now += 0.003
        return ground(cx, cy, cz)

    streamer.loader.source = slow_ground  # loads run in `work` (not threaded), costing time
    frames = 0
    while streamer.pending:
        streamer.work(budget=0.008)
        assert streamer.last_work_seconds <= 0.008 + 1e-9 or frames < 2
        frames += 1
    assert frames > 10


def test_unsaved_chunks_are_saved_before_they_are_dropped():
    saved: list = []
    world, streamer, _, _ = make(view_distance=2, on_save=saved.extend)
    streamer.update((0.0, 0.0, 0.0))
    while streamer.pending:
        streamer.work(1.0)
    world.set_block(1, 1, 1, STONE + 1)
    streamer.update((16 * 10.0, 0.0, 0.0))
    streamer.let_go_all()
    assert (0, 0, 0) in saved
    # Nobody cleared the unsaved flag: the chunk stays in memory rather than lose the edit.
    assert world.get_block(1, 1, 1) == STONE + 1 and (0, 0, 0) in world.chunks


def test_ready_at_means_the_column_is_loaded():
    _, streamer, _, _ = make()
    assert not streamer.ready_at((0.5, 10.0, 0.5))
    streamer.update((0.5, 10.0, 0.5))
    streamer.work(1.0)
    while not streamer.ready_at((0.5, 10.0, 0.5)):
        streamer.work(0.0)
    assert streamer.ready_at((0.5, 10.0, 0.5))


def test_view_distance_is_checked():
    with pytest.raises(ValueError, match="view_distance"):
        ChunkStreamer(World(), 1)
    with pytest.raises(ValueError, match="view_distance"):
        ChunkStreamer(World(), 17)
    streamer = ChunkStreamer(World(), 8)
    with pytest.raises(ValueError, match="view_distance"):
        streamer.set_view_distance(0)


def brute_force_wanted(center, radius, layers=2):
    """Every chunk of the columns within ``radius`` of ``center``, by checking them all."""
    reach = int(radius) + 2
    return {
        (center[0] + dx, cy, center[1] + dz)
        for dx in range(-reach, reach + 1)
        for dz in range(-reach, reach + 1)
        if dx * dx + dz * dz <= radius * radius
        for cy in range(layers)
    }


@settings(max_examples=40, deadline=None)
@given(
    view_distance=st.integers(2, 4),
    moves=st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 60)),
        min_size=1,
        max_size=8,
    ),
)
def test_recentring_plans_what_a_brute_force_check_of_every_chunk_wants(view_distance, moves):
    world, streamer, _, _ = make(view_distance=view_distance)
    center = (0, 0)
    for dx, dz, jobs in moves:
        center = (center[0] + dx, center[1] + dz)
        streamer.update((center[0] * 16 + 8.0, 20.0, center[1] * 16 + 8.0))
        streamer.let_go_all()  # (what left is let go over the next updates: test_walk_...)
        want_load = brute_force_wanted(center, view_distance + 1.5)
        want_mesh = brute_force_wanted(center, view_distance)
        assert streamer.loaded <= want_load and streamer.meshed <= want_mesh
        assert set(world.chunks) <= want_load
        assert streamer.pending == len(want_load - streamer.loaded) + len(
            want_mesh - streamer.meshed
        )
        for _ in range(jobs):  # a partly done plan before the next move
            streamer.work(0.0)
    while streamer.pending:
        streamer.work(1.0)
    assert streamer.loaded == want_load and streamer.meshed == want_mesh


def test_around_is_what_streaming_shows_and_loads_within_a_radius():
    _, streamer, meshed, _ = make(view_distance=4)
    shown, loads = streamer.around((8.0, 20.0, 8.0), 2)
    assert {(k[0], k[2]) for k in shown} == {
        (x, z) for x in range(-2, 3) for z in range(-2, 3) if x * x + z * z <= 4
    }
    assert {k[1] for k in shown} == {0, 1} and shown < loads
    columns = {(k[0], k[2]) for k in shown}
    assert {(k[0], k[2]) for k in loads} == {  # and their neighbours, diagonal ones too
        (x + dx, z + dz) for x, z in columns for dx in (-1, 0, 1) for dz in (-1, 0, 1)
    }
    assert streamer.around((8.0, 20.0, 8.0), 99)[0] == streamer.around((8.0, 20.0, 8.0), 4)[0]
    streamer.update((8.0, 20.0, 8.0))
    while streamer.pending:
        streamer.work(budget=1.0)
    assert set(meshed) == streamer.around((8.0, 20.0, 8.0), 4)[0]  # the whole view


def test_chunks_given_back_are_handed_over_again_first():
    _, streamer, meshed, _ = make(view_distance=3)
    streamer.update((8.0, 20.0, 8.0))
    while len(meshed) < 6:
        streamer.work(budget=1.0)
    back = meshed[2:]
    streamer.give_back(back)
    assert not any(key in streamer.meshed for key in back)
    meshed.clear()
    streamer.work(budget=1.0)
    assert meshed[: len(back)] == back
    while streamer.pending:
        streamer.work(budget=1.0)
    assert len(meshed) == len(set(meshed)) and streamer.meshed >= set(back)


def test_a_declined_mesh_waits_at_the_head_of_the_queue_and_stops_the_frames_meshing():
    """Issue 39: the game declines a mesh while its worker process is full (rather than meshing
    it in the frame): the chunk is not meshed, nothing after it is handed over that frame, and
    the next frame hands it over first."""
    world = World(generator=ground)
    offered: list = []
    full = [True]

    def on_mesh(key):
        offered.append(key)
        return not full[0]

    streamer = ChunkStreamer(world, 3, cy_range=(0, 2), on_mesh=on_mesh)
    streamer.update((8.0, 20.0, 8.0))
    while streamer.loader.queued or streamer.loader.in_flight:
        streamer.work(10.0)
        if offered:
            break
    assert len(offered) == 1 and offered[0] not in streamer.meshed
    first = offered[0]
    streamer.work(10.0)  # still full: the same chunk, again first, and nothing else
    assert offered == [first, first] and first not in streamer.meshed
    full[0] = False
    streamer.work(10.0)
    assert offered[2] == first and first in streamer.meshed and len(offered) > 3
