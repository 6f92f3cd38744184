"""The block registry: names, ids, property tables, the default blocks."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from world.base import default_registry
from world.blocks.block_type import AIR, BlockType
from world.blocks.registry import BlockRegistry


def test_default_registry_order_and_properties():
    reg = default_registry()
    assert reg.name(AIR) == "air" and reg.id("base:stone") == 1
    expected = [
        "air",
        "base:stone",
        "base:dirt",
        "base:grass",
        "base:sand",
        "base:gravel",
        "base:log",
        "base:planks",
        "base:leaves",
        "base:glass",
        "base:water",
        "base:bedrock",
        "base:tall_grass",
        "base:lamp",
    ]
    # The first blocks keep their order; later ones are appended (saves name every block, so
    # the order is only the id order of a run).
    assert reg.names[: len(expected)] == expected
    later = {"base:cobblestone", "base:sapling", "base:stone_slab", "base:planks_slab"}
    later |= {"base:stone_stairs", "base:planks_stairs", "base:fence", "base:torch", "base:door"}
    later |= {"base:lava", "base:obsidian"}
    later |= {"base:sandstone", "base:cactus", "base:dead_bush", "base:snow", "base:ice"}
    assert set(reg.names[len(expected) :]) == later
    water, bedrock, tall = reg.id("base:water"), reg.id("base:bedrock"), reg.id("base:tall_grass")
    assert not reg.pointable[water] and reg.replaceable[water] and not reg.solid[water]
    assert math.isinf(reg.hardness[bedrock]) and not reg["base:bedrock"].breakable
    assert reg.replaceable[tall] and not reg.solid[tall]
    assert reg.transparent[reg.id("base:glass")] and reg.transparent[reg.id("base:leaves")]
    assert not reg.transparent[reg.id("base:stone")]
    assert not reg.pointable[AIR] and reg.replaceable[AIR]


def test_property_arrays_index_whole_chunks():
    reg = default_registry()
    ids = np.array([0, 1, reg.id("base:glass") + 1, reg.id("base:bedrock") + 1], dtype=np.uint16)
    assert reg.solid[ids].tolist() == [False, True, False, False]
    with pytest.raises(ValueError):
        reg.solid[0] = True  # read-only


def test_grass_has_top_side_and_bottom_tiles():
    reg = default_registry()
    grass = reg.face_tiles[reg.id("base:grass")]
    top, bottom, side = (reg.tile_id(n) for n in ("base:grass_top", "base:dirt", "base:grass_side"))
    assert grass.tolist() == [side, side, top, bottom, side, side]
    assert reg.tile_names[0] == "base:missing"


@pytest.mark.parametrize("name", ["stone", "Base:stone", "base:", ":x", "base:st one", "a:b:c"])
def test_bad_names_are_rejected(name):
    with pytest.raises(ValueError, match="name"):
        BlockType(name)


def test_registration_rules():
    reg = BlockRegistry()
    assert len(reg) == 1
    assert reg.register(BlockType("mymod:thing")) == 1
    with pytest.raises(ValueError, match="already registered"):
        reg.register(BlockType("mymod:thing"))
    with pytest.raises(ValueError, match="unknown block name"):
        reg.id("mymod:other")
    with pytest.raises(ValueError, match="unknown block id"):
        reg.resolve(5)
    with pytest.raises(ValueError, match="hardness"):
        BlockType("mymod:x", hardness=-1)
    with pytest.raises(ValueError, match="tiles"):
        BlockType("mymod:x", tiles=("a:b", "c:d"))
    assert reg.resolve("mymod:thing") == 1 and "mymod:thing" in reg and 1 in reg
    assert reg["mymod:thing"].description == "thing"


def test_world_never_imports_the_engine():
    code = (
        "import sys, world, world.blocks.registry, world.voxels.chunks, world.ray\n"
        "import pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(world.__path__):\n"
        "    importlib.import_module('world.' + m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('ursina', 'panda3d', 'direct')]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_light_and_groups_are_checked():
    with pytest.raises(ValueError, match="light"):
        BlockType("mymod:x", light=3.7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="light"):
        BlockType("mymod:x", light=True)
    with pytest.raises(ValueError, match="groups"):
        BlockType("mymod:x", groups="liquid")  # type: ignore[arg-type]
    assert BlockType("mymod:x", groups=("liquid",)).groups == ("liquid",)


def test_liquid_and_plant_tables_follow_the_definitions():
    reg = default_registry()
    water = reg.block_index == reg.block_index[reg.id("base:water")]
    lava = reg.block_index == reg.block_index[reg.id("base:lava")]
    assert np.array_equal(reg.liquid, water | lava)  # every state of both: 8 levels, falling or not
    assert water.sum() == lava.sum() == 16
    plants = ("base:tall_grass", "base:sapling", "base:dead_bush")
    assert np.flatnonzero(reg.plant).tolist() == [reg.id(name) for name in plants]
    reg.register(BlockType("mymod:fern", solid=False, transparent=True))
    assert reg.plant[reg.id("mymod:fern")]


def test_collision_reach_is_how_far_any_collision_box_reaches_from_its_voxel():
    """What the entities' sweep looks at round a box: a fence makes it reach 1.5 up."""
    reg = BlockRegistry()
    reg.register(BlockType("mymod:cube"))
    assert reg.collision_reach == (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    assert default_registry().collision_reach == (0.0, 0.0, 0.0, 1.0, 1.5, 1.0)
