"""The save file format: value checks, the read-only probe, creating a file, never over one."""

from __future__ import annotations

import math
import sqlite3

import pytest

from world.save_format import (
    PlayerState,
    SaveError,
    WorldInfo,
    create_file,
    placeholder_name,
    probe_file,
)


def test_player_state_round_trips_and_rejects_bad_values():
    player = PlayerState((1.5, 70.0, -3.25), yaw=90.0, pitch=-45.0, hotbar=("base:stone", None))
    assert PlayerState.from_dict(player.to_dict()) == player
    with pytest.raises(ValueError, match="pitch"):
        PlayerState(pitch=91.0)
    with pytest.raises(ValueError, match="position"):
        PlayerState((0.0, math.nan, 0.0))
    with pytest.raises(ValueError, match="selected"):
        PlayerState(hotbar=("base:dirt",), selected=3)


def test_create_then_probe(tmp_path):
    path = tmp_path / "w.sqlite"
    create_file(path, WorldInfo(name="w", seed=42, generator="terrain"))
    state = probe_file(path)
    assert state.info.seed == 42 and state.info.generator == "terrain"
    assert state.names == ["air"] and state.player is None


def test_create_never_writes_over_a_file(tmp_path):
    path = tmp_path / "w.sqlite"
    path.write_bytes(b"precious")
    with pytest.raises(SaveError, match="already exists"):
        create_file(path, WorldInfo(name="w", seed=1, generator=None))
    assert path.read_bytes() == b"precious"
    assert [p.name for p in tmp_path.iterdir()] == ["w.sqlite"]


def test_probe_names_the_file_and_the_problem_and_changes_nothing(tmp_path):
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    before = foreign.read_bytes()
    with pytest.raises(SaveError, match="not a Blockpick world save") as error:
        probe_file(foreign)
    assert error.value.path == foreign and str(foreign) in str(error.value)
    assert foreign.read_bytes() == before
    text = tmp_path / "notes.sqlite"
    text.write_text("hello")
    with pytest.raises(SaveError):
        probe_file(text)


def test_placeholder_names_are_valid_block_names():
    assert placeholder_name("mymod:thing") == "unknown:mymod_thing"
