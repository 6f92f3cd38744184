"""The base game's blocks: `BASE_BLOCKS`, registered by the base game's plugin
(`world.base.BaseGame`) through the same registrar as any mod's, stone first (``base:stone`` is
id 1).

Besides the plain cubes: logs with an ``axis``; stone and planks slabs (``half``: bottom, top,
double) and stairs (``facing``, ``half``); a fence whose arms (``north`` .. ``west``) follow its
neighbours; a torch (``facing``: ``up`` on the floor, or away from its wall; light 14, no
collision; in the group ``"attached"``: it drops when its support goes); and a door, two blocks
tall (``half``: lower, upper), facing the player who placed it, opened and closed by a right
click on either half, its collision following the panel. Their placement rules are in
`world.base.placement`, the door's callbacks here (`door_use`, `door_can_break`, `door_construct`,
`door_destruct`): they show every per-block callback at work.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from world.base.placement import (
    axis_state,
    door_state,
    fence_state,
    slab_state,
    stairs_state,
    torch_state,
)
from world.base.sounds import (
    CLOTH_SOUNDS,
    GLASS_SOUNDS,
    GRASS_SOUNDS,
    GRAVEL_SOUNDS,
    SAND_SOUNDS,
    SNOW_SOUNDS,
    STONE_SOUNDS,
    WATER_SOUNDS,
    WOOD_SOUNDS,
)
from world.blocks import shapes
from world.blocks.block_type import BlockType, PropValue
from world.blocks.liquid import Liquid, Meeting
from world.blocks.shapes import Box
from world.items.inventory import Drop
from world.mods.context import UP

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.view import ModWorld

__all__ = [
    "BASE_BLOCKS",
    "door_can_break",
    "door_construct",
    "door_destruct",
    "door_use",
]


_LOG_TILES = {
    "y": ("base:log_top", "base:log_top", "base:log_side"),
    # Per face, +x, -x, +y, -y, +z, -z: the rings face along the axis.
    "x": ("base:log_top", "base:log_top", *("base:log_side",) * 4),
    "z": (*("base:log_side",) * 4, "base:log_top", "base:log_top"),
}
# Slabs and stairs: the material, its hardness, what digs it faster (`world.items.item.Item.digs`)
# and whether it gives anything without such a tool (stone does not: Minecraft).
_MATERIALS = (("stone", 1.5, "cracky", True), ("planks", 2.0, "choppy", False))
_MATERIAL_SOUNDS = {"stone": STONE_SOUNDS, "planks": WOOD_SOUNDS}


def _slab(material: str, hardness: float, dug_by: str, needs_tool: bool) -> BlockType:
    return BlockType(
        f"base:{material}_slab",
        description=f"{material} slab",
        hardness=hardness,
        needs_tool=needs_tool,
        properties={"half": ("bottom", "top", "double")},
        selection=lambda p: shapes.slab(str(p["half"])),
        tiles=(f"base:{material}",),
        groups=("merges", dug_by),
        sounds=_MATERIAL_SOUNDS[material],
        placement_state=slab_state,
    )


def _stairs(material: str, hardness: float, dug_by: str, needs_tool: bool) -> BlockType:
    return BlockType(
        f"base:{material}_stairs",
        description=f"{material} stairs",
        hardness=hardness,
        needs_tool=needs_tool,
        properties={"facing": shapes.FACINGS, "half": ("bottom", "top")},
        selection=lambda p: shapes.stairs(str(p["facing"]), str(p["half"])),
        tiles=(f"base:{material}",),
        groups=(dug_by,),
        sounds=_MATERIAL_SOUNDS[material],
        placement_state=stairs_state,
    )


# -- the door's callbacks -------------------------------------------------------------------------


def _other_half(world: ModWorld, pos: Int3, state: int) -> Int3 | None:
    """Where the door's other half is, if it is still there (same door, same facing)."""
    props = world.registry.props(state)
    other = pos + UP if props["half"] == "lower" else pos - UP
    found = world.get_block(*other)
    if world.registry.block_of(found) is not world.registry.block_of(state):
        return None
    found_props = world.registry.props(found)
    if found_props["half"] == props["half"] or found_props["facing"] != props["facing"]:
        return None
    return other


def door_use(world: ModWorld, pos: Int3, state: int) -> bool:
    """Right click: open or close both halves."""
    flipped = not world.registry.props(state)["open"]
    for where in (pos, _other_half(world, pos, state)):
        if where is not None:
            world.set_block(
                *where, world.registry.with_props(world.get_block(*where), open=flipped)
            )
    return True


def door_can_break(world: ModWorld, pos: Int3, state: int, actor: Actor) -> str | None:
    """A door breaks whole: the actor must be allowed to break its other half too."""
    other = _other_half(world, pos, state)
    if other is None:
        return None
    allowed = world.may_break(other, actor)
    return None if allowed else allowed.reason


