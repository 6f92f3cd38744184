"""The mod contract: every hook a mod can implement, in one file (pluggy hook specifications).

A mod is a Python module (or package, or any object) whose hook functions are marked with
`hookimpl`::

    from world.hooks import hookimpl

    @hookimpl
    def can_break(pos, block, actor):
        if block.name == "base:glass" and not actor.creative:
            return "glass is too fragile to take"

An implementation may take any subset of the specification's arguments, by name (pluggy matches
them); an argument name or hook name that is not specified here is rejected when the mod loads.

How Blockpick calls hooks (see `world.mods` for loading and `world.interaction` for the pipeline):

- Every implementation is called with keyword arguments, one mod at a time, in *load order*: the
  base game first, then the mods, each after the mods it depends on (ties by name). Pluggy's
  ``tryfirst=True`` / ``trylast=True`` options move an implementation to the front / back.
  Hook wrappers (``wrapper=True``, ``hookwrapper=True``) are not supported and refused at load.
- ``can_*`` hooks veto: the first one to return ``False`` or a reason string denies the action
  and the later ones are not called. ``None`` or ``True`` lets it go on.
- ``on_*`` hooks are notifications called after the change; their return value is ignored,
  except ``on_use``, where ``True`` means "handled" and stops the call chain.
- A hook that raises is logged with its mod's name, the action it was part of is denied and
  every block it changed (the action's own change included) is restored.

What hooks receive: ``world`` is a `world.interaction.ModWorld` (reads return copies; writes go
through `ModWorld.set_block`, are recorded for roll-back and notify neighbours; it is read-only
inside ``can_*`` hooks), ``pos`` and ``neighbor`` are `world.geometry.Int3` world voxel
coordinates, ``block`` / ``old`` / ``new`` are frozen `world.blocks.BlockType` values and
``actor`` is a frozen `world.interaction.Actor`. Nothing a hook receives is an internal array.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from world.blocks import BlockType
    from world.geometry import Int3
    from world.interaction import Actor, ModWorld
    from world.mods import BlockRegistrar

__all__ = [
    "HOOK_NAMES",
    "PROJECT",
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
]

PROJECT = "blockpick"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_blocks(registry: BlockRegistrar) -> None:
    """Add the mod's block types.

    Called once per mod, in load order, by `world.mods.make_registry`, before the world exists;
    the base game registers its own blocks (``base:stone``, ...) through this hook first, so
    ids follow load order. Register with ``registry.register(BlockType(...))``.

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

    Called by `world.interaction.break_block` (and `ModWorld.may_break`) after the built-in
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
def can_place(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | str | None:
    """May ``actor`` place ``block`` at ``pos``?

    Called by `world.interaction.place_block` (and `ModWorld.may_place`) after the built-in
    rules passed (``pos`` holds a replaceable block, lies within the build height and, for a
    solid block, outside the actor's body). ``pos`` is the voxel that will change, which is
    ``hit.block`` itself when that is replaceable (tall grass), else ``hit.block + hit.face``.
    ``world`` is read-only here.

    Returns
    -------
    bool or str or None
        As `can_break`: ``False`` or a reason string denies, the first denial wins.
    """


@hookspec
def can_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | str | None:
    """May ``actor`` use (right click) the block at ``pos``?

    Called by `world.interaction.use_block` before any `on_use`. A denied use is not turned into
    a place: the right click does nothing and the outcome carries the reason.
    ``world`` is read-only here.

    Returns
    -------
    bool or str or None
        As `can_break`: ``False`` or a reason string denies, the first denial wins.
    """


@hookspec
def on_break(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> None:
    """``actor`` broke ``block`` at ``pos``; the voxel is already air.

    Called by `world.interaction.break_block` after the change, for every mod in order. Blocks
    set here through ``world.set_block`` belong to the same action (rolled back together if a
    hook raises). The return value is ignored.
    """


@hookspec
def on_place(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> None:
    """``actor`` placed ``block`` at ``pos``; the voxel already holds it.

    Called by `world.interaction.place_block` after the change, for every mod in order; as
    `on_break` otherwise.
    """


@hookspec
def on_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> bool | None:
    """``actor`` right-clicked ``block`` at ``pos``.

    Called by `world.interaction.use_block` once every `can_use` allowed it, in order until one
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
    already waiting, up to `world.interaction.NEIGHBOR_BUDGET` changed voxels per action; the
    rest carries over to the next ticks (`world.mods.Mods.tick`), up to
    `world.interaction.TICK_NEIGHBOR_BUDGET` per tick. The return value is ignored.
    """


@hookspec
def on_tick(world: ModWorld, dt: float) -> None:
    """Game time advanced by ``dt`` seconds (``dt >= 0``).

    Called by `world.mods.Mods.tick`, which the game calls once per frame. Each mod's call is
    isolated: when one raises, the blocks it changed in that call are restored and the other
    mods still run. The return value is ignored.
    """


HOOK_NAMES: tuple[str, ...] = (
    "register_blocks",
    "can_break",
    "can_place",
    "can_use",
    "on_break",
    "on_place",
    "on_use",
    "on_neighbor_changed",
    "on_tick",
)
