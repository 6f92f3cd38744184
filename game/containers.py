"""The block inventory the player has open: which block's, and its slots as last shown.

A chest's slots shown above the player's own: the block they belong to, their data as last shown,
read again when the world changed them. No engine here: `game.screens` shows it on the inventory
screen, and makes every click on it the player's action (`world.rules.Rules.click_slots`: the
mods' ``can_use``, the block's ``allow_*`` and ``on_*`` callbacks, all or nothing). Data that
cannot be read as slots is not opened (nor written over); a block replaced since it was opened
(its stacks dropped into the world) is `gone`, and the screen closes rather than move a stack the
world no longer has.
"""

from __future__ import annotations

from world.items.containers import Container, decode_slots
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
