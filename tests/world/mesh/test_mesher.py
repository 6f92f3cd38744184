"""Chunk meshing: which faces are drawn, across chunk borders too, and how they are drawn."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.mesh.test_liquids import reference_corner
from world import World
from world.base import default_registry
from world.blocks.atlas import tile_uv_rects
from world.blocks.block_type import BlockType
from world.gen.generators import FlatGenerator, TerrainGenerator
from world.gen.terrain import surface_height
from world.geometry import FACE_NORMALS
from world.mesh.data import MeshData
from world.mesh.mesher import AO_LEVELS, PLANT_SHADE, mesh_chunk
from world.mesh.shapes import FACE_SHADE, UV_INSET_PX

REG = default_registry()
AIR = 0
STONE = REG.id("base:stone")
DIRT = REG.id("base:dirt")
GRASS = REG.id("base:grass")
GLASS = REG.id("base:glass")
WATER = REG.id("base:water")
LEAVES = REG.id("base:leaves")
TALL_GRASS = REG.id("base:tall_grass")
LAMP = REG.id("base:lamp")
PLANTS = {TALL_GRASS}


def world_with(*blocks: tuple[int, int, int, int]) -> World:
    world = World(REG)
    for wx, wy, wz, block in blocks:
        world.set_block(wx, wy, wz, block)
    return world


def quads(mesh: MeshData) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per quad: its 4 vertices (Q, 4, 3), normals (Q, 4, 3) and the vertex order of its tris."""
    vertices = mesh.vertices.reshape(-1, 4, 3)
    normals = mesh.normals.reshape(-1, 4, 3)
    return vertices, normals, mesh.indices.reshape(-1, 6)


def face_keys(mesh: MeshData, origin: tuple[int, int, int]) -> list[tuple]:
    """Each quad as (world voxel, face direction index) or (world voxel, "plant")."""
    vertices, normals, _ = quads(mesh)
    centres = vertices.astype(np.float64).mean(axis=1) + np.array(origin)
    normal = normals[:, 0].astype(np.float64)
    # Plants' planes are upright and on no axis; a liquid's sloped top is on no axis either,
    # but faces nearest up (or down, its back).
    axis_aligned = (normal[:, 1] != 0) | (np.count_nonzero(np.abs(normal) > 1e-6, axis=1) == 1)
    direction = np.argmax(normal @ np.array(FACE_NORMALS, dtype=np.float64).T, axis=1)
    facing = np.array(FACE_NORMALS, dtype=np.float64)[direction]
    voxel = np.floor(np.where(axis_aligned[:, None], centres - 0.5 * facing, centres))
    return [
        (tuple(v), d if aligned else "plant")
        for v, d, aligned in zip(
            voxel.astype(int).tolist(), direction.tolist(), axis_aligned.tolist(), strict=True
        )
    ]


def directions(mesh: MeshData) -> list[int]:
    return sorted(key[1] for key in face_keys(mesh, (0, 0, 0)))


# -- face counts a player sees -------------------------------------------------------------------


def test_one_block_has_six_faces_one_per_direction():
    mesh = mesh_chunk(world_with((5, 6, 7, STONE)), 0, 0, 0)
    assert mesh.face_count == 6 and mesh.vertex_count == 24 and len(mesh.indices) == 36
    assert directions(mesh) == list(range(6))
    assert set(face_keys(mesh, (0, 0, 0))) == {((5, 6, 7), d) for d in range(6)}


@pytest.mark.parametrize("offset", FACE_NORMALS)
def test_two_touching_blocks_hide_the_faces_between_them(offset):
    dx, dy, dz = offset
    mesh = mesh_chunk(world_with((5, 5, 5, STONE), (5 + dx, 5 + dy, 5 + dz, DIRT)), 0, 0, 0)
    assert mesh.face_count == 10


