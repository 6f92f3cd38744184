"""Mouse look through the game's real capture path, with a synthetic pointer (offscreen there is
none): opening and closing the pause menu, its "Back to game" button, a resize, a window move or
a focus loss never turn the camera wherever the pointer was left; real motion afterwards turns
it by the sensitivity's amount, and the pointer is kept at the window's centre. One run in a
real window under a virtual X server (skipped where there is none) does the same with Panda3D's
own pointer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from game.controls import MOUSE_SENSITIVITY
from tests.game.runs import SyntheticPointer, in_virtual_window

Make = Callable[..., Any]
FRAME = 1 / 60
WINDOW_RUN = Path(__file__).with_name("window_mouse_run.py")


@pytest.fixture
def game(make_game: Make) -> Iterator[Any]:
    """A flat-world game reading a synthetic pointer as a window's game does, mouse captured."""
    game = make_game(flat=True)
    game.live = True
    game.pointer = SyntheticPointer()
    game.capture_mouse(True)
    frames(game, 2)
    yield game
    game.live = False


def frames(game: Any, count: int) -> None:
    for _ in range(count):
        game.update(FRAME)


def look(game: Any) -> tuple[float, float]:
    return (game.player.yaw, game.player.pitch)


def test_capturing_hides_and_holds_the_pointer_and_the_menu_gives_it_back(game: Any) -> None:
    assert game.pointer.captured
    game.input("escape")
    assert game.paused and not game.pointer.captured and not game.captured
    game.input("escape")
    assert not game.paused and game.pointer.captured and game.captured


def test_esc_move_the_pointer_esc_does_not_turn_the_camera(game: Any) -> None:
    before = look(game)
    game.input("escape")
    frames(game, 3)
    game.pointer.x, game.pointer.y = 17.0, 260.0  # left on the menu, far from the centre
    frames(game, 3)
    game.input("escape")
    frames(game, 5)
    assert look(game) == before
    assert (game.pointer.x, game.pointer.y) == (200, 150)  # put back at the centre


def test_back_to_game_clicked_away_from_the_centre_does_not_turn_the_camera(game: Any) -> None:
    before = look(game)
    game.input("escape")
    game.pointer.x, game.pointer.y = 200.0, 95.0  # on the "Back to game" button
    game.menu.buttons["resume"].on_click()
    frames(game, 5)
    assert not game.paused and look(game) == before


@pytest.mark.parametrize(
    ("change", "back"),
    [
        pytest.param({"size": (800, 500)}, {"size": (400, 300)}, id="resize"),
        pytest.param({"size": (300, 600)}, {"size": (400, 300)}, id="resize to portrait"),
        pytest.param({"origin": (240, 90)}, {"origin": (0, 0)}, id="window moved"),
        pytest.param({"focused": False}, {"focused": True}, id="focus lost"),
        pytest.param({"in_window": False}, {"in_window": True}, id="pointer left the window"),
    ],
)
def test_a_change_of_the_window_does_not_turn_the_camera(
    game: Any, change: dict[str, Any], back: dict[str, Any]
) -> None:
    before = look(game)
    for state, where in ((change, (331.0, 42.0)), (back, (12.0, 250.0))):
        for name, value in state.items():
            setattr(game.pointer, name, value)
        game.pointer.x, game.pointer.y = where  # the pointer is somewhere else as it happens
        frames(game, 2)
    assert look(game) == before


def test_real_motion_after_the_menu_turns_by_the_sensitivity(game: Any) -> None:
    game.input("escape")
    game.pointer.x, game.pointer.y = 30.0, 40.0
    game.input("escape")
    frames(game, 1)  # the first position after the capture counts for nothing
    yaw, pitch = look(game)
    game.pointer.move_by(30.0, -15.0)  # a tenth of the window's height right, a twentieth up
    frames(game, 1)
    assert game.player.yaw == pytest.approx(yaw + 0.1 * MOUSE_SENSITIVITY)
    assert game.player.pitch == pytest.approx(pitch - 0.05 * MOUSE_SENSITIVITY)  # + is down
    assert (game.pointer.x, game.pointer.y) == (200, 150)
    frames(game, 3)  # the pointer held still: no more turning
    assert game.player.yaw == pytest.approx(yaw + 0.1 * MOUSE_SENSITIVITY)


def test_real_motion_after_a_resize_is_measured_in_the_new_window_heights(game: Any) -> None:
    game.pointer.size = (800, 600)
    frames(game, 1)
    yaw = game.player.yaw
    game.pointer.move_by(60.0, 0.0)
    frames(game, 1)
    assert game.player.yaw == pytest.approx(yaw + 0.1 * MOUSE_SENSITIVITY)
    assert (game.pointer.x, game.pointer.y) == (400, 300)


