"""The base game's buckets through the real pipeline (`world.rules.Rules.use_block`), aimed as the
game aims them (each held item's ray, `world.blocks.registry.BlockRegistry.pointable_for`): a
liquid's source picked up, a source poured against a block, vetoes and failures leaving the world
and the inventory as they were, creative's buckets that never change."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mods.protection import protect
from world import World
from world.base import GAME
from world.base.items import BUCKET, BUCKET_STACK, LAVA_BUCKET, WATER_BUCKET, Pour
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.inventory import INVENTORY_SLOTS, ItemStack
from world.items.item import Item
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor, Outcome
from world.mods.registration import make_registry
from world.ray import Hit, raycast
from world.rules import Rules

FLOOR = 0  # a stone floor at y = 0; the player stands on it at (0.5, 1, 0.5)
FEET = (0.5, 1.0, 0.5)
DOWN_AHEAD = (0.0, -1.0, 1.0)  # from the eye (y 2.62), down onto the floor's top 2 blocks ahead


def setup(*, example_mods: bool = False, **plugins: object) -> tuple[World, Rules]:
    """A world of the base game (and the example mods, or given plugins) with a 9x9 stone floor."""
    mods = load_mods(
        [DEFAULT_MODS_DIR] if example_mods else [],
        entry_points=False,
        plugins=plugins,
        game=GAME,
    )
    assert not mods.errors
    world = World(make_registry(mods))
    stone = world.registry.id("base:stone")
    for x in range(-4, 5):
        for z in range(-4, 5):
            world.set_block(x, FLOOR, z, stone)
    return world, Rules(world, mods)


def player(
    world: World, *stacks: ItemStack | None, creative: bool = False, name: str = "alex"
) -> tuple[Actor, list[ItemStack | None]]:
    """A player of the world standing at `FEET` holding ``stacks[0]`` (slot 0 selected), the
    rest in the next slots; the actor the rules see, and the inventory's slots."""
    joined = world.players.join(name, FEET, creative=creative)
    joined.inventory.slots[: len(stacks)] = list(stacks)
    held = stacks[0].item if stacks and stacks[0] is not None else None
    actor = Actor.at(name, FEET, creative=creative, item=held, look=DOWN_AHEAD)
    return actor, joined.inventory.slots


def aim(world: World, actor: Actor, direction: Sequence[float] = DOWN_AHEAD) -> Hit | None:
    """What ``actor``'s ray hits, as the game's sight casts it for the held item."""
    table = world.registry.pointable_for(actor.item)
    return raycast(world, actor.eye, direction, 5.0, hits=lambda block_id: bool(table[block_id]))


def liquid(
    world: World, name: str, pos: Sequence[int], level: int = 8, *, falling: bool = False
) -> int:
    state = world.registry.state_id(name, level=level, falling=falling)
    world.set_block(*pos, state)
    return state


def lying(world: World) -> list[ItemStack]:
    """The stacks lying in the world (item entities)."""
    found = [stack_of(e) for e in world.entities if e.kind == ITEM_ENTITY.name]
    return [stack for stack in found if stack is not None]


def snapshot(world: World) -> tuple[object, ...]:
    """Every block near the floor, every player's slots and the lying stacks."""
    blocks = tuple(
        world.get_block(x, y, z) for x in range(-4, 5) for y in range(-1, 4) for z in range(-4, 5)
    )
    slots = tuple(tuple(p.inventory.slots) for p in world.players)
    return blocks, slots, tuple(lying(world))


# -- picking up ------------------------------------------------------------------------------


def test_an_empty_bucket_picks_up_a_water_source_and_the_hand_then_holds_a_water_bucket() -> None:
    world, rules = setup()
    liquid(world, "base:water", (0, 1, 2))  # a source on the floor, 2 blocks ahead
    actor, slots = player(world, ItemStack(BUCKET, 1))
    hit = aim(world, actor)
    assert hit is not None and hit.block == (0, 1, 2)  # the empty bucket's ray stops at it
    outcome = rules.use_block(hit, actor)
    assert outcome.done and outcome.used
    assert world.get_block(0, 1, 2) == 0
    assert slots[0] == ItemStack(WATER_BUCKET, 1)
    assert [s for s in slots if s is not None] == [ItemStack(WATER_BUCKET, 1)]  # nothing else
    assert lying(world) == []


