"""Ores: coal and iron veins in the stone of new terrain, drawn from the mod's own textures.

An example of two modding tools together: `world.blocks.ores.Ore` (Luanti's ``register_ore``)
scatters veins through stone as each chunk is first generated, deterministic per world seed and
chunk; and the blocks are drawn from PNG files the mod ships (``mods/textures/ores_coal_ore.png``,
``ores_iron_ore.png``: `world.mods.textures`), not from the base atlas. Heights follow
Minecraft's: coal is common and reaches the surface, iron is rarer and lies deeper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.blocks import BlockType
from world.blocks.ores import Ore
from world.hooks import hookimpl
from world.items.recipes import Recipe

if TYPE_CHECKING:
    from world.mods.registrar import BlockRegistrar

description = "coal and iron ore veins in new terrain"


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    """The two ores and their veins; coal over planks makes four torches (Minecraft's recipe,
    planks standing in for the stick)."""
    registry.register_craft(
        Recipe("base:torch", 4, ("C", "P"), {"C": "ores:coal_ore", "P": "base:planks"})
    )
    registry.register(
        BlockType(
            "ores:coal_ore",
            description="coal ore",
            hardness=3.0,
            needs_tool=True,  # a pickaxe, or nothing (Minecraft)
            tiles=("ores_coal_ore.png",),
            groups=("cracky",),  # a pickaxe digs it faster
        )
    )
    registry.register(
        BlockType(
            "ores:iron_ore",
            description="iron ore",
            hardness=3.0,
            needs_tool=True,
            tiles=("ores_iron_ore.png",),
            groups=("cracky",),  # a pickaxe digs it faster
        )
    )
    registry.register_ore(Ore("ores:coal_ore", veins_per_chunk=2.5, size=12, y_range=(-96, 80)))
    registry.register_ore(Ore("ores:iron_ore", veins_per_chunk=1.5, size=8, y_range=(-128, 16)))
