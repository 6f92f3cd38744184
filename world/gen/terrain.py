"""World generation: the seeded terrain of biomes, beaches, sea, caves, trees and plants.

Contract
--------
``generate_chunk(seed, cx, cy, cz, registry)`` returns a chunk's flat uint16 block array (or
``None`` when the chunk is all air) computed from the seed and the chunk coordinates ALONE: every
value is a pure function of world coordinates, so chunks may be generated in any order, on any
machine, and still join without seams (`generate_region` makes any box in one piece, and the
tests compare the two). ``world.gen.generators.TerrainGenerator`` wraps this as the named
``gen(cx, cy, cz)`` a `world.voxels.chunks.World` takes and a save records.

Vertical layout (world voxel ``wy``)
------------------------------------
- ``wy < 0``: air. Bedrock cannot be broken, so nothing below it is reachable; air chunks cost no
  memory, and a flat world's "void" reads the same way.
- ``wy == 0``: bedrock everywhere.
- stone, then `SANDSTONE_DEPTH` layers (sandstone under a desert, stone elsewhere), then
  `DIRT_DEPTH` blocks of the column's sub-soil and its top block, by biome
  (`world.gen.biomes`): grass over dirt on plains, in forests and on snowy land (a snow layer
  on top), sand over sand in a desert, sand on every beach (tops in ``SEA_LEVEL - 3 ..
  SEA_LEVEL``) and in the shallows, gravel on the deep sea floor.
- water fills every other voxel with ``wy < SEA_LEVEL``: the sea's surface is the plane
  ``y = SEA_LEVEL`` (32); its top layer is ice where the climate is snowy's.
- caves (`world.gen.caves`) take ground from ``CAVE_BOTTOM`` up: tunnels up to the surface,
  caverns deep down; at ``wy <= LAVA_LEVEL`` they hold lava when the registry has ``base:lava``
  (air otherwise). Below the sea's surface a cave keeps `SEA_ROOF` blocks of rock under every
  sea floor within one column, so no cave opens into the sea; none cuts under a trunk or a
  cactus (`KEEP_UNDER`), and the plant over a cave's mouth goes with the ground.
- on top: trees and cacti (`world.gen.plants`), tall grass on grass (thicker on plains), dead
  bushes on a desert's dry sand.

Noise and cost
--------------
Every field is `world.gen.noise`'s: bit-for-bit reproducible (integer hashing, ``+ - *`` and
``floor`` only), so a world regenerates identically on every machine (unmodified chunks are never
saved, only regenerated), and each value depends on its own coordinates alone, so a column's
height looked up among scattered tree sites equals the same column in a 16×16 map. A chunk
column's land, plants and cave lattice are computed once and cached (`COLUMN_CACHE_SIZE`
columns, LRU): the chunks stacked on a column share them, and a chunk whose cave lattice is
negative throughout (no cave can reach it) below the ground is plain stone without a fill.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.gen.biomes import (
    BEACH_ABOVE,
    BEACH_BELOW,
    DESERT,
    OCEAN,
    SEA_LEVEL,
    SNOWY,
    ground_height,
)
from world.gen.caves import (
    CAVE_BOTTOM,
    CAVE_CELL,
    LAVA_LEVEL,
    CaveLattice,
    carved,
    cave_lattice,
)
from world.gen.noise import hash2, stream_salt, unit
from world.gen.plants import (
    AROUND,
    TREE_LINE,
    LandGrid,
    cacti_in,
    cactus_voxels,
    tree_voxels,
    trees_in,
)
from world.validate import integer
from world.voxels.layout import CHUNK, CHUNK_VOLUME

__all__ = [
    "COLUMN_CACHE_SIZE",
    "DIRT_DEPTH",
    "SANDSTONE_DEPTH",
    "SEA_ROOF",
    "clear_cache",
    "generate_chunk",
    "generate_region",
    "spawn_point",
    "surface_height",
]

DIRT_DEPTH = 3  # sub-soil blocks between the top block and stone
SANDSTONE_DEPTH = 3  # under a desert's sand, sandstone before the stone
GRAVEL_DEPTH = 8  # sea floors deeper than this below the surface are gravel
# A grass block's chance of tall grass, per land biome; a desert's sand's of a dead bush.
TALL_GRASS_CHANCE = (0.2, 0.12, 0.0, 0.0)
DEAD_BUSH_CHANCE = 0.015
SEA_ROOF = 4  # below the sea, caves keep this much rock under every nearby sea floor
KEEP_UNDER = 4  # nor do they come nearer than this under a tree or a cactus
COLUMN_CACHE_SIZE = (
    2048  # chunk columns (x, z) whose land, plants and caves are kept (~12 KiB each)
)

# Material codes used while filling, mapped to the registry's ids at the end (by these names;
# lava is optional: without a ``base:lava`` block caves stay air all the way down).
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
    "base:sandstone",
    "base:snow",
    "base:ice",
    "base:cactus",
    "base:dead_bush",
    "base:lava",
)
_AIR, _STONE, _DIRT, _GRASS, _SAND, _GRAVEL = range(6)
_WATER, _BEDROCK, _LOG, _LEAVES, _TALL_GRASS = range(6, 11)
_SANDSTONE, _SNOW, _ICE, _CACTUS, _DEAD_BUSH, _LAVA = range(11, 17)
_OPTIONAL = {"base:lava"}
# Depth classes of a voxel in its column (see `_fill`): index into a column's material row.
_CLASS_UNDER = 3 + DIRT_DEPTH  # the first of the SANDSTONE_DEPTH layers under the sub-soil
_CLASS_STONE = _CLASS_UNDER + SANDSTONE_DEPTH
_CLASS_WATER = _CLASS_STONE + 1
_CLASS_SURFACE = _CLASS_WATER + 1  # the sea's top layer: water, or ice where it freezes
_CLASSES = _CLASS_SURFACE + 1

_U32 = np.uint32


@dataclass(frozen=True, slots=True)
class _Column:
    """What generation needs of a rectangle of world columns, independent of wy.

    ``materials[c]`` is the material of each depth class (see `_fill`) of flat column ``c``.
    Caves may take a voxel at ``wy <= roof`` and, below the sea's surface, ``wy <= sea_roof``.
    """

    wx0: int
    wz0: int
    ground: NDArray[np.int64]  # (sx, sz)
    materials: NDArray[np.uint8]  # (sx * sz, _CLASSES)
    logs: NDArray[np.int64]  # (L, 3) world positions inside the rectangle
    leaves: NDArray[np.int64]
    dirt: NDArray[np.int64]
    cacti: NDArray[np.int64]
    roof: NDArray[np.int64]  # (sx, sz)
    sea_roof: NDArray[np.int64]  # (sx, sz)
    caves: CaveLattice
    top_wy: int  # nothing but air above this wy
    stone_below: int  # every voxel 0 < wy < stone_below is stone, but for caves


def _build_column(seed: int, wx0: int, wz0: int, sx: int, sz: int) -> _Column:
    around = LandGrid.of(seed, wx0, wz0, wx0 + sx, wz0 + sz)
    inner = (slice(AROUND, -AROUND), slice(AROUND, -AROUND))
    ground = around.land.ground[inner]
    biome = around.land.biome[inner]
    weights = around.land.weights[(slice(None), *inner)]
    wx = np.arange(wx0, wx0 + sx, dtype=np.int64)
    wz = np.arange(wz0, wz0 + sz, dtype=np.int64)

    desert = biome == DESERT
    top = np.where(desert, _SAND, _GRASS).astype(np.uint8)
    sub = np.where(desert, _SAND, _DIRT).astype(np.uint8)
    under = np.where(desert, _SANDSTONE, _STONE).astype(np.uint8)
    beach = (ground >= SEA_LEVEL - BEACH_BELOW) & (ground <= SEA_LEVEL + BEACH_ABOVE)
    top[beach] = _SAND
    sub[beach] = _SAND
    ocean = biome == OCEAN
    top[ocean] = np.where(ground[ocean] < SEA_LEVEL - GRAVEL_DEPTH, _GRAVEL, _SAND)
    dry = ground >= SEA_LEVEL - 1  # no water above the top block
    plant_hash = unit(hash2(wx[:, np.newaxis], wz[np.newaxis, :], stream_salt(seed, 5)))
    grass_chance = np.zeros(ground.shape)
    for weight, chance in zip(weights, TALL_GRASS_CHANCE, strict=True):
        grass_chance = grass_chance + weight * chance
    plant = np.full(ground.shape, _AIR, dtype=np.uint8)
    plant[(top == _GRASS) & (plant_hash < grass_chance)] = _TALL_GRASS
    plant[desert & dry & (plant_hash < DEAD_BUSH_CHANCE)] = _DEAD_BUSH
    plant[(biome == SNOWY) & dry] = _SNOW

    materials = np.empty((sx * sz, _CLASSES), dtype=np.uint8)
    materials[:, 0] = _AIR
    materials[:, 1] = plant.ravel()
    materials[:, 2] = top.ravel()
    materials[:, 3:_CLASS_UNDER] = sub.reshape(-1, 1)
    materials[:, _CLASS_UNDER:_CLASS_STONE] = under.reshape(-1, 1)
    materials[:, _CLASS_STONE] = _STONE
    materials[:, _CLASS_WATER] = _WATER
    materials[:, _CLASS_SURFACE] = np.where(around.land.frozen[inner], _ICE, _WATER).ravel()

    logs, leaves, dirt = tree_voxels(trees_in(seed, wx0, wz0, wx0 + sx, wz0 + sz, around))
    cacti = cactus_voxels(cacti_in(seed, wx0, wz0, wx0 + sx, wz0 + sz, around))

    def inside(positions: NDArray[np.int64]) -> NDArray[np.int64]:
        lx = positions[:, 0] - wx0
        lz = positions[:, 2] - wz0
        out = positions[(lx >= 0) & (lx < sx) & (lz >= 0) & (lz < sz)]
        out.flags.writeable = False
        return out

    logs, leaves, dirt, cacti = inside(logs), inside(leaves), inside(dirt), inside(cacti)
    # Caves reach the surface, but not under a trunk or a cactus (left standing on nothing), and
    # below the sea's surface only under SEA_ROOF blocks of rock beneath every sea floor around.
    roof = ground.copy()
    for positions in (dirt, cacti):
        roof[positions[:, 0] - wx0, positions[:, 2] - wz0] = (
            ground[positions[:, 0] - wx0, positions[:, 2] - wz0] - KEEP_UNDER
        )
    lowest = around.land.ground
    sea_floor = np.minimum.reduce(
        [
            lowest[AROUND + dx : AROUND + dx + sx, AROUND + dz : AROUND + dz + sz]
            for dx in (-1, 0, 1)
            for dz in (-1, 0, 1)
        ]
    )
    sea_roof = sea_floor - SEA_ROOF
    caves = cave_lattice(seed, wx0, wz0, sx, sz, int(roof.max()))

    top_wy = max(int(ground.max()) + 1, SEA_LEVEL - 1)
    for positions in (logs, leaves, cacti):
        if len(positions):
            top_wy = max(top_wy, int(positions[:, 1].max()))
    for array in (ground, materials, roof, sea_roof):
        array.flags.writeable = False
    stone_below = int(ground.min()) - DIRT_DEPTH - SANDSTONE_DEPTH
    return _Column(
        wx0,
        wz0,
        ground,
        materials,
        logs,
        leaves,
        dirt,
        cacti,
        roof,
        sea_roof,
        caves,
        top_wy,
        stone_below,
    )


@functools.lru_cache(maxsize=COLUMN_CACHE_SIZE)
def _chunk_column(seed: int, cx: int, cz: int) -> _Column:
    return _build_column(seed, cx * CHUNK[0], cz * CHUNK[2], CHUNK[0], CHUNK[2])


def clear_cache() -> None:
    """Forget the cached chunk columns (memory, or timing a column never seen before)."""
    _chunk_column.cache_clear()


def _cave_range(column: _Column, wy0: int, sy: int) -> tuple[int, int]:
    """The wy range (lo, hi inclusive) whose caves a fill of ``wy0 .. wy0+sy-1`` needs: its own
    voxels and the one below (a plant over a cave mouth goes)."""
    return max(wy0 - 1, CAVE_BOTTOM), min(wy0 + sy - 1, int(column.roof.max()))


def _may_carve(column: _Column, wy0: int, sy: int) -> bool:
    """Whether any voxel of ``wy0 .. wy0+sy-1`` can be cave: false when the carving field is
    negative at every lattice point around them (interpolation stays between its corners)."""
    lo, hi = _cave_range(column, wy0, sy)
    if lo > hi:
        return False
    first, last = lo // CAVE_CELL, hi // CAVE_CELL + 1
    return bool(column.caves.values[:, first : last + 1].max() > 0.0)


def _carve(column: _Column, mat: NDArray[np.uint8], wy0: int, sy: int) -> None:
    """Carve the caves into a fill, in place: air, or lava at ``wy <= LAVA_LEVEL``."""
    lo, hi = _cave_range(column, wy0, sy)
    if lo > hi:
        return
    sx, sz = column.ground.shape
    wy = np.arange(lo, hi + 1, dtype=np.int64)[np.newaxis, :, np.newaxis]
    cave = carved(column.caves, column.wx0, column.wz0, sx, sz, lo, hi - lo + 1)
    cave &= wy <= column.roof[:, np.newaxis, :]
    cave &= (wy >= SEA_LEVEL) | (wy <= column.sea_roof[:, np.newaxis, :])
    # A plant, a snow layer or a dead bush over a cave mouth would float: gone with the ground.
    mouth = cave & (wy == column.ground[:, np.newaxis, :])
    first = max(lo, wy0)
    if first <= hi:
        part = mat[:, first - wy0 : hi + 1 - wy0, :]  # a view: written through
        own = cave[:, first - lo :, :]
        part[own] = _AIR
        part[own & (wy[:, first - lo :, :] <= LAVA_LEVEL)] = _LAVA
    x, j, z = np.nonzero(mouth)
    ly = lo + j + 1 - wy0
    keep = (ly >= 0) & (ly < sy)
    mat[x[keep], ly[keep], z[keep]] = _AIR


def _fill(column: _Column, wy0: int, sy: int) -> NDArray[np.uint8]:
    """Material codes of the voxels ``wy0 <= wy < wy0 + sy`` of a column rectangle, [x, y, z]."""
    sx, sz = column.ground.shape
    wy = np.arange(wy0, wy0 + sy, dtype=np.int64)
    depth = column.ground[:, np.newaxis, :] - wy[np.newaxis, :, np.newaxis]
    # Depth classes: 0 air high above, 1 just above the ground, 2 the top block, 3.. sub-soil,
    # then the layers under it (sandstone in a desert), stone, and water for any air class
    # below sea level (its top layer a class of its own: ice where the sea freezes).
    cls = np.clip(depth, -2, _CLASS_STONE - 2) + 2
    under_sea = (depth < 0) & (wy < SEA_LEVEL)[np.newaxis, :, np.newaxis]
    cls[under_sea] = _CLASS_WATER
    cls[under_sea & (wy == SEA_LEVEL - 1)[np.newaxis, :, np.newaxis]] = _CLASS_SURFACE
    column_index = np.arange(sx * sz).reshape(sx, 1, sz) * _CLASSES
    mat: NDArray[np.uint8] = column.materials.ravel()[column_index + cls]
    if wy0 <= 0:
        mat[:, : min(-wy0, sy), :] = _AIR
        if -wy0 < sy:
            mat[:, -wy0, :] = _BEDROCK
    _carve(column, mat, wy0, sy)
    for positions, material, only_air in (
        (column.leaves, _LEAVES, True),
        (column.logs, _LOG, False),
        (column.dirt, _DIRT, False),
        (column.cacti, _CACTUS, False),
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
        [
            0
            if name == "air" or (name in _OPTIONAL and name not in registry)
            else registry.id(name)
            for name in _MATERIAL_NAMES
        ],
        np.uint16,
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
    if wy0 > 0 and wy0 + CHUNK[1] <= column.stone_below and not _may_carve(column, wy0, CHUNK[1]):
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
    ground = ground_height(integer(seed, "seed"), np.array([[wx]]), np.array([[wz]]))
    return int(ground[0, 0]) + 1


def spawn_point(
    seed: int, registry: BlockRegistry, search_radius: int = 512
) -> tuple[int, int, int]:
    """The dry-land voxel nearest the origin where a player fits: (wx, wy of the feet, wz).

    Candidates are tried on an 8-block grid out to ``search_radius``: land above the beaches and
    below the tree line, whose top block is still there (not a cave's mouth) with two voxels a
    player passes through above it. The origin column is returned when none is found (a world of
    sea).
    """
    seed = integer(seed, "seed")
    offsets = np.arange(-search_radius, search_radius + 1, 8, dtype=np.int64)
    wx, wz = np.meshgrid(offsets, offsets, indexing="ij")
    ground = ground_height(seed, wx, wz)
    land_ = (ground >= SEA_LEVEL + BEACH_ABOVE + 1) & (ground <= TREE_LINE)
    order = np.argsort((wx * wx + wz * wz)[land_], kind="stable")
    columns = (wx[land_][order], wz[land_][order], ground[land_][order])
    for x, z, g in zip(*(c.tolist() for c in columns), strict=True):
        floor, *body = generate_region(seed, (x, g, z), (1, 3, 1), registry).ravel().tolist()
        if registry.solid[floor] and not any(registry.solid[b] for b in body):
            return (x, g + 1, z)
    return (0, surface_height(seed, 0, 0), 0)
