"""Falling blocks: sand and gravel fall when the block under them goes, as objects you can watch.

A block whose type has the group ``"falling"`` (``base:sand``, ``base:gravel``) with a
replaceable block under it (air, water, tall grass) leaves its voxel and becomes a
``builtin:falling_block`` entity (`world.blocks.entity_type.FALLING_BLOCK`, Minecraft's
``FallingBlockEntity``): it falls under gravity through everything without a collision box and,
where it comes to rest, becomes its block again in the voxel it stands in (overwriting a
replaceable block there), or drops as its item where that voxel is not replaceable (a torch).
Below the build height it drops as its item too. The engine does the falling and the landing
(`world.ticks.entity_ticks`); this mod only decides what starts to fall.

It starts when the voxel under it changes (``on_neighbor_changed``) and when it is placed over
nothing (``on_place``). A column falls block by block: the voxel a block left is itself a change
whose neighbours are notified, so the block above follows at once, and the pipeline queues these
notifications, so a tall column costs no recursion (see ``world.rules.NEIGHBOR_BUDGET``). The
falling blocks land one on top of the other, a column again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.geometry import Int3
    from world.mods.view import ModWorld

description = "sand and gravel fall when the block under them is removed"

GROUP = "falling"
FALLING_BLOCK = "builtin:falling_block"
DOWN = (0, -1, 0)


def fall(world: ModWorld, pos: Int3) -> None:
    """Make the block at ``pos`` a falling block when nothing holds it up (nothing otherwise)."""
    wx, wy, wz = pos
    below = wy - 1
    if below < world.build_height[0]:
        return
    if not world.registry.replaceable[world.get_block(wx, below, wz)]:
        return
    state = world.get_block(wx, wy, wz)
    world.set_block(wx, wy, wz, "air")
    world.add_entity(
        (wx + 0.5, wy, wz + 0.5), FALLING_BLOCK, data={"block": world.registry.state_key(state)}
    )


@hookimpl
def on_neighbor_changed(world: ModWorld, pos: Int3, block: BlockType, neighbor: Int3) -> None:
    if GROUP in block.groups and neighbor == pos + DOWN:
        fall(world, pos)


@hookimpl
def on_place(world: ModWorld, pos: Int3, block: BlockType) -> None:
    if GROUP in block.groups:
        fall(world, pos)
