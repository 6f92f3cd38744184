"""The hotbar's state: nine slots of block ids and the selected one (no drawing here)."""

from __future__ import annotations

from collections.abc import Iterable

from world.blocks import BlockRegistry

__all__ = ["DEFAULT_BLOCKS", "SLOTS", "Hotbar"]

SLOTS = 9
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
    """Nine slots holding a block id or None, and the selected slot (0-based)."""

    def __init__(self, slots: Iterable[int | None]) -> None:
        self.slots: list[int | None] = list(slots)[:SLOTS]
        self.slots += [None] * (SLOTS - len(self.slots))
        self.selected = 0

    @classmethod
    def default(cls, registry: BlockRegistry) -> Hotbar:
        """The starting hotbar: the base building blocks the registry knows."""
        return cls(registry.id(name) for name in DEFAULT_BLOCKS if name in registry)

    @property
    def current(self) -> int | None:
        """The selected slot's block id."""
        return self.slots[self.selected]

    def select(self, slot: int) -> None:
        """Select a slot, 0-based."""
        if not 0 <= slot < SLOTS:
            raise ValueError(f"slot must be 0..{SLOTS - 1}, got {slot}")
        self.selected = slot

    def scroll(self, steps: int) -> None:
        """Move the selection by ``steps`` slots, wrapping around (the mouse wheel)."""
        self.selected = (self.selected + steps) % SLOTS

    def pick(self, block_id: int) -> None:
        """Middle click: select the slot holding the block, else put it in the selected slot."""
        if block_id in self.slots:
            self.selected = self.slots.index(block_id)
        else:
            self.slots[self.selected] = block_id
