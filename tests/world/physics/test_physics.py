"""Tests for world.physics.movement: the player's box through the voxels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.physics.collision import EPS, move_aabb
from world.physics.movement import (
    EYE_HEIGHT,
    JUMP_HEIGHT,
    MAX_FRAME_DT,
    PLAYER_HEIGHT,
    PLAYER_WIDTH,
    SPRINT_SPEED,
    TERMINAL_SPEED,
    TICK,
    WALK_SPEED,
    Body,
    Controls,
    FixedStep,
    look_direction,
    step,
    with_flying,
)
from world.validate import WORLD_LIMIT

REGISTRY = default_registry()
STONE = REGISTRY.id("base:stone")
TALL_GRASS = REGISTRY.id("base:tall_grass")
WATER = REGISTRY.id("base:water")


def fill(world: World, lo: tuple[int, int, int], hi: tuple[int, int, int], block: int) -> None:
    """Set every voxel of the inclusive box lo..hi."""
    xs, ys, zs = (np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True))
    coords = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)
    world.set_blocks(coords, block)


def floor_world(top: int = 0, size: int = 12) -> World:
    """A stone slab whose top face is at y = top + 1, spanning -size..size in x and z."""
    world = World(REGISTRY)
    fill(world, (-size, top, -size), (size, top, size), STONE)
    return world


def run(world: World, body: Body, controls: Controls, seconds: float) -> Body:
    for _ in range(round(seconds / TICK)):
        body = step(world, body, controls)
    return body


def overlaps_solid(world: World, body: Body) -> bool:
    """Brute force: does the body's box overlap any solid voxel by more than EPS on all axes?"""
    lo, hi = body.aabb
    ranges = [range(math.floor(a) - 1, math.floor(b) + 2) for a, b in zip(lo, hi, strict=True)]
    for wx in ranges[0]:
        for wy in ranges[1]:
            for wz in ranges[2]:
                if not REGISTRY.solid[world.get_block(wx, wy, wz)]:
                    continue
                voxel = (wx, wy, wz)
                if all(
                    v < h - 10 * EPS and v + 1 > low + 10 * EPS
                    for v, low, h in zip(voxel, lo, hi, strict=True)
                ):
                    return True
    return False


# -- the body ---------------------------------------------------------------------------------


def test_body_box_and_eye_match_the_player_size() -> None:
    body = Body(pos=(2.5, 10.0, -3.5))
    lo, hi = body.aabb
    assert hi[0] - lo[0] == pytest.approx(PLAYER_WIDTH)
    assert hi[1] - lo[1] == pytest.approx(PLAYER_HEIGHT)
    assert hi[2] - lo[2] == pytest.approx(PLAYER_WIDTH)
    assert lo[1] == 10.0
    assert body.eye == (2.5, 10.0 + EYE_HEIGHT, -3.5)
    assert (PLAYER_WIDTH, PLAYER_HEIGHT, EYE_HEIGHT) == (0.6, 1.8, 1.62)


@pytest.mark.parametrize(
    ("yaw", "pitch", "expected"),
    [
        (0.0, 0.0, (0.0, 0.0, 1.0)),  # Minecraft's: south
        (90.0, 0.0, (-1.0, 0.0, 0.0)),  # west
        (180.0, 0.0, (0.0, 0.0, -1.0)),  # north
        (-90.0, 0.0, (1.0, 0.0, 0.0)),  # east
        (0.0, 90.0, (0.0, -1.0, 0.0)),
        (0.0, -90.0, (0.0, 1.0, 0.0)),
    ],
)
def test_look_direction_is_minecrafts(
    yaw: float, pitch: float, expected: tuple[float, float, float]
) -> None:
    assert look_direction(yaw, pitch) == pytest.approx(expected, abs=1e-12)


@given(st.floats(-720, 720), st.floats(-90, 90))
def test_look_direction_is_a_unit_vector(yaw: float, pitch: float) -> None:
    assert math.hypot(*look_direction(yaw, pitch)) == pytest.approx(1.0)


