"""Tests for the smaller holes in saves: odd paths, write protection, interrupted creation,
coordinates beyond the world limit, and per-world mod storage in the file."""

from __future__ import annotations

import json
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.save.codec import CHUNK_KEY_RANGE, chunk_key
from world.save.format import (
    BLOCK_DATA_SCHEMA,
    ENTITIES_SCHEMA,
    MOD_STORAGE_SCHEMA,
    SCHEMA_VERSION,
    SaveError,
    remove_stale_temporaries,
)
from world.save.meta import PlayerState
from world.save.storage import WorldStore
from world.validate import WORLD_LIMIT
from world.voxels.mod_storage import MAX_KEY


def snapshot(path: Path) -> tuple[bytes, bool, bool]:
    return path.read_bytes(), Path(f"{path}-wal").exists(), Path(f"{path}-shm").exists()


def air_factory(name: str, seed: int, registry: object) -> None:
    raise ValueError(f"no generator {name!r} in these tests")


def saved_world(path: Path) -> None:
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.set_block(1, 2, 3, 1)
        store.save(world, PlayerState(position=(1.0, 2.0, 3.0)))


# -- paths that are not world files ---------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("read_only", [False, True])
def test_a_fifo_is_refused_at_once_and_never_opened(tmp_path: Path, read_only: bool) -> None:
    path = tmp_path / "w.sqlite"
    os.mkfifo(path)
    outcome: list[BaseException | None] = []

    def open_it() -> None:
        try:
            WorldStore(path, read_only=read_only)
        except BaseException as exc:
            outcome.append(exc)
        else:
            outcome.append(None)

    thread = threading.Thread(target=open_it, daemon=True)
    thread.start()
    thread.join(timeout=5)
    if thread.is_alive():  # unblock the hung open so the test run can end
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("opening a FIFO as a world hung")
    assert len(outcome) == 1 and isinstance(outcome[0], SaveError)
    assert "not a regular file" in str(outcome[0]) and str(path) in str(outcome[0])
    with pytest.raises(SaveError, match="already exists"):
        WorldStore.create(path)


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="is a folder"):
        WorldStore(tmp_path)


def protect(path: Path) -> None:
    """Make `path` unwritable for this process: chmod, or (root ignores modes) chattr +i."""
    path.chmod(0o444)
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("running as root on a filesystem without chattr +i")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_write_protected_world_is_refused_for_writing_up_front_and_opens_read_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    saved_world(path)
    before = snapshot(path)
    protect(path)
    try:
        with pytest.raises(SaveError, match=r"is write-protected.*read-only") as err:
            WorldStore(path)
        assert err.value.path == path
        with WorldStore(path, read_only=True) as store:
            world = store.load(default_registry(), generator_factory=air_factory)
            assert world.get_block(1, 2, 3) == 1
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=False)
    assert snapshot(path) == before


# -- interrupted creation -------------------------------------------------------------------------


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_create_removes_temporaries_of_dead_processes_and_keeps_live_ones(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    dead = [
        tmp_path / f".w.sqlite.{dead_pid()}.0badf00d.tmp",
        tmp_path / f".w.sqlite.{dead_pid()}.0badf00d.tmp-wal",
    ]
    live = tmp_path / f".w.sqlite.{os.getpid()}.12345678.tmp"
    other = tmp_path / f".other.sqlite.{dead_pid()}.12345678.tmp"
    for leftover in (*dead, live, other):
        leftover.write_bytes(b"half a world")
    WorldStore.create(path, seed=1).close()
    names = {p.name for p in tmp_path.iterdir()}
    assert not {p.name for p in dead} & names
    assert {live.name, other.name, "w.sqlite"} <= names
    assert remove_stale_temporaries(tmp_path / "other.sqlite") == [other]


def test_an_interrupted_create_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("world.save.format.os.link", interrupted)
    with pytest.raises(KeyboardInterrupt):
        WorldStore.create(tmp_path / "w.sqlite", seed=1)
    assert list(tmp_path.iterdir()) == []


# -- the world limit ------------------------------------------------------------------------------


@pytest.mark.parametrize("column", ["cx", "cy", "cz"])
@pytest.mark.parametrize("value", [CHUNK_KEY_RANGE[1] + 1, CHUNK_KEY_RANGE[0] - 1, 2**62, -(2**63)])
def test_a_saved_chunk_key_outside_the_world_is_a_save_error_and_the_file_is_kept(
    tmp_path: Path, column: str, value: int
) -> None:
    path = tmp_path / "w.sqlite"
    saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE chunks SET {column} = ?", (value,))
    conn.close()
    before = snapshot(path)
    with WorldStore(path) as store:
        with pytest.raises(SaveError, match="outside the world") as err:
            store.verify()
        assert str(path) in str(err.value)
        with pytest.raises(SaveError, match="outside the world"):
            list(store.chunk_keys())
        assert store.read_only
    assert snapshot(path) == before


def test_the_chunk_key_range_is_exactly_the_voxels_within_the_world_limit() -> None:
    low, high = CHUNK_KEY_RANGE
    assert low == (-WORLD_LIMIT + 1) // 16 and high == (WORLD_LIMIT - 1) // 16
    assert chunk_key(low, high, 0) == (low, high, 0)
    for bad in (low - 1, high + 1, True, 1.0, "1", None):
        with pytest.raises(ValueError, match="outside the world"):
            chunk_key(0, bad, 0)


def test_a_modified_chunk_beyond_the_limit_is_a_save_error_not_an_overflow(tmp_path: Path) -> None:
    world = World(default_registry())
    world.modified.add((2**70, 0, 0))  # as a buggy caller could; the public API refuses it
    with WorldStore(tmp_path / "w.sqlite") as store:
        with pytest.raises(SaveError, match="outside the world"):
            store.save(world)
        assert (2**70, 0, 0) in world.modified  # given back, as every failed save does


# -- per-world mod storage ------------------------------------------------------------------------

values = st.one_of(
    st.text(max_size=40),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.sampled_from([math.nan, -0.0, math.inf]),
    st.booleans(),
    st.binary(max_size=40),
)
stores = st.dictionaries(
    st.sampled_from(["protection", "counter", "x"]),
    st.dictionaries(st.text(min_size=1, max_size=MAX_KEY), values, min_size=1, max_size=5),
    max_size=3,
)


def same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or (a != a and b != b))
    return type(a) is type(b) and a == b


