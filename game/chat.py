"""The chat line: ``T`` (or ``/``, with the slash typed) opens it; Enter sends what is typed;
Up and Down go through the lines sent before (the last `HISTORY`), as in Minecraft.

A line that starts with ``/`` runs a command (`world.mods.commands`), the game's own below or a
mod's, the same way: as the player's action through the rules (`world.rules.Rules.submit_text`:
the watchdog, and a rollback on an error reported with its owner's name). Any other line is said
aloud: in a single-player game it is shown as ``<name> text``, as Minecraft's chat shows it.
Commands answer with ``actor.tell``, which the HUD shows in its message lines
(`game.hud.Hud.flash`).

The game's own commands are registered like a mod's: `GameCommands` is a plugin whose
``register_commands`` hook adds them through a `world.mods.commands.CommandRegistrar`. The game
loads it with its content (``load_mods(..., game=(*GAME, (GAME_COMMANDS, GameCommands())))``,
`game.play`): its name is reserved and it registers before any mod, so no mod takes its
commands' names, and ``/help`` shows them without an owner. What they act on (`ChatSeat`) exists
only once the game is built: the `Chat` made over the loaded mods binds the plugin to itself.

The game's own commands (``/help`` lists every command, the mods' included):

- ``/help [command]``
- ``/tp <x> <y> <z>``: teleport the feet; ``~`` is where the player is, ``~5`` five blocks on
- ``/time set <sunrise|day|noon|sunset|night|midnight|ticks>``, ``/time query``
- ``/gamemode <creative|survival>``
- ``/give <item> [count]``: into the inventory (count 1..6400, at most what fits)
- ``/seed``: the world's seed
- ``/mods [enable <mod>]``: the loaded mods and the hooks switched off for failing again and
  again (`world.mods.breaker`); ``enable`` turns a mod's back on (`world.mods.breaker.mods_command`)

A misused command tells the player how to use it (``give three coordinates. Usage: /tp <x> <y>
<z>``); only a bug is a failure of the plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from game.daylight import NAMED_TIMES, parse_time
from game.player import PLAYER_NAME
from world.geometry import Vec3
from world.mods.breaker import Breaker, mods_command
from world.mods.commands import (
    MAX_CHAT,
    ChatCommand,
    CommandRegistrar,
    Commands,
    coordinate,
)
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.outcome import MAX_TELL, Actor
from world.mods.registration import make_commands
from world.mods.text_prompt import TextPrompt

__all__ = [
    "CHAT_PROMPT",
    "GAME_COMMANDS",
    "HISTORY",
    "MAX_GIVE",
    "Chat",
    "ChatSeat",
    "GameCommands",
]

CHAT_PROMPT: Final = "base:chat"
GAME_COMMANDS: Final = "game"  # the plugin name of `GameCommands`, among the game's content
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
    """What the chat and the game's commands act on, as callbacks the game hands it (the chat
    never reaches into the game: it is given these and the loaded mods)."""

    show: Callable[[str], object]  # lines in the HUD's message area
    submit: Callable[[TextPrompt, str], object]  # a command, run as the player's action
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
        for name in mods.game:  # the game's own commands act through this chat
            plugin = mods[name].plugin
            if isinstance(plugin, GameCommands):
                plugin.bind(self)
        self.commands: Commands = make_commands(mods)
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
        """Do what a sent line says; returns the lines the chat shows itself (a command, the
        game's or a mod's, runs as the player's action and answers by ``tell``)."""
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
        self.seat.submit(self.commands.prompt(command), rest)
        return []

    def _show(self, lines: list[str]) -> list[str]:
        if lines:
            self.seat.show("\n".join(lines))
        return lines


class GameCommands:
    """The game's own chat commands, a plugin registered like a mod's (module notes); they act
    through the `Chat` that binds them."""

    description = "the game's chat commands"

    def __init__(self) -> None:
        self._chat: Chat | None = None

    def bind(self, chat: Chat) -> None:
        """Act through ``chat`` (its seat, its mods and its command table)."""
        self._chat = chat

    @property
    def chat(self) -> Chat:
        """The chat bound (a command run before `bind` is the plugin's failure)."""
        if self._chat is None:
            raise RuntimeError("the game's commands are bound to no chat")
        return self._chat

    @hookimpl
    def register_commands(self, commands: CommandRegistrar) -> None:
        times = "|".join(NAMED_TIMES)
        own = [  # each runs with the rest of the line, and returns the lines to tell
            ("help", self._help, "[command]", "list the commands, or tell what one does"),
            (
                "tp",
                self._teleport,
                "<x> <y> <z>",
                "teleport; ~ is where you are, ~5 five blocks on",
            ),
            ("time", self._time, f"set <{times}|ticks> | query", "set or tell the time of day"),
            ("gamemode", self._game_mode, "<creative|survival>", "change the game mode"),
            ("give", self._give, "<item> [count]", "put items into the inventory"),
            ("seed", self._seed, "", "tell the world's seed"),
            (
                "mods",
                self._mods,
                "[enable <mod>]",
                "list the mods and the hooks switched off; enable turns a mod's back on",
            ),
        ]
        for name, run, params, description in own:
            command = ChatCommand(name, run, params, description)
            commands.register(replace(command, on_run=_telling(run, command.usage)))

    def _help(self, text: str) -> list[str]:
        """``/help``: `world.mods.commands.Commands.help`."""
        return self.chat.commands.help(text)

    def _mods(self, text: str) -> list[str]:
        """``/mods``: `world.mods.breaker.mods_command` on this world's rules."""
        return mods_command(text, self.chat.mods.names, self.chat.seat.breaker())

    def _seed(self, text: str) -> list[str]:
        return [f"Seed: {self.chat.seat.seed()}"]

    def _teleport(self, text: str) -> list[str]:
        words = text.split()
        if len(words) != 3:
            raise ValueError("give three coordinates")
        seat = self.chat.seat
        feet = seat.feet()
        x, y, z = (coordinate(word, here) for word, here in zip(words, feet, strict=True))
        to = (x, y, z)
        seat.teleport(to)
        return [f"Teleported to {to[0]:.2f}, {to[1]:.2f}, {to[2]:.2f}"]

    def _time(self, text: str) -> list[str]:
        seat = self.chat.seat
        verb, _, value = text.partition(" ")
        if verb == "query" and not value:
            tick, clock = seat.time_of_day()
            return [f"The time is {int(tick)} ({clock})"]
        if verb != "set" or not value.strip():
            raise ValueError("say set <time> or query")
        seat.set_time(parse_time(value))
        tick, clock = seat.time_of_day()
        return [f"Set the time to {int(tick)} ({clock})"]

    def _game_mode(self, text: str) -> list[str]:
        mode = _GAME_MODES.get(text.strip().lower())
        if mode is None:
            raise ValueError(f"no game mode {text.strip()!r}")
        self.chat.seat.set_creative(mode)  # survival ends a flight
        return [f"Game mode: {'creative' if mode else 'survival'}"]

    def _give(self, text: str) -> list[str]:
        words = text.split()
        if not 1 <= len(words) <= 2:
            raise ValueError("name one item, and a count if you like")
        seat = self.chat.seat
        # What a player can hold: the creative picker's items (no air, water, placeholders).
        item = _find_item(seat.items(), words[0].lower())
        try:
            count = int(words[1]) if len(words) == 2 else 1
        except ValueError:
            raise ValueError(f"count must be a whole number, got {words[1]!r}") from None
        if not 1 <= count <= MAX_GIVE:
            raise ValueError(f"count must be 1..{MAX_GIVE}, got {count}")
        left = seat.give(item, count)
        given = count - left
        full = f" ({left} did not fit)" if left else ""
        return [f"Gave {given} {item}{full}"]


def _telling(run: Callable[[str], list[str]], usage: str) -> Callable[[Actor, str], None]:
    """A game command's ``on_run``: ``run`` with the rest of the line, its lines told to the
    player; a misuse (``ValueError``) is told with the ``usage``, not raised as a failure."""

    def on_run(actor: Actor, text: str) -> None:
        try:
            lines = run(text)
        except ValueError as exc:
            lines = [f"{exc}. Usage: {usage}"]
        _tell(actor, lines)

    return on_run


def _tell(actor: Actor, lines: list[str]) -> None:
    """Tell ``lines`` in one message, or in as few as `MAX_TELL` allows when they are longer
    (``tell`` cuts a longer one; the HUD stacks them): a long ``/mods`` answer is shown whole."""
    message = ""
    for line in lines:
        if message and len(message) + 1 + len(line) > MAX_TELL:
            actor.tell(message)
            message = line
        else:
            message = f"{message}\n{line}" if message else line
    if message:
        actor.tell(message)


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
