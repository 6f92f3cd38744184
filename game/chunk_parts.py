"""A drawn chunk's nodes: one geom for each way of drawing, one primitive for each face direction.

`world.mesh_pack` packs a chunk's mesh as one vertex buffer whose triangles are listed by face
direction: +x, -x, +y, -y, +z, -z and `OTHER` (plants, each triangle both ways round:
`world.mesh_pack.drawn_mesh`). Here that buffer is drawn by at most two nodes, each one geom
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

A face looking away from the camera can never be seen, so the primitives of directions that
face away from the camera's chunk are left out of the geom (`ChunkPart.show_groups`, from
`facing_groups`): in a typical view that skips about half the triangles before software GL has
to transform them (the bottoms of the ground, the far sides of hills). One geom a part rather
than one per direction: Panda3D's cull and draw cost about 2.7 µs a geom, and at view distance 8
the game drew 1,250 of them, 587 this way (``igLoop`` 11.3 → 10.0 ms a frame, alternating rounds);
374 since plants joined the solid geom.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import product

from panda3d.core import (
    BoundingBox,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    NodePath,
    Point3,
    RenderState,
    TransparencyAttrib,
)

from game.geometry import indexed, interleaved_format, vertex_data
from world.chunks import CHUNK
from world.mesh_pack import OTHER, VERTEX_ROW, PackedMesh

__all__ = ["ChunkPart", "blended_state", "chunk_parts", "facing_groups"]

_FORMAT = interleaved_format(uv=True, tile=True)
if _FORMAT.getArray(0).getStride() != VERTEX_ROW.itemsize:
    raise RuntimeError("the vertex layout and its numpy mirror disagree")
_CLEAR_ALPHA = 1 / 255  # liquids blend: only fully clear texels are dropped
_ALL_GROUPS = frozenset(range(OTHER + 1))


@dataclass(eq=False, slots=True)
class ChunkPart:
    """One node of a drawn chunk: its geom draws the primitives of the groups ``shown``."""

    node: NodePath
    vdata: GeomVertexData
    primitives: dict[int, GeomTriangles]  # direction group: its triangles
    shown: tuple[int, ...] = ()
    # What each set of groups asked for draws (None: nothing), made once: crossing back and
    # forth between two chunks swaps between two geoms.
    drawn: dict[frozenset[int], tuple[tuple[int, ...], Geom | None]] = field(default_factory=dict)

    def show_groups(self, groups: frozenset[int]) -> None:
        """Draw the primitives of these direction groups only (the node hides when none)."""
        drawn = self.drawn.get(groups)
        if drawn is None:
            wanted = tuple(group for group in self.primitives if group in groups)
            geom = _geom(self.vdata, [self.primitives[g] for g in wanted]) if wanted else None
            drawn = self.drawn[groups] = (wanted, geom)
        wanted, geom = drawn
        if wanted == self.shown:
            return
        self.shown = wanted
        if geom is None:
            self.node.hide()
            return
        self.node.node().setGeom(0, geom)
        self.node.show()


_CHUNK_BOX = BoundingBox(Point3(0, 0, 0), Point3(*CHUNK))


def _geom(vdata: GeomVertexData, primitives: Iterable[GeomTriangles]) -> Geom:
    """A geom drawing these primitives, bounded by the chunk's box: Panda3D would otherwise
    compute its bounds from every vertex it draws when it first culls it."""
    geom = Geom(vdata)
    for primitive in primitives:
        geom.addPrimitive(primitive)
    geom.setBounds(_CHUNK_BOX)
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


def chunk_parts(root: NodePath, mesh: PackedMesh, liquid_state: RenderState) -> list[ChunkPart]:
    """A chunk's mesh drawn under ``root``: its solid and liquid parts (module notes), each
    drawing every direction group it has until `ChunkPart.show_groups` says otherwise."""
    vdata = vertex_data("chunk", _FORMAT, mesh.rows)  # packed rows (`world.mesh_pack`)
    parts = []
    for name, groups in (("solid", mesh.groups), ("liquid", mesh.liquid)):
        primitives = {
            group: indexed(GeomTriangles(Geom.UHStatic), indices)
            for group, indices in enumerate(groups)
            if len(indices)
        }
        if not primitives:
            continue
        geom = _geom(vdata, primitives.values())
        geom_node = GeomNode(name)
        geom_node.addGeom(geom)
        node = root.attachNewNode(geom_node)
        if name == "liquid":
            node.setState(liquid_state)
        every = tuple(primitives)
        parts.append(ChunkPart(node, vdata, primitives, every, {_ALL_GROUPS: (every, geom)}))
    return parts
