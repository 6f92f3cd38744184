"""Helpers for tests that run the game: in a subprocess (where it runs and its environment), or
until its streaming settles, or with a window's pointer the test moves."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game.controls import PointerSample

ROOT = Path(__file__).resolve().parents[2]


def game_env(tmp_path: Path, *, display: bool = True) -> dict[str, str]:
    """The environment of a game run: its own caches and data folder under ``tmp_path``.

    ``display=False`` drops ``DISPLAY``, proving that an offscreen run needs no display.
    """
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        BLOCKPICK_DATA_DIR=str(tmp_path / "data"),
    )
    if not display:
        env.pop("DISPLAY", None)
    return env


def blockpick(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m game ARGS`` with no display (offscreen) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=ROOT,
        env=game_env(tmp_path, display=False),  # prove that no display is needed
        capture_output=True,
        text=True,
        timeout=120,
    )


def in_virtual_window(tmp_path: Path, script: Path, screen: str) -> list[Any]:
    """Run a window test's ``script`` in a real window under a virtual X server of ``screen``
    (``"1280x1024"``), skipping when there is none; its lines of JSON output."""
    if shutil.which("xvfb-run") is None:
        pytest.skip("no virtual X server: install xvfb (apt-get install xvfb) to run this test")
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", sys.executable, str(script)],
        cwd=ROOT,
        env=game_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def finish_streaming(step: Callable[[], object], game: Any, limit_s: float = 60.0) -> None:
    """Run frames (``step``) until the game's streaming has nothing left, the meshes still in
    the worker process included (they come back in real time, not in frames)."""
    deadline = time.monotonic() + limit_s
    while game.chunks.pending and time.monotonic() < deadline:
        step()
        time.sleep(0.001)
    assert not game.chunks.pending, f"streaming did not finish in {limit_s} s"


@dataclass
class SyntheticPointer:
    """A window's pointer moved by the test: what `game.engine.WindowPointer` reads in a window."""

    x: float = 200.0
    y: float = 150.0
    size: tuple[int, int] = (400, 300)
    origin: tuple[int, int] = (0, 0)
    focused: bool = True
    in_window: bool = True
    relative: bool = False
    captured: bool = False
    recentred: int = 0

    def capture(self, captured: bool) -> None:
        self.captured = captured

    def sample(self) -> PointerSample:
        return PointerSample(
            self.x, self.y, self.size, self.origin, self.in_window, self.focused, self.relative
        )

    def move_to(self, x: int, y: int) -> None:
        self.x, self.y = x, y
        self.recentred += 1

    def move_by(self, dx: float, dy: float) -> None:
        self.x += dx
        self.y += dy


def stone_in_view(game: Any, replay: Callable[[Any, str], None]) -> Any:
    """Look down at the ground before the feet (``look 0 50``) and turn the block aimed at into
    stone, drawn at once; its `world.ray.Hit`."""
    replay(game, "look 0 50\nwait 2")
    target = game.target
    assert target is not None
    game.world.set_block(*target.block, game.world.registry.id("base:stone"))
    game.chunks.remesh_dirty()
    return target
