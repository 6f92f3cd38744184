"""The pause menu in a running game (`game.pause`): the world waits while it is open; the game
is told the volumes when it starts and whenever the menu changes one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.user_settings import Settings, load_settings, save_settings

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BLOCKPICK_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def told(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The volumes each game was told (`game.pause.Host.set_volumes`), in order."""
    from game.play import Game

    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(
        Game, "set_volumes", lambda self, master, blocks: calls.append((master, blocks)),
        raising=False,
    )  # fmt: skip
    return calls


def test_while_paused_the_world_s_time_waits(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "wait 1")
    tick = game.day.tick
    game.pause()
    replay(game, "wait 60")
    assert game.day.tick == pytest.approx(tick) and game.paused
    game.resume()
    replay(game, "wait 60")
    assert game.day.tick > tick and not game.paused


def test_the_game_is_told_the_volumes_at_start_and_when_one_changes(
    data_dir: Path, make_game: Make, told: list[tuple[int, int]]
) -> None:
    game = make_game(flat=True)
    assert told == [(100, 100)]
    game.input("escape")
    game.menu.step("master_volume", -3)
    game.menu.step("fov", 1)  # not a volume: the sound is left alone
    game.menu.buttons["block_volume-"].on_click()
    game.menu.step("master_volume", -10)
    game.menu.step("master_volume", -1)  # already off: no change, nothing told
    assert told == [(100, 100), (70, 100), (70, 90), (0, 90)]
    assert game.menu.labels["master_volume"].text == "Sound: off"
    assert load_settings() == Settings(fov=75.0, master_volume=0, block_volume=90)


def test_a_window_s_game_starts_at_the_remembered_volumes_a_script_s_at_full(
    data_dir: Path, make_game: Make, told: list[tuple[int, int]]
) -> None:
    from game.options import Options
    from game.play import Game

    save_settings(Settings(view_distance=2, master_volume=40, block_volume=0))
    game = Game(Options(flat=True), live=True)
    try:
        assert told == [(40, 0)]
    finally:
        game.destroy()
    make_game(flat=True)  # offscreen, as --script and --screenshot: the file is not read
    assert told == [(40, 0), (100, 100)]
