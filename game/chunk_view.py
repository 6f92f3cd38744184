"""Drawing the world: one ursina Entity per chunk mesh, around the player, remeshed when dirty.

`world.mesher` turns a chunk into flat numpy arrays; here they become one vertex buffer per
chunk (position, RGBA8 colour, uv interleaved, 24 bytes a vertex, copied straight from numpy),
under an ursina Entity at the chunk's origin, textured with the block atlas (nearest filtering:
pixel look). Shading is baked into vertex colours (`MeshData.shade`), so no light is needed.

The chunk's triangles are split by face direction into up to seven Panda3D geoms sharing that
one vertex buffer: +x, -x, +y, -y, +z, -z and "other" (plants). A face looking away from the
camera can never be seen, so the directions that face away from the camera's chunk are hidden:
in a typical view that skips about half the triangles before software GL has to transform them
(all the bottoms of the ground, the far sides of hills). The set only changes when the camera
crosses into another chunk. ursina's own ``Mesh`` builds one geom per mesh with its own vertex
data, which is why the geoms are built here with Panda3D's API.

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
from panda3d.core import (
    CullBinManager,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    NodePath,
    TransparencyAttrib,
)
from panda3d.core import Texture as PandaTexture
from ursina import Entity, destroy

from world.blocks import FACE_NORMALS
from world.chunks import CHUNK, ChunkKey, World
from world.mesher import MeshData, mesh_chunk

__all__ = ["ChunkView"]

_BIN = "chunks"
# Opaque chunks draw front to back, so software GL's early depth test skips hidden pixels.
CullBinManager.getGlobalPtr().addBin(_BIN, CullBinManager.BTFrontToBack, 5)


def _vertex_format() -> GeomVertexFormat:
    """One interleaved array: position (3 float32), colour (4 uint8), uv (2 float32)."""
    array = GeomVertexArrayFormat()
    array.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
    array.addColumn(InternalName.getColor(), 4, Geom.NTUint8, Geom.CColor)
    array.addColumn(InternalName.getTexcoord(), 2, Geom.NTFloat32, Geom.CTexcoord)
    layout = GeomVertexFormat()
    layout.addArray(array)
    registered: GeomVertexFormat = GeomVertexFormat.registerFormat(layout)
    return registered


_FORMAT = _vertex_format()
_ROW = np.dtype([("pos", "<f4", 3), ("rgba", "u1", 4), ("uv", "<f4", 2)])
if _FORMAT.getArray(0).getStride() != _ROW.itemsize:
    raise RuntimeError("the vertex layout and its numpy mirror disagree")
OTHER = len(FACE_NORMALS)  # the group of faces with no axis direction (plants)
# A queued step: a chunk column (cx, cz) to generate, or a chunk (cx, cy, cz) to mesh.
WorkItem = tuple[int, int] | tuple[int, int, int]


def _vertex_data(data: MeshData) -> GeomVertexData:
    """The mesh's vertices as one Panda3D vertex buffer."""
    rows = np.empty(data.vertex_count, dtype=_ROW)
    rows["pos"] = data.vertices.reshape(-1, 3)
    rows["rgba"][:, :3] = np.round(data.shade * 255.0).astype(np.uint8)[:, np.newaxis]
    rows["rgba"][:, 3] = 255
    rows["uv"] = data.uvs.reshape(-1, 2)
    vdata = GeomVertexData("chunk", _FORMAT, Geom.UHStatic)
    vdata.uncleanSetNumRows(data.vertex_count)
    memoryview(vdata.modifyArray(0)).cast("B")[:] = rows.data.cast("B")
    return vdata


def _direction_groups(data: MeshData) -> NDArray[np.int64]:
    """Per triangle, its face direction's index in FACE_NORMALS order, or OTHER."""
    normals = data.normals.reshape(-1, 3)[data.indices[::3]]
    axis = np.abs(normals).argmax(axis=1)
    aligned = np.abs(normals).max(axis=1) > 0.99
    negative = normals[np.arange(len(normals)), axis] < 0
    return np.where(aligned, axis * 2 + negative, OTHER)


