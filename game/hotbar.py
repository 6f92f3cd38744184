"""The hotbar: the first nine slots of the player's inventory, and the selected one (no drawing).

Slots hold item stacks (`world.items.inventory`); an item is named like the block it places, so the
hotbar shows each slot as that block's default state id (`Hotbar.slots`). In creative mode blocks
are infinite: placing takes nothing and a middle click puts a full stack of the picked block in
the hotbar (Minecraft's pick block). In survival placing takes one item from the selected stack
(the rules take it from the world's player: `world.actions.objects.spend`), a middle click only
selects (or swaps into the hotbar) a stack the inventory already holds, and a new world starts
with nothing, as Minecraft's does.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.durability import uses_left
from world.blocks.registry import BlockRegistry
from world.items.inventory import HOTBAR_SLOTS, STACK_MAX, Inventory, ItemStack

__all__ = ["DEFAULT_BLOCKS", "SLOTS", "Hotbar"]

SLOTS = HOTBAR_SLOTS
DEFAULT_BLOCKS = (
    "base:stone",
    "base:dirt",
    "base:grass",
    "base:planks",
    "base:log",
    "base:glass",
    "base:sand",
    "base:leaves",
    "base:lamp",
)


class Hotbar:
    """The inventory's nine hotbar slots seen as block ids, and the selected slot (0-based)."""

    def __init__(self, registry: BlockRegistry, inventory: Inventory | None = None) -> None:
        self.registry = registry
        self.inventory = Inventory() if inventory is None else inventory
        # Items that stack to fewer than 64 (tools: one), as their mods registered them.
        self.inventory.limits = {name: item.stack_max for name, item in registry.items.items()}

    @classmethod
    def of_blocks(cls, registry: BlockRegistry, blocks: Iterable[int | str | None]) -> Hotbar:
        """A hotbar holding a full stack of each block given (by id or name), slot by slot."""
        hotbar = cls(registry)
        for slot, block in enumerate(list(blocks)[:SLOTS]):
            if block is not None:
                name = registry.name(registry.resolve(block))
                hotbar.inventory.put(slot, ItemStack(name, STACK_MAX))
        return hotbar

    @classmethod
    def default(cls, registry: BlockRegistry) -> Hotbar:
        """A creative player's starting hotbar: the base building blocks the registry knows."""
        return cls.of_blocks(registry, [name for name in DEFAULT_BLOCKS if name in registry])

    def _block(self, stack: ItemStack | None) -> int | None:
        if stack is None or stack.item not in self.registry:
            return None  # an item of a mod that is not loaded: kept, but places nothing
        return self.registry.id(stack.item)

    @property
    def slots(self) -> list[int | None]:
        """Each hotbar slot's block (default state id), None when empty."""
        return [self._block(stack) for stack in self.inventory.hotbar]

    @property
    def icon_items(self) -> list[str | None]:
        """Each hotbar slot's item when it has an icon to draw (`game.icons.item_icon`: a
        block's, or an item's a loaded mod knows), None when empty or unknown."""
        return [
            None
            if stack is None
            or (stack.item not in self.registry and stack.item not in self.registry.items)
            else stack.item
            for stack in self.inventory.hotbar
        ]

    @property
    def current_item(self) -> str | None:
        """The name of the selected slot's item (a block's or not), None when empty."""
        stack = self.inventory.current
        return None if stack is None else stack.item

    @property
    def counts(self) -> list[int]:
        """How many items each hotbar slot holds (0 when empty)."""
        return [0 if s is None else s.count for s in self.inventory.hotbar]

    @property
    def worn(self) -> list[tuple[int, int] | None]:
        """Each hotbar slot's worn tool as (uses left, durability), None for anything else
        (`game.durability.uses_left`): the slots that draw a durability bar."""
        return [uses_left(self.registry, stack) for stack in self.inventory.hotbar]

    @property
    def selected(self) -> int:
        """The selected slot, 0-based."""
        return self.inventory.selected

    @property
    def current(self) -> int | None:
        """The selected slot's block id."""
        return self._block(self.inventory.current)

    def select(self, slot: int) -> None:
        """Select a slot, 0-based."""
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < SLOTS:
            raise ValueError(f"slot must be 0..{SLOTS - 1}, got {slot!r}")
        self.inventory.select(slot)

    def scroll(self, steps: int) -> None:
        """Move the selection by ``steps`` slots, wrapping around (the mouse wheel)."""
        self.inventory.select((self.inventory.selected + steps) % SLOTS)

    def pick(self, block_id: int, *, creative: bool = True) -> bool:
        """Middle click on a block: select the hotbar slot holding its item.

        Otherwise, in creative, a full stack goes into the first empty hotbar slot (the
        selected one when none is empty); in survival, a stack of it elsewhere in the inventory
        swaps into the selected slot. Returns whether the selection now holds the block.
        """
        item = self.registry.name(self.registry.resolve(block_id))
        hotbar = self.inventory.hotbar
        for slot, stack in enumerate(hotbar):
            if stack is not None and stack.item == item:
                self.inventory.select(slot)
                return True
        if creative:
            empty = [slot for slot, stack in enumerate(hotbar) if stack is None]
            if empty and hotbar[self.selected] is not None:
                self.inventory.select(empty[0])
            self.inventory.put(self.selected, ItemStack(item, STACK_MAX))
            return True
        for slot in range(SLOTS, len(self.inventory.slots)):
            stack = self.inventory.slots[slot]
            if stack is not None and stack.item == item:
                self.inventory.move(slot, self.selected)
                return True
        return False
