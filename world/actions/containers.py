"""Moving items between a player's inventory and a block's, as the player's action.

Luanti's node inventory callbacks, Minecraft's container clicks, inside one transaction.

Contract
--------
A slot is a `Slot`: ``Slot(PLAYER, i)`` is slot ``i`` of the actor's inventory (0..35, the
hotbar first: `world.items.inventory.Inventory`), ``Slot(BLOCK, i)`` slot ``i`` of the block's
inventory a `world.items.containers.Container` names (its slots kept in the voxel's data under
``container.key``). `move` moves the stack in one slot onto another, at least one of them the
block's, as one click of the inventory screen does (`world.items.inventory.Inventory.moved`):
onto an empty slot or onto the same item (and wear) as far as it stacks, else the two stacks
swap; a stack keeps its wear wherever it goes. In order, stopping at the first refusal:

1. the built-in rules: the voxel holds a block, its slots can be read
   (`world.items.containers.decode_slots`), the source slot holds a stack;
2. every mod's ``can_use`` (moving items in a block's inventory is using that block: the
   `protection` mod's refusal of strangers at a chest in someone's area covers its moves; the
   first denial wins, with its reason);
3. the block's own decision (`world.blocks.block_type.BlockType`, run read-only through the
   watchdog as every deciding callback): ``allow_put`` for a stack going into the block from
   the player, ``allow_take`` for one going out of it to the player, ``allow_move`` for one
   moving within it (Luanti's ``allow_metadata_inventory_*``). Each returns how many items of
   the stack may go (clamped to the stack; 0 refuses), or a reason string (refuses, shown to
   the player). Without one, all may go. A merge moves as many as allowed; a swap moves whole
   stacks, so it needs both stacks allowed in full;
4. the change: the block's slots written through the world's journal (`World.write_data`:
   rolled back with the action), the player's worked out on a copy;
5. the block's ``on_put`` / ``on_take`` / ``on_move`` with the stack that went (a swap: the
   stack leaving the source first), its changes settled as any callback's.

A callback or hook that fails (raises, runs too long, returns something else than a count or a
reason) sets the transaction's error: `world.rules.Rules.move_items` then rolls the whole move
back (the block's data, anything its callbacks changed) and denies it naming the mod.

The player's side: the world does not hold the player's inventory (the game keeps and saves it
with the player). `move` is handed the inventory's slots, works on a copy and returns the slots
after the move in `world.mods.outcome.Outcome.inventory`; the caller takes them only from a done
outcome. A denied or rolled-back move carries none, so the block's slots and the player's change
together or not at all. Each callback is offered ``world, pos, block, state, props, actor, key``
(the container's data key) and ``index`` (put, take) or ``from_index, to_index`` (move), and
``stack`` (the `world.items.inventory.ItemStack` that would go, or went).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from world.blocks.block_type import AIR
from world.items.containers import Container, decode_slots, encode_slots
from world.items.inventory import INVENTORY_SLOTS, Inventory, ItemStack
from world.mods.outcome import Outcome, denied

if TYPE_CHECKING:
    from world.actions.transaction import Transaction
    from world.blocks.block_type import BlockType
    from world.blocks.registry import BlockRegistry
    from world.geometry import Int3
    from world.mods.outcome import Actor

__all__ = [
    "BLOCK",
    "PLAYER",
    "Going",
    "Slot",
    "allowed",
    "check_move",
    "described",
    "failed",
    "heard",
    "move",
]

PLAYER = "player"
BLOCK = "block"


@dataclass(frozen=True)
class Slot:
    """One slot of a move: ``side`` is `PLAYER` (the actor's inventory) or `BLOCK` (the
    block's), ``index`` the slot in it."""

    side: str
    index: int


class Going(NamedTuple):
    """One stack going from one slot to another, and the callbacks that decide and hear it
    (`world.actions.slot_clicks` moves the screen's stacks as these too)."""

    source: Slot
    target: Slot
    stack: ItemStack

    @property
    def kind(self) -> str:
        """``"put"`` (into the block), ``"take"`` (out of it) or ``"move"`` (within it)."""
        if self.source.side == self.target.side:
            return "move"
        return "put" if self.target.side == BLOCK else "take"

    def offered(self, base: dict[str, object]) -> dict[str, object]:
        """The callbacks' arguments for this stack."""
        if self.kind == "move":
            slots = {"from_index": self.source.index, "to_index": self.target.index}
        else:
            slots = {"index": (self.target if self.kind == "put" else self.source).index}
        return {**base, **slots, "stack": self.stack}


def check_move(
    container: object, source: object, target: object, inventory: object
) -> tuple[Container, Slot, Slot, list[ItemStack | None]]:
    """The move's arguments, checked (`world.rules.Rules.move_items` takes them from outside).

    Raises
    ------
    ValueError
        Naming the argument: not a `Container`; a slot that is not a `Slot` of a known side or
        lies outside its inventory; a move that does not touch the block's slots; an inventory
        that is not `world.items.inventory.INVENTORY_SLOTS` stacks or None.
    """
    if not isinstance(container, Container):
        raise ValueError(f"container must be a Container, got {type(container).__name__}")
    slots = []
    for name, slot in (("source", source), ("target", target)):
        if not isinstance(slot, Slot) or slot.side not in (PLAYER, BLOCK):
            raise ValueError(f"{name} must be Slot(PLAYER or BLOCK, index), got {slot!r}")
        size = INVENTORY_SLOTS if slot.side == PLAYER else container.size
        index = slot.index
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
            raise ValueError(f"{name} index must be 0..{size - 1} on the {slot.side} side")
        slots.append(slot)
    if source == target:
        raise ValueError(f"source and target must be two slots, got {source!r} twice")
    if PLAYER == slots[0].side == slots[1].side:
        raise ValueError("source or target must be a slot of the block's inventory")
    if isinstance(inventory, str | bytes) or not isinstance(inventory, Sequence):
        raise ValueError(f"inventory must be a sequence of slots, got {type(inventory).__name__}")
    if len(inventory) != INVENTORY_SLOTS:
        raise ValueError(f"inventory must hold {INVENTORY_SLOTS} slots, got {len(inventory)}")
    pocket = list(Inventory(inventory).slots)  # each an ItemStack or None: ValueError naming it
    return container, slots[0], slots[1], pocket


def move(
    tx: Transaction,
    actor: Actor,
    container: Container,
    source: Slot,
    target: Slot,
    pocket: list[ItemStack | None],
) -> Outcome:
    """Move the stack in ``source`` onto ``target`` as ``actor`` (module notes); ``pocket`` is
    the actor's inventory slots, changed in place on a copy the outcome returns."""
    pos = container.pos
    state = tx.read(pos)
    if state == AIR:
        return denied(f"{container.title} is gone", pos)
    world = tx.world
    registry = world.registry
    block = registry[state]
    try:
        stored = decode_slots(world.block_data.value(pos, container.key), container.size)
    except ValueError as exc:
        return denied(f"{container.title} cannot be opened: {exc}", pos)
    sides = {PLAYER: list(pocket), BLOCK: stored}
    moving = sides[source.side][source.index]
    if moving is None:
        return denied("nothing to move", pos)
    there = sides[target.side][target.index]
    rule = Inventory()
    rule.limits = {name: item.stack_max for name, item in registry.items.items()}
    left, put = rule.moved(moving, there)
    if there is not None and not moving.stacks_with(there):
        goes = [Going(source, target, moving), Going(target, source, there)]
    else:
        count = moving.count - (0 if left is None else left.count)
        if count == 0:  # onto a full stack of it: nothing moves, as with any full slot
            return Outcome(True, pos=pos)
        goes = [Going(source, target, moving.with_count(count))]
    kwargs = {"world": tx.view, "pos": pos, "block": block, "actor": actor}
    called = tx.call("can_use", kwargs)
    if called.error is not None:
        return failed(tx, pos)
    if called.answer is not None:
        return denied(str(called.answer), pos, called.mod)
    base = {**kwargs, "state": state, "props": registry.props(state), "key": container.key}
    let_go: list[Going] = []
    for going in goes:
        let = allowed(tx, pos, block, going, going.offered(base))
        if isinstance(let, Outcome):
            return let
        if let == 0 or (len(goes) == 2 and let < going.stack.count):
            what = described(registry, going.stack.item)
            verb = {"put": "take", "take": "give up", "move": "move"}[going.kind]
            reason = f"{block.description} will not {verb} {what}"
            return denied(reason, pos, block.name.split(":")[0])
        let_go.append(going._replace(stack=going.stack.with_count(let)))
    if len(let_go) == 2:
        sides[source.side][source.index], sides[target.side][target.index] = left, put
    else:
        (going,) = let_go
        rest = moving.count - going.stack.count
        sides[source.side][source.index] = moving.with_count(rest) if rest else None
        total = going.stack.count + (0 if there is None else there.count)
        sides[target.side][target.index] = moving.with_count(total)
    try:
        world.write_data(pos, container.key, encode_slots(sides[BLOCK]))
    except ValueError as exc:  # the voxel's other data leaves no room for these slots
        return denied(f"{container.title} cannot hold that: {exc}", pos)
    told = heard(tx, actor, pos, block, let_go, base)
    if told is not None:
        return told
    touched = PLAYER in (source.side, target.side)
    return Outcome(True, pos=pos, inventory=tuple(sides[PLAYER]) if touched else None)


def heard(
    tx: Transaction,
    actor: Actor,
    pos: Int3,
    block: BlockType,
    went: Sequence[Going],
    base: dict[str, object],
) -> Outcome | None:
    """The block's ``on_put`` / ``on_take`` / ``on_move`` for each stack that went, in order,
    as ``actor``'s; the failure that ends the action (it is rolled back whole), or None."""
    outer, tx.actor = tx.actor, actor
    try:
        for going in went:
            callback = f"on_{going.kind}"
            if getattr(block, callback) is not None:
                _, error = tx.block_call(block, callback, going.offered(base))
                if error is None:
                    tx.settle()
                if tx.error is not None:
                    return failed(tx, pos)
    finally:
        tx.actor = outer
    return None


def allowed(
    tx: Transaction, pos: Int3, block: BlockType, going: Going, offered: dict[str, object]
) -> int | Outcome:
    """How many of the stack the block's ``allow_*`` callback lets go, or the outcome that
    ends the move (a refusal with its reason, or a failure)."""
    callback = f"allow_{going.kind}"
    if getattr(block, callback) is None:
        return going.stack.count
    result, error = tx.block_call(block, callback, offered)
    mod = block.name.split(":")[0]
    if error is not None:
        return failed(tx, pos)
    if isinstance(result, str) and result:
        return denied(result, pos, mod)  # a reason (a switched-off callback's too: fails closed)
    if isinstance(result, int) and not isinstance(result, bool) and result >= 0:
        return min(result, going.stack.count)
    bad = TypeError(f"returned {result!r}; expected a count of items >= 0 or a reason")
    tx.error = tx.error or tx.guard.record(mod, f"{callback} of {block.name}", bad)
    return failed(tx, pos)


def described(registry: BlockRegistry, item: str) -> str:
    """An item's description as the player knows it (its name when no loaded mod has it)."""
    if item in registry.items:
        return registry.items[item].description
    return registry[item].description if item in registry else item


def failed(tx: Transaction, pos: Int3) -> Outcome:
    """The move's denial for the transaction's error (a failing hook or callback), naming the
    mod."""
    error = tx.error
    assert error is not None
    return Outcome(False, str(error), pos=pos, denied_by=error.mod)
