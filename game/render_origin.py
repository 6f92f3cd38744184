"""The render origin: the world point drawn at the scene's (0, 0, 0), kept near the camera.

Panda3D keeps positions and transforms in float32 (24 bits): at 10**7 blocks a position is good
to a whole block only, so chunk nodes placed at their world positions crack apart (thin lines
between chunks at 4 * 10**6, sky-coloured gaps at 10**7) and the camera moves in block steps.
So nothing world-anchored is drawn at its world position. Each node placed through a
`RenderOrigin` sits at (its world position - `origin`), computed in Python's float64 (exact for
voxel and chunk corners, within 2**-27 of a block for any position inside the world limit), and
the camera at (eye - origin) (`game.scene.follow`). The origin is a chunk corner, so chunk nodes
stay at exact small multiples of the chunk size, and it moves, in whole chunks, when the camera
goes more than `REBASE_DISTANCE` from it on some axis; every placed node is then put back at
its new render position, at once, before the frame is drawn.

What is drawn therefore never lies farther than `REBASE_DISTANCE` plus the view distance from
the render origin: within 1024 blocks float32 still carries 2**-14 of a block, at the origin or
at the world limit alike. A rebase costs one ``setPos`` a node (a few milliseconds for a
view of a thousand chunks) once every `REBASE_DISTANCE` blocks travelled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from world.geometry import Int3, Vec3
from world.voxels.layout import CHUNK

__all__ = ["REBASE_DISTANCE", "Placeable", "RenderOrigin"]

# Blocks the camera may go from the origin (per axis) before it moves: 32 chunks. Far enough
# that a rebase is rare, near enough that float32 keeps a fine grain (see the module's text).
REBASE_DISTANCE = 512.0


class Placeable(Protocol):
    """What the origin positions: a Panda3D ``NodePath`` (an ursina ``Entity`` is one)."""

    def setPos(self, x: float, y: float, z: float, /) -> None:
        """Put the node at a position relative to its parent (the scene)."""

    def isEmpty(self) -> bool:
        """Whether the node was removed (``removeNode``)."""


class RenderOrigin:
    """The chunk corner drawn at the scene's (0, 0, 0), and the world-anchored nodes it places.

    ``rebase_distance``: blocks the camera may go from the origin on any axis before it moves.
    """

    def __init__(self, rebase_distance: float = REBASE_DISTANCE) -> None:
        if not rebase_distance > 0:
            raise ValueError(f"rebase_distance must be > 0, got {rebase_distance!r}")
        self.rebase_distance = float(rebase_distance)
        self.origin = Int3(0, 0, 0)
        self.rebases = 0  # how many times the origin moved
        self._placed: dict[int, tuple[Placeable, Vec3]] = {}  # by id(node)

    def to_render(self, pos: Sequence[float]) -> Vec3:
        """Where a world position is drawn: ``pos - origin``, in float64."""
        ox, oy, oz = self.origin
        return (pos[0] - ox, pos[1] - oy, pos[2] - oz)

    def place(self, node: Placeable, pos: Sequence[float]) -> None:
        """Draw ``node`` at world position ``pos``, now and after every rebase."""
        world_pos = (pos[0], pos[1], pos[2])
        self._placed[id(node)] = (node, world_pos)
        node.setPos(*self.to_render(world_pos))

    def forget(self, node: Placeable) -> None:
        """Stop placing ``node`` (it is being removed); unknown nodes are ignored.

        A node removed without it is dropped at the next rebase (it holds the node till then).
        """
        self._placed.pop(id(node), None)

    def __len__(self) -> int:
        """How many nodes are placed."""
        return len(self._placed)

    def follow(self, eye: Sequence[float]) -> bool:
        """Move the origin to the camera's chunk corner if ``eye`` went too far from it.

        Returns whether it moved (every placed node was then re-positioned).
        """
        origin = self.origin
        if all(abs(eye[axis] - origin[axis]) <= self.rebase_distance for axis in range(3)):
            return False
        self.origin = Int3(
            *(math.floor(eye[axis] / CHUNK[axis]) * CHUNK[axis] for axis in range(3))
        )
        self.rebases += 1
        for key, (node, pos) in list(self._placed.items()):
            if node.isEmpty():  # removed without `forget`: nothing left to place
                del self._placed[key]
            else:
                node.setPos(*self.to_render(pos))
        return True
