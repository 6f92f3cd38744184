"""Items, drops and the player's inventory: stacks of up to 64 in 36 slots, the hotbar first.

Contract
--------
- An *item* is named like the block it places (``"base:stone"``): every block has its item, and
  placing it puts the block's default state (its ``placement_state`` may choose another, as a
  slab's half). Items that are not blocks (tools: a hoe) are `world.items.item.Item` s; their stacks
  hold at most their ``stack_max`` (`Inventory.limits`).
- A block's drops (`world.blocks.block_type.BlockType.drops`): ``None`` drops its own item, ``()``
  nothing (glass), else a tuple of `Drop` (stone drops cobblestone; leaves a sapling one time in
  twenty, Minecraft's rate). A block's ``get_drops`` callback may decide instead.
- `Inventory`: 36 slots, slot 0..8 the hotbar (Minecraft's layout), each empty or an `ItemStack`
  of 1..`STACK_MAX` items. `Inventory.add` fills stacks of the same item first, hotbar first, then
  empty slots, and returns what did not fit; `take` removes from one slot; `move` moves one
  slot's stack onto another (put down, merge or swap), `moved` is its rule for any two cells;
  `add_wear` spends a tool's uses, and breaks it when none is left.
- ``carried``: the stack the mouse carries on the inventory screen (Minecraft's cursor stack), a
  one-slot `Slots`; the screen's clicks move stacks through it (`world.actions.slot_clicks`).
- Its slots, crafting grid and carried stack are `Slots`: lists of a fixed length whose every
  write goes through one recorder (``Slots.recorder``, set by the world that holds the inventory:
  `world.voxels.players`), so a change made inside an action is undone with it and every change
  marks the player for saving, whoever made it (a mod, the rules, the game's screens).
- A stack's ``wear`` is how many uses of a tool it has spent (Minecraft's damage, Luanti's
  wear; `world.items.item.Item.durability`): 0 for a new tool and for every stack of a thing that
  never wears. Stacks of the same item with different wear are different things: they never
  merge (`ItemStack.stacks_with`: `Inventory.add`, `Inventory.moved`, and every move of the
  inventory screen's, a container's and the world's stacks), and every path a stack takes keeps
  its wear (`ItemStack.with_count` rebuilds a stack with another count).
- Saved with the player as JSON-ready data (`Inventory.to_data` / `Inventory.from_data`); item
  names a run no longer knows are kept as they are, so removing a mod loses no item. A slot is
  ``[item, count]``, or ``[item, count, wear]`` for a worn stack (`ItemStack.to_data`), so data
  written before wear existed reads as it was, every stack unworn (Luanti's item string, too,
  puts the wear third and leaves it out at 0).
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, SupportsIndex, overload

__all__ = [
    "CRAFTING_SLOTS",
    "HOTBAR_SLOTS",
    "INVENTORY_SLOTS",
    "MAX_WEAR",
    "STACK_MAX",
    "Drop",
    "Inventory",
    "ItemStack",
    "Slots",
    "roll_drops",
    "stacks_from_data",
]

STACK_MAX = 64
HOTBAR_SLOTS = 9
INVENTORY_SLOTS = HOTBAR_SLOTS + 27
CRAFTING_SLOTS = 9  # the crafting grid's 3×3 (`world.items.crafting.GRID_CELLS`)
# The most uses a tool may have (`world.items.item.Item.durability`), and so a stack's most wear:
# Luanti keeps wear in 16 bits; Minecraft's most durable tool, netherite, has 2031 uses.
MAX_WEAR = 65535


def _check_item(item: object, what: str = "item") -> str:
    if not isinstance(item, str) or ":" not in item or not item.strip():
        raise ValueError(f"{what} must be an item name 'mod:name', got {item!r}")
    return item


def _check_count(count: object, what: str = "count", top: int = STACK_MAX) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= top:
        raise ValueError(f"{what} must be an integer 1..{top}, got {count!r}")
    return count


def _check_wear(wear: object, what: str = "wear") -> int:
    if isinstance(wear, bool) or not isinstance(wear, int) or not 0 <= wear <= MAX_WEAR:
        raise ValueError(f"{what} must be an integer 0..{MAX_WEAR}, got {wear!r}")
    return wear


@dataclass(frozen=True)
class ItemStack:
    """``count`` items of one kind in one slot (1..`STACK_MAX`), worn by ``wear`` uses (a
    tool's: `world.items.item.Item.durability`; 0..`MAX_WEAR`, 0 for anything unworn)."""

    item: str
    count: int = 1
    wear: int = 0

    def __post_init__(self) -> None:
        _check_item(self.item)
        _check_count(self.count)
        _check_wear(self.wear)

    def stacks_with(self, other: ItemStack | None) -> bool:
        """Whether ``other`` is the same thing, so the two may merge: the same item, the same
        wear (module notes)."""
        return other is not None and other.item == self.item and other.wear == self.wear

    def with_count(self, count: int) -> ItemStack:
        """This stack with another count, its wear kept."""
        return ItemStack(self.item, count, self.wear)

    def to_data(self) -> list[str | int]:
        """JSON-ready: ``[item, count]``, or ``[item, count, wear]`` when it is worn."""
        return [self.item, self.count, self.wear] if self.wear else [self.item, self.count]


@dataclass(frozen=True)
class Drop:
    """What breaking a block may give: ``count`` of ``item``, with probability ``chance``."""

    item: str
    count: int = 1
    chance: float = 1.0

    def __post_init__(self) -> None:
        _check_item(self.item, "drop item")
        _check_count(self.count, "drop count")
        chance = self.chance
        if isinstance(chance, bool) or not isinstance(chance, int | float) or not 0 < chance <= 1:
            raise ValueError(f"drop chance must be in (0, 1], got {chance!r}")


def roll_drops(drops: Sequence[Drop], rng: random.Random) -> list[ItemStack]:
    """The stacks a break gives: each drop kept with its chance."""
    return [ItemStack(d.item, d.count) for d in drops if d.chance >= 1.0 or rng.random() < d.chance]


Recorder = Callable[["Slots", int, "ItemStack | None"], object]


class Slots(list[ItemStack | None]):
    """A fixed number of slots, each an `ItemStack` or ``None``, whose writes are recorded.

    Writing a slot (``slots[i] = stack``, ``slots[:] = stacks`` of the same length) checks the
    stacks, then calls ``recorder(slots, index, old)`` once per slot that changes, *before* the
    write (an undo log keeps the old stack: `world.voxels.players`). The length never changes:
    ``append``, ``del`` and their kin raise ``TypeError``.
    """

    recorder: Recorder | None = None

    @overload
    def __setitem__(self, index: SupportsIndex, value: ItemStack | None) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[ItemStack | None]) -> None: ...

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, slice):
            positions = range(*index.indices(len(self)))
            stacks = list(value)
            if len(stacks) != len(positions):
                raise ValueError(
                    f"slots: {len(stacks)} stacks for {len(positions)} slots (the length is fixed)"
                )
            for i, stack in zip(positions, stacks, strict=True):
                self._write(i, stack)
            return
        i = index.__index__()
        if not -len(self) <= i < len(self):
            raise IndexError(f"slot {i} is out of range 0..{len(self) - 1}")
        self._write(i % len(self), value)

    def _write(self, i: int, stack: object) -> None:
        if stack is not None and not isinstance(stack, ItemStack):
            raise ValueError(f"slot {i} must hold an ItemStack or None, got {stack!r}")
        old = list.__getitem__(self, i)
        if old == stack:
            return
        if self.recorder is not None:
            self.recorder(self, i, old)
        list.__setitem__(self, i, stack)

    def restore(self, i: int, stack: ItemStack | None) -> None:
        """Put back a slot's old stack (an undo: not recorded)."""
        list.__setitem__(self, i, stack)

    def _fixed(self, *args: object) -> NoReturn:
        raise TypeError("slots have a fixed length: write slots[i] instead")

    append = extend = insert = pop = remove = clear = sort = reverse = _fixed  # type: ignore[assignment]
    __delitem__ = __iadd__ = __imul__ = _fixed


