"""The farming and signs example mods through the real pipeline."""

from __future__ import annotations

from pathlib import Path

from world.chunks import World
from world.generators import make_generator
from world.geometry import Int3
from world.inventory import block_drops
from world.mod_loader import DEFAULT_MODS_DIR, load_mods
from world.outcome import Actor
from world.ray import Hit
from world.registration import make_registry
from world.rules import Rules
from world.storage import WorldStore

UP = Int3(0, 1, 0)


def setup() -> tuple[World, Rules]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
    assert not mods.errors
    world = World(make_registry(mods))
    return world, Rules(world, mods)


def top(world: World, pos: tuple[int, int, int]) -> Hit:
    x, y, z = pos
    return Hit(Int3(x, y, z), UP, 1.0, (x + 0.5, y + 1.0, z + 0.5), world.get_block(x, y, z))


def farmer(**kwargs: object) -> Actor:
    return Actor.at("steve", (20.5, 1.0, 20.5), selected="farming:wheat", look=(0, -1, 1), **kwargs)  # type: ignore[arg-type]


def test_seeds_till_grass_then_wheat_grows_near_water_and_drops_more_when_ripe() -> None:
    world, rules = setup()
    registry = world.registry
    for x in range(6):
        world.set_block(x, 0, 0, registry.id("base:grass"))
    world.set_block(0, 0, 1, registry.id("base:water"))
    assert not rules.place_block(top(world, (2, 0, 0)), "farming:wheat", farmer())  # on grass
    assert rules.use_block(top(world, (2, 0, 0)), farmer()).used  # tilled
    assert registry.name(world.get_block(2, 0, 0)) == "farming:farmland"
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
    assert rules.use_block(hit, actor).used
    sneaking = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, sneak=True, inbox=told.append)
    assert rules.use_block(hit, sneaking).used  # sneaking with nothing selected: still uses it
    assert told == ['sign: "placed by alex"', 'sign: "placed by alex +1"']
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        assert again.meta(0, 1, 0)["text"].startswith("placed by alex")
