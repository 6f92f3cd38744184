"""An entity's body: gravity, drag and collision for one step (Minecraft's ``Entity.move``).

`step_motion` moves an entity's box by its velocity for one step of ``dt`` seconds through the
blocks' collision shapes with the player's swept-box code (`world.physics.collision.move_aabb`):
it never ends inside a block nor passes through one, at any speed. A physical entity falls at
its kind's ``gravity`` (blocks/s²), capped at `TERMINAL_SPEED`; air drag takes 2 % of its
velocity a Minecraft tick (0.98 per 1/20 s), the ground's friction 40 % more of its horizontal
velocity (Minecraft's 0.6 slipperiness), unless the kind has no ``drag`` (it keeps its
velocity). A stop on an axis zeroes the velocity on that axis.

A step is short (at most `SHORT` blocks on every axis: 20 steps a second at up to 20 blocks/s):
it is swept against the collision boxes of the few voxels around the box (`move_short`, the same
rule as `move_aabb`, which a longer one takes): only the voxels whose boxes may meet the swept
region (the registry's ``collision_reach``), read one by one; a sheep's step on flat ground costs
about 8 µs (a stack's less), against 30 µs reading the 4³ voxels round it with numpy.

An entity at rest (on the ground, slower than `REST_SPEED`) is *resting*: the ticking skips its
physics until something wakes it (a block changing near it, a mod moving it, its
once-a-second check that it still stands on something). Pure: no clock, no engine.
"""

from __future__ import annotations

import math

from world.blocks.entity_type import EntityType
from world.geometry import Vec3
from world.physics.collision import Boxes, move_aabb, sweep_boxes
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_MASK, CHUNK_SHIFT, STRIDE_X, STRIDE_Y

__all__ = [
    "AIR_DRAG",
    "GROUND_FRICTION",
    "REST_SPEED",
    "SHORT",
    "TERMINAL_SPEED",
    "box_of",
    "boxes_near",
    "move_short",
    "step_motion",
]

AIR_DRAG = 0.98  # velocity kept per 1/20 s in the air (Minecraft)
GROUND_FRICTION = 0.6  # horizontal velocity kept per 1/20 s on the ground, besides the drag
TERMINAL_SPEED = 78.4  # blocks/s, as the player's
REST_SPEED = 0.05  # blocks/s: slower than this on the ground, an entity rests
_TICK = 0.05
SHORT = 1.0  # blocks per axis: a step this short is swept against the boxes near it
_MARGIN = 1e-3  # blocks round a swept region whose voxels' boxes are looked at (> collision.EPS)


def box_of(pos: Vec3, kind: EntityType) -> tuple[Vec3, Vec3]:
    """The entity's box at ``pos`` (the bottom centre): its min and max corners."""
    half = kind.size[0] / 2
    x, y, z = pos
    return (x - half, y, z - half), (x + half, y + kind.size[1], z + half)


def step_motion(
    world: World, pos: Vec3, velocity: Vec3, kind: EntityType, dt: float
) -> tuple[Vec3, Vec3, bool]:
    """One step of a physical entity: its new position, velocity, and whether it stands on
    something (module notes)."""
    vx, vy, vz = velocity
    vy = max(vy - kind.gravity * dt, -TERMINAL_SPEED)
    lo, hi = box_of(pos, kind)
    delta = (vx * dt, vy * dt, vz * dt)
    if max(abs(d) for d in delta) <= SHORT:
        new_lo, blocked = move_short(world, lo, hi, delta)
    else:
        new_lo, blocked = move_aabb(world, lo, hi, delta)
    on_ground = blocked[1] and vy < 0.0
    if blocked[0]:
        vx = 0.0
    if blocked[1]:
        vy = 0.0
    if blocked[2]:
        vz = 0.0
    if kind.drag:
        keep = AIR_DRAG ** (dt / _TICK)
        ground = GROUND_FRICTION ** (dt / _TICK) if on_ground else 1.0
        vx, vy, vz = vx * keep * ground, vy * keep, vz * keep * ground
    half = kind.size[0] / 2
    new_pos = (new_lo[0] + half, new_lo[1], new_lo[2] + half)
    return new_pos, (vx, vy, vz), on_ground


