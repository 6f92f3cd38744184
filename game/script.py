"""Action scripts for ``--script FILE``: a text or JSON list of player actions, parsed and checked.

Text: one action per line, ``name arg arg``, ``#`` starts a comment. JSON: a list whose items are
such strings, lists (``["look", 180, 30]``) or objects (``{"action": "look", "yaw": 180, "pitch":
30}``); angles are Minecraft's (yaw 0 faces south, 90 west, 180 north, 270 east). `ACTIONS` lists
every action with its arguments; docs/controls.md explains them. Parsing is pure; `game.runner`
replays the actions through the game's input path.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.daylight import parse_time
from world.blocks.sounds import check_sound_name
from world.validate import WORLD_LIMIT

__all__ = [
    "ACTIONS",
    "MAX_DRAG_CELLS",
    "MAX_SCROLL",
    "Action",
    "ScriptError",
    "parse_script",
    "read_script",
]

Arg = float | int | str | bool
MAX_SCROLL = 100  # wheel steps in one action: the hotbar has nine slots, more only wraps round


class ScriptError(ValueError):
    """A script that cannot be run, with where and why."""


def _on_off(text: str) -> bool:
    """Parse on/off (also true/false, 1/0)."""
    lowered = str(text).lower()
    if lowered in ("on", "true", "1", "yes"):
        return True
    if lowered in ("off", "false", "0", "no"):
        return False
    raise ValueError(f"expected on or off, got {text!r}")


def _finite(text: str) -> float:
    """Parse a finite number (``nan`` and ``inf`` are refused: they would poison the player)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {text!r}")
    return value


def _degrees(text: str) -> float:
    """Parse an angle in degrees (any finite value; yaw wraps, pitch is clamped)."""
    return _finite(text)


def _axis(text: str) -> float:
    """Parse a movement key's strength, -1..1 (as the keyboard gives)."""
    value = _finite(text)
    if not -1.0 <= value <= 1.0:
        raise ValueError(f"must be -1..1, got {text!r}")
    return value


def _coordinate(text: str) -> float:
    """Parse a feet coordinate inside the world (`world.validate.WORLD_LIMIT`)."""
    value = _finite(text)
    if not -WORLD_LIMIT <= value <= WORLD_LIMIT:
        raise ValueError(f"is outside the world (|coordinate| <= {WORLD_LIMIT}), got {text!r}")
    return value


def _steps(text: str) -> int:
    """Parse a signed count of mouse-wheel steps."""
    value = int(text)
    if abs(value) > MAX_SCROLL:
        raise ValueError(f"steps must be -{MAX_SCROLL}..{MAX_SCROLL}, got {value}")
    return value


def _picture(text: str) -> str:
    """Parse a screenshot's file name (not empty, not a folder)."""
    if not text.strip():
        raise ValueError("path must not be empty")
    if Path(text).is_dir():
        raise ValueError(f"{text!r} is a folder (give a PNG file name)")
    return text


def _frames(text: str) -> int:
    """Parse a non-negative frame count."""
    value = int(text)
    if value < 0:
        raise ValueError(f"frames must be >= 0, got {value}")
    return value


def _cell(text: str) -> int:
    """Parse a cell of the inventory screen, 1..63: rows of nine from the top left; in survival
    37..45 are the crafting grid's cells, row by row, and 46 its output; with a chest open,
    37..63 are the chest's slots."""
    value = int(text)
    if not 1 <= value <= 63:
        raise ValueError(f"cell must be 1..63, got {value}")
    return value


_BUTTONS = ("left", "right", "shift")


def _button(text: str) -> str:
    """Parse a mouse button for a click: left, right, or shift (Shift held, a left click)."""
    if text.lower() not in _BUTTONS:
        raise ValueError(f"button must be left, right or shift, got {text!r}")
    return text.lower()


def _drag_button(text: str) -> str:
    """Parse the button of a drag: left (spread evenly) or right (one each)."""
    if text.lower() not in _BUTTONS[:2]:
        raise ValueError(f"button must be left or right, got {text!r}")
    return text.lower()


MAX_DRAG_CELLS = 63  # the screen's cells, each crossed once


def _words(text: str) -> str:
    """Parse a search line: at most 40 characters."""
    if len(text) > 40:
        raise ValueError(f"search text must be at most 40 characters, got {len(text)}")
    return text


