"""`MeshData`: a chunk mesh as flat numpy arrays, what `world.mesh.mesher.mesh_chunk` returns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["MeshData"]


@dataclass(frozen=True)
class MeshData:
    """A chunk mesh as flat numpy arrays (the layout ursina's ``Mesh`` takes).

    Attributes
    ----------
    vertices : ndarray of float32, shape (3V,)
        x, y, z per vertex, chunk-local (the entity sits at the chunk's origin).
    indices : ndarray of uint32, shape (3T,)
        Triangles, two per quad, counter-clockwise on screen seen from the front.
    uvs : ndarray of float32, shape (2V,)
        u, v per vertex into the atlas, origin at its bottom-left.
    normals : ndarray of float32, shape (3V,)
        Unit normal per vertex (the quad's front side).
    shade : ndarray of float32, shape (V,)
        Brightness in (0, 1]: face-direction shade times ambient occlusion.
    light : ndarray of float32, shape (2V,)
        Sky light and block light per vertex, each 0..15 (`world.light.lighting`); sky 15 and block
        0 everywhere when the chunk was meshed without a `Light`. A renderer scales the sky
        channel by the time of day and takes the brighter of the two.
    tile_origin : ndarray of float32, shape (2V,)
        The atlas uv of the bottom-left corner of the vertex's tile (its quad's tile).
    tile_uvs : ndarray of float32, shape (2V,)
        The vertex's texture coordinates in tile units from ``tile_origin``, without the uv
        inset (`world.mesh.shapes.UV_INSET_PX`, as a share ``i`` of the tile): a one-block
        face spans 0..1. A renderer samples ``tile_origin + (i + fract(tile_uvs) * (1 - 2 i))
        * tile size``, so a quad spanning several blocks repeats its tile; for a one-block quad
        that is ``uvs``.
    """

    vertices: NDArray[np.float32]
    indices: NDArray[np.uint32]
    uvs: NDArray[np.float32]
    normals: NDArray[np.float32]
    shade: NDArray[np.float32]
    light: NDArray[np.float32]
    tile_origin: NDArray[np.float32]
    tile_uvs: NDArray[np.float32]

    @property
    def face_count(self) -> int:
        """Number of quads (cube faces and plant quads)."""
        return len(self.indices) // 6

    @property
    def vertex_count(self) -> int:
        """Number of vertices (4 per quad)."""
        return len(self.vertices) // 3

    def vertex_colors(self) -> NDArray[np.float32]:
        """The shade as flat RGBA vertex colours (r = g = b = shade, a = 1), shape (4V,).

        What ursina's ``Mesh(colors=...)`` takes, to tint the atlas texture per vertex.
        """
        colors = np.ones((self.vertex_count, 4), dtype=np.float32)
        colors[:, :3] = self.shade[:, np.newaxis]
        return colors.reshape(-1)

    @classmethod
    def empty(cls) -> MeshData:
        """A mesh with no faces (an air chunk, or one buried in stone)."""
        return cls(
            vertices=np.zeros(0, np.float32),
            indices=np.zeros(0, np.uint32),
            uvs=np.zeros(0, np.float32),
            normals=np.zeros(0, np.float32),
            shade=np.zeros(0, np.float32),
            light=np.zeros(0, np.float32),
            tile_origin=np.zeros(0, np.float32),
            tile_uvs=np.zeros(0, np.float32),
        )
