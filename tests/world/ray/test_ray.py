"""The raycast contract, checked against an exact rational reference.

The reference knows nothing of DDA: it lists every parameter t at which the ray crosses an integer
plane (exactly, with `Fraction`), and the voxel the ray is in on each open interval between two
crossings (the cell of the interval's midpoint). Those are the voxels whose interior the ray
passes through. The DDA may also report a voxel it only touches at an exact edge/corner tie.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import Hit, World, raycast, raycast_many, segment_voxels, traverse
from world.base import default_registry
from world.voxels.layout import Chunk

REG = default_registry()
STONE = REG.id("base:stone")
WATER = REG.id("base:water")
GLASS = REG.id("base:glass")

Q = Fraction


def _floor(q: Fraction) -> int:
    return math.floor(q)


def reference(origin, direction, max_distance):
    """Exact voxels entered (cell, entry t) with entry distance <= max_distance."""
    o = [Q(float(c)) for c in origin]
    d = [Q(float(c)) for c in direction]
    norm2 = sum(c * c for c in d)
    reach2 = Q(float(max_distance)) ** 2

    def within(t):
        return t * t * norm2 <= reach2

    crossings = set()
    for a in range(3):
        if d[a] == 0:
            continue
        step = 1 if d[a] > 0 else -1
        # first boundary strictly ahead of the origin
        b = _floor(o[a]) + 1 if step > 0 else math.ceil(o[a]) - 1
        while True:
            t = (b - o[a]) / d[a]
            crossings.add(t)
            if not within(t):
                break
            b += step
    times = sorted(crossings)

    def cell_at(t):
        p = [o[a] + t * d[a] for a in range(3)]
        return tuple(_floor(c) for c in p)

    # The start cell: per the contract (floor for d >= 0, ceil - 1 for d < 0).
    start = tuple(_floor(o[a]) if d[a] >= 0 else math.ceil(o[a]) - 1 for a in range(3))
    out = [(start, Q(0))]
    bounds = [Q(0), *times]
    for i, t in enumerate(times):
        if not within(t):
            break
        nxt = times[i + 1] if i + 1 < len(times) else t + 1
        out.append((cell_at((t + nxt) / 2), t))
    # A zero component with an integer coordinate runs in a plane: the midpoint rule picks floor,
    # as the contract does. Check the start agrees with the first interval's midpoint.
    mid = cell_at((bounds[0] + (times[0] if times else Q(1))) / 2)
    assert mid == start
    return out


def exact_entry(step, origin, direction):
    """Exact t at which a traverse step's cell was entered, from the face it reports."""
    axis = next(i for i in range(3) if step.face[i] != 0)
    d = Q(float(direction[axis]))
    boundary = step.cell[axis] + (1 if d < 0 else 0)
    return (boundary - Q(float(origin[axis]))) / d


def check_traverse(origin, direction, max_distance):
    steps = list(traverse(origin, direction, max_distance))
    ref = reference(origin, direction, max_distance)
    assert steps[0].cell == ref[0][0]
    assert steps[0].distance == 0.0
    # |direction| without underflow: scale by a power of two (exact), measure, scale back.
    shift = -math.frexp(max(abs(float(c)) for c in direction))[1]
    norm = Q(math.hypot(*(math.ldexp(float(c), shift) for c in direction))) / Q(2) ** shift
    # Group DDA steps by their exact entry parameter; the last of each group must be the
    # reference voxel entered at that parameter (the others are touched only, at a tie).
    groups: list[tuple[Fraction, tuple]] = []
    prev = steps[0].cell
    for step in steps[1:]:
        moved = [step.cell[a] - prev[a] for a in range(3)]
        assert sorted(abs(m) for m in moved) == [0, 0, 1], "one face-neighbour per step"
        axis = next(a for a in range(3) if moved[a])
        assert step.face[axis] == -moved[axis] and sum(map(abs, step.face)) == 1
        t = exact_entry(step, origin, direction)
        assert step.distance == pytest.approx(float(t * norm), rel=1e-9, abs=1e-9)
        if groups and groups[-1][0] == t:
            groups[-1] = (t, step.cell)
        else:
            assert not groups or t > groups[-1][0], "entry parameters increase"
            groups.append((t, step.cell))
        prev = step.cell
    assert [(c, t) for t, c in groups] == ref[1:]
    return steps


