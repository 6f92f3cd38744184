"""Items: what a player holds and moves, below the blocks that name them.

The contract: `ItemStack` and `Drop` (`items.inventory`), the player's `Inventory` and its slot
counts; `Item`, an item that is not a block (`items.item`: a tool, a hoe); `Recipe`
(`items.recipes`) and crafting a 3×3 grid against a registry's recipes (`items.crafting`, which
reads the registry through its own `Catalog` protocol); `Container`, a block inventory kept in a
voxel's data as JSON slots (`items.containers`).

Modules: ``inventory`` (stacks, drops, the inventory), ``item`` (items that are not blocks),
``recipes`` (recipe definitions), ``crafting`` (matching and crafting), ``containers`` (block
inventories' slots). Imports only the leaves (`world.geometry`, `world.tiles`).
"""

from __future__ import annotations

from world.items.containers import Container
from world.items.crafting import craft
from world.items.inventory import Drop, Inventory, ItemStack
from world.items.item import Item
from world.items.recipes import Recipe

__all__ = ["Container", "Drop", "Inventory", "Item", "ItemStack", "Recipe", "craft"]
