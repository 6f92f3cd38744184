"""Meshing of shaped blocks: each selection box drawn as six quads, culled by exact face coverage.

Contract
--------
A state drawn as boxes (``registry.draw[id] == DRAW_BOXES``: slabs, stairs, fences, torches,
doors) is drawn as its selection boxes (``registry.selection_boxes[id]``), each box as six quads
with the face's normal, ``FACE_SHADE`` of its direction (no ambient occlusion; a light source's
too, as every block's) and the face's own part of its tile: the tile's uv rectangle scaled to
where the face lies within the unit face (Minecraft's and Luanti's node boxes): a bottom slab's
side shows the lower half of the side tile, its top the whole top tile.

Culling, for every drawn kind (`world.mesh.mesher` applies the same rule to cubes):

- A box face strictly inside its voxel is drawn (a torch's sides, the step of stairs) unless the
  state's own other boxes cover it from the far side (the underside of the step of stairs, a
  fence arm's end against its post): such a face is inside the block.
- A box face on its voxel's boundary (a slab's bottom, a fence post's top and bottom, the
  arms' ends) is hidden only when the neighbour across it covers the WHOLE face: the union of
  the neighbour's box faces lying on the shared plane contains the face. A cube or a liquid
  covers the whole shared face; a plant, air or an undrawn block covers nothing.
- A covering neighbour hides only when it is opaque (not ``transparent``) or of the same block
  (glass beside glass, water beside water, a fence's arm meeting the next fence's arm).
- The downward faces of the world's lowest layer are never drawn (as for cubes).

Cost: the tables (`cull_tables`: shape faces, side coverage, per-face uvs and shade, corner and
uv rows for every quad kind) are computed once per distinct registry content (a small memo of a
pure function, keyed by its tables); a chunk then costs a fixed number of array operations over
its shaped voxels' faces, and the output rows come from the tables by one gather each.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks.atlas import tile_uv_rects
from world.blocks.block_type import DRAW_BOXES, DRAW_CUBE, DRAW_LIQUID, DRAW_PLANT
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import Shape
from world.geometry import FACE_NORMALS
from world.mesh.merge import TileTables, tile_tables
from world.mesh.shapes import (
    CORNER_BOX,
    FACE_CORNERS,
    FACE_SHADE,
    FULL_SIDE,
    PADDED_INDEX,
    PLANT_CORNERS,
    UV_EDGES,
    UV_INSET_PX,
    ShapeFaces,
    shape_faces,
)

__all__ = [
    "CULL_BOXES",
    "CULL_NOTHING",
    "CULL_OPAQUE",
    "CULL_PLANT",
    "CullTables",
    "QuadArrays",
    "cull_tables",
    "mesh_boxes",
]

_FACE_SHADE = np.array(FACE_SHADE, dtype=np.float32)
_DOWN = FACE_NORMALS.index((0, -1, 0))
_UP = FACE_NORMALS.index((0, 1, 0))
_SIZE = 16


class QuadArrays(NamedTuple):
    """Quads as rows of the registry's tables (`CullTables`), ready to assemble: per quad its
    voxel (flat chunk-local index), its row of ``corners`` and of ``uvs``, its shade (Q, 4),
    whether it is split along its 1-3 diagonal, and its normal as an index (0..5 the
    FACE_NORMALS, 6..9 the plant planes)."""

    voxel: NDArray[Any]
    corner: NDArray[Any]
    uv: NDArray[Any]
    shade: NDArray[Any]
    flip: NDArray[np.bool_]
    normal: NDArray[Any]


_NO_QUADS = QuadArrays(
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
    np.zeros((0, 4), np.float32),
    np.zeros(0, np.bool_),
    np.zeros(0, np.int64),
)


class CullTables(NamedTuple):
    """A registry's meshing tables (see `cull_tables`)."""

    faces: ShapeFaces
    sides: NDArray[np.int64]
    side_full: NDArray[np.bool_]
    cull: NDArray[np.int32]
    side_bits: NDArray[np.uint16]
    corners: NDArray[np.float32]
    uvs: NDArray[np.float32]
    box_shade: NDArray[np.float32]
    box_uv: int
    tiles: TileTables


