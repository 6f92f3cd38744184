"""Ores: Luanti's ``register_ore`` / Minecraft's ore feature, placed in numpy.

A mod declares an `Ore` with ``registry.register_ore(Ore(...))`` in its ``register_blocks`` hook:
``veins_per_chunk`` veins (a fraction is the chance of one more) of about ``size`` blocks of
``block``, replacing only the blocks named in ``in_``, with vein centres in ``y_range`` (world y,
inclusive). Veins stay inside their chunk, so no chunk depends on a neighbour being generated;
every draw comes from `chunk_rng` (the world seed, the chunk, the ore), so a chunk's ores are the
same whatever order chunks are generated in. `world.worldgen` applies them after the terrain.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from world.chunk_layout import CHUNK

if TYPE_CHECKING:
    from world.blocks import BlockRegistry

__all__ = ["MAX_VEINS", "MAX_VEIN_SIZE", "Ore", "chunk_rng", "place_ores"]

MAX_VEINS = 64.0
MAX_VEIN_SIZE = 64
_WX, _WY, _WZ = CHUNK


def chunk_rng(seed: int, key: tuple[int, int, int], salt: str) -> np.random.Generator:
    """A random generator for one chunk and one purpose: the same in every run and order."""
    words = [seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF, zlib.crc32(salt.encode())]
    words += [(c + (1 << 31)) & 0xFFFFFFFF for c in key]
    return np.random.default_rng(np.random.SeedSequence(words))


@dataclass(frozen=True)
class Ore:
    """An ore a mod scatters through new terrain (see the module notes)."""

    block: str
    in_: tuple[str, ...] = ("base:stone",)
    veins_per_chunk: float = 8.0
    size: int = 8
    y_range: tuple[int, int] = (-64, 64)

    def __post_init__(self) -> None:
        if not isinstance(self.block, str) or ":" not in self.block:
            raise ValueError(f"ore block must be a block name 'mod:name', got {self.block!r}")
        if isinstance(self.in_, str) or not isinstance(self.in_, tuple) or not self.in_:
            raise ValueError(f"in_ of ore {self.block!r} must be a non-empty tuple of block names")
        veins = self.veins_per_chunk
        if (
            isinstance(veins, bool)
            or not isinstance(veins, int | float)
            or not 0 < veins <= MAX_VEINS
        ):
            raise ValueError(
                f"veins_per_chunk of ore {self.block!r} must be in (0, {MAX_VEINS:g}], "
                f"got {veins!r}"
            )
        size = self.size
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_VEIN_SIZE:
            raise ValueError(
                f"size of ore {self.block!r} must be an integer 1..{MAX_VEIN_SIZE}, got {size!r}"
            )
        lo_hi = self.y_range
        if (
            not isinstance(lo_hi, tuple)
            or len(lo_hi) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in lo_hi)
            or lo_hi[0] > lo_hi[1]
        ):
            raise ValueError(
                f"y_range of ore {self.block!r} must be (low, high) integers, low <= high"
            )


def place_ores(
    blocks: NDArray[np.uint16],
    key: tuple[int, int, int],
    seed: int,
    registry: BlockRegistry,
    ores: tuple[Ore, ...],
) -> None:
    """Scatter every ore's veins through one chunk's blocks, in place (numpy, per ore)."""
    cube = blocks.reshape(CHUNK)
    y0 = key[1] * _WY
    for number, ore in enumerate(ores):
        lo, hi = max(ore.y_range[0], y0), min(ore.y_range[1], y0 + _WY - 1)
        if lo > hi:
            continue
        rng = chunk_rng(seed, key, f"ore {number} {ore.block}")
        whole = int(ore.veins_per_chunk)
        veins = whole + int(rng.random() < ore.veins_per_chunk - whole)
        if veins == 0:
            continue
        ore_id = registry.id(ore.block)
        host = np.zeros(len(registry), dtype=bool)
        host[[registry.id(name) for name in ore.in_]] = True
        centres = np.stack(
            [
                rng.integers(0, _WX, veins),
                rng.integers(lo - y0, hi - y0 + 1, veins),
                rng.integers(0, _WZ, veins),
            ],
            axis=1,
        )
        # A blob around each centre: `size` voxels at normally spread offsets (σ grows as the
        # cube root of the size, so big veins spread wider and stay lumpy).
        spread = 0.55 * ore.size ** (1.0 / 3.0)
        offsets = np.rint(rng.normal(0.0, spread, (veins, ore.size, 3))).astype(np.int64)
        cells = (centres[:, None, :] + offsets).reshape(-1, 3)
        inside = (cells >= 0).all(axis=1) & (cells < np.array(CHUNK)).all(axis=1)
        x, y, z = cells[inside].T
        target = host[cube[x, y, z]]
        cube[x[target], y[target], z[target]] = ore_id