@settings(max_examples=40, deadline=None)
@given(data=stores, later=stores)
def test_mod_storage_round_trips_every_value_type_per_mod(data: dict, later: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.sqlite"
        with WorldStore.create(path, seed=1) as store:
            world = store.load(default_registry(), generator_factory=air_factory)
            for round_data in (data, later):
                world.mod_storage.restore(round_data)
                world.mod_storage.modified = True
                store.save(world)
                assert not world.mod_storage.modified
        with WorldStore(path, read_only=True) as store:
            loaded = store.load(default_registry(), generator_factory=air_factory)
            got = loaded.mod_storage.snapshot()
        assert got.keys() == {m for m, items in later.items() if items}
        for mod, items in later.items():
            assert got[mod].keys() == items.keys()
            assert all(same(got[mod][k], v) for k, v in items.items()), (mod, got[mod], items)
        assert not loaded.mod_storage.modified


def test_a_string_with_a_lone_surrogate_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.mod_storage.for_mod("m")["k"] = "a\udcffb"
        store.save(world)
    with WorldStore(path) as store:
        loaded = store.load(default_registry(), generator_factory=air_factory)
        assert loaded.mod_storage.for_mod("m")["k"] == "a\udcffb"


BAD_MOD_ROWS = {
    "wrong_kind": ("m", "k", "int", "text"),
    "unknown_kind": ("m", "k", "pickle", b"\x80"),
    "bool_2": ("m", "k", "bool", 2),
    "short_float": ("m", "k", "float", b"\x00\x01"),
    "empty_mod": ("", "k", "int", 1),
    "empty_key": ("m", "", "int", 1),
    "long_key": ("m", "k" * (MAX_KEY + 1), "int", 1),
}


@pytest.mark.parametrize("case", sorted(BAD_MOD_ROWS))
def test_a_corrupt_mod_storage_row_is_a_save_error_and_the_file_is_kept(
    tmp_path: Path, case: str
) -> None:
    path = tmp_path / "w.sqlite"
    saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO mod_storage VALUES (?, ?, ?, ?)", BAD_MOD_ROWS[case])
    conn.close()
    before = snapshot(path)
    for read_only in (False, True):
        with pytest.raises(SaveError, match="damaged mod storage") as err:
            WorldStore(path, read_only=read_only)
        assert str(path) in str(err.value)
    assert snapshot(path) == before


def make_version_1(path: Path) -> None:
    """A file as schema 1 wrote it: no mod_storage table."""
    saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE mod_storage")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.close()


def schema_of(path: Path) -> tuple[int, bool]:
    conn = sqlite3.connect(path)
    try:
        version = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        )
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    return version, "mod_storage" in tables


def test_a_version_1_file_opens_and_moves_to_version_2_only_when_mods_store_something(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    make_version_1(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        assert world.mod_storage.snapshot() == {} and world.get_block(1, 2, 3) == 1
        world.set_block(0, 0, 0, 1)
        store.save(world)
    assert schema_of(path) == (1, False)  # still readable by the Blockpick that wrote it
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.mod_storage.for_mod("protection")["areas"] = b"\x01\x02"
        store.save(world)
    assert schema_of(path) == (MOD_STORAGE_SCHEMA, True)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        assert world.mod_storage.for_mod("protection")["areas"] == b"\x01\x02"
        world.meta(1, 2, 3)["owner"] = "steve"  # block data: the next version's table
        store.save(world)
    assert schema_of(path)[0] == BLOCK_DATA_SCHEMA  # not yet the entities' version
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        assert world.meta(1, 2, 3)["owner"] == "steve"
        world.entities.add("mobs:sheep", (1.5, 2.0, 3.5))  # an entity: the next version's table
        store.save(world)
    assert schema_of(path)[0] == ENTITIES_SCHEMA == SCHEMA_VERSION
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        assert world.meta(1, 2, 3)["owner"] == "steve"
        world.chunk(0, 0, 0)
        assert [e.kind for e in world.entities] == ["mobs:sheep"]


def test_a_version_2_file_without_its_mod_storage_table_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE mod_storage")
    conn.close()
    with pytest.raises(SaveError, match="no mod_storage table"):
        WorldStore(path)


def test_a_failed_save_keeps_mod_storage_marked(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.mod_storage.for_mod("m")["k"] = 1
        world.modified.add((2**70, 0, 0))
        with pytest.raises(SaveError):
            store.save(world)
        assert world.mod_storage.modified
        world.modified.discard((2**70, 0, 0))
        store.save(world)
        assert not world.mod_storage.modified


def test_a_version_1_file_given_block_data_first_moves_up_with_every_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    make_version_1(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=air_factory)
        world.meta(1, 2, 3)["owner"] = "steve"  # block data before any mod storage
        store.save(world)
    assert schema_of(path) == (BLOCK_DATA_SCHEMA, True)
    with WorldStore(path) as store:  # it opens again
        world = store.load(default_registry(), generator_factory=air_factory)
        assert world.meta(1, 2, 3)["owner"] == "steve"
