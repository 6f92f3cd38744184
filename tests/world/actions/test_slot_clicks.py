"""The inventory screen's clicks as the player's action (`world.actions.slot_clicks`, through
`Rules.click_slots`): Minecraft's left, right, shift and drag, crafting, closing; all or nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from world import World
from world.actions.containers import BLOCK, PLAYER, Slot
from world.actions.slot_clicks import GRID, LEFT, OUTPUT, RIGHT, SHIFT, Click
from world.base import GAME
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.containers import Container, decode_slots
from world.items.crafting import match
from world.items.inventory import INVENTORY_SLOTS, Inventory, ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.rules import Rules

CHEST_AT = Int3(0, 0, 0)
CHEST = Container(CHEST_AT, "Chest", 27)
ALEX = Actor.at("alex", (0.5, 1.0, 3.5))


def rules_with(*plugins: tuple[str, object]) -> tuple[World, Rules, Inventory]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=dict(plugins), game=GAME)
    world = World(make_registry(mods))
    player = world.players.join("alex", (0.5, 1.0, 3.5))
    return world, Rules(world, mods), player.inventory


def left(*slots: Slot) -> Click:
    return Click(LEFT, slots)


def right(*slots: Slot) -> Click:
    return Click(RIGHT, slots)


def p(i: int) -> Slot:
    return Slot(PLAYER, i)


def g(i: int) -> Slot:
    return Slot(GRID, i)


def b(i: int) -> Slot:
    return Slot(BLOCK, i)


def test_a_left_click_picks_a_whole_stack_up_and_puts_it_down_merging_or_swapping() -> None:
    _, rules, inv = rules_with()
    inv.slots[9] = ItemStack("base:dirt", 40)
    inv.slots[10] = ItemStack("base:dirt", 30)
    inv.slots[11] = ItemStack("base:log", 5)
    assert rules.click_slots(ALEX, left(p(9))).done
    assert inv.carried[0] == ItemStack("base:dirt", 40) and inv.slots[9] is None
    rules.click_slots(ALEX, left(p(10)))  # the same item: merged as far as it stacks
    assert inv.slots[10] == ItemStack("base:dirt", 64) and inv.carried[0] == ItemStack(
        "base:dirt", 6
    )
    rules.click_slots(ALEX, left(p(11)))  # another item: the two swap
    assert inv.slots[11] == ItemStack("base:dirt", 6) and inv.carried[0] == ItemStack("base:log", 5)
    rules.click_slots(ALEX, left(p(20)))  # an empty slot: put down
    assert inv.slots[20] == ItemStack("base:log", 5) and inv.carried[0] is None


def test_a_right_click_picks_up_half_rounded_up_and_puts_down_one() -> None:
    _, rules, inv = rules_with()
    inv.slots[9] = ItemStack("base:planks", 64)
    inv.slots[12] = ItemStack("base:dirt", 7)
    rules.click_slots(ALEX, right(p(12)))
    assert inv.carried[0] == ItemStack("base:dirt", 4) and inv.slots[12] == ItemStack(
        "base:dirt", 3
    )
    rules.click_slots(ALEX, right(p(13)))  # one onto an empty slot
    rules.click_slots(ALEX, right(p(12)))  # one onto the same item
    assert inv.slots[13] == ItemStack("base:dirt", 1) and inv.slots[12] == ItemStack("base:dirt", 4)
    assert inv.carried[0] == ItemStack("base:dirt", 2)
    rules.click_slots(ALEX, right(p(9)))  # another item: swapped
    assert inv.carried[0] == ItemStack("base:planks", 64) and inv.slots[9] == ItemStack(
        "base:dirt", 2
    )


def test_shift_moves_between_the_hotbar_and_the_inventory_and_from_the_grid() -> None:
    _, rules, inv = rules_with()
    inv.slots[0] = ItemStack("base:dirt", 10)
    inv.slots[20] = ItemStack("base:dirt", 60)
    rules.click_slots(ALEX, Click(SHIFT, (p(0),)))  # hotbar -> inventory: merged first
    assert inv.slots[20] == ItemStack("base:dirt", 64) and inv.slots[9] == ItemStack("base:dirt", 6)
    assert inv.slots[0] is None
    rules.click_slots(ALEX, Click(SHIFT, (p(20),)))  # inventory -> the hotbar's first slot
    assert inv.slots[0] == ItemStack("base:dirt", 64) and inv.slots[20] is None
    inv.crafting[4] = ItemStack("base:log", 3)
    rules.click_slots(ALEX, Click(SHIFT, (g(4),)))  # grid -> onto the inventory's dirt? no: empty
    assert inv.crafting[4] is None and inv.slots[10] == ItemStack("base:log", 3)


def test_shift_moves_between_the_player_and_an_open_chest() -> None:
    world, rules, inv = rules_with()
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    inv.slots[0] = ItemStack("base:log", 20)
    assert rules.click_slots(ALEX, Click(SHIFT, (p(0),)), CHEST).done
    stored = decode_slots(world.meta(*CHEST_AT).get("inventory"), 27)
    assert stored[0] == ItemStack("base:log", 20) and inv.slots[0] is None
    assert rules.click_slots(ALEX, Click(SHIFT, (b(0),)), CHEST).done
    assert inv.slots[8] == ItemStack("base:log", 20)  # Minecraft: the hotbar's right end first
    assert "inventory" not in world.meta(*CHEST_AT)


def test_the_output_crafts_onto_the_carried_stack_and_shift_crafts_all_into_the_inventory() -> None:
    _, rules, inv = rules_with()
    inv.crafting[4] = ItemStack("base:log", 3)
    rules.click_slots(ALEX, left(Slot(OUTPUT, 0)))
    rules.click_slots(ALEX, right(Slot(OUTPUT, 0)))
    assert inv.carried[0] == ItemStack("base:planks", 8) and inv.crafting[4] == ItemStack(
        "base:log", 1
    )
    rules.click_slots(ALEX, left(p(9)))
    inv.crafting[4] = ItemStack("base:log", 20)
    assert rules.click_slots(ALEX, Click(SHIFT, (Slot(OUTPUT, 0),))).done
    assert inv.count("base:planks") == 88 and inv.crafting[4] is None
    # merged onto the 8 put down first, then the hotbar's right end (Minecraft's order)
    assert inv.slots[9] == ItemStack("base:planks", 64)
    assert inv.slots[8] == ItemStack("base:planks", 24)


def test_shift_on_the_output_crafts_only_what_the_inventory_takes() -> None:
    _, rules, inv = rules_with()
    inv.slots[:] = [ItemStack("base:dirt", 64)] * (INVENTORY_SLOTS - 1) + [None]
    inv.crafting[0] = ItemStack("base:log", 40)
    rules.click_slots(ALEX, Click(SHIFT, (Slot(OUTPUT, 0),)))
    assert inv.count("base:planks") == 64 and inv.crafting[0] == ItemStack("base:log", 24)


def test_a_left_drag_spreads_the_carried_stack_evenly_and_keeps_the_rest() -> None:
    _, rules, inv = rules_with()
    inv.carried[0] = ItemStack("base:planks", 64)
    inv.slots[11] = ItemStack("base:log", 1)  # another item: passed over
    drag = left(p(9), p(10), p(11), p(12), p(10), Slot(PLAYER, 13))
    assert rules.click_slots(ALEX, drag).done
    assert [inv.slots[i] for i in (9, 10, 12, 13)] == [ItemStack("base:planks", 16)] * 4
    assert inv.carried[0] is None and inv.slots[11] == ItemStack("base:log", 1)
    inv.carried[0] = ItemStack("base:planks", 5)
    rules.click_slots(ALEX, left(g(0), g(1), g(2)))
    assert inv.crafting[:3] == [ItemStack("base:planks", 1)] * 3
    assert inv.carried[0] == ItemStack("base:planks", 2)


def test_a_right_drag_puts_one_in_each_slot_while_any_is_carried() -> None:
    _, rules, inv = rules_with()
    inv.carried[0] = ItemStack("base:planks", 4)
    rules.click_slots(ALEX, right(*(g(i) for i in range(6))))
    assert inv.crafting[:4] == [ItemStack("base:planks", 1)] * 4 and inv.crafting[4] is None
    assert inv.carried[0] is None


def test_a_left_drag_crosses_no_more_slots_than_items_carried() -> None:
    _, rules, inv = rules_with()
    inv.carried[0] = ItemStack("base:planks", 2)
    rules.click_slots(ALEX, left(g(0), g(1), g(2)))
    assert inv.crafting[:3] == [ItemStack("base:planks", 1)] * 2 + [None]


def test_closing_puts_back_the_carried_and_the_grid_and_drops_what_does_not_fit() -> None:
    world, rules, inv = rules_with()
    inv.slots[:] = [ItemStack("base:dirt", 64)] * (INVENTORY_SLOTS - 1) + [None]
    inv.carried[0] = ItemStack("base:log", 3)
    inv.crafting[2] = ItemStack("base:planks", 5)
    put = rules.put_back(ALEX)
    assert put.done and put.drops == (ItemStack("base:planks", 5),)
    assert inv.slots[35] == ItemStack("base:log", 3) and inv.carried[0] is None
    assert inv.crafting == [None] * 9
    assert [stack_of(e) for e in world.entities] == [ItemStack("base:planks", 5)]


def test_a_worn_tool_keeps_its_wear_on_every_click_and_swaps_with_another_of_its_kind() -> None:
    world, rules, inv = rules_with()
    worn, new = ItemStack("tools:wood_pickaxe", 1, 40), ItemStack("tools:wood_pickaxe", 1)
    inv.slots[9], inv.slots[10] = worn, new
    rules.click_slots(ALEX, left(p(9)))  # picked up: carried as worn as it was
    assert inv.carried[0] == worn and inv.slots[9] is None
    rules.click_slots(ALEX, right(p(10)))  # onto another wear of it: swapped, not merged
    assert inv.slots[10] == worn and inv.carried[0] == new
    rules.click_slots(ALEX, left(p(9)))
    rules.click_slots(ALEX, Click(SHIFT, (p(10),)))  # quick moved into the hotbar
    assert inv.slots[0] == worn and inv.slots[10] is None
    rules.click_slots(ALEX, left(p(0)))
    rules.click_slots(ALEX, left(g(4)))  # into the crafting grid
    assert inv.crafting[4] == worn
    assert rules.put_back(ALEX).done  # closed: back into the inventory, still worn
    assert inv.crafting[4] is None and inv.slots[0] == worn
    inv.slots[:] = [ItemStack("base:dirt", 64)] * INVENTORY_SLOTS
    inv.carried[0] = worn
    put = rules.put_back(ALEX)  # no room: dropped at the feet, still worn
    assert put.drops == (worn,) and [stack_of(e) for e in world.entities] == [worn]
    assert inv.carried[0] is None


def test_a_protected_chest_denies_the_click_and_nothing_moves() -> None:
    world, rules, inv = rules_with()
    protection = rules.mods["protection"].plugin  # type: ignore[index]
    world.set_block(*CHEST_AT, world.registry.id("chests:chest"))
    protection.protect(world, "vault", (-2, -2, -2), (2, 2, 2), owner="steve")  # type: ignore[attr-defined]
    inv.slots[9] = ItemStack("base:log", 20)
    rules.click_slots(ALEX, left(p(9)), CHEST)  # the player's own slot: no use of the chest
    assert inv.carried[0] == ItemStack("base:log", 20)
    for gesture in (left(b(0)), right(b(1)), left(b(0), b(1))):
        refused = rules.click_slots(ALEX, gesture, CHEST)
        assert not refused.done and refused.reason == "vault belongs to steve"
    inv.carried[0], inv.slots[0] = None, ItemStack("base:log", 20)
    refused = rules.click_slots(ALEX, Click(SHIFT, (p(0),)), CHEST)
    assert not refused.done and inv.slots[0] == ItemStack("base:log", 20)
    assert "inventory" not in world.meta(*CHEST_AT)


class Jammed:
    """A box whose ``on_take`` raises, and whose ``allow_put`` takes at most 3 of a stack."""

    @hookimpl
    def register_blocks(self, registry: Any) -> None:
        from world.blocks.block_type import BlockType

        def on_take(world: Any, pos: Int3) -> None:
            world.meta(*pos)["note"] = "heard"
            raise RuntimeError("the lock jammed")

        def allow_put(stack: ItemStack) -> int:
            return min(stack.count, 3)

        registry.register(
            BlockType("jam:box", containers=("inventory",), on_take=on_take, allow_put=allow_put)
        )


def test_a_raising_callback_rolls_the_whole_click_back_and_allow_limits_what_goes() -> None:
    world, rules, inv = rules_with(("jam", Jammed()))
    world.set_block(*CHEST_AT, world.registry.id("jam:box"))
    box = Container(CHEST_AT, "Box", 27)
    inv.carried[0] = ItemStack("base:log", 10)
    assert rules.click_slots(ALEX, left(b(0)), box).done  # allow_put: three go
    assert inv.carried[0] == ItemStack("base:log", 7)
    assert decode_slots(world.meta(*CHEST_AT).get("inventory"), 27)[0] == ItemStack("base:log", 3)
    rules.click_slots(ALEX, left(p(0)))  # put the rest down: no block involved
    failed = rules.click_slots(ALEX, right(b(0)), box)  # a take: on_take raises
    assert not failed.done and failed.denied_by == "jam" and "the lock jammed" in failed.reason
    assert inv.carried[0] is None
    assert decode_slots(world.meta(*CHEST_AT).get("inventory"), 27)[0] == ItemStack("base:log", 3)
    assert "note" not in world.meta(*CHEST_AT)


@pytest.mark.parametrize(
    ("click", "container", "message"),
    [
        ("left", None, "click must be a Click"),
        (Click("middle", (Slot(PLAYER, 0),)), None, "click button"),
        (Click(LEFT, ()), None, "click slots must be a tuple"),
        (Click(SHIFT, (Slot(PLAYER, 0), Slot(PLAYER, 1))), None, "shift-click"),
        (Click(LEFT, (Slot(PLAYER, 36),)), None, "index must be 0..35"),
        (Click(LEFT, (Slot(BLOCK, 0),)), None, "click slots must be Slot"),
        (Click(LEFT, (Slot(GRID, 0),)), CHEST, "click slots must be Slot"),
        (Click(LEFT, (Slot(BLOCK, 27),)), CHEST, "index must be 0..26"),
        (Click(LEFT, (Slot(PLAYER, 0),)), "chest", "container must be a Container"),
    ],
)
def test_a_bad_click_is_refused_naming_the_argument(
    click: object, container: object, message: str
) -> None:
    _, rules, _ = rules_with()
    with pytest.raises(ValueError, match=message):
        rules.click_slots(ALEX, click, container)  # type: ignore[arg-type]


# -- any sequence of clicks: no item lost or made ------------------------------------------------

STOCK = [
    (0, ItemStack("base:log", 40)),
    (9, ItemStack("base:log", 30)),
    (10, ItemStack("base:planks", 64)),
    (11, ItemStack("base:planks", 9)),
    (12, ItemStack("base:dirt", 5)),
    (13, ItemStack("tools:stone_axe", 1)),
    (1, ItemStack("tools:stone_axe", 1, 90)),  # worn: never merges with the new one
    (30, ItemStack("tools:stone_axe", 1, 12)),
]

player_slots = st.builds(Slot, st.just(PLAYER), st.sampled_from([0, 1, 8, 9, 10, 11, 12, 13, 30]))
grid_slots = st.builds(Slot, st.just(GRID), st.integers(0, 8))
chest_slots = st.builds(Slot, st.just(BLOCK), st.sampled_from([0, 1, 2, 26]))


def _steps(with_chest: bool) -> st.SearchStrategy[tuple[str, Any]]:
    slot = st.one_of(player_slots, chest_slots if with_chest else grid_slots)
    gestures = [
        st.builds(lambda s: Click(LEFT, (s,)), slot),
        st.builds(lambda s: Click(RIGHT, (s,)), slot),
        st.builds(lambda s: Click(SHIFT, (s,)), slot),
        st.builds(
            lambda button, slots: Click(button, tuple(slots)),
            st.sampled_from([LEFT, RIGHT]),
            st.lists(slot, min_size=2, max_size=6),
        ),
    ]
    if not with_chest:
        output = st.just(Slot(OUTPUT, 0))
        gestures.append(st.builds(Click, st.sampled_from(BUTTONS_ALL), st.tuples(output)))
    return st.one_of(
        st.tuples(st.just("click"), st.one_of(*gestures)), st.tuples(st.just("close"), st.none())
    )


BUTTONS_ALL = [LEFT, RIGHT, SHIFT]


class Fussy:
    """A box that lets at most 3 of a stack in (``allow_put``), refuses to give up planks
    (``allow_take``), and whose ``on_take`` raises when the stack taken is an odd count: a
    random sequence meets refusals and roll-backs."""

    @hookimpl
    def register_blocks(self, registry: Any) -> None:
        from world.blocks.block_type import BlockType

        def allow_take(stack: ItemStack) -> object:
            return "planks stay" if stack.item == "base:planks" else stack.count

        def on_take(world: Any, pos: Int3, stack: ItemStack) -> None:
            world.meta(*pos)["note"] = "heard"
            if stack.count % 2:
                raise RuntimeError("odd")

        registry.register(
            BlockType(
                "fussy:box",
                containers=("inventory",),
                allow_put=lambda stack: min(stack.count, 3),
                allow_take=allow_take,
                on_take=on_take,
            )
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["grid", "chests:chest", "fussy:box"]), st.data())
def test_any_sequence_of_clicks_drags_crafts_and_closings_loses_and_makes_no_item(
    where: str, data: st.DataObject
) -> None:
    """Left, right and shift clicks, drags, output clicks and closing, in any order, on the
    inventory and its grid, on a chest, or on a box whose callbacks refuse and raise (each
    failing click rolled back whole): every item is in the inventory, the grid, the carried
    stack, the block or lying in the world, in the same numbers and as worn, except what
    crafting turned into its output (counted recipe by recipe)."""
    world, rules, inv = rules_with(("fussy", Fussy()))
    registry = world.registry
    for slot, stack in STOCK:
        inv.slots[slot] = stack
    with_chest = where != "grid"
    container = None
    if with_chest:
        world.set_block(*CHEST_AT, registry.id(where))
        container = CHEST

    def total() -> dict[tuple[str, int], int]:
        stored = decode_slots(world.meta(*CHEST_AT).get("inventory"), 27) if with_chest else []
        lying = [stack_of(e) for e in world.entities if e.kind == ITEM_ENTITY.name]
        counts: dict[tuple[str, int], int] = {}
        for stack in [*inv.slots, *inv.crafting, *inv.carried, *stored, *lying]:
            if stack is not None:
                key = (stack.item, stack.wear)
                counts[key] = counts.get(key, 0) + stack.count
        return counts

    expected = total()
    for kind, gesture in data.draw(st.lists(_steps(with_chest), max_size=25)):
        if kind == "close":
            assert rules.put_back(ALEX).done
            assert inv.carried[0] is None and inv.crafting == [None] * 9
        else:
            recipe = None if with_chest else match(registry, list(inv.crafting))
            before = list(inv.crafting)
            note = world.meta(*CHEST_AT).get("note") if with_chest else None
            outcome = rules.click_slots(ALEX, gesture, container)
            assert outcome.done or where == "fussy:box", outcome
            if with_chest and not outcome.done:  # rolled back whole, the callback's write too
                assert world.meta(*CHEST_AT).get("note") == note
            crafted = gesture.slots[0].side == OUTPUT and inv.crafting != before
            if recipe is not None and crafted:  # once or more
                crafts = next(
                    s.count - (0 if a is None else a.count)
                    for s, a in zip(before, inv.crafting, strict=True)
                    if s is not None
                )
                for stack in before:
                    if stack is not None:
                        expected[stack.item, stack.wear] -= crafts
                made = (recipe.output, 0)
                expected[made] = expected.get(made, 0) + crafts * recipe.count
                expected = {k: v for k, v in expected.items() if v}
        assert total() == expected, gesture
