"""Draw the block texture atlas, ``assets/atlas.png``, and the example mods' own tiles:
``python -m tools.make_atlas``.

Every tile is a small procedural pixel painting (numpy + Pillow): noise, speckles, pebbles, bark,
rings, boards, blades. Each painter draws from its own random generator seeded by the tile name,
so the output is the same on every run and machine, and adding a tile changes no other tile.
Only uniform random draws and ``+ - * floor`` are used, nothing whose last bit depends on the
C library, so the committed PNG can be checked against a fresh drawing (``--check``).

The atlas holds the base game's tiles only (`PAINTERS`), placed by `world.blocks.atlas` (tile ``i``
of `world.blocks.atlas.ATLAS_TILES` at column ``i % 16``, row ``i // 16``); unused cells hold the
magenta "missing" checker, as does any tile name this script has no painter for (it says so on
stderr). The example mods' tiles (`MOD_TEXTURES`: the ores, the hoe, the lit lamp, TNT) are not in
it: each is written as the mod's own 16×16 PNG, ``mods/textures/<mod>_<name>.png``
(`world.mods.textures`), which the game copies into its atlas at start as it does any mod's.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from world.blocks.atlas import (
    ATLAS_PATH,
    ATLAS_PX,
    ATLAS_TILES,
    CRACK_TILES,
    TILE_CAPACITY,
    TILE_PX,
    tile_pixel_box,
)

__all__ = ["MOD_TEXTURES", "PAINTERS", "build_atlas", "main", "mod_texture_path", "paint_tile"]

N = TILE_PX
Tile = NDArray[np.uint8]  # (16, 16, 4) RGBA, row 0 at the top
Rng = np.random.Generator


def _rgba(rgb: NDArray[np.floating], alpha: NDArray[np.floating] | float = 255.0) -> Tile:
    out = np.empty((N, N, 4), dtype=np.uint8)
    out[..., :3] = np.clip(np.rint(rgb), 0, 255)
    out[..., 3] = np.clip(np.rint(np.broadcast_to(alpha, (N, N))), 0, 255)
    return out


def _colour(rgb: tuple[int, int, int], brightness: NDArray[np.floating]) -> NDArray[np.float64]:
    """A base colour scaled by a per-pixel brightness field, shape (16, 16, 3)."""
    return np.asarray(rgb, dtype=np.float64) * brightness[..., np.newaxis]


def _smooth_noise(rng: Rng, cells: int) -> NDArray[np.float64]:
    """Tileable value noise in [-1, 1]: a random cells×cells grid, bilinearly interpolated."""
    grid = rng.random((cells, cells)) * 2.0 - 1.0
    t = (np.arange(N) + 0.5) * cells / N - 0.5
    i0 = np.floor(t).astype(np.int64)
    f = t - i0
    i0 %= cells
    i1 = (i0 + 1) % cells
    rows0 = grid[i0][:, i0] + (grid[i0][:, i1] - grid[i0][:, i0]) * f[np.newaxis, :]
    rows1 = grid[i1][:, i0] + (grid[i1][:, i1] - grid[i1][:, i0]) * f[np.newaxis, :]
    return rows0 + (rows1 - rows0) * f[:, np.newaxis]


def _grain(rng: Rng, amount: float) -> NDArray[np.float64]:
    """Per-pixel brightness jitter around 1."""
    return 1.0 + (rng.random((N, N)) * 2.0 - 1.0) * amount


def _speckle(rng: Rng, count: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Pixel coordinates of ``count`` random speckles."""
    return rng.integers(0, N, count), rng.integers(0, N, count)


def paint_missing(rng: Rng) -> Tile:
    """Magenta and black 8-pixel checker: the tile of a texture the atlas lacks."""
    y, x = np.mgrid[0:N, 0:N]
    magenta = ((y // 8 + x // 8) % 2 == 0)[..., np.newaxis]
    rgb = np.where(magenta, np.array([255.0, 0.0, 255.0]), np.zeros(3))
    return _rgba(rgb)


def paint_stone(rng: Rng) -> Tile:
    """Grey stone: soft patches, fine grain, light and dark speckles, a few small cracks."""
    light = 1.0 + 0.07 * _smooth_noise(rng, 4) + 0.05 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.05)
    for sign, count in ((1.0, 14), (-1.0, 18)):
        y, x = _speckle(rng, count)
        light[y, x] += sign * 0.16
        light[y, (x + 1) % N] += sign * 0.08
    for _ in range(3):
        row, column = (int(v) for v in rng.integers(0, N, 2))
        for step in range(int(rng.integers(2, 5))):
            light[(row + step) % N, (column + step * int(rng.integers(0, 2))) % N] -= 0.2
    return _rgba(_colour((126, 126, 128), light))


def _dirt_light(rng: Rng) -> NDArray[np.float64]:
    light = 1.0 + 0.08 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.1)
    y, x = _speckle(rng, 22)
    light[y, x] *= 0.72
    y, x = _speckle(rng, 10)
    light[y, x] *= 1.25
    return light


