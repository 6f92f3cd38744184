"""Block-break particles: a broken block scatters a few small pieces of its colour (Minecraft's
breaking particles), which fly up, fall and shrink away within a second.

Each piece is a small cube entity of the block's tile's mean colour (its side tile, as
Minecraft's particle texture), dimmed at night with the day light; pieces move in Python (no
collision), placed through the render origin (`game.render_origin`) each frame. At most
`MAX_PARTICLES` live at once (the oldest go first), so an explosion costs no more than a few
breaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray
from panda3d.core import CullFaceAttrib
from ursina import Entity, color, destroy

from game.render_origin import RenderOrigin
from game.scene import world_root
from world.blocks.atlas import tile_pixel_box
from world.blocks.registry import BlockRegistry

__all__ = ["GRAVITY", "MAX_PARTICLES", "PER_BLOCK", "BreakParticles"]

PER_BLOCK: Final = 8  # pieces a broken block scatters
MAX_PARTICLES: Final = 64  # alive at once
GRAVITY: Final = 14.0  # blocks/s², as the player's
_SIZE: Final = 0.09  # a piece's side, in blocks
_LIFE: Final = (0.45, 0.9)  # seconds a piece lives, drawn at random


@dataclass
class _Piece:
    entity: Entity
    pos: list[float]
    velocity: list[float]
    left: float
    life: float


class BreakParticles:
    """The pieces of the blocks broken lately (module notes)."""

    def __init__(
        self, registry: BlockRegistry, atlas: NDArray[np.uint8], origin: RenderOrigin
    ) -> None:
        self.registry = registry
        self.atlas = atlas  # RGBA, top row first (`game.atlas_build.build_atlas_image`)
        self.origin = origin
        self.pieces: list[_Piece] = []
        self._colours: dict[int, tuple[float, float, float]] = {}
        self._rng = random.Random(0)
        self.node = Entity(parent=world_root(), name="break particles")
        # ursina's cube is wound for its left-handed frame: under the world's mirror its
        # outside faces turn clockwise on screen, so the culling turns with them.
        self.node.setAttrib(CullFaceAttrib.makeReverse())

    def _colour(self, state: int) -> tuple[float, float, float]:
        """The mean colour of the state's side tile (its opaque texels), 0..1."""
        tile = int(self.registry.face_tiles[state][0])
        if tile not in self._colours:
            left, top, right, bottom = tile_pixel_box(tile)
            texels = self.atlas[top:bottom, left:right].reshape(-1, 4).astype(np.float64)
            opaque = texels[texels[:, 3] > 127]
            mean = opaque[:, :3].mean(axis=0) / 255.0 if len(opaque) else np.full(3, 0.5)
            self._colours[tile] = (float(mean[0]), float(mean[1]), float(mean[2]))
        return self._colours[tile]

    def burst(self, pos: Sequence[int], state: int, brightness: float = 1.0) -> None:
        """Scatter `PER_BLOCK` pieces of the broken state from voxel ``pos``."""
        r, g, b = (channel * brightness for channel in self._colour(state))
        rng = self._rng
        for _ in range(PER_BLOCK):
            if len(self.pieces) >= MAX_PARTICLES:
                self._remove(self.pieces[0])
            at = [
                pos[0] + rng.uniform(0.2, 0.8),
                pos[1] + rng.uniform(0.2, 0.8),
                pos[2] + rng.uniform(0.2, 0.8),
            ]
            velocity = [rng.uniform(-1.5, 1.5), rng.uniform(1.5, 4.0), rng.uniform(-1.5, 1.5)]
            life = rng.uniform(*_LIFE)
            entity = Entity(parent=self.node, model="cube", color=color.rgb(r, g, b), scale=_SIZE)
            piece = _Piece(entity, at, velocity, life, life)
            self.origin.place(entity, at)
            self.pieces.append(piece)

    def update(self, dt: float) -> None:
        """Move the pieces a frame on; the spent ones go."""
        for piece in list(self.pieces):
            piece.left -= dt
            if piece.left <= 0.0:
                self._remove(piece)
                continue
            piece.velocity[1] -= GRAVITY * dt
            for axis in range(3):
                piece.pos[axis] += piece.velocity[axis] * dt
            self.origin.place(piece.entity, piece.pos)
            piece.entity.scale = _SIZE * max(piece.left / piece.life, 0.2)

    def _remove(self, piece: _Piece) -> None:
        self.origin.forget(piece.entity)
        destroy(piece.entity)
        self.pieces.remove(piece)

    def destroy(self) -> None:
        """Remove every piece."""
        for piece in list(self.pieces):
            self._remove(piece)
        destroy(self.node)
