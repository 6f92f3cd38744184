"""The save file format: value checks, the read-only probe, creating a file, never over one."""

from __future__ import annotations

import math
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from world.save.format import (
    SaveError,
    create_file,
    placeholder_name,
    probe_file,
    remove_stale_temporaries,
)
from world.save.meta import PlayerState, WorldInfo


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


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_creation_removes_every_leftover_of_a_killed_creation(tmp_path: Path) -> None:
    """A creation killed inside SQLite's switch to WAL leaves its rollback journal too."""
    path = tmp_path / "w.sqlite"
    stem = f".w.sqlite.{dead_pid()}.0badf00d.tmp"
    leftovers = [tmp_path / f"{stem}{suffix}" for suffix in ("", "-journal", "-wal", "-shm")]
    for leftover in leftovers:
        leftover.write_bytes(b"half a world")
    create_file(path, WorldInfo(name="w", seed=1, generator=None))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.sqlite"]
    assert remove_stale_temporaries(path) == []


def test_a_wal_file_that_vanishes_while_probing_counts_as_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer closing deletes its -wal between any two looks at it: the probe looks once."""
    path = tmp_path / "w.sqlite"
    create_file(path, WorldInfo(name="w", seed=3, generator=None))
    wal = Path(f"{path}-wal")
    real_exists = Path.exists

    def there_until_looked_at(self: Path, **kwargs: bool) -> bool:
        return True if self == wal else real_exists(self, **kwargs)

    monkeypatch.setattr(Path, "exists", there_until_looked_at)
    assert probe_file(path).info.seed == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.sqlite"]


def test_a_wal_file_that_cannot_be_read_is_a_save_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    create_file(path, WorldInfo(name="w", seed=3, generator=None))
    os.symlink("w.sqlite-wal", tmp_path / "w.sqlite-wal")  # a loop: stat fails, not ENOENT
    with pytest.raises(SaveError, match=r"w\.sqlite-wal") as err:
        probe_file(path)
    assert err.value.path == path
