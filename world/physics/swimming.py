"""Bodies in liquid: how deep they are, the figures of swimming, and the hop out of water.

The body is in liquid when its box (less a 0.001 skin) touches a voxel with
``registry.liquid``; `liquid_depth` is how far the highest such voxel's top is above the feet
(Minecraft's fluid height). Flight ignores water; there is no breath and no drowning. In liquid,
Minecraft Java (``LivingEntity.travel``, 1.12's ``EntityLivingBase.travel``) per tick of 1/20 s
multiplies the velocity by 0.8 and subtracts 0.02 blocks/tick of gravity (instead of 0.98 drag
and 0.08 in air); moving pushes 0.02 blocks/tick; holding jump adds 0.04 blocks/tick
(``jumpInLiquid``). Our ticks are 1/60 s and continuous, so the body approaches each terminal
speed of Minecraft's discrete ticks exponentially at Minecraft's drag rate:

- ``WATER_DRAG`` = 20 ln(1/0.8) ≈ 4.46 /s: velocity × 0.8 per 1/20 s, on every axis;
- ``WATER_SINK_SPEED`` = 2.0 blocks/s: Minecraft's 0.02/(1 − 0.8) = 0.1 blocks/tick (the pull
  is WATER_DRAG × 2.0 ≈ 8.9 blocks/s², against Minecraft's 0.02 blocks/tick² = 8 blocks/s²);
- ``SWIM_UP_SPEED`` = 1.2 blocks/s with jump held: (0.8 × 0.04 − 0.02)/(1 − 0.8) = 0.06
  blocks/tick;
- ``DIVE_SPEED`` = 5.2 blocks/s with the sneak key held: Minecraft's ``goDownInWater`` adds
  −0.04 blocks/tick: (−0.8 × 0.04 − 0.02)/(1 − 0.8) = −0.26 blocks/tick;
- ``WATER_SPEED`` = 2.0 blocks/s horizontally: 0.02 × 0.8/(1 − 0.8) + 0.02 = 0.1 blocks/tick
  (Minecraft's wiki gives 1.97 m/s walking in water); sprint does not change it;
- ``FLUID_JUMP_THRESHOLD`` = 0.4: standing in liquid shallower than this jumps instead of swimming
  (Minecraft's ``getFluidJumpThreshold``);
- climbing out: pushing against a wall in liquid with jump held, when the box raised by
  ``WATER_EXIT_ROOM`` = 0.6 is free of collision and of liquid, the body hops up at
  ``world.physics.movement.WATER_EXIT_SPEED``. Minecraft sets 0.3 blocks/tick there (``travel``'s
  ``isFree(..., y + 0.6 ...)``) from a water surface at 8/9 of the block; our water fills its
  voxel, so the hop is a full jump (``JUMP_SPEED``): it lifts the body onto a ledge one block
  above the water's surface.

The current (`current`): a body or a stack in flowing liquid is pushed along the flow, each
liquid voxel it touches giving Minecraft's flow direction (``FlowingFluid.getFlow``: the drop of
the surface toward each side, a side of air counting only where the same liquid lies below it, a
fall), their sum made a unit and scaled by the liquid's `world.blocks.liquid.Liquid.push` (water
5.6 blocks/s²: Minecraft's 0.014 blocks/tick²; against the water's drag it drifts a body at
about 1.3 blocks/s). A still lake has no current. The fall's own downward pull is not modelled.

Pure: no engine, no clock; `world.physics.movement` applies these in its step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from world.blocks.liquid import SOURCE, LiquidTables
from world.geometry import Vec3
from world.physics.collision import Region, block_ids, move_aabb
from world.voxels.chunks import World

__all__ = [
    "DIVE_SPEED",
    "FLUID_JUMP_THRESHOLD",
    "SWIM_UP_SPEED",
    "WATER_DRAG",
    "WATER_EXIT_ROOM",
    "WATER_SINK_SPEED",
    "WATER_SPEED",
    "Current",
    "climbs_out",
    "current",
    "liquid_depth",
]

WATER_DRAG = 20.0 * math.log(1.0 / 0.8)  # 1/s: velocity *= 0.8 per 1/20 s tick
WATER_SINK_SPEED = 2.0  # blocks/s: 0.02 blocks/tick² of gravity against that drag
SWIM_UP_SPEED = 1.2  # blocks/s: +0.04 blocks/tick while jump is held, against gravity and drag
DIVE_SPEED = 5.2  # blocks/s: -0.04 blocks/tick while sneak is held, with gravity, against drag
WATER_SPEED = 2.0  # blocks/s: 0.02 blocks/tick of push per tick against the drag
FLUID_JUMP_THRESHOLD = 0.4  # liquid shallower than this over the feet: jump, do not swim
WATER_EXIT_ROOM = 0.6  # the hop needs the box this much higher to be out of liquid and free
_SKIN = 0.001  # a box touches a liquid voxel only when it goes this far in (Minecraft's deflate)


def liquid_depth(world: World, lo: Vec3, hi: Vec3, region: Region | None = None) -> float:
    """How deep a box's feet are in liquid: the highest liquid voxel top it touches minus
    ``lo[1]`` (0 when it touches none), as Minecraft's fluid height.

    Parameters
    ----------
    world : World
    lo, hi : tuple of 3 float
        The box's min and max corners.
    region : Region or None
        Block ids read before for this tick (`world.physics.collision.collision_region`), if any.

    Returns
    -------
    float
        0 out of liquid, else > 0 (in a deep pool: the top of the highest liquid voxel the box
        touches, at most one block above its head).
    """
    inner_lo = (lo[0] + _SKIN, lo[1] + _SKIN, lo[2] + _SKIN)
    inner_hi = (hi[0] - _SKIN, hi[1] - _SKIN, hi[2] - _SKIN)
    ids, origin = block_ids(world, inner_lo, inner_hi, region)
    wet = world.registry.liquid[ids]
    if not wet.any():
        return 0.0
    layers = np.flatnonzero(wet.any(axis=(0, 2)))
    return float(origin[1] + int(layers[-1]) + 1) - lo[1]


def climbs_out(world: World, new_lo: Vec3, size: Vec3, region: Region | None = None) -> bool:
    """Whether a box pushing against a wall in liquid may hop out (Minecraft's ``isFree`` test).

    Parameters
    ----------
    world : World
    new_lo : tuple of 3 float
        The box's min corner after this tick's move.
    size : tuple of 3 float
        The box's size.
    region : Region or None
        What collides around the box, read before for this tick, if any.

    Returns
    -------
    bool
        The box raised by ``WATER_EXIT_ROOM`` is free of collision boxes and of liquid.
    """
    top_hi = (new_lo[0] + size[0], new_lo[1] + size[1], new_lo[2] + size[2])
    raised_lo, blocked = move_aabb(world, new_lo, top_hi, (0.0, WATER_EXIT_ROOM, 0.0), region)
    if blocked[1]:
        return False
    raised_hi = (raised_lo[0] + size[0], raised_lo[1] + size[1], raised_lo[2] + size[2])
    return liquid_depth(world, raised_lo, raised_hi, region) == 0.0


_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
_FULL = SOURCE / 9.0  # a source's surface (Minecraft's 8/9 of the block)


@dataclass(frozen=True)
class Current:
    """What the liquids a box touches do to it: ``push``, the current along the flow (blocks/s²
    on x and z), and ``burns``: one of them burns what falls in (a liquid that washes blocks
    away to nothing, `world.blocks.liquid.Liquid.washes` ``"destroy"``: lava)."""

    push: tuple[float, float] = (0.0, 0.0)
    burns: bool = False
    wet: bool = False


def current(world: World, lo: Vec3, hi: Vec3) -> Current:
    """The current on a box (its corners ``lo`` and ``hi``; module notes)."""
    tables = world.registry.liquids
    kinds = tables.kind
    total_x = total_z = strength = 0.0
    burns = wet = False
    for x in range(math.floor(lo[0] + _SKIN), math.floor(hi[0] - _SKIN) + 1):
        for y in range(math.floor(lo[1] + _SKIN), math.floor(hi[1] - _SKIN) + 1):
            for z in range(math.floor(lo[2] + _SKIN), math.floor(hi[2] - _SKIN) + 1):
                state = world.get_block(x, y, z)
                kind = int(kinds[state])
                if kind < 0:
                    continue
                wet = True
                liquid = tables.kinds[kind].liquid
                burns |= liquid.washes == "destroy"
                fx, fz = _flow(world, x, y, z, state)
                length = math.hypot(fx, fz)
                if length:
                    total_x += fx / length
                    total_z += fz / length
                    strength = max(strength, liquid.push)
    length = math.hypot(total_x, total_z)
    if not length:
        return Current(burns=burns, wet=wet)
    return Current((total_x / length * strength, total_z / length * strength), burns, wet)


def _flow(world: World, x: int, y: int, z: int, state: int) -> tuple[float, float]:
    """Minecraft's flow of one liquid voxel, horizontal: toward where its surface drops."""
    tables = world.registry.liquids
    kind = tables.kind[state]
    height = _surface(tables, state)
    fx = fz = 0.0
    for dx, dz in _SIDES:
        beside = world.get_block(x + dx, y, z + dz)
        if tables.kind[beside] == kind:
            drop = height - _surface(tables, beside)
        elif tables.kind[beside] < 0 and not world.registry.solid[beside]:
            under = world.get_block(x + dx, y - 1, z + dz)
            if tables.kind[under] != kind:
                continue  # air with no fall beside: no pull that way (Minecraft's)
            drop = height - (_surface(tables, under) - _FULL)
        else:
            continue
        fx += dx * drop
        fz += dz * drop
    return fx, fz


def _surface(tables: LiquidTables, state: int) -> float:
    """A liquid state's own surface height (Minecraft's ``getOwnHeight``: level / 9)."""
    return (SOURCE if tables.falling[state] else int(tables.level[state])) / 9.0
