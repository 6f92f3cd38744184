"""The player's inventory: 36 slots of stacks up to 64, hotbar first; drops; saved as data."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from world.base import default_registry
from world.blocks.block_type import BlockType
from world.items.inventory import (
    HOTBAR_SLOTS,
    INVENTORY_SLOTS,
    MAX_WEAR,
    STACK_MAX,
    Drop,
    Inventory,
    ItemStack,
    roll_drops,
)

PICK = "tools:wood_pickaxe"


def test_adding_fills_matching_stacks_first_then_empty_slots_hotbar_first() -> None:
    inv = Inventory()
    inv.put(5, ItemStack("base:dirt", 60))
    assert inv.add("base:dirt", 10) == 0
    assert inv.slots[5] == ItemStack("base:dirt", 64)
    assert inv.slots[0] == ItemStack("base:dirt", 6)  # the rest went to the first empty slot
    assert inv.count("base:dirt") == 70


def test_a_full_inventory_returns_what_did_not_fit() -> None:
    inv = Inventory()
    assert inv.add("base:stone", STACK_MAX * INVENTORY_SLOTS + 5) == 5
    assert all(s == ItemStack("base:stone", 64) for s in inv.slots)
    assert inv.add("base:dirt", 1) == 1


def test_taking_from_a_slot_empties_it_when_the_last_item_goes() -> None:
    inv = Inventory([ItemStack("base:glass", 2)])
    assert inv.take(0) == ItemStack("base:glass", 1)
    assert inv.take(0) == ItemStack("base:glass", 1)
    assert inv.slots[0] is None and inv.take(0) is None


def test_moving_a_stack_puts_down_merges_or_swaps() -> None:
    inv = Inventory([ItemStack("base:dirt", 40), ItemStack("base:dirt", 30), ItemStack("base:log")])
    inv.move(0, 1)  # merge: 30 + 34 fits 64, 6 stay behind
    assert inv.slots[1] == ItemStack("base:dirt", 64) and inv.slots[0] == ItemStack("base:dirt", 6)
    inv.move(2, 0)  # different items swap
    assert inv.slots[0] == ItemStack("base:log") and inv.slots[2] == ItemStack("base:dirt", 6)
    inv.move(0, 20)  # onto an empty slot: moves
    assert inv.slots[0] is None and inv.slots[20] == ItemStack("base:log")


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["add", "take", "move"]),
            st.sampled_from(["base:dirt", "base:stone", "mod:x"]),
            st.integers(0, 200),
            st.integers(0, INVENTORY_SLOTS - 1),
            st.integers(0, INVENTORY_SLOTS - 1),
            st.sampled_from([0, 0, 7]),
        ),
        max_size=60,
    )
)
def test_no_item_is_created_or_lost_by_any_sequence_of_actions(actions: list) -> None:  # type: ignore[type-arg]
    """Counted by item and wear: no stack of one wear ever takes in items of another."""
    inv = Inventory()
    held: dict[tuple[str, int], int] = {}
    for action, item, n, a, b, wear in actions:
        if action == "add":
            left = inv.add(item, n, wear=wear)
            held[item, wear] = held.get((item, wear), 0) + n - left
        elif action == "take":
            taken = inv.take(a, max(1, min(n, STACK_MAX)))
            if taken is not None:
                held[taken.item, taken.wear] -= taken.count
        else:
            inv.move(a, b)
        for (name, worn), count in held.items():
            kept = [s for s in inv.slots if s is not None and (s.item, s.wear) == (name, worn)]
            assert sum(s.count for s in kept) == count
        assert all(s is None or 1 <= s.count <= STACK_MAX for s in inv.slots)


def test_the_inventory_round_trips_as_data_and_bad_data_names_the_slot() -> None:
    inv = Inventory()
    inv.add("base:dirt", 70)
    inv.put(30, ItemStack("gone:ruby", 3))  # a mod that is not loaded: its items are kept
    inv.select(4)
    again = Inventory.from_data(inv.to_data())
    assert again.slots == inv.slots
    with pytest.raises(ValueError, match=r"inventory slot 2: count must be an integer 1\.\.64"):
        Inventory.from_data([None, None, ["base:dirt", 65]])
    with pytest.raises(ValueError, match=r"slot must be 0\.\.8"):
        inv.select(HOTBAR_SLOTS)


def test_blocks_declare_their_drops() -> None:
    registry = default_registry()
    assert registry["base:stone"].drops == (Drop("base:cobblestone"),)
    assert registry["base:grass"].drops == (Drop("base:dirt"),)
    assert registry["base:glass"].drops == ()
    assert registry["base:dirt"].drops is None  # itself
    with pytest.raises(ValueError, match="drops of 'mod:x' must be None or a tuple of Drop"):
        BlockType("mod:x", drops=("base:dirt",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="drop chance must be in"):
        Drop("base:dirt", chance=0.0)


def test_a_drop_with_a_chance_comes_that_often() -> None:
    rng = random.Random(5)
    sapling = (Drop("base:sapling", chance=0.05),)
    got = sum(len(roll_drops(sapling, rng)) for _ in range(20_000))
    assert 800 < got < 1200  # 5 % of 20,000 = 1,000; 4 standard deviations ≈ ±125


@pytest.mark.parametrize("wear", [-1, MAX_WEAR + 1, 1.5, True, "3"])
def test_a_stack_s_wear_is_checked_naming_it(wear: object) -> None:
    with pytest.raises(ValueError, match=rf"wear must be an integer 0\.\.{MAX_WEAR}"):
        ItemStack(PICK, 1, wear)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="wear must be an integer"):
        Inventory().add(PICK, 1, wear=wear)  # type: ignore[arg-type]


def test_stacks_of_one_item_with_different_wear_never_merge() -> None:
    inv = Inventory([ItemStack("mod:gem", 10, 3)])
    assert inv.add("mod:gem", 5) == 0  # unworn: not onto the worn stack
    assert inv.slots[:2] == [ItemStack("mod:gem", 10, 3), ItemStack("mod:gem", 5)]
    assert inv.add("mod:gem", 4, wear=3) == 0  # as worn: onto it
    assert inv.slots[0] == ItemStack("mod:gem", 14, 3)
    inv.move(1, 0)  # onto the same item worn otherwise: the two swap
    assert inv.slots[:2] == [ItemStack("mod:gem", 5), ItemStack("mod:gem", 14, 3)]
    assert inv.take(1, 4) == ItemStack("mod:gem", 4, 3)  # what is taken is as worn
    assert inv.slots[1] == ItemStack("mod:gem", 10, 3)


def test_a_worn_tool_moved_onto_another_of_its_kind_swaps_with_it() -> None:
    inv = Inventory([ItemStack(PICK, 1, 30), ItemStack(PICK, 1, 5), ItemStack(PICK, 1, 5)])
    inv.limits[PICK] = 1
    inv.move(0, 1)
    assert inv.slots[:2] == [ItemStack(PICK, 1, 5), ItemStack(PICK, 1, 30)]
    inv.move(0, 2)  # as worn as each other: one to a slot, so nothing moves (Minecraft)
    assert inv.slots[:3] == [ItemStack(PICK, 1, 5), ItemStack(PICK, 1, 30), ItemStack(PICK, 1, 5)]
    trial, left = inv.with_added([ItemStack(PICK, 1, 7)])
    assert left == 0 and trial[3] == ItemStack(PICK, 1, 7)


def test_a_worn_stack_is_saved_with_its_wear_and_data_without_wear_reads_unworn() -> None:
    inv = Inventory([ItemStack(PICK, 1, 52), ItemStack("base:dirt", 3)])
    data = inv.to_data()
    assert data[:3] == [[PICK, 1, 52], ["base:dirt", 3], None]  # wear written only when worn
    assert Inventory.from_data(data).slots == inv.slots
    old = Inventory.from_data([[PICK, 1], ["base:dirt", 3]])  # written before wear existed
    assert old.slots[0] == ItemStack(PICK, 1) and old.slots[0].wear == 0
    with pytest.raises(ValueError, match="inventory slot 1: wear must be an integer"):
        Inventory.from_data([None, [PICK, 1, -4]])
    with pytest.raises(ValueError, match=r"inventory slot 0 must be \[item name, count\]"):
        Inventory.from_data([[PICK, 1, 2, 3]])


@given(
    durability=st.integers(1, 200),
    uses=st.lists(st.integers(0, 80), max_size=12),
    worn=st.integers(0, 199),
)
def test_a_tool_breaks_on_the_use_that_brings_its_wear_to_its_durability(
    durability: int, uses: list[int], worn: int
) -> None:
    start = min(worn, durability - 1)
    inv = Inventory([ItemStack(PICK, 1, start)])
    spent = start
    for amount in uses:
        broke = inv.add_wear(0, amount, durability)
        if spent >= durability:  # broken already: the slot is empty, nothing wears
            assert not broke and inv.slots[0] is None
            continue
        spent += amount
        assert broke == (spent >= durability)
        assert inv.slots[0] == (None if broke else ItemStack(PICK, 1, spent))


def test_wear_on_a_thing_that_never_wears_or_an_empty_slot_does_nothing() -> None:
    inv = Inventory([ItemStack("base:dirt", 5)])
    assert not inv.add_wear(0, 3, 0)  # durability 0: never wears
    assert not inv.add_wear(1, 3, 59)  # an empty slot
    assert inv.slots[:2] == [ItemStack("base:dirt", 5), None]
    with pytest.raises(ValueError, match="amount must be an integer >= 0"):
        inv.add_wear(0, -1, 59)
    with pytest.raises(ValueError, match="durability must be an integer"):
        inv.add_wear(0, 1, -59)
