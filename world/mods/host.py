"""The loaded mods: a pluggy plugin manager with names, dependencies and errors.

A mod is a plugin named ``[a-z0-9_]+`` whose hook functions (see `world.mods.hooks`) are marked with
``@hookimpl``. `world.mods.loader.load_mods` finds and imports them and adds them to a `Mods` in
dependency order; `world.mods.registration.make_registry` builds the block registry from them; a
`world.rules.Rules` calls their hooks. A game's own content plugins (the base game,
`world.base.GAME`) are handed to `Mods` first, before any mod: their names are reserved and a
mod's ``depends`` on them is always met. The host knows no content: it is given the game's.

Errors never stop the game. A mod that names an unknown hook or argument (pluggy's validation),
defines a hook function without ``@hookimpl``, uses a hook wrapper or misses a dependency is not
added; one whose ``register_blocks`` raises is disabled, along with the mods that depend on it.
Every error is logged (logger ``blockpick.mods``) with the mod's name and kept once in
`Mods.errors` for the game to show ("mod 'tnt' failed in on_use: ..."); a hook that keeps
failing the same way is logged once at ERROR, then at DEBUG.

Blockpick calls each hook implementation itself (`Mods.hook_impls`; `Mods.run` at load,
`world.mods.guard.HookGuard.run` in the rules) rather than through pluggy's hook caller, so that
every result and error is tied to the mod that produced it.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass

import pluggy

from world.blocks.registry import BlockRegistry
from world.mods import hooks
from world.mods.calls import Implementation, ModError
from world.mods.hooks import HOOK_NAMES, PROJECT

__all__ = [
    "MOD_NAME",
    "Mod",
    "Mods",
    "describe_mod",
]

MOD_NAME = re.compile(r"^[a-z0-9_]+$")

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


class Mods:
    """The loaded mods, in load order, with their plugin manager and their errors.

    Build one with `world.mods.loader.load_mods`; it starts with the game's content plugins
    (``game``: name and plugin pairs, in order; none for an engine with no game). The game
    keeps one for the whole run, builds its block registry with
    `world.mods.registration.make_registry` and hands it to the `world.rules.Rules` of its world.

    Attributes
    ----------
    plugin_manager : pluggy.PluginManager
        Project ``"blockpick"``, with the specifications of `world.mods.hooks`.
    errors : list of ModError
        Every distinct failure so far, oldest first (show each once).
    registry : BlockRegistry or None
        The registry `make_registry` built last.
    """

    def __init__(self, game: Iterable[tuple[str, object]] = ()) -> None:
        self.plugin_manager = pluggy.PluginManager(PROJECT)
        self.plugin_manager.add_hookspecs(hooks)
        self.errors: list[ModError] = []
        self.registry: BlockRegistry | None = None
        self._mods: dict[str, Mod] = {}
        self._impls: dict[str, tuple[Implementation, ...]] = {}
        self._seen: set[tuple[str, str, str]] = set()
        for name, plugin in game:  # the game's own content: loaded first, names reserved
            if not isinstance(name, str) or not MOD_NAME.match(name) or name in self._mods:
                raise ValueError(f"game holds {name!r}, which is not a new plugin name")
            self.plugin_manager.register(plugin, name=name)
            self._mods[name] = Mod(name, plugin, "built in", description=_description(plugin))
        self.game: tuple[str, ...] = tuple(self._mods)

    # -- the loaded mods ---------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the loaded mods in load order, the game's content first."""
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
            mod = describe_mod(name, plugin, source, self.game)
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
        """The implementations of a hook in call order: the game's plugins first (whatever a
        mod's ``tryfirst`` says: ``base:stone`` stays id 1, and no mod takes the game's command
        names), then load order, ``tryfirst`` ones first and ``trylast`` ones last."""
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
                impl.plugin_name not in self.game,
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
        """Call one implementation with the arguments it asks for (at load: ``register_blocks``).

        ``SystemExit`` raised by a mod is its error too; the rules call hooks through
        `world.mods.guard.HookGuard.run`, which also bounds their time.

        Returns
        -------
        (result, None), or (None, error) when it raised: the error is then logged and recorded.
        """
        try:
            return impl.function(*[kwargs[name] for name in impl.argnames]), None
        except (Exception, SystemExit) as exc:  # a mod's bug must not stop the game
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


def describe_mod(name: str, plugin: object, source: str, game: Container[str] = ()) -> Mod:
    """A `Mod` from a plugin's metadata; ``ValueError`` or ``TypeError`` for a bad name or field.

    ``game`` names the game's content plugins: no mod may take one of their names, and a mod's
    ``depends`` on one is dropped (it is always loaded first).
    """
    if not MOD_NAME.match(name):
        raise ValueError(
            f"{name!r} is not a mod name: use lower-case letters, digits and underscores"
        )
    if name in game:
        raise ValueError(f"the mod name {name!r} is the game's own")
    depends = _names(getattr(plugin, "depends", ()), "depends")
    optional = _names(getattr(plugin, "optional_depends", ()), "optional_depends")
    description = _description(plugin)
    return Mod(
        name, plugin, source, tuple(d for d in depends if d not in game), optional, description
    )


def _description(plugin: object) -> str:
    """A plugin's ``description``, else its docstring's first line."""
    description = getattr(plugin, "description", None)
    if description is None:
        doc = getattr(plugin, "__doc__", None) or ""
        description = doc.strip().split("\n")[0]
    if not isinstance(description, str):
        raise TypeError(f"description must be a string, got {description!r}")
    return description
