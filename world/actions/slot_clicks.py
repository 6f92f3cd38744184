"""A click of the inventory screen as the player's action: Minecraft's container clicks.

Contract
--------
The screen shows slots on sides: `world.actions.containers.PLAYER` (the actor's 36 inventory
slots, the hotbar first), `GRID` (the inventory's 3×3 crafting grid), `OUTPUT` (index 0: what
the grid makes) and, while a block's inventory is open instead of the grid, ``BLOCK`` (its
slots). The mouse carries one stack, the player's `world.items.inventory.Inventory.carried`.
A `Click` is one gesture of the mouse, on one slot or, dragged, over several:

- ``LEFT`` on a slot: with nothing carried, pick its whole stack up; carrying a stack, put it
  down: into an empty slot, onto the same item as far as it stacks, else the two swap.
- ``RIGHT`` on a slot: with nothing carried, pick up half its stack, rounded up; carrying a
  stack, put ONE item down (into an empty slot or onto the same item), else swap.
- "The same item" is always the same item with the same wear
  (`world.items.inventory.ItemStack.stacks_with`): a worn tool put on another of its kind
  swaps with it, and every stack moved keeps its wear.
- ``LEFT`` or ``RIGHT`` on `OUTPUT`: craft once (`world.items.crafting.craft`) onto the carried
  stack, when nothing is carried or the same item has room for the whole output.
- ``SHIFT`` (Shift + left) on a slot quick-moves its stack (what it carries stays carried), as
  Minecraft's menus do: merged onto stacks of the same item first, then into empty slots, in
  the order: the hotbar's to the 27 inventory slots and back; with a block's inventory open, the
  player's to the block's slots in order and the block's to the player's (the hotbar from its
  right end first, then the inventory from its last slot); the grid's to the inventory, then the
  hotbar. On `OUTPUT` it crafts as many times as the grid allows and the inventory takes each
  whole output (the hotbar from its right end first); what does not fit is not crafted.
- A drag (several slots, ``LEFT`` or ``RIGHT``) while carrying a stack spreads it over the
  slots it crossed that are empty or hold the same item with room (the output never), each slot
  once, in order: ``LEFT`` evenly, ``carried // slots`` each (at most as many slots as items),
  the rest staying carried; ``RIGHT`` one item each while any is left. Minecraft's drag.

Each click is one action, one transaction (`world.rules.Rules.click_slots`): the player's slots
are written in place (recorded by the world's journal, `world.voxels.players`), the block's
through ``World.write_data``. A stack going into or out of the block's slots is a
`world.actions.containers.Going`, decided as a `world.actions.containers.move` is: the mods'
``can_use`` (once, at the first such stack: moving items in a block's inventory is using it),
the block's ``allow_put`` / ``allow_take``, and heard by its ``on_put`` / ``on_take`` after the
change. A ``can_use`` veto or a refusal of a stack the player clicked denies the click; a quick
move or a drag passes over a block slot that refuses and tries the next. A denied or failing
click is rolled back whole: no item is lost or made, whatever the mods do.

`put_back` is the screen closing: the carried stack and the grid's stacks go back into the
inventory, and what does not fit drops into the world at the player's feet (Minecraft's rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.actions.containers import (
    BLOCK,
    PLAYER,
    Going,
    Slot,
    allowed,
    described,
    failed,
    heard,
)
from world.blocks.block_type import AIR
from world.geometry import Int3
from world.items.containers import Container, decode_slots, encode_slots
from world.items.crafting import craft
from world.items.inventory import (
    CRAFTING_SLOTS,
    HOTBAR_SLOTS,
    INVENTORY_SLOTS,
    Inventory,
    ItemStack,
)
from world.mods.outcome import Outcome, denied
from world.voxels.entities import drop_item

if TYPE_CHECKING:
    from world.actions.transaction import Transaction
    from world.blocks.block_type import BlockType
    from world.mods.outcome import Actor
    from world.voxels.chunks import World
    from world.voxels.players import Player

__all__ = [
    "BUTTONS",
    "GRID",
    "LEFT",
    "MAX_DRAG",
    "OUTPUT",
    "RIGHT",
    "SHIFT",
    "Click",
    "check_click",
    "click",
    "put_back",
]

GRID = "grid"
OUTPUT = "output"
_CURSOR = "cursor"  # the carried stack: the player's
LEFT, RIGHT, SHIFT = "left", "right", "shift"
BUTTONS = (LEFT, RIGHT, SHIFT)
MAX_DRAG = 64  # slots one drag may cross (a screen shows fewer)
_MAIN = list(range(HOTBAR_SLOTS, INVENTORY_SLOTS))  # the 27 inventory slots above the hotbar
_HOTBAR = list(range(HOTBAR_SLOTS))
_BACKWARDS = _HOTBAR[::-1] + _MAIN[::-1]  # Minecraft's reversed quick move into the player


@dataclass(frozen=True)
class Click:
    """One gesture on the screen's slots: ``button`` (`LEFT`, `RIGHT`, `SHIFT`) on one slot, or
    a drag of `LEFT` or `RIGHT` over several, in the order crossed (module notes)."""

    button: str
    slots: tuple[Slot, ...]


def check_click(click: object, container: object) -> tuple[Click, Container | None]:
    """The click's arguments, checked (`world.rules.Rules.click_slots` takes them from outside).

    Raises
    ------
    ValueError
        Naming the argument: not a `Click`; an unknown button; no slot, or more than
        `MAX_DRAG`; a slot that is not a `Slot` of a side the screen shows (`BLOCK` only with a
        container, `GRID` and `OUTPUT` only without) or lies outside it; a shift-click on more
        than one slot; a container that is not a `Container` or None.
    """
    if not isinstance(click, Click):
        raise ValueError(f"click must be a Click, got {type(click).__name__}")
    if container is not None and not isinstance(container, Container):
        raise ValueError(f"container must be a Container or None, got {type(container).__name__}")
    if click.button not in BUTTONS:
        raise ValueError(f"click button must be one of {', '.join(BUTTONS)}, got {click.button!r}")
    slots = click.slots
    if not isinstance(slots, tuple) or not 1 <= len(slots) <= MAX_DRAG:
        raise ValueError(f"click slots must be a tuple of 1..{MAX_DRAG} slots, got {slots!r}")
    if click.button == SHIFT and len(slots) > 1:
        raise ValueError("click slots: a shift-click is on one slot, not a drag")
    sizes = {PLAYER: INVENTORY_SLOTS}
    if container is None:
        sizes.update({GRID: CRAFTING_SLOTS, OUTPUT: 1})
    else:
        sizes[BLOCK] = container.size
    for slot in slots:
        if not isinstance(slot, Slot) or slot.side not in sizes:
            sides = ", ".join(sizes)
            raise ValueError(f"click slots must be Slot({sides}, index), got {slot!r}")
        index, size = slot.index, sizes[slot.side]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
            raise ValueError(f"click slot index must be 0..{size - 1} on the {slot.side} side")
    return click, container


class _Menu:
    """The slots one click works on, and the stacks that went into or out of the block's."""

    def __init__(
        self,
        tx: Transaction,
        actor: Actor,
        inventory: Inventory,
        container: Container | None,
        stored: list[ItemStack | None],
        pos: Int3,
    ) -> None:
        self.tx, self.actor, self.inventory = tx, actor, inventory
        self.container, self.pos = container, pos
        self.sides: dict[str, list[ItemStack | None]] = {
            PLAYER: inventory.slots,
            GRID: inventory.crafting,
            _CURSOR: inventory.carried,
            BLOCK: stored,
        }
        self.went: list[Going] = []  # stacks into or out of the block, for its on_* callbacks
        self._base: dict[str, object] | None = None  # the block callbacks' arguments, once used
        self.block: BlockType | None = None  # the block whose slots these are, once asked

    def at(self, slot: Slot) -> ItemStack | None:
        """The stack in a slot."""
        return self.sides[slot.side][slot.index]

    def _set(self, slot: Slot, stack: ItemStack | None) -> None:
        self.sides[slot.side][slot.index] = stack

    @property
    def carried(self) -> ItemStack | None:
        """The stack the mouse carries."""
        return self.inventory.carried[0]

    def room(self, stack: ItemStack | None, moving: ItemStack) -> int:
        """How many of ``moving``'s items a slot holding ``stack`` takes (0: another item, or
        the same worn otherwise)."""
        top = self.inventory.stack_max(moving.item)
        if stack is None:
            return top
        return max(0, top - stack.count) if moving.stacks_with(stack) else 0

    # -- the block's say ------------------------------------------------------------------------

    def _callbacks_base(self) -> dict[str, object] | Outcome:
        """The block callbacks' arguments, after the mods' ``can_use`` (asked once)."""
        if self._base is not None:
            return self._base
        tx, container = self.tx, self.container
        assert container is not None
        state = tx.read(container.pos)
        registry = tx.world.registry
        block = registry[state]
        kwargs = {"world": tx.view, "pos": container.pos, "block": block, "actor": self.actor}
        called = tx.call("can_use", kwargs)
        if called.error is not None:
            return failed(tx, container.pos)
        if called.answer is not None:
            return denied(str(called.answer), container.pos, called.mod)
        props = registry.props(state)
        self.block = block
        self._base = {**kwargs, "state": state, "props": props, "key": container.key}
        return self._base

    def _allow(self, going: Going, *, strict: bool) -> int | Outcome:
        """How many of a stack going into or out of the block may go (0: none, passed over
        unless ``strict``), or the outcome that ends the click."""
        base = self._callbacks_base()
        if isinstance(base, Outcome):
            return base
        assert self.container is not None and self.block is not None
        let = allowed(self.tx, self.container.pos, self.block, going, going.offered(base))
        if isinstance(let, Outcome):
            return let if strict or self.tx.error is not None else 0
        if let == 0 and strict:
            return self._refusal(going)
        return let

    def _refusal(self, going: Going) -> Outcome:
        """The block will not let this stack go (its ``allow_*`` said 0, or less than a swap
        needs)."""
        assert self.block is not None
        what = described(self.tx.world.registry, going.stack.item)
        verb = {"put": "take", "take": "give up", "move": "move"}[going.kind]
        reason = f"{self.block.description} will not {verb} {what}"
        return denied(reason, self.pos, self.block.name.split(":")[0])

    # -- moving stacks --------------------------------------------------------------------------

    def give(self, source: Slot, target: Slot, count: int, *, strict: bool = True) -> int | Outcome:
        """Move up to ``count`` items from ``source`` onto ``target`` (empty or the same item);
        how many went, or the outcome that ends the click."""
        moving, there = self.at(source), self.at(target)
        if moving is None:
            return 0
        count = min(count, moving.count, self.room(there, moving))
        if count <= 0:
            return 0
        if BLOCK in (source.side, target.side):
            going = Going(source, target, moving.with_count(count))
            let = self._allow(going, strict=strict)
            if isinstance(let, Outcome) or let == 0:
                return let
            count = let
            self.went.append(going._replace(stack=moving.with_count(count)))
        rest = moving.count - count
        self._set(source, moving.with_count(rest) if rest else None)
        self._set(target, moving.with_count(count + (0 if there is None else there.count)))
        return count

    def swap(self, a: Slot, b: Slot) -> Outcome | None:
        """Swap two whole stacks (each allowed in full when it goes into or out of the block)."""
        first, second = self.at(a), self.at(b)
        if first is None or second is None:
            return None
        goings = [Going(a, b, first), Going(b, a, second)]
        if BLOCK in (a.side, b.side):
            for going in goings:
                let = self._allow(going, strict=True)
                if isinstance(let, Outcome):
                    return let
                if let < going.stack.count:
                    return self._refusal(going)
            self.went.extend(goings)
        self._set(a, second)
        self._set(b, first)
        return None

    def spread(self, source: Slot, targets: list[Slot]) -> Outcome | None:
        """Minecraft's quick move: merge onto stacks of the same item in ``targets``' order,
        then fill empty slots; block slots that refuse are passed over."""
        for merging in (True, False):
            for target in targets:
                moving = self.at(source)
                if moving is None:
                    return None
                there = self.at(target)
                if (there is not None) != merging:
                    continue
                went = self.give(source, target, moving.count, strict=False)
                if isinstance(went, Outcome):
                    return went
        return None

    # -- the gestures ---------------------------------------------------------------------------

    def press(self, button: str, slot: Slot) -> Outcome | None:
        """A left or right click on one slot."""
        cursor = Slot(_CURSOR, 0)
        if slot.side == OUTPUT:
            return self._craft_once()
        carried, there = self.carried, self.at(slot)
        result: int | Outcome | None = None
        if carried is None and there is not None:
            take = there.count if button == LEFT else math.ceil(there.count / 2)
            result = self.give(slot, cursor, take)
        elif carried is not None and there is not None and not carried.stacks_with(there):
            result = self.swap(cursor, slot)
        elif carried is not None:
            result = self.give(cursor, slot, carried.count if button == LEFT else 1)
        return result if isinstance(result, Outcome) else None

    def _craft_once(self) -> Outcome | None:
        made = craft(self.tx.world.registry, self.inventory.crafting)
        if made is None:
            return None
        output, left = made
        if self.room(self.carried, output) < output.count:
            return None  # Minecraft: the click takes nothing while the hand cannot hold it
        carried = self.carried
        self.inventory.crafting[:] = left
        total = output.count + (0 if carried is None else carried.count)
        self.inventory.carried[0] = output.with_count(total)
        return None

    def quick_move(self, slot: Slot) -> Outcome | None:
        """A shift-click (module notes)."""
        player = [Slot(PLAYER, i) for i in range(INVENTORY_SLOTS)]
        if slot.side == OUTPUT:
            return self._craft_all([player[i] for i in _BACKWARDS])
        if slot.side == GRID:
            targets = [player[i] for i in _MAIN + _HOTBAR]
        elif slot.side == BLOCK:
            targets = [player[i] for i in _BACKWARDS]
        elif self.container is not None:
            targets = [Slot(BLOCK, i) for i in range(self.container.size)]
        else:
            targets = [player[i] for i in (_MAIN if slot.index < HOTBAR_SLOTS else _HOTBAR)]
        return self.spread(slot, targets)

    def _craft_all(self, targets: list[Slot]) -> Outcome | None:
        registry = self.tx.world.registry
        for _ in range(CRAFTING_SLOTS * 64):  # each craft takes an item from a filled cell
            made = craft(registry, self.inventory.crafting)
            if made is None:
                return None
            output, left = made
            if sum(self.room(self.at(t), output) for t in targets) < output.count:
                return None
            self.inventory.crafting[:] = left
            held = self.carried  # the output goes by the carried slot; what was carried stays
            self.inventory.carried[0] = output
            self.spread(Slot(_CURSOR, 0), targets)
            if self.carried is not None:  # cannot be: the room was counted
                return denied("no room in the inventory for the output", self.pos)
            self.inventory.carried[0] = held
        return None

    def drag(self, button: str, slots: tuple[Slot, ...]) -> Outcome | None:
        """A drag over several slots while carrying a stack (module notes)."""
        carried = self.carried
        if carried is None:
            return None
        targets: list[Slot] = []
        for slot in slots:
            fits = slot.side != OUTPUT and self.room(self.at(slot), carried) > 0
            if fits and slot not in targets:
                targets.append(slot)
        if button == LEFT:
            targets = targets[: carried.count]
        if not targets:
            return None
        each = carried.count // len(targets) if button == LEFT else 1
        cursor = Slot(_CURSOR, 0)
        for target in targets:
            went = self.give(cursor, target, each, strict=False)
            if isinstance(went, Outcome):
                return went
        return None


