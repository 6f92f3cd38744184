"""A chunk mesh packed as the game draws it: one interleaved vertex buffer, triangles by direction.

`pack` turns a `world.mesh.data.MeshData` into what `game.chunk_view` copies straight into a
Panda3D vertex buffer and its index buffers, so that a worker process (`world.stream.worker`)
can do this part of the work too and the frame only copies bytes:

- ``rows``: one `VERTEX_ROW` per vertex, 32 bytes: the chunk-local position, an RGBA8 colour
  (red: the shade, `MeshData.shade`; green and blue: sky and block light, 0..15 scaled by 17 to
  0..255; alpha 255), the tile uv and the tile origin (`MeshData.tile_uvs`, ``tile_origin``);
- ``groups``: the triangles (vertex indices, three a triangle) of each face direction, in
  `world.geometry.FACE_NORMALS` order, then `OTHER`: the faces on no axis (plant planes). A
  face looking away from the camera can never be seen, so the game hides the groups that face
  away from the camera's chunk before software GL transforms their vertices. In a direction's
  group the faces are ordered by their plane, the side they face first (+x faces from the
  largest x down, -x faces from the smallest up, ...): any camera that sees them sees the first
  ones nearer along that axis, so they tend to hide the later ones before software GL shades
  their pixels (llvmpipe tests depth before shading). Turning frames, two runs of alternating
  rounds in one process, CPU (all threads) and wall clock a frame, before → after: at view
  distance 4, 22.5 → 21.0 and 18.6 → 17.9 ms of CPU, 14.2 → 13.9 and 11.8 → 11.6 ms; at 8,
  32.7 → 31.2 and 33.1 → 31.4 ms of CPU, 21.8 → 21.5 and 23.0 → 21.9 ms.
  `drawn_mesh` lists the liquids' faces of a group in the reverse order: blended, they should
  go back to front. A liquid's sloped top faces no axis: it goes to `OTHER`, never hidden by
  direction (a steep slope can face an eye below its lowest corner).

Which liquids blend (`blended_liquids`): those that can be seen through (water). A liquid drawn
``opaque`` (lava: `world.blocks.liquid.Liquid.opaque`, its tile has no see-through texel) goes
with the solid faces. Blended faces are drawn after everything opaque without writing depth, so
they never hide one another: only their order does, back to front within a direction group and
a chunk, and not across groups or chunks. For water, whose faces let what is behind them show,
that is close enough; for lava it is not: a far lava face drawn after a near one would cover it,
and water behind a lava fall would be blended over the lava, which would look see-through. In
the solid faces lava writes depth and hides what is behind it, as Minecraft draws lava in its
solid layer. It stays ``transparent`` (`world.blocks.block_type.BlockType.transparent`) all the
same: under its sloped top the faces of its neighbours must still be drawn.

No engine types here: the game checks once that its vertex format has this layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.blocks.atlas import TILE_CAPACITY, tile_cells
from world.blocks.registry import BlockRegistry
from world.geometry import FACE_NORMALS
from world.mesh.data import MeshData
from world.mesh.mesher import MeshInputs, mesh_padded

__all__ = ["OTHER", "VERTEX_ROW", "PackedMesh", "blended_liquids", "drawn_mesh", "pack"]

VERTEX_ROW = np.dtype([("pos", "<f4", 3), ("rgba", "u1", 4), ("uv", "<f4", 2), ("tile", "<f4", 2)])
OTHER = len(FACE_NORMALS)  # the group of faces with no axis direction (plants)
_LIGHT_SCALE = 17.0  # light 0..15 to a byte 0..255


@dataclass(frozen=True)
class PackedMesh:
    """A chunk mesh as vertex rows and per-direction triangles (module notes)."""

    rows: NDArray[np.void]
    groups: tuple[NDArray[np.uint32], ...]
    # The faces drawn with a liquid's tile, by direction group as ``groups`` (which then holds
    # the others), back to front: `drawn_mesh` fills it, `pack` leaves it empty.
    liquid: tuple[NDArray[np.uint32], ...] = ()

    @property
    def vertex_count(self) -> int:
        return len(self.rows)


def drawn_mesh(registry: BlockRegistry, inputs: MeshInputs) -> PackedMesh:
    """A chunk's mesh as the game draws it (faces merged, packed) from
    `world.mesh.mesher.mesh_inputs`: what the worker process answers, and what the game makes itself
    when it meshes in the frame.

    Faces drawn with a blended liquid's tile (`blended_liquids`: water, not lava) go to
    ``liquid`` (the game blends them), each group's in the reverse order: back to front, as
    blending wants. Done here rather than in the frame
    (`game.chunk_parts`), the split is the worker's work: building a streamed chunk's nodes
    took the frame 0.71 ms at view distance 8 with the split, 0.12 ms without it (the split
    itself a table lookup now, not ``np.isin``).

    A merged mesh has one quad a plant plane (`world.mesh.mesher`); the game draws every face
    one-sided, so each plant triangle is listed again after them, wound the other way over the
    same vertices: seen from behind, a plant shows its tile mirrored, as Luanti's plantlike
    nodes do. So plants draw in the same geom as the chunk's other faces (`game.chunk_parts`)
    rather than in a two-sided one of their own. Plant corners drawn alike (the same row: the
    shader reads no normal) are one vertex: two plants side by side meet at four corners with
    the same texture coordinates and light, which the mesher keeps apart (their planes face
    different ways). At view distance 8 around the default spawn that is 1,396 of 37,248 plant
    vertices (`bench.terrain`).

    The rows are renumbered so that each group's vertices are one run, in the order its
    triangles first use them, so software GL can fetch and transform a drawn group's vertices
    as one short range of rows rather than pick them out of the whole chunk's. Turning frames
    at view distance 8, 600 frames in rounds of 15 alternating with the rows as `pack` orders
    them, three runs: 20.7 → 19.2, 19.0 → 18.6 and 20.0 → 19.7 ms (median), same triangles.
    """
    packed = pack(mesh_padded(registry, *inputs, merge=True))
    liquid_tile = _tiles_of(registry, blended_liquids(registry))
    plant_tile = _tiles_of(registry, registry.plant)
    solid, liquid = [], []
    for indices in packed.groups:
        faces = indices.reshape(-1, 3)
        blended = liquid_tile[tile_cells(packed.rows["tile"][faces[:, 0]])]
        solid.append(faces[~blended].reshape(-1))
        liquid.append(faces[blended][::-1].reshape(-1))
    # Plants both ways round; the other faces on no axis (an opaque liquid's sloped top) as
    # they are.
    other = solid[OTHER].reshape(-1, 3)
    is_plant = plant_tile[tile_cells(packed.rows["tile"][other[:, 0]])]
    plants = _alike(packed.rows, other[is_plant].reshape(-1))
    solid[OTHER] = np.concatenate(
        [plants, plants.reshape(-1, 3)[:, ::-1].reshape(-1), other[~is_plant].reshape(-1)]
    )
    # Each group's vertices one run of rows, in the order its triangles first use them.
    used = np.concatenate([*solid, *liquid])
    _, first = np.unique(used, return_index=True)
    order = used[np.sort(first)]
    renumber = np.empty(len(packed.rows), dtype=np.uint32)
    renumber[order] = np.arange(len(order), dtype=np.uint32)
    return PackedMesh(
        packed.rows[order],
        tuple(renumber[indices] for indices in solid),
        tuple(renumber[indices] for indices in liquid),
    )


def blended_liquids(registry: BlockRegistry) -> NDArray[np.bool_]:
    """Per state, whether it is a liquid drawn blended (module notes): every liquid but those
    whose `world.blocks.liquid.Liquid` is ``opaque`` (lava)."""
    tables = registry.liquids
    opaque = np.array([kind.liquid.opaque for kind in tables.kinds] + [False], dtype=np.bool_)
    blended: NDArray[np.bool_] = registry.liquid & ~opaque[tables.kind]  # kind -1: the last
    return blended


def _tiles_of(registry: BlockRegistry, states: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Per atlas cell, whether one of these states draws a face with its tile."""
    cells = np.zeros(TILE_CAPACITY, dtype=np.bool_)
    tiles = registry.face_tiles[states].reshape(-1)
    cells[tiles[tiles < TILE_CAPACITY]] = True  # a tile past the atlas draws nowhere
    return cells


