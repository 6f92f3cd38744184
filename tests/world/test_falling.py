"""The falling example mod: sand and gravel fall as ``builtin:falling_block`` entities and land
as blocks, through the real pipeline and ticks."""

from __future__ import annotations

import numpy as np
import pytest

from world import World
from world.base import GAME
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules

UP = Int3(0, 1, 0)
# The voxels stay inside chunk (0, 0, 0), well away from its sides: an entity steps only while
# the chunks around it are loaded, and a world without a generator has loaded only those it
# wrote to.
X = Z = 8


@pytest.fixture
def game() -> tuple[Mods, World]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert mods.errors == []
    return mods, World(make_registry(mods))


def hit_at(world: World, block: tuple[int, int, int], face: tuple[int, int, int] = UP) -> Hit:
    x, y, z = block
    point = (x + 0.5 + face[0] / 2, y + 0.5 + face[1] / 2, z + 0.5 + face[2] / 2)
    return Hit(Int3(*block), Int3(*face), 1.0, point, world.get_block(*block))


def digger(**kwargs: object) -> Actor:
    return Actor.at("steve", (X + 5.5, 1.0, Z + 5.5), creative=True, **kwargs)  # type: ignore[arg-type]


def column(world: World, height: int = 10) -> list[str]:
    return [world.registry.name(world.get_block(X, y, Z)) for y in range(height)]


def settle(rules: Rules, world: World, frames: int = 600) -> int:
    """Tick at 60 frames a second until no entity is left; the frames it took."""
    for frame in range(frames):
        if not len(world.entities) and not rules.pending:
            return frame
        rules.tick(1 / 60)
    raise AssertionError(f"still falling after {frames} frames: {list(world.entities)}")


def put(world: World, blocks: dict[int, str]) -> None:
    for y, name in blocks.items():
        world.set_block(X, y, Z, world.registry.id(name))


def test_a_sand_column_over_air_falls_as_entities_and_lands_as_blocks(game):
    mods, world = game
    put(world, {0: "base:stone", 4: "base:dirt", 5: "base:sand", 6: "base:gravel", 7: "base:sand"})
    rules = Rules(world, mods)
    outcome = rules.break_block(hit_at(world, (X, 4, Z)), digger())
    assert outcome.done
    # The whole column left its voxels in the break's action, each block now an entity falling
    # from where it stood, bottom first.
    assert column(world)[1:] == ["air"] * 9
    assert [c.pos for c in outcome.changes] == [(X, y, Z) for y in (4, 5, 6, 7)]
    falling = sorted(world.entities, key=lambda e: e.pos[1])
    assert [(e.kind, e.data["block"], e.pos) for e in falling] == [
        ("builtin:falling_block", name, (X + 0.5, y, Z + 0.5))
        for y, name in ((5, "base:sand"), (6, "base:gravel"), (7, "base:sand"))
    ]
    frames = settle(rules, world)
    assert column(world)[:6] == [
        "base:stone",
        "base:sand",
        "base:gravel",
        "base:sand",
        "air",
        "air",
    ]
    assert 10 < frames < 120  # a fall of four blocks: about half a second, not at once


def test_sand_falls_through_air_water_and_tall_grass(game):
    mods, world = game
    put(
        world,
        {
            0: "base:stone",
            1: "base:tall_grass",
            2: "base:water",
            4: "base:glass",
            5: "base:sand",
        },
    )
    rules = Rules(world, mods)
    assert rules.break_block(hit_at(world, (X, 4, Z)), digger())
    settle(rules, world)
    # Through the water (which stays), onto the stone, over the tall grass it lands in.
    assert column(world)[:6] == ["base:stone", "base:sand", "base:water", "air", "air", "air"]


