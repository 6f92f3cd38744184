"""Shown in a real window (run under a virtual X server by `test_loading`): the loading screen's
first frame, then the window resized wide and tall; prints, after each, the frame's size and the
box of its light pixels (the text and the bar) as JSON lines; first, the shape of the 2D layer
before any window event came (what the first frames are drawn with)."""

from __future__ import annotations

import json

import numpy as np
from panda3d.core import WindowProperties
from ursina import camera

from game.engine import grab_frame, start
from game.first_view import FirstViewProgress
from game.loading import LoadingScreen


def main() -> None:
    app = start(headless=False, size=(800, 600))
    film = camera.ui_lens.get_film_size()
    print(json.dumps({"step": "started", "film": [film[0], film[1]]}), flush=True)
    screen = LoadingScreen("New World")

    def report(step: str) -> None:
        frame = grab_frame(app)
        light = np.argwhere(frame.max(axis=2) > 150)
        print(
            json.dumps(
                {
                    "step": step,
                    "size": [frame.shape[1], frame.shape[0]],
                    "rows": [int(light[:, 0].min()), int(light[:, 0].max())],
                    "columns": [int(light[:, 1].min()), int(light[:, 1].max())],
                }
            ),
            flush=True,
        )

    app.step()  # the first frame, before the window has told ursina its size
    report("first frame")
    screen.show(FirstViewProgress(loads=1552, loaded=1552, needed=784, lit=784, shown=392))
    for size in ((1600, 600), (600, 800)):
        resize = WindowProperties()
        resize.set_size(*size)
        app.win.request_properties(resize)
        for _ in range(10):
            app.step()
        report(f"{size[0]}x{size[1]}")
    screen.destroy()


if __name__ == "__main__":
    main()