def test_raw_relative_motion_needs_no_centring(game: Any) -> None:
    game.pointer.relative = True
    game.pointer.x, game.pointer.y = 1000.0, -500.0  # raw motion adds up beyond the window
    frames(game, 1)
    yaw, pitch = look(game)
    recentred = game.pointer.recentred
    game.pointer.move_by(-30.0, 30.0)
    frames(game, 1)
    assert game.player.yaw == pytest.approx((yaw - 0.1 * MOUSE_SENSITIVITY) % 360.0)
    assert game.player.pitch == pytest.approx(pitch + 0.1 * MOUSE_SENSITIVITY)
    assert game.pointer.recentred == recentred


def test_the_pointer_moved_while_paused_is_not_read(game: Any) -> None:
    game.input("escape")
    recentred = game.pointer.recentred
    game.pointer.move_by(80.0, 80.0)
    frames(game, 3)
    assert game.pointer.recentred == recentred  # the menu's pointer is the player's to move


def test_in_a_real_window_the_menu_and_a_resize_do_not_turn_the_camera(
    tmp_path: Path, x_server: None
) -> None:
    steps = {line["step"]: line for line in in_virtual_window(tmp_path, WINDOW_RUN, "1280x1024")}
    assert steps["captured"]["look"] == [0.0, 0.0]
    assert steps["menu closed"]["look"] == [0.0, 0.0]
    assert steps["menu closed"]["pointer"] == [320, 240]  # put back at the centre
    assert steps["resized"]["size"] == [900, 500] and steps["resized"]["look"] == [0.0, 0.0]
    assert steps["moved"]["look"] == pytest.approx([0.1 * MOUSE_SENSITIVITY, 0.0])


# -- the click that captures the mouse (issue 38: it broke the block in view) -------------------


def aimed_block(game: Any) -> tuple[int, int, int]:
    """Look straight down at the ground; the block the crosshair is on."""
    game.player.look(0.0, 90.0)
    frames(game, 1)
    assert game.target is not None
    return tuple(int(v) for v in game.target.block)


def click(game: Any) -> None:
    game.input("left mouse down")
    frames(game, 1)
    game.input("left mouse up")
    frames(game, 1)


def test_the_click_that_takes_the_mouse_back_after_focus_was_lost_leaves_the_block(
    make_game: Make,
) -> None:
    game = make_game(flat=True, creative=True)  # creative: a click breaks at once
    game.live, game.pointer = True, SyntheticPointer()
    game.capture_mouse(True)
    block = aimed_block(game)
    game.pointer.focused = False  # another window took the focus: the pointer is let go
    frames(game, 1)
    assert not game.captured and not game.pointer.captured
    game.pointer.focused = True  # the player clicks the window to come back
    click(game)
    assert game.captured and game.world.get_block(*block) != 0
    click(game)
    assert game.world.get_block(*block) == 0
    game.live = False


def test_the_click_on_back_to_game_leaves_the_block(make_game: Make) -> None:
    game = make_game(flat=True, creative=True)
    game.live, game.pointer = True, SyntheticPointer()
    game.capture_mouse(True)
    block = aimed_block(game)
    game.input("escape")
    # ursina's order for a click on a button: the entities' input (the game's, still paused),
    # then the button's on_click.
    game.input("left mouse down")
    game.menu.buttons["resume"].on_click()
    frames(game, 1)
    game.input("left mouse up")
    frames(game, 1)
    assert game.captured and not game.paused and game.world.get_block(*block) != 0
    click(game)
    assert game.world.get_block(*block) == 0
    game.live = False


@pytest.mark.parametrize("focused", [True, False])
def test_the_world_shown_takes_the_mouse_if_focused_and_a_capturing_click_breaks_nothing(
    app: Any, focused: bool
) -> None:
    """As Minecraft Java entering a world: the mouse is taken when the world shows if the window
    has the focus; else the first click takes it and does nothing else."""
    from game.loading import LoadingScreen
    from game.options import Options
    from game.play import Game

    game = Game(Options(flat=True, creative=True, view_distance=2), loading=LoadingScreen("w"))
    try:
        game.live, game.pointer = True, SyntheticPointer(focused=focused)
        game.player.look(0.0, 90.0)
        for _ in range(600):
            if game.loading is None:
                break
            app.step()
        assert game.loading is None
        frames(game, 1)
        assert game.captured == focused and game.pointer.captured == focused
        block = aimed_block(game)
        game.pointer.focused = True
        if not focused:
            click(game)  # the click into the window
            assert game.captured and game.world.get_block(*block) != 0
        click(game)
        assert game.world.get_block(*block) == 0
    finally:
        game.live = False
        game.destroy()
