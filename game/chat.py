"""The chat line: ``T`` (or ``/``, with the slash typed) opens it; Enter sends what is typed;
Up and Down go through the lines sent before (the last `HISTORY`), as in Minecraft.

A line that starts with ``/`` runs a command (`world.mods.commands`): the game's own below, as
Minecraft's, or a mod's, run as the player's action through the rules. Any other line is said
aloud: in a single-player game it is shown as ``<name> text``, as Minecraft's chat shows it.
Answers and errors are shown in the HUD's message lines (`game.hud.Hud.flash`).

The game's own commands (``/help`` lists every command, the mods' included):

- ``/help [command]``
- ``/tp <x> <y> <z>``: teleport the feet; ``~`` is where the player is, ``~5`` five blocks on
- ``/time set <sunrise|day|noon|sunset|night|midnight|ticks>``, ``/time query``
- ``/gamemode <creative|survival>``
- ``/give <item> [count]``: into the inventory (count 1..6400, at most what fits)
- ``/seed``: the world's seed
- ``/mods [enable <mod>]``: the loaded mods and the hooks switched off for failing again and
  again (`world.mods.breaker`); ``enable`` turns a mod's back on (`world.mods.breaker.mods_command`)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from game.daylight import NAMED_TIMES, parse_time
from game.player import PLAYER_NAME
from world.geometry import Vec3
from world.mods.breaker import Breaker, mods_command
from world.mods.commands import (
    MAX_CHAT,
    ChatCommand,
    Commands,
    coordinate,
)
from world.mods.host import Mods
from world.mods.registration import make_commands
from world.mods.text_prompt import TextPrompt

__all__ = ["CHAT_PROMPT", "HISTORY", "MAX_GIVE", "Chat", "ChatSeat"]

CHAT_PROMPT: Final = "base:chat"
MAX_GIVE: Final = 6400  # a hundred stacks: more than the inventory holds
HISTORY: Final = 100  # sent lines Up and Down go through
_GAME_MODES: Final = {
    "creative": True,
    "c": True,
    "1": True,
    "survival": False,
    "s": False,
    "0": False,
}


@dataclass(frozen=True)
class ChatSeat:
    """What the chat acts on, as callbacks the game hands it (the chat never reaches into the
    game: it is given these and the loaded mods)."""

    show: Callable[[str], object]  # lines in the HUD's message area
    submit: Callable[[TextPrompt, str], object]  # a mod's command, run as the player's action
    feet: Callable[[], Vec3]
    teleport: Callable[[Vec3], object]
    time_of_day: Callable[[], tuple[float, str]]  # (tick, clock text)
    set_time: Callable[[int], object]
    set_creative: Callable[[bool], object]
    items: Callable[[], list[str]]  # what a player can hold (the creative picker's items)
    give: Callable[[str, int], int]  # into the inventory: what did not fit
    seed: Callable[[], int]
    breaker: Callable[[], Breaker]  # the rules' circuit breaker


class Chat:
    """The chat of one game: its commands, and what a sent line does."""

    def __init__(self, seat: ChatSeat, mods: Mods) -> None:
        self.seat = seat
        self.mods = mods
        times = "|".join(NAMED_TIMES)
        builtin = [  # each runs with the rest of the line, and returns the lines to show
            ChatCommand(
                "help", self._help, "[command]", "list the commands, or tell what one does"
            ),
            ChatCommand(
                "tp",
                self._teleport,
                "<x> <y> <z>",
                "teleport; ~ is where you are, ~5 five blocks on",
            ),
            ChatCommand(
                "time", self._time, f"set <{times}|ticks> | query", "set or tell the time of day"
            ),
            ChatCommand("gamemode", self._game_mode, "<creative|survival>", "change the game mode"),
            ChatCommand("give", self._give, "<item> [count]", "put items into the inventory"),
            ChatCommand("seed", lambda _: [f"Seed: {seat.seed()}"], "", "tell the world's seed"),
            ChatCommand(
                "mods",
                self._mods,
                "[enable <mod>]",
                "list the mods and the hooks switched off; enable turns a mod's back on",
            ),
        ]
        self._own: dict[str, Callable[[str], list[str]]] = {c.name: c.on_run for c in builtin}
        self.commands: Commands = make_commands(mods, builtin)
        self.history: list[str] = []  # the lines sent, oldest first (at most `HISTORY`)
        self._recalled = 0  # how far back Up went in the history (0: the line being typed)

    def prompt(self, text: str = "") -> TextPrompt:
        """The chat's text prompt, starting with ``text`` (``"/"`` when opened with the slash);
        Up starts again from the newest line sent."""
        self._recalled = 0
        return TextPrompt(
            CHAT_PROMPT,
            "Chat: Enter sends, Escape closes. /help lists the commands",
            lambda: None,  # never run: `send` reads the line
            text=text,
            max_lines=1,
            line_length=MAX_CHAT,
        )

    def recall(self, steps: int) -> str | None:
        """Up (``steps`` 1) or Down (-1) in the history of sent lines: the line to show, ""
        past the newest, None when there is no further one (as Minecraft's chat)."""
        at = self._recalled + steps
        if not 0 <= at <= len(self.history):
            return None
        self._recalled = at
        return self.history[-at] if at else ""

    def send(self, line: str) -> list[str]:
        """Do what a sent line says; returns the lines shown (the mods' answers go by ``tell``)."""
        line = self.prompt().clean(line).strip()
        self._recalled = 0
        if not line:
            return []
        if not self.history or self.history[-1] != line:
            self.history = [*self.history[-(HISTORY - 1) :], line]
        if not line.startswith("/"):
            return self._show([f"<{PLAYER_NAME}> {line}"])
        command, name, rest = self.commands.parse(line)
        if command is None:
            return self._show([f"Unknown command /{name}. Type /help for the list"])
        own = self._own.get(command.name)
        if own is not None:
            try:
                return self._show(own(rest))
            except ValueError as exc:
                return self._show([f"{exc}. Usage: {command.usage}"])
        self.seat.submit(self.commands.prompt(command), rest)
        return []

    def _help(self, text: str) -> list[str]:
        """``/help``: `world.mods.commands.Commands.help`."""
        return self.commands.help(text)

    def _mods(self, text: str) -> list[str]:
        """``/mods``: `world.mods.breaker.mods_command` on this world's rules."""
        return mods_command(text, self.mods.names, self.seat.breaker())

    def _show(self, lines: list[str]) -> list[str]:
        if lines:
            self.seat.show("\n".join(lines))
        return lines

    def _teleport(self, text: str) -> list[str]:
        words = text.split()
        if len(words) != 3:
            raise ValueError("give three coordinates")
        feet = self.seat.feet()
        x, y, z = (coordinate(word, here) for word, here in zip(words, feet, strict=True))
        to = (x, y, z)
        self.seat.teleport(to)
        return [f"Teleported to {to[0]:.2f}, {to[1]:.2f}, {to[2]:.2f}"]

    def _time(self, text: str) -> list[str]:
        verb, _, value = text.partition(" ")
        if verb == "query" and not value:
            tick, clock = self.seat.time_of_day()
            return [f"The time is {int(tick)} ({clock})"]
        if verb != "set" or not value.strip():
            raise ValueError("say set <time> or query")
        self.seat.set_time(parse_time(value))
        tick, clock = self.seat.time_of_day()
        return [f"Set the time to {int(tick)} ({clock})"]

    def _game_mode(self, text: str) -> list[str]:
        mode = _GAME_MODES.get(text.strip().lower())
        if mode is None:
            raise ValueError(f"no game mode {text.strip()!r}")
        self.seat.set_creative(mode)  # survival ends a flight
        return [f"Game mode: {'creative' if mode else 'survival'}"]

    def _item_named(self, word: str) -> str:
        """What a player can hold: the creative picker's items (no air, water, placeholders)."""
        return _find_item(self.seat.items(), word.lower())

    def _give(self, text: str) -> list[str]:
        words = text.split()
        if not 1 <= len(words) <= 2:
            raise ValueError("name one item, and a count if you like")
        item = self._item_named(words[0])
        try:
            count = int(words[1]) if len(words) == 2 else 1
        except ValueError:
            raise ValueError(f"count must be a whole number, got {words[1]!r}") from None
        if not 1 <= count <= MAX_GIVE:
            raise ValueError(f"count must be 1..{MAX_GIVE}, got {count}")
        left = self.seat.give(item, count)
        given = count - left
        full = f" ({left} did not fit)" if left else ""
        return [f"Gave {given} {item}{full}"]


def _find_item(names: list[str], word: str) -> str:
    """The item a ``/give`` names: ``mod:name`` as it is; a bare name is the base game's, else
    the one mod's that has it (Minecraft's default namespace)."""
    if ":" in word:
        if word in names:
            return word
    else:
        found = [n for n in names if n == f"base:{word}"] or [
            n for n in names if n.partition(":")[2] == word
        ]
        if len(found) == 1:
            return found[0]
        if found:
            raise ValueError(f"{word!r} is more than one item: {', '.join(found)}")
    raise ValueError(f"no item {word!r}")
