"""The thin dark outline drawn around the targeted block's selection shape.

As in Minecraft, the outline follows the targeted state's whole selection shape
(`BlockRegistry.selection_boxes`): every box of it, not only the box the ray hit (a stair shows
both its boxes, a slab its half, a torch its stick; ``None`` is the full cube). Each box is drawn
as its 12 edges, `MARGIN` outside its faces. One line mesh a distinct shape is built the first
time it is targeted and kept, so moving the target costs a position and a show. The outline is
placed through the render origin (`game.render_origin`), as the chunks are. A targeted entity
gets the same thin outline round its box (`BlockOutline.show_box`).
"""

from __future__ import annotations

import itertools

from panda3d.core import NodePath, TransparencyAttrib
from ursina import Entity, Mesh, destroy

from game.render_origin import RenderOrigin
from game.scene import world_root
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box, Shape
from world.geometry import Vec3
from world.ray import Hit

__all__ = ["MARGIN", "BlockOutline", "outline_segments"]

MARGIN = 0.003  # just outside the box's faces, so the lines are not hidden in them
_CORNERS = list(itertools.product((0, 1), repeat=3))
# A box's 12 edges: corner pairs that differ in exactly one coordinate.
_EDGES = [
    (a, b)
    for a, b in itertools.combinations(range(8), 2)
    if sum(p != q for p, q in zip(_CORNERS[a], _CORNERS[b], strict=True)) == 1
]


def outline_segments(boxes: Shape) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """The line segments outlining ``boxes`` (12 a box), each box grown by `MARGIN`."""
    segments = []
    for box in boxes:
        low = (box.x0 - MARGIN, box.y0 - MARGIN, box.z0 - MARGIN)
        high = (box.x1 + MARGIN, box.y1 + MARGIN, box.z1 + MARGIN)
        corners = [
            tuple(high[axis] if bit else low[axis] for axis, bit in enumerate(corner))
            for corner in _CORNERS
        ]
        segments += [(corners[a], corners[b]) for a, b in _EDGES]
    return segments


def _line_mesh(boxes: Shape) -> Mesh:
    """One line mesh outlining every box."""
    segments = outline_segments(boxes)
    vertices = [point for segment in segments for point in segment]
    pairs = [(2 * i, 2 * i + 1) for i in range(len(segments))]
    return Mesh(vertices=vertices, triangles=pairs, mode="line", thickness=2, static=True)


class BlockOutline:
    """Line boxes that follow the raycast's hit (hidden when nothing is targeted)."""

    def __init__(self, registry: BlockRegistry, origin: RenderOrigin | None = None) -> None:
        self.registry = registry
        self.origin = RenderOrigin() if origin is None else origin
        self.entity = Entity(parent=world_root(), name="block outline", enabled=False)
        self.entity.setColorScale(0.0, 0.0, 0.0, 0.7)  # the lines are white: dark, see-through
        self.entity.setTransparency(TransparencyAttrib.M_dual)
        self.meshes: dict[Shape, NodePath] = {}  # by shape, built when first targeted
        self.shape: Shape | None = None  # the boxes shown
        self.block: tuple[int, int, int] | None = None

    def show(self, hit: Hit | None) -> None:
        """Put the outline around ``hit.block``'s selection boxes, or hide it."""
        boxes = None if hit is None else self.registry.selection_boxes[hit.block_id]
        shape = FULL if boxes is None else tuple(Box(*b) for b in boxes)
        if hit is None or not shape:
            self.entity.enabled = False
            return
        self._show_shape(shape)
        block = (int(hit.block[0]), int(hit.block[1]), int(hit.block[2]))
        if block != self.block:
            self.block = block
            self.origin.place(self.entity, block)
        self.entity.enabled = True

    def show_box(self, corner: Vec3, size: tuple[float, float]) -> None:
        """Put the outline around a targeted entity's box: its lowest ``corner`` in world units
        and its ``size`` (width on x and z, height); one mesh a size."""
        width, height = size
        self._show_shape((Box(0.0, 0.0, 0.0, width, height, width),))
        self.block = None
        self.origin.place(self.entity, corner)
        self.entity.enabled = True

    def _show_shape(self, shape: Shape) -> None:
        """Show the line mesh of ``shape`` (built the first time)."""
        if shape != self.shape:
            if self.shape is not None:
                self.meshes[self.shape].hide()
            mesh = self.meshes.get(shape)
            if mesh is None:
                mesh = self.meshes[shape] = _line_mesh(shape)
                mesh.reparentTo(self.entity)
            mesh.show()
            self.shape = shape

    def destroy(self) -> None:
        """Remove the outline."""
        self.origin.forget(self.entity)
        destroy(self.entity)