def click(tx: Transaction, actor: Actor, gesture: Click, container: Container | None) -> Outcome:
    """Carry out one click as ``actor`` (module notes): done, or denied with nothing changed
    by the click itself (the caller rolls back what it began)."""
    world = tx.world
    player = world.players.get(actor.name)
    if player is None:
        return denied("no player of this world is acting")
    pos = _feet(player) if container is None else container.pos
    stored: list[ItemStack | None] = []
    if container is not None:
        if tx.read(pos) == AIR:
            return denied(f"{container.title} is gone", pos)
        try:
            stored = decode_slots(world.block_data.value(pos, container.key), container.size)
        except ValueError as exc:
            return denied(f"{container.title} cannot be opened: {exc}", pos)
    menu = _Menu(tx, actor, player.inventory, container, stored, pos)
    if len(gesture.slots) > 1:
        result = menu.drag(gesture.button, gesture.slots)
    elif gesture.button == SHIFT:
        result = menu.quick_move(gesture.slots[0])
    else:
        result = menu.press(gesture.button, gesture.slots[0])
    if result is not None:
        return result
    if container is not None and menu.went:
        try:
            world.write_data(pos, container.key, encode_slots(stored))
        except ValueError as exc:  # the voxel's other data leaves no room for these slots
            return denied(f"{container.title} cannot hold that: {exc}", pos)
        error = _heard(tx, actor, menu)
        if error is not None:
            return error
    return Outcome(True, pos=pos)


