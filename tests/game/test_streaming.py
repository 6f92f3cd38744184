"""Chunk streaming in the game, headless: what is shown and loaded follows the player within the
view distance, chunk work stays within a frame budget, and the body waits for the ground."""

from __future__ import annotations

import gc
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from game.engine import freeze_startup_heap
from game.options import DEFAULT_VIEW_DISTANCE
from tests.game.runs import finish_streaming
from world.stream.streamer import LET_GO_COLUMNS

Make = Callable[..., Any]
DT = 1 / 60
# A frame's chunk work is bounded: the streaming budget, then at most the light job that fits it
# (one whose open-sky columns reach far down takes several times the median) and the remeshes
# it causes. The 16 ms streaming-frame target is a speed figure, measured by bench.game (the
# walk's worst frame), not asserted here: as a timed limit it was raised from 8 to 12 to 16 ms
# and still failed on slower machines (14-16 ms of CPU alone on one). This limit tells bounded
# work from unbounded: a view meshed or lit in one frame is hundreds of milliseconds.
CHUNK_WORK_LIMIT_S = 0.040
LOAD_RING = 1.5  # chunks this far beyond the view distance are loaded: the meshes' neighbours


def column_of(pos: tuple[float, float, float]) -> tuple[int, int]:
    return math.floor(pos[0]) // 16, math.floor(pos[2]) // 16


def columns(keys: Any) -> set[tuple[int, int]]:
    return {(key[0], key[2]) for key in keys}


def within(cols: set[tuple[int, int]], centre: tuple[int, int], radius: float) -> bool:
    return all((cx - centre[0]) ** 2 + (cz - centre[1]) ** 2 <= radius**2 for cx, cz in cols)


def disc(centre: tuple[int, int], radius: float) -> set[tuple[int, int]]:
    r = math.ceil(radius)
    return {
        (centre[0] + dx, centre[1] + dz)
        for dx in range(-r, r + 1)
        for dz in range(-r, r + 1)
        if dx * dx + dz * dz <= radius * radius
    }


def test_a_200_block_walk_keeps_chunks_within_the_view_distance_and_frames_short(
    make_game: Make,
) -> None:
    # Generated terrain at the default view distance: the frame budget is measured where
    # players play.
    game = make_game(creative=True, view_distance=DEFAULT_VIEW_DISTANCE)
    r = DEFAULT_VIEW_DISTANCE
    assert game.chunks.view_distance == r == 8
    sx, _, sz = game.player.body.pos
    game.player.set_flying(True)
    game.player.teleport((sx, 100.0, sz))  # above every hill: nothing stops the walk
    game.player.look(270.0, 10.0)  # east, +x, a little down
    game.held.forward = 1.0
    layers = len(range(*game.chunks.streamer.cy_range))
    most_loaded = len(disc((0, 0), r + LOAD_RING)) * layers
    # The columns a crossing leaves (a row of at most 2r + 1 shown and 2r + 3 loaded) are let
    # go LET_GO_COLUMNS a frame, un-shown first: until then, one column more (and at most that
    # row more loaded).
    settle = math.ceil((4 * r + 4) / LET_GO_COLUMNS)
    work_cpu_s, work_s, frames, since_crossing, last = [], [], 0, settle, None
    freeze_startup_heap()  # as `game.runner` does once the game is built
    try:
        while game.player.body.pos[0] < sx + 200.0:
            game.update(DT)
            frames += 1
            centre = column_of(game.player.eye)  # the camera's column (drawn between two ticks)
            since_crossing = 0 if centre != last else since_crossing + 1
            last = centre
            slack = 0 if since_crossing > settle else 1
            shown = columns(game.chunks.entities)
            assert within(shown, centre, r + slack)  # shown: within the distance
            loaded = set(game.world.chunks) | game.chunks.streamer.loaded
            assert within(columns(loaded), centre, r + LOAD_RING + slack)
            assert len(loaded) <= most_loaded + slack * (2 * r + 3) * layers
            work_cpu_s.append(game.chunks.work_cpu_s)
            work_s.append(game.chunks.work_s)
            assert frames < 60 * 60, "the walk does not get anywhere"
    finally:
        gc.unfreeze()  # the other tests' objects are collectable again
    assert game.player.body.pos[2] == sz  # straight along +x
    # The main thread's CPU time: what the Python side spent on chunks in the frame, whatever
    # else this shared machine runs meanwhile (the wall clock is kept for the failure message).
    worst = int(np.argmax(work_cpu_s))
    assert work_cpu_s[worst] <= CHUNK_WORK_LIMIT_S, (worst, work_cpu_s[worst], work_s[worst])
    assert sum(s > 0.0005 for s in work_cpu_s) > 100  # it did stream, in many frames
    # Standing still, streaming finishes: every column in range is shown (nothing skipped).
    game.held.forward = 0.0
    finish_streaming(lambda: game.update(DT), game)
    centre = column_of(game.player.eye)
    assert columns(game.chunks.streamer.meshed) == disc(centre, r)
    assert columns(game.chunks.entities) == disc(centre, r)  # terrain in every column


