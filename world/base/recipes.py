"""The base game's crafting recipes (`world.items.crafting`), Minecraft's where the blocks exist.

There are no sticks: where Minecraft's recipe takes sticks, planks stand in for them (a fence is
two rows of three planks); recipes that need a furnace (glass, stone from cobblestone) are not
crafted. The example mods add their own (`ores`: torches; `signs`: signs; `farming`: the hoe).
"""

from __future__ import annotations

from typing import Final

from world.items.recipes import Recipe

__all__ = ["BASE_RECIPES"]

_PLANKS: Final = {"P": "base:planks"}
_STONE: Final = {"S": "base:stone"}

BASE_RECIPES: Final = (
    Recipe("base:planks", 4, items=("base:log",)),
    Recipe("base:planks_slab", 6, ("PPP",), _PLANKS),
    Recipe("base:stone_slab", 6, ("SSS",), _STONE),
    Recipe("base:planks_stairs", 4, ("P  ", "PP ", "PPP"), _PLANKS),
    Recipe("base:stone_stairs", 4, ("S  ", "SS ", "SSS"), _STONE),
    Recipe("base:fence", 3, ("PPP", "PPP"), _PLANKS),
    Recipe("base:door", 3, ("PP", "PP", "PP"), _PLANKS),
)
