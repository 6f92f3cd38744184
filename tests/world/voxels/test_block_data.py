"""Per-block data and timers: kept with their block, rolled back with it, saved with its chunk."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME
from world.blocks.block_type import BlockType
from world.gen.generators import make_generator
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules
from world.save.storage import WorldStore
from world.voxels.block_data import MAX_DATA_BYTES

UP = Int3(0, 1, 0)


class Signs:
    """A mod with a sign (keeps text), a crop (a timer) and a ticking block, all logging."""

    def __init__(self) -> None:
        self.log: list[tuple[str, object]] = []

    @hookimpl
    def register_blocks(self, registry: object) -> None:
        log = self.log

        def destruct(world: object, pos: Int3) -> None:
            log.append(("destruct", dict(world.meta(*pos))))  # type: ignore[attr-defined]

        def timer(world: object, pos: Int3, elapsed: float) -> None:
            log.append(("timer", round(elapsed, 6)))
            world.set_block(*pos, "signs:sign")  # type: ignore[attr-defined]

        def tick(world: object, pos: Int3) -> None:
            log.append(("tick", pos))

        registry.register(  # type: ignore[attr-defined]
            BlockType("signs:sign", hardness=0.0, on_destruct=destruct)
        )
        registry.register(  # type: ignore[attr-defined]
            BlockType("signs:crop", hardness=0.0, properties={"age": (0, 1)}, on_timer=timer)
        )
        registry.register(  # type: ignore[attr-defined]
            BlockType("signs:ticker", hardness=0.0, on_random_tick=tick)
        )


class Failing:
    """Writes data in on_place, then raises: the whole action must be undone."""

    @hookimpl
    def on_place(self, world: object, pos: Int3) -> None:
        world.meta(*pos)["text"] = "half done"  # type: ignore[attr-defined]
        raise RuntimeError("boom")


def setup(*extra: tuple[str, object]) -> tuple[World, Rules, Signs]:
    signs = Signs()
    mods = load_mods([], entry_points=False, plugins={"signs": signs, **dict(extra)}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    return world, Rules(world, mods), signs


def actor(selected: str | None = None) -> Actor:
    return Actor.at("steve", (5.5, 1.0, 5.5), creative=True, selected=selected)


def hit(world: World, pos: tuple[int, int, int]) -> Hit:
    x, y, z = pos
    return Hit(Int3(x, y, z), UP, 1.0, (x + 0.5, y + 1.0, z + 0.5), world.get_block(x, y, z))


def test_data_is_created_on_write_checked_and_limited() -> None:
    world, _, _ = setup()
    meta = world.meta(0, 0, 0)
    assert dict(meta) == {} and not world.block_data.chunks
    meta["text"] = "hello"
    meta["count"] = 3
    meta["raw"] = b"\x00\x01"
    assert dict(world.meta(0, 0, 0)) == {"text": "hello", "count": 3, "raw": b"\x00\x01"}
    with pytest.raises(ValueError, match="'flag' must be str, int, float or bytes"):
        meta["flag"] = [1]  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"'big' .* at most 16384"):
        meta["big"] = "x" * MAX_DATA_BYTES
    del meta["text"], meta["count"], meta["raw"]
    assert not world.block_data.chunks  # nothing held for an empty mapping


def test_data_goes_with_its_block_but_stays_through_a_state_change() -> None:
    world, _, _ = setup()
    registry = world.registry
    crop = registry.id("signs:crop")
    world.set_block(1, 1, 1, crop)
    world.meta(1, 1, 1)["planted_by"] = "steve"
    world.set_block(1, 1, 1, registry.with_props(crop, age=1))  # grows: same block
    assert world.meta(1, 1, 1)["planted_by"] == "steve"
    world.set_block(1, 1, 1, registry.id("base:dirt"))  # replaced
    assert dict(world.meta(1, 1, 1)) == {}


def test_on_destruct_sees_the_data_of_the_block_being_broken() -> None:
    world, rules, signs = setup()
    world.set_block(2, 0, 0, world.registry.id("signs:sign"))
    world.meta(2, 0, 0)["text"] = "keep out"
    assert rules.break_block(hit(world, (2, 0, 0)), actor())
    assert ("destruct", {"text": "keep out"}) in signs.log
    assert dict(world.meta(2, 0, 0)) == {} and not world.block_data.detached


def test_a_failed_action_leaves_no_data_behind() -> None:
    world, rules, _ = setup(("failing", Failing()))
    outcome = rules.place_block(hit(world, (0, 0, 0)), "signs:sign", actor())
    assert not outcome
    assert world.get_block(0, 1, 0) == 0 and dict(world.meta(0, 1, 0)) == {}
    assert not world.block_data.chunks


def test_a_timer_fires_with_the_elapsed_time_and_is_dropped_with_its_block() -> None:
    world, rules, signs = setup()
    crop = world.registry.id("signs:crop")
    world.set_block(3, 0, 0, crop)
    world.set_block(4, 0, 0, crop)
    world.start_timer(3, 0, 0, 1.0)
    world.start_timer(4, 0, 0, 1.0)
    world.set_block(4, 0, 0, 0)  # its timer goes with it
    for _ in range(30):
        rules.tick(1 / 20)
    assert [e for e in signs.log if e[0] == "timer"] == [("timer", 1.0)]
    assert world.get_block(3, 0, 0) == world.registry.id("signs:sign")
    assert not world.block_data.timers


def test_a_timer_in_an_unloaded_chunk_waits_then_catches_up() -> None:
    world, rules, signs = setup()
    world.set_block(40, 0, 0, world.registry.id("signs:crop"))
    world.start_timer(40, 0, 0, 2.0)
    chunk = world.chunks.pop((2, 0, 0))  # unloaded (its data stays known to the store)
    for _ in range(100):
        rules.tick(1 / 20)  # 5 s pass
    assert not [e for e in signs.log if e[0] == "timer"]
    world.chunks[(2, 0, 0)] = chunk  # loaded again
    rules.tick(1 / 20)
    assert [e for e in signs.log if e[0] == "timer"] == [("timer", 5.05)]


def test_random_ticks_reach_the_blocks_that_declare_them() -> None:
    world, rules, signs = setup()
    ticker = world.registry.id("signs:ticker")
    for x in range(16):
        for z in range(16):
            world.set_block(x, 5, z, ticker)
    for _ in range(200):
        rules.tick(1 / 20)
    ticks = [e for e in signs.log if e[0] == "tick"]
    # 200 game ticks x 3 picks in the chunk, 256 of 4096 voxels react: about 37.5 expected.
    assert 12 < len(ticks) < 70


def test_data_and_timers_survive_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, rules, _ = setup()
    world.set_block(-20, 3, 7, world.registry.id("signs:sign"))
    world.meta(-20, 3, 7).update({"text": "hi", "n": 2, "f": 0.5, "b": b"\xff"})
    world.set_block(1, 1, 1, world.registry.id("signs:crop"))
    rules.tick(0.5)
    world.start_timer(1, 1, 1, 3.0)
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        again = store.load(setup()[0].registry, generator_factory=make_generator)
        assert dict(again.meta(-20, 3, 7)) == {"text": "hi", "n": 2, "f": 0.5, "b": b"\xff"}
        assert again.get_block(1, 1, 1) == again.registry.id("signs:crop")  # loads the chunk
        assert again.block_data.timer(Int3(1, 1, 1)).end == pytest.approx(3.5)  # type: ignore[union-attr]
        assert again.block_data.clock == pytest.approx(0.5)


actions = st.lists(
    st.tuples(
        st.sampled_from(["set", "meta", "fail", "break"]),
        st.integers(0, 3),
        st.sampled_from(["base:dirt", "signs:sign", "signs:crop", "air"]),
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(actions)
def test_data_never_outlives_its_block(steps: list[tuple[str, int, str]]) -> None:
    world, rules, _ = setup(("failing", Failing()))
    for kind, x, block in steps:
        pos = (10 + x, 0, 0)
        before = {k: dict(v) for k, v in world.block_data.chunks.items()}
        if kind == "set":
            world.set_block(*pos, world.registry.id(block))
        elif kind == "meta" and world.get_block(*pos) != 0:
            world.meta(*pos)["k"] = x
        elif kind == "fail":  # the failing mod writes data, then raises: all undone
            rules.breaker.enable("failing")  # ten failures in a row would switch it off
            world.set_block(pos[0], -1, 0, world.registry.id("base:stone"))
            before = {k: dict(v) for k, v in world.block_data.chunks.items()}
            assert not rules.place_block(hit(world, (pos[0], -1, 0)), "signs:sign", actor())
            assert {k: dict(v) for k, v in world.block_data.chunks.items()} == before
        elif kind == "break" and world.get_block(*pos) != 0:
            rules.break_block(hit(world, pos), actor())
        del before
        for key, entries in world.block_data.chunks.items():
            for index in entries:
                x0 = key[0] * 16 + index // 256
                y0 = key[1] * 16 + (index // 16) % 16
                z0 = key[2] * 16 + index % 16
                assert world.get_block(x0, y0, z0) != 0  # no data on air
        assert not world.block_data.detached


def test_a_timer_callback_that_never_returns_is_stopped_and_undone() -> None:
    import time

    from world.mods.guard import HOOK_TIME_LIMIT

    class Stuck:
        @hookimpl
        def register_blocks(self, registry: object) -> None:
            def forever(world: object, pos: Int3) -> None:
                world.set_block(*pos, "base:dirt")  # type: ignore[attr-defined]
                while True:
                    time.sleep(0.01)

            registry.register(BlockType("stuck:clock", on_timer=forever))  # type: ignore[attr-defined]

    mods = load_mods([], entry_points=False, plugins={"stuck": Stuck()}, game=GAME)
    world = World(make_registry(mods))
    rules = Rules(world, mods)
    clock = world.registry.id("stuck:clock")
    world.set_block(0, 0, 0, clock)
    world.start_timer(0, 0, 0, 0.05)
    started = time.perf_counter()
    rules.tick(0.1)
    assert time.perf_counter() - started < 10 * HOOK_TIME_LIMIT
    assert world.get_block(0, 0, 0) == clock  # its change was undone
    assert [e.mod for e in mods.errors] == ["stuck"]


def test_a_chunk_a_loader_thread_reads_brings_its_data_when_installed(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    world, _, _ = setup()
    world.set_block(3, 4, 5, world.registry.id("signs:sign"))
    world.meta(3, 4, 5)["text"] = "from the batch"
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        batch = again.generator.load_many([(0, 0, 0), (1, 0, 0)])  # type: ignore[union-attr]
        assert not again.block_data.chunks  # read, not yet installed: the world is untouched
        for key, blocks in batch.items():
            again.install_loaded(key, blocks)
        assert again.block_data.chunks[(0, 0, 0)]  # installed with its blocks, no second read
        assert again.meta(3, 4, 5)["text"] == "from the batch"


def test_infotext_is_the_text_of_a_str_or_number_cut_to_its_lines_and_width() -> None:
    from world.voxels.block_data import MAX_INFOTEXT_LINE, MAX_INFOTEXT_LINES, infotext

    assert infotext("Chest") == "Chest" and infotext(7) == "7" and infotext(2.5) == "2.5"
    assert infotext(None) == infotext(b"Chest") == ""
    long = "y" * (MAX_INFOTEXT_LINE + 1)
    assert infotext(long) == "y" * (MAX_INFOTEXT_LINE - 1) + "…"
    assert infotext("y" * MAX_INFOTEXT_LINE) == "y" * MAX_INFOTEXT_LINE
    many = "\n".join(str(i) for i in range(MAX_INFOTEXT_LINES + 3))
    lines = infotext(many).split("\n")
    assert len(lines) == MAX_INFOTEXT_LINES and lines[-1] == f"{MAX_INFOTEXT_LINES - 1}…"
    # A whole voxel's worth of newlines or of one line is cut before it is split.
    assert infotext("\n" * 16000) == "" and len(infotext("z" * 16000)) == MAX_INFOTEXT_LINE


def test_one_value_is_read_without_the_rest_and_without_creating_data() -> None:
    from world.geometry import Int3
    from world.voxels.block_data import INFOTEXT, BlockData

    data = BlockData()
    pos = Int3(1, -2, 40)
    assert data.value(pos, INFOTEXT) is None and not data.chunks
    data.write(pos, INFOTEXT, "Furnace")
    assert data.value(pos, INFOTEXT) == "Furnace" and data.value(pos, "other") is None
    assert data.value(Int3(2, -2, 40), INFOTEXT) is None


def saved_with_row(tmp_path: Path, row: str) -> Path:
    """A world whose chunk (0, 0, 0) has its blocks saved and the data row ``row`` (raw JSON)."""
    path = tmp_path / "w.sqlite"
    world, _, _ = setup()
    world.meta(0, 0, 0)["text"] = "hi"
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        conn = store._live()
        conn.execute("UPDATE block_data SET data = ? WHERE cx = 0 AND cy = 0 AND cz = 0", (row,))
        conn.commit()
    return path


@pytest.mark.parametrize(
    "row",
    [
        "[" * 100_000 + "]" * 100_000,  # nested past the parser's depth
        '{"data": 5}',
        "null",
        '{"data": {"0": {"text": "' + "x" * 100_000 + '"}}}',  # over MAX_DATA_BYTES
        '{"data": {"0": {"text": null}}}',
        '{"data": {"0": {"text": {"b64": 5}}}}',
        '{"data": {"0": {}}}',
        '{"timers": {"0": [0, -5]}}',
        '{"timers": {"0": [0, 1e308]}}',
        '{"timers": {"0": [-1, 5]}}',
        '{"timers": {"0": [0, true]}}',
        '{"data": {}, "timers": {}, "extra": 1}',
        '{"data": {"4096": {"text": "x"}}}',
        '{"data": {"007": {"text": "x"}}}',  # not as a save writes it: "7" and "007" would
        '{"data": {"+5": {"text": "x"}}}',  # name one voxel twice
    ],
    ids=lambda row: row[:40],
)
def test_a_damaged_block_data_row_is_a_save_error_naming_the_chunk(
    tmp_path: Path, row: str
) -> None:
    from world.save.format import SaveError

    path = saved_with_row(tmp_path, row)
    with WorldStore(path) as store:
        world = store.load(setup()[0].registry, generator_factory=make_generator)
        with pytest.raises(SaveError, match=r"block data of chunk \(0, 0, 0\)"):
            world.get_block(0, 0, 0)
        assert store.read_only  # a run that met damage never writes over it


def test_a_healthy_row_loads_as_saved(tmp_path: Path) -> None:
    path = saved_with_row(tmp_path, '{"data": {"0": {"text": "hi", "b": {"b64": "/w=="}}}}')
    with WorldStore(path) as store:
        world = store.load(setup()[0].registry, generator_factory=make_generator)
        assert dict(world.meta(0, 0, 0)) == {"text": "hi", "b": b"\xff"}


def test_none_values_data_on_air_and_bad_timers_are_refused_naming_the_argument() -> None:
    world, _, _ = setup()
    meta = world.meta(0, 0, 0)
    with pytest.raises(ValueError, match="'text' cannot be None"):
        meta["text"] = None  # type: ignore[assignment]
    meta["text"] = "kept"
    with pytest.raises(ValueError, match="'text' cannot be None"):
        meta["text"] = None  # type: ignore[assignment]
    assert meta["text"] == "kept"
    with pytest.raises(ValueError, match=r"\(0, 5, 0\): the voxel is air"):
        world.meta(0, 5, 0)["text"] = "on air"
    with pytest.raises(ValueError, match="the voxel is air"):
        world.start_timer(0, 5, 0, 1.0)
    assert not world.meta(0, 5, 0) and world.block_data.timer(Int3(0, 5, 0)) is None
    for seconds in (-5.0, 0.0, 1e308, math.inf, math.nan, "5", True):
        with pytest.raises(ValueError, match="seconds"):
            world.start_timer(0, 0, 0, seconds)  # type: ignore[arg-type]
    assert world.block_data.timer(Int3(0, 0, 0)) is None


def test_a_hook_s_light_reads_take_integer_voxels_only() -> None:
    from world.actions.neighbors import NeighborQueue
    from world.actions.transaction import Transaction
    from world.mods.guard import HookGuard

    world, _, _ = setup()
    mods = load_mods([], entry_points=False, game=GAME)
    view = Transaction(world, mods, HookGuard(mods.record), NeighborQueue()).view
    assert view.light_at(0, 0, 0) == (0, 0)  # no light kept
    for bad, name in ((math.inf, "wx"), ("5", "wx"), (1.5, "wx"), (2**40, "wx")):
        with pytest.raises(ValueError, match=name):
            view.light_at(bad, 0, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="wz"):
        view.light_at(0, 0, 1.5)  # type: ignore[arg-type]


def test_a_data_mapping_kept_after_its_hook_returned_cannot_write() -> None:
    kept: list[Any] = []

    class Keeper:
        @hookimpl
        def on_place(self, world: Any, pos: Int3) -> None:
            kept.append(world.meta(*pos))

    world, _, _ = setup()
    mods = load_mods([], entry_points=False, plugins={"keeper": Keeper()}, game=GAME)
    rules = Rules(world, mods)
    assert rules.place_block(hit(world, (0, 0, 0)), "base:dirt", actor())
    with pytest.raises(RuntimeError, match="over"):
        kept[0]["text"] = "later"
    assert not world.meta(0, 1, 0)