# -- falling and landing ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    top=st.integers(-40, 40),
    drop=st.floats(0.0, 30.0),
    fx=st.floats(0.0, 0.999),
    fz=st.floats(0.0, 0.999),
)
def test_falling_lands_exactly_on_the_floor(top: int, drop: float, fx: float, fz: float) -> None:
    world = floor_world(top, size=3)
    body = Body(pos=(fx, top + 1 + drop, fz))
    body = run(world, body, Controls(), seconds=math.sqrt(2 * (drop + 1) / 32.0) + 0.5)
    assert body.pos[1] == top + 1  # exact: the feet end on the floor's top face
    assert body.on_ground
    assert body.vel[1] == 0.0
    assert not overlaps_solid(world, body)


def test_standing_still_does_not_jitter() -> None:
    world = floor_world()
    body = Body(pos=(0.5, 1.0, 0.5))
    positions = set()
    for _ in range(120):
        body = step(world, body, Controls())
        positions.add(body.pos)
        assert body.on_ground
    assert positions == {(0.5, 1.0, 0.5)}


def test_non_solid_blocks_do_not_stop_a_fall() -> None:
    world = floor_world()
    world.set_block(0, 1, 0, TALL_GRASS)
    fill(world, (0, 2, 0), (0, 4, 0), WATER)
    body = run(world, Body(pos=(0.5, 6.0, 0.5)), Controls(), seconds=2.0)
    assert body.pos[1] == 1.0


def test_a_fall_at_any_speed_and_tick_length_does_not_tunnel() -> None:
    world = floor_world(top=0, size=2)
    for dt in (TICK, 0.1, 0.5, 3.0):
        body = Body(pos=(0.5, 200.0, 0.5), vel=(0.0, -5000.0, 0.0))
        # Long enough to cover the drop at terminal speed, and a few ticks more.
        for _ in range(math.ceil(200.0 / (TERMINAL_SPEED * dt)) + 3):
            body = step(world, body, Controls(), dt)
        assert body.pos[1] == 1.0, dt


# -- walking ----------------------------------------------------------------------------------


def test_walking_into_a_wall_stops_at_its_face() -> None:
    world = floor_world()
    fill(world, (5, 1, -3), (5, 3, 3), STONE)  # a wall whose -x face is at x = 5
    body = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    body = run(world, body, Controls(forward=1.0, yaw=270.0), seconds=3.0)
    assert body.aabb[1][0] == pytest.approx(5.0, abs=1e-9)
    assert body.vel[0] == 0.0
    assert body.pos[2] == pytest.approx(0.5)  # no sideways drift
    assert not overlaps_solid(world, body)


def test_sliding_along_a_wall_keeps_the_parallel_motion() -> None:
    world = floor_world()
    fill(world, (3, 1, -10), (3, 3, 10), STONE)
    body = Body(pos=(2.0, 1.0, 0.5), on_ground=True)
    body = run(world, body, Controls(forward=1.0, yaw=315.0), seconds=1.0)
    assert body.aabb[1][0] == pytest.approx(3.0, abs=1e-9)
    assert body.pos[2] > 2.0


@pytest.mark.parametrize("dt", [TICK, 0.1, 0.25, 2.0])
def test_a_fast_body_does_not_tunnel_through_a_thin_wall(dt: float) -> None:
    world = floor_world()
    fill(world, (4, 1, -2), (4, 2, 2), STONE)
    body = Body(pos=(0.5, 1.0, 0.5), vel=(400.0, 0.0, 0.0), on_ground=True)
    for _ in range(math.ceil(2.0 / dt)):
        body = step(world, body, Controls(forward=1.0, yaw=270.0), dt)
        assert body.aabb[1][0] <= 4.0 + EPS
    assert body.aabb[1][0] == pytest.approx(4.0, abs=1e-9)