coord = st.one_of(
    st.integers(-40, 40).map(float),
    st.floats(-40, 40, allow_nan=False),
    st.integers(-80, 80).map(lambda v: v / 2),
)
component = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-12, -1e-12, 0.5, -2.0]),
    st.floats(-1, 1, allow_nan=False),
    st.integers(-3, 3).map(float),
)
directions = st.tuples(component, component, component).filter(lambda d: any(d))


@settings(max_examples=400, deadline=None)
@given(st.tuples(coord, coord, coord), directions, st.floats(0, 12))
def test_traverse_matches_exact_reference(origin, direction, max_distance):
    check_traverse(origin, direction, max_distance)


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)),
    st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1)).filter(
        lambda d: sum(c * c for c in d) > 0.01
    ),
    st.sampled_from([0.0, 1e6, -1e6, 123456.5]),
)
def test_long_rays_do_not_drift(offset, direction, base):
    origin = tuple(base + c for c in offset)
    steps = check_traverse(origin, direction, 200.0)
    cells = [s.cell for s in steps]
    assert len(set(cells)) == len(cells), "no voxel repeats"


def test_start_voxel_for_integer_origin_looking_negative():
    steps = list(traverse((3.0, 0.5, 0.5), (-1.0, 0.0, 0.0), 1.5))
    assert [s.cell for s in steps] == [(2, 0, 0), (1, 0, 0)]
    assert steps[0].face == (1, 0, 0) and steps[0].distance == 0.0


def test_zero_component_on_integer_keeps_floor():
    for zero in (0.0, -0.0):
        steps = list(traverse((0.5, 2.0, 0.5), (1.0, zero, 0.0), 1.0))
        assert [s.cell for s in steps] == [(0, 2, 0), (1, 2, 0)]


def test_tiny_components_cross_correctly():
    steps = check_traverse((0.5, 0.999999999999, 0.5), (1.0, 1e-12, -1e-12), 3.0)
    assert steps[-1].cell == (3, 1, 0) or steps[-1].cell[0] == 3


def world_with(*blocks: tuple[int, int, int, int]) -> World:
    w = World()
    for x, y, z, b in blocks:
        w.set_block(x, y, z, b)
    return w


def test_hit_face_and_place_position():
    w = world_with((0, 0, 5, STONE))
    hit = raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), 5)
    assert isinstance(hit, Hit)
    assert hit.block == (0, 0, 5) and hit.face == (0, 0, -1)
    assert hit.block + hit.face == (0, 0, 4)
    assert hit.distance == 4.5 and hit.point == (0.5, 0.5, 5.0) and hit.block_id == STONE


def test_reach_is_inclusive_and_exact():
    w = world_with((0, 0, 5, STONE))
    assert raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), 4.5) is not None
    assert raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), math.nextafter(4.5, 0)) is None
    # A 3-4-5 ray meets the corner of (3, 4, 0) at distance exactly 5.
    w = world_with((3, 4, 0, STONE))
    hit = raycast(w, (0.0, 0.0, 0.5), (3.0, 4.0, 0.0), 5.0)
    assert hit is not None and hit.block == (3, 4, 0) and hit.distance == 5.0
    assert raycast(w, (0.0, 0.0, 0.5), (3.0, 4.0, 0.0), math.nextafter(5.0, 0)) is None


def test_reach_at_an_irrational_distance_is_decided_exactly():
    # Entering (2, 1, 0) along (1, 1, 0)... at distance 1.5 * sqrt(2): the float reach nearest to
    # it is either just above or just below; the answer must follow the exact comparison.
    w = world_with((2, 1, 0, STONE))
    origin, direction = (0.5, 0.0, 0.5), (1.0, 1.0, 0.0)
    hit = raycast(w, origin, direction, 100)
    assert hit is not None and hit.block == (2, 1, 0)
    t = Q(3, 2)  # x reaches 2 at t = 1.5
    for reach in (hit.distance, math.nextafter(hit.distance, 0), math.nextafter(hit.distance, 9)):
        inside = t * t * 2 <= Q(reach) ** 2
        assert (raycast(w, origin, direction, reach) is not None) == inside


def test_origin_strictly_inside_gives_zero_face():
    w = world_with((0, 0, 0, STONE))
    hit = raycast(w, (0.5, 0.5, 0.5), (1, 2, 3), 5)
    assert hit is not None and hit.face == (0, 0, 0) and hit.distance == 0.0


