"""Game tests run ursina headless: one offscreen app per test session (ursina is a singleton).

Games are built with a small view distance (`TEST_VIEW_DISTANCE`, 13 chunk columns instead of
the default's 197): meshing the view is most of a game's start-up. A test that needs more asks
for it (``make_game(view_distance=...)``).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

SIZE = (400, 300)
TEST_VIEW_DISTANCE = 2


@pytest.fixture
def x_server() -> Iterator[None]:
    """Held while a test runs a virtual X server: one at a time across pytest's workers.

    Two servers started at once can pick the same display number (``xvfb-run -a`` looks for a
    free one without locking it) and one of them then fails; a file lock keeps them apart. A
    server killed with its game may still be going away when the next test starts one: the new
    one takes the same number, and its game cannot open the display (seen once in CI). So the
    lock is let go only once no X server of ours is left (at most 20 s).
    """
    with open(Path(tempfile.gettempdir()) / "blockpick-tests-x-server.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _until_no_x_server()
            yield
        finally:
            _until_no_x_server()
            fcntl.flock(lock, fcntl.LOCK_UN)


def _until_no_x_server(seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while _x_servers() and time.monotonic() < deadline:
        time.sleep(0.05)


def _x_servers() -> list[int]:
    """The process ids of the Xvfb servers running (this machine's tests start them one at a
    time, under the lock)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "Xvfb":
                found.append(int(entry.name))
        except OSError:  # the process ended meanwhile
            continue
    return found


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The offscreen ursina app, started once; game time advances 1/60 s per frame."""
    # Panda3D and Mesa write caches under XDG_CACHE_HOME: keep them out of the user's home.
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    from game.engine import fixed_frame_rate, start

    app = start(headless=True, size=SIZE)
    fixed_frame_rate(60)
    yield app
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture
def make_game(app: Any) -> Iterator[Callable[..., Any]]:
    """Build games from option keywords (view distance `TEST_VIEW_DISTANCE` unless given); each
    is destroyed after the test."""
    from game.options import Options
    from game.play import Game

    games: list[Any] = []

    def make(**options: Any) -> Any:
        game = Game(Options(**{"view_distance": TEST_VIEW_DISTANCE, **options}))
        games.append(game)
        return game

    yield make
    for game in games:
        game.destroy()


@pytest.fixture(autouse=True)
def game_volumes_stand_in(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `Game.set_volumes` that does nothing, for tests that build games, while `game.play.Game`
    has none of its own: the pause menu tells the game its volumes when it is made.

    Game runs in a subprocess cannot have it. Remove this once `Game` sets its sound player's
    volumes (issue 41); till then it steps aside by itself as soon as `Game` has the method.
    """
    if "app" not in request.fixturenames:
        return
    from game.play import Game

    if not hasattr(Game, "set_volumes"):
        monkeypatch.setattr(Game, "set_volumes", lambda self, master, blocks: None, raising=False)


@pytest.fixture
def replay(app: Any) -> Callable[..., None]:
    """Replay a script's text on a game, frame by frame, as ``--script`` does."""
    from game.engine import save_screenshot
    from game.runner import ScriptPlayer
    from game.script import parse_script

    def run(game: Any, text: str) -> None:
        player = ScriptPlayer(game, app.step, lambda path: save_screenshot(app, Path(path)))
        player.run(parse_script(text, "test script"))

    return run


ZOO = """
from world.blocks.entity_type import EntityType
from world.blocks.shapes import Box
from world.mods.hooks import hookimpl


def punched(data):
    data["punched"] = int(data.get("punched", 0)) + 1
    return True  # handled: no knock back


def used(data, player):
    data["used_by"] = "nobody" if player is None else player.name
    return True


@hookimpl
def register_blocks(registry):
    registry.register_entity(EntityType(
        "zoo:cow", size=(0.9, 1.4), visual="boxes", physical=False, on_punch=punched,
        on_use=used, model=((Box(-0.45, 0.0, -0.45, 0.45, 1.4, 0.45), "base:planks"),),
    ))
    registry.register_entity(EntityType(
        "zoo:ghost", size=(0.8, 1.8), visual="sprite", tiles=("base:glass",), physical=False,
    ))
    registry.register_entity(EntityType(
        "zoo:crate", size=(0.5, 0.5), visual="cube", tiles=("base:planks",), physical=False,
    ))
"""


@pytest.fixture
def zoo_mods(tmp_path: Path) -> Path:
    """A mods folder with ``zoo``: kinds of each visual that stand still (not physical): a box
    model ``zoo:cow`` that counts punches (``punched``, handled) and notes who used it
    (``used_by``), a sprite ``zoo:ghost`` and a cube ``zoo:crate``."""
    folder = tmp_path / "zoo-mods"
    folder.mkdir()
    (folder / "zoo.py").write_text(ZOO)
    return folder
