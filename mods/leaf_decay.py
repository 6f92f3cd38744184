"""Leaf decay: leaves with no log within 4 blocks fall away, as in Minecraft.

Generated trees and trees a player cut down alike: a random tick (`world.blocks.abm.Abm`, Luanti's
ABM) picks a leaves block now and then, and when no ``base:log`` lies within `RADIUS` blocks
(a 9×9×9 cube, read in one call) the leaves become air. Leaves a player placed never decay: the
mod marks them with per-block data (``world.meta(pos)["placed"]``) when they are placed, as
Minecraft's ``persistent`` leaves. Decayed leaves drop nothing (there are no dropped items in the
world yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from world.blocks.abm import Abm
from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "leaves far from any log decay"

RADIUS = 4
LEAVES, LOG = "base:leaves", "base:log"
_OFFSETS = np.stack(
    np.meshgrid(*(np.arange(-RADIUS, RADIUS + 1),) * 3, indexing="ij"), axis=-1
).reshape(-1, 3)


def decay(world: ModWorld, pos: Int3) -> None:
    """A random tick on leaves: gone when no log is near and no player placed them."""
    if world.meta(*pos).get("placed"):
        return
    ids = world.get_blocks(_OFFSETS + np.asarray(pos))
    log = world.registry.block_index[world.registry.id(LOG)]
    if not (world.registry.block_index[ids] == log).any():
        world.set_block(*pos, "air")


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    """Decay acts on half the random ticks that pick leaves (a tree fades over a minute)."""
    registry.register_abm(Abm((LEAVES,), decay, chance=0.5))


@hookimpl
def on_place(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> None:
    """Leaves a player places are theirs to keep."""
    if block.name == LEAVES:
        world.meta(*pos)["placed"] = 1
