"""A drawn chunk's parts: solid (plants too) and liquid faces, one geom each, a primitive a
direction."""

from __future__ import annotations

import numpy as np
import pytest
from panda3d.core import CullFaceAttrib, NodePath, TransparencyAttrib

from game.chunk_parts import ChunkPart, blended_state, chunk_parts, eye_band, facing_groups
from world import World
from world.base import default_registry
from world.mesh.mesher import mesh_inputs
from world.mesh.pack import OTHER, VERTEX_ROW, drawn_mesh

REG = default_registry()


@pytest.fixture
def parts() -> list:
    world = World(REG)
    for x in range(4):
        world.set_block(x, 2, 0, REG.id("base:stone"))
    world.set_block(0, 3, 0, REG.id("base:tall_grass"))
    world.set_block(5, 2, 5, REG.id("base:water"))
    mesh = drawn_mesh(REG, mesh_inputs(world, 0, 0, 0))
    built = chunk_parts(NodePath("chunk"), mesh, blended_state())
    built_triangles = sum(len(part.triangles()) for part in built)
    listed = sum(len(group) for group in (*mesh.groups, *mesh.liquid)) // 3
    assert built_triangles == listed  # every face, once
    return built


def test_stone_plants_and_water_draw_as_two_geoms_each_one_primitive(parts) -> None:
    by_name = {part.node.getName(): part for part in parts}
    assert set(by_name) == {"solid", "liquid"}
    # Plants (the OTHER group) are solid faces too, drawn one-sided both ways round.
    assert set(by_name["solid"].spans) == set(range(OTHER + 1))
    for part in parts:
        assert part.node.node().getNumGeoms() == 1
        assert part.node.node().getGeom(0).getNumPrimitives() == 1
        assert np.array_equal(part.drawn_triangles(), part.triangles())
    liquid = by_name["liquid"].node.getState().getAttrib(TransparencyAttrib)
    assert liquid is not None and liquid.getMode() == TransparencyAttrib.M_alpha
    assert by_name["solid"].node.getState().getAttrib(TransparencyAttrib) is None
    assert not any(part.node.getNetState().getAttrib(CullFaceAttrib) for part in parts)


def test_a_part_draws_only_the_groups_shown_and_hides_when_none(parts) -> None:
    solid = next(part for part in parts if part.node.getName() == "solid")
    up, down = 2, 3  # +y, -y
    assert solid.show(frozenset({up}))
    assert solid.node.node().getGeom(0).getNumPrimitives() == 1
    assert np.array_equal(solid.drawn_triangles(), solid.triangles(up))
    assert solid.shown == (up,)
    solid.show(frozenset({down + 10}))  # no group it has
    assert solid.node.isHidden() and len(solid.drawn_triangles()) == 0
    solid.show(frozenset(range(OTHER + 1)))
    assert not solid.node.isHidden()
    assert solid.node.node().getGeom(0) == solid.every
    assert down in solid.shown and OTHER in solid.shown


def stacked_part() -> tuple[ChunkPart, np.ndarray]:
    """The solid part of a chunk with stone at several heights and sides, a slab and a plant;
    and each of its triangles' first corner."""
    world = World(REG)
    for x, y, z in [(1, 1, 1), (3, 4, 2), (5, 8, 9), (7, 12, 3), (9, 15, 14), (2, 6, 12)]:
        world.set_block(x, y, z, REG.id("base:stone"))
    world.set_block(11, 9, 5, REG.id("base:stone_slab"))
    world.set_block(12, 2, 2, REG.id("base:tall_grass"))
    world.set_block(12, 1, 2, REG.id("base:dirt"))
    mesh = drawn_mesh(REG, mesh_inputs(world, 0, 0, 0))
    solid = next(p for p in chunk_parts(NodePath("chunk"), mesh, blended_state()) if p.spans)
    rows = np.frombuffer(memoryview(solid.vdata.getArray(0)), dtype=VERTEX_ROW)
    return solid, rows["pos"][solid.triangles()[:, 0]]


