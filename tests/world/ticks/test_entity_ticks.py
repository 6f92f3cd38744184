"""Entities step on their own: falling blocks land, mods' kinds run their callbacks (a failing one
undone alone), and nothing steps into a chunk that is not loaded."""

from __future__ import annotations

import types

import pytest

from world import World
from world.base import GAME
from world.blocks.entity_type import FALLING_BLOCK, STEP_SECONDS, EntityType
from world.entities.items import stack_of
from world.items.inventory import ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.objects import ObjectRef
from world.mods.registrar import BlockRegistrar
from world.mods.registration import make_registry
from world.mods.view import ModWorld
from world.rules import Rules
from world.ticks.entity_ticks import MAX_STEPS, EntityTicks


def floor(world: World, y: int = 0) -> None:
    stone = world.registry.id("base:stone")
    for x in range(-4, 5):
        for z in range(-4, 5):
            world.set_block(x, y, z, stone)


def run(rules: Rules, seconds: float) -> None:
    for _ in range(round(seconds / STEP_SECONDS)):
        rules.tick(STEP_SECONDS)


def test_a_frame_runs_the_steps_its_time_brings_and_never_a_burst() -> None:
    ticks = EntityTicks(World())
    assert ticks.due(STEP_SECONDS * 0.6) == 0
    assert ticks.due(STEP_SECONDS * 0.6) == 1  # the carried time counts
    assert ticks.due(10.0) == MAX_STEPS  # a late frame: the backlog is dropped
    assert ticks.due(STEP_SECONDS * 0.5) == 0


def test_a_falling_block_lands_as_its_block_in_the_voxel_it_stops_in() -> None:
    world = World()
    floor(world)
    rules = Rules(world)
    entity = world.entities.add(FALLING_BLOCK.name, (1.5, 6.0, 1.5), data={"block": "base:sand"})
    run(rules, 2.0)
    assert entity.removed
    assert world.get_block(1, 1, 1) == world.registry.id("base:sand")
    assert len(world.entities) == 0


def test_a_falling_block_that_lands_on_a_torch_drops_as_its_item() -> None:
    world = World()
    floor(world)
    torch = world.registry.id("base:torch")
    world.set_block(1, 1, 1, world.registry.id("base:stone_slab"))
    world.set_block(1, 1, 1, torch)
    rules = Rules(world)
    world.set_block(1, 2, 1, world.registry.id("base:stone"))
    entity = world.entities.add(FALLING_BLOCK.name, (1.5, 6.0, 1.5), data={"block": "base:gravel"})
    run(rules, 2.0)
    assert entity.removed
    assert world.get_block(1, 3, 1) == world.registry.id("base:gravel")  # on the stone
    assert [stack_of(e) for e in world.entities] == []


def test_a_falling_block_stopped_inside_a_slabs_voxel_drops_its_item() -> None:
    world = World()
    floor(world)
    slab = world.registry.state_id("base:stone_slab", half="bottom")
    world.set_block(2, 1, 2, slab)  # it rests on the slab's top, inside the slab's voxel
    rules = Rules(world)
    world.entities.add(FALLING_BLOCK.name, (2.5, 4.0, 2.5), data={"block": "base:sand"})
    run(rules, 3.0)
    assert world.get_block(2, 1, 2) == slab
    stacks = [stack_of(e) for e in world.entities]
    assert stacks == [ItemStack("base:sand", 1)]


def test_a_falling_block_on_a_fence_lands_in_the_voxel_above_it() -> None:
    world = World()
    floor(world)
    fence = world.registry.id("base:fence")
    world.set_block(2, 1, 2, fence)  # 1.5 high: the block stops at y 2.5, in the voxel above
    rules = Rules(world)
    world.entities.add(FALLING_BLOCK.name, (2.5, 5.0, 2.5), data={"block": "base:sand"})
    run(rules, 3.0)
    assert world.get_block(2, 2, 2) == world.registry.id("base:sand")


