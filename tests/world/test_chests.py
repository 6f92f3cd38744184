"""The chests and furnace example mods broken in survival: what they held lies in the world as
item entities and comes to the player, none lost and none made, a worn tool as worn as it was (a
property over random contents)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.containers import decode_slots, encode_slots
from world.items.inventory import INVENTORY_SLOTS, Inventory, ItemStack
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules

AT = Int3(8, 1, 8)  # the block broken: inside one chunk, whose voxels all exist
FEET = (9.5, 1.0, 8.5)  # the player stands beside it, within reach of what drops
ITEMS = ("base:dirt", "base:log", "base:sand", "chests:chest", "farming:wheat", "farming:hoe")
CONTAINERS = {"chests:chest": 27, "furnace:furnace": 3}


@cache
def project_mods() -> Mods:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert mods.errors == []
    make_registry(mods)
    return mods


def stacks(size: int) -> st.SearchStrategy[list[ItemStack | None]]:
    hoe = st.integers(0, 58).map(lambda wear: ItemStack("farming:hoe", 1, wear))  # worn or not
    stack = st.sampled_from([item for item in ITEMS if item != "farming:hoe"]).flatmap(
        lambda item: st.integers(1, 64).map(lambda count: ItemStack(item, count))
    )
    return st.lists(st.none() | stack | hoe, min_size=size, max_size=size)


def counted(world: World) -> Counter[tuple[str, int]]:
    """Every item in the world by name and wear: lying as item entities, and in the players'
    inventories."""
    total: Counter[tuple[str, int]] = Counter()
    for entity in world.entities:
        stack = stack_of(entity)
        if entity.kind == "builtin:item":
            assert stack is not None
            total[stack.item, stack.wear] += stack.count
    for player in world.players:
        for held in player.inventory.slots:
            if held is not None:
                total[held.item, held.wear] += held.count
    return total


def broken(block: str, held: list[ItemStack | None], pocket: list[ItemStack | None]) -> None:
    """Break ``block`` holding ``held`` in survival beside a player carrying ``pocket``, then
    wait two seconds; the items are counted at each step."""
    mods = project_mods()
    world = World(mods.registry)
    registry = world.registry
    world.set_block(AT.x, AT.y - 1, AT.z, registry.id("base:stone"))
    world.set_block(*AT, registry.id(block))
    value = encode_slots(held)
    if value is not None:  # None: all empty
        world.meta(*AT)["inventory"] = value
    world.players.join("steve", FEET, Inventory(pocket))
    rules = Rules(world, mods)
    before = counted(world) + Counter((s.item, s.wear) for s in held if s for _ in range(s.count))
    steve = Actor.at("steve", FEET, look=(-1.0, 0.0, 0.0))
    hit = Hit(AT, Int3(1, 0, 0), 1.0, (AT.x + 1.0, AT.y + 0.5, AT.z + 0.5), world.get_block(*AT))
    outcome = rules.break_block(hit, steve)
    assert outcome.done, outcome.reason
    assert world.get_block(*AT) == 0 and "inventory" not in world.meta(*AT)
    expected = before + Counter({(block, 0): 1})  # what it held, and itself
    assert counted(world) == expected  # all lying in the world now
    assert outcome.drops == (ItemStack(block, 1),)
    for _ in range(40):  # two seconds: the stacks land, merge and are picked up
        rules.tick(1 / 20)
        assert counted(world) == expected
    player = world.players.get("steve")
    assert player is not None
    inventory = player.inventory
    for entity in world.entities:  # what still lies found no room in the inventory
        lying = stack_of(entity)
        assert lying is not None
        room = [
            slot
            for slot in inventory.slots
            if slot is None
            or (lying.stacks_with(slot) and slot.count < inventory.stack_max(lying.item))
        ]
        assert not room, (entity, room)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held=stacks(27), pocket=stacks(INVENTORY_SLOTS))
def test_a_broken_chest_drops_everything_it_held_none_lost_or_made(
    held: list[ItemStack | None], pocket: list[ItemStack | None]
) -> None:
    broken("chests:chest", held, pocket)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held=stacks(3), pocket=stacks(INVENTORY_SLOTS))
def test_a_broken_furnace_drops_its_three_slots_none_lost_or_made(
    held: list[ItemStack | None], pocket: list[ItemStack | None]
) -> None:
    broken("furnace:furnace", held, pocket)


def test_a_full_chest_broken_beside_an_empty_handed_player_ends_in_their_inventory() -> None:
    held: list[ItemStack | None] = [ItemStack("base:log", 64)] * 27
    mods = project_mods()
    world = World(mods.registry)
    world.set_block(AT.x, AT.y - 1, AT.z, world.registry.id("base:stone"))
    world.set_block(*AT, world.registry.id("chests:chest"))
    world.meta(*AT)["inventory"] = encode_slots(held)  # type: ignore[assignment]
    world.players.join("steve", FEET)
    rules = Rules(world, mods)
    hit = Hit(AT, Int3(1, 0, 0), 1.0, (AT.x + 1.0, AT.y + 0.5, AT.z + 0.5), world.get_block(*AT))
    assert rules.break_block(hit, Actor.at("steve", FEET))
    assert decode_slots(world.meta(*AT).get("inventory"), 27) == [None] * 27
    for _ in range(40):
        rules.tick(1 / 20)
    player = world.players.get("steve")
    assert player is not None
    assert player.inventory.count("base:log") == 27 * 64
    assert player.inventory.count("chests:chest") == 1
    assert not len(world.entities)  # 28 stacks, 36 slots: all picked up
