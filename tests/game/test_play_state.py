"""The game's engine-free state (`game.play_state`): built without the engine, its world acts
through the rules with the game's light kept."""

from __future__ import annotations

import subprocess
import sys

from tests.game.runs import ROOT

BUILD = """
import sys
from game.options import Options
from game.play_state import PlayState
from game.session import Session
from world.ray import raycast

options = Options(flat=True)
state = PlayState(options, Session.unsaved(options))
world, player = state.world, state.player
assert world.light is state.light and "farming" in state.mods.names
hit = raycast(world, player.eye, (0.0, -1.0, 0.0), 5.0)
assert hit is not None
outcome = state.rules.break_block(hit, player.actor(None))
assert outcome.done and outcome.drops, outcome
assert not [m for m in sys.modules if m.split(".")[0] in ("ursina", "panda3d", "direct")]
print("built")
"""


def test_the_game_s_state_is_built_and_acts_without_the_engine() -> None:
    """A fresh interpreter builds the state, breaks a block through its rules (a survival
    player: the outcome carries the drops) and never loads ursina or Panda3D."""
    run = subprocess.run(
        [sys.executable, "-c", BUILD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "built"
