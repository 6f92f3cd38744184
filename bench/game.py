"""The game's frame budget, offscreen 800×600 on Mesa's software GL (llvmpipe), one GL sync a frame.

Figures (medians):

- frame time and FPS over 300 frames after a warm-up, on generated terrain with the default
  9×9 chunk columns around the player, turning a full circle (every direction is drawn);
- Python-side time per frame: every engine task but ``igLoop`` (Panda3D's cull and draw), i.e.
  ursina's update (the game's physics, raycast, HUD, remeshing) and event handling;
- the time from a break click to the end of the frame that shows it (and how many frames that
  was: the target is the next one);
- the time from launching ``python -m game``'s code path to its first drawn frame (a fresh
  process each time; the venv is ready);
- the same exposed blocks (those with a transparent neighbour) drawn as one ursina Entity each,
  the ursina sample's approach, as an FPS ratio.

The measurements run in child processes (ursina is one per process). Run:
``python -m bench.game``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import print_table

FRAMES = 300
WARMUP = 30
BLOCK_ENTITY_FRAMES = 20
EDIT_CLICKS = 10
FIRST_FRAME_RUNS = 3
SIZE = (800, 600)
FPS_TARGET = 30.0
PYTHON_TARGET_MS = 4.0
FIRST_FRAME_TARGET_S = 3.0
RATIO_TARGET = 10.0
ROOT = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("XDG_CACHE_HOME", str(Path(tempfile.gettempdir()) / "blockpick-bench-cache"))
    return env


def _exposed_blocks(game: Any, keys: list[tuple[int, int, int]]) -> list[np.ndarray]:
    """Per drawn chunk, the world voxels of blocks touching a transparent neighbour, (N, 3)."""
    transparent = game.world.registry.transparent
    offsets = np.array(
        [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], dtype=np.int64
    )
    found = []
    for cx, cy, cz in keys:
        local = np.argwhere(game.world.chunk_blocks(cx, cy, cz).reshape(16, 16, 16) > 0)
        coords = local + np.array([cx * 16, cy * 16, cz * 16])
        around = game.world.get_blocks((coords[:, None, :] + offsets[None]).reshape(-1, 3))
        found.append(coords[transparent[around.reshape(-1, 6)].any(axis=1)])
    return found


def _frames(app: Any, finish: Any, turn: Any, count: int) -> list[float]:
    """Frame times (s) of ``count`` synced frames, calling ``turn(i)`` before each."""
    times = []
    for i in range(count):
        turn(i)
        start = time.perf_counter()
        app.step()
        finish()
        times.append(time.perf_counter() - start)
    return times


def child_measure() -> dict[str, Any]:
    """In-process measurements (run in a child process)."""
    from ursina import Entity, color

    from game.engine import gl_finisher, grab_frame, start
    from game.options import Options
    from game.play import Game

    app = start(headless=True, size=SIZE)
    finish = gl_finisher()
    game = Game(Options(creative=True))
    keys = list(game.chunks.entities)
    vertices = sum(game.chunks.vertex_count(key) for key in keys)
    tasks = [t for t in app.taskMgr.getAllTasks() if t.name != "igLoop"]

    def turn(i: int) -> None:
        game.player.look(i * 360.0 / FRAMES, 12.0)

    _frames(app, finish, turn, WARMUP)
    frame_s, python_s, game_ms = [], [], []
    for i in range(FRAMES):
        turn(i)
        start = time.perf_counter()
        app.step()
        finish()
        frame_s.append(time.perf_counter() - start)
        python_s.append(sum(t.getDt() for t in tasks))
        game_ms.append(game.python_ms)

    # A break click, then frames until the picture changes.
    edit_s, edit_frames = [], []
    for i in range(EDIT_CLICKS):
        game.player.look(i * 36.0, 55.0)
        _frames(app, finish, lambda _: None, 2)
        if game.target is None:
            continue
        before = grab_frame(app).astype(int)
        start = time.perf_counter()
        game.input("left mouse down")
        game.input("left mouse up")
        for n in range(1, 6):
            app.step()
            finish()
            if np.abs(grab_frame(app).astype(int) - before).mean() > 0.5:
                edit_s.append(time.perf_counter() - start)
                edit_frames.append(n)
                break

    # The ursina sample's way: one Entity per (exposed) block, same camera path.
    per_chunk = _exposed_blocks(game, keys)
    game.destroy()
    made = time.perf_counter()
    entities = []
    for blocks in per_chunk:
        # A parent per chunk: Panda3D adds a child to a long sibling list in linear time, and
        # the parents let it cull whole chunks, which only flatters this approach.
        parent = Entity()
        entities += [
            Entity(
                parent=parent,
                model="cube",
                texture="white_cube",
                color=color.light_gray,
                position=(x, y, z),
            )
            for x, y, z in (blocks + 0.5).tolist()
        ]
    made = time.perf_counter() - made
    step = FRAMES // BLOCK_ENTITY_FRAMES
    _frames(app, finish, lambda i: turn(i * step), 3)
    block_s = _frames(app, finish, lambda i: turn(i * step), BLOCK_ENTITY_FRAMES)
    return {
        "chunks": len(keys),
        "vertices": vertices,
        "frame_s": statistics.median(frame_s),
        "frame_p95_s": float(np.percentile(frame_s, 95)),
        "python_s": statistics.median(python_s),
        "game_ms": statistics.median(game_ms),
        "edit_s": statistics.median(edit_s) if edit_s else float("nan"),
        "edit_frames": max(edit_frames) if edit_frames else -1,
        "edits": len(edit_s),
        "block_entities": len(entities),
        "block_entity_create_s": made,
        "block_frame_s": statistics.median(block_s),
    }


def child_first_frame() -> None:
    """``python -m game``'s start-up path up to its first drawn frame; prints when done."""
    from game.engine import gl_finisher, start
    from game.options import parse_args
    from game.play import Game

    options = parse_args([])
    app = start(headless=True, size=options.size)
    Game(options)
    app.step()
    gl_finisher()()
    print("first-frame", flush=True)


