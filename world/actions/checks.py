"""The built-in rules (Minecraft's), checked before any mod is asked, and the argument checks
of the rules' public API.

- Nothing is broken where there is air or an unbreakable block (infinite hardness: bedrock,
  water); breaking takes the block's hardness in seconds by hand, nothing in creative.
- A block is placed into ``hit.block`` itself when that block is replaceable (tall grass), else
  into ``hit.block + hit.face`` (`world.actions.pipeline` chooses, with the block's merging); never
  air, never an unbreakable block in survival (bedrock: creative may; but a liquid, which no one
  breaks, as a bucket pours it: `world.base.items`), never into a block that is
  not replaceable, nor the same state again, nor outside the world's ``build_height``
  (``low <= wy < high``), nor where the state's collision boxes cut into the actor's body.

`may_break` and `may_place` apply these, then ask the block's own ``can_break`` and the mods'
``can_*`` hooks through the action's transaction: they answer a denial `Outcome`, or None when the
action may go on.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import world.validate as validate
from world.blocks.block_type import AIR, NO_TOOL_SLOWNESS, BlockType
from world.geometry import FACE_NORMALS, Int3
from world.mods.outcome import Actor, Outcome, denied
from world.ray import Hit

if TYPE_CHECKING:
    from world.actions.transaction import Transaction
    from world.items.item import Item
    from world.mods.calls import ModError
    from world.mods.context import PlaceContext
    from world.voxels.chunks import World

__all__ = [
    "break_seconds",
    "check_hit",
    "harvests",
    "held_tool",
    "may_break",
    "may_place",
    "place_refusal",
]

_FACES = frozenset((*FACE_NORMALS, Int3(0, 0, 0)))


def check_hit(hit: object) -> tuple[Int3, Int3] | None:
    """The voxel and face of a `Hit` (None for no hit), checked as the raycast could report them.

    Raises
    ------
    TypeError
        When ``hit`` is neither a `Hit` nor None.
    ValueError
        Naming ``hit.block`` or ``hit.face``: a coordinate outside the world, or a face that is
        not one of the six unit normals (`world.geometry.FACE_NORMALS`) or (0, 0, 0).
    """
    if hit is None:
        return None
    if not isinstance(hit, Hit):
        raise TypeError(f"hit must be a Hit or None, got {type(hit).__name__}")
    block = validate.position(hit.block, "hit.block")
    face = validate.position(hit.face, "hit.face")
    if face not in _FACES:
        raise ValueError(
            f"hit.face must be one of the six unit face normals or (0, 0, 0), got {tuple(face)}"
        )
    return block, face


def held_tool(world: World, actor: Actor) -> Item | None:
    """The non-block item ``actor`` holds (a tool), or None."""
    return None if actor.item is None else world.registry.items.get(actor.item)


def break_seconds(block: BlockType, actor: Actor, tool: Item | None = None) -> float:
    """Seconds ``actor`` holds the button to break ``block``: hardness (divided by the held
    ``tool``'s speed for the block's groups, `world.items.item.Item.digs`; times
    `world.blocks.block_type.NO_TOOL_SLOWNESS` for a block that `needs_tool` without one), 0 in
    creative, inf."""
    if not block.breakable:
        return math.inf
    if actor.creative:
        return 0.0
    if not harvests(block, tool):
        return float(block.hardness) * NO_TOOL_SLOWNESS
    return float(block.hardness) / (1.0 if tool is None else tool.dig_speed(block.groups))


def harvests(block: BlockType, tool: Item | None) -> bool:
    """Whether breaking ``block`` holding ``tool`` gives its drops: always, unless it
    ``needs_tool`` and ``tool`` digs none of its groups (stone by hand gives nothing)."""
    return not block.needs_tool or (tool is not None and tool.digs_any(block.groups))


def may_break(tx: Transaction, pos: Int3, actor: Actor) -> Outcome | None:
    """The denial of breaking ``pos`` (built-in rules, the block's own ``can_break``, then every
    mod's ``can_break``), or None.

    While a block's own ``can_break`` decides, a check it asks for about the same voxel (a door
    asking about its other half, which asks back) skips that callback: no endless loop.
    """
    block_id = tx.read(pos)
    if block_id == AIR:
        return denied("nothing to break", pos)
    block = tx.world.registry[block_id]
    if not block.breakable:
        return denied(f"{block.description} cannot be broken", pos)
    if block.can_break is not None and pos not in tx.deciding:
        offered = {
            "world": tx.view,
            "pos": pos,
            "block": block,
            "state": block_id,
            "props": tx.world.registry.props(block_id),
            "actor": actor,
        }
        tx.deciding.add(pos)
        try:
            result, error = tx.block_call(block, "can_break", offered)
        finally:
            tx.deciding.discard(pos)
        refusal = _veto(tx, pos, block, result, error)
        if refusal is not None:
            return refusal
    return _ask(tx, "can_break", pos, block, actor)


def place_refusal(
    tx: Transaction, pos: Int3, block_id: int, actor: Actor, *, merge: bool = False
) -> Outcome | None:
    """The built-in rules' denial of putting ``block_id`` at ``pos`` itself, or None: air, the
    build height, an unbreakable block in survival (not a liquid: buckets pour them), the same
    state already there, a block in
    the way (unless ``merge``: the placed block merges into the same block there)."""
    world = tx.world
    registry = world.registry
    block = registry[block_id]
    if block_id == AIR:
        return denied("cannot place air", pos)
    low, high = world.build_height
    if not low <= pos.y < high:
        return denied(f"outside the build height ({low} to {high - 1})", pos)
    current_id = tx.read(pos)
    current = registry[current_id]
    if current_id == block_id and not merge:
        return denied(f"there is already {current.description} here", pos)
    if not current.replaceable and not (merge and current is block):
        return denied(f"{current.description} is in the way", pos)
    if not block.breakable and block.liquid is None and not actor.creative:
        return denied(f"{block.description} can only be placed in creative mode", pos)
    return None


def may_place(
    tx: Transaction,
    pos: Int3,
    block_id: int,
    actor: Actor,
    context: PlaceContext | None = None,
    *,
    merge: bool = False,
) -> Outcome | None:
    """The denial of placing state ``block_id`` at ``pos`` itself (`place_refusal`, the body
    check on the state's collision shape, then every mod's ``can_place``), or None."""
    refusal = place_refusal(tx, pos, block_id, actor, merge=merge)
    if refusal is not None:
        return refusal
    registry = tx.world.registry
    block = registry[block_id]
    boxes = registry.collision_boxes[block_id]
    if boxes and actor.overlaps(pos, boxes):
        return denied(f"cannot place {block.description} inside yourself", pos)
    return _ask(tx, "can_place", pos, block, actor, context)


def _veto(
    tx: Transaction, pos: Int3, block: BlockType, result: object, error: ModError | None
) -> Outcome | None:
    """A block's own veto (``can_break``) as a denial, or None when it allows."""
    if error is not None:
        return Outcome(False, str(error), pos=pos, denied_by=error.mod)
    mod = block.name.split(":")[0]
    if result is None or result is True:
        return None
    if result is False:
        return denied(f"{block.description} cannot be broken", pos, mod)
    if isinstance(result, str) and result:
        return denied(result, pos, mod)
    bad = TypeError(f"returned {result!r}; expected None, True, False or a reason")
    error = tx.guard.record(mod, f"can_break of {block.name}", bad)
    tx.error = tx.error or error
    return Outcome(False, str(error), pos=pos, denied_by=mod)


def _ask(
    tx: Transaction,
    hook: str,
    pos: Int3,
    block: BlockType,
    actor: Actor,
    context: PlaceContext | None = None,
) -> Outcome | None:
    kwargs = {"world": tx.view, "pos": pos, "block": block, "actor": actor}
    if hook == "can_place":
        kwargs["context"] = context
    called = tx.call(hook, kwargs)
    if called.error is not None:
        return Outcome(False, str(called.error), pos=pos, denied_by=called.error.mod)
    if called.answer is not None:
        return denied(str(called.answer), pos, called.mod)
    return None