def test_origin_on_entry_face_reports_it_at_distance_zero():
    w = world_with((2, 0, 0, STONE), (0, 0, 1, STONE))
    hit = raycast(w, (2.0, 0.5, 0.5), (1, 0, 0), 5)
    assert hit is not None and hit.block == (2, 0, 0) and hit.face == (-1, 0, 0)
    assert hit.distance == 0.0
    hit = raycast(w, (0.5, 0.5, 2.0), (0, 0, -1), 5)
    assert hit is not None and hit.block == (0, 0, 1) and hit.face == (0, 0, 1)
    assert hit.distance == 0.0


def test_negative_coordinates_and_chunk_borders():
    w = world_with((-1, -1, -17, STONE), (16, 15, -16, STONE))
    hit = raycast(w, (-0.5, -0.5, -10.0), (0, 0, -1), 10)
    assert hit is not None and hit.block == (-1, -1, -17) and hit.face == (0, 0, 1)
    assert hit.distance == 6.0
    hit = raycast(w, (14.5, 15.5, -15.5), (1, 0, 0), 3)
    assert hit is not None and hit.block == (16, 15, -16) and hit.face == (-1, 0, 0)
    # Integer origins with negative components, at a chunk corner.
    hit = raycast(world_with((-1, -1, -1, STONE)), (0.0, 0.0, 0.0), (-1, -1, -1), 3)
    assert hit is not None and hit.block == (-1, -1, -1) and hit.distance == 0.0


def test_water_is_not_pointable_but_hits_can_target_it():
    w = world_with((0, 0, 2, WATER), (0, 0, 3, STONE))
    hit = raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), 5)
    assert hit is not None and hit.block == (0, 0, 3)
    hit = raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), 5, hits=lambda b: b == WATER)
    assert hit is not None and hit.block == (0, 0, 2)


def test_large_magnitudes():
    base = 1e6
    w = world_with((1000003, 1000000, 1000000, STONE))
    hit = raycast(w, (base + 0.5, base + 0.5, base + 0.5), (1, 1e-12, 0), 5)
    assert hit is not None and hit.block == (1000003, 1000000, 1000000)
    hit = raycast(w, (base + 0.5, base + 0.5, base + 0.5), (1e6, 1, 0), 5)
    assert hit is not None and hit.block == (1000003, 1000000, 1000000)


def test_generator_fills_chunks_as_the_ray_reads_them():
    calls = []

    def floor_gen(cx, cy, cz):
        calls.append((cx, cy, cz))
        if cy != 0:
            return None
        blocks = np.zeros(4096, dtype=np.uint16)
        blocks.reshape(16, 16, 16)[:, :4, :] = STONE
        return blocks

    w = World(generator=floor_gen)
    hit = raycast(w, (5.5, 5.62, 5.5), (0, -1, 0), 5)
    assert hit is not None and hit.block == (5, 3, 5) and hit.face == (0, 1, 0)
    assert (0, 0, 0) in calls


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"origin": (math.nan, 0, 0)}, "origin"),
        ({"origin": (math.inf, 0, 0)}, "origin"),
        ({"direction": (0, 0, 0)}, "direction"),
        ({"direction": (0, math.nan, 0)}, "direction"),
        ({"direction": (-math.inf, 0, 0)}, "direction"),
        ({"reach": -1.0}, "reach"),
        ({"reach": math.nan}, "reach"),
        ({"origin": (1, 2)}, "origin"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, name):
    args = {"origin": (0.5, 0.5, 0.5), "direction": (1, 0, 0), "reach": 5.0} | kwargs
    with pytest.raises(ValueError, match=name):
        raycast(World(), args["origin"], args["direction"], args["reach"])
    if name != "reach":
        with pytest.raises(ValueError, match=name):
            traverse(args["origin"], args["direction"], 5.0)


def test_traverse_accepts_infinite_max_distance():
    it = traverse((0.5, 0.5, 0.5), (1, 1, 0), math.inf)
    cells = [next(it).cell for _ in range(50)]
    assert len(set(cells)) == 50
    with pytest.raises(ValueError, match="max_distance"):
        traverse((0, 0, 0), (1, 0, 0), -1)


