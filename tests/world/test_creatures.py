"""The creatures example mod: sheep summoned, wandering, keeping off drops, punched, fed, saved,
and a herd ticking for minutes in bounded memory."""

from __future__ import annotations

import gc
import math
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from world import World
from world.base import GAME
from world.gen.generators import make_generator
from world.items.inventory import Inventory, ItemStack
from world.mods.commands import Commands
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_commands, make_registry
from world.rules import Rules
from world.save.storage import WorldStore
from world.voxels.entities import Entity

SHEEP = "creatures:sheep"
GROUND = 4.0  # the flat world's surface: bedrock, two dirt, grass
FRAME = 1 / 60


@cache
def project() -> tuple[Mods, Commands]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert mods.errors == []
    make_registry(mods)
    return mods, make_commands(mods)


def pasture(radius: int = 2) -> tuple[World, Rules]:
    """A flat world whose chunks within ``radius`` of the origin are loaded (entities step only
    where the chunks around them are), with steve standing at the origin."""
    mods, _ = project()
    world = World(mods.registry, generator=make_generator("flat", 0, mods.registry))
    for cx in range(-radius, radius):
        for cy in (-1, 0, 1):
            for cz in range(-radius, radius):
                world.chunk(cx, cy, cz)
    world.players.join("steve", (0.5, GROUND, 0.5))
    return world, Rules(world, mods)


def fill(world: World, low: tuple[int, int, int], high: tuple[int, int, int], block: str) -> None:
    xs, ys, zs = (np.arange(lo, hi + 1) for lo, hi in zip(low, high, strict=True))
    coords = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)
    world.set_blocks(coords, world.registry.id(block))


def steve(told: list[str] | None = None, **kwargs: object) -> Actor:
    inbox: Callable[[str], None] | None = None if told is None else told.append
    return Actor.at("steve", (0.5, GROUND, 0.5), inbox=inbox, **kwargs)  # type: ignore[arg-type]


def say(rules: Rules, line: str, actor: Actor) -> None:
    _, commands = project()
    command, _, rest = commands.parse(line)
    assert command is not None
    assert rules.submit_text(commands.prompt(command), rest, actor).done


def sheep_at(world: World, pos: tuple[float, float, float], **data: object) -> Entity:
    return world.entities.add(SHEEP, pos, data=data)  # type: ignore[arg-type]


def run(rules: Rules, seconds: float, each: Callable[[], None] | None = None) -> None:
    for _ in range(round(seconds / FRAME)):
        rules.tick(FRAME)
        if each is not None:
            each()


def test_summon_makes_a_sheep_at_the_player_s_feet_and_refuses_what_is_no_creature():
    world, rules = pasture()
    told: list[str] = []
    say(rules, "/summon", steve(told))
    (sheep,) = world.entities
    assert sheep.kind == SHEEP and sheep.pos == (0.5, GROUND, 0.5)
    say(rules, "/summon creatures:sheep", steve(told))
    say(rules, "/summon pig", steve(told))
    say(rules, "/summon builtin:item", steve(told))
    assert told == [
        "summoned a sheep",
        "summoned a sheep",
        "no creature 'pig': try /summon sheep",
        "no creature 'builtin:item': try /summon sheep",
    ]
    assert [e.kind for e in world.entities] == [SHEEP, SHEEP]


def test_summon_makes_no_more_than_its_limit_near_a_player():
    world, rules = pasture()
    creatures = world.registry.entities[SHEEP]
    assert creatures.size == (0.9, 1.3)
    for _ in range(32):
        say(rules, "/summon", steve())
    told: list[str] = []
    say(rules, "/summon", steve(told))
    assert told == ["32 creatures are near already"] and len(world.entities) == 32


