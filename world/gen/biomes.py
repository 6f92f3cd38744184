"""Biomes: which kind of land a world column is, and the blended height of its ground.

Contract
--------
- `biome_at(seed, wx, wz)` names the biome of one world column, one of `BIOMES`: ``"ocean"``,
  ``"plains"``, ``"forest"``, ``"desert"``, ``"snowy"``. `biome_map` gives the indices into
  `BIOMES` of a whole array of columns at once. Both are pure functions of the seed and the
  column, as the terrain is: a mod's ``on_generated`` may call them for its chunk's columns and
  get what the terrain used, in any order and in any process.
- `land(seed, wx, wz)` is what the terrain needs of a column: its biome, the land biomes'
  blending weights, the wy of its top ground block (`ground_height` alone) and whether its water
  freezes.

How a biome is chosen
---------------------
Two smooth climate fields, temperature and humidity, are 2-D gradient noise
(`world.gen.noise.fractal_noise`, `CLIMATE_PERIOD` blocks per cycle). Cold land
(temperature below `COLD_BELOW`) is snowy, hot land (above `HOT_ABOVE`) desert, and the
temperate land between is forest where it is wet (humidity above `WET_ABOVE`) and plains where it
is dry. Each threshold is a smooth ramp `BLEND` wide in the field's units (about 50 blocks on the
ground), not a step: every column has a weight per land biome (they sum to 1), and its biome is the
heaviest. The ocean is not a climate: it is where the ground lies deeper than a beach below the
sea (Minecraft's continentalness), whatever the climate above it; its water freezes where the
temperature is snowy's.

Heights blend
-------------
Each land biome shapes the same continental noise its own way (`RELIEF`: plains low and gentle,
forests hilly, deserts flat, snowy land mountainous): ground = Σ weight × (base + hills·n +
mountains·max(n - `MOUNTAIN_START`, 0)²), with n the 5-octave height noise of the original
terrain. The weights change smoothly across a border, so the height does: there is no seam where
one biome meets another, only a slope as steep as the hills'.

Reproducible bit for bit as `world.gen.noise` is: ``+ - * floor`` and integer hashing only, and
the blend sums the biomes one at a time in a fixed order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.gen.noise import fade, fractal_noise, stream_salt
from world.validate import integer

__all__ = [
    "BEACH_ABOVE",
    "BEACH_BELOW",
    "BIOMES",
    "BLEND",
    "CLIMATE_PERIOD",
    "COLD_BELOW",
    "DESERT",
    "FOREST",
    "HOT_ABOVE",
    "LAND_BIOMES",
    "OCEAN",
    "PLAINS",
    "RELIEF",
    "SEA_LEVEL",
    "SNOWY",
    "WET_ABOVE",
    "Land",
    "biome_at",
    "biome_map",
    "ground_height",
    "land",
]

SEA_LEVEL = 32  # the sea's surface is the plane y = SEA_LEVEL: water fills every wy below it
BEACH_BELOW = 3  # ground down to SEA_LEVEL - 3 is beach (sand) of its land biome; deeper is ocean
BEACH_ABOVE = 0  # ... and up to SEA_LEVEL (one above the water)

BIOMES: tuple[str, ...] = ("ocean", "plains", "forest", "desert", "snowy")
OCEAN, PLAINS, FOREST, DESERT, SNOWY = range(5)
LAND_BIOMES = (PLAINS, FOREST, DESERT, SNOWY)  # the order of the weights' first axis

CLIMATE_PERIOD = 640.0  # blocks per cycle of the climate fields' lowest octave
CLIMATE_OCTAVES = 2
# Thresholds in the climate fields' units (about ±0.5, a standard deviation of 0.16): a fifth of
# the land is snowy, a fifth desert, the rest forest or plains by half.
COLD_BELOW, HOT_ABOVE = -0.14, 0.14
WET_ABOVE = 0.0
BLEND = 0.08  # width of a threshold's ramp: about 50 blocks of ground

HEIGHT_PERIOD = 192.0  # blocks per cycle of the height noise's lowest octave
HEIGHT_OCTAVES = 5
MOUNTAIN_START = 0.08
MIN_GROUND, MAX_GROUND = 2, 200
# Per land biome (LAND_BIOMES order): base height, hills and mountains scales. The forest's are
# the original terrain's: a third of it sea, hills to ~70, peaks ~110.
RELIEF: NDArray[np.float64] = np.array(
    [
        (36.0, 45.0, 80.0),  # plains: gentle
        (36.0, 70.0, 300.0),  # forest: hilly
        (37.0, 40.0, 40.0),  # desert: flat
        (37.0, 80.0, 420.0),  # snowy: mountains
    ]
)


class Land(NamedTuple):
    """What the terrain needs of an array of world columns (all of one shape)."""

    biome: NDArray[np.uint8]  # index into BIOMES
    weights: NDArray[np.float64]  # (4, ...) per LAND_BIOMES, summing to 1
    ground: NDArray[np.int64]  # wy of the top ground block
    frozen: NDArray[np.bool_]  # its sea's surface is ice


def _ramp(value: NDArray[np.float64]) -> NDArray[np.float64]:
    """0 well below 0, 1 well above, a smooth step `BLEND` wide between."""
    return fade(np.clip(value * (1.0 / BLEND) + 0.5, 0.0, 1.0))


def _climate(
    seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Temperature and humidity, in one pass of the noise."""
    x = (np.asarray(wx) / CLIMATE_PERIOD)[np.newaxis]
    z = (np.asarray(wz) / CLIMATE_PERIOD)[np.newaxis]
    fields = fractal_noise(x, z, [stream_salt(seed, 7), stream_salt(seed, 8)], CLIMATE_OCTAVES)
    return fields[0], fields[1]


