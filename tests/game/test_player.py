"""The player without a window: facing, flying only in creative, the mode the rules see, and a
game shell whose saves and player load no engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from game.player import HeldInput, Player
from world import World
from world.base import default_registry
from world.items.inventory import Inventory, ItemStack
from world.physics.movement import Body


def make_player(*, creative: bool) -> Player:
    return Player(World(default_registry()), Body(pos=(0.5, 10.0, 0.5)), creative=creative)


def test_importing_the_session_player_and_controls_loads_no_engine() -> None:
    code = (
        "import sys, game.session, game.player, game.controls\n"
        "engine = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('ursina', 'panda3d', 'direct'))\n"
        "print(engine)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("yaw", "pitch", "facing"), [(370, 120, (10, 90)), (-90, -95, (270, -90))])
def test_the_view_wraps_the_yaw_and_clamps_the_pitch(
    yaw: float, pitch: float, facing: tuple[float, float]
) -> None:
    player = make_player(creative=False)
    player.look(yaw, pitch)
    assert (player.yaw, player.pitch) == pytest.approx(facing)
    player.turn(-20, 5)
    assert (player.yaw, player.pitch) == pytest.approx(
        ((facing[0] - 20) % 360, min(facing[1] + 5, 90))
    )


def test_only_creative_players_fly_and_survival_ends_a_flight() -> None:
    survivor = make_player(creative=False)
    assert not survivor.set_flying(True) and not survivor.body.flying
    player = make_player(creative=True)
    assert player.set_flying(True) and player.body.flying
    player.set_creative(False)
    assert not player.creative and not player.body.flying


def test_the_rules_see_the_players_mode_and_feet() -> None:
    player = make_player(creative=True)
    actor = player.actor(None)
    assert actor.creative and actor.body_min[1] == player.body.pos[1]
    player.set_creative(False)
    survivor = player.actor(None)
    assert not survivor.creative and survivor.reach < actor.reach  # creative reaches further


def test_the_body_falls_in_fixed_ticks_and_the_eye_follows() -> None:
    player = make_player(creative=False)
    eye = player.eye
    for _ in range(30):
        player.update(1 / 60, HeldInput())
    assert player.body.pos[1] < 10.0  # nothing under it: it falls
    assert player.eye[1] < eye[1] and player.eye[0] == eye[0]


def test_joining_puts_the_player_and_their_very_inventory_into_the_world() -> None:
    """The world records the inventory's writes from the join on (a rolled-back action takes
    them back), and sees where the body is and looks, and the mode, after every `sync`."""
    player = make_player(creative=True)
    inventory = Inventory()
    joined = player.join(inventory)
    assert player.world.players.get("player") is joined and joined.inventory is inventory
    assert joined.pos == (0.5, 10.0, 0.5) and joined.creative
    player.teleport((3.0, 12.0, 4.0))  # the game's own move of the body (a script's)
    player.look(270.0, 0.0)  # east
    player.set_creative(False)
    player.sync()
    assert joined.pos == (3.0, 12.0, 4.0) and not joined.creative
    assert joined.look == pytest.approx((1.0, 0.0, 0.0))
    inventory.put(0, ItemStack("base:dirt", 3))
    assert player.world.players.modified  # a write the world saw


def test_a_teleport_by_the_world_moves_the_body_at_the_next_sync_and_only_once() -> None:
    player = make_player(creative=False)
    joined = player.join(Inventory())
    player.world.players.teleport(joined, (8.5, 20.0, -3.5))  # a mod's, a command's
    assert player.body.pos == (0.5, 10.0, 0.5)  # not yet: the game's frame follows it
    player.sync()
    assert player.body.pos == (8.5, 20.0, -3.5) and joined.pos == player.body.pos
    player.teleport((1.5, 10.0, 1.5))  # the body moves on; the old teleport is not followed again
    player.sync()
    assert player.body.pos == (1.5, 10.0, 1.5) and joined.pos == (1.5, 10.0, 1.5)
