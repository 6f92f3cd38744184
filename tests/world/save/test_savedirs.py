"""Tests for world.save.dirs: the data folder, --world NAME|PATH, the world list, --new --seed."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from world.base import default_registry
from world.gen.generators import make_generator
from world.save.dirs import (
    DATA_DIR_ENV,
    create_world,
    default_data_dir,
    list_worlds,
    open_world,
    parse_seed,
    resolve_world,
    unique_world_name,
    world_path,
    worlds_dir,
)
from world.save.format import SaveError
from world.save.storage import WorldStore


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("APPDATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, ".local/share/blockpick"),
        ("linux", {"XDG_DATA_HOME": "{home}/xdg"}, "xdg/blockpick"),
        ("linux", {"XDG_DATA_HOME": "relative/xdg"}, ".local/share/blockpick"),
        ("darwin", {}, "Library/Application Support/blockpick"),
        ("win32", {"APPDATA": "{home}/Roaming"}, "Roaming/blockpick"),
        ("linux", {DATA_DIR_ENV: "{home}/portable"}, "portable"),
    ],
)
def test_the_data_folder_follows_the_platform(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    env: dict[str, str],
    expected: str,
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    for key, value in env.items():
        monkeypatch.setenv(key, value.format(home=home))
    assert default_data_dir() == home / expected
    assert worlds_dir() == home / expected / "worlds"


def test_world_names_and_paths_resolve(tmp_path: Path) -> None:
    assert resolve_world("My World", tmp_path) == tmp_path / "worlds" / "My World.sqlite"
    assert resolve_world("saves/a.sqlite", tmp_path) == Path("saves/a.sqlite")
    assert resolve_world("b.sqlite", tmp_path) == Path("b.sqlite")
    assert resolve_world(tmp_path / "c", tmp_path) == tmp_path / "c"
    assert resolve_world("~/d.sqlite") == Path.home() / "d.sqlite"


@pytest.mark.parametrize("name", ["", ".hidden", "a" * 65, "trailing.", "new\nline", "CON", "x:y"])
def test_unsafe_world_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="world name"):
        world_path(name, tmp_path)


def test_create_world_makes_new_names_and_never_overwrites(tmp_path: Path) -> None:
    with create_world(data_dir=tmp_path, seed=42, generator="stripes") as store:
        assert store.path == tmp_path / "worlds" / "New World.sqlite"
        assert (store.info.seed, store.info.generator, store.info.name) == (
            42,
            "stripes",
            "New World",
        )
    assert unique_world_name(data_dir=tmp_path) == "New World 2"
    create_world(data_dir=tmp_path).close()
    assert (tmp_path / "worlds" / "New World 2.sqlite").is_file()
    path = tmp_path / "worlds" / "New World.sqlite"
    before = path.read_bytes()
    with pytest.raises(SaveError, match="already exists"):
        create_world("New World", data_dir=tmp_path, seed=1)
    assert path.read_bytes() == before


def test_list_worlds_most_recent_first_and_broken_ones_shown(tmp_path: Path) -> None:
    assert list_worlds(tmp_path) == []
    for name in ("old", "recent"):
        create_world(name, data_dir=tmp_path, seed=1, generator=None).close()
        time.sleep(0.01)
    broken = world_path("broken", tmp_path)
    broken.write_text("not a world")
    with WorldStore(world_path("old", tmp_path)) as store:  # played last
        store.save(store.load(default_registry(), generator_factory=make_generator))
    before = {p.name: p.read_bytes() for p in (tmp_path / "worlds").iterdir()}
    entries = list_worlds(tmp_path)
    assert [e.name for e in entries] == ["old", "recent", "broken"]
    assert entries[2].info is None and entries[2].error is not None
    assert "not an SQLite database" in entries[2].error
    assert entries[0].size == world_path("old", tmp_path).stat().st_size
    after = {p.name: p.read_bytes() for p in (tmp_path / "worlds").iterdir()}
    assert after == before  # listing never writes, nor leaves -wal/-shm files


def test_parse_seed_accepts_numbers_and_words() -> None:
    assert parse_seed("12345") == 12345
    assert parse_seed(" -7 ") == -7
    assert parse_seed("glacier") == parse_seed("glacier")
    assert parse_seed("glacier") != parse_seed("Glacier")
    assert -(2**63) <= parse_seed("glacier") < 2**63
    assert isinstance(parse_seed(""), int)
    with pytest.raises(ValueError, match="64-bit"):
        parse_seed(str(2**63))


def test_the_data_folder_env_var_is_used_for_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, os.fspath(tmp_path / "data"))
    with create_world("Alpha", seed=3) as store:
        assert store.path == tmp_path / "data" / "worlds" / "Alpha.sqlite"
    assert [e.name for e in list_worlds()] == ["Alpha"]


def test_open_world_follows_the_start_up_rules(tmp_path: Path) -> None:
    with open_world(data_dir=tmp_path, seed=5, generator=None) as store:  # nothing yet: new
        assert store.path == world_path("New World", tmp_path) and store.info.seed == 5
    with open_world("Beta", data_dir=tmp_path, seed=6, generator=None) as store:  # new name
        assert store.info.seed == 6
    with WorldStore(world_path("New World", tmp_path)) as store:
        store.save(store.load(default_registry(), generator_factory=make_generator))  # played last
    with open_world(data_dir=tmp_path) as store:  # the most recently played
        assert store.info.name == "New World"
    with open_world("Beta", data_dir=tmp_path, read_only=True) as store:
        assert store.read_only and store.info.seed == 6
    with pytest.raises(ValueError, match="seed"):
        open_world("Beta", data_dir=tmp_path, seed=1)
    with pytest.raises(SaveError, match="already exists"):
        open_world("Beta", new=True, data_dir=tmp_path)
    with pytest.raises(SaveError, match="no such world"):
        open_world("Gamma", data_dir=tmp_path, read_only=True)
    with open_world(new=True, data_dir=tmp_path, generator=None) as store:
        assert store.path.name == "New World 2.sqlite"
    world_path("Broken", tmp_path).write_bytes(b"junk")
    before = world_path("Broken", tmp_path).read_bytes()
    with pytest.raises(SaveError, match="not an SQLite database"):
        open_world("Broken", data_dir=tmp_path)
    assert world_path("Broken", tmp_path).read_bytes() == before
