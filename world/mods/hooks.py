"""The mod contract: every hook a mod can implement, in one file (pluggy hook specifications).

A mod is a Python module (or package, or any object) whose hook functions are marked with
`hookimpl`::

    from world.mods.hooks import hookimpl

    @hookimpl
    def can_break(pos, block, actor):
        if block.name == "base:glass" and not actor.creative:
            return "glass is too fragile to take"

An implementation may take any subset of the specification's arguments, by name (pluggy matches
them); an argument name or hook name that is not specified here is rejected when the mod loads.

How Blockpick calls hooks (`world.mods.loader` loads mods, `world.rules` runs the actions):

- Every implementation is called with keyword arguments, one mod at a time, in *load order*: the
  base game first, then the mods, each after the mods it depends on (ties by name). Pluggy's
  ``tryfirst=True`` / ``trylast=True`` options move an implementation to the front / back.
  Hook wrappers (``wrapper=True``, ``hookwrapper=True``) are not supported and refused at load.
- How the results of one hook's implementations combine is its *calling policy*, declared for
  every hook in `CALLING` at the end of this file (a `Policy`) and applied by one function,
  `world.actions.transaction.Transaction.call`: ``can_*`` hooks veto (`Policy.VETO`), ``on_use``
  runs until one handles the click (`Policy.UNTIL_HANDLED`), the other hooks notify every mod
  (`Policy.NOTIFY`; ``register_blocks`` and ``register_commands``, which run before there is a
  world, are called mod by mod by `world.mods.registration.make_registry` and
  `world.mods.registration.make_commands`).
- A hook that raises (``SystemExit`` and ``KeyboardInterrupt`` included) or runs longer than
  `world.mods.guard.HOOK_TIME_LIMIT` is logged with its mod's name, the action it was part of is
  denied and every block it changed (the action's own change included) is restored.

What hooks receive: ``world`` is a `world.mods.view.ModWorld` (reads return copies; writes go
through `ModWorld.set_block`, are recorded for roll-back and notify neighbours; it is read-only
inside ``can_*`` hooks; ``world.storage`` is the calling mod's saved key→value store;
``world.dig`` / ``world.place`` act as an actor through every hook), ``pos`` and ``neighbor`` are
`world.geometry.Int3` world voxel coordinates, ``block`` / ``old`` / ``new`` are frozen
`world.blocks.registry.BlockType` values, ``actor`` is a frozen `world.mods.outcome.Actor` and
``context`` a frozen `world.mods.context.PlaceContext`. Nothing a hook receives is an internal
array.

Blocks have their own callbacks too (`world.blocks.registry.BlockType`'s ``on_use``, ``can_break``,
``placement_state``, ``on_construct``, ``on_destruct``, and ``allow_*`` / ``on_put`` / ``on_take`` /
``on_move`` for their inventories), called in the same pipeline (`world.actions.pipeline`,
`world.actions.containers`): a block's own decision before the mods' ``can_*`` hooks (a move of
items: after their ``can_use``), its own ``on_use`` before theirs, ``on_construct`` /
``on_destruct`` right after the change.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.geometry import Int3
    from world.mods.commands import CommandRegistrar
    from world.mods.context import PlaceContext
    from world.mods.generated import GeneratedChunk
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

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

PROJECT = "blockpick"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_blocks(registry: BlockRegistrar) -> None:
    """Add the mod's block types.

    Called once per mod, in load order, by `world.mods.registration.make_registry`, before the world
    exists; the base game registers its own blocks (``base:stone``, ...) through this hook
    first, so ids follow load order. Register with ``registry.register(BlockType(...))``.

    Parameters
    ----------
    registry : BlockRegistrar
        Accepts only names ``"<this mod's name>:..."``; looks up blocks already registered
        (``registry["base:sand"]``, ``"base:sand" in registry``). A mod's blocks are added
        together once its hook returns; when it raises, none are added and the mod is disabled.

    Returns
    -------
    None
    """


@hookspec
def can_break(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | str | None:
    """May ``actor`` break the block at ``pos``?

    Called by `world.rules.break_block` (and `ModWorld.may_break`) after the built-in
    rules passed (the block is not air and is breakable), before anything changes. ``world``
    is read-only here.

    Returns
    -------
    bool or str or None
        ``False`` denies ("denied by mod '<name>'"), a non-empty string denies with that string
        as the reason shown to the player; ``None`` or ``True`` allows. The first denial wins
        and stops the chain.
    """


@hookspec
def can_place(
    world: ModWorld, pos: Int3, block: BlockType, actor: Actor, context: PlaceContext | None
) -> bool | str | None:
    """May ``actor`` place ``block`` at ``pos``?

    Called by `world.rules.place_block` (and `ModWorld.may_place`, `ModWorld.place`) after the
    built-in rules and the block's own ``placement_state`` passed (``pos`` holds a replaceable
    block or the same block merging, lies within the build height, and the chosen state's
    collision boxes stay outside the actor's body). ``pos`` is the voxel that will change,
    which is ``hit.block`` itself when that is replaceable (tall grass) or a merge (a slab into
    a slab), else ``hit.block + hit.face``. ``context`` is the click's
    `world.mods.context.PlaceContext` (hit, look, facing, sneak), or None when a mod places
    through ``world.place`` / asks ``world.may_place``; ``world.get_block(*pos)`` is the block
    being replaced. ``world`` is read-only here.

    Returns
    -------
    bool or str or None
        As `can_break`: ``False`` or a reason string denies, the first denial wins.
    """


@hookspec
def can_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | str | None:
    """May ``actor`` use (right click) the block at ``pos``?

    Called by `world.rules.use_block` before any `on_use`. A denied use is not turned into
    a place: the right click does nothing and the outcome carries the reason. Also called by
    `world.rules.Rules.move_items` before every move of items in the block's inventory (a
    chest's slots): moving them is using the block, and a denial refuses the move.
    ``world`` is read-only here.

    Returns
    -------
    bool or str or None
        As `can_break`: ``False`` or a reason string denies, the first denial wins.
    """


@hookspec
def on_break(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> None:
    """``actor`` broke ``block`` at ``pos``; the voxel is already air (and the block's own
    ``on_destruct`` has run).

    Called by `world.rules.break_block` after the change, for every mod in order. Blocks
    set here through ``world.set_block`` belong to the same action (rolled back together if a
    hook raises). The return value is ignored.
    """


@hookspec
def on_place(
    world: ModWorld, pos: Int3, block: BlockType, actor: Actor, context: PlaceContext | None
) -> None:
    """``actor`` placed ``block`` at ``pos``; the voxel already holds it (in the state its
    ``placement_state`` chose: ``world.get_block(*pos)``) and its ``on_construct`` has run.

    Called by `world.rules.place_block` after the change, for every mod in order; as
    `on_break` otherwise. ``context`` as for `can_place`.
    """


@hookspec
def on_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | None:
    """``actor`` right-clicked ``block`` at ``pos``.

    Called by `world.rules.use_block` once every `can_use` allowed it, in order until one
    returns ``True``. ``True`` means "handled": nothing is placed (as Minecraft does for doors and
    levers). When no mod handles the click, the actor's selected block is placed against the
    targeted face instead.

    Returns
    -------
    bool or None
        ``True`` when this mod handled the click; ``None`` or ``False`` otherwise.
    """


@hookspec
def on_neighbor_changed(
    world: ModWorld, pos: Int3, block: BlockType, neighbor: Int3, old: BlockType, new: BlockType
) -> None:
    """The voxel ``neighbor``, one of the 6 face neighbours of ``pos``, changed from ``old`` to
    ``new``.

    Called for every voxel changed by the interaction pipeline or by a mod through
    ``world.set_block``, once per non-air face neighbour ``pos`` holding ``block``; never for
    air. Notifications are queued, not nested: a change made here is notified after the ones
    already waiting, up to `world.rules.NEIGHBOR_BUDGET` changed voxels per action; the
    rest carries over to the next ticks (`world.rules.Rules.tick`), up to
    `world.rules.TICK_NEIGHBOR_BUDGET` per tick. A voxel changed again before its neighbours
    heard of it is notified once (``old`` the first block, ``new`` the latest), and at most
    `world.actions.neighbors.MAX_PENDING` changed voxels wait (see `world.actions.neighbors`). The
    return value is ignored.
    """


@hookspec
def on_tick(world: ModWorld, dt: float) -> None:
    """Game time advanced by ``dt`` seconds (``dt >= 0``).

    Called by `world.rules.Rules.tick`, which the game calls once per frame. Each mod's call is
    isolated: when one raises, the blocks it changed in that call are restored and the other
    mods still run. The return value is ignored.
    """


@hookspec
def on_generated(chunk: GeneratedChunk) -> None:
    """Terrain (and the registered ores) just filled a new chunk: edit ``chunk.blocks`` in place.

    ``chunk`` is a `world.mods.generated.GeneratedChunk` (``key``, ``origin``, ``blocks``, ``view``,
    ``registry``, ``seed``, and ``rng``, a generator seeded by the world seed, the chunk and the
    mod, so the result is the same in every run and generation order). Only this chunk may be
    changed. When the mod raises, its edits to the chunk are undone. Runs once per chunk the
    first time it is generated (a saved chunk is loaded, not generated again). In the game it
    runs in the chunk worker process (`world.stream.worker`): it must depend only on the chunk.
    """


@hookspec
def register_commands(commands: CommandRegistrar) -> None:
    """Add chat commands: ``commands.register(ChatCommand("home", go_home, ...))``
    (`world.mods.commands`). Runs once at start, after every mod's ``register_blocks``. A command's
    ``on_run`` runs as the typing player's action, as a text prompt's ``on_submit`` does.
    """


class Policy(Enum):
    """How the implementations of one hook are called and their results combined."""

    VETO = "veto"
    """In order until one denies: ``False`` or a non-empty reason string denies, ``None`` or
    ``True`` allows, anything else is a mod error. The world is read-only meanwhile."""
    UNTIL_HANDLED = "until handled"
    """In order until one returns ``True`` (handled); ``None`` or ``False`` pass it on, anything
    else is a mod error."""
    NOTIFY = "notify"
    """Every implementation, in order; the return value is ignored."""


CALLING: Mapping[str, Policy] = MappingProxyType(
    {
        "register_blocks": Policy.NOTIFY,
        "can_break": Policy.VETO,
        "can_place": Policy.VETO,
        "can_use": Policy.VETO,
        "on_break": Policy.NOTIFY,
        "on_place": Policy.NOTIFY,
        "on_use": Policy.UNTIL_HANDLED,
        "on_neighbor_changed": Policy.NOTIFY,
        "on_tick": Policy.NOTIFY,
        "on_generated": Policy.NOTIFY,
        "register_commands": Policy.NOTIFY,
    }
)
"""Every hook's calling policy, in the order the hooks are specified above."""

HOOK_NAMES: tuple[str, ...] = tuple(CALLING)