@pytest.mark.parametrize("distance", [1.0, 7.5, 1000.0])
def test_a_long_move_stops_at_the_first_wall(distance: float) -> None:
    world = floor_world(size=2)
    world.set_block(1, 1, 0, STONE)
    world.set_block(3, 1, 0, STONE)
    lo, blocked = move_aabb(world, (0.2, 1.0, 0.2), (0.8, 2.8, 0.8), (distance, 0.0, 0.0))
    assert lo[0] == pytest.approx(0.4) and blocked == (True, False, False)


def test_walk_and_sprint_speeds() -> None:
    world = floor_world(size=40)
    start = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    walked = run(world, start, Controls(forward=1.0), seconds=2.0)
    sprinted = run(world, start, Controls(forward=1.0, sprint=True), seconds=2.0)
    diagonal = run(world, start, Controls(forward=1.0, strafe=1.0), seconds=2.0)
    assert walked.vel[2] == pytest.approx(WALK_SPEED, rel=1e-3)
    assert sprinted.vel[2] == pytest.approx(SPRINT_SPEED, rel=1e-3)
    assert math.hypot(diagonal.vel[0], diagonal.vel[2]) == pytest.approx(WALK_SPEED, rel=1e-3)
    # Strafing right at yaw 0 (facing south) goes west, toward -x, as in Minecraft.
    assert diagonal.vel[0] < 0


@pytest.mark.parametrize(
    ("yaw", "right"),
    [(180.0, (1.0, 0.0)), (0.0, (-1.0, 0.0)), (270.0, (0.0, 1.0)), (90.0, (0.0, -1.0))],
)
def test_strafing_right_goes_to_the_players_right_as_in_minecraft(
    yaw: float, right: tuple[float, float]
) -> None:
    """Facing north (yaw 180) the right is east (+x); facing east (270) south (+z): Minecraft's
    right-handed frame, x east, z south."""
    world = floor_world(size=40)
    start = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    body = run(world, start, Controls(strafe=1.0, yaw=yaw), seconds=1.0)
    moved = (body.pos[0] - start.pos[0], body.pos[2] - start.pos[2])
    assert moved[0] * right[0] + moved[1] * right[1] > 3.0  # metres to the right
    assert abs(moved[0] * right[1] - moved[1] * right[0]) < 1e-9  # and nowhere else


def test_no_walking_through_a_one_block_high_gap() -> None:
    world = floor_world()
    fill(world, (4, 2, -3), (4, 3, 3), STONE)  # a lintel leaving a 1-block gap at y = 1
    body = run(world, Body(pos=(0.5, 1.0, 0.5)), Controls(forward=1.0, yaw=270.0), seconds=3.0)
    assert body.aabb[1][0] == pytest.approx(4.0, abs=1e-9)


def test_walking_through_a_two_block_high_one_wide_gap() -> None:
    world = floor_world()
    fill(world, (4, 1, -3), (4, 3, 3), STONE)
    fill(world, (4, 1, 0), (4, 2, 0), 0)  # a door 1 wide, 2 high at z = 0
    body = run(world, Body(pos=(0.5, 1.0, 0.5)), Controls(forward=1.0, yaw=270.0), seconds=3.0)
    assert body.pos[0] > 6.0


# -- jumping ----------------------------------------------------------------------------------


def test_jump_reaches_the_jump_height_and_lands_back() -> None:
    world = floor_world()
    body = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    peak = 0.0
    body = step(world, body, Controls(jump=True))
    for _ in range(120):
        body = step(world, body, Controls())
        peak = max(peak, body.pos[1] - 1.0)
    assert JUMP_HEIGHT - 0.1 < peak <= JUMP_HEIGHT + 1e-9
    assert body.pos[1] == 1.0 and body.on_ground


def test_no_jump_in_mid_air() -> None:
    world = floor_world()
    body = run(world, Body(pos=(0.5, 10.0, 0.5)), Controls(jump=True), seconds=0.2)
    assert body.vel[1] < 0.0