def test_walking_200_blocks_on_the_ground_never_falls(make_game: Make) -> None:
    game = make_game(flat=True, view_distance=2)
    game.player.look(270.0, 0.0)  # east, +x
    game.held.forward = 1.0
    while game.player.body.pos[0] < 200.0:
        game.update(DT)
        assert game.player.body.pos[1] == 4.0  # on the grass, every frame
        assert game.chunks.ready_at(game.player.body.pos)
    game.held.forward = 0.0
    finish_streaming(lambda: game.update(DT), game)  # meshes from the worker come in real time
    shown = columns(game.chunks.entities)
    assert within(shown, column_of(game.player.eye), 2) and len(shown) == len(disc((0, 0), 2))


def test_the_body_waits_until_its_column_is_loaded(make_game: Make) -> None:
    game = make_game(flat=True, view_distance=2)
    game.held.forward = 1.0
    game.player.teleport((5000.5, 10.0, 0.5))  # in the air over a column never loaded
    assert not game.chunks.ready_at(game.player.body.pos)
    game.update(DT)
    assert game.player.body.pos == (5000.5, 10.0, 0.5)  # held: no fall, no step
    for _ in range(120):
        game.update(DT)
        if game.player.body.pos[1] == 4.0:
            break
    assert game.chunks.ready_at(game.player.body.pos)
    assert game.player.body.pos[1] == 4.0  # fell onto the ground once it was there
    assert game.player.body.pos[2] > 0.5  # and walks on


def test_the_view_distance_changes_while_playing(make_game: Make) -> None:
    game = make_game(flat=True, view_distance=4)
    assert columns(game.chunks.entities) == disc((0, 0), 4)
    game.set_view_distance(2)
    game.update(DT)
    assert columns(game.chunks.entities) == disc((0, 0), 2)
    game.set_view_distance(3)
    game.update(DT)  # the streamer plans the new range in the next update
    finish_streaming(lambda: game.update(DT), game)  # meshes from the worker come in real time
    assert columns(game.chunks.entities) == disc((0, 0), 3)


def test_a_time_limited_start_loads_the_ground_first_and_streams_the_rest(make_game: Make) -> None:
    game = make_game(view_distance=2)  # generated terrain
    game.set_view_distance(8)  # the whole view (197 columns) takes about a second to load
    game.chunks.load_all(game.player.eye, 0.2)  # what a window's first frame waits for
    cx, cz = column_of(game.player.eye)
    # Something is left to stream, unless this machine loaded the whole view within the limit
    # (a CI run did, its chunks generated fast): the test must not depend on the machine's speed.
    everything = columns(game.chunks.streamer.meshed) == disc((cx, cz), 8)
    assert game.chunks.pending > 0 or everything
    assert game.chunks.ready_at(game.player.body.pos)
    layers = range(*game.chunks.streamer.cy_range)
    assert {(cx, cy, cz) for cy in layers} <= game.chunks.streamer.meshed
    game.chunks.load_all(game.player.eye)
    assert game.chunks.pending == 0 and columns(game.chunks.streamer.meshed) == disc((cx, cz), 8)


FLIGHT_TEST_S = 4.0  # wall-clock seconds of sprint-flight
UNDRAWN_FRAMES = 12  # how long a column ahead may wait to be drawn: a fifth of a second at 60


def test_sprint_flight_in_wall_clock_time_leaves_no_column_ahead_undrawn_for_long(
    app: Any, make_game: Make
) -> None:
    """Issue 39: the game's own sprint-flight (forward and sprint held, the clock in real time,
    so a slow frame takes the player further, as it does a player), at view distance 4 over
    generated terrain: no chunk column within view distance - 1 ahead of the player stays
    undrawn for more than `UNDRAWN_FRAMES` frames in a row."""
    import time

    from panda3d.core import ClockObject

    from game.engine import fixed_frame_rate

    distance = 4
    game = make_game(creative=True, view_distance=distance)
    game.player.set_flying(True)
    game.player.teleport((8.0, 100.0, 8.0))
    game.player.look(270.0, 10.0)  # east, +x, a little down
    finish_streaming(app.step, game)
    layers = range(*game.chunks.streamer.cy_range)
    ahead = [
        (dx, dz)
        for dx in range(0, distance)
        for dz in range(-distance, distance + 1)
        if dx * dx + dz * dz <= (distance - 1) ** 2
    ]
    waiting: dict[tuple[int, int], int] = {}  # undrawn columns: frames in a row
    longest, x0 = 0, game.player.body.pos[0]
    ClockObject.getGlobalClock().setMode(ClockObject.MNormal)
    try:
        game.held.forward, game.held.sprint = 1.0, True
        began = time.perf_counter()
        while time.perf_counter() - began < FLIGHT_TEST_S:
            app.step()
            cx, cz = column_of(game.player.body.pos)
            undrawn = {
                (cx + dx, cz + dz)
                for dx, dz in ahead
                if not all(game.chunks.shown((cx + dx, cy, cz + dz)) for cy in layers)
            }
            waiting = {column: waiting.get(column, 0) + 1 for column in undrawn}
            longest = max(longest, *waiting.values(), 0)
        flown = game.player.body.pos[0] - x0
    finally:
        game.held.forward, game.held.sprint = 0.0, False
        fixed_frame_rate(60)
    assert flown > 0.5 * 21.8 * FLIGHT_TEST_S  # it flew, in wall-clock time
    assert longest <= UNDRAWN_FRAMES, f"a column ahead waited {longest} frames to be drawn"
