"""What breaking a block gives: its drops, by its definition (Luanti's ``get_node_drops``).

A block's ``get_drops(registry, state, rng)`` decides when it has one (its result is checked);
else its ``drops`` (``None``: its own item, ``()``: nothing), each kept with its chance
(`world.items.inventory.roll_drops`).
"""

from __future__ import annotations

import random

from world.blocks.registry import BlockRegistry
from world.items.inventory import ItemStack, roll_drops

__all__ = ["block_drops"]


def block_drops(registry: BlockRegistry, state: int, rng: random.Random) -> list[ItemStack]:
    """What breaking one block in `state` gives in survival.

    The block's ``get_drops(registry, state, rng)`` decides when it has one (its result is
    checked); else its ``drops`` (``None``: its own item).
    """
    block = registry.block_of(state)
    if block.get_drops is not None:
        stacks = list(block.get_drops(registry, state, rng))
        for stack in stacks:
            if not isinstance(stack, ItemStack):
                raise ValueError(
                    f"get_drops of {block.name!r} must return ItemStacks, got {stack!r}"
                )
        return stacks
    if block.drops is None:
        return [ItemStack(block.name, 1)]
    return roll_drops(block.drops, rng)