def test_one_bucket_of_a_stack_fills_into_the_inventory_or_is_thrown_when_it_is_full() -> None:
    world, rules = setup()
    liquid(world, "base:lava", (0, 1, 2))
    actor, slots = player(world, ItemStack(BUCKET, 3))
    assert rules.use_block(aim(world, actor), actor).used
    assert slots[0] == ItemStack(BUCKET, 2)
    assert slots[1] == ItemStack(LAVA_BUCKET, 1)  # the first free slot
    liquid(world, "base:water", (0, 1, 2))
    slots[1:] = [ItemStack("base:dirt", 64)] * (INVENTORY_SLOTS - 1)  # no room left
    assert rules.use_block(aim(world, actor), actor).used
    assert slots[0] == ItemStack(BUCKET, 1)
    assert lying(world) == [ItemStack(WATER_BUCKET, 1)]  # thrown, as Minecraft drops it
    assert world.get_block(0, 1, 2) == 0


def test_falling_and_flowing_water_are_looked_through_and_picked_up_by_nothing() -> None:
    """A falling column is flowing water (Minecraft's falling fluid is not a source): the empty
    bucket's ray looks through it as through flowing water."""
    world, rules = setup()
    actor, slots = player(world, ItemStack(BUCKET, 1))
    falling = liquid(world, "base:water", (0, 1, 2), falling=True)
    assert falling != world.registry.id("base:water")
    hit = aim(world, actor)
    assert hit is not None and hit.block == (0, FLOOR, 2)  # through the falling water
    assert slots[0] == ItemStack(BUCKET, 1)
    slots[0] = ItemStack(BUCKET, 1)
    flowing = liquid(world, "base:water", (0, 1, 2), level=7)
    hit = aim(world, actor)
    assert hit is not None and hit.block == (0, FLOOR, 2)  # the floor under the flowing water
    before = snapshot(world)
    assert not rules.use_block(hit, actor).done  # the floor is not a source: nothing used
    assert snapshot(world) == before
    # A click given straight at the flowing voxel (a mod's hit) picks up nothing either.
    at_flowing = Hit(Int3(0, 1, 2), Int3(0, 1, 0), 1.0, (0.5, 2.0, 2.5), flowing)
    assert not rules.use_block(at_flowing, actor).done
    assert snapshot(world) == before and slots[0] == ItemStack(BUCKET, 1)


def test_each_held_item_s_ray_stops_at_what_it_points_at() -> None:
    registry = World().registry
    source = registry.id("base:water")
    flowing = registry.state_id("base:water", level=3)
    falling = registry.state_id("base:lava", level=8, falling=True)
    stone = registry.id("base:stone")
    for item, sees in (
        (None, (False, False, False)),
        ("base:stone", (False, False, False)),
        (BUCKET, (True, False, False)),  # a source only; a falling column is flowing
        (WATER_BUCKET, (False, False, False)),  # Minecraft's full bucket looks through liquids
        (LAVA_BUCKET, (False, False, False)),
    ):
        table = registry.pointable_for(item)
        assert (bool(table[source]), bool(table[flowing]), bool(table[falling])) == sees, item
        assert table[stone] and not table[0]


# -- pouring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bucket", "name"), [(WATER_BUCKET, "base:water"), (LAVA_BUCKET, "base:lava")]
)
def test_a_full_bucket_pours_a_source_against_the_floor_and_becomes_an_empty_bucket(
    bucket: str, name: str
) -> None:
    world, rules = setup()
    actor, slots = player(world, ItemStack(bucket, 1))
    hit = aim(world, actor)
    assert hit is not None and hit.block == (0, FLOOR, 2) and hit.face == (0, 1, 0)
    outcome = rules.use_block(hit, actor)
    assert outcome.done and outcome.used
    assert world.get_block(0, 1, 2) == world.registry.id(name)  # a still source, level 8
    assert world.registry.liquids.level[world.get_block(0, 1, 2)] == 8
    assert slots[0] == ItemStack(BUCKET, 1)
    assert [s for s in slots if s is not None] == [ItemStack(BUCKET, 1)]


def test_a_full_bucket_looks_through_water_and_pours_where_the_player_stands() -> None:
    world, rules = setup()
    flowing = liquid(world, "base:water", (0, 1, 2), level=5)
    actor, slots = player(world, ItemStack(WATER_BUCKET, 1))
    hit = aim(world, actor)
    assert hit is not None and hit.block == (0, FLOOR, 2)  # through the flowing water
    hit = aim(world, actor, (0.0, -1.0, 0.0))  # straight down at the floor under the feet
    assert hit is not None and hit.block == (0, FLOOR, 0)
    assert rules.use_block(hit, actor).used  # a liquid has no collision: into the player's voxel
    assert world.get_block(0, 1, 0) == world.registry.id("base:water")
    assert world.get_block(0, 1, 2) == flowing and slots[0] == ItemStack(BUCKET, 1)