def _heard(tx: Transaction, actor: Actor, menu: _Menu) -> Outcome | None:
    """The block's ``on_put`` / ``on_take`` for each stack that went, in order."""
    base = menu._callbacks_base()
    block = menu.block
    assert not isinstance(base, Outcome) and menu.container is not None and block is not None
    return heard(tx, actor, menu.container.pos, block, menu.went, base)


def _feet(player: Player) -> Int3:
    x, y, z = player.pos
    return Int3(math.floor(x), math.floor(y), math.floor(z))


def put_back(world: World, actor: Actor) -> Outcome:
    """The screen closes: the carried stack, then the grid's, go back into the actor's
    inventory (`Inventory.add`); what does not fit drops at the player's feet. ``drops`` are
    the stacks dropped."""
    player = world.players.get(actor.name)
    if player is None:
        return denied("no player of this world is acting")
    inventory = player.inventory
    pos = _feet(player)
    dropped = []
    for slots in (inventory.carried, inventory.crafting):
        for index, stack in enumerate(slots):
            if stack is None:
                continue
            slots[index] = None
            left = inventory.add(stack.item, stack.count, wear=stack.wear)
            if left:
                dropped.append(stack.with_count(left))
                drop_item(world.entities, pos, stack.with_count(left))
    return Outcome(True, pos=pos, drops=tuple(dropped))
