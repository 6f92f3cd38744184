"""Blockpick's pure core: voxel storage, blocks, raycast, rules. Never imports the engine."""

from __future__ import annotations

from world import raycast  # the module, callable as the `raycast` function
from world.blocks import AIR, BlockRegistry, BlockType, default_registry
from world.chunks import CHUNK, Chunk, World
from world.raycast import Hit, Int3, RayBatch, Step, raycast_many, segment_voxels, traverse

__all__ = [
    "AIR",
    "CHUNK",
    "BlockRegistry",
    "BlockType",
    "Chunk",
    "Hit",
    "Int3",
    "RayBatch",
    "Step",
    "World",
    "default_registry",
    "raycast",
    "raycast_many",
    "segment_voxels",
    "traverse",
]
