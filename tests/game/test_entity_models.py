"""The models that draw entities (`game.entity_models`): each visual's quads in the entity's
frame, a stack's copies, the tiles and shades the chunk shader reads."""

from __future__ import annotations

import numpy as np
import pytest

from game.entity_models import (
    FACES,
    ICON_SIZE,
    ITEM_SIZE,
    SPINS,
    TURNED,
    Model,
    build_model,
    copies,
    model_key,
)
from world.base import default_registry
from world.blocks.atlas import tile_uv_rects
from world.blocks.block_type import BlockType
from world.blocks.entity_type import FALLING_BLOCK, ITEM_ENTITY, EntityType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import Box
from world.items.item import Item
from world.voxels.entities import Entity

SHEEP_LIKE = EntityType(
    "zoo:cow",
    size=(0.9, 1.4),
    visual="boxes",
    model=(
        (Box(-0.35, 0.5, -0.5, 0.35, 1.1, 0.5), "base:planks"),  # body
        (Box(-0.2, 0.8, -0.8, 0.2, 1.2, -0.5), "base:log"),  # head, in front (north, -z)
    ),
)
GHOST = EntityType("zoo:ghost", size=(0.8, 1.8), visual="sprite", tiles=("base:glass",))
CRATE = EntityType("zoo:crate", size=(0.5, 0.5), visual="cube", tiles=("base:planks",))


@pytest.fixture(scope="module")
def registry() -> BlockRegistry:
    registry = default_registry()
    for kind in (SHEEP_LIKE, GHOST, CRATE):
        registry.register_entity(kind)
    registry.register_item(Item("zoo:bone", image="base:glass"))
    return registry


def stack(item: object, count: object) -> Entity:
    return Entity(1, ITEM_ENTITY.name, (0.5, 4.0, 0.5), data={"item": item, "count": count})  # type: ignore[dict-item]


def bounds(model: Model) -> tuple[np.ndarray, np.ndarray]:
    return model.corners.min(axis=0), model.corners.max(axis=0)


@pytest.mark.parametrize(
    ("count", "shown"), [(1, 1), (2, 2), (16, 2), (17, 3), (32, 3), (33, 4), (64, 4)]
)
def test_a_bigger_stack_shows_more_copies_as_minecraft_s(count: int, shown: int) -> None:
    assert copies(count) == shown


def test_a_block_item_lies_as_its_block_shrunk_to_a_quarter_spinning(
    registry: BlockRegistry,
) -> None:
    key = model_key(stack("base:grass", 1), ITEM_ENTITY)
    assert key == ("item", "base:grass", 1)
    model = build_model(registry, key)
    assert model is not None and model.motion == SPINS and model.vertices == 6 * 4
    low, high = bounds(model)
    assert low == pytest.approx((-ITEM_SIZE / 2, 0.0, -ITEM_SIZE / 2))
    assert high == pytest.approx((ITEM_SIZE / 2, ITEM_SIZE, ITEM_SIZE / 2))
    grass = registry.id("base:grass")
    tiles = tile_uv_rects(registry.face_tiles[grass].astype(np.int64))[:, :2]
    drawn = model.static["tile"].reshape(6, 4, 2)[:, 0]
    assert drawn == pytest.approx(tiles)  # each face its block's tile: grass on top, dirt below
    top, bottom = model.static["rgba"][8, 0], model.static["rgba"][12, 0]
    assert top == 255 and bottom < top  # the mesher's shades: the top brightest


@pytest.mark.parametrize("block", ["base:sand", "test:glow", "base:stone_slab", "base:torch"])
def test_a_dropped_block_shades_each_face_as_the_placed_block_does(block: str) -> None:
    # A block alone in the open (no occlusion): each face of its item is as bright as that face
    # of the placed block, a light source's too (both shaded by direction, as Minecraft's).
    from world import World
    from world.mesh.mesher import mesh_chunk

    registry = default_registry()
    registry.register(BlockType("test:glow", light=15, tiles=("base:lamp",)))
    world = World(registry)
    world.set_block(5, 5, 5, registry.id(block))
    mesh = mesh_chunk(world, 0, 0, 0)
    placed = {
        tuple(normal): round(float(shade) * 255.0)
        for normal, shade in zip(
            mesh.normals.reshape(-1, 4, 3)[:, 0].astype(int).tolist(),
            mesh.shade.reshape(-1, 4)[:, 0],
            strict=True,
        )
    }
    model = build_model(registry, ("item", block, 1))
    assert model is not None
    dropped = {
        tuple(normal): int(red)
        for normal, red in zip(
            np.rint(model.normals).astype(int).tolist(), model.static["rgba"][::4, 0], strict=True
        )
    }
    assert dropped == placed and len(set(placed.values())) == 4


