"""Blockpick's pure core: chunked voxel storage, blocks, raycast, rules. Never imports the engine."""

from __future__ import annotations

from world.blocks import AIR, BlockRegistry, BlockType, default_registry
from world.chunks import CHUNK, Chunk, World

__all__ = [
    "AIR",
    "CHUNK",
    "BlockRegistry",
    "BlockType",
    "Chunk",
    "World",
    "default_registry",
]
