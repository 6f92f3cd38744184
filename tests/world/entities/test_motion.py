"""An entity's short step is swept exactly as the player's move is, and bodies fall, stop and
rest."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.blocks.entity_type import ITEM_ENTITY, EntityType
from world.entities.motion import REST_SPEED, move_short, speed, step_motion
from world.physics.collision import move_aabb

SHAPES = (
    "base:stone",
    "base:stone_slab[half=bottom]",
    "base:stone_slab[half=top]",
    "base:fence",
    "base:planks_stairs",
    "base:torch",
    "base:water",
)


def random_world(cells: list[tuple[int, int, int, int]]) -> World:
    world = World()
    registry = world.registry
    for x, y, z, shape in cells:
        world.set_block(x, y, z, registry.resolve(SHAPES[shape]))
    return world


coordinate = st.floats(-3.0, 3.0, allow_nan=False)
step = st.floats(-1.0, 1.0, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(
    cells=st.lists(
        st.tuples(st.integers(-4, 3), st.integers(-4, 3), st.integers(-4, 3), st.integers(0, 6)),
        max_size=60,
    ),
    lo=st.tuples(coordinate, coordinate, coordinate),
    size=st.tuples(st.floats(0.1, 1.5), st.floats(0.1, 2.0), st.floats(0.1, 1.5)),
    delta=st.tuples(step, step, step),
)
def test_a_short_step_stops_where_the_players_sweep_stops(
    cells: list[tuple[int, int, int, int]],
    lo: tuple[float, float, float],
    size: tuple[float, float, float],
    delta: tuple[float, float, float],
) -> None:
    world = random_world(cells)
    hi = (lo[0] + size[0], lo[1] + size[1], lo[2] + size[2])
    fast, fast_blocked = move_short(world, lo, hi, delta)
    slow, slow_blocked = move_aabb(world, lo, hi, delta)
    assert fast == pytest.approx(slow, abs=1e-9)
    assert fast_blocked == slow_blocked


def test_a_body_falls_lands_on_a_full_block_and_rests() -> None:
    world = World()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    pos, velocity = (0.5, 4.0, 0.5), (0.0, 0.0, 0.0)
    grounded = False
    for _ in range(60):
        pos, velocity, grounded = step_motion(world, pos, velocity, ITEM_ENTITY, 0.05)
    assert pos[1] == pytest.approx(1.0)
    assert grounded and speed(velocity) < REST_SPEED


def test_a_fast_body_never_passes_through_a_floor() -> None:
    world = World()
    for x in range(-1, 2):
        for z in range(-1, 2):
            world.set_block(x, 0, z, world.registry.id("base:stone"))
    heavy = EntityType("test:rock", size=(0.5, 0.5), tiles=("base:stone",), gravity=999.0)
    pos, velocity = (0.5, 60.0, 0.5), (0.0, -70.0, 0.0)
    for _ in range(40):
        pos, velocity, _ = step_motion(world, pos, velocity, heavy, 0.05)
    assert pos[1] == pytest.approx(1.0)


def test_friction_on_the_ground_stops_a_sliding_body() -> None:
    world = World()
    for x in range(-2, 30):
        world.set_block(x, 0, 0, world.registry.id("base:stone"))
    pos, velocity = (0.5, 1.0, 0.5), (6.0, 0.0, 0.0)
    for _ in range(40):
        pos, velocity, _ = step_motion(world, pos, velocity, ITEM_ENTITY, 0.05)
    assert 0.5 < pos[0] < 3.0 and speed(velocity) < REST_SPEED