def test_a_block_beside_glass_shows_its_face_through_the_glass():
    mesh = mesh_chunk(world_with((5, 5, 5, STONE), (6, 5, 5, GLASS)), 0, 0, 0)
    keys = set(face_keys(mesh, (0, 0, 0)))
    assert ((5, 5, 5), FACE_NORMALS.index((1, 0, 0))) in keys  # stone seen through glass
    assert ((6, 5, 5), FACE_NORMALS.index((-1, 0, 0))) not in keys  # glass against stone
    assert mesh.face_count == 11


@pytest.mark.parametrize(
    ("first", "second", "faces"),
    # Water's top and sides are drawn from inside it too: a column of two shows 8 sides and
    # its top twice, its bottom once; under glass, 4 sides and the top twice, the bottom, and
    # the glass's 5 faces.
    [(WATER, WATER, 19), (GLASS, GLASS, 10), (LEAVES, LEAVES, 10), (WATER, GLASS, 17)],
)
def test_faces_between_transparent_blocks(first, second, faces):
    mesh = mesh_chunk(world_with((5, 5, 5, first), (5, 6, 5, second)), 0, 0, 0)
    assert mesh.face_count == faces


@pytest.mark.parametrize(
    ("inside", "outside", "chunk", "neighbour"),
    [
        ((15, 3, 3), (16, 3, 3), (0, 0, 0), (1, 0, 0)),
        ((0, 3, 3), (-1, 3, 3), (0, 0, 0), (-1, 0, 0)),
        ((3, 0, 3), (3, -1, 3), (0, 0, 0), (0, -1, 0)),
        ((3, 3, 15), (3, 3, 16), (0, 0, 0), (0, 0, 1)),
        ((-17, -33, 4), (-17, -32, 4), (-2, -3, 0), (-2, -2, 0)),
    ],
)
def test_faces_between_blocks_in_neighbouring_chunks_are_culled(inside, outside, chunk, neighbour):
    world = world_with((*inside, STONE), (*outside, DIRT))
    assert mesh_chunk(world, *chunk).face_count == 5
    assert mesh_chunk(world, *neighbour).face_count == 5


def test_a_full_chunk_shows_only_its_outer_faces():
    world = World(REG)
    world.put_chunk((0, 1, 0), np.full(4096, STONE, dtype=np.uint16))
    mesh = mesh_chunk(world, 0, 1, 0)
    assert mesh.face_count == 6 * 16 * 16
    # At the bottom of the world its underside faces the void nobody can see from: not drawn.
    world.put_chunk((0, 0, 0), np.full(4096, STONE, dtype=np.uint16))
    world.put_chunk((0, 1, 0), None)
    assert mesh_chunk(world, 0, 0, 0).face_count == 5 * 16 * 16
    # Buried among full neighbours, nothing is visible.
    for key in itertools.product((-1, 0, 1), repeat=3):
        world.put_chunk(key, np.full(4096, STONE, dtype=np.uint16))
    assert mesh_chunk(world, 0, 0, 0).face_count == 0


def test_an_air_chunk_has_an_empty_mesh():
    mesh = mesh_chunk(world_with((20, 0, 0, STONE)), 0, 0, 0)
    assert mesh.face_count == mesh.vertex_count == 0
    assert mesh.vertices.dtype == np.float32 and mesh.indices.dtype == np.uint32


def test_tall_grass_is_two_crossed_double_sided_quads_on_a_visible_grass_top():
    mesh = mesh_chunk(world_with((4, 4, 4, GRASS), (4, 5, 4, TALL_GRASS)), 0, 0, 0)
    keys = face_keys(mesh, (0, 0, 0))
    assert keys.count(((4, 5, 4), "plant")) == 4
    assert ((4, 4, 4), FACE_NORMALS.index((0, 1, 0))) in keys  # the top under the plant
    vertices, normals, _ = quads(mesh)
    plant = normals[:, 0, 1] == 0
    plant &= np.count_nonzero(normals[:, 0], axis=1) == 2
    plant_normals = normals[plant][:, 0]
    assert np.allclose(np.linalg.norm(plant_normals, axis=1), 1.0)
    # Every plane is drawn facing both ways.
    assert np.allclose(plant_normals.sum(axis=0), 0.0)
    assert np.all((vertices[plant] >= [4, 5, 4]) & (vertices[plant] <= [5, 6, 5]))


