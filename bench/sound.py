"""Sound: what starting sounds costs a frame.

In a child process (ursina is one per process): a headless game at view distance 4 whose sound
player is given the engine's OpenAL on its null device (``ALSOFT_DRIVERS=null``: the whole audio
path runs, heard by nobody; where OpenAL cannot open even that, the recording path alone is
timed and the table says so); then frames alternating, in rounds, between 20 sounds started in
the frame (the base game's stone break, at points round the player: distance, pan, pitch, a
file among the variations, OpenAL's play) and none. Figure: the median frame with 20 sounds
against the median silent frame (target: within 0.5 ms). Wall clock, one GL sync a frame.

Run: ``python -m bench.sound``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import print_table

ROUNDS = 20
FRAMES = 30  # a round's frames of each kind
SOUNDS = 20
TARGET_MS = 0.5
ROOT = Path(__file__).resolve().parent.parent


def child() -> dict[str, Any]:
    """The frames, in a child process whose environment chose OpenAL's null device."""
    from game.engine import freeze_startup_heap, gl_finisher, start
    from game.options import Options
    from game.play import Game
    from game.sound import open_audio
    from world.blocks.sounds import SoundEvent

    app = start(headless=True, size=(800, 600), audio=True)
    finish = gl_finisher()
    game = Game(Options(creative=True, view_distance=4))
    freeze_startup_heap()
    manager = open_audio(headless=False)
    game.sounds.manager = manager
    for _ in range(600):
        app.step()
        finish()
        if game.chunks.idle:
            break
    x, y, z = game.player.eye
    events = [
        SoundEvent("base:stone_break", (x + 3 * (i % 5 - 2), y, z + 3 * (i // 5 - 2)))
        for i in range(SOUNDS)
    ]

    def frame(loud: bool) -> float:
        start_s = time.perf_counter()
        if loud:
            for event in events:
                game.sounds.play(event)
        app.step()
        finish()
        return time.perf_counter() - start_s

    silent, loud = [], []
    for _ in range(ROUNDS):
        silent += [frame(False) for _ in range(FRAMES)]
        loud += [frame(True) for _ in range(FRAMES)]
    heard = sum(p.heard for p in game.sounds.played)
    game.destroy()
    return {
        "silent_s": statistics.median(silent),
        "loud_s": statistics.median(loud),
        "openal": manager is not None,
        "heard": heard,
        "played": ROUNDS * FRAMES * SOUNDS,
    }


def main() -> None:
    if "--child" in sys.argv:
        print(json.dumps(child()))
        return
    from bench.game import _env

    env = dict(_env(), ALSOFT_DRIVERS="null")
    out = subprocess.run(
        [sys.executable, "-m", "bench.sound", "--child"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    run = json.loads(out.strip().splitlines()[-1])
    extra = (run["loud_s"] - run["silent_s"]) * 1000
    path = "OpenAL, null device" if run["openal"] else "recording only (no OpenAL here)"
    print_table(
        f"Sound: a frame starting {SOUNDS} sounds against a silent one ({path}; medians)",
        [
            (
                "frame: silent / 20 sounds started",
                f"{run['silent_s'] * 1000:.2f} / {run['loud_s'] * 1000:.2f} ms",
                f"<= +{TARGET_MS} ms",
                f"+{extra:.2f} ms {'ok' if extra <= TARGET_MS else 'MISSED'}",
            ),
            (
                "sounds heard through the engine / started",
                f"{run['heard']} / {run['played']}",
                "-",
                "at most 32 at once",
            ),
        ],
    )


if __name__ == "__main__":
    main()
