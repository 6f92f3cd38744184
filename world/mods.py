"""Finding, loading and calling mods: a pluggy plugin manager with names, dependencies and errors.

A mod is a plugin named ``[a-z0-9_]+`` whose hook functions (see `world.hooks`) are marked with
``@hookimpl``. `load_mods` gathers mods from, in this order (the first mod of a name wins; a
later one of the same name is reported and skipped):

1. folders (the project's ``mods/`` by default, plus any ``--mods DIR``): every ``name.py``
   module and every ``name/`` package (with ``__init__.py``; its files import each other
   relatively), not starting with ``_``; the mod's name is the file or folder name. Folders are
   *not* on ``sys.path``: a mod is imported by path as ``blockpick_mod_<name>``;
2. installed distributions declaring an entry point in the group ``blockpick.mods``
   (``[project.entry-points."blockpick.mods"] name = "package.module"``); the entry point's name
   is the mod's name;
3. plugin objects handed to `load_mods` directly (tests, the game's own plugins).

A mod may declare, as module (or object) attributes, ``depends`` and ``optional_depends``
(sequences of mod names) and ``description`` (else its docstring's first line). The base game is
the plugin ``base``, always loaded first; it registers the base blocks through ``register_blocks``.
Mods are then registered in dependency order (ties by name), which is the order their hooks
are called in (pluggy's ``tryfirst`` / ``trylast`` aside).

Errors never stop the game. A mod that fails to import, declares bad metadata, names an unknown
hook or argument (pluggy's validation), defines a hook function without ``@hookimpl``, uses a
hook wrapper, misses a dependency or is in a dependency cycle is not loaded; one whose
``register_blocks`` raises is disabled, along with the mods that depend on it. Every error is
logged (logger ``blockpick.mods``) with the mod's name and kept once in `Mods.errors` for the
game to show ("mod 'tnt' failed in on_use: ..."); a hook that keeps failing the same way is
logged once at ERROR, then at DEBUG.

Blockpick calls each hook implementation itself (`Mods.hook_impls`, `Mods.run`) rather than
through pluggy's hook caller, so that every result and error is tied to the mod that produced it.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import importlib.util
import logging
import math
import re
import sys
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from types import ModuleType

import pluggy

from world import hooks
from world.blocks import BASE_BLOCKS, MAX_BLOCKS, BlockRegistry, BlockType
from world.chunks import World
from world.hooks import HOOK_NAMES, PROJECT, hookimpl
from world.interaction import Change
from world.interaction import tick as _tick
from world.shipped import example_mods_dir

__all__ = [
    "BASE",
    "DEFAULT_MODS_DIR",
    "ENTRY_POINT_GROUP",
    "BaseGame",
    "BlockRegistrar",
    "Implementation",
    "Mod",
    "ModError",
    "Mods",
    "load_mods",
    "make_registry",
]

BASE = "base"
ENTRY_POINT_GROUP = "blockpick.mods"
# Found with importlib.resources: in the repository, or in site-packages when installed.
DEFAULT_MODS_DIR = example_mods_dir()
MOD_NAME = re.compile(r"^[a-z0-9_]+$")
MODULE_PREFIX = "blockpick_mod_"

logger = logging.getLogger("blockpick.mods")


@dataclass(frozen=True)
class Mod:
    """A loaded mod.

    Attributes
    ----------
    name : str
        ``[a-z0-9_]+``; the prefix of the block names it registers.
    plugin : object
        The module (or object) holding its hook implementations.
    source : str
        Where it came from: a path, ``"entry point <value>"``, ``"built in"`` or ``"given"``.
    depends, optional_depends : tuple of str
        Mods loaded before it; a missing hard dependency keeps it from loading.
    description : str
    """

    name: str
    plugin: object
    source: str
    depends: tuple[str, ...] = ()
    optional_depends: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class ModError:
    """A mod's failure: which mod, where (``"import"``, ``"load"`` or a hook name), and what."""

    mod: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"mod {self.mod!r} failed in {self.where}: {self.message}"