def test_bad_chunk_coordinates_are_value_errors_naming_the_argument():
    with pytest.raises(ValueError, match="cy"):
        mesh_chunk(World(REG), 0, 1.5, 0)


# -- array layout the game relies on -------------------------------------------------------------


@pytest.fixture(scope="module")
def terrain_mesh() -> tuple[World, MeshData, tuple[int, int, int]]:
    world = World(REG, generator=TerrainGenerator(REG, 7))
    for cx in range(4):
        cy = surface_height(7, cx * 16 + 8, 8) // 16
        mesh = mesh_chunk(world, cx, cy, 0)
        if mesh.face_count:
            return world, mesh, (cx, cy, 0)
    raise AssertionError("no visible surface found")


def test_arrays_are_flat_typed_and_consistent(terrain_mesh):
    _, mesh, _ = terrain_mesh
    v = mesh.vertex_count
    assert mesh.vertices.dtype == np.float32 and mesh.vertices.shape == (3 * v,)
    assert mesh.uvs.dtype == np.float32 and mesh.uvs.shape == (2 * v,)
    assert mesh.normals.dtype == np.float32 and mesh.normals.shape == (3 * v,)
    assert mesh.shade.dtype == np.float32 and mesh.shade.shape == (v,)
    assert mesh.indices.dtype == np.uint32 and mesh.indices.shape == (6 * mesh.face_count,)
    assert v == 4 * mesh.face_count
    assert mesh.indices.max() < v
    assert np.all((mesh.vertices >= 0) & (mesh.vertices <= 16))  # chunk-local
    assert np.all((mesh.uvs >= 0) & (mesh.uvs <= 1))
    assert np.all((mesh.shade > 0) & (mesh.shade <= 1))
    colors = mesh.vertex_colors().reshape(-1, 4)
    assert colors.dtype == np.float32 and len(colors) == v
    assert np.array_equal(colors[:, 0], mesh.shade) and np.all(colors[:, 3] == 1)
    assert np.array_equal(colors[:, 0], colors[:, 2])
    with pytest.raises(dataclasses.FrozenInstanceError):
        mesh.shade = mesh.shade  # type: ignore[misc]


def test_each_quad_maps_its_whole_tile_without_mirroring(terrain_mesh):
    world, mesh, origin = terrain_mesh
    vertices, normals, _ = quads(mesh)
    uvs = mesh.uvs.reshape(-1, 4, 2)
    keys = face_keys(mesh, tuple(16 * c for c in origin))
    for quad_uvs, quad, normal, key in zip(uvs, vertices, normals[:, 0], keys, strict=True):
        voxel, direction = key
        block = world.get_block(*voxel)
        tile = REG.face_tiles[block, 0 if direction == "plant" else direction]
        u0, v0, u1, v1 = tile_uv_rects([tile])[0]
        assert np.all((quad_uvs[:, 0] >= u0) & (quad_uvs[:, 0] <= u1))
        assert np.all((quad_uvs[:, 1] >= v0) & (quad_uvs[:, 1] <= v1))
        # Across the quad u and v span (almost) the whole tile.
        assert np.ptp(quad_uvs[:, 0]) > 0.9 * (u1 - u0) and np.ptp(quad_uvs[:, 1]) > 0.9 * (v1 - v0)
        # Seen from the front, u runs to the viewer's right: the texture is not mirrored.
        du = quad[1] - quad[0] if quad_uvs[1, 0] > quad_uvs[0, 0] else quad[0] - quad[1]
        dv = quad[3] - quad[0] if quad_uvs[3, 1] > quad_uvs[0, 1] else quad[0] - quad[3]
        # In the world's right-handed frame, right × up points back at the viewer: the normal.
        assert np.dot(np.cross(du, dv), normal) > 0
        if direction != "plant" and normal[1] == 0:
            assert dv[1] > 0  # side textures stand upright: v grows with y


