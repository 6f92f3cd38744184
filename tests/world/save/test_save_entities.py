"""Entities in saves: written with their chunks, back when their chunk is read (lazily, through
the loader and through the worker process), an emptied chunk's row deleted, an older save's
dropped stacks turned into item entities and never lost, a damaged row refused."""

from __future__ import annotations

import json
import math
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.save.test_storage import file_snapshot, new_store, stripes
from world import World
from world.base import GAME, GAME_PATH, default_registry
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.mods.loader import load_mods
from world.mods.registration import make_registry
from world.save.format import BLOCK_DATA_SCHEMA, ENTITIES_SCHEMA, SaveError
from world.save.storage import WorldStore
from world.stream.loader import ChunkLoader
from world.stream.worker import WorkerRecipe, registry_fingerprint
from world.voxels.entities import Entity, drop_item
from world.voxels.layout import ChunkKey

WAIT_S = 60.0  # a fresh interpreter imports numpy and the base game: seconds on a busy machine


def air_factory(name: str, seed: int, registry: object) -> None:
    raise ValueError(f"no generator {name!r} in these tests")


def records(world: World, keys: list[ChunkKey] | None = None) -> list[dict[str, object]]:
    """The world's entities as a save keeps them, in a stable order (ids are the run's)."""
    now = world.block_data.clock
    chosen = [e for e in world.entities if keys is None or e.chunk in keys]
    return sorted((e.saved(now) for e in chosen), key=lambda r: json.dumps(r, default=repr))


def items(world: World) -> dict[str, int]:
    """The stacks lying in the world as item entities: item -> total count."""
    total: dict[str, int] = {}
    for entity in world.entities:
        if entity.kind == ITEM_ENTITY.name:
            name, count = entity.data["item"], entity.data["count"]
            assert isinstance(name, str) and isinstance(count, int)
            total[name] = total.get(name, 0) + count
    return total


def schema_of(path: Path) -> tuple[int, set[str], object]:
    """The file's version, tables and ``dropped`` metadata (None when it has none)."""
    conn = sqlite3.connect(path)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()
    dropped = json.loads(meta["dropped"]) if "dropped" in meta else None
    return json.loads(meta["schema_version"]), tables, dropped


def as_version_3(path: Path) -> None:
    """The file as schema 3 wrote it: no entities table."""
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE entities")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.close()