@dataclass(frozen=True)
class Implementation:
    """One mod's implementation of one hook; ``argnames`` are the arguments it asks for."""

    mod: str
    hook: str
    function: Callable[..., object]
    argnames: tuple[str, ...]


class BlockRegistrar:
    """What ``register_blocks`` receives: a mod's window onto the block registry being built.

    It accepts only blocks named ``"<mod>:..."`` and holds them until the mod's hook returns, so a
    mod that raises adds no block. Lookups (``in``, ``[name]``) see every block registered so far,
    this mod's included.
    """

    def __init__(self, registry: BlockRegistry, mod: str) -> None:
        self._registry = registry
        self._pending: list[BlockType] = []
        self.mod = mod

    def register(self, block: BlockType) -> int:
        """Add a block type; returns the id it will have.

        Raises
        ------
        ValueError
            When the name does not start with ``"<mod>:"``, is taken, or the registry is full.
        """
        if not isinstance(block, BlockType):
            raise TypeError(f"block must be a BlockType, got {type(block).__name__}")
        if not block.name.startswith(f"{self.mod}:"):
            raise ValueError(
                f"mod {self.mod!r} may only register blocks named '{self.mod}:...', "
                f"not {block.name!r}"
            )
        if block.name in self:
            raise ValueError(f"block {block.name!r} is already registered")
        block_id = len(self._registry) + len(self._pending)
        if block_id >= MAX_BLOCKS:
            raise ValueError(f"cannot register {block.name!r}: all {MAX_BLOCKS} ids are used")
        self._pending.append(block)
        return block_id

    def __contains__(self, name: object) -> bool:
        return name in self._registry or any(b.name == name for b in self._pending)

    def __getitem__(self, name: str) -> BlockType:
        for block in self._pending:
            if block.name == name:
                return block
        return self._registry[name]

    @property
    def names(self) -> list[str]:
        """Every block name registered so far, in id order."""
        return self._registry.names + [b.name for b in self._pending]

    def commit(self) -> None:
        """Register the held blocks in the real registry (cannot fail: all were checked)."""
        for block in self._pending:
            self._registry.register(block)
        self._pending.clear()


class BaseGame:
    """Blockpick's own blocks (stone, dirt, grass, ...), registered like any mod's."""

    description = "the base game's blocks"

    @hookimpl
    def register_blocks(self, registry: BlockRegistrar) -> None:
        for block in BASE_BLOCKS:
            registry.register(block)


