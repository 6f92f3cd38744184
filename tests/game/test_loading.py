"""The loading screen: its text and bar fit the window at any size and aspect, in a real window
from its first frame, and it covers the window (the HUD does not show through)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from tests.game.runs import in_virtual_window

WINDOW_RUN = Path(__file__).with_name("window_loading_run.py")
LONG_NAME = "The Long Valley of the Seven Hundred Waterfalls, second try"


@pytest.mark.parametrize("name", ["New World", LONG_NAME])
@pytest.mark.parametrize("size", [(800, 600), (1600, 600), (600, 800), (300, 900)])
def test_the_loading_text_and_bar_fit_the_window(
    app: Any, size: tuple[int, int], name: str
) -> None:
    from game.first_view import FirstViewProgress
    from game.loading import LoadingScreen

    screen = LoadingScreen(name)
    try:
        screen.show(FirstViewProgress(loads=1552, loaded=1552, needed=784, lit=784, shown=392))
        aspect = size[0] / size[1]
        screen.root.on_aspect(aspect)  # laid out as for a window of that size
        boxes = screen.bounds()
        assert len(boxes) == 4  # the title, the world's name, the counts and the bar
        for x0, y0, x1, y1 in boxes:
            assert -aspect / 2 < x0 < x1 < aspect / 2
            assert -0.5 < y0 < y1 < 0.5
        title = boxes[0]
        assert title[3] - title[1] > 0.02 * min(1.0, aspect)  # still readable, not shrunk away
        lines = sorted(boxes, key=lambda box: -box[3])
        assert all(a[1] >= b[3] for a, b in itertools.pairwise(lines))  # no overlap
    finally:
        screen.destroy()


def test_the_loading_screen_covers_the_window(app: Any, make_game: Any) -> None:
    from game.engine import grab_frame
    from game.loading import LoadingScreen

    make_game(flat=True)  # the HUD and the world are there
    screen = LoadingScreen("New World")
    try:
        for _ in range(2):
            app.step()
        frame = grab_frame(app)
        hotbar = frame[-30:, frame.shape[1] // 2 - 60 : frame.shape[1] // 2 + 60]
        corner = frame[0, 0]
        assert (abs(hotbar.astype(int) - corner.astype(int)) <= 2).all()  # the backdrop only
    finally:
        screen.destroy()


def test_in_a_real_window_the_loading_screen_fits_from_its_first_frame(
    tmp_path: Path, x_server: None
) -> None:
    """The first frames in a window came before ursina knew the window's size: the 2D layer was
    square and twenty times too big, one clipped word filling the window for seconds."""
    started, *steps = in_virtual_window(tmp_path, WINDOW_RUN, "1920x1080")
    film_width, film_height = started["film"]
    assert film_width / film_height == pytest.approx(800 / 600)  # the window's shape at once
    assert [step["step"] for step in steps] == ["first frame", "1600x600", "600x800"]
    for step in steps:
        width, height = step["size"]
        (top, bottom), (left, right) = step["rows"], step["columns"]
        assert 0 < left < right < width - 1 and 0 < top < bottom < height - 1  # nothing clipped
        assert abs((left + right) / 2 - width / 2) < width * 0.05  # centred
        assert abs((top + bottom) / 2 - height / 2) < height * 0.1
        assert bottom - top < height / 2  # a title, a name, a bar and a line: not one giant word
    assert steps[1]["size"] == [1600, 600] and steps[2]["size"] == [600, 800]
