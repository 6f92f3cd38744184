"""Where the files that ship beside the code are: the block atlas, the base game's sounds and the
example mods.

They live in the top-level folders ``assets/`` and ``mods/`` of the repository, which are also
Python packages (each has an ``__init__.py``) so that a wheel ships them as package data, and
they are found with `importlib.resources` from the package, not from a path relative to this
file: an installed game (``pip install .``) has them in ``site-packages/assets`` and
``site-packages/mods``, a checkout or an editable install in the repository.

The game is installed as plain files (pip unpacks wheels), so each folder is a real directory:
mods are imported by path and Panda3D loads the atlas by file name. A broken install (the package
missing, or zipped) raises `FileNotFoundError` naming what is missing, when `world.blocks.atlas` or
`world.mods.host` is imported.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["ASSETS_PACKAGE", "MODS_PACKAGE", "atlas_path", "example_mods_dir", "sounds_dir"]

ASSETS_PACKAGE = "assets"
MODS_PACKAGE = "mods"


def _package_dir(package: str) -> Path:
    try:
        folder = importlib.resources.files(package)
    except ModuleNotFoundError as exc:
        raise FileNotFoundError(
            f"blockpick's {package}/ folder is not installed (no package {package!r}): "
            "reinstall the game (pip install .)"
        ) from exc
    if not isinstance(folder, Path):
        raise FileNotFoundError(
            f"blockpick's {package}/ folder is not a folder on disk ({folder!r}): "
            "install the game unzipped (pip install .)"
        )
    return folder.resolve()


def atlas_path() -> Path:
    """The block texture atlas, ``assets/atlas.png`` (the file need not exist yet).

    Returns
    -------
    Path
        Absolute; `tools.make_atlas` writes it, the game and the HUD read it.
    """
    return _package_dir(ASSETS_PACKAGE) / "atlas.png"


def sounds_dir() -> Path:
    """The base game's sound files, ``assets/sounds/`` (``base_<name>[N].wav``).

    Returns
    -------
    Path
        Absolute; `tools.make_sounds` writes it, `world.mods.sounds` finds the files of the
        base game's sound names there.
    """
    return _package_dir(ASSETS_PACKAGE) / "sounds"


def example_mods_dir() -> Path:
    """The folder of example mods that load by default, ``mods/``.

    Returns
    -------
    Path
        Absolute and resolved, so it compares equal to ``Path(folder).resolve()``.
    """
    return _package_dir(MODS_PACKAGE)