def test_an_entity_waits_at_the_edge_of_the_loaded_world() -> None:
    world = World(generator=lambda cx, cy, cz: None)  # chunks load when read (all air)
    floor(world)
    rules = Rules(world)
    # Chunks (0, 1, 0) and (0, 2, 0) were never loaded: the entity waits in the air.
    entity = world.entities.add(FALLING_BLOCK.name, (1.5, 30.0, 1.5), data={"block": "base:sand"})
    run(rules, 0.5)
    assert entity.pos == (1.5, 30.0, 1.5)
    world.install_loaded((0, 1, 0), None)
    world.install_loaded((0, 2, 0), None)
    run(rules, 3.0)
    assert entity.removed and world.get_block(1, 1, 1) == world.registry.id("base:sand")


def walker_mod(log: list[str], *, fail_at: int | None = None) -> types.SimpleNamespace:
    failed: list[int] = []

    def activate(entity: ObjectRef) -> None:
        log.append(f"activate {entity.id}")

    def step(entity: ObjectRef, world: ModWorld, dt: float) -> None:
        count = int(entity.data.get("steps", 0)) + 1
        entity.data["steps"] = count
        x, y, z = entity.pos
        entity.set_pos((x + 0.1, y, z))
        if count == fail_at and not failed:
            failed.append(count)
            raise RuntimeError("stumbled")

    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        registry.register_entity(
            EntityType(
                "walker:walker",
                size=(0.5, 1.0),
                tiles=("base:dirt",),
                physical=False,
                on_activate=activate,
                on_step=step,
            )
        )

    return types.SimpleNamespace(register_blocks=register_blocks)


def walker_world(log: list[str], **kwargs: int) -> tuple[World, Rules]:
    mods = load_mods(
        [], entry_points=False, plugins={"walker": walker_mod(log, **kwargs)}, game=GAME
    )
    world = World(make_registry(mods))
    floor(world)
    return world, Rules(world, mods)


def test_a_mods_entity_is_activated_once_and_steps_twenty_times_a_second() -> None:
    log: list[str] = []
    world, rules = walker_world(log)
    entity = world.entities.add("walker:walker", (0.5, 1.0, 0.5))
    run(rules, 1.0)
    assert log == [f"activate {entity.id}"]
    assert entity.data["steps"] == 20
    assert entity.pos[0] == pytest.approx(0.5 + 2.0)


def test_a_failing_on_step_is_undone_alone_and_named() -> None:
    log: list[str] = []
    world, rules = walker_world(log, fail_at=3)
    entity = world.entities.add("walker:walker", (0.5, 1.0, 0.5))
    run(rules, 5 * STEP_SECONDS)
    assert entity.data["steps"] == 4  # the third step's writes were undone; the others stand
    assert entity.pos[0] == pytest.approx(0.5 + 0.4)
    assert rules.mods is not None
    assert any(e.mod == "walker" and "stumbled" in str(e) for e in rules.mods.errors)


def test_an_entity_of_a_kind_no_mod_defines_is_kept_still() -> None:
    world = World()
    floor(world)
    rules = Rules(world)
    entity = world.entities.add("gone:thing", (0.5, 3.0, 0.5), data={"x": 1})
    run(rules, 1.0)
    assert entity.pos == (0.5, 3.0, 0.5) and not entity.removed


def test_a_step_past_its_budget_goes_on_in_the_next_frame_before_any_new_step() -> None:
    world = World()
    floor(world)
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001  # every reading: a millisecond passed
        return now[0]

    ticks = EntityTicks(world, budget=0.0005, clock=clock)
    falling = [
        world.entities.add(FALLING_BLOCK.name, (x % 8 - 3.5, 10.0, x // 8 - 3.5), data={})
        for x in range(64)
    ]
    rules = Rules(world)
    rules._entities = ticks  # the rules' own entity steps, with the fake clock
    rules.tick(STEP_SECONDS)
    moved = [e for e in falling if e.pos[1] < 10.0]
    assert len(moved) == 32  # one stretch of 32, then the budget was looked at
    heights = [e.pos[1] for e in moved]
    rules.tick(STEP_SECONDS)
    assert all(e.pos[1] < 10.0 for e in falling)  # the next frame finished the step
    assert [e.pos[1] for e in moved] == heights  # and began no new one: lockstep
