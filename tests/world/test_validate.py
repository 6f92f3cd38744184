"""`world.validate`: every check answers correctly or refuses naming the argument, for every
integer dtype and magnitude, and never lets an OverflowError, IndexError or a wrap-around out."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world.geometry import Int3
from world.validate import (
    CHUNK_LIMIT,
    WORLD_LIMIT,
    chunk_coord,
    coords,
    integer,
    number,
    position,
    vec3,
    voxel,
)
from world.voxels.layout import CHUNK_SHIFT

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
MAGNITUDES = [
    0,
    1,
    15,
    16,
    1000,
    WORLD_LIMIT - 1,
    WORLD_LIMIT,
    WORLD_LIMIT + 1,
    2**53,
    2**63 - 1,
    2**64 - 1,
    10**30,
]


@st.composite
def integers_of_any_kind(draw: st.DrawFn) -> tuple[object, int]:
    """(an integer as some kind of object, its value): a Python int or a numpy scalar holding it."""
    value = draw(st.sampled_from(MAGNITUDES) | st.integers(-(2**70), 2**70))
    value = -value if draw(st.booleans()) else value
    kinds = [int] + [t for t in DTYPES if np.iinfo(t).min <= value <= np.iinfo(t).max]
    kind = draw(st.sampled_from(kinds))
    return (value if kind is int else kind(value)), value


@settings(max_examples=400, deadline=None)
@given(integers_of_any_kind())
def test_voxel_accepts_exactly_the_coordinates_inside_the_world(case):
    obj, value = case
    if abs(value) < WORLD_LIMIT:
        got = voxel(obj, "wx")
        assert got == value and type(got) is int
    else:
        with pytest.raises(ValueError, match="wx"):
            voxel(obj, "wx")
    assert integer(obj, "n") == value


@settings(max_examples=400, deadline=None)
@given(integers_of_any_kind())
def test_chunk_coord_accepts_exactly_the_chunks_within_its_limit(case):
    obj, value = case
    if abs(value) <= CHUNK_LIMIT:
        assert chunk_coord(obj, "cx") == value
    else:
        with pytest.raises(ValueError, match="cx"):
            chunk_coord(obj, "cx")


def test_chunk_limit_holds_every_chunk_of_the_world_and_a_ring_beyond():
    world_chunks = ((-WORLD_LIMIT + 1) >> CHUNK_SHIFT, (WORLD_LIMIT - 1) >> CHUNK_SHIFT)
    assert world_chunks[0] - 8 > -CHUNK_LIMIT and world_chunks[1] + 8 < CHUNK_LIMIT
    assert CHUNK_LIMIT << CHUNK_SHIFT < 2**62  # chunk keys times the chunk size fit int64


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(MAGNITUDES) | st.integers(-(2**66), 2**66), min_size=1, max_size=6),
    st.sampled_from([*DTYPES, int]),
)
def test_coords_checks_range_and_dtype_before_any_cast(values, kind):
    if kind is not int:
        info = np.iinfo(kind)
        values = [v for v in values if info.min <= v <= info.max] or [0]
    flat = [values[i % len(values)] for i in range(3 * len(values))]
    xyz = (
        np.array(flat, dtype=kind).reshape(-1, 3)
        if kind is not int
        else [flat[i : i + 3] for i in range(0, len(flat), 3)]
    )
    if all(abs(v) < WORLD_LIMIT for v in flat):
        got = coords(xyz, "xyz")
        assert got.dtype == np.int64 and got.reshape(-1).tolist() == flat
    else:
        with pytest.raises(ValueError, match="xyz"):
            coords(xyz, "xyz")


@pytest.mark.parametrize(
    "bad",
    [
        [[1, 2, 3], [4, 5]],  # ragged
        [[1, 2, 3], "abc"],
        [["1", "2", "3"]],
        [[1.0, 2.0, 3.0]],
        [[True, False, True]],
        [[1, 2]],
        np.zeros((2, 3, 1), dtype=np.int64),
        [[2**64 - 1, 0, 0]],
        np.array([[2**64 - 1, 0, 0]], dtype=np.uint64),  # never wrapped to -1
        [[10**30, 0, 0]],
    ],
)
def test_coords_refuses_bad_arrays_naming_the_argument(bad):
    with pytest.raises(ValueError, match="xyz"):
        coords(bad, "xyz")


def test_coords_of_nothing_is_an_empty_n_by_3_array():
    assert coords([], "xyz").shape == (0, 3)
    assert coords(np.zeros((0, 3), dtype=np.uint8), "xyz").dtype == np.int64


@pytest.mark.parametrize("bad", [True, np.bool_(True), 1.0, "1", None, Fraction(1, 1)])
def test_integers_are_never_bools_floats_or_strings(bad):
    for check in (integer, voxel, chunk_coord):
        with pytest.raises(ValueError, match="arg"):
            check(bad, "arg")


def test_position_names_the_axis():
    assert position((1, np.int16(-2), np.uint64(3)), "pos") == Int3(1, -2, 3)
    with pytest.raises(ValueError, match=r"pos\.y"):
        position((0, 2**64 - 1, 0), "pos")
    with pytest.raises(ValueError, match="pos"):
        position((0, 0), "pos")


def test_number_takes_reals_only_and_huge_ints_become_infinite():
    assert number(3, "n") == 3.0 and number(np.float32(0.5), "n") == 0.5
    assert number(10**400, "n") == math.inf and number(-(10**400), "n") == -math.inf
    for bad in (True, "5", None, 1j):
        with pytest.raises(ValueError, match="n"):
            number(bad, "n")


@pytest.mark.parametrize(
    "value",
    [
        (0.5, 1.0, -2.0),
        [0.5, 1.0, -2.0],
        (1, 2, 3),
        np.array([0.5, 1.0, -2.0]),
        (np.int64(1), np.uint64(2), np.float32(0.5)),
        Int3(1, 2, 3),
    ],
)
def test_vec3_takes_any_three_real_numbers(value):
    assert vec3(value, "v") == tuple(float(c) for c in value)


@pytest.mark.parametrize(
    "value",
    [
        (math.nan, 0.0, 0.0),
        (0.0, math.inf, 0.0),
        (0.0, 0.0, 10**400),
        ("1", "2", "3"),
        (True, False, True),
        (0.0, 0.0),
        "abc",
        None,
    ],
)
def test_vec3_refuses_anything_else_naming_the_argument(value):
    with pytest.raises(ValueError, match="v"):
        vec3(value, "v")


def test_vec3_limit_is_inclusive():
    limit = float(WORLD_LIMIT)
    assert vec3((limit, -limit, 0.0), "origin", limit=limit) == (limit, -limit, 0.0)
    assert vec3((WORLD_LIMIT, 0, 0), "origin", limit=limit) == (limit, 0.0, 0.0)
    for far in ((limit + 0.5, 0.0, 0.0), (0, -(WORLD_LIMIT + 1), 0), (0.0, 0.0, 2.0**53)):
        with pytest.raises(ValueError, match="origin"):
            vec3(far, "origin", limit=limit)
