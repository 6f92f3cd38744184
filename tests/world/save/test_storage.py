"""Tests for world.save.storage: saves that round-trip, survive kills, and refuse bad files
untouched."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from tests.world.save import storage_worker
from world import World
from world.base import default_registry
from world.base.blocks import BASE_BLOCKS
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.gen.generators import make_generator
from world.save.codec import CHUNK_FORMAT_ZLIB
from world.save.format import SCHEMA_VERSION, SaveError, placeholder_name
from world.save.lock import WorldLocked
from world.save.meta import PlayerState
from world.save.storage import WorldStore
from world.tiles import MISSING_TILE
from world.voxels.layout import CHUNK, CHUNK_VOLUME, ChunkKey

N_BASE = len(default_registry())


class StripeGenerator:
    """A tiny named generator: seeded ground below y = 0, air above."""

    name = "stripes"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        if cy >= 0:
            return None
        rng = np.random.default_rng([self.seed & 0xFFFF, cx + 999, cy + 999, cz + 999])
        return rng.integers(1, 4, CHUNK_VOLUME).astype(np.uint16)


def stripes(name: str, seed: int, registry: BlockRegistry) -> StripeGenerator:
    if name != "stripes":
        raise ValueError(f"unknown generator {name!r}")
    return StripeGenerator(seed)


def new_store(path: Path, seed: int = 7) -> WorldStore:
    return WorldStore.create(path, seed=seed, generator="stripes")


def mod_registry(*, reverse: bool = False) -> BlockRegistry:
    """Base blocks plus two mod blocks; `reverse` registers everything in the opposite order."""
    blocks = [*BASE_BLOCKS, BlockType("testmod:ruby"), BlockType("testmod:jade")]
    registry = BlockRegistry()
    for block in reversed(blocks) if reverse else blocks:
        registry.register(block)
    return registry


def names_at(world: World, xyz: NDArray[np.int64]) -> list[str]:
    return [world.registry.name(int(i)) for i in world.get_blocks(xyz)]


def file_snapshot(path: Path) -> tuple[bytes, bool, bool]:
    return path.read_bytes(), Path(f"{path}-wal").exists(), Path(f"{path}-shm").exists()


def add_write_log(path: Path) -> None:
    """Triggers in the file itself record every chunk row written, whatever the store does."""
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE write_log (cx INTEGER, cy INTEGER, cz INTEGER);
            CREATE TRIGGER log_insert AFTER INSERT ON chunks
                BEGIN INSERT INTO write_log VALUES (new.cx, new.cy, new.cz); END;
            CREATE TRIGGER log_update AFTER UPDATE ON chunks
                BEGIN INSERT INTO write_log VALUES (new.cx, new.cy, new.cz); END;
            """
        )
    conn.close()


def take_write_log(path: Path) -> list[ChunkKey]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT cx, cy, cz FROM write_log").fetchall()
        conn.execute("DELETE FROM write_log")
        conn.commit()
    finally:
        conn.close()
    return sorted((cx, cy, cz) for cx, cy, cz in rows)


# -- round trips -------------------------------------------------------------------------------

coord = st.integers(-40, 39)
edit = st.tuples(coord, coord, coord, st.integers(0, N_BASE - 1))


