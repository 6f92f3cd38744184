"""Headless memory: a game standing still offscreen (a ``wait`` script) keeps its native memory
flat; Mesa's software GL used to queue every offscreen frame (issue 13: 0.5 MB a frame)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

Make = Callable[..., Any]
FRAMES = 600
MOST_GROWTH_MB = 30.0  # queued frames grew 0.14 MB each at this size and view (42 MB in 300)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_a_headless_game_standing_still_keeps_its_memory_flat(app: Any, make_game: Make) -> None:
    make_game(view_distance=4)
    for _ in range(30):  # warm up: meshes and textures reach GL
        app.step()
    before = rss_mb()
    for _ in range(FRAMES):
        app.step()
    assert rss_mb() - before < MOST_GROWTH_MB
