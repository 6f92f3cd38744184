"""The world's journal: a hook stopped at any moment of its writes, bulk writes included, leaves
every voxel, its data, its timer and the save state as they were; unsaved changes of every kind
mark their chunk the same way."""

from __future__ import annotations

import ctypes
import sys
import threading
from types import FrameType
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME
from world.blocks.block_type import BlockType
from world.geometry import Int3
from world.mods.guard import HookTimeout
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules

UP = Int3(0, 1, 0)


class Crops:
    """A block with data and a timer, for the writer to detach."""

    @hookimpl
    def register_blocks(self, registry: Any) -> None:
        registry.register(BlockType("crops:crop", hardness=0.0, on_timer=lambda: None))


class Writer:
    """On every place: a bulk write across chunks, single writes, data and timer writes;
    optionally stopped at its ``stop_at``-th line of world code by a HookTimeout sent as the
    watchdog sends it (an asynchronous exception, raised between two bytecodes)."""

    def __init__(self) -> None:
        self.stop_at: int | None = None
        self.lines = 0

    @hookimpl
    def on_place(self, world: Any, pos: Int3) -> None:
        self.lines = 0
        if self.stop_at is not None:
            sys.settrace(self._trace)
        try:
            cells = np.array(
                [(x, y, z) for x in range(-3, 20) for y in range(2, 5) for z in range(14, 18)],
                dtype=np.int64,
            )
            ids = np.resize(np.array([0, 1, 2, 3], dtype=np.int64), len(cells))
            world.set_blocks(cells, ids)
            for x in range(6):
                world.set_block(x, 8, 30, "base:dirt")
            world.meta(40, 1, 0)["owner"] = "kim"
            world.start_timer(40, 1, 0, 5.0)
            world.set_block(41, 1, 0, "base:stone")  # detaches the crop's data and timer
        finally:
            sys.settrace(None)

    def _trace(self, frame: FrameType, event: str, arg: object) -> Any:
        if not frame.f_code.co_filename.startswith(WORLD_DIR):
            return self._trace
        if event == "line":
            self.lines += 1
            if self.lines == self.stop_at:  # as the watchdog does: delivered between bytecodes
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(threading.get_ident()), ctypes.py_object(HookTimeout)
                )
        return self._trace


WORLD_DIR = str(__import__("world").__path__[0])


def setup() -> tuple[World, Rules, Writer]:
    writer = Writer()
    mods = load_mods(
        [], entry_points=False, plugins={"crops": Crops(), "writer": writer}, game=GAME
    )
    world = World(make_registry(mods))
    stone, crop = world.registry.id("base:stone"), world.registry.id("crops:crop")
    world.set_blocks([(x, 0, 0) for x in range(-4, 44)], stone)
    world.set_blocks([(x, 3, 15) for x in range(-3, 20)], stone)
    world.set_block(40, 1, 0, crop)
    world.set_block(41, 1, 0, crop)
    world.meta(41, 1, 0)["owner"] = "sam"
    world.start_timer(41, 1, 0, 3.0)
    world.modified.clear()  # as if just saved
    return world, Rules(world, mods), writer


def state(world: World) -> tuple[object, ...]:
    blocks = {k: c.blocks.tobytes() for k, c in world.chunks.items() if c.blocks.any()}
    data = {k: {i: dict(v) for i, v in e.items()} for k, e in world.block_data.chunks.items()}
    timers = {k: dict(t) for k, t in world.block_data.timers.items()}
    return blocks, data, timers, set(world.modified)


def place(rules: Rules, world: World) -> bool:
    hit = Hit(Int3(0, 0, 0), UP, 1.0, (0.5, 1.0, 0.5), world.get_block(0, 0, 0))
    actor = Actor.at("steve", (5.5, 1.0, 5.5), creative=True, selected="base:glass")
    return rules.place_block(hit, "base:glass", actor).done


def test_the_writer_changes_blocks_data_and_timers_when_it_is_not_stopped() -> None:
    world, rules, writer = setup()
    before = state(world)
    assert place(rules, world)
    after = state(world)
    assert after[0] != before[0] and after[1] != before[1] and after[2] != before[2]
    assert world.meta(40, 1, 0)["owner"] == "kim" and world.block_data.timer(Int3(40, 1, 0))
    assert not world.meta(41, 1, 0)  # detached with the crop
    assert writer.lines == 0  # not traced