def test_a_bucket_pours_into_a_clicked_replaceable_block_or_washes_a_torch_away() -> None:
    world, rules = setup()
    registry = world.registry
    world.set_block(0, 1, 2, registry.id("base:tall_grass"))
    actor, slots = player(world, ItemStack(WATER_BUCKET, 1))
    grass = Hit(Int3(0, 1, 2), Int3(0, 0, -1), 2.0, (0.5, 1.2, 2.0), world.get_block(0, 1, 2))
    assert rules.use_block(grass, actor).used
    assert world.get_block(0, 1, 2) == registry.id("base:water")  # in place of the grass
    torch = registry.id("base:torch")
    world.set_block(0, 1, 3, torch)
    slots[0] = ItemStack(WATER_BUCKET, 1)
    floor = Hit(Int3(0, FLOOR, 3), Int3(0, 1, 0), 3.0, (0.5, 1.0, 3.5), world.get_block(0, 0, 3))
    assert rules.use_block(floor, actor).used
    assert world.get_block(0, 1, 3) == registry.id("base:water")
    assert lying(world) == [ItemStack("base:torch", 1)]  # washed away with its drop
    assert slots[0] == ItemStack(BUCKET, 1)


def test_a_bucket_poured_into_its_own_liquid_s_source_keeps_its_liquid() -> None:
    world, rules = setup()
    liquid(world, "base:water", (0, 1, 2))
    actor, slots = player(world, ItemStack(WATER_BUCKET, 1))
    before = snapshot(world)
    outcome = rules.use_block(aim(world, actor), actor)  # the floor under the source
    assert not outcome.done and "already water" in outcome.reason
    assert snapshot(world) == before and slots[0] == ItemStack(WATER_BUCKET, 1)


# -- vetoes, failures, creative --------------------------------------------------------------


class NoLiquids:
    """Refuses every liquid placed (``can_place``)."""

    @hookimpl
    def can_place(self, block: object) -> str | None:
        return "no liquids here" if "liquid" in getattr(block, "groups", ()) else None


class Failing:
    """Raises after a liquid is placed (``on_place``)."""

    @hookimpl
    def on_place(self, block: object) -> None:
        if "liquid" in getattr(block, "groups", ()):
            raise RuntimeError("boom")


@pytest.mark.parametrize("bucket", [WATER_BUCKET, LAVA_BUCKET])
def test_a_mod_s_veto_leaves_the_world_and_the_full_bucket_as_they_were(bucket: str) -> None:
    world, rules = setup(veto=NoLiquids())
    actor, slots = player(world, ItemStack(bucket, 1))
    world.set_block(0, 1, 3, world.registry.id("base:torch"))  # broken first, then put back
    before = snapshot(world)
    hit = Hit(Int3(0, FLOOR, 3), Int3(0, 1, 0), 3.0, (0.5, 1.0, 3.5), world.get_block(0, 0, 3))
    outcome = rules.use_block(hit, actor)
    assert not outcome.done and outcome.reason == "no liquids here" and outcome.denied_by == "veto"
    assert snapshot(world) == before and slots[0] == ItemStack(bucket, 1)


def test_a_failing_hook_rolls_the_pour_back_and_names_the_mod() -> None:
    world, rules = setup(failing=Failing())
    actor, slots = player(world, ItemStack(WATER_BUCKET, 1))
    before = snapshot(world)
    outcome = rules.use_block(aim(world, actor), actor)
    assert not outcome.done and outcome.denied_by == "failing" and "boom" in outcome.reason
    assert snapshot(world) == before and slots[0] == ItemStack(WATER_BUCKET, 1)


def test_protection_keeps_a_stranger_s_buckets_from_an_area_and_lets_the_owner() -> None:
    world, rules = setup(example_mods=True)
    protect(world, "pond", (-4, 0, 1), (4, 3, 4), owner="owner")
    liquid(world, "base:water", (0, 1, 2))
    actor, slots = player(world, ItemStack(BUCKET, 1), ItemStack(LAVA_BUCKET, 1))
    before = snapshot(world)
    taking = rules.use_block(aim(world, actor), actor)
    assert not taking.done and taking.denied_by == "protection"
    assert snapshot(world) == before
    # Poured from outside onto a block outside, into a voxel inside: can_place refuses.
    world.players.get("alex").inventory.selected = 1  # type: ignore[union-attr]
    pouring = Actor.at("alex", FEET, item=LAVA_BUCKET, look=DOWN_AHEAD)
    side = Hit(Int3(0, 1, 0), Int3(0, 0, 1), 1.0, (0.5, 1.5, 1.0), 0)
    world.set_block(0, 1, 0, world.registry.id("base:stone"))
    before = snapshot(world)
    refused = rules.use_block(side, pouring)
    assert not refused.done and refused.denied_by == "protection"
    assert snapshot(world) == before and slots[1] == ItemStack(LAVA_BUCKET, 1)
    owner, owned = player(world, ItemStack(BUCKET, 1), name="owner")
    assert rules.use_block(aim(world, owner), owner).used
    assert owned[0] == ItemStack(WATER_BUCKET, 1)


