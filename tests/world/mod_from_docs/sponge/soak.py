"""The sponge's hooks."""

from dataclasses import replace

from world.blocks.block_type import BlockType
from world.mods.hooks import hookimpl

DRY = "sponge:sponge"
WET = "sponge:wet_sponge"
REACH = 2  # water within this many voxels on every axis is soaked up
DRY_SECONDS = 20.0

# Wet sponges drying in the sun: position -> seconds left.
drying = {}


@hookimpl
def register_blocks(registry):
    dry = BlockType(DRY, hardness=0.6, tiles=("sponge:sponge",))
    registry.register(dry)
    registry.register(replace(dry, name=WET, description="wet sponge", tiles=("sponge:wet",)))


def _around(pos):
    x, y, z = pos
    span = range(-REACH, REACH + 1)
    return [(x + dx, y + dy, z + dz) for dx in span for dy in span for dz in span]


@hookimpl
def on_place(world, pos, block):
    if block.name != DRY:
        return
    voxels = _around(pos)
    water = world.registry.id("base:water")
    wet = [voxel for voxel, i in zip(voxels, world.get_blocks(voxels), strict=True) if i == water]
    if wet:
        world.set_blocks(wet, "air")
        world.set_block(*pos, WET)
        drying[pos] = DRY_SECONDS


@hookimpl
def on_use(world, pos, block):
    if block.name != WET:
        return None
    world.set_block(*pos, DRY)
    drying.pop(pos, None)
    return True


@hookimpl
def can_break(block, actor):
    if block.name == WET and not actor.creative:
        return "wring the sponge out first (right click)"
    return None


@hookimpl
def on_tick(world, dt):
    for pos, left in list(drying.items()):
        if left > dt:
            drying[pos] = left - dt
            continue
        del drying[pos]
        if world.registry.name(world.get_block(*pos)) == WET:
            world.set_block(*pos, DRY)
