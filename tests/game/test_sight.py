"""What the player aims at (`game.sight`): the target, its outline and info text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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


def test_an_entity_in_front_of_a_block_is_aimed_at_and_one_behind_it_is_not(
    make_game: Make, zoo_mods: Path, replay: Replay
) -> None:
    """`world.entities.pick.pick`: the nearer of the two; the outline goes round its box."""
    game = make_game(flat=True, creative=True, mods=(str(zoo_mods),))
    crate = game.world.entities.add("zoo:crate", (0.5, 4.0, 2.5))
    replay(game, "look 0 30\nwait 1")
    assert game.sight.entity is not None and game.sight.entity.entity_id == crate.id
    assert game.target is None and game.sight.breaking().block is None  # nothing to break
    assert game.outline.entity.enabled and game.outline.shape == ((0, 0, 0, 0.5, 0.5, 0.5),)
    assert tuple(game.outline.entity.getPos()) == pytest.approx((0.25, 4.0, 2.25))
    stone = game.world.registry.id("base:stone")
    game.world.set_block(0, 4, 1, stone)  # a block between the eye and the crate
    replay(game, "wait 1")
    assert game.sight.entity is None and game.target is not None
    assert tuple(game.target.block) == (0, 4, 1)
