"""World generation: noise, terrain, the generators by name, and mods' ores and hooks on top.

The contract: `gen.generators` (the named generators a save records, `make_generator`),
`gen.terrain` (the seeded terrain), `gen.noise` (its hash noise) and `gen.worldgen` (ores placed in
numpy and the mods' ``on_generated``, each given a sealed `world.mods.generated.GeneratedChunk`).
Imports `world.blocks`, `world.voxels` and `world.mods`.
"""

from __future__ import annotations

from world.gen.generators import make_generator
from world.gen.worldgen import worldgen_factory

__all__ = ["make_generator", "worldgen_factory"]
