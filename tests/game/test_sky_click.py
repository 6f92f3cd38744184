"""Clicking at the sky does nothing and says nothing, as in Minecraft (`Game._after`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from world.mods.outcome import NOTHING_TARGETED


def test_breaking_or_placing_at_the_sky_is_silent(
    make_game: Callable[..., Any], replay: Callable[..., None]
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "fly on\nteleport 0.5 100 0.5\nlook 0 0\nwait 2")  # nothing within reach
    assert game.target is None
    for action in ("break", "place", "use"):
        replay(game, action)
        outcome = game.last_outcome
        assert outcome is not None and outcome.reason == NOTHING_TARGETED, action
        assert not game.hud.message.enabled, action
    replay(game, "teleport 0.5 4 0.5\nlook 0 90\nwait 2\nfly off\nplace")  # a real denial speaks
    assert game.hud.message.enabled and game.hud.message.text == game.last_outcome.reason
