"""The entities store (`world.voxels.entities`): one path for every change, recorded and marked,
indexed by chunk, and rolled back exactly with the blocks."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import default_registry
from world.blocks.entity_type import ITEM_ENTITY
from world.geometry import Int3, Vec3
from world.items.inventory import ItemStack
from world.validate import WORLD_LIMIT
from world.voxels.entities import Entities, Entity, chunk_of, drop_item

# A few chunks either side of the origin on every axis, borders included.
coords = st.floats(-20.0, 36.0, allow_nan=False)
positions = st.tuples(coords, coords, coords)
velocities = st.tuples(*[st.floats(-50.0, 50.0, allow_nan=False)] * 3)
values = st.one_of(
    st.text(max_size=8),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.booleans(),
    st.binary(max_size=8),
)
keys = st.sampled_from(["count", "item", "owner", "hp"])
kinds = st.sampled_from(["builtin:item", "mobs:sheep", "gone:mod_removed"])
ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), kinds, positions, st.dictionaries(keys, values, max_size=3)),
        st.tuples(st.just("move"), st.integers(0, 99), positions, velocities),
        st.tuples(st.just("turn"), st.integers(0, 99), st.floats(-720.0, 720.0)),
        st.tuples(st.just("write"), st.integers(0, 99), keys, st.none() | values),
        st.tuples(st.just("remove"), st.integers(0, 99)),
    ),
    max_size=25,
)


def apply(world: World, made: list[Entity], plan: list[tuple[Any, ...]]) -> None:
    """Carry out ``plan`` on the world's entities; ``made`` holds every entity ever added."""
    store = world.entities
    for op, *args in plan:
        if op == "add":
            kind, pos, data = args
            made.append(store.add(kind, pos, data=data))
        elif made:
            entity = made[args[0] % len(made)]
            if op == "move":
                store.move(entity, args[1], args[2])
            elif op == "turn":
                store.move(entity, entity.pos, yaw=args[1])
            elif op == "write":
                store.write(entity, args[1], args[2])
            else:
                store.remove(entity)


def typed(data: dict[str, Any]) -> dict[str, tuple[type, Any]]:
    return {key: (type(value), value) for key, value in data.items()}


def state(world: World, made: list[Entity]) -> object:
    """What a rollback must restore: each entity's fields (the removed ones' too) and the index
    by id and by chunk."""
    store = world.entities
    return (
        [
            (e.id, e.kind, e.pos, e.velocity, e.yaw, e.born, typed(e.data), e.chunk, e.removed)
            for e in made
        ],
        sorted(store.by_id),
        {key: sorted(e.id for e in store.in_chunk(key)) for key in store.chunks()},
    )


@settings(max_examples=80, deadline=None)
@given(before=ops, first=ops, second=ops)
def test_a_rollback_restores_the_entities_exactly_as_they_were_at_its_mark(
    before: list[tuple[Any, ...]], first: list[tuple[Any, ...]], second: list[tuple[Any, ...]]
) -> None:
    world = World(default_registry())
    made: list[Entity] = []
    apply(world, made, before)  # outside any action: stands
    world.modified.clear()  # as after a save
    at_start = state(world, made)
    world.journal.begin()
    start = world.journal.mark()
    existed = len(made)
    apply(world, made, first)
    at_mark = state(world, made)
    mark, added = world.journal.mark(), len(made)
    apply(world, made, second)
    world.rollback(mark)
    assert state(world, made[:added]) == at_mark
    assert all(e.removed for e in made[added:])
    world.rollback(start)
    world.journal.end()
    assert state(world, made[:existed]) == at_start
    assert all(e.removed for e in made[existed:])
    assert world.modified == set()  # the whole action undone: nothing left to save
    # Every entity indexed is where its position says, and in no other chunk.
    for entity in world.entities:
        assert entity.chunk == chunk_of(entity.pos) and not entity.removed
        assert entity in world.entities.in_chunk(entity.chunk)


@settings(max_examples=60, deadline=None)
@given(plan=ops)
def test_the_chunk_index_always_says_where_each_entity_stands(plan: list[tuple[Any, ...]]) -> None:
    world = World(default_registry())
    made: list[Entity] = []
    apply(world, made, plan)
    store = world.entities
    alive = [e for e in made if not e.removed]
    assert sorted(store.by_id) == sorted(e.id for e in alive)
    by_chunk: dict[tuple[int, int, int], set[int]] = {}
    for entity in alive:
        by_chunk.setdefault(chunk_of(entity.pos), set()).add(entity.id)
    assert {key: {e.id for e in store.in_chunk(key)} for key in store.chunks()} == by_chunk
    # Every chunk an entity stood in, came to or left is marked unsaved.
    assert set(by_chunk) <= world.modified