@settings(max_examples=25, deadline=None)
@given(
    rounds=st.lists(st.lists(edit, max_size=40), min_size=1, max_size=3),
    seed=st.integers(-(2**63), 2**63 - 1),
    yaw=st.floats(-720, 720),
)
def test_random_worlds_round_trip(
    rounds: list[list[tuple[int, int, int, int]]], seed: int, yaw: float
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.sqlite"
        expected: dict[tuple[int, int, int], int] = {}
        new_store(path, seed).close()
        for n, edits in enumerate(rounds):
            with WorldStore(path) as store:
                world = store.load(default_registry(), generator_factory=stripes)
                for wx, wy, wz, block_id in edits:
                    world.set_block(wx, wy, wz, block_id)
                    expected[(wx, wy, wz)] = block_id
                store.save(world, PlayerState(position=(n, -1.5, 2.0), yaw=yaw))
        with WorldStore(path) as store:
            loaded = store.load(default_registry(), generator_factory=stripes)
            assert store.info.seed == seed
            assert store.player == PlayerState(position=(len(rounds) - 1, -1.5, 2.0), yaw=yaw)
            # Brute-force reference: the last edit of each voxel, else the generator's block.
            generator = StripeGenerator(seed)
            by_chunk: dict[ChunkKey, list[tuple[int, int]]] = {}
            for (wx, wy, wz), block_id in expected.items():
                assert loaded.get_block(wx, wy, wz) == block_id
                idx = (wx & 15) * 256 + (wy & 15) * 16 + (wz & 15)
                by_chunk.setdefault((wx >> 4, wy >> 4, wz >> 4), []).append((idx, block_id))
            span = range(-3, 3)  # every chunk an edit can reach, negative ones included
            for key in [(cx, cy, cz) for cx in span for cy in span for cz in span]:
                reference = generator(*key)
                reference = np.zeros(CHUNK_VOLUME, np.uint16) if reference is None else reference
                for idx, block_id in by_chunk.get(key, []):
                    reference[idx] = block_id
                np.testing.assert_array_equal(
                    loaded.chunk_blocks(*key), reference, err_msg=f"chunk {key}"
                )


def test_only_modified_chunks_are_written(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    new_store(path).close()
    add_write_log(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        for n in range(10):
            world.set_block(n * 16 - 80, 5, 3, 1)
        world.get_block(0, -40, 0)  # generated, not modified: never written
        assert store.save(world) == 10
        assert world.modified == set()
    assert take_write_log(path) == sorted((n - 5, 0, 0) for n in range(10))
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        assert list(world.loaded_keys()) == []  # chunks load lazily
        world.get_block(-80, 5, 3)  # lazily loaded, not modified
        world.set_block(-64, 6, 3, 2)
        world.set_blocks(np.array([[-16, -1, 0], [-15, -1, 0]]), np.array([5, 6]))
        assert store.save(world) == 2
        assert store.save(world) == 0
        assert sorted(store.chunk_keys()) == sorted(
            [*((n - 5, 0, 0) for n in range(10)), (-1, -1, 0)]
        )
    assert take_write_log(path) == [(-4, 0, 0), (-1, -1, 0)]


def test_a_failed_save_changes_nothing_and_keeps_the_flags(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 1)
        store.save(world, PlayerState(position=(1.0, 2.0, 3.0)))
    with sqlite3.connect(path) as conn:  # writing chunk (99, 0, 0) aborts the transaction
        conn.execute(
            "CREATE TRIGGER fail BEFORE INSERT ON chunks WHEN new.cx = 99 "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
    conn.close()
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(0, 5, 0, 2)
        world.set_block(99 * 16, 5, 0, 3)
        modified = set(world.modified)
        with pytest.raises(SaveError, match=r"previous save is intact.*disk on fire"):
            store.save(world, PlayerState(position=(7.0, 7.0, 7.0)))
        assert world.modified == modified
    with WorldStore(path) as store:
        assert store.player == PlayerState(position=(1.0, 2.0, 3.0))
        assert store.load(default_registry(), generator_factory=stripes).get_block(0, 5, 0) == 1


def test_generated_chunks_come_back_from_the_seed_and_dug_out_chunks_stay_air(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    with new_store(path, seed=99) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        dug = world.chunk(0, -1, 0)
        assert dug is not None and dug.blocks.any()
        world.set_blocks(np.argwhere(np.ones(CHUNK, bool)) + np.array([0, -16, 0]), 0)
        assert world.chunk(0, -1, 0) is not None
        assert store.save(world) == 1
        assert store.chunk_count() == 1
    with WorldStore(path) as store:
        loaded = store.load(default_registry(), generator_factory=stripes)
        assert not loaded.chunk_blocks(0, -1, 0).any()
        np.testing.assert_array_equal(loaded.chunk_blocks(1, -1, 0), StripeGenerator(99)(1, -1, 0))


def test_a_new_world_records_its_generator_on_first_save(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite"
    world = World(generator=StripeGenerator(31))
    world.set_block(0, 0, 0, 1)
    with WorldStore(path) as store:
        assert store.info.generator is None
        store.save(world, game_mode="creative")
    with WorldStore(path) as store:
        assert (store.info.generator, store.info.seed, store.info.game_mode) == (
            "stripes",
            31,
            "creative",
        )
        loaded = store.load(default_registry(), generator_factory=stripes)
        np.testing.assert_array_equal(loaded.chunk_blocks(2, -1, 0), StripeGenerator(31)(2, -1, 0))
        assert loaded.get_block(0, 0, 0) == 1


@pytest.mark.parametrize("generator", ["terrain", "flat"])
def test_the_saved_generator_is_rebuilt_by_name_from_world_terrain(
    tmp_path: Path, generator: str
) -> None:
    path = tmp_path / "w.sqlite"
    registry = default_registry()
    made = make_generator(generator, 77, registry)
    with WorldStore.create(path, seed=77, generator=generator) as store:
        world = store.load(registry, generator_factory=make_generator)
        world.set_block(3, 4, 5, registry.id("base:glass"))
        store.save(world)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=make_generator)
        assert world.registry.name(world.get_block(3, 4, 5)) == "base:glass"
        for key in [(1, 2, -1), (-3, 0, 2), (0, 4, 0)]:
            expected = made(*key)
            if expected is None:
                expected = np.zeros(CHUNK_VOLUME, np.uint16)
            np.testing.assert_array_equal(world.chunk_blocks(*key), expected)


def test_a_world_without_a_reproducible_generator_is_refused(tmp_path: Path) -> None:
    world = World(generator=lambda cx, cy, cz: None)
    world.set_block(0, 0, 0, 1)
    with WorldStore(tmp_path / "w.sqlite") as store, pytest.raises(ValueError, match="seed"):
        store.save(world)
    with new_store(tmp_path / "a.sqlite") as a, new_store(tmp_path / "b.sqlite") as b:
        from_a = a.load(default_registry(), generator_factory=stripes)
        with pytest.raises(ValueError, match="save it there"):
            b.save(from_a)


def test_an_unknown_generator_name_is_a_save_error(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    WorldStore.create(path, seed=1, generator="no_such_generator").close()
    with WorldStore(path) as store, pytest.raises(SaveError, match="no_such_generator") as err:
        store.load(default_registry(), generator_factory=stripes)
    assert str(path) in str(err.value)


# -- block names ---------------------------------------------------------------------------------


def test_a_save_survives_a_change_of_registration_order(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    rng = np.random.default_rng(3)
    xyz = rng.integers(-30, 30, (300, 3))
    first = mod_registry()
    with new_store(path) as store:
        world = store.load(first, generator_factory=stripes)
        world.set_blocks(xyz, rng.integers(1, len(first), len(xyz)))
        store.save(world)
        saved_names = names_at(world, xyz)
    reordered = mod_registry(reverse=True)
    assert reordered.names != first.names
    with WorldStore(path) as store:
        world = store.load(reordered, generator_factory=stripes)
        assert names_at(world, xyz) == saved_names
        # Rewrite one chunk under the new order; the file then holds rows written both ways.
        world.set_block(int(xyz[0, 0]), int(xyz[0, 1]), int(xyz[0, 2]), reordered.id("base:glass"))
        saved_names[0] = "base:glass"
        store.save(world)
    with WorldStore(path) as store:
        world = store.load(mod_registry(), generator_factory=stripes)
        assert store.unknown_blocks == []
        assert names_at(world, xyz) == saved_names


def test_a_missing_block_loads_as_a_placeholder_and_is_saved_back_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "w.sqlite"
    with_mod = mod_registry()
    with new_store(path) as store:
        world = store.load(with_mod, generator_factory=stripes)
        world.set_block(1, 2, 3, with_mod.id("testmod:ruby"))
        world.set_block(40, 2, 3, with_mod.id("testmod:ruby"))
        store.save(world)
    base = default_registry()
    with caplog.at_level(logging.WARNING, logger="world.save.storage"), WorldStore(path) as store:
        world = store.load(base, generator_factory=stripes)
        block = world.registry[world.get_block(1, 2, 3)]
        assert world.get_block(40, 2, 3) == world.get_block(1, 2, 3)
        assert block.name == "unknown:testmod_ruby"
        assert block.saved_name == "testmod:ruby"  # the block itself remembers, no side table
        assert block.solid and block.pointable
        placeholder = world.registry.id(block.name)
        assert set(world.registry.face_tiles[placeholder].tolist()) == {
            world.registry.tile_id(MISSING_TILE)
        }
        assert store.unknown_blocks == ["testmod:ruby"]
        # The chunk holding the placeholder is rewritten: it must keep the original name.
        world.set_block(2, 2, 3, base.id("base:stone"))
        store.save(world)
    warnings = [r for r in caplog.records if "testmod:ruby" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    with WorldStore(path) as store:
        world = store.load(mod_registry(), generator_factory=stripes)
        assert world.registry.name(world.get_block(1, 2, 3)) == "testmod:ruby"
        assert world.registry.name(world.get_block(40, 2, 3)) == "testmod:ruby"
        assert world.registry.name(world.get_block(2, 2, 3)) == "base:stone"
        assert store.unknown_blocks == []


def test_placeholders_are_registered_once_per_registry_and_survive_rebinding(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    with_mod = mod_registry()
    with new_store(path) as store:
        world = store.load(with_mod, generator_factory=stripes)
        world.set_block(1, 2, 3, with_mod.id("testmod:jade"))
        store.save(world)
    registry = default_registry()
    with WorldStore(path) as store:
        first = store.load(registry, generator_factory=stripes)
        again = store.load(registry, generator_factory=stripes)
        assert len(registry) == N_BASE + 1
        assert again.get_block(1, 2, 3) == first.get_block(1, 2, 3) == N_BASE
        store.load(default_registry(), generator_factory=stripes)  # binds another registry
        first.set_block(1, 3, 3, 1)  # same chunk as the placeholder
        store.save(first)
    with WorldStore(path) as store:
        world = store.load(mod_registry(), generator_factory=stripes)
        assert world.registry.name(world.get_block(1, 2, 3)) == "testmod:jade"


@pytest.mark.parametrize(
    ("original", "expected"),
    [("mymod:ruby", "unknown:mymod_ruby"), ("Odd-Mod:Big Gem", "unknown:odd_mod_big_gem")],
)
def test_placeholder_names_are_valid_block_names(original: str, expected: str) -> None:
    assert placeholder_name(original) == expected
    BlockType(placeholder_name(original))


# -- files that must be refused untouched --------------------------------------------------------


def valid_save(path: Path, chunks: int = 40) -> None:
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        rng = np.random.default_rng(0)
        for n in range(chunks):
            world.set_blocks(
                rng.integers(0, 16, (200, 3)) + np.array([16 * n, 0, 0]),
                rng.integers(0, N_BASE, 200),
            )
        store.save(world, PlayerState(position=(1.0, 2.0, 3.0)))


def make_text(path: Path) -> None:
    path.write_text("hello, I am a shopping list\n")


def make_empty(path: Path) -> None:
    path.write_bytes(b"")


def make_foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users VALUES (1, 'ada')")
    conn.close()


def make_foreign_with_meta(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('format', '\"blockpick-world\"')")
    conn.close()


def make_truncated(path: Path) -> None:
    valid_save(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def make_truncated_header(path: Path) -> None:
    valid_save(path)
    path.write_bytes(path.read_bytes()[:60])


def make_damaged_pages(path: Path) -> None:
    valid_save(path)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    # Every page after the first (schema) page: b-tree headers and cells all garbage.
    garbage = random.Random(1).randbytes(len(data) - page_size)
    data[page_size:] = garbage
    path.write_bytes(bytes(data))


def set_meta(key: str, value: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        valid_save(path)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
        conn.close()

    return make


def swap_air_and_stone(path: Path) -> None:
    valid_save(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE block_names SET name = 'tmp' WHERE id = 0")
        conn.execute("UPDATE block_names SET name = 'air' WHERE id = 1")
        conn.execute("UPDATE block_names SET name = 'base:stone' WHERE id = 0")
    conn.close()


BAD_FILES = {
    "air_not_id_0": (swap_air_and_stone, "id 0 is 'base:stone', id 0 must be air"),
    "far_player": (
        set_meta("player", '{"position": [1e300, 0, 0]}'),
        "damaged metadata.*position is outside the world",
    ),
    "huge_int_time": (set_meta("created", "1" + "0" * 400), "damaged metadata.*created"),
    "huge_build_height": (set_meta("build_height", f"[0, {2**70}]"), "damaged metadata.*build"),
    "text": (make_text, "not an SQLite database"),
    "empty": (make_empty, "empty"),
    "foreign": (make_foreign, "not a Blockpick world save"),
    "foreign_meta": (make_foreign_with_meta, "not a Blockpick world save"),
    "truncated": (make_truncated, "truncated"),
    "truncated_header": (make_truncated_header, "truncated"),
    "damaged": (make_damaged_pages, "damaged"),
    "newer": (set_meta("schema_version", str(SCHEMA_VERSION + 1)), "newer Blockpick"),
    "bad_json": (set_meta("player", "{not json"), "damaged metadata"),
    "bad_player": (set_meta("player", '{"pitch": 400}'), "damaged metadata.*pitch"),
    "bad_seed": (set_meta("seed", '"forty-two"'), "damaged metadata.*seed"),
    "bad_hotbar": (set_meta("player", '{"hotbar": "stone"}'), "damaged metadata.*hotbar"),
}


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_give_a_clear_error_and_stay_byte_identical(
    tmp_path: Path, case: str, read_only: bool
) -> None:
    path = tmp_path / "w.sqlite"
    make, problem = BAD_FILES[case]
    make(path)
    before = file_snapshot(path)
    with pytest.raises(SaveError, match=problem) as err:
        WorldStore(path, read_only=read_only)
    assert str(path) in str(err.value)
    assert err.value.path == path
    assert file_snapshot(path) == before


def corrupt_row(data: object, fmt: int = CHUNK_FORMAT_ZLIB) -> Callable[..., None]:
    def make(conn: sqlite3.Connection, key: ChunkKey) -> None:
        conn.execute(
            "UPDATE chunks SET format = ?, data = ? WHERE cx = ? AND cy = ? AND cz = ?",
            (fmt, data, *key),
        )

    return make


BAD_ROWS = {
    "not_zlib": (corrupt_row(b"\x00garbage\xff" * 10), "zlib"),
    "short": (corrupt_row(zlib.compress(bytes(100))), "100 bytes"),
    "long": (corrupt_row(zlib.compress(bytes(CHUNK_VOLUME * 4))), "expected 8192"),
    "cut_stream": (corrupt_row(zlib.compress(np.arange(4096, dtype="<u2").tobytes())[:-9]), "8192"),
    "id_range": (
        corrupt_row(zlib.compress(np.full(CHUNK_VOLUME, 999, dtype="<u2").tobytes())),
        "block id 999",
    ),
    "format": (corrupt_row(zlib.compress(bytes(CHUNK_VOLUME * 2)), fmt=7), "unknown format 7"),
    "text_data": (corrupt_row("abc"), "not a blob"),
    "junk_after_stream": (
        corrupt_row(zlib.compress(bytes(CHUNK_VOLUME * 2)) + b"junk"),
        "4 bytes of junk after its zlib stream",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_a_corrupt_row_is_reported_when_read_and_the_file_is_never_written(
    tmp_path: Path, case: str
) -> None:
    path = tmp_path / "w.sqlite"
    valid_save(path)
    damage, problem = BAD_ROWS[case]
    conn = sqlite3.connect(path)
    damage(conn, (2, 0, 0))
    conn.commit()
    conn.close()
    before = file_snapshot(path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        assert world.chunk(1, 0, 0) is not None
        with pytest.raises(SaveError, match=problem) as err:
            world.chunk(2, 0, 0)
        assert str(path) in str(err.value) and "(2, 0, 0)" in str(err.value)
        assert store.read_only
        world.set_block(20, 0, 0, 1)
        with pytest.raises(SaveError, match="not saved"):
            store.save(world)
    assert file_snapshot(path) == before
    with WorldStore(path, read_only=True) as store, pytest.raises(SaveError, match=problem):
        store.verify()
    assert file_snapshot(path) == before


def test_read_only_opens_loads_and_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    valid_save(path)
    before = file_snapshot(path)
    with WorldStore(path, read_only=True) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        assert store.player == PlayerState(position=(1.0, 2.0, 3.0))
        assert world.chunk(3, 0, 0) is not None
        store.verify()
        world.set_block(0, 0, 0, 1)
        with pytest.raises(SaveError, match="read-only"):
            store.save(world)
    assert file_snapshot(path) == before
    with pytest.raises(SaveError, match="no such world"):
        WorldStore(tmp_path / "missing.sqlite", read_only=True)
    assert not (tmp_path / "missing.sqlite").exists()


def test_create_never_writes_over_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    valid_save(path)
    before = file_snapshot(path)
    with pytest.raises(SaveError, match="already exists"):
        WorldStore.create(path, seed=1)
    assert file_snapshot(path) == before
    # The empty lock side file of the earlier save stays (deleting a lock file is racy).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.sqlite", "w.sqlite-lock"]


def test_a_closed_store_is_an_error_not_a_crash(tmp_path: Path) -> None:
    store = new_store(tmp_path / "w.sqlite")
    world = store.load(default_registry(), generator_factory=stripes)
    store.close()
    store.close()
    with pytest.raises(SaveError, match="closed"):
        store.save(world)
    with pytest.raises(SaveError, match="closed"):
        world.chunk(0, 0, 0)


# -- metadata ------------------------------------------------------------------------------------


def test_metadata_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    player = PlayerState(
        position=(-12.5, 70.0, 3.25),
        yaw=-135.0,
        pitch=-89.5,
        hotbar=("base:stone", None, "testmod:ruby"),
        selected=2,
        flying=True,
    )
    before = time.time()
    with WorldStore.create(
        path, seed=-5, generator="stripes", name="My World", build_height=(-64, 320)
    ) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        assert world.build_height == (-64, 320)
        store.save(world, player, game_mode="creative")
    with WorldStore(path) as store:
        info = store.info
        assert store.player == player
        assert (info.name, info.seed, info.generator, info.build_height, info.game_mode) == (
            "My World",
            -5,
            "stripes",
            (-64, 320),
            "creative",
        )
        assert before - 1 <= info.created <= info.last_played <= time.time() + 1
    conn = sqlite3.connect(path)
    meta = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}
    conn.close()
    assert meta["schema_version"] == SCHEMA_VERSION and meta["format"] == "blockpick-world"


def test_chunks_load_from_another_thread_while_saving(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    valid_save(path, chunks=30)
    with WorldStore(path, read_only=True) as reference_store:
        reference = reference_store.load(default_registry(), generator_factory=stripes)
        expected = {n: reference.chunk_blocks(n, 0, 0).copy() for n in range(30)}
    errors: list[BaseException] = []
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)

        def read_all() -> None:
            try:
                for n in range(30):
                    np.testing.assert_array_equal(world.chunk_blocks(n, 0, 0), expected[n])
            except BaseException as exc:
                errors.append(exc)

        reader = threading.Thread(target=read_all)
        reader.start()
        for n in range(30):
            world.set_block(n, 100, 0, 1)
            store.save(world)
        reader.join()
    assert errors == []


# -- the kill test -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_killed_saves_never_lose_or_mix_a_chunk(tmp_path: Path) -> None:
    """SIGKILL a process that edits and saves in a loop, 50 times at random moments."""
    path = tmp_path / "kill.sqlite"
    WorldStore.create(path, seed=storage_worker.SEED, generator=storage_worker.GENERATOR).close()
    worker = Path(storage_worker.__file__)
    rng = random.Random(2024)
    states = storage_worker.expected_states()
    (state, data), state_j = next(states), 0
    outside = [(5, 0, 5), (-6, -1, 3)]  # never edited: generated when read, never saved
    unreported_commits = 0
    for kill in range(50):
        proc = subprocess.Popen(
            [sys.executable, str(worker), str(path)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        lines = []
        if kill % 5 == 4:
            # Every fifth kill lands anywhere from start-up (opening, WAL recovery) onwards.
            time.sleep(rng.uniform(0.0, 0.5))
        else:
            lines.append(proc.stdout.readline())
            assert lines[0].startswith("ready "), f"worker failed to start: {lines[0]!r}"
            assert int(lines[0].split()[1]) == state_j
            time.sleep(rng.uniform(0.0, 0.25))
        proc.kill()
        lines += proc.communicate(timeout=30)[0].splitlines(keepends=True)
        assert proc.returncode == -signal.SIGKILL, "the worker stopped before it was killed"
        # Only whole lines: a kill may cut the last one.
        saved = [
            int(ln.split()[1]) for ln in lines if ln.startswith("saved ") and ln.endswith("\n")
        ]
        reported = saved[-1] if saved else state_j
        read_only = kill % 2 == 1  # also open right after a kill without writing
        before = path.read_bytes() if read_only else b""
        with WorldStore(path, read_only=read_only) as store:
            world = store.load(default_registry(), generator_factory=storage_worker.factory)
            saved_j = 0 if store.player is None else int(store.player.position[0])
            assert saved_j in (reported, reported + 1), f"kill {kill}: lost a whole save"
            unreported_commits += saved_j == reported + 1
            while state_j < saved_j:
                (state, data), state_j = next(states), state_j + 1
            for key in storage_worker.KEYS:
                np.testing.assert_array_equal(
                    world.chunk_blocks(*key), state[key], err_msg=f"kill {kill}, chunk {key}"
                )
                # The block data is the same save's, on the same voxel: never lost, never torn.
                got = world.block_data.chunks.get(key, {})
                assert got == data.get(key, {}), f"kill {kill}, chunk {key}: data {got}"
            for key in outside:
                generated = storage_worker.KillTestGenerator(storage_worker.SEED)(*key)
                np.testing.assert_array_equal(
                    world.chunk_blocks(*key),
                    np.zeros(CHUNK_VOLUME, np.uint16) if generated is None else generated,
                )
        if read_only:
            assert path.read_bytes() == before
    # The loop really ran: many saves happened between the kills.
    assert state_j >= 100, f"only {state_j} saves in 50 runs"
    print(f"kill test: {state_j} saves, {unreported_commits} kills after an unreported commit")


# -- opening beside a writer that closes, and after a killed one -----------------------------------


def test_a_reader_that_looked_at_the_wal_just_before_the_writer_closed_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race made exact: the writer closes (its -wal goes) right after the opening reader
    first looks at the -wal, however it looks."""
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(1, 2, 3, 1)
        store.save(world)
    writer = WorldStore(path)
    wal = f"{path}-wal"
    assert Path(wal).exists()
    real_stat = os.stat

    def writer_closes_after_a_look(target: str | Path, *args: Any, **kwargs: Any) -> os.stat_result:
        result = real_stat(target, *args, **kwargs)
        if os.fspath(target) == wal:
            writer.close()
        return result

    monkeypatch.setattr(os, "stat", writer_closes_after_a_look)
    with WorldStore(path, read_only=True) as reader:
        assert reader.load(default_registry(), generator_factory=stripes).get_block(1, 2, 3) == 1
    monkeypatch.undo()
    with pytest.raises(SaveError, match="closed"):  # the writer did close during the open
        writer.chunk_count()


@pytest.mark.slow
def test_a_reader_opening_while_the_writer_closes_opens_and_reads_the_save(tmp_path: Path) -> None:
    """A game closes (its -wal and -shm files go) while another opens the world to look: every
    open succeeds, never a FileNotFoundError from a -wal file that went between two looks."""
    path = tmp_path / "w.sqlite"
    with new_store(path) as store:
        world = store.load(default_registry(), generator_factory=stripes)
        world.set_block(1, 2, 3, 1)
        store.save(world)
    stop = threading.Event()
    writer_errors: list[BaseException] = []

    def open_and_close_a_writer() -> None:
        while not stop.is_set():
            try:
                with WorldStore(path) as writer:
                    writer.chunk_count()
            except WorldLocked:
                continue  # a reader holds its shared lock: try again
            except BaseException as exc:
                writer_errors.append(exc)
                return

    thread = threading.Thread(target=open_and_close_a_writer)
    thread.start()
    failures: list[str] = []
    try:
        for _ in range(300):
            try:
                with WorldStore(path, read_only=True) as reader:
                    seen = reader.load(default_registry(), generator_factory=stripes)
                    if seen.get_block(1, 2, 3) != 1:
                        failures.append("the saved block was not read")
            except Exception as exc:
                failures.append(f"{type(exc).__name__}: {exc}")
    finally:
        stop.set()
        thread.join()
    assert failures == []
    assert writer_errors == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
@pytest.mark.parametrize("killed", ["after_a_save", "while_closing"])
def test_a_read_only_open_after_a_killed_game_adds_no_file_and_reads_its_last_save(
    tmp_path: Path, killed: str
) -> None:
    path = tmp_path / "w.sqlite"
    WorldStore.create(path, seed=storage_worker.SEED, generator=storage_worker.GENERATOR).close()
    game = subprocess.Popen(
        [sys.executable, str(Path(storage_worker.__file__)), "--turns", str(path), "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert game.stdin is not None and game.stdout is not None
    assert game.stdout.readline().strip() == "ready rw"
    game.stdin.write("round 0\n")
    game.stdin.flush()
    assert game.stdout.readline().strip() == "saved 0"
    game.kill()
    game.communicate(timeout=30)
    assert game.returncode == -signal.SIGKILL
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    assert wal.stat().st_size > 0 and shm.exists()  # the save is in the -wal only
    if killed == "while_closing":
        # SQLite's close deletes the -shm, then the -wal: a kill between the two leaves this.
        shm.unlink()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with WorldStore(path, read_only=True) as store:
        world = store.load(default_registry(), generator_factory=storage_worker.factory)
        assert (world.get_blocks(storage_worker.turn_voxels(0, 0)) == 1).all()
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    with WorldStore(path) as store:  # the next game replays the -wal as ever
        world = store.load(default_registry(), generator_factory=storage_worker.factory)
        assert (world.get_blocks(storage_worker.turn_voxels(0, 0)) == 1).all()
