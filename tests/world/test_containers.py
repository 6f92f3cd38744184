"""Block inventories (`world.items.containers`) and the chests mod: slots kept in a block's data."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from world import World
from world.base import GAME
from world.geometry import Int3
from world.items.containers import (
    MAX_CONTAINER_SLOTS,
    Container,
    decode_slots,
    encode_slots,
    slots_empty,
)
from world.items.inventory import ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules
from world.voxels.block_data import MAX_DATA_BYTES

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
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
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
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
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
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
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


class Replacer:
    """A mod whose tick replaces the block at (0, 0, 0): one voxel, or in a bulk write; and
    fails afterwards when asked to (its change is then rolled back)."""

    def __init__(self) -> None:
        self.plan: list[str] = []

    @hookimpl
    def on_tick(self, world: Any) -> None:
        if not self.plan:
            return
        kind = self.plan.pop(0)
        if kind == "bulk":
            world.set_blocks([(0, 0, 0), (1, 0, 0)], "base:stone")
        else:
            world.set_block(0, 0, 0, "base:stone")
        if kind == "fail":
            raise RuntimeError("changed its mind")


def chest_world() -> tuple[World, Rules, Replacer]:
    replacer = Replacer()
    mods = load_mods(
        [DEFAULT_MODS_DIR], entry_points=False, plugins={"replacer": replacer}, game=GAME
    )
    world = World(make_registry(mods))
    return world, Rules(world, mods), replacer


def lying(world: World) -> dict[str, int]:
    total: dict[str, int] = {}
    for _, stack in world.dropped:
        total[stack.item] = total.get(stack.item, 0) + stack.count
    return total


@pytest.mark.parametrize("kind", ["one", "bulk"])
def test_a_chest_a_mod_replaces_drops_what_it_held_and_a_failed_replace_drops_nothing(
    kind: str,
) -> None:
    world, rules, replacer = chest_world()
    world.set_block(0, 0, 0, world.registry.id("chests:chest"))
    held = [ItemStack("base:log", 64), None, ItemStack("base:dirt", 3)]
    world.meta(0, 0, 0)["inventory"] = encode_slots(held)  # type: ignore[assignment]
    replacer.plan = ["fail"]
    rules.tick(0.05)
    assert world.registry.name(world.get_block(0, 0, 0)) == "chests:chest"
    assert world.dropped == [] and decode_slots(world.meta(0, 0, 0)["inventory"], 3) == held
    replacer.plan = [kind]
    rules.tick(0.05)
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:stone"
    assert lying(world) == {"base:log": 64, "base:dirt": 3}
    assert all(pos == (0, 0, 0) for pos, _ in world.dropped)
    assert not world.meta(0, 0, 0)


def test_stacks_lying_in_the_world_are_saved_with_it(tmp_path: Any) -> None:
    from world.gen.generators import make_generator
    from world.save.storage import WorldStore

    world, rules, replacer = chest_world()
    world.set_block(0, 0, 0, world.registry.id("chests:chest"))
    world.meta(0, 0, 0)["inventory"] = encode_slots([ItemStack("base:log", 7)])  # type: ignore[assignment]
    replacer.plan = ["one"]
    rules.tick(0.05)
    with WorldStore.create(tmp_path / "w.sqlite", seed=1) as store:
        store.save(world)
    with WorldStore(tmp_path / "w.sqlite", read_only=True) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        assert again.dropped == [(Int3(0, 0, 0), ItemStack("base:log", 7))]


EVENTS = ["one", "bulk", "fail", "chest", "pick"]


@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("take"), st.integers(0, 26), st.integers(1, 64)),
            st.tuples(st.just("put"), st.integers(0, 26), st.integers(1, 64)),
            st.tuples(
                st.sampled_from(["one", "bulk", "fail", "chest", "pick"]), st.just(0), st.just(0)
            ),
        ),
        max_size=30,
    )
)
def test_moves_and_replacements_in_any_order_never_lose_or_make_an_item(
    plan: list[tuple[str, int, int]],
) -> None:
    """A chest, a pocket of logs and a mod that replaces the chest (or fails to): whatever the
    order of moves, replacements and pick-ups, the logs in the chest, the pocket and lying in
    the world add up to what there was."""
    world, rules, replacer = chest_world()
    chest = world.registry.id("chests:chest")
    world.set_block(0, 0, 0, chest)
    pocket = 200

    def in_chest() -> list[ItemStack | None]:
        if world.get_block(0, 0, 0) != chest:
            return [None] * 27
        return decode_slots(world.meta(0, 0, 0).get("inventory"), 27)

    def count() -> int:
        return pocket + sum(s.count for s in in_chest() if s) + lying(world).get("base:log", 0)

    for kind, slot, n in plan:
        if kind in ("take", "put") and world.get_block(0, 0, 0) == chest:
            slots = in_chest()
            have = 0 if slots[slot] is None else slots[slot].count  # type: ignore[union-attr]
            moved = min(n, have) if kind == "take" else min(n, pocket, 64 - have)
            left = have - moved if kind == "take" else have + moved
            slots[slot] = ItemStack("base:log", left) if left else None
            value = encode_slots(slots)
            if value is None:
                world.meta(0, 0, 0).pop("inventory", None)
            else:
                world.meta(0, 0, 0)["inventory"] = value
            pocket += -moved if kind == "put" else moved
        elif kind in ("one", "bulk", "fail"):
            replacer.plan = [kind]
            rules.tick(0.05)
        elif kind == "chest" and world.get_block(0, 0, 0) != chest:
            world.set_block(0, 0, 0, chest)
        elif kind == "pick":
            pocket += lying(world).get("base:log", 0)
            world.dropped.clear()
        assert count() == 200, (kind, slot, n)


def test_slots_text_is_bounded_by_what_one_voxel_holds() -> None:
    from world.items.containers import MAX_SLOTS_TEXT

    assert MAX_SLOTS_TEXT == MAX_DATA_BYTES