def test_in_the_eyes_layer_a_part_draws_every_top_and_bottom_an_eye_in_its_band_can_see() -> None:
    """Brute force: for the eye anywhere in each band of three block heights through the
    chunk, a face is left out only if it is a top or a bottom no eye in the band sees."""
    solid, corners = stacked_part()
    every = {tuple(t) for t in solid.triangles().tolist()}
    group_of = np.zeros(len(corners), int)
    for group, (start, end) in solid.spans.items():
        group_of[start:end] = group
    left_out = 0
    for low in range(-1, 16):
        band = (low, low + 3)
        assert solid.show(frozenset(range(OTHER + 1)), band)
        drawn = {tuple(t) for t in solid.drawn_triangles().tolist()}
        assert drawn <= every
        eyes = np.linspace(low, low + 3, 25)[:-1] + 1e-3
        for i, triangle in enumerate(solid.triangles().tolist()):
            if tuple(triangle) in drawn:
                continue
            left_out += 1
            group = group_of[i]
            assert group in (2, 3), (band, group)  # +y, -y
            sign = -1.0 if group == 3 else 1.0
            assert ((eyes - corners[i, 1]) * sign <= 0).all(), (band, group, corners[i])
    assert left_out
    # The plant's two planes, both ways round, are drawn from every band (checked above).
    assert len(solid.triangles(OTHER)) == 8
    assert eye_band((0, 2, 0), (31, 34)) == (-1, 2)
    assert eye_band((0, 1, 0), (31, 34)) == (15, 18)
    assert eye_band((0, 0, 0), (31, 34)) is None
    assert eye_band((0, 3, 0), (31, 34)) is None


def test_a_way_of_drawing_not_made_yet_draws_the_groups_uncut_or_every_face_until_it_is() -> None:
    solid, _ = stacked_part()
    band = (3, 6)
    assert not solid.show(frozenset({2}), band, build=False)
    assert np.array_equal(solid.drawn_triangles(), solid.triangles())  # none made: every face
    assert solid.show(frozenset({2}), band)
    made = solid.drawn_triangles()
    assert 0 < len(made) < len(solid.triangles(2))
    solid.show(frozenset({2}))
    assert not solid.show(frozenset({2}), (7, 10), build=False)  # the groups' uncut geom
    assert np.array_equal(solid.drawn_triangles(), solid.triangles(2))
    assert solid.show(frozenset({2}), band, build=False)  # made once, kept
    assert np.array_equal(solid.drawn_triangles(), made)


@pytest.mark.parametrize("camera", [(0, 0, 0), (3, -2, 1), (-5, 7, 0)])
def test_the_groups_facing_a_camera_chunk_are_those_of_faces_it_can_see(camera) -> None:
    # Brute force: a face of direction d at plane p is seen from an eye beyond p along d.
    # +x faces of chunk 0 lie at x = 1..16; a camera chunk c holds eyes at 16c..16c+16.
    for key in [(0, 0, 0), (1, -1, 2), (-3, 0, 0)]:
        groups = facing_groups(key, camera)
        for axis in range(3):
            planes = np.arange(1, 17) + 16 * key[axis]  # + faces
            eyes = np.linspace(16 * camera[axis], 16 * camera[axis] + 15.99, 50)
            sees_plus = bool((eyes[:, None] > planes[None]).any())
            sees_minus = bool((eyes[:, None] < planes[None] - 1).any())
            assert (axis * 2 in groups) == sees_plus
            assert (axis * 2 + 1 in groups) == sees_minus
        assert OTHER in groups
    assert facing_groups((0, 0, 0), None) == frozenset(range(OTHER + 1))


def test_liquid_faces_draw_back_to_front_and_the_others_front_to_back() -> None:
    world = World(REG)
    for y in (2, 5, 9):  # water and stone tops at three heights, apart
        world.set_block(y, y, 0, REG.id("base:water"))
        world.set_block(y, y, 8, REG.id("base:stone"))
    mesh = drawn_mesh(REG, mesh_inputs(world, 0, 0, 0))
    by_name = {
        part.node.getName(): part for part in chunk_parts(NodePath("chunk"), mesh, blended_state())
    }
    heights = np.frombuffer(memoryview(by_name["solid"].vdata.getArray(0)), dtype=VERTEX_ROW)
    up = 2  # +y: seen from above, the higher tops are the nearer

    def tops(name: str) -> list[float]:
        indices = by_name[name].triangles(up).ravel()
        return heights["pos"][indices[::6], 1].tolist()  # a quad's two triangles, six indices

    assert tops("liquid") == sorted(tops("liquid")) and len(set(tops("liquid"))) == 3
    assert tops("solid") == sorted(tops("solid"), reverse=True) and len(set(tops("solid"))) == 3
