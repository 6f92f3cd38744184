"""Blockpick's pure core: voxel storage, blocks, raycast, rules. Never imports the engine.

The top of the package: the public names outside code and mods use, and the one place where the
engine meets the base game's content (`world.base`): ``World()`` is a world of the base game's
blocks. Everything below takes its registry explicitly (`world.voxels.chunks.World`).
"""

from __future__ import annotations

from world.base import default_registry
from world.blocks.block_type import AIR, BlockType
from world.blocks.registry import BlockRegistry
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
from world.voxels.chunks import World as VoxelWorld
from world.voxels.layout import CHUNK, DEFAULT_BUILD_HEIGHT, Chunk, ChunkSource

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


class World(VoxelWorld):
    """A voxel world (`world.voxels.chunks.World`) of the base game's blocks unless given a
    registry:
    ``World()``, the contract's entry point (`world.base.default_registry`)."""

    def __init__(
        self,
        registry: BlockRegistry | None = None,
        generator: ChunkSource | None = None,
        build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT,
    ) -> None:
        super().__init__(
            default_registry() if registry is None else registry, generator, build_height
        )
