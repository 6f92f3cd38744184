"""The base game's blocks: `BASE_BLOCKS`, and `register_base_blocks`, the one loop that adds them.

`world.blocks.default_registry` calls it on a bare registry and the base game's plugin
(`world.registration.BaseGame`) on its registrar.
"""

from __future__ import annotations

import math

from world.block_type import BlockType, Registers
from world.inventory import Drop
from world.shapes import Box

__all__ = ["BASE_BLOCKS", "register_base_blocks"]


def register_base_blocks(registry: Registers) -> None:
    """Register the base game's blocks, stone first so that ``base:stone`` is id 1.

    The one place the base blocks are added: `default_registry` calls it on a bare registry and
    the base game's plugin (`world.registration.BaseGame`) on its registrar.
    """
    for block in BASE_BLOCKS:
        registry.register(block)


BASE_BLOCKS: tuple[BlockType, ...] = (
    BlockType("base:stone", hardness=1.5, tiles=("base:stone",), drops=(Drop("base:cobblestone"),)),
    BlockType("base:dirt", hardness=0.5, tiles=("base:dirt",)),
    BlockType(
        "base:grass",
        description="grass block",
        hardness=0.6,
        tiles=("base:grass_top", "base:dirt", "base:grass_side"),
        drops=(Drop("base:dirt"),),
    ),
    BlockType("base:sand", hardness=0.5, tiles=("base:sand",), groups=("falling",)),
    BlockType("base:gravel", hardness=0.6, tiles=("base:gravel",), groups=("falling",)),
    BlockType("base:log", hardness=2.0, tiles=("base:log_top", "base:log_top", "base:log_side")),
    BlockType("base:planks", hardness=2.0, tiles=("base:planks",)),
    BlockType(
        "base:leaves",
        hardness=0.2,
        transparent=True,
        tiles=("base:leaves",),
        drops=(Drop("base:sapling", chance=0.05),),  # Minecraft: a sapling one time in twenty
    ),
    BlockType("base:glass", hardness=0.3, transparent=True, tiles=("base:glass",), drops=()),
    BlockType(
        "base:water",
        solid=False,
        pointable=False,
        replaceable=True,
        transparent=True,
        hardness=math.inf,
        tiles=("base:water",),
        groups=("liquid",),
    ),
    BlockType("base:bedrock", hardness=math.inf, tiles=("base:bedrock",)),
    BlockType(
        "base:tall_grass",
        description="tall grass",
        solid=False,
        replaceable=True,
        transparent=True,
        hardness=0.0,
        tiles=("base:tall_grass",),
        drops=(),
    ),
    BlockType("base:lamp", hardness=0.3, tiles=("base:lamp",)),
    BlockType("base:cobblestone", hardness=2.0, tiles=("base:cobblestone",)),
    BlockType(
        "base:sapling",
        solid=False,
        transparent=True,
        hardness=0.0,
        tiles=("base:sapling",),
        selection=(Box(0.125, 0.0, 0.125, 0.875, 0.8125, 0.875),),  # Minecraft's 2..14, 13 high
        draw="plant",
    ),
)