def _unescaped(text: str, what: str, *, lines: bool) -> str:
    """Script text: ``_`` stands for a space (a script line splits at spaces), ``\\_`` for an
    underscore, and with ``lines`` ``/`` starts a new line and ``\\/`` is a slash; at most 256
    characters."""
    if len(text) > 256:
        raise ValueError(f"{what} must be at most 256 characters, got {len(text)}")
    out = []
    escaped = False
    for char in text:
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "_":
            out.append(" ")
        elif char == "/" and lines:
            out.append("\n")
        else:
            out.append(char)
    if escaped:
        out.append("\\")
    return "".join(out)


def _typed(text: str) -> str:
    """Parse text to type into a prompt (`_unescaped`, with ``/`` a new line)."""
    return _unescaped(text, "typed text", lines=True)


def _chat_line(text: str) -> str:
    """Parse a chat line (`_unescaped`: ``/give_coal\\_ore`` gives coal_ore)."""
    return _unescaped(text, "a chat line", lines=False)


_KEYS = ("enter", "escape", "backspace", "q", "ctrl+q")


def _key(text: str) -> str:
    """Parse a key name a script may press: enter, escape, backspace, q (throw one of the held
    item) or ctrl+q (throw the stack)."""
    if text.lower() not in _KEYS:
        raise ValueError(f"key must be one of {', '.join(_KEYS)}, got {text!r}")
    return text.lower()


def _sound_name(text: str) -> str:
    """Parse a sound name, ``"mod:name"`` (`world.blocks.sounds.check_sound_name`)."""
    return check_sound_name(text, "sound")


def _time(text: str) -> str:
    """Parse a time of day (`game.daylight.parse_time`), kept as text."""
    parse_time(text)
    return text


def _slot(text: str) -> int:
    """Parse a hotbar slot number 1..9."""
    value = int(text)
    if not 1 <= value <= 9:
        raise ValueError(f"slot must be 1..9, got {value}")
    return value


@dataclass(frozen=True)
class _Param:
    """One argument of an action: its name, parser and default (None: required)."""

    name: str
    parse: Callable[[str], Arg]
    default: Arg | None = None
    many: int = 0  # > 0: the rest of the values, at least this many (a tuple)


def _p(name: str, parse: Callable[[str], Arg], default: Arg | None = None) -> _Param:
    return _Param(name, parse, default)


ACTIONS: dict[str, tuple[_Param, ...]] = {
    "look": (_p("yaw", _degrees), _p("pitch", _degrees)),  # absolute facing, degrees
    "turn": (_p("yaw", _degrees), _p("pitch", _degrees, 0.0)),  # relative
    "move": (_p("forward", _axis), _p("strafe", _axis, 0.0), _p("frames", _frames, -1)),
    "sprint": (_p("on", _on_off, True),),
    "sneak": (_p("on", _on_off, True),),
    "jump": (),
    "fly": (_p("on", _on_off, True),),
    "break": (_p("frames", _frames, 1),),  # hold the left button this many frames
    "place": (),  # right click: use the block or place the selected one
    "use": (),
    "pick": (),  # middle click
    "select": (_p("slot", _slot),),
    "scroll": (_p("steps", _steps, 1),),
    "wait": (_p("frames", _frames, 1),),
    "screenshot": (_p("path", _picture),),
    "teleport": (_p("x", _coordinate), _p("y", _coordinate), _p("z", _coordinate)),
    "inventory": (),  # E: open the inventory screen (the creative picker), or close it
    "search": (_p("text", _words, ""),),  # the creative picker's search line
    # click a cell of the open inventory screen: left (default), right, or shift (+ left)
    "click_item": (_p("cell", _cell), _p("button", _button, "left")),
    # press on the first cell, cross the others, release: spread the carried stack
    "drag_item": (_p("button", _drag_button), _Param("cells", _cell, many=2)),
    "hover_item": (_p("cell", _cell),),  # point at a cell: its item's name shows
    "type": (_p("text", _typed),),  # type into an open text prompt (a sign's editor)
    "key": (_p("name", _key),),  # press a key: enter, escape, backspace, q, ctrl+q
    "time": (_p("time", _time),),  # set the time of day: a name or ticks (game.daylight)
    "chat": (_p("text", _chat_line),),  # send a line in the chat: "/give_stone_10"
    # Fail unless the game played (or, with no sound device, would have played) a sound of this
    # name since the script's last expect_sound: "expect_sound base:stone_break".
    "expect_sound": (_p("name", _sound_name),),
}


