"""World generation: seeded height-map terrain with beaches, sea, trees and tall grass.

Contract
--------
``generate_chunk(seed, cx, cy, cz, registry)`` returns a chunk's flat uint16 block array (or
``None`` when the chunk is all air) computed from the seed and the chunk coordinates ALONE: every
value is a pure function of world coordinates, so chunks may be generated in any order, on any
machine, and still join without seams. ``world.gen.generators.TerrainGenerator`` wraps this as the
named ``gen(cx, cy, cz)`` a `world.voxels.chunks.World` takes and a save records.

Vertical layout (world voxel ``wy``)
------------------------------------
- ``wy < 0``: air. Bedrock cannot be broken, so nothing below it is reachable; air chunks cost no
  memory, and a flat world's "void" reads the same way.
- ``wy == 0``: bedrock everywhere.
- stone up to ``DIRT_DEPTH`` blocks below the ground's top block, then the column's sub-soil
  (dirt; sand under beaches) and its top block: grass on land, sand on beaches and in the
  shallows, gravel on the deep sea floor.
- water fills every other voxel with ``wy < SEA_LEVEL``: the sea's surface is the plane
  ``y = SEA_LEVEL`` (32). Hills reach about 70, the rare peak 110.

Noise
-----
Ground height is fractal (5-octave) 2-D gradient noise from `world.gen.noise`, vectorised numpy
rather than taken from opensimplex or pyfastnoiselite, because:

- no new dependency for a hundred lines of code;
- it is bit-for-bit reproducible: only integer hashing, ``+ - *`` and ``floor`` on float64, no
  ``sin``/``exp``/``pow`` whose last bit may differ between C libraries, so a world regenerates
  identically on every machine (unmodified chunks are never saved, only regenerated);
- every value depends on its own coordinates only, so evaluating a 16×16 column or a handful of
  scattered tree positions gives identical heights (trees must stand exactly on the ground);
- all octaves are evaluated in one numpy pass, and a chunk column's height map is cached
  (`COLUMN_CACHE_SIZE` columns, LRU): the 16 chunks stacked on a column pay for noise once.

Trees
-----
Tree positions are decided on a world grid (one candidate per ``TREE_CELL``² cell, jittered by a
hash, kept by a smooth forest-density field) and never by chunk. Each chunk draws every tree
whose canopy overlaps it, so a tree crossing a chunk border is whole on both sides. Where trees
meet, a log wins over leaves and leaves only fill air, so the result does not depend on the
order trees are drawn in. Trees grow only on grass (``wy >= SEA_LEVEL + 1``) below ``TREE_LINE``;
the grass under a trunk turns to dirt, as in Minecraft.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.gen.noise import fade, fractal_noise, hash2, stream_salt, unit
from world.validate import integer
from world.voxels.layout import CHUNK, CHUNK_VOLUME

__all__ = [
    "COLUMN_CACHE_SIZE",
    "DIRT_DEPTH",
    "SEA_LEVEL",
    "TREE_CELL",
    "TREE_LINE",
    "clear_cache",
    "generate_chunk",
    "generate_region",
    "spawn_point",
    "surface_height",
    "tree_trunks",
]

SEA_LEVEL = 32
DIRT_DEPTH = 3  # sub-soil blocks between the top block and stone
# Ground height = BASE_HEIGHT + HILL_SCALE·n + MOUNTAIN_SCALE·max(n - MOUNTAIN_START, 0)²,
# n the fractal noise (about ±0.5): a third of the world is sea, hills reach ~70, peaks ~110.
HEIGHT_PERIOD = 192.0  # blocks per cycle of the lowest octave
OCTAVES = 5
BASE_HEIGHT = 36.0
HILL_SCALE = 70.0
MOUNTAIN_START = 0.08
MOUNTAIN_SCALE = 300.0
MIN_GROUND, MAX_GROUND = 2, 200
BEACH_BELOW, BEACH_ABOVE = 3, 0  # sand for tops in SEA_LEVEL-3 .. SEA_LEVEL (one above the water)
GRAVEL_DEPTH = 8  # sea floors deeper than this below the surface are gravel
TREE_CELL = 7  # one tree candidate per 7×7 blocks
TREE_JITTER = TREE_CELL - 2  # offsets 0..4 in a cell: neighbouring trunks are >= 3 apart
TREE_RADIUS = 2  # canopy reaches 2 blocks from the trunk
TRUNK_MIN, TRUNK_MAX = 4, 6
TREE_LINE = 72  # no trees on ground higher than this
FOREST_PERIOD = 96  # blocks between the lattice points of the forest-density field
TALL_GRASS_CHANCE = 0.12
COLUMN_CACHE_SIZE = 2048  # chunk columns (x, z) whose height map and trees are kept (~6 KiB each)

# Material codes used while filling, mapped to the registry's ids at the end (by these names).
_MATERIAL_NAMES = (
    "air",
    "base:stone",
    "base:dirt",
    "base:grass",
    "base:sand",
    "base:gravel",
    "base:water",
    "base:bedrock",
    "base:log",
    "base:leaves",
    "base:tall_grass",
)
_AIR, _STONE, _DIRT, _GRASS, _SAND, _GRAVEL = range(6)
_WATER, _BEDROCK, _LOG, _LEAVES, _TALL_GRASS = range(6, 11)
# Depth classes of a voxel in its column (see `_fill`): index into a column's material row.
_CLASSES = 8
_CLASS_WATER = 7

_U32 = np.uint32


def _ground(seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]) -> NDArray[np.int64]:
    """The wy of the top ground block of world columns (2-D broadcastable int arrays)."""
    n = fractal_noise(wx / HEIGHT_PERIOD, wz / HEIGHT_PERIOD, stream_salt(seed, 1), OCTAVES)
    mountain = np.maximum(n - MOUNTAIN_START, 0.0)
    height = BASE_HEIGHT + HILL_SCALE * n + MOUNTAIN_SCALE * (mountain * mountain)
    return np.clip(np.floor(height).astype(np.int64), MIN_GROUND, MAX_GROUND)


def _forest_density(seed: int, wx: NDArray[np.int64], wz: NDArray[np.int64]) -> NDArray[np.float64]:
    """Chance in [0, 0.9) that a tree cell holds a tree: smooth value noise of woods and plains."""
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
    value = near + tz * (far - near)
    # Squared: most land is open with scattered trees, some of it forest.
    return 0.9 * value * value


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
    cell_x = np.arange(
        (integer(wx0, "wx0") - TREE_RADIUS) // TREE_CELL,
        (integer(wx1, "wx1") - 1 + TREE_RADIUS) // TREE_CELL + 1,
    )
    cell_z = np.arange(
        (integer(wz0, "wz0") - TREE_RADIUS) // TREE_CELL,
        (integer(wz1, "wz1") - 1 + TREE_RADIUS) // TREE_CELL + 1,
    )
    cx, cz = (a.ravel() for a in np.meshgrid(cell_x, cell_z, indexing="ij"))
    h = hash2(cx, cz, stream_salt(seed, 3))
    wx = cx * TREE_CELL + (h % _U32(TREE_JITTER)).astype(np.int64)
    wz = cz * TREE_CELL + ((h >> _U32(8)) % _U32(TREE_JITTER)).astype(np.int64)
    near = (
        (wx >= wx0 - TREE_RADIUS)
        & (wx < wx1 + TREE_RADIUS)
        & (wz >= wz0 - TREE_RADIUS)
        & (wz < wz1 + TREE_RADIUS)
    )
    chance = unit(hash2(cx, cz, stream_salt(seed, 4)))
    keep = near & (chance < _forest_density(seed, wx, wz))
    wx, wz = wx[keep], wz[keep]
    ground = _ground(seed, wx[np.newaxis], wz[np.newaxis])[0]
    on_grass = (ground >= SEA_LEVEL + BEACH_ABOVE + 1) & (ground <= TREE_LINE)
    wx, wz, ground = wx[on_grass], wz[on_grass], ground[on_grass]
    shape = hash2(cx[keep][on_grass], cz[keep][on_grass], stream_salt(seed, 6))
    height = TRUNK_MIN + ((shape & _U32(0xFF)) % _U32(TRUNK_MAX - TRUNK_MIN + 1)).astype(np.int64)
    corner_bits = ((shape >> _U32(8)) & _U32(0xFFF)).astype(np.int64)
    trees = np.stack([wx, ground + 1, wz, height, corner_bits], axis=1)
    return trees[np.lexsort((trees[:, 2], trees[:, 0]))]


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


def _tree_voxels(
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


@dataclass(frozen=True, slots=True)
class _Column:
    """What generation needs of a rectangle of world columns, independent of wy.

    ``materials[c]`` is the material of each depth class (see `_fill`) of flat column ``c``.
    """

    wx0: int
    wz0: int
    ground: NDArray[np.int64]  # (sx, sz)
    materials: NDArray[np.uint8]  # (sx * sz, _CLASSES)
    logs: NDArray[np.int64]  # (L, 3) world positions inside the rectangle
    leaves: NDArray[np.int64]
    dirt: NDArray[np.int64]
    top_wy: int  # nothing but air above this wy
    stone_below: int  # every voxel 0 < wy < stone_below is stone


def _build_column(seed: int, wx0: int, wz0: int, sx: int, sz: int) -> _Column:
    wx = np.arange(wx0, wx0 + sx, dtype=np.int64)
    wz = np.arange(wz0, wz0 + sz, dtype=np.int64)
    ground = _ground(seed, wx[:, np.newaxis], wz[np.newaxis, :])
    top = np.full(ground.shape, _GRASS, dtype=np.uint8)
    sub = np.full(ground.shape, _DIRT, dtype=np.uint8)
    beach = (ground >= SEA_LEVEL - BEACH_BELOW) & (ground <= SEA_LEVEL + BEACH_ABOVE)
    top[beach] = _SAND
    sub[beach] = _SAND
    deep = ground < SEA_LEVEL - BEACH_BELOW
    top[deep] = np.where(ground[deep] < SEA_LEVEL - GRAVEL_DEPTH, _GRAVEL, _SAND)
    grass_hash = unit(hash2(wx[:, np.newaxis], wz[np.newaxis, :], stream_salt(seed, 5)))
    tall_grass = (top == _GRASS) & (grass_hash < TALL_GRASS_CHANCE)

    materials = np.empty((sx * sz, _CLASSES), dtype=np.uint8)
    materials[:, 0] = _AIR
    materials[:, 1] = np.where(tall_grass, _TALL_GRASS, _AIR).ravel()
    materials[:, 2] = top.ravel()
    materials[:, 3 : 3 + DIRT_DEPTH] = sub.reshape(-1, 1)
    materials[:, 3 + DIRT_DEPTH] = _STONE
    materials[:, _CLASS_WATER] = _WATER

    logs, leaves, dirt = _tree_voxels(tree_trunks(seed, wx0, wz0, wx0 + sx, wz0 + sz))

    def inside(positions: NDArray[np.int64]) -> NDArray[np.int64]:
        lx = positions[:, 0] - wx0
        lz = positions[:, 2] - wz0
        out = positions[(lx >= 0) & (lx < sx) & (lz >= 0) & (lz < sz)]
        out.flags.writeable = False
        return out

    logs, leaves, dirt = inside(logs), inside(leaves), inside(dirt)
    top_wy = max(int(ground.max()) + 1, SEA_LEVEL - 1)
    for positions in (logs, leaves):
        if len(positions):
            top_wy = max(top_wy, int(positions[:, 1].max()))
    for array in (ground, materials):
        array.flags.writeable = False
    return _Column(
        wx0, wz0, ground, materials, logs, leaves, dirt, top_wy, int(ground.min()) - DIRT_DEPTH
    )


@functools.lru_cache(maxsize=COLUMN_CACHE_SIZE)
def _chunk_column(seed: int, cx: int, cz: int) -> _Column:
    return _build_column(seed, cx * CHUNK[0], cz * CHUNK[2], CHUNK[0], CHUNK[2])


def clear_cache() -> None:
    """Forget the cached chunk columns (memory, or timing a column never seen before)."""
    _chunk_column.cache_clear()


def _fill(column: _Column, wy0: int, sy: int) -> NDArray[np.uint8]:
    """Material codes of the voxels ``wy0 <= wy < wy0 + sy`` of a column rectangle, [x, y, z]."""
    sx, sz = column.ground.shape
    wy = np.arange(wy0, wy0 + sy, dtype=np.int64)
    depth = column.ground[:, np.newaxis, :] - wy[np.newaxis, :, np.newaxis]
    # Depth classes: 0 air high above, 1 just above the ground, 2 the top block, 3.. sub-soil,
    # 3 + DIRT_DEPTH stone, 7 water (any air class below sea level).
    cls = np.clip(depth, -2, DIRT_DEPTH + 1) + 2
    under_sea = (depth < 0) & (wy < SEA_LEVEL)[np.newaxis, :, np.newaxis]
    cls[under_sea] = _CLASS_WATER
    column_index = np.arange(sx * sz).reshape(sx, 1, sz) * _CLASSES
    mat: NDArray[np.uint8] = column.materials.ravel()[column_index + cls]
    if wy0 <= 0:
        mat[:, : min(-wy0, sy), :] = _AIR
        if -wy0 < sy:
            mat[:, -wy0, :] = _BEDROCK
    for positions, material, only_air in (
        (column.leaves, _LEAVES, True),
        (column.logs, _LOG, False),
        (column.dirt, _DIRT, False),
    ):
        ly = positions[:, 1] - wy0
        positions = positions[(ly >= 0) & (ly < sy)]
        if not len(positions):
            continue
        index = (positions[:, 0] - column.wx0, positions[:, 1] - wy0, positions[:, 2] - column.wz0)
        if only_air:
            mat[index] = np.where(mat[index] == _AIR, material, mat[index])
        else:
            mat[index] = material
    return mat


def _material_ids(registry: BlockRegistry) -> NDArray[np.uint16]:
    return np.array(
        [registry.id(name) if name != "air" else 0 for name in _MATERIAL_NAMES], np.uint16
    )


def generate_chunk(
    seed: int, cx: int, cy: int, cz: int, registry: BlockRegistry
) -> NDArray[np.uint16] | None:
    """The blocks of one chunk of the seeded terrain.

    Parameters
    ----------
    seed : int
        World seed (any Python int).
    cx, cy, cz : int
        Chunk coordinates.
    registry : BlockRegistry
        Supplies the ids of ``base:stone``, ``base:grass`` and the other base blocks.

    Returns
    -------
    ndarray of uint16, shape (4096,), or None
        A new array (the caller may modify it), local (lx, ly, lz) at ``lx*256 + ly*16 + lz``;
        ``None`` when the chunk is all air.
    """
    seed = integer(seed, "seed")
    cx = integer(cx, "cx")
    cy = integer(cy, "cy")
    cz = integer(cz, "cz")
    wy0 = cy * CHUNK[1]
    if wy0 + CHUNK[1] <= 0:
        return None
    column = _chunk_column(seed, cx, cz)
    if wy0 > column.top_wy:
        return None
    ids = _material_ids(registry)
    if wy0 > 0 and wy0 + CHUNK[1] <= column.stone_below:
        return np.full(CHUNK_VOLUME, ids[_STONE], dtype=np.uint16)
    # Into a fresh flat array that owns its memory (not a view of a 3-D temporary).
    blocks = np.empty(CHUNK_VOLUME, dtype=np.uint16)
    np.take(ids, _fill(column, wy0, CHUNK[1]).reshape(-1), out=blocks)
    return blocks


def generate_region(
    seed: int, origin: Sequence[int], shape: Sequence[int], registry: BlockRegistry
) -> NDArray[np.uint16]:
    """Any box of the seeded terrain in one piece, without regard to chunk borders.

    It runs the same per-column rules as `generate_chunk` on the box as a whole, so comparing
    the two checks that chunking leaves no seam; it also serves maps and previews.

    Parameters
    ----------
    seed : int
        World seed.
    origin : (int, int, int)
        World voxel (wx, wy, wz) of the box's lowest corner.
    shape : (int, int, int)
        Size of the box in voxels, each >= 1.
    registry : BlockRegistry

    Returns
    -------
    ndarray of uint16, shape ``shape``, indexed [x, y, z]
    """
    seed = integer(seed, "seed")
    if len(origin) != 3 or len(shape) != 3:
        raise ValueError(f"origin and shape must have 3 values, got {origin!r} and {shape!r}")
    wx0, wy0, wz0 = (integer(v, "origin") for v in origin)
    sx, sy, sz = (integer(v, "shape") for v in shape)
    if min(sx, sy, sz) < 1:
        raise ValueError(f"shape must be at least 1 on each axis, got {tuple(shape)}")
    column = _build_column(seed, wx0, wz0, sx, sz)
    return _material_ids(registry)[_fill(column, wy0, sy)]


def surface_height(seed: int, wx: int, wz: int) -> int:
    """The height of the ground's top face at a world column: a player stands at this ``y``.

    It is the wy of the first voxel above the ground's top block; trees, tall grass and water
    are not ground (under the sea this is below `SEA_LEVEL`).
    """
    wx = integer(wx, "wx")
    wz = integer(wz, "wz")
    ground = _ground(integer(seed, "seed"), np.array([[wx]]), np.array([[wz]]))
    return int(ground[0, 0]) + 1


def spawn_point(
    seed: int, registry: BlockRegistry, search_radius: int = 512
) -> tuple[int, int, int]:
    """The dry-land voxel nearest the origin where a player fits: (wx, wy of the feet, wz).

    Candidates are tried on an 8-block grid out to ``search_radius``; the origin column is
    returned when no land is found (a world of sea).
    """
    seed = integer(seed, "seed")
    offsets = np.arange(-search_radius, search_radius + 1, 8, dtype=np.int64)
    wx, wz = np.meshgrid(offsets, offsets, indexing="ij")
    ground = _ground(seed, wx, wz)
    land = (ground >= SEA_LEVEL + BEACH_ABOVE + 1) & (ground <= TREE_LINE)
    order = np.argsort((wx * wx + wz * wz)[land], kind="stable")
    tall_grass = registry.id("base:tall_grass")
    columns = (wx[land][order], wz[land][order], ground[land][order])
    for x, z, g in zip(*(c.tolist() for c in columns), strict=True):
        body = generate_region(seed, (x, g + 1, z), (1, 2, 1), registry)
        if np.all((body == 0) | (body == tall_grass)):
            return (x, g + 1, z)
    return (0, surface_height(seed, 0, 0), 0)
