"""A worn tool's durability bar (`game.durability`): Minecraft's 13-pixel bar under the icon, as
long as the uses left, green to red; none for a tool not worn or a thing that never wears."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.durability import BAR_PX, bar_boxes, bar_colour, durability_text, uses_left
from world.blocks.registry import BlockRegistry
from world.items.inventory import ItemStack
from world.items.item import Item


def _registry() -> BlockRegistry:
    registry = BlockRegistry()
    registry.register_item(Item("tools:pick", stack_max=1, durability=59))
    registry.register_item(Item("tools:stick"))
    return registry


def test_only_a_worn_tool_has_uses_left_to_show() -> None:
    registry = _registry()
    assert uses_left(registry, ItemStack("tools:pick", 1, 7)) == (52, 59)
    assert durability_text(registry, ItemStack("tools:pick", 1, 7)) == "Durability: 52 / 59"
    for stack in (
        None,
        ItemStack("tools:pick"),  # not worn: no bar (Minecraft)
        ItemStack("tools:stick", 1, 3),  # worn, but it never wears: nothing to show
        ItemStack("gone:pick", 1, 3),  # a mod no longer loaded
    ):
        assert uses_left(registry, stack) is None and durability_text(registry, stack) == ""


def test_the_bar_goes_from_green_through_yellow_to_red() -> None:
    assert bar_colour(1.0) == pytest.approx((0.0, 1.0, 0.0, 1.0))
    assert bar_colour(0.5) == pytest.approx((1.0, 1.0, 0.0, 1.0))
    assert bar_colour(0.0) == pytest.approx((1.0, 0.0, 0.0, 1.0))


@given(durability=st.integers(1, 2031), data=st.data())
def test_the_bar_lies_under_the_icon_as_long_as_minecraft_s(
    durability: int, data: st.DataObject
) -> None:
    """On a 16-unit icon centred at 0: the black bar from x 2 to 15 and 13 to 15 below the top;
    the coloured one over its top row, Math.round(13 - 13 * wear / durability) long."""
    wear = data.draw(st.integers(1, durability))
    left = durability - wear
    boxes = bar_boxes((8.0, 8.0), 16.0, left, durability)  # the icon's corner at (0, 0)
    (black, dark), *coloured = boxes
    assert dark == (0.0, 0.0, 0.0, 1.0)
    assert black == pytest.approx((2.0 + 6.5, 2.0, 13.0, 2.0))  # x 2..15, y 1..3 from the bottom
    java_round = int(13.0 - wear * 13.0 / durability + 0.5)
    assert len(coloured) == (1 if java_round else 0)
    if coloured:
        (x, y, width, height), colour = coloured[0]
        assert (x - width / 2, y, width, height) == pytest.approx((2.0, 2.5, java_round, 1.0))
        assert width <= BAR_PX and colour == pytest.approx(bar_colour(left / durability))
