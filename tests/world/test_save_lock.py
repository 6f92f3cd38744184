"""Tests for world.save_lock: one game writes a world; others look read-only; crashes free it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.world import storage_worker
from world.blocks import BlockType, default_registry
from world.save_lock import lock_path
from world.storage import SaveError, WorldLocked, WorldStore

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
