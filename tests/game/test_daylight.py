"""Day and night: the daylight curve, the time of day kept with the world, the ``time`` command,
and what night does to the picture (torches still light their surroundings)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.daylight import (
    NAMED_TIMES,
    NIGHT_LEVEL,
    START_TICK,
    TICKS_PER_DAY,
    DayClock,
    daylight,
    parse_time,
    sky_colour,
)
from world import World
from world.geometry import Int3

Replay = Callable[[Any, str], None]


def test_noon_is_full_daylight_midnight_keeps_four_levels_and_the_day_is_periodic() -> None:
    assert daylight(NAMED_TIMES["noon"]) == pytest.approx(1.0)
    assert daylight(NAMED_TIMES["midnight"]) == pytest.approx(NIGHT_LEVEL)
    ticks = np.arange(0, 2 * TICKS_PER_DAY, 10)
    levels = np.array([daylight(t) for t in ticks])
    assert np.abs(np.diff(levels)).max() < 0.02  # dusk and dawn take 500+ ticks (25 s)
    assert np.allclose(levels[: len(levels) // 2], levels[len(levels) // 2 :])
    assert sky_colour(6000)[2] > 0.9 and max(sky_colour(18000)) < 0.15


def test_the_time_command_takes_names_and_ticks_and_names_what_is_wrong() -> None:
    assert parse_time("noon") == 6000 and parse_time("MIDNIGHT") == 18000
    assert parse_time("23999") == 23999
    for bad in ("teatime", "24000", "-1"):
        with pytest.raises(ValueError, match="time must be"):
            parse_time(bad)


def test_the_clock_follows_world_time_and_set_tick_does_not_touch_it() -> None:
    world = World()
    clock = DayClock(world, day_seconds=1200.0)
    assert clock.tick == pytest.approx(START_TICK)  # a new world starts in the morning
    world.block_data.clock += 600.0  # half a day of world time
    assert clock.tick == pytest.approx(START_TICK + 12000)
    clock.set_tick(18000)
    assert clock.tick == pytest.approx(18000) and world.block_data.clock == 600.0
    assert DayClock(world).tick == pytest.approx(18000)  # kept in the world's storage
    assert clock.clock_text() == "00:00"
    with pytest.raises(ValueError, match="day_seconds"):
        DayClock(world, day_seconds=0)


def test_night_darkens_the_field_but_not_what_a_torch_lights(
    make_game: Callable[..., Any], replay: Replay, tmp_path: Path
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, f"look 0 60\ntime noon\nwait 3\nscreenshot {tmp_path / 'noon.png'}")
    noon = _pixels(tmp_path / "noon.png")
    replay(game, f"time midnight\nwait 3\nscreenshot {tmp_path / 'night.png'}")
    assert game.chunks.daylight == pytest.approx(NIGHT_LEVEL)
    night = _pixels(tmp_path / "night.png")
    h = night.shape[0]
    view = (slice(0, int(h * 0.8)), slice(None))  # above the hotbar
    assert night[view].mean() < 0.3 * noon[view].mean()
    target = game.target
    assert target is not None
    torch = target.block + Int3(0, 1, 0)
    game.world.set_block(*torch, game.world.registry.id("base:torch"))  # outside the rules:
    game.chunks.relight(game.light.update([torch]), now=True)  # relit by hand
    replay(game, f"wait 3\nscreenshot {tmp_path / 'torch.png'}")
    lit = _pixels(tmp_path / "torch.png")
    assert lit[view].mean() > 2.0 * night[view].mean()  # the torch lights the ground around
    from game.debug import debug_text

    text = debug_text(game._debug_snapshot(), 60.0)  # F3
    assert "Light at the face: sky " in text and "Time: 00:00 (27% daylight)" in text


def _pixels(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("L"), dtype=float) / 255.0


def test_the_sun_crosses_the_sky_by_day_the_moon_by_night_and_the_ground_hides_them(
    make_game: Callable[..., Any], replay: Replay, tmp_path: Path
) -> None:
    from game.sky_bodies import sun_direction

    assert sun_direction(0) == pytest.approx((1.0, 0.0, 0.0))  # rises in the east (+x)
    assert sun_direction(6000) == pytest.approx((0.0, 1.0, 0.0), abs=1e-9)  # overhead at noon
    assert sun_direction(12000) == pytest.approx((-1.0, 0.0, 0.0), abs=1e-9)  # sets in the west
    game = make_game(flat=True, creative=True)

    def centre(script: str, name: str) -> np.ndarray:
        replay(game, f"{script}\nwait 2\nscreenshot {tmp_path / name}")
        from PIL import Image

        with Image.open(tmp_path / name) as image:
            rgb = np.asarray(image.convert("RGB"), dtype=float) / 255.0
        h, w, _ = rgb.shape
        # beside the crosshair, well inside the moon's square
        return np.asarray(rgb[h // 2 - 4 : h // 2 + 4, w // 2 + 6 : w // 2 + 10].mean(axis=(0, 1)))

    sky = np.array(sky_colour(6000))
    sun = centre("time noon\nlook 0 -89", "sun.png")  # straight up at noon
    assert sun.min() > 0.75 and sun[0] > sky[0] + 0.2  # a pale yellow square, not the sky
    moon = centre("time midnight\nlook 0 -89", "moon.png")
    assert moon.min() > 0.75  # the moon, bright against the night sky
    below = centre("time midnight\nlook 0 89", "ground.png")  # the moon is behind the ground
    assert below.max() < 0.5
    rising = centre("time 1000\nlook 270 -15", "sunrise.png")  # low in the east, in the morning
    assert rising[0] > 0.95 and rising[2] < 0.85  # warmer than the sun at noon: near the horizon
    assert centre("time 1000\nlook 90 -15", "west.png")[0] < 0.8  # the western sky is clear
