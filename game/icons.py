"""Item icons: small isometric views of blocks (top and two sides), drawn from the atlas in numpy.

Each icon is an orthographic view of the block from above its south-east corner, as Minecraft's
inventory draws blocks: the top face lit fully, the south (+z) face on the left at 80 %, the east
(+x) face on the right at 60 %. A pixel casts a ray into the block's selection boxes (a full cube
for cube blocks), so slabs, stairs, fences and doors show their real shape, each face with the
part of its tile the mesher would draw there. Plants (saplings, tall grass) are drawn as their
flat tile, as Minecraft draws plant items.

Every cube icon shares one per-pixel map of (face, u, v), so the icons of all cube blocks are one
gather from the atlas (`icon_sheet`: the inventory screen's, every item at once); only shaped
blocks cast their rays one block at a time. `item_icon` is one item's icon, the same pixels (the
hotbar's, a few at a time).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from world.blocks.atlas import TILE_PX, TILES_PER_ROW
from world.blocks.block_type import DRAW_NONE, DRAW_PLANT
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box
from world.mesh.shapes import FACE_SHADE

__all__ = ["ICON_PX", "block_icon", "icon_sheet", "item_icon"]

ICON_PX = 32
_SHADE = np.array(FACE_SHADE)  # per face +x, -x, +y, -y, +z, -z: the placed block's
_HALF = 0.86  # block units from the icon's centre to its edge (the cube's outline fits)


def _view(size: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Ray origins (size*size, 3) and the shared direction, looking from +x +y +z down at -."""
    d = -np.ones(3) / np.sqrt(3.0)
    right = np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
    up = np.cross(right, d)
    up = up if up[1] > 0 else -up
    s = (np.arange(size) + 0.5) / size * 2.0 - 1.0  # pixel centres, -1..1
    sx, sy = np.meshgrid(s, -s)  # row 0 at the top of the image
    centre = np.array([0.5, 0.5, 0.5]) - 3.0 * d
    origins = (
        centre + _HALF * (sx.reshape(-1, 1) * right + sy.reshape(-1, 1) * up)  # (P, 3)
    )
    return origins, d


def _cast(
    boxes: tuple[Box, ...], size: int
) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]:
    """Per pixel: hit?, the face hit (0..5 as +x,-x,+y,-y,+z,-z), and its u, v in 0..1."""
    origins, d = _view(size)
    n = len(origins)
    best = np.full(n, np.inf)
    axis_hit = np.zeros(n, dtype=np.int64)
    for box in boxes:
        lo = np.array(box[:3])
        hi = np.array(box[3:])
        t1 = (lo - origins) / d
        t2 = (hi - origins) / d
        t_near = np.minimum(t1, t2)
        entry = t_near.max(axis=1)
        exit_ = np.maximum(t1, t2).min(axis=1)
        hit = (entry < exit_) & (entry < best)
        best = np.where(hit, entry, best)
        axis_hit = np.where(hit, t_near.argmax(axis=1), axis_hit)
    hit = np.isfinite(best)
    point = origins + best[:, None] * d if hit.any() else origins
    x, y, z = point[:, 0], point[:, 1], point[:, 2]
    # Entered faces point back at the viewer: +x, +y, +z (face indices 0, 2, 4).
    face = axis_hit * 2
    u = np.select([axis_hit == 0, axis_hit == 1], [1.0 - z, x], x)
    v = np.select([axis_hit == 1], [1.0 - z], y)
    return hit, face, np.clip(u, 0.0, 1.0 - 1e-9), np.clip(v, 0.0, 1.0 - 1e-9)


def _sample(
    atlas: NDArray[np.uint8],
    tiles: NDArray[np.int64],
    u: NDArray[np.float64],
    v: NDArray[np.float64],
) -> NDArray[np.uint8]:
    """Atlas texels of `tiles` at (u, v) (v = 0 at the tile's bottom), any matching shapes."""
    tx = (u * TILE_PX).astype(np.int64)
    ty = ((1.0 - v) * TILE_PX).astype(np.int64).clip(0, TILE_PX - 1)
    col = (tiles % TILES_PER_ROW) * TILE_PX + tx
    row = (tiles // TILES_PER_ROW) * TILE_PX + ty
    row = row.clip(0, atlas.shape[0] - 1)
    col = col.clip(0, atlas.shape[1] - 1)
    sampled: NDArray[np.uint8] = atlas[row, col]
    return sampled


def _shade(pixels: NDArray[np.uint8], face: NDArray[np.int64]) -> NDArray[np.uint8]:
    out = pixels.astype(np.float64)
    out[..., :3] *= _SHADE[face][..., None]
    shaded: NDArray[np.uint8] = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return shaded


def _flat(atlas: NDArray[np.uint8], tile: int, size: int) -> NDArray[np.uint8]:
    s = (np.arange(size) + 0.5) / size
    u, v = np.meshgrid(s, 1.0 - s)
    tiles = np.full(u.shape, tile, dtype=np.int64)
    return _sample(atlas, tiles, u, v)


_Cast = tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]


