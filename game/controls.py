"""Input mapped to intents: the key map, and the timing of held buttons.

`Controls` knows which key means what (docs/controls.md) and nothing of the engine or the
rules. The game hands it every key or button event (`Controls.key`), the keyboard and mouse
each frame in live play (`Controls.read`), and, each frame the world runs, what is under the
crosshair with the seconds it takes to break (`Controls.hold`, given an `Aim`). It answers
with `Intent`s, which the game carries out (through `world.rules` for the actions).

`MouseLook` turns the captured pointer's positions into look motion (see its docstring): the
first position after a capture or any change of the window counts for nothing.

It owns the timing of held buttons: breaking progress (`world.actions.breaking.BreakProgress`, which
also gives the crack's stage), the repeat of a held right button, the double tap of space
that toggles flying; and which buttons were pressed as actions: a press that captured the
mouse or closed the pause menu is not one, so holding it on does not start breaking. It follows
the Ctrl keys by their own down and up events, so Q with one held throws the stack wherever the
events come from (a keyboard, a script's ``key ctrl+q``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from game.hotbar import SLOTS
from game.player import HeldInput
from world.actions.breaking import BreakProgress
from world.geometry import Int3

__all__ = [
    "DOUBLE_TAP_SECONDS",
    "MOUSE_SENSITIVITY",
    "NO_AIM",
    "REPEAT_SECONDS",
    "Act",
    "Aim",
    "Controls",
    "Intent",
    "MouseLook",
    "Pointer",
    "PointerSample",
]

REPEAT_SECONDS = 0.25  # a held right button repeats placing (Minecraft: 4 ticks)
DOUBLE_TAP_SECONDS = 0.3  # two presses of space this close toggle flying
MOUSE_SENSITIVITY = 80.0  # degrees per screen height of mouse travel, at 100% in the settings
_KEYS_FORWARD = (("w", 1.0), ("s", -1.0), ("up arrow", 1.0), ("down arrow", -1.0))
_KEYS_STRAFE = (("d", 1.0), ("a", -1.0), ("right arrow", 1.0), ("left arrow", -1.0))


class Act(Enum):
    """What an intent asks the game to do."""

    PAUSE = "pause"  # open the pause menu
    RESUME = "resume"  # close it
    CAPTURE = "capture"  # capture the mouse (the click that does it does nothing else)
    AIM = "aim"  # raycast the view now: a click acts on what is under the crosshair now
    ATTACK = "attack"  # the left button went down: answer with `Controls.attack`
    BREAK = "break"  # break the target through the rules
    USE = "use"  # right click: a mod's use, or place the selected block
    PICK = "pick"  # middle click: the target's block into the hotbar
    SELECT = "select"  # select hotbar slot ``value`` (0-based)
    SCROLL = "scroll"  # move the hotbar selection by ``value`` (-1 or 1)
    SCREENSHOT = "screenshot"  # F2
    DEBUG = "debug"  # F3: show or hide the debug text
    TRACE = "trace"  # F4: show or hide the traced voxels
    FLY = "fly"  # space tapped twice: start or stop flying
    CHAT = "chat"  # T: open the chat line (``value`` 1: "/", with the slash typed)
    DROP = "drop"  # Q: throw one of the held item (``value`` 1: Ctrl+Q, the whole stack)


@dataclass(frozen=True)
class Intent:
    """One thing the player means, with its number where it takes one (slot, scroll steps)."""

    act: Act
    value: int = 0


@dataclass(frozen=True)
class Aim:
    """The block under the crosshair (None: nothing) and the seconds it takes to break.

    ``seconds`` is the rules. `world.rules.Rules.break_time`: 0 breaks at once (creative),
    ``inf`` never (bedrock, nothing targeted).
    """

    block: Int3 | None
    seconds: float


NO_AIM = Aim(None, math.inf)


@dataclass(frozen=True)
class PointerSample:
    """Where the pointer is in the window (pixels from the top left), and the window itself.

    ``relative``: the window reports raw motion (Panda3D's ``M_relative``): the position adds
    up the mouse's travel and the pointer needs no centring.
    """

    x: float
    y: float
    size: tuple[int, int]
    origin: tuple[int, int] = (0, 0)  # the window's place on the screen
    in_window: bool = True
    focused: bool = True
    relative: bool = False

    @property
    def centre(self) -> tuple[int, int]:
        """The pixel the pointer is kept at between frames (centring mode)."""
        return (self.size[0] // 2, self.size[1] // 2)

    @property
    def inside(self) -> bool:
        """Whether the pointer is over the window and the window has a size (not minimised)."""
        return self.in_window and min(self.size) > 0

    @property
    def ui_position(self) -> tuple[float, float] | None:
        """Where the pointer is in ``camera.ui``'s units (screen heights from the centre, y up);
        None when it is not `inside` the window."""
        if not self.inside:
            return None
        width, height = self.size
        return ((self.x - width / 2) / height, (height / 2 - self.y) / height)


class Pointer(Protocol):
    """The mouse pointer as looking uses it (`game.engine.WindowPointer`, or a test's)."""

    def capture(self, captured: bool) -> None:
        """Hide and hold the pointer for looking, or let it go."""

    def sample(self) -> PointerSample | None:
        """Where the pointer is now (None: there is no pointer)."""

    def move_to(self, x: int, y: int) -> None:
        """Put the pointer at a pixel of the window."""


@dataclass
class MouseLook:
    """The captured pointer's positions, frame by frame, made into look motion.

    Motion is the travel since the last position counted, in screen heights (x right, y up).
    A position counts only against an anchor taken while nothing changed: after `recapture`
    (the game takes the pointer: start, menu closed, a click into the window), and whenever
    the window's size, place or focus changes or the pointer leaves it, the next position
    gives no motion and becomes the anchor; so a pointer left anywhere by the menu, a resize
    or another window never turns the camera. In centring mode the pointer is put back at the
    window's centre, which is the anchor; in relative mode the last position is.
    """

    _anchor: tuple[float, float] | None = None
    _window: tuple[object, ...] | None = field(default=None, repr=False)

    def recapture(self) -> None:
        """The pointer was (re)captured: its next position gives no motion."""
        self._anchor = None

    def motion(self, sample: PointerSample) -> tuple[tuple[float, float], tuple[int, int] | None]:
        """The look motion this position gives, and where to move the pointer (None: stay)."""
        window = (sample.size, sample.origin, sample.focused, sample.in_window, sample.relative)
        if window != self._window:
            self._window = window
            self._anchor = None
        if not (sample.focused and sample.inside):
            self._anchor = None
            return (0.0, 0.0), None
        here = (sample.x, sample.y)
        anchor, self._anchor = self._anchor, (here if sample.relative else sample.centre)
        if anchor is None:
            travel = (0.0, 0.0)
        else:
            height = sample.size[1]
            travel = ((here[0] - anchor[0]) / height, (anchor[1] - here[1]) / height)
        recentre = not sample.relative and here != sample.centre
        return travel, (sample.centre if recentre else None)

    def travel(self, pointer: Pointer) -> tuple[float, float]:
        """Read the pointer: its motion this frame, the pointer put back where it is kept."""
        sample = pointer.sample()
        if sample is None:
            return (0.0, 0.0)
        travel, recentre = self.motion(sample)
        if recentre is not None:
            pointer.move_to(*recentre)
        return travel


class Controls:
    """The key map and the held buttons' timing for one game (see the module docstring)."""

    def __init__(self) -> None:
        self.held = HeldInput()  # what is held this frame (a script fills it directly)
        self.breaking = BreakProgress()
        self._repeat_left = 0.0
        self._last_space = -math.inf
        self._acting: set[str] = set()  # buttons pressed as actions and not released yet
        self._control: set[str] = set()  # the Ctrl keys held down
        self.look = MouseLook()

    # -- events --------------------------------------------------------------------------------

    def key(self, key: str, *, now: float, paused: bool, grab: bool) -> list[Intent]:
        """The intents of one key or button event (ursina's names: ``"left mouse down"``).

        ``now``: the game's clock in seconds (for the double tap); ``paused``: the pause menu
        is open (its buttons take the clicks); ``grab``: a click captures the mouse first.
        """
        if key.endswith("mouse up"):
            self._acting.discard(key.removesuffix(" up"))
        if key in _CONTROL_KEYS:
            self._control.add(key)
        elif key.removesuffix(" up") in _CONTROL_KEYS:
            self._control.discard(key.removesuffix(" up"))
        if key == "escape":
            return [Intent(Act.RESUME if paused else Act.PAUSE)]
        if paused:
            return []
        if grab and key.endswith("mouse down"):
            return [Intent(Act.CAPTURE)]
        intents: list[Intent] = []
        if key.endswith("mouse down"):
            self._acting.add(key.removesuffix(" down"))
            intents.append(Intent(Act.AIM))
        if key == "left mouse down":
            intents.append(Intent(Act.ATTACK))
        elif key == "left mouse up":
            self._advance(0.0, holding=False, aim=NO_AIM)
        elif key == "right mouse down":
            self._repeat_left = REPEAT_SECONDS
            intents.append(Intent(Act.USE))
        elif key == "middle mouse down":
            intents.append(Intent(Act.PICK))
        elif key in ("scroll up", "scroll down"):
            intents.append(Intent(Act.SCROLL, -1 if key == "scroll up" else 1))
        elif len(key) == 1 and key.isdigit() and 1 <= int(key) <= SLOTS:
            intents.append(Intent(Act.SELECT, int(key) - 1))
        elif key in _FUNCTION_KEYS:
            intents.append(Intent(_FUNCTION_KEYS[key]))
        elif key in ("t", "/"):
            intents.append(Intent(Act.CHAT, int(key == "/")))
        elif key == "q":
            intents.append(Intent(Act.DROP, int(bool(self._control))))
        elif key == "space":
            if now - self._last_space <= DOUBLE_TAP_SECONDS:
                intents.append(Intent(Act.FLY))
                self._last_space = -math.inf
            else:
                self._last_space = now
        return intents

    def attack(self, aim: Aim) -> list[Intent]:
        """The left button went down on ``aim``: a block that breaks at once breaks now.

        A new click starts at once (the delay after a break only paces holding); a click on
        nothing breakable (bedrock, the sky) still asks the rules, which say why.
        """
        self.breaking.cooldown = 0.0
        broke = self._advance(0.0, holding=True, aim=aim)
        if broke or self.breaking.target is None:
            return [Intent(Act.BREAK)]
        return []

    def release(self) -> None:
        """Let go of every button (the game pauses): breaking starts over, nothing is held."""
        self._advance(0.0, holding=False, aim=NO_AIM)
        self._acting.clear()
        self._control.clear()

    # -- every frame ---------------------------------------------------------------------------

    def read(
        self,
        keys: Mapping[str, float],
        mouse_velocity: Sequence[float],
        *,
        captured: bool,
        sensitivity: int,
    ) -> tuple[float, float]:
        """Fill `held` from the keys held down; returns the turn the mouse asks for.

        ``keys``: how far each key is down (ursina's ``held_keys``; a missing key is up);
        ``mouse_velocity``: the mouse's travel this frame in screen heights (x right, y up);
        ``sensitivity``: percent of `MOUSE_SENSITIVITY`. The turn is (yaw, pitch) in degrees,
        (0, 0) unless the mouse is ``captured``.
        """
        held = self.held
        held.forward = sum(v for k, v in _KEYS_FORWARD if keys.get(k, 0))
        held.strafe = sum(v for k, v in _KEYS_STRAFE if keys.get(k, 0))
        held.jump = bool(keys.get("space", 0))
        held.sneak = bool(keys.get("left shift", 0))
        held.sprint = bool(keys.get("left control", 0))
        held.attack = bool(keys.get("left mouse", 0)) and "left mouse" in self._acting
        held.use = bool(keys.get("right mouse", 0)) and "right mouse" in self._acting
        if not captured:
            return (0.0, 0.0)
        speed = MOUSE_SENSITIVITY * sensitivity / 100.0
        return (mouse_velocity[0] * speed, -mouse_velocity[1] * speed)

    def hold(self, dt: float, aim: Aim) -> list[Intent]:
        """``dt`` seconds of the held buttons on ``aim``: breaking, and placing repeated."""
        self._repeat_left -= dt
        intents = (
            [Intent(Act.BREAK)] if self._advance(dt, holding=self.held.attack, aim=aim) else []
        )
        if self.held.use and self._repeat_left <= 0.0:
            self._repeat_left = REPEAT_SECONDS
            intents.append(Intent(Act.USE))
        return intents

    def _advance(self, dt: float, *, holding: bool, aim: Aim) -> bool:
        """Feed the aim and the button to the break progress; True when the block broke."""
        target = aim if holding else NO_AIM
        return self.breaking.update(target.block, holding, target.seconds, dt)


_FUNCTION_KEYS = {"f2": Act.SCREENSHOT, "f3": Act.DEBUG, "f4": Act.TRACE}
_CONTROL_KEYS = ("left control", "right control")
