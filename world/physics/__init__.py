"""Physics: the player's body moving through the world, as Minecraft's does.

The contract: the body's box (`physics.body`: width, height, eye height), its movement with
gravity, stepping up and flying (`physics.movement`: `Body`, `FixedStep`), collision against the
blocks' collision boxes (`physics.collision`) and swimming in liquids (`physics.swimming`).
Imports the leaves, `world.blocks` and `world.voxels`.
"""

from __future__ import annotations

from world.physics.body import EYE_HEIGHT
from world.physics.movement import Body

__all__ = ["EYE_HEIGHT", "Body"]
