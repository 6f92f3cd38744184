"""Voxels: the world's storage, the chunks in flat numpy arrays and everything kept per voxel.

The contract: `World` (`voxels.chunks`: 16³ chunks in ONE flat uint16 array each, local voxel
(x, y, z) at ``x*wy*wz + y*wz + z``; single and bulk reads and writes; which chunks are dirty
and which hold unsaved changes), the chunk layout (`voxels.layout`), per-voxel data and timers
(`voxels.block_data`) and the scheduled liquid ticks (`voxels.liquid_ticks`), the entities by
chunk (`voxels.entities`: dropped stacks, falling blocks, mods' creatures, as records) and the
players with their inventories (`voxels.players`), the edit journal that marks every change
unsaved and records an action's undo log (`voxels.journal`), what an action changed
(`voxels.changes`) and each mod's saved store (`voxels.mod_storage`). The store takes its
registry explicitly; ``world.World()`` is the one that defaults to the base game's.

Modules: ``layout``, ``chunks``, ``block_data``, ``liquid_ticks``, ``entities``, ``players``,
``journal``, ``changes``, ``mod_storage``, ``padded`` (a chunk with its neighbours' border
voxels, for the light and the mesher). Imports the leaves, `world.items` and `world.blocks`.
"""

from __future__ import annotations

from world.voxels.changes import Change
from world.voxels.chunks import World
from world.voxels.layout import CHUNK, Chunk

__all__ = ["CHUNK", "Change", "Chunk", "World"]
