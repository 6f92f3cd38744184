"""Tools: pickaxes, axes and shovels of wood and stone, that dig their blocks faster (Minecraft's
and Luanti's tools; `world.items.item.Item.digs`), and wear out.

A pickaxe digs the ``cracky`` group (stone, cobblestone, ores), an axe ``choppy`` (wood), a
shovel ``crumbly`` (earth): wooden ones twice as fast as a hand, stone ones four times, as
Minecraft's. Held in survival, the break takes the block's hardness divided by that speed. They
wear out as Minecraft's (`world.items.item.Item.durability`): every survival break of a block
with a hardness above 0 spends one use, whatever the block, and a wooden tool lasts 59 uses, a
stone one 131; the last use breaks it. They are crafted as Minecraft's, planks standing in for
the sticks: a pickaxe is three of the material over two planks, an axe two by one over a plank,
a shovel one over two planks. Their icons are this mod's textures (``python -m
tools.make_tool_icons`` draws them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.hooks import hookimpl
from world.items.item import Item
from world.items.recipes import Recipe

if TYPE_CHECKING:
    from world.mods.registrar import BlockRegistrar

description = "pickaxes, axes and shovels that dig faster and wear out"

# Each material's ingredient, digging speed and uses (Minecraft's wooden and stone tiers).
MATERIALS = {"wood": ("base:planks", 2.0, 59), "stone": ("base:cobblestone", 4.0, 131)}
KINDS = {
    "pickaxe": ("cracky", ("MMM", " P ", " P ")),
    "axe": ("choppy", ("MM", "MP", " P")),
    "shovel": ("crumbly", ("M", "P", "P")),
}


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    for material, (ingredient, speed, uses) in MATERIALS.items():
        for kind, (group, pattern) in KINDS.items():
            name = f"tools:{material}_{kind}"
            registry.register_item(
                Item(
                    name,
                    description=f"{'wooden' if material == 'wood' else 'stone'} {kind}",
                    image=f"tools_{material}_{kind}.png",
                    stack_max=1,
                    digs={group: speed},
                    durability=uses,
                )
            )
            key = {"M": ingredient, "P": "base:planks"}
            registry.register_craft(Recipe(name, 1, pattern, key))
