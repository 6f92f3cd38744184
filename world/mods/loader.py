"""Finding and importing mods, and the order they load in (`load_mods`).

`load_mods` gathers mods from, in this order (the first mod of a name wins; a later one of the
same name is reported and skipped):

1. folders (the project's ``mods/`` by default, plus any ``--mods DIR``): every ``name.py``
   module and every ``name/`` package (with ``__init__.py``; its files import each other
   relatively), not starting with ``_``; the mod's name is the file or folder name. Folders are
   *not* on ``sys.path``: a mod is imported by path as ``blockpick_mod_<name>``;
2. installed distributions declaring an entry point in the group ``blockpick.mods``
   (``[project.entry-points."blockpick.mods"] name = "package.module"``); the entry point's name
   is the mod's name;
3. plugin objects handed to `load_mods` directly (tests, the game's own plugins).

A mod may declare, as module (or object) attributes, ``depends`` and ``optional_depends``
(sequences of mod names) and ``description`` (else its docstring's first line). The base game
(`world.base.BaseGame`) is always loaded first. Mods are then registered in dependency
order (ties by name), which is the order their hooks are called in (pluggy's ``tryfirst`` /
``trylast`` aside). A mod that fails to import, declares bad metadata, misses a dependency or is
in a dependency cycle is not loaded, and the error is kept in `world.mods.host.Mods.errors`.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from os import PathLike
from pathlib import Path
from types import ModuleType

from world.mods.host import MOD_NAME, Mod, Mods, describe_mod
from world.shipped import example_mods_dir

__all__ = ["DEFAULT_MODS_DIR", "ENTRY_POINT_GROUP", "MODULE_PREFIX", "load_mods"]

ENTRY_POINT_GROUP = "blockpick.mods"
# Found with importlib.resources: in the repository, or in site-packages when installed.
DEFAULT_MODS_DIR = example_mods_dir()
MODULE_PREFIX = "blockpick_mod_"


def _import_path(name: str, path: Path) -> ModuleType:
    """Import a mod's module file or package folder by path, as ``blockpick_mod_<name>``."""
    module_name = MODULE_PREFIX + name
    # A reload of the same mod (a new game, a test) starts afresh, submodules included.
    for key in [k for k in sys.modules if k == module_name or k.startswith(module_name + ".")]:
        del sys.modules[key]
    if path.is_dir():
        spec = importlib.util.spec_from_file_location(
            module_name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
    else:
        spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _folder_mods(folder: Path) -> list[tuple[str, Path]]:
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith((".", "_")):
            continue
        if path.is_file() and path.suffix == ".py":
            found.append((path.stem, path))
        elif path.is_dir() and (path / "__init__.py").is_file():
            found.append((path.name, path))
    return found


def _load_order(found: Mapping[str, Mod], failed: set[str], mods: Mods) -> list[str]:
    """Dependency order, ties by name; records and drops mods with missing deps or cycles."""
    alive = dict(found)
    changed = True
    while changed:
        changed = False
        for name, mod in sorted(alive.items()):
            missing = [d for d in mod.depends if d not in alive]
            if missing:
                why = (
                    "failed to load"
                    if missing[0] in found or missing[0] in failed
                    else ("is not installed")
                )
                mods.record(
                    name,
                    "load",
                    ValueError(f"needs mod {missing[0]!r}, which {why}"),
                    traceback=False,
                )
                del alive[name]
                changed = True
    after = {
        name: {d for d in (*mod.depends, *mod.optional_depends) if d in alive}
        for name, mod in alive.items()
    }
    order: list[str] = []
    while after:
        ready = sorted(name for name, deps in after.items() if not deps)
        if not ready:
            cycle = ", ".join(sorted(after))
            for name in sorted(after):
                mods.record(
                    name, "load", ValueError(f"dependency cycle among {cycle}"), traceback=False
                )
            break
        name = ready[0]
        order.append(name)
        del after[name]
        for deps in after.values():
            deps.discard(name)
    return order


def load_mods(
    mods_dirs: Iterable[str | PathLike[str]] = (DEFAULT_MODS_DIR,),
    *,
    entry_points: bool = True,
    plugins: Mapping[str, object] | None = None,
    game: Iterable[tuple[str, object]] = (),
) -> Mods:
    """Find, import and register mods (see the module notes for sources and order).

    Parameters
    ----------
    mods_dirs : iterable of path
        Folders of mod modules and packages, searched in order; the project's ``mods/`` by
        default. A folder that does not exist is reported in ``mods.errors`` (and logged),
        naming it; the other folders still load.
    entry_points : bool
        Also load the installed ``blockpick.mods`` entry points.
    plugins : mapping of str to object, optional
        More mods, by name.
    game : iterable of (str, object)
        The game's own content plugins, loaded first in this order (the base game's:
        `world.base.GAME`); the loader itself knows no content.

    Returns
    -------
    Mods
        Never raises for a mod's fault: failures are in ``mods.errors``.
    """
    mods = Mods(game)
    found: dict[str, Mod] = {}
    failed: set[str] = set()

    def offer(name: str, source: str, load: Callable[[], object]) -> None:
        if name in found or name in mods.game:
            where = found[name].source if name in found else "built in"
            mods.record(
                name,
                "load",
                ValueError(f"{source} skipped: already loaded from {where}"),
                traceback=False,
            )
            return
        if not MOD_NAME.match(name):
            mods.record(
                name,
                "load",
                ValueError(f"{source}: not a mod name (use lower-case letters, digits and _)"),
                traceback=False,
            )
            return
        try:
            plugin = load()
        except Exception as exc:  # a mod's import error must not stop the game
            mods.record(name, "import", exc)
            failed.add(name)
            return
        try:
            found[name] = describe_mod(name, plugin, source, mods.game)
        except (ValueError, TypeError) as exc:
            mods.record(name, "load", exc, traceback=False)
            failed.add(name)

    folders: list[Path] = []
    for folder in (Path(d).resolve() for d in mods_dirs):
        if folder not in folders:
            folders.append(folder)
    for folder in folders:
        if not folder.is_dir():
            # the default one too: missing, it means a broken install, not "no mods"
            mods.record(str(folder), "load", ValueError("mods folder not found"), traceback=False)
            continue
        for name, path in _folder_mods(folder):
            offer(name, str(path), lambda name=name, path=path: _import_path(name, path))  # type: ignore[misc]
    if entry_points:
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            offer(ep.name, f"entry point {ep.value}", ep.load)
    for name, plugin in (plugins or {}).items():
        offer(name, "given", lambda plugin=plugin: plugin)  # type: ignore[misc]
    for name in _load_order(found, failed, mods):
        mods.add(name, found[name].plugin, source=found[name].source)
    return mods