class Mods:
    """The loaded mods, in load order, with their plugin manager and their errors.

    Build one with `load_mods`; it starts with the base game only. The game keeps one for the
    whole run, builds its block registry with `make_registry`, passes it as ``mods=`` to the
    `world.interaction` actions and calls `tick` every frame.

    Attributes
    ----------
    plugin_manager : pluggy.PluginManager
        Project ``"blockpick"``, with the specifications of `world.hooks`.
    errors : list of ModError
        Every distinct failure so far, oldest first (show each once).
    registry : BlockRegistry or None
        The registry `make_registry` built last.
    """

    def __init__(self) -> None:
        self.plugin_manager = pluggy.PluginManager(PROJECT)
        self.plugin_manager.add_hookspecs(hooks)
        self.errors: list[ModError] = []
        self.registry: BlockRegistry | None = None
        self._mods: dict[str, Mod] = {}
        self._impls: dict[str, tuple[Implementation, ...]] = {}
        self._seen: set[tuple[str, str, str]] = set()
        self._pending: weakref.WeakKeyDictionary[World, deque[Change]] = weakref.WeakKeyDictionary()
        base = BaseGame()
        self.plugin_manager.register(base, name=BASE)
        self._mods[BASE] = Mod(BASE, base, "built in", description=BaseGame.description)

    # -- the loaded mods ---------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the loaded mods in load order, ``"base"`` first."""
        return tuple(self._mods)

    def __contains__(self, name: object) -> bool:
        return name in self._mods

    def __getitem__(self, name: str) -> Mod:
        try:
            return self._mods[name]
        except KeyError:
            raise KeyError(f"no mod named {name!r} is loaded") from None

    def __iter__(self) -> Iterator[Mod]:
        return iter(list(self._mods.values()))

    def __len__(self) -> int:
        return len(self._mods)

    def __repr__(self) -> str:
        return f"Mods({', '.join(self._mods)}; {len(self.errors)} errors)"

    def add(self, name: str, plugin: object, *, source: str = "given") -> Mod | None:
        """Register one mod now, after the ones already loaded.

        Its metadata is read from the plugin; its hard dependencies must already be loaded.

        Returns
        -------
        Mod or None
            None when it was refused (the error is logged and kept in `errors`).
        """
        try:
            mod = _describe(name, plugin, source)
            if name in self._mods:
                raise ValueError(f"a mod named {name!r} is already loaded ({self[name].source})")
            missing = [dep for dep in mod.depends if dep not in self._mods]
            if missing:
                raise ValueError(f"needs mod {missing[0]!r}, which is not loaded")
            self._check_markers(plugin)
            self._register(name, plugin)
        except (ValueError, TypeError) as exc:
            self.record(name, "load", exc, traceback=False)
            return None
        self._mods[name] = mod
        self._impls.clear()
        return mod

    def _check_markers(self, plugin: object) -> None:
        for hook in HOOK_NAMES:
            function = getattr(plugin, hook, None)
            if callable(function) and self.plugin_manager.parse_hookimpl_opts(plugin, hook) is None:
                raise ValueError(f"{hook}() is not marked as a hook: decorate it with @hookimpl")

    def _register(self, name: str, plugin: object) -> None:
        manager = self.plugin_manager
        try:
            manager.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            # Before 1.7 (pyproject allows >= 1.3) pluggy kept the hooks added before a bad one.
            if manager.is_registered(plugin):
                manager.unregister(plugin)
            raise ValueError(" ".join(str(exc).split())) from None
        try:
            for caller in manager.get_hookcallers(plugin) or ():
                for impl in caller.get_hookimpls():
                    if impl.plugin is not plugin:
                        continue
                    if caller.spec is None and not impl.optionalhook:
                        raise ValueError(_unknown_hook(caller.name))
                    if impl.wrapper or impl.hookwrapper:
                        raise ValueError(f"{caller.name}: hook wrappers are not supported")
        except ValueError:
            manager.unregister(plugin)
            raise

    def disable(self, name: str, reason: str) -> None:
        """Unload a mod (its hooks stop being called) and, with a recorded error, its dependants."""
        mod = self._mods.pop(name, None)
        if mod is None:
            return
        self.plugin_manager.unregister(mod.plugin)
        self._impls.clear()
        self.record(name, "load", RuntimeError(reason), traceback=False)
        for other in list(self._mods.values()):
            if name in other.depends:
                self.disable(other.name, f"needs mod {name!r}, which was disabled")

    # -- calling hooks -----------------------------------------------------------------------

    def hook_impls(self, hook: str) -> tuple[Implementation, ...]:
        """The implementations of a hook in call order: load order, ``tryfirst`` ones first and
        ``trylast`` ones last."""
        cached = self._impls.get(hook)
        if cached is not None:
            return cached
        if hook not in HOOK_NAMES:
            raise ValueError(f"hook must be one of {', '.join(HOOK_NAMES)}; got {hook!r}")
        order = {name: n for n, name in enumerate(self._mods)}
        caller = getattr(self.plugin_manager.hook, hook)
        impls = [impl for impl in caller.get_hookimpls() if impl.plugin_name in order]
        impls.sort(
            key=lambda impl: (
                0 if impl.tryfirst else 2 if impl.trylast else 1,
                order[impl.plugin_name],
            )
        )
        cached = tuple(
            Implementation(impl.plugin_name, hook, impl.function, tuple(impl.argnames))
            for impl in impls
        )
        self._impls[hook] = cached
        return cached

    def run(
        self, impl: Implementation, kwargs: Mapping[str, object]
    ) -> tuple[object, ModError | None]:
        """Call one implementation with the arguments it asks for.

        Returns
        -------
        (result, None), or (None, error) when it raised: the error is then logged and recorded.
        """
        try:
            return impl.function(*[kwargs[name] for name in impl.argnames]), None
        except Exception as exc:  # a mod's bug must not stop the game
            return None, self.record(impl.mod, impl.hook, exc)

    def record(
        self, mod: str, where: str, exc: BaseException, *, traceback: bool = True
    ) -> ModError:
        """Log a mod's failure with its name and keep it in `errors` (once per kind)."""
        message = str(exc) if not traceback else f"{type(exc).__name__}: {exc}"
        error = ModError(mod, where, message)
        key = (mod, where, type(exc).__name__ if traceback else message)
        if key in self._seen:
            logger.debug("%s (again)", error)
        else:
            self._seen.add(key)
            self.errors.append(error)
            logger.error("%s", error, exc_info=exc if traceback else None)
        return error

    def pending(self, world: World) -> deque[Change]:
        """Changes of ``world`` whose neighbours are still to be notified (see `tick`)."""
        queue = self._pending.get(world)
        if queue is None:
            queue = self._pending[world] = deque()
        return queue

    def tick(self, world: World, dt: float) -> tuple[Change, ...]:
        """Advance mod time by ``dt`` seconds: every ``on_tick``, then waiting notifications.

        The game calls this once per frame; see `world.interaction.tick`.

        Raises
        ------
        ValueError
            When ``dt`` is negative, NaN or infinite.
        """
        if not isinstance(world, World):
            raise TypeError(f"world must be a World, got {type(world).__name__}")
        if isinstance(dt, bool) or not isinstance(dt, int | float) or not 0 <= dt < math.inf:
            raise ValueError(f"dt must be a finite number of seconds >= 0, got {dt!r}")
        return _tick(world, float(dt), mods=self)