# Codes of `CullTables.cull` (a transparent cube's code is its block index, >= 0).
CULL_OPAQUE = -1
CULL_NOTHING = -2
CULL_BOXES = -3
CULL_PLANT = -4


def cull_tables(registry: BlockRegistry) -> CullTables:
    """The per-state tables the mesher culls with.

    Parameters
    ----------
    registry : BlockRegistry
        The world's registry.

    Returns
    -------
    CullTables
        ``faces``: `shape_faces`; ``sides`` (S, 6): the signature of what each state shows on
        each side (the whole side for cubes and liquids, its boxes' faces for shaped states,
        nothing for air, plants and undrawn blocks); ``side_full`` (S, 6): whether that is the
        whole side; ``cull`` (S,): what a state does to a neighbouring cube's face:
        `CULL_OPAQUE` (an opaque cube or liquid: hides it), a transparent cube's block index
        (hides it when of the same block), `CULL_BOXES` (look at ``side_full``),
        `CULL_PLANT` and `CULL_NOTHING` (hide nothing; a plant is drawn as crossed quads);
        ``side_bits`` (S,): for shaped states, bit ``d`` when the state hides a cube's face on its
        side ``d`` whatever the cube (opaque and whole there), bit ``6 + d`` when it hides it
        only for the same block (transparent and whole there);
        ``corners`` (rows, 12): quad corners in a voxel, rows from `CORNER_CUBE` the cube
        faces, `CORNER_REVERSED` the same seen from behind, `CORNER_SURFACE` the top and its
        back again (a liquid's flat surface), `CORNER_SLOPED` the cube faces and their backs
        again (a liquid's sloped quads, their vertices moved by the mesher), `CORNER_PLANT`
        the plant quads, `CORNER_BOX` the box faces of ``faces``; ``uvs`` (rows, 4, 2): rows
        ``6 * id + d`` the state's cube face ``d``, ``6 * S`` further the same reversed,
        ``box_uv + f`` the box faces; ``box_shade`` (F, 4): the box faces' shade; ``tiles``:
        per uv row, its tile and texture coordinates (`world.mesh.merge.TileTables`).
    """
    return _cull_tables(
        registry.selection_boxes,
        registry.draw.tobytes(),
        registry.transparent.tobytes(),
        registry.block_index.astype(np.int32).tobytes(),
        registry.face_tiles.astype(np.int32).tobytes(),
    )


@functools.lru_cache(maxsize=4)
def _cull_tables(
    selection_boxes: tuple[Shape | None, ...],
    draw_bytes: bytes,
    see: bytes,
    blocks: bytes,
    tiles: bytes,
) -> CullTables:
    draw = np.frombuffer(draw_bytes, dtype=np.uint8)
    transparent = np.frombuffer(see, dtype=np.bool_)
    block_index = np.frombuffer(blocks, dtype=np.int32)
    faces = shape_faces(selection_boxes)
    cube = (draw == DRAW_CUBE) | (draw == DRAW_LIQUID)
    sides = np.where(
        cube[:, None], FULL_SIDE, np.where((draw == DRAW_BOXES)[:, None], faces.sig, 0)
    )
    cull = np.where(
        cube,
        np.where(transparent, block_index, CULL_OPAQUE),
        np.where(
            draw == DRAW_BOXES, CULL_BOXES, np.where(draw == DRAW_PLANT, CULL_PLANT, CULL_NOTHING)
        ),
    ).astype(np.int32)
    # Each box face's uvs and shade, fixed by its state: its tile's rectangle scaled to the face.
    state = np.repeat(np.arange(len(faces.counts)), faces.counts)
    face_tiles = np.frombuffer(tiles, dtype=np.int32).reshape(-1, 6)
    rects = tile_uv_rects(face_tiles[state, faces.direction], inset_px=UV_INSET_PX)
    origin, extent = rects[:, None, :2], (rects[:, 2:] - rects[:, :2])[:, None, :]
    side_full = faces.cover[0][sides] & (draw == DRAW_BOXES)[:, None]
    bits = np.left_shift(1, np.arange(6))
    side_bits = (side_full & ~transparent[:, None]) @ bits + (side_full & transparent[:, None]) @ (
        bits << 6
    )
    cube_uvs = tile_uv_rects(face_tiles.reshape(-1), inset_px=UV_INSET_PX)[:, UV_EDGES]
    uvs = np.concatenate(
        [cube_uvs, cube_uvs[:, ::-1], (origin + faces.ab * extent).reshape(-1, 4, 2)]
    ).astype(np.float32)
    return CullTables(
        faces,
        sides,
        faces.cover[0][sides],
        cull,
        side_bits.astype(np.uint16),
        corners=np.concatenate(
            [
                FACE_CORNERS.reshape(6, 12),
                FACE_CORNERS[:, ::-1].reshape(6, 12),
                FACE_CORNERS[_UP].reshape(1, 12),
                FACE_CORNERS[_UP, ::-1].reshape(1, 12),
                FACE_CORNERS.reshape(6, 12),
                FACE_CORNERS[:, ::-1].reshape(6, 12),
                PLANT_CORNERS.reshape(4, 12),
                faces.corners.reshape(-1, 12),
            ]
        ).astype(np.float32),
        uvs=uvs,
        box_shade=np.repeat(_FACE_SHADE[faces.direction][:, None], 4, axis=1),
        box_uv=2 * len(cube_uvs),
        tiles=tile_tables(uvs, len(cube_uvs)),
    )


