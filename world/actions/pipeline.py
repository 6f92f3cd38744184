"""The steps of breaking, placing and using one voxel inside a transaction (Luanti's dig and place
pipeline), shared by the rules' actions (`world.rules.Rules`) and by a hook acting as an actor
(`world.mods.view.ModWorld.dig` / `ModWorld.place`).

Breaking (`dig`): the built-in rules, the block's own ``can_break``, every mod's ``can_break``
(`world.actions.checks.may_break`); the change to air; settling (the block's ``on_destruct``, the
neighbours' shape updates: `world.actions.transaction.Transaction.settle`); every mod's
``on_break``. What the break gives a survival actor (`drops`: the block's ``get_drops`` through the
watchdog, or its ``drops``) is worked out in the same transaction, so that a failing ``get_drops``
rolls the break back.

Placing (`place_at_hit` for a click, `place` for a given voxel and state): where the block goes
(`world.mods.context.PlaceContext`: the clicked voxel when it is replaceable or the placed
block merges into it, else against the face; a block of the group ``"merges"`` with a
``placement_state`` is asked about a voxel holding the same block, and merges when it answers a
state: a slab into a slab), the built-in rules, the block's own
``placement_state``, the body check on the chosen state's collision, every mod's ``can_place``
(with the context); the change; settling (``on_construct``); every mod's ``on_place``.

A done break records the broken block's ``dug`` sound, a done place the placed block's ``place``
sound (`world.blocks.sounds.SoundGroup.event`, at the voxel's centre), right after the change:
rolled back with it. Each voxel of a nested action (a door's other half) sounds too; a bulk write
and a liquid flowing are silent.

Each step that fails denies: a denial by a rule or a veto changes nothing; a failing hook or
callback sets ``tx.error`` and the action that holds the transaction rolls everything back.
Actions nest when a hook digs or places as an actor: at most `MAX_DEPTH` deep and
`MAX_CHAINED` per action, the next one is denied (a vein miner stops, the game does not).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

import world.validate as validate
from world.actions.callbacks import implementation
from world.actions.checks import (
    break_seconds,
    harvests,
    held_tool,
    may_break,
    may_place,
    place_refusal,
)
from world.blocks.block_type import AIR
from world.blocks.drops import block_drops
from world.blocks.sounds import block_centre
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.items.item import Item
from world.mods.context import PlaceContext
from world.mods.outcome import Outcome, denied

if TYPE_CHECKING:
    from world.actions.transaction import Transaction
    from world.blocks.block_type import BlockType
    from world.mods.outcome import Actor
    from world.ray import Hit

__all__ = ["MAX_CHAINED", "MAX_DEPTH", "dig", "drops", "place", "place_at_hit", "use"]

# Nested actions (a hook digging or placing as the actor): a door's other half is depth 1; a
# recursive vein miner goes as deep as its vein. Each level costs about ten Python frames.
MAX_DEPTH = 32
MAX_CHAINED = 256


class _Nested:
    """Counts one (possibly nested) action on a transaction; refuses past the bounds."""

    def __init__(self, tx: Transaction) -> None:
        self.tx = tx

    def __enter__(self) -> str | None:
        tx = self.tx
        tx.depth += 1
        tx.chained += 1
        if tx.depth > MAX_DEPTH or tx.chained > MAX_CHAINED:
            return f"too many chained actions (more than {MAX_DEPTH} deep or {MAX_CHAINED} in all)"
        return None

    def __exit__(self, *_: object) -> None:
        self.tx.depth -= 1


def _failed(tx: Transaction, pos: Int3) -> Outcome | None:
    error = tx.error
    if error is None:
        return None
    return Outcome(False, str(error), pos=pos, denied_by=error.mod)


def dig(tx: Transaction, pos: Int3, actor: Actor) -> Outcome:
    """Break ``pos`` as ``actor``: checks, change, settling, ``on_break`` (module notes)."""
    with _Nested(tx) as refused:
        if refused is not None:
            return denied(refused, pos)
        refusal = may_break(tx, pos, actor)
        if refusal is not None:
            return refusal
        state = tx.read(pos)
        block = tx.world.registry[state]
        outer, tx.actor = tx.actor, actor
        try:
            mark = len(tx.changes)
            tx.set(pos, AIR)
            _sound(tx, block, "dug", pos)
            tx.settle()
            if tx.error is None:
                kwargs = {"world": tx.view, "pos": pos, "block": block, "actor": actor}
                tx.call("on_break", kwargs)
        finally:
            tx.actor = outer
        return _failed(tx, pos) or Outcome(
            True,
            pos=pos,
            changes=tx.changes.since(mark),
            break_time=break_seconds(block, actor, held_tool(tx.world, actor)),
        )


def _sound(tx: Transaction, block: BlockType, kind: str, pos: Int3) -> None:
    """The block's ``kind`` sound at the voxel's centre, recorded in the action (heard only if
    it stands: `world.actions.transaction.Transaction.play`)."""
    if block.sounds is not None:
        event = block.sounds.event(kind, block_centre(*pos))
        if event is not None:
            tx.play(event)


GET_DROPS_ARGUMENTS = ("registry", "state", "rng", "pos", "data", "world")
"""What a block's ``get_drops`` is offered, by name: ``pos`` the broken voxel, ``data`` a copy of
its block data before the break (a machine's contents)."""


def drops(
    tx: Transaction,
    state: int,
    rng: random.Random,
    pos: Int3,
    data: Mapping[str, object],
    tool: Item | None = None,
) -> tuple[ItemStack, ...]:
    """What breaking a block in ``state`` at ``pos`` gives a survival actor holding ``tool``
    (`world.blocks.drops.block_drops`: nothing for a block that needs a tool ``tool`` is not,
    `world.actions.checks.harvests`; or the block's ``get_drops``).

    A block's ``get_drops`` runs as its mod's callback, through the watchdog, with the arguments
    it asks for of `GET_DROPS_ARGUMENTS`: one that raises, runs too long or returns something
    else than a list of item stacks sets ``tx.error`` (the break is then rolled back) and gives
    nothing; one the circuit breaker switched off gives nothing.
    """
    registry = tx.world.registry
    block = registry[state]
    if block.get_drops is None:
        if not harvests(block, tool):
            return ()  # stone by hand (`world.blocks.block_type.BlockType.needs_tool`)
        return tuple(block_drops(registry, state, rng))
    mod, label = block.name.split(":")[0], f"get_drops of {block.name}"
    impl = implementation(mod, label, block.get_drops, GET_DROPS_ARGUMENTS)
    if isinstance(impl, str):
        tx.error = tx.error or tx.guard.record(mod, label, TypeError(impl))
        return ()
    offered = {
        "registry": registry,
        "state": state,
        "rng": rng,
        "pos": pos,
        "data": dict(data),
        "world": tx.view,
    }
    result, error = tx.run(impl, offered)
    if error is not None:
        tx.error = tx.error or error
        return ()
    if not isinstance(result, list | tuple) or not all(isinstance(s, ItemStack) for s in result):
        bad = ValueError(f"must return a list of ItemStacks, got {result!r}")
        tx.error = tx.error or tx.guard.record(mod, label, bad)
        return ()
    return tuple(result)


def place(
    tx: Transaction,
    pos: Int3,
    state: int,
    actor: Actor,
    context: PlaceContext | None = None,
    *,
    merge: bool = False,
) -> Outcome:
    """Put ``state`` at ``pos`` itself as ``actor``: the built-in rules, every ``can_place``, the
    change, settling, every ``on_place``. The block's ``placement_state`` is not asked (the
    state is given; `place_at_hit` asks it)."""
    with _Nested(tx) as refused:
        if refused is not None:
            return denied(refused, pos)
        refusal = may_place(tx, pos, state, actor, context, merge=merge)
        if refusal is not None:
            return refusal
        block = tx.world.registry[state]
        outer, tx.actor = tx.actor, actor
        try:
            mark = len(tx.changes)
            tx.set(pos, state)
            _sound(tx, block, "place", pos)
            tx.settle()
            if tx.error is None:
                kwargs = {
                    "world": tx.view,
                    "pos": pos,
                    "block": block,
                    "actor": actor,
                    "context": context,
                }
                tx.call("on_place", kwargs)
        finally:
            tx.actor = outer
        return _failed(tx, pos) or Outcome(True, pos=pos, changes=tx.changes.since(mark))


def place_at_hit(tx: Transaction, hit: Hit, held: int, actor: Actor) -> Outcome:
    """Place the block of state ``held`` where a click at ``hit`` puts it (module notes)."""
    world = tx.world
    registry = world.registry
    block = registry[held]
    clicked = hit.block
    clicked_state = tx.read(clicked)
    can_merge = block.placement_state is not None and "merges" in block.groups
    candidates: list[Int3] = []
    if registry.replaceable[clicked_state]:
        candidates.append(clicked)
    else:
        if can_merge and registry[clicked_state] is block:
            candidates.append(clicked)
        if hit.face == (0, 0, 0):
            if not candidates:
                return denied("no face to place against: the eye is inside the block", clicked)
        else:
            target = clicked + hit.face
            if max(abs(target.x), abs(target.y), abs(target.z)) >= validate.WORLD_LIMIT:
                return denied("outside the world", target)
            candidates.append(target)
    for n, pos in enumerate(candidates):
        last = n == len(candidates) - 1
        current = tx.read(pos)
        merge = not registry.replaceable[current] and can_merge and registry[current] is block
        refusal = place_refusal(tx, pos, held, actor, merge=merge)
        if refusal is not None:
            if last:
                return refusal
            continue
        context = PlaceContext.make(hit, pos, block, held, current, actor)
        state: int | Outcome | None = held
        if block.placement_state is not None:
            state = _placement_state(tx, block, context)
            if state is None and merge:
                if last:
                    return denied(f"{registry[current].description} is in the way", pos)
                continue
        if isinstance(state, Outcome):
            return state
        return place(tx, pos, held if state is None else state, actor, context, merge=merge)
    raise AssertionError("unreachable: the last candidate always answers")


def _placement_state(
    tx: Transaction, block: BlockType, context: PlaceContext
) -> int | Outcome | None:
    """The state the block's ``placement_state`` picks: an id, a denial, or None (its default
    when placing into a free voxel; no merge when placing into the same block)."""
    offered = {
        "world": tx.view,
        "pos": context.pos,
        "block": block,
        "actor": context.actor,
        "context": context,
    }
    result, error = tx.block_call(block, "placement_state", offered)
    if error is not None:
        return Outcome(False, str(error), pos=context.pos, denied_by=error.mod)
    if result is None:
        return None
    mod = block.name.split(":")[0]
    if result is False or (isinstance(result, str) and result):
        reason = result or f"{block.description} cannot be placed here"
        return denied(str(reason), context.pos, mod)
    registry = tx.world.registry
    try:
        if isinstance(result, Mapping):
            return registry.with_props(context.state, **dict(result))
        if (
            isinstance(result, int)
            and not isinstance(result, bool)
            and registry.block_of(result) is block
        ):
            return registry.resolve(result)
    except ValueError as exc:
        bad: Exception = exc
    else:
        bad = TypeError(
            f"returned {result!r}; expected None, a mapping of properties, a state id of "
            f"{block.name!r}, False or a reason"
        )
    error = tx.guard.record(mod, f"placement_state of {block.name}", bad)
    tx.error = tx.error or error
    return Outcome(False, str(error), pos=context.pos, denied_by=mod)


def use(tx: Transaction, hit: Hit, actor: Actor) -> Outcome | None:
    """The right click's use of ``hit.block``: None when nothing used it (the caller places), or
    the outcome (``used``, a ``can_use`` denial, or a failure). ``can_use`` vetoes first, then
    the block's own ``on_use``, then the mods' ``on_use`` until one handles it, then the held
    item's ``on_use`` (`world.items.item.Item`), whose denied `Outcome` (a nested place refused)
    undoes what it changed and is the answer."""
    pos = hit.block
    state = tx.read(pos)
    registry = tx.world.registry
    block = registry[state]
    kwargs = {"world": tx.view, "pos": pos, "block": block, "actor": actor}
    called = tx.call("can_use", kwargs)
    if called.error is not None:
        return _failed(tx, pos)
    if called.answer is not None:
        return denied(str(called.answer), pos, called.mod)
    outer, tx.actor = tx.actor, actor
    try:
        offered = {
            **kwargs,
            "state": state,
            "props": registry.props(state),
            "hit": hit,
            "player": tx.view.player(actor),
        }
        if block.on_use is not None:
            result, error = tx.block_call(block, "on_use", offered)
            if error is None:
                tx.settle()
            if tx.error is not None:
                return _failed(tx, pos)
            if result is True:
                return Outcome(True, pos=pos, used=True)
            if result is not None and result is not False:
                mod = block.name.split(":")[0]
                bad = TypeError(f"returned {result!r}; expected True, False or None")
                tx.error = tx.guard.record(mod, f"on_use of {block.name}", bad)
                return _failed(tx, pos)
        called = tx.call("on_use", kwargs)
        item = registry.items.get(actor.item) if actor.item else None
        if called.error is None and not called.answer and item is not None and item.on_use:
            mark = tx.mark()
            result, error = tx.block_call(item, "on_use", {**offered, "item": item})
            if error is None:
                tx.settle()
            if tx.error is not None:
                return _failed(tx, pos)
            if isinstance(result, Outcome) and not result.done:
                tx.rollback(mark)  # refused by a check it asked (a bucket's place): nothing kept
                return result
            return Outcome(True, pos=pos, used=True) if result is True else None
    finally:
        tx.actor = outer
    if called.error is not None:
        return _failed(tx, pos)
    if called.answer:
        return Outcome(True, pos=pos, used=True)
    return None
