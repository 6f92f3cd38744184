"""Water (`world.physics.swimming` through `world.physics.movement.step`): sinking slowly, swimming
up with Space, drag on every move, a hop out onto a ledge, and flight that ignores water."""

from __future__ import annotations

import numpy as np
import pytest

from world import World
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.blocks.shapes import carpet
from world.physics.movement import (
    FLY_SPEED,
    JUMP_SPEED,
    PLAYER_HEIGHT,
    TICK,
    WALK_SPEED,
    Body,
    Controls,
    step,
    with_flying,
)
from world.physics.swimming import (
    DIVE_SPEED,
    FLUID_JUMP_THRESHOLD,
    SWIM_UP_SPEED,
    WATER_DRAG,
    WATER_SINK_SPEED,
    WATER_SPEED,
    climbs_out,
    current,
    liquid_depth,
)

REGISTRY = default_registry()
STONE = REGISTRY.id("base:stone")
WATER = REGISTRY.id("base:water")
SURFACE = 1  # the lake's water fills y = -9..0: its surface is y = 1
EAST = Controls(forward=1.0, yaw=270.0)


def fill(world: World, lo: tuple[int, int, int], hi: tuple[int, int, int], block: int) -> None:
    """Set every voxel of the inclusive box lo..hi."""
    xs, ys, zs = (np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True))
    coords = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)
    world.set_blocks(coords, block)


def lake(shore: int | None = None, depth: int = 10) -> World:
    """Water ``depth`` deep over a stone floor; a stone shore from x = 3 on, its top at
    ``shore``."""
    world = World(REGISTRY)
    fill(world, (-12, SURFACE - depth - 1, -12), (12, SURFACE - depth - 1, 12), STONE)
    fill(world, (-12, SURFACE - depth, -12), (12, SURFACE - 1, 12), WATER)
    if shore is not None:
        fill(world, (3, SURFACE - depth, -12), (12, shore - 1, 12), STONE)
    return world


def run(world: World, body: Body, controls: Controls, seconds: float) -> list[Body]:
    bodies = []
    for _ in range(round(seconds / TICK)):
        body = step(world, body, controls)
        bodies.append(body)
    return bodies


def test_a_body_in_water_sinks_slowly() -> None:
    world = lake()
    bodies = run(world, Body(pos=(0.5, -2.0, 0.5)), Controls(), 2.0)
    assert bodies[-1].vel[1] == pytest.approx(-WATER_SINK_SPEED, rel=0.01)
    assert min(b.vel[1] for b in bodies) >= -WATER_SINK_SPEED
    assert -2.0 - 2 * WATER_SINK_SPEED < bodies[-1].pos[1] < -2.0 - 1.5 * WATER_SINK_SPEED
    # The same two seconds in the air fall 64 blocks.
    air = run(World(REGISTRY), Body(pos=(0.5, -2.0, 0.5)), Controls(), 2.0)[-1]
    assert air.pos[1] < -60.0


def test_space_swims_up() -> None:
    world = lake()
    bodies = run(world, Body(pos=(0.5, -8.0, 0.5)), Controls(jump=True), 2.0)
    assert bodies[-1].vel[1] == pytest.approx(SWIM_UP_SPEED, rel=0.01)
    assert bodies[-1].pos[1] > -8.0 + 1.5 * SWIM_UP_SPEED


def test_the_sneak_key_dives_and_cancels_space() -> None:
    world = lake(depth=30)
    diver = run(world, Body(pos=(0.5, -2.0, 0.5)), Controls(descend=True), 2.0)[-1]
    assert diver.vel[1] == pytest.approx(-DIVE_SPEED, rel=0.01)
    both = run(world, Body(pos=(0.5, -2.0, 0.5)), Controls(jump=True, descend=True), 2.0)[-1]
    assert both.vel[1] == pytest.approx(-WATER_SINK_SPEED, rel=0.01)


def test_space_keeps_a_swimmer_at_the_surface() -> None:
    world = lake()
    bodies = run(world, Body(pos=(0.5, -3.0, 0.5)), Controls(jump=True), 8.0)
    late = [b.pos[1] for b in bodies[-120:]]  # the last two seconds: bobbing at the surface
    assert min(late) > SURFACE - PLAYER_HEIGHT and max(late) < SURFACE + 0.5