def test_triangles_face_outward_in_the_worlds_right_handed_frame(terrain_mesh):
    _, mesh, _ = terrain_mesh
    vertices = mesh.vertices.reshape(-1, 3).astype(np.float64)
    normals = mesh.normals.reshape(-1, 3).astype(np.float64)
    tri = mesh.indices.reshape(-1, 3)
    a, b, c = vertices[tri[:, 0]], vertices[tri[:, 1]], vertices[tri[:, 2]]
    cross = np.cross(b - a, c - a)
    # Counter-clockwise seen from outside in the world's right-handed frame (Minecraft's), where
    # the component formula of the cross product of such a triangle points at the viewer: along
    # the outward normal. The game draws the world mirrored in z into ursina's left-handed frame
    # (`game.scene.world_root`), where they run counter-clockwise on screen: GL's front.
    along = np.einsum("ij,ij->i", cross, normals[tri[:, 0]])
    assert np.allclose(np.abs(along), np.linalg.norm(cross, axis=1))
    assert np.all(along > 0)
    # Both triangles of a quad cover it: together they use all four of its corners.
    per_quad = mesh.indices.reshape(-1, 6) // 4
    assert np.all(per_quad == per_quad[:, :1])
    assert all(len(set(row)) == 4 for row in (mesh.indices.reshape(-1, 6) % 4).tolist())


def test_transparent_faces_come_after_opaque_ones():
    world = world_with((3, 3, 3, WATER), (8, 3, 3, STONE), (3, 9, 3, GLASS), (9, 9, 9, DIRT))
    keys = face_keys(mesh_chunk(world, 0, 0, 0), (0, 0, 0))
    transparent = [bool(REG.transparent[world.get_block(*key[0])]) for key in keys]
    assert transparent == sorted(transparent)


def test_each_face_of_a_cube_in_full_sky_light_is_as_bright_as_minecrafts_by_direction():
    # A sand block and a lit lamp (a light source) on their own under the open sky: the same
    # sky light 15 on the top and the sides, so only the face's direction tells them apart.
    from world.light.lighting import Light

    registry = default_registry()
    glow = registry.register(BlockType("test:glow", light=15, tiles=("base:lamp",)))
    world = World(registry)
    world.set_block(3, 3, 3, registry.id("base:sand"))
    world.set_block(9, 3, 9, glow)
    light = Light(world)
    for key in list(world.loaded_keys()):
        light.add_chunk(key)
    mesh = mesh_chunk(world, 0, 0, 0, light)
    sky = mesh.light.reshape(-1, 4, 2)[..., 0]
    down = FACE_NORMALS.index((0, -1, 0))
    assert (sky[[key[1] != down for key in face_keys(mesh, (0, 0, 0))]] == 15).all()
    shade = mesh.shade.reshape(-1, 4)
    by_face: dict[tuple, list[float]] = {}
    for key, quad_shade in zip(face_keys(mesh, (0, 0, 0)), shade.tolist(), strict=True):
        by_face[key] = quad_shade
    minecraft = {(0, 1, 0): 1.0, (0, -1, 0): 0.5, (0, 0, 1): 0.8, (0, 0, -1): 0.8}
    minecraft |= {(1, 0, 0): 0.6, (-1, 0, 0): 0.6}
    for voxel in ((3, 3, 3), (9, 3, 9)):
        for direction, normal in enumerate(FACE_NORMALS):
            assert by_face[voxel, direction] == pytest.approx([minecraft[normal]] * 4)


