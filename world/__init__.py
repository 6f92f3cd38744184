"""Blockpick's pure core: voxel storage, blocks, raycast, rules. Never imports the engine."""

from __future__ import annotations

from world.blocks import AIR, BlockRegistry, BlockType, default_registry
from world.chunks import CHUNK, Chunk, World
from world.geometry import FACE_NORMALS, Int3, Vec3
from world.ray import (
    MAX_REACH,
    Hit,
    RayBatch,
    Step,
    raycast,
    raycast_many,
    segment_voxels,
    traverse,
)
from world.validate import WORLD_LIMIT

__all__ = [
    "AIR",
    "CHUNK",
    "FACE_NORMALS",
    "MAX_REACH",
    "WORLD_LIMIT",
    "BlockRegistry",
    "BlockType",
    "Chunk",
    "Hit",
    "Int3",
    "RayBatch",
    "Step",
    "Vec3",
    "World",
    "default_registry",
    "raycast",
    "raycast_many",
    "segment_voxels",
    "traverse",
]
