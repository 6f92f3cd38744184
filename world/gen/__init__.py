"""World generation: noise, terrain, the generators by name, and mods' ores and hooks on top.

The contract: `gen.generators` (the named generators a save records, `make_generator`),
`gen.terrain` (the seeded terrain), made of `gen.biomes` (each column's biome, `biome_at`, which
mods' ``on_generated`` may ask, and the blended ground height), `gen.caves` (the caves' carving
field), `gen.plants` (trees and cacti) and `gen.noise` (the hash noise, 2-D and 3-D), and
`gen.worldgen` (ores placed in numpy and the mods' ``on_generated``, each given a sealed
`world.mods.generated.GeneratedChunk`).
Imports `world.blocks`, `world.voxels` and `world.mods`.
"""

from __future__ import annotations

from world.gen.biomes import BIOMES, biome_at
from world.gen.generators import make_generator
from world.gen.worldgen import worldgen_factory

__all__ = ["BIOMES", "biome_at", "make_generator", "worldgen_factory"]
