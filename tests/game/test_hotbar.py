"""The hotbar's state."""

from __future__ import annotations

import pytest

from game.hotbar import DEFAULT_BLOCKS, SLOTS, Hotbar
from world.blocks import default_registry


def test_default_hotbar_holds_the_base_building_blocks() -> None:
    registry = default_registry()
    hotbar = Hotbar.default(registry)
    assert [registry.name(b) for b in hotbar.slots if b is not None] == list(DEFAULT_BLOCKS)
    assert hotbar.selected == 0 and hotbar.current == registry.id(DEFAULT_BLOCKS[0])


def test_select_and_scroll_wrap() -> None:
    hotbar = Hotbar([1, 2, 3])
    assert hotbar.slots == [1, 2, 3] + [None] * (SLOTS - 3)
    hotbar.select(8)
    assert hotbar.current is None
    hotbar.scroll(1)
    assert hotbar.selected == 0
    hotbar.scroll(-2)
    assert hotbar.selected == 7
    with pytest.raises(ValueError, match="slot"):
        hotbar.select(9)


def test_pick_selects_a_held_block_or_replaces_the_selected_slot() -> None:
    hotbar = Hotbar([1, 2, 3])
    hotbar.pick(3)
    assert hotbar.selected == 2 and hotbar.slots[:3] == [1, 2, 3]
    hotbar.select(0)
    hotbar.pick(7)
    assert hotbar.slots[0] == 7 and hotbar.current == 7
