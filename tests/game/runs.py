"""Helpers for tests that run the game in a subprocess: where it runs and its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
