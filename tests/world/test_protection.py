"""The protection example mod called by another mod with the world its hook was given, its
`is_protected`, and its refusal of a stranger's tools (the rest of its tests are in
tests/world/test_example_mods.py)."""

from __future__ import annotations

import pytest

from world import World
from world.base import GAME
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.mods.view import ModWorld
from world.ray import Hit
from world.rules import Rules

UP = Int3(0, 1, 0)
CLAIM = Int3(2, 2, 2)  # how far a claim reaches from its lamp, each way


class Claims:
    """A mod written in the test: a lamp a player places claims the blocks around it for them,
    through the protection mod's own functions, called with this hook's world."""

    def __init__(self) -> None:
        self.depends = ["protection"]  # read by the loader, as a module's attribute
        self.seen: list[object] = []

    @hookimpl
    def on_place(self, world: ModWorld, pos: Int3, block: object, actor: Actor) -> None:
        if getattr(block, "name", None) != "base:lamp":
            return
        protection = world.mod("protection")
        name = f"claim of {actor.name}"
        protection.protect(world, name, pos - CLAIM, pos + CLAIM, owner=actor.name)  # type: ignore[attr-defined]
        self.seen.append(protection.areas(world))  # type: ignore[attr-defined]
        self.seen.append(protection.is_protected(world, pos, "eve"))  # type: ignore[attr-defined]


def hit_at(world: World, block: tuple[int, int, int], face: Int3 = UP) -> Hit:
    return Hit(Int3(*block), face, 1.0, (0.5, 0.5, 0.5), world.get_block(*block))


def player(name: str, **kwargs: object) -> Actor:
    return Actor.at(name, (40.5, 1.0, 40.5), **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def claimed() -> tuple[World, Rules, Claims]:
    claims = Claims()
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins={"claims": claims}, game=GAME)
    assert mods.errors == []
    world = World(make_registry(mods))
    for x in range(-4, 5):
        for z in range(-4, 5):
            world.set_block(x, 0, z, world.registry.id("base:stone"))
    return world, Rules(world, mods), claims


def test_a_mod_protects_an_area_from_its_hook_and_a_stranger_is_then_refused(claimed):
    world, rules, claims = claimed
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:lamp", player("alex"))
    area = claims.seen[0][0]  # type: ignore[index]
    assert (area.name, area.low, area.high, area.owner) == (
        "claim of alex",
        (-2, -1, -2),
        (2, 3, 2),
        "alex",
    )
    assert claims.seen[1] is True  # eve does not own it
    # Kept in the protection mod's own store, not the calling mod's.
    assert "area:claim of alex" in world.mod_storage.for_mod("protection")
    assert "area:claim of alex" not in world.mod_storage.for_mod("claims")
    eve = player("eve", selected="base:dirt")
    refused = rules.break_block(hit_at(world, (1, 0, 1)), eve)
    assert not refused and refused.reason == "claim of alex belongs to alex"
    assert refused.denied_by == "protection"
    refused = rules.place_block(hit_at(world, (2, 0, 2)), "base:dirt", eve)
    assert not refused and refused.reason == "claim of alex belongs to alex"
    assert rules.break_block(hit_at(world, (3, 0, 3)), eve)  # outside the claim
    assert rules.break_block(hit_at(world, (1, 0, 1)), player("alex"))  # the owner builds


def test_the_public_functions_take_a_world_a_hook_s_world_or_the_store_alike(claimed):
    world, _, _ = claimed
    protection = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)["protection"].plugin
    store = world.mod_storage.for_mod("protection")
    protection.protect(world, "a", (0, 0, 0), (1, 1, 1), owner="alex")
    protection.protect(store, "b", (5, 5, 5), (6, 6, 6), owner="eve")
    assert [a.name for a in protection.areas(world)] == ["a", "b"]
    assert [a.name for a in protection.areas(store)] == ["a", "b"]
    assert protection.is_protected(world, (1, 1, 1))
    assert protection.is_protected(world, (1, 1, 1), "eve")
    assert not protection.is_protected(world, (1, 1, 1), "alex")
    assert not protection.is_protected(store, (2, 2, 2))
    protection.unprotect(world, "b")
    assert [a.name for a in protection.areas(store)] == ["a"]
    with pytest.raises(TypeError, match="hook's world, a World or this mod's storage"):
        protection.areas(42)


def test_a_stranger_s_tool_does_nothing_in_an_area_but_doors_and_the_owner_s_do(claimed):
    world, rules, _ = claimed
    registry = world.registry
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:lamp", player("alex"))
    world.set_block(1, 0, 1, registry.id("base:grass"))
    hoe = {"item": "farming:hoe"}
    refused = rules.use_block(hit_at(world, (1, 0, 1)), player("eve", **hoe))
    assert not refused and refused.reason == "claim of alex belongs to alex"
    assert registry.name(world.get_block(1, 0, 1)) == "base:grass"
    world.set_block(3, 0, 3, registry.id("base:grass"))
    assert rules.use_block(hit_at(world, (3, 0, 3)), player("eve", **hoe)).used  # outside
    assert rules.use_block(hit_at(world, (1, 0, 1)), player("alex", **hoe)).used  # the owner
    assert registry.name(world.get_block(1, 0, 1)) == "farming:farmland"
    # A block with its own right click stays usable by anyone, whatever is in hand.
    world.set_block(-1, 1, -1, registry.id("signs:sign"))
    assert rules.use_block(hit_at(world, (-1, 1, -1)), player("eve", **hoe)).used
