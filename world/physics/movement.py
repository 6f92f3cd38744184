"""The player's body moved through the voxels: gravity, jumping, sprinting, flying, stepping up,
swimming, collision.

The body is an axis-aligned box ``PLAYER_WIDTH`` × ``PLAYER_HEIGHT`` × ``PLAYER_WIDTH`` whose
position is the centre of its bottom face (the feet); the eye is ``EYE_HEIGHT`` above the feet.
What collides is each state's collision shape (``world.registry.collision_boxes[id]``, see
`world.physics.collision`): full cubes, slabs, stairs, fences 1.5 high; never torches, plants or
water. Pure: no engine, no clock.

Contract
--------
- `step` advances a `Body` by one tick of ``dt`` seconds and returns a new `Body`; `FixedStep`
  turns variable frame times into whole ticks of ``TICK`` seconds (the frame time is clamped to
  ``MAX_FRAME_DT`` first, so a stalled frame slows the game instead of launching the player), so
  the same inputs give the same motion at any frame rate.
- Movement is swept one axis at a time, y first, then x, then z (as Minecraft does): each sweep
  stops the box at the first collision face in its way, however long the move, so nothing
  tunnels through a wall at any speed or time step.
- Step-up (Minecraft's ``maxUpStep``, `world.physics.collision.move_stepping`): a horizontal move
  stopped while the body stands on something (or lands this tick) is tried again lifted by
  ``STEP_HEIGHT`` = 0.6 and lowered back; it is taken when it gets further across. So a slab or a
  stair is walked onto and a full block needs a jump; the lifted box must fit (a low ceiling
  prevents it); nothing steps in the air or in flight (as in Minecraft's creative flight). A
  fence's 1.5-high collision cannot be jumped (``JUMP_HEIGHT`` is 1.25).
- The box never overlaps a collision box by more than ``EPS`` after a step that began outside
  every collision box; touching a face is not overlapping. A box that starts inside one (a
  block placed into it by a mod, say) may move out of it but not deeper into another.
- A body falling onto a full cube stops with its feet exactly on its top face (an integer y),
  ``on_ground`` true and no vertical speed.
- The world's edge is a wall: a move never takes the box's min corner (a body's feet, nearly)
  beyond ``±WORLD_LIMIT`` on any axis; it stops there, blocked on that axis
  (`world.physics.collision`). A body placed (teleported) beyond the limit, or with a non-finite
  position or velocity, is refused (`ValueError` naming ``pos`` or ``vel``).

Water (`world.physics.swimming` has the figures and their Minecraft sources): in liquid the body
sinks at ``WATER_SINK_SPEED``, swims up at ``SWIM_UP_SPEED`` with jump held, dives at ``DIVE_SPEED``
with the sneak key held, moves at ``WATER_SPEED`` against ``WATER_DRAG``, and hops out
(``WATER_EXIT_SPEED``) against a wall at the surface with jump held. Flight ignores water; there
is no breath and no drowning.

Conventions
-----------
World axes are Minecraft's, a right-handed frame: x east, y up, z south. ``yaw`` in degrees is
Minecraft's: 0 faces south (+z), 90 west (-x), 180 north (-z), 270 east (+x), growing as the
player turns right; ``pitch`` in degrees is positive looking down (90 straight down). Facing
north, the player's right is east (+x), as in Minecraft.

Constants follow Minecraft Java Edition, converted from ticks (1/20 s) to seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from world.physics.body import EYE_HEIGHT, PLAYER_HEIGHT, PLAYER_WIDTH
from world.physics.collision import collision_region, move_stepping
from world.physics.swimming import (
    DIVE_SPEED,
    FLUID_JUMP_THRESHOLD,
    SWIM_UP_SPEED,
    WATER_DRAG,
    WATER_EXIT_ROOM,
    WATER_SINK_SPEED,
    WATER_SPEED,
    climbs_out,
    current,
    liquid_depth,
)
from world.validate import WORLD_LIMIT, vec3
from world.voxels.chunks import World

__all__ = [
    "AIR_ACCEL",
    "FLY_SPEED",
    "FLY_VERTICAL_SPEED",
    "GRAVITY",
    "GROUND_ACCEL",
    "JUMP_HEIGHT",
    "JUMP_SPEED",
    "MAX_FRAME_DT",
    "SPRINT_SPEED",
    "STEP_HEIGHT",
    "TERMINAL_SPEED",
    "TICK",
    "WALK_SPEED",
    "WATER_EXIT_SPEED",
    "Body",
    "Controls",
    "FixedStep",
    "Vec3",
    "look_direction",
    "step",
    "with_flying",
]

Vec3 = tuple[float, float, float]

GRAVITY = 32.0  # blocks/s²: Minecraft's 0.08 blocks/tick² at 20 ticks/s
TERMINAL_SPEED = 78.4  # blocks/s: where Minecraft's per-tick air drag balances gravity
JUMP_HEIGHT = 1.25  # clears one block with room to spare, as in Minecraft
JUMP_SPEED = math.sqrt(2.0 * GRAVITY * JUMP_HEIGHT)  # the take-off speed that reaches JUMP_HEIGHT
WALK_SPEED = 4.317  # blocks/s
SPRINT_SPEED = 5.612
FLY_SPEED = 10.92  # creative flight, horizontal; sprinting doubles it
FLY_VERTICAL_SPEED = 7.5
# Horizontal speed approaches the wanted speed exponentially at this rate (1/s): about 0.1 s to
# full speed on the ground, slower in the air so a jump keeps its momentum.
GROUND_ACCEL = 25.0
AIR_ACCEL = 5.0
STEP_HEIGHT = 0.6  # Minecraft's maxUpStep: a slab or a stair is walked onto, a block is not
WATER_EXIT_SPEED = (
    JUMP_SPEED  # the hop out of water against a wall: a jump (`world.physics.swimming`)
)
TICK = 1.0 / 60.0  # fixed physics step: smaller than the 1/20 s of Minecraft, for smooth motion
MAX_FRAME_DT = 0.25  # a longer frame (a stall, a breakpoint) is simulated as this long
_LIMIT = float(WORLD_LIMIT)
_SPARE = 0.25  # blocks around a tick's move read up front (and the step's or the hop's room)
_MAX_GROW = 8.0  # ... unless the move is longer: then each move reads only its own sweep


@dataclass(frozen=True)
class Controls:
    """What the player asks for during a tick (keyboard state and facing).

    Parameters
    ----------
    forward : float
        -1 (back) .. 1 (forward); values beyond are clamped.
    strafe : float
        -1 (left) .. 1 (right).
    yaw : float
        Facing in degrees (0 faces +z, 90 faces +x).
    jump : bool
        Jump when on the ground; rise when flying.
    descend : bool
        Sink when flying, dive in water (the sneak key).
    sprint : bool
        Run faster while moving forward (fly faster when flying).
    """

    forward: float = 0.0
    strafe: float = 0.0
    yaw: float = 0.0
    jump: bool = False
    descend: bool = False
    sprint: bool = False


@dataclass(frozen=True)
class Body:
    """The player's body: feet position, velocity and contact state.

    Parameters
    ----------
    pos : tuple of 3 float
        Centre of the box's bottom face, world coordinates.
    vel : tuple of 3 float
        Velocity in blocks per second.
    on_ground : bool
        The last tick's downward move was stopped by a collision box.
    flying : bool
        Creative flight: no gravity; landing ends it.
    """

    pos: Vec3
    vel: Vec3 = (0.0, 0.0, 0.0)
    on_ground: bool = False
    flying: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "pos", vec3(self.pos, "pos", limit=_LIMIT))
        object.__setattr__(self, "vel", vec3(self.vel, "vel"))

    @property
    def eye(self) -> Vec3:
        """The eye position, ``EYE_HEIGHT`` above the feet."""
        x, y, z = self.pos
        return (x, y + EYE_HEIGHT, z)

    @property
    def aabb(self) -> tuple[Vec3, Vec3]:
        """The body's box as (min corner, max corner)."""
        return _box(self.pos)


