"""Day and night: the time of day from the world's time, how much sky light shows, the sky colour.

A day is `DAY_SECONDS` of world time (20 minutes, Minecraft's; `--day-length`), counted in
Minecraft's 24,000 ticks: tick 0 is sunrise (6:00), 6000 noon, 12000 sunset (18:00), 18000
midnight. The time of day is the world's time (`world.voxels.block_data.BlockData.clock`: it runs
while the game runs, not while paused, and is saved with the world) plus an offset in ticks that the
``time`` script command sets (`DayClock.set_tick`), kept in the base game's mod storage so it is
saved too. A new world starts at tick 1000, in the morning (Minecraft's "day").

`daylight(tick)`: the share of the sky light channel that shows, 1 from a little after sunrise
to a little before sunset, `NIGHT_LEVEL` at night (Minecraft keeps 4 of 15 levels of sky light
at night), a smooth dusk and dawn between. `sky_colour(tick)`: day blue, an orange dusk and dawn,
night dark blue; the fog takes the same colour. Lamps and torches (block light) do not change.
"""

from __future__ import annotations

import math

from world.voxels.chunks import World

__all__ = [
    "DAY_SECONDS",
    "NAMED_TIMES",
    "NIGHT_LEVEL",
    "START_TICK",
    "TICKS_PER_DAY",
    "DayClock",
    "daylight",
    "parse_time",
    "sky_colour",
]

TICKS_PER_DAY = 24000
DAY_SECONDS = 20 * 60.0
NIGHT_LEVEL = 4 / 15
START_TICK = 1000
NAMED_TIMES = {
    "sunrise": 0,
    "day": 1000,
    "noon": 6000,
    "sunset": 12000,
    "night": 13000,
    "midnight": 18000,
}
_DAY_SKY = (0.62, 0.78, 1.0)  # game.scene's SKY
_NIGHT_SKY = (0.03, 0.04, 0.10)
_DUSK_SKY = (0.95, 0.55, 0.30)
_STORE = "base"  # the base game's own mod storage
_OFFSET_KEY = "day_offset_ticks"


def _sun(tick: float) -> float:
    """The sun's height, -1 (midnight) .. 1 (noon)."""
    return math.sin(2.0 * math.pi * (tick % TICKS_PER_DAY) / TICKS_PER_DAY)


def _day_share(tick: float) -> float:
    """0 at night, 1 by day, a smooth step while the sun is within 12 % of the horizon."""
    edge = min(max((_sun(tick) + 0.12) / 0.24, 0.0), 1.0)
    return edge * edge * (3.0 - 2.0 * edge)


def daylight(tick: float) -> float:
    """How much of the sky light shows at ``tick`` (module notes): `NIGHT_LEVEL`..1."""
    return NIGHT_LEVEL + (1.0 - NIGHT_LEVEL) * _day_share(tick)


def sky_colour(tick: float) -> tuple[float, float, float]:
    """The sky's RGB at ``tick``: day blue, night dark blue, orange near the horizon's sun."""
    share = _day_share(tick)
    base = [n + (d - n) * share for n, d in zip(_NIGHT_SKY, _DAY_SKY, strict=True)]
    dusk = max(0.0, 1.0 - abs(_sun(tick)) / 0.15) * 0.6
    return (
        base[0] + (_DUSK_SKY[0] - base[0]) * dusk,
        base[1] + (_DUSK_SKY[1] - base[1]) * dusk,
        base[2] + (_DUSK_SKY[2] - base[2]) * dusk,
    )


def parse_time(text: str) -> int:
    """A time of day for the ``time`` command: a name (`NAMED_TIMES`) or ticks 0..23999."""
    name = text.strip().lower()
    if name in NAMED_TIMES:
        return NAMED_TIMES[name]
    try:
        tick = int(name)
    except ValueError:
        names = ", ".join(NAMED_TIMES)
        raise ValueError(f"time must be one of {names} or ticks 0..23999, got {text!r}") from None
    if not 0 <= tick < TICKS_PER_DAY:
        raise ValueError(f"time must be ticks 0..23999, got {tick}")
    return tick


class DayClock:
    """The time of day of ``world`` for a day of ``day_seconds`` (module notes)."""

    def __init__(self, world: World, day_seconds: float = DAY_SECONDS) -> None:
        if isinstance(day_seconds, bool) or not 1.0 <= float(day_seconds) < math.inf:
            raise ValueError(f"day_seconds must be at least 1, got {day_seconds!r}")
        self.world = world
        self.day_seconds = float(day_seconds)
        store = world.mod_storage.for_mod(_STORE)
        if _OFFSET_KEY not in store:
            self.set_tick(START_TICK)

    @property
    def tick(self) -> float:
        """The time of day, 0 <= tick < 24000."""
        store = self.world.mod_storage.for_mod(_STORE)
        offset = store.get(_OFFSET_KEY, START_TICK)
        if isinstance(offset, bool) or not isinstance(offset, int | float):
            offset = START_TICK  # not a number (a damaged store): the morning
        clock = self.world.block_data.clock
        return (clock / self.day_seconds * TICKS_PER_DAY + float(offset)) % TICKS_PER_DAY

    def set_tick(self, tick: float) -> None:
        """Make it ``tick`` o'clock now (the world's time itself, and its timers, run on)."""
        clock = self.world.block_data.clock
        offset = (tick - clock / self.day_seconds * TICKS_PER_DAY) % TICKS_PER_DAY
        self.world.mod_storage.for_mod(_STORE)[_OFFSET_KEY] = offset

    @property
    def daylight(self) -> float:
        """`daylight` now."""
        return daylight(self.tick)

    @property
    def sky(self) -> tuple[float, float, float]:
        """`sky_colour` now."""
        return sky_colour(self.tick)

    def clock_text(self) -> str:
        """The time of day as hours and minutes (tick 0 is 06:00), for F3."""
        minutes = int((self.tick / TICKS_PER_DAY * 24.0 * 60.0 + 6 * 60) % (24 * 60))
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
