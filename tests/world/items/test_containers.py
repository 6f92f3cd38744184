"""Block inventories (`world.items.containers`) and the chests mod: slots kept in a block's data."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.actions.containers import BLOCK, PLAYER, Slot
from world.base import GAME
from world.blocks.entity_type import ITEM_ENTITY
from world.geometry import Int3
from world.items.containers import (
    MAX_CONTAINER_SLOTS,
    Container,
    decode_slots,
    encode_slots,
    slots_empty,
)
from world.items.inventory import INVENTORY_SLOTS, ItemStack
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
    st.builds(ItemStack, st.just("tools:wood_pickaxe"), st.just(1), st.integers(0, 58)),  # worn
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


def test_a_chest_opens_for_its_player_and_breaks_spilling_what_it_holds() -> None:
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
    assert rules.break_block(hit, actor).done  # Minecraft's chest: it breaks, its stacks drop
    lying = sorted((e.data["item"], e.data["count"]) for e in world.entities)
    assert lying == [("base:log", 5), ("chests:chest", 1)]


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
    """The stacks lying in the world (``builtin:item`` entities): item -> total count."""
    total: dict[str, int] = {}
    for entity in world.entities:
        if entity.kind == ITEM_ENTITY.name:
            item, count = entity.data["item"], entity.data["count"]
            assert isinstance(item, str) and isinstance(count, int)
            total[item] = total.get(item, 0) + count
    return total


def pick_up_all(world: World) -> None:
    for entity in world.entities:
        if entity.kind == ITEM_ENTITY.name:
            world.entities.remove(entity)


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
    assert lying(world) == {} and decode_slots(world.meta(0, 0, 0)["inventory"], 3) == held
    replacer.plan = [kind]
    rules.tick(0.05)
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:stone"
    assert lying(world) == {"base:log": 64, "base:dirt": 3}
    # At the voxel they fell from: its column's centre, in its chunk.
    assert all((e.pos[0], e.pos[2], e.chunk) == (0.5, 0.5, (0, 0, 0)) for e in world.entities)
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
        assert lying(again) == {}  # until their chunk is read
        again.chunk(0, 0, 0)
        assert lying(again) == {"base:log": 7}


EVENTS = ["one", "bulk", "fail", "chest", "pick"]


@settings(deadline=None)  # each step is a tick of the rules: a busy machine takes its time
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
            pick_up_all(world)
        assert count() == 200, (kind, slot, n)


def test_slots_text_is_bounded_by_what_one_voxel_holds() -> None:
    from world.items.containers import MAX_SLOTS_TEXT

    assert MAX_SLOTS_TEXT == MAX_DATA_BYTES


# -- moves through the rules: Rules.move_items (world.actions.containers) ------------------------

CHEST_AT = Int3(0, 0, 0)
LOGS = ItemStack("base:log", 20)


def pocket_with(*stacks: tuple[int, ItemStack]) -> list[ItemStack | None]:
    """An inventory's 36 slots holding the given stacks."""
    slots: list[ItemStack | None] = [None] * INVENTORY_SLOTS
    for slot, stack in stacks:
        slots[slot] = stack
    return slots


def chest_slots(world: World, at: Int3 = CHEST_AT) -> list[ItemStack | None]:
    return decode_slots(world.meta(*at).get("inventory"), MAX_CONTAINER_SLOTS)


