"""Greedy merging of a chunk mesh's cube faces into larger quads that draw the same pixels.

`merge_quads` takes unit cube-face quads (one block face each) and joins neighbours in the same
plane, with the same tile, facing the same way, into rectangles: first into runs along the
face's first in-plane axis, then runs of the same extent along the second. A merged quad keeps
four vertices, so every join saves vertices and triangles (bench: ``bench.terrain``).

What may merge. A quad's four corners carry values (the shade, i.e. face direction times
ambient occlusion, and the sky and block light), interpolated across it. Two quads join along
an axis only when each one's values do not change along that axis (the corners at its two ends
on that axis are equal) and the two carry the same values: the merged rectangle then
interpolates exactly what its parts did (across the join nothing changes; across the other axis
the same linear change as before), whichever diagonal splits it. Quads whose corners differ
in a way that forbids a join stay as they are. So a merged mesh draws the unmerged mesh's
picture: the same texels (the tile repeats once a block through the renderer's
``fract(tile_uvs)``, `world.mesher.MeshData`), the same shade and light at every point.

A merged quad's texture coordinates run whole tile units, one per block, from the tile's corner
(an unmerged quad's are inset by `world.mesher_shapes.UV_INSET_PX`, 1/800 of a tile; the
renderer clamps inside the tile). All vectorised: a few sorts over the quads, no loop per quad.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.chunk_layout import CHUNK_SHIFT

__all__ = ["FaceQuads", "merge_parts", "merge_quads", "share_vertices"]

_MASK = (1 << CHUNK_SHIFT) - 1
# Per face direction (FACE_NORMALS order: +x -x +y -y +z -z): its axis and the two in-plane axes.
_NORMAL_AXIS = np.array([0, 0, 1, 1, 2, 2])
_AXIS_A = np.array([1, 1, 0, 0, 0, 0])
_AXIS_B = np.array([2, 2, 2, 2, 1, 1])


class FaceQuads(NamedTuple):
    """Unit cube-face quads as the mesher assembles them (Q quads, 4 vertices each).

    ``voxel`` is the chunk-local flat index of the block (``x*256 + y*16 + z``), ``face`` its
    direction 0..5, ``tile_key`` anything equal for quads drawn with the same tile the same way
    round (the mesher's uv-table row); ``vertices`` (Q, 4, 3), ``shade`` (Q, 4), ``light``
    (Q, 4, 2), ``tile_origin`` (Q, 4, 2), ``tile_uvs`` (Q, 4, 2), ``flip`` (Q,).
    """

    voxel: NDArray[np.int64]
    face: NDArray[np.int64]
    tile_key: NDArray[np.int64]
    vertices: NDArray[np.float32]
    shade: NDArray[np.float32]
    light: NDArray[np.float32]
    tile_origin: NDArray[np.float32]
    tile_uvs: NDArray[np.float32]
    flip: NDArray[np.bool_]


def merge_quads(
    quads: FaceQuads, part: NDArray[np.int64] | None = None
) -> tuple[FaceQuads, NDArray[np.int64], NDArray[np.int64]]:
    """The quads merged into rectangles that draw the same picture (module notes).

    ``part`` numbers groups of quads that never merge with each other (default: one group);
    the result keeps the groups in increasing order. Returns the rectangles (each ``voxel`` is
    its first block, least coordinates in its plane); per rectangle vertex, a key (R, 4, 2)
    equal for vertices drawn alike: the same position, face, tile and values (`share_vertices`);
    and each rectangle's group.
    """
    count = len(quads.voxel)
    part = np.zeros(count, np.int64) if part is None else part.astype(np.int64)
    face = quads.face.astype(np.int64)
    voxel = quads.voxel.astype(np.int64)
    xyz = np.stack([voxel >> (2 * CHUNK_SHIFT), (voxel >> CHUNK_SHIFT) & _MASK, voxel & _MASK], 1)
    rows = np.arange(count)
    axis_a, axis_b = _AXIS_A[face], _AXIS_B[face]
    plane = xyz[rows, _NORMAL_AXIS[face]]
    a, b = xyz[rows, axis_a], xyz[rows, axis_b]
    # Each vertex's corner in the face's (a, b) frame, 0 or 1 per axis; canonical index a + 2b.
    offset = np.rint(quads.vertices - xyz[:, None, :].astype(np.float32)).astype(np.int64)
    off_a = np.take_along_axis(offset, axis_a[:, None, None], axis=2)[..., 0]
    off_b = np.take_along_axis(offset, axis_b[:, None, None], axis=2)[..., 0]
    order = np.empty((count, 4), np.int64)  # the vertex at canonical corners 00, 10, 01, 11
    order[rows[:, None], off_a + 2 * off_b] = np.arange(4)[None, :]
    # One integer per vertex for everything interpolated across it. Exact: shades are a few
    # products of fixed levels; smooth light averages 1 to 4 levels (twelfths are whole).
    code = (
        np.rint(quads.shade * 4096.0).astype(np.int64) << 16
        | np.rint(quads.light[..., 0] * 12.0).astype(np.int64) << 8
        | np.rint(quads.light[..., 1] * 12.0).astype(np.int64)
    )
    c = np.take_along_axis(code, order, axis=1)
    c00, c10, c01, c11 = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    tile = quads.tile_key.astype(np.int64)
    # What must match, but for the position in the plane (uv rows: < 12 × 65,536 states).
    group = ((part * 8 + face) * 32 + plane) << 24 | tile

    # Runs along a, of quads whose values do not change along a.
    run_of, first = _runs((c00 == c10) & (c01 == c11), (group * 32 + b, c00 << 32 | c01), a)
    length_a = np.bincount(run_of, minlength=len(first))
    # Runs of those along b, of the same extent, whose values do not change along b.
    rep = first
    free = (c00[rep] == c01[rep]) & (c10[rep] == c11[rep])
    keys = ((group[rep] * 32 + a[rep]) * 32 + length_a, c00[rep] << 32 | c10[rep])
    rect_of, first_b = _runs(free, keys, b[rep])
    length_b = np.bincount(rect_of, minlength=len(first_b))
    rep, length_a = rep[first_b], length_a[first_b]
    keep = np.argsort(part[rep], kind="stable")  # the parts in order
    rep, length_a, length_b = rep[keep], length_a[keep], length_b[keep]

    at_a = a[rep, None] + off_a[rep] * length_a[:, None]  # each corner's place in the plane
    at_b = b[rep, None] + off_b[rep] * length_b[:, None]
    vertices = quads.vertices[rep].copy()
    picked = np.arange(len(rep))[:, None]
    corners = np.arange(4)[None, :]
    vertices[picked, corners, axis_a[rep][:, None]] = at_a
    vertices[picked, corners, axis_b[rep][:, None]] = at_b
    # Texture coordinates in whole tile units, one per block from the tile's corner, as one
    # function of the position in the plane for every quad of a tile: neighbours agree at the
    # corners they share.
    uvs = np.take_along_axis(quads.tile_uvs[rep], order[rep][..., None], axis=1)
    step_a = np.rint(uvs[:, 1] - uvs[:, 0])  # one tile a block, along a and along b
    step_b = np.rint(uvs[:, 2] - uvs[:, 0])
    start = np.rint(uvs[:, 0])  # whole tiles move nothing: ``fract`` is the same
    tile_uvs = (
        start[:, None, :]
        + at_a[..., None].astype(np.float32) * step_a[:, None, :]
        + at_b[..., None].astype(np.float32) * step_b[:, None, :]
    )
    where = at_a * 32 + at_b
    vertex_key = np.stack(
        [np.broadcast_to(group[rep, None], where.shape), where << 32 | code[rep]], -1
    )
    merged = FaceQuads(
        voxel=quads.voxel[rep],
        face=quads.face[rep],
        tile_key=quads.tile_key[rep],
        vertices=vertices,
        shade=quads.shade[rep],
        light=quads.light[rep],
        tile_origin=quads.tile_origin[rep],
        tile_uvs=tile_uvs.astype(np.float32),
        flip=quads.flip[rep],
    )
    return merged, vertex_key, part[rep]


def _runs(
    free: NDArray[np.bool_],
    keys: tuple[NDArray[np.int64], NDArray[np.int64]],
    position: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Group the ``free`` items with equal ``keys`` and consecutive ``position`` into runs; every
    other item is a run of its own. Returns each item's run number and each run's first item."""
    count = len(position)
    items = np.flatnonzero(free)
    order = items[np.lexsort((position[items], keys[1][items], keys[0][items]))]
    starts = np.ones(len(order), dtype=np.bool_)
    starts[1:] = (
        (keys[0][order[1:]] != keys[0][order[:-1]])
        | (keys[1][order[1:]] != keys[1][order[:-1]])
        | (position[order[1:]] != position[order[:-1]] + 1)
    )
    run_of = np.empty(count, dtype=np.int64)
    run_of[order] = np.cumsum(starts) - 1
    fixed = np.flatnonzero(~free)
    runs = int(np.count_nonzero(starts))
    run_of[fixed] = runs + np.arange(len(fixed))
    return run_of, np.concatenate([order[starts], fixed])


def share_vertices(
    fields: list[NDArray[np.float32]], indices: NDArray[np.uint32], keys: NDArray[np.int64]
) -> tuple[list[NDArray[np.float32]], NDArray[np.uint32]]:
    """One vertex for each group of vertices with equal ``keys`` rows (V, 2): ``fields`` are
    per-vertex arrays (V, k), ``indices`` are remapped. The picture is unchanged: equal keys
    mean equal attributes (`merge_quads`)."""
    if len(indices) == 0:
        return fields, indices
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    high, low = keys[order, 0], keys[order, 1]
    new = np.ones(len(order), dtype=np.bool_)
    new[1:] = (high[1:] != high[:-1]) | (low[1:] != low[:-1])
    number = np.empty(len(order), dtype=np.uint32)
    number[order] = np.cumsum(new) - 1
    first = order[new]
    return [f[first] for f in fields], number[indices]


def merge_parts(
    sizes: list[int], merge: list[bool], quads: FaceQuads
) -> tuple[FaceQuads, NDArray[np.int64]]:
    """The flagged parts' quads merged (`world.mesher_merge`), the others as they are, in the
    parts' order; with each vertex's sharing key (unique for the unmerged parts' vertices)."""
    part_of = np.repeat(np.arange(len(sizes)), sizes)
    flagged = np.repeat(np.array(merge, dtype=np.bool_), sizes)
    joined, joined_keys, joined_part = merge_quads(
        FaceQuads._make(a[flagged] for a in quads), part_of[flagged]
    )
    joined_sizes = np.bincount(joined_part, minlength=len(sizes))
    pieces, keys, start, taken = [], [], 0, 0
    for size, can, made in zip(sizes, merge, joined_sizes.tolist(), strict=True):
        if can:
            pieces.append(FaceQuads._make(a[taken : taken + made] for a in joined))
            keys.append(joined_keys[taken : taken + made])
            taken += made
        else:
            pieces.append(FaceQuads._make(a[start : start + size] for a in quads))
            own = -1 - np.arange(4 * start, 4 * (start + size), dtype=np.int64).reshape(-1, 4)
            keys.append(np.stack([own, own], axis=-1))
        start += size
    merged = FaceQuads._make(np.concatenate(arrays) for arrays in zip(*pieces, strict=True))
    return merged, np.concatenate(keys)
