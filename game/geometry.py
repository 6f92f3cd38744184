"""Panda3D vertex layouts shared by the game's hand-built meshes (chunks, traced cells)."""

from __future__ import annotations

from panda3d.core import Geom, GeomVertexArrayFormat, GeomVertexFormat, InternalName

__all__ = ["interleaved_format"]


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
