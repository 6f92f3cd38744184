"""The pause menu in a running game (`game.pause`): the world waits while it is open."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


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