def paint_dirt(rng: Rng) -> Tile:
    """Brown soil with dark clods and a few light pebbles."""
    return _rgba(_colour((125, 88, 60), _dirt_light(rng)))


def _grass_colour(rng: Rng) -> NDArray[np.float64]:
    light = 1.0 + 0.08 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.12)
    y, x = _speckle(rng, 20)
    light[y, x] *= 0.8
    y, x = _speckle(rng, 12)
    light[y, x] *= 1.18
    return _colour((92, 158, 54), light)


def paint_grass_top(rng: Rng) -> Tile:
    """Grass seen from above: a field of green blades in several shades."""
    return _rgba(_grass_colour(rng))


def paint_grass_side(rng: Rng) -> Tile:
    """Dirt under a ragged green fringe that hangs 2 to 5 pixels down."""
    rgb = _colour((125, 88, 60), _dirt_light(rng))
    green = _grass_colour(rng)
    fringe = rng.integers(2, 6, N)
    rows = np.arange(N)[:, np.newaxis]
    grassy = rows < fringe[np.newaxis, :]
    # A darker last fringe pixel reads as the turf's edge.
    edge = rows == (fringe[np.newaxis, :] - 1)
    rgb = np.where(grassy[..., np.newaxis], green, rgb)
    rgb = np.where(edge[..., np.newaxis], rgb * 0.82, rgb)
    return _rgba(rgb)


def paint_sand(rng: Rng) -> Tile:
    """Pale sand: fine grain with scattered darker and lighter grains."""
    light = 1.0 + 0.04 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.04)
    y, x = _speckle(rng, 26)
    light[y, x] *= 0.9
    y, x = _speckle(rng, 14)
    light[y, x] *= 1.06
    return _rgba(_colour((219, 205, 158), light))


def paint_gravel(rng: Rng) -> Tile:
    """Pebbles: a tileable Voronoi mosaic of greys and browns with dark gaps between stones."""
    seeds = rng.random((22, 2)) * N
    tints = np.array([(132, 127, 124), (104, 99, 97), (160, 154, 150), (122, 110, 100)], float)
    tint = tints[rng.integers(0, len(tints), len(seeds))] * (
        0.9 + 0.2 * rng.random((len(seeds), 1))
    )
    y, x = np.mgrid[0:N, 0:N] + 0.5
    dy = np.abs(y[..., np.newaxis] - seeds[:, 0])
    dx = np.abs(x[..., np.newaxis] - seeds[:, 1])
    dy = np.minimum(dy, N - dy)
    dx = np.minimum(dx, N - dx)
    dist = dy * dy + dx * dx
    order = np.argsort(dist, axis=-1)
    nearest = order[..., 0]
    d0 = np.take_along_axis(dist, order[..., :1], -1)[..., 0]
    d1 = np.take_along_axis(dist, order[..., 1:2], -1)[..., 0]
    rgb = tint[nearest] * _grain(rng, 0.06)[..., np.newaxis]
    gap = (d1 - d0) < 3.0
    rgb[gap] *= 0.62
    return _rgba(rgb)


def paint_log_side(rng: Rng) -> Tile:
    """Bark: vertical ridges and dark furrows."""
    column = 1.0 + 0.12 * (rng.random(N) * 2.0 - 1.0)
    light = np.broadcast_to(column, (N, N)) * _grain(rng, 0.06)
    light = light.copy()
    for x in rng.choice(N, 5, replace=False).tolist():
        start = int(rng.integers(0, N))
        length = int(rng.integers(4, 12))
        light[(start + np.arange(length)) % N, x] *= 0.62
    return _rgba(_colour((104, 80, 50), light))


