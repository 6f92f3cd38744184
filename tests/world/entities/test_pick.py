"""Picking entities with the ray, checked against a brute-force exact rational reference.

The reference knows nothing of chunks: it looks at every entity of the world, builds its box
from its kind's size (``x ± w/2``, ``y .. y + h``, ``z ± w/2`` in floats, as the contract says),
and intersects the ray with the open box in `Fraction` arithmetic (slab method: per axis with a
non-zero direction component the open interval of t inside the slab; on an axis with a zero
component the coordinate must lie in [lo, hi) of the box), keeping the smallest entry within the
reach (the lower id on an exact tie).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World, raycast
from world.base import default_registry
from world.blocks.entity_type import MAX_ENTITY_SIZE, EntityType
from world.blocks.registry import BlockRegistry
from world.entities import EntityHit, entity_box, pick, pick_entity
from world.ray import MAX_REACH, Hit, segment_voxels
from world.validate import WORLD_LIMIT
from world.voxels.entities import Entities

Q = Fraction
Box6 = tuple[float, float, float, float, float, float]


class Ref(NamedTuple):
    t: Fraction
    entity_id: int
    kind: str
    axes: tuple[int, ...]  # the axes whose enter equals the entry (lowest first); () inside
    box: Box6


def box_from_size(pos: tuple[float, float, float], size: tuple[float, float]) -> Box6:
    x, y, z = pos
    width, height = size
    return (x - width / 2, y, z - width / 2, x + width / 2, y + height, z + width / 2)


def interval(box: Box6, o: list[Fraction], d: list[Fraction]) -> Any:
    """(enter, leave, axes of the largest enter) of the open box, exactly; None if never inside."""
    enters, leaves = [], []
    for a in range(3):
        lo, hi = Q(box[a]), Q(box[a + 3])
        if d[a] == 0:
            if not lo <= o[a] < hi:
                return None
            continue
        t0, t1 = (lo - o[a]) / d[a], (hi - o[a]) / d[a]
        if d[a] < 0:
            t0, t1 = t1, t0
        enters.append((t0, a))
        leaves.append(t1)
    enter = max(t for t, _ in enters)
    if enter < 0:
        return Q(0), min(leaves), ()
    return enter, min(leaves), tuple(a for t, a in enters if t == enter)


def reference(world: World, origin, direction, reach: float, exclude=()) -> Ref | None:
    o = [Q(c) for c in origin]
    d = [Q(c) for c in direction]
    norm2 = sum(c * c for c in d)
    best = None
    for entity in world.entities:  # every entity of the world
        kind = world.registry.entities.get(entity.kind)
        if kind is None or not kind.pointable or entity.id in exclude:
            continue
        box = box_from_size(entity.pos, kind.size)
        got = interval(box, o, d)
        if got is None:
            continue
        enter, leave, axes = got
        within = enter < leave and enter * enter * norm2 <= Q(reach) ** 2
        if within and (best is None or (enter, entity.id) < (best.t, best.entity_id)):
            best = Ref(enter, entity.id, entity.kind, axes, box)
    return best


def check(hit: object, ref: Ref | None, origin, direction, reach: float) -> None:
    if ref is None:
        assert hit is None
        return
    assert isinstance(hit, EntityHit)
    assert (hit.entity_id, hit.kind) == (ref.entity_id, ref.kind)
    if not ref.axes:
        assert hit.face == (0, 0, 0)
        assert hit.distance == 0.0
        assert hit.point == tuple(float(c) for c in origin)
        return
    d = [Q(c) for c in direction]
    axis = ref.axes[0]  # the lower axis on an edge or corner
    negative = d[axis] < 0
    face = [0, 0, 0]
    face[axis] = 1 if negative else -1
    assert hit.face == tuple(face)
    norm = math.hypot(*(float(c) for c in direction))
    assert hit.distance == pytest.approx(float(ref.t) * norm, rel=1e-9, abs=1e-12)
    assert 0.0 <= hit.distance <= reach
    assert hit.point[axis] == (ref.box[axis + 3] if negative else ref.box[axis])
    exact = [Q(c) + ref.t * dc for c, dc in zip(origin, d, strict=True)]
    assert hit.point == pytest.approx([float(c) for c in exact], rel=1e-9, abs=1e-9)


# -- the worlds and rays drawn ------------------------------------------------------------------

nice = st.sampled_from([0.0, 0.125, 0.25, 0.3, 0.5, 0.75, 0.875])
sizes = st.one_of(
    st.sampled_from([0.25, 0.5, 0.6, 0.98, 1.0, 1.5, 2.0, MAX_ENTITY_SIZE]),
    st.floats(0.01, MAX_ENTITY_SIZE),
)
UNKNOWN = "test:unknown"  # a kind no registry defines: kept in the world, never hit


def coordinate(lo: int, hi: int) -> st.SearchStrategy[float]:
    # Random points, and points on the grid and its nice fractions, where faces meet rays.
    return st.one_of(st.floats(lo, hi), st.builds(lambda c, f: c + f, st.integers(lo, hi), nice))


def registry_with_kinds(draw: Any) -> tuple[BlockRegistry, list[str]]:
    registry = default_registry()
    kinds = [*registry.entities, UNKNOWN]
    for i in range(draw(st.integers(1, 3))):
        pointable = draw(st.sampled_from([True, True, False]))
        kind = EntityType(f"test:kind{i}", size=(draw(sizes), draw(sizes)), pointable=pointable)
        registry.register_entity(kind)
        kinds.append(kind.name)
    return registry, kinds


# Small worlds: entities around the chunk borders x = 0, y = 16, z = 0.
SMALL = ((-4, 4), (12, 20), (-4, 4))


@st.composite
def small_worlds(draw: Any, offset: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> World:
    registry, kinds = registry_with_kinds(draw)
    w = World(registry=registry)
    for _ in range(draw(st.integers(0, 10))):
        pos = tuple(draw(coordinate(lo, hi)) + c for (lo, hi), c in zip(SMALL, offset, strict=True))
        w.entities.add(draw(st.sampled_from(kinds)), pos)
    return w


# Where the small worlds are: mostly at the origin, sometimes far out, where a float position
# carries few bits below the block (the ray and the boxes round; the decisions stay exact).
offsets = st.sampled_from(
    [(0.0, 0.0, 0.0)] * 3 + [(1e6, 0.0, -1e6), (2.0**24, -3 * 2.0**20, 12345.678)]
)


component = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -0.25, 1e-12]),
    st.floats(-1, 1),
    st.integers(-3, 3).map(float),
)
directions = st.tuples(component, component, component).filter(lambda d: any(d))
scales = st.sampled_from([1.0, 1.0, 2.0**-600, 2.0**600])  # exact: rescaled by the checks
small_origins = st.tuples(coordinate(-6, 6), coordinate(10, 22), coordinate(-6, 6))
fractions_of_a_box = st.one_of(st.floats(0, 1), st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0]))


def aimed_ray(data: st.DataObject, w: World, origin, direction):
    """Often a ray aimed at an entity's box (mostly a pointable one): at a point inside it, on
    a face, an edge or a corner (through a rounded difference, so just beside it too), sometimes
    along an axis through that point, or starting there; else the ray drawn."""
    entities = list(w.entities)
    aim = data.draw(st.sampled_from(["drawn", "at a box", "at a box", "from a box"]))
    if not entities or aim == "drawn":
        return origin, direction
    pointable = [e for e in entities if getattr(w.registry.entities.get(e.kind), "pointable", 0)]
    if pointable and data.draw(st.integers(0, 4)):
        entities = pointable
    entity = data.draw(st.sampled_from(entities))
    kind = w.registry.entities.get(entity.kind)
    box = box_from_size(entity.pos, kind.size if kind is not None else (1.0, 1.0))
    point = tuple(
        lo + data.draw(fractions_of_a_box) * (hi - lo)
        for lo, hi in zip(box[:3], box[3:], strict=True)
    )
    if aim == "from a box":
        return point, direction
    start = list(origin)
    aimed = [p - o for p, o in zip(point, origin, strict=True)]
    for axis in data.draw(st.lists(st.integers(0, 2), max_size=2)):  # along an axis's plane
        start[axis], aimed[axis] = point[axis], 0.0
    return tuple(start), (tuple(aimed) if any(aimed) else direction)


@settings(max_examples=400, deadline=None)
@given(offsets, small_origins, directions, scales, st.floats(0, 12), st.data())
def test_pick_entity_matches_the_brute_force_reference(
    offset, origin, direction, scale: float, reach: float, data: st.DataObject
) -> None:
    w = data.draw(small_worlds(offset))
    origin = tuple(c + off for c, off in zip(origin, offset, strict=True))
    origin, direction = aimed_ray(data, w, origin, direction)
    direction = tuple(c * scale for c in direction)
    if not any(direction):
        direction = (0.0, -1.0, 0.0)
    ids = [entity.id for entity in w.entities]
    exclude = set(data.draw(st.lists(st.sampled_from(ids), max_size=2))) if ids else set()
    for _ in range(3):
        ref = reference(w, origin, direction, reach, exclude)
        hit = pick_entity(w, origin, direction, reach, exclude=exclude)
        check(hit, ref, origin, direction, reach)
        if ref is None or ref.t == 0:
            break
        # Again with the reach ending exactly on (or just short of) the face hit, when that
        # distance is a float: the reach is inclusive, exactly.
        norm2 = sum(Q(c) ** 2 for c in direction)
        exact = math.sqrt(float(ref.t * ref.t * norm2))
        if Q(exact) ** 2 == ref.t * ref.t * norm2:
            reach = data.draw(st.sampled_from([exact, math.nextafter(exact, 0.0)]))
        else:
            reach = exact


# Wide worlds: entities over several chunks on every axis, long rays through them.
WIDE = (-40, 40)


@st.composite
def wide_worlds(draw: Any) -> World:
    registry, kinds = registry_with_kinds(draw)
    w = World(registry=registry)
    for _ in range(draw(st.integers(0, 40))):
        pos = tuple(draw(coordinate(*WIDE)) for _ in range(3))
        w.entities.add(draw(st.sampled_from(kinds)), pos)
    return w


@settings(max_examples=150, deadline=None)
@given(
    wide_worlds(),
    st.tuples(coordinate(*WIDE), coordinate(*WIDE), coordinate(*WIDE)),
    directions,
    st.floats(0, 120),
    st.data(),
)
def test_pick_entity_finds_the_reference_hit_across_many_chunks(
    w: World, origin, direction, reach: float, data: st.DataObject
) -> None:
    origin, direction = aimed_ray(data, w, origin, direction)
    ref = reference(w, origin, direction, reach)
    check(pick_entity(w, origin, direction, reach), ref, origin, direction, reach)


# -- the box -----------------------------------------------------------------------------------


def kinds_world(*kinds: EntityType) -> World:
    registry = default_registry()
    for kind in kinds:
        registry.register_entity(kind)
    return World(registry=registry)


BLOCK = EntityType("test:block", size=(1.0, 1.0))  # the unit cube from pos - (0.5, 0, 0.5)
TALL = EntityType("test:tall", size=(0.5, 2.0))
GHOST = EntityType("test:ghost", size=(1.0, 1.0), pointable=False)


def test_an_entity_box_is_its_size_around_the_centre_of_its_bottom() -> None:
    w = kinds_world(TALL)
    entity = w.entities.add(TALL.name, (1.5, 2.0, -3.0))
    assert entity_box(entity, TALL) == (1.25, 2.0, -3.25, 1.75, 4.0, -2.75)


# -- edge cases --------------------------------------------------------------------------------


def test_a_ray_from_inside_a_box_hits_it_at_distance_zero_with_no_face() -> None:
    w = kinds_world(TALL)
    entity = w.entities.add(TALL.name, (0.5, 16.0, 0.5))
    hit = pick_entity(w, (0.6, 17.9, 0.4), (0.3, -1.0, 0.2), 0.0)
    assert hit == EntityHit(entity.id, TALL.name, 0.0, (0.6, 17.9, 0.4), (0, 0, 0))


def test_a_ray_starting_on_a_face_reports_it_going_in_and_misses_going_out() -> None:
    w = kinds_world(BLOCK)
    entity = w.entities.add(BLOCK.name, (0.5, 16.0, 0.5))  # the box [0, 1] x [16, 17] x [0, 1]
    hit = pick_entity(w, (1.0, 16.5, 0.5), (-1.0, 0.25, 0.0), 5.0)
    assert hit == EntityHit(entity.id, BLOCK.name, 0.0, (1.0, 16.5, 0.5), (1, 0, 0))
    assert pick_entity(w, (1.0, 16.5, 0.5), (1.0, 0.25, 0.0), 5.0) is None


@pytest.mark.parametrize(
    ("origin", "direction", "face"),
    [
        ((-2.0, 16.5, 0.5), (1.0, 0.0, 0.0), (-1, 0, 0)),
        ((3.0, 16.5, 0.5), (-1.0, 0.0, 0.0), (1, 0, 0)),
        ((0.5, 14.0, 0.5), (0.0, 1.0, 0.0), (0, -1, 0)),
        ((0.5, 19.0, 0.5), (0.0, -1.0, 0.0), (0, 1, 0)),
        ((0.5, 16.5, -2.0), (0.0, 0.0, 1.0), (0, 0, -1)),
        ((0.5, 16.5, 3.0), (0.0, 0.0, -1.0), (0, 0, 1)),
        ((0.5, 19.0, 0.5), (-0.0, -7.0, 0.0), (0, 1, 0)),
    ],
)
def test_an_axis_aligned_ray_enters_through_the_face_it_meets(origin, direction, face) -> None:
    w = kinds_world(BLOCK)
    entity = w.entities.add(BLOCK.name, (0.5, 16.0, 0.5))
    hit = pick_entity(w, origin, direction, 5.0)
    assert hit is not None and hit.entity_id == entity.id
    assert hit.face == face
    assert hit.distance == 2.0
    sign = [(c > 0) - (c < 0) for c in direction]
    assert hit.point == tuple(o + 2.0 * s for o, s in zip(origin, sign, strict=True))


@pytest.mark.parametrize(
    ("origin", "hit"),
    [
        ((-2.0, 16.0, 0.5), True),  # on the bottom: [lo, hi) holds lo
        ((-2.0, 17.0, 0.5), False),  # on the top: not hi
        ((-2.0, 16.5, 0.0), True),
        ((-2.0, 16.5, 1.0), False),
        ((-2.0, 16.0, 1.0), False),
        ((-2.0, 16.0, 0.0), True),  # along the bottom edge
    ],
)
def test_a_zero_component_on_a_box_boundary_follows_the_floor_convention(origin, hit) -> None:
    w = kinds_world(BLOCK)
    w.entities.add(BLOCK.name, (0.5, 16.0, 0.5))
    assert (pick_entity(w, origin, (1.0, 0.0, -0.0), 5.0) is not None) is hit


@pytest.mark.parametrize(
    ("origin", "direction", "distance"),
    [
        ((-2.0, 16.5, 0.5), (1.0, 0.0, 0.0), 2.0),
        ((-3.0, 12.0, 0.5), (3.0, 4.0, 0.0), 5.0),  # enters x = 0 at y = 16: 3-4-5 exactly
        ((4.0, 12.0, 0.5), (-3.0, 4.0, 0.0), 5.0),  # through the edge x = 1, y = 16
    ],
)
def test_the_reach_is_inclusive_exactly(origin, direction, distance: float) -> None:
    w = kinds_world(BLOCK)
    w.entities.add(BLOCK.name, (0.5, 16.0, 0.5))
    hit = pick_entity(w, origin, direction, distance)
    ref = reference(w, origin, direction, distance)
    check(hit, ref, origin, direction, distance)
    assert hit is not None and hit.distance == distance
    short = math.nextafter(distance, 0.0)
    check(
        pick_entity(w, origin, direction, short),
        reference(w, origin, direction, short),
        origin,
        direction,
        short,
    )


@pytest.mark.parametrize(
    ("pos", "size", "origin", "direction", "distance"),
    [
        # In chunk (0, 0, 0), 2 blocks wide into chunk (1, 0, 0): hit from there alone.
        ((15.5, 8.0, 3.0), (4.0, 4.0), (17.0, 8.5, 0.0), (0.0, 0.0, 1.0), 1.0),
        # Standing in chunk y = 0, 4 high into chunk y = 1, a ray in chunk y = 1.
        ((8.0, 15.0, 8.0), (1.0, 4.0), (5.0, 18.5, 8.0), (1.0, 0.0, 0.0), 2.5),
        # Across the border at 0 from the negative side, going away from the entity's chunk.
        ((0.5, 20.0, 0.5), (4.0, 1.0), (-1.0, 20.5, -1.0), (-1.0, 0.0, -1.0), 0.0),
        ((0.25, -0.5, -0.25), (2.0, 2.0), (-0.5, -3.0, -1.0), (0.0, 1.0, 0.0), 2.5),
        # Far along a long ray, through many empty chunks.
        ((60.5, 16.0, -40.5), (1.0, 1.0), (0.5, 16.5, 0.5), (60.0, 0.0, -41.0), 72.1),
    ],
)
def test_an_entity_sticking_across_a_chunk_border_is_hit(
    pos, size, origin, direction, distance: float
) -> None:
    kind = EntityType("test:wide", size=size)
    w = kinds_world(kind)
    entity = w.entities.add(kind.name, pos)
    reach = distance + 1.0
    hit = pick_entity(w, origin, direction, reach)
    check(hit, reference(w, origin, direction, reach), origin, direction, reach)
    assert hit is not None and hit.entity_id == entity.id
    assert hit.distance == pytest.approx(distance, abs=0.05)


def test_a_ray_to_the_world_edge_is_not_refused() -> None:
    w = kinds_world(BLOCK)
    edge = float(WORLD_LIMIT)
    entity = w.entities.add(BLOCK.name, (edge - 0.5, 0.0, 0.5))  # its box ends at the edge
    hit = pick_entity(w, (edge - 3.0, 0.5, 0.5), (1.0, 0.0, 0.0), MAX_REACH)
    assert hit is not None and (hit.entity_id, hit.distance) == (entity.id, 2.0)
    assert pick_entity(w, (edge, 0.5, 0.5), (1.0, 0.0, 0.0), MAX_REACH) is None
    assert pick(w, (edge, 0.5, 0.5), (1.0, 0.0, 0.0), MAX_REACH) is None


# -- which entities ----------------------------------------------------------------------------


def test_an_entity_of_a_kind_that_is_not_pointable_is_not_hit() -> None:
    w = kinds_world(BLOCK, GHOST)
    w.entities.add(GHOST.name, (2.5, 16.0, 0.5))
    assert pick_entity(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0) is None
    behind = w.entities.add(BLOCK.name, (5.5, 16.0, 0.5))
    hit = pick_entity(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)
    assert hit is not None and (hit.entity_id, hit.distance) == (behind.id, 4.5)


def test_an_entity_of_a_kind_no_registry_defines_is_not_hit() -> None:
    w = kinds_world()
    w.entities.add(UNKNOWN, (2.5, 16.0, 0.5))
    assert len(w.entities) == 1
    assert pick_entity(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0) is None
    assert pick(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0) is None


def test_excluded_and_removed_entities_are_passed_through() -> None:
    w = kinds_world(BLOCK)
    near = w.entities.add(BLOCK.name, (2.5, 16.0, 0.5))
    gone = w.entities.add(BLOCK.name, (4.5, 16.0, 0.5))
    far = w.entities.add(BLOCK.name, (6.5, 16.0, 0.5))
    w.entities.remove(gone)
    ray = ((0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)
    assert pick_entity(w, *ray).entity_id == near.id  # type: ignore[union-attr]
    hit = pick_entity(w, *ray, exclude=[near.id])
    assert hit is not None and hit.entity_id == far.id
    assert pick_entity(w, *ray, exclude=(near.id, far.id)) is None


def test_the_nearest_entity_wins_and_the_lower_id_on_an_exact_tie() -> None:
    w = kinds_world(BLOCK, TALL)
    far = w.entities.add(BLOCK.name, (4.5, 16.0, 0.5))
    first = w.entities.add(TALL.name, (3.25, 16.0, 0.5))  # the box [3, 3.5]: before `far`
    second = w.entities.add(BLOCK.name, (3.5, 16.0, 0.5))  # the box [3, 4]: as near
    hit = pick_entity(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)
    assert hit is not None and (hit.entity_id, hit.distance) == (first.id, 2.5)
    assert far.id < first.id < second.id


def test_a_ray_sees_what_moved_came_and_went_since_the_ray_before() -> None:
    """A player's reach looks at the entities round its ray, kept from one frame to the next
    while nothing moves: every move, arrival and departure (and the eye going further than
    that) is seen by the next ray."""
    w = kinds_world(BLOCK)
    ray = ((0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 5.0)
    sheep = w.entities.add(BLOCK.name, (3.5, 16.0, 0.5))
    assert pick_entity(w, *ray).entity_id == sheep.id  # type: ignore[union-attr]
    w.entities.move(sheep, (3.5, 16.0, 2.5))
    assert pick_entity(w, *ray) is None
    came = w.entities.add(BLOCK.name, (2.5, 16.0, 0.5))
    assert pick_entity(w, *ray).entity_id == came.id  # type: ignore[union-attr]
    w.entities.remove(came)
    assert pick_entity(w, *ray) is None
    w.entities.step(sheep, (4.5, 16.0, 0.5), (0.0, 0.0, 0.0), True)  # the engine's own step
    assert pick_entity(w, *ray).entity_id == sheep.id  # type: ignore[union-attr]
    w.entities.move(sheep, (4.5, 16.0, 6.5))
    assert pick_entity(w, (0.5, 16.5, 6.5), (1.0, 0.0, 0.0), 5.0).entity_id == sheep.id  # type: ignore[union-attr]
    assert pick_entity(w, (0.5, 16.5, 9.5), (1.0, 0.0, 0.0), 5.0) is None
    w.journal.begin()  # a move rolled back (an action undone) is seen as well
    mark = w.journal.mark()
    w.entities.move(sheep, (2.5, 16.0, 9.5))
    assert pick_entity(w, (0.5, 16.5, 9.5), (1.0, 0.0, 0.0), 5.0).entity_id == sheep.id  # type: ignore[union-attr]
    w.rollback(mark)
    w.journal.end()
    assert pick_entity(w, (0.5, 16.5, 9.5), (1.0, 0.0, 0.0), 5.0) is None


def test_the_search_looks_only_at_the_chunks_near_the_ray(monkeypatch) -> None:
    w = kinds_world(BLOCK)
    for i in range(300):  # a crowd far from the ray, which must not be scanned
        w.entities.add(BLOCK.name, (200.0 + i, 50.0, -300.0))
    target = w.entities.add(BLOCK.name, (40.5, 16.0, 0.5))
    asked: list[tuple[int, int, int]] = []
    in_chunk = w.entities.in_chunk

    def spy(key: tuple[int, int, int]) -> list[Any]:
        asked.append(key)
        return in_chunk(key)

    def refuse(*_: object) -> None:
        raise AssertionError("scanned every entity")

    monkeypatch.setattr(w.entities, "in_chunk", spy)
    monkeypatch.setattr(Entities, "__iter__", refuse)
    monkeypatch.setattr(Entities, "chunks", refuse)
    origin, direction, reach = (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 60.0
    hit = pick_entity(w, origin, direction, reach)
    assert hit is not None and hit.entity_id == target.id
    assert len(asked) == len(set(asked))
    # Each chunk asked is beside one the segment passes through: within a box's reach of it.
    end = (origin[0] + reach, origin[1], origin[2])
    passed = {tuple(cell) for cell, _ in segment_voxels(origin, end, voxel_size=16)}
    for cx, cy, cz in asked:
        assert any(
            abs(cx - px) <= 1 and cy - py in (-1, 0) and abs(cz - pz) <= 1 for px, py, pz in passed
        )
    assert len(asked) <= 18 * len(passed)


# -- the entity against the block ---------------------------------------------------------------


def stone_world(*kinds: EntityType) -> tuple[World, int]:
    w = kinds_world(*kinds)
    stone = w.registry.id("base:stone")
    w.set_block(5, 16, 0, stone)
    return w, stone


def test_pick_answers_with_the_entity_in_front_of_a_block() -> None:
    w, _ = stone_world(BLOCK)
    entity = w.entities.add(BLOCK.name, (3.5, 16.0, 0.5))
    hit = pick(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)
    assert isinstance(hit, EntityHit) and (hit.entity_id, hit.distance) == (entity.id, 2.5)


def test_pick_answers_with_the_block_in_front_of_an_entity() -> None:
    w, stone = stone_world(BLOCK)
    w.entities.add(BLOCK.name, (7.5, 16.0, 0.5))
    hit = pick(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)
    assert isinstance(hit, Hit) and (hit.block, hit.block_id, hit.distance) == (
        (5, 16, 0),
        stone,
        4.5,
    )
    assert hit == raycast(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0)


@pytest.mark.parametrize(
    "direction",
    [(1.0, 0.0, 0.0), (1.0, 0.1, 0.05), (0.3, -0.01, 0.02)],
)
def test_an_entity_as_near_as_the_block_stands_in_front(direction) -> None:
    w, _ = stone_world(BLOCK)
    entity = w.entities.add(BLOCK.name, (5.5, 16.0, 0.5))  # the stone's own voxel's box
    origin = (0.5, 16.5, 0.5)
    hit = pick(w, origin, direction, 9.0)
    block = raycast(w, origin, direction, 9.0)
    assert block is not None and block.face == (-1, 0, 0)
    assert isinstance(hit, EntityHit) and hit.entity_id == entity.id
    assert hit.distance == block.distance and hit.face == block.face


def test_an_entity_flush_on_a_slab_top_stands_in_front_of_it() -> None:
    slab = EntityType("test:slab", size=(1.0, 0.5))
    w = kinds_world(slab)
    w.set_block(3, 16, 0, w.registry.id("base:stone_slab"))  # its box: y in [16, 16.5]
    # A box [0, 1] x [15.5, 16.5] x ... sticking out of the voxel below: its top is the slab's.
    entity = w.entities.add(slab.name, (3.5, 16.0, 0.5))
    origin, direction = (0.25, 19.0, 0.5), (1.0, -0.8, 0.0)
    block = raycast(w, origin, direction, 9.0)
    assert block is not None and block.face == (0, 1, 0)
    hit = pick(w, origin, direction, 9.0)
    assert isinstance(hit, EntityHit) and hit.entity_id == entity.id
    assert hit.face == (0, 1, 0) and hit.point[1] == 16.5


def test_pick_with_nothing_to_hit_gives_none_and_a_block_alone_gives_its_hit() -> None:
    w = kinds_world()
    assert pick(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0) is None
    w.set_block(3, 16, 0, w.registry.id("base:stone"))
    assert pick(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0) == raycast(
        w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 9.0
    )


def block_t(w: World, hit: Hit, origin, direction) -> Fraction:
    """The block raycast's hit's exact entry parameter, from the plane of its face."""
    if hit.face == (0, 0, 0):
        return Q(0)
    axis = next(a for a in range(3) if hit.face[a])
    boxes = w.registry.selection_boxes[hit.block_id]
    box = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0) if boxes is None else boxes[hit.box]
    bound = hit.block[axis] + Q(box[axis] if hit.face[axis] < 0 else box[axis + 3])
    return (bound - Q(origin[axis])) / Q(direction[axis])


NEXT_TO = st.sampled_from(
    [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, -1, 0), (0, -1, 0), (0, 1, 0), (1, 0, 0), (0, 0, -1)]
)


@st.composite
def worlds_with_blocks(draw: Any) -> World:
    """Small worlds with cubes, slabs and stairs scattered, and often in, under or beside an
    entity (its box may stand on a block's face or overlap the voxel)."""
    w = draw(small_worlds())
    ids = [w.registry.id(name) for name in ("base:stone", "base:stone_slab", "base:stone_stairs")]
    cells = [
        tuple(draw(st.integers(lo, hi - 1)) for lo, hi in SMALL)
        for _ in range(draw(st.integers(0, 8)))
    ]
    for entity in w.entities:
        if draw(st.integers(0, 3)):
            dx, dy, dz = draw(NEXT_TO)
            x, y, z = (math.floor(c) for c in entity.pos)
            cells.append((x + dx, y + dy, z + dz))
    for cell in cells:
        w.set_block(*cell, draw(st.sampled_from(ids)))
    return w


@settings(max_examples=300, deadline=None)
@given(worlds_with_blocks(), small_origins, directions, st.floats(0, 12), st.data())
def test_pick_answers_with_the_nearer_of_the_entity_and_the_block(
    w: World, origin, direction, reach: float, data: st.DataObject
) -> None:
    origin, direction = aimed_ray(data, w, origin, direction)
    ref = reference(w, origin, direction, reach)
    block = raycast(w, origin, direction, reach)
    hit = pick(w, origin, direction, reach)
    if ref is not None and (block is None or ref.t <= block_t(w, block, origin, direction)):
        check(hit, ref, origin, direction, reach)
    else:
        assert hit == block


# -- arguments ---------------------------------------------------------------------------------

GOOD: dict[str, Any] = {
    "origin": (0.5, 16.5, 0.5),
    "direction": (1.0, 0.0, 0.0),
    "reach": 5.0,
    "exclude": (),
}


@pytest.mark.parametrize("function", [pick_entity, pick])
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("origin", (math.nan, 0.0, 0.0)),
        ("origin", (math.inf, 0.0, 0.0)),
        ("origin", (WORLD_LIMIT + 1.0, 0.0, 0.0)),
        ("origin", (1.0, 2.0)),
        ("origin", "abc"),
        ("direction", (0.0, 0.0, 0.0)),
        ("direction", (-0.0, 0.0, -0.0)),
        ("direction", (math.nan, 1.0, 0.0)),
        ("direction", (1.0, math.inf, 0.0)),
        ("reach", -1.0),
        ("reach", math.nan),
        ("reach", math.inf),
        ("reach", MAX_REACH * (1 + 1e-15)),
        ("reach", True),
        ("reach", "5"),
        ("exclude", "12"),
        ("exclude", 3),
        ("exclude", [1.5]),
        ("exclude", [True]),
        ("exclude", [[1]]),
    ],
)
def test_bad_arguments_are_refused_naming_them(function, name: str, value: object) -> None:
    w = kinds_world(BLOCK)
    w.entities.add(BLOCK.name, (2.5, 16.0, 0.5))
    args = {**GOOD, name: value}
    with pytest.raises(ValueError, match=name):
        function(w, args["origin"], args["direction"], args["reach"], exclude=args["exclude"])


@pytest.mark.parametrize("function", [pick_entity, pick])
def test_a_world_that_is_not_a_world_is_a_type_error(function) -> None:
    with pytest.raises(TypeError, match="world"):
        function(object(), (0.5, 0.5, 0.5), (1.0, 0.0, 0.0), 5.0)


@pytest.mark.parametrize("function", [pick_entity, pick])
def test_the_longest_reach_and_a_zero_reach_are_accepted(function) -> None:
    w = kinds_world(BLOCK)
    entity = w.entities.add(BLOCK.name, (600.5, 16.0, 0.5))
    far = function(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), MAX_REACH)
    assert isinstance(far, EntityHit) and far.entity_id == entity.id
    assert function(w, (0.5, 16.5, 0.5), (1.0, 0.0, 0.0), 0) is None
    inside = function(w, (600.5, 16.5, 0.5), (1.0, 0.0, 0.0), 0)
    assert isinstance(inside, EntityHit) and inside.distance == 0.0
