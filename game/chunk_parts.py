"""A drawn chunk's nodes: one geom for each way of drawing, each one primitive.

`world.mesh.pack` packs a chunk's mesh as one vertex buffer whose triangles are listed by face
direction: +x, -x, +y, -y, +z, -z and `OTHER` (plants, each triangle both ways round:
`world.mesh.pack.drawn_mesh`). Here that buffer is drawn by at most two nodes, each one geom
over the shared buffer:

- ``solid``: every face but liquids'. No transparency state at all: the chunk shader drops
  texels below half alpha itself (leaves, glass, plants).
- ``liquid``: faces drawn with a liquid block's tile (`PackedMesh.liquid`), blended after
  everything opaque, back to front, without depth writes (`blended_state`). Before, a chunk
  with water was set to Panda3D's dual transparency, every face of it drawn twice: at view
  distance 8 the rasterizer's share of a frame was 10 % longer for the same picture.

Plants were a third node, one quad a plane drawn two-sided, the shader turning the tile round
for the back. In the solid geom, one-sided both ways round over the same vertices (their back
now shows the tile mirrored, as Luanti's plantlike nodes), the turning frame was 0.7-1.4 ms
shorter at view distance 8 (20.7 → 19.4 and 22.5 → 21.8 ms in two runs) and 0.7 ms at 4
(11.3 → 10.6 ms), alternating rounds in one process: a geom and a change of culling less per
chunk with plants, and llvmpipe drops a triangle facing away before rasterizing it.

A face looking away from the camera can never be seen, so what faces away is left out of the
geom (`ChunkPart.show`), before software GL has to transform it:

- the direction groups that face away from the camera's chunk (`facing_groups`): the bottoms
  of the ground, the far sides of hills;
- in the eye's layer of chunks, where tops and bottoms both face the camera's chunk, the tops
  above and the bottoms below the eye's band of heights (`eye_band`): a top at height p can
  only face an eye above it, so with the eye in [low, high) only tops with p < high are
  drawn, and bottoms with p > low. The band is the eye's block and one either side, chosen
  again when the eye leaves it (`game.chunk_view`): a jump stays in it. Standing on the ground
  at view distance 8, that leaves out the bottoms of the leaves and overhangs below the eye
  and the tops above it: 129,000 triangles instead of 150,000.

The triangles drawn are one primitive, copied from the part's list of every triangle when that
way of drawing is first asked for (the latest `_VARIANTS` are kept): Panda3D and Mesa cost
about 3 µs a draw call, and with a primitive a direction the game made 1,148 of them at view
distance 8, 374 this way. A chunk whose way of drawing is not made yet draws the same groups
uncut if it has them, else every triangle (always right, only slower), and
`game.chunk_view.ChunkView` makes a few a frame, nearest first, so a camera crossing into a
new chunk never stalls a frame. Making one takes 77 µs a chunk (median; 124 µs p90).

Turning at view distance 8, one primitive a part and the band against a primitive a direction
and no band, alternating rounds of 15 frames in one process (medians of the rounds'
differences): -1.15 ms a frame, -1.32 ms of the main thread's CPU (27.5 → 26.3 ms a frame on a
busy machine). Merging the primitives alone: -0.6 ms, -0.7 ms of CPU.

One geom a part rather than one per direction: Panda3D's cull and draw cost about 2.7 µs a
geom, and at view distance 8 the game drew 1,250 of them, 587 this way (``igLoop`` 11.3 →
10.0 ms a frame, alternating rounds); 374 since plants joined the solid geom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    BoundingBox,
    Geom,
    GeomNode,
    GeomPrimitive,
    GeomTriangles,
    GeomVertexData,
    NodePath,
    Point3,
    RenderState,
    TransparencyAttrib,
)

from game.geometry import indexed, interleaved_format, vertex_data
from world.mesh.pack import OTHER, VERTEX_ROW, PackedMesh
from world.voxels.layout import CHUNK, chunk_layers

__all__ = [
    "Band",
    "ChunkPart",
    "blended_state",
    "chunk_parts",
    "eye_band",
    "facing_groups",
]

_FORMAT = interleaved_format(uv=True, tile=True)
if _FORMAT.getArray(0).getStride() != VERTEX_ROW.itemsize:
    raise RuntimeError("the vertex layout and its numpy mirror disagree")
_CLEAR_ALPHA = 1 / 255  # liquids blend: only fully clear texels are dropped
_ALL_GROUPS = frozenset(range(OTHER + 1))


# The heights the camera's eye is between, [low, high), local to a chunk of the eye's layer
# (`ChunkPart.show`); None for a chunk of another layer.
Band = tuple[int, int] | None
_UP, _DOWN = 2, 3  # the +y and -y direction groups
_VARIANTS = 4  # geoms a part keeps for the latest ways of drawing it (besides ``every``)


@dataclass(eq=False, slots=True)
class ChunkPart:
    """One node of a drawn chunk: its geom draws one primitive, the triangles of the groups
    ``shown`` (those of +y and -y cut to the eye's band in the eye's layer: `show`)."""

    node: NodePath
    vdata: GeomVertexData
    every: Geom  # every triangle of the part, one primitive, the groups one after the other
    spans: dict[int, tuple[int, int]]  # group: where its triangles are in ``every``'s
    corner: tuple[int, int, int] = (0, 0, 0)  # the chunk's corner in the vertices' frame
    shown: tuple[int, ...] = ()
    geom: Geom | None = None  # the geom drawn (None: the node is hidden)
    # What each (groups, band) asked for draws, made once, the latest few: crossing back and
    # forth between two chunks swaps between two geoms.
    drawn: dict[tuple[frozenset[int], Band], tuple[tuple[int, ...], Geom | None]] = field(
        default_factory=dict
    )

    def show(self, groups: frozenset[int], band: Band = None, *, build: bool = True) -> bool:
        """Draw the triangles of these direction groups only, with ``band`` those of +y and
        -y cut to the faces an eye in the band can face (module notes); the node hides when
        none is left. A way of drawing not made yet is made only when ``build``; else the
        part draws those groups uncut if it has them made, every triangle if not, and this
        returns False."""
        key = (groups, band)
        drawn = self.drawn.pop(key, None)  # put back last: the latest
        if drawn is None:
            if not build:
                self._draw(*self.drawn.get((groups, None), (tuple(self.spans), self.every)))
                return False
            drawn = self._made(groups, band)
            while len(self.drawn) >= _VARIANTS:
                del self.drawn[next(iter(self.drawn))]
        self.drawn[key] = drawn
        self._draw(*drawn)
        return True

    def triangles(self, group: int | None = None) -> NDArray[np.uint32]:
        """The vertex indices, three a triangle, of a group's triangles (every group's when
        None), as listed."""
        triangles = _triangles(self.every)
        return triangles if group is None else triangles[slice(*self.spans[group])]

    def drawn_triangles(self) -> NDArray[np.uint32]:
        """The triangles drawn now, as `triangles` (none when the node hides)."""
        return np.zeros((0, 3), np.uint32) if self.geom is None else _triangles(self.geom)

    def _made(self, groups: frozenset[int], band: Band) -> tuple[tuple[int, ...], Geom | None]:
        wanted = tuple(group for group in self.spans if group in groups)
        kept = [self.triangles(group) for group in wanted]
        if band is not None:
            rows = np.frombuffer(memoryview(self.vdata.getArray(0)), dtype=VERTEX_ROW)
            for i, group in enumerate(wanted):
                if group in (_UP, _DOWN):
                    planes = rows["pos"][kept[i][:, 0], 1] - self.corner[1]
                    # A top at height p faces an eye above it: p < eye < high; a bottom, p > low.
                    kept[i] = kept[i][planes < band[1] if group == _UP else planes > band[0]]
        shown = np.concatenate([t.ravel() for t in kept]) if kept else np.zeros(0, np.uint32)
        if len(shown) == self.every.getPrimitive(0).getNumVertices():
            return wanted, self.every
        if not len(shown):
            return wanted, None
        shown_geom = _geom(self.vdata, indexed(GeomTriangles(Geom.UHStatic), shown), self.corner)
        return wanted, shown_geom

    def _draw(self, wanted: tuple[int, ...], geom: Geom | None) -> None:
        if geom is self.geom:
            return
        self.shown, self.geom = wanted, geom
        if geom is None:
            self.node.hide()
            return
        self.node.node().setGeom(0, geom)
        self.node.show()


def _triangles(geom: Geom) -> NDArray[np.uint32]:
    """The vertex indices of a geom's one primitive, three a triangle (a view, no copy)."""
    indices = memoryview(geom.getPrimitive(0).getVertices())
    return np.frombuffer(indices, np.uint32).reshape(-1, 3)


