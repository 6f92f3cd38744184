"""The hotbar: the inventory's first nine slots, picked and used up as in Minecraft."""

from __future__ import annotations

import pytest

from game.hotbar import DEFAULT_BLOCKS, SLOTS, Hotbar
from world.base import default_registry
from world.items.inventory import ItemStack


def test_default_hotbar_holds_the_base_building_blocks() -> None:
    registry = default_registry()
    hotbar = Hotbar.default(registry)
    assert [registry.name(b) for b in hotbar.slots if b is not None] == list(DEFAULT_BLOCKS)
    assert hotbar.selected == 0 and hotbar.current == registry.id(DEFAULT_BLOCKS[0])
    assert hotbar.counts == [64] * len(DEFAULT_BLOCKS)


def test_select_and_scroll_wrap() -> None:
    registry = default_registry()
    hotbar = Hotbar.of_blocks(registry, [1, 2, 3])
    assert hotbar.slots == [1, 2, 3] + [None] * (SLOTS - 3)
    hotbar.select(8)
    assert hotbar.current is None
    hotbar.scroll(1)
    assert hotbar.selected == 0
    hotbar.scroll(-2)
    assert hotbar.selected == 7
    with pytest.raises(ValueError, match="slot"):
        hotbar.select(9)


def test_creative_pick_selects_a_held_block_or_fills_an_empty_slot() -> None:
    registry = default_registry()
    stone, dirt, grass = (registry.id(n) for n in ("base:stone", "base:dirt", "base:grass"))
    hotbar = Hotbar.of_blocks(registry, [stone, dirt, grass])
    hotbar.pick(grass)
    assert hotbar.selected == 2 and hotbar.slots[:3] == [stone, dirt, grass]
    hotbar.select(0)
    # A log lying along x is held as the log's item, placed in its default state.
    log_x = registry.state_id("base:log", axis="x")
    hotbar.pick(log_x)  # the first empty slot takes it, and is selected
    log = registry.id("base:log")
    assert hotbar.slots[3] == log and hotbar.current == log and hotbar.slots[0] == stone


def test_survival_pick_only_finds_what_the_inventory_holds() -> None:
    registry = default_registry()
    hotbar = Hotbar(registry)
    dirt, stone = registry.id("base:dirt"), registry.id("base:stone")
    hotbar.inventory.put(20, ItemStack("base:dirt", 5))
    assert not hotbar.pick(stone, creative=False) and hotbar.current is None
    assert hotbar.pick(dirt, creative=False)  # swapped from the inventory into the hand
    assert hotbar.current == dirt and hotbar.inventory.slots[20] is None
    assert hotbar.counts[0] == 5


def test_a_state_is_held_as_its_blocks_item() -> None:
    registry = default_registry()
    hotbar = Hotbar(registry)
    hotbar.inventory.put(0, ItemStack("gone:ruby", 3))  # an item of a mod not loaded: kept
    assert hotbar.current is None and hotbar.counts[0] == 3
