"""Mods reach each other through declared dependencies, and tell the player things."""

from __future__ import annotations

import types

import pytest

from world import World
from world.base import GAME
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import MAX_TELL, Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules


def protection() -> types.SimpleNamespace:
    """A mod whose public function another mod calls."""
    return types.SimpleNamespace(is_protected=lambda pos: pos[1] < 0)


def miner(declares: bool) -> types.SimpleNamespace:
    seen: list[object] = []

    @hookimpl
    def can_break(world: object, pos: Int3, actor: Actor) -> str | None:
        try:
            guard = world.mod("protection")  # type: ignore[attr-defined]
        except LookupError as exc:
            seen.append(str(exc))
            raise
        if guard.is_protected(pos):
            actor.tell("this area is protected")
            return "protected"
        return None

    return types.SimpleNamespace(
        can_break=can_break, depends=["protection"] if declares else [], seen=seen
    )


def setup(declares: bool) -> tuple[World, Rules, types.SimpleNamespace]:
    mod = miner(declares)
    mods = load_mods(
        [], entry_points=False, plugins={"miner": mod, "protection": protection()}, game=GAME
    )
    world = World(make_registry(mods))
    stone = world.registry.id("base:stone")
    world.set_block(0, -5, 0, stone)
    world.set_block(0, 5, 0, stone)
    return world, Rules(world, mods), mod


def hit(world: World, y: int) -> Hit:
    return Hit(Int3(0, y, 0), Int3(0, 1, 0), 1.0, (0.5, y + 1.0, 0.5), world.get_block(0, y, 0))


def test_a_mod_calls_a_declared_dependency_and_tells_the_player_why() -> None:
    world, rules, _ = setup(declares=True)
    told: list[str] = []
    actor = Actor.at("steve", (0.5, 20.0, 0.5), creative=True, inbox=told.append)
    denied = rules.break_block(hit(world, -5), actor)
    assert not denied and denied.reason == "protected"
    assert told == ["this area is protected"]
    assert rules.break_block(hit(world, 5), actor)  # outside the protected area


def test_calling_an_undeclared_mod_is_an_error_naming_both() -> None:
    world, rules, mod = setup(declares=False)
    actor = Actor.at("steve", (0.5, 20.0, 0.5), creative=True)
    assert not rules.break_block(hit(world, 5), actor)  # the mod failed: the action is denied
    assert "mod 'miner' calls mod 'protection' without declaring it" in mod.seen[0]


def test_a_long_message_is_cut_and_an_actor_without_an_inbox_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    told: list[str] = []
    Actor.at("steve", (0, 0, 0), inbox=told.append).tell("x" * 1000)
    assert len(told[0]) == MAX_TELL and told[0].endswith("…")
    with caplog.at_level("INFO", logger="blockpick.tell"):
        Actor.at("steve", (0, 0, 0)).tell("hello")
    assert "to steve: hello" in caplog.text