def test_a_one_block_ledge_needs_a_jump() -> None:
    world = floor_world()
    fill(world, (3, 1, -5), (8, 1, 5), STONE)  # a step up, top face y = 2, front face x = 3
    walker = run(world, Body(pos=(0.5, 1.0, 0.5)), Controls(forward=1.0, yaw=270.0), 2.0)
    assert walker.pos[1] == 1.0 and walker.aabb[1][0] == pytest.approx(3.0, abs=1e-9)
    jumper = step(world, walker, Controls(forward=1.0, yaw=270.0, jump=True))
    jumper = run(world, jumper, Controls(forward=1.0, yaw=270.0), 1.0)
    assert jumper.pos[1] == 2.0 and jumper.pos[0] > 3.5


def test_a_one_block_ceiling_stops_the_jump() -> None:
    world = floor_world()
    fill(world, (-2, 3, -2), (2, 3, 2), STONE)  # ceiling bottom at y = 3: 2 blocks of room
    body = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    tops = []
    body = step(world, body, Controls(jump=True))
    for _ in range(60):
        body = step(world, body, Controls())
        tops.append(body.aabb[1][1])
    assert max(tops) <= 3.0 + 1e-9
    assert body.pos[1] == 1.0


def test_no_standing_under_a_one_block_ceiling() -> None:
    world = floor_world()
    fill(world, (-2, 2, -2), (2, 2, 2), STONE)  # 1 block of room: the player does not fit
    fill(world, (4, 1, -2), (4, 3, 2), 0)
    body = run(world, Body(pos=(-4.5, 1.0, 0.5)), Controls(forward=1.0, yaw=270.0), seconds=2.0)
    assert body.aabb[1][0] == pytest.approx(-2.0, abs=1e-9)


# -- flying -----------------------------------------------------------------------------------


def test_flying_ignores_gravity_rises_and_lands() -> None:
    world = floor_world()
    body = with_flying(Body(pos=(0.5, 5.0, 0.5)), True)
    hover = run(world, body, Controls(), seconds=1.0)
    assert hover.pos[1] == pytest.approx(5.0) and hover.flying
    risen = run(world, hover, Controls(jump=True), seconds=1.0)
    assert risen.pos[1] > 10.0
    landed = run(world, risen, Controls(descend=True), seconds=4.0)
    assert landed.pos[1] == 1.0 and landed.on_ground and not landed.flying


def test_flight_is_faster_and_sprint_flight_faster_still() -> None:
    world = floor_world()
    body = with_flying(Body(pos=(0.5, 5.0, 0.5)), True)
    fly = run(world, body, Controls(forward=1.0), seconds=1.0)
    sprint_fly = run(world, body, Controls(forward=1.0, sprint=True), seconds=1.0)
    assert WALK_SPEED * 2 < fly.vel[2] < sprint_fly.vel[2]


# -- fixed step -------------------------------------------------------------------------------


def test_fixed_step_gives_the_same_motion_at_any_frame_rate() -> None:
    world = floor_world(size=30)
    controls = Controls(forward=1.0, yaw=30.0, jump=True)
    results = []
    for fps in (20, 30, 60, 144, 240):
        clock = FixedStep()
        body = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
        for _ in range(fps * 2):
            body = clock.advance(world, body, controls, 1.0 / fps)
        results.append(body)
    assert all(r == results[0] for r in results)


def test_fixed_step_clamps_a_long_frame() -> None:
    world = floor_world()
    clock = FixedStep()
    body = Body(pos=(0.5, 100.0, 0.5))
    after = clock.advance(world, body, Controls(), 30.0)
    expected = body
    for _ in range(round(MAX_FRAME_DT / TICK)):
        expected = step(world, expected, Controls())
    assert after == expected


