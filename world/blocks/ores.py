"""Ores: Luanti's ``register_ore`` / Minecraft's ore feature, placed in numpy.

A mod declares an `Ore` with ``registry.register_ore(Ore(...))`` in its ``register_blocks`` hook:
``veins_per_chunk`` veins (a fraction is the chance of one more) of about ``size`` blocks of
``block``, replacing only the blocks named in ``in_``, with vein centres in ``y_range`` (world y,
inclusive). Veins stay inside their chunk, so no chunk depends on a neighbour being generated;
every draw comes from `chunk_rng` (the world seed, the chunk, the ore), so a chunk's ores are the
same whatever order chunks are generated in. `world.gen.worldgen.place_ores` applies them after the
terrain.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

__all__ = ["MAX_VEINS", "MAX_VEIN_SIZE", "Ore", "chunk_rng"]

MAX_VEINS = 64.0
MAX_VEIN_SIZE = 64


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
