"""SIGTERM and SIGHUP end the game as "Save and quit" does: a real run is killed mid-script and
its world holds the edit and the player; a signal during the save waits for it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.signals import STOP_SIGNALS, StopSignals
from tests.game.runs import ROOT, game_env
from world.base import default_registry
from world.blocks.block_type import AIR
from world.gen.generators import make_generator
from world.save.storage import WorldStore

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")


def test_a_stop_signal_is_recorded_not_fatal_and_the_old_handler_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as stop:
        assert not stop.stopping
        os.kill(os.getpid(), signal.SIGHUP)
        assert stop.received == signal.SIGHUP and stop.stopping
    assert signal.getsignal(signal.SIGTERM) is before
    assert set(STOP_SIGNALS) == {signal.SIGTERM, signal.SIGHUP}


def test_a_second_signal_during_the_save_lets_the_save_finish() -> None:
    written: list[int] = []
    with StopSignals() as stop:
        os.kill(os.getpid(), signal.SIGTERM)  # asks the game to end: the save begins
        for part in range(3):  # the save, with a second kill arriving in the middle
            if part == 1:
                os.kill(os.getpid(), signal.SIGTERM)
            written.append(part)
    assert written == [0, 1, 2]
    assert stop.received == signal.SIGTERM and stop.count == 2


def start_game(tmp_path: Path, world: Path, marker: Path) -> subprocess.Popen[str]:
    """A script run that breaks a block, moves, says so (``marker``) and then waits forever."""
    script = tmp_path / "edit-then-wait.txt"
    script.write_text(
        f"look 0 90\nwait 1\nbreak\nteleport 5.5 4 2.5\nlook 45 -10\nwait 2\n"
        f"screenshot {marker}\nwait 100000000\n"
    )
    env = game_env(tmp_path, display=False)
    args = ["--new", "--world", str(world), "--flat", "--seed", "3", "--creative"]
    return subprocess.Popen(
        [sys.executable, "-m", "game", *args, "--view-distance", "2", "--script", str(script)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("signals", [[signal.SIGTERM], [signal.SIGHUP, signal.SIGHUP]])
def test_a_killed_run_saves_the_edit_and_the_player_and_exits_0(
    tmp_path: Path, signals: list[signal.Signals]
) -> None:
    world, marker = tmp_path / "killed.sqlite", tmp_path / "edited.png"
    game = start_game(tmp_path, world, marker)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert game.poll() is None, game.communicate()[1]
            assert time.monotonic() < deadline, "the script never reached its wait"
            time.sleep(0.1)
        for sig in signals:  # a second one arrives while the first is being acted on
            game.send_signal(sig)
        _, stderr = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    assert game.returncode == 0, stderr
    assert f"{signals[0].name}: saving and quitting" in stderr
    assert f"saved 'killed' in {world}" in stderr
    with WorldStore(world, read_only=True) as store:
        player = store.player
        assert player is not None
        assert player.position == (5.5, 4.0, 2.5) and player.yaw == 45.0
        saved = store.load(default_registry(), generator_factory=make_generator)
        assert saved.get_block(0, 3, 0) == AIR


def _wait_for_x_server(number: str) -> None:
    """Until the X server on display ``number`` accepts a connection (at most 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(f"/tmp/.X11-unix/X{number}")
                return
            except OSError:
                assert time.monotonic() < deadline, f"X server :{number} never accepted"
                time.sleep(0.05)


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb to open a window in")
def test_a_window_killed_twice_saves_once_and_exits_0(tmp_path: Path, x_server: None) -> None:
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    game = None
    try:
        number = xvfb.stdout.readline().strip() if xvfb.stdout else ""
        assert number, "Xvfb did not start"
        display = f":{number}"
        _wait_for_x_server(number)
        world, log = tmp_path / "window.sqlite", tmp_path / "out.txt"
        env = dict(game_env(tmp_path), DISPLAY=display)
        args = ["--new", "--world", str(world), "--flat", "--view-distance", "2"]
        with log.open("w") as out:
            game = subprocess.Popen(
                [sys.executable, "-m", "game", *args], cwd=ROOT, env=env, stdout=out, stderr=out
            )
            deadline = time.monotonic() + 120
            while "blockpick: playing" not in log.read_text():
                assert game.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the window never opened"
                time.sleep(0.1)
            time.sleep(1)  # a few frames in the main loop
            game.send_signal(signal.SIGTERM)
            game.send_signal(signal.SIGTERM)
            game.wait(timeout=60)
        output = log.read_text()
        assert game.returncode == 0, output
        assert output.count("SIGTERM: saving and quitting") == 1
        with WorldStore(world, read_only=True) as store:
            assert store.player is not None  # the player was saved, so the game's save ran
    finally:
        if game is not None and game.poll() is None:
            game.kill()
            game.wait()
        xvfb.terminate()
        xvfb.wait()
        if xvfb.stdout is not None:
            xvfb.stdout.close()


class _HungUpTerminal:
    """stderr after SIGHUP closed the terminal: every write fails with EIO."""

    def write(self, text: str) -> int:
        raise OSError(5, "Input/output error")

    def flush(self) -> None:
        raise OSError(5, "Input/output error")


def test_a_terminal_gone_with_sighup_does_not_stop_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.options import Options
    from game.runner import _say
    from game.session import Session

    session = Session.open(Options(world="gone", flat=True), tmp_path)
    monkeypatch.setattr(sys, "stderr", _HungUpTerminal())
    _say("SIGHUP: saving and quitting")  # would raise without a terminal
    session._notice("not saved: disk full")  # the save's own report, likewise
    assert session.close()
