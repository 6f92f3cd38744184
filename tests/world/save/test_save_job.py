"""Tests for world.save.job: a save copied on the playing thread and written on another loses
no edit, whatever is edited while it is written and however it ends."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.save.test_storage import new_store, stripes
from world import World
from world.base import default_registry
from world.save.format import SaveError
from world.save.job import SaveJob
from world.save.storage import WorldStore


def saved_blocks(path: Path, keys: set[tuple[int, int, int]]) -> dict[tuple[int, int, int], bytes]:
    """The blocks of ``keys`` as the file holds them (a second, read-only store)."""
    with WorldStore(path, read_only=True) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        return {key: world.chunk_blocks(*key).tobytes() for key in keys}


def test_an_edit_made_while_a_save_is_written_stays_marked_for_the_next(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 1)  # chunk (0, 0, 0)
        world.set_block(40, 5, 0, 1)  # chunk (2, 0, 0)
        job = store.prepare_save(world)
        assert world.modified == {(0, 0, 0), (2, 0, 0)}  # copying unmarks nothing
        world.set_block(40, 6, 0, 2)  # edited after the copy
        writer = threading.Thread(target=store.write, args=(job,))
        writer.start()
        writer.join()
        job.settle(world)
        assert world.modified == {(2, 0, 0)}
        # The file holds the copy, not the later edit; the next save brings that.
        with WorldStore(path, read_only=True) as reader:
            saved = reader.load(default_registry(), generator_factory=stripes)
            assert (saved.get_block(0, 5, 0), saved.get_block(40, 5, 0)) == (1, 1)
            assert saved.get_block(40, 6, 0) == 0
        store.save(world)
        assert world.modified == set()
    assert saved_blocks(path, {(2, 0, 0)})[(2, 0, 0)] == world.chunk_blocks(2, 0, 0).tobytes()


def test_a_chunk_edited_back_to_what_was_written_is_unmarked(tmp_path: Path) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(3, 3, 3, 1)
        job = store.prepare_save(world)
        world.set_block(3, 3, 3, 2)
        world.set_block(3, 3, 3, 1)
        store.write(job)
        job.settle(world)
        assert world.modified == set()


def test_a_failed_write_unmarks_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        store.save(world)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TRIGGER fail BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'x'); END"
        )
    conn.close()
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 1)
        world.meta(0, 5, 0)["owner"] = "sam"
        world.mod_storage.for_mod("farm")["crops"] = 3
        job = store.prepare_save(world)
        with pytest.raises(SaveError, match="previous save is intact"):
            store.write(job)
        assert world.modified == {(0, 0, 0)}
        assert world.mod_storage.modified


def test_a_chunk_whose_data_changed_while_written_stays_marked(tmp_path: Path) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 1)
        world.set_block(20, 5, 0, 1)
        world.meta(0, 5, 0)["owner"] = "sam"
        world.meta(20, 5, 0)["owner"] = "kim"
        world.mod_storage.for_mod("farm")["crops"] = 3
        job = store.prepare_save(world)
        world.meta(20, 5, 0)["owner"] = "lee"
        world.mod_storage.for_mod("farm")["crops"] = 4
        store.write(job)
        job.settle(world)
        assert world.modified == {(1, 0, 0)}  # its data changed since the copy: still unsaved
        assert world.mod_storage.modified
        store.save(world)
        assert not world.modified and not world.mod_storage.modified


def test_a_chunk_whose_entities_changed_while_written_stays_marked_and_time_alone_changes_none(
    tmp_path: Path,
) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        still = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
        walker = world.entities.add("mobs:sheep", (20.0, 1.0, 3.0))
        job = store.prepare_save(world)
        world.block_data.clock += 60.0  # a minute passes: ages change, rows do not
        world.entities.move(walker, (21.0, 1.0, 3.0))
        store.write(job)
        job.settle(world)
        assert world.modified == {(1, 0, 0)}  # the walker's chunk: moved since the copy
        assert still.chunk == (0, 0, 0)
        store.save(world)
        assert world.modified == set()


def test_a_chunk_an_entity_left_and_came_back_to_is_unmarked_when_it_reads_the_same(
    tmp_path: Path,
) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        first = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
        world.entities.add("mobs:cow", (4.0, 1.0, 3.0))
        job = store.prepare_save(world)
        world.entities.move(first, (30.0, 1.0, 3.0))  # out, and back: indexed after the cow
        world.entities.move(first, (3.0, 1.0, 3.0))
        store.write(job)
        job.settle(world)
        assert (0, 0, 0) not in world.modified


def test_a_chunk_in_a_save_being_written_cannot_be_forgotten(tmp_path: Path) -> None:
    with new_store(tmp_path / "w.sqlite") as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 1)
        job = store.prepare_save(world)
        assert not world.unload_chunk(0, 0, 0)  # still marked: the streaming keeps it
        store.write(job)
        job.settle(world)
        assert world.unload_chunk(0, 0, 0)


def test_a_job_must_be_a_save_job(tmp_path: Path) -> None:
    with new_store(tmp_path / "w.sqlite") as store, pytest.raises(ValueError, match="SaveJob"):
        store.write("everything")  # type: ignore[arg-type]


# Steps: edit a voxel (x, y, z in two chunks' worth along x, block), copy a save, write the copy
# (on a thread, edits racing it), settle the written copy, fail the next write.
step = st.one_of(
    st.tuples(st.just("edit"), st.integers(0, 31), st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.just("take")),
    st.tuples(st.just("write")),
    st.tuples(st.just("settle")),
)


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(step, max_size=30))
def test_whatever_the_order_every_chunk_is_saved_or_still_marked(
    steps: list[tuple[object, ...]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("jobs") / "w.sqlite"
    with new_store(path) as store:
        world: World = store.load(default_registry(), generator_factory=stripes)
        job: SaveJob | None = None
        written: SaveJob | None = None
        edits = iter(range(10**6))
        for action, *args in steps:
            if action == "edit":
                x, y, block = (int(a) for a in args)  # type: ignore[call-overload]
                world.set_block(x, y, next(edits) % 4, block)
            elif action == "take" and job is None and written is None:
                job = store.prepare_save(world)
            elif action == "write" and job is not None:
                # An edit racing the write, in chunk (1, 0, 0), a new block each time.
                block = world.get_block(17, 3, 3) % 3 + 1
                racer = threading.Thread(target=world.set_block, args=(17, 3, 3, block))
                racer.start()
                store.write(job)
                racer.join()
                written, job = job, None
            elif action == "settle" and written is not None:
                written.settle(world)
                written = None
            # The invariant: every chunk in memory is either marked or saved as it is now
            # (a copy taken but not settled unmarks nothing yet).
            keys = set(world.chunks)
            on_file = saved_blocks(path, keys)
            for key in keys - world.modified:
                assert on_file[key] == world.chunk_blocks(*key).tobytes(), key
        if written is not None:
            written.settle(world)
        store.save(world)
        assert world.modified == set()
        expected = {key: world.chunk_blocks(*key).tobytes() for key in world.chunks}
    assert saved_blocks(path, set(expected)) == expected