def test_segment_voxels_in_millimetres():
    cells = segment_voxels((50.0, 50.0, 50.0), (350.0, 180.0, 50.0), voxel_size=100.0)
    assert [c for c, _ in cells] == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)]
    points = [p for _, p in cells]
    assert points[0] == (50.0, 50.0, 50.0)
    expected = [(100.0, 50 + 50 * 130 / 300, 50.0), (50 + 50 * 300 / 130, 100.0, 50.0)]
    expected += [(200.0, 50 + 150 * 130 / 300, 50.0), (300.0, 50 + 250 * 130 / 300, 50.0)]
    for got, want in zip(points[1:], expected, strict=True):
        assert got == pytest.approx(want)
    assert segment_voxels((1.0, 1.0, 1.0), (1.0, 1.0, 1.0)) == [((1, 1, 1), (1.0, 1.0, 1.0))]
    with pytest.raises(ValueError, match="voxel_size"):
        segment_voxels((0, 0, 0), (1, 0, 0), voxel_size=0)


def random_world(seed: int) -> World:
    rng = np.random.default_rng(seed)
    w = World()
    ids = np.array([STONE, GLASS, WATER], dtype=np.uint16)
    for key in [(cx, cy, cz) for cx in (-1, 0) for cy in (-1, 0) for cz in (-1, 0)]:
        blocks = np.where(rng.random(4096) < 0.08, rng.choice(ids, 4096), 0).astype(np.uint16)
        w.chunks[key] = Chunk(key, blocks)
    return w


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.tuples(coord, coord, coord), directions, st.floats(0, 10))
def test_raycast_is_the_first_pointable_traversed_voxel(seed, origin, direction, reach):
    origin = tuple(max(-15.0, min(15.0, c)) for c in origin)
    w = random_world(seed)
    hit = raycast(w, origin, direction, reach)
    expected = next(
        (s for s in traverse(origin, direction, reach) if REG.pointable[w.get_block(*s.cell)]),
        None,
    )
    if expected is None:
        assert hit is None
    else:
        assert hit is not None
        assert (hit.block, hit.face, hit.distance) == (
            expected.cell,
            expected.face,
            expected.distance,
        )
        assert hit.point == expected.point and hit.block_id == w.get_block(*hit.block)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_raycast_many_equals_raycast(seed, ray_seed):
    w = random_world(seed)
    rng = np.random.default_rng(ray_seed)
    n = 300
    origins = rng.uniform(-15, 15, (n, 3))
    origins[: n // 3] = np.round(origins[: n // 3] * 2) / 2  # half-integers: ties and faces
    directions = rng.normal(size=(n, 3))
    directions[: n // 4] = rng.integers(-1, 2, (n // 4, 3))
    directions[~directions.any(axis=1)] = (0.0, -1.0, 0.0)
    reach = rng.uniform(0, 10, n)
    batch = raycast_many(w, origins, directions, reach)
    for i in range(n):
        hit = raycast(w, origins[i], directions[i], reach[i])
        assert bool(batch.hit[i]) == (hit is not None)
        if hit is not None:
            assert tuple(batch.block[i]) == hit.block
            assert tuple(batch.face[i]) == hit.face
            assert batch.distance[i] == hit.distance
            assert batch.block_id[i] == hit.block_id


def test_raycast_many_validates():
    w = World()
    with pytest.raises(ValueError, match="directions"):
        raycast_many(w, [(0, 0, 0)], [(0, 0, 0)], 5)
    with pytest.raises(ValueError, match="origins"):
        raycast_many(w, [(0, math.nan, 0)], [(1, 0, 0)], 5)
    with pytest.raises(ValueError, match="reach"):
        raycast_many(w, [(0, 0, 0)], [(1, 0, 0)], -1)
    empty = raycast_many(w, np.zeros((0, 3)), np.zeros((0, 3)), 5)
    assert empty.hit.shape == (0,)


def test_raycast_many_over_far_apart_rays():
    w = world_with((0, 0, 3, STONE), (100000, 0, 3, STONE), (-50000, 70000, 3, STONE))
    origins = [(0.5, 0.5, 0.5), (100000.5, 0.5, 0.5), (-49999.5, 70000.5, 0.5)] * 40
    batch = raycast_many(w, origins, [(0, 0, 1)] * len(origins), 5)  # enough rays for a batch
    assert batch.hit.all()
    assert batch.block.tolist() == [[0, 0, 3], [100000, 0, 3], [-50000, 70000, 3]] * 40


def test_world_raycast_is_the_function_and_world_ray_the_module():
    import world
    import world.ray

    w = world_with((0, 0, 2, STONE))
    assert world.raycast is world.ray.raycast
    assert world.raycast(w, (0.5, 0.5, 0.5), (0, 0, 1), 5) is not None
    assert world.ray.raycast_many is raycast_many
