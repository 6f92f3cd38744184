"""Block and tile names, and a block type's tiles checked: one tile name a face.

`check_tiles` takes what a `world.blocks.block_type.BlockType` or an item gives as its tiles (1, 3
or 6 names, or Luanti's per-face mapping; tile names or the mod's PNG file names) and returns six
tile names, one per face (+x, -x, +y, -y, +z, -z).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

__all__ = ["MISSING_TILE", "NAME_PATTERN", "check_tiles"]

NAME_PATTERN = re.compile(r"^[a-z0-9_]+:[a-z0-9_]+$")
MISSING_TILE = "base:missing"


def _expand_tiles(name: str, tiles: tuple[str, ...]) -> tuple[str, ...]:
    """Expand 0, 1, 3 (top, bottom, side) or 6 tile names to one per face (+x,-x,+y,-y,+z,-z)."""
    if len(tiles) == 0:
        return (MISSING_TILE,) * 6
    if len(tiles) == 1:
        return tiles * 6
    if len(tiles) == 3:
        top, bottom, side = tiles
        return (side, side, top, bottom, side, side)
    if len(tiles) == 6:
        return tiles
    raise ValueError(
        f"tiles of {name!r}: give 1, 3 (top, bottom, side) or 6 names, not {len(tiles)}"
    )


_FACE_KEYS: Final = ("east", "west", "top", "bottom", "south", "north")  # +x,-x,+y,-y,+z,-z


def _tile_name(owner: str, tile: object) -> str:
    """A tile name, or a Luanti-style file name ``"mymod_ruby_top.png"`` -> ``"mymod:ruby_top"``."""
    if isinstance(tile, str) and tile.endswith(".png"):
        mod = owner.partition(":")[0]
        stem = tile[: -len(".png")]
        if not stem.startswith(f"{mod}_") or len(stem) == len(mod) + 1:
            raise ValueError(
                f"tile file {tile!r} of {owner!r} must be named '{mod}_<name>.png' "
                "(the mod's name first, as in Luanti)"
            )
        tile = f"{mod}:{stem[len(mod) + 1 :]}"
    if not isinstance(tile, str) or not NAME_PATTERN.match(tile):
        raise ValueError(f"tile {tile!r} of {owner!r} is not a 'mod:name' tile name")
    return tile


def check_tiles(owner: str, tiles: object) -> tuple[str, ...]:
    """`tiles` as six tile names, one per face (+x, -x, +y, -y, +z, -z).

    Accepts 1, 3 (top, bottom, side) or 6 names, or a mapping with the keys ``all``, ``side``,
    ``top``, ``bottom``, ``north``, ``south``, ``east``, ``west`` (Luanti's per-face tiles; the
    more specific key wins). Names may be tile names or the mod's PNG file names.
    """
    if isinstance(tiles, Mapping):
        unknown = sorted(set(tiles) - {"all", "side", *_FACE_KEYS})
        if unknown:
            raise ValueError(
                f"tiles of {owner!r}: unknown face key {unknown[0]!r} (use all, side, top, "
                "bottom, north, south, east, west)"
            )
        every = tiles.get("all", MISSING_TILE)
        side = tiles.get("side", every)
        faces = [tiles.get(key, every if key in ("top", "bottom") else side) for key in _FACE_KEYS]
        return tuple(_tile_name(owner, tile) for tile in faces)
    if isinstance(tiles, str) or not isinstance(tiles, tuple | list):
        raise ValueError(f"tiles of {owner!r} must be a tuple of tile names, got {tiles!r}")
    return _expand_tiles(owner, tuple(_tile_name(owner, tile) for tile in tiles))
