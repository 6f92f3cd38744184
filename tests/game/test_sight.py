"""What the player aims at (`game.sight`): the target, its outline and info text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from world.voxels.block_data import INFOTEXT

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def test_the_info_text_hides_while_paused_and_the_target_stays_aimed(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 50\nwait 1")
    target = game.target
    assert target is not None and game.outline.entity.enabled
    game.world.meta(*target.block)[INFOTEXT] = "a note"
    replay(game, "wait 1")
    assert game.hud.infotext.enabled
    game.pause()
    replay(game, "wait 1")
    assert not game.hud.infotext.enabled and game.target == target  # covered, still aimed
    game.resume()
    replay(game, "wait 1")
    assert game.hud.infotext.enabled and game.hud.infotext.text == "a note"


def test_the_break_time_the_controls_wait_for_is_the_rules(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=False)
    replay(game, "look 0 50\nwait 1")
    aim = game.sight.breaking()
    assert aim.block == game.target.block
    assert aim.seconds == game.rules.break_time(game.target, game.player.actor(None))
    replay(game, "look 0 -60\nwait 1")  # the sky
    assert game.sight.breaking().block is None
