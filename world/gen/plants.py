"""Trees and cacti: where they stand, decided on a world grid and never by chunk.

Contract
--------
`tree_trunks(seed, wx0, wz0, wx1, wz1)` gives the trees whose canopy overlaps a column rectangle
and `cactus_stalks` the cacti standing in one; `tree_voxels` and `cactus_voxels` their blocks'
world positions. Every value is a pure function of the seed and world coordinates: a tree
crossing a chunk border is whole on both sides. `trees_in` and `cacti_in` do the same from a
`LandGrid` the caller already has (`world.gen.terrain` looks each column's land up once).

Trees
-----
One candidate per ``TREE_CELL``² cell, jittered by a hash, kept with a chance that blends the
land biomes' (`TREE_CHANCE`: forests thick where a smooth density field says so, plains and
snowy land sparse, deserts none). They grow only on grass (land biomes but the desert,
``wy >= SEA_LEVEL + 1``) below ``TREE_LINE``; the grass under a trunk turns to dirt.

Cacti
-----
One candidate per ``CACTUS_CELL``² cell of desert, jittered within ``CACTUS_CELL - 1``, so that
no two stand side by side (Minecraft's cactus breaks beside a block); 1 to ``CACTUS_MAX`` tall,
on dry sand only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.gen.biomes import BEACH_ABOVE, DESERT, OCEAN, SEA_LEVEL, Land, land
from world.gen.noise import fade, hash2, stream_salt, unit
from world.validate import integer

__all__ = [
    "AROUND",
    "CACTUS_CELL",
    "CACTUS_MAX",
    "TREE_CELL",
    "TREE_LINE",
    "TREE_RADIUS",
    "LandGrid",
    "cacti_in",
    "cactus_stalks",
    "cactus_voxels",
    "tree_trunks",
    "tree_voxels",
    "trees_in",
]

_U32 = np.uint32

TREE_CELL = 7  # one tree candidate per 7×7 blocks
TREE_JITTER = TREE_CELL - 2  # offsets 0..4 in a cell: neighbouring trunks are >= 3 apart
TREE_RADIUS = 2  # canopy reaches 2 blocks from the trunk
TRUNK_MIN, TRUNK_MAX = 4, 6
TREE_LINE = 72  # no trees on ground higher than this
FOREST_PERIOD = 96  # blocks between the lattice points of the forest-density field
# A tree cell's chance of a tree, per land biome (LAND_BIOMES order): the forest's grows with
# the forest-density field, between its two figures.
TREE_CHANCE = ((0.03, 0.03), (0.2, 0.9), (0.0, 0.0), (0.08, 0.08))
CACTUS_CELL = 6  # one cactus candidate per 6×6 blocks of desert
CACTUS_JITTER = CACTUS_CELL - 1  # offsets 0..4: two cacti never stand side by side
CACTUS_CHANCE = 0.35
CACTUS_MAX = 3  # cacti are 1 to 3 blocks tall
AROUND = TREE_RADIUS  # columns of land looked up around a rectangle: its trees' trunks


def _forest_density(seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]) -> NDArray[np.float64]:
    """Smooth value noise in [0, 1): where the woods of a forest are thicker."""
    gx = np.floor_divide(wx, FOREST_PERIOD)
    gz = np.floor_divide(wz, FOREST_PERIOD)
    tx = fade((wx - gx * FOREST_PERIOD) / FOREST_PERIOD)
    tz = fade((wz - gz * FOREST_PERIOD) / FOREST_PERIOD)
    stream = stream_salt(seed, 2)
    v00 = unit(hash2(gx, gz, stream))
    v10 = unit(hash2(gx + 1, gz, stream))
    v01 = unit(hash2(gx, gz + 1, stream))
    v11 = unit(hash2(gx + 1, gz + 1, stream))
    near = v00 + tx * (v10 - v00)
    far = v01 + tx * (v11 - v01)
    return near + tz * (far - near)


def _candidates(
    cells: tuple[int, int, int, int], cell: int, jitter: int, stream: int, seed: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.uint32]]:
    """One jittered candidate per world-grid cell of the cell rectangle ``(x0, z0, x1, z1)``
    (inclusive): the cells, the candidates' columns and their hash."""
    cell_x = np.arange(cells[0], cells[2] + 1)
    cell_z = np.arange(cells[1], cells[3] + 1)
    cx, cz = (a.ravel() for a in np.meshgrid(cell_x, cell_z, indexing="ij"))
    h = hash2(cx, cz, stream_salt(seed, stream))
    wx = cx * cell + (h % _U32(jitter)).astype(np.int64)
    wz = cz * cell + ((h >> _U32(8)) % _U32(jitter)).astype(np.int64)
    return np.stack([cx, cz]), wx, wz, h