def test_a_light_source_has_no_ambient_occlusion_but_its_sides_are_shaded():
    registry = default_registry()
    glow = registry.register(BlockType("test:glow", light=15, tiles=("base:lamp",)))
    world = World(registry)
    # The lamp on a floor beside stone: the stone's sides have darkened corners, not the lamp's.
    world.set_blocks([(x, 2, z) for x in range(2, 6) for z in range(2, 6)], [STONE] * 16)
    world.set_block(3, 3, 3, glow)
    world.set_block(4, 3, 3, STONE)
    mesh = mesh_chunk(world, 0, 0, 0)
    shade = mesh.shade.reshape(-1, 4)
    keys = face_keys(mesh, (0, 0, 0))
    for key, quad_shade in zip(keys, shade, strict=True):
        if key[0] == (3, 3, 3):
            assert np.all(quad_shade == FACE_SHADE[key[1]])
    north = FACE_NORMALS.index((0, 0, -1))  # over the floor: its lower corners occluded
    assert np.sum(shade[keys.index(((4, 3, 3), north))] < FACE_SHADE[north]) == 2  # stone's


def test_a_plant_is_as_bright_as_the_open_ground_it_stands_on():
    # Minecraft's crossed quads are not shaded by direction: tall grass is not darker than the
    # top of the grass block under it (nor than its own sides' 0.6 / 0.8).
    floor = [(x, 2, z, GRASS) for x in range(2, 9) for z in range(2, 9)]
    mesh = mesh_chunk(world_with(*floor, (5, 3, 5, TALL_GRASS)), 0, 0, 0)
    keys = face_keys(mesh, (0, 0, 0))
    shade = mesh.shade.reshape(-1, 4)
    plant = shade[[key[1] == "plant" for key in keys]]
    ground = shade[keys.index(((2, 2, 2), FACE_NORMALS.index((0, 1, 0))))]
    assert len(plant) == 4 and (plant == 1.0).all() and (ground == 1.0).all()


def test_corners_against_walls_are_darker():
    # A floor with one wall block on it: the floor corners touching the wall are occluded.
    blocks = [(x, 2, z, STONE) for x in range(2, 7) for z in range(2, 7)] + [(4, 3, 4, STONE)]
    mesh = mesh_chunk(world_with(*blocks), 0, 0, 0)
    up = FACE_NORMALS.index((0, 1, 0))
    shade = mesh.shade.reshape(-1, 4)
    keys = face_keys(mesh, (0, 0, 0))
    beside = shade[keys.index(((3, 2, 4), up))]
    far = shade[keys.index(((2, 2, 2), up))]
    assert np.all(far == FACE_SHADE[up])
    assert np.sum(beside < FACE_SHADE[up]) == 2


# -- against a brute-force reference -----------------------------------------------------------


def reference(world: World, chunk: tuple[int, int, int]) -> list[tuple[object, dict[tuple, float]]]:
    """Every face a per-voxel loop says should be drawn, with the shade of each of its corners:
    keyed by its direction, a plant's by (voxel, "plant").

    Water's top and sides stand at its corners' heights (`test_liquids.reference_corner`) and
    are listed twice: facing out, and reversed (facing into the water, the same corners)."""
    ox, oy, oz = (16 * c for c in chunk)
    box = np.stack(
        np.meshgrid(*[np.arange(o - 1, o + 17) for o in (ox, oy, oz)], indexing="ij"), -1
    )
    padded = world.get_blocks(box.reshape(-1, 3)).reshape(18, 18, 18).tolist()
    transparent = REG.transparent.tolist()
    lights = REG.light.tolist()

    def block_at(p: tuple[int, ...]) -> int:
        return padded[p[0] - ox + 1][p[1] - oy + 1][p[2] - oz + 1]

    def occludes(p: tuple[int, ...]) -> int:
        return int(not transparent[block_at(p)])

    faces: list[tuple[object, dict[tuple, float]]] = []
    for voxel in itertools.product(range(ox, ox + 16), range(oy, oy + 16), range(oz, oz + 16)):
        block = block_at(voxel)
        if block == AIR:
            continue
        if block in PLANTS:
            faces.extend([((voxel, "plant"), {})] * 4)
            continue
        for direction, normal in enumerate(FACE_NORMALS):
            if normal == (0, -1, 0) and voxel[1] == world.build_height[0]:
                continue  # the world's underside is never drawn
            front = tuple(v + n for v, n in zip(voxel, normal, strict=True))
            neighbour = block_at(front)
            if not transparent[neighbour] or neighbour == block:
                continue
            axis = [abs(n) for n in normal].index(1)
            i, j = (k for k in range(3) if k != axis)
            corners = {}
            for di, dj in itertools.product((0, 1), repeat=2):
                vertex = list(voxel)
                vertex[axis] += normal[axis] > 0
                vertex[i] += di
                vertex[j] += dj
                # The three voxels beside the corner in the layer in front of the face.
                step_i = [0, 0, 0]
                step_i[i] = 1 if di else -1
                step_j = [0, 0, 0]
                step_j[j] = 1 if dj else -1
                side_i = tuple(f + s for f, s in zip(front, step_i, strict=True))
                side_j = tuple(f + s for f, s in zip(front, step_j, strict=True))
                diagonal = tuple(f + s for f, s in zip(side_i, step_j, strict=True))
                s1, s2, d = occludes(side_i), occludes(side_j), occludes(diagonal)
                level = 0 if s1 and s2 else 3 - s1 - s2 - d
                shade = FACE_SHADE[direction] * AO_LEVELS[3 if lights[block] else level]
                corners[tuple(vertex)] = shade
            if block == WATER and normal != (0, -1, 0):
                corners = {
                    (
                        x,
                        oy
                        + _liquid_y(
                            y - oy, reference_corner(world, voxel, x - voxel[0], z - voxel[2])
                        ),
                        z,
                    )
                    if y > voxel[1]
                    else (x, y, z): shade
                    for (x, y, z), shade in corners.items()
                }
                faces.append((direction ^ 1, corners))  # its back, seen from inside
            faces.append((direction, corners))
    return faces


