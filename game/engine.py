"""Starting ursina (on screen, or offscreen through EGL with no display), the window's pointer,
frame clock, screenshots.

ursina is a singleton: one `start` per process. Offscreen runs render with Mesa's software GL
through EGL (``p3headlessgl``), so ``--screenshot`` and ``--script`` need neither a display nor
a GPU. The engine starts quiet: no audio device (the game has no sound), ursina out of its
development mode with its own keys off, and nothing printed but the game's lines.
`WindowPointer` is the pointer `game.controls.MouseLook` reads. Everything here is engine
plumbing; no game rule lives in this module.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    ClockObject,
    Filename,
    GraphicsOutput,
    GraphicsWindow,
    WindowProperties,
    loadPrcFileData,
)
from ursina import Ursina, application, camera, window

from game.controls import PointerSample

__all__ = [
    "GC_OLDER_EVERY",
    "GC_YOUNG_THRESHOLD",
    "LOOK_MODE",
    "SWITCH_INTERVAL_S",
    "WindowPointer",
    "collect_all_garbage",
    "collect_garbage",
    "fixed_frame_rate",
    "freeze_startup_heap",
    "gl_finisher",
    "grab_frame",
    "save_screenshot",
    "sound_device_present",
    "start",
    "without_noise",
]

# Panda3D's chatter that means nothing to a player: the absent monitor and input devices of a
# headless run, and the sound system's complaints on a machine without a sound device (48 lines
# of ALSA and OpenAL in a window): `start` opens OpenAL quietly, or no audio at all offscreen.
_QUIET = """
notify-level-audio fatal
notify-level-display error
notify-level-egldisplay error
notify-level-device fatal
notify-level-pnmimage error
print-pipe-types false
"""
SWITCH_INTERVAL_S = 0.0005  # the GIL is handed between threads this often (Python's: 0.005)
_HEADLESS = """
load-display p3headlessgl
sync-video false
"""


# What the window system's libraries print while the engine starts that means nothing to a
# player: Panda3D probes the X server for DGA (raw mouse motion, unused on X11: `LOOK_MODE`).
_NOISE = ('extension "XFree86-DGA" missing', "ALSA lib ", "AL lib: ")


@contextlib.contextmanager
def without_noise() -> Iterator[None]:
    """Hold back standard error (C libraries' too), then pass on every line but `_NOISE`."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            for line in held.read().decode(errors="replace").splitlines(keepends=True):
                if not any(noise in line for noise in _NOISE):
                    sys.stderr.write(line)
            sys.stderr.flush()


def start(
    *, headless: bool, size: tuple[int, int], title: str = "Blockpick", audio: bool | None = None
) -> Ursina:
    """Create the one ursina app: a window, or an offscreen buffer when ``headless``; with the
    engine's audio (OpenAL, `game.sound.open_audio`) when ``audio`` (default: in a window), else
    none (offscreen runs only record their sounds)."""
    # The chunk loader thread (`world.stream.loader`) holds the GIL between its numpy and
    # zlib calls; the main thread waiting up to the default 5 ms for it, several times a frame,
    # made 37 ms frames (11 frames over 16 ms in a 60 s flight); at 0.5 ms the worst was 14 ms.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    loadPrcFileData("", _QUIET)
    if audio is None:
        audio = not headless and sound_device_present()
    if not audio:
        loadPrcFileData("", "audio-library-name null\n")
    else:  # OpenAL Soft says nothing of a missing device; the game then only records
        os.environ.setdefault("ALSOFT_LOGLEVEL", "0")
        loadPrcFileData("", "audio-library-name p3openal_audio\n")
    if headless:
        loadPrcFileData("", _HEADLESS)
    # The terminal is the player's: ursina's development mode (its editor overlay, hot reloader
    # and info lines) is for making a game, not for playing one. Out of development mode ursina
    # would make the window fullscreen, but only by sizing it to ``size``, which is given.
    application.print_info = False
    # ursina prints its folders whatever the mode.
    with contextlib.redirect_stdout(io.StringIO()), without_noise():
        app = Ursina(
            title=title,
            window_type="offscreen" if headless else "onscreen",
            size=size,
            borderless=False,
            editor_ui_enabled=False,
            development_mode=False,
        )
    # ursina's own keys, on even out of development mode: F10 cycles wireframe and collider
    # views (seeing through terrain), F11 toggles fullscreen, F12 shows the editor overlay.
    window.input_entity.enabled = False
    # ursina's fade overlay (``camera.overlay``): a clear quad the size of the screen at the
    # front of the ui, blended over every pixel of every frame though it never shows (the game
    # fades nothing). On software GL that was 4 ms a frame at 800×600, at any view distance.
    camera.overlay.hide()
    # Panda3D's own 2D scenes (``render2d``, ``render2dp``: DirectGUI's) hold nothing in an
    # ursina game, whose ui has a camera of its own, but their display regions stayed active,
    # and ``render2d``'s cleared the depth buffer after the 3D view every frame: on software GL
    # 0.9-1.3 ms a frame at view distance 4, 1.7 ms at 8 (alternating rounds in one process).
    for region in app.win.getDisplayRegions():
        if region.getCamera() in (app.cam2d, app.cam2dp):
            region.setActive(False)
    if headless:
        _finish_every_frame(app)
    # The ui lens keeps a 1×1 film until ursina hears of the window's aspect ratio: never
    # offscreen, and in a window not before its first window event, which comes frames after
    # the first frame is drawn: the loading screen's text was drawn 20 times too big (a giant
    # clipped word filled the window for seconds).
    camera.ui_lens.set_film_size(camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5)
    return app


def sound_device_present() -> bool:
    """Whether this machine may have a sound device: on Linux a sound card (``/dev/snd``) or a
    sound server's socket (PulseAudio's, PipeWire's); elsewhere, assumed. Without one the game
    opens no audio at all: OpenAL's probing would print ALSA's complaints."""
    if not sys.platform.startswith("linux"):
        return True
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"))
    return (
        Path("/dev/snd").exists()
        or bool(os.environ.get("PULSE_SERVER"))
        or (runtime / "pulse" / "native").exists()
        or (runtime / "pipewire-0").exists()
    )


def _finish_every_frame(app: Ursina) -> None:
    """Wait for GL at the end of every offscreen frame (after Panda3D's draw, ``igLoop``).

    An offscreen buffer is never flipped, so nothing ever makes Mesa's software GL wait for the
    frames it was given: llvmpipe queued every frame's scene and its native memory grew by
    0.5–1.3 MB a frame standing still (800 MB after 600 frames at view distance 4). One
    ``glFinish`` a frame keeps it flat (-0.01 MB a frame over 300 frames); the time it takes is
    the drawing's own, which was owed anyway.
    """
    finish = gl_finisher()

    def task(task: Any) -> Any:
        finish()
        return task.cont

    app.taskMgr.add(task, "blockpick-gl-finish", sort=51)  # igLoop's sort is 50


# How the pointer is held while looking. Panda3D gives raw relative motion (``M_relative``) on
# macOS only: on X11 it needs the XFree86-DGA extension (missing from Xvfb and XWayland, and
# warned about when asked for) and on Windows it is not implemented. Elsewhere the pointer is
# confined to the window and put back at its centre after every move.
LOOK_MODE = WindowProperties.M_relative if sys.platform == "darwin" else WindowProperties.M_confined


class WindowPointer:
    """The window's mouse pointer for looking: captured (hidden, held), read and centred.

    An offscreen buffer has no pointer: there it reads as None and capturing does nothing.
    """

    def __init__(self, output: GraphicsOutput) -> None:
        self._window = output if isinstance(output, GraphicsWindow) else None

    def capture(self, captured: bool) -> None:
        """Hide and hold the pointer for looking, or give it back to the desktop."""
        if self._window is None:
            return
        properties = WindowProperties()
        properties.set_cursor_hidden(captured)
        properties.set_mouse_mode(LOOK_MODE if captured else WindowProperties.M_absolute)
        self._window.request_properties(properties)

    def sample(self) -> PointerSample | None:
        """Where the pointer is now, with the window's size, place and focus."""
        if self._window is None:
            return None
        properties = self._window.get_properties()
        pointer = self._window.get_pointer(0)
        return PointerSample(
            x=pointer.get_x(),
            y=pointer.get_y(),
            size=(properties.get_x_size(), properties.get_y_size()),
            origin=(properties.get_x_origin(), properties.get_y_origin()),
            in_window=pointer.get_in_window(),
            focused=properties.get_foreground(),
            relative=properties.get_mouse_mode() == WindowProperties.M_relative,
        )

    def move_to(self, x: int, y: int) -> None:
        """Put the pointer at a pixel of the window."""
        if self._window is not None:
            self._window.move_pointer(0, x, y)


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


GC_YOUNG_THRESHOLD = 100  # allocations that start a young collection (Python's default: 700)
GC_OLDER_EVERY = 10  # passes of a generation between two of the next one (Python's default)


def freeze_startup_heap() -> None:
    """Collect once, then exempt every object alive now from the garbage collector's passes,
    and leave the passes to come to `collect_garbage`, once a frame, in smaller, more frequent
    young passes.

    After start-up the heap holds some 70,000 tracked objects (ursina, Panda3D, the world) that
    live as long as the game; a full collection walks them all, 22 ms: a dropped frame whenever
    Python decides to run one. Frozen, they are never walked again (`gc.freeze`).

    Streaming keeps making young objects (chunk keys, the world's and the light's per-chunk
    dicts, which the collector tracks again whenever a new key goes in); with Python's default
    threshold (700 allocations) one pass took 12-17 ms in a 30 s sprint-flight at view distance
    8, with `GC_YOUNG_THRESHOLD` (100) at most 3.6-6 ms, for 4 ms of collection a second
    instead of 2 (four paired runs).
    """
    gc.collect()
    gc.freeze()
    gc.disable()


def collect_garbage() -> float:
    """The garbage collector's pass that is due, now; returns the seconds it took.

    After `freeze_startup_heap` Python runs no pass by itself: the game calls this once a frame,
    before its chunk work, and gives that work what the pass left of the frame's budget. Left to
    Python, a pass ran wherever an allocation tipped its count, often inside a job of chunk work
    already as long as the budget: the slowest frame of a sprint-flight at view distance 8 held a
    6 ms pass inside 14 ms of chunk work. The passes and their cadence are Python's
    (`GC_YOUNG_THRESHOLD`, `GC_OLDER_EVERY`), but for its rule that holds a full pass back until
    the oldest generation has grown by a quarter; garbage without cycles is freed at once anyway.

    A full pass freezes what survives it, as the start-up did: the next full pass walks only
    what came since, 3.0-3.7 ms in a flight rather than 6.2-7.3 ms. A cycle frozen alive that
    dies later waits for `collect_all_garbage` (the pause menu); none did in a 60 s flight.
    Does nothing while Python collects by itself (no frozen heap: tests, tools).
    """
    if gc.isenabled():
        return 0.0
    young, middle, old = gc.get_count()
    if young < GC_YOUNG_THRESHOLD:
        return 0.0
    generation = 0
    if middle + 1 >= GC_OLDER_EVERY:
        generation = 2 if old + 1 >= GC_OLDER_EVERY else 1
    began = time.perf_counter()
    gc.collect(generation)
    if generation == 2:
        gc.freeze()
    return time.perf_counter() - began


def collect_all_garbage() -> None:
    """One pass over every object, the frozen ones too, then freeze the survivors again: tens of
    milliseconds, for a moment when a frame is not watched (the pause menu opening). Does nothing
    while Python collects by itself."""
    if gc.isenabled():
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()
