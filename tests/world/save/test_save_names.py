"""Tests for world.save.names: the file's id space, kept in step with the file and a registry."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from world.base import default_registry
from world.base.blocks import BASE_BLOCKS
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.save.format import SaveError
from world.save.names import NameTable, register_placeholder


def table_file(path: Path, names: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE block_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    conn.executemany("INSERT INTO block_names VALUES (?, ?)", list(enumerate(names)))
    return conn


def test_sync_follows_names_another_connection_appends(tmp_path: Path) -> None:
    path = tmp_path / "names.sqlite"
    mine = table_file(path, ["air", "base:stone"])
    table = NameTable(path)
    table.sync(mine)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("INSERT INTO block_names VALUES (2, 'mod:ruby')")
    table.sync(mine)
    assert table.names == ["air", "base:stone", "mod:ruby"]
    other.execute("UPDATE block_names SET name = 'mod:jade' WHERE id = 1")
    with pytest.raises(SaveError, match="rewritten by another program"):
        table.sync(mine)
    other.close()
    mine.close()


def test_to_file_adds_only_the_names_of_blocks_being_written(tmp_path: Path) -> None:
    table = NameTable(tmp_path / "w.sqlite")
    table.added(["air", "base:stone"])
    registry = default_registry()
    dirt, glass = registry.id("base:dirt"), registry.id("base:glass")
    blocks = np.array([0, registry.id("base:stone"), glass], dtype=np.uint16)
    to_file, new = table.to_file(registry, [blocks])
    assert new == ["base:glass"]
    assert to_file[glass] == 2 and to_file[registry.id("base:stone")] == 1
    assert "base:dirt" not in new and to_file[dirt] == 0


def test_a_placeholder_keeps_its_saved_name_and_binds_back_to_it(tmp_path: Path) -> None:
    registry = BlockRegistry()
    for block in BASE_BLOCKS:
        registry.register(block)
    registry.register(BlockType("unknown:gone_ruby"))  # the obvious placeholder name is taken
    table = NameTable(tmp_path / "w.sqlite")
    table.added(["air", "gone:ruby"])
    runtime = table.bind(registry)
    placeholder = registry[int(runtime[1])]
    assert placeholder.name == "unknown:gone_ruby_2" and placeholder.saved_name == "gone:ruby"
    assert table.unknown_blocks == ["gone:ruby"]
    again = NameTable(tmp_path / "w.sqlite")
    again.added(["air", "gone:ruby"])
    assert again.bind(registry)[1] == runtime[1]  # found on the registry, not registered twice
    to_file, new = again.to_file(registry, [runtime])
    assert new == [] and to_file[runtime[1]] == 1
    assert register_placeholder(registry, "gone:ruby") != runtime[1]
