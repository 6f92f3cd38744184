"""The ray functions' limits: bounded work for any finite input, the world's edge, the reach cap.

Work is measured by what the walk yields (one step per voxel entered, so at most
``sqrt(3) * reach + 4`` steps), with one loose wall-clock bound per call on top: the machine is
shared, so the clock only catches a runaway (the old code took minutes to hours), never noise.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from tests.world.test_validate import integers_of_any_kind
from world import World
from world.ray import MAX_REACH, raycast, raycast_many, segment_voxels, traverse
from world.ray._exact import exact_form, first_axis
from world.validate import WORLD_LIMIT

STONE = 1
LOOSE_SECONDS = 0.5  # 10x the 50 ms budget: a bound on work, not a benchmark
L = float(WORLD_LIMIT)

magnitude = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(
        [0.0, -0.0, 0.5, -0.5, L, -L, L - 0.5, -L + 0.5, L + 0.5, 2.0**53, 1e20, 1e25, 1e308]
    ),
    st.integers(-10, 10).map(lambda k: L - 1 + k / 4),
)
component = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 1.0, -1.0, 1e-300, 5e-324, 1e300, 1.7976931348623157e308]),
)
reach_value = st.one_of(
    st.floats(0.0, 1e308),
    st.sampled_from([0.0, 5.0, 1000.0, MAX_REACH, MAX_REACH + 1, 1e9, 1e308]),
)
triple = st.tuples(magnitude, magnitude, magnitude)
direction = st.tuples(component, component, component).filter(any)


def step_bound(reach: float) -> float:
    return math.sqrt(3.0) * min(reach, MAX_REACH) + 4


def outside(p: tuple[float, ...]) -> bool:
    return max(abs(c) for c in p) > L


def bad_names(origin: tuple[float, ...], reach: float, reach_name: str) -> str:
    """A regex of the arguments a refusal may name (either one when both are bad)."""
    names = (["origin"] if outside(origin) else []) + ([reach_name] if reach > MAX_REACH else [])
    return "|".join(names)


def timed(call):
    start = time.perf_counter()
    try:
        result = call()
    finally:
        assert time.perf_counter() - start < LOOSE_SECONDS
    return result


def world_near(origin: tuple[float, ...], offsets: list[tuple[int, int, int]]) -> World:
    """An empty world with stone at a few voxels around the origin (inside the world)."""
    w = World()
    if not outside(origin):
        base = [math.floor(c) for c in origin]
        for off in offsets:
            cell = [b + o for b, o in zip(base, off, strict=True)]
            if all(abs(c) < WORLD_LIMIT for c in cell):
                w.set_block(*cell, STONE)
    return w


@settings(max_examples=300, deadline=None)
@given(triple, direction, reach_value)
@example((1e25, 0.5, 0.5), (1.0, 0.0, 0.0), 5.0)
@example((0.5, 0.5, 0.5), (1.0, 1.0, 1.0), 1e9)
@example((0.5, 0.5, 0.5), (1.0, 1.0, 1.0), MAX_REACH)
@example((L - 0.5, L - 0.5, 0.5), (1.0, 1.0, 0.0), MAX_REACH)
# |d| rounds an ulp above |dy|: the crossing at exactly the reach once reported 1000.0000000000001.
@example((-0.5, 0.0, -1.0335380074155655e-13), (0.0, -4.321087113784602e16, 0.0), 1000.0)
def test_traverse_is_bounded_by_the_reach_or_refuses_naming_the_argument(origin, d, reach):
    if outside(origin) or reach > MAX_REACH:
        with pytest.raises(ValueError, match=bad_names(origin, reach, "max_distance")):
            traverse(origin, d, reach)
        return
    steps = timed(lambda: list(traverse(origin, d, reach)))
    assert len(steps) <= step_bound(reach)
    assert all(abs(c) < WORLD_LIMIT for s in steps for c in s.cell)
    assert all(s.distance <= reach for s in steps)


@settings(max_examples=300, deadline=None)
@given(
    triple,
    direction,
    reach_value,
    st.lists(st.tuples(*[st.integers(-4, 4)] * 3), max_size=6),
)
@example((1e25, 0.5, 0.5), (1.0, 0.0, 0.0), 5.0, [])
@example((0.0, 2.0**53, 0.0), (1.0, 0.0, 0.0), 5.0, [])
@example((1e20, 0.0, 0.0), (1.0, 0.0, 0.0), 5.0, [])
@example((0.5, 0.5, 0.5), (1.0, 1.0, 0.0), 1e9, [])
@example((L - 2.5, 0.5, 0.5), (1.0, 0.0, 0.0), 10.0, [(1, 0, 0)])
def test_raycast_and_raycast_many_agree_bounded_for_any_finite_input(origin, d, reach, offsets):
    w = world_near(origin, offsets)
    if outside(origin) or reach > MAX_REACH:
        name = bad_names(origin, reach, "reach")
        with pytest.raises(ValueError, match=name):
            raycast(w, origin, d, reach)
        with pytest.raises(ValueError, match=name):
            raycast_many(w, [origin], [d], reach)
        return
    hit = timed(lambda: raycast(w, origin, d, reach))
    batch = timed(lambda: raycast_many(w, [origin, origin], [d, d], reach))
    assert batch.hit.tolist() == [hit is not None] * 2
    if hit is not None:
        assert tuple(batch.block[0]) == hit.block and tuple(batch.face[0]) == hit.face
        assert batch.distance[0] == hit.distance and batch.block_id[0] == hit.block_id
        expected = next(s for s in traverse(origin, d, reach) if w.get_block(*s.cell))
        assert (hit.block, hit.distance) == (expected.cell, expected.distance)


@settings(max_examples=300, deadline=None)
@given(triple, triple, st.sampled_from([1.0, 1.0, 0.25, 100.0, 1e-300, 1e300]))
@example((0.0, 0.0, 0.0), (1e9, 0.0, 0.0), 1.0)
@example((0.5, 0.5, 0.5), (700.5, 700.5, 0.5), 1.0)
def test_segment_voxels_is_bounded_by_its_length_or_refuses(start, end, size):
    cells = (max(abs(c) for c in start) / size, max(abs(c) for c in end) / size)
    length = math.dist(start, end) / size if not (outside(start) or outside(end)) else math.inf
    if outside(start) or outside(end) or max(cells) > L or not length <= MAX_REACH:
        with pytest.raises(ValueError, match=r"start|end"):
            segment_voxels(start, end, size)
        return
    out = timed(lambda: segment_voxels(start, end, size))
    assert 1 <= len(out) <= step_bound(length)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((("1", "2", "3"), (1, 0, 0), 5.0), "origin"),
        (((True, False, True), (1, 0, 0), 5.0), "origin"),
        (((0.5, 0.5, 0.5), ("1", "0", "0"), 5.0), "direction"),
        (((0.5, 0.5, 0.5), (True, False, False), 5.0), "direction"),
        (((0.5, 0.5, 0.5), (1, 0, 0), "5"), "reach"),
        (((0.5, 0.5, 0.5), (1, 0, 0), True), "reach"),
    ],
)
def test_strings_and_bools_are_refused_naming_the_argument(args, name):
    origin, d, reach = args
    with pytest.raises(ValueError, match=name):
        raycast(World(), origin, d, reach)
    with pytest.raises(ValueError, match=name):
        raycast_many(World(), [origin], [d], reach)
    with pytest.raises(ValueError, match="max_distance" if name == "reach" else name):
        traverse(origin, d, reach)
    if name == "origin":
        with pytest.raises(ValueError, match="start"):
            segment_voxels(origin, (0, 0, 0))
        with pytest.raises(ValueError, match="voxel_size"):
            segment_voxels((0, 0, 0), (1, 0, 0), "1" if origin[0] == "1" else True)


def test_the_walk_ends_at_the_worlds_edge():
    last = WORLD_LIMIT - 1
    cells = [s.cell.x for s in traverse((last - 2.5, 0.5, 0.5), (1, 0, 0), math.inf)]
    assert cells == [last - 3, last - 2, last - 1, last]
    down = [s.cell.x for s in traverse((-last + 1.5, 0.5, 0.5), (-1, 0, 0), math.inf)]
    assert down == [-last + 1, -last]
    assert list(traverse((L, 0.5, 0.5), (1, 0, 0), 5.0)) == []  # starts outside: enters nothing
    w = World()
    w.set_block(last, 0, 0, STONE)
    hit = raycast(w, (last - 2.5, 0.5, 0.5), (1, 0, 0), 10.0)
    assert hit is not None and hit.block == (last, 0, 0)
    assert raycast(World(), (last - 2.5, 0.5, 0.5), (1, 0, 0), 10.0) is None
    batch = raycast_many(w, [(last - 2.5, 0.5, 0.5)] * 2, [(1, 0, 0), (-1, 0, 0)], 10.0)
    assert batch.hit.tolist() == [True, False] and batch.block[0].tolist() == [last, 0, 0]


def test_the_longest_walk_a_tied_diagonal_fits_the_50_ms_budget():
    # (1, 1, 1) from a voxel centre: all three crossings tie exactly at every step.
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        steps = list(traverse((0.5, 0.5, 0.5), (1, 1, 1), MAX_REACH))
        hit = raycast(World(), (0.5, 0.5, 0.5), (1, 1, 1), MAX_REACH)
        runs.append(time.perf_counter() - start)
    assert hit is None and steps[-1].cell == (591, 591, 591)
    assert len(steps) == 3 * 591 + 1  # x, then y, then z at every tie: lower axis first
    assert sorted(runs)[2] < 0.05


@settings(max_examples=500, deadline=None)
@given(
    st.tuples(*[st.integers(-64, 64).map(lambda v: v / 8)] * 3),
    st.tuples(*[st.sampled_from([0.0, 0.5, -0.5, 1.0, -1.0, 1 / 3, 0.1, -0.7, 3.0])] * 3),
    st.tuples(*[st.integers(1, 6)] * 3),
)
def test_exact_axis_order_matches_rational_arithmetic(o, d, ahead):
    assume(any(d))
    bounds = [
        math.floor(o[a]) + ahead[a] if d[a] > 0 else math.ceil(o[a]) - ahead[a] for a in range(3)
    ]
    exact = {a: (bounds[a] - Fraction(o[a])) / Fraction(d[a]) for a in range(3) if d[a] != 0.0}
    want = min(exact, key=lambda a: (exact[a], a))
    assert first_axis(exact_form(o, d), *bounds) == want


def test_raycast_many_refuses_far_origins_and_long_reaches_by_row():
    w = World()
    with pytest.raises(ValueError, match=r"origins.*row 1"):
        raycast_many(w, [(0, 0, 0), (0, 2.0**53, 0)], [(1, 0, 0)] * 2, 5)
    with pytest.raises(ValueError, match=r"reach.*row 1"):
        raycast_many(w, [(0, 0, 0)] * 2, [(1, 0, 0)] * 2, [5, MAX_REACH * 2])
    with pytest.raises(ValueError, match="origins"):
        raycast_many(w, np.array([[10**30, 0, 0]], dtype=object), [(1, 0, 0)], 5)


@settings(max_examples=300, deadline=None)
@given(integers_of_any_kind(), integers_of_any_kind(), integers_of_any_kind())
def test_integer_origins_of_any_kind_are_answered_or_refused_by_name(cx, cy, cz):
    (x, vx), (y, vy), (z, vz) = cx, cy, cz
    w = World()
    # One numpy dtype for the batch when all three share it; else a list of the objects.
    kinds = {type(x), type(y), type(z)}
    same = len(kinds) == 1 and int not in kinds
    array = np.array([[vx, vy, vz]], dtype=kinds.pop()) if same else [[x, y, z]]
    if max(abs(vx), abs(vy), abs(vz)) <= WORLD_LIMIT:
        below = (vx, vy - 3, vz)
        if all(abs(c) < WORLD_LIMIT for c in below):
            w.set_block(*below, STONE)  # a hit for the rays looking down, where one fits
        want = raycast(w, (float(vx), float(vy), float(vz)), (0, -1, 0), 5.0)
        assert raycast(w, (x, y, z), (0, -1, 0), 5) == want
        assert raycast_many(w, array, [(0, -1, 0)], 5).hit.tolist() == [want is not None]
        assert [s.cell for s in traverse((x, y, z), (0, -1, 0), 5)] == [
            s.cell for s in traverse((float(vx), float(vy), float(vz)), (0, -1, 0), 5.0)
        ]
        assert segment_voxels((x, y, z), (x, y, z))[0][1] == (float(vx), float(vy), float(vz))
        return
    with pytest.raises(ValueError, match="origin"):
        raycast(w, (x, y, z), (1, 0, 0), 5)
    with pytest.raises(ValueError, match="origins"):
        raycast_many(w, array, [(1, 0, 0)], 5)
    with pytest.raises(ValueError, match="origin"):
        traverse((x, y, z), (1, 0, 0), 5)
    with pytest.raises(ValueError, match="start"):
        segment_voxels((x, y, z), (0, 0, 0))


def test_a_wrong_world_or_hits_is_refused_naming_it():
    ray = ((0.5, 0.5, 0.5), (1, 0, 0), 5.0)
    for bad_world in (None, "world", 5):
        with pytest.raises(TypeError, match="world"):
            raycast(bad_world, *ray)
        with pytest.raises(TypeError, match="world"):
            raycast_many(bad_world, [ray[0]], [ray[1]], 5.0)
    with pytest.raises(TypeError, match="hits"):
        raycast(World(), *ray, hits="junk")
    for bad_hits in ("junk", [[1, 2], [3]], np.zeros(2, dtype=bool)):
        with pytest.raises(ValueError, match="hits"):
            raycast_many(World(), [ray[0]], [ray[1]], 5.0, hits=bad_hits)