def speed(velocity: Vec3) -> float:
    """The length of a velocity."""
    return math.sqrt(velocity[0] ** 2 + velocity[1] ** 2 + velocity[2] ** 2)


def boxes_near(world: World, lo: Vec3, hi: Vec3) -> Boxes:
    """The collision boxes, in world coordinates, of every voxel whose boxes may meet the region
    from ``lo`` to ``hi`` (closed, and `_MARGIN` wider than the sweep's tolerance): those within
    the registry's ``collision_reach`` of it (a fence below may reach up to y + 1.5), read a
    voxel at a time (the few round an entity: cheaper than numpy's calls)."""
    registry = world.registry
    shapes = registry.collision_boxes
    r = registry.collision_reach
    # Voxel v's boxes lie within [v + r0, v + r1]: they may meet [lo, hi] when v + r0 <= hi and
    # v + r1 >= lo.
    x0, x1 = math.ceil(lo[0] - _MARGIN - r[3]), math.floor(hi[0] + _MARGIN - r[0])
    y0, y1 = math.ceil(lo[1] - _MARGIN - r[4]), math.floor(hi[1] + _MARGIN - r[1])
    z0, z1 = math.ceil(lo[2] - _MARGIN - r[5]), math.floor(hi[2] + _MARGIN - r[2])
    chunks = world.chunks
    found: Boxes = []
    for cx in range(x0 >> CHUNK_SHIFT, (x1 >> CHUNK_SHIFT) + 1):
        ox = cx << CHUNK_SHIFT
        xs = range(max(x0, ox), min(x1, ox + CHUNK_MASK) + 1)
        for cy in range(y0 >> CHUNK_SHIFT, (y1 >> CHUNK_SHIFT) + 1):
            oy = cy << CHUNK_SHIFT
            ys = range(max(y0, oy), min(y1, oy + CHUNK_MASK) + 1)
            for cz in range(z0 >> CHUNK_SHIFT, (z1 >> CHUNK_SHIFT) + 1):
                chunk = chunks.get((cx, cy, cz))
                if chunk is None:
                    continue  # air, or not loaded (the caller waits for those)
                oz = cz << CHUNK_SHIFT
                zs = range(max(z0, oz), min(z1, oz + CHUNK_MASK) + 1)
                ids = chunk.blocks.data  # local (x, y, z) at x*256 + y*16 + z
                for wx in xs:
                    row = (wx - ox) * STRIDE_X
                    for wy in ys:
                        column = row + (wy - oy) * STRIDE_Y - oz
                        for wz in zs:
                            for bx0, by0, bz0, bx1, by1, bz1 in shapes[ids[column + wz]]:
                                found.append(
                                    (wx + bx0, wy + by0, wz + bz0, wx + bx1, wy + by1, wz + bz1)
                                )
    return found


def move_short(
    world: World, lo: Vec3, hi: Vec3, delta: Vec3
) -> tuple[Vec3, tuple[bool, bool, bool]]:
    """`world.physics.collision.move_aabb` for a move of at most `SHORT` on every axis: one axis
    at a time (y, x, z), each stopped at the first collision face in its way; a box the moving
    box already overlaps on all three axes is ignored."""
    boxes = boxes_near(
        world,
        (min(lo[0], lo[0] + delta[0]), min(lo[1], lo[1] + delta[1]), min(lo[2], lo[2] + delta[2])),
        (max(hi[0], hi[0] + delta[0]), max(hi[1], hi[1] + delta[1]), max(hi[2], hi[2] + delta[2])),
    )
    low, high = list(lo), list(hi)
    blocked = [False, False, False]
    for axis in (1, 0, 2):
        d = delta[axis]
        if d == 0.0:
            continue
        size = high[axis] - low[axis]
        stop = sweep_boxes(boxes, low, high, axis, d)
        if stop is None:
            low[axis] += d
        else:
            low[axis] = stop
            blocked[axis] = True
        high[axis] = low[axis] + size
    return (low[0], low[1], low[2]), (blocked[0], blocked[1], blocked[2])
