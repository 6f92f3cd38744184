"""`world.physics.movement` on collision shapes: stepping up onto slabs and stairs (Minecraft's
0.6), fences that cannot be jumped, torches and plants walked through, and never ending inside a
box."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.physics.test_collision_shapes import (
    SIZE,
    cells,
    overlaps,
    shaped_world,
    shapes,
    world_boxes,
)
from world import World
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.blocks.shapes import COLLISION_TOP, Box, carpet, fence, slab, stairs, torch
from world.physics.collision import EPS
from world.physics.movement import (
    JUMP_HEIGHT,
    STEP_HEIGHT,
    TICK,
    Body,
    Controls,
    FixedStep,
    step,
    with_flying,
)

REGISTRY = default_registry()
STONE = REGISTRY.id("base:stone")
TALL_GRASS = REGISTRY.id("base:tall_grass")
SLAB = REGISTRY.register(BlockType("test:slab", selection=slab("bottom")))
STAIRS = REGISTRY.register(BlockType("test:stairs", selection=stairs("east")))  # step toward +x
FENCE = REGISTRY.register(
    BlockType(
        "test:fence",  # a fence line along z, as a row of connected fences is
        selection=fence(north=True, south=True),
        collision=fence(north=True, south=True, top=COLLISION_TOP),
    )
)
TORCH = REGISTRY.register(BlockType("test:torch", solid=False, transparent=True, selection=torch()))
EAST = Controls(forward=1.0, yaw=270.0)  # walk toward +x


def fill(world: World, lo: tuple[int, int, int], hi: tuple[int, int, int], block: int) -> None:
    """Set every voxel of the inclusive box lo..hi."""
    xs, ys, zs = (np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True))
    coords = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)
    world.set_blocks(coords, block)


def floor_world() -> World:
    """Stone whose top face is y = 1, x and z in -12..12."""
    world = World(REGISTRY)
    fill(world, (-12, 0, -12), (12, 0, 12), STONE)
    return world


def run(world: World, body: Body, controls: Controls, seconds: float) -> list[Body]:
    """Every tick's body."""
    bodies = []
    for _ in range(round(seconds / TICK)):
        body = step(world, body, controls)
        bodies.append(body)
    return bodies


def standing() -> Body:
    return Body(pos=(0.5, 1.0, 0.5), on_ground=True)


def test_walking_onto_a_slab_steps_up_without_a_jump() -> None:
    world = floor_world()
    fill(world, (3, 1, -3), (8, 1, 3), SLAB)
    bodies = run(world, standing(), EAST, 2.0)
    end = bodies[-1]
    assert end.pos[1] == 1.5 and end.on_ground and end.pos[0] > 5.0
    # Stepped, not jumped: the feet never rose above the slab's top.
    assert max(b.pos[1] for b in bodies) == 1.5


def test_walking_up_stairs_climbs_both_steps_onto_the_block_behind() -> None:
    world = floor_world()
    fill(world, (3, 1, -3), (3, 1, 3), STAIRS)
    fill(world, (4, 1, -3), (8, 1, 3), STONE)
    end = run(world, standing(), EAST, 2.0)[-1]
    assert end.pos[1] == 2.0 and end.on_ground and end.pos[0] > 5.0


@pytest.mark.parametrize("height", [1 / 16, 0.5, 9 / 16, STEP_HEIGHT])
def test_a_ledge_up_to_the_step_height_is_walked_onto(height: float) -> None:
    registry = default_registry()
    ledge = registry.register(BlockType("test:ledge", selection=carpet(height)))
    world = World(registry)
    fill(world, (-12, 0, -12), (12, 0, 12), registry.id("base:stone"))
    fill(world, (3, 1, -3), (8, 1, 3), ledge)
    end = run(world, standing(), EAST, 2.0)[-1]
    assert end.pos[1] == pytest.approx(1.0 + height) and end.pos[0] > 5.0


@pytest.mark.parametrize("height", [10 / 16, 0.75, 1.0])
def test_a_ledge_above_the_step_height_needs_a_jump(height: float) -> None:
    registry = default_registry()
    ledge = registry.register(BlockType("test:ledge", selection=carpet(height)))
    world = World(registry)
    fill(world, (-12, 0, -12), (12, 0, 12), registry.id("base:stone"))
    fill(world, (3, 1, -3), (8, 1, 3), ledge)
    walker = run(world, standing(), EAST, 2.0)[-1]
    assert walker.pos[1] == 1.0 and walker.aabb[1][0] == pytest.approx(3.0, abs=1e-9)
    jumper = run(world, step(world, walker, Controls(1.0, 0.0, 270.0, jump=True)), EAST, 1.0)[-1]
    assert jumper.pos[1] == pytest.approx(1.0 + height) and jumper.pos[0] > 3.5


def test_no_step_up_where_the_body_does_not_fit() -> None:
    world = floor_world()
    fill(world, (3, 1, -3), (8, 1, 3), SLAB)
    fill(world, (3, 3, -3), (8, 3, 3), STONE)  # 1.5 blocks of room above the slab
    end = run(world, standing(), EAST, 2.0)[-1]
    assert end.pos[1] == 1.0 and end.aabb[1][0] == pytest.approx(3.0, abs=1e-9)


