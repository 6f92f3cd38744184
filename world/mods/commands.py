"""Chat commands: ``/name rest of the line`` typed by the player (Luanti's
``register_chatcommand``, Minecraft's commands).

A mod adds commands in its ``register_commands(commands)`` hook with ``commands.register(
ChatCommand("home", go_home, params="[name]", description="..."))``. The player opens the chat
(``T``, or ``/`` with the slash typed) and sends ``/home castle``; `Commands.parse` finds the
command, and the game runs its ``on_run`` as that player's action, the way a text prompt's
``on_submit`` runs (`world.rules.Rules.submit_text`, through `Commands.prompt`): in a
transaction, through the hook watchdog, rolled back on an error (which is logged with the mod's
name and told to the player), with protection's vetoes in force. ``on_run`` asks for any of
``world``, ``actor``, ``text`` (the rest of the line, without surrounding blanks), ``pos`` (the
voxel at the player's eye) and ``player`` (the player who ran it, `world.mods.objects.PlayerRef`:
``player.teleport(...)``, ``player.inventory.add(...)``; None for an actor who is no player of
the world) by name, and answers with ``actor.tell(...)``.

The game's own commands (``/help``, ``/tp``...) are registered the same way: by a plugin the game
loads with its content (``Mods(game=...)``, `world.mods.host`), whose ``register_commands``
gets a `CommandRegistrar` like any mod's and whose commands run through the same path. Names
are one namespace for every mod and the game, as in Minecraft and Luanti: a name taken already
is refused at registration, naming both owners, and the game's plugins register before any mod
(`world.mods.registration.make_commands`), so no mod takes the game's names. ``/help`` names a
mod's command's owner, not the game's. A name is 1 to 32 lower-case letters, digits and
underscores; the player may type it in any case.

A run's commands are gathered by `world.mods.registration.make_commands`; the game's ``/mods``
answer is `world.mods.breaker.mods_command`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from world.mods.text_prompt import TextPrompt
from world.validate import WORLD_LIMIT

__all__ = [
    "COMMAND_NAME",
    "MAX_CHAT",
    "ChatCommand",
    "CommandRegistrar",
    "Commands",
    "coordinate",
]

COMMAND_NAME: Final = re.compile(r"^[a-z0-9_]{1,32}$")
MAX_CHAT: Final = 256
"""The most characters a chat line holds (Minecraft's chat: 256)."""


@dataclass(frozen=True)
class ChatCommand:
    """One command (module notes).

    Parameters
    ----------
    name : str
        Typed after the slash: ``"home"`` for ``/home``.
    on_run : callable
        Run with the arguments it names, of ``world``, ``actor``, ``text``, ``pos``, ``player``.
    params : str
        How to write its arguments, shown by ``/help`` (``"<x> <y> <z>"``).
    description : str
        What it does, shown by ``/help``.
    mod : str
        Its owner, the mod (or the game's plugin) that registered it: set when it is
        registered.
    """

    name: str
    on_run: Callable[..., Any]
    params: str = ""
    description: str = ""
    mod: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not COMMAND_NAME.match(self.name):
            raise ValueError(
                f"command name must be 1 to 32 lower-case letters, digits or underscores, "
                f"got {self.name!r}"
            )
        if not callable(self.on_run):
            raise ValueError(f"on_run of command {self.name!r} must be callable")
        for field in ("params", "description", "mod"):
            if not isinstance(getattr(self, field), str):
                raise ValueError(f"{field} of command {self.name!r} must be a str")

    @property
    def usage(self) -> str:
        """``/name params``."""
        return f"/{self.name} {self.params}".rstrip()


class CommandRegistrar:
    """What ``register_commands`` receives: adds the mod's commands to the table being built."""

    def __init__(self, table: dict[str, ChatCommand], mod: str) -> None:
        self._table = table
        self.mod = mod
        self._pending: list[ChatCommand] = []

    def register(self, command: ChatCommand) -> None:
        """Add a command (owned by this mod).

        Raises
        ------
        TypeError
            When it is not a `ChatCommand`.
        ValueError
            When its name is taken, naming the owner.
        """
        if not isinstance(command, ChatCommand):
            raise TypeError(f"command must be a ChatCommand, got {type(command).__name__}")
        for taken in (self._table.get(command.name), *self._pending):
            if taken is not None and taken.name == command.name:
                raise ValueError(
                    f"mod {self.mod!r} registers command /{command.name}, which "
                    f"{taken.mod or self.mod!r} registered already"
                )
        self._pending.append(replace(command, mod=self.mod))

    def commit(self) -> None:
        """Add the held commands (the mod's hook returned without an error)."""
        for command in self._pending:
            self._table[command.name] = command
        self._pending.clear()


class Commands:
    """Every command of a run, by name: the game's own and the loaded mods'.

    Parameters
    ----------
    game : iterable of str
        The names of the game's plugins (`world.mods.host.Mods.game`): ``/help`` shows their
        commands without an owner, as the game's own.
    """

    def __init__(self, game: Iterable[str] = ()) -> None:
        self._by_name: dict[str, ChatCommand] = {}
        self._game = frozenset(game)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> ChatCommand:
        return self._by_name[name]

    def registrar(self, mod: str) -> CommandRegistrar:
        """A mod's registrar onto this table (its ``register_commands`` hook)."""
        return CommandRegistrar(self._by_name, mod)

    def parse(self, line: str) -> tuple[ChatCommand | None, str, str]:
        """``"/Name rest"`` → (the command or None, its name in lower case, ``"rest"``).

        Raises
        ------
        ValueError
            When ``line`` is not a str starting with ``/``.
        """
        if not isinstance(line, str) or not line.startswith("/"):
            raise ValueError(f"a command line starts with '/', got {line!r}")
        name, _, rest = line[1 : MAX_CHAT + 1].strip().partition(" ")
        name = name.lower()
        return self._by_name.get(name), name, rest.strip()

    def prompt(self, command: ChatCommand) -> TextPrompt:
        """The text prompt that runs ``command`` through `world.rules.Rules.submit_text`: its
        owner answers for its failures; the text is one line of up to `MAX_CHAT` characters."""
        return TextPrompt(
            f"{command.mod}:/{command.name}",
            command.usage,
            command.on_run,
            max_lines=1,
            line_length=MAX_CHAT,
        )

    def help(self, name: str = "") -> list[str]:
        """``/help``'s answer: every command's usage, or one command's usage and description."""
        if not name:
            names = sorted(self._by_name)
            return [f"Commands: {', '.join('/' + n for n in names)}", "/help <command> for more"]
        command = self._by_name.get(name.lower().removeprefix("/"))
        if command is None:
            return [f"Unknown command /{name.removeprefix('/')}"]
        owner = "" if command.mod in self._game else f" (mod {command.mod})"
        return [f"{command.usage}{owner}", *([command.description] if command.description else [])]


def coordinate(word: str, here: float, *, whole: bool = False) -> float:
    """A command's coordinate, as Minecraft's: a number, ``~`` (``here``, the player's) or
    ``~n`` (n from it); with ``whole``, whole numbers only (voxels).

    Raises
    ------
    ValueError
        Naming the word when it is not a coordinate or lies outside the world
        (`world.validate.WORLD_LIMIT`).
    """
    if not isinstance(word, str):
        raise ValueError(f"a coordinate must be a str, got {word!r}")
    relative = word.startswith("~")
    number = word[1:] if relative else word
    try:
        value: float = (int(number) if whole else float(number)) if number else 0
    except ValueError:
        kind = "a whole-number coordinate" if whole else "a coordinate"
        raise ValueError(f"{word!r} is not {kind}") from None
    value = here + value if relative else value
    if not math.isfinite(value) or not -WORLD_LIMIT <= value <= WORLD_LIMIT:
        raise ValueError(f"{word!r} is outside the world (|coordinate| <= {WORLD_LIMIT})")
    return value