@settings(max_examples=150, deadline=None)
@given(stop_at=st.integers(1, 2400))  # the writer runs about 2,370 lines of world code
def test_a_hook_stopped_at_any_line_of_its_writes_changes_nothing(stop_at: int) -> None:
    world, rules, writer = setup()
    before = state(world)
    writer.stop_at = stop_at
    done = place(rules, world)
    if writer.lines < stop_at:  # it ran to the end: the place stands
        assert done
        return
    assert not done
    assert state(world) == before


def test_a_bulk_write_of_400_000_voxels_stopped_by_the_watchdog_leaves_none() -> None:
    class Bulk:
        calls = 0

        @hookimpl
        def on_place(self, world: Any) -> None:
            Bulk.calls += 1
            side = np.arange(74)
            cells = np.stack(np.meshgrid(side, side + 10, side, indexing="ij"), -1).reshape(-1, 3)
            assert len(cells) > 400_000
            while True:  # until stopped: each pass writes every voxel again
                world.set_blocks(cells, "base:stone")
                world.set_blocks(cells, "base:dirt")

    mods = load_mods([], entry_points=False, plugins={"bulk": Bulk()}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    world.modified.clear()
    rules = Rules(world, mods, hook_time_limit=0.25)
    before = state(world)
    outcome_done = place(rules, world)
    assert not outcome_done and Bulk.calls == 1
    assert state(world) == before


def test_a_bulk_write_inside_a_hook_reports_its_changes_as_arrays_and_settles_none() -> None:
    class Bulk:
        @hookimpl
        def on_place(self, world: Any) -> None:
            side = np.arange(64)
            cells = np.stack(np.meshgrid(side, side + 10, side, indexing="ij"), -1).reshape(-1, 3)
            world.set_blocks(cells, "base:stone")

    mods = load_mods([], entry_points=False, plugins={"bulk": Bulk()}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    rules = Rules(world, mods)
    hit = Hit(Int3(0, 0, 0), UP, 1.0, (0.5, 1.0, 0.5), world.get_block(0, 0, 0))
    outcome = rules.place_block(hit, "base:glass", Actor.at("s", (5.5, 1.0, 5.5), creative=True))
    assert outcome.done and len(outcome.changes) == 1 + 64**3
    stone = world.registry.id("base:stone")
    assert sum(1 for c in outcome.changes if c.new == stone) == 64**3
    assert outcome.changes[0].pos == (0, 1, 0)


def test_a_transaction_cannot_open_inside_another_on_the_same_world() -> None:
    class Nested:
        error: BaseException | None = None

        @hookimpl
        def on_place(self) -> None:
            try:
                rules.tick(1.0)
            except RuntimeError as exc:
                Nested.error = exc

    mods = load_mods([], entry_points=False, plugins={"nested": Nested()}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, 1)
    rules = Rules(world, mods)
    assert place(rules, world)
    assert isinstance(Nested.error, RuntimeError)
    assert world.block_data.clock == 0.0  # the refused tick moved no clock


def test_every_kind_of_change_marks_its_chunk_unsaved_the_same_way() -> None:
    world, _, _ = setup()
    world.set_block(0, 1, 0, 1)
    assert world.modified == {(0, 0, 0)}
    world.modified.clear()
    world.meta(40, 1, 0)["owner"] = "kim"
    assert world.modified == {(2, 0, 0)}
    world.modified.clear()
    world.start_timer(40, 1, 0, 1.0)
    assert world.modified == {(2, 0, 0)}
    world.modified.clear()
    world.set_blocks([(-1, 0, 0)], 2)
    assert world.modified == {(-1, 0, 0)}


def test_the_watchdog_stop_of_a_set_block_loop_leaves_no_block() -> None:
    class Loop:
        @hookimpl
        def on_place(self, world: Any) -> None:
            x = 0
            while True:
                world.set_block(x % 200, 20 + x // 200 % 50, 0, "base:dirt")
                x += 1

    mods = load_mods([], entry_points=False, plugins={"loop": Loop()}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, 1)
    world.modified.clear()
    rules = Rules(world, mods, hook_time_limit=0.1)
    before = state(world)
    assert not place(rules, world)
    assert state(world) == before
