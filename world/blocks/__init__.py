"""Blocks: what a kind of block is, and the registry of a run's blocks (knowing no content).

The contract: `BlockType` (`blocks.block_type`: one kind of block, data only, with its
properties, shapes, tiles, callbacks and ``containers``) and `BlockRegistry` (`blocks.registry`:
names to state ids and per-state numpy tables, plus the content tables its registrar fills:
items, recipes, ores, ABMs). The registry knows no block but air: the base game (`world.base`)
and every mod register theirs through `world.mods.registrar.BlockRegistrar`.

Modules: ``block_type`` (BlockType and its state properties), ``registry`` (BlockRegistry),
``shapes`` (Box, shapes and their checks), ``labels`` (text drawn on a face from a voxel's data),
``atlas`` (the base atlas's fixed tile cells), ``abm`` (a mod's random-tick action), ``ores``
(an ore's definition and its per-chunk random stream), ``drops`` (what breaking a block gives),
``liquid`` (a liquid block's flow: `Liquid`, `Meeting`, the registry's liquid tables),
``sounds`` (`SoundGroup`, what a block sounds like, and `SoundEvent`, a sound played).
Imports the leaves and `world.items`.
"""

from __future__ import annotations

from world.blocks.block_type import AIR, BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import Box
from world.blocks.sounds import SoundEvent, SoundGroup

__all__ = ["AIR", "BlockRegistry", "BlockType", "Box", "SoundEvent", "SoundGroup"]
