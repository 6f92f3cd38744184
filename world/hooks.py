"""The contract's address for the mod hooks (``../shared/DESIGN.md``): ``world.hooks``.

A mod marks its hook functions with ``from world.hooks import hookimpl`` (or from
`world.mods.hooks`, where the specifications live with their docstrings and calling policies,
`CALLING`). Both names are one object: a mod may use either. Nothing inside the project imports
this module: it names, at the top of the package, what mods and outside code call.
"""

from __future__ import annotations

from world.mods.hooks import (
    CALLING,
    HOOK_NAMES,
    PROJECT,
    Policy,
    can_break,
    can_place,
    can_use,
    hookimpl,
    hookspec,
    on_break,
    on_neighbor_changed,
    on_place,
    on_tick,
    on_use,
    register_blocks,
    register_commands,
)

__all__ = [
    "CALLING",
    "HOOK_NAMES",
    "PROJECT",
    "Policy",
    "can_break",
    "can_place",
    "can_use",
    "hookimpl",
    "hookspec",
    "on_break",
    "on_neighbor_changed",
    "on_place",
    "on_tick",
    "on_use",
    "register_blocks",
    "register_commands",
]
