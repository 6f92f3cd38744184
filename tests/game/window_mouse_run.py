"""Played in a real window (run under a virtual X server by `test_mouse`): capture the pointer,
open the pause menu, leave the pointer elsewhere, close the menu, resize the window, then move
the pointer; prints the look after each step as JSON lines."""

from __future__ import annotations

import json

from panda3d.core import WindowProperties

from game.engine import start
from game.options import Options
from game.play import Game


def main() -> None:
    app = start(headless=False, size=(640, 480))
    game = Game(Options(flat=True, view_distance=2), live=True)
    window = app.win

    def frames(count: int) -> None:
        for _ in range(count):
            app.step()

    def report(step: str) -> None:
        size = window.get_properties()
        pointer = window.get_pointer(0)
        print(
            json.dumps(
                {
                    "step": step,
                    "look": [game.player.yaw, game.player.pitch],
                    "size": [size.get_x_size(), size.get_y_size()],
                    "pointer": [pointer.get_x(), pointer.get_y()],
                }
            ),
            flush=True,
        )

    game.capture_mouse(True)
    frames(5)
    report("captured")
    game.input("escape")
    frames(3)
    window.move_pointer(0, 20, 400)  # the player moves the pointer over the menu
    frames(3)
    game.input("escape")
    frames(5)
    report("menu closed")
    resize = WindowProperties()
    resize.set_size(900, 500)
    window.request_properties(resize)
    frames(10)
    report("resized")
    window.move_pointer(0, 450 + 50, 250)  # a tenth of the window's height to the right
    frames(2)
    report("moved")
    game.close()


if __name__ == "__main__":
    main()
