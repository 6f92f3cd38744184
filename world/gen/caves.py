"""Caves: tunnels and caverns carved out of the ground by 3-D noise, lava lakes low down.

Contract
--------
`cave_lattice(seed, wx0, wz0, sx, sz, top)` samples the caves' noise for a rectangle of world
columns and `carved(lattice, wx0, wz0, sx, sz, wy0, sy)` says which voxels of a box of it are
cave: where the carving field is positive. Every value is a pure function of the seed and the
voxel's world coordinates, whatever the box, so chunks carved one by one join a region carved
in one piece bit for bit. `world.gen.terrain` decides where carving is allowed (in the ground,
never under the sea floor) and fills the caves below `LAVA_LEVEL` with lava.

The field
---------
- **Tunnels** (Minecraft 1.18's "spaghetti"): where two independent noise fields a and b are both
  near zero, a thin tube winds along the line where their zero surfaces cross:
  r² - a² - b² > 0. Their vertical scale is half the horizontal, so tunnels mostly run level,
  and they go everywhere, up to the surface.
- **Caverns** ("cheese"): where a slower third field c rises above `CAVERN_AT`, a threshold that
  climbs above `CAVERN_TOP` so that caverns stay deep.

The carving field is the larger of the two, each scaled to about one unit per block near its
edge. It is sampled on a lattice every `CAVE_CELL` blocks on each axis, aligned to world
coordinates, and interpolated linearly (along y, then x, then z) to the voxels between, as
Minecraft does: 125 noise points per chunk instead of 4096, all three fields in one numpy pass
(`world.gen.noise.fractal_noise3` with three salts). The interpolation weights are multiples of
1/4, and each voxel's value comes from the same lattice values by the same operations in any box,
so the bits do not depend on the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.gen.noise import fractal_noise3, stream_salt

__all__ = [
    "CAVERN_AT",
    "CAVERN_TOP",
    "CAVE_BOTTOM",
    "CAVE_CELL",
    "LAVA_LEVEL",
    "CaveLattice",
    "carved",
    "cave_lattice",
]

CAVE_CELL = 4  # lattice step on every axis, in blocks
CAVE_BOTTOM = 2  # the lowest wy carved: a layer of stone stays over the bedrock
LAVA_LEVEL = 10  # caves at wy <= LAVA_LEVEL are filled with lava (Minecraft's old y 10)
TUNNEL_PERIOD = 80.0  # blocks per cycle of the tunnel fields, horizontally
TUNNEL_SQUASH = 2.0  # ... and this many times faster vertically: tunnels mostly run level
TUNNEL_RADIUS = 0.045  # in the fields' units: tunnels 3 to 6 blocks across
CAVERN_PERIOD = 96.0
CAVERN_SQUASH = 1.5
CAVERN_AT = 0.16  # caverns where the cavern field exceeds this ...
CAVERN_TOP = 16  # ... below this wy, the threshold rising CAVERN_RISE per block above it
CAVERN_RISE = 0.02
CAVE_OCTAVES = 2
# Field units per block near each kind's edge (the noise's typical slope), so the two join
# smoothly where they meet: the tunnels' r² - a² - b² and the caverns' c - threshold.
_TUNNEL_SCALE = 1.0 / (2.0 * TUNNEL_RADIUS * 0.012)
_CAVERN_SCALE = 1.0 / 0.006


@dataclass(frozen=True, slots=True)
class CaveLattice:
    """The carving field at the lattice points (lx0, 0, lz0) + CAVE_CELL · (i, j, k)."""

    lx0: int
    lz0: int
    values: NDArray[np.float64]  # (i, j, k)


def cave_lattice(seed: int, wx0: int, wz0: int, sx: int, sz: int, top: int) -> CaveLattice:
    """The carving field on the lattice covering columns ``wx0 .. wx0+sx-1``, ``wz0 .. wz0+sz-1``
    and every ``0 <= wy <= top``."""
    lx0 = (wx0 // CAVE_CELL) * CAVE_CELL
    lz0 = (wz0 // CAVE_CELL) * CAVE_CELL
    nx = (wx0 + sx - 1) // CAVE_CELL - wx0 // CAVE_CELL + 2
    nz = (wz0 + sz - 1) // CAVE_CELL - wz0 // CAVE_CELL + 2
    ny = max(top, 0) // CAVE_CELL + 2
    wx = (lx0 + CAVE_CELL * np.arange(nx)).astype(np.float64)
    wy = (CAVE_CELL * np.arange(ny)).astype(np.float64)
    wz = (lz0 + CAVE_CELL * np.arange(nz)).astype(np.float64)
    # Per field (a, b, c): its horizontal and vertical lattice units.
    across = np.array([TUNNEL_PERIOD, TUNNEL_PERIOD, CAVERN_PERIOD]).reshape(3, 1, 1, 1)
    up = np.array([TUNNEL_PERIOD / TUNNEL_SQUASH] * 2 + [CAVERN_PERIOD / CAVERN_SQUASH]).reshape(
        3, 1, 1, 1
    )
    a, b, c = fractal_noise3(
        wx.reshape(1, -1, 1, 1) / across,
        wy.reshape(1, 1, -1, 1) / up,
        wz.reshape(1, 1, 1, -1) / across,
        [stream_salt(seed, 20), stream_salt(seed, 21), stream_salt(seed, 22)],
        CAVE_OCTAVES,
    )
    tunnel = (TUNNEL_RADIUS * TUNNEL_RADIUS - a * a - b * b) * _TUNNEL_SCALE
    threshold = CAVERN_AT + CAVERN_RISE * np.maximum(wy - CAVERN_TOP, 0.0)
    cavern = (c - threshold[np.newaxis, :, np.newaxis]) * _CAVERN_SCALE
    values = np.maximum(tunnel, cavern)
    values.flags.writeable = False
    return CaveLattice(lx0, lz0, values)


def _axis(w0: int, size: int, l0: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Each voxel's lower lattice index and its weight (a multiple of 1/4) toward the next."""
    w = np.arange(w0, w0 + size, dtype=np.int64)
    weight: NDArray[np.float64] = (w % CAVE_CELL).astype(np.float64) * (1.0 / CAVE_CELL)
    return (w - l0) // CAVE_CELL, weight


def carved(
    lattice: CaveLattice, wx0: int, wz0: int, sx: int, sz: int, wy0: int, sy: int
) -> NDArray[np.bool_]:
    """Which voxels of the box ``(wx0, wy0, wz0)`` + ``(sx, sy, sz)`` the caves take, [x, y, z].

    The box must lie inside the lattice's columns and ``0 <= wy`` up to its ``top``.
    """
    ix, tx = _axis(wx0, sx, lattice.lx0)
    iy, ty = _axis(wy0, sy, 0)
    iz, tz = _axis(wz0, sz, lattice.lz0)
    # Only the lattice slab the box needs, then y, x and z in turn: the same operations on the
    # same lattice values for a voxel in any box.
    values = lattice.values[:, iy[0] : iy[-1] + 2]
    iy = iy - iy[0]
    low, high = values[:, iy], values[:, iy + 1]
    field = low + ty[np.newaxis, :, np.newaxis] * (high - low)
    low, high = field[ix], field[ix + 1]
    field = low + tx[:, np.newaxis, np.newaxis] * (high - low)
    low, high = field[:, :, iz], field[:, :, iz + 1]
    result: NDArray[np.bool_] = (low + tz * (high - low)) > 0.0
    return result