@dataclass(frozen=True)
class Action:
    """One parsed action: its name, its arguments by name, where it came from, and the values
    of its last argument when it takes many (``drag_item``'s cells)."""

    name: str
    args: dict[str, Arg]
    where: str
    rest: tuple[int, ...] = ()

    def __getitem__(self, key: str) -> Arg:
        return self.args[key]


def _build(name: object, values: list[object], named: dict[str, object], where: str) -> Action:
    """Check one action's name and arguments against `ACTIONS`."""
    if not isinstance(name, str) or name.lower() not in ACTIONS:
        known = ", ".join(sorted(ACTIONS))
        raise ScriptError(f"{where}: unknown action {name!r} (known: {known})")
    name = name.lower()
    params = ACTIONS[name]
    many = params[-1].many if params else 0
    if len(values) > len(params) and not many:
        raise ScriptError(f"{where}: {name} takes at most {len(params)} arguments")
    unknown = set(named) - {p.name for p in params}
    if unknown:
        raise ScriptError(f"{where}: {name} has no argument {sorted(unknown)[0]!r}")
    args: dict[str, Arg] = {}
    rest: tuple[int, ...] = ()
    for index, param in enumerate(params):
        if param.many:
            raws = values[index:] if len(values) > index else named.get(param.name, [])
            raws = raws if isinstance(raws, list) else [raws]
            if not param.many <= len(raws) <= MAX_DRAG_CELLS:
                raise ScriptError(
                    f"{where}: {name} needs {param.many}..{MAX_DRAG_CELLS} {param.name}, "
                    f"got {len(raws)}"
                )
            try:
                rest = tuple(int(param.parse(str(raw))) for raw in raws)
            except ValueError as exc:
                raise ScriptError(f"{where}: {name} {param.name}: {exc}") from None
            continue
        if index < len(values):
            raw: object = values[index]
        elif param.name in named:
            raw = named[param.name]
        elif param.default is not None:
            args[param.name] = param.default
            continue
        else:
            raise ScriptError(f"{where}: {name} needs its {param.name!r} argument")
        try:
            args[param.name] = param.parse(str(raw))
        except ValueError as exc:
            raise ScriptError(f"{where}: {name} {param.name}: {exc}") from None
    return Action(name, args, where, rest)


def _from_text_line(line: str, where: str) -> Action | None:
    """An action from one text line, or None for a blank or comment line."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    return _build(words[0], list(words[1:]), {}, where)


def parse_script(text: str, source: str = "script") -> list[Action]:
    """Parse a script's text (JSON when it starts with ``[``, else the line format).

    Raises
    ------
    ScriptError
        Naming the line (or JSON item) and the problem.
    """
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except ValueError as exc:  # also a number of more than 4300 digits
            raise ScriptError(f"{source}: not valid JSON: {exc}") from None
        except RecursionError:
            raise ScriptError(f"{source}: not valid JSON: nested too deeply") from None
        actions = []
        for number, item in enumerate(items, start=1):
            where = f"{source} item {number}"
            if isinstance(item, str):
                action = _from_text_line(item, where)
                if action is not None:
                    actions.append(action)
            elif isinstance(item, list) and item:
                actions.append(_build(item[0], list(item[1:]), {}, where))
            elif isinstance(item, dict) and "action" in item:
                named = {k: v for k, v in item.items() if k != "action"}
                actions.append(_build(item["action"], [], named, where))
            else:
                raise ScriptError(f"{where}: expected a string, a list or an object with 'action'")
        return actions
    actions = []
    for number, line in enumerate(text.splitlines(), start=1):
        action = _from_text_line(line, f"{source} line {number}")
        if action is not None:
            actions.append(action)
    return actions


def read_script(path: Path) -> list[Action]:
    """Read and parse a script file (UTF-8 text; anything else is refused naming its line)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ScriptError(f"cannot read script {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Notepad) is no action
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ScriptError(
            f"{path} line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
            "save the script as UTF-8"
        ) from None
    return parse_script(text, str(path))
