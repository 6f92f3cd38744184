"""`BlockRegistrar`: what a mod's ``register_blocks`` hook receives, its window onto the block
registry being built (Luanti's ``core.register_node`` and friends, held for one mod).

The public registration API: the base game (`world.base`) and every mod add their blocks,
items, recipes, ores and ABMs through it, named ``"<mod>:..."``. Low in the layers, beside the
hook specifications that name it; running the hooks is `world.mods.registration.make_registry`'s.
"""

from __future__ import annotations

from dataclasses import replace

from world.blocks.abm import Abm
from world.blocks.block_type import MAX_BLOCKS, BlockType
from world.blocks.entity_type import EntityType
from world.blocks.ores import Ore
from world.blocks.registry import BlockRegistry
from world.items.item import Item
from world.items.recipes import Recipe

__all__ = ["BlockRegistrar"]


class BlockRegistrar:
    """What ``register_blocks`` receives: a mod's window onto the block registry being built.

    It accepts only blocks named ``"<mod>:..."`` and holds them until the mod's hook returns, so a
    mod that raises adds no block. Lookups (``in``, ``[name]``) see every block registered so far,
    this mod's included.
    """

    def __init__(self, registry: BlockRegistry, mod: str) -> None:
        self._registry = registry
        self._pending: list[BlockType] = []
        self._ores: list[Ore] = []
        self._abms: list[Abm] = []
        self._items: list[Item] = []
        self._recipes: list[Recipe] = []
        self._entities: list[EntityType] = []
        self.mod = mod

    def register(self, block: BlockType) -> int:
        """Add a block type; returns the id it will have.

        Raises
        ------
        ValueError
            When the name does not start with ``"<mod>:"``, is taken, or the registry is full.
        """
        if not isinstance(block, BlockType):
            raise TypeError(f"block must be a BlockType, got {type(block).__name__}")
        self._check_own(block.name, "blocks")
        if block.name in self or any(item.name == block.name for item in self._items):
            raise ValueError(f"block {block.name!r} is already registered")
        block_id = len(self._registry) + len(self._pending)
        if block_id >= MAX_BLOCKS:
            raise ValueError(f"cannot register {block.name!r}: all {MAX_BLOCKS} ids are used")
        self._pending.append(block)
        return block_id

    def _check_own(self, name: str, what: str) -> None:
        if not name.startswith(f"{self.mod}:"):
            raise ValueError(
                f"mod {self.mod!r} may only register {what} named '{self.mod}:...', not {name!r}"
            )

    def register_item(self, item: Item) -> None:
        """Add an item that is not a block (`world.items.item.Item`), named ``"<mod>:..."``.

        Raises
        ------
        ValueError
            When the name does not start with ``"<mod>:"`` or is a block's or item's already.
        """
        if not isinstance(item, Item):
            raise TypeError(f"item must be an Item, got {type(item).__name__}")
        self._check_own(item.name, "items")
        taken = item.name in self or item.name in self._registry.items
        if taken or any(other.name == item.name for other in self._items):
            raise ValueError(f"item {item.name!r}: the name is already registered")
        self._items.append(item)

    def register_entity(self, kind: EntityType) -> None:
        """Add a kind of entity (`world.blocks.entity_type.EntityType`), named ``"<mod>:..."``:
        spawned with ``world.add_entity(pos, name)``, saved with its chunk.

        Raises
        ------
        ValueError
            When the name does not start with ``"<mod>:"`` or is taken.
        """
        if not isinstance(kind, EntityType):
            raise TypeError(f"kind must be an EntityType, got {type(kind).__name__}")
        self._check_own(kind.name, "entities")
        if kind.name in self._registry.entities or any(e.name == kind.name for e in self._entities):
            raise ValueError(f"entity {kind.name!r} is already registered")
        self._entities.append(kind)

    def register_ore(self, ore: Ore) -> None:
        """Scatter an ore through new terrain (`world.blocks.ores.Ore`); kept with the mod's
        blocks."""
        if not isinstance(ore, Ore):
            raise TypeError(f"ore must be an Ore, got {type(ore).__name__}")
        self._ores.append(ore)

    def register_abm(self, abm: Abm) -> None:
        """Act on random ticks of some blocks, this mod's or others' (`world.blocks.abm.Abm`)."""
        if not isinstance(abm, Abm):
            raise TypeError(f"abm must be an Abm, got {type(abm).__name__}")
        self._abms.append(replace(abm, mod=self.mod))

    def register_craft(self, recipe: Recipe) -> None:
        """Add a crafting recipe (`world.items.recipes.Recipe`), for any item, kept with the mod's
        blocks; recipes are tried in registration order."""
        if not isinstance(recipe, Recipe):
            raise TypeError(f"recipe must be a Recipe, got {type(recipe).__name__}")
        self._recipes.append(replace(recipe, mod=self.mod))

    def __contains__(self, name: object) -> bool:
        return name in self._registry or any(b.name == name for b in self._pending)

    def __getitem__(self, name: str) -> BlockType:
        for block in self._pending:
            if block.name == name:
                return block
        return self._registry[name]

    @property
    def names(self) -> list[str]:
        """Every block name registered so far, in id order."""
        return self._registry.names + [b.name for b in self._pending]

    def commit(self) -> None:
        """Register the held blocks in the real registry (cannot fail: all were checked)."""
        for block in self._pending:
            self._registry.register(block)
        for ore in self._ores:
            self._registry.register_ore(ore)
        for abm in self._abms:
            self._registry.register_abm(abm)
        for item in self._items:
            self._registry.register_item(item)
        for kind in self._entities:
            self._registry.register_entity(kind)
        self._registry.recipes = (*self._registry.recipes, *self._recipes)
        self._pending.clear()
