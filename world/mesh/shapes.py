"""The geometry tables of meshing: cube face frames and every state's box faces and coverage.

Contract
--------
Constants of the quad layout shared by `world.mesh.mesher` and `world.mesh.boxes` (face frames,
corner orders, the per-voxel origin table) and `shape_faces`: from a registry's
``selection_boxes``, every state's box faces (corners, texture-frame positions, whether on the
voxel's side), each side's union of faces as a signature, and which face rectangles each
signature covers, exactly (coordinate compression, no sampling). A face of a box that the
state's own other boxes cover from the far side is left out: it is inside the block.

Cost: `shape_faces` runs once per distinct ``selection_boxes`` tuple (a small memo of a pure
function); a few tens of milliseconds for the base blocks.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks.shapes import FULL, Shape
from world.geometry import FACE_NORMALS

__all__ = [
    "CORNER_AB",
    "CORNER_BOX",
    "CORNER_CUBE",
    "CORNER_PLANT",
    "CORNER_REVERSED",
    "CORNER_SLOPED",
    "CORNER_SURFACE",
    "FACE_CORNERS",
    "FACE_SHADE",
    "FRONT_OFFSETS",
    "FULL_SIDE",
    "NORMALS",
    "PADDED_INDEX",
    "PLANT_CORNERS",
    "PLANT_RIGHTS",
    "RIGHTS",
    "TRIANGLES",
    "UPS",
    "UV_EDGES",
    "UV_INSET_PX",
    "VOXEL_CORNERS",
    "ShapeFaces",
    "gather_rows",
    "shape_faces",
]

# Brightness per face direction, in FACE_NORMALS order (+x, -x, +y, -y, +z, -z): Minecraft's.
FACE_SHADE: tuple[float, ...] = (0.6, 0.6, 1.0, 0.5, 0.8, 0.8)
UV_INSET_PX = 0.02
# Quad corners in (right, up) units, in drawing order: counter-clockwise seen from outside.
CORNER_AB = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.int64)
# Two triangles per quad, along the 0-2 diagonal.
TRIANGLES = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
# Which uv rectangle edge (u0, v0, u1, v1) each corner takes.
UV_EDGES = np.array([(0, 1), (2, 1), (2, 3), (0, 3)], dtype=np.int64)


def _face_frames() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Normal, right and up vectors of each cube face, so that right × up = normal.

    The world's frame is right-handed (Minecraft's: x east, y up, z south), where the screen's
    right × up points back at the viewer: a viewer outside the face looks along -normal.
    """
    normals = np.array(FACE_NORMALS, dtype=np.int64)
    # A side's texture stands upright; the top's up is north (-z) and the bottom's south (+z),
    # as Minecraft's block models map them (and `game.icons` draws them).
    ups = np.array([(0, 0, -n[1]) if n[1] else (0, 1, 0) for n in FACE_NORMALS], dtype=np.int64)
    rights = np.cross(ups, normals)
    return normals, rights, ups


