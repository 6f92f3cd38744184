"""Meshes made from copies (`mesh_padded`, what the worker process meshes) and packed as the game
draws them (`world.mesh.pack`): the same mesh as `mesh_chunk`, every vertex and triangle kept."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.blocks.atlas import tile_cells
from world.gen.generators import TerrainGenerator
from world.geometry import FACE_NORMALS
from world.light.lighting import Light
from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk, mesh_inputs, mesh_padded, padded_blocks
from world.mesh.pack import OTHER, VERTEX_ROW, PackedMesh, blended_liquids, drawn_mesh, pack

ChunkKey = tuple[int, int, int]

REG = default_registry()
STONE = REG.id("base:stone")
GRASS = REG.id("base:grass")
WATER = REG.id("base:water")
TALL_GRASS = REG.id("base:tall_grass")
LAMP = REG.id("base:lamp")
CUBES = [STONE, GRASS, REG.id("base:glass"), WATER, REG.id("base:leaves"), LAMP]
SHAPED = [
    REG.state_id("base:stone_slab", half="bottom"),
    REG.state_id("base:stone_slab", half="top"),
    REG.state_id("base:stone_stairs", facing="north", half="bottom"),
    REG.state_id("base:stone_stairs", facing="east", half="top"),
    REG.state_id("base:torch", facing="up"),
    REG.state_id("base:torch", facing="north"),
    REG.id("base:fence"),
    REG.id("base:sapling"),
    TALL_GRASS,
]


@st.composite
def small_worlds(draw: st.DrawFn) -> tuple[World, ChunkKey]:
    """A chunk and its one-voxel border (as `test_mesher.small_worlds`): a random fill of cubes,
    shaped blocks and plants, plus a few placed blocks; the first chunk sits on the world's floor.
    """
    chunk: ChunkKey = draw(st.sampled_from([(0, 0, 0), (-1, 2, -3)]))
    origin = np.array(chunk) * 16
    world = World(REG)
    density = draw(st.sampled_from([0.0, 0.05, 0.25, 0.85]))
    if density:
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        palette = np.array(CUBES + SHAPED)
        box = np.stack(np.meshgrid(*[np.arange(o - 1, o + 17) for o in origin], indexing="ij"), -1)
        box = box.reshape(-1, 3)
        keep = rng.random(len(box)) < density
        world.set_blocks(box[keep], rng.choice(palette, int(keep.sum())))
    placed = draw(
        st.lists(
            st.tuples(
                st.integers(-1, 16),
                st.integers(-1, 16),
                st.integers(-1, 16),
                st.sampled_from(CUBES + SHAPED),
            ),
            max_size=25,
        )
    )
    for lx, ly, lz, block in placed:
        world.set_block(int(origin[0]) + lx, int(origin[1]) + ly, int(origin[2]) + lz, block)
    return world, chunk


def _lit(world: World) -> Light:
    light = Light(world)
    light.add_chunks(list(world.loaded_keys()))
    return light


def _floor_ly(world: World, key: ChunkKey) -> int:
    return world.build_height[0] - key[1] * 16


def _assert_same_mesh(got: MeshData, expected: MeshData) -> None:
    for field in dataclasses.fields(MeshData):
        a, b = getattr(got, field.name), getattr(expected, field.name)
        assert a.dtype == b.dtype, field.name
        np.testing.assert_array_equal(a, b, err_msg=field.name)


# -- mesh_padded: a mesh from copies alone -------------------------------------------------------


@given(small_worlds(), st.booleans(), st.booleans())
@settings(max_examples=15, deadline=None)
def test_a_mesh_made_from_copies_equals_the_chunks_mesh(
    case: tuple[World, ChunkKey], lit: bool, merge: bool
) -> None:
    world, key = case
    light = _lit(world) if lit else None
    expected = mesh_chunk(world, *key, light, merge=merge)
    padded = padded_blocks(world, *key)
    got = mesh_padded(
        world.registry,
        padded,
        _floor_ly(world, key),
        None if light is None else light.padded(key),
        merge=merge,
    )
    _assert_same_mesh(got, expected)


@given(small_worlds())
@settings(max_examples=10, deadline=None)
def test_padded_blocks_are_the_chunk_and_its_one_voxel_border(case: tuple[World, ChunkKey]) -> None:
    world, key = case
    box = np.stack(
        np.meshgrid(*[np.arange(16 * c - 1, 16 * c + 17) for c in key], indexing="ij"), -1
    )
    padded = padded_blocks(world, *key)
    assert padded.dtype == np.uint16 and padded.shape == (18, 18, 18)
    np.testing.assert_array_equal(padded, world.get_blocks(box.reshape(-1, 3)).reshape(18, 18, 18))


def test_a_mesh_from_copies_does_not_change_when_the_world_changes_afterwards() -> None:
    world = World(REG)
    world.set_blocks([(x, 3, z) for x in range(16) for z in range(16)], [STONE] * 256)
    padded = padded_blocks(world, 0, 0, 0)
    before = mesh_padded(REG, padded, 0, merge=True)
    world.set_block(5, 4, 5, STONE)  # the game edits the chunk while the worker meshes
    world.set_block(-1, 3, 5, STONE)  # and its neighbour
    _assert_same_mesh(mesh_padded(REG, padded, 0, merge=True), before)
    assert mesh_chunk(world, 0, 0, 0, merge=True).vertex_count != before.vertex_count


def test_the_floor_layer_given_hides_the_worlds_underside_there_only() -> None:
    world = World(REG)
    world.set_block(4, 0, 4, STONE)
    padded = padded_blocks(world, 0, 0, 0)
    down = FACE_NORMALS.index((0, -1, 0))
    normals = [tuple(n) for n in mesh_padded(REG, padded, 0).normals.reshape(-1, 4, 3)[:, 0]]
    assert FACE_NORMALS[down] not in normals and len(normals) == 5
    # The same blocks above the world's floor (a chunk higher up) show their underside.
    assert mesh_padded(REG, padded, -16).face_count == 6


# -- pack: vertex rows and triangles by direction -----------------------------------------------


_AXES = np.array(FACE_NORMALS, np.float32)


def _directions(normals: np.ndarray) -> np.ndarray:
    """Each normal's group: the face direction it equals, else `OTHER`."""
    equal = (normals[:, None, :] == _AXES[None]).all(axis=2)
    return np.where(equal.any(axis=1), equal.argmax(axis=1), OTHER)


