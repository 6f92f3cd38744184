"""Stacks lying in the world fall, merge, wait before they are picked up, and leave what does not
fit; survival breaking drops them, and nothing is made or lost."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.inventory import INVENTORY_SLOTS, ItemStack
from world.mods.outcome import Actor
from world.ray import Hit
from world.rules import Rules
from world.voxels.entities import PICKUP_DELAY, drop_item

STEP = 1 / 20


def floor_world() -> World:
    world = World()
    stone = world.registry.id("base:stone")
    for x in range(-4, 5):
        for z in range(-4, 5):
            world.set_block(x, 0, z, stone)
    return world


def run(rules: Rules, seconds: float) -> None:
    for _ in range(round(seconds / STEP)):
        rules.tick(STEP)


def items(world: World) -> list[ItemStack]:
    found = [stack_of(e) for e in world.entities if e.kind == ITEM_ENTITY.name]
    return [s for s in found if s is not None]


def test_a_dropped_stack_falls_and_settles_on_a_slabs_top() -> None:
    world = floor_world()
    slab = world.registry.state_id("base:stone_slab", half="bottom")
    world.set_block(2, 1, 2, slab)
    rules = Rules(world)
    entity = drop_item(world.entities, Int3(2, 5, 2), ItemStack("base:dirt", 3))
    heights = []
    for _ in range(60):
        rules.tick(STEP)
        heights.append(entity.pos[1])
    assert heights[0] > heights[-1]
    assert entity.pos[1] == pytest.approx(1.5)  # the slab's top, not the cube's
    assert entity.on_ground and entity.resting


def test_a_stack_resting_on_a_block_that_goes_falls_again() -> None:
    world = floor_world()
    dirt = world.registry.id("base:dirt")
    world.set_block(1, 1, 1, dirt)
    rules = Rules(world)
    entity = drop_item(world.entities, Int3(1, 2, 1), ItemStack("base:dirt", 1))
    run(rules, 2.0)
    assert entity.pos[1] == pytest.approx(2.0)
    actor = Actor.at("tester", (1.5, 1.0, 3.5), creative=True)
    assert rules.break_block(Hit(Int3(1, 1, 1), Int3(0, 0, 1), 1.0, (1.5, 1.5, 2.0), dirt), actor)
    run(rules, 2.0)
    assert entity.pos[1] == pytest.approx(1.0)


def test_equal_stacks_near_each_other_merge_the_smaller_into_the_larger() -> None:
    world = floor_world()
    rules = Rules(world)
    big = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 40), velocity=(0, 0, 0))
    small = drop_item(
        world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 30), pos=(0.8, 1.0, 0.5)
    )
    other = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:sand", 5), pos=(0.6, 1, 0.4))
    run(rules, 1.0)  # they fall, come to rest and look for each other
    assert small.removed is False  # 40 + 30 > 64: the rest stays where it was
    assert stack_of(big) == ItemStack("base:dirt", 64)
    assert stack_of(small) == ItemStack("base:dirt", 6)
    assert stack_of(other) == ItemStack("base:sand", 5)
    assert sum(s.count for s in items(world) if s.item == "base:dirt") == 70


def test_stacks_of_one_item_worn_differently_never_merge() -> None:
    world = floor_world()
    rules = Rules(world)
    worn = drop_item(world.entities, Int3(0, 1, 0), ItemStack("mod:gem", 40, 7), velocity=(0, 0, 0))
    new = drop_item(world.entities, Int3(0, 1, 0), ItemStack("mod:gem", 20), pos=(0.8, 1.0, 0.5))
    same = drop_item(world.entities, Int3(0, 1, 0), ItemStack("mod:gem", 5, 7), pos=(0.3, 1.0, 0.5))
    run(rules, 1.0)
    assert stack_of(worn) == ItemStack("mod:gem", 45, 7) and same.removed  # as worn: merged
    assert stack_of(new) == ItemStack("mod:gem", 20)
    assert "wear" not in new.data and worn.data["wear"] == 7  # written only when worn


def test_a_thrown_worn_tool_is_picked_up_again_as_worn_as_it_was() -> None:
    world = floor_world()
    player = world.players.join("steve", (0.5, 1.0, 0.5))
    player.inventory.slots[0] = ItemStack("tools:wood_pickaxe", 1, 33)
    rules = Rules(world)
    thrown = rules.drop_held(Actor.at("steve", (0.5, 1.0, 0.5), look=(0.0, -1.0, 0.0)), 1)
    assert thrown.spent == ItemStack("tools:wood_pickaxe", 1, 33)
    assert player.inventory.slots[0] is None and items(world) == [thrown.spent]
    run(rules, 3.0)  # it lands at the feet and, after the throw's delay, is picked up
    assert items(world) == [] and player.inventory.slots[0] == thrown.spent


def test_a_full_stack_that_loses_items_at_rest_takes_in_the_stack_beside_it() -> None:
    """At rest a stack looks for others once, when it comes to rest; a full one that a player
    took some of (its count written) looks again, as Minecraft's resting stacks do."""
    world = floor_world()
    rules = Rules(world)
    full = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 64), velocity=(0, 0, 0))
    beside = drop_item(
        world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 10), pos=(0.8, 1.0, 0.5)
    )
    run(rules, 3.0)
    assert full.resting and beside.resting
    assert (stack_of(full), stack_of(beside)) == (
        ItemStack("base:dirt", 64),
        ItemStack("base:dirt", 10),
    )
    world.entities.write(full, "count", 30)  # as a player's pickup leaving 30 writes it
    run(rules, 1.0)
    assert stack_of(full) == ItemStack("base:dirt", 40)
    assert beside.removed


