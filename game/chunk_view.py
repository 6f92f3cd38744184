"""Drawing the world: one ursina Entity per chunk mesh, around the player, remeshed when dirty.

`world.mesher` turns a chunk into flat numpy arrays; here they become one Panda3D geom per
chunk (ursina's ``Mesh`` copies flat float32/uint32 arrays straight into vertex buffers), placed
at the chunk's origin and textured with the block atlas (nearest filtering: pixel look).
Shading is baked into vertex colours (`MeshData.shade`), so no light is needed.

Which chunks: every chunk column within ``view_distance`` chunks of the player's column (a
square, as Minecraft's), every chunk of the column that holds blocks. The first `load_all` draws
them all; afterwards new columns are meshed nearest-first under a per-frame time budget, and
columns that fell out of range are dropped. Dirty chunks (`World.pop_dirty`) are remeshed at
once, budget or not, so an edit shows in the frame drawn right after it.
"""

from __future__ import annotations

import math
import time
from collections import deque

import numpy as np
from numpy.typing import NDArray
from panda3d.core import CullBinManager, TransparencyAttrib
from ursina import Entity, Mesh, Texture, destroy

from world.chunks import CHUNK, ChunkKey, World
from world.mesher import MeshData, mesh_chunk

__all__ = ["ChunkView"]

_BIN = "chunks"
# Opaque chunks draw front to back, so software GL's early depth test skips hidden pixels.
CullBinManager.getGlobalPtr().addBin(_BIN, CullBinManager.BTFrontToBack, 5)


def _colours(shade: NDArray[np.float32]) -> NDArray[np.float32]:
    """RGBA vertex colours (flat) from per-vertex brightness."""
    rgba = np.empty((len(shade), 4), dtype=np.float32)
    rgba[:, :3] = shade[:, np.newaxis]
    rgba[:, 3] = 1.0
    return rgba.reshape(-1)


class ChunkView:
    """The chunk entities around a centre column."""

    def __init__(self, world: World, texture: Texture, view_distance: int) -> None:
        self.world = world
        self.texture = texture
        self.view_distance = view_distance
        self.entities: dict[ChunkKey, Entity] = {}
        self.centre: tuple[int, int] | None = None
        self._columns: set[tuple[int, int]] = set()
        self._queue: deque[ChunkKey] = deque()
        low, high = world.build_height
        self._cy_range = range(low // CHUNK[1], (high - 1) // CHUNK[1] + 1)
        liquid = [i for i, block in enumerate(world.registry) if "liquid" in block.groups]
        self._liquid_ids = np.array(liquid, dtype=np.uint16)

    def follow(self, wx: float, wz: float) -> None:
        """Recentre on the column holding a world position: queue new columns, drop far ones."""
        centre = (math.floor(wx) // CHUNK[0], math.floor(wz) // CHUNK[2])
        if centre == self.centre:
            return
        self.centre = centre
        r = self.view_distance
        wanted = {
            (centre[0] + dx, centre[1] + dz) for dx in range(-r, r + 1) for dz in range(-r, r + 1)
        }
        for column in self._columns - wanted:
            for cy in self._cy_range:
                self._drop((column[0], cy, column[1]))
        new = sorted(
            wanted - self._columns, key=lambda c: (c[0] - centre[0]) ** 2 + (c[1] - centre[1]) ** 2
        )
        self._columns = wanted
        self._queue = deque(
            key
            for key in self._queue
            if (key[0], key[2]) in wanted  # still in range: keep its place
        )
        self._queue.extend((cx, cy, cz) for cx, cz in new for cy in self._cy_range)

    def update(self, budget_s: float) -> int:
        """Remesh dirty chunks, then mesh queued ones for up to ``budget_s``; returns the count."""
        done = self.remesh_dirty()
        deadline = time.perf_counter() + budget_s
        while self._queue and time.perf_counter() < deadline:
            self._mesh(self._queue.popleft())
            done += 1
        return done

    def remesh_dirty(self) -> int:
        """Remesh every shown or wanted chunk whose blocks changed; returns how many."""
        dirty = [key for key in self.world.pop_dirty() if (key[0], key[2]) in self._columns]
        for key in dirty:
            self._mesh(key)
        return len(dirty)

    def load_all(self) -> None:
        """Mesh everything queued now (the first frame, a screenshot)."""
        self.remesh_dirty()
        while self._queue:
            self._mesh(self._queue.popleft())

    @property
    def pending(self) -> int:
        """Chunks still waiting to be meshed."""
        return len(self._queue)

    def vertex_count(self, key: ChunkKey) -> int:
        """Vertices in the chunk entity's geometry as Panda3D holds it (0 when not drawn)."""
        entity = self.entities.get(key)
        if entity is None:
            return 0
        geoms = entity.model.geomNode
        return sum(
            geoms.getGeom(i).getVertexData().getNumRows() for i in range(geoms.getNumGeoms())
        )

    def _mesh(self, key: ChunkKey) -> None:
        """Build (or rebuild, or drop) one chunk's entity from a fresh mesh."""
        if self.world.chunk(*key) is None:  # all air: nothing to draw
            self._drop(key)
            return
        data = mesh_chunk(self.world, *key)
        if data.vertex_count == 0:
            self._drop(key)
            return
        mesh = self._engine_mesh(data)
        entity = self.entities.get(key)
        if entity is None:
            entity = Entity(
                model=mesh,
                texture=self.texture,
                position=(key[0] * CHUNK[0], key[1] * CHUNK[1], key[2] * CHUNK[2]),
                add_to_scene_entities=False,  # drawn, but skipped by ursina's per-frame loops
            )
            self.entities[key] = entity
        else:
            entity.model = mesh
        self._set_transparency(key, entity)

    def _engine_mesh(self, data: MeshData) -> Mesh:
        """An ursina Mesh from the mesher's flat arrays (normals unused: shading is baked)."""
        return Mesh(
            vertices=data.vertices,
            triangles=data.indices,
            uvs=data.uvs,
            colors=_colours(data.shade),
            static=True,
        )

    def _set_transparency(self, key: ChunkKey, entity: Entity) -> None:
        """Alpha-tested cut-outs (leaves, glass, plants); blending only for chunks with liquid."""
        blocks = self.world.chunk_blocks(*key)
        if len(self._liquid_ids) and np.isin(blocks, self._liquid_ids).any():
            # Two passes: opaque texels first, then the see-through water blended over them.
            entity.model.setTransparency(TransparencyAttrib.M_dual)
            entity.clearBin()
        else:
            entity.model.setTransparency(TransparencyAttrib.M_binary)
            entity.setBin(_BIN, 0)

    def _drop(self, key: ChunkKey) -> None:
        """Forget a chunk's entity."""
        entity = self.entities.pop(key, None)
        if entity is not None:
            destroy(entity)

    def destroy(self) -> None:
        """Remove every chunk entity."""
        for key in list(self.entities):
            self._drop(key)
        self._columns = set()
        self._queue.clear()
        self.centre = None
