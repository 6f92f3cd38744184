"""The player's body: its box and where its eyes are, in blocks (Minecraft Java's figures).

Defined once, below everything that uses them: the physics moves this box, an `Actor`
(`world.mods.outcome`) carries it so the rules can keep a block from being placed inside a player.
"""

from __future__ import annotations

__all__ = ["EYE_HEIGHT", "PLAYER_HEIGHT", "PLAYER_WIDTH"]

PLAYER_WIDTH = 0.6
PLAYER_HEIGHT = 1.8  # taller than one block and shorter than two: no 1-block gaps, 2-block ok
EYE_HEIGHT = 1.62
