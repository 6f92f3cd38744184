"""Greedy merging of a chunk mesh's cube faces into larger quads that draw the same pixels.

`merge_faces` takes unit cube-face quads (one block face each) and joins neighbours in the same
plane, with the same tile, facing the same way, into rectangles: first into runs along the
face's first in-plane axis, then runs of the same extent along the second. A merged quad keeps
four vertices, so every join saves vertices and triangles; `share_vertices` then gives merged
quads one vertex where their corners meet and are drawn alike (bench: ``bench.terrain``).

What may merge. A quad's four corners carry values (the shade, i.e. face direction times
ambient occlusion, and the sky and block light), interpolated across it. Two quads join along
an axis only when each one's values do not change along that axis (the corners at its two ends
on that axis are equal) and the two carry the same values: the merged rectangle then
interpolates exactly what its parts did (across the join nothing changes; across the other axis
the same linear change as before), whichever diagonal splits it. Quads whose corners differ
in a way that forbids a join stay as they are. So a merged mesh draws the unmerged mesh's
picture: the same texels (the tile repeats once a block through the renderer's
``fract(tile_uvs)``, `world.mesh.data.MeshData`), the same shade and light at every point.

A merged quad is its first block's quad stretched (`stretch`): its texture coordinates run
whole tile units, one per block, as one function of the position in the plane for every quad
of a tile, so neighbours agree at the corners they share.

Cost. Everything is a fixed number of numpy operations on the quads, with no loop per quad and
one sort per pass: quads are ordered by one packed integer key (part, direction, plane, then the
two in-plane coordinates), so neighbours along a run are neighbours in the order; vertices are
shared through a table indexed by position, not by sorting them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks.atlas import TILE_PX, TILE_ROWS, TILES_PER_ROW
from world.mesh.shapes import FACE_CORNERS, UV_INSET_PX, gather_rows

__all__ = [
    "KINDS",
    "NOT_MERGED",
    "TileTables",
    "canonical",
    "merge_faces",
    "share_vertices",
    "stretch",
    "tile_tables",
]

_UP = 2  # FACE_NORMALS index of +y
KINDS = 14
"""Quad kinds that merge: the six cube faces (FACE_NORMALS order), the same six reversed (a
liquid's faces seen from inside it), then an up face and an up face reversed again (a liquid's
flat surface below the top of its voxel: never joined to a full-height top). A kind is the row
of the same number of `world.mesh.boxes.CullTables.corners`."""
NOT_MERGED = KINDS
"""The kind of every other quad (box faces, plants, a liquid's sloped quads): tables give it no
stretch."""

# Per kind: the corners of its unit quad (vertex order), its axis and the two in-plane axes (a
# surface's corners as the top's: only its a and b matter here, its height is the mesher's).
_CORNERS = np.concatenate(
    [
        FACE_CORNERS,
        FACE_CORNERS[:, ::-1],
        FACE_CORNERS[_UP][None],
        FACE_CORNERS[_UP][::-1][None],
        np.zeros((1, 4, 3)),
    ]
).astype(np.int64)
_NORMAL_AXIS = np.array([0, 0, 1, 1, 2, 2] * 2 + [1, 1, 0])
_AXIS_A = np.array([1, 1, 0, 0, 0, 0] * 2 + [0, 0, 0])
_AXIS_B = np.array([2, 2, 2, 2, 1, 1] * 2 + [2, 2, 0])
# Each vertex's corner in its kind's (a, b) frame, 0 or 1 per axis.
_OFF_A = np.take_along_axis(_CORNERS, _AXIS_A[:, None, None], axis=2)[..., 0]
_OFF_B = np.take_along_axis(_CORNERS, _AXIS_B[:, None, None], axis=2)[..., 0]
_OFF_A[NOT_MERGED] = _OFF_B[NOT_MERGED] = 0
# Per kind, the vertex at the canonical corners 00, 10, 01, 11 (a + 2b).
_PERM = np.argsort(_OFF_A + 2 * _OFF_B, axis=1)
_PERM[NOT_MERGED] = np.arange(4)
# How a vertex moves per block of extra length along a and along b: (kinds, 4, 3) float32.
_UNIT = np.eye(3, dtype=np.float32)
_STRETCH_A = _OFF_A[..., None] * _UNIT[_AXIS_A][:, None, :]  # (kinds, 4, 3)
_STRETCH_B = _OFF_B[..., None] * _UNIT[_AXIS_B][:, None, :]
# Per kind and extra length along a and b (0..15 each), the 4 vertices' moves: (2048, 12).
_EXTRA = np.arange(16, dtype=np.float32)
_STRETCH = (
    (
        _STRETCH_A[:, None, None] * _EXTRA[None, :, None, None, None]
        + _STRETCH_B[:, None, None] * _EXTRA[None, None, :, None, None]
    )
    .reshape(-1, 12)
    .astype(np.float32)
)
# Per kind and chunk-local voxel (flat x*256 + y*16 + z): plane << 8 | b << 4 | a.
_XYZ = np.indices((16, 16, 16)).reshape(3, -1)
_PLACE = (_XYZ[_NORMAL_AXIS] << 8 | _XYZ[_AXIS_B] << 4 | _XYZ[_AXIS_A]).astype(np.int64)
_PLACE[NOT_MERGED] = 0
_PLACE = _PLACE.reshape(-1)
_GRID = np.array([TILES_PER_ROW, TILE_ROWS])  # tiles per atlas uv unit
_INSET = UV_INSET_PX / TILE_PX  # the uv inset, as a share of a tile
_VERTEX_SLOTS = 17**3  # vertex positions 0..16 on each axis
_VERTEX_WEIGHTS = np.array([17 * 17, 17, 1], dtype=np.float32)


def canonical(
    values: NDArray[np.int64], kind: NDArray[np.int64], rows: NDArray[np.int64]
) -> NDArray[np.int64]:
    """(4, R): of the quads ``rows``, the per-vertex ``values`` (Q, 4) at the canonical corners
    00, 10, 01, 11 of each quad's (a, b) frame (``kind`` per quad)."""
    return np.take(values.reshape(-1), gather_rows(_PERM, kind[rows]).T + rows * 4)


class TileTables(NamedTuple):
    """Per uv-table row (`world.mesh.boxes.CullTables.uvs`), what a quad drawn with it takes.

    ``origin`` (rows, 4, 2): the atlas uv of its tile's bottom-left corner, at each vertex;
    ``units`` (rows, 4, 2): a unit quad's texture coordinates in tile units from there, without
    the uv inset (`world.mesh.data.MeshData.tile_uvs`); for rows of the merging kinds, the
    texture coordinates as a function of a vertex's chunk-local position, ``frame`` (rows, 6):
    u (and v) is ``sign * position[axis] + start`` (axis of u and v, then signs, then starts;
    zeros for other rows), whole tile units a block, the same function for every quad drawn
    with the row, so stretched quads repeat the tile and agree where they meet.
    """

    origin: NDArray[np.float32]
    units: NDArray[np.float32]
    frame: NDArray[np.float32]


def tile_tables(uvs: NDArray[np.float32], cube_rows: int) -> TileTables:
    """The `TileTables` of a uv table (``uvs`` (rows, 4, 2) inset atlas uvs; ``cube_rows`` rows
    of cube faces, row ``6 * state + direction``, as many reversed, then box faces). A surface
    kind's quads take their top's rows (the same frame: u and v follow x and z)."""
    grid = _GRID.astype(np.float64)
    # The atlas grid cell each uv lies in (uv rectangles are inset, so even a tile's far edge
    # lies inside its own cell), and the uv in tile units from its corner, inset taken out
    # (`stretch` puts it back).
    origin = np.floor(uvs * grid) / grid
    inside = ((uvs - origin) * grid - _INSET) / (1.0 - 2.0 * _INSET)
    units = np.where(np.abs(inside - np.rint(inside)) < 1e-4, np.rint(inside), inside)
    kind = np.full(len(uvs), NOT_MERGED, np.int64)
    kind[:cube_rows] = np.arange(cube_rows) % 6
    kind[cube_rows : 2 * cube_rows] = 6 + np.arange(cube_rows) % 6
    # How u and v change per block along the kind's a and b axes (a unit step on one of them),
    # then along x, y, z: each of u, v follows one axis.
    ordered = np.take_along_axis(units, _PERM[kind][..., None], axis=1)
    step_a, step_b = ordered[:, 1] - ordered[:, 0], ordered[:, 2] - ordered[:, 0]
    along = _UNIT[_AXIS_A[kind]][:, :, None] * step_a[:, None, :]
    along += _UNIT[_AXIS_B[kind]][:, :, None] * step_b[:, None, :]  # (rows, 3, 2)
    axis = np.abs(along).argmax(axis=1)  # (rows, 2)
    sign = np.take_along_axis(along, axis[:, None, :], axis=1)[:, 0]
    sign[kind == NOT_MERGED] = 0
    corner0 = np.take_along_axis(_CORNERS[kind][:, 0], axis, axis=1)  # vertex 0, at the origin
    start = units[:, 0] - sign * corner0
    frame = np.concatenate([axis, sign, start], axis=1).astype(np.float32)
    return TileTables(origin.astype(np.float32), units.astype(np.float32), frame)


def merge_faces(
    part: NDArray[np.int64],
    kind: NDArray[np.int64],
    voxel: NDArray[np.int64],
    tile: NDArray[np.int64],
    code: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The rectangles the quads merge into (module notes).

    Per quad: ``part`` (quads of different parts never merge), ``kind`` (`NOT_MERGED` for quads
    that stay as they are), its chunk-local flat ``voxel``, ``tile`` (equal for quads drawn with
    the same tile the same way round) and ``code`` (Q, 4): per vertex one integer < 2**29,
    equal where the vertices are drawn alike (shade and light). At most one quad per (part,
    kind, voxel) of the kinds that merge.

    Returns each rectangle's first quad (an index into the quads; least coordinates in its
    plane) and its extents in blocks along a and along b (1 and 1 for every other quad), in
    increasing order of part; within a part, the quads that stay keep their order.
    """
    count = len(voxel)
    if count == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    # One sort key: part, kind, then the place (plane, b, a) or, for quads that stay, their
    # order, above the place's bits (so no two of them are ever neighbours in a run).
    place = np.where(kind < NOT_MERGED, _PLACE[kind << 12 | voxel], np.arange(count) << 12)
    key = (part << 40 | kind << 36) + place
    order = np.argsort(key)
    key, tile = key[order], tile[order]
    c00, c10, c01, c11 = canonical(code, kind, order)

    # Runs along a of quads constant along a.
    first, length_a = _runs(key, tile, c00 << 29 | c01, (c00 == c10) & (c01 == c11))

    # Runs of those along b, ordered by (..., plane, a, b): the same a, extent and values.
    run_key = key[first]
    run_key = (run_key & ~0xFF) | (run_key & 15) << 4 | (run_key >> 4 & 15)
    by_b = np.argsort(run_key)
    run_key, run, length_a = run_key[by_b], first[by_b], length_a[by_b]
    c00, c10, c01, c11 = c00[run], c10[run], c01[run], c11[run]
    free = (c00 == c01) & (c10 == c11)
    first, length_b = _runs(run_key, tile[run], c00 << 29 | c10, free, length_a)
    return order[run[first]], length_a[first], length_b


def _runs(
    key: NDArray[np.int64],
    tile: NDArray[np.int64],
    values: NDArray[np.int64],
    free: NDArray[np.bool_],
    extent: NDArray[np.int64] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Runs of items in ``key`` order: an item joins the one before it when its key is the next
    (the low 4 bits, its place along the run, not wrapping to 0), with the same ``tile``,
    ``values`` and ``extent`` (if given), both ``free`` (constant along the run). Returns each
    run's first item and its length."""
    join = np.zeros(len(key), np.bool_)
    join[1:] = (
        (key[1:] == key[:-1] + 1)
        & (key[1:] & 15 != 0)
        & (tile[1:] == tile[:-1])
        & (values[1:] == values[:-1])
        & free[1:]
        & free[:-1]
    )
    if extent is not None:
        join[1:] &= extent[1:] == extent[:-1]
    first = np.flatnonzero(~join)
    # The lengths: ``np.diff(first, append=len(key))``, five times faster on a few hundred.
    ends = np.empty_like(first)
    ends[:-1] = first[1:]
    ends[-1:] = len(key)
    return first, ends - first


def stretch(
    tables: TileTables,
    kind: NDArray[np.int64],
    uv: NDArray[np.int64],
    length_a: NDArray[np.int64],
    length_b: NDArray[np.int64],
    vertices: NDArray[np.float32],
    tile_uvs: NDArray[np.float32],
    uvs: NDArray[np.float32],
    origin: NDArray[np.float32],
) -> None:
    """Stretch unit quads (``vertices`` (Q, 4, 3), ``tile_uvs`` and atlas ``uvs`` (Q, 4, 2), in
    place; ``uv`` their uv-table rows, ``origin`` (Q, 4, 2) their tiles' corners) over their
    rectangles' extents; kind `NOT_MERGED` quads stay as they are.

    The texture coordinates become whole tile units, one per block, as one function of the
    position for all quads of a tile (`TileTables`): neighbours agree at the corners they share.
    The atlas uvs follow them, the uv inset put back.
    """
    row = (kind * 16 + length_a - 1) * 16 + length_b - 1
    vertices += gather_rows(_STRETCH, row).reshape(-1, 4, 3)
    # u and v as functions of the vertex positions (only the merging kinds' are kept).
    merging = (kind < NOT_MERGED)[:, None, None]
    frame = gather_rows(tables.frame, uv)  # (Q, 6): axis, sign and start of u and of v
    first = np.arange(0, 12 * len(kind), 3).reshape(-1, 4, 1)  # each vertex's x in ``vertices``
    position = np.take(vertices, first + frame[:, None, 0:2].astype(np.intp))
    np.copyto(tile_uvs, position * frame[:, None, 2:4] + frame[:, None, 4:6], where=merging)
    atlas = origin + (_INSET + tile_uvs * (1 - 2 * _INSET)) / _GRID.astype(np.float32)
    np.copyto(uvs, atlas, where=merging)


def share_vertices(
    kind: NDArray[np.int64],
    vertices: NDArray[np.float32],
    identity: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.uint32]]:
    """One vertex where quads of a merging kind have corners drawn alike.

    ``kind`` (Q,) per quad, ``vertices`` (Q, 4, 3) chunk-local positions, ``identity`` (Q, 4)
    per vertex, equal for vertices drawn alike at the same place and kind (part, tile, shade,
    light). Returns the vertices kept (indices into the 4Q) and each of the 4Q vertices' new
    number. Vertices of kind `NOT_MERGED` quads are never shared here (the packing shares
    plants' corners, which the shader draws alike whatever their normal:
    `world.mesh.pack.drawn_mesh`). Two vertices are shared when
    they are drawn alike (equal position, normal, tile, texture coordinates, shade and light),
    so the picture is unchanged; a table of vertex places finds them, in two rounds (a place
    where three differently drawn vertices meet may keep two of one kind apart: a few vertices
    more, never a wrong one).
    """
    total = 4 * len(kind)
    # Exact, < 2**24: a kind's vertices lie at whole positions, or all of them a fixed share of
    # a block below (a liquid's surface), which the floor takes away.
    place = (np.floor(vertices).reshape(-1, 3) @ _VERTEX_WEIGHTS).astype(np.int64)
    place += np.repeat(kind * _VERTEX_SLOTS, 4)
    identity = identity.reshape(-1)
    number = np.arange(total, dtype=np.int64)
    same_as = number.copy()
    left = np.flatnonzero(np.repeat(kind < NOT_MERGED, 4))
    table = np.empty(KINDS * _VERTEX_SLOTS, np.int64)
    for _ in range(2):
        table[place[left]] = left
        found = table[place[left]]
        alike = identity[found] == identity[left]
        same_as[left] = np.where(alike, found, left)
        left = left[~alike]
    kept = same_as == number
    new = np.cumsum(kept, dtype=np.int64) - 1
    return np.flatnonzero(kept), new[same_as].astype(np.uint32)