def test_a_move_across_a_chunk_border_reindexes_it_and_marks_both_chunks_unsaved() -> None:
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (15.5, 1.0, 0.5))
    world.modified.clear()
    world.entities.move(sheep, (16.5, 1.0, 0.5))
    assert sheep.chunk == (1, 0, 0)
    assert world.entities.in_chunk((0, 0, 0)) == []
    assert world.entities.in_chunk((1, 0, 0)) == [sheep]
    assert world.entities.chunks() == [(1, 0, 0)]
    assert world.modified == {(0, 0, 0), (1, 0, 0)}
    world.modified.clear()
    world.entities.move(sheep, (-0.5, 1.0, 0.5))  # two chunks over, to the negative side
    assert sheep.chunk == (-1, 0, 0) and world.modified == {(1, 0, 0), (-1, 0, 0)}


def test_a_move_within_a_chunk_marks_it_and_a_move_to_where_it_is_marks_nothing() -> None:
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
    world.modified.clear()
    world.entities.move(sheep, (3.0, 1.0, 3.0))
    assert world.modified == set()
    world.entities.move(sheep, (4.0, 1.0, 3.0))
    assert world.modified == {(0, 0, 0)} and world.entities.in_chunk((0, 0, 0)) == [sheep]


def test_writes_and_removal_mark_the_chunk_and_a_removed_entity_is_gone_everywhere() -> None:
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (3.0, 20.0, 3.0), data={"wool": True})
    world.modified.clear()
    world.entities.write(sheep, "wool", False)
    assert sheep.data == {"wool": False} and world.modified == {(0, 1, 0)}
    world.modified.clear()
    world.entities.write(sheep, "wool", None)
    assert sheep.data == {} and world.modified == {(0, 1, 0)}
    world.modified.clear()
    world.entities.remove(sheep)
    assert sheep.removed and world.modified == {(0, 1, 0)}
    assert world.entities.get(sheep.id) is None and world.entities.in_chunk((0, 1, 0)) == []
    assert len(world.entities) == 0 and world.entities.chunks() == []
    world.entities.remove(sheep)  # nothing: it is gone already


def test_a_write_of_the_same_value_and_type_marks_nothing_but_another_type_does() -> None:
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0), data={"n": 1})
    world.modified.clear()
    world.entities.write(sheep, "n", 1)
    assert world.modified == set()
    world.entities.write(sheep, "n", True)  # equal to 1, but a bool: saved as a bool
    assert sheep.data["n"] is True and world.modified == {(0, 0, 0)}


def test_ids_are_never_reused_in_a_run_even_after_a_rollback() -> None:
    world = World(default_registry())
    world.journal.begin()
    mark = world.journal.mark()
    first = world.entities.add("mobs:sheep", (0.0, 0.0, 0.0))
    world.rollback(mark)
    world.journal.end()
    second = world.entities.add("mobs:sheep", (0.0, 0.0, 0.0))
    assert second.id != first.id and first.removed and world.entities.get(first.id) is None


def test_an_unloaded_chunk_takes_its_entities_out_and_a_stale_reference_cannot_bring_one_back() -> (
    None
):
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (3.0, 1.0, 3.0))
    world.modified.clear()  # saved
    assert world.unload_chunk(0, 0, 0)
    assert len(world.entities) == 0 and sheep.removed
    world.entities.move(sheep, (4.0, 1.0, 3.0))  # a mod still holding it
    assert len(world.entities) == 0 and world.entities.in_chunk((0, 0, 0)) == []


def test_installed_entities_are_not_marked_unsaved_and_their_age_counts_on() -> None:
    world = World(default_registry())
    world.block_data.clock = 100.0
    [sheep] = world.entities.install(
        (0, 0, 0),
        [
            {
                "kind": "mobs:sheep",
                "pos": (1.0, 2.0, 3.0),
                "velocity": (0.0, 0.0, 0.0),
                "yaw": 90.0,
                "age": 30.0,
                "data": {"wool": True},
            }
        ],
    )
    assert world.modified == set() and world.entities.in_chunk((0, 0, 0)) == [sheep]
    world.block_data.clock = 110.0
    assert world.entities.age(sheep) == 40.0
    assert sheep.saved(110.0) == {
        "kind": "mobs:sheep",
        "pos": [1.0, 2.0, 3.0],
        "velocity": [0.0, 0.0, 0.0],
        "yaw": 90.0,
        "age": 40.0,
        "data": {"wool": True},
    }
    with pytest.raises(ValueError, match="not in its chunk"):
        world.entities.install((1, 0, 0), [{"kind": "mobs:sheep", "pos": (1.0, 2.0, 3.0)}])