def counted(*groups: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for group in groups:
        for stack in group:
            if stack is not None:
                total[stack.item] = total.get(stack.item, 0) + stack.count
    return total


def test_a_move_into_a_chest_writes_its_slots_and_gives_back_the_inventory_after_it() -> None:
    world, rules, _ = chest_world()
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    chest = Container(CHEST_AT, "Chest", 27)
    pocket = pocket_with((9, LOGS))
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    put = rules.move_items(alex, chest, Slot(PLAYER, 9), Slot(BLOCK, 3), pocket)
    assert put.done and put.pos == CHEST_AT
    assert put.inventory is not None and put.inventory[9] is None
    assert chest_slots(world)[3] == LOGS
    assert pocket[9] == LOGS  # the rules changed a copy: the caller takes `put.inventory`
    within = rules.move_items(alex, chest, Slot(BLOCK, 3), Slot(BLOCK, 0), put.inventory)
    assert within.done and within.inventory is None  # the player's slots were not touched
    assert chest_slots(world)[:4] == [LOGS, None, None, None]
    back = rules.move_items(alex, chest, Slot(BLOCK, 0), Slot(PLAYER, 0), put.inventory)
    assert back.done and back.inventory is not None and back.inventory[0] == LOGS
    assert "inventory" not in world.meta(*CHEST_AT)  # empty slots leave no data


def test_a_worn_tool_in_a_chest_keeps_its_wear_through_a_save_and_swaps_with_another(
    tmp_path: Any,
) -> None:
    from world.gen.generators import make_generator
    from world.save.storage import WorldStore

    world, rules, _ = chest_world()
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    chest = Container(CHEST_AT, "Chest", 27)
    worn, other = ItemStack("tools:wood_pickaxe", 1, 52), ItemStack("tools:wood_pickaxe", 1, 3)
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    put = rules.move_items(alex, chest, Slot(PLAYER, 0), Slot(BLOCK, 4), pocket_with((0, worn)))
    assert put.done and chest_slots(world)[4] == worn
    with WorldStore.create(tmp_path / "w.sqlite", seed=1) as store:
        store.save(world)
    with WorldStore(tmp_path / "w.sqlite", read_only=True) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        again.chunk(0, 0, 0)
        assert chest_slots(again)[4] == ItemStack("tools:wood_pickaxe", 1, 52)
    swap = rules.move_items(alex, chest, Slot(PLAYER, 1), Slot(BLOCK, 4), pocket_with((1, other)))
    assert swap.done and chest_slots(world)[4] == other  # not merged: the two swapped
    assert swap.inventory is not None and swap.inventory[1] == worn


def test_a_protected_chest_refuses_a_stranger_s_move_and_its_owner_moves() -> None:
    """The protection mod's ``can_use`` refuses a stranger at a container in an area: asked
    for every move too, so a chest opened before the area was set (or by another mod's screen)
    keeps its stacks."""
    world, rules, _ = chest_world()
    protection = rules.mods["protection"].plugin  # type: ignore[index]
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    world.meta(*CHEST_AT)["inventory"] = encode_slots([ItemStack("base:dirt", 5)])  # type: ignore[assignment]
    protection.protect(world, "vault", (-2, -2, -2), (2, 2, 2), owner="alex")  # type: ignore[attr-defined]
    chest = Container(CHEST_AT, "Chest", 27)
    pocket = pocket_with((9, LOGS))
    steve = Actor.at("steve", (0.5, 1.0, 3.5))
    for source, target in [
        (Slot(PLAYER, 9), Slot(BLOCK, 3)),  # put
        (Slot(BLOCK, 0), Slot(PLAYER, 0)),  # take
        (Slot(BLOCK, 0), Slot(BLOCK, 1)),  # within
        (Slot(PLAYER, 9), Slot(BLOCK, 0)),  # swap
    ]:
        refused = rules.move_items(steve, chest, source, target, pocket)
        assert not refused.done and refused.reason == "vault belongs to alex"
        assert refused.denied_by == "protection" and refused.inventory is None
        assert chest_slots(world)[:4] == [ItemStack("base:dirt", 5), None, None, None]
    alex = replace(steve, name="alex")
    assert rules.move_items(alex, chest, Slot(BLOCK, 0), Slot(PLAYER, 0), pocket).done
    assert "inventory" not in world.meta(*CHEST_AT)


class Box:
    """A mod with one block, ``box:box`` (a container of 27 slots), whose inventory callbacks
    the test sets, and which records what they were told."""

    def __init__(self) -> None:
        self.allow: dict[str, Any] = {}  # callback name -> what it returns (or raises)
        self.heard: list[tuple[str, Any, ItemStack]] = []

    def _allow(self, kind: str) -> Any:
        def allow(stack: ItemStack, world: Any) -> Any:
            answer = self.allow.get(kind)
            if isinstance(answer, BaseException):
                raise answer
            return stack.count if answer is None else answer

        return allow

    def _on(self, kind: str) -> Any:
        def on(world: Any, pos: Int3, key: str, stack: ItemStack, **slots: int) -> None:
            self.heard.append((kind, slots, stack))
            if kind in self.allow:  # a failing callback: its own write goes back with it
                world.meta(*pos)["note"] = "heard"
                raise RuntimeError(f"{kind} failed")

        def on_slot(world: Any, pos: Int3, key: str, index: int, stack: ItemStack) -> None:
            on(world, pos, key, stack, index=index)

        def on_move(
            world: Any, pos: Int3, key: str, from_index: int, to_index: int, stack: ItemStack
        ) -> None:
            on(world, pos, key, stack, from_index=from_index, to_index=to_index)

        return on_move if kind == "on_move" else on_slot

    @hookimpl
    def register_blocks(self, registry: Any) -> None:
        from world.blocks.block_type import BlockType

        callbacks = {
            name: self._allow(name) for name in ("allow_put", "allow_take", "allow_move")
        } | {name: self._on(name) for name in ("on_put", "on_take", "on_move")}
        registry.register(BlockType("box:box", containers=("inventory",), **callbacks))


def box_world() -> tuple[World, Rules, Box]:
    box = Box()
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins={"box": box}, game=GAME)
    world = World(make_registry(mods))
    world.set_block(*CHEST_AT, world.registry.id("box:box"))
    return world, Rules(world, mods), box


