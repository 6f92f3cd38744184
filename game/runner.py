"""Running the game: a window to play in, or offscreen for ``--screenshot`` and ``--script``.

A script is replayed frame by frame at a fixed 60 frames per game second, through the same
`Game.input` events and held-input state a player's keyboard and mouse produce, so a replay is
deterministic and exercises the real input path.

A window shows the loading screen (`game.loading`) from its first frame, while the world is opened,
the game built and its first view prepared. The world is opened once the engine has started (so a
run that cannot show anything makes no world file), before the game is built:
`game.session.Session.open`, or an unsaved world for an offscreen run that names none. A world that
cannot be opened is refused: the reason goes to the terminal and, in a window, on screen until a key
is pressed; the exit status is 1 and the file is not touched (2, a usage error, for a new world that
cannot be made; a ``--world`` that cannot name a file is refused before the engine starts). When the
game ends, however it ends (the pause menu's "save and quit", the window closed, the end of a
script, SIGTERM or SIGHUP between two frames: `game.signals`), the world is saved and closed and the
run says where; a failed final save makes the exit status 1.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ursina import Entity, Text, Ursina, application, camera, color

from game.daylight import parse_time
from game.engine import fixed_frame_rate, freeze_startup_heap, save_screenshot, start
from game.inventory_screen import InventoryScreen
from game.loading import LoadingScreen
from game.options import Options
from game.play import Game
from game.script import Action, ScriptError, read_script
from game.session import NewWorldError, Session, world_file
from game.signals import StopSignals
from game.user_settings import load_settings
from world.save.format import SaveError

__all__ = [
    "SCRIPT_FPS",
    "WARMUP_FRAMES",
    "ScriptPlayer",
    "Stopped",
    "open_session",
    "refusal_screen",
    "run",
]

SCRIPT_FPS = 60
WARMUP_FRAMES = 3  # frames drawn before a screenshot: textures and meshes reach the GPU


class Stopped(Exception):
    """A replay ended early by a stop signal (`game.signals`); the game is saved as at its end."""


class ScriptPlayer:
    """Replays actions on a game, stepping the engine one frame at a time."""

    def __init__(
        self,
        game: Game,
        step: Callable[[], None],
        screenshot: Callable[[Path], None],
        stopping: Callable[[], bool] = lambda: False,
    ) -> None:
        self.game = game
        self.step = step
        self.screenshot = screenshot
        self.stopping = stopping  # asked between frames; true: the replay ends (`Stopped`)

    def frames(self, count: int) -> None:
        """Let ``count`` frames pass; raises `Stopped` when asked to stop between two."""
        for _ in range(count):
            if self.stopping():
                raise Stopped
            self.step()

    def run(self, actions: list[Action]) -> None:
        """Replay every action in order."""
        for action in actions:
            self.do(action)

    def _inventory_open(self, action: Action) -> InventoryScreen:
        screen = self.game.inventory_screen
        if not screen.shown:
            raise ScriptError(f"{action.where}: {action.name} needs the inventory open first")
        return screen

    def do(self, action: Action) -> None:
        """Replay one action."""
        game, held, args = self.game, self.game.held, action.args
        name = action.name
        if name == "look":
            game.player.look(float(args["yaw"]), float(args["pitch"]))
        elif name == "turn":
            game.player.turn(float(args["yaw"]), float(args["pitch"]))
        elif name == "move":
            held.forward, held.strafe = float(args["forward"]), float(args["strafe"])
            frames = int(args["frames"])
            if frames >= 0:  # a count: hold for that long, then let go
                self.frames(frames)
                held.forward = held.strafe = 0.0
        elif name == "sprint":
            held.sprint = bool(args["on"])
        elif name == "sneak":
            held.sneak = bool(args["on"])
        elif name == "jump":
            game.input("space")
            held.jump = True
            self.frames(1)
            held.jump = False
        elif name == "fly":
            if not game.player.creative:
                raise ScriptError(f"{action.where}: fly needs creative mode")
            if bool(args["on"]) != game.player.body.flying:
                game.toggle_fly()
        elif name == "break":
            held.attack = True
            game.input("left mouse down")
            self.frames(max(int(args["frames"]), 1))
            held.attack = False
            game.input("left mouse up")
        elif name in ("place", "use"):
            game.input("right mouse down")
            self.frames(1)
            game.input("right mouse up")
        elif name == "pick":
            game.input("middle mouse down")
            self.frames(1)
        elif name == "select":  # with the inventory open: the slot the picker's clicks fill
            game.input(str(args["slot"]))
        elif name == "scroll":
            steps = int(args["steps"])
            for _ in range(abs(steps)):
                game.input("scroll down" if steps > 0 else "scroll up")
        elif name == "wait":
            self.frames(int(args["frames"]))
        elif name == "screenshot":
            self.frames(1)
            self.screenshot(Path(str(args["path"])))
        elif name == "inventory":
            if game.inventory_screen.shown:
                game.screens.close_inventory()
            else:
                game.screens.open_inventory()
            self.frames(1)
        elif name == "search":
            self._inventory_open(action).set_query(str(args["text"]))
        elif name == "click_item":
            self._inventory_open(action)
            game.screens.click(int(args["cell"]) - 1, str(args["button"]))
            self.frames(1)
        elif name == "hover_item":
            self._inventory_open(action).hover(int(args["cell"]) - 1)
            self.frames(1)
        elif name == "drag_item":  # press on the first cell, a frame over each, release
            self._inventory_open(action)
            button = str(args["button"])
            first, *others = action.rest
            game.screens.over(first - 1)
            game.screens.press(button, first - 1)
            for cell in others:
                self.frames(1)
                game.screens.over(cell - 1)
            game.screens.release(button)
            self.frames(1)
        elif name == "time":
            game.sky.set_time(parse_time(str(args["time"])))
        elif name == "type":
            if not game.text_screen.shown:
                raise ScriptError(f"{action.where}: type needs a text prompt open (use a sign)")
            game.text_screen.type_text(str(args["text"]))
            self.frames(1)
        elif name == "key":
            key = str(args["name"])
            ctrl = key.startswith("ctrl+")  # as the keyboard does: Ctrl down, the key, Ctrl up
            if ctrl:
                game.input("left control")
            game.input(key.removeprefix("ctrl+"))
            if ctrl:
                game.input("left control up")
            self.frames(1)
        elif name == "teleport":
            game.player.teleport((float(args["x"]), float(args["y"]), float(args["z"])))
        elif name == "chat":
            game.chat.send(str(args["text"]))
            self.frames(1)
        elif name == "expect_sound":
            wanted = str(args["name"])
            heard = game.sounds.take_played()
            if wanted not in heard:
                recent = ", ".join(dict.fromkeys(heard)) or "none"
                raise ScriptError(
                    f"{action.where}: no sound {wanted!r} was played since the last "
                    f"expect_sound (played: {recent})"
                )
        else:  # parse_script admits only the names above
            raise ScriptError(f"{action.where}: no way to replay {name!r}")


def open_session(options: Options) -> Session:
    """The world a run plays: the save the options choose, or an unsaved one offscreen.

    A new world made for a window's run starts in the remembered mode (`game.user_settings`) when
    the command line names none; offscreen runs never read the settings.
    """
    if not options.saves:
        return Session.unsaved(options)
    creative = False if options.headless else load_settings().creative
    return Session.open(options, new_world_creative=creative)


class _AnyKeyQuits(Entity):  # type: ignore[misc]
    """Ends the app at the first key or button press."""

    def input(self, key: str) -> None:
        """ursina calls this for every key and button event."""
        if not key.endswith(" up") and key not in ("mouse move", "scroll up", "scroll down"):
            application.quit()


def refusal_screen(message: str) -> Entity:
    """Show why the world was refused, over the sky, until a key is pressed; returns the screen."""
    screen = _AnyKeyQuits(parent=camera.ui, name="refusal")
    screen.setShaderOff(1)  # ursina's text shader fails on software GL (as in the HUD)
    Text(
        parent=screen,
        text=f"{message}\n\nThe world file was not changed. Press any key to quit.",
        origin=(0, 0),
        color=color.rgb(1, 0.92, 0.6),
        wordwrap=60,
    )
    return screen


LOADING_FRAMES = 2  # drawn before the game is built: a window shows the first one


def run(options: Options) -> int:
    """Start the game the options ask for; returns the process exit status.

    SIGTERM and SIGHUP end it as "Save and quit" does (`game.signals`): saved, exit status 0.
    """
    actions = None
    if options.script is not None:
        try:
            actions = read_script(options.script)
        except ScriptError as exc:
            print(f"blockpick: {exc}", file=sys.stderr)
            return 2
    if options.world is not None:
        try:
            world_file(options)  # checked before a window opens; `Session.open` uses it again
        except ValueError as exc:
            print(f"blockpick: {exc}", file=sys.stderr)
            return 2
    with StopSignals() as stop:
        return _run(options, actions, stop)


def _say(message: str) -> None:
    """Tell the terminal, if there still is one (after SIGHUP it may be gone: the save goes on)."""
    with contextlib.suppress(OSError):
        print(f"blockpick: {message}", file=sys.stderr, flush=True)


def _quit_when_stopped(stop: StopSignals) -> Callable[[Any], Any]:
    """A per-frame engine task that leaves the main loop once a stop signal came."""

    def watch(task: Any) -> Any:
        if stop.stopping:
            application.quit()
        return task.cont

    return watch


def _run(options: Options, actions: list[Action] | None, stop: StopSignals) -> int:
    """`run` once the script is read, with the stop signals caught."""
    try:
        app: Ursina = start(headless=options.headless, size=options.size)
    except Exception as exc:  # Panda3D raises a bare Exception when no window can open
        print(
            f"blockpick: could not open a window ({exc}). With no display, use "
            "--screenshot FILE or --script FILE, which render offscreen.",
            file=sys.stderr,
        )
        return 1
    loading = None
    if not options.headless:
        app.taskMgr.add(_quit_when_stopped(stop), "blockpick-stop-signals")
        # The loading screen from the window's first frame (`game.loading`): the world is opened,
        # the game built and its first view prepared under it, the last a frame at a time.
        loading = LoadingScreen()
        for _ in range(LOADING_FRAMES):
            app.step()
    try:
        session = open_session(options)
    except (ValueError, SaveError) as exc:
        if loading is not None:
            loading.destroy()
        if isinstance(exc, ValueError):  # a world name or path that cannot be used: usage error
            print(f"blockpick: {exc}", file=sys.stderr)
            return 2
        new = isinstance(exc, NewWorldError)  # a new world that cannot be made: a usage error
        refusal = str(exc) if new else f"cannot open the world {exc}"
        print(f"blockpick: {refusal}", file=sys.stderr)
        if not options.headless and not stop.stopping:
            refusal_screen(refusal)
            with contextlib.suppress(SystemExit):
                app.run(info=False)
        return 2 if new else 1
    if options.headless:
        fixed_frame_rate(SCRIPT_FPS)
        game = Game(options, live=False, session=session)
    else:
        assert loading is not None
        loading.set_world(session.name)
        app.step()
        game = Game(options, live=True, session=session, loading=loading)
    freeze_startup_heap()
    failed = False
    bad_script = False
    try:
        if options.headless:
            player = ScriptPlayer(
                game, app.step, lambda path: save_screenshot(app, path), lambda: stop.stopping
            )
            try:
                player.frames(WARMUP_FRAMES)
                player.run(actions or [])
                if options.screenshot is not None:
                    player.frames(1)
                    save_screenshot(app, options.screenshot)
            except Stopped:
                pass
            except ScriptError as exc:  # a line that cannot be done now (`type` with no prompt)
                print(f"blockpick: {exc}", file=sys.stderr)
                bad_script = True
            except OSError as exc:  # a screenshot that cannot be written: the world still saves
                print(f"blockpick: screenshot not saved: {exc}", file=sys.stderr)
                failed = True
        else:
            where = "" if session.store is None else f" ({session.store.path.absolute()})"
            print(f"blockpick: playing {session.name!r}{where}")
            with contextlib.suppress(SystemExit):  # ursina's quit is sys.exit()
                app.run(info=False)
    finally:
        if stop.received is not None:
            _say(f"{stop.received.name}: saving and quitting")
        saved = game.close()
    if saved and session.saving and session.store is not None:
        saved_in = session.store.path.absolute()
        _say(f"saved {session.name!r} in {saved_in}")
    if bad_script:
        return 2
    return 0 if saved and not failed else 1
