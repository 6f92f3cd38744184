"""The block inventory the player has open, and its moves as the player's actions.

A chest's slots shown above the player's own: the block they belong to, their data as last shown,
and each move in or out of them through the rules. No engine here: `game.screens` shows it on the
inventory screen. Every move touching the block's slots is the player's action,
`world.rules.Rules.move_items` (the mods' ``can_use``, the block's ``allow_*`` and ``on_*``
callbacks, all or nothing); the player's inventory takes the slots the outcome gives back, only from
a done move. Data that cannot be read as slots is not opened (nor written over); a block replaced
since it was opened (its stacks dropped into the world) is `gone`, and the screen closes rather than
move a stack the world no longer has.
"""

from __future__ import annotations

from world.actions.containers import Slot
from world.items.containers import Container, decode_slots
from world.items.inventory import Inventory
from world.mods.outcome import Actor, Outcome
from world.rules import Rules

__all__ = ["OpenContainer"]


class OpenContainer:
    """A block's inventory as shown, read from the world's data (``ValueError``: unreadable)."""

    def __init__(self, rules: Rules, container: Container) -> None:
        self.rules = rules
        self.container = container
        world = rules.world
        self.block = world.get_block(*container.pos)  # the block whose inventory this is
        self.value = self._value()  # its data as last shown
        self.slots = decode_slots(self.value, container.size)

    def _value(self) -> object:
        return self.rules.world.block_data.value(self.container.pos, self.container.key)

    @property
    def gone(self) -> bool:
        """Whether the block was replaced since it was opened (its stacks dropped with it)."""
        return self.rules.world.get_block(*self.container.pos) != self.block

    def refresh(self) -> bool:
        """Read the slots again when the data changed since they were shown (a furnace's timer);
        True when it did. ``ValueError`` when the data became unreadable."""
        value = self._value()
        if value == self.value:
            return False
        self.value = value
        self.slots = decode_slots(value, self.container.size)
        return True

    def move(self, actor: Actor, source: Slot, target: Slot, inventory: Inventory) -> Outcome:
        """Move a stack as ``actor``'s action; a done move's inventory slots are taken into
        ``inventory`` (the block's are read by the next `refresh`)."""
        outcome = self.rules.move_items(actor, self.container, source, target, inventory.slots)
        if outcome.done and outcome.inventory is not None:
            inventory.slots[:] = outcome.inventory
        return outcome