def _box(pos: Vec3) -> tuple[Vec3, Vec3]:
    x, y, z = pos
    half = PLAYER_WIDTH / 2.0
    return (x - half, y, z - half), (x + half, y + PLAYER_HEIGHT, z + half)


def look_direction(yaw: float, pitch: float) -> Vec3:
    """The unit view vector for a yaw and a pitch in degrees (pitch > 0 looks down).

    Parameters
    ----------
    yaw, pitch : float
        Degrees; see the module's conventions.

    Returns
    -------
    tuple of 3 float
    """
    if not (math.isfinite(yaw) and math.isfinite(pitch)):
        raise ValueError(f"yaw and pitch must be finite, got yaw={yaw!r} pitch={pitch!r}")
    yaw_r = math.radians(yaw)
    pitch_r = math.radians(pitch)
    cos_p = math.cos(pitch_r)
    return (-math.sin(yaw_r) * cos_p, -math.sin(pitch_r), math.cos(yaw_r) * cos_p)


def _approach(current: float, target: float, rate: float, dt: float) -> float:
    """Exponential approach of ``current`` to ``target``, independent of the tick length."""
    return target + (current - target) * math.exp(-rate * dt)


def step(world: World, body: Body, controls: Controls, dt: float = TICK) -> Body:
    """Advance the body by one tick.

    Parameters
    ----------
    world : World
        The voxels to collide with.
    body : Body
        The state before the tick.
    controls : Controls
        What the player asks for during the tick.
    dt : float
        Tick length in seconds, > 0 (``TICK`` under `FixedStep`).

    Returns
    -------
    Body
        The state after the tick.
    """
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"dt must be a positive finite number of seconds, got {dt!r}")
    if not all(math.isfinite(v) for v in (controls.forward, controls.strafe, controls.yaw)):
        raise ValueError(f"controls must hold finite numbers, got {controls!r}")
    forward = min(max(controls.forward, -1.0), 1.0)
    strafe = min(max(controls.strafe, -1.0), 1.0)
    yaw = math.radians(controls.yaw)
    sin_y, cos_y = math.sin(yaw), math.cos(yaw)
    # Forward is (-sin, cos) in xz and right is (-cos, -sin): facing north (yaw 180), right is +x.
    wish_x = -forward * sin_y - strafe * cos_y
    wish_z = forward * cos_y - strafe * sin_y
    length = math.hypot(wish_x, wish_z)
    if length > 1.0:  # diagonal keys are not faster than straight ones
        wish_x, wish_z = wish_x / length, wish_z / length

    lo, hi = body.aabb
    # Everything this tick's moves and water tests read, at once: the box grown by the move at
    # the current speed, the step-up and the hop's room, and some spare for a change of speed
    # (a move leaving this stretch reads the world itself: never wrong, only slower).
    grow = max(abs(v) for v in body.vel) * dt + _SPARE
    region = None
    if grow <= _MAX_GROW:  # a fall at terminal speed or a kick: each move reads its own
        up = grow + max(STEP_HEIGHT, WATER_EXIT_ROOM)
        region = collision_region(
            world,
            (lo[0] - grow, lo[1] - grow, lo[2] - grow),
            (hi[0] + grow, hi[1] + up, hi[2] + grow),
        )
    depth = 0.0 if body.flying else liquid_depth(world, lo, hi, region)  # flight ignores water
    vx, vy, vz = body.vel
    if body.flying:
        speed = FLY_SPEED * (2.0 if controls.sprint else 1.0)
        rate = GROUND_ACCEL
        rise = float(controls.jump) - float(controls.descend)
        vy = _approach(vy, rise * FLY_VERTICAL_SPEED, GROUND_ACCEL, dt)
    elif depth > 0.0:
        speed, rate = WATER_SPEED, WATER_DRAG
        if controls.jump and body.on_ground and depth <= FLUID_JUMP_THRESHOLD:
            vy = JUMP_SPEED  # wading: the water is too shallow to swim in, so jump
        else:
            # Space swims up, the sneak key dives; both at once cancel (Minecraft adds +0.04
            # and -0.04 blocks/tick).
            target = -WATER_SINK_SPEED
            if controls.jump:
                target += SWIM_UP_SPEED + WATER_SINK_SPEED
            if controls.descend:
                target -= DIVE_SPEED - WATER_SINK_SPEED
            vy = _approach(vy, target, WATER_DRAG, dt)
    else:
        speed = SPRINT_SPEED if controls.sprint and forward > 0.0 else WALK_SPEED
        rate = GROUND_ACCEL if body.on_ground else AIR_ACCEL
        if controls.jump and body.on_ground:
            vy = JUMP_SPEED
        vy = max(vy - GRAVITY * dt, -TERMINAL_SPEED)
    vx = _approach(vx, wish_x * speed, rate, dt)
    vz = _approach(vz, wish_z * speed, rate, dt)
    if depth > 0.0:  # the current carries a swimmer along the flow
        push_x, push_z = current(world, lo, hi).push
        vx += push_x * dt
        vz += push_z * dt

    new_lo, blocked, on_ground = move_stepping(
        world,
        lo,
        hi,
        (vx * dt, vy * dt, vz * dt),
        step_height=0.0 if body.flying else STEP_HEIGHT,  # creative flight never steps
        standing=body.on_ground,
        region=region,
    )
    if blocked[0]:
        vx = 0.0
    if blocked[1]:
        vy = 0.0
    if blocked[2]:
        vz = 0.0
    if (
        depth > 0.0
        and controls.jump
        and (blocked[0] or blocked[2])
        and climbs_out(world, new_lo, (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), region)
    ):
        vy = max(vy, WATER_EXIT_SPEED)
    half = PLAYER_WIDTH / 2.0
    return Body(
        pos=(new_lo[0] + half, new_lo[1], new_lo[2] + half),
        vel=(vx, vy, vz),
        on_ground=on_ground,
        flying=body.flying and not on_ground,  # touching down ends flight, as in Minecraft
    )


