"""A drawn chunk's parts: solid (plants too) and liquid faces, one geom each, a primitive a
direction."""

from __future__ import annotations

import numpy as np
import pytest
from panda3d.core import CullFaceAttrib, NodePath, TransparencyAttrib

from game.chunk_parts import blended_state, chunk_parts, facing_groups
from world.blocks import default_registry
from world.chunks import World
from world.mesh_pack import OTHER, VERTEX_ROW, drawn_mesh
from world.mesher import mesh_inputs

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
    built_triangles = sum(p.getNumPrimitives() for part in built for p in part.primitives.values())
    listed = sum(len(group) for group in (*mesh.groups, *mesh.liquid)) // 3
    assert built_triangles == listed  # every face, once
    return built


def test_stone_plants_and_water_draw_as_two_geoms_each_a_primitive_a_direction(parts) -> None:
    by_name = {part.node.getName(): part for part in parts}
    assert set(by_name) == {"solid", "liquid"}
    # Plants (the OTHER group) are solid faces too, drawn one-sided both ways round.
    assert set(by_name["solid"].primitives) == set(range(OTHER + 1))
    for part in parts:
        assert part.node.node().getNumGeoms() == 1
        assert part.node.node().getGeom(0).getNumPrimitives() == len(part.primitives)
    liquid = by_name["liquid"].node.getState().getAttrib(TransparencyAttrib)
    assert liquid is not None and liquid.getMode() == TransparencyAttrib.M_alpha
    assert by_name["solid"].node.getState().getAttrib(TransparencyAttrib) is None
    assert not any(part.node.getNetState().getAttrib(CullFaceAttrib) for part in parts)


def test_a_part_draws_only_the_groups_shown_and_hides_when_none(parts) -> None:
    solid = next(part for part in parts if part.node.getName() == "solid")
    up, down = 2, 3  # +y, -y
    solid.show_groups(frozenset({up}))
    geom = solid.node.node().getGeom(0)
    assert [geom.getPrimitive(i).this for i in range(geom.getNumPrimitives())] == [
        solid.primitives[up].this
    ]
    solid.show_groups(frozenset({down + 10}))  # no group it has
    assert solid.node.isHidden()
    solid.show_groups(frozenset(range(OTHER + 1)))
    assert not solid.node.isHidden()
    assert solid.node.node().getGeom(0).getNumPrimitives() == 7
    assert down in solid.shown and OTHER in solid.shown


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
        indices = np.array(by_name[name].primitives[up].getVertexList(), dtype=np.int64)
        return heights["pos"][indices[::6], 1].tolist()  # a quad's two triangles, six indices

    assert tops("liquid") == sorted(tops("liquid")) and len(set(tops("liquid"))) == 3
    assert tops("solid") == sorted(tops("solid"), reverse=True) and len(set(tops("solid"))) == 3
