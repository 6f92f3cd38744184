"""The item names a tooltip shows (`game.tooltip.item_name`); the box itself is drawn in
`tests/game/test_inventory_screen.py`."""

from __future__ import annotations

from world.base import default_registry
from world.blocks.block_type import BlockType


def test_an_item_is_named_by_its_description_else_its_name_made_readable() -> None:
    from game.tooltip import item_name

    registry = default_registry()
    registry.register(BlockType("gems:ruby", description="ruby block", tiles=("base:lamp",)))
    registry.register(BlockType("gems:cut_ruby", tiles=("base:lamp",)))
    assert item_name(registry, "base:grass") == "grass block"
    assert item_name(registry, "gems:ruby") == "ruby block"
    assert item_name(registry, "gems:cut_ruby") == "cut ruby"
    assert item_name(registry, "gone:blue_gem") == "blue gem"  # a mod no longer loaded