def _geom_node(vdata: GeomVertexData, indices: NDArray[np.uint32], name: str) -> GeomNode:
    """A node drawing some triangles of a shared vertex buffer."""
    triangles = GeomTriangles(Geom.UHStatic)
    triangles.setIndexType(Geom.NTUint32)
    handle = triangles.modifyVertices()
    handle.uncleanSetNumRows(len(indices))
    memoryview(handle).cast("B").cast("I")[:] = np.ascontiguousarray(indices).data
    geom = Geom(vdata)
    geom.addPrimitive(triangles)
    node = GeomNode(name)
    node.addGeom(geom)
    return node


class ChunkView:
    """The chunk entities around a centre column, each with its direction groups."""

    def __init__(self, world: World, texture: PandaTexture, view_distance: int) -> None:
        self.world = world
        self.texture = texture
        self.view_distance = view_distance
        self.entities: dict[ChunkKey, Entity] = {}
        self._groups: dict[ChunkKey, list[NodePath | None]] = {}
        self.centre: tuple[int, int] | None = None
        self._camera_chunk: tuple[int, int, int] | None = None
        self._columns: set[tuple[int, int]] = set()
        self._queue: deque[WorkItem] = deque()
        self._prepared: set[tuple[int, int]] = set()  # columns generated or queued for it
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
        # Columns generated for meshing that are now far away are forgotten (and regenerated
        # on a return, as the world itself may have unloaded them).
        self._prepared = {
            c for c in self._prepared if max(abs(c[0] - centre[0]), abs(c[1] - centre[1])) <= r + 1
        }
        self._queue = deque(item for item in self._queue if self._still_wanted(item))
        for cx, cz in new:
            # Meshing reads the neighbouring columns: generate each of them first, as its own
            # step, so one frame never pays for several columns of terrain generation.
            for nx in (cx - 1, cx, cx + 1):
                for nz in (cz - 1, cz, cz + 1):
                    if (nx, nz) not in self._prepared:
                        self._prepared.add((nx, nz))
                        self._queue.append((nx, nz))
            self._queue.extend((cx, cy, cz) for cy in self._cy_range)

    def _still_wanted(self, item: WorkItem) -> bool:
        """Whether a queued step still matters after recentring."""
        if len(item) == 2:
            return item in self._prepared
        return (item[0], item[2]) in self._columns

    def face_camera(self, pos: tuple[float, float, float]) -> None:
        """Show only the face directions that can face a camera at ``pos``."""
        camera_chunk = (
            math.floor(pos[0]) // CHUNK[0],
            math.floor(pos[1]) // CHUNK[1],
            math.floor(pos[2]) // CHUNK[2],
        )
        before = self._camera_chunk
        if camera_chunk == before:
            return
        self._camera_chunk = camera_chunk
        if before is None:
            changed = list(self._groups)
        else:
            # Only chunks between the old and the new camera chunk, on an axis that changed,
            # can change which of their directions face the camera.
            spans = [(min(a, b), max(a, b)) for a, b in zip(before, camera_chunk, strict=True)]
            changed = [
                key
                for key in self._groups
                if any(
                    before[axis] != camera_chunk[axis] and low <= key[axis] <= high
                    for axis, (low, high) in enumerate(spans)
                )
            ]
        for key in changed:
            self._show_facing(key)

    def _show_facing(self, key: ChunkKey) -> None:
        """Hide the chunk's groups whose faces all point away from the camera's chunk."""
        camera_chunk = self._camera_chunk
        for group, node in enumerate(self._groups[key]):
            if node is None:
                continue
            if camera_chunk is None or group == OTHER:
                node.show()
                continue
            axis, negative = divmod(group, 2)
            # +x faces of chunk k can face a camera in chunk k or beyond; -x ones, k or before.
            if camera_chunk[axis] <= key[axis] if negative else camera_chunk[axis] >= key[axis]:
                node.show()
            else:
                node.hide()

    def update(self, budget_s: float) -> int:
        """Remesh dirty chunks, then run queued steps for up to ``budget_s``; returns the count."""
        done = self.remesh_dirty()
        deadline = time.perf_counter() + budget_s
        while self._queue and time.perf_counter() < deadline:
            self._run(self._queue.popleft())
            done += 1
        return done

    def remesh_dirty(self) -> int:
        """Remesh every shown or wanted chunk whose blocks changed; returns how many."""
        dirty = [key for key in self.world.pop_dirty() if (key[0], key[2]) in self._columns]
        for key in dirty:
            self._mesh(key)
        return len(dirty)

    def load_all(self) -> None:
        """Run every queued step now (the first frame, a screenshot)."""
        self.remesh_dirty()
        while self._queue:
            self._run(self._queue.popleft())

    @property
    def pending(self) -> int:
        """Steps (column generations and chunk meshings) still waiting."""
        return len(self._queue)

    def _run(self, item: WorkItem) -> None:
        """One queued step: generate a column's chunks, or mesh a chunk."""
        if len(item) == 2:
            cx, cz = item
            for cy in self._cy_range:
                self.world.chunk(cx, cy, cz)
        else:
            self._mesh(item)

    def vertex_count(self, key: ChunkKey) -> int:
        """Vertices in the chunk's vertex buffer as Panda3D holds it (0 when not drawn)."""
        nodes = [node for node in self._groups.get(key, []) if node is not None]
        if not nodes:
            return 0
        geom_node = nodes[0].node()
        count: int = geom_node.getGeom(0).getVertexData().getNumRows()
        return count

    def _mesh(self, key: ChunkKey) -> None:
        """Build (or rebuild, or drop) one chunk's entity from a fresh mesh."""
        if self.world.chunk(*key) is None:  # all air: nothing to draw
            self._drop(key)
            return
        data = mesh_chunk(self.world, *key)
        if data.vertex_count == 0:
            self._drop(key)
            return
        entity = self.entities.get(key)
        if entity is None:
            entity = Entity(
                position=(key[0] * CHUNK[0], key[1] * CHUNK[1], key[2] * CHUNK[2]),
                add_to_scene_entities=False,  # drawn, but skipped by ursina's per-frame loops
            )
            entity.setTexture(self.texture, 1)
            self.entities[key] = entity
        for old in self._groups.get(key, []):
            if old is not None:
                old.removeNode()
        vdata = _vertex_data(data)
        groups = _direction_groups(data)
        triangles = data.indices.reshape(-1, 3)
        nodes: list[NodePath | None] = []
        for group in range(OTHER + 1):
            chosen = triangles[groups == group]
            nodes.append(
                entity.attachNewNode(_geom_node(vdata, chosen.reshape(-1), f"group{group}"))
                if len(chosen)
                else None
            )
        self._groups[key] = nodes
        self._show_facing(key)
        self._set_transparency(key, entity)

    def _set_transparency(self, key: ChunkKey, entity: Entity) -> None:
        """Alpha-tested cut-outs (leaves, glass, plants); blending only for chunks with liquid."""
        blocks = self.world.chunk_blocks(*key)
        if len(self._liquid_ids) and np.isin(blocks, self._liquid_ids).any():
            # Two passes: opaque texels first, then the see-through water blended over them.
            entity.setTransparency(TransparencyAttrib.M_dual)
            entity.clearBin()
        else:
            entity.setTransparency(TransparencyAttrib.M_binary)
            entity.setBin(_BIN, 0)

    def _drop(self, key: ChunkKey) -> None:
        """Forget a chunk's entity."""
        self._groups.pop(key, None)
        entity = self.entities.pop(key, None)
        if entity is not None:
            destroy(entity)

    def destroy(self) -> None:
        """Remove every chunk entity."""
        for key in list(self.entities):
            self._drop(key)
        self._columns = set()
        self._queue.clear()
        self._prepared = set()
        self.centre = None
        self._camera_chunk = None