def block_icon(
    atlas: NDArray[np.uint8],
    registry: BlockRegistry,
    state: int,
    size: int = ICON_PX,
    casts: dict[tuple[tuple[Box, ...], int], _Cast] | None = None,
) -> NDArray[np.uint8]:
    """One block state's icon, (size, size, 4) RGBA, row 0 at the top, clear background.

    `casts` caches the per-pixel rays of each shape across calls (blocks share shapes).
    """
    draw = int(registry.draw[state])
    tiles = registry.face_tiles[state].astype(np.int64)
    if draw == DRAW_PLANT:
        return _flat(atlas, int(tiles[0]), size)
    icon = np.zeros((size * size, 4), dtype=np.uint8)
    if draw == DRAW_NONE:
        return icon.reshape(size, size, 4)
    boxes = registry.selection_boxes[state] or FULL
    casts = {} if casts is None else casts
    if (boxes, size) not in casts:
        casts[boxes, size] = _cast(boxes, size)
    hit, face, u, v = casts[boxes, size]
    pixels = _sample(atlas, tiles[face[hit]], u[hit], v[hit])
    icon[hit] = _shade(pixels, face[hit])
    return icon.reshape(size, size, 4)


def item_icon(
    atlas: NDArray[np.uint8],
    registry: BlockRegistry,
    item: str,
    size: int = ICON_PX,
    casts: dict[tuple[tuple[Box, ...], int], _Cast] | None = None,
) -> NDArray[np.uint8] | None:
    """An item's icon by its name, (size, size, 4) RGBA, as the inventory screen draws it: a
    block's item as its default state (`block_icon`), an item that is no block as its flat tile;
    None for an item no loaded mod knows."""
    if item in registry:
        return block_icon(atlas, registry, registry.id(item), size, casts)
    thing = registry.items.get(item)
    return None if thing is None else _flat(atlas, registry.tile_id(thing.image), size)


def icon_sheet(
    atlas: NDArray[np.uint8],
    registry: BlockRegistry,
    states: list[int],
    size: int = ICON_PX,
    flat_tiles: Sequence[int] = (),
) -> tuple[NDArray[np.uint8], int]:
    """Icons of `states`, then of items that are not blocks (`flat_tiles`: their atlas tiles,
    drawn flat as Minecraft draws items), in one image, `columns` to a row: (image, columns).

    Icon ``i`` is at column ``i % columns``, row ``i // columns`` (row 0 at the top). The image
    is a power of two wide and high (Panda3D would rescale it otherwise).
    """
    count = max(1, len(states) + len(flat_tiles))
    columns = 1
    while columns * columns < count:
        columns *= 2
    rows = -(-count // columns)
    height = 1
    while height < rows * size:
        height *= 2
    sheet = np.zeros((height, columns * size, 4), dtype=np.uint8)
    ids = np.asarray(states, dtype=np.int64)
    cube = np.array(
        [registry.selection_boxes[s] is None and registry.draw[s] != DRAW_PLANT for s in states],
        dtype=bool,
    )
    icons = np.zeros((len(states) + len(flat_tiles), size * size, 4), dtype=np.uint8)
    if cube.any():
        hit, face, u, v = _cast(FULL, size)
        tiles = registry.face_tiles[ids[cube]].astype(np.int64)[:, face[hit]]  # (K, hits)
        pixels = _sample(atlas, tiles, u[hit][None, :], v[hit][None, :])
        shaded = _shade(pixels, np.broadcast_to(face[hit], tiles.shape))
        block = np.zeros((int(cube.sum()), size * size, 4), dtype=np.uint8)
        block[:, hit] = shaded
        icons[: len(states)][cube] = block
    casts: dict[tuple[tuple[Box, ...], int], _Cast] = {}
    for k in np.flatnonzero(~cube):
        icons[k] = block_icon(atlas, registry, int(ids[k]), size, casts).reshape(-1, 4)
    for j, tile in enumerate(flat_tiles):
        icons[len(states) + j] = _flat(atlas, int(tile), size).reshape(-1, 4)
    for i in range(len(icons)):
        r, c = divmod(i, columns)
        sheet[r * size : (r + 1) * size, c * size : (c + 1) * size] = icons[i].reshape(
            size, size, 4
        )
    return sheet, columns
