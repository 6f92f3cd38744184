"""The name of the item under the pointer on the inventory screen: Minecraft's tooltip.

A small dark box holding one line (a worn tool's two: its name, then ``Durability: 52 / 59``,
`game.durability`), its top left corner just right of and above the pointer, drawn in front of
the screen's slots and icons; hidden when the pointer is over no item. The name is the item's
(or its block's) ``description`` when a loaded mod gives one, else a readable form of its name
(``"gone:ruby_block"`` reads ``ruby block``: an item of a mod no longer loaded).
"""

from __future__ import annotations

from ursina import Entity, Text, color

from world.blocks.registry import BlockRegistry

__all__ = ["Tooltip", "item_name"]

_OFFSET = (0.012, 0.012)  # from the pointer to the box's corner, in the panel's units
_BOX = color.rgba(0.09, 0.03, 0.13, 0.94)  # Minecraft's tooltip: a dark violet-black


def item_name(registry: BlockRegistry, item: str) -> str:
    """The name a player reads for ``item`` (module notes)."""
    if item in registry.items:
        return registry.items[item].description
    if item in registry:
        return registry[item].description
    return item.rpartition(":")[2].replace("_", " ")


class Tooltip:
    """A line or two in a dark box, shown near a point of its parent (the screen's panel)."""

    def __init__(self, parent: Entity) -> None:
        self.label = Text(
            parent=parent,
            text="",
            origin=(-0.5, -0.5),
            z=-1,  # in front of the slots (z 2) and the icons (z 1)
            scale=0.9,
            use_tags=False,
            enabled=False,
            name="tooltip",
        )

    @property
    def text(self) -> str:
        """The text shown ("" when hidden)."""
        return str(self.label.text) if self.label.enabled else ""

    def show(self, text: str, at: tuple[float, float]) -> None:
        """Show ``text`` by the point ``at`` (the parent's units); "" hides the box."""
        if not text:
            self.hide()
            return
        if text != self.label.text or not self.label.enabled:
            self.label.text = text
            self.label.enabled = True
            self.label.create_background(padding=0.012, radius=0, color=_BOX)
        self.label.position = (at[0] + _OFFSET[0], at[1] + _OFFSET[1], -1)

    def hide(self) -> None:
        """Hide the box."""
        self.label.enabled = False
