"""Panda3D vertex layouts shared by the game's hand-built meshes (chunks, traced cells), and flat
quads for the HUD (`quads_node`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from panda3d.core import (
    Geom,
    GeomNode,
    GeomPrimitive,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
)

__all__ = ["indexed", "interleaved_format", "quads_node", "vertex_data"]


def interleaved_format(*, uv: bool, tile: bool = False) -> GeomVertexFormat:
    """One interleaved array: position (3 float32), colour (4 uint8), uv (2 float32) if asked,
    and with ``tile`` a column ``tile`` (2 float32: a tile's corner in the atlas, for a shader)."""
    array = GeomVertexArrayFormat()
    array.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
    array.addColumn(InternalName.getColor(), 4, Geom.NTUint8, Geom.CColor)
    if uv:
        array.addColumn(InternalName.getTexcoord(), 2, Geom.NTFloat32, Geom.CTexcoord)
    if tile:
        array.addColumn(InternalName.make("tile"), 2, Geom.NTFloat32, Geom.COther)
    layout = GeomVertexFormat()
    layout.addArray(array)
    registered: GeomVertexFormat = GeomVertexFormat.registerFormat(layout)
    return registered


_QUAD_ROW = np.dtype([("pos", "<f4", 3), ("rgba", "u1", 4), ("uv", "<f4", 2)])
_CORNERS = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=np.float64) / 2.0


def quads_node(
    name: str, boxes: ArrayLike, colours: ArrayLike, uvs: ArrayLike | None = None
) -> GeomNode:
    """Axis-aligned rectangles in the x, y plane as one geom (one draw), drawn in the order given.

    ``boxes`` rows are (x, y, z, width, height): the centre and size; ``colours`` rows RGBA
    0..1, multiplied with the texture's texel; ``uvs`` rows (u0, v0, u1, v1), the texture's
    box (bottom left, top right) on each rectangle, or none. A HUD of many small pieces drawn
    as one geom costs software GL one draw: drawn one entity each, every piece cost the frame
    about 0.1 ms (Panda3D's and Mesa's state changes per draw), two milliseconds for a hotbar.
    """
    box = np.asarray(boxes, dtype=np.float64).reshape(-1, 5)
    rgba = np.asarray(colours, dtype=np.float64).reshape(-1, 4)
    if len(rgba) != len(box):
        raise ValueError(f"colours must have one row per box ({len(box)}), got {len(rgba)}")
    rows = np.zeros((len(box), 4), dtype=_QUAD_ROW)
    rows["pos"][..., :2] = box[:, None, :2] + _CORNERS[None] * box[:, None, 3:5]
    rows["pos"][..., 2] = box[:, None, 2]
    rows["rgba"] = np.round(np.clip(rgba, 0.0, 1.0) * 255.0)[:, None, :]
    if uvs is not None:
        u0, v0, u1, v1 = np.asarray(uvs, dtype=np.float64).reshape(-1, 4).T
        rows["uv"] = np.stack([u0, v0, u1, v0, u1, v1, u0, v1], axis=1).reshape(-1, 4, 2)
    quad = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
    indices = (np.arange(len(box), dtype=np.uint32)[:, None] * 4 + quad).reshape(-1)
    geom = Geom(vertex_data(name, interleaved_format(uv=True), rows.reshape(-1)))
    geom.addPrimitive(indexed(GeomTriangles(Geom.UHStatic), indices))
    node = GeomNode(name)
    node.addGeom(geom)
    return node


def vertex_data(name: str, layout: GeomVertexFormat, rows: NDArray[np.void]) -> GeomVertexData:
    """Numpy vertex rows laid out as ``layout``'s one array as a Panda3D vertex buffer: one copy."""
    vdata = GeomVertexData(name, layout, Geom.UHStatic)
    vdata.uncleanSetNumRows(len(rows))
    memoryview(vdata.modifyArray(0)).cast("B")[:] = np.ascontiguousarray(rows).data.cast("B")
    return vdata


def indexed(primitive: GeomPrimitive, indices: NDArray[np.uint32]) -> GeomPrimitive:
    """``primitive`` (new, empty: triangles, lines) given the vertex ``indices``: one copy."""
    primitive.setIndexType(Geom.NTUint32)
    handle = primitive.modifyVertices()
    handle.uncleanSetNumRows(len(indices))
    memoryview(handle).cast("B").cast("I")[:] = np.ascontiguousarray(indices, np.uint32).data
    return primitive
