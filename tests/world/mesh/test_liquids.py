"""A liquid's surface (`world.mesh.liquids`): its corners' heights, Minecraft's, and the quads
the mesher moves to them."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.blocks.atlas import tile_cells
from world.blocks.block_type import DRAW_LIQUID
from world.geometry import FACE_NORMALS
from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk

REG = default_registry()
AIR = 0
STONE = REG.id("base:stone")
WATER = REG.id("base:water")
LAVA = REG.id("base:lava")
UP, DOWN = FACE_NORMALS.index((0, 1, 0)), FACE_NORMALS.index((0, -1, 0))


def liquid(block: int, level: int = 8, falling: bool = False) -> int:
    return REG.with_props(block, level=level, falling=falling)


def world_with(*blocks: tuple[int, int, int, int]) -> World:
    world = World(REG)
    for wx, wy, wz, block in blocks:
        world.set_block(wx, wy, wz, block)
    return world


def basin(*water: tuple[int, int, int, int]) -> World:
    """A stone floor at y 4 (x, z 2..9) with liquids on it, air around and above."""
    world = World(REG)
    world.set_blocks([(x, 4, z) for x in range(2, 10) for z in range(2, 10)], [STONE] * 64)
    for wx, wy, wz, block in water:
        world.set_block(wx, wy, wz, block)
    return world


# -- the reference: Minecraft's LiquidBlockRenderer, voxel by voxel ------------------------------


def _height(world: World, fluid: int, pos: tuple[int, int, int]) -> Fraction | None:
    """``getHeight`` of the voxel at ``pos`` as seen from the liquid block ``fluid`` (None for a
    solid voxel: not counted)."""
    state = world.get_block(*pos)
    if REG.draw[state] == DRAW_LIQUID and int(REG.block_index[state]) == fluid:
        above = world.get_block(pos[0], pos[1] + 1, pos[2])
        if REG.draw[above] == DRAW_LIQUID and int(REG.block_index[above]) == fluid:
            return Fraction(1)
        if REG.liquids.kind[state] < 0:
            return Fraction(1)
        amount = 8 if REG.liquids.falling[state] else int(REG.liquids.level[state])
        return Fraction(amount, 9)
    return None if REG.solid[state] else Fraction(0)


def reference_corner(world: World, voxel: tuple[int, int, int], dx: int, dz: int) -> Fraction:
    """The height of a liquid voxel's top corner (dx, dz), Minecraft's
    ``calculateAverageHeight``, from its definition."""
    fluid = int(REG.block_index[world.get_block(*voxel)])
    x, y, z = voxel
    own = _height(world, fluid, voxel)
    assert own is not None
    if own == 1:
        return own
    side_x = _height(world, fluid, (x + 2 * dx - 1, y, z))
    side_z = _height(world, fluid, (x, y, z + 2 * dz - 1))
    if side_x == 1 or side_z == 1:
        return Fraction(1)
    heights = [own, side_x, side_z]
    if (side_x or 0) > 0 or (side_z or 0) > 0:
        diagonal = _height(world, fluid, (x + 2 * dx - 1, y, z + 2 * dz - 1))
        if diagonal == 1:
            return Fraction(1)
        heights.append(diagonal)
    counted = [h for h in heights if h is not None]
    weights = [10 if h >= Fraction(4, 5) else 1 for h in counted]
    return sum((w * h for w, h in zip(weights, counted, strict=True)), Fraction(0)) / sum(weights)


# -- reading a mesh's liquid quads ---------------------------------------------------------------


def liquid_quads(mesh: MeshData) -> tuple[np.ndarray, np.ndarray]:
    """The quads drawn with a liquid's tile: vertices (Q, 4, 3) and each one's direction (the
    face normal nearest its normal)."""
    tiles = {int(t) for t in REG.face_tiles[REG.liquid].reshape(-1)}
    cell = tile_cells(mesh.tile_origin.reshape(-1, 4, 2)[:, 0])
    keep = np.isin(cell, list(tiles))
    normals = mesh.normals.reshape(-1, 4, 3)[keep, 0].astype(np.float64)
    direction = np.argmax(normals @ np.array(FACE_NORMALS, dtype=np.float64).T, axis=1)
    return mesh.vertices.reshape(-1, 4, 3)[keep].astype(np.float64), direction


def tops(mesh: MeshData) -> dict[tuple[int, int, int], dict[tuple[int, int], float]]:
    """Each liquid top facing up: its voxel, and the height of each corner (dx, dz) above the
    voxel's floor."""
    quads, direction = liquid_quads(mesh)
    found: dict[tuple[int, int, int], dict[tuple[int, int], float]] = {}
    for quad in quads[direction == UP]:
        x0, z0 = int(quad[:, 0].min()), int(quad[:, 2].min())
        y0 = int(np.ceil(quad[:, 1].max())) - 1
        found[(x0, y0, z0)] = {(int(v[0]) - x0, int(v[2]) - z0): float(v[1] - y0) for v in quad}
    return found


