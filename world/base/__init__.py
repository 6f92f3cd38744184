"""The base game: Blockpick's own blocks, recipes and placement rules, as content.

The engine (every other part of `world`) knows nothing of it: its blocks (`world.base.blocks`),
items (`world.base.items`: the buckets), recipes (`world.base.recipes`) and placement rules
(`world.base.placement`) are registered by
the plugin `BaseGame`, named `BASE`, through the same registrar every mod gets
(`world.mods.registrar.BlockRegistrar`), as Luanti's ``default`` mod is a mod of its game and
Minecraft's vanilla blocks are registered into registries that know nothing of them.

- `GAME`: the game's own plugins, which a game loads before any mod
  (``load_mods(..., game=GAME)``, `world.mods.loader`): their names are reserved, and a mod's
  ``depends`` on them is always met.
- Its blocks' sounds (`world.base.sounds`) play the files of ``assets/sounds/``, the plugin's
  ``sound_folder`` (`world.mods.sounds`).
- `default_registry`: a registry of the base game alone (what ``world.World()`` holds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from world.base.blocks import BASE_BLOCKS
from world.base.items import BASE_ITEMS
from world.base.recipes import BASE_RECIPES
from world.blocks.registry import BlockRegistry
from world.mods.hooks import hookimpl
from world.mods.registrar import BlockRegistrar
from world.shipped import sounds_dir

__all__ = ["BASE", "GAME", "GAME_PATH", "BaseGame", "default_registry"]

BASE: Final = "base"
"""The base game's plugin name, the prefix of its block names."""


class BaseGame:
    """Blockpick's own blocks (stone, dirt, grass, ...), items (buckets) and recipes, registered
    like any mod's."""

    description = "the base game's blocks and items"

    @property
    def sound_folder(self) -> Path:
        """Where the base game's sounds are (`world.mods.sounds`): ``assets/sounds/``."""
        return sounds_dir()

    @hookimpl
    def register_blocks(self, registry: BlockRegistrar) -> None:
        for block in BASE_BLOCKS:  # stone first: ``base:stone`` is id 1
            registry.register(block)
        for item in BASE_ITEMS:
            registry.register_item(item)
        for recipe in BASE_RECIPES:
            registry.register_craft(recipe)


GAME: Final = ((BASE, BaseGame()),)
"""The game's content plugins, loaded first, in this order (``load_mods(game=GAME)``)."""
GAME_PATH: Final = f"{__name__}:GAME"
"""Where `GAME` is, as a chunk worker process finds it (`world.stream.worker.WorkerRecipe`)."""


def default_registry() -> BlockRegistry:
    """A new registry holding air and the base game's blocks and recipes, registered by
    `BaseGame` through its registrar as a loaded game does."""
    registry = BlockRegistry()
    registrar = BlockRegistrar(registry, BASE)
    BaseGame().register_blocks(registrar)
    registrar.commit()
    return registry