def _geom(vdata: GeomVertexData, primitive: GeomPrimitive, corner: tuple[int, int, int]) -> Geom:
    """A geom drawing this primitive, bounded by the box of the chunk whose corner is at
    ``corner``: Panda3D would otherwise compute its bounds from every vertex it draws when it
    first culls it."""
    geom = Geom(vdata)
    geom.addPrimitive(primitive)
    geom.setBounds(BoundingBox(Point3(*corner), Point3(*np.add(corner, CHUNK).tolist())))
    return geom


def facing_groups(
    key: tuple[int, int, int], camera_chunk: tuple[int, int, int] | None
) -> frozenset[int]:
    """The direction groups of chunk ``key`` that can face a camera in ``camera_chunk`` (all
    when unknown): +x faces of chunk k can face a camera in chunk k or beyond, -x ones in k or
    before, and so on; plants face every way."""
    if camera_chunk is None:
        return _ALL_GROUPS
    return _FACING[
        (
            (camera_chunk[0] > key[0]) - (camera_chunk[0] < key[0]),
            (camera_chunk[1] > key[1]) - (camera_chunk[1] < key[1]),
            (camera_chunk[2] > key[2]) - (camera_chunk[2] < key[2]),
        )
    ]


def eye_band(key: tuple[int, int, int], band: tuple[int, int] | None) -> Band:
    """The eye's band of heights ``band`` (world blocks, [low, high)) local to chunk ``key``
    when the chunk is in one of the band's layers (None when not, or no band)."""
    if band is None or key[1] not in chunk_layers(*band):
        return None
    return (band[0] - key[1] * CHUNK[1], band[1] - key[1] * CHUNK[1])