def top_of(mesh: MeshData, voxel: tuple[int, int, int]) -> dict[tuple[int, int], float]:
    return tops(mesh)[voxel]


# -- explicit cases ------------------------------------------------------------------------------


def test_a_source_in_a_basin_has_its_top_at_eight_ninths_on_all_four_corners():
    world = basin(
        *[(x, 5, z, STONE) for x in range(4, 7) for z in range(4, 7) if (x, z) != (5, 5)],
        (5, 5, 5, WATER),
    )
    assert top_of(mesh_chunk(world, 0, 0, 0), (5, 5, 5)) == pytest.approx(
        dict.fromkeys(itertools.product((0, 1), repeat=2), 8 / 9)
    )


def test_a_lone_source_in_open_air_dips_at_its_corners_as_minecrafts_does():
    # Air beside it counts as height 0, weighing 1 against the source's 10: (10 * 8/9) / 12.
    top = top_of(mesh_chunk(world_with((5, 5, 5, WATER)), 0, 0, 0), (5, 5, 5))
    assert top == pytest.approx(dict.fromkeys(itertools.product((0, 1), repeat=2), 20 / 27))


def test_a_still_lake_is_flat_at_eight_ninths_and_merges_into_one_surface():
    lake = [(x, 5, z, WATER) for x in range(3, 9) for z in range(3, 9)]
    shore = [
        (x, 5, z, STONE) for x in range(2, 10) for z in range(2, 10) if x in (2, 9) or z in (2, 9)
    ]
    world = basin(*shore, *lake)
    found = tops(mesh_chunk(world, 0, 0, 0))
    assert len(found) == 36
    assert all(h == pytest.approx(8 / 9) for top in found.values() for h in top.values())
    quads, direction = liquid_quads(mesh_chunk(world, 0, 0, 0, merge=True))
    assert (direction == UP).sum() == 1 and (direction == DOWN).sum() == 1  # and its back
    assert quads[direction == UP][0, :, 1] == pytest.approx([5 + 8 / 9] * 4)


def test_flowing_water_beside_a_source_slopes_down_from_it():
    world = basin((5, 5, 5, WATER), (6, 5, 5, liquid(WATER, 4)))
    mesh = mesh_chunk(world, 0, 0, 0)
    flowing = top_of(mesh, (6, 5, 5))
    # The corners shared with the source: own 4/9 (weight 1), the source 8/9 (10), air beside
    # and on the diagonal (0, 1 each): 84/117. The far ones: own 4/9 and two air, 4/27.
    assert flowing == pytest.approx(
        {(0, 0): 28 / 39, (0, 1): 28 / 39, (1, 0): 4 / 27, (1, 1): 4 / 27}
    )
    # The source meets it at the same height (one surface, no step); its far side dips.
    source = top_of(mesh, (5, 5, 5))
    assert source[1, 0] == pytest.approx(flowing[0, 0]) and source[1, 1] == flowing[0, 1]
    assert source[0, 0] == pytest.approx(20 / 27)