def test_moving_in_water_is_slower_than_walking() -> None:
    world = lake()
    swimmer = run(world, Body(pos=(0.5, -5.0, 0.5)), Controls(forward=1.0, sprint=True), 2.0)
    assert swimmer[-1].vel[2] == pytest.approx(WATER_SPEED, rel=0.01)
    assert WATER_SPEED < WALK_SPEED / 2
    # Walking on the lake's floor is as slow.
    floor = Body(pos=(0.5, -9.0, 0.5), on_ground=True)
    walker = run(world, floor, Controls(forward=1.0), 2.0)[-1]
    assert walker.pos[1] == -9.0 and walker.vel[2] == pytest.approx(WATER_SPEED, rel=0.01)


def test_water_brakes_a_dive() -> None:
    world = lake(depth=30)
    diver = Body(pos=(0.5, 0.5, 0.5), vel=(0.0, -30.0, 0.0))
    bodies = run(world, diver, Controls(), 2.0)
    assert bodies[-1].vel[1] == pytest.approx(-WATER_SINK_SPEED, abs=0.05)
    # The drag acts at Minecraft's rate: x 0.8 per 1/20 s.
    assert abs(bodies[2].vel[1] + WATER_SINK_SPEED) == pytest.approx(
        (30.0 - WATER_SINK_SPEED) * np.exp(-WATER_DRAG * 3 * TICK), rel=1e-6
    )


def test_space_climbs_out_onto_a_ledge_one_block_above_the_surface() -> None:
    world = lake(shore=SURFACE + 1)
    swimmer = Body(pos=(1.5, -2.0, 0.5))
    bodies = run(world, swimmer, Controls(forward=1.0, yaw=270.0, jump=True), 4.0)
    assert any(b.pos[1] == SURFACE + 1 and b.on_ground and b.pos[0] > 3.3 for b in bodies)


def test_without_space_a_swimmer_stays_in_against_the_ledge() -> None:
    world = lake(shore=SURFACE + 1)
    swimmer = Body(pos=(1.5, 0.3, 0.5))
    bodies = run(world, swimmer, EAST, 3.0)
    assert all(b.aabb[1][0] <= 3.0 + 1e-9 for b in bodies)


def test_walking_out_of_the_water_onto_a_shore_at_its_surface() -> None:
    world = lake(shore=SURFACE)
    bodies = run(world, Body(pos=(1.5, -0.5, 0.5)), Controls(1.0, 0.0, 270.0, jump=True), 3.0)
    assert any(b.pos[1] == SURFACE and b.pos[0] > 4.0 for b in bodies)


def test_flight_ignores_water() -> None:
    world = lake()
    flyer = with_flying(Body(pos=(0.5, -5.0, 0.5)), True)
    bodies = run(world, flyer, Controls(forward=1.0), 1.0)
    assert bodies[-1].pos[1] == pytest.approx(-5.0)
    assert bodies[-1].vel[2] == pytest.approx(FLY_SPEED, rel=0.01)


def test_wading_in_shallow_water_jumps_instead_of_swimming() -> None:
    registry = default_registry()
    ledge = registry.register(BlockType("test:ledge", selection=carpet(10 / 16)))
    world = World(registry)
    world.set_block(0, 0, 0, ledge)
    world.set_block(1, 0, 0, registry.id("base:water"))
    # Standing on the ledge with a foot over the water beside it: 6/16 of water over the feet.
    body = Body(pos=(1.0, 10 / 16, 0.5), on_ground=True)
    assert liquid_depth(world, *body.aabb) == pytest.approx(6 / 16)
    assert FLUID_JUMP_THRESHOLD >= 6 / 16
    jumped = step(world, body, Controls(jump=True))
    assert jumped.vel[1] == pytest.approx(JUMP_SPEED, abs=0.5)


