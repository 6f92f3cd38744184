"""Entities: what 500 dropped stacks and 50 creatures cost a game tick, and a frame.

Figures (medians, and the 99th percentile, over `TICKS` game ticks of 1/20 s, each running one
entity step: `world.ticks.entity_ticks`), through `world.rules.Rules.tick`, the game's own call,
on the loaded terrain of `bench.ticks` with every example mod loaded and a player standing in
the middle:

- the tick with no entity (the baseline);
- the tick with 500 dropped stacks scattered over the surface (falling first, then resting: the
  first `SETTLE` ticks are not counted) and 50 creatures of the example `creatures` mod
  wandering; target: <= 2 ms a tick;
- the same with one busy core: a background process spinning, started and stopped by the bench
  (the machines here are shared: the figure a player meets when something else runs).

And the frame (issue 37: "500 dropped items and 50 creatures loaded: frame rate at view distance
8 within 10 % of none"), in a child process running the real game headless as `bench.game` does
(offscreen 800×600, Mesa's software GL, one ``glFinish`` a frame, the game's clock real time, so
the world steps its entities 20 times a second as in play): creative, the default world at view
distance 8, the start's chunk work settled, then 500 stacks scattered on the surface within 24
blocks of the player and 50 ``creatures:sheep``, left `FRAME_SETTLE` frames to land. Then
`FRAME_ROUNDS` pairs of rounds, with the entities and without them (the same world, every
chunk's entities taken out, `world.voxels.entities.Entities.unload`, and put back as saved,
`install`), in the order with, without, without, with, ... so neither gets the later place,
each round `FRAME_WARMUP` frames untimed (the view takes in or lets go of every entity) and
`ROUND_FRAMES` timed, the camera turning all the while (a full turn every `TURN_FRAMES` frames,
12° down): the median frame of each and its FPS (the timed frames over their time: what a frame
counter shows, the entity steps' frames counted), and the ratio of the FPS (target: with entities
/ without >= 0.90), with the time of a fixed Python loop before the rounds and after
(`bench.game._reference_ms`: how loaded the shared machine was). Then all of it again with one
core busy (a background process spinning, as for the tick).

Run: ``python -m bench.entities`` (``--frames``: the frame's figures alone).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import print_table
from bench.game import SIZE, _child, _reference_ms
from bench.ticks import SEED, loaded_world
from world.gen.terrain import surface_height
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.rules import Rules
from world.voxels.chunks import World
from world.voxels.entities import drop_item

TICKS = 600
SETTLE = 100
ITEMS = 500
CREATURES = 50
SCATTER = 24  # blocks from the middle, each way
TARGET_MS = 2.0
ITEM_NAMES = ("base:dirt", "base:cobblestone", "base:planks", "base:sand", "base:log")
FRAME_VIEW_DISTANCE = 8
FRAME_SETTLE = 200  # frames for the stacks to land and the sheep to start wandering
FRAME_ROUNDS = 16  # pairs of rounds: with the entities and without
FRAME_WARMUP = 12  # 3 entity steps: those put back settle (a stack rests again)
ROUND_FRAMES = 24
TURN_FRAMES = 300  # frames of a full turn (1.2° a frame)
FRAME_RATIO_TARGET = 0.90  # FPS with the entities against without (issue 37)


def populate(
    world: World, surface: Callable[[int, int], int], middle: tuple[int, int] = (0, 0)
) -> str | None:
    """500 stacks and 50 creatures over the surface (``surface(wx, wz)``: the height a player
    stands at, `world.gen.terrain.surface_height`'s) within `SCATTER` blocks of ``middle``; the
    creature kind used (None when no example mod defines one)."""
    rng = random.Random(SEED)
    x0, z0 = middle
    for _ in range(ITEMS):
        wx, wz = x0 + rng.randrange(-SCATTER, SCATTER), z0 + rng.randrange(-SCATTER, SCATTER)
        wy = surface(wx, wz) + 2
        stack = ItemStack(rng.choice(ITEM_NAMES), rng.randrange(1, 65))
        drop_item(world.entities, Int3(wx, wy, wz), stack, pos=(wx + 0.5, wy + 0.5, wz + 0.5))
    kinds = [name for name in world.registry.entities if name.startswith("creatures:")]
    if not kinds:
        return None
    for _ in range(CREATURES):
        wx, wz = x0 + rng.randrange(-SCATTER, SCATTER), z0 + rng.randrange(-SCATTER, SCATTER)
        wy = surface(wx, wz) + 1
        world.entities.add(kinds[0], (wx + 0.5, wy + 0.1, wz + 0.5))
    return kinds[0]


def ticks_ms(rules: Rules, around: tuple[float, float, float]) -> tuple[float, float]:
    """Median and p99 of `TICKS` ticks of 1/20 s, in ms, after `SETTLE` ticks."""
    for _ in range(SETTLE):
        rules.tick(1 / 20, around)
    times = []
    for _ in range(TICKS):
        start = time.perf_counter()
        rules.tick(1 / 20, around)
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def _spin(stop: multiprocessing.synchronize.Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


def measure(busy: bool) -> tuple[tuple[float, float], tuple[float, float], str | None, int]:
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True) if busy else None
    if spinner is not None:
        spinner.start()
    try:
        world, rules = loaded_world()
        player_at = (0.5, float(surface_height(SEED, 0, 0) + 1), 0.5)
        world.players.join("bench", player_at)
        bare = ticks_ms(rules, player_at)
        kind = populate(world, lambda wx, wz: surface_height(SEED, wx, wz))
        full = ticks_ms(rules, player_at)
        return bare, full, kind, len(world.entities)
    finally:
        if spinner is not None:
            stop.set()
            spinner.join()


def child_frames() -> dict[str, Any]:
    """The frame with and without the entities (module notes; run in a child process)."""
    from game.engine import freeze_startup_heap, gl_finisher, start
    from game.options import Options
    from game.play import Game

    app = start(headless=True, size=SIZE)
    finish = gl_finisher()
    game = Game(Options(creative=True, view_distance=FRAME_VIEW_DISTANCE))
    freeze_startup_heap()  # as the game's runner does
    world = game.world
    turned = 0

    def frames(count: int) -> list[float]:
        nonlocal turned
        times = []
        for _ in range(count):
            turned += 1
            game.player.look(turned * 360.0 / TURN_FRAMES, 12.0)
            began = time.perf_counter()
            app.step()
            finish()
            times.append(time.perf_counter() - began)
        return times

    settle_frames = 0
    while not game.chunks.idle and settle_frames < 1800:
        frames(1)
        settle_frames += 1
    x, y, z = game.player.body.pos

    def surface(wx: int, wz: int) -> int:
        """Where one stands on a column near the player (on a tree too: stacks land there)."""
        for wy in range(math.floor(y) + 40, math.floor(y) - 40, -1):
            if world.registry.solid[world.get_block(wx, wy, wz)]:
                return wy + 1
        return math.floor(y)

    kind = populate(world, surface, (math.floor(x), math.floor(z)))
    frames(FRAME_SETTLE)
    loaded = len(world.entities)
    reference_ms = [_reference_ms()]
    timed: dict[bool, list[float]] = {True: [], False: []}
    for pair in range(FRAME_ROUNDS):
        for present in (True, False) if pair % 2 == 0 else (False, True):
            kept = None
            if not present:
                now = world.entities.clock
                kept = {
                    key: [entity.saved(now) for entity in world.entities.in_chunk(key)]
                    for key in world.entities.chunks()
                }
                for key in kept:
                    world.entities.unload(key)
            frames(FRAME_WARMUP)
            timed[present] += frames(ROUND_FRAMES)
            for key, saved in (kept or {}).items():
                world.entities.install(key, saved)
    reference_ms.append(_reference_ms())
    drawn = len(game.entity_view.rows)
    game.destroy()
    return {
        "settle_frames": settle_frames,
        "kind": kind,
        "entities": loaded,
        "drawn": drawn,  # the entities the view kept (those in view)
        "with_s": statistics.median(timed[True]),
        "without_s": statistics.median(timed[False]),
        "with_fps": len(timed[True]) / sum(timed[True]),
        "without_fps": len(timed[False]) / sum(timed[False]),
        "reference_ms": reference_ms,
    }


def frame_rows() -> list[tuple[str, str, str, str]]:
    """The frame's figures as table rows: quiet, then with one core busy."""
    rows = []
    for busy in (False, True):
        stop = multiprocessing.Event()
        spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
        if busy:
            spinner.start()
        try:
            run = _child("--frame-child", module="bench.entities")
        finally:
            if busy:
                stop.set()
                spinner.join()
        label = "one core busy" if busy else "quiet"
        with_ms, without_ms = run["with_s"] * 1000, run["without_s"] * 1000
        ratio = run["with_fps"] / run["without_fps"]
        what = f"{ITEMS} stacks + {CREATURES} {run['kind'] or '(no creature mod)'}"
        load = "/".join(f"{ms:.0f}" for ms in run["reference_ms"])
        verdict = "ok" if ratio >= FRAME_RATIO_TARGET else "over"
        rows += [
            (
                f"frame at view distance {FRAME_VIEW_DISTANCE}, no entity ({label})",
                f"median {without_ms:.2f} ms, {run['without_fps']:.1f} FPS",
                "-",
                "-",
            ),
            (
                f"frame, {what} ({run['entities']} loaded, {run['drawn']} in view; {label})",
                f"median {with_ms:.2f} ms, {run['with_fps']:.1f} FPS",
                "-",
                "-",
            ),
            (
                f"FPS with entities / without ({label})",
                f"{ratio:.3f} (medians' {without_ms / with_ms:.3f}; reference loop {load} ms)",
                f">= {FRAME_RATIO_TARGET:.2f}",
                f"{ratio / FRAME_RATIO_TARGET:.2f} ({verdict})",
            ),
        ]
    return rows


def main() -> None:
    rows = []
    if "--frames" not in sys.argv:
        for busy in (False, True):
            (bare, bare99), (full, full99), kind, count = measure(busy)
            label = "one core busy" if busy else "quiet"
            what = f"{ITEMS} stacks + {CREATURES} {kind or '(no creature mod)'}"
            rows += [
                (f"tick, no entity ({label})", f"{bare:.2f} ms (p99 {bare99:.2f})", "-", "-"),
                (
                    f"tick, {what} ({label})",
                    f"{full:.2f} ms (p99 {full99:.2f}; {count} left)",
                    f"<= {TARGET_MS:g} ms",
                    f"{TARGET_MS / full:.2f} ({'ok' if full <= TARGET_MS else 'over'})",
                ),
            ]
    rows += frame_rows()
    print_table("entities: one game tick (1/20 s, one entity step), and a frame", rows)


if __name__ == "__main__":
    if "--frame-child" in sys.argv:
        print(json.dumps(child_frames()))
    else:
        main()
