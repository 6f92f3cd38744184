"""The mouse's gestures on the inventory screen (`game.slot_clicks`): Minecraft's press, drag
and release, and Shift followed by its own key events."""

from __future__ import annotations

import pytest

from game.slot_clicks import Gesture, SlotMouse


def test_with_nothing_carried_a_press_picks_up_at_once() -> None:
    mouse = SlotMouse()
    assert mouse.press("left", 4, carrying=False) == Gesture("left", (4,))
    assert mouse.press("right", 4, carrying=False) == Gesture("right", (4,))
    assert mouse.release("right") is None
    assert mouse.press("left", None, carrying=False) is None  # off the cells: nothing


def test_carrying_a_press_starts_a_drag_made_on_release_of_its_button() -> None:
    mouse = SlotMouse()
    assert mouse.press("left", 3, carrying=True) is None
    for cell in (3, 4, None, 5, 4):
        mouse.over(cell)
    assert mouse.release("right") is None  # another button's release ends nothing
    assert mouse.release("left") == Gesture("left", (3, 4, 5))  # each cell once, in order
    assert mouse.release("left") is None
    mouse.press("right", 7, carrying=True)
    assert mouse.release("right") == Gesture("right", (7,))  # a single cell: a plain click


def test_shift_held_makes_a_left_press_a_quick_move_until_its_key_goes_up() -> None:
    mouse = SlotMouse()
    mouse.key("left shift")
    mouse.key("right shift")
    assert mouse.press("left", 2, carrying=True) == Gesture("shift", (2,))
    mouse.key("left shift up")
    assert mouse.shift  # the right one is still down
    mouse.key("right shift up")
    assert not mouse.shift and mouse.press("left", 2, carrying=False) == Gesture("left", (2,))


def test_a_closed_screen_forgets_the_drag_and_a_bad_button_is_refused() -> None:
    mouse = SlotMouse()
    mouse.press("left", 1, carrying=True)
    mouse.cancel()
    assert mouse.release("left") is None
    with pytest.raises(ValueError, match="button must be left or right"):
        mouse.press("middle", 1, carrying=False)
