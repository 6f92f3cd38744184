"""Where the HUD's pieces go for a window's aspect ratio: pure arithmetic, no engine.

Units are ursina's ``camera.ui`` units, screen heights: y runs from -0.5 (bottom) to 0.5 (top)
and x over ``±aspect / 2``. Each piece is anchored to an edge or the centre of the window and
scaled down (never up) so that it fits the window's width with `MARGIN` to spare on both sides:
the hotbar to the bottom centre, the F3 text to the top-left corner, messages above the hotbar,
the pause menu to the centre. The HUD calls these again whenever the aspect ratio changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.hotbar import SLOTS

__all__ = [
    "DEBUG_WIDTH",
    "HOTBAR_HEIGHT",
    "HOTBAR_WIDTH",
    "HOTBAR_Y",
    "MARGIN",
    "SLOT_GAP",
    "SLOT_SIZE",
    "HotbarLayout",
    "fit_scale",
    "hotbar_layout",
    "top_left",
]

MARGIN = 0.01  # between a piece and the window's edge
SLOT_SIZE = 0.075
SLOT_GAP = 0.006
HOTBAR_Y = -0.45  # the hotbar's centre at full size; its bottom edge stays where this puts it
HOTBAR_WIDTH = SLOTS * SLOT_SIZE + (SLOTS + 1) * SLOT_GAP  # the backing, end to end
HOTBAR_HEIGHT = SLOT_SIZE + 2 * SLOT_GAP
_HOTBAR_BOTTOM = HOTBAR_Y - HOTBAR_HEIGHT / 2
# F3's text is scaled to fit this width, a long target line's: fitted to the text itself, its
# size would change every time a number got a digit longer.
DEBUG_WIDTH = 0.8


def fit_scale(width: float, aspect: float, *, margin: float = MARGIN) -> float:
    """The scale (at most 1) at which something ``width`` wide fits the window with margins."""
    if not width > 0.0:
        raise ValueError(f"width must be positive, got {width!r}")
    if not aspect > 0.0:
        raise ValueError(f"aspect must be positive, got {aspect!r}")
    return min(1.0, max(aspect - 2.0 * margin, 0.0) / width)


def top_left(aspect: float, *, margin: float = MARGIN) -> tuple[float, float]:
    """The window's top-left corner, ``margin`` inside it."""
    return (-aspect / 2.0 + margin, 0.5 - margin)


@dataclass(frozen=True)
class HotbarLayout:
    """The hotbar for one aspect ratio: its scale and the centre of its backing."""

    scale: float
    y: float

    @property
    def width(self) -> float:
        """The backing's width on screen."""
        return HOTBAR_WIDTH * self.scale

    @property
    def top(self) -> float:
        """The backing's top edge (messages go above it)."""
        return self.y + HOTBAR_HEIGHT * self.scale / 2.0

    def slot_x(self, slot: int) -> float:
        """A slot's centre, on screen."""
        return (slot - (SLOTS - 1) / 2) * (SLOT_SIZE + SLOT_GAP) * self.scale


def hotbar_layout(aspect: float) -> HotbarLayout:
    """The hotbar centred at the bottom of the window, scaled down to fit narrow windows."""
    scale = fit_scale(HOTBAR_WIDTH, aspect)
    return HotbarLayout(scale, _HOTBAR_BOTTOM + HOTBAR_HEIGHT * scale / 2.0)
