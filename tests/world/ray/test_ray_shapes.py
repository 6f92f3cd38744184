"""The raycast on selection boxes, checked against a brute-force exact rational reference.

The reference knows nothing of voxel walks: for every block of a small world and every box of its
selection shape (a full cube is the one box [0, 1]³) it intersects the ray with the open box in
`Fraction` arithmetic (slab method: per axis with a non-zero direction component the open
interval of t inside the slab; on an axis with a zero component the coordinate must lie in
[lo, hi) of the box) and keeps the box with the smallest entry parameter within the reach.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World, raycast, raycast_many
from world.base import default_registry
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import Box, slab, stairs

Q = Fraction
UNIT = Box(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
# The small worlds span x, z in [-2, 1] and y in [14, 17]: chunk borders at 0 and 16 inside.
LO = (-2, 14, -2)
SIZE = 4


class Ref(NamedTuple):
    t: Fraction
    cell: tuple[int, int, int]
    box: int
    axes: tuple[int, ...]  # the axes whose enter equals the entry (lowest first); () inside
    block_id: int


def box_interval(cell, box, o, d):
    """(enter, leave, axes of the largest enter) of the open box, exactly; None if never inside."""
    enters, leaves = [], []
    for a in range(3):
        lo, hi = cell[a] + Q(box[a]), cell[a] + Q(box[a + 3])
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
    axes = tuple(a for t, a in enters if t == enter)
    if enter < 0:
        return Q(0), min(leaves), ()
    return enter, min(leaves), axes


def reference(blocks, registry, accept, origin, direction, reach):
    o = [Q(c) for c in origin]
    d = [Q(c) for c in direction]
    norm2 = sum(c * c for c in d)
    best = None
    for cell, block_id in blocks.items():
        if not accept[block_id]:
            continue
        boxes = registry.selection_boxes[block_id]
        for i, box in enumerate((UNIT,) if boxes is None else boxes):
            got = box_interval(cell, box, o, d)
            if got is None:
                continue
            enter, leave, axes = got
            within = enter < leave and enter * enter * norm2 <= Q(reach) ** 2
            if within and (best is None or enter < best.t):
                best = Ref(enter, cell, i, axes, block_id)
    return best


def touch(cell, origin, direction):
    """The exact t at which the ray first touches the closed unit cube of ``cell``, or None."""
    o = [Q(c) for c in origin]
    d = [Q(c) for c in direction]
    enter, leave = Q(0), None
    for a in range(3):
        lo, hi = Q(cell[a]), Q(cell[a] + 1)
        if d[a] == 0:
            if not lo <= o[a] < hi:
                return None
            continue
        t0, t1 = sorted(((lo - o[a]) / d[a], (hi - o[a]) / d[a]))
        enter = max(enter, t0)
        leave = t1 if leave is None else min(leave, t1)
    return enter if leave is not None and enter <= leave else None


def check(hit, ref, registry, origin, direction, reach):
    d = [Q(c) for c in direction]
    norm = math.hypot(*(float(c) for c in direction))  # no underflow for tiny directions
    if hit is None:
        assert ref is None
        return
    cell = tuple(hit.block)
    if ref is not None and cell == ref.cell:
        assert hit.block_id == ref.block_id
        assert hit.box == ref.box
        shaped = registry.selection_boxes[ref.block_id] is not None
        if not ref.axes:
            assert tuple(hit.face) == (0, 0, 0)
        else:
            # A cube entered through an edge may report either face (the walk's tie rule); a
            # box reports the lowest axis.
            allowed = ref.axes[:1] if shaped else ref.axes
            axis = next(a for a in range(3) if hit.face[a])
            assert axis in allowed and hit.face[axis] == (-1 if d[axis] > 0 else 1)
        assert hit.distance == pytest.approx(float(ref.t) * norm, rel=1e-9, abs=1e-12)
        exact = [Q(c) + ref.t * dc for c, dc in zip(origin, d, strict=True)]
        assert hit.point == pytest.approx([float(c) for c in exact], rel=1e-9, abs=1e-9)
        return
    # Otherwise only a full cube the walk reaches at an exact edge or corner tie, touching it on
    # its boundary no later than the first box the ray passes through.
    assert registry.selection_boxes[hit.block_id] is None
    t = touch(cell, origin, direction)
    assert t is not None and (ref is None or t <= ref.t)
    assert float(t) * norm <= reach * (1 + 1e-12)


def build(registry, cells):
    w = World(registry=registry)
    blocks = {}
    for i, block_id in enumerate(cells):
        if block_id:
            x, rest = divmod(i, SIZE * SIZE)
            y, z = divmod(rest, SIZE)
            cell = (LO[0] + x, LO[1] + y, LO[2] + z)
            w.set_block(*cell, block_id)
            blocks[cell] = block_id
    return w, blocks


nice = st.sampled_from([0.0, 1 / 16, 0.25, 6 / 16, 0.5, 10 / 16, 0.75, 15 / 16, 1.0])
unit = st.one_of(nice, st.floats(0, 1))
span = st.tuples(unit, unit).filter(lambda p: p[0] != p[1]).map(sorted)


@st.composite
def boxes(draw: Any) -> tuple[Box, ...]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        (x0, x1), (y0, y1), (z0, z1) = draw(span), draw(span), draw(span)
        out.append(Box(x0, y0, z0, x1, y1, z1))
    return tuple(out)


@st.composite
def worlds(draw: Any) -> tuple[BlockRegistry, World, dict, list[int]]:
    registry = default_registry()
    ids = [registry.id("base:stone")]
    for i in range(draw(st.integers(1, 4))):
        pointable = draw(st.sampled_from([True, True, True, False]))
        block = BlockType(f"test:shape{i}", pointable=pointable, selection=draw(boxes()))
        ids.append(registry.register(block))
    choice = st.one_of(st.just(0), st.just(0), st.sampled_from(ids))
    cells = draw(st.lists(choice, min_size=SIZE**3, max_size=SIZE**3))
    w, blocks = build(registry, cells)
    return registry, w, blocks, ids


def coordinate(lo: int) -> st.SearchStrategy[float]:
    # Random points, points on voxel faces and on the boxes' nice faces, inside the world's span.
    return st.one_of(
        st.floats(lo - 1, lo + SIZE + 1),
        st.builds(lambda c, f: c + f, st.integers(lo - 1, lo + SIZE), nice),
    )


component = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -0.25, 1e-12]),
    st.floats(-1, 1),
    st.integers(-3, 3).map(float),
)
directions = st.tuples(component, component, component).filter(lambda d: any(d))
origins = st.tuples(coordinate(LO[0]), coordinate(LO[1]), coordinate(LO[2]))


@settings(max_examples=400, deadline=None)
@given(worlds(), origins, directions, st.floats(0, 7), st.booleans(), st.data())
def test_shape_raycast_matches_exact_reference(world, origin, direction, reach, use_hits, data):
    registry, w, blocks, ids = world
    accept = list(registry.pointable_list)
    hits = None
    if use_hits:  # a predicate: a shaped state it accepts is still hit only through its boxes
        chosen = set(data.draw(st.lists(st.sampled_from(ids), max_size=len(ids))))
        accept = [i in chosen for i in range(len(registry))]
        hits = chosen.__contains__
    for _ in range(4):
        ref = reference(blocks, registry, accept, origin, direction, reach)
        hit = raycast(w, origin, direction, reach, hits=hits)
        check(hit, ref, registry, origin, direction, reach)
        if ref is None or ref.t == 0:
            break
        # Again with the reach ending exactly on (or just short of) the box face hit, when that
        # distance is a float: then the reach is inclusive, exactly.
        norm2 = sum(Q(c) ** 2 for c in direction)
        exact = float(ref.t * ref.t * norm2) ** 0.5
        if Q(exact) ** 2 == ref.t * ref.t * norm2:
            reach = data.draw(st.sampled_from([exact, math.nextafter(exact, 0.0)]))
        else:
            reach = exact


@settings(max_examples=60, deadline=None)
@given(worlds(), st.integers(0, 2**32 - 1), st.booleans())
def test_raycast_many_answers_as_raycast_on_shaped_worlds(world, seed, use_hits):
    registry, w = world[0], world[1]
    rng = np.random.default_rng(seed)
    n = 160
    lo = np.array(LO, dtype=np.float64)
    grid = (
        lo - 1 + rng.integers(0, SIZE + 1, (n, 3)) + rng.choice([0.0, 0.25, 0.5, 15 / 16], (n, 3))
    )
    free = lo - 1 + rng.random((n, 3)) * (SIZE + 2)
    origins = np.where(rng.random((n, 1)) < 0.3, grid, free)
    directions = rng.normal(size=(n, 3))
    axis_rays = rng.random(n) < 0.2  # some with zero components
    directions[axis_rays] *= rng.integers(0, 2, (int(axis_rays.sum()), 3))
    directions[~directions.any(axis=1)] = (0.0, -1.0, 0.0)
    reach = rng.choice([1.5, 3.0, 6.0], n)
    mask = rng.random(len(registry)) < 0.5 if use_hits else None
    hits = None if mask is None else mask.__getitem__
    batch = raycast_many(w, origins, directions, reach, hits=mask)
    for i in range(n):
        o, d = origins[i].tolist(), directions[i].tolist()
        hit = raycast(w, o, d, float(reach[i]), hits=hits)
        assert batch.hit[i] == (hit is not None)
        if hit is not None:
            assert tuple(batch.block[i]) == hit.block
            assert tuple(batch.face[i]) == hit.face
            assert batch.distance[i] == hit.distance
            assert batch.block_id[i] == hit.block_id
            assert batch.box[i] == hit.box


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2), unit, unit)
def test_a_zero_thickness_selection_box_is_refused_at_registration_naming_the_block(axis, a, b):
    corner = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    corner[axis] = corner[axis + 3] = a
    with pytest.raises(ValueError, match="test:flat"):
        BlockRegistry().register(BlockType("test:flat", selection=(Box(*corner),)))
    corner[axis], corner[axis + 3] = max(a, b), min(a, b)  # inverted (or empty when equal)
    with pytest.raises(ValueError, match="test:flat"):
        BlockRegistry().register(BlockType("test:flat", selection=(Box(*corner),)))


def _slab_world():
    registry = default_registry()
    registry.register(
        BlockType(
            "test:slab",
            properties={"half": ("bottom", "top")},
            selection=lambda p: slab(p["half"]),
        )
    )
    registry.register(
        BlockType("test:stairs", properties={"half": ("bottom", "top")}, selection=stairs())
    )
    return registry, World(registry=registry)


def test_a_ray_over_a_bottom_slab_walks_on_to_the_block_behind():
    registry, w = _slab_world()
    bottom = registry.state_id("test:slab", half="bottom")
    stone = registry.id("base:stone")
    w.set_block(0, 16, 0, bottom)
    w.set_block(0, 16, 1, stone)
    hit = raycast(w, (0.5, 16.75, -0.5), (0.0, 0.0, 1.0), 5.0)
    assert hit is not None and hit.block == (0, 16, 1) and hit.block_id == stone
    assert hit.distance == 1.5 and hit.face == (0, 0, -1)
    low = raycast(w, (0.5, 16.25, -0.5), (0.0, 0.0, 1.0), 5.0)
    assert low is not None and low.block == (0, 16, 0) and low.block_id == bottom
    assert low.point == (0.5, 16.25, 0.0) and low.box == 0


def test_a_ray_along_a_box_face_hits_on_its_lower_bound_only():
    registry, w = _slab_world()
    w.set_block(-1, 15, -1, registry.state_id("test:slab", half="bottom"))
    on_top = raycast(w, (-0.5, 15.5, -3.0), (0.0, 0.0, 1.0), 5.0)  # y = the slab's top, y1
    assert on_top is None
    w.set_block(-1, 15, -1, registry.state_id("test:slab", half="top"))
    on_bottom = raycast(w, (-0.5, 15.5, -3.0), (0.0, 0.0, 1.0), 5.0)  # y = the top slab's y0
    assert on_bottom is not None and on_bottom.distance == 2.0


def test_origins_inside_on_and_reach_ending_on_a_box():
    registry, w = _slab_world()
    stairs_id = registry.id("test:stairs")
    w.set_block(0, 0, 0, stairs_id)  # north stairs: slab below, step on the north half
    inside = raycast(w, (0.5, 0.25, 0.5), (0.0, 1.0, 0.0), 5.0)
    assert inside is not None and inside.face == (0, 0, 0) and inside.distance == 0.0
    assert inside.point == (0.5, 0.25, 0.5) and inside.box == 0
    on_face = raycast(w, (0.5, 0.5, 0.75), (0.0, -1.0, 0.0), 5.0)  # on the slab's top
    assert on_face is not None and on_face.face == (0, 1, 0) and on_face.distance == 0.0
    step = raycast(w, (0.5, 0.75, 2.0), (0.0, 0.0, -1.0), 1.5)  # reach ends on the step's face
    assert step is not None and step.box == 1 and step.face == (0, 0, 1)
    assert step.point == (0.5, 0.75, 0.5) and step.distance == 1.5
    assert raycast(w, (0.5, 0.75, 2.0), (0.0, 0.0, -1.0), math.nextafter(1.5, 0.0)) is None


def test_a_ray_parallel_to_a_box_face_from_a_small_negative_origin_is_decided_exactly():
    """On an axis the ray runs parallel to, ``o - X`` of an origin just below 0 is rounded: a
    hair below 0 gives 1.0, onto the box's far bound (the ray still runs inside the box), and
    -(0.25 + 2^-54) gives 0.75, onto its near bound (the ray runs just outside). Both are
    decided as the exact reference decides them, by `raycast` and `raycast_many` alike."""
    registry = default_registry()
    back = registry.register(BlockType("test:back", selection=(Box(0, 0, 0.75, 1, 0.5, 1),)))
    w = World(registry=registry)
    w.set_block(0, 17, -1, back)
    direction = (0.0, 1.0, 0.0)
    for z, inside in ((-6.1e-236, True), (-(0.25 + 2.0**-54), False)):
        origin = (0.5, 17.0, z)
        assert (origin[2] + 1.0 < 1.0) != inside  # rounded onto the bound (module notes)
        ref = reference({(0, 17, -1): back}, registry, registry.pointable_list, origin,
                        direction, 0.0)  # fmt: skip
        assert (ref is not None) == inside
        hit = raycast(w, origin, direction, 0.0)
        many = raycast_many(w, np.array([origin]), np.array([direction]), 0.0)
        assert (hit is not None) == inside == bool(many.hit[0])
        if inside:
            assert hit is not None and hit.block == (0, 17, -1) and hit.face == (0, -1, 0)
            assert hit.distance == 0.0
            assert tuple(many.block[0]) == (0, 17, -1) and tuple(many.face[0]) == (0, -1, 0)
