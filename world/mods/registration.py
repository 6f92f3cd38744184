"""A run's registrations: its block registry (every loaded mod's ``register_blocks``) and its
chat commands (every mod's ``register_commands``), in load order.

`make_registry` builds the registry of a run: air, then each loaded mod's blocks (the game's
content, `world.base`, first: the game loads it first), every mod through its
``register_blocks`` hook and a `world.mods.registrar.BlockRegistrar` that accepts only the mod's own
names and adds its blocks together when the hook returns. `make_commands` does the same for
chat commands, through each mod's `world.mods.commands.CommandRegistrar`: the game's own commands
too, which a plugin of the game registers (``game`` of `world.mods.host.Mods`), before any mod's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.blocks.registry import BlockRegistry
from world.mods.commands import Commands
from world.mods.registrar import BlockRegistrar

if TYPE_CHECKING:
    from world.mods.host import Mods

__all__ = ["make_commands", "make_registry"]


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


def make_commands(mods: Mods) -> Commands:
    """The commands of a run: the game's plugins' (``mods.game``: the game's own commands), then
    each mod's, through its ``register_commands`` hook.

    The game's plugins register first whatever a mod's ``tryfirst`` says, so a mod cannot take
    the game's names (`world.mods.host.Mods.hook_impls` puts them first); the mods follow. A
    plugin whose ``register_commands`` raises (a taken name, say) adds no command; the error is
    logged and recorded with its name, and the plugin stays loaded.
    """
    commands = Commands(mods.game)
    for impl in mods.hook_impls("register_commands"):
        if impl.mod not in mods:
            continue
        registrar = commands.registrar(impl.mod)
        _, error = mods.run(impl, {"commands": registrar})
        if error is None:
            registrar.commit()
    return commands