def test_a_sheep_wanders_facing_where_it_walks_and_stands_now_and_then():
    world, rules = pasture()
    sheep = sheep_at(world, (0.5, GROUND, 0.5))
    walked, stood, path = [], [], []

    def look() -> None:
        vx, _, vz = sheep.velocity
        speed = math.hypot(vx, vz)
        path.append(sheep.pos)
        if speed > 0.1 and sheep.on_ground:
            rad = math.radians(sheep.yaw)
            walked.append(-vx / speed * math.sin(rad) + vz / speed * math.cos(rad))
        elif speed == 0.0:
            stood.append(sheep.pos)

    run(rules, 90.0, look)
    assert walked and stood  # both, over a minute and a half (chosen every 2 to 6 s)
    assert min(walked) > 0.99  # it walks the way it faces
    xs, zs = [p[0] for p in path], [p[2] for p in path]
    assert max(xs) - min(xs) + max(zs) - min(zs) > 4.0
    assert {p[1] for p in path} == {GROUND}  # on flat ground it never leaves it
    assert 0 <= sheep.data["seed"] < 2**31  # type: ignore[operator]


def test_two_worlds_with_the_same_sheep_see_it_walk_the_same_way():
    paths = []
    for _ in range(2):
        world, rules = pasture()
        sheep = sheep_at(world, (0.5, GROUND, 0.5), seed=1234)
        run(rules, 20.0)
        paths.append((sheep.pos, sheep.yaw, dict(sheep.data)))
    assert paths[0] == paths[1]


def test_a_sheep_never_walks_off_a_drop_of_more_than_one_block():
    world, rules = pasture()
    fill(world, (-3, 4, -3), (3, 6, 3), "base:stone")  # a mesa three blocks high
    top = GROUND + 3
    sheep = sheep_at(world, (0.5, top, 0.5), walking=True, next=5.0)
    path: list[tuple[float, float, float]] = []
    run(rules, 300.0, lambda: path.append(sheep.pos))
    assert min(y for _, y, _ in path) == top  # five minutes: never once below the mesa's top
    # It went to the edges (the mesa's sides are x, z = -3 and 4) and turned there.
    assert max(max(-x - 3, x - 4, -z - 3, z - 4) for x, _, z in path) > -1.0


def test_a_sheep_steps_down_one_block_hops_up_one_and_turns_at_a_wall():
    world, rules = pasture()
    fill(world, (-4, 4, -2), (3, 4, 2), "base:stone")  # a step one block high, x <= 3
    fill(world, (8, 4, -8), (8, 4, 8), "base:stone")  # a kerb one block high at x = 8
    fill(world, (12, 4, -8), (12, 5, 8), "base:stone")  # a wall two blocks high at x = 12
    sheep = world.entities.add(
        SHEEP, (1.5, GROUND + 1, 0.5), yaw=270.0, data={"walking": True, "next": 1e9}
    )
    track: list[tuple[float, float]] = []
    run(rules, 20.0, lambda: track.append((sheep.pos[0], sheep.pos[1])))
    down = next(i for i, (x, y) in enumerate(track) if y == GROUND)
    assert track[down][0] > 3.0  # it walked off the step, east
    up = next(i for i, (x, y) in enumerate(track) if i > down and y == GROUND + 1)
    assert track[up][0] + 0.45 > 8.0  # and hopped onto the kerb (its box over it)
    assert max(x for x, _ in track) < 12.0 - 0.45  # never through the wall
    assert sheep.yaw != 270.0  # it turned away from it


def test_a_punched_sheep_is_knocked_back_says_baa_and_runs_away():
    world, rules = pasture()
    sheep = sheep_at(world, (4.5, GROUND, 0.5), walking=False, next=1e9)
    run(rules, 0.5)
    told: list[str] = []
    outcome = rules.punch_entity(sheep.id, steve(told))
    assert outcome.done and told == ["baa!"]
    assert sheep.velocity[0] > 5.0 and sheep.velocity[1] > 0.0  # pushed away, east
    assert abs(sheep.yaw - 270.0) < 1.0  # facing away from the player, east
    run(rules, 3.0)
    assert sheep.pos[0] > 10.0  # ran on after the push
    x = sheep.pos[0]
    run(rules, 2.0)
    assert sheep.pos[0] - x < 1.0  # and stopped running


