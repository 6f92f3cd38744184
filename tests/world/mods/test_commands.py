"""Chat commands (`world.mods.commands`): registering, parsing, running one as a player's action,
and the game's ``/mods`` over the rules' circuit breaker."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from world import World
from world.base import GAME
from world.mods.breaker import TRIP_ERRORS, mods_command
from world.mods.commands import MAX_CHAT, ChatCommand, CommandRegistrar, Commands
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_commands, make_registry
from world.rules import Rules


def _nothing() -> None:
    return None


class GameShell:
    """A game's own commands, registered by a plugin of the game as a mod's are."""

    @hookimpl
    def register_commands(self, commands: CommandRegistrar) -> None:
        commands.register(ChatCommand("help", _nothing))
        commands.register(ChatCommand("tp", _nothing, "<x> <y> <z>", "go"))


def _game(plugins: dict[str, object] | None = None) -> tuple[World, Rules, Mods, Commands]:
    game = (*GAME, ("game", GameShell()))
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=plugins, game=game)
    world = World(make_registry(mods))
    return world, Rules(world, mods), mods, make_commands(mods)


def _player(name: str = "alex", told: list[str] | None = None) -> Actor:
    inbox = (told if told is not None else []).append
    return Actor.at(name, (0.5, 10.0, 0.5), creative=True, inbox=inbox)


def test_a_line_names_its_command_in_any_case_and_keeps_the_rest() -> None:
    *_, commands = _game()
    command, name, rest = commands.parse("/TP   1 2  3  ")
    assert command is commands["tp"] and name == "tp" and rest == "1 2  3"
    assert commands.parse("/nothing here")[:2] == (None, "nothing")
    assert commands.parse("/")[:2] == (None, "")
    assert len(commands.parse("/tp " + "9" * 10_000)[2]) < MAX_CHAT  # cut to a chat line
    with pytest.raises(ValueError, match="starts with '/'"):
        commands.parse("tp 1 2 3")


def test_help_lists_every_command_and_tells_one_s_use_and_a_mod_s_owner() -> None:
    *_, commands = _game()
    listed = commands.help()[0]
    for name in ("/help", "/tp", "/protect", "/unprotect", "/areas"):
        assert name in listed
    assert commands["tp"].mod == "game"
    assert commands.help("tp") == ["/tp <x> <y> <z>", "go"]  # the game's own: no owner shown
    assert commands.help("/protect")[0].endswith("(mod protection)")
    assert commands.help("nope") == ["Unknown command /nope"]


def test_a_name_taken_is_refused_naming_its_owner_and_the_mod_adds_none() -> None:
    class Clash:
        @hookimpl
        def register_commands(self, commands: object) -> None:
            register = commands.register  # type: ignore[attr-defined]
            register(ChatCommand("mine", _nothing))
            register(ChatCommand("areas", _nothing))  # the protection mod's

    *_, mods, commands = _game({"wild": Clash()})  # loads after protection (ties by name)
    assert "mine" not in commands and commands["areas"].mod == "protection"
    (error,) = [e for e in mods.errors if e.mod == "wild"]
    assert "areas" in str(error) and "protection" in str(error)


def test_the_game_s_commands_come_first_and_no_mod_takes_their_names_even_trying_first() -> None:
    class Usurper:
        @hookimpl(tryfirst=True)
        def register_commands(self, commands: CommandRegistrar) -> None:
            commands.register(ChatCommand("tp", _nothing))  # the game's

    *_, mods, commands = _game({"usurper": Usurper()})
    assert commands["tp"].mod == "game" and commands["help"].mod == "game"
    (error,) = [e for e in mods.errors if e.mod == "usurper"]
    assert "/tp" in str(error) and "'game' registered already" in str(error)
    assert not [e for e in mods.errors if e.mod == "game"]


def test_a_mod_may_not_take_the_name_of_the_game_s_commands_plugin() -> None:
    class Named:
        pass

    *_, mods, commands = _game({"game": Named()})
    assert isinstance(mods["game"].plugin, GameShell) and commands["tp"].mod == "game"
    (error,) = [e for e in mods.errors if e.mod == "game"]
    assert "already loaded from built in" in str(error)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"name": "Home", "on_run": _nothing}, "name"),
        ({"name": "", "on_run": _nothing}, "name"),
        ({"name": "x" * 33, "on_run": _nothing}, "name"),
        ({"name": "home", "on_run": "go"}, "on_run"),
        ({"name": "home", "on_run": _nothing, "params": 3}, "params"),
    ],
)
def test_a_bad_command_is_refused_naming_what_is_wrong(
    kwargs: dict[str, object], named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        ChatCommand(**kwargs)  # type: ignore[arg-type]


def test_a_command_runs_as_the_player_s_action_and_a_failing_one_is_undone() -> None:
    seen: list[object] = []

    def build(world: object, actor: Actor, text: str, pos: object) -> None:
        seen.append((actor.name, text, tuple(pos)))  # type: ignore[arg-type]
        world.set_block(0, 0, 0, "base:stone")  # type: ignore[attr-defined]
        world.storage["built"] = text  # type: ignore[attr-defined]

    def broken(world: object) -> None:
        world.set_block(1, 0, 0, "base:stone")  # type: ignore[attr-defined]
        raise RuntimeError("oops")

    class Builder:
        @hookimpl
        def register_commands(self, commands: object) -> None:
            commands.register(ChatCommand("build", build))  # type: ignore[attr-defined]
            commands.register(ChatCommand("broken", broken))  # type: ignore[attr-defined]

    world, rules, mods, commands = _game({"builder": Builder()})
    command, _, rest = commands.parse("/build   a tower ")
    assert command is not None
    outcome = rules.submit_text(commands.prompt(command), rest, _player())
    assert outcome.done and seen == [("alex", "a tower", (0, 11, 0))]
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:stone"
    assert world.mod_storage.for_mod("builder")["built"] == "a tower"  # the mod's own storage
    outcome = rules.submit_text(commands.prompt(commands["broken"]), "", _player())
    assert not outcome.done and world.get_block(1, 0, 0) == 0  # rolled back
    assert any(e.mod == "builder" and "oops" in str(e) for e in mods.errors)


def test_players_protect_their_areas_with_the_protection_mod_s_commands() -> None:
    world, rules, _, commands = _game()
    protection = SimpleNamespace(**{n: commands[n] for n in ("protect", "unprotect", "areas")})

    def run(command: ChatCommand, text: str, name: str) -> list[str]:
        told: list[str] = []
        assert rules.submit_text(commands.prompt(command), text, _player(name, told)).done
        return told

    assert run(protection.protect, "home ~ ~-1 ~ ~4 ~3 ~4", "alex") == [
        "protected home: (0, 9, 0) to (4, 13, 4)"
    ]
    stone = world.registry.id("base:stone")
    world.set_block(2, 10, 2, stone)
    steve = _player("steve")
    assert "home belongs to alex" in rules.break_block(_top(world, (2, 10, 2)), steve).reason
    assert run(protection.protect, "mine 3 9 3 8 12 8", "steve") == ["home belongs to alex"]
    assert run(protection.protect, "home 20 0 20 21 1 21", "steve") == ["home belongs to alex"]
    assert run(protection.protect, "big 0 0 0 300 1 1", "steve") == [
        "an area is at most 256 voxels a side"
    ]
    assert run(protection.protect, "x 1 2", "steve")[0].startswith("usage: /protect")
    assert run(protection.protect, "x a 2 3 4 5 6", "steve") == [
        "'a' is not a whole-number coordinate"
    ]
    assert run(protection.areas, "", "steve") == ["home (alex): (0, 9, 0) to (4, 13, 4)"]
    assert run(protection.unprotect, "home", "steve") == ["home belongs to alex"]
    assert run(protection.unprotect, "home", "alex") == ["home is no longer protected"]
    assert rules.break_block(_top(world, (2, 10, 2)), steve).done
    assert run(protection.areas, "", "steve") == ["no protected areas"]


class Crashing:
    """A protection mod whose ``can_break`` and ``can_use`` always raise."""

    @hookimpl
    def can_break(self) -> None:
        raise ZeroDivisionError("a bug")

    @hookimpl
    def can_use(self) -> None:
        raise ZeroDivisionError("a bug")


def test_mods_lists_the_mods_and_what_is_switched_off_and_enable_turns_a_mod_back_on() -> None:
    world, rules, mods, _ = _game({"guard": Crashing()})
    names = mods.names
    assert mods_command("", names, rules.breaker) == [
        f"Mods: {', '.join(names)}",
        "Every hook is on",
    ]
    world.set_block(2, 10, 2, world.registry.id("base:stone"))
    for _ in range(TRIP_ERRORS):
        rules.break_block(_top(world, (2, 10, 2)), _player())  # type: ignore[arg-type]
        rules.use_block(_top(world, (2, 10, 2)), _player())  # type: ignore[arg-type]
    denied = rules.break_block(_top(world, (2, 10, 2)), _player())  # type: ignore[arg-type]
    assert "disabled in can_break" in denied.reason and "/mods enable guard" in denied.reason
    assert mods_command("", names, rules.breaker)[1:] == [
        "Switched off: can_break of guard, can_use of guard",
        "/mods enable <mod> turns a mod's back on",
    ]
    assert mods_command("ENABLE guard", names, rules.breaker) == [
        "Mod 'guard' is on again: can_break, can_use"
    ]
    assert rules.breaker.disabled == ()
    assert mods_command("enable guard", names, rules.breaker) == [
        "Nothing of mod 'guard' was switched off"
    ]
    with pytest.raises(ValueError, match="no mod 'nope' is loaded"):
        mods_command("enable nope", names, rules.breaker)
    with pytest.raises(ValueError, match="/mods enable <mod>"):
        mods_command("disable guard", names, rules.breaker)


def test_a_command_that_keeps_failing_is_switched_off_and_says_so() -> None:
    runs: list[int] = []

    def broken() -> None:
        runs.append(1)
        raise RuntimeError("oops")

    class Builder:
        @hookimpl
        def register_commands(self, commands: object) -> None:
            commands.register(ChatCommand("broken", broken))  # type: ignore[attr-defined]

    _, rules, _, commands = _game({"builder": Builder()})
    prompt = commands.prompt(commands["broken"])
    for _ in range(TRIP_ERRORS + 2):
        outcome = rules.submit_text(prompt, "", _player())
        assert not outcome.done and outcome.denied_by == "builder"
    assert len(runs) == TRIP_ERRORS  # not run once switched off: the player is told why
    assert outcome.reason.startswith("mod 'builder' is disabled in text prompt builder:/broken")


def _top(world: World, pos: tuple[int, int, int]) -> object:
    from world.geometry import Int3
    from world.ray import Hit

    x, y, z = pos
    return Hit(
        Int3(x, y, z), Int3(0, 1, 0), 1.0, (x + 0.5, y + 1.0, z + 0.5), world.get_block(x, y, z)
    )