def _liquid_y(top: int, height: Fraction) -> float:
    """A liquid vertex's chunk-local height below a cube corner at ``top``, in the float32 steps
    the mesher takes (so the two compare exactly)."""
    return float(np.float32(top) - np.float32(1.0 - float(height)))


BLOCKS = st.sampled_from([STONE, DIRT, GRASS, GLASS, WATER, LEAVES, TALL_GRASS, LAMP])


@st.composite
def small_worlds(draw: st.DrawFn) -> tuple[World, tuple[int, int, int]]:
    """A chunk and its one-voxel border: a random fill plus a few placed blocks."""
    chunk = draw(st.sampled_from([(0, 0, 0), (-1, 2, -3)]))
    origin = np.array(chunk) * 16
    world = World(REG)
    density = draw(st.sampled_from([0.0, 0.05, 0.25, 0.85]))
    if density:
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        palette = np.array([STONE, GLASS, WATER, LEAVES, TALL_GRASS, LAMP])
        box = np.stack(np.meshgrid(*[np.arange(o - 1, o + 17) for o in origin], indexing="ij"), -1)
        box = box.reshape(-1, 3)
        keep = rng.random(len(box)) < density
        world.set_blocks(box[keep], rng.choice(palette, keep.sum()))
    placed = draw(
        st.lists(
            st.tuples(st.integers(-1, 16), st.integers(-1, 16), st.integers(-1, 16), BLOCKS),
            max_size=30,
        )
    )
    for lx, ly, lz, block in placed:
        world.set_block(int(origin[0]) + lx, int(origin[1]) + ly, int(origin[2]) + lz, block)
    return world, chunk


def _rounded(corners: Iterable[tuple[Sequence[float], float]]) -> tuple:
    """A quad's corners and shades as a sorted tuple, rounded to compare floats."""
    return tuple(sorted((tuple(round(c, 5) for c in v), round(s, 5)) for v, s in corners))