def test_creative_keeps_the_empty_bucket_adds_one_full_bucket_and_never_empties_it() -> None:
    world, rules = setup()
    liquid(world, "base:water", (0, 1, 2))
    liquid(world, "base:water", (1, 1, 2))
    actor, slots = player(world, ItemStack(BUCKET, 1), creative=True)
    assert rules.use_block(aim(world, actor), actor).used
    assert world.get_block(0, 1, 2) == 0
    assert slots[0] == ItemStack(BUCKET, 1) and slots[1] == ItemStack(WATER_BUCKET, 1)
    assert rules.use_block(aim(world, actor, (1.0, -1.62, 2.0)), actor).used  # the second
    assert world.get_block(1, 1, 2) == 0
    assert [s for s in slots if s is not None] == [ItemStack(BUCKET, 1), ItemStack(WATER_BUCKET, 1)]
    world.players.get("alex").inventory.selected = 1  # type: ignore[union-attr]
    pourer = Actor.at("alex", FEET, creative=True, item=WATER_BUCKET, look=DOWN_AHEAD)
    assert rules.use_block(aim(world, pourer), pourer).used
    assert world.get_block(0, 1, 2) == world.registry.id("base:water")
    assert slots[1] == ItemStack(WATER_BUCKET, 1)  # still full


def test_an_actor_who_is_no_player_or_does_not_hold_the_bucket_uses_nothing() -> None:
    world, rules = setup()
    liquid(world, "base:water", (0, 1, 2))
    before = snapshot(world)
    ghost = Actor.at("ghost", FEET, item=BUCKET, look=DOWN_AHEAD)  # no player of the world
    assert not rules.use_block(aim(world, ghost), ghost).done
    _, slots = player(world, ItemStack("base:dirt", 1))
    claims = Actor.at("alex", FEET, item=BUCKET, look=DOWN_AHEAD)  # says so, holds dirt
    assert not rules.use_block(aim(world, claims), claims).done
    assert snapshot(world)[0] == before[0] and slots[0] == ItemStack("base:dirt", 1)


# -- definitions -----------------------------------------------------------------------------


def test_the_buckets_are_registered_with_minecraft_s_stack_sizes() -> None:
    items = World().registry.items
    assert (items[BUCKET].stack_max, BUCKET_STACK) == (16, 16)
    assert items[WATER_BUCKET].stack_max == items[LAVA_BUCKET].stack_max == 1
    assert items[BUCKET].points_at == "liquid_sources"
    assert items[WATER_BUCKET].points_at == items[LAVA_BUCKET].points_at == "blocks"


@pytest.mark.parametrize(
    ("fields", "named"),
    [({"liquid": "water"}, "liquid"), ({"liquid": "base:water", "empty": 3}, "empty")],
)
def test_a_pour_is_checked_naming_the_bad_field(fields: dict[str, object], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Pour(**fields)  # type: ignore[arg-type]


class Honey:
    """A mod whose bucket pours a block that is no liquid."""

    @hookimpl
    def register_blocks(self, registry: object) -> None:
        registry.register_item(  # type: ignore[attr-defined]
            Item("honey:bucket", stack_max=1, on_use=Pour("base:stone"))
        )


def test_a_bucket_of_something_that_is_no_liquid_fails_as_its_mod_and_changes_nothing() -> None:
    world, rules = setup(honey=Honey())
    actor, _ = player(world, ItemStack("honey:bucket", 1))
    before = snapshot(world)
    outcome = rules.use_block(aim(world, actor), actor)
    assert (
        not outcome.done
        and outcome.denied_by == "honey"
        and "no registered liquid" in outcome.reason
    )
    assert snapshot(world) == before


def test_pointable_for_refuses_what_is_no_item_name() -> None:
    with pytest.raises(ValueError, match="item"):
        World().registry.pointable_for(3)  # type: ignore[arg-type]


def test_an_item_on_use_s_denial_is_the_click_s_answer_and_undoes_its_changes() -> None:
    def dig_then_refuse(world: object, pos: Int3) -> Outcome:
        world.set_block(*pos, "air")  # type: ignore[attr-defined]
        return Outcome(False, "changed my mind", pos=pos, denied_by="fickle")

    class Fickle:
        @hookimpl
        def register_blocks(self, registry: object) -> None:
            registry.register_item(Item("fickle:wand", on_use=dig_then_refuse))  # type: ignore[attr-defined]

    world, rules = setup(fickle=Fickle())
    actor, _ = player(world, ItemStack("fickle:wand", 1))
    before = snapshot(world)
    outcome = rules.use_block(aim(world, actor), actor)
    assert not outcome.done and outcome.reason == "changed my mind"
    assert snapshot(world) == before