def door_construct(world: ModWorld, pos: Int3, state: int, actor: Actor | None) -> None:
    """A lower half just placed puts its upper half above it (as the actor, when there is one)."""
    props: Mapping[str, PropValue] = world.registry.props(state)
    if props["half"] != "lower" or _other_half(world, pos, state) is not None:
        return
    upper = world.registry.with_props(state, half="upper")
    above = pos + UP
    if actor is not None:
        world.place(above, upper, actor)
    elif world.registry.replaceable[world.get_block(*above)]:
        world.set_block(*above, upper)


def door_destruct(world: ModWorld, pos: Int3, state: int, actor: Actor | None) -> None:
    """Either half gone takes the other with it (as the actor: protection still applies)."""
    other = _other_half(world, pos, state)
    if other is None:
        return
    if actor is not None:
        world.dig(other, actor)
    else:
        world.set_block(*other, "air")


# Minecraft's water and lava (the overworld's): water steps every 5 game ticks and runs 7 blocks,
# lava every 30 and 3; lava touching water from above or the side hardens (a source to obsidian,
# flowing lava to cobblestone), and lava falling into water turns that water to stone.
WATER = Liquid(tick_delay=5, drop_off=1, slope_distance=4, renewable=True, washes="drop")
LAVA = Liquid(
    tick_delay=30,
    drop_off=2,
    slope_distance=2,
    renewable=False,
    washes="destroy",
    meets=(
        Meeting(
            "base:water", source="base:obsidian", flowing="base:cobblestone", below="base:stone"
        ),
    ),
    push=0.93,  # Minecraft's 0.0023 a tick in the overworld
    opaque=True,  # its tile has no see-through texel: drawn with the solid faces
)