def test_no_step_up_in_the_air() -> None:
    world = floor_world()
    fill(world, (3, 2, -3), (8, 2, 3), SLAB)  # a slab shelf: its top at 2.5, air under it
    # Falling past the shelf's side while moving toward it: on the ground, the same 0.5 would
    # be stepped; in the air the body slides down its face to the floor.
    body = Body(pos=(2.6, 2.1, 0.5), vel=(3.0, 0.0, 0.0))
    bodies = run(world, body, EAST, 2.0)
    assert all(b.pos[1] < 2.5 for b in bodies)
    assert bodies[-1].pos[1] == 1.0 and bodies[-1].aabb[1][0] == pytest.approx(3.0, abs=1e-9)


def test_no_step_up_in_flight() -> None:
    world = floor_world()
    fill(world, (3, 1, -3), (8, 1, 3), STONE)
    fill(world, (3, 2, -3), (8, 2, 3), SLAB)  # top at 2.5
    flyer = with_flying(Body(pos=(0.5, 2.0, 0.5)), True)
    bodies = run(world, flyer, EAST, 2.0)
    assert bodies[-1].flying and bodies[-1].pos[1] == pytest.approx(2.0)
    assert bodies[-1].aabb[1][0] == pytest.approx(3.0, abs=1e-9)


def test_a_fence_cannot_be_jumped_over() -> None:
    world = floor_world()
    fill(world, (3, 1, -6), (3, 1, 6), FENCE)
    assert 1.0 < JUMP_HEIGHT < COLLISION_TOP
    bodies = run(world, standing(), Controls(forward=1.0, yaw=270.0, jump=True), 4.0)
    post_face = 3 + 6 / 16
    assert max(b.aabb[1][0] for b in bodies) <= post_face + EPS
    assert max(b.pos[1] for b in bodies) > 2.0  # it did jump, and higher than a block


def test_torches_and_tall_grass_are_walked_through() -> None:
    world = floor_world()
    world.set_block(2, 1, 0, TORCH)
    world.set_block(4, 1, 0, TALL_GRASS)
    end = run(world, standing(), EAST, 2.0)[-1]
    assert end.pos[1] == 1.0 and end.pos[0] > 7.0


def test_falling_onto_a_fence_lands_on_its_collision_top() -> None:
    world = floor_world()
    world.set_block(0, 1, 0, FENCE)
    end = run(world, Body(pos=(0.5, 6.0, 0.5)), Controls(), 2.0)[-1]
    assert end.pos[1] == 2.5 and end.on_ground


# -- properties against brute force -----------------------------------------------------------

frames = st.lists(
    st.tuples(
        st.sampled_from([-1.0, 0.0, 1.0]),  # forward
        st.sampled_from([-1.0, 0.0, 1.0]),  # strafe
        st.floats(-360.0, 360.0),  # yaw
        st.booleans(),  # jump
        st.booleans(),  # descend
        st.sampled_from([1e-4, TICK, 0.05, 0.1, 0.3]),  # frame time
        st.sampled_from([None, None, False, True]),  # switch flying
        st.sampled_from([0.0, 0.0, 0.0, 30.0, -200.0]),  # a kick of speed
    ),
    min_size=1,
    max_size=20,
)


@settings(max_examples=50, deadline=None)
@given(
    shape_list=shapes,
    cells=cells,
    cell=st.tuples(*(st.integers(0, SIZE - 1),) * 3),
    frames=frames,
)
def test_the_body_never_ends_inside_a_collision_box_of_random_shapes(
    shape_list: list[tuple[Box, ...]],
    cells: list[int],
    cell: tuple[int, int, int],
    frames: list[tuple[float, float, float, bool, bool, float, bool | None, float]],
) -> None:
    world = shaped_world(shape_list, cells)
    x, y, z = cell
    y = min(y, SIZE - 2)
    feet = (x + 0.5, float(y), z + 0.5)
    lo0 = [x + 0.2, float(y), z + 0.2]
    hi0 = [x + 0.8, y + 1.8, z + 0.8]
    for wx, wy, wz in np.argwhere(np.ones((3, 4, 3), dtype=bool)) + np.array([x - 1, y - 1, z - 1]):
        if min(wx, wy, wz) >= 0 and max(wx, wy, wz) < SIZE:
            world.set_block(int(wx), int(wy), int(wz), 0)  # clear room around the start
    all_boxes = world_boxes(world)
    assert not any(overlaps(lo0, hi0, b) for b in all_boxes)
    body = Body(pos=feet)
    clock = FixedStep()
    for forward, strafe, yaw, jump, descend, dt, fly, kick in frames:
        if fly is not None:
            body = with_flying(body, fly)
        if kick:
            body = Body(body.pos, (kick, kick, -kick), body.on_ground, body.flying)
        body = clock.advance(world, body, Controls(forward, strafe, yaw, jump, descend), dt)
        lo, hi = body.aabb
        assert not any(overlaps(list(lo), list(hi), b) for b in all_boxes)
        assert all(c >= -EPS for c in lo) and all(c <= SIZE + EPS for c in hi)