def _unknown_hook(name: str) -> str:
    close = difflib.get_close_matches(name, HOOK_NAMES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown hook {name!r}{hint}; the hooks are {', '.join(HOOK_NAMES)}"


def _names(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a list of mod names, got {value!r}")
    names = tuple(value)
    for dep in names:
        if not isinstance(dep, str) or not MOD_NAME.match(dep):
            raise ValueError(f"{what} holds {dep!r}, which is not a mod name")
    return names


def _describe(name: str, plugin: object, source: str) -> Mod:
    if not MOD_NAME.match(name):
        raise ValueError(
            f"{name!r} is not a mod name: use lower-case letters, digits and underscores"
        )
    if name == BASE:
        raise ValueError(f"the mod name {BASE!r} is the base game's")
    depends = _names(getattr(plugin, "depends", ()), "depends")
    optional = _names(getattr(plugin, "optional_depends", ()), "optional_depends")
    description = getattr(plugin, "description", None)
    if description is None:
        doc = getattr(plugin, "__doc__", None) or ""
        description = doc.strip().split("\n")[0]
    if not isinstance(description, str):
        raise TypeError(f"description must be a string, got {description!r}")
    return Mod(name, plugin, source, tuple(d for d in depends if d != BASE), optional, description)


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

    Returns
    -------
    Mods
        Never raises for a mod's fault: failures are in ``mods.errors``.
    """
    mods = Mods()
    found: dict[str, Mod] = {}
    failed: set[str] = set()

    def offer(name: str, source: str, load: Callable[[], object]) -> None:
        if name in found or name == BASE:
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
            found[name] = _describe(name, plugin, source)
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


def make_registry(mods: Mods) -> BlockRegistry:
    """A new block registry holding air and every loaded mod's blocks, in load order.

    Each mod's ``register_blocks`` runs with a `BlockRegistrar`; a mod whose hook raises adds no
    block and is disabled (with its dependants). Ids are valid for this registry only: mods look
    blocks up by name (``world.registry.id("lamp:lamp_on")``) rather than keeping ids.
    """
    registry = BlockRegistry()
    for impl in mods.hook_impls("register_blocks"):
        if impl.mod not in mods:
            continue
        registrar = BlockRegistrar(registry, impl.mod)
        _, error = mods.run(impl, {"registry": registrar})
        if error is None:
            registrar.commit()
        else:
            mods.disable(impl.mod, "disabled: its register_blocks failed")
    mods.registry = registry
    return registry