def _assert_packed(packed: PackedMesh, mesh: MeshData) -> None:
    rows = packed.rows
    v = mesh.vertex_count
    assert rows.dtype == VERTEX_ROW and rows.shape == (v,) and packed.vertex_count == v
    np.testing.assert_array_equal(rows["pos"], mesh.vertices.reshape(-1, 3))
    np.testing.assert_array_equal(rows["uv"], mesh.tile_uvs.reshape(-1, 2))
    np.testing.assert_array_equal(rows["tile"], mesh.tile_origin.reshape(-1, 2))
    # The nearest byte (a tie such as a plant's 0.9 * 255 may go either way in float32).
    rgba = rows["rgba"].astype(np.float64)
    light = mesh.light.reshape(-1, 2).astype(np.float64)
    nearest = 0.5 + 1e-4
    assert (np.abs(rgba[:, 0] - mesh.shade * 255.0) <= nearest).all()
    assert (np.abs(rgba[:, 1] - light[:, 0] * 17.0) <= nearest).all()  # sky 0..15 to 0..255
    assert (np.abs(rgba[:, 2] - light[:, 1] * 17.0) <= nearest).all()  # block light
    assert (rgba[:, 3] == 255).all()

    # Each triangle goes to the group of its first vertex's normal.
    triangles = mesh.indices.reshape(-1, 3)
    direction = _directions(mesh.normals.reshape(-1, 3))[triangles]
    # The whole triangle faces that way (the game hides a group by its direction).
    assert (direction == direction[:, :1]).all()
    # In a direction's group, the faces nearer the side they face first (+x from the largest x
    # down, -x from the smallest up, ...), faces in one plane in the mesher's order; plants
    # in the mesher's order.
    positions = mesh.vertices.reshape(-1, 3)

    def nearer_first(d: int, triangle: np.ndarray) -> float:
        if d == OTHER:
            return 0.0
        plane = float(positions[triangle[0], d // 2])
        return plane if d % 2 else -plane

    assert len(packed.groups) == OTHER + 1 == 7
    for d, group in enumerate(packed.groups):
        assert group.dtype == np.uint32 and group.ndim == 1 and group.flags.c_contiguous, d
        mine = [t for t, faces in zip(triangles, direction, strict=True) if faces[0] == d]
        expected = sorted(mine, key=lambda t, d=d: nearer_first(d, t))  # sorted() is stable
        np.testing.assert_array_equal(
            group.reshape(-1, 3), np.array(expected, dtype=np.int64).reshape(-1, 3), str(d)
        )
    assert sum(len(g) for g in packed.groups) == len(mesh.indices)


def test_the_vertex_row_layout_is_the_32_bytes_the_games_vertex_format_expects() -> None:
    assert VERTEX_ROW.itemsize == 32
    fields = VERTEX_ROW.fields
    assert fields is not None
    assert [(name, fields[name][1]) for name in fields] == [
        ("pos", 0),
        ("rgba", 12),
        ("uv", 16),
        ("tile", 24),
    ]


@given(small_worlds(), st.booleans(), st.booleans())
@settings(max_examples=15, deadline=None)
def test_packed_rows_hold_the_mesh_and_each_triangle_sits_once_in_its_directions_group(
    case: tuple[World, ChunkKey], lit: bool, merge: bool
) -> None:
    world, key = case
    mesh = mesh_chunk(world, *key, _lit(world) if lit else None, merge=merge)
    _assert_packed(pack(mesh), mesh)


def _garden() -> tuple[World, Light]:
    """Grass under open sky with plants, shaped blocks, water and a lamp under a roof."""
    world = World(REG)
    world.set_blocks([(x, 2, z) for x in range(16) for z in range(16)], [GRASS] * 256)
    for i, block in enumerate(SHAPED):  # apart, at x 2..10 and z 2, 4
        world.set_block(2 + 2 * (i % 5), 3, 2 + 2 * (i // 5), block)
    world.set_blocks([(x, 3, 12) for x in range(6, 10)], [TALL_GRASS] * 4)
    world.set_blocks([(x, 3, 5) for x in range(6, 10)], [WATER] * 4)
    world.set_block(12, 3, 12, LAMP)
    world.set_blocks([(x, 6, z) for x in range(10, 15) for z in range(10, 15)], [STONE] * 25)
    return world, _lit(world)


@pytest.mark.parametrize("merge", [False, True])
def test_plants_go_to_the_other_group_and_box_faces_to_their_directions(merge: bool) -> None:
    world, light = _garden()
    mesh = mesh_chunk(world, 0, 0, 0, light, merge=merge)
    packed = pack(mesh)
    _assert_packed(packed, mesh)
    assert all(len(group) for group in packed.groups)  # every direction, and plants, present
    normals = mesh.normals.reshape(-1, 3)
    other = normals[packed.groups[OTHER]]
    plants = other[other[:, 1] == 0]
    assert len(plants) and (np.count_nonzero(plants, axis=1) == 2).all()
    # The rest of them the water's sloped tops (a row of four beside air) and their backs.
    assert (np.abs(other[other[:, 1] != 0, 1]) > 0.5).all()
    # Box faces (a bottom slab's top at half height) are in their direction's group.
    up = packed.groups[FACE_NORMALS.index((0, 1, 0))]
    assert (mesh.vertices.reshape(-1, 3)[up][:, 1] == 3.5).any()
    # Lit: block light (the lamp) reaches the colour's blue byte, a roof's shadow the green.
    rgba = packed.rows["rgba"]
    assert rgba[:, 2].max() > 0 and rgba[:, 1].min() < 255


def test_an_empty_mesh_packs_to_no_rows_and_seven_empty_groups() -> None:
    packed = pack(MeshData.empty())
    assert packed.vertex_count == 0 and packed.rows.dtype == VERTEX_ROW
    assert len(packed.groups) == 7
    assert all(g.dtype == np.uint32 and len(g) == 0 for g in packed.groups)


# -- bad input --------------------------------------------------------------------------------

_GOOD = np.zeros((18, 18, 18), np.uint16)
_DARK = np.zeros((18, 18, 18), np.uint8)


@pytest.mark.parametrize(
    ("padded", "floor_ly", "light", "named"),
    [
        (np.zeros((16, 16, 16), np.uint16), 0, None, "padded"),
        (np.zeros((18, 18, 17), np.uint16), 0, None, "padded"),
        (_GOOD.tolist(), 0, None, "padded"),
        (_GOOD.astype(np.int32), 0, None, "padded"),
        (_GOOD.astype(np.uint8), 0, None, "padded"),
        (np.full((18, 18, 18), len(REG), np.uint16), 0, None, "padded"),
        (
            np.where(np.arange(18**3) == 4000, 60000, 0).astype(np.uint16).reshape(18, 18, 18),
            0,
            None,
            "padded",
        ),
        (_GOOD, 0, (_DARK, np.zeros((16, 16, 16), np.uint8)), "light"),
        (_GOOD, 0, (np.zeros((18, 18), np.uint8), _DARK), "light"),
        (_GOOD, 0, (_DARK, _DARK.astype(np.float32)), "light"),
        (_GOOD, 0, (_DARK, _DARK.tolist()), "light"),
        (_GOOD, 0, (_DARK, _DARK, _DARK), "light"),
        (_GOOD, 1.5, None, "floor_ly"),
        (_GOOD, "0", None, "floor_ly"),
    ],
)
def test_bad_mesh_inputs_are_value_errors_naming_the_argument(
    padded: Any, floor_ly: Any, light: Any, named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        mesh_padded(REG, padded, floor_ly, light)


@given(small_worlds())
@settings(max_examples=10, deadline=None)
def test_the_drawn_mesh_splits_off_the_liquids_and_draws_plants_both_ways_round(
    case: tuple[World, ChunkKey],
) -> None:
    _assert_drawn(*case)


@given(small_worlds())
@settings(max_examples=10, deadline=None)
def test_each_drawn_group_uses_one_run_of_rows_in_the_order_it_needs_them(
    case: tuple[World, ChunkKey],
) -> None:
    world, key = case
    drawn = drawn_mesh(REG, mesh_inputs(world, *key))
    start = 0
    for indices in (*drawn.groups, *drawn.liquid):
        if not len(indices):
            continue
        _, first = np.unique(indices, return_index=True)
        in_order = indices[np.sort(first)]
        np.testing.assert_array_equal(in_order, np.arange(start, start + len(in_order)))
        start += len(in_order)
    assert start == len(drawn.rows)


def test_the_drawn_mesh_of_a_garden_splits_off_its_water() -> None:
    world, _ = _garden()
    assert _assert_drawn(world, (0, 0, 0)) > 0


def test_lava_draws_with_the_solid_faces_and_water_blended() -> None:
    """Lava's tile has no see-through texel: drawn blended (no depth written) its faces would
    not hide one another, nor the water behind them. Its sloped top (no axis) is drawn once."""
    world = World(REG)
    world.set_blocks([(x, 2, z) for x in range(16) for z in range(16)], [GRASS] * 256)
    lava, water = REG.id("base:lava"), REG.id("base:water")
    world.set_block(4, 3, 4, lava)
    world.set_block(5, 3, 4, REG.with_props(lava, level=4))
    world.set_block(9, 3, 9, water)
    assert blended_liquids(REG)[water] and not blended_liquids(REG)[lava]
    drawn = drawn_mesh(REG, mesh_inputs(world, 0, 0, 0))
    cells = [tile_cells(drawn.rows["tile"][g]) for g in drawn.groups]
    lava_tile, water_tile = REG.face_tiles[lava, 0], REG.face_tiles[water, 0]
    assert not any((c == water_tile).any() for c in cells)
    assert all((tile_cells(drawn.rows["tile"][g]) == water_tile).all() for g in drawn.liquid)
    sloped = drawn.groups[OTHER].reshape(-1, 3)
    sloped = sloped[tile_cells(drawn.rows["tile"][sloped[:, 0]]) == lava_tile]
    assert len(sloped) and len({tuple(sorted(t)) for t in sloped.tolist()}) == len(sloped)
    _assert_drawn(world, (0, 0, 0))


def _plant_vertices(world: World, key: ChunkKey, light: Light | None = None) -> int:
    """The vertices of the plants in the chunk's drawn mesh."""
    lit = None if light is None else light.padded(key)
    return len(np.unique(drawn_mesh(REG, mesh_inputs(world, *key, lit)).groups[OTHER]))


def test_plants_side_by_side_share_the_corners_where_they_meet() -> None:
    """Two tall grass plants side by side: the second's planes start where the first's end, at
    the same texture coordinates and light, so four corners serve both: 12 vertices, not 16."""
    world = World(REG)
    world.set_blocks([(x, 2, z) for x in range(16) for z in range(16)], [GRASS] * 256)
    world.set_block(4, 3, 4, TALL_GRASS)
    assert _plant_vertices(world, (0, 0, 0)) == 8
    world.set_block(5, 3, 4, TALL_GRASS)
    assert _plant_vertices(world, (0, 0, 0)) == 12
    _assert_drawn(world, (0, 0, 0))


def test_the_plants_of_generated_terrain_take_fewer_than_eight_vertices_each() -> None:
    world = World(REG, generator=TerrainGenerator(REG, 3))
    keys = [(cx, cy, cz) for cx in range(-2, 3) for cy in range(1, 4) for cz in range(-2, 3)]
    for key in keys:
        world.chunk_blocks(*key)
    light = Light(world)
    light.add_chunks(keys)
    inner = [(cx, 2, cz) for cx in range(-1, 2) for cz in range(-1, 2)]
    plants = sum(int((world.chunk_blocks(*key) == TALL_GRASS).sum()) for key in inner)
    vertices = sum(_plant_vertices(world, key, light) for key in inner)
    assert plants > 20
    assert vertices < 8 * plants  # 8: two planes of four corners


def _assert_drawn(world: World, key: ChunkKey) -> int:
    """Check `drawn_mesh` against `pack`; returns how many liquid triangles it found."""
    inputs = mesh_inputs(world, *key)
    drawn = drawn_mesh(REG, inputs)
    packed = pack(mesh_padded(REG, *inputs, merge=True))
    assert len(drawn.rows) <= len(packed.rows)
    liquid_tiles = set(REG.face_tiles[blended_liquids(REG)].ravel().tolist())
    plant_tiles = set(REG.face_tiles[REG.plant].ravel().tolist())
    # Plant corners drawn alike (the same row) are one vertex.
    plant_rows = np.unique(drawn.groups[OTHER])
    plant_rows = plant_rows[np.isin(tile_cells(drawn.rows["tile"][plant_rows]), list(plant_tiles))]
    assert len(np.unique(drawn.rows[plant_rows])) == len(plant_rows)
    assert len(drawn.groups) == len(drawn.liquid) == OTHER + 1
    found = 0
    for group, indices in enumerate(packed.groups):
        faces = indices.reshape(-1, 3)
        tiles = tile_cells(packed.rows["tile"][faces[:, 0]])
        blended = np.array([tile in liquid_tiles for tile in tiles.tolist()], dtype=bool)
        solid = faces[~blended]
        if group == OTHER:  # plants, one-sided: each triangle again, wound the other way
            plant = np.isin(tile_cells(packed.rows["tile"][solid[:, 0]]), list(plant_tiles))
            plants = solid[plant]
            solid = np.concatenate([plants, plants[:, ::-1], solid[~plant]])
        # The same triangles in the same order, over renumbered rows.
        assert (drawn.rows[drawn.groups[group].reshape(-1, 3)] == packed.rows[solid]).all()
        # Liquids back to front: the group's order (front to back) reversed.
        liquid = faces[blended][::-1]
        assert (drawn.rows[drawn.liquid[group].reshape(-1, 3)] == packed.rows[liquid]).all()
        assert drawn.groups[group].size == solid.size and drawn.liquid[group].size == liquid.size
        assert drawn.groups[group].dtype == drawn.liquid[group].dtype == np.uint32
        found += int(blended.sum())
    return found
