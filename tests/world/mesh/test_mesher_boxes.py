"""Meshing shaped blocks: slabs, stairs, fences and torches drawn as their boxes, culled exactly."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.mesh.test_liquids import reference_corner
from tests.world.mesh.test_mesher import _liquid_y
from world import World
from world.base import default_registry
from world.blocks.atlas import tile_uv_rects
from world.blocks.block_type import DRAW_BOXES, DRAW_CUBE, DRAW_LIQUID
from world.blocks.shapes import FULL
from world.geometry import FACE_NORMALS
from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk
from world.mesh.shapes import FACE_SHADE, UV_INSET_PX

REG = default_registry()
STONE = REG.id("base:stone")
GLASS = REG.id("base:glass")
WATER = REG.id("base:water")
BOTTOM_SLAB = REG.state_id("base:stone_slab", half="bottom")
TOP_SLAB = REG.state_id("base:stone_slab", half="top")
DOUBLE_SLAB = REG.state_id("base:stone_slab", half="double")
STAIRS = REG.state_id("base:stone_stairs", facing="north", half="bottom")
TORCH = REG.state_id("base:torch", facing="up")
UP, DOWN = FACE_NORMALS.index((0, 1, 0)), FACE_NORMALS.index((0, -1, 0))
EAST, WEST = FACE_NORMALS.index((1, 0, 0)), FACE_NORMALS.index((-1, 0, 0))
SOUTH, NORTH = FACE_NORMALS.index((0, 0, 1)), FACE_NORMALS.index((0, 0, -1))


def world_with(*blocks: tuple[int, int, int, int]) -> World:
    world = World(REG)
    for wx, wy, wz, block in blocks:
        world.set_block(wx, wy, wz, block)
    return world


def drawn_faces(mesh: MeshData, origin: tuple[int, int, int] = (0, 0, 0)) -> Counter[tuple]:
    """Each quad as (face direction, its rectangle's min and max corner in world units)."""
    vertices = mesh.vertices.reshape(-1, 4, 3).astype(np.float64) + np.array(origin)
    normals = mesh.normals.reshape(-1, 4, 3)[:, 0].astype(np.float64)
    direction = np.argmax(normals @ np.array(FACE_NORMALS, dtype=np.float64).T, axis=1)
    low, high = vertices.min(axis=1).round(6), vertices.max(axis=1).round(6)
    return Counter(
        (int(d), tuple(lo), tuple(hi))
        for d, lo, hi in zip(direction.tolist(), low.tolist(), high.tolist(), strict=True)
    )


def face_at(direction: int, low: tuple[float, ...], high: tuple[float, ...]) -> tuple:
    return (direction, tuple(float(v) for v in low), tuple(float(v) for v in high))


def quads_facing(mesh: MeshData, direction: int) -> list[np.ndarray]:
    vertices = mesh.vertices.reshape(-1, 4, 3)
    normals = mesh.normals.reshape(-1, 4, 3)[:, 0]
    return [
        q for q, n in zip(vertices, normals, strict=True) if tuple(n) == FACE_NORMALS[direction]
    ]


# -- explicit cases ------------------------------------------------------------------------------


def test_a_slab_beside_stone_leaves_the_stones_whole_side_face_drawn():
    mesh = mesh_chunk(world_with((5, 5, 5, BOTTOM_SLAB), (6, 5, 5, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert faces[face_at(WEST, (6, 5, 5), (6, 6, 6))] == 1  # the stone's whole west face
    # The slab's own east face lies against the stone's full face: hidden.
    assert not any(d == EAST and lo[0] == 6 for d, lo, _ in faces)


def test_stone_above_a_bottom_slab_hides_nothing_of_the_slab_top_at_half_height():
    mesh = mesh_chunk(world_with((5, 5, 5, BOTTOM_SLAB), (5, 6, 5, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert faces[face_at(UP, (5, 5.5, 5), (6, 5.5, 6))] == 1
    assert faces[face_at(DOWN, (5, 6, 5), (6, 6, 6))] == 1  # the stone's bottom is seen too


def test_a_bottom_slab_hides_the_top_face_of_the_stone_under_it():
    mesh = mesh_chunk(world_with((5, 5, 5, BOTTOM_SLAB), (5, 4, 5, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert not any(d == UP and lo[1] == 5 for d, lo, _ in faces)
    assert not any(d == DOWN and lo[1] == 5 for d, lo, _ in faces)  # the slab's bottom too
    assert sum(faces.values()) == 5 + 5


def test_a_top_slab_does_not_hide_the_stone_under_it():
    mesh = mesh_chunk(world_with((5, 5, 5, TOP_SLAB), (5, 4, 5, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert faces[face_at(UP, (5, 5, 5), (6, 5, 6))] == 1
    assert faces[face_at(DOWN, (5, 5.5, 5), (6, 5.5, 6))] == 1


def test_a_double_slab_is_culled_as_a_cube():
    mesh = mesh_chunk(world_with((5, 5, 5, DOUBLE_SLAB), (6, 5, 5, STONE)), 0, 0, 0)
    assert mesh.face_count == 10


def test_the_back_of_stairs_covers_the_whole_side_with_its_two_boxes():
    # North-facing stairs: the step's two boxes together fill the high (north, -z) side.
    mesh = mesh_chunk(world_with((5, 5, 5, STAIRS), (5, 5, 4, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert not any(d == SOUTH and lo[2] == 5 for d, lo, _ in faces)  # the stone's face: hidden
    assert not any(d == NORTH and lo[2] == 5 for d, lo, _ in faces)  # and the stairs' back
    # The other way round the stairs show two faces of the step, and the stone its whole face.
    mesh = mesh_chunk(world_with((5, 5, 5, STAIRS), (5, 5, 6, STONE)), 0, 0, 0)
    faces = drawn_faces(mesh)
    assert faces[face_at(NORTH, (5, 5, 6), (6, 6, 6))] == 1


def test_a_slab_side_shows_the_lower_half_of_its_tile():
    mesh = mesh_chunk(world_with((5, 5, 5, BOTTOM_SLAB)), 0, 0, 0)
    u0, v0, u1, v1 = tile_uv_rects([REG.face_tiles[BOTTOM_SLAB, EAST]], UV_INSET_PX)[0].tolist()
    quads = mesh.vertices.reshape(-1, 4, 3)
    uvs = mesh.uvs.reshape(-1, 4, 2)
    normals = mesh.normals.reshape(-1, 4, 3)[:, 0]
    sides = [i for i, n in enumerate(normals.tolist()) if n[1] == 0]
    assert len(sides) == 4
    for i in sides:
        assert np.allclose(sorted(set(uvs[i, :, 0].round(6))), [u0, u1], atol=1e-6)
        assert np.allclose(sorted(set(uvs[i, :, 1].round(6))), [v0, (v0 + v1) / 2], atol=1e-6)
        # Upright: the corners at the slab's bottom take the tile's bottom edge.
        bottom = quads[i, :, 1] == 5
        assert np.allclose(uvs[i, bottom, 1], v0) and np.allclose(uvs[i, ~bottom, 1], (v0 + v1) / 2)
    top = next(i for i, n in enumerate(normals.tolist()) if n[1] == 1)
    assert np.allclose(np.ptp(uvs[top], axis=0), [u1 - u0, v1 - v0])


def test_box_faces_are_shaded_by_direction_a_torch_too():
    mesh = mesh_chunk(world_with((5, 5, 5, BOTTOM_SLAB), (8, 5, 5, TORCH)), 0, 0, 0)
    shade = mesh.shade.reshape(-1, 4)
    normals = mesh.normals.reshape(-1, 4, 3)[:, 0]
    for normal, corners in zip(normals.tolist(), shade, strict=True):
        direction = FACE_NORMALS.index(tuple(int(v) for v in normal))
        assert np.allclose(corners, FACE_SHADE[direction])
    assert {round(float(s), 3) for s in shade[:, 0]} == {0.5, 0.6, 0.8, 1.0}
    assert mesh.face_count == 6 + 6


def test_faces_against_the_blocks_own_boxes_are_not_drawn():
    # The step's underside lies on the slab part's top; the slab part's top is half visible.
    faces = drawn_faces(mesh_chunk(world_with((5, 5, 5, STAIRS)), 0, 0, 0))
    assert not any(d == DOWN and lo[1] == 5.5 for d, lo, _ in faces)
    assert faces[face_at(UP, (5, 5.5, 5), (6, 5.5, 6))] == 1
    assert sum(faces.values()) == 11


def test_box_faces_face_outward_with_the_cube_faces_winding():
    blocks = [(5, 5, 5, STAIRS), (7, 5, 5, TORCH), (9, 5, 5, TOP_SLAB), (9, 6, 5, GLASS)]
    mesh = mesh_chunk(world_with(*blocks), 0, 0, 0)
    vertices = mesh.vertices.reshape(-1, 3).astype(np.float64)
    normals = mesh.normals.reshape(-1, 3).astype(np.float64)
    tri = mesh.indices.reshape(-1, 3)
    cross = np.cross(
        vertices[tri[:, 1]] - vertices[tri[:, 0]], vertices[tri[:, 2]] - vertices[tri[:, 0]]
    )
    # Right-handed (Minecraft's frame): counter-clockwise from outside, along the normal.
    assert np.all(np.einsum("ij,ij->i", cross, normals[tri[:, 0]]) > 0)


def test_the_water_surface_is_also_drawn_facing_down():
    mesh = mesh_chunk(world_with((5, 5, 5, WATER)), 0, 0, 0)
    faces = drawn_faces(mesh)
    top = round(_liquid_y(6, Fraction(20, 27)), 6)  # a lone source's corners (`test_liquids`)
    assert faces[face_at(UP, (5, top, 5), (6, top, 6))] == 1
    assert faces[face_at(DOWN, (5, top, 5), (6, top, 6))] == 1  # the surface seen from below
    assert faces[face_at(DOWN, (5, 5, 5), (6, 5, 6))] == 1  # the water's own bottom
    below = [q for q in quads_facing(mesh, DOWN) if q[0, 1] > 5]
    # Counter-clockwise seen from below in the right-handed frame: the formula cross product
    # points down, at the viewer under the surface.
    q = below[0].astype(np.float64)
    assert np.cross(q[1] - q[0], q[2] - q[0])[1] < 0


def test_water_under_stone_has_no_surface_only_the_stones_underside():
    faces = drawn_faces(mesh_chunk(world_with((5, 5, 5, WATER), (5, 6, 5, STONE)), 0, 0, 0))
    assert faces[face_at(UP, (5, 6, 5), (6, 6, 6))] == 0
    assert faces[face_at(DOWN, (5, 6, 5), (6, 6, 6))] == 1


# -- against a brute-force reference -------------------------------------------------------------

STEP = 1 / 64  # sample spacing: finer than every base shape's 1/32 grid


def boxes_of(state: int) -> tuple:
    draw = int(REG.draw[state])
    if draw in (DRAW_CUBE, DRAW_LIQUID):
        return FULL
    if draw == DRAW_BOXES:
        return REG.selection_boxes[state] or FULL
    return ()


def covered(rect: tuple[float, ...], union: list[tuple[float, ...]]) -> bool:
    """Whether every sample point of ``rect`` lies inside one of ``union``."""
    a0, b0, a1, b1 = rect
    a = np.arange(a0 + STEP / 2, a1, STEP)
    b = np.arange(b0 + STEP / 2, b1, STEP)
    pa, pb = np.meshgrid(a, b, indexing="ij")
    inside = np.zeros(pa.shape, dtype=bool)
    for r in union:
        inside |= (r[0] < pa) & (pa < r[2]) & (r[1] < pb) & (pb < r[3])
    return bool(inside.all())


def reference(world: World, chunk: tuple[int, int, int]) -> Counter[tuple]:
    """The faces a per-voxel, per-box loop says are drawn (no plants in these worlds)."""
    origin = np.array(chunk) * 16
    faces: Counter[tuple] = Counter()
    for local in itertools.product(range(16), repeat=3):
        voxel = origin + np.array(local)
        state = world.get_block(*voxel)
        for box in boxes_of(state):
            lo, hi = np.array(box[:3]), np.array(box[3:])
            for direction, normal in enumerate(FACE_NORMALS):
                axis = [abs(n) for n in normal].index(1)
                i, j = (k for k in range(3) if k != axis)
                positive = normal[axis] > 0
                plane = hi[axis] if positive else lo[axis]
                face_lo, face_hi = lo.copy(), hi.copy()
                face_lo[axis] = face_hi[axis] = plane
                own = [
                    (b[i], b[j], b[3 + i], b[3 + j])
                    for b in boxes_of(state)
                    if b != box and (b[axis] if positive else b[3 + axis]) == plane
                ]
                drawn = not (own and covered((lo[i], lo[j], hi[i], hi[j]), own))
                if plane == (1.0 if positive else 0.0):
                    neighbour = world.get_block(*(voxel + np.array(normal)))
                    union = [
                        (b[i], b[j], b[3 + i], b[3 + j])
                        for b in boxes_of(neighbour)
                        if (b[axis] if positive else b[3 + axis]) == 1.0 - plane
                    ]
                    same = REG.block_of(neighbour) is REG.block_of(state)
                    hides = not REG.transparent[neighbour] or same
                    drawn = not (hides and covered((lo[i], lo[j], hi[i], hi[j]), union))
                if not drawn:
                    continue
                low, high = (voxel + face_lo).astype(float), (voxel + face_hi).astype(float)
                liquid = REG.draw[state] == DRAW_LIQUID and direction != DOWN
                if liquid:  # its top edge at its corners' heights (`test_liquids`)
                    ends = [
                        (dx, dz)
                        for dx in (0, 1)
                        for dz in (0, 1)
                        if face_lo[0] <= dx <= face_hi[0] and face_lo[2] <= dz <= face_hi[2]
                    ]
                    floor = 16 * chunk[1]  # the mesher's heights are chunk-local
                    ys = [
                        floor
                        + _liquid_y(
                            voxel[1] - floor + 1,
                            reference_corner(world, tuple(voxel.tolist()), *end),
                        )
                        for end in ends
                    ]
                    high[1] = max(ys)
                    if direction == UP:
                        low[1] = min(ys)
                rect = (tuple(low.round(6).tolist()), tuple(high.round(6).tolist()))
                faces[(direction, *rect)] += 1
                if liquid:
                    faces[(direction ^ 1, *rect)] += 1  # seen from inside the water
    return faces


SHAPED = [
    s
    for name in ("base:stone_slab", "base:stone_stairs", "base:torch", "base:fence", "base:door")
    for s in range(len(REG))
    if REG.block_of(s).name == name
]
PALETTE = [STONE, GLASS, WATER, *SHAPED]


@st.composite
def shaped_worlds(draw: st.DrawFn) -> tuple[World, tuple[int, int, int]]:
    """A chunk's corner region and its border: random stone, glass, water and shaped states."""
    chunk = draw(st.sampled_from([(0, 1, 0), (-1, 2, -1)]))
    origin = np.array(chunk) * 16
    world = World(REG)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.2, 0.5, 0.9]))
    corner = draw(st.sampled_from([(-1, -1, -1), (12, 12, 12)]))
    box = np.stack(
        np.meshgrid(
            *[np.arange(o + c, o + c + 5) for o, c in zip(origin, corner, strict=True)],
            indexing="ij",
        ),
        -1,
    ).reshape(-1, 3)
    keep = rng.random(len(box)) < density
    world.set_blocks(box[keep], rng.choice(PALETTE, keep.sum()))
    return world, chunk


@given(shaped_worlds())
@settings(max_examples=40, deadline=None)
def test_drawn_faces_equal_a_brute_force_coverage_reference(case):
    world, chunk = case
    mesh = mesh_chunk(world, *chunk)
    assert drawn_faces(mesh, tuple(int(v) * 16 for v in chunk)) == reference(world, chunk)
