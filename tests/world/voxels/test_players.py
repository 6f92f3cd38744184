"""The players in a world (`world.voxels.players`): every inventory write recorded and marked,
teleports undone with the action that made them, the game's own moves not recorded."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.items.inventory import CRAFTING_SLOTS, INVENTORY_SLOTS, Inventory, ItemStack
from world.validate import WORLD_LIMIT
from world.voxels.players import MAX_PLAYERS, Player

stacks = st.none() | st.builds(
    ItemStack, st.sampled_from(["base:log", "base:dirt", "base:planks"]), st.integers(1, 64)
)
writes = st.lists(
    st.one_of(
        st.tuples(st.just("slot"), st.integers(0, INVENTORY_SLOTS - 1), stacks),
        st.tuples(st.just("grid"), st.integers(0, CRAFTING_SLOTS - 1), stacks),
        st.tuples(st.just("add"), st.sampled_from(["base:log", "base:dirt"]), st.integers(1, 99)),
        st.tuples(st.just("take"), st.integers(0, INVENTORY_SLOTS - 1), st.integers(1, 64)),
        st.tuples(
            st.just("move"),
            st.integers(0, INVENTORY_SLOTS - 1),
            st.integers(0, INVENTORY_SLOTS - 1),
        ),
    ),
    max_size=20,
)


def write(inventory: Inventory, plan: list[tuple[Any, ...]]) -> None:
    for op, a, b in plan:
        if op == "slot":
            inventory.slots[a] = b
        elif op == "grid":
            inventory.crafting[a] = b
        elif op == "add":
            inventory.add(a, b)
        elif op == "take":
            inventory.take(a, b)
        else:
            inventory.move(a, b)


def held(player: Player) -> tuple[list[ItemStack | None], list[ItemStack | None]]:
    return list(player.inventory.slots), list(player.inventory.crafting)


def joined() -> tuple[World, Player]:
    world = World(default_registry())
    player = world.players.join("ada", (0.5, 64.0, 0.5))
    return world, player


@settings(max_examples=60, deadline=None)
@given(before=writes, first=writes, second=writes)
def test_inventory_writes_inside_an_action_are_undone_by_its_rollback(
    before: list[tuple[Any, ...]], first: list[tuple[Any, ...]], second: list[tuple[Any, ...]]
) -> None:
    world, player = joined()
    write(player.inventory, before)  # outside any action: stands
    at_start = held(player)
    world.journal.begin()
    start = world.journal.mark()
    write(player.inventory, first)
    at_mark = held(player)
    mark = world.journal.mark()
    write(player.inventory, second)
    world.rollback(mark)
    assert held(player) == at_mark
    world.rollback(start)
    world.journal.end()
    assert held(player) == at_start


@settings(max_examples=60, deadline=None)
@given(plan=writes)
def test_any_write_that_changes_a_slot_marks_the_players_unsaved(
    plan: list[tuple[Any, ...]],
) -> None:
    world, player = joined()
    for step in plan:
        world.players.modified = False  # as after a save
        before = held(player)
        write(player.inventory, [step])
        assert world.players.modified == (held(player) != before), step


def test_a_slot_written_with_what_it_holds_marks_nothing() -> None:
    world, player = joined()
    player.inventory.slots[3] = ItemStack("base:log", 5)
    world.players.modified = False
    player.inventory.slots[3] = ItemStack("base:log", 5)
    player.inventory.crafting[0] = None
    assert not world.players.modified


def test_a_teleport_is_undone_with_its_action_and_counts_the_moves() -> None:
    world, player = joined()
    world.players.teleport(player, (10.0, 70.0, -3.0))
    assert player.pos == (10.0, 70.0, -3.0) and player.moves == 1 and world.players.modified
    world.journal.begin()
    mark = world.journal.mark()
    world.players.teleport(player, (100.0, 80.0, 100.0))
    world.players.teleport(player, (200.0, 80.0, 200.0))
    assert player.moves == 3
    world.rollback(mark)
    world.journal.end()
    assert player.pos == (10.0, 70.0, -3.0) and player.moves == 1


def test_the_games_own_moves_are_not_recorded_nor_counted() -> None:
    world, player = joined()
    world.players.modified = False
    world.journal.begin()
    mark = world.journal.mark()
    world.players.follow(player, (3.0, 65.0, 4.0), (0.0, -1.0, 0.0))
    world.rollback(mark)
    world.journal.end()
    assert player.pos == (3.0, 65.0, 4.0) and player.look == (0.0, -1.0, 0.0)
    assert player.moves == 0 and not world.players.modified


def test_a_player_who_left_is_no_longer_recorded() -> None:
    world, player = joined()
    world.players.leave("ada")
    world.players.modified = False
    player.inventory.slots[0] = ItemStack("base:log", 1)
    assert "ada" not in world.players and not world.players.modified


def test_a_joining_players_inventory_is_kept_and_recorded_from_then_on() -> None:
    world = World(default_registry())
    inventory = Inventory([ItemStack("base:dirt", 9)])
    player = world.players.join("ada", (0.0, 0.0, 0.0), inventory, creative=True)
    assert player.inventory is inventory and player.creative and player.held == inventory.current
    assert not world.players.modified
    inventory.add("base:dirt", 1)
    assert world.players.modified and player.eye == (0.0, player.eye_height, 0.0)


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda p: p.join("", (0.0, 0.0, 0.0)), "name"),
        (lambda p: p.join(7, (0.0, 0.0, 0.0)), "name"),
        (lambda p: p.join("bob", (0.0, math.nan, 0.0)), "pos"),
        (lambda p: p.join("bob", (float(WORLD_LIMIT), 0.0, 0.0)), "pos must lie within"),
        (lambda p: p.join("bob", (0.0, 0.0)), "pos must be 3"),
        (lambda p: p.join("ada", (0.0, 0.0, 0.0)), "'ada' is in the world already"),
        (lambda p: p.join("bob", (0.0, 0.0, 0.0), [None] * 36), "inventory"),
        (lambda p: p.teleport(p.get("ada"), (math.inf, 0.0, 0.0)), "pos"),
        (lambda p: p.follow(p.get("ada"), (0.0, 0.0, 0.0), (0.0, math.nan, 0.0)), "look"),
    ],
)
def test_a_bad_argument_is_a_value_error_naming_it(call: Any, named: str) -> None:
    world, player = joined()
    with pytest.raises(ValueError, match=named):
        call(world.players)
    assert player.pos == (0.5, 64.0, 0.5) and player.moves == 0 and len(world.players) == 1


def test_no_more_than_max_players_join() -> None:
    world = World(default_registry())
    for n in range(MAX_PLAYERS):
        world.players.join(f"p{n}", (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match=f"{MAX_PLAYERS} players"):
        world.players.join("late", (0.0, 0.0, 0.0))
    assert [p.name for p in world.players][:2] == ["p0", "p1"]
