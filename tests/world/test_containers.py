"""Block inventories (`world.containers`) and the chests mod: slots kept in a block's data."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from world.block_data import MAX_DATA_BYTES
from world.chunks import World
from world.containers import (
    MAX_CONTAINER_SLOTS,
    Container,
    decode_slots,
    encode_slots,
    slots_empty,
)
from world.geometry import Int3
from world.inventory import ItemStack
from world.mod_loader import DEFAULT_MODS_DIR, load_mods
from world.outcome import Actor
from world.ray import Hit
from world.registration import make_registry
from world.rules import Rules

stacks = st.one_of(
    st.none(),
    st.builds(
        ItemStack, st.sampled_from(["base:log", "base:planks", "ores:coal_ore"]), st.integers(1, 64)
    ),
)


@given(st.lists(stacks, min_size=MAX_CONTAINER_SLOTS, max_size=MAX_CONTAINER_SLOTS))
def test_slots_written_are_read_back_as_they_were(slots: list[ItemStack | None]) -> None:
    value = encode_slots(slots)
    assert decode_slots(value, MAX_CONTAINER_SLOTS) == slots
    assert (value is None) == all(s is None for s in slots) == slots_empty(value)


@pytest.mark.parametrize(
    "value",
    [
        b"bytes",
        3,
        "not json",
        json.dumps({"a": 1}),
        json.dumps([["base:log", 0]]),
        json.dumps([["base:log"]]),
        json.dumps([None] * 28),
        json.dumps([["log", 2]]),
    ],
)
def test_data_that_is_not_slots_is_refused_and_counts_as_not_empty(value: object) -> None:
    with pytest.raises(ValueError):
        decode_slots(value, MAX_CONTAINER_SLOTS)
    assert not slots_empty(value)  # kept: a chest with it cannot be broken


def nested(depth: int) -> list[str]:
    """Slot texts nested ``depth`` lists deep in each place a slot can hold one."""
    deep = "[" * depth + "]" * depth
    return ["[" * depth, f"[{deep}]", f'[["base:log", {deep}]]', f"[[{deep}, 1]]"]


@pytest.mark.parametrize("depth", [*range(900, 1100, 3), MAX_DATA_BYTES // 2, 100_000])
def test_deeply_nested_data_is_refused_as_not_slots_and_never_breaks_the_caller(
    depth: int,
) -> None:
    for value in nested(depth):
        with pytest.raises(ValueError, match="container") as refused:
            decode_slots(value, MAX_CONTAINER_SLOTS)
        assert len(str(refused.value)) < 200  # the bad slot shown abridged: the HUD shows it
        assert not slots_empty(value)


def test_a_chest_holding_deeply_nested_data_refuses_to_break_as_not_empty() -> None:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
    world = World(make_registry(mods))
    rules = Rules(world, mods)
    world.set_block(0, 0, 0, world.registry.id("chests:chest"))
    world.meta(0, 0, 0)["inventory"] = "[" * (MAX_DATA_BYTES - 64)
    actor = Actor.at("alex", (0.5, 1.0, 3.5), look=(0, 0, -1))
    hit = Hit(Int3(0, 0, 0), Int3(0, 0, 1), 1.0, (0.5, 0.5, 1.0), world.get_block(0, 0, 0))
    refused = rules.break_block(hit, actor)
    assert not refused.done and refused.reason == "the chest is not empty"
    assert not mods.errors  # the chest's can_break refused; it did not fail


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"size": 0}, "size"),
        ({"size": 28}, "size"),
        ({"size": True}, "size"),
        ({"title": 3}, "title"),
        ({"key": ""}, "key"),
    ],
)
def test_a_bad_container_is_refused_naming_what_is_wrong(
    kwargs: dict[str, object], named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        Container((0, 0, 0), **kwargs)  # type: ignore[arg-type]


def test_a_chest_opens_for_its_player_and_is_kept_while_it_holds_anything() -> None:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
    world = World(make_registry(mods))
    rules = Rules(world, mods)
    world.set_block(0, 0, 0, world.registry.id("chests:chest"))
    opened: list[Container] = []
    actor = Actor.at("alex", (0.5, 1.0, 3.5), look=(0, 0, -1))
    hit = Hit(Int3(0, 0, 0), Int3(0, 0, 1), 1.0, (0.5, 0.5, 1.0), world.get_block(0, 0, 0))
    assert rules.use_block(hit, actor).used  # no screen: nothing opens, nothing fails
    assert rules.use_block(hit, replace(actor, opener=opened.append)).used
    assert opened == [Container(Int3(0, 0, 0), "Chest", 27, "inventory")]
    world.meta(0, 0, 0)["inventory"] = encode_slots([ItemStack("base:log", 5)])  # type: ignore[assignment]
    refused = rules.break_block(hit, actor)
    assert not refused.done and refused.reason == "the chest is not empty"
    del world.meta(0, 0, 0)["inventory"]
    assert rules.break_block(hit, actor).done


def test_a_chest_in_someone_else_s_area_opens_only_for_its_owner() -> None:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False)
    world = World(make_registry(mods))
    rules = Rules(world, mods)
    protection = mods["protection"].plugin
    protection.protect(world, "vault", (-2, -2, -2), (2, 2, 2), owner="alex")  # type: ignore[attr-defined]
    world.set_block(0, 0, 0, world.registry.id("chests:chest"))
    world.set_block(1, 0, 0, world.registry.id("base:lamp"))
    opened: list[Container] = []

    def click(name: str, x: int) -> Any:
        actor = replace(Actor.at(name, (0.5, 1.0, 3.5), look=(0, 0, -1)), opener=opened.append)
        hit = Hit(Int3(x, 0, 0), Int3(0, 0, 1), 1.0, (x + 0.5, 0.5, 1.0), world.get_block(x, 0, 0))
        return rules.use_block(hit, actor)

    refused = click("steve", 0)
    assert not refused.done and refused.reason == "vault belongs to alex" and opened == []
    assert click("alex", 0).used and len(opened) == 1
    assert click("steve", 1).used  # a lamp is not a container: anyone may switch it
