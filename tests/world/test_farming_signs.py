"""The farming and signs example mods through the real pipeline."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from world import World
from world.base import GAME
from world.blocks.drops import block_drops
from world.gen.generators import make_generator
from world.geometry import Int3
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.mods.text_prompt import TextPrompt
from world.ray import Hit
from world.rules import Rules
from world.save.storage import WorldStore

UP = Int3(0, 1, 0)


def setup() -> tuple[World, Rules]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert not mods.errors
    world = World(make_registry(mods))
    return world, Rules(world, mods)


def top(world: World, pos: tuple[int, int, int]) -> Hit:
    x, y, z = pos
    return Hit(Int3(x, y, z), UP, 1.0, (x + 0.5, y + 1.0, z + 0.5), world.get_block(x, y, z))


def farmer(**kwargs: object) -> Actor:
    return Actor.at(
        "steve",
        (20.5, 1.0, 20.5),
        selected="farming:wheat",
        look=(0, -1, 1),
        item="farming:wheat",
        **kwargs,
    )  # type: ignore[arg-type]


def hoeing(**kwargs: object) -> Actor:
    return Actor.at("steve", (20.5, 1.0, 20.5), look=(0, -1, 1), item="farming:hoe", **kwargs)  # type: ignore[arg-type]


def test_the_hoe_tills_grass_then_wheat_grows_near_water_and_drops_more_when_ripe() -> None:
    world, rules = setup()
    registry = world.registry
    for x in range(6):
        world.set_block(x, 0, 0, registry.id("base:grass"))
    world.set_block(0, 0, 1, registry.id("base:water"))
    assert not rules.place_block(top(world, (2, 0, 0)), "farming:wheat", farmer())  # on grass
    assert not rules.use_block(top(world, (2, 0, 0)), farmer()).used  # seeds do not till
    assert registry.name(world.get_block(2, 0, 0)) == "base:grass"
    assert rules.use_block(top(world, (2, 0, 0)), hoeing()).used  # the hoe tills
    assert registry.name(world.get_block(2, 0, 0)) == "farming:farmland"
    assert world.get_block(2, 1, 0) == 0  # and places nothing
    assert rules.use_block(top(world, (2, 0, 0)), farmer())  # planted
    wheat = world.get_block(2, 1, 0)
    assert registry.name(wheat) == "farming:wheat" and registry.props(wheat)["age"] == 0
    for _ in range(20 * 60 * 30):
        rules.tick(1 / 20)
    ripe = world.get_block(2, 1, 0)
    assert registry.props(ripe)["age"] == 7
    assert block_drops(registry, ripe, __import__("random").Random(1))[0].count == 2
    digger = Actor.at("steve", (20.5, 1.0, 20.5), creative=True)
    assert rules.break_block(top(world, (2, 0, 0)), digger)  # the farmland goes
    assert world.get_block(2, 1, 0) == 0  # and the wheat on it pops off


def test_a_sign_keeps_its_text_through_a_save(tmp_path: Path) -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    told: list[str] = []
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1), inbox=told.append)
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    sign = world.get_block(0, 1, 0)
    assert world.registry.props(sign)["facing"] == "south"  # its text toward the player
    hit = top(world, (0, 1, 0))
    asked: list[TextPrompt] = []
    assert rules.use_block(hit, replace(actor, prompter=asked.append)).used
    assert told == ["the sign is blank"]  # a new sign is blank, as in Minecraft
    assert world.meta(0, 1, 0)["owner"] == "alex"  # who placed it, as Luanti's signs keep
    (prompt,) = asked
    assert prompt.text == "" and prompt.pos == (0, 1, 0)
    outcome = rules.submit_text(prompt, "Welcome to\nthe farm\x07, traveller!", actor)
    assert outcome.done
    assert world.meta(0, 1, 0)["text"] == "Welcome to\nthe farm, trave"  # 15 per line
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        assert again.meta(0, 1, 0)["text"] == "Welcome to\nthe farm, trave"


def test_a_sign_text_confirmed_after_the_sign_was_broken_is_dropped() -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1))
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    asked: list[TextPrompt] = []
    assert rules.use_block(top(world, (0, 1, 0)), replace(actor, prompter=asked.append)).used
    assert rules.break_block(top(world, (0, 1, 0)), actor)
    assert rules.submit_text(asked[0], "too late", actor).done
    assert world.get_block(0, 1, 0) == 0 and "text" not in world.meta(0, 1, 0)


def test_a_sign_without_a_screen_only_shows_its_text() -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    told: list[str] = []
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1), inbox=told.append)
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    world.meta(0, 1, 0)["text"] = "Keep out"
    assert rules.use_block(top(world, (0, 1, 0)), actor).used
    assert told == ['sign: "Keep out"']
