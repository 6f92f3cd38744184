"""Meshing: a chunk's blocks as plain arrays of faces, ready for the engine to draw.

The contract: `mesh.mesher` turns a chunk and its neighbours' border voxels into `MeshData`
(`mesh.data`), with face culling, ambient occlusion and smooth light (`mesh.light`), shaped blocks
drawn as their boxes (`mesh.boxes`, `mesh.shapes`), liquids' surfaces at their corners' heights
(`mesh.liquids`) and faces merged (`mesh.merge`); `mesh.pack`
packs a mesh into the vertex rows the game uploads. No engine code: the game builds its meshes
from these arrays. Imports `world.blocks`, `world.voxels` and `world.light`.
"""

from __future__ import annotations

from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk

__all__ = ["MeshData", "mesh_chunk"]
