"""Blocks' own callbacks (`world.blocks.registry.BlockType`'s ``on_use``, ``can_break``,
``placement_state``, ``on_construct``, ``on_destruct``, the timers' and random ticks', and the
moves of items in its inventories, ``allow_*`` and ``on_put`` / ``on_take`` / ``on_move``) as
hook implementations.

`BLOCK_CALLBACKS` names the arguments each callback is offered; a callback asks for any of them by
name, as a hook implementation does (pluggy's rule). `callback_implementation` reads its signature
once and gives the `world.mods.host.Implementation` the transaction runs through the watchdog
(`world.actions.transaction.Transaction.block_call`), named ``"<callback> of <block>"`` under the
block's mod (the block name's prefix), so that a failure reads *mod 'doors' failed in on_use of
doors:birch_door: ...*.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks.entity_type import ENTITY_CALLBACK_ARGUMENTS, EntityType
from world.items.item import ITEM_CALLBACK_ARGUMENTS, Item
from world.mods.calls import Implementation

if TYPE_CHECKING:
    from world.blocks.abm import Abm
    from world.blocks.block_type import BlockType
    from world.blocks.registry import BlockRegistry

__all__ = [
    "ABM_ARGUMENTS",
    "BLOCK_CALLBACKS",
    "DECIDING",
    "BlockTables",
    "abm_implementation",
    "callback_implementation",
    "implementation",
]

# A move of items in a block's inventory (`world.actions.containers`): which inventory (its data
# key), which slot or slots, and the stack that goes.
_SLOT = ("world", "pos", "block", "state", "props", "actor", "key", "index", "stack")
_MOVE = (*_SLOT[:7], "from_index", "to_index", "stack")

BLOCK_CALLBACKS: Mapping[str, tuple[str, ...]] = {
    "on_use": ("world", "pos", "block", "state", "props", "actor", "hit", "player"),
    "can_break": ("world", "pos", "block", "state", "props", "actor"),
    "placement_state": ("world", "pos", "block", "actor", "context"),
    "on_construct": ("world", "pos", "block", "state", "props", "actor"),
    "on_destruct": ("world", "pos", "block", "state", "props", "actor"),
    "on_timer": ("world", "pos", "block", "state", "props", "elapsed"),
    "on_random_tick": ("world", "pos", "block", "state", "props"),
    **dict.fromkeys(("allow_put", "allow_take", "on_put", "on_take"), _SLOT),
    **dict.fromkeys(("allow_move", "on_move"), _MOVE),
}
"""Each per-block callback and the arguments it is offered."""

DECIDING = frozenset(("can_break", "placement_state", "allow_put", "allow_take", "allow_move"))
"""The callbacks that only decide: the world is read-only while they run."""

REACTIVE_GROUPS = ("fence", "attached")


class BlockTables(NamedTuple):
    """Per state id: its block type, whether it reacts to its neighbours (the built-in groups
    ``"fence"`` and ``"attached"``) and whether its block has ``on_construct`` or
    ``on_destruct``: tuples for the settling loop's scalar lookups, arrays for bulk writes."""

    size: int
    types: tuple[BlockType, ...]
    reactive: tuple[bool, ...]
    any_reactive: bool
    reactive_array: NDArray[np.bool_]
    lifecycle_array: NDArray[np.bool_]

    @classmethod
    def of(cls, registry: BlockRegistry) -> BlockTables:
        """The tables of ``registry`` as it is now."""
        blocks = registry.blocks
        types = tuple(blocks[i] for i in registry.block_index.tolist())
        reactive = tuple(any(g in t.groups for g in REACTIVE_GROUPS) for t in types)
        lifecycle = [t.on_construct is not None or t.on_destruct is not None for t in types]
        return cls(
            len(types),
            types,
            reactive,
            any(reactive),
            np.array(reactive, dtype=np.bool_),
            np.array(lifecycle, dtype=np.bool_),
        )


ABM_ARGUMENTS = ("world", "pos", "block", "state", "props")
"""What an `world.blocks.abm.Abm` action is offered."""


def abm_implementation(abm: Abm) -> Implementation | str:
    """An ABM's action as an `Implementation` of its mod, or why it cannot be called."""
    return implementation(abm.mod, "random tick", abm.action, ABM_ARGUMENTS)


def callback_implementation(
    block: BlockType | Item | EntityType, callback: str, function: object
) -> Implementation | str:
    """A block's callback (or a `world.items.item.Item`'s ``on_use``, or an entity kind's) as an
    `Implementation` named after its owner, or why it cannot be called (it asks for an argument
    that `BLOCK_CALLBACKS`, `world.items.item.ITEM_CALLBACK_ARGUMENTS` or
    `world.blocks.entity_type.ENTITY_CALLBACK_ARGUMENTS` does not offer)."""
    offered: tuple[str, ...]
    if isinstance(block, EntityType):
        offered = ENTITY_CALLBACK_ARGUMENTS
    elif isinstance(block, Item):
        offered = ITEM_CALLBACK_ARGUMENTS
    else:
        offered = BLOCK_CALLBACKS[callback]
    mod = block.name.split(":")[0]
    return implementation(mod, f"{callback} of {block.name}", function, offered)


def implementation(
    mod: str, label: str, function: object, offered: tuple[str, ...]
) -> Implementation | str:
    """A mod's function called as a hook is (each argument it asks for by name, by position or
    keyword, out of ``offered``) as an `Implementation` named ``label``, or why it cannot be
    called (its signature cannot be read, or it asks for an argument not offered)."""
    assert callable(function)
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return f"{label} of mod {mod!r}: its signature cannot be read"
    names = []
    for parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is not parameter.empty:
            continue
        if parameter.kind is parameter.KEYWORD_ONLY or parameter.name not in offered:
            return (
                f"asks for {parameter.name!r}; {label} is offered {', '.join(offered)} "
                "(by position or keyword)"
            )
        names.append(parameter.name)
    return Implementation(mod, label, function, tuple(names))
