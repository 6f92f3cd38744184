"""Tests for world.save.lock: one game writes a world; others look read-only; crashes free it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.world.save import storage_worker
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.save.format import SaveError
from world.save.lock import WorldLocked, lock_path
from world.save.storage import WorldStore

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")

WORKER = Path(storage_worker.__file__)


def new_world(path: Path) -> None:
    WorldStore.create(path, seed=storage_worker.SEED, generator=storage_worker.GENERATOR).close()


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen[str], line: str) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()


def test_a_second_writer_in_the_same_process_is_refused_naming_the_world(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    new_world(path)
    with WorldStore(path) as first:
        with pytest.raises(WorldLocked, match=r"another Blockpick game.*read-only") as err:
            WorldStore(path)
        assert isinstance(err.value, SaveError) and err.value.path == path
        assert str(path) in str(err.value)
        with WorldStore(path, read_only=True) as reader:  # looking is allowed
            assert reader.info == first.info
    with WorldStore(path):  # closed: the next game may write
        pass


def test_a_reader_keeps_writers_out_while_it_reads_the_file_as_immutable(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    new_world(path)
    with WorldStore(path, read_only=True), pytest.raises(WorldLocked):
        WorldStore(path)


def test_a_second_game_is_refused_and_looks_read_only_and_no_edit_is_lost(
    tmp_path: Path,
) -> None:
    """Two real processes share a world for 25 rounds of edits in the same chunks."""
    path = tmp_path / "w.sqlite"
    new_world(path)
    first = start("--turns", str(path), "0")
    assert first.stdout is not None and first.stdout.readline().strip() == "ready rw"
    second = start("--turns", str(path), "1")
    assert second.stdout is not None
    ready = second.stdout.readline().strip()
    assert ready.startswith("ready ro "), ready
    assert str(path) in ready and "another Blockpick game" in ready
    reported: list[tuple[int, int]] = []
    for n in range(25):
        for worker, proc in ((0, first), (1, second)):
            answer = ask(proc, f"round {n}")
            assert answer in (f"saved {n}", f"refused {n}"), answer
            if answer.startswith("saved"):
                reported.append((n, worker))
    for proc in (first, second):
        proc.communicate(timeout=30)
        assert proc.returncode == 0
    assert {worker for _, worker in reported} == {0}, "the read-only game reported a save"
    assert len(reported) == 25
    with WorldStore(path, read_only=True) as store:
        world = store.load(default_registry(), generator_factory=storage_worker.factory)
        lost = sum(
            int(np.count_nonzero(world.get_blocks(storage_worker.turn_voxels(n, w)) != 1))
            for n, w in reported
        )
    assert lost == 0


def test_a_killed_game_never_blocks_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    new_world(path)
    holder = start("--turns", str(path), "0")
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ready rw"
    assert ask(holder, "round 3") == "saved 3"
    with pytest.raises(WorldLocked):
        WorldStore(path)
    holder.kill()
    holder.communicate(timeout=30)
    assert holder.returncode == -signal.SIGKILL
    assert lock_path(path).exists()  # the side file stays; its lock died with the process
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=storage_worker.factory)
        assert (world.get_blocks(storage_worker.turn_voxels(3, 0)) == 1).all()


def test_a_reader_beside_the_writer_reads_rows_with_names_added_after_it_opened(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite"
    new_world(path)
    registry = default_registry()
    ruby = registry.register(BlockType("testmod:ruby"))
    with WorldStore(path) as writer, WorldStore(path, read_only=True) as reader:
        seen = reader.load(registry, generator_factory=storage_worker.factory)
        world = writer.load(registry, generator_factory=storage_worker.factory)
        world.set_block(3, 4, 5, ruby)  # a name the reader's copy of the table lacks
        writer.save(world)
        assert seen.get_block(3, 4, 5) == ruby  # not "block id beyond the saved names"
        assert reader.unknown_blocks == []


# -- a lock file removed or replaced under a running game ------------------------------------------


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_writer_whose_lock_file_was_replaced_stops_saving(tmp_path: Path, how: str) -> None:
    path = tmp_path / "w.sqlite"
    new_world(path)
    registry = default_registry()
    first = WorldStore(path)
    world = first.load(registry, generator_factory=storage_worker.factory)
    world.set_block(1, 2, 3, 1)
    first.save(world)
    lock_path(path).unlink()
    second = WorldStore(path) if how == "replaced" else None  # let in: a fresh lock file
    world.set_block(4, 5, 6, 1)
    with pytest.raises(SaveError, match=r"lock file w\.sqlite-lock was removed or replaced") as err:
        first.save(world)
    assert err.value.path == path and "another game may be writing" in str(err.value)
    assert first.read_only  # for the rest of the run: nothing of this game is written again
    with pytest.raises(SaveError, match=r"not saved.*removed or replaced"):
        first.save(world)
    first.close()
    if second is not None:
        mine = second.load(registry, generator_factory=storage_worker.factory)
        assert mine.get_block(1, 2, 3) == 1  # the first game's save before the replacement
        mine.set_block(7, 8, 9, 1)
        second.save(mine)  # the game holding the lock file now saves as usual
        second.close()
    with WorldStore(path, read_only=True) as store:
        seen = store.load(registry, generator_factory=storage_worker.factory)
        assert seen.get_block(4, 5, 6) == 0
        assert seen.get_block(7, 8, 9) == (1 if second is not None else 0)


def test_a_game_let_in_beside_a_removed_lock_file_loses_no_reported_save(tmp_path: Path) -> None:
    """Game A writes; its lock file is deleted; game B gets a fresh one and writes too: A stops
    saving (it reports every round as refused), so no save either reports is overwritten."""
    path = tmp_path / "w.sqlite"
    new_world(path)
    first = start("--turns", str(path), "0")
    assert first.stdout is not None and first.stdout.readline().strip() == "ready rw"
    assert ask(first, "round 0") == "saved 0"
    lock_path(path).unlink()
    second = start("--turns", str(path), "1")
    assert second.stdout is not None and second.stdout.readline().strip() == "ready rw"
    reported = [(0, 0)]
    for n in range(1, 8):
        for worker, proc in ((0, first), (1, second)):
            answer = ask(proc, f"round {n}")
            if answer == f"saved {n}":
                reported.append((n, worker))
            else:
                assert answer == f"refused {n}", answer
    for proc in (first, second):
        proc.communicate(timeout=30)
        assert proc.returncode == 0
    assert {worker for n, worker in reported if n > 0} == {1}
    with WorldStore(path, read_only=True) as store:
        world = store.load(default_registry(), generator_factory=storage_worker.factory)
        lost = [
            (n, w)
            for n, w in reported
            if (world.get_blocks(storage_worker.turn_voxels(n, w)) != 1).any()
        ]
    assert lost == []


def test_a_writer_that_locked_a_lock_file_replaced_meanwhile_locks_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock-file race: between this game's open and its flock, another removes the file and
    locks a new one at the same path. Locking the old, unlinked file would let both write."""
    import fcntl  # POSIX only, like this module's tests

    path = tmp_path / "w.sqlite"
    new_world(path)
    side = lock_path(path)
    real_flock = fcntl.flock
    other: list[int] = []

    def flock_after_a_replacement(fd: int, operation: int) -> None:
        if not other:
            side.unlink()
            other.append(os.open(side, os.O_RDWR | os.O_CREAT, 0o644))
            real_flock(other[0], fcntl.LOCK_EX | fcntl.LOCK_NB)  # the other game's lock
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock_after_a_replacement)
    try:
        with pytest.raises(WorldLocked):
            WorldStore(path)
    finally:
        os.close(other[0])
    monkeypatch.undo()
    with WorldStore(path), pytest.raises(WorldLocked):  # the other game has gone: it opens
        WorldStore(path)