def tree_trunks(seed: int, wx0: int, wz0: int, wx1: int, wz1: int) -> NDArray[np.int64]:
    """Trees whose canopy overlaps the world columns ``wx0 <= wx < wx1``, ``wz0 <= wz < wz1``.

    Parameters
    ----------
    seed : int
        World seed.
    wx0, wz0, wx1, wz1 : int
        Half-open column rectangle in world voxel coordinates.

    Returns
    -------
    ndarray of int64, shape (N, 5)
        Rows of (wx, wy, wz, height, corner_bits): the trunk's lowest log at (wx, wy, wz),
        ``height`` logs, and 12 hash bits choosing which canopy corners grow. Sorted by (wx, wz).
    """
    seed = integer(seed, "seed")
    wx0, wz0 = integer(wx0, "wx0"), integer(wz0, "wz0")
    wx1, wz1 = integer(wx1, "wx1"), integer(wz1, "wz1")
    return trees_in(seed, wx0, wz0, wx1, wz1, LandGrid.of(seed, wx0, wz0, wx1, wz1))


def cactus_stalks(seed: int, wx0: int, wz0: int, wx1: int, wz1: int) -> NDArray[np.int64]:
    """The cacti standing in the world columns ``wx0 <= wx < wx1``, ``wz0 <= wz < wz1``.

    A cactus stands on the dry sand of a desert, one candidate per `CACTUS_CELL`² cell of the
    world grid, no two side by side and never beside higher ground (Minecraft's cactus breaks
    beside a block).

    Returns
    -------
    ndarray of int64, shape (N, 4)
        Rows of (wx, wy, wz, height): the lowest block at (wx, wy, wz), ``height`` blocks.
        Sorted by (wx, wz).
    """
    seed = integer(seed, "seed")
    wx0, wz0 = integer(wx0, "wx0"), integer(wz0, "wz0")
    wx1, wz1 = integer(wx1, "wx1"), integer(wz1, "wz1")
    return cacti_in(seed, wx0, wz0, wx1, wz1, LandGrid.of(seed, wx0, wz0, wx1, wz1))


@dataclass(frozen=True, slots=True)
class LandGrid:
    """`world.gen.biomes.land` of a rectangle of columns and `AROUND` more on every side: what
    its trees, cacti and caves look up (a column's values are the same in any rectangle)."""

    wx0: int  # the world column of [0, 0]
    wz0: int
    land: Land

    @staticmethod
    def of(seed: int, wx0: int, wz0: int, wx1: int, wz1: int) -> LandGrid:
        wx = np.arange(wx0 - AROUND, wx1 + AROUND, dtype=np.int64)
        wz = np.arange(wz0 - AROUND, wz1 + AROUND, dtype=np.int64)
        return LandGrid(wx0 - AROUND, wz0 - AROUND, land(seed, wx[:, np.newaxis], wz[np.newaxis]))

    def at(
        self, wx: NDArray[np.int64], wz: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.float64]]:
        """Ground, biome and weights (4, N) of columns inside the rectangle."""
        index = (wx - self.wx0, wz - self.wz0)
        return (
            self.land.ground[index],
            self.land.biome[index],
            self.land.weights[(slice(None), *index)],
        )


def trees_in(
    seed: int, wx0: int, wz0: int, wx1: int, wz1: int, around: LandGrid
) -> NDArray[np.int64]:
    cells = (
        (wx0 - TREE_RADIUS) // TREE_CELL,
        (wz0 - TREE_RADIUS) // TREE_CELL,
        (wx1 - 1 + TREE_RADIUS) // TREE_CELL,
        (wz1 - 1 + TREE_RADIUS) // TREE_CELL,
    )
    (cx, cz), wx, wz, _ = _candidates(cells, TREE_CELL, TREE_JITTER, 3, seed)
    near = (
        (wx >= wx0 - TREE_RADIUS)
        & (wx < wx1 + TREE_RADIUS)
        & (wz >= wz0 - TREE_RADIUS)
        & (wz < wz1 + TREE_RADIUS)
    )
    cx, cz, wx, wz = cx[near], cz[near], wx[near], wz[near]
    ground, biome, weights = around.at(wx, wz)
    woods = _forest_density(seed, wx, wz)
    density = np.zeros(len(wx))
    for weight, (sparse, dense) in zip(weights, TREE_CHANCE, strict=True):
        density = density + weight * (sparse + (dense - sparse) * woods * woods)
    chance = unit(hash2(cx, cz, stream_salt(seed, 4)))
    on_grass = (
        (biome != OCEAN)
        & (biome != DESERT)
        & (ground >= SEA_LEVEL + BEACH_ABOVE + 1)
        & (ground <= TREE_LINE)
    )
    keep = on_grass & (chance < density)
    wx, wz, ground = wx[keep], wz[keep], ground[keep]
    shape = hash2(cx[keep], cz[keep], stream_salt(seed, 6))
    height = TRUNK_MIN + ((shape & _U32(0xFF)) % _U32(TRUNK_MAX - TRUNK_MIN + 1)).astype(np.int64)
    corner_bits = ((shape >> _U32(8)) & _U32(0xFFF)).astype(np.int64)
    trees = np.stack([wx, ground + 1, wz, height, corner_bits], axis=1)
    return trees[np.lexsort((trees[:, 2], trees[:, 0]))]