def test_a_stack_landing_beside_a_resting_one_merges_into_it() -> None:
    world = floor_world()
    rules = Rules(world)
    lying = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 20), velocity=(0, 0, 0))
    run(rules, 3.0)
    assert lying.resting
    falling = drop_item(world.entities, Int3(0, 4, 0), ItemStack("base:dirt", 5), pos=(0.9, 4, 0.5))
    run(rules, 2.0)
    assert falling.removed
    assert stack_of(lying) == ItemStack("base:dirt", 25)


def test_stacks_at_rest_cost_no_search_for_stacks_to_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resting stack is not looked at again for merges until something changes near it."""
    world = floor_world()
    rules = Rules(world)
    for n in range(40):
        x, z = n % 8 - 4, n // 8 - 4
        drop_item(
            world.entities, Int3(x, 1, z), ItemStack("base:dirt" if n % 2 else "base:sand", 1)
        )
    run(rules, 3.0)
    assert all(entity.resting for entity in world.entities)
    searches = 0
    near = world.entities.near

    def counted(pos: tuple[float, float, float], radius: float) -> list[object]:
        nonlocal searches
        searches += 1
        return near(pos, radius)  # type: ignore[return-value]

    monkeypatch.setattr(world.entities, "near", counted)
    run(rules, 10.0)
    assert searches == 0
    assert len(items(world)) == 40


def test_stacks_far_apart_do_not_merge() -> None:
    world = floor_world()
    rules = Rules(world)
    drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 1))
    drop_item(world.entities, Int3(3, 1, 0), ItemStack("base:dirt", 1))
    run(rules, 2.0)
    assert len(items(world)) == 2


def test_a_stack_is_picked_up_only_after_the_delay_and_leaves_what_does_not_fit() -> None:
    world = floor_world()
    player = world.players.join("steve", (0.5, 1.0, 0.5))
    for slot in range(INVENTORY_SLOTS - 1):
        player.inventory.slots[slot] = ItemStack("base:stone", 64)
    player.inventory.slots[INVENTORY_SLOTS - 1] = ItemStack("base:dirt", 50)
    rules = Rules(world)
    entity = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 20))
    run(rules, PICKUP_DELAY - 2 * STEP)
    assert stack_of(entity) == ItemStack("base:dirt", 20)  # not yet
    run(rules, 4 * STEP)
    assert player.inventory.count("base:dirt") == 64
    assert stack_of(entity) == ItemStack("base:dirt", 6)  # the rest stays lying
    assert not entity.removed


def test_a_player_out_of_reach_picks_nothing_up() -> None:
    world = floor_world()
    player = world.players.join("steve", (3.5, 1.0, 3.5))
    rules = Rules(world)
    drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 2))
    run(rules, 2.0)
    assert player.inventory.count("base:dirt") == 0
    world.players.follow(player, (1.2, 1.0, 0.5))
    run(rules, 0.2)
    assert player.inventory.count("base:dirt") == 2
    assert items(world) == []


def test_a_stack_goes_after_five_minutes() -> None:
    world = floor_world()
    rules = Rules(world)
    entity = drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", 2))
    run(rules, 299.0)
    assert not entity.removed
    run(rules, 2.0)  # looked at once a second
    assert entity.removed


def test_survival_breaking_drops_the_block_into_the_world_and_creative_drops_nothing() -> None:
    world = floor_world()
    dirt = world.registry.id("base:dirt")
    world.set_block(0, 1, 0, dirt)
    world.players.join("steve", (2.5, 1.0, 0.5))
    rules = Rules(world)
    hit = Hit(Int3(0, 1, 0), Int3(1, 0, 0), 1.0, (1.0, 1.5, 0.5), dirt)
    outcome = rules.break_block(hit, Actor.at("steve", (2.5, 1.0, 0.5)))
    assert outcome.drops == (ItemStack("base:dirt", 1),)
    assert items(world) == [ItemStack("base:dirt", 1)]
    world.set_block(0, 1, 0, dirt)
    assert rules.break_block(hit, Actor.at("steve", (2.5, 1.0, 0.5), creative=True))
    assert items(world) == [ItemStack("base:dirt", 1)]


def test_drops_into_the_inventory_is_a_setting_and_the_rest_lies_in_the_world() -> None:
    world = floor_world()
    dirt = world.registry.id("base:dirt")
    world.set_block(0, 1, 0, dirt)
    player = world.players.join("steve", (2.5, 1.0, 0.5))
    for slot in range(INVENTORY_SLOTS):
        player.inventory.slots[slot] = ItemStack("base:stone", 64)
    rules = Rules(world)
    rules.drops_to_inventory = True
    hit = Hit(Int3(0, 1, 0), Int3(1, 0, 0), 1.0, (1.0, 1.5, 0.5), dirt)
    assert rules.break_block(hit, Actor.at("steve", (2.5, 1.0, 0.5)))
    assert items(world) == [ItemStack("base:dirt", 1)]  # no room: it lies in the world
    player.inventory.slots[0] = None
    world.set_block(0, 1, 0, dirt)
    assert rules.break_block(hit, Actor.at("steve", (2.5, 1.0, 0.5)))
    assert player.inventory.count("base:dirt") == 1


@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(st.integers(1, 64), min_size=1, max_size=12),
    spots=st.lists(st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)), min_size=12),
    room=st.integers(0, 3),
    seconds=st.floats(0.0, 3.0),
)
def test_merging_and_picking_up_never_make_or_lose_an_item(
    counts: list[int], spots: list[tuple[float, float]], room: int, seconds: float
) -> None:
    world = floor_world()
    player = world.players.join("steve", (0.5, 1.0, 0.5))
    for slot in range(INVENTORY_SLOTS - room):
        player.inventory.slots[slot] = ItemStack("base:stone", 64)
    rules = Rules(world)
    for count, (x, z) in zip(counts, spots, strict=False):
        drop_item(world.entities, Int3(0, 1, 0), ItemStack("base:dirt", count), pos=(x, 2.0, z))
    run(rules, seconds)
    lying = sum(s.count for s in items(world))
    assert lying + player.inventory.count("base:dirt") == sum(counts)
    assert all(1 <= s.count <= 64 for s in items(world))
