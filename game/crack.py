"""The crack drawn over the block being broken: ten stages from the block atlas, alpha-blended.

A cube slightly larger than the block (`SCALE`, so it never fights the block's own faces for
depth) textured with one of the atlas tiles `world.blocks.atlas.CRACK_TILES` on all six faces; on a
shaped block (slab, stairs...) each of its selection boxes, with the part of the tile its faces
cover. The ten stage meshes are built once (a shape's when first shown) and the one showing is
switched, so a stage change costs nothing.
Which stage shows is `world.actions.breaking.BreakProgress.stage`; this module only draws it, placed
through the render origin (`game.render_origin`) as the chunks are.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from panda3d.core import Texture as PandaTexture
from panda3d.core import TransparencyAttrib
from ursina import Entity, Mesh, destroy

from game.render_origin import RenderOrigin
from game.scene import world_root
from world.blocks.atlas import CRACK_TILES, tile_uv_rect
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box, Shape

__all__ = ["SCALE", "CrackOverlay"]

SCALE = 1.002  # of the block, about its centre
# Per face: the fixed axis and side, then its four corners' (u, v) in the other two axes.
_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
_FACE_TRIANGLES = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def _cube(tile: int, boxes: Shape = FULL) -> Mesh:
    """Each box, enlarged as the block is by `SCALE`, with the part of one atlas tile its faces
    cover on every face (24 vertices and 12 triangles a box): a slab's side shows the half of
    the crack its half of the block would, as in Minecraft."""
    u0, v0, u1, v1 = tile_uv_rect(tile)
    grow = (SCALE - 1.0) / 2
    vertices, uvs = [], []
    for box in boxes:
        low, high = box[:3], box[3:]
        for axis in range(3):
            across = [a for a in range(3) if a != axis]
            for side in (low[axis] - grow, high[axis] + grow):
                for cu, cv in _CORNERS:
                    corner = [0.0, 0.0, 0.0]
                    corner[axis] = side
                    at = [high[a] if c else low[a] for a, c in zip(across, (cu, cv), strict=True)]
                    corner[across[0]] = at[0] + (grow if cu else -grow)
                    corner[across[1]] = at[1] + (grow if cv else -grow)
                    vertices.append(corner)
                    uvs.append((u0 + (u1 - u0) * at[0], v0 + (v1 - v0) * at[1]))
    triangles = np.concatenate([_FACE_TRIANGLES + 4 * face for face in range(6 * len(boxes))])
    return Mesh(
        vertices=np.array(vertices, dtype=np.float32),
        triangles=triangles,
        uvs=np.array(uvs, dtype=np.float32),
        static=True,
    )


class CrackOverlay:
    """The crack on one block in one of ten stages, or hidden."""

    def __init__(
        self, registry: BlockRegistry, atlas: PandaTexture, origin: RenderOrigin | None = None
    ) -> None:
        self.origin = RenderOrigin() if origin is None else origin  # where world positions draw
        self.entity = Entity(parent=world_root(), name="crack", enabled=False)
        self.entity.setTexture(atlas, 1)
        # Blended over the block, after the opaque chunks; it writes no depth, so water and
        # other see-through things behind it still draw.
        self.entity.setTransparency(TransparencyAttrib.M_alpha, 1)
        self.entity.setDepthWrite(False, 1)
        self.entity.setTwoSided(True, 1)  # no winding to get right; the block hides the inside
        self.registry = registry
        self._tiles = [registry.tile_id(name) for name in CRACK_TILES]
        self.meshes = [_cube(tile) for tile in self._tiles]  # the full cube's, by stage
        self.shaped_meshes: dict[tuple[Shape, int], Mesh] = {}  # by shape and stage, when needed
        for mesh in self.meshes:
            mesh.reparentTo(self.entity)
            mesh.hide()
        self._shown: Mesh | None = None
        self.block: tuple[int, int, int] | None = None
        self.stage: int | None = None

    def show(
        self, block: Sequence[int] | None, stage: int | None, block_id: int | None = None
    ) -> None:
        """Draw crack ``stage`` (0..9) on ``block``, or hide the crack (either is None).

        ``block_id``: the block's state, whose selection boxes the crack covers (the full cube
        when None).
        """
        if block is None or stage is None:
            if self._shown is not None:
                self._shown.hide()
            self.entity.enabled = False
            self.block = self.stage = self._shown = None
            return
        if not 0 <= stage < len(self.meshes):
            raise ValueError(f"stage must be 0..{len(self.meshes) - 1}, got {stage}")
        boxes = None if block_id is None else self.registry.selection_boxes[block_id]
        if not boxes:  # the full cube (None), or nothing to cover: the cube
            mesh = self.meshes[stage]
        else:
            shape = tuple(Box(*box) for box in boxes)
            shaped = self.shaped_meshes.get((shape, stage))
            if shaped is None:
                shaped = self.shaped_meshes[shape, stage] = _cube(self._tiles[stage], shape)
                shaped.reparentTo(self.entity)
            mesh = shaped
        if mesh is not self._shown:
            if self._shown is not None:
                self._shown.hide()
            mesh.show()
            self._shown = mesh
        self.stage = stage
        wx, wy, wz = (int(v) for v in block)
        if (wx, wy, wz) != self.block:
            self.block = (wx, wy, wz)
            self.origin.place(self.entity, self.block)
        self.entity.enabled = True

    def destroy(self) -> None:
        """Remove the overlay."""
        self.origin.forget(self.entity)
        destroy(self.entity)
