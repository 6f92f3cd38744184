"""The mouse on the inventory screen's slots: presses, drags and releases made into clicks.

Minecraft's gestures, in screen cells (no engine, no rule here): with Shift held, a left press
is a quick move (``shift``) at once; with nothing carried, a press picks up at once (``left``:
the stack, ``right``: half); carrying a stack, a press starts a drag that gathers the cells the
pointer crosses, each once, and the release makes it one click: on a single cell a plain
``left`` / ``right`` click, over several a drag (`world.actions.slot_clicks`: left spreads
evenly, right one each). `game.screens` feeds it the mouse's events and the cell under the
pointer every frame (a script: `game.screens.Screens.click`, `game.screens.Screens.drag`), and
makes each gesture the player's action through the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Gesture", "SlotMouse"]

_BUTTONS = ("left", "right")
_SHIFT_KEYS = ("left shift", "right shift", "shift")


@dataclass(frozen=True)
class Gesture:
    """What the mouse did: ``button`` (``left``, ``right``, ``shift``) on ``cells`` (one, or a
    drag's cells in the order crossed)."""

    button: str
    cells: tuple[int, ...]


class SlotMouse:
    """The state of the mouse over the screen's cells (module notes)."""

    def __init__(self) -> None:
        self._shift: set[str] = set()  # the Shift keys held down
        self.dragging: str | None = None  # the button of a drag under way
        self.crossed: list[int] = []  # the cells it crossed, in order

    @property
    def shift(self) -> bool:
        """Whether a Shift key is held."""
        return bool(self._shift)

    def key(self, key: str) -> None:
        """Follow the Shift keys by their own down and up events (ursina names a shift-click
        ``left mouse down`` as any click)."""
        if key in _SHIFT_KEYS:
            self._shift.add(key)
        elif key.removesuffix(" up") in _SHIFT_KEYS:
            self._shift.discard(key.removesuffix(" up"))

    def press(self, button: str, cell: int | None, *, carrying: bool) -> Gesture | None:
        """A button went down over ``cell`` (None: no cell); the gesture to make now, if any."""
        if button not in _BUTTONS:
            raise ValueError(f"button must be left or right, got {button!r}")
        self.dragging, self.crossed = None, []
        if button == "left" and self.shift:
            return None if cell is None else Gesture("shift", (cell,))
        if not carrying:
            return None if cell is None else Gesture(button, (cell,))
        self.dragging = button
        self.over(cell)
        return None

    def over(self, cell: int | None) -> None:
        """The pointer is over ``cell`` (None: no cell): a drag under way crosses it."""
        if self.dragging is not None and cell is not None and cell not in self.crossed:
            self.crossed.append(cell)

    def release(self, button: str) -> Gesture | None:
        """A button went up: the drag it ended, as one gesture (None: nothing crossed, or no
        drag of this button)."""
        if button != self.dragging:
            return None
        cells, self.dragging, self.crossed = tuple(self.crossed), None, []
        return Gesture(button, cells) if cells else None

    def cancel(self) -> None:
        """Forget a drag under way (the screen closed)."""
        self.dragging, self.crossed = None, []