def test_a_falling_plant_is_as_bright_as_the_placed_plant() -> None:
    from world import World
    from world.mesh.mesher import mesh_chunk

    registry = default_registry()
    world = World(registry)
    world.set_block(5, 5, 5, registry.id("base:tall_grass"))
    placed = set(np.rint(mesh_chunk(world, 0, 0, 0).shade * 255.0).astype(int).tolist())
    model = build_model(registry, ("block", "base:tall_grass", 0))
    assert model is not None
    assert set(model.static["rgba"][:, 0].tolist()) == placed == {255}


def test_a_slab_item_keeps_its_shape_and_copies_follow_each_other(
    registry: BlockRegistry,
) -> None:
    one = build_model(registry, ("item", "base:stone_slab", 1))
    four = build_model(registry, ("item", "base:stone_slab", 4))
    assert one is not None and four is not None and four.vertices == 4 * one.vertices
    assert bounds(one)[1][1] == pytest.approx(ITEM_SIZE / 2)  # the bottom half of the block
    assert four.corners[: one.vertices] == pytest.approx(one.corners)  # the first copy first


def test_an_item_that_is_no_block_lies_flat_seen_from_both_sides(
    registry: BlockRegistry,
) -> None:
    model = build_model(registry, ("item", "zoo:bone", 1))
    assert model is not None and model.vertices == 2 * 4
    assert model.normals[0] == pytest.approx(-model.normals[1])  # back to back
    assert abs(model.normals[0][2]) == pytest.approx(1.0)  # facing north and south
    width = bounds(model)[1][0] - bounds(model)[0][0]
    assert width == pytest.approx(ICON_SIZE)
    assert set(model.static["rgba"][:, 0]) == {255}  # a flat tile is not shaded
    image = registry.tile_id("base:glass")
    assert model.static["tile"][0] == pytest.approx(tile_uv_rects(np.array([image]))[0, :2])


def test_an_unknown_item_shows_the_missing_tile_and_bad_data_draws_nothing(
    registry: BlockRegistry,
) -> None:
    model = build_model(registry, ("item", "gone:thing", 1))
    assert model is not None
    assert model.static["tile"][0] == pytest.approx(tile_uv_rects(np.array([0]))[0, :2])
    assert model_key(stack("base:dirt", "many"), ITEM_ENTITY) is None
    assert model_key(stack(None, 3), ITEM_ENTITY) is None
    assert build_model(registry, ("item", "air", 1)) is None


def test_a_falling_block_is_its_state_at_full_size(registry: BlockRegistry) -> None:
    entity = Entity(2, FALLING_BLOCK.name, (0.5, 4.0, 0.5), data={"block": "base:sand"})
    key = model_key(entity, FALLING_BLOCK)
    assert key == ("block", "base:sand", 0)
    model = build_model(registry, key)
    assert model is not None and model.motion == TURNED
    low, high = bounds(model)
    assert low == pytest.approx((-0.5, 0.0, -0.5)) and high == pytest.approx((0.5, 1.0, 0.5))
    assert build_model(registry, ("block", "nothing:here", 0)) is None


def test_a_box_model_keeps_its_parts_where_the_kind_put_them(registry: BlockRegistry) -> None:
    entity = Entity(3, SHEEP_LIKE.name, (0.5, 4.0, 0.5))
    model = build_model(registry, model_key(entity, SHEEP_LIKE))  # type: ignore[arg-type]
    assert model is not None and model.motion == TURNED and model.vertices == 2 * 6 * 4
    low, high = bounds(model)
    assert low == pytest.approx((-0.35, 0.5, -0.8)) and high == pytest.approx((0.35, 1.2, 0.5))
    assert model.radius == pytest.approx(np.sqrt(0.2**2 + 1.2**2 + 0.8**2))


def test_a_cube_is_the_kind_s_box_and_a_sprite_faces_the_camera(
    registry: BlockRegistry,
) -> None:
    crate = build_model(registry, ("kind", CRATE.name, 0))
    assert crate is not None and crate.vertices == 24
    assert bounds(crate)[1] == pytest.approx((0.25, 0.5, 0.25))
    ghost = build_model(registry, ("kind", GHOST.name, 0))
    assert ghost is not None and ghost.motion == FACES
    assert bounds(ghost)[1][1] == pytest.approx(1.8)
    assert build_model(registry, ("kind", "zoo:unicorn", 0)) is None


def test_each_quad_s_normal_is_the_side_its_winding_shows(registry: BlockRegistry) -> None:
    """The +x face of a block's cube is seen from +x: the view leaves out what faces away."""
    model = build_model(registry, ("block", "base:stone", 0))
    assert model is not None
    sides = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    assert np.allclose(model.normals[:6], sides)
