"""The command line, run as a player would (a subprocess per run, no display): ``--screenshot``
and ``--script`` write PNGs showing terrain and the hotbar; bad options fail cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.hotbar import SLOTS
from game.hud import HOTBAR_Y, SLOT_GAP, SLOT_SIZE
from game.play import SKY
from world.atlas import ATLAS_PATH, tile_pixel_box
from world.blocks import default_registry

ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 800, 600


def blockpick(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("DISPLAY", None)  # prove that no display is needed
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def slot_centre(slot: int) -> tuple[int, int]:
    """Pixel (row, column) of a hotbar slot's centre in a WIDTH×HEIGHT frame."""
    x_ui = (slot - (SLOTS - 1) / 2) * (SLOT_SIZE + SLOT_GAP)
    return round((0.5 - HOTBAR_Y) * HEIGHT), round(WIDTH / 2 + x_ui * HEIGHT)


def check_frame(path: Path) -> None:
    frame = np.asarray(Image.open(path).convert("RGB")).astype(int)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 500  # not a uniform picture
    sky = np.round(np.array([SKY[0], SKY[1], SKY[2]]) * 255)
    is_sky = np.abs(frame - sky).sum(axis=2) < 12
    assert is_sky[:40].mean() > 0.5  # looking slightly down: mostly sky at the top
    ground = is_sky[HEIGHT // 2 + 20 : HEIGHT - 80]
    assert ground.mean() < 0.2  # terrain fills the lower part
    # Each opaque block's icon shows its atlas tile: compare mean colours.
    atlas = np.asarray(Image.open(ATLAS_PATH).convert("RGBA")).astype(int)
    registry = default_registry()
    half = round(SLOT_SIZE * 0.72 * HEIGHT * 0.3)
    for slot, name in ((0, "base:stone"), (1, "base:dirt"), (3, "base:planks")):
        left, top, right, bottom = tile_pixel_box(int(registry.face_tiles[registry.id(name)][0]))
        tile = atlas[top:bottom, left:right, :3].reshape(-1, 3).mean(axis=0)
        row, col = slot_centre(slot)
        icon = frame[row - half : row + half, col - half : col + half].reshape(-1, 3).mean(axis=0)
        assert np.abs(icon - tile).max() < 25, (name, icon, tile)


def test_screenshot_and_script_work_with_no_display(tmp_path: Path) -> None:
    script = tmp_path / "walk.txt"
    shot = tmp_path / "from-script.png"
    final = tmp_path / "final.png"
    script.write_text(f"look 30 20\nmove 1 0 20\nscreenshot {shot}\nbreak\nwait 2\n")
    result = blockpick(tmp_path, "--script", str(script), "--screenshot", str(final))
    assert result.returncode == 0, result.stderr
    for path in (shot, final):
        check_frame(path)


def test_a_bad_script_is_refused_with_its_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("look 0 0\nfly sideways\n")
    result = blockpick(tmp_path, "--script", str(script))
    assert result.returncode == 2
    assert "line 2" in result.stderr and "fly" in result.stderr


@pytest.mark.parametrize("args", [["--fov", "500"], ["--creative", "--survival"], ["--size", "x"]])
def test_bad_options_exit_with_usage(tmp_path: Path, args: list[str]) -> None:
    result = blockpick(tmp_path, *args)
    assert result.returncode == 2 and "usage" in result.stderr