def test_placed_sand_falls_and_dirt_does_not(game):
    mods, world = game
    put(world, {0: "base:stone"})
    world.set_block(X + 1, 5, Z, world.registry.id("base:stone"))
    rules = Rules(world, mods)
    sand = rules.place_block(hit_at(world, (X + 1, 5, Z), (-1, 0, 0)), "base:sand", digger())
    assert sand.done and sand.pos == (X, 5, Z)
    assert [c.pos for c in sand.changes] == [(X, 5, Z), (X, 5, Z)]  # placed, then it left
    assert world.get_block(X, 5, Z) == 0 and len(world.entities) == 1
    settle(rules, world)
    assert column(world)[:3] == ["base:stone", "base:sand", "air"]
    dirt = rules.place_block(hit_at(world, (X + 1, 5, Z), (0, 0, 1)), "base:dirt", digger())
    assert dirt.done and world.get_block(X + 1, 5, Z + 1) == world.registry.id("base:dirt")
    assert not len(world.entities)


def test_a_falling_block_that_lands_on_a_torch_drops_as_its_item(game):
    mods, world = game
    put(world, {0: "base:stone", 1: "base:torch", 4: "base:dirt", 5: "base:gravel"})
    rules = Rules(world, mods)
    assert rules.break_block(hit_at(world, (X, 4, Z)), digger())
    for _ in range(120):
        rules.tick(1 / 60)
    assert column(world)[:3] == ["base:stone", "base:torch", "air"]
    (item,) = world.entities
    assert item.kind == "builtin:item" and (item.data["item"], item.data["count"]) == (
        "base:gravel",
        1,
    )


def test_sand_at_the_bottom_of_the_build_height_stays_and_sand_falling_past_it_drops(game):
    mods, _ = game
    world = World(mods.registry, generator=lambda cx, cy, cz: None, build_height=(0, 64))
    for cy in (-2, -1, 0):  # read: known air, loaded
        world.chunk(0, cy, 0)
    stone = world.registry.id("base:stone")
    world.set_block(X + 1, 0, Z, stone)
    rules = Rules(world, mods)
    placed = rules.place_block(hit_at(world, (X + 1, 0, Z), (-1, 0, 0)), "base:sand", digger())
    assert placed.pos == (X, 0, Z) and not len(world.entities)  # nothing under it but the bottom
    world.set_block(X, 0, Z - 2, stone)
    world.set_block(X, 1, Z - 2, world.registry.id("base:sand"))
    assert rules.break_block(hit_at(world, (X, 0, Z - 2)), digger())
    for _ in range(120):
        rules.tick(1 / 60)
    kinds = [(e.kind, e.data.get("item")) for e in world.entities]
    assert kinds == [("builtin:item", "base:sand")]  # fell past the bottom: its item
    assert not any(world.get_block(X, y, Z - 2) for y in range(-32, 10))
    assert world.get_block(X, 0, Z) == world.registry.id("base:sand")


def test_a_column_taller_than_the_budget_finishes_falling_in_ticks(game):
    mods, _ = game
    world = World(mods.registry, build_height=(0, 512))
    height = 300  # more voxels than an action's neighbour budget (256)
    put(world, {-1: "base:stone", 0: "base:dirt"})
    coords = np.array([(X, y, Z) for y in range(1, height + 1)])
    world.set_blocks(coords, world.registry.id("base:sand"))
    rules = Rules(world, mods)
    assert rules.break_block(hit_at(world, (X, 0, Z)), digger())
    assert world.get_block(X, height, Z) == world.registry.id("base:sand")  # still up there
    frames = 0
    while rules.pending and frames < 10:
        rules.tick(1 / 60)
        frames += 1
    assert frames < 10 and world.get_block(X, height, Z) == 0
    settle(rules, world, frames=60 * 20)
    sand = world.registry.id("base:sand")
    landed = world.get_blocks([(X, y, Z) for y in range(height + 1)]).tolist()
    assert landed == [sand] * height + [0]  # every block back, a column again


def test_a_fall_started_by_an_action_that_fails_is_taken_back(game):
    mods, world = game

    class Buggy:
        """Raises after the break, once the sand above has started to fall."""

        @hookimpl
        def on_break(self, pos):
            raise RuntimeError("boom")

    mods.add("buggy", Buggy())
    put(world, {0: "base:stone", 4: "base:dirt", 5: "base:sand"})
    outcome = Rules(world, mods).break_block(hit_at(world, (X, 4, Z)), digger())
    assert not outcome.done and "buggy" in outcome.reason
    assert column(world)[4:6] == ["base:dirt", "base:sand"]
    assert not len(world.entities)
