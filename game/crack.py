"""The crack drawn over the block being broken: ten stages from the block atlas, alpha-blended.

A cube slightly larger than the block (`SCALE`, so it never fights the block's own faces for
depth) textured with one of the atlas tiles `world.atlas.CRACK_TILES` on all six faces. The ten
stage meshes are built once and the one showing is switched, so a stage change costs nothing.
Which stage shows is `world.breaking.BreakProgress.stage`; this module only draws it, placed
through the render origin (`game.render_origin`) as the chunks are.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from panda3d.core import Texture as PandaTexture
from panda3d.core import TransparencyAttrib
from ursina import Entity, Mesh, destroy

from game.render_origin import RenderOrigin
from world.atlas import CRACK_TILES, tile_uv_rect
from world.blocks import BlockRegistry

__all__ = ["SCALE", "CrackOverlay"]

SCALE = 1.002  # of the block, about its centre
_LO, _HI = 0.5 - SCALE / 2, 0.5 + SCALE / 2
# Per face: the fixed axis and side, then its four corners' (u, v) in the other two axes.
_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
_FACE_TRIANGLES = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def _cube(tile: int) -> Mesh:
    """The enlarged cube with one atlas tile on every face (24 vertices, 12 triangles)."""
    u0, v0, u1, v1 = tile_uv_rect(tile)
    vertices, uvs = [], []
    for axis in range(3):
        across = [a for a in range(3) if a != axis]
        for side in (_LO, _HI):
            for cu, cv in _CORNERS:
                corner = [0.0, 0.0, 0.0]
                corner[axis] = side
                corner[across[0]] = _HI if cu else _LO
                corner[across[1]] = _HI if cv else _LO
                vertices.append(corner)
                uvs.append((u1 if cu else u0, v1 if cv else v0))
    triangles = np.concatenate([_FACE_TRIANGLES + 4 * face for face in range(6)])
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
        self.entity = Entity(name="crack", enabled=False)
        self.entity.setTexture(atlas, 1)
        # Blended over the block, after the opaque chunks; it writes no depth, so water and
        # other see-through things behind it still draw.
        self.entity.setTransparency(TransparencyAttrib.M_alpha, 1)
        self.entity.setDepthWrite(False, 1)
        self.entity.setTwoSided(True, 1)  # no winding to get right; the block hides the inside
        self.meshes = [_cube(registry.tile_id(name)) for name in CRACK_TILES]
        for mesh in self.meshes:
            mesh.reparentTo(self.entity)
            mesh.hide()
        self.block: tuple[int, int, int] | None = None
        self.stage: int | None = None

    def show(self, block: Sequence[int] | None, stage: int | None) -> None:
        """Draw crack ``stage`` (0..9) on ``block``, or hide the crack (either is None)."""
        if block is None or stage is None:
            if self.stage is not None:
                self.meshes[self.stage].hide()
            self.entity.enabled = False
            self.block = self.stage = None
            return
        if not 0 <= stage < len(self.meshes):
            raise ValueError(f"stage must be 0..{len(self.meshes) - 1}, got {stage}")
        if stage != self.stage:
            if self.stage is not None:
                self.meshes[self.stage].hide()
            self.meshes[stage].show()
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