def mesh_boxes(
    registry: BlockRegistry,
    tables: CullTables,
    padded: NDArray[np.uint16],
    floor_ly: int,
) -> tuple[QuadArrays, int]:
    """The visible box faces of a padded chunk's shaped voxels, opaque blocks' faces first.

    Parameters
    ----------
    registry : BlockRegistry
        The world's registry.
    tables : CullTables
        Its `cull_tables`.
    padded : ndarray of uint16, shape (18, 18, 18)
        The chunk with a one-voxel border from its neighbours.
    floor_ly : int
        The local y of the world's lowest layer (any value outside 0..15 when not in the chunk).

    Returns
    -------
    tuple of QuadArrays and int
        The quads, in chunk-local coordinates, and how many of them (the first) belong to
        opaque blocks.
    """
    faces, sides = tables.faces, tables.sides
    centre = padded[1:-1, 1:-1, 1:-1]
    voxel = np.flatnonzero(tables.cull[centre] == CULL_BOXES)
    if not len(voxel):
        return _NO_QUADS, 0
    voxel = voxel.astype(np.int32)  # (indices kept small: faster, and below malloc's mmap size)
    ids = centre.reshape(-1)[voxel].astype(np.int32)
    counts = faces.counts[ids]
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(ids), dtype=np.int32), counts)
    first = faces.starts[ids] - (np.cumsum(counts, dtype=np.int32) - counts)
    face = np.repeat(first, counts) + np.arange(total, dtype=np.int32)
    # Only faces on the voxel's sides can be hidden: test those against their neighbours.
    edge = np.flatnonzero(faces.boundary[face])
    edge_face, edge_owner = face[edge], owner[edge]
    edge_state = ids[edge_owner]
    front = padded.reshape(-1)[PADDED_INDEX[voxel][edge_owner] + faces.front_offset[edge_face]]
    opposite = faces.direction[edge_face] ^ 1
    covering = faces.cover[faces.rect[edge_face], sides[front, opposite]]
    same = registry.block_index[front] == registry.block_index[edge_state]
    hidden = covering & (~registry.transparent[front] | same)
    on_floor = (voxel[edge_owner] >> 4) % _SIZE == floor_ly
    hidden |= (faces.direction[edge_face] == _DOWN) & on_floor
    keep = np.ones(total, dtype=np.bool_)
    keep[edge[hidden]] = False
    # Opaque blocks' faces first, then the transparent blocks' (as for cubes).
    see_through = registry.transparent[ids][owner]
    kept = np.concatenate([np.flatnonzero(keep & ~see_through), np.flatnonzero(keep & see_through)])
    opaque = int(np.count_nonzero(keep & ~see_through))
    face, owner = face[kept], owner[kept]

    quads = QuadArrays(
        voxel=voxel[owner],
        corner=face + CORNER_BOX,
        uv=face + tables.box_uv,
        shade=np.take(tables.box_shade, face, axis=0),
        flip=np.zeros(len(face), np.bool_),
        normal=faces.direction[face],
    )
    return quads, opaque
