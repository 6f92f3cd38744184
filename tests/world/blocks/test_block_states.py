"""Block states: properties, state ids, per-state shapes and tables, and saves that keep states."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from world import World
from world.base import default_registry
from world.base.blocks import BASE_BLOCKS
from world.blocks.block_type import DRAW_BOXES, DRAW_CUBE, BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box, door, slab, stairs
from world.gen.generators import make_generator
from world.save.storage import WorldStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

DOOR = BlockType(
    "test:door",
    properties={
        "facing": ("north", "east", "south", "west"),
        "half": ("lower", "upper"),
        "open": (False, True),
    },
    defaults={"facing": "south"},
    selection=lambda p: door(str(p["facing"]), bool(p["open"])),
)
SLAB = BlockType(
    "test:slab",
    properties={"half": ("bottom", "top", "double")},
    selection=lambda p: slab(str(p["half"])),
)


def registry_with(*blocks: BlockType) -> BlockRegistry:
    registry = default_registry()
    for block in blocks:
        registry.register(block)
    return registry


def test_every_combination_of_properties_is_a_state_with_its_own_id() -> None:
    registry = registry_with(DOOR)
    first = registry.first_state("test:door")
    ids = range(first, first + DOOR.state_count)
    assert DOOR.state_count == 16 and len(registry) == first + 16
    seen = {tuple(sorted(registry.props(i).items())) for i in ids}
    assert len(seen) == 16  # every id a different combination
    assert all(registry.block_of(i) is DOOR and registry.name(i) == "test:door" for i in ids)
    # The last property varies fastest, from the block's first id.
    assert registry.props(first) == {"facing": "north", "half": "lower", "open": False}
    assert registry.props(first + 1) == {"facing": "north", "half": "lower", "open": True}


def test_default_state_and_state_lookups() -> None:
    registry = registry_with(DOOR)
    default = registry.id("test:door")
    assert registry.props(default) == {"facing": "south", "half": "lower", "open": False}
    opened = registry.with_props(default, open=True)
    assert registry.props(opened) == {"facing": "south", "half": "lower", "open": True}
    assert registry.with_props(opened, open=False) == default
    east_upper = registry.state_id("test:door", facing="east", half="upper")
    assert registry.props(east_upper)["facing"] == "east"
    assert registry.props(east_upper)["open"] is False
    assert registry.id(registry.state_key(east_upper)) == east_upper
    assert registry.state_key(east_upper) == "test:door[facing=east,half=upper,open=false]"
    assert registry.state_key(registry.id("base:stone")) == "base:stone"


def test_bad_property_names_and_values_name_the_block() -> None:
    registry = registry_with(DOOR)
    door_id = registry.id("test:door")
    with pytest.raises(ValueError, match="no property 'colour'"):
        registry.with_props(door_id, colour="red")
    with pytest.raises(ValueError, match="'up' is not a value of property 'facing'"):
        registry.with_props(door_id, facing="up")
    with pytest.raises(ValueError, match="not a value"):
        registry.with_props(door_id, open=1)  # 1 is not True: kinds must match
    with pytest.raises(ValueError, match="unknown block name"):
        registry.state_id("test:gate", open=True)
    with pytest.raises(ValueError, match="repeated"):
        BlockType("test:x", properties={"a": ("one", "one")})
    with pytest.raises(ValueError, match="non-empty sequence"):
        BlockType("test:x", properties={"a": ()})
    with pytest.raises(ValueError, match="not one of its values"):
        BlockType("test:x", properties={"a": (1, 2)}, defaults={"a": 3})
    with pytest.raises(ValueError, match="at most 4096"):
        BlockType("test:x", properties={f"p{i}": tuple(range(8)) for i in range(5)})


def test_shapes_are_per_state_and_the_full_cube_is_the_fast_path() -> None:
    registry = registry_with(SLAB)
    bottom = registry.id("test:slab")
    top = registry.with_props(bottom, half="top")
    double = registry.with_props(bottom, half="double")
    assert registry.selection_boxes[bottom] == (Box(0, 0, 0, 1, 0.5, 1),)
    assert registry.selection_boxes[top] == (Box(0, 0.5, 0, 1, 1, 1),)
    assert registry.selection_boxes[double] is None and registry.full_cube[double]
    assert not registry.full_cube[bottom] and registry.draw[bottom] == DRAW_BOXES
    assert registry.draw[double] == DRAW_CUBE
    assert registry.collision_boxes[top] == registry.selection_boxes[top]  # solid: same shape
    stone = registry.id("base:stone")
    assert registry.selection_boxes[stone] is None and registry.collision_full[stone]
    grass = registry.id("base:tall_grass")
    assert registry.collision_boxes[grass] == () and not registry.solid[grass]


def test_invalid_shapes_are_refused_at_registration_naming_the_block() -> None:
    with pytest.raises(ValueError, match=r"'test:bad'.*inverted or empty"):
        BlockType("test:bad", selection=(Box(0, 0, 0, 1, 0, 1),))  # zero thickness
    with pytest.raises(ValueError, match=r"'test:bad'.*inverted"):
        BlockType("test:bad", selection=(Box(1, 0, 0, 0, 1, 1),))
    with pytest.raises(ValueError, match=r"'test:bad'.*within y 0..1"):
        BlockType("test:bad", selection=(Box(0, 0, 0, 1, 1.5, 1),))
    BlockType("test:fence", collision=(Box(0.375, 0, 0.375, 0.625, 1.5, 0.625),))  # may reach 1.5
    with pytest.raises(ValueError, match=r"'test:bad'.*leaves the block"):
        BlockType("test:bad", collision=(Box(-0.1, 0, 0, 1, 1, 1),))
    shaped = BlockType(
        "test:bad",
        properties={"half": ("bottom", "top")},
        selection=lambda p: (Box(0, 0, 0, 1, 0.5 if p["half"] == "bottom" else 0, 1),),
    )
    with pytest.raises(ValueError, match=r"test:bad\[half=top\]"):
        registry_with(shaped)
    crashing = BlockType(
        "test:bad",
        properties={"facing": ("north", "up")},
        selection=lambda p: stairs(str(p["facing"])),
    )
    with pytest.raises(ValueError, match=r"selection function of 'test:bad in state .*facing=up"):
        registry_with(crashing)


def test_rotation_follows_minecraft_facing() -> None:
    # Stairs facing north: the step (the high part) is on the north (-z) side.
    step = stairs("north")[1]
    assert step.z0 == 0 and step.z1 == 0.5 and step.y0 == 0.5
    east_step = stairs("east")[1]
    assert east_step.x0 == 0.5 and east_step.x1 == 1
    assert stairs("south")[1].z0 == 0.5 and stairs("west")[1].x1 == 0.5
    # A door facing north stands on the south edge; open, it swings to the west or east edge.
    assert door("north")[0].z0 == 13 / 16
    assert door("north", open_=True)[0].x1 == 3 / 16
    assert door("north", open_=True, hinge="right")[0].x0 == 13 / 16


def test_light_and_tiles_may_depend_on_the_state() -> None:
    lamp = BlockType(
        "test:lamp",
        properties={"lit": (False, True)},
        light=lambda p: 15 if p["lit"] else 0,
        tiles=lambda p: ("base:lamp",) if p["lit"] else ("base:stone",),
    )
    registry = registry_with(lamp)
    off = registry.id("test:lamp")
    on = registry.with_props(off, lit=True)
    assert registry.light[off] == 0 and registry.light[on] == 15
    assert registry.face_tiles[on][0] == registry.tile_id("base:lamp")
    assert registry.face_tiles[off][0] == registry.tile_id("base:stone")


def store_world(
    path: Path, registry: BlockRegistry, placed: dict[tuple[int, int, int], int]
) -> None:
    store = WorldStore.create(path, seed=1, generator=None)
    world = World(registry)
    for pos, block in placed.items():
        world.set_block(*pos, block)
    store.save(world)
    store.close()


def load_world(path: Path, registry: BlockRegistry) -> World:
    """The saved world with every saved chunk read (chunks load on first read)."""
    store = WorldStore(path)
    world = store.load(registry, generator_factory=make_generator)
    for key in store.chunk_keys():
        world.chunk(*key)
    store.close()
    return world


def test_states_survive_a_save_when_registration_order_changes_and_values_are_added(
    tmp_path: Path,
) -> None:
    before = registry_with(SLAB, DOOR)
    placed = {
        (0, 0, 0): before.state_id("test:door", facing="west", open=True, half="upper"),
        (1, 0, 0): before.state_id("test:slab", half="top"),
        (2, 0, 0): before.id("base:glass"),
        (-5, -7, 40): before.state_id("test:door", facing="east"),
    }
    path = tmp_path / "w.sqlite"
    store_world(path, before, placed)
    # Another run: the door registers first and gained a facing value, the slab comes later.
    door2 = BlockType(
        "test:door",
        properties={
            "facing": ("north", "east", "south", "west", "up"),
            "half": ("lower", "upper"),
            "open": (False, True),
        },
        selection=lambda p: (
            FULL if p["facing"] == "up" else door(str(p["facing"]), bool(p["open"]))
        ),
    )
    after = BlockRegistry()
    after.register(door2)
    for block in reversed(BASE_BLOCKS):
        after.register(block)
    after.register(SLAB)
    world = load_world(path, after)
    for pos, old_id in placed.items():
        got = world.get_block(*pos)
        assert after.name(got) == before.name(old_id)
        assert dict(after.props(got)) == dict(before.props(old_id))
        assert after.selection_boxes[got] == before.selection_boxes[old_id]


def test_a_state_whose_property_is_gone_loads_at_the_default(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = registry_with(DOOR)
    path = tmp_path / "w.sqlite"
    store_world(path, before, {(0, 0, 0): before.state_id("test:door", open=True, facing="west")})
    plain_door = BlockType("test:door", properties={"facing": ("north", "west")})
    world = load_world(path, registry_with(plain_door))
    got = world.get_block(0, 0, 0)
    assert world.registry.props(got) == {"facing": "west"}
    assert "open=true" in caplog.text and "half=lower" in caplog.text


def test_a_save_written_before_block_states_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "pre_states.sqlite"
    shutil.copyfile(FIXTURES / "pre_states.sqlite", path)
    log = BlockType(
        "base:log",
        properties={"axis": ("y", "x", "z")},
        tiles=("base:log_top", "base:log_top", "base:log_side"),
    )
    registry = BlockRegistry()
    for block in BASE_BLOCKS:
        registry.register(log if block.name == "base:log" else block)
    store = WorldStore(path)
    assert store.player is not None and store.player.hotbar[:2] == ("base:stone", "base:log")
    store.close()
    world = load_world(path, registry)
    names = ["base:stone", "base:log", "base:planks", "base:glass", "base:lamp", "base:sand"]
    for i, name in enumerate(names):
        for pos in ((i, 0, 0), (-1 - i, -20, 33)):
            got = world.get_block(*pos)
            assert registry.name(got) == name
            assert got == registry.id(name)  # a block that gained properties: its default state
    assert registry.props(world.get_block(1, 0, 0)) == {"axis": "y"}
    assert world.get_block(7, 0, 0) == 0


def test_per_state_tables_index_whole_chunks() -> None:
    registry = registry_with(SLAB)
    bottom = registry.id("test:slab")
    ids = np.array([0, bottom, registry.with_props(bottom, half="double")], dtype=np.uint16)
    assert registry.full_cube[ids].tolist() == [False, False, True]
    assert registry.solid[ids].tolist() == [False, True, True]
    assert registry.selection_boxes[0] == ()  # air: nothing to target
    assert FULL[0] == Box(0, 0, 0, 1, 1, 1)