@given(small_worlds())
@settings(max_examples=20, deadline=None)
def test_faces_and_shading_equal_a_brute_force_reference(case):
    world, chunk = case
    mesh = mesh_chunk(world, *chunk)
    origin = tuple(16 * c for c in chunk)
    expected = Counter(
        (key, () if isinstance(key, tuple) else _rounded(corners.items()))
        for key, corners in reference(world, chunk)
    )
    keys = face_keys(mesh, origin)
    vertices = mesh.vertices.reshape(-1, 4, 3).astype(np.float64) + np.array(origin)
    shades = mesh.shade.reshape(-1, 4).tolist()
    normals = mesh.normals.reshape(-1, 4, 3)[:, 0].astype(np.float64)
    direction = np.argmax(normals @ np.array(FACE_NORMALS, dtype=np.float64).T, axis=1)
    got: Counter[tuple] = Counter()
    for key, d, quad, shade in zip(keys, direction.tolist(), vertices, shades, strict=True):
        if key[1] == "plant":
            assert np.allclose(shade, PLANT_SHADE)
            got[(key, ())] += 1
        else:
            got[(d, _rounded(zip(quad.tolist(), shade, strict=True)))] += 1
    assert got == expected


def test_terrain_meshes_read_their_neighbours_and_cover_the_flat_world_top_once():
    world = World(REG, generator=FlatGenerator(REG))
    mesh = mesh_chunk(world, 0, 0, 0)
    up, down = FACE_NORMALS.index((0, 1, 0)), FACE_NORMALS.index((0, -1, 0))
    # Only the grass top is visible: the sides touch the neighbouring chunks' ground, and the
    # bedrock's underside faces the void below the build height.
    assert down not in directions(mesh)
    assert directions(mesh) == [up] * 256


def test_tile_fields_rebuild_the_atlas_uvs() -> None:
    world = world_with((0, 0, 0, STONE), (1, 0, 0, GRASS), (2, 1, 0, TALL_GRASS), (3, 0, 0, WATER))
    mesh = mesh_chunk(world, 0, 0, 0)
    grid = np.array([16, 16], np.float32)
    origin = mesh.tile_origin.reshape(-1, 2)
    local = mesh.tile_uvs.reshape(-1, 2)
    inset = UV_INSET_PX / 16
    assert np.allclose(origin + (inset + local * (1 - 2 * inset)) / grid, mesh.uvs.reshape(-1, 2))
    assert ((local >= 0) & (local <= 1)).all()  # one-block quads stay inside their tile
    assert np.allclose(origin * grid, np.round(origin * grid))  # on the atlas grid


def test_light_reaches_the_vertices() -> None:
    from world.light.lighting import Light

    world = World(REG)
    world.set_blocks(
        [(x, 0, z) for x in range(16) for z in range(16)], [STONE] * 256
    )  # a floor under open sky
    light = Light(world)
    for key in list(world.loaded_keys()):
        light.add_chunk(key)
    daylight = mesh_chunk(world, 0, 0, 0)
    assert (daylight.light.reshape(-1, 2) == (15, 0)).all()
    lit = mesh_chunk(world, 0, 0, 0, light)
    vertices = lit.vertices.reshape(-1, 4, 3)
    values = lit.light.reshape(-1, 4, 2)
    top = vertices[:, :, 1].min(axis=1) == 1  # the floor's top faces, under the sky
    inner = ((vertices[..., 0] > 0) & (vertices[..., 0] < 16)).all(axis=1)
    inner &= ((vertices[..., 2] > 0) & (vertices[..., 2] < 16)).all(axis=1)
    assert (values[top & inner] == (15, 0)).all()  # (the chunks beyond the edge hold no light)


LIT_REG = default_registry()
GLOW = LIT_REG.register(BlockType("test:glow", light=15, tiles=("base:lamp",)))
CUBES = [0, 0, 0, LIT_REG.id("base:stone"), LIT_REG.id("base:glass"), GLOW]


