"""Which PNG file draws each mod tile: mods ship their own textures (Luanti-style).

Contract
--------
- A tile named ``"mymod:ruby_top"`` is drawn from the file ``mymod_ruby_top.png`` (Luanti's
  ``modname_texture.png`` convention, so files of different mods never clash) in the mod's
  texture folder: ``textures/`` inside a package mod's folder, or the ``textures/`` folder beside
  a single-file mod (``mods/textures/`` for ``mods/mymod.py``). An installed mod (entry point)
  ships the same folder as package data beside its module.
- Block definitions name tiles either way: ``"mymod:ruby_top"`` or ``"mymod_ruby_top.png"``
  (`world.blocks.block_type.BlockType` turns the file name into the tile name).
- Tiles of the base atlas (`world.blocks.atlas.ATLAS_TILES`) keep their fixed cells; every other
tile
  name the registry holds gets the next free cell (`world.blocks.registry.BlockRegistry.tile_id`),
  and
  `find_tile_files` says which file fills it. A tile whose file is missing, or that does not fit
  in the atlas, is a load error naming the mod and the file; its cell keeps the "missing" checker.
- Files are 16×16 pixels (`world.blocks.atlas.TILE_PX`); 32×32 is accepted and averaged down 2×2 by
  the game (the atlas keeps one tile size, so mixed packs line up). Decoding is the game's
  (`game.atlas_build`): this module only finds files, so ``world`` stays free of image code.
  The game checks a file's byte size and PNG header before decoding it (a file declaring any
  other size, however large, is refused undecoded): a mod's file is untrusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from world.blocks.atlas import ATLAS_TILES, TILE_CAPACITY
from world.blocks.registry import BlockRegistry
from world.mods.host import Mods

__all__ = [
    "TEXTURE_FOLDER",
    "TileFile",
    "find_tile_files",
    "folder_beside",
    "texture_folder",
    "tile_file_name",
]

TEXTURE_FOLDER = "textures"


@dataclass(frozen=True)
class TileFile:
    """The file that draws one atlas cell."""

    tile: int  # atlas index
    name: str  # tile name, "mymod:ruby_top"
    mod: str
    path: Path


def tile_file_name(tile: str) -> str:
    """``"mymod:ruby_top"`` -> ``"mymod_ruby_top.png"``."""
    mod, _, rest = tile.partition(":")
    return f"{mod}_{rest}.png"


def texture_folder(plugin: object) -> Path | None:
    """The texture folder of a mod's module: inside a package, beside a module file."""
    return folder_beside(plugin, TEXTURE_FOLDER)


def folder_beside(plugin: object, name: str) -> Path | None:
    """A folder of a mod's own files (textures, sounds) beside its module: inside a package,
    beside a module file; None for a plugin that is no module."""
    path = getattr(plugin, "__file__", None)
    if not isinstance(path, str):
        return None
    return Path(path).parent / name


def find_tile_files(
    registry: BlockRegistry, mods: Mods
) -> tuple[list[TileFile], list[tuple[str, str]]]:
    """The file of every tile the registry numbered after the base atlas, and what is missing.

    Returns
    -------
    files : list of TileFile
        Tiles whose file exists, in atlas order.
    problems : list of (str, str)
        One message per tile that has no file or no free cell; each names the mod and the file.
        The caller records them (`world.mods.host.Mods.record`) so the player sees them.
    """
    files: list[TileFile] = []
    problems: list[tuple[str, str]] = []
    folders = {mod.name: texture_folder(mod.plugin) for mod in mods}
    for index in range(len(ATLAS_TILES), len(registry.tile_names)):
        name = registry.tile_names[index]
        mod = name.partition(":")[0]
        file_name = tile_file_name(name)
        folder = folders.get(mod)
        if folder is None:
            continue  # a placeholder's or a given plugin's tile: the checker, as before
        path = folder / file_name
        if index >= TILE_CAPACITY:
            problems.append(
                (
                    mod,
                    f"texture {file_name} does not fit in the atlas ({TILE_CAPACITY} tiles); "
                    "drawn as the missing checker",
                )
            )
        elif not path.is_file():
            problems.append(
                (mod, f"texture file {path} for tile {name!r} is missing; drawn as the checker")
            )
        else:
            files.append(TileFile(index, name, mod, path))
    return files, problems