class FixedStep:
    """Turns frame times into whole physics ticks (accumulator with a clamped frame time).

    Parameters
    ----------
    tick : float
        Seconds per tick.
    max_frame_dt : float
        A longer frame counts as this long.

    Attributes
    ----------
    previous : Body or None
        The body before the last tick of the last `advance`, for drawing in between.
    alpha : float
        How far (0..1) the real time has got from ``previous`` toward the current body.
    """

    def __init__(self, tick: float = TICK, max_frame_dt: float = MAX_FRAME_DT) -> None:
        if not (math.isfinite(tick) and tick > 0.0):
            raise ValueError(f"tick must be a positive number of seconds, got {tick!r}")
        if not (math.isfinite(max_frame_dt) and max_frame_dt >= tick):
            raise ValueError(f"max_frame_dt must be >= tick, got {max_frame_dt!r}")
        self.tick = tick
        self.max_frame_dt = max_frame_dt
        self._carry = 0.0
        self.previous: Body | None = None
        self.alpha = 0.0

    def advance(self, world: World, body: Body, controls: Controls, frame_dt: float) -> Body:
        """Run as many whole ticks as the (clamped) frame time and the carried remainder allow.

        Parameters
        ----------
        world : World
            The voxels to collide with.
        body : Body
            The state at the start of the frame.
        controls : Controls
            Held for every tick of the frame.
        frame_dt : float
            Seconds since the last frame, >= 0; clamped to ``max_frame_dt``.

        Returns
        -------
        Body
            The state after the last whole tick (unchanged when no tick fitted).
        """
        if math.isnan(frame_dt) or frame_dt < 0.0:
            raise ValueError(f"frame_dt must be >= 0 seconds, got {frame_dt!r}")
        self._carry += min(frame_dt, self.max_frame_dt)
        # The small tolerance keeps frames that are exact multiples of the tick from losing a
        # tick to rounding (60 frames of 1/60 s are 60 ticks, not 59).
        ticks = math.floor(self._carry / self.tick + 1e-9)
        self._carry = max(self._carry - ticks * self.tick, 0.0)
        for _ in range(ticks):
            self.previous = body
            body = step(world, body, controls, self.tick)
        self.alpha = min(self._carry / self.tick, 1.0)
        return body

    def render_pos(self, body: Body) -> Vec3:
        """The feet position to draw: between the previous and the current tick, by ``alpha``.

        Parameters
        ----------
        body : Body
            The body `advance` returned last.

        Returns
        -------
        tuple of 3 float
        """
        if self.previous is None:
            return body.pos
        a = self.alpha
        p0, p1 = self.previous.pos, body.pos
        return (
            p0[0] + (p1[0] - p0[0]) * a,
            p0[1] + (p1[1] - p0[1]) * a,
            p0[2] + (p1[2] - p0[2]) * a,
        )


def with_flying(body: Body, flying: bool) -> Body:
    """The same body with flight switched on or off.

    Parameters
    ----------
    body : Body
    flying : bool
        Switching flight on also stops vertical motion (the player hovers where they are).

    Returns
    -------
    Body
    """
    if flying == body.flying:
        return body
    vel = (body.vel[0], 0.0, body.vel[2]) if flying else body.vel
    return replace(body, flying=flying, vel=vel, on_ground=False if flying else body.on_ground)