def test_side_faces_follow_the_corner_heights():
    world = basin((5, 5, 5, WATER), (6, 5, 5, liquid(WATER, 4)))
    quads, direction = liquid_quads(mesh_chunk(world, 0, 0, 0))
    south = FACE_NORMALS.index((0, 0, 1))
    [side] = [
        q
        for q, d in zip(quads, direction, strict=True)
        if d == south and q[:, 0].min() == 6 and (q[:, 2] == 6).all()  # not the north's back
    ]
    heights = {(float(v[0]), round(float(v[1]) - 5, 6)) for v in side}
    assert heights == {(6.0, 0.0), (7.0, 0.0), (6.0, round(28 / 39, 6)), (7.0, round(4 / 27, 6))}
    # No side between the source and the flowing water (the same liquid, the same heights).
    east = FACE_NORMALS.index((1, 0, 0))
    assert not any(d == east and q[:, 0].min() == 6 for q, d in zip(quads, direction, strict=True))


def test_a_liquid_under_the_same_liquid_reaches_full_height():
    world = basin((5, 5, 5, WATER), (5, 6, 5, WATER))
    quads, direction = liquid_quads(mesh_chunk(world, 0, 0, 0))
    lower_sides = [
        q
        for q, d in zip(quads, direction, strict=True)
        if d not in (UP, DOWN) and q[:, 1].min() == 5
    ]
    assert len(lower_sides) == 8  # four sides, each seen from outside and from inside
    assert all(q[:, 1].max() == 6 for q in lower_sides)
    assert set(tops(mesh_chunk(world, 0, 0, 0))) == {(5, 6, 5)}  # no top between the two


def test_a_falling_columns_top_stands_at_a_sources_height_and_its_body_full():
    # A falling state of any level has Minecraft's amount 8: 8/9 with nothing of it above.
    shaft = [
        (x, y, z, STONE)
        for x in (4, 5, 6)
        for z in (4, 5, 6)
        for y in (5, 6, 7)
        if (x, z) != (5, 5)
    ]
    world = basin(*shaft, (5, 5, 5, liquid(WATER, 3, True)), (5, 6, 5, liquid(WATER, 2, True)))
    found = tops(mesh_chunk(world, 0, 0, 0))
    assert set(found) == {(5, 6, 5)}
    assert found[5, 6, 5] == pytest.approx(
        dict.fromkeys(itertools.product((0, 1), repeat=2), 8 / 9)
    )


def test_water_under_stone_has_no_surface_as_minecrafts():
    world = basin((5, 5, 5, WATER), (5, 6, 5, STONE))
    assert tops(mesh_chunk(world, 0, 0, 0)) == {}


def test_sloped_faces_and_their_backs_still_face_outward():
    world = basin(
        (5, 5, 5, WATER), (6, 5, 5, liquid(WATER, 6)), (6, 5, 6, liquid(WATER, 3)), (3, 5, 3, LAVA)
    )
    for merge in (False, True):
        mesh = mesh_chunk(world, 0, 0, 0, merge=merge)
        vertices = mesh.vertices.reshape(-1, 3).astype(np.float64)
        normals = mesh.normals.reshape(-1, 3).astype(np.float64)
        tri = mesh.indices.reshape(-1, 3)
        a, b, c = vertices[tri[:, 0]], vertices[tri[:, 1]], vertices[tri[:, 2]]
        cross = np.cross(b - a, c - a)
        # Right-handed: counter-clockwise from the front, the cross product along the normal.
        assert np.all(np.einsum("ij,ij->i", cross, normals[tri[:, 0]]) > 0)
        sloped = np.abs(normals).max(axis=1) < 0.999
        assert sloped.any() and np.allclose(np.linalg.norm(normals, axis=1), 1.0)