def _first_frame_seconds() -> float:
    """Wall time from launching a fresh interpreter to its first frame."""
    start = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-m", "bench.game", "--first-frame"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "first-frame":
                seconds = time.perf_counter() - start
                break
        else:
            raise RuntimeError("the first-frame child exited without drawing")
        child.wait()
    return seconds


def main() -> None:
    """Run the children and print the table."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.game", "--measure"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    m = json.loads(out.strip().splitlines()[-1])
    first = statistics.median(_first_frame_seconds() for _ in range(FIRST_FRAME_RUNS))
    fps = 1.0 / m["frame_s"]
    block_fps = 1.0 / m["block_frame_s"]
    python_ms = m["python_s"] * 1000
    rows = [
        ("chunk entities / vertices held", f"{m['chunks']} / {m['vertices']:,}", "", ""),
        ("median frame time", f"{m['frame_s'] * 1000:.1f} ms", "", ""),
        ("95th percentile frame time", f"{m['frame_p95_s'] * 1000:.1f} ms", "", ""),
        ("FPS (9×9 columns, 800×600)", f"{fps:.1f}", f">= {FPS_TARGET:.0f}", _ok(fps / FPS_TARGET)),
        (
            "Python-side per frame",
            f"{python_ms:.2f} ms",
            f"<= {PYTHON_TARGET_MS:.0f} ms",
            _ok(PYTHON_TARGET_MS / python_ms),
        ),
        ("  of which Game.update", f"{m['game_ms']:.2f} ms", "", ""),
        (
            "break click -> frame showing it",
            f"{m['edit_s'] * 1000:.1f} ms, frame +{m['edit_frames']} ({m['edits']} clicks)",
            "next frame",
            "ok" if m["edit_frames"] == 1 else "MISSED",
        ),
        (
            "launch -> first frame",
            f"{first:.2f} s",
            f"<= {FIRST_FRAME_TARGET_S:.0f} s",
            _ok(FIRST_FRAME_TARGET_S / first),
        ),
        (
            "entity per block: entities / build time",
            f"{m['block_entities']:,} / {m['block_entity_create_s']:.1f} s",
            "",
            "",
        ),
        ("entity per block: FPS", f"{block_fps:.2f}", "", ""),
        (
            "chunk meshes / entity per block",
            f"{fps / block_fps:.0f}×",
            f">= {RATIO_TARGET:.0f}×",
            _ok(fps / block_fps / RATIO_TARGET),
        ),
    ]
    print_table("game: offscreen 800×600, Mesa software GL, one glFinish per frame", rows)


def _ok(ratio: float) -> str:
    """A verdict from (measured / target), where > 1 is better."""
    return f"{ratio:.2f} ({'ok' if ratio >= 1.0 else 'MISSED'})"


if __name__ == "__main__":
    if "--measure" in sys.argv:
        print(json.dumps(child_measure()))
    elif "--first-frame" in sys.argv:
        child_first_frame()
    else:
        main()