def smooth_reference(world: World, light, face_voxel, normal, vertex) -> tuple[float, float]:
    """Minecraft's smooth light of one cube-face vertex, voxel by voxel."""
    n = np.array(normal)
    axes = [a for a in range(3) if n[a] == 0]
    front = np.array(face_voxel) + n
    picks = []
    for du in (0, 1):
        for dv in (0, 1):
            voxel = front.copy()
            voxel[axes[0]] = vertex[axes[0]] - 1 + du
            voxel[axes[1]] = vertex[axes[1]] - 1 + dv
            picks.append(tuple(int(c) for c in voxel))
    front_t = tuple(int(c) for c in front)
    opaque = {p: not world.registry.transparent[world.get_block(*p)] for p in picks if p != front_t}
    sides = [
        p
        for p in picks
        if p != front_t and sum(a != b for a, b in zip(p, front_t, strict=True)) == 1
    ]
    diagonal = [p for p in picks if p != front_t and p not in sides]
    counted = [front_t] + [p for p in sides if not opaque[p]]
    if diagonal and not opaque[diagonal[0]] and not all(opaque[p] for p in sides):
        counted.append(diagonal[0])
    levels = np.array([light.at(*p) for p in counted], dtype=float)
    return tuple(levels.mean(axis=0))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(CUBES), min_size=125, max_size=125))
def test_smooth_light_matches_a_per_vertex_reference(cells: list[int]) -> None:
    from world.light.lighting import Light

    world = World(LIT_REG)
    positions = [(4 + i // 25, 4 + (i // 5) % 5, 4 + i % 5) for i in range(125)]
    world.set_blocks(
        [(x, 0, z) for x in range(16) for z in range(16)], [LIT_REG.id("base:stone")] * 256
    )
    world.set_blocks(positions, cells)
    light = Light(world)
    light.add_chunk((0, 0, 0))
    mesh = mesh_chunk(world, 0, 0, 0, light)
    vertices = mesh.vertices.reshape(-1, 4, 3)
    normals = np.rint(mesh.normals.reshape(-1, 4, 3)[:, 0]).astype(int)
    values = mesh.light.reshape(-1, 4, 2)
    centres = vertices.mean(axis=1)
    for q in range(len(vertices)):
        if not ((vertices[q] > 1).all() and (vertices[q] < 15).all()):
            continue  # beside the chunk's edge (unlit neighbours)
        face_voxel = np.floor(centres[q] - 0.5 * normals[q]).astype(int)
        for k in range(4):
            expected = smooth_reference(world, light, face_voxel, normals[q], vertices[q, k])
            assert tuple(values[q, k]) == pytest.approx(expected), (q, k)


@pytest.mark.parametrize(
    ("normal", "up", "right"),
    [
        ((0, 1, 0), (0, 0, -1), (1, 0, 0)),  # the top: its texture's up is north
        ((0, -1, 0), (0, 0, 1), (1, 0, 0)),  # the bottom: south
        ((0, 0, -1), (0, 1, 0), (-1, 0, 0)),  # the north side, seen from the north: east left
        ((1, 0, 0), (0, 1, 0), (0, 0, -1)),  # the east side, seen from the east: north right
    ],
)
def test_textures_lie_on_faces_as_minecrafts_block_models_map_them(
    normal: tuple[int, int, int], up: tuple[int, int, int], right: tuple[int, int, int]
) -> None:
    """Minecraft's default face uvs: a side upright, read the right way round from outside; the
    top with the texture's upper edge to the north, the bottom with it to the south."""
    mesh = mesh_chunk(world_with((5, 5, 5, STONE)), 0, 0, 0)
    vertices, normals, _ = quads(mesh)
    uvs = mesh.uvs.reshape(-1, 4, 2).astype(np.float64)
    [index] = [i for i, n in enumerate(normals[:, 0]) if tuple(np.rint(n).astype(int)) == normal]
    quad, uv = vertices[index].astype(np.float64), uvs[index]
    # The quad's positions as a linear function of (u, v): its gradient along u and along v.
    design = np.column_stack([uv, np.ones(4)])
    gradient = np.linalg.lstsq(design, quad, rcond=None)[0]
    along_u, along_v = gradient[0], gradient[1]
    assert np.dot(along_u, right) > 0 and np.allclose(np.cross(along_u, right), 0, atol=1e-3)
    assert np.dot(along_v, up) > 0 and np.allclose(np.cross(along_v, up), 0, atol=1e-3)