def test_a_dropped_stack_is_an_item_entity_at_the_voxel_centre() -> None:
    world = World(default_registry())
    item = drop_item(world.entities, Int3(-1, 5, 16), ItemStack("base:log", 7))
    assert item.kind == ITEM_ENTITY.name
    assert (item.data["item"], item.data["count"]) == ("base:log", 7)
    assert item.pos == (-0.5, 5.25, 16.5) and item.chunk == (-1, 0, 1)
    assert world.modified == {(-1, 0, 1)}


BAD_CALLS = {
    "kind": lambda s, e: s.add("sheep", (0.0, 0.0, 0.0)),
    "pos": lambda s, e: s.add("mobs:sheep", (math.nan, 0.0, 0.0)),
    "pos must lie within": lambda s, e: s.add("mobs:sheep", (float(WORLD_LIMIT), 0.0, 0.0)),
    "pos must be 3": lambda s, e: s.add("mobs:sheep", (0.0, 0.0)),
    "velocity": lambda s, e: s.add("mobs:sheep", (0.0, 0.0, 0.0), velocity=(True, 0.0, 0.0)),
    "yaw": lambda s, e: s.add("mobs:sheep", (0.0, 0.0, 0.0), yaw=math.inf),
    "age": lambda s, e: s.add("mobs:sheep", (0.0, 0.0, 0.0), age=-1.0),
    "data key": lambda s, e: s.add("mobs:sheep", (0.0, 0.0, 0.0), data={"": 1}),
    "'hp'": lambda s, e: s.add("mobs:sheep", (0.0, 0.0, 0.0), data={"hp": [1]}),
    "pos must be 3 finite": lambda s, e: s.move(e, (0.0, math.inf, 0.0)),
    "velocity must": lambda s, e: s.move(e, e.pos, ("fast", 0.0, 0.0)),
    "key": lambda s, e: s.write(e, "", 1),
    "'big'": lambda s, e: s.write(e, "big", 2**64),
    "radius": lambda s, e: s.near((0.0, 0.0, 0.0), 65.0),
    "radius must": lambda s, e: s.near((0.0, 0.0, 0.0), "far"),
    "pos must": lambda s, e: s.near((0.0, math.nan, 0.0), 1.0),
}


@pytest.mark.parametrize("named", sorted(BAD_CALLS))
def test_a_bad_argument_is_a_value_error_naming_it_and_changes_nothing(named: str) -> None:
    world = World(default_registry())
    sheep = world.entities.add("mobs:sheep", (1.0, 1.0, 1.0))
    world.modified.clear()
    before = (sheep.pos, sheep.velocity, dict(sheep.data), len(world.entities))
    with pytest.raises(ValueError, match=named):
        BAD_CALLS[named](world.entities, sheep)
    assert (sheep.pos, sheep.velocity, dict(sheep.data), len(world.entities)) == before
    assert world.modified == set()


def brute_near(store: Entities, pos: Vec3, radius: float) -> set[int]:
    return {
        e.id
        for e in store
        if sum((a - b) ** 2 for a, b in zip(e.pos, pos, strict=True)) <= radius * radius
    }


# Positions on and next to chunk borders (multiples of 16), where a scan of the wrong chunks
# would miss an entity.
border_coords = st.one_of(
    coords,
    st.sampled_from([-16.0, 0.0, 16.0, 32.0]).flatmap(
        lambda b: st.floats(b - 1e-6, b + 1e-6, allow_nan=False)
    ),
)


@settings(max_examples=150, deadline=None)
@given(
    spots=st.lists(st.tuples(border_coords, border_coords, border_coords), max_size=30),
    centre=st.tuples(border_coords, border_coords, border_coords),
    radius=st.one_of(st.floats(0.0, 64.0), st.sampled_from([0.0, 1.0, 16.0, 64.0])),
)
def test_near_finds_exactly_what_a_look_at_every_entity_finds(
    spots: list[Vec3], centre: Vec3, radius: float
) -> None:
    store = World(default_registry()).entities
    for spot in spots:
        store.add("mobs:sheep", spot)
    assert {e.id for e in store.near(centre, radius)} == brute_near(store, centre, radius)


def test_near_finds_an_entity_a_hair_below_a_chunk_border_at_its_radius() -> None:
    """The sphere's low edge, 46.73867779624161 - 30.73867779624161, rounds up onto the border
    of chunk 1; the entity at the last float below it lies within the radius all the same."""
    store = World(default_registry()).entities
    sheep = store.add("mobs:sheep", (math.nextafter(16.0, 0.0), 0.0, 0.0))
    centre, radius = (46.73867779624161, 0.0, 0.0), 30.73867779624161
    assert brute_near(store, centre, radius) == {sheep.id}
    assert store.near(centre, radius) == [sheep]
