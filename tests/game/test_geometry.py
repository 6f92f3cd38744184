"""Vertex layouts: the byte strides the numpy mirrors of chunk and line vertices rely on, and
the HUD's flat quads."""

from __future__ import annotations

import numpy as np
import pytest
from panda3d.core import GeomVertexReader

from game.geometry import interleaved_format, quads_node


def test_strides_match_the_numpy_rows():
    assert interleaved_format(uv=True).getArray(0).getStride() == 12 + 4 + 8
    assert interleaved_format(uv=False).getArray(0).getStride() == 12 + 4
    assert interleaved_format(uv=True).getNumArrays() == 1


def _columns(node, column: str) -> np.ndarray:
    geom = node.getGeom(0)
    reader = GeomVertexReader(geom.getVertexData(), column)
    rows = []
    while not reader.isAtEnd():
        rows.append(tuple(reader.getData4()))
    return np.array(rows)


def test_quads_are_the_boxes_given_with_their_colours_and_texture_boxes_in_order():
    node = quads_node(
        "pieces",
        [(0.0, 0.0, 2.0, 1.0, 0.5), (3.0, -1.0, 0.0, 0.2, 0.2)],
        [(0.0, 0.0, 0.0, 0.45), (1.0, 0.5, 0.25, 1.0)],
        [(0.0, 0.0, 1.0, 1.0), (0.25, 0.5, 0.5, 0.75)],
    )
    assert node.getNumGeoms() == 1  # one draw
    position = _columns(node, "vertex")[:, :3]
    first, second = position[:4], position[4:]
    assert first.min(axis=0) == pytest.approx((-0.5, -0.25, 2.0))
    assert first.max(axis=0) == pytest.approx((0.5, 0.25, 2.0))
    assert second.min(axis=0) == pytest.approx((2.9, -1.1, 0.0))
    assert second.max(axis=0) == pytest.approx((3.1, -0.9, 0.0))
    colour = _columns(node, "color")
    assert colour[:4] == pytest.approx(np.tile([0.0, 0.0, 0.0, 115 / 255], (4, 1)))
    assert colour[4:] == pytest.approx(np.tile([1.0, 128 / 255, 64 / 255, 1.0], (4, 1)))
    uv = _columns(node, "texcoord")[:, :2]
    # Each corner gets the texture box's matching corner: left-bottom to left-bottom.
    corners = (second[:, :2] - (2.9, -1.1)) / 0.2
    assert (uv[4:] - (0.25, 0.5)) / 0.25 == pytest.approx(corners, abs=1e-5)
    triangles = node.getGeom(0).getPrimitive(0)
    assert triangles.getNumPrimitives() == 4  # two triangles a box, first box first
    assert max(triangles.getVertex(i) for i in range(6)) == 3


def test_quads_need_a_colour_for_every_box():
    with pytest.raises(ValueError, match="colours"):
        quads_node("pieces", [(0, 0, 0, 1, 1)] * 2, [(1, 1, 1, 1)])