def paint_log_top(rng: Rng) -> Tile:
    """A sawn log: pale growth rings around the pith inside a ring of bark."""
    y, x = np.mgrid[0:N, 0:N] + 0.5
    dy = y - N / 2
    dx = x - N / 2
    # A little noise in the radius keeps the rings from looking drawn with a compass.
    ring = np.floor(np.sqrt(dy * dy + dx * dx) + 0.3 * _smooth_noise(rng, 4)).astype(np.int64)
    light = np.where(ring % 2 == 0, 1.0, 0.86) * _grain(rng, 0.04)
    rgb = _colour((182, 147, 92), light)
    bark = (np.minimum(np.minimum(y, x), np.minimum(N - y, N - x)) < 1.0)[..., np.newaxis]
    rgb = np.where(bark, _colour((104, 80, 50), _grain(rng, 0.08)), rgb)
    return _rgba(rgb)


def paint_planks(rng: Rng) -> Tile:
    """Four boards with dark seams, staggered butt joints and a horizontal grain."""
    light = np.ones((N, N))
    board_h = 4
    for board in range(N // board_h):
        rows = slice(board * board_h, (board + 1) * board_h)
        grain = 1.0 + 0.06 * (rng.random((board_h, N // 4)) * 2.0 - 1.0)
        light[rows] = (0.92 + 0.16 * rng.random()) * np.repeat(grain, 4, axis=1)
        light[board * board_h + board_h - 1] *= 0.62
        joint = (int(rng.integers(0, N // 2)) + board * 8) % N
        light[rows, joint] *= 0.7
    light *= _grain(rng, 0.03)
    return _rgba(_colour((164, 131, 79), light))


def paint_leaves(rng: Rng) -> Tile:
    """Dense foliage: clustered greens with a few see-through gaps."""
    light = 1.0 + 0.18 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.16)
    alpha = np.full((N, N), 255.0)
    y, x = _speckle(rng, 14)
    alpha[y, x] = 0.0
    light[(y + 1) % N, x] *= 0.7  # shadow under each gap
    return _rgba(_colour((56, 122, 38), light), alpha)


def paint_glass(rng: Rng) -> Tile:
    """A clear pane: a pale frame, a clear middle and two faint diagonal glints."""
    rgb = np.zeros((N, N, 3)) + np.array([214.0, 234.0, 240.0])
    alpha = np.zeros((N, N))
    alpha[0, :] = alpha[-1, :] = alpha[:, 0] = alpha[:, -1] = 255.0
    rgb[-1, :] *= 0.8
    rgb[:, -1] *= 0.8
    for y0, x0, length in ((11, 3, 5), (12, 7, 3)):
        steps = np.arange(length)
        alpha[y0 - steps, x0 + steps] = 150.0
    return _rgba(rgb, alpha)


def paint_water(rng: Rng) -> Tile:
    """Translucent blue water with lighter wave crests."""
    light = 1.0 + 0.06 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.03)
    x = np.arange(N)
    for band, phase in enumerate(rng.integers(0, 8, N // 4).tolist()):
        wave = (x + phase) % 8
        crest = wave < 3
        # Each crest is a short arc: up one pixel in its middle.
        light[band * 4 + 1 + (wave[crest] != 1), x[crest]] *= 1.22
    return _rgba(_colour((48, 92, 204), light), 184.0)


def paint_lava(rng: Rng) -> Tile:
    """Molten rock: orange with bright yellow swirls and dark red crust, opaque."""
    heat = _smooth_noise(rng, 4) + 0.5 * _smooth_noise(rng, 8)
    light = 1.0 + 0.1 * heat
    rgb = _colour((214, 92, 22), light * _grain(rng, 0.04))
    hot = heat > 0.35
    rgb[hot] = _colour((255, 196, 60), light[hot])
    crust = heat < -0.45
    rgb[crust] = _colour((150, 40, 12), light[crust])
    return _rgba(rgb)


def paint_obsidian(rng: Rng) -> Tile:
    """Near-black glass rock with faint purple streaks (lava met by water)."""
    light = 0.22 + 0.05 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.1)
    rgb = _colour((80, 60, 110), light)
    ys, xs = _speckle(rng, 14)
    rgb[ys, xs] = _colour((110, 80, 160), np.full(len(ys), 0.6))
    return _rgba(rgb)


def paint_bedrock(rng: Rng) -> Tile:
    """Dark, hard rock: high-contrast blotches of black and grey."""
    blotch = np.array([0.28, 0.42, 0.6, 0.85])[rng.integers(0, 4, (N // 2, N // 2))]
    light = np.repeat(np.repeat(blotch, 2, axis=0), 2, axis=1)
    light = light * _grain(rng, 0.12) + 0.1 * _smooth_noise(rng, 4)
    return _rgba(_colour((120, 120, 120), light))


def paint_tall_grass(rng: Rng) -> Tile:
    """Blades of grass on a clear background, 6 to 14 pixels tall, some leaning."""
    rgb = np.zeros((N, N, 3))
    alpha = np.zeros((N, N))
    for x in range(1, N - 1, 2):
        x = x + int(rng.integers(0, 2))
        height = int(rng.integers(6, 15))
        lean = int(rng.integers(-1, 2))
        shade = 0.75 + 0.4 * rng.random()
        for step in range(height):
            y = N - 1 - step
            column = min(N - 1, max(0, x + (lean if step > height // 2 else 0)))
            rgb[y, column] = np.array([88.0, 152.0, 50.0]) * (shade + 0.15 * step / height)
            alpha[y, column] = 255.0
    return _rgba(rgb, alpha)


def paint_cobblestone(rng: Rng) -> Tile:
    """Rounded grey stones of mixed shades set in dark mortar (what mined stone drops)."""
    y, x = np.mgrid[0:N, 0:N].astype(np.float64)
    seeds = rng.random((9, 2)) * N
    shades = 0.8 + 0.35 * rng.random(9)
    # Distance to the nearest and second-nearest stone centre, on the tiling torus.
    dy = np.abs(y[..., None] - seeds[:, 0])
    dx = np.abs(x[..., None] - seeds[:, 1])
    dist = np.hypot(np.minimum(dy, N - dy), np.minimum(dx, N - dx))
    order = np.sort(dist, axis=-1)
    nearest = np.argmin(dist, axis=-1)
    light = shades[nearest] * _grain(rng, 0.06) - 0.18 * np.clip(order[..., 0] / 6.0, 0.0, 1.0)
    mortar = order[..., 1] - order[..., 0] < 1.1
    light[mortar] = 0.42
    return _rgba(_colour((128, 128, 130), light))


def _ore(rng: Rng, colour: tuple[int, int, int], dark: tuple[int, int, int]) -> Tile:
    """Stone with a few lumps of a mineral: each lump a rounded cluster of 3 to 6 pixels."""
    tile = paint_stone(rng).astype(np.float64)
    for _ in range(5):
        y, x = (int(v) for v in rng.integers(1, N - 2, 2))
        for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1), (-1, 0), (0, -1))[: int(rng.integers(3, 7))]:
            shade = 0.85 + 0.3 * rng.random()
            tile[(y + dy) % N, (x + dx) % N, :3] = np.array(colour) * shade
        tile[(y + 2) % N, (x + 1) % N, :3] = dark
    return np.clip(np.rint(tile), 0, 255).astype(np.uint8)


def paint_coal_ore(rng: Rng) -> Tile:
    """The ores mod's coal: black lumps in stone."""
    return _ore(rng, (40, 40, 42), (20, 20, 22))


def paint_iron_ore(rng: Rng) -> Tile:
    """The ores mod's iron: pale orange-brown lumps in stone."""
    return _ore(rng, (216, 170, 132), (150, 110, 84))


def paint_hoe(rng: Rng) -> Tile:
    """The farming mod's hoe (an item, drawn flat): a wooden handle from the bottom-left corner
    up to an iron blade bent down at the top-right."""
    rgb = np.zeros((N, N, 3))
    alpha = np.zeros((N, N))
    wood = np.array([112.0, 82.0, 46.0]) * _grain(rng, 0.12)[..., np.newaxis]
    for i in range(2, 13):  # the handle: a two-pixel diagonal, row N-1-i, column i
        for dx in (0, 1):
            rgb[N - 1 - i, i + dx - 1] = wood[N - 1 - i, i + dx - 1]
            alpha[N - 1 - i, i + dx - 1] = 255.0
    iron = np.array([[196.0, 196.0, 200.0], [140.0, 140.0, 148.0]])
    rgb[2:4, 8:15] = iron[0]
    rgb[4, 8:15] = iron[1]
    rgb[4:7, 13:15] = iron[1]
    alpha[2:5, 8:15] = alpha[4:7, 13:15] = 255.0
    return _rgba(rgb, alpha)


def _bucket(rng: Rng, contents: tuple[int, int, int] | None) -> Tile:
    """A bucket (an item, drawn flat): an iron pail seen a little from above, lit from the left,
    its round opening dark inside, or filled with ``contents``' colour."""
    ys, xs = np.mgrid[0:N, 0:N] + 0.5
    dx = xs - 8.0
    half = 6.5 - (ys - 5.0) * (2.0 / 9.5)  # the pail narrows from 13 pixels wide to 9
    body = (ys >= 5.0) & (ys <= 14.5) & (np.abs(dx) <= half)
    rim = dx * dx * (1 / 6.8**2) + (ys - 5.0) * (ys - 5.0) * (1 / 3.2**2) <= 1.0
    opening = dx * dx * (1 / 5.2**2) + (ys - 5.0) * (ys - 5.0) * (1 / 1.9**2) <= 1.0
    shape = body | rim
    light = (1.18 - 0.4 * (xs - 2.0) * (1 / 12.0)) * _grain(rng, 0.05)
    rgb = _colour((170, 172, 178), light)
    edge = np.zeros((N, N), dtype=bool)  # a shape pixel beside an empty one (or the tile's edge)
    padded = np.pad(shape, 1)
    for oy, ox in ((0, 1), (2, 1), (1, 0), (1, 2)):
        edge |= shape & ~padded[oy : oy + N, ox : ox + N]
    rgb[edge] = (58.0, 58.0, 64.0)
    band = body & ~rim & ((np.floor(ys) == 9.0) | (np.floor(ys) == 10.0)) & ~edge
    rgb[band] *= 0.82  # a hoop round the pail
    if contents is None:
        rgb[opening] = _colour((62, 62, 68), 1.0 + 0.3 * (ys[opening] - 5.0) * (1 / 1.9))
    else:
        glow = _grain(rng, 0.08)[opening] * (1.1 - 0.15 * (ys[opening] - 3.4))
        rgb[opening] = _colour(contents, glow)
    return _rgba(rgb, np.where(shape, 255.0, 0.0))


def paint_bucket(rng: Rng) -> Tile:
    """The empty bucket: dark inside."""
    return _bucket(rng, None)


def paint_water_bucket(rng: Rng) -> Tile:
    """A bucket of water: blue at its brim."""
    return _bucket(rng, (56, 104, 220))


def paint_lava_bucket(rng: Rng) -> Tile:
    """A bucket of lava: orange at its brim."""
    return _bucket(rng, (236, 120, 30))


def paint_torch(rng: Rng) -> Tile:
    """A torch's stick: wood in the middle two columns, a glowing tip at the top (the mesher
    draws each face's part of the tile, so the thin torch shows the middle)."""
    rgb = np.zeros((N, N, 3))
    alpha = np.zeros((N, N))
    wood = np.array([112.0, 82.0, 46.0]) * _grain(rng, 0.12)[..., np.newaxis]
    rgb[:, 7:9] = wood[:, 7:9]
    alpha[:, 7:9] = 255.0
    flame = np.array([[255.0, 236.0, 140.0], [255.0, 190.0, 70.0]])
    rgb[5:7, 7:9] = flame[0]
    rgb[7:8, 7:9] = flame[1]  # the top of a 10/16-high torch is row 6 of its side
    return _rgba(rgb, alpha)


def paint_door(rng: Rng) -> Tile:
    """A plank door: vertical boards in a darker frame (both halves draw it)."""
    light = 1.0 + 0.06 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.05)
    y, x = np.mgrid[0:N, 0:N]
    light = np.where(x % 4 == 0, light * 0.78, light)
    rgb = _colour((156, 118, 72), light)
    edge = (x == 0) | (x == N - 1) | (y == 0) | (y == N - 1)
    rgb[edge] = np.array([96.0, 68.0, 40.0])
    return _rgba(rgb)


def paint_sapling(rng: Rng) -> Tile:
    """A young tree on a clear background: a thin brown stem and a round green crown."""
    rgb = np.zeros((N, N, 3))
    alpha = np.zeros((N, N))
    y, x = np.mgrid[0:N, 0:N].astype(np.float64)
    crown = np.hypot(y - 6.0, x - 7.5) < 4.6 + 0.8 * _smooth_noise(rng, 4)
    leaf = np.array([70.0, 140.0, 46.0]) * _grain(rng, 0.2)[..., np.newaxis]
    rgb[crown] = leaf[crown]
    alpha[crown] = 255.0
    stem = (x >= 7) & (x <= 8) & (y >= 8)
    rgb[stem] = np.array([104.0, 76.0, 44.0])
    alpha[stem] = 255.0
    return _rgba(rgb, alpha)


def paint_sandstone(rng: Rng) -> Tile:
    """Pressed sand: the sand's grain in pale horizontal layers, a darker line between them."""
    light = 1.0 + 0.03 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.035)
    rows = np.arange(N)
    bands = np.array([0.0, 5.0, 10.0]) + rng.integers(0, 2, 3)
    for row in bands.astype(np.int64).tolist():
        light[row] *= 0.86
        light[(row + 1) % N] *= 1.04
    light[rows >= N - 3] *= 0.95
    return _rgba(_colour((216, 200, 150), light))


def _cactus_green(rng: Rng) -> NDArray[np.float64]:
    light = 1.0 + 0.06 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.06)
    return _colour((72, 128, 46), light)


def paint_cactus_side(rng: Rng) -> Tile:
    """Green ribs running up, darker furrows between them, pale spines in pairs."""
    rgb = _cactus_green(rng)
    x = np.arange(N)
    rgb[:, x % 4 == 1] *= 0.72  # the furrows
    rgb[:, x % 4 == 3] *= 1.12  # the ribs' crests
    for column in range(3, N, 4):
        for row in rng.choice(N, 4, replace=False).tolist():
            rgb[row, column] = np.array([214.0, 220.0, 170.0])
    return _rgba(rgb)


def paint_cactus_top(rng: Rng) -> Tile:
    """Seen from above: a ring of ribs round a paler middle."""
    rgb = _cactus_green(rng)
    y, x = np.mgrid[0:N, 0:N] + 0.5
    edge = np.minimum(np.minimum(y, x), np.minimum(N - y, N - x))
    ring = (edge >= 1.0) & (edge < 3.0)
    rgb[ring] *= 0.8
    rgb[edge >= 5.0] *= 1.12
    return _rgba(rgb)


def paint_dead_bush(rng: Rng) -> Tile:
    """Dry brown twigs branching up from the ground on a clear background."""
    rgb = np.zeros((N, N, 3))
    alpha = np.zeros((N, N))
    brown = np.array([124.0, 86.0, 44.0])
    for _ in range(5):
        y, x = N - 1, 7 + int(rng.integers(0, 3))
        drift = int(rng.integers(-1, 2)) or 1
        for step in range(int(rng.integers(6, 13))):
            rgb[y, x] = brown * (0.8 + 0.3 * rng.random())
            alpha[y, x] = 255.0
            y -= 1
            if step % 2 == 1:
                x = int(np.clip(x + drift, 1, N - 2))
    return _rgba(rgb, alpha)


def paint_snow(rng: Rng) -> Tile:
    """Fresh snow: nearly white, with faint blue-grey grain and a few bright sparkles."""
    light = 1.0 + 0.02 * _smooth_noise(rng, 8)
    light *= _grain(rng, 0.025)
    y, x = _speckle(rng, 10)
    light[y, x] *= 0.94
    rgb = _colour((238, 244, 250), light)
    y, x = _speckle(rng, 6)
    rgb[y, x] = 255.0
    return _rgba(rgb)


def paint_ice(rng: Rng) -> Tile:
    """Translucent pale blue ice with a few white streaks of cracks."""
    light = 1.0 + 0.05 * _smooth_noise(rng, 4)
    rgb = _colour((150, 190, 240), light)
    alpha = np.full((N, N), 200.0)
    for _ in range(3):
        row, column = (int(v) for v in rng.integers(0, N, 2))
        for step in range(int(rng.integers(3, 7))):
            at = (row - step) % N, (column + step) % N
            rgb[at] = np.array([226.0, 240.0, 255.0])
            alpha[at] = 230.0
    return _rgba(rgb, alpha)


def _lamp(rng: Rng, lit: bool) -> Tile:
    """A lamp in a dark frame: a warm glowing core when lit, dull glass when off."""
    y, x = np.mgrid[0:N, 0:N]
    edge = np.minimum(np.minimum(y, x), np.minimum(N - 1 - y, N - 1 - x))
    light = 1.0 + 0.08 * _smooth_noise(rng, 4)
    light *= _grain(rng, 0.05)
    rgb = _colour((250, 206, 104) if lit else (120, 98, 70), light)
    sy, sx = _speckle(rng, 16)
    rgb[sy, sx] = np.array([255.0, 244.0, 190.0] if lit else [150.0, 128.0, 96.0])
    rgb[edge == 1] = np.array([214.0, 140.0, 56.0] if lit else [96.0, 74.0, 50.0])
    rgb[edge == 0] = np.array([82.0, 58.0, 38.0])
    return _rgba(rgb)


def paint_lamp(rng: Rng) -> Tile:
    """The lamp switched off (``base:lamp``)."""
    return _lamp(rng, lit=False)


def paint_lamp_on(rng: Rng) -> Tile:
    """The lamp switched on (the lamp mod's ``lamp:lamp_on``)."""
    return _lamp(rng, lit=True)


def _tnt_paper(rng: Rng) -> NDArray[np.float64]:
    return (
        _colour((214, 60, 44), 1.0 + 0.06 * _smooth_noise(rng, 4))
        * _grain(rng, 0.05)[..., np.newaxis]
    )


def paint_tnt_side(rng: Rng) -> Tile:
    """Red paper sticks with a white band across the middle."""
    rgb = _tnt_paper(rng)
    x = np.arange(N)
    rgb[:, x % 4 == 3] *= 0.72  # the seams between sticks
    band = slice(6, 10)
    rgb[band] = _colour((232, 228, 220), _grain(rng, 0.04)[band])
    rgb[7:9, 3:13] = np.array([40.0, 36.0, 36.0])  # the label's dark letters, as one bar
    return _rgba(rgb)


def paint_tnt_top(rng: Rng) -> Tile:
    """Stick ends seen from above, with fuses in the middle ones."""
    rgb = _tnt_paper(rng) * 0.9
    y, x = np.mgrid[0:N, 0:N]
    ring = ((x % 4 == 3) | (y % 4 == 3))[..., np.newaxis]
    rgb = np.where(ring, rgb * 0.7, rgb)
    rgb[5:7, 5:7] = rgb[9:11, 9:11] = np.array([60.0, 56.0, 52.0])
    return _rgba(rgb)


def paint_tnt_bottom(rng: Rng) -> Tile:
    """Stick ends seen from below."""
    rgb = _tnt_paper(rng) * 0.8
    y, x = np.mgrid[0:N, 0:N]
    rgb = np.where(((x % 4 == 3) | (y % 4 == 3))[..., np.newaxis], rgb * 0.7, rgb)
    return _rgba(rgb)


def _crack(stage: int) -> Callable[[Rng], Tile]:
    """The breaking overlay at a stage 0..9: dark cracks on a clear tile, more at each stage."""

    def paint(rng: Rng) -> Tile:
        rgb = np.zeros((N, N, 3))
        alpha = np.zeros((N, N))
        # The same walks at every stage (one generator for all stages), each stage drawing
        # more of them and longer: the cracks grow rather than jump around.
        walks = np.random.default_rng(zlib.crc32(b"base:crack"))
        for walk in range(2 + stage):
            y, x = walks.integers(3, N - 3, 2)
            for _ in range(3 + 2 * stage if walk < 2 else 2 + stage):
                alpha[y, x] = 200.0
                y = int(np.clip(y + walks.integers(-1, 2), 0, N - 1))
                x = int(np.clip(x + walks.integers(-1, 2), 0, N - 1))
        del rng
        return _rgba(rgb + 20.0, alpha)

    return paint


PAINTERS: dict[str, Callable[[Rng], Tile]] = {
    "base:missing": paint_missing,
    "base:stone": paint_stone,
    "base:dirt": paint_dirt,
    "base:grass_top": paint_grass_top,
    "base:grass_side": paint_grass_side,
    "base:sand": paint_sand,
    "base:gravel": paint_gravel,
    "base:log_top": paint_log_top,
    "base:log_side": paint_log_side,
    "base:planks": paint_planks,
    "base:leaves": paint_leaves,
    "base:glass": paint_glass,
    "base:water": paint_water,
    "base:bedrock": paint_bedrock,
    "base:tall_grass": paint_tall_grass,
    "base:lamp": paint_lamp,
    "base:cobblestone": paint_cobblestone,
    "base:sapling": paint_sapling,
    "base:torch": paint_torch,
    "base:door": paint_door,
    "base:lava": paint_lava,
    "base:obsidian": paint_obsidian,
    "base:sandstone": paint_sandstone,
    "base:cactus_side": paint_cactus_side,
    "base:cactus_top": paint_cactus_top,
    "base:dead_bush": paint_dead_bush,
    "base:snow": paint_snow,
    "base:ice": paint_ice,
    "base:bucket": paint_bucket,
    "base:water_bucket": paint_water_bucket,
    "base:lava_bucket": paint_lava_bucket,
} | {name: _crack(stage) for stage, name in enumerate(CRACK_TILES)}


# The example mods' own tiles, shipped beside them (mods/textures/, `world.mods.textures`): the
# game builds them into its atlas at start, as it would any mod's. The base atlas has none of them.
MOD_TEXTURES: dict[str, Callable[[Rng], Tile]] = {
    "ores:coal_ore": paint_coal_ore,
    "ores:iron_ore": paint_iron_ore,
    "farming:hoe": paint_hoe,
    "lamp:lamp_on": paint_lamp_on,
    "tnt:tnt_top": paint_tnt_top,
    "tnt:tnt_bottom": paint_tnt_bottom,
    "tnt:tnt_side": paint_tnt_side,
}
MOD_TEXTURE_DIR = Path(__file__).resolve().parent.parent / "mods" / "textures"


def paint_tile(tile_name: str) -> Tile:
    """One tile, drawn with a generator seeded by the tile's name (the checker when unknown)."""
    painter = PAINTERS.get(tile_name) or MOD_TEXTURES.get(tile_name, paint_missing)
    return painter(np.random.default_rng(zlib.crc32(tile_name.encode())))


def build_atlas(tile_names: list[str] | None = None) -> Tile:
    """The whole atlas as an RGBA array of shape (256, 256, 4), row 0 at the top.

    Parameters
    ----------
    tile_names : list of str, optional
        Tile names in atlas order; `world.blocks.atlas.ATLAS_TILES` when omitted.
    """
    names = list(ATLAS_TILES) if tile_names is None else tile_names
    if len(names) > TILE_CAPACITY:
        raise ValueError(f"tile_names holds {len(names)} tiles; the atlas has {TILE_CAPACITY}")
    missing = paint_tile("base:missing")
    atlas = np.empty((ATLAS_PX[1], ATLAS_PX[0], 4), dtype=np.uint8)
    for index in range(TILE_CAPACITY):
        left, top, right, bottom = tile_pixel_box(index)
        atlas[top:bottom, left:right] = paint_tile(names[index]) if index < len(names) else missing
    return atlas


def write_preview(atlas: Tile, tiles: int, path: Path, scale: int = 3) -> None:
    """The rows of the atlas that hold tiles, enlarged, over a pale background (for the README)."""
    rows = -(-tiles // (ATLAS_PX[0] // TILE_PX))
    used = Image.fromarray(atlas[: rows * TILE_PX])
    picture = Image.new("RGBA", used.size, (200, 215, 235, 255))
    picture.alpha_composite(used)
    picture.resize((used.width * scale, used.height * scale), Image.Resampling.NEAREST).save(path)


def mod_texture_path(tile_name: str) -> Path:
    """The file of an example mod's tile: ``"tnt:tnt_top"`` -> ``mods/textures/tnt_tnt_top.png``."""
    mod, _, rest = tile_name.partition(":")
    return MOD_TEXTURE_DIR / f"{mod}_{rest}.png"


def _same_picture(path: Path, pixels: Tile) -> bool:
    """Whether the PNG at ``path`` exists and holds exactly these RGBA pixels."""
    if not path.is_file():
        return False
    with Image.open(path) as image:
        return image.mode == "RGBA" and np.array_equal(np.asarray(image), pixels)


def main(argv: list[str] | None = None) -> int:
    """Write the atlas PNG and the example mods' tiles, or with ``--check`` compare the committed
    ones with a fresh drawing."""
    parser = argparse.ArgumentParser(prog="python -m tools.make_atlas", description=__doc__)
    parser.add_argument("--output", type=Path, default=ATLAS_PATH, help="PNG to write or check")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if the atlas or an example mod's tile differs from a fresh drawing",
    )
    parser.add_argument(
        "--preview",
        type=Path,
        help="also write an enlarged picture of the atlas's tiles (the README's, docs/atlas.png)",
    )
    args = parser.parse_args(argv)
    names = list(ATLAS_TILES)
    for name in names:
        if name not in PAINTERS:
            print(f"make_atlas: no painter for tile {name!r}; drawing the checker", file=sys.stderr)
    atlas = build_atlas(names)
    if args.check:
        pictures = [(args.output, atlas)]
        pictures += [(mod_texture_path(name), paint_tile(name)) for name in MOD_TEXTURES]
        stale = [path for path, pixels in pictures if not _same_picture(path, pixels)]
        for path, _ in pictures:
            print(f"{path}: {'differs from a fresh drawing' if path in stale else 'up to date'}")
        return 1 if stale else 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(atlas).save(args.output)
    MOD_TEXTURE_DIR.mkdir(parents=True, exist_ok=True)
    for name in MOD_TEXTURES:
        Image.fromarray(paint_tile(name)).save(mod_texture_path(name))
    if args.preview:
        write_preview(atlas, len(names), args.preview)
    print(f"wrote {args.output} ({len(names)} tiles of {TILE_PX} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