def _facing_table() -> dict[tuple[int, ...], frozenset[int]]:
    """`facing_groups` for each side (-1, 0, 1) of the chunk the camera's chunk is on, per axis."""
    table = {}
    for sides in product((-1, 0, 1), repeat=3):
        groups = {OTHER}
        for axis, side in enumerate(sides):
            if side >= 0:
                groups.add(axis * 2)
            if side <= 0:
                groups.add(axis * 2 + 1)
        table[sides] = frozenset(groups)
    return table


_FACING = _facing_table()


def blended_state() -> RenderState:
    """How liquid faces draw: blended over what is behind them, after everything opaque and
    back to front (Panda3D's transparent bin), without hiding each other (no depth writes),
    every texel but the fully clear ones."""
    template = NodePath("liquid")
    template.setTransparency(TransparencyAttrib.M_alpha)
    template.setBin("transparent", 0)
    template.setDepthWrite(False)
    template.setShaderInput("alpha_cut", _CLEAR_ALPHA)
    state: RenderState = template.getState()
    return state


def chunk_parts(
    root: NodePath,
    mesh: PackedMesh,
    liquid_state: RenderState,
    corner: tuple[int, int, int] = (0, 0, 0),
) -> list[ChunkPart]:
    """A chunk's mesh drawn under ``root`` with the chunk's corner at ``corner`` of ``root``'s
    frame (its vertices moved there): its solid and liquid parts (module notes), each drawing
    every direction group it has until `ChunkPart.show` says otherwise."""
    vdata = vertex_data("chunk", _FORMAT, mesh.rows)  # packed rows (`world.mesh.pack`)
    if any(corner):
        rows = np.frombuffer(memoryview(vdata.modifyArray(0)), dtype=VERTEX_ROW)
        rows["pos"] += np.array(corner, np.float32)
    parts = []
    for name, groups in (("solid", mesh.groups), ("liquid", mesh.liquid)):
        counts = [len(indices) // 3 for indices in groups]  # triangles
        ends = np.cumsum(counts)
        spans = {
            group: (int(end - count), int(end))
            for group, (count, end) in enumerate(zip(counts, ends, strict=True))
            if count
        }
        if not spans:
            continue
        primitive = indexed(GeomTriangles(Geom.UHStatic), np.concatenate(groups))
        every = _geom(vdata, primitive, corner)
        geom_node = GeomNode(name)
        geom_node.addGeom(every)
        node = root.attachNewNode(geom_node)
        if name == "liquid":
            node.setState(liquid_state)
        parts.append(ChunkPart(node, vdata, every, spans, corner, tuple(spans), every))
    return parts