NORMALS, RIGHTS, UPS = _face_frames()
# (6, 4, 3) corner positions of the face quads of the unit cube at the origin.
FACE_CORNERS = (
    (1 + NORMALS[:, None, :] - RIGHTS[:, None, :] - UPS[:, None, :]) // 2
    + CORNER_AB[None, :, :1] * RIGHTS[:, None, :]
    + CORNER_AB[None, :, 1:] * UPS[:, None, :]
)
_SIZE = 16
# Plants: two diagonal planes, each as two quads facing opposite ways: (start corner, right).
_PLANT_STARTS = np.array([(0, 0, 0), (1, 0, 1), (1, 0, 0), (0, 0, 1)], dtype=np.int64)
PLANT_RIGHTS = np.array([(1, 0, 1), (-1, 0, -1), (-1, 0, 1), (1, 0, -1)], dtype=np.int64)
PLANT_CORNERS = (
    _PLANT_STARTS[:, None, :]
    + CORNER_AB[None, :, :1] * PLANT_RIGHTS[:, None, :]
    + CORNER_AB[None, :, 1:] * np.array([0, 1, 0])
)
# First rows of `CullTables.corners`: the cube faces, the same seen from behind (a liquid's faces
# from inside it), a liquid's top and its back again as rows of their own (`CORNER_SURFACE`: a
# source's flat surface, merged apart from full-height tops), the cube faces and their backs once
# more for a liquid's sloped quads (`CORNER_SLOPED`: never merged, their vertices moved), the
# plant quads, then the box faces.
CORNER_CUBE, CORNER_REVERSED, CORNER_SURFACE, CORNER_SLOPED = 0, 6, 12, 14
CORNER_PLANT = CORNER_SLOPED + 12
CORNER_BOX = CORNER_PLANT + 4
# Each chunk-local voxel's origin four times over, (4096, 12), flat index lx * 256 + ly * 16 + lz.
VOXEL_CORNERS = np.tile(np.indices((_SIZE,) * 3, dtype=np.float32).reshape(3, -1).T, (1, 4))
# Each voxel's flat index in the padded (18³) chunk.
PADDED_INDEX = (np.indices((_SIZE,) * 3).reshape(3, -1).T + 1) @ np.array(
    [(_SIZE + 2) ** 2, _SIZE + 2, 1]
)
_AXIS = np.argmax(np.abs(NORMALS), axis=1)
_FACE_SHADE = np.array(FACE_SHADE, dtype=np.float32)
_DOWN = FACE_NORMALS.index((0, -1, 0))
_PAD = 18
_STRIDES = np.array([_PAD * _PAD, _PAD, 1], dtype=np.int64)
FRONT_OFFSETS = NORMALS @ _STRIDES

Rect = tuple[float, float, float, float]  # (lo, lo, hi, hi) on a face plane's two other axes
FULL_RECT: Rect = (0.0, 0.0, 1.0, 1.0)
FULL_SIDE = 1
"""The side signature of a whole unit face (signature 0 is an empty side)."""


class ShapeFaces(NamedTuple):
    """Every state's box faces and side coverage, as arrays (see `shape_faces`).

    ``starts[id]``, ``counts[id]``: the state's faces in the face arrays. Per face: ``direction``
    (index into FACE_NORMALS), ``corners`` (4, 3) voxel-local positions in drawing order, ``ab``
    (4, 2) where each corner lies in the unit face's (right, up) texture frame, ``boundary`` (on
    the voxel's side), ``front_offset`` (to the neighbour across it in the padded chunk) and
    ``rect`` (an id for its rectangle on that side). ``sig[id, d]``: an id for the union of the
    state's faces on side ``d``; ``cover[rect, sig]``: whether that union contains the
    rectangle. Rect 0 is the whole face, signature `FULL_SIDE` the whole side.
    """

    starts: NDArray[np.int32]
    counts: NDArray[np.int32]
    direction: NDArray[np.int32]
    corners: NDArray[np.float32]
    ab: NDArray[np.float32]
    boundary: NDArray[np.bool_]
    front_offset: NDArray[np.int32]
    rect: NDArray[np.int32]
    sig: NDArray[np.int64]
    cover: NDArray[np.bool_]


def _covers(rect: Rect, union: Sequence[Rect]) -> bool:
    """Whether the union of rectangles contains ``rect`` (exact: cells of the compressed grid)."""
    a0, b0, a1, b1 = rect
    cuts_a = sorted({a0, a1, *(v for r in union for v in (r[0], r[2]) if a0 < v < a1)})
    cuts_b = sorted({b0, b1, *(v for r in union for v in (r[1], r[3]) if b0 < v < b1)})
    for lo_a, hi_a in itertools.pairwise(cuts_a):
        mid_a = (lo_a + hi_a) / 2
        for lo_b, hi_b in itertools.pairwise(cuts_b):
            mid_b = (lo_b + hi_b) / 2
            if not any(r[0] < mid_a < r[2] and r[1] < mid_b < r[3] for r in union):
                return False
    return True