@pytest.mark.parametrize(
    ("feet", "depth"),
    [(-3.0, 2.0), (0.25, 0.75), (0.99, 0.01), (0.9995, 0.0), (1.0, 0.0), (5.0, 0.0)],
)
def test_liquid_depth_is_the_water_above_the_feet_up_to_the_voxels_the_box_touches(
    feet: float, depth: float
) -> None:
    world = lake()
    lo = (0.2, feet, 0.2)
    hi = (0.8, feet + PLAYER_HEIGHT, 0.8)
    assert liquid_depth(world, lo, hi) == pytest.approx(depth)


def test_touching_water_only_by_a_skin_is_not_being_in_it() -> None:
    world = World(REGISTRY)
    world.set_block(1, 0, 0, WATER)
    assert liquid_depth(world, (0.2, 0.0, 0.2), (1.0005, 1.8, 0.8)) == 0.0
    assert liquid_depth(world, (0.2, 0.0, 0.2), (1.01, 1.8, 0.8)) == 1.0


def test_the_hop_out_needs_room_free_of_water_and_blocks() -> None:
    world = lake(shore=SURFACE + 1)
    size = (0.6, PLAYER_HEIGHT, 0.6)
    assert climbs_out(world, (2.4, SURFACE - 0.5, 0.2), size)
    assert not climbs_out(world, (2.4, SURFACE - 0.7, 0.2), size)  # still in water, raised
    assert climbs_out(world, (2.4, SURFACE - 0.3, 0.2), size)
    world.set_block(2, SURFACE + 2, 0, STONE)
    assert not climbs_out(world, (2.4, SURFACE - 0.3, 0.2), size)  # a block above the head


def stream() -> World:
    """A channel along +x, one block deep, whose water runs east from a source at x = 0 to level 1
    at x = 7 (each level one less, as the liquids leave it): a current."""
    world = World(REGISTRY)
    fill(world, (-2, -1, -2), (12, -1, 2), STONE)
    fill(world, (-2, 0, -2), (12, 1, -2), STONE)
    fill(world, (-2, 0, 2), (12, 1, 2), STONE)
    fill(world, (-1, 0, -1), (-1, 1, 1), STONE)
    for x in range(8):
        state = REGISTRY.state_id("base:water", level=8 - x) if x else WATER
        fill(world, (x, 0, -1), (x, 0, 1), state)
    return world


def test_flowing_water_carries_a_swimmer_along_its_flow_and_a_still_lake_does_not() -> None:
    bodies = run(stream(), Body(pos=(2.5, 0.0, 0.5)), Controls(), 1.5)
    assert bodies[-1].pos[0] > 2.5 + 1.0  # carried east, downstream, about 1.3 blocks/s
    assert abs(bodies[-1].pos[2] - 0.5) < 0.05  # straight down the channel
    assert all(b.vel[0] >= 0.0 for b in bodies)
    still = run(lake(), Body(pos=(0.5, -2.0, 0.5)), Controls(), 1.5)
    assert still[-1].pos[0] == pytest.approx(0.5) and still[-1].pos[2] == pytest.approx(0.5)


def test_the_current_points_down_the_slope_of_the_surface_and_toward_a_fall() -> None:
    world = stream()
    push = current(world, (3.1, 0.1, 0.1), (3.4, 0.9, 0.4)).push
    assert push[0] == pytest.approx(5.6) and push[1] == pytest.approx(0.0)
    # A lake of sources is still, even at its edge over air; a fall beside the edge pulls.
    edge = lake()
    assert current(edge, (12.1, 0.1, 0.1), (12.4, 0.9, 0.4)).push == (0.0, 0.0)
    edge.set_block(13, -1, 0, REGISTRY.state_id("base:water", level=8, falling=True))
    pull = current(edge, (12.1, 0.1, 0.1), (12.4, 0.9, 0.4)).push
    assert pull[0] == pytest.approx(5.6) and pull[1] == pytest.approx(0.0)
    lava = REGISTRY.id("base:lava")
    world.set_block(5, 0, 1, lava)
    assert current(world, (5.1, 0.1, 1.1), (5.4, 0.4, 1.4)).burns
    assert not current(world, (5.1, 0.1, 0.1), (5.4, 0.4, 0.4)).burns