def _slots(stacks: Iterable[ItemStack | None], size: int) -> Slots:
    items = list(stacks)[:size]
    for i, stack in enumerate(items):
        if stack is not None and not isinstance(stack, ItemStack):
            raise ValueError(f"slot {i} must hold an ItemStack or None, got {stack!r}")
    return Slots(items + [None] * (size - len(items)))


class Inventory:
    """The player's 36 slots (hotbar first) and the selected hotbar slot."""

    def __init__(self, stacks: Iterable[ItemStack | None] = ()) -> None:
        self.slots = _slots(stacks, INVENTORY_SLOTS)
        self.selected = 0
        # Items stacking to fewer than STACK_MAX (tools: 1), by name; `add` and `move` keep to it.
        self.limits: dict[str, int] = {}
        # The crafting grid's stacks, 3×3 (`world.items.crafting`; the inventory screen puts them
        # there and back): part of the inventory, so a save holds them (`saved_slots`).
        self.crafting = _slots((), CRAFTING_SLOTS)
        # The stack the mouse carries on the inventory screen (one slot): saved as the grid is.
        self.carried = _slots((), 1)

    def record_with(self, recorder: Recorder | None) -> None:
        """Send every write of the slots, the crafting grid and the carried stack to
        ``recorder`` (`Slots`)."""
        self.slots.recorder = recorder
        self.crafting.recorder = recorder
        self.carried.recorder = recorder

    def stack_max(self, item: str) -> int:
        """How many of ``item`` one slot holds."""
        return self.limits.get(item, STACK_MAX)

    def __iter__(self) -> Iterator[ItemStack | None]:
        return iter(self.slots)

    def _slot(self, slot: object) -> int:
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < INVENTORY_SLOTS:
            raise ValueError(f"slot must be an integer 0..{INVENTORY_SLOTS - 1}, got {slot!r}")
        return slot

    @property
    def hotbar(self) -> list[ItemStack | None]:
        """The nine hotbar slots (a copy)."""
        return self.slots[:HOTBAR_SLOTS]

    @property
    def current(self) -> ItemStack | None:
        """The selected hotbar slot's stack."""
        return self.slots[self.selected]

    def select(self, slot: int) -> None:
        """Select a hotbar slot, 0..8."""
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < HOTBAR_SLOTS:
            raise ValueError(f"slot must be 0..{HOTBAR_SLOTS - 1}, got {slot!r}")
        self.selected = slot

    def count(self, item: str) -> int:
        """How many of `item` the inventory holds."""
        return sum(s.count for s in self.slots if s is not None and s.item == item)

    def add(self, item: str, count: int = 1, *, wear: int = 0) -> int:
        """Add items: onto stacks of the same item (and ``wear``) first, then into empty slots,
        hotbar first. A stack that already exists goes in as
        ``add(stack.item, stack.count, wear=stack.wear)``: its wear is kept.

        Returns
        -------
        int
            The number that did not fit (0 when all did).
        """
        _check_item(item)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"count must be an integer >= 0, got {count!r}")
        _check_wear(wear)
        left, top = count, self.stack_max(item)
        for i, stack in enumerate(self.slots):
            if left and stack is not None and stack.item == item and stack.wear == wear:
                moved = min(left, top - stack.count)
                if moved > 0:
                    self.slots[i] = stack.with_count(stack.count + moved)
                    left -= moved
        for i, stack in enumerate(self.slots):
            if left and stack is None:
                moved = min(left, top)
                self.slots[i] = ItemStack(item, moved, wear)
                left -= moved
        return left

    def take(self, slot: int, count: int = 1) -> ItemStack | None:
        """Remove up to `count` items from a slot; what was removed (None from an empty slot)."""
        slot = self._slot(slot)
        _check_count(count, top=STACK_MAX)
        stack = self.slots[slot]
        if stack is None:
            return None
        taken = min(count, stack.count)
        rest = stack.count - taken
        self.slots[slot] = stack.with_count(rest) if rest else None
        return stack.with_count(taken)

    def add_wear(self, slot: int, amount: int, durability: int) -> bool:
        """Spend ``amount`` uses of the tool in ``slot``, whose item lasts ``durability`` uses
        (`world.items.item.Item.durability`; 0: it never wears, and nothing happens). Its wear
        grows by ``amount``; once it reaches ``durability`` the tool breaks: one item goes
        (Minecraft's ``hurtAndBreak``; a tool stacks to one, so the slot empties). Returns
        whether it broke (False for an empty slot)."""
        slot = self._slot(slot)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ValueError(f"amount must be an integer >= 0, got {amount!r}")
        durability = _check_wear(durability, "durability")
        stack = self.slots[slot]
        if stack is None or durability == 0 or amount == 0:
            return False
        wear = stack.wear + amount
        if wear < durability:
            self.slots[slot] = ItemStack(stack.item, stack.count, wear)
            return False
        self.slots[slot] = ItemStack(stack.item, stack.count - 1) if stack.count > 1 else None
        return True

    def put(self, slot: int, stack: ItemStack | None) -> ItemStack | None:
        """Set a slot (the creative picker); returns what the slot held."""
        slot = self._slot(slot)
        if stack is not None and not isinstance(stack, ItemStack):
            raise ValueError(f"stack must be an ItemStack or None, got {stack!r}")
        old, self.slots[slot] = self.slots[slot], stack
        return old

    def move(self, source: int, target: int) -> None:
        """Move the source stack onto the target slot (`moved`'s rule, a left click's).

        Onto an empty slot it moves; onto the same item (and wear: `ItemStack.stacks_with`) it
        merges as much as fits (the rest stays in the source); onto anything else the two stacks
        swap.
        """
        source, target = self._slot(source), self._slot(target)
        if source != target:
            moving, there = self.slots[source], self.slots[target]
            self.slots[source], self.slots[target] = self.moved(moving, there)

    def moved(
        self, moving: ItemStack | None, there: ItemStack | None
    ) -> tuple[ItemStack | None, ItemStack | None]:
        """What a move leaves (in the source, in the target) moving ``moving`` onto ``there``
        (`move`'s rule, for any two cells: `world.actions.containers.move`'s too)."""
        if moving is None:
            return None, there
        if there is None:
            return None, moving
        if not there.stacks_with(moving):
            return there, moving
        moved = max(0, min(moving.count, self.stack_max(there.item) - there.count))
        rest = moving.count - moved
        return (moving.with_count(rest) if rest else None), there.with_count(there.count + moved)

    def saved_slots(self) -> list[ItemStack | None]:
        """The slots as a save keeps them: with the carried stack and the crafting grid's stacks
        put back into them, as closing the screen puts them (what would not fit is left out:
        closing drops it into the world, `world.actions.slot_clicks.put_back`)."""
        slots, _ = self.with_added([*self.carried, *self.crafting])
        return slots

    def with_added(self, stacks: Iterable[ItemStack | None]) -> tuple[list[ItemStack | None], int]:
        """The slots as they would be with ``stacks`` added (as `add` adds), and how many items
        would not fit; the inventory itself is not changed."""
        trial = Inventory(self.slots)
        trial.limits = dict(self.limits)
        left = sum(
            trial.add(stack.item, stack.count, wear=stack.wear)
            for stack in stacks
            if stack is not None
        )
        return trial.slots, left

    def to_data(self) -> list[list[str | int] | None]:
        """JSON-ready: per slot ``None`` or `ItemStack.to_data`'s ``[item, count]`` (``[item,
        count, wear]`` for a worn stack)."""
        return [None if s is None else s.to_data() for s in self.slots]

    @classmethod
    def from_data(cls, data: object) -> Inventory:
        """An inventory from `to_data`'s output; ``ValueError`` naming the bad slot."""
        return cls(stacks_from_data(data, INVENTORY_SLOTS, "inventory"))


def stacks_from_data(data: object, size: int, what: str) -> list[ItemStack | None]:
    """Stacks from JSON-ready data (per slot ``[item, count]``, ``[item, count, wear]`` or
    ``None``: `ItemStack.to_data`), at most ``size``.

    Raises
    ------
    ValueError
        Naming ``what`` and the bad slot, shown abridged (`reprlib`): data read from a file may
        be nested deeper than a full ``repr`` can go.
    """
    if not isinstance(data, list) or len(data) > size:
        raise ValueError(f"{what} must be a list of at most {size} slots")
    stacks: list[ItemStack | None] = []
    for i, slot in enumerate(data):
        if slot is None:
            stacks.append(None)
            continue
        if (
            not isinstance(slot, list)
            or len(slot) not in (2, 3)
            or not isinstance(slot[0], str)
            or not all(isinstance(v, int) for v in slot[1:])
        ):
            raise ValueError(
                f"{what} slot {i} must be [item name, count], [item name, count, wear] or "
                f"null, got {reprlib.repr(slot)}"
            )
        try:
            stacks.append(ItemStack(*slot))
        except ValueError as exc:
            raise ValueError(f"{what} slot {i}: {exc}") from None
    return stacks