@functools.lru_cache(maxsize=4)
def shape_faces(selection_boxes: tuple[Shape | None, ...]) -> ShapeFaces:
    """The box faces and side coverage of every state (``None`` is the unit cube).

    Parameters
    ----------
    selection_boxes : tuple
        ``registry.selection_boxes``.

    Returns
    -------
    ShapeFaces
        The tables; a memo of this pure function, so a registry's chunks share them.
    """
    rect_ids: dict[Rect, int] = {FULL_RECT: 0}
    sig_ids: dict[tuple[Rect, ...], int] = {(): 0, (FULL_RECT,): FULL_SIDE}
    start: list[int] = []
    count: list[int] = []
    sig: list[list[int]] = []
    direction: list[int] = []
    corners: list[NDArray[np.float64]] = []
    ab: list[NDArray[np.float64]] = []
    boundary: list[bool] = []
    rect: list[int] = []
    for boxes in selection_boxes:
        start.append(len(direction))
        shape = FULL if boxes is None else boxes
        sides: list[set[Rect]] = [set() for _ in FACE_NORMALS]
        for index, box in enumerate(shape):
            lo, hi = np.array(box[:3]), np.array(box[3:])
            for d, normal in enumerate(FACE_NORMALS):
                axis = int(_AXIS[d])
                others = [i for i in range(3) if i != axis]
                face_rect: Rect = (
                    float(lo[others[0]]),
                    float(lo[others[1]]),
                    float(hi[others[0]]),
                    float(hi[others[1]]),
                )
                on_side = hi[axis] == 1.0 if normal[axis] > 0 else lo[axis] == 0.0
                plane, far = (hi[axis], 0) if normal[axis] > 0 else (lo[axis], 3)
                touching = [
                    (b[others[0]], b[others[1]], b[3 + others[0]], b[3 + others[1]])
                    for j, b in enumerate(shape)
                    if j != index and b[far + axis] == plane
                ]
                if touching and _covers(face_rect, touching):
                    continue  # against the state's own box: inside the block, never seen
                position = lo + FACE_CORNERS[d] * (hi - lo)
                direction.append(d)
                corners.append(position)
                ab.append(
                    np.stack(
                        [
                            position @ RIGHTS[d] + (1 - RIGHTS[d].sum()) / 2,
                            position @ UPS[d] + (1 - UPS[d].sum()) / 2,
                        ],
                        axis=1,
                    )
                )
                boundary.append(bool(on_side))
                rect.append(rect_ids.setdefault(face_rect, len(rect_ids)))
                if on_side:
                    sides[d].add(face_rect)
        count.append(len(direction) - start[-1])
        sig.append([sig_ids.setdefault(tuple(sorted(s)), len(sig_ids)) for s in sides])
    rects = sorted(rect_ids, key=rect_ids.__getitem__)
    unions = sorted(sig_ids, key=sig_ids.__getitem__)
    cover = np.array([[_covers(r, u) for u in unions] for r in rects], dtype=np.bool_)
    return ShapeFaces(
        starts=np.array(start, dtype=np.int32),
        counts=np.array(count, dtype=np.int32),
        direction=np.array(direction, dtype=np.int32),
        corners=np.array(corners, dtype=np.float32).reshape(-1, 4, 3),
        ab=np.array(ab, dtype=np.float32).reshape(-1, 4, 2),
        boundary=np.array(boundary, dtype=np.bool_),
        front_offset=FRONT_OFFSETS[np.array(direction, dtype=np.int64)].astype(np.int32),
        rect=np.array(rect, dtype=np.int32),
        sig=np.array(sig, dtype=np.int64).reshape(-1, 6),
        cover=cover,
    )


def gather_rows(table: NDArray[Any], rows: NDArray[Any]) -> NDArray[Any]:
    """``table[rows]`` for a C-contiguous table, each row taken as one block of bytes.

    numpy's 1-D ``take`` copies fixed-size items in a tight loop, two to four times faster than
    fancy indexing or ``take(axis=0)`` of rows of a few floats.
    """
    if table.size == 0:  # no rows, or rows of nothing
        empty: NDArray[Any] = table[rows]
        return empty
    row_bytes = table.itemsize * (table.size // len(table))
    blocks = table.reshape(len(table), -1).view(np.dtype((np.void, row_bytes))).reshape(-1)
    return np.take(blocks, rows).view(table.dtype).reshape(-1, *table.shape[1:])
