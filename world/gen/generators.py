"""Named world generators and the one table of their names: what a save records and rebuilds.

Contract
--------
- A generator is a `world.voxels.chunks.ChunkGenerator`: ``gen(cx, cy, cz)`` gives a chunk's blocks
  from the coordinates and its ``seed`` alone, and its ``name`` is a key of `GENERATORS`. A save
  records ``(name, seed)``; `make_generator` rebuilds the same generator from them, so chunks a
  player never changed are generated again rather than saved.
- Every generator class is built the same way, ``cls(registry, seed)`` (keywords welcome), so
  the table maps names straight to classes. `make_generator(name, seed, registry)` is the one
  `world.save.format.GeneratorFactory`: the game, the store (through its caller) and the
  command line build generators here and nowhere else.
- `TerrainGenerator` is the seeded terrain of `world.gen.terrain`; `FlatGenerator` stacks block
  layers (Minecraft's superflat). Both also answer ``surface_height`` and ``spawn_point``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.gen.terrain import generate_chunk, spawn_point, surface_height
from world.validate import integer
from world.voxels.layout import CHUNK, CHUNK_VOLUME

__all__ = [
    "DEFAULT_FLAT_LAYERS",
    "GENERATORS",
    "FlatGenerator",
    "Generator",
    "TerrainGenerator",
    "make_generator",
]


def _check_registry(registry: object) -> BlockRegistry:
    if not isinstance(registry, BlockRegistry):
        raise ValueError(f"registry must be a BlockRegistry, got {type(registry).__name__}")
    return registry


class TerrainGenerator:
    """The seeded terrain as a `world.voxels.chunks.ChunkGenerator`: ``World(generator=gen)``.

    Parameters
    ----------
    registry : BlockRegistry
        The world's registry (holding the base blocks).
    seed : int
        World seed.
    """

    name = "terrain"

    def __init__(self, registry: BlockRegistry, seed: int = 0) -> None:
        self.registry = _check_registry(registry)
        self.seed = integer(seed, "seed")

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        return generate_chunk(self.seed, cx, cy, cz, self.registry)

    def surface_height(self, wx: int, wz: int) -> int:
        """See `world.gen.terrain.surface_height`."""
        return surface_height(self.seed, wx, wz)

    def spawn_point(self, search_radius: int = 512) -> tuple[int, int, int]:
        """See `world.gen.terrain.spawn_point`."""
        return spawn_point(self.seed, self.registry, search_radius)

    def __repr__(self) -> str:
        return f"TerrainGenerator(seed={self.seed})"


DEFAULT_FLAT_LAYERS: tuple[tuple[str, int], ...] = (
    ("base:bedrock", 1),
    ("base:dirt", 2),
    ("base:grass", 1),
)


class FlatGenerator:
    """A flat world for tests and builders: block layers stacked up from ``wy = 0``.

    Parameters
    ----------
    registry : BlockRegistry
        The world's registry.
    seed : int
        Recorded for saves like any generator's; the flat world does not depend on it.
    layers : sequence of (block name, thickness)
        Bottom-up; Minecraft's classic superflat (bedrock, 2 dirt, grass) by default.
    """

    name = "flat"

    def __init__(
        self,
        registry: BlockRegistry,
        seed: int = 0,
        *,
        layers: Sequence[tuple[str, int]] = DEFAULT_FLAT_LAYERS,
    ) -> None:
        self.registry = _check_registry(registry)
        self.seed = integer(seed, "seed")
        profile: list[int] = []
        for block, thickness in layers:
            if integer(thickness, "layer thickness") < 0:
                raise ValueError(f"layer thickness must be >= 0, got {thickness} for {block!r}")
            profile += [registry.id(block)] * thickness
        self.layers = tuple((block, int(thickness)) for block, thickness in layers)
        self._profile = np.array(profile, dtype=np.uint16)

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        wy0 = integer(cy, "cy") * CHUNK[1]
        integer(cx, "cx")
        integer(cz, "cz")
        if wy0 < 0 or wy0 >= len(self._profile):
            return None
        column = np.zeros(CHUNK[1], dtype=np.uint16)
        part = self._profile[wy0 : wy0 + CHUNK[1]]
        column[: len(part)] = part
        if not column.any():
            return None
        blocks = np.empty(CHUNK_VOLUME, dtype=np.uint16)
        blocks.reshape(CHUNK)[...] = column[np.newaxis, :, np.newaxis]
        return blocks

    def surface_height(self, wx: int, wz: int) -> int:
        """The y a player stands at: the total thickness of the layers."""
        integer(wx, "wx")
        integer(wz, "wz")
        return len(self._profile)

    def spawn_point(self) -> tuple[int, int, int]:
        """(0, surface height, 0)."""
        return (0, len(self._profile), 0)

    def __repr__(self) -> str:
        return f"FlatGenerator(layers={self.layers!r})"


Generator = TerrainGenerator | FlatGenerator

# The one table of generator names (what a save records) -> classes, each built as
# ``cls(registry, seed)``. Read-only: a name means the same terrain in every run.
GENERATORS: Mapping[str, Callable[[BlockRegistry, int], Generator]] = MappingProxyType(
    {TerrainGenerator.name: TerrainGenerator, FlatGenerator.name: FlatGenerator}
)


def make_generator(name: str, seed: int, registry: BlockRegistry) -> Generator:
    """Build the generator a save (or the command line) names: the one `GeneratorFactory`.

    The game, `world.save.storage` (through its caller) and the command line all build generators
    here, so a name always means the same terrain.

    Parameters
    ----------
    name : str
        A key of `GENERATORS` (``"terrain"``, ``"flat"``).
    seed : int
        Signed 64-bit seed.
    registry : BlockRegistry
        The world's registry.

    Raises
    ------
    ValueError
        If ``name`` is not one of `GENERATORS`, or the seed is not an integer.
    """
    factory = GENERATORS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(f"unknown generator name {name!r}; known: {', '.join(sorted(GENERATORS))}")
    return factory(registry, seed)
