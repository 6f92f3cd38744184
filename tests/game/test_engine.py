"""The engine keeps out of the player's way: a run prints only the game's own lines (no audio
errors, no development mode, no config read from the game's modules) and ursina's development
keys do nothing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import game
from tests.game.runs import ROOT, blockpick, game_env

# What the engine used to print at start (issue 12): sound errors with no sound card, ursina's
# development mode, its settings.py and info lines, and the X server's missing DGA extension.
NOISE = (
    "ALSA",
    "AL lib",
    ":audio",
    "development mode",
    "settings.py",
    "warning",
    "info:",
    "os:",
    "application successfully started",
    "package_folder",
    "asset_folder",
    "XFree86-DGA",
)

Make = Callable[..., Any]


def noise_in(output: str) -> list[str]:
    return [line for line in output.splitlines() if any(n in line for n in NOISE)]


def test_an_offscreen_run_prints_nothing_of_the_engines(tmp_path: Path) -> None:
    script = tmp_path / "walk.txt"
    script.write_text("move 1 0 5\nwait 2\n")
    world = tmp_path / "w.sqlite"
    args = ["--world", str(world), "--new", "--script", str(script), "--view-distance", "2"]
    result = blockpick(tmp_path, *args)
    assert result.returncode == 0, result.stderr
    assert noise_in(result.stdout + result.stderr) == []
    assert all(line.startswith("blockpick: ") for line in result.stdout.splitlines())


def test_a_window_run_prints_only_the_games_own_lines(tmp_path: Path, x_server: None) -> None:
    """In a window: no sound device opened (the game has no sound), no development mode."""
    if shutil.which("xvfb-run") is None:
        pytest.skip("no virtual X server: install xvfb (apt-get install xvfb) to run this test")
    world = tmp_path / "w.sqlite"
    game_args = ("--world", str(world), "--new", "--view-distance", "2")
    run = subprocess.Popen(
        ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", sys.executable, "-m", "game", *game_args],
        cwd=ROOT,
        env=game_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert run.stdout is not None
        first = run.stdout.readline()  # printed just before the frame loop starts
        time.sleep(3)  # frames run; ursina's run() has printed whatever it prints
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        rest, _ = run.communicate(timeout=60)
    output = first + rest
    assert first.startswith("blockpick: playing 'w'"), output
    assert noise_in(output) == [], output


def test_ursina_runs_no_file_of_the_game_as_its_config(app: Any) -> None:
    """ursina runs a ``settings.py`` beside the main script (``game/__main__.py``)."""
    from ursina import application

    assert not (Path(game.__file__).parent / "settings.py").exists()
    assert application.development_mode is False


@pytest.mark.parametrize("key", ["f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12"])
def test_ursinas_development_keys_do_nothing(app: Any, make_game: Make, key: str) -> None:
    from ursina import application, window

    game = make_game(flat=True)
    fullscreen = window.fullscreen
    for _ in range(2):
        app.input(key)  # ursina's own input path, as a key press in a window
        app.step()
    assert window.render_mode == "default"  # F10: wireframe, colliders, normals
    assert not window.editor_ui.enabled  # F12: the entity and collider counters
    assert window.fullscreen == fullscreen  # F11
    assert not application.hot_reloader.enabled  # F5..F9: reload code, textures, models
    assert not game.paused and not game.debug.shown


@pytest.mark.parametrize(("players", "marked"), [(None, "False"), ("1", "True")])
def test_the_games_process_keeps_numpy_off_huge_pages(
    tmp_path: Path, players: str | None, marked: str
) -> None:
    # numpy's huge pages let the kernel lock the game's memory map mid-frame (`game` notes);
    # the game's package turns them off before numpy loads, unless the player chose.
    env = game_env(tmp_path)
    env.pop("NUMPY_MADVISE_HUGEPAGE", None)
    if players is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = players
    probe = (
        "import game, numpy\n"
        "from numpy._core import multiarray\n"
        "print(multiarray._set_madvise_hugepage(False))\n"  # returns the setting it replaces
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == marked


def test_nothing_is_drawn_over_the_whole_screen_while_playing(app: Any, make_game: Make) -> None:
    # A screen-sized layer in the ui (ursina's clear fade overlay was one) is blended over every
    # pixel of every frame: 4 ms a frame on software GL, for nothing a player sees.
    from ursina import camera

    make_game(flat=True)
    app.step()
    lens_space = camera.ui.getParent()  # the ui camera: the screen is the lens's film
    half_width, half_height = camera.ui_lens.getFilmSize() * 0.5
    covering = []
    for found in camera.ui.findAllMatches("**/+GeomNode"):
        if found.isHidden() or found.isStashed():
            continue
        low, high = found.getTightBounds(lens_space)
        if min(-low.x - half_width, high.x - half_width) < 0:
            continue
        if min(-low.y - half_height, high.y - half_height) >= 0:
            covering.append(found)
    assert covering == []


def test_a_frame_is_drawn_by_the_world_camera_and_the_ui_camera_only(app: Any) -> None:
    # Panda3D's own 2D scenes are empty in the game; the depth clear of render2d's display
    # region, after the 3D view, cost software GL 1.3 ms a frame.
    from ursina import camera

    drawing = [
        region.getCamera()
        for region in app.win.getDisplayRegions()
        if region.isActive() and not region.getCamera().isEmpty()
    ]
    assert sorted(drawing) == sorted([app.cam, camera.ui_camera])


def test_after_the_freeze_the_collector_runs_only_when_the_frame_asks() -> None:
    import gc

    from game.engine import GC_OLDER_EVERY, GC_YOUNG_THRESHOLD, collect_garbage, freeze_startup_heap

    passes: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    threshold = gc.get_threshold()
    gc.callbacks.append(seen)
    try:
        freeze_startup_heap()
        passes.clear()
        kept = [[] for _ in range(50 * GC_YOUNG_THRESHOLD)]  # tracked allocations, no pass
        assert passes == [] and not gc.isenabled()
        assert collect_garbage() > 0.0 and passes == [0]  # the young pass that was due
        assert collect_garbage() == 0.0 and passes == [0]  # nothing due
        frozen_at_start = gc.get_freeze_count()
        for _ in range(GC_OLDER_EVERY * GC_OLDER_EVERY):
            kept += [[] for _ in range(2 * GC_YOUNG_THRESHOLD)]
            collect_garbage()
        # Python's cadence: every tenth pass a middle one, every tenth middle one a full one.
        assert passes.count(1) == GC_OLDER_EVERY - 1 and passes.count(2) == 1
        assert len(passes) == GC_OLDER_EVERY * GC_OLDER_EVERY + 1
        # The full pass froze what survived it: the lists kept (all but the last few hundred).
        assert gc.get_freeze_count() > frozen_at_start + len(kept) // 2
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*threshold)
    assert collect_garbage() == 0.0  # Python collects by itself again


def test_a_frames_collection_comes_out_of_its_chunk_budget(
    app: Any, make_game: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    import game.play

    game_ = make_game(flat=True)
    budgets: list[float] = []
    monkeypatch.setattr(game.play, "collect_garbage", lambda: 0.002)
    monkeypatch.setattr(game_.chunks, "update", lambda eye, budget: budgets.append(budget))
    app.step()
    assert budgets == [pytest.approx(game.play.STREAM_BUDGET_S - 0.002)]
    monkeypatch.setattr(game.play, "collect_garbage", lambda: 1.0)  # a pass longer than it
    app.step()
    assert budgets[-1] == 0.0


def test_cycles_frozen_alive_are_reclaimed_when_the_game_pauses(app: Any, make_game: Make) -> None:
    import gc
    import weakref

    from game.engine import collect_garbage, freeze_startup_heap

    class Node:
        other: Any = None

    game_ = make_game(flat=True)
    frozen = Node()
    frozen.other = frozen  # a cycle alive at the freeze
    threshold = gc.get_threshold()
    try:
        freeze_startup_heap()
        young = Node()
        young.other = young  # one made after it
        frozen_ref, young_ref = weakref.ref(frozen), weakref.ref(young)
        del frozen, young  # both garbage now
        kept = []
        while young_ref() is not None and len(kept) < 1_000_000:  # frames' passes find it
            kept.append([])
            collect_garbage()
        assert young_ref() is None and frozen_ref() is not None
        game_.pause()
        assert frozen_ref() is None
    finally:
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*threshold)


def test_a_frame_gives_chunk_work_more_time_while_chunks_in_view_wait_to_be_meshed(
    app: Any, make_game: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: a flight that outruns the streaming gets the catch-up budget until the chunks
    waiting in view are few again."""
    import game.play

    game_ = make_game(flat=True)
    budgets: list[float] = []
    monkeypatch.setattr(game.play, "collect_garbage", lambda: 0.0)
    monkeypatch.setattr(game_.chunks, "update", lambda eye, budget: budgets.append(budget))
    streamer = game_.chunks.streamer
    for waiting in (0, game.play.CATCH_UP_WAITING + 1, game.play.CATCH_UP_WAITING):
        monkeypatch.setattr(type(streamer), "waiting_meshes", property(lambda self, n=waiting: n))
        app.step()
    assert budgets == [
        pytest.approx(game.play.STREAM_BUDGET_S),
        pytest.approx(game.play.CATCH_UP_BUDGET_S),
        pytest.approx(game.play.STREAM_BUDGET_S),
    ]
