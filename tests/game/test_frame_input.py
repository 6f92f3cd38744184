"""The frame's input (`game.frame_input`): held buttons act only when no screen has the keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def test_a_held_button_breaks_nothing_while_a_screen_is_open(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 50\nwait 2")
    target = game.target
    assert target is not None
    block = game.world.get_block(*target.block)
    game.input("e")
    game.held.attack = True
    replay(game, "wait 30")
    assert game.world.get_block(*target.block) == block  # the screen has the keys
    game.input("escape")  # closed: the held button breaks again
    replay(game, "wait 30")
    game.held.attack = False
    assert game.world.get_block(*target.block) == 0
