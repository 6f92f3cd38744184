"""Starting ursina (on screen, or offscreen through EGL with no display), frame clock, screenshots.

ursina is a singleton: one `start` per process. Offscreen runs render with Mesa's software GL
through EGL (``p3headlessgl``), so ``--screenshot`` and ``--script`` need neither a display nor
a GPU. Everything here is engine plumbing; no game rule lives in this module.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from panda3d.core import ClockObject, Filename, loadPrcFileData
from ursina import Ursina, application, camera, window

__all__ = [
    "fixed_frame_rate",
    "freeze_startup_heap",
    "gl_finisher",
    "grab_frame",
    "save_screenshot",
    "start",
]

# Panda3D's chatter that means nothing to a player: the absent monitor and input devices of a
# headless run.
_QUIET = """
notify-level-display error
notify-level-egldisplay error
notify-level-device fatal
notify-level-pnmimage error
print-pipe-types false
"""
_HEADLESS = """
load-display p3headlessgl
audio-library-name null
sync-video false
"""


def start(*, headless: bool, size: tuple[int, int], title: str = "Blockpick") -> Ursina:
    """Create the one ursina app: a window, or an offscreen buffer when ``headless``."""
    loadPrcFileData("", _QUIET)
    if headless:
        loadPrcFileData("", _HEADLESS)
    # ursina prints its asset folders on start; the terminal is the player's, keep it clean.
    with contextlib.redirect_stdout(io.StringIO()):
        app = Ursina(
            title=title,
            window_type="offscreen" if headless else "onscreen",
            size=size,
            borderless=False,
            editor_ui_enabled=False,
        )
    # ursina's editor overlay (exit button, counters that scan every entity) is not the game's.
    window.editor_ui.enabled = False
    application.hot_reloader.enabled = False
    if headless:
        # Offscreen, the ui lens keeps a 1×1 film, which would stretch the HUD over the screen.
        camera.ui_lens.set_film_size(
            camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5
        )
    else:
        window.exit_button.enabled = False
        window.fps_counter.enabled = False
    return app


def fixed_frame_rate(fps: float) -> None:
    """Make every frame last exactly ``1/fps`` s of game time (replays are deterministic)."""
    clock = ClockObject.getGlobalClock()
    clock.setMode(ClockObject.MNonRealTime)
    clock.setFrameRate(fps)


def save_screenshot(app: Ursina, path: Path) -> None:
    """Write the last rendered frame as a PNG (parent folders are created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not app.win.saveScreenshot(Filename.fromOsSpecific(str(path.resolve()))):
        raise OSError(f"could not save a screenshot to {path}")


def grab_frame(app: Ursina) -> NDArray[np.uint8]:
    """The last rendered frame as an RGB array of shape (height, width, 3), top row first."""
    texture = app.win.getScreenshot()
    if texture is None:
        raise RuntimeError("the window has no frame to read")
    data = texture.getRamImageAs("RGB")
    rows = np.frombuffer(bytes(data), dtype=np.uint8).reshape(
        texture.getYSize(), texture.getXSize(), 3
    )
    return rows[::-1].copy()  # Panda3D stores images bottom row first


def gl_finisher() -> Callable[[], None]:
    """A function that waits until GL has drawn everything queued (one sync per timed frame)."""
    try:
        gl = ctypes.CDLL("libGL.so.1")
    except OSError:
        return lambda: None
    finish: Callable[[], None] = gl.glFinish
    return finish


def freeze_startup_heap() -> None:
    """Collect once, then exempt every object alive now from the garbage collector's passes.

    After start-up the heap holds some 70,000 tracked objects (ursina, Panda3D, the world) that
    live as long as the game; a full collection walks them all, 22 ms: a dropped frame whenever
    Python decides to run one. Frozen, they are never walked again (`gc.freeze`).
    """
    gc.collect()
    gc.freeze()