def _alike(rows: NDArray[np.void], indices: NDArray[np.uint32]) -> NDArray[np.uint32]:
    """``indices`` with each vertex replaced by the first of the vertices they use that is
    drawn alike (its row the same bytes)."""
    used = np.unique(indices)
    records = rows[used].view(np.dtype((np.void, rows.dtype.itemsize)))
    _, first, inverse = np.unique(records, return_index=True, return_inverse=True)
    kept: NDArray[np.uint32] = used[first[inverse]][np.searchsorted(used, indices)]
    return kept


def pack(data: MeshData) -> PackedMesh:
    """The mesh's vertex rows and its triangles grouped by face direction (module notes)."""
    rows = np.empty(data.vertex_count, dtype=VERTEX_ROW)
    rows["pos"] = data.vertices.reshape(-1, 3)
    rows["rgba"][:, 0] = np.round(data.shade * 255.0).astype(np.uint8)
    rows["rgba"][:, 1:3] = np.round(data.light.reshape(-1, 2) * _LIGHT_SCALE).astype(np.uint8)
    rows["rgba"][:, 3] = 255
    rows["uv"] = data.tile_uvs.reshape(-1, 2)
    rows["tile"] = data.tile_origin.reshape(-1, 2)
    triangles = data.indices.reshape(-1, 3)
    normals = data.normals.reshape(-1, 3)[triangles[:, 0]]
    axis = np.abs(normals).argmax(axis=1)
    # On an axis exactly: a liquid's sloped top, however gentle, faces no axis, and is never
    # hidden with a direction (`game.chunk_parts`).
    aligned = np.count_nonzero(normals, axis=1) == 1
    negative = normals[np.arange(len(normals)), axis] < 0
    direction = np.where(aligned, axis * 2 + negative, OTHER)
    # In a group, the faces nearer the side they face first (module notes); plants as meshed.
    plane = data.vertices.reshape(-1, 3)[triangles[:, 0], axis]
    nearer_first = np.where(direction == OTHER, 0.0, np.where(negative, plane, -plane))
    order = np.lexsort((nearer_first, direction))
    bounds = np.searchsorted(direction[order], np.arange(OTHER + 2))
    chosen = triangles[order]
    groups = tuple(
        np.ascontiguousarray(chosen[bounds[g] : bounds[g + 1]].reshape(-1), dtype=np.uint32)
        for g in range(OTHER + 1)
    )
    return PackedMesh(rows, groups)
