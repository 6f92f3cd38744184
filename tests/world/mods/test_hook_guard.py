"""The hook watchdog and the guard around every hook call: a mod that loops forever, exits or
swallows the interruption is stopped, reported by name and rolled back; the game goes on."""

from __future__ import annotations

import gc
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from world import World
from world.base import GAME, default_registry
from world.geometry import Int3
from world.mods.calls import Implementation
from world.mods.guard import HOOK_TIME_LIMIT, POLL, HookGuard, HookTimeout
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.ray import Hit
from world.rules import Rules

REG = default_registry()
STONE = REG.id("base:stone")
DIRT = REG.id("base:dirt")
DT_SECONDS = 1 / 60
ROOT = Path(__file__).resolve().parents[3]


def loaded(**plugins):
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    assert mods.errors == []
    return mods


def snapshot(world):
    return {k: c.blocks.tobytes() for k, c in world.chunks.items() if c.blocks.any()}


def compute_for(seconds):
    """Busy the CPU for ``seconds`` (a hook computing, not sleeping)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def hit_at(world, block):
    return Hit(Int3(*block), Int3(0, 1, 0), 1.0, (0.0, 0.0, 0.0), world.get_block(*block))


class Forever:
    """Changes a block, then never returns from on_tick (or from on_break)."""

    def __init__(self, swallow=False):
        self.swallow = swallow
        self.ticks = 0

    def _loop(self, world):
        world.set_block(5, 5, 5, "base:dirt")
        if self.swallow == "once":
            try:
                while True:
                    pass
            except BaseException:  # the point: a mod that swallows everything
                return
        n = 0
        while True:
            try:
                n += 1
            except Exception:  # a mod's ordinary catch-all does not swallow the timeout
                continue

    @hookimpl
    def on_tick(self, world):
        self.ticks += 1
        self._loop(world)

    @hookimpl
    def on_break(self, world):
        self._loop(world)


class Counter:
    def __init__(self):
        self.ticks = 0

    @hookimpl
    def on_tick(self, world):
        self.ticks += 1
        world.set_block(0, 9, self.ticks, "base:stone")


@pytest.mark.parametrize("swallow", [False, "once"], ids=["loop", "swallowing-the-timeout"])
def test_an_endless_on_tick_is_stopped_and_changes_nothing(swallow):
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    counter = Counter()
    mods = loaded(a_forever=Forever(swallow), b_counter=counter)
    rules = Rules(world, mods)
    started = time.perf_counter()
    changes = rules.tick(1 / 60)
    elapsed = time.perf_counter() - started
    # Stopped by the watchdog (the limit counts the hook's CPU time; a busy shared machine
    # stretches the wall clock, so only "it ended" is asserted here, not how fast).
    assert elapsed < 10 * HOOK_TIME_LIMIT
    assert world.get_block(5, 5, 5) == 0  # the looping hook's change is rolled back
    assert changes == ((Int3(0, 9, 1), 0, STONE),)  # the other mod still ran
    assert [(e.mod, e.where) for e in mods.errors] == [("a_forever", "on_tick")]
    assert "ms limit" in mods.errors[0].message
    # The game goes on: the next tick runs both mods again, nothing stray is raised later.
    rules.tick(1 / 60)
    assert counter.ticks == 2
    for _ in range(200):
        sum(range(1000))
    world.set_block(0, 9, 1, 0)
    world.set_block(0, 9, 2, 0)
    assert snapshot(world) == before


def test_an_endless_hook_in_an_action_denies_it_and_restores_the_world():
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    mods = loaded(forever=Forever())
    started = time.perf_counter()
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), Actor.at("p", (9, 9, 9)))
    assert time.perf_counter() - started < 2 * HOOK_TIME_LIMIT
    assert not outcome and outcome.denied_by == "forever"
    assert "on_break" in outcome.reason and "limit" in outcome.reason
    assert snapshot(world) == before


def test_a_short_limit_is_kept_and_fast_hooks_are_never_interrupted():
    calls = []

    def quick(world):
        calls.append(1)

    mods = loaded()
    guard = HookGuard(mods.record, limit=0.05)
    impl = Implementation("quick", "on_tick", quick, ("world",))
    guard.arm()
    try:
        for _ in range(2000):
            assert guard.run(impl, {"world": None}) == (None, None)
    finally:
        guard.disarm()
    assert len(calls) == 2000 and mods.errors == []


def test_a_late_timeout_never_escapes_the_guard():
    # Hooks that end right around the deadline: whatever the watchdog does, run() returns.
    mods = loaded()
    guard = HookGuard(mods.record, limit=0.01)

    def near(world):
        compute_for(0.01)

    impl = Implementation("near", "on_tick", near, ("world",))
    guard.arm()
    try:
        for _ in range(30):
            guard.run(impl, {"world": None})
            sum(range(10_000))  # a stray pending HookTimeout would surface here
    finally:
        guard.disarm()


def test_the_watchdog_sleeps_when_no_hook_runs_and_ends_with_its_guard():
    mods = loaded()
    guard = HookGuard(mods.record)
    guard.arm()
    guard.disarm()
    thread = guard._thread
    assert thread is not None and thread.is_alive()
    guard.close()
    thread.join(2 * POLL + 1)
    assert not thread.is_alive()
    assert issubclass(HookTimeout, BaseException) and not issubclass(HookTimeout, Exception)


def test_a_limit_must_be_positive():
    with pytest.raises(ValueError, match="limit"):
        HookGuard(loaded().record, limit=0)


def test_no_watchdog_thread_without_mods():
    before = set(threading.enumerate())  # threads of earlier tests may end meanwhile: compare sets
    world = World()
    world.set_block(0, 0, 0, STONE)
    assert Rules(world).break_block(hit_at(world, (0, 0, 0)), Actor.at("p", (9, 9, 9)))
    door = world.registry.state_id("base:door")  # a block with callbacks: still no thread
    world.set_block(0, 1, 0, door)
    world.set_block(0, 2, 0, world.registry.with_props(door, half="upper"))
    assert Rules(world).use_block(hit_at(world, (0, 1, 0)), Actor.at("p", (9, 9, 9))).used
    assert set(threading.enumerate()) - before == set()


def test_a_hook_that_sleeps_forever_in_short_naps_is_stopped_too():
    class Napper:
        @hookimpl
        def on_tick(self, world):
            world.set_block(1, 1, 1, "base:dirt")
            while True:
                time.sleep(0.01)

    world = World()
    mods = loaded(napper=Napper())
    started = time.perf_counter()
    assert Rules(world, mods).tick(DT_SECONDS) == ()
    assert time.perf_counter() - started < 4 * HOOK_TIME_LIMIT + 3 * POLL
    assert world.get_block(1, 1, 1) == 0
    assert [e.mod for e in mods.errors] == ["napper"]


def test_a_check_that_loops_inside_another_hook_is_stopped_and_leaves_no_watch_behind():
    class Asker:
        @hookimpl
        def on_break(self, world, actor):
            world.set_block(7, 7, 7, "base:dirt")
            world.may_break((3, 0, 0), actor)

    class Stuck:
        @hookimpl
        def can_break(self, pos):
            while pos == (3, 0, 0):
                pass

    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(3, 0, 0, STONE)
    before = snapshot(world)
    mods = loaded(asker=Asker(), stuck=Stuck())
    rules = Rules(world, mods)
    outcome = rules.break_block(hit_at(world, (0, 0, 0)), Actor.at("p", (9, 9, 9)))
    assert not outcome and outcome.denied_by == "stuck"
    assert snapshot(world) == before
    assert rules._guard is not None and rules._guard._running == []
    placed = rules.place_block(hit_at(world, (0, 0, 0)), "base:glass", Actor.at("p", (9, 9, 9)))
    assert placed and world.get_block(0, 1, 0) == REG.id("base:glass")  # the game goes on
    assert [(e.mod, e.where) for e in mods.errors] == [("stuck", "can_break")]


def test_the_garbage_collector_running_inside_a_hook_is_not_the_hooks_time():
    # A full collection of a large heap can take longer than the limit on a slow machine, and
    # any allocation in a hook can set one off: that time is not the mod's. Here a collection
    # is made slow by a callback that computes for three limits.
    limit = 0.1

    def slow_collection(phase, info):
        if phase == "start":
            compute_for(3 * limit)

    def collects(world):
        gc.collect()

    def computes(world):
        compute_for(3 * limit)

    mods = loaded()
    guard = HookGuard(mods.record, limit=limit)
    guard.arm()
    gc.callbacks.append(slow_collection)  # after arming: the guard's clock sees it start
    try:
        tidy = Implementation("tidy", "on_tick", collects, ("world",))
        assert guard.run(tidy, {"world": None}) == (None, None)
    finally:
        gc.callbacks.remove(slow_collection)
    try:
        _result, error = guard.run(
            Implementation("busy", "on_tick", computes, ("world",)), {"world": None}
        )
    finally:
        guard.disarm()
    assert error is not None and error.mod == "busy" and "limit" in str(error)
    assert [e.mod for e in mods.errors] == ["busy"]


@pytest.mark.usefixtures("ctrl_c")
def test_ctrl_c_still_quits_after_two_guards_are_disarmed_out_of_order():
    first, second = HookGuard(loaded().record), HookGuard(loaded().record)
    first.arm()
    second.arm()
    first.disarm()  # not the last armed: its wrapper stays in the second's chain
    second.disarm()
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
        for _ in range(10_000_000):  # the handler runs between bytecodes
            pass
    first.arm()  # armed again over its own wrapper: no loop of wrappers
    first.disarm()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    first.close()
    second.close()


@pytest.mark.usefixtures("ctrl_c")
def test_a_guard_armed_on_two_threads_swaps_the_signal_handler_on_the_main_one_only():
    # The worldgen guard runs mods' on_generated hooks on the chunk loader's thread and, for a
    # chunk read in the frame, on the main thread: whichever disarms last.
    guard = HookGuard(loaded().record)
    armed, main_done, errors = threading.Event(), threading.Event(), []

    def loader():
        try:
            guard.arm()
            armed.set()
            main_done.wait(10)
            guard.disarm()  # the last: still nothing to swap from this thread
        except BaseException as exc:
            errors.append(exc)

    guard.arm()
    thread = threading.Thread(target=loader)
    thread.start()
    assert armed.wait(10)
    guard.disarm()
    main_done.set()
    thread.join(10)
    assert errors == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    guard.close()


def test_after_a_stop_the_interpreter_still_profiles_calls() -> None:
    # Cancelling a sent timeout with PyThreadState_SetAsyncExc(thread, NULL) leaves CPython
    # 3.11's eval breaker set: the next call made under sys.setprofile then spun forever (a
    # profiler, a coverage tool, a debugger all use it). The guard takes the timeout instead.
    # In a child process: the failure it guards against is a hang.
    script = """
import sys, time
from world.mods.guard import HookGuard
from world.mods.calls import Implementation

def spin():
    end = time.perf_counter() + 1.0
    while time.perf_counter() < end:
        pass

guard = HookGuard(lambda mod, hook, exc: exc, 0.05)
guard.arm()
print(guard.run(Implementation("m", "on_tick", spin, ()), {})[0])
guard.disarm()
seen = []
sys.setprofile(lambda frame, event, arg: seen.append(event))
(lambda: abs(-1))()
sys.setprofile(None)
print("profiled", "c_call" in seen)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=20, cwd=ROOT
    )
    assert done.stdout.split("\n")[:2] == ["None", "profiled True"], done.stderr
