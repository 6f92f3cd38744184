"""A worn tool's durability bar under its icon, Minecraft's: pure arithmetic, no engine.

Minecraft draws it on a 16-pixel icon only while the tool is worn (its wear above 0): a black
bar 13 pixels wide and 2 high, 2 pixels from the icon's left and 13 from its top, and over its
top row a coloured one as long as the uses left (``round(13 - 13 * wear / durability)``
pixels), its hue going from green through yellow to red as they run out (HSV: hue a third of
the fraction left, full saturation and value). The hotbar (`game.hud`) and the inventory screen
(`game.inventory_screen`) draw these boxes over their icons; the tooltip reads the uses left
(`durability_text`, Minecraft's advanced tooltip: ``Durability: 52 / 59``).
"""

from __future__ import annotations

import colorsys
import math

from world.blocks.registry import BlockRegistry
from world.items.inventory import ItemStack

__all__ = ["BAR_PX", "ICON_UNITS", "bar_boxes", "bar_colour", "durability_text", "uses_left"]

ICON_UNITS = 16  # Minecraft's icon, in its pixels
BAR_PX = 13  # the bar's length at full durability
_BAR_LEFT, _BAR_TOP = 2, 13  # pixels from the icon's left and top edges
_BLACK = (0.0, 0.0, 0.0, 1.0)

Box = tuple[float, float, float, float]  # centre x, centre y, width, height
Rgba = tuple[float, float, float, float]


def uses_left(registry: BlockRegistry, stack: ItemStack | None) -> tuple[int, int] | None:
    """(uses left, durability) of a worn tool; None for anything else (an empty slot, a stack
    that is not worn, an item without durability or that no loaded mod knows)."""
    if stack is None or not stack.wear:
        return None
    kind = registry.items.get(stack.item)
    if kind is None or not kind.durability:
        return None
    return max(0, kind.durability - stack.wear), kind.durability


def bar_colour(left: float) -> Rgba:
    """The coloured bar's RGBA for ``left``, the fraction of uses left (1 green, 0 red)."""
    red, green, blue = colorsys.hsv_to_rgb(max(0.0, min(1.0, left)) / 3.0, 1.0, 1.0)
    return red, green, blue, 1.0


def bar_boxes(
    centre: tuple[float, float], size: float, left: int, durability: int
) -> list[tuple[Box, Rgba]]:
    """The bar's two boxes (the black one, then the coloured one over it) under an icon of
    ``size`` centred at ``centre`` (y up), with ``left`` of ``durability`` uses left."""
    x, y = centre
    px = size / ICON_UNITS
    # Minecraft's Math.round(13 - 13 * wear / durability): halves round up, as Java's do.
    length = math.floor(BAR_PX * left / durability + 0.5)
    x0 = x - size / 2 + _BAR_LEFT * px
    top = y + size / 2 - _BAR_TOP * px
    boxes: list[tuple[Box, Rgba]] = [
        ((x0 + BAR_PX * px / 2, top - px, BAR_PX * px, 2 * px), _BLACK)
    ]
    if length:
        colour = bar_colour(left / durability)
        boxes.append(((x0 + length * px / 2, top - px / 2, length * px, px), colour))
    return boxes


def durability_text(registry: BlockRegistry, stack: ItemStack | None) -> str:
    """``"Durability: 52 / 59"`` for a worn tool, "" for anything else."""
    worn = uses_left(registry, stack)
    return "" if worn is None else f"Durability: {worn[0]} / {worn[1]}"