def test_render_position_lies_between_ticks() -> None:
    world = floor_world(size=30)
    clock = FixedStep()
    body = Body(pos=(0.5, 1.0, 0.5), on_ground=True)
    body = clock.advance(world, body, Controls(forward=1.0), 0.2)
    body = clock.advance(world, body, Controls(forward=1.0), TICK * 1.5)
    assert clock.previous is not None
    z0, z1 = clock.previous.pos[2], body.pos[2]
    assert z0 < clock.render_pos(body)[2] < z1


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [0.0, -1.0, math.nan, math.inf])
def test_step_rejects_a_bad_dt(dt: float) -> None:
    with pytest.raises(ValueError, match="dt"):
        step(floor_world(), Body(pos=(0.5, 1.0, 0.5)), Controls(), dt)


def test_move_aabb_rejects_bad_boxes() -> None:
    world = floor_world()
    with pytest.raises(ValueError, match="delta"):
        move_aabb(world, (0, 0, 0), (1, 1, 1), (math.nan, 0, 0))
    with pytest.raises(ValueError, match="hi"):
        move_aabb(world, (0, 0, 0), (-1, 1, 1), (0, 0, 0))
    with pytest.raises(ValueError, match="frame_dt"):
        FixedStep().advance(world, Body(pos=(0, 1, 0)), Controls(), -1.0)


# -- properties against brute force -----------------------------------------------------------

SIZE = 8  # random worlds fill the voxels 0..SIZE-1 inside a stone shell


def random_world(bits: list[bool]) -> World:
    world = World(REGISTRY)
    fill(world, (-1, -1, -1), (SIZE, SIZE, SIZE), STONE)
    fill(world, (0, 0, 0), (SIZE - 1, SIZE - 1, SIZE - 1), 0)
    solid = np.array(bits, dtype=bool).reshape(SIZE, SIZE, SIZE)
    coords = np.argwhere(solid)
    if len(coords):
        world.set_blocks(coords, STONE)
    return world


def reference_move(
    world: World, lo: list[float], hi: list[float], delta: tuple[float, float, float]
) -> tuple[list[float], list[bool]]:
    """Per-axis sweep (y, x, z) by checking every solid voxel of the shelled region."""
    solids = [
        (x, y, z)
        for x in range(-1, SIZE + 1)
        for y in range(-1, SIZE + 1)
        for z in range(-1, SIZE + 1)
        if REGISTRY.solid[world.get_block(x, y, z)]
    ]
    lo, hi = list(lo), list(hi)
    blocked = [False, False, False]
    for axis in (1, 0, 2):
        d = delta[axis]
        allowed = d
        for voxel in solids:
            if not all(
                voxel[b] < hi[b] - EPS and voxel[b] + 1 > lo[b] + EPS for b in range(3) if b != axis
            ):
                continue
            v = voxel[axis]
            if d > 0 and hi[axis] - EPS <= v < hi[axis] + d - EPS:
                gap = v - hi[axis]
            elif d < 0 and lo[axis] + d + EPS < v + 1 <= lo[axis] + EPS:
                gap = v + 1 - lo[axis]
            else:
                continue
            if abs(gap) <= abs(allowed):
                allowed, blocked[axis] = gap, True
        lo[axis] += allowed
        hi[axis] += allowed
    return lo, blocked


world_bits = st.lists(st.booleans(), min_size=SIZE**3, max_size=SIZE**3).map(
    lambda bits: [b and (i % 3 == 0) for i, b in enumerate(bits)]  # about 1 voxel in 6 solid
)