def entity_rows(path: Path) -> list[tuple[int, int, int]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT cx, cy, cz FROM entities").fetchall())
    finally:
        conn.close()


# -- save and reopen -----------------------------------------------------------------------------

values = st.one_of(
    st.text(max_size=12),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.sampled_from([math.inf, -math.inf, -0.0]),
    st.booleans(),
    st.binary(max_size=12),
)
spots = st.tuples(*[st.floats(-40.0, 40.0, allow_nan=False)] * 3)
placed = st.lists(
    st.tuples(
        st.sampled_from(["builtin:item", "mobs:sheep", "gone:removed_mod"]),
        spots,
        st.dictionaries(st.sampled_from(["a", "count", "é", "x" * 256]), values, max_size=4),
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None)
@given(first=placed, later=placed, gone=st.sets(st.integers(0, 11)))
def test_entities_come_back_after_a_reopen_exactly_as_they_were_saved(
    first: list[tuple[Any, ...]], later: list[tuple[Any, ...]], gone: set[int]
) -> None:
    """Two saves (the second after more entities came and some went), then a reopen: every
    entity is back, each field and data value with its type, and no chunk holds one too many."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.sqlite"
        with WorldStore.create(path, seed=1) as store:
            world = store.load(default_registry(), generator_factory=air_factory)
            world.block_data.clock = 1000.0
            made: list[Entity] = []
            for round_ in (first, later):
                for kind, pos, data in round_:
                    made.append(world.entities.add(kind, pos, velocity=(0.5, -2.0, 0.0), data=data))
                world.block_data.clock += 250.5  # ages count on, exactly in binary
                for n in gone:
                    if n < len(made):
                        world.entities.remove(made[n])
                store.save(world)
                assert world.modified == set()
            expected = records(world)
            chunks = {e.chunk for e in world.entities}
        with WorldStore(path, read_only=True) as store:
            again = store.load(default_registry(), generator_factory=air_factory)
            assert len(again.entities) == 0  # none before its chunk is read
            for key in chunks:
                again.chunk(*key)
            assert again.modified == set()  # loaded, not changed
            assert again.block_data.clock == world.block_data.clock
            got = records(again)
    assert len(got) == len(expected)
    for a, b in zip(got, expected, strict=True):
        assert {k: v for k, v in a.items() if k != "data"} == {
            k: v for k, v in b.items() if k != "data"
        }
        data_a, data_b = a["data"], b["data"]
        assert isinstance(data_a, dict) and isinstance(data_b, dict)
        assert [(k, type(v), repr(v)) for k, v in data_a.items()] == [
            (k, type(v), repr(v)) for k, v in data_b.items()
        ]


def test_a_worn_tool_lying_in_the_world_comes_back_as_worn(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        drop_item(world.entities, Int3(2, 1, 2), ItemStack("tools:wood_pickaxe", 1, 41))
        drop_item(world.entities, Int3(3, 1, 2), ItemStack("base:dirt", 5))
        store.save(world)
    with WorldStore(path, read_only=True) as store:
        again = store.load(default_registry(), generator_factory=air_factory)
        again.chunk(0, 0, 0)
        lying = sorted((stack_of(e) for e in again.entities), key=repr)
    assert lying == [ItemStack("base:dirt", 5), ItemStack("tools:wood_pickaxe", 1, 41)]


def test_a_chunk_whose_entities_all_went_keeps_no_row(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        sheep = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
        cow = world.entities.add("mobs:cow", (-3.0, 1.0, 3.0))
        store.save(world)
        assert entity_rows(path) == [(-1, 0, 0), (0, 0, 0)]
        world.entities.remove(sheep)
        world.entities.move(cow, (-3.0, 1.0, 20.0))  # walked out of (-1, 0, 0) into (-1, 0, 1)
        store.save(world)
        assert entity_rows(path) == [(-1, 0, 1)]
    with WorldStore(path, read_only=True) as store:
        again = store.load(default_registry(), generator_factory=air_factory)
        for key in [(0, 0, 0), (-1, 0, 0), (-1, 0, 1)]:
            again.chunk(*key)
        assert [(e.kind, e.pos) for e in again.entities] == [("mobs:cow", (-3.0, 1.0, 20.0))]


def test_an_entity_in_a_chunk_never_read_is_saved_with_its_chunks_blocks_not_air(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(5, -3, 5, 1)  # chunk (0, -1, 0): its row differs from the generator's
        world.entities.add("mobs:mole", (5.5, -10.0, 5.5))
        store.save(world)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        assert not world.is_loaded(0, -1, 0) and not world.is_loaded(0, -2, 0)
        world.entities.add("mobs:mole", (6.5, -10.0, 5.5))  # a mod's add, chunk not read
        world.entities.add("mobs:mole", (6.5, -20.0, 5.5))  # in (0, -2, 0), never saved
        store.save(world)
        assert world.modified == set()
    with WorldStore(path, read_only=True) as store:
        again = store.load(default_registry(), generator_factory=stripes)
        assert again.get_block(5, -3, 5) == 1  # the saved edit, not air over it
        assert sorted(e.pos for e in again.entities) == [(5.5, -10.0, 5.5), (6.5, -10.0, 5.5)]
        generated = stripes("stripes", 7, default_registry())(0, -2, 0)
        np.testing.assert_array_equal(again.chunk_blocks(0, -2, 0), generated)  # not air
        assert len(again.entities) == 3


def test_a_version_3_file_moves_up_only_when_a_save_writes_an_entity(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.set_block(0, 0, 0, 1)
        store.save(world)
    as_version_3(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        sheep = world.entities.add("mobs:sheep", (0.5, 1.0, 0.5))
        world.entities.remove(sheep)  # its chunk holds none: nothing to write or delete
        store.save(world)
        version, tables, _ = schema_of(path)
        assert version == BLOCK_DATA_SCHEMA and "entities" not in tables
        world.entities.add("mobs:sheep", (0.5, 1.0, 0.5))
        store.save(world)
        assert schema_of(path)[0] == ENTITIES_SCHEMA and entity_rows(path) == [(0, 0, 0)]


# -- through the loader ----------------------------------------------------------------------------


def test_entities_come_back_with_their_chunk_through_the_loader_after_an_unload(
    tmp_path: Path,
) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.chunk(0, 0, 0)
        sheep = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0), data={"wool": True})
        world.entities.add("mobs:sheep", (-30.0, -5.0, 3.0))  # a generated chunk, never edited
        store.save(world)
        before = records(world)
        for key in [(0, 0, 0), (-2, -1, 0)]:
            assert world.unload_chunk(*key)
        assert len(world.entities) == 0 and sheep.removed
        loader = ChunkLoader(world.generator, threaded=False)
        loader.request([(0, 0, 0), (-2, -1, 0), (5, 0, 5)])
        while loader.in_flight:
            loader.pump()
            for key, blocks, _ in loader.take():
                assert world.install_loaded(key, blocks)
        assert records(world) == before and world.modified == set()
        assert world.entities.in_chunk((0, 0, 0))[0].data == {"wool": True}


def test_a_chunk_the_main_thread_read_meanwhile_keeps_its_entities_and_the_batchs_are_dropped(
    tmp_path: Path,
) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
        store.save(world)
        assert world.unload_chunk(0, 0, 0)
        loader = ChunkLoader(world.generator, threaded=False)
        loader.request([(0, 0, 0)])
        loader.pump()  # read with its entity, not installed yet
        world.chunk(0, 0, 0)  # the main thread reads it itself: the entity comes back
        sheep = world.entities.in_chunk((0, 0, 0))
        world.entities.move(sheep[0], (4.0, 1.0, 3.0))
        for key, blocks, _ in loader.take():
            assert not world.install_loaded(key, blocks)
        assert [e.pos for e in world.entities] == [(4.0, 1.0, 3.0)]  # one, as moved


def test_a_worker_process_opened_before_the_first_entity_was_saved_reads_it(
    tmp_path: Path,
) -> None:
    """The worker's own store opened a version 3 file; the game's save moved it to version 4
    meanwhile: the worker finds the new table, and the chunk comes back with its entity."""
    path = tmp_path / "w.sqlite"
    WorldStore.create(path, seed=1).close()
    as_version_3(path)
    registry = make_registry(load_mods((), entry_points=False, game=GAME))
    with WorldStore(path) as store:
        world = store.load(registry, generator_factory=air_factory)
        recipe = WorkerRecipe(
            mods_dirs=(),
            entry_points=False,
            save=str(path),
            generator=None,
            seed=0,
            fingerprint=registry_fingerprint(registry),
            game=GAME_PATH,
        )
        loader = ChunkLoader(world.generator, worker=recipe)
        try:
            loader.start_worker()
            deadline = time.monotonic() + WAIT_S
            while loader.worker is not None and not loader.worker.ready:
                assert time.monotonic() < deadline, "the worker never said it was ready"
                loader.take()
                time.sleep(0.02)
            assert loader.worker is not None, "the worker was given up"
            world.set_block(1, 1, 1, 1)
            world.entities.add("mobs:sheep", (3.0, 1.0, 3.0), data={"tag": b"\x00\xff"})
            store.save(world)  # version 4 now
            assert world.unload_chunk(0, 0, 0)
            loader.request([(0, 0, 0)])
            deadline = time.monotonic() + WAIT_S
            while loader.in_flight:
                assert time.monotonic() < deadline, "the loader never finished"
                loader.wait(0.05)
                for key, blocks, _ in loader.take():
                    assert world.install_loaded(key, blocks)
            assert loader.worker is not None and loader.worker.ready  # the worker read it
        finally:
            loader.close()
        assert world.get_block(1, 1, 1) == 1
        assert [(e.kind, e.pos, e.data) for e in world.entities] == [
            ("mobs:sheep", (3.0, 1.0, 3.0), {"tag": b"\x00\xff"})
        ]


# -- an older save's dropped stacks ----------------------------------------------------------------

OLD_DROPPED = [[1, 2, 3, "base:log", 7], [-20, 5, 40, "gone:amber", 3], [1, 2, 3, "base:log", 64]]


def old_save_with_dropped(path: Path) -> None:
    """A schema 3 file whose last save kept three stacks in its ``dropped`` metadata."""
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.set_block(1, 1, 3, 1)  # in (0, 0, 0), under the first stacks
        store.save(world)
    as_version_3(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('dropped', ?)", (json.dumps(OLD_DROPPED),)
        )
    conn.close()


def test_an_older_saves_dropped_stacks_load_as_item_entities_and_are_saved_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    old_save_with_dropped(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        assert items(world) == {"base:log": 71, "gone:amber": 3}
        assert world.modified == {(0, 0, 0), (-2, 0, 2)}  # to be saved with their chunks
        at = sorted(e.pos for e in world.entities)
        assert at == [(-19.5, 5.25, 40.5), (1.5, 2.25, 3.5), (1.5, 2.25, 3.5)]
        store.save(world)
    version, _, dropped = schema_of(path)
    assert version == ENTITIES_SCHEMA and dropped is None  # written as entities, the key gone
    for _ in range(2):  # opened again and again: never made twice
        with WorldStore(path) as store:
            world = store.load(default_registry(), generator_factory=air_factory)
            assert len(world.entities) == 0 and world.modified == set()
            world.chunk(0, 0, 0)
            world.chunk(-2, 0, 2)
            assert items(world) == {"base:log": 71, "gone:amber": 3}
            assert world.get_block(1, 1, 3) == 1  # its chunk's blocks were saved with them
            store.save(world)


def test_dropped_stacks_picked_up_before_the_first_save_are_gone_for_good(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    old_save_with_dropped(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        for entity in world.entities:
            world.entities.remove(entity)  # into the player's inventory
        store.save(world)
    assert schema_of(path)[2] is None
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.chunk(0, 0, 0)
        world.chunk(-2, 0, 2)
        assert items(world) == {}


def test_a_failed_save_keeps_the_dropped_stacks_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    old_save_with_dropped(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TRIGGER fail BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'x'); END"
        )
    conn.close()
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        with pytest.raises(SaveError, match="previous save is intact"):
            store.save(world)
        assert world.modified == {(0, 0, 0), (-2, 0, 2)}
    assert schema_of(path)[2] == OLD_DROPPED


# -- damage ----------------------------------------------------------------------------------------

BAD_ROWS = {
    "not_json": "[{",
    "empty": "[]",
    "wrong_chunk": json.dumps(
        [
            {
                "kind": "mobs:sheep",
                "pos": [17.0, 1.0, 3.0],
                "velocity": [0, 0, 0],
                "yaw": 0,
                "born": 0,
                "data": {},
            }
        ]
    ),
    "bad_value": json.dumps(
        [
            {
                "kind": "mobs:sheep",
                "pos": [1.0, 1.0, 3.0],
                "velocity": [0, 0, 0],
                "yaw": 0,
                "born": 0,
                "data": {"k": None},
            }
        ]
    ),
}


@pytest.mark.parametrize("batch", [False, True])
@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_a_damaged_entities_row_is_a_save_error_naming_the_file_and_the_chunk(
    tmp_path: Path, case: str, batch: bool
) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.entities.add("mobs:sheep", (1.0, 1.0, 3.0))
        store.save(world)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE entities SET data = ?", (BAD_ROWS[case],))
    conn.close()
    before = file_snapshot(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        damaged = r"the entities of chunk \(0, 0, 0\) are damaged"
        with pytest.raises(SaveError, match=damaged) as err:
            if batch:
                world.generator.load_many([(0, 0, 0)])  # type: ignore[union-attr]
            else:
                world.chunk(0, 0, 0)
        assert err.value.path == path and str(path) in str(err.value)
        assert len(world.entities) == 0  # no entity of it loads
        assert store.read_only  # the run that met it never writes the file
        with pytest.raises(SaveError, match="not saved"):
            store.save(world)
    assert file_snapshot(path) == before


def test_damaged_dropped_metadata_is_a_save_error(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    old_save_with_dropped(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '[[1, 2, 3, \"base:log\", 0]]' WHERE key = 'dropped'")
    conn.close()
    with WorldStore(path) as store, pytest.raises(SaveError, match="the dropped stacks"):
        store.load(default_registry(), generator_factory=air_factory)