def land(seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]) -> Land:
    """Biome, weights, ground and frozen sea of world columns (2-D broadcastable int arrays).

    Every value of a column depends on its own coordinates alone, whatever the shape asked for.
    """
    temperature, humidity = _climate(seed, wx, wz)
    cold = _ramp(COLD_BELOW - temperature)
    hot = _ramp(temperature - HOT_ABOVE)
    temperate = 1.0 - cold - hot  # the ramps never overlap: HOT_ABOVE - COLD_BELOW > BLEND
    wet = _ramp(humidity - WET_ABOVE)
    forest = temperate * wet
    weights = np.stack([temperate - forest, forest, hot, cold])
    n = fractal_noise(
        np.asarray(wx) / HEIGHT_PERIOD,
        np.asarray(wz) / HEIGHT_PERIOD,
        stream_salt(seed, 1),
        HEIGHT_OCTAVES,
    )
    mountain = np.maximum(n - MOUNTAIN_START, 0.0)
    mountain = mountain * mountain
    height = np.zeros(n.shape)
    for weight, (base, hills, mountains) in zip(weights, RELIEF.tolist(), strict=True):
        height = height + weight * (base + hills * n + mountains * mountain)
    ground = np.clip(np.floor(height).astype(np.int64), MIN_GROUND, MAX_GROUND)
    biome = (np.argmax(weights, axis=0) + 1).astype(np.uint8)
    biome[ground < SEA_LEVEL - BEACH_BELOW] = OCEAN
    return Land(biome, weights, ground, temperature < COLD_BELOW)


def ground_height(seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]) -> NDArray[np.int64]:
    """The wy of the top ground block of world columns (2-D broadcastable int arrays)."""
    return land(seed, wx, wz).ground


def biome_map(seed: int, wx: ArrayLike, wz: ArrayLike) -> NDArray[np.uint8]:
    """The biome of every world column of broadcastable integer arrays, as indices into `BIOMES`.

    Parameters
    ----------
    seed : int
        World seed.
    wx, wz : array_like of int
        World columns; ``wx[:, None]`` and ``wz[None, :]`` give a rectangle.

    Returns
    -------
    ndarray of uint8, the broadcast shape of wx and wz (at least 1-D)
    """
    seed = integer(seed, "seed")
    x, z = np.atleast_1d(np.asarray(wx)), np.atleast_1d(np.asarray(wz))
    for values, name in ((x, "wx"), (z, "wz")):
        if not np.issubdtype(values.dtype, np.integer):
            raise ValueError(f"{name} must hold integers, got dtype {values.dtype}")
    x, z = np.broadcast_arrays(x.astype(np.int64), z.astype(np.int64))
    return land(seed, x, z).biome


def biome_at(seed: int, wx: int, wz: int) -> str:
    """The name of the biome of the world column (wx, wz): one of `BIOMES`.

    Parameters
    ----------
    seed : int
        World seed (a mod's ``on_generated`` has it as ``chunk.seed``).
    wx, wz : int
        World voxel coordinates of the column.
    """
    seed = integer(seed, "seed")
    x = np.array([integer(wx, "wx")], dtype=np.int64)
    z = np.array([integer(wz, "wz")], dtype=np.int64)
    return BIOMES[int(land(seed, x, z).biome[0])]