def test_lava_is_unshaded_on_every_face_and_unoccluded():
    world = basin((5, 5, 5, LAVA), (6, 5, 5, STONE), (5, 6, 6, STONE))
    mesh = mesh_chunk(world, 0, 0, 0)
    cell = tile_cells(mesh.tile_origin.reshape(-1, 4, 2)[:, 0])
    lava = cell == REG.face_tiles[LAVA, 0]
    assert lava.sum() >= 8
    assert (mesh.shade.reshape(-1, 4)[lava] == 1.0).all()
    water = mesh_chunk(basin((5, 5, 5, WATER), (6, 5, 5, STONE)), 0, 0, 0)
    assert (water.shade < 1.0).any()  # water keeps its direction's shade


# -- against the reference -----------------------------------------------------------------------

CELLS = st.sampled_from(
    [
        AIR,
        AIR,
        STONE,
        *(liquid(WATER, level) for level in (8, 8, 7, 5, 3, 1)),
        liquid(WATER, 4, True),
        liquid(LAVA, 8),
        liquid(LAVA, 4),
        liquid(LAVA, 6, True),
    ]
)


@settings(max_examples=40, deadline=None)
@given(st.lists(CELLS, min_size=4 * 4 * 3, max_size=4 * 4 * 3))
def test_corner_heights_equal_minecrafts_averaging_voxel_by_voxel(cells: list[int]):
    world = World(REG)
    positions = [(6 + i % 4, 5 + i // 16, 6 + (i // 4) % 4) for i in range(len(cells))]
    world.set_blocks(positions, cells)
    mesh = mesh_chunk(world, 0, 0, 0)
    expected: dict[tuple[int, int, int], dict[tuple[int, int], float]] = {}
    for voxel in positions:
        state = world.get_block(*voxel)
        above = world.get_block(voxel[0], voxel[1] + 1, voxel[2])
        if REG.draw[state] != DRAW_LIQUID or REG.block_index[above] == REG.block_index[state]:
            continue
        if REG.solid[above]:  # a full opaque cube (stone) hides the top
            continue
        expected[voxel] = {
            (dx, dz): float(reference_corner(world, voxel, dx, dz))
            for dx, dz in itertools.product((0, 1), repeat=2)
        }
    found = tops(mesh)
    assert set(found) == set(expected)
    for voxel, corners in expected.items():
        assert found[voxel] == pytest.approx(corners, abs=1e-5), voxel
    # Every side's upper edge stands at the heights of the corners at its ends.
    quads, direction = liquid_quads(mesh)
    for quad, d in zip(quads, direction, strict=True):
        if d in (UP, DOWN):
            continue
        normal = np.array(FACE_NORMALS[d])
        floor = quad[:, 1].min()
        for v in quad[quad[:, 1] > floor + 1e-6]:
            inside = np.floor(quad.mean(axis=0) - 0.5 * normal).astype(int)  # either side's
            for owner in (inside, inside + normal):
                state = world.get_block(*owner)
                if REG.draw[state] != DRAW_LIQUID or not np.isclose(floor, owner[1]):
                    continue
                corner = (int(v[0]) - owner[0], int(v[2]) - owner[2])
                if corner in ((0, 0), (0, 1), (1, 0), (1, 1)):
                    want = float(reference_corner(world, tuple(owner.tolist()), *corner))
                    if np.isclose(v[1] - floor, want, atol=1e-5):
                        break
            else:
                raise AssertionError(f"side vertex {v} stands at no corner's height")


def test_lava_shines_with_its_own_light_on_every_face_by_night_too():
    """Lava's faces take its voxel's block light 15 (Minecraft's), not the 14 in front of them:
    the chunk shader draws block light 15 at full brightness whatever the time of day."""
    from world.light.lighting import Light

    world = basin((5, 5, 5, LAVA), (6, 5, 5, liquid(LAVA, 4)))
    light = Light(world)
    light.add_chunks(list(world.chunks))
    mesh = mesh_chunk(world, 0, 0, 0, light)
    cell = tile_cells(mesh.tile_origin.reshape(-1, 4, 2)[:, 0])
    lava = cell == REG.face_tiles[LAVA, 0]
    block = mesh.light.reshape(-1, 4, 2)[lava][..., 1]
    assert lava.sum() >= 10 and (block == 15).all()
    assert (mesh.shade.reshape(-1, 4)[lava] == 1.0).all()
