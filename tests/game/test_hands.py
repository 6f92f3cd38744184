"""The player's hands (`game.hands`): what the rules' outcomes say, applied to the game's state
and shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from world.items.inventory import INVENTORY_SLOTS, ItemStack

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def test_drops_that_do_not_fit_are_lost_and_the_player_is_told(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [ItemStack("base:planks", 64)] * INVENTORY_SLOTS
    replay(game, "look 0 50\nwait 2\nbreak 60")  # grass: its dirt has nowhere to go
    assert game.last_outcome.done and game.last_outcome.drops == (ItemStack("base:dirt", 1),)
    assert inventory.count("base:dirt") == 0
    assert "inventory full: 1 item(s) lost" in str(game.hud.message.text)


def test_stacks_lying_in_the_world_wait_for_room_and_the_player_is_told_once(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [ItemStack("base:planks", 64)] * INVENTORY_SLOTS
    game.world.dropped.append(((0, 10, 0), ItemStack("base:log", 5)))
    replay(game, "wait 1")
    assert "5 item(s) wait for room" in str(game.hud.message.text)
    game.hud.flash("something else")
    replay(game, "wait 3")
    assert str(game.hud.message.text).endswith("something else")  # told once, not each frame
    inventory.put(20, None)
    replay(game, "wait 1")
    assert inventory.slots[20] == ItemStack("base:log", 5) and game.world.dropped == []


def test_a_torch_placed_shows_its_light_in_the_next_frame(make_game: Make, replay: Replay) -> None:
    """The rules relight the torch's box; the hands remesh the chunks they relit before the next
    frame is drawn."""
    game = make_game(flat=True, creative=True)
    game.hotbar.inventory.put(0, ItemStack("base:torch", 64))
    replay(game, "select 1\nlook 0 60\nwait 2")
    target = game.target
    assert target is not None
    replay(game, "place")
    torch = target.block + target.face
    assert game.world.registry.name(game.world.get_block(*torch)) == "base:torch"
    assert game.light.at(*torch)[1] == 14  # relit by the rules, in the action
    assert not game.rules.pop_relit()  # taken by the hands: remeshed already
