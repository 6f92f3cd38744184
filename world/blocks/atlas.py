"""Layout of the block texture atlas: which pixels and which uv rectangle hold each tile.

The atlas (``assets/atlas.png``, drawn by ``python -m tools.make_atlas``) is a fixed grid of
``TILES_PER_ROW × TILE_ROWS`` tiles of ``TILE_PX × TILE_PX`` pixels, as Minecraft's old
``terrain.png``. Tile ``i`` is the atlas index the block registry gives a tile name
(``registry.tile_names[i]``): column ``i % TILES_PER_ROW``, row ``i // TILES_PER_ROW`` of the
image, row 0 at the TOP of the PNG. The committed atlas draws the base game's tiles only
(`ATLAS_TILES`); every other cell holds the "missing" checker. A mod's tiles are numbered after
the base ones and drawn from the mod's own PNG files (`world.mods.textures`), which the game copies
into those cells at start (``game.atlas_build``); a tile without a file stays the magenta checker
instead of going invisible.

The grid is fixed (not sized to the tile count) so that uv rectangles depend on the tile index
alone, and both sides are powers of two: Panda3D rescales other sizes by default
(``textures-power-2``), which would shift every tile.

Texture coordinates follow ursina / Panda3D: the uv origin is the BOTTOM-left of the image, so
``v = 0`` is the bottom row of the PNG and tile row 0 has the largest ``v``.

This module is pure layout arithmetic (no image I/O) so the mesher and the game's hotbar icons
agree on it without importing an imaging library.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.shipped import atlas_path

__all__ = [
    "ATLAS_PATH",
    "ATLAS_PX",
    "ATLAS_TILES",
    "CRACK_TILES",
    "TILES_PER_ROW",
    "TILE_CAPACITY",
    "TILE_PX",
    "TILE_ROWS",
    "tile_cells",
    "tile_pixel_box",
    "tile_uv_rect",
    "tile_uv_rects",
]

TILE_PX = 16
TILES_PER_ROW = 16
TILE_ROWS = 16
TILE_CAPACITY = TILES_PER_ROW * TILE_ROWS
# 256 × 256 pixels: a power of two on both sides (see the module docstring).
ATLAS_PX: tuple[int, int] = (TILES_PER_ROW * TILE_PX, TILE_ROWS * TILE_PX)
# Found with importlib.resources: in the repository, or in site-packages when installed.
ATLAS_PATH = atlas_path()

# The breaking overlay's ten crack stages, drawn over a block as it is broken.
CRACK_TILES: tuple[str, ...] = tuple(f"base:crack_{stage}" for stage in range(10))
# The base game's tiles, the only ones the base atlas draws, each at a fixed cell: a block registry
# gives these names these indices whatever order blocks register in, and numbers every other tile
# name (a mod's) after them, in the "missing" checker's cells, which the game fills from the mod's
# own PNG file (`world.mods.textures`). No mod's tile is here: the engine knows no content.
ATLAS_TILES: tuple[str, ...] = (
    "base:missing",
    "base:stone",
    "base:dirt",
    "base:grass_top",
    "base:grass_side",
    "base:sand",
    "base:gravel",
    "base:log_top",
    "base:log_side",
    "base:planks",
    "base:leaves",
    "base:glass",
    "base:water",
    "base:bedrock",
    "base:tall_grass",
    "base:lamp",
    *CRACK_TILES,
    "base:cobblestone",
    "base:sapling",
    "base:torch",
    "base:door",
    "base:lava",
    "base:obsidian",
    "base:sandstone",
    "base:cactus_side",
    "base:cactus_top",
    "base:dead_bush",
    "base:snow",
    "base:ice",
    "base:bucket",  # the base game's items' icons (`world.base.items`)
    "base:water_bucket",
    "base:lava_bucket",
)


def _check_tile(tile_index: object) -> int:
    if isinstance(tile_index, bool) or not isinstance(tile_index, int | np.integer):
        raise ValueError(f"tile_index must be an integer, got {tile_index!r}")
    if not 0 <= int(tile_index) < TILE_CAPACITY:
        raise ValueError(f"tile_index must be in 0..{TILE_CAPACITY - 1}, got {int(tile_index)}")
    return int(tile_index)


def tile_pixel_box(tile_index: int) -> tuple[int, int, int, int]:
    """The pixel box of a tile in the atlas image, as Pillow's ``crop`` takes it.

    Parameters
    ----------
    tile_index : int
        Atlas index, ``0 <= tile_index < TILE_CAPACITY``.

    Returns
    -------
    (left, top, right, bottom) : tuple of int
        Pixel edges, row 0 at the top of the image; right and bottom are exclusive.
    """
    tile = _check_tile(tile_index)
    column, row = tile % TILES_PER_ROW, tile // TILES_PER_ROW
    return (column * TILE_PX, row * TILE_PX, (column + 1) * TILE_PX, (row + 1) * TILE_PX)


def tile_uv_rect(tile_index: int) -> tuple[float, float, float, float]:
    """The uv rectangle of a tile, with the uv origin at the bottom-left of the atlas.

    Parameters
    ----------
    tile_index : int
        Atlas index, ``0 <= tile_index < TILE_CAPACITY``.

    Returns
    -------
    (u0, v0, u1, v1) : tuple of float
        Left, bottom, right and top edges in ``[0, 1]``; ``u0 < u1`` and ``v0 < v1``.

    Raises
    ------
    ValueError
        If ``tile_index`` is not an integer in range.
    """
    u0, v0, u1, v1 = tile_uv_rects(np.array([_check_tile(tile_index)]))[0].tolist()
    return (u0, v0, u1, v1)


def tile_uv_rects(tile_indices: ArrayLike, inset_px: float = 0.0) -> NDArray[np.float32]:
    """The uv rectangles of many tiles at once (the mesher's path).

    Parameters
    ----------
    tile_indices : array_like of int, shape (N,)
        Atlas indices. Indices outside the atlas grid map to tile 0 ("missing"), so a mod's
        extra tiles draw as the checker instead of sampling outside the image.
    inset_px : float
        Shrink each rectangle by this many texels on every side. A small inset keeps a
        rasteriser's rounding at a quad's edge from sampling the neighbouring tile.

    Returns
    -------
    ndarray of float32, shape (N, 4)
        Rows of (u0, v0, u1, v1) as in `tile_uv_rect`.
    """
    if not 0.0 <= inset_px < TILE_PX / 2:
        raise ValueError(f"inset_px must be in [0, {TILE_PX / 2}), got {inset_px!r}")
    tiles = np.asarray(tile_indices)
    if tiles.dtype.kind not in "iu":
        raise ValueError(f"tile_indices must hold integers, got dtype {tiles.dtype}")
    tiles = np.where((tiles >= 0) & (tiles < TILE_CAPACITY), tiles, 0).reshape(-1)
    column = (tiles % TILES_PER_ROW).astype(np.float64)
    row = (tiles // TILES_PER_ROW).astype(np.float64)
    inset_u = inset_px / ATLAS_PX[0]
    inset_v = inset_px / ATLAS_PX[1]
    rects = np.empty((len(tiles), 4), dtype=np.float64)
    rects[:, 0] = column / TILES_PER_ROW + inset_u
    rects[:, 2] = (column + 1) / TILES_PER_ROW - inset_u
    # Row 0 is the top of the image, where v is largest.
    rects[:, 1] = 1.0 - (row + 1) / TILE_ROWS + inset_v
    rects[:, 3] = 1.0 - row / TILE_ROWS - inset_v
    return rects.astype(np.float32)


def tile_cells(origins: NDArray[np.floating]) -> NDArray[np.int64]:
    """The atlas index of the tile whose bottom-left uv corner is each row of ``origins``
    ((N, 2) u, v: a mesh's ``tile_origin``, `world.mesh.data.MeshData`), the inverse of
    `tile_uv_rects`' corner."""
    column = np.rint(origins[:, 0] * TILES_PER_ROW).astype(np.int64)
    row = TILE_ROWS - 1 - np.rint(origins[:, 1] * TILE_ROWS).astype(np.int64)
    cells: NDArray[np.int64] = row * TILES_PER_ROW + column
    return cells