BOX = Container(CHEST_AT, "Box", 27)


def test_a_block_s_allow_callbacks_decide_how_many_go_and_its_on_callbacks_hear_what_went() -> None:
    world, rules, box = box_world()
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    pocket = pocket_with((9, LOGS), (10, ItemStack("base:dirt", 3)))
    box.allow["allow_put"] = 5
    put = rules.move_items(alex, BOX, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket)
    assert put.done and put.inventory is not None
    assert put.inventory[9] == ItemStack("base:log", 15)  # five went, the rest stayed
    assert chest_slots(world)[0] == ItemStack("base:log", 5)
    assert box.heard == [("on_put", {"index": 0}, ItemStack("base:log", 5))]
    box.allow["allow_put"] = 0
    refused = rules.move_items(alex, BOX, Slot(PLAYER, 9), Slot(BLOCK, 0), put.inventory)
    assert not refused.done and refused.reason == "box will not take log"
    assert refused.denied_by == "box" and refused.inventory is None
    box.allow["allow_put"] = "the box is sealed"  # a reason refuses, shown as it is
    sealed = rules.move_items(alex, BOX, Slot(PLAYER, 9), Slot(BLOCK, 1), put.inventory)
    assert not sealed.done and sealed.reason == "the box is sealed"
    box.allow["allow_put"] = 99  # more than the stack: all of it
    box.allow["allow_take"] = 2
    swap = rules.move_items(alex, BOX, Slot(PLAYER, 10), Slot(BLOCK, 0), put.inventory)
    assert not swap.done and swap.reason == "box will not give up log"  # a swap is whole stacks
    took = rules.move_items(alex, BOX, Slot(BLOCK, 0), Slot(PLAYER, 9), put.inventory)
    assert (
        took.done and took.inventory is not None and took.inventory[9] == ItemStack("base:log", 17)
    )
    box.allow["allow_move"] = 1
    within = rules.move_items(alex, BOX, Slot(BLOCK, 0), Slot(BLOCK, 5), took.inventory)
    assert within.done and chest_slots(world)[0] == ItemStack("base:log", 2)
    assert box.heard[-2:] == [
        ("on_take", {"index": 0}, ItemStack("base:log", 2)),
        ("on_move", {"from_index": 0, "to_index": 5}, ItemStack("base:log", 1)),
    ]
    assert chest_slots(world)[5] == ItemStack("base:log", 1)
    assert not rules.mods.errors  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("failing", "source", "target"),
    [
        ("on_move", Slot(BLOCK, 0), Slot(BLOCK, 4)),
        ("on_put", Slot(PLAYER, 9), Slot(BLOCK, 0)),  # a merge onto the box's logs
        ("on_take", Slot(BLOCK, 0), Slot(PLAYER, 20)),
        ("on_take", Slot(PLAYER, 10), Slot(BLOCK, 0)),  # a swap: the put is heard, then this
    ],
)
def test_a_raising_on_callback_rolls_the_whole_move_back(
    failing: str, source: Slot, target: Slot
) -> None:
    world, rules, box = box_world()
    world.meta(*CHEST_AT)["inventory"] = encode_slots([ItemStack("base:log", 7)])  # type: ignore[assignment]
    before_data = dict(world.meta(*CHEST_AT))
    pocket = pocket_with((9, LOGS), (10, ItemStack("base:dirt", 3)))
    before = counted(pocket, chest_slots(world))
    box.allow[failing] = True
    failed = rules.move_items(Actor.at("alex", (0.5, 1.0, 3.5)), BOX, source, target, pocket)
    assert not failed.done and failed.denied_by == "box"
    assert f"failed in {failing} of box:box" in failed.reason
    assert failed.inventory is None  # the player's slots stay as they were: the caller's
    assert dict(world.meta(*CHEST_AT)) == before_data  # the box's slots and the note went back
    assert counted(pocket, chest_slots(world)) == before  # no item lost or made
    assert [kind for kind, *_ in box.heard][-1] == failing


