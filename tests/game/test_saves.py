"""Saves in the game, headless: the world is chosen or created at start, edits and the player
come back after a save -> quit -> load, autosave and streaming write edits, a save that cannot
be opened is refused and left byte-identical; F2 screenshots land in the data folder."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from game.options import Options
from game.session import AUTOSAVE_SECONDS, Session
from world.base import default_registry
from world.blocks.block_type import AIR
from world.gen.generators import make_generator
from world.save.dirs import create_world, world_path
from world.save.format import SaveError
from world.save.storage import WorldStore

Replay = Callable[[Any, str], None]
DT = 1 / 60
GROUND = 4  # the flat world's feet height


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh per-user data folder, as $BLOCKPICK_DATA_DIR."""
    folder = tmp_path / "data"
    monkeypatch.setenv("BLOCKPICK_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def play(app: Any, data_dir: Path) -> Iterator[Callable[..., Any]]:
    """Start games on saved worlds (`Session.open`, as ``python -m game`` does); each ends
    (saved and closed, as on quit) and is destroyed after the test."""
    from game.play import Game

    games: list[Any] = []

    def start(**fields: Any) -> Any:
        options = Options(**{"view_distance": 2, **fields})
        game = Game(options, session=Session.open(options))
        games.append(game)
        return game

    yield start
    for game in games:
        game.close()
        game.destroy()


def quit_game(game: Any) -> None:
    """What quitting does (`Game.save_and_quit` without ending the test process)."""
    assert game.close()
    game.destroy()


def test_save_quit_load_restores_the_edited_blocks_and_the_player(
    play: Callable[..., Any], replay: Replay
) -> None:
    game = play(world="round trip", flat=True, creative=True)
    registry = game.world.registry
    replay(game, "look 0 90\nwait 1\nbreak")  # the grass under the feet
    replay(game, "teleport 20.5 4 -7.25\nlook 90 60\nwait 2\nselect 4")
    target = game.target
    assert target is not None and target.face == (0, 1, 0)
    placed_at = target.block + target.face
    replay(game, "place")  # planks on the grass ahead
    replay(game, "select 7\nfly on\nteleport 30.25 9.5 -3.75\nlook 123 -20\nwait 2")
    game.hotbar.pick(registry.id("base:bedrock"))  # a middle click on bedrock: into slot 7
    slots = list(game.hotbar.slots)
    quit_game(game)

    again = play(world="round trip")  # no mode on the command line: the world's own
    assert again.world.get_block(0, GROUND - 1, 0) == AIR
    assert again.world.get_block(*placed_at) == registry.id("base:planks")
    assert again.player.creative and again.player.body.flying
    assert again.player.body.pos == (30.25, 9.5, -3.75)
    assert again.player.yaw == 123.0 and again.player.pitch == -20.0
    assert again.hotbar.slots == slots and again.hotbar.selected == 6
    quit_game(again)

    survival = play(world="round trip", creative=False)  # the command line wins for the mode
    assert not survival.player.creative and not survival.player.body.flying
    assert survival.world.get_block(*placed_at) == registry.id("base:planks")


def saved_block(game: Any, wx: int, wy: int, wz: int) -> int:
    """The block the save file holds at a voxel (read beside the running game)."""
    with WorldStore(game.session.store.path, read_only=True) as store:
        return store.load(game.world.registry, generator_factory=make_generator).get_block(
            wx, wy, wz
        )


def test_autosave_writes_the_edits_every_30_seconds_of_play(
    play: Callable[..., Any], replay: Replay
) -> None:
    game = play(world="autosave", flat=True, creative=True)
    grass = game.world.registry.id("base:grass")
    replay(game, "look 0 90\nwait 1\nbreak")
    for _ in range(round((AUTOSAVE_SECONDS - game.session.since_save) / DT) - 2):
        game.update(DT)
    assert saved_block(game, 0, GROUND - 1, 0) == grass  # not yet
    for _ in range(4):
        game.update(DT)
    finish_autosave(game)
    assert saved_block(game, 0, GROUND - 1, 0) == AIR
    assert not game.world.modified


def finish_autosave(game: Any) -> None:
    """Play frames until the autosave written on the saving thread is taken in (10 s at most)."""
    deadline = time.monotonic() + 10.0
    while game.session._writing is not None and time.monotonic() < deadline:
        time.sleep(0.01)
        game.update(DT)
    assert game.session._writing is None


def test_the_autosave_is_written_off_the_frame_and_no_edit_is_lost_meanwhile(
    play: Callable[..., Any], replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play(world="slow disk", flat=True, creative=True)
    store = game.session.store
    written = store.write
    disk = threading.Event()  # the disk answers when the test says so
    writers: list[threading.Thread] = []
    writing = threading.Event()

    def slow_write(job: Any) -> int:
        writers.append(threading.current_thread())
        writing.set()
        assert disk.wait(10.0)
        return written(job)

    monkeypatch.setattr(store, "write", slow_write)
    replay(game, "look 0 90\nwait 1\nbreak")
    game.session.since_save = AUTOSAVE_SECONDS
    game.update(DT)  # starts the autosave; returns while its write waits for the disk
    for _ in range(3):
        game.update(DT)
    assert writing.wait(10.0)  # (the saving thread may start a little later on a busy machine)
    assert writers[0] is not threading.main_thread()
    assert game.world.modified  # nothing unmarked before it is written
    replay(game, "teleport 0.5 4 3.5\nlook 0 90\nwait 1\nbreak")  # an edit while it is written
    disk.set()
    finish_autosave(game)
    assert saved_block(game, 0, GROUND - 1, 0) == AIR
    assert saved_block(game, 0, GROUND - 1, 3) != AIR  # the later edit is still to save...
    assert (0, 0, 0) in game.world.modified  # ...and still marked
    quit_game(game)
    again = play(world="slow disk")
    assert again.world.get_block(0, GROUND - 1, 3) == AIR


def test_quitting_while_the_autosave_is_written_waits_for_it_then_saves_the_rest(
    play: Callable[..., Any], replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play(world="quit mid-save", flat=True, creative=True)
    store = game.session.store
    written = store.write
    order: list[str] = []

    def slow_write(job: Any) -> int:
        time.sleep(0.2)
        order.append(
            "autosave" if threading.current_thread() is not threading.main_thread() else "quit"
        )
        return written(job)

    monkeypatch.setattr(store, "write", slow_write)
    replay(game, "look 0 90\nwait 1\nbreak")
    game.session.since_save = AUTOSAVE_SECONDS
    game.update(DT)
    replay(game, "teleport 0.5 4 3.5\nlook 0 90\nwait 1\nbreak")
    quit_game(game)
    assert order == ["autosave", "quit"]
    again = play(world="quit mid-save")
    assert again.world.get_block(0, GROUND - 1, 0) == AIR
    assert again.world.get_block(0, GROUND - 1, 3) == AIR


def test_quitting_stops_chunk_loading_before_the_world_file_closes(
    play: Callable[..., Any], replay: Replay
) -> None:
    game = play(world="streamed", flat=True, creative=True)
    replay(game, "fly on\nteleport 200.5 10 0.5\nwait 5")  # loading in a worker by now
    loader = game.chunks.streamer.loader
    worker = loader.worker
    assert worker is not None  # started once the start-up view was loaded
    assert game.close()
    assert loader.worker is None and worker.process.poll() is not None  # the process is gone
    assert loader._thread is None and not loader.in_flight


def test_edited_chunks_are_saved_before_streaming_forgets_them(
    play: Callable[..., Any], replay: Replay
) -> None:
    game = play(world="far away", flat=True, creative=True)
    replay(game, "look 0 90\nwait 1\nbreak")
    assert (0, 0, 0) in game.world.modified
    replay(game, "teleport 800.5 4 0.5\nwait 30")
    assert (0, 0, 0) not in game.world.chunks  # forgotten by the world ...
    assert saved_block(game, 0, GROUND - 1, 0) == AIR  # ... once saved
    replay(game, "teleport 0.5 4 0.5\nwait 30")
    assert game.world.get_block(0, GROUND - 1, 0) == AIR  # and read back on the return


def test_an_unsaved_world_keeps_edits_that_leave_the_view_in_memory(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True, view_distance=2)
    replay(game, "look 0 90\nwait 1\nbreak\nteleport 800.5 4 0.5\nwait 30")
    assert (0, 0, 0) in game.world.chunks
    replay(game, "teleport 0.5 4 0.5\nwait 30")
    assert game.world.get_block(0, GROUND - 1, 0) == AIR


def test_a_save_that_fails_is_reported_and_loses_no_edit(
    play: Callable[..., Any],
    replay: Replay,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = play(world="full disk", flat=True, creative=True)
    store = game.session.store

    def disk_full(*args: Any, **kwargs: Any) -> int:
        raise SaveError(store.path, "not saved (the previous save is intact): disk is full")

    monkeypatch.setattr(store, "save", disk_full)
    replay(game, "look 0 90\nwait 1\nbreak")
    assert not game.save()
    assert "disk is full" in game.hud.message.text and "disk is full" in capsys.readouterr().err
    assert (0, 0, 0) in game.world.modified  # still marked for the next save
    assert not game.close() and not game.close()  # the end of the run says so (exit status 1)


def test_the_first_run_makes_a_world_in_the_data_folder_and_later_runs_open_it(
    data_dir: Path,
) -> None:
    first = Session.open(Options())
    assert first.store is not None and first.store.path == world_path("New World", data_dir)
    seed = first.store.info.seed
    assert first.close()
    again = Session.open(Options())
    assert again.store is not None and again.store.path == world_path("New World", data_dir)
    assert again.store.info.seed == seed and not again.notices
    again.close()
    other = Session.open(Options(new=True))  # --new never reuses a name
    assert other.store is not None and other.store.path == world_path("New World 2", data_dir)
    other.close()


def test_seed_and_flat_shape_new_worlds_only(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Session.open(Options(world="seeded", seed=5)).close()
    again = Session.open(Options(world="seeded", seed=7, flat=True))
    assert again.store is not None
    assert again.store.info.seed == 5 and again.store.info.generator == "terrain"
    assert any("new worlds only" in notice for notice in again.notices)
    assert "new worlds only" in capsys.readouterr().err  # said in the terminal too
    again.close()
    before = world_path("seeded", data_dir).read_bytes()
    with pytest.raises(SaveError, match="already exists"):
        Session.open(Options(world="seeded", new=True, seed=9))
    assert world_path("seeded", data_dir).read_bytes() == before


def test_read_only_plays_a_world_and_never_writes_it(
    play: Callable[..., Any], replay: Replay, data_dir: Path
) -> None:
    quit_game(play(world="look only", flat=True, creative=True))
    path = world_path("look only", data_dir)
    before = path.read_bytes()
    game = play(world="look only", read_only=True)
    assert any("read-only" in notice for notice in game.session.notices)
    assert "read-only" in game.hud.message.text
    replay(game, "look 0 90\nwait 1\nbreak")
    assert game.world.get_block(0, GROUND - 1, 0) == AIR  # playing works
    for _ in range(round(AUTOSAVE_SECONDS / DT) + 2):
        game.update(DT)
    game.close()
    assert path.read_bytes() == before


def test_read_only_with_no_world_to_open_creates_nothing(data_dir: Path) -> None:
    for options in (Options(read_only=True), Options(world="nowhere", read_only=True)):
        with pytest.raises(SaveError, match="read-only"):
            Session.open(options)
    assert not data_dir.exists()


def _saved_world(path: Path) -> None:
    """A real save with one edited chunk (the player's spawn column)."""
    with create_world(path, seed=3, generator="flat") as store:
        world = store.load(default_registry(), generator_factory=make_generator)
        world.set_block(0, 2, 0, 0)
        store.save(world)


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a world\n" * 200)


def _damaged_chunk(path: Path) -> None:
    _saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE chunks SET data = ?", (b"\x78\x9c not zlib at all",))
    conn.close()


def _truncated(path: Path) -> None:
    _saved_world(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _newer(path: Path) -> None:
    _saved_world(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()


@pytest.mark.parametrize(
    ("spoil", "problem", "readable"),
    [
        (_garbage, "not an SQLite database", False),
        (_damaged_chunk, "corrupt", True),
        (_truncated, "truncated", False),
        (_newer, "newer", False),
    ],
)
def test_a_save_that_cannot_be_opened_is_refused_and_left_byte_identical(
    data_dir: Path, spoil: Callable[[Path], None], problem: str, readable: bool
) -> None:
    path = world_path("spoilt", data_dir)
    path.parent.mkdir(parents=True)
    spoil(path)
    before = path.read_bytes()
    for options in (Options(world="spoilt"), Options(world=str(path), read_only=True)):
        with pytest.raises(SaveError, match=problem) as refused:
            Session.open(options)
        assert str(path) in str(refused.value)
        assert path.read_bytes() == before
        # No -wal/-shm side files (the empty -lock file of the save that made it may stay).
        assert sorted(p.name for p in path.parent.iterdir() if p.suffix != ".sqlite-lock") == [
            "spoilt.sqlite"
        ]
    if readable:  # its metadata say it is the last world played: the default is refused too
        with pytest.raises(SaveError, match=problem):
            Session.open(Options())
    else:  # no metadata to go by: the default skips it, naming it in the terminal
        chosen = Session.open(Options())
        assert chosen.store is not None and chosen.store.path != path
        assert any(str(path) in notice for notice in chosen.notices)
        chosen.close()
    assert path.read_bytes() == before


def test_a_refused_world_is_shown_on_screen_until_a_key(app: Any) -> None:
    from ursina import destroy

    from game.runner import refusal_screen

    screen = refusal_screen("cannot open the world /w.sqlite: truncated")
    try:
        texts = [child for child in screen.children if hasattr(child, "text")]
        assert any("/w.sqlite: truncated" in text.text for text in texts)
        assert any("not changed" in text.text for text in texts)
        screen.input("mouse move")  # moving is not a key press
        with pytest.raises(SystemExit):
            screen.input("space")
    finally:
        destroy(screen)


def test_f2_saves_a_screenshot_in_the_data_folder(
    app: Any, make_game: Callable[..., Any], data_dir: Path
) -> None:
    game = make_game(flat=True)
    app.step()
    game.input("f2")
    game.input("f2")
    shots = sorted((data_dir / "screenshots").glob("*.png"))
    assert len(shots) == 2  # two within a second get different names
    assert game.hud.message.enabled and str(shots[-1]) in game.hud.message.text
    image = Image.open(shots[0])
    assert image.size == tuple(app.win.getSize())
    assert len(np.unique(np.asarray(image.convert("RGB")).reshape(-1, 3), axis=0)) > 50


def test_save_and_quit_stays_in_the_game_when_the_save_fails(
    play: Callable[..., Any],
    replay: Replay,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ursina import application

    game = play(world="quit on full disk", flat=True, creative=True)
    store = game.session.store
    working_save = store.save
    quits: list[bool] = []
    monkeypatch.setattr(application, "quit", lambda: quits.append(True))

    def disk_full(*args: Any, **kwargs: Any) -> int:
        raise SaveError(store.path, "not saved (the previous save is intact): disk is full")

    monkeypatch.setattr(store, "save", disk_full)
    replay(game, "look 0 90\nwait 1\nbreak")
    game.save_and_quit()
    assert quits == [] and "disk is full" in game.hud.message.text
    assert (0, 0, 0) in game.world.modified  # the edit waits for a save that works
    monkeypatch.setattr(store, "save", working_save)  # the disk has room again
    game.save_and_quit()
    assert quits == [True] and not game.world.modified


def test_a_world_another_game_is_writing_is_refused_naming_it_and_opens_read_only(
    data_dir: Path,
) -> None:
    path = world_path("shared", data_dir)
    _saved_world(path)
    with WorldStore(path):  # the other game
        with pytest.raises(SaveError, match="another Blockpick game") as refused:
            Session.open(Options(world="shared"))
        assert str(path) in str(refused.value) and "--read-only" in str(refused.value)
        looking = Session.open(Options(world="shared", read_only=True))
        assert not looking.saving
        looking.close()
