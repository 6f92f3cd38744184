"""Falling blocks: sand and gravel drop when the block under them goes.

A block whose type has the group ``"falling"`` (``base:sand``, ``base:gravel``) falls straight
down through replaceable blocks (air, water, tall grass, which it overwrites) to rest on the first
block that is not replaceable, or at the bottom of the build height. The fall is instant: the
block is removed from its voxel and set where it lands, both through ``world.set_block``.

It falls when the voxel under it changes (``on_neighbor_changed``) and when it is placed in the
air (``on_place``). A column falls block by block: each move is itself a change whose neighbours
are notified, so the block above follows; the pipeline queues these notifications, so a tall
column costs no recursion (see ``world.rules.NEIGHBOR_BUDGET``).
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
DOWN = (0, -1, 0)


def fall(world: ModWorld, pos: Int3, block: BlockType) -> None:
    """Move ``block`` at ``pos`` down to where it comes to rest (nothing when supported)."""
    replaceable = world.registry.replaceable
    low = world.build_height[0]
    wx, wy, wz = pos
    y = wy
    while y - 1 >= low and replaceable[world.get_block(wx, y - 1, wz)]:
        y -= 1
    if y != wy:
        world.set_block(wx, wy, wz, "air")
        world.set_block(wx, y, wz, block.name)


@hookimpl
def on_neighbor_changed(world: ModWorld, pos: Int3, block: BlockType, neighbor: Int3) -> None:
    if GROUP in block.groups and neighbor == pos + DOWN:
        fall(world, pos, block)


@hookimpl
def on_place(world: ModWorld, pos: Int3, block: BlockType) -> None:
    if GROUP in block.groups:
        fall(world, pos, block)