def test_a_sheep_eats_wheat_from_the_hand_and_only_wheat():
    world, rules = pasture()
    player = world.players.get("steve")
    assert player is not None
    player.inventory.slots[0] = ItemStack("farming:wheat", 5)
    sheep = sheep_at(world, (2.5, GROUND, 0.5))
    told: list[str] = []
    fed = rules.use_entity(sheep.id, steve(told))
    assert fed.done and fed.used and told == ["the sheep eats the wheat"]
    assert player.inventory.count("farming:wheat") == 4 and sheep.data["fed"] == 1
    player.inventory.slots[0] = ItemStack("base:dirt", 5)
    assert not rules.use_entity(sheep.id, steve(told)).used
    assert player.inventory.count("base:dirt") == 5 and sheep.data["fed"] == 1
    player.inventory.slots[0] = ItemStack("farming:wheat", 1)
    player.creative = True
    assert rules.use_entity(sheep.id, steve(told, creative=True)).used  # creative: none used
    assert player.inventory.count("farming:wheat") == 1 and sheep.data["fed"] == 2


def test_a_sheep_is_saved_with_its_chunk_and_wanders_on_after_a_load(tmp_path: Path):
    world, rules = pasture()
    sheep_at(world, (5.5, GROUND, 5.5), seed=99, fed=3)
    run(rules, 10.0)
    (before,) = world.entities
    path = tmp_path / "pasture.sqlite"
    with WorldStore.create(path, seed=0, generator="flat") as store:
        store.save(world)
    mods, _ = project()
    with WorldStore(path) as store:
        again = store.load(mods.registry, generator_factory=make_generator)
        for cx in range(-2, 2):
            for cy in (-1, 0, 1):
                for cz in range(-2, 2):
                    again.chunk(cx, cy, cz)
        (sheep,) = again.entities
        assert sheep.kind == SHEEP and sheep.pos == before.pos and sheep.yaw == before.yaw
        assert sheep.data == before.data and sheep.data["fed"] == 3
        rules = Rules(again, mods)
        run(rules, 30.0)
        assert sheep.pos != before.pos


def herd_memory(creatures: int, seconds: float) -> int:
    """Bytes the Python heap grew by over the second half of ``seconds`` of 60 FPS ticks of a
    herd in a pen (traced from the half-way point: what the first half allocated once, chunks
    and entities, is not counted)."""
    world, rules = pasture()
    ring = [
        (x, y, z)
        for x in range(-12, 13)
        for z in range(-12, 13)
        for y in (4, 5)
        if max(abs(x), abs(z)) == 12
    ]
    world.set_blocks(np.array(ring), world.registry.id("base:stone"))  # a pen two blocks high
    for i in range(creatures):
        sheep_at(world, (-8.5 + (i % 5) * 4, GROUND, -8.5 + (i // 5) * 4))
    mods, _ = project()
    run(rules, seconds / 2)
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        run(rules, seconds / 2)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert mods.errors == []
    assert len(world.entities) == creatures
    assert all(abs(e.pos[0]) < 12 and abs(e.pos[2]) < 12 for e in world.entities)  # penned
    return grown


def test_a_creature_mod_runs_20_seconds_of_ticks_with_bounded_memory():
    """The short version of the slow test below, for the normal suite."""
    assert herd_memory(20, 20.0) < 2_000_000


@pytest.mark.slow
def test_a_creature_mod_runs_10_minutes_of_ticks_with_bounded_memory():
    """20 sheep, 36,000 ticks of 1/60 s (the slow suite: about a minute and a half)."""
    assert herd_memory(20, 600.0) < 2_000_000


def test_a_fed_sheep_stands_to_chew():
    world, rules = pasture()
    player = world.players.get("steve")
    assert player is not None
    player.inventory.slots[0] = ItemStack("farming:wheat", 1)
    sheep = sheep_at(world, (2.5, GROUND, 0.5), walking=True, next=1e9)
    run(rules, 1.0)
    assert rules.use_entity(sheep.id, replace(steve(), item="farming:wheat")).used
    x = sheep.pos
    run(rules, 1.5)
    assert math.dist(sheep.pos, x) < 0.2  # stands (the 2 s of chewing)
    assert player.inventory.count("farming:wheat") == 0
    assert Inventory().count("farming:wheat") == 0