def test_a_block_callback_answering_nonsense_is_the_mod_s_error_and_nothing_moves() -> None:
    world, rules, box = box_world()
    box.allow["allow_put"] = 2.5
    pocket = pocket_with((9, LOGS))
    failed = rules.move_items(
        Actor.at("alex", (0.5, 1.0, 3.5)), BOX, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket
    )
    assert not failed.done and "allow_put of box:box" in failed.reason
    assert "expected a count of items" in failed.reason
    assert "inventory" not in world.meta(*CHEST_AT)


def test_a_move_s_built_in_rules_refuse_what_cannot_be_moved() -> None:
    world, rules, _ = chest_world()
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    chest = Container(CHEST_AT, "Chest", 27)
    pocket = pocket_with((9, LOGS))
    gone = rules.move_items(alex, chest, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket)
    assert not gone.done and gone.reason == "Chest is gone"  # air: nothing holds the slots
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    empty = rules.move_items(alex, chest, Slot(BLOCK, 2), Slot(PLAYER, 0), pocket)
    assert not empty.done and empty.reason == "nothing to move"
    world.meta(*CHEST_AT)["inventory"] = "not slots"
    unread = rules.move_items(alex, chest, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket)
    assert not unread.done and unread.reason.startswith("Chest cannot be opened")
    assert world.meta(*CHEST_AT)["inventory"] == "not slots"  # never written over
    world.meta(*CHEST_AT)["inventory"] = encode_slots([ItemStack("base:log", 64)])  # type: ignore[assignment]
    full = rules.move_items(alex, chest, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket)
    assert full.done and full.inventory is None  # onto a full stack: nothing moves


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("chest", Slot(PLAYER, 0), Slot(BLOCK, 0), "pocket"), "container"),
        ((BOX, (PLAYER, 0), Slot(BLOCK, 0), "pocket"), "source"),
        ((BOX, Slot(PLAYER, 36), Slot(BLOCK, 0), "pocket"), "source"),
        ((BOX, Slot(PLAYER, 0), Slot(BLOCK, 27), "pocket"), "target"),
        ((BOX, Slot(PLAYER, 0), Slot("hand", 0), "pocket"), "target"),
        ((BOX, Slot(PLAYER, 0), Slot(PLAYER, 1), "pocket"), "block"),
        ((BOX, Slot(BLOCK, 1), Slot(BLOCK, 1), "pocket"), "two slots"),
        ((BOX, Slot(PLAYER, 0), Slot(BLOCK, 0), [None] * 3), "inventory"),
        ((BOX, Slot(PLAYER, 0), Slot(BLOCK, 0), ["base:log"] * 36), "slot 0"),
    ],
)
def test_a_bad_move_is_refused_naming_what_is_wrong(args: tuple[Any, ...], named: str) -> None:
    world, rules, _ = box_world()
    *rest, inventory = args
    inventory = pocket_with() if inventory == "pocket" else inventory
    with pytest.raises(ValueError, match=named):
        rules.move_items(Actor.at("alex", (0.5, 1.0, 3.5)), *rest, inventory)
    assert "inventory" not in world.meta(*CHEST_AT)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [Slot(PLAYER, i) for i in (0, 9, 10, 35)] + [Slot(BLOCK, i) for i in (0, 1, 26)]
            ),
            st.sampled_from(
                [Slot(PLAYER, i) for i in (0, 9, 10, 35)] + [Slot(BLOCK, i) for i in (0, 1, 26)]
            ),
            st.sampled_from([None, 0, 1, 5, 64, "no", RuntimeError("allow failed")]),
            st.sampled_from(
                [None, "allow_put", "allow_take", "allow_move", "on_put", "on_take", "on_move"]
            ),
        ),
        max_size=25,
    )
)
def test_moves_through_the_rules_in_any_order_never_lose_or_make_an_item(
    plan: list[tuple[Slot, Slot, Any, str | None]],
) -> None:
    """Moves between the player's slots and a box's, its callbacks allowing any count,
    refusing or failing: the items in the player's slots (as the outcomes give them back) and
    in the box add up to what there was after every move."""
    world, rules, box = box_world()
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    pocket = pocket_with(
        (0, ItemStack("base:log", 40)),
        (9, ItemStack("base:log", 30)),
        (10, ItemStack("base:dirt", 64)),
        (35, ItemStack("tools:stone_axe", 1)),
    )
    before = counted(pocket)
    for source, target, answer, callback in plan:
        if source == target or PLAYER == source.side == target.side:
            continue
        box.allow = {} if callback is None else {callback: answer}
        outcome = rules.move_items(alex, BOX, source, target, pocket)
        if outcome.inventory is not None:
            assert outcome.done
            pocket = list(outcome.inventory)
        assert counted(pocket, chest_slots(world)) == before, (source, target, answer, callback)


def test_a_furnace_notices_what_is_put_in_through_its_on_put() -> None:
    """No right click woke it: the sand and the planks put in start its timer, and glass comes
    out after the cooking time."""
    world, rules, _ = chest_world()
    furnace = Container(CHEST_AT, "Furnace", 3)
    world.set_block(*CHEST_AT, world.registry.id("furnace:furnace"))
    alex = Actor.at("alex", (0.5, 1.0, 3.5))
    pocket = pocket_with((9, ItemStack("base:sand", 1)), (10, ItemStack("base:planks", 1)))
    put = rules.move_items(alex, furnace, Slot(PLAYER, 9), Slot(BLOCK, 0), pocket)
    assert put.done and put.inventory is not None
    fuel = rules.move_items(alex, furnace, Slot(PLAYER, 10), Slot(BLOCK, 1), put.inventory)
    assert fuel.done and world.block_data.timer(CHEST_AT) is not None
    for _ in range(12):
        rules.tick(1.0)
    assert decode_slots(world.meta(*CHEST_AT).get("inventory"), 3)[2] == ItemStack("base:glass")
