"""The player's hands (`game.hands`): what the rules' outcomes say, applied to the game's state
and shown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.game.runs import stone_in_view
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.items.inventory import INVENTORY_SLOTS, ItemStack

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def lying(game: Any) -> list[ItemStack]:
    """The stacks lying in the world (``builtin:item`` entities)."""
    found = [stack_of(e) for e in game.world.entities if e.kind == ITEM_ENTITY.name]
    return [stack for stack in found if stack is not None]


def test_a_survival_break_s_drop_lies_until_walked_over_and_waits_there_for_room(
    make_game: Make, replay: Replay
) -> None:
    """Minecraft's rule: the drop falls into the world; the hands no longer add it to the
    inventory (the world's step does, on a pickup), and the hotbar is redrawn when it does."""
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [ItemStack("base:planks", 64)] * INVENTORY_SLOTS
    replay(game, "look 0 50\nwait 2\nbreak 60")  # grass: its dirt falls into the hole
    assert game.last_outcome.done and game.last_outcome.drops == (ItemStack("base:dirt", 1),)
    assert inventory.count("base:dirt") == 0 and lying(game) == [ItemStack("base:dirt", 1)]
    replay(game, "move 1 0 30\nwait 60")  # onto it: no room
    assert inventory.count("base:dirt") == 0 and lying(game) == [ItemStack("base:dirt", 1)]
    inventory.put(3, None)
    replay(game, "wait 2")
    assert inventory.slots[3] == ItemStack("base:dirt", 1) and lying(game) == []
    assert game.hud.icons[3] == "base:dirt"  # redrawn


def test_a_survival_run_breaks_stone_with_a_pickaxe_sees_it_fall_and_walks_over_it(
    make_game: Make, replay: Replay
) -> None:
    """Issue 37's scripted run, as a new survival player plays it (issue 38: stone gives
    cobblestone only to a pickaxe): break stone, the cobblestone hops out and falls into the
    hole, walk over it, it is in the inventory."""
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    assert all(stack is None for stack in inventory.slots)  # a new survival player: nothing
    inventory.put(0, ItemStack("tools:wood_pickaxe", 1))
    replay(game, "select 1")
    target = stone_in_view(game, replay)
    replay(game, "wait 2\nbreak 60")  # 0.75 s with a wooden pickaxe (1.5 s of hardness / 2)
    assert game.world.get_block(*target.block) == 0
    (entity,) = [e for e in game.world.entities if e.kind == ITEM_ENTITY.name]
    heights = []
    for _ in range(20):
        replay(game, "wait 1")
        heights.append(entity.pos[1])
    assert max(heights) > heights[-1] and heights[-1] < target.block[1] + 0.5  # in the hole
    assert lying(game) == [ItemStack("base:cobblestone", 1)]
    replay(game, "move 1 0 40\nwait 20")  # walk over it
    assert lying(game) == [] and inventory.count("base:cobblestone") == 1


def test_a_survival_place_takes_one_item_once(make_game: Make, replay: Replay) -> None:
    """The rules take it from the held stack; the hands only redraw (not a second time)."""
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [None] * INVENTORY_SLOTS
    inventory.put(0, ItemStack("base:planks", 5))
    replay(game, "select 1\nlook 0 50\nwait 2\nplace")
    assert game.last_outcome.done and game.last_outcome.spent == ItemStack("base:planks", 1)
    assert inventory.slots[0] == ItemStack("base:planks", 4)
    assert game.hud.counts[0].text == "4"


def test_q_throws_one_in_front_which_comes_back_only_after_two_seconds(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [None] * INVENTORY_SLOTS
    inventory.put(0, ItemStack("base:stone", 5))
    replay(game, "select 1\nlook 0 60\nwait 2\nkey q")
    assert inventory.slots[0] == ItemStack("base:stone", 4) and game.hud.counts[0].text == "4"
    assert lying(game) == [ItemStack("base:stone", 1)]
    [thrown] = game.world.entities
    feet = game.player.body.pos
    assert thrown.pos[2] > feet[2]  # in front: the player looks south, +z
    replay(game, "wait 100")  # landed at the player's feet, within reach, for 1.7 s
    assert thrown.pos[2] - feet[2] < 1.5 and thrown.on_ground
    assert inventory.slots[0] == ItemStack("base:stone", 4) and not thrown.removed
    replay(game, "wait 20")  # 2 s after the throw: taken back
    assert inventory.slots[0] == ItemStack("base:stone", 5) and lying(game) == []


def test_ctrl_q_throws_the_whole_stack_and_an_empty_hand_throws_nothing(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [None] * INVENTORY_SLOTS
    inventory.put(0, ItemStack("base:stone", 5))
    replay(game, "select 1\nlook 0 0\nwait 2\nkey ctrl+q")
    assert inventory.slots[0] is None and lying(game) == [ItemStack("base:stone", 5)]
    game.hud.flash("before")
    replay(game, "key q\nkey ctrl+q")  # nothing held: nothing happens, nothing is said
    assert lying(game) == [ItemStack("base:stone", 5)]
    assert str(game.hud.message.text).endswith("before")


def test_a_click_on_an_entity_before_a_block_punches_or_uses_it_not_the_block(
    make_game: Make, zoo_mods: Path, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False, mods=(str(zoo_mods),))
    cow = game.world.entities.add("zoo:cow", (0.5, 4.0, 2.5))
    replay(game, "look 0 30\nwait 2")
    assert game.sight.entity is not None and game.sight.entity.entity_id == cow.id
    assert game.target is None and game.outline.entity.enabled  # its box outlined
    before = game.world.chunk_blocks(0, 0, 0).copy()
    replay(game, "break 30")
    assert cow.data.get("punched") == 1  # one click, one punch: holding does not repeat it
    replay(game, "use")
    assert cow.data.get("used_by") == "player"
    assert (game.world.chunk_blocks(0, 0, 0) == before).all()  # the ground behind untouched


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
