"""The sky around the player (`game.sky`): the time of day shown at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from game.daylight import NIGHT_LEVEL, daylight

Make = Callable[..., Any]


def test_setting_the_time_darkens_the_chunks_at_once_without_a_frame(make_game: Make) -> None:
    game = make_game(flat=True, creative=True)
    game.sky.set_time(6000)
    assert game.chunks.daylight == pytest.approx(1.0)
    game.sky.set_time(18000)  # midnight
    assert game.day.tick == pytest.approx(18000)
    assert game.chunks.daylight == pytest.approx(NIGHT_LEVEL) == pytest.approx(daylight(18000))
