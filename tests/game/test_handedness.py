"""The world is Minecraft's, right-handed (x east, y up, z south), on screen as in the game's
rules: facing north, east (+x) is on the player's right. Strafing right goes east, a structure
built east of the player is drawn on the right of the picture, F3 names the way the player
faces, and the sun, rising in the east, stands where F3 says east is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4  # the flat world's feet level


def facing_line(game: Any) -> str:
    """F3's facing line."""
    from game.debug import debug_text

    text = debug_text(game._debug_snapshot(), 60.0)
    return next(line for line in text.splitlines() if line.startswith("Facing:"))


def test_facing_north_strafing_right_goes_east(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    replay(game, "look 180 0\nwait 1")
    assert "north (-z)" in facing_line(game)
    x0, _, z0 = game.player.body.pos
    replay(game, "move 0 1 30")  # D: strafe right, half a second
    x1, _, z1 = game.player.body.pos
    assert x1 - x0 > 1.0 and abs(z1 - z0) < 1e-6


def test_a_structure_east_of_a_player_facing_north_is_drawn_on_the_right(
    app: Any, make_game: Make, replay: Replay
) -> None:
    from game.engine import grab_frame

    game = make_game(flat=True, creative=True)
    replay(game, "fly\nlook 180 10\nwait 3")
    empty = grab_frame(app).astype(int)
    stone = game.world.registry.id("base:stone")
    column = np.array([(3, y, -6) for y in range(GROUND, GROUND + 4)])  # 3 east, 6 north
    game.world.set_blocks(column, stone)
    replay(game, "wait 3")
    built = grab_frame(app).astype(int)
    changed = np.abs(built - empty).sum(axis=2) > 30
    columns = np.flatnonzero(changed.any(axis=0))
    assert len(columns) > 10, "the column was not drawn"
    width = built.shape[1]
    assert columns.min() > width // 2  # all of it right of the crosshair, as Minecraft draws it


@pytest.mark.parametrize(
    ("yaw", "facing", "side"),
    [(180.0, "north (-z)", "right"), (0.0, "south (+z)", "left"), (270.0, "east (+x)", "ahead")],
)
def test_the_morning_sun_stands_in_the_east_that_f3_names(
    make_game: Make, replay: Replay, yaw: float, facing: str, side: str
) -> None:
    from ursina import camera

    game = make_game(flat=True)
    replay(game, f"time 1000\nlook {yaw} -10\nwait 2")  # the sun some 15 degrees up, east
    assert facing in facing_line(game)
    sun = game.sky.bodies.sun
    x, _, z = camera.getRelativePoint(sun, (0, 0, 0))  # in the camera's frame: +x right, +z ahead
    if side == "right":
        assert x > 0.5 * abs(z)
    elif side == "left":
        assert x < -0.5 * abs(z)
    else:
        assert z > 0 and abs(x) < 0.05 * z  # straight ahead
