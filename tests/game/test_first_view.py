"""The first view a window's game waits for: prepared a frame at a time behind the loading
screen, its progress only moving forward to full; the world shown (and the screen gone) once
every chunk it needs is drawn; the rest of the view streaming in afterwards."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from game.first_view import FIRST_VIEW_RADIUS
from tests.game.runs import finish_streaming

LIMIT_FRAMES = 2000


@pytest.fixture
def loading_game(app: Any) -> Iterator[Any]:
    """A game built as a window's is: with a loading screen, its first view not prepared yet."""
    from game.loading import LoadingScreen
    from game.options import Options
    from game.play import Game

    game = Game(Options(view_distance=5), loading=LoadingScreen("New World"))
    yield game
    game.destroy()


def test_the_progress_rises_to_full_and_the_screen_goes_when_the_first_view_is_drawn(
    app: Any, loading_game: Any
) -> None:
    game, screen = loading_game, loading_game.loading
    needed = game.first_view.needed
    fractions = []
    for _ in range(LIMIT_FRAMES):
        if game.loading is None:
            break
        assert not any(game.chunks.shown(key) for key in needed) or fractions  # none before
        app.step()
        fractions.append(screen.fraction)
        time.sleep(0.001)
    assert game.loading is None and game.first_view is None  # the world is shown
    assert screen.root.is_empty()  # the screen was taken away
    assert fractions == sorted(fractions) and fractions[-1] == 1.0  # forward only, to full
    assert len(set(fractions)) >= 3  # it showed the work going on, not a jump
    assert all(game.chunks.shown(key) for key in needed)  # everything the first view needs
    assert game.chunks.ready_at(game.player.body.pos)  # ground under the player


def test_nothing_moves_and_no_key_acts_while_the_loading_screen_is_up(
    app: Any, loading_game: Any
) -> None:
    game = loading_game
    feet, slot = game.player.body.pos, game.hotbar.selected
    game.input("3")
    game.input("escape")
    game.held.forward = 1.0
    app.step()
    assert game.loading is not None and game.player.body.pos == feet
    assert game.hotbar.selected == slot and not game.paused
    game.held.forward = 0.0


def test_the_rest_of_the_view_streams_in_once_the_first_view_shows(
    app: Any, loading_game: Any
) -> None:
    game = loading_game
    for _ in range(LIMIT_FRAMES):
        if game.loading is None:
            break
        app.step()
    finish_streaming(app.step, game)
    view, _ = game.chunks.streamer.around(game.player.eye, game.chunks.view_distance)
    assert len(view) > len(game.chunks.streamer.around(game.player.eye, FIRST_VIEW_RADIUS)[0])
    assert all(game.chunks.shown(key) for key in view)  # those handed back too