def cacti_in(
    seed: int, wx0: int, wz0: int, wx1: int, wz1: int, around: LandGrid
) -> NDArray[np.int64]:
    cells = (
        wx0 // CACTUS_CELL,
        wz0 // CACTUS_CELL,
        (wx1 - 1) // CACTUS_CELL,
        (wz1 - 1) // CACTUS_CELL,
    )
    (cx, cz), wx, wz, h = _candidates(cells, CACTUS_CELL, CACTUS_JITTER, 9, seed)
    chance = unit(hash2(cx, cz, stream_salt(seed, 10)))
    keep = (wx >= wx0) & (wx < wx1) & (wz >= wz0) & (wz < wz1) & (chance < CACTUS_CHANCE)
    wx, wz, h = wx[keep], wz[keep], h[keep]
    ground, biome, _ = around.at(wx, wz)
    # Nothing beside it either: no neighbouring ground rises past the sand it stands on.
    level = np.ones(len(wx), dtype=bool)
    for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        level &= around.at(wx + dx, wz + dz)[0] <= ground
    dry_sand = (biome == DESERT) & (ground >= SEA_LEVEL) & level
    wx, wz, ground, h = wx[dry_sand], wz[dry_sand], ground[dry_sand], h[dry_sand]
    height = 1 + ((h >> _U32(16)) % _U32(CACTUS_MAX)).astype(np.int64)
    stalks = np.stack([wx, ground + 1, wz, height], axis=1)
    return stalks[np.lexsort((stalks[:, 2], stalks[:, 0]))]


def _canopy_template() -> NDArray[np.int64]:
    """Leaf offsets (dx, dy, dz, corner bit or -1) relative to the top log, Minecraft-oak-like."""
    rows: list[tuple[int, int, int, int]] = []
    bit = 0
    for dy, radius, drop_tips in ((-1, 2, False), (0, 2, False), (1, 1, False), (2, 1, True)):
        for dx in range(-radius, radius + 1):
            for dz in range(-radius, radius + 1):
                corner = abs(dx) == radius and abs(dz) == radius
                if (dx, dz) == (0, 0) and dy <= 0:
                    continue  # the trunk
                if corner and drop_tips:
                    continue  # the top layer is a plus shape
                rows.append((dx, dy, dz, bit if corner else -1))
                bit += corner
    return np.array(rows, dtype=np.int64)


_CANOPY = _canopy_template()


def tree_voxels(
    trees: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """World positions (N, 3) of the logs, the leaves and the dirt under the trunks of trees."""
    wx, wy, wz, height, corner_bits = trees.T
    steps = np.arange(TRUNK_MAX)
    grows = steps[np.newaxis] < height[:, np.newaxis]
    logs = np.stack(np.broadcast_arrays(wx[:, None], wy[:, None] + steps, wz[:, None]), axis=-1)[
        grows
    ]
    top = wy + height - 1
    dx, dy, dz, bit = _CANOPY.T
    kept = (bit < 0) | ((corner_bits[:, np.newaxis] >> np.maximum(bit, 0)) & 1 == 1)
    leaves = np.stack(
        np.broadcast_arrays(wx[:, None] + dx, top[:, None] + dy, wz[:, None] + dz), axis=-1
    )[kept]
    dirt = np.stack([wx, wy - 1, wz], axis=1)
    return logs, leaves, dirt


def cactus_voxels(stalks: NDArray[np.int64]) -> NDArray[np.int64]:
    """World positions (N, 3) of the blocks of cacti (`cactus_stalks` rows)."""
    wx, wy, wz, height = stalks.T
    steps = np.arange(CACTUS_MAX)
    grows = steps[np.newaxis] < height[:, np.newaxis]
    blocks = np.stack(np.broadcast_arrays(wx[:, None], wy[:, None] + steps, wz[:, None]), axis=-1)
    voxels: NDArray[np.int64] = blocks[grows]
    return voxels
