"""The block inventory the player has open (`game.containers`), without the engine: read as
the world holds it, and again after a click through the rules."""

from __future__ import annotations

import pytest

from game.containers import OpenContainer
from world import World
from world.actions.containers import PLAYER, Slot
from world.actions.slot_clicks import SHIFT, Click
from world.base import GAME
from world.geometry import Int3
from world.items.containers import Container, encode_slots
from world.items.inventory import ItemStack
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.rules import Rules

AT = Int3(0, 0, 0)
CHEST = Container(AT, "Chest", 27)


def chest_rules() -> Rules:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    world = World(make_registry(mods))
    world.set_block(*AT, world.registry.id("chests:chest"))
    return Rules(world, mods)


def test_the_open_chest_follows_what_a_click_through_the_rules_did() -> None:
    rules = chest_rules()
    protection = rules.mods["protection"].plugin  # type: ignore[index]
    protection.protect(rules.world, "vault", AT, AT, owner="alex")  # type: ignore[attr-defined]
    opened = OpenContainer(rules, CHEST)
    inventory = rules.world.players.join("steve", (0.5, 1.0, 3.5)).inventory
    inventory.slots[9] = ItemStack("base:log", 20)
    steve = Actor.at("steve", (0.5, 1.0, 3.5))
    refused = rules.click_slots(steve, Click(SHIFT, (Slot(PLAYER, 9),)), CHEST)
    assert not refused.done and inventory.slots[9] == ItemStack("base:log", 20)
    assert not opened.refresh() and opened.slots == [None] * 27  # nothing changed
    protection.protect(rules.world, "vault", AT, AT, owner="steve")  # type: ignore[attr-defined]
    assert rules.click_slots(steve, Click(SHIFT, (Slot(PLAYER, 9),)), CHEST).done
    assert inventory.slots[9] is None
    assert opened.refresh() and opened.slots[0] == ItemStack("base:log", 20)


def test_unreadable_data_is_not_opened_and_a_replaced_block_is_gone() -> None:
    rules = chest_rules()
    rules.world.meta(*AT)["inventory"] = "not slots"
    with pytest.raises(ValueError, match="container"):
        OpenContainer(rules, CHEST)
    rules.world.meta(*AT)["inventory"] = encode_slots([ItemStack("base:dirt", 3)])  # type: ignore[assignment]
    opened = OpenContainer(rules, CHEST)
    assert opened.slots[0] == ItemStack("base:dirt", 3) and not opened.gone
    rules.world.meta(*AT)["inventory"] = "[[1, 2]]"  # a mod wrote nonsense meanwhile
    with pytest.raises(ValueError):
        opened.refresh()
    rules.world.set_block(*AT, rules.world.registry.id("base:stone"))
    assert opened.gone
