"""The Esc pause menu: opening and closing, settings applied at once and remembered, driven
headless through the menu's methods and its buttons' click handlers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.user_settings import FOV_RANGE, VIEW_DISTANCE_RANGE, Settings, load_settings

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BLOCKPICK_DATA_DIR", str(tmp_path))
    return tmp_path


def test_the_menu_steps_within_ranges_and_reports_changes(app: Any) -> None:
    from game.menu import PauseMenu

    changes: list[Settings] = []
    calls: list[str] = []
    menu = PauseMenu(
        Settings(fov=100.0, view_distance=VIEW_DISTANCE_RANGE[0] + 1),
        on_change=changes.append,
        on_resume=lambda: calls.append("resume"),
        on_quit=lambda: calls.append("quit"),
    )
    try:
        menu.open(menu.settings)
        assert menu.shown
        for _ in range(4):
            menu.buttons["fov+"].on_click()  # what a click on [+] runs
        assert menu.settings.fov == FOV_RANGE[1]
        assert [s.fov for s in changes] == [105.0, 110.0]  # no change reported past the end
        assert "110" in menu.labels["fov"].text
        menu.step("view_distance", -5)
        assert menu.settings.view_distance == VIEW_DISTANCE_RANGE[0]
        assert isinstance(menu.settings.view_distance, int)
        menu.buttons["creative"].on_click()
        assert menu.settings.creative and changes[-1].creative
        assert "Creative" in menu.buttons["creative"].text
        with pytest.raises(ValueError, match="name"):
            menu.step("brightness", 1)
        menu.buttons["quit"].on_click()
        menu.buttons["resume"].on_click()
        assert calls == ["quit", "resume"] and not menu.shown
    finally:
        menu.destroy()


def test_the_volume_rows_step_by_ten_and_zero_reads_off(app: Any) -> None:
    from game.menu import PauseMenu

    changes: list[Settings] = []
    menu = PauseMenu(
        Settings(block_volume=20), on_change=changes.append, on_resume=print, on_quit=print
    )
    try:
        menu.open(menu.settings)
        assert menu.labels["master_volume"].text == "Sound: 100%"
        assert menu.labels["block_volume"].text == "Blocks: 20%"
        menu.buttons["master_volume+"].on_click()  # already full: nothing changes
        menu.buttons["master_volume-"].on_click()
        assert menu.labels["master_volume"].text == "Sound: 90%"
        for _ in range(3):
            menu.buttons["block_volume-"].on_click()
        assert menu.labels["block_volume"].text == "Blocks: off"
        assert [(s.master_volume, s.block_volume) for s in changes] == [(90, 20), (90, 10), (90, 0)]
        menu.step("master_volume", -20)
        assert menu.settings.master_volume == 0
        assert menu.labels["master_volume"].text == "Sound: off"
        menu.buttons["block_volume+"].on_click()
        assert menu.settings.block_volume == 10 and isinstance(menu.settings.block_volume, int)
    finally:
        menu.destroy()


def test_escape_pauses_and_resumes_the_game(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    game.input("escape")
    assert game.paused and game.menu.shown
    before = game.player.body.pos
    replay(game, "look 0 0\nmove 1 0 30")  # paused: the world waits
    assert game.player.body.pos == before
    game.input("escape")
    assert not game.paused and not game.menu.shown
    replay(game, "move 1 0 30")
    assert game.player.body.pos[2] > before[2] + 1.0


def test_a_click_while_paused_does_not_break(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 90\nwait 1")
    game.input("escape")
    grass = game.world.get_block(0, 3, 0)
    replay(game, "break 10")
    assert game.world.get_block(0, 3, 0) == grass


def test_settings_changed_in_the_menu_apply_at_once_and_are_remembered(
    data_dir: Path, make_game: Make
) -> None:
    from ursina import camera

    game = make_game(flat=True, view_distance=2)
    game.input("escape")
    fov_before = camera.fov
    game.menu.step("fov", 2)  # 70 -> 80 degrees
    assert game.options.fov == 80.0 and camera.fov > fov_before
    game.menu.step("view_distance", 1)
    assert game.chunks.view_distance == 3
    game.menu.step("mouse_sensitivity", -5)
    assert game.settings.mouse_sensitivity == 50
    game.menu.toggle_mode()
    assert game.player.creative
    assert load_settings() == Settings(
        fov=80.0, view_distance=3, mouse_sensitivity=50, creative=True
    )
    stored = json.loads((data_dir / "settings.json").read_text())
    assert stored["fov"] == 80.0 and stored["creative"] is True


def test_a_live_game_starts_with_the_remembered_settings(data_dir: Path, app: Any) -> None:
    from game.options import Options
    from game.play import Game
    from game.user_settings import save_settings

    save_settings(Settings(fov=90.0, view_distance=3, mouse_sensitivity=150))
    game = Game(Options(flat=True, fov=60.0), live=True)
    try:
        assert game.options.fov == 60.0  # the command line wins for this run
        assert game.chunks.view_distance == 3  # the rest is remembered
        assert game.settings.mouse_sensitivity == 150
        game.menu.step("mouse_sensitivity", 1)
        assert load_settings() == Settings(fov=90.0, view_distance=3, mouse_sensitivity=160)
    finally:
        game.destroy()


def test_save_and_quit_goes_through_the_game(make_game: Make, monkeypatch: Any) -> None:
    game = make_game(flat=True)
    quits: list[bool] = []
    monkeypatch.setattr(game, "save_and_quit", lambda: quits.append(True))
    game.input("escape")
    game.menu.buttons["quit"].on_click()
    assert quits == [True]


def test_the_click_that_closes_the_menu_does_not_break(
    make_game: Make, replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ursina import held_keys

    game = make_game(flat=True, creative=True)
    replay(game, "look 0 90\nwait 1")
    cell = game.target.block
    grass = game.world.get_block(*cell)
    game.live, game.captured = True, True  # as in a window; offscreen there is no pointer
    monkeypatch.setattr(game, "capture_mouse", lambda captured: setattr(game, "captured", captured))
    try:
        game.input("escape")
        assert game.paused and not game.captured
        held_keys["left mouse"] = 1
        game.input("left mouse down")  # ursina hands the click to the game, then the button
        game.menu.buttons["resume"].on_click()
        assert not game.paused and game.captured
        for _ in range(30):  # the button is still held down
            game.update(1 / 60)
        assert game.world.get_block(*cell) == grass
        held_keys["left mouse"] = 0
        game.input("left mouse up")
        held_keys["left mouse"] = 1
        game.input("left mouse down")  # a new click breaks
        assert game.world.get_block(*cell) != grass
    finally:
        held_keys["left mouse"] = 0
        game.live = False