BASE_BLOCKS: tuple[BlockType, ...] = (
    # Groups a tool digs faster (`world.items.item.Item.digs`), as Luanti's: a pickaxe ``cracky``
    # (stone), a shovel ``crumbly`` (earth), an axe ``choppy`` (wood).
    BlockType(
        "base:stone",
        sounds=STONE_SOUNDS,
        hardness=1.5,
        needs_tool=True,  # by hand: 5 s and nothing (Minecraft); a pickaxe gives cobblestone
        tiles=("base:stone",),
        drops=(Drop("base:cobblestone"),),
        groups=("cracky",),
    ),
    BlockType(
        "base:dirt", sounds=GRAVEL_SOUNDS, hardness=0.5, tiles=("base:dirt",), groups=("crumbly",)
    ),
    BlockType(
        "base:grass",
        sounds=GRASS_SOUNDS,
        description="grass block",
        hardness=0.6,
        tiles=("base:grass_top", "base:dirt", "base:grass_side"),
        drops=(Drop("base:dirt"),),
        groups=("crumbly",),
    ),
    BlockType(
        "base:sand",
        sounds=SAND_SOUNDS,
        hardness=0.5,
        tiles=("base:sand",),
        groups=("falling", "crumbly"),
    ),
    BlockType(
        "base:gravel",
        sounds=GRAVEL_SOUNDS,
        hardness=0.6,
        tiles=("base:gravel",),
        groups=("falling", "crumbly"),
    ),
    BlockType(
        "base:log",
        sounds=WOOD_SOUNDS,
        hardness=2.0,
        properties={"axis": ("y", "x", "z")},
        tiles=lambda p: _LOG_TILES[str(p["axis"])],
        groups=("choppy",),
        placement_state=axis_state,
    ),
    BlockType(
        "base:planks", sounds=WOOD_SOUNDS, hardness=2.0, tiles=("base:planks",), groups=("choppy",)
    ),
    BlockType(
        "base:leaves",
        sounds=GRASS_SOUNDS,
        hardness=0.2,
        transparent=True,
        tiles=("base:leaves",),
        drops=(Drop("base:sapling", chance=0.05),),  # Minecraft: a sapling one time in twenty
    ),
    BlockType(
        "base:glass",
        sounds=GLASS_SOUNDS,
        hardness=0.3,
        transparent=True,
        tiles=("base:glass",),
        drops=(),
    ),
    BlockType(
        "base:water",
        sounds=WATER_SOUNDS,
        solid=False,
        pointable=False,
        replaceable=True,
        transparent=True,
        hardness=math.inf,
        tiles=("base:water",),
        liquid=WATER,
    ),
    BlockType("base:bedrock", sounds=STONE_SOUNDS, hardness=math.inf, tiles=("base:bedrock",)),
    BlockType(
        "base:tall_grass",
        sounds=GRASS_SOUNDS,
        description="tall grass",
        solid=False,
        replaceable=True,
        transparent=True,
        hardness=0.0,
        tiles=("base:tall_grass",),
        drops=(),
    ),
    BlockType(
        "base:lamp", sounds=GLASS_SOUNDS, hardness=0.3, tiles=("base:lamp",), groups=("cracky",)
    ),
    BlockType(
        "base:cobblestone",
        sounds=STONE_SOUNDS,
        hardness=2.0,
        needs_tool=True,
        tiles=("base:cobblestone",),
        groups=("cracky",),
    ),
    BlockType(
        "base:sapling",
        sounds=GRASS_SOUNDS,
        solid=False,
        transparent=True,
        hardness=0.0,
        tiles=("base:sapling",),
        selection=(Box(0.125, 0.0, 0.125, 0.875, 0.8125, 0.875),),  # Minecraft's 2..14, 13 high
        draw="plant",
    ),
    *(_slab(*material) for material in _MATERIALS),
    *(_stairs(*material) for material in _MATERIALS),
    BlockType(
        "base:fence",
        sounds=WOOD_SOUNDS,
        hardness=2.0,
        transparent=True,
        properties={side: (False, True) for side in shapes.FACINGS},
        selection=lambda p: shapes.fence(**{k: bool(v) for k, v in p.items()}),
        collision=lambda p: shapes.fence(
            **{k: bool(v) for k, v in p.items()}, top=shapes.COLLISION_TOP
        ),
        tiles=("base:planks",),
        groups=("fence", "choppy"),
        placement_state=fence_state,
    ),
    BlockType(
        "base:torch",
        sounds=WOOD_SOUNDS,
        solid=False,
        transparent=True,
        hardness=0.0,
        properties={"facing": ("up", *shapes.FACINGS)},
        selection=lambda p: shapes.torch(None if p["facing"] == "up" else str(p["facing"])),
        light=14,  # Minecraft's torch
        tiles=("base:torch",),
        groups=("attached",),
        placement_state=torch_state,
    ),
    BlockType(
        "base:door",
        sounds=WOOD_SOUNDS,
        hardness=3.0,
        transparent=True,
        properties={
            "facing": shapes.FACINGS,
            "half": ("lower", "upper"),
            "open": (False, True),
            "hinge": ("left", "right"),
        },
        selection=lambda p: shapes.door(str(p["facing"]), bool(p["open"]), str(p["hinge"])),
        tiles=("base:door",),
        groups=("choppy",),
        placement_state=door_state,
        on_use=door_use,
        can_break=door_can_break,
        on_construct=door_construct,
        on_destruct=door_destruct,
    ),
    BlockType(
        "base:lava",
        solid=False,
        pointable=False,
        replaceable=True,
        transparent=True,  # its neighbours' faces show under its sloped top; drawn opaque
        hardness=math.inf,
        light=15,  # Minecraft's lava
        tiles=("base:lava",),
        liquid=LAVA,
    ),
    BlockType(
        "base:obsidian",
        sounds=STONE_SOUNDS,
        hardness=50.0,  # Minecraft's: a diamond pickaxe's 9.4 s; here any pickaxe, slowly
        needs_tool=True,
        tiles=("base:obsidian",),
        groups=("cracky",),
    ),
    # The biomes' blocks (`world.gen.biomes`): a desert's sandstone, cacti and dead bushes, the
    # snowy land's snow layer and its frozen sea.
    BlockType(
        "base:sandstone",
        sounds=STONE_SOUNDS,
        hardness=0.8,
        needs_tool=True,
        tiles=("base:sandstone",),
        groups=("cracky",),
    ),
    BlockType(
        "base:cactus",
        sounds=CLOTH_SOUNDS,
        hardness=0.4,
        transparent=True,  # inset: the faces of its neighbours show around it
        tiles=("base:cactus_top", "base:cactus_top", "base:cactus_side"),
        selection=(Box(1 / 16, 0.0, 1 / 16, 15 / 16, 1.0, 15 / 16),),  # Minecraft's 1/16 inset
    ),
    BlockType(
        "base:dead_bush",
        sounds=GRASS_SOUNDS,
        description="dead bush",
        solid=False,
        replaceable=True,
        transparent=True,
        hardness=0.0,
        tiles=("base:dead_bush",),
        drops=(),  # Minecraft's gives sticks, which this game has not
    ),
    BlockType(
        "base:snow",
        sounds=SNOW_SOUNDS,
        description="snow layer",
        solid=False,  # one layer: Minecraft's has no collision either
        replaceable=True,
        transparent=True,
        hardness=0.1,
        tiles=("base:snow",),
        selection=shapes.carpet(2 / 16),
        groups=("crumbly",),
    ),
    BlockType(
        "base:ice",
        sounds=GLASS_SOUNDS,
        hardness=0.5,
        transparent=True,
        tiles=("base:ice",),
        drops=(),  # Minecraft's: nothing without silk touch
        groups=("cracky",),
    ),
)