@settings(max_examples=60, deadline=None)
@given(
    bits=world_bits,
    start=st.tuples(*(st.floats(0.0, SIZE - 1.0),) * 3),
    size=st.tuples(*(st.floats(0.1, 1.9),) * 3),
    delta=st.tuples(*(st.floats(-6.0, 6.0),) * 3),
)
def test_move_aabb_matches_a_brute_force_sweep(
    bits: list[bool],
    start: tuple[float, float, float],
    size: tuple[float, float, float],
    delta: tuple[float, float, float],
) -> None:
    world = random_world(bits)
    lo = list(start)
    hi = [a + s for a, s in zip(lo, size, strict=True)]
    # Clear the voxels the box starts in: a body never starts inside a block.
    cells = [range(math.floor(a), math.ceil(b)) for a, b in zip(lo, hi, strict=True)]
    for x in cells[0]:
        for y in cells[1]:
            for z in cells[2]:
                world.set_block(x, y, z, 0)
    got_lo, got_blocked = move_aabb(world, tuple(lo), tuple(hi), delta)  # type: ignore[arg-type]
    want_lo, want_blocked = reference_move(world, lo, hi, delta)
    assert list(got_blocked) == want_blocked
    assert got_lo == pytest.approx(want_lo, abs=1e-9)


frames = st.lists(
    st.tuples(
        st.sampled_from([-1.0, 0.0, 1.0]),  # forward
        st.sampled_from([-1.0, 0.0, 1.0]),  # strafe
        st.floats(-360.0, 360.0),  # yaw
        st.booleans(),  # jump
        st.booleans(),  # descend
        st.booleans(),  # sprint
        st.sampled_from([0.0, 1e-4, TICK, 0.05, 0.1, 0.3, 5.0]),  # frame time
        st.sampled_from([None, False, True]),  # switch flying
        st.sampled_from([0.0, 0.0, 0.0, 60.0, -300.0]),  # a kick of speed (explosion, fall)
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(bits=world_bits, cell=st.tuples(*(st.integers(0, SIZE - 1),) * 3), frames=frames)
def test_the_body_never_overlaps_a_solid_voxel(
    bits: list[bool],
    cell: tuple[int, int, int],
    frames: list[tuple[float, float, float, bool, bool, bool, float, bool | None, float]],
) -> None:
    world = random_world(bits)
    x, y, z = cell
    y = min(y, SIZE - 2)
    world.set_block(x, y, z, 0)
    world.set_block(x, y + 1, z, 0)
    body = Body(pos=(x + 0.5, float(y), z + 0.5))
    clock = FixedStep()
    for forward, strafe, yaw, jump, descend, sprint, dt, fly, kick in frames:
        if fly is not None:
            body = with_flying(body, fly)
        if kick:
            body = Body(body.pos, (kick, kick, -kick), body.on_ground, body.flying)
        controls = Controls(forward, strafe, yaw, jump, descend, sprint)
        body = clock.advance(world, body, controls, dt)
        assert not overlaps_solid(world, body)
        # The shell is closed: the body stays inside the region.
        assert all(c >= -EPS for c in body.aabb[0])
        assert all(c <= SIZE + EPS for c in body.aabb[1])
        if body.on_ground:
            assert body.pos[1] == math.floor(body.pos[1])


# -- the world's limit -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"pos": (WORLD_LIMIT + 1.0, 0.0, 0.0)}, "pos"),
        ({"pos": (0.0, -1e300, 0.0)}, "pos"),
        ({"pos": (math.nan, 0.0, 0.0)}, "pos"),
        ({"pos": ("1", 0.0, 0.0)}, "pos"),
        ({"pos": (0.0, 0.0, 0.0), "vel": (math.inf, 0.0, 0.0)}, "vel"),
    ],
)
def test_a_body_beyond_the_world_or_not_finite_is_refused(kwargs: dict, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Body(**kwargs)


def test_a_body_falling_out_of_the_world_lands_on_its_edge() -> None:
    body = Body(pos=(0.5, -WORLD_LIMIT + 1.0, 0.5), vel=(0.0, -TERMINAL_SPEED, 0.0))
    body = step(World(REGISTRY), body, Controls(), MAX_FRAME_DT)
    assert body.pos[1] == -WORLD_LIMIT and body.on_ground and body.vel[1] == 0.0
