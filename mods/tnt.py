"""TNT: a block that explodes when it is used (right click) or broken.

The explosion removes every breakable block whose centre lies within ``RADIUS`` of the TNT's
centre, if the blast reaches it: the straight line between the two centres must not pass through
an unbreakable block (bedrock; water too, so TNT under water leaves the ground whole). One ray per
voxel of the sphere, cast together with ``world.raycast_many`` (``world.ray.raycast_many``)
stopping only at unbreakable blocks, decides this. Blocks the actor may not break
(``world.may_break``: a protected area) survive. TNT caught in the blast explodes in turn, up to
``MAX_CHAIN`` explosions per action. The blocks removed notify their neighbours, so sand above a
crater falls in when the `falling` mod is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from world.blocks import BlockType
from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "TNT explodes when used or broken"

TNT = "tnt:tnt"
RADIUS = 3.0
MAX_CHAIN = 16

_span = np.arange(-int(RADIUS), int(RADIUS) + 1)
_grid = np.stack(np.meshgrid(_span, _span, _span, indexing="ij"), axis=-1).reshape(-1, 3)
_length = np.sqrt((_grid**2).sum(axis=1))
# Offsets of the voxels of the sphere (centre excluded) and the distance to their centres.
OFFSETS = _grid[(_length > 0) & (_length <= RADIUS)]
DISTANCES = np.sqrt((OFFSETS**2).sum(axis=1))


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    registry.register(
        BlockType(
            TNT,
            description="TNT",
            hardness=0.0,
            tiles=("tnt_tnt_top.png", "tnt_tnt_bottom.png", "tnt_tnt_side.png"),  # mods/textures/
            groups=("explosive",),
        )
    )


@hookimpl
def on_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | None:
    if block.name != TNT:
        return None
    if not world.may_break(pos, actor):  # lighting it takes the block: protection applies
        return True
    world.set_block(*pos, "air")
    explode(world, pos, actor)
    return True


@hookimpl
def on_break(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> None:
    if block.name == TNT:
        explode(world, pos, actor)


def explode(world: ModWorld, pos: Int3, actor: Actor) -> list[tuple[int, int, int]]:
    """Blow up the blocks around ``pos`` (a voxel, already emptied); returns those removed."""
    registry = world.registry
    breakable = np.isfinite(registry.hardness)
    tnt_id = registry.id(TNT)
    removed: list[tuple[int, int, int]] = []
    centres = [tuple(pos)]
    for centre in centres:
        targets = np.asarray(centre) + OFFSETS
        origins = np.broadcast_to(np.asarray(centre, dtype=float) + 0.5, targets.shape)
        blocked = world.raycast_many(origins, OFFSETS, DISTANCES, hits=~breakable).hit
        ids = world.get_blocks(targets)
        reached = ~blocked & (ids != 0) & breakable[ids]
        gone = []
        for target, block_id in zip(targets[reached].tolist(), ids[reached].tolist(), strict=True):
            if world.may_break(target, actor):
                gone.append(tuple(target))
                if block_id == tnt_id and len(centres) < MAX_CHAIN:
                    centres.append(tuple(target))
        if gone:
            world.set_blocks(gone, "air")
        removed.extend(gone)
    return removed
