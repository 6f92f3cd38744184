"""World storage: the flat index, negative coordinates, free air chunks, dirty tracking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.world.test_validate import DTYPES, MAGNITUDES, integers_of_any_kind
from world import CHUNK, Chunk, World
from world.base import default_registry
from world.validate import CHUNK_LIMIT, WORLD_LIMIT
from world.voxels.layout import CHUNK_VOLUME, chunk_index, chunk_layers, local_index

REG = default_registry()
STONE = REG.id("base:stone")
DIRT = REG.id("base:dirt")


def test_flat_index_formula():
    _, wy, wz = CHUNK
    assert CHUNK == (16, 16, 16)
    for lx, ly, lz in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (15, 15, 15), (3, 7, 11)]:
        assert local_index(lx, ly, lz) == lx * wy * wz + ly * wz + lz
    w = World()
    w.set_block(3, 7, 11, STONE)
    chunk = w.chunks[(0, 0, 0)]
    assert chunk.blocks.dtype == np.uint16 and chunk.blocks.shape == (CHUNK_VOLUME,)
    assert chunk.blocks[3 * 256 + 7 * 16 + 11] == STONE
    assert chunk.view3d()[3, 7, 11] == STONE


def test_negative_coordinates_use_floor_division():
    assert chunk_index(-1, -16, -17) == ((-1, -1, -2), 15 * 256 + 0 * 16 + 15)
    w = World()
    w.set_block(-1, -1, -1, DIRT)
    assert (-1, -1, -1) in w.chunks
    assert w.chunks[(-1, -1, -1)].blocks[local_index(15, 15, 15)] == DIRT
    assert w.get_block(-1, -1, -1) == DIRT
    assert w.get_block(0, 0, 0) == 0


def test_air_chunks_cost_nothing():
    w = World()
    for x in range(-40, 40, 7):
        assert w.get_block(x, x, -x) == 0
    assert w.chunks == {}
    w.set_block(100, 100, 100, 0)
    assert w.chunks == {} and not w.dirty and not w.modified
    out = w.get_blocks(np.array([[1, 2, 3], [-50, 0, 9]]))
    assert out.tolist() == [0, 0] and w.chunks == {}


def test_unregistered_ids_and_float_coordinates_are_rejected():
    w = World()
    with pytest.raises(ValueError, match="block_id"):
        w.set_block(0, 0, 0, len(REG))
    with pytest.raises(ValueError, match="wx"):
        w.set_block(0.5, 0, 0, STONE)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ids"):
        w.set_blocks(np.array([[0, 0, 0]]), np.array([999]))
    with pytest.raises(ValueError, match="xyz"):
        w.get_blocks(np.array([[0.5, 0, 0]]))
    with pytest.raises(ValueError, match="xyz"):
        w.get_blocks(np.array([1, 2, 3]))
    assert w.chunks == {}


def test_dirty_marks_the_chunk_and_touched_neighbours():
    w = World()
    w.set_block(5, 5, 5, STONE)
    assert w.pop_dirty() == {(0, 0, 0)}
    assert w.modified == {(0, 0, 0)}
    w.set_block(15, 5, 5, STONE)
    assert w.pop_dirty() == {(0, 0, 0), (1, 0, 0)}
    w.set_block(-16, 0, 8, STONE)  # local (0, 0, 8) of chunk (-1, 0, 0)
    assert w.pop_dirty() == {(-1, 0, 0), (-2, 0, 0), (-1, -1, 0), (-2, -1, 0)}
    w.set_block(-16, 0, 8, STONE)  # unchanged: nothing to remesh
    assert w.pop_dirty() == set()
    assert w.modified == {(0, 0, 0), (-1, 0, 0)}


def test_set_blocks_and_get_blocks_match_scalar_calls():
    rng = np.random.default_rng(7)
    xyz = rng.integers(-40, 40, size=(500, 3))
    ids = rng.integers(0, len(REG), size=500)
    a, b = World(), World()
    a.set_blocks(xyz, ids)
    for (x, y, z), block in zip(xyz.tolist(), ids.tolist(), strict=True):
        b.set_block(x, y, z, block)
    probe = rng.integers(-45, 45, size=(2000, 3))
    assert np.array_equal(a.get_blocks(probe), b.get_blocks(probe))
    assert a.modified == b.modified
    assert a.dirty == b.dirty


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(-40, 40), st.integers(-40, 40), st.integers(-40, 40), st.integers(0, 5)
        ),
        max_size=60,
    )
)
def test_world_behaves_like_a_dict_of_voxels(writes):
    w = World()
    model: dict[tuple[int, int, int], int] = {}
    for x, y, z, block in writes:
        w.set_block(x, y, z, block)
        model[(x, y, z)] = block
    for (x, y, z), block in model.items():
        assert w.get_block(x, y, z) == block
    for key in w.dirty:
        assert isinstance(key, tuple) and len(key) == 3


def test_generator_runs_once_per_chunk_and_is_not_modified():
    calls = []

    def gen(cx, cy, cz):
        calls.append((cx, cy, cz))
        return np.full(CHUNK_VOLUME, STONE, dtype=np.uint16) if cy < 0 else None

    w = World(generator=gen)
    assert w.get_block(3, -1, 3) == STONE
    assert w.get_block(4, -2, 3) == STONE
    assert w.get_block(4, 5, 3) == 0
    assert w.get_block(4, 6, 3) == 0
    assert calls == [(0, -1, 0), (0, 0, 0)]
    assert not w.modified
    w.set_block(3, -1, 3, 0)
    assert w.modified == {(0, -1, 0)}
    assert w.unload_chunk(0, -1, 0) is False  # unsaved change kept
    assert w.unload_chunk(0, 0, 0) is True


def test_generator_output_is_validated():
    w = World(generator=lambda cx, cy, cz: np.full(CHUNK_VOLUME, 60000, dtype=np.uint16))
    with pytest.raises(ValueError, match="unregistered"):
        w.get_block(0, 0, 0)


def test_chunk_blocks_is_read_only():
    w = World()
    w.set_block(0, 0, 0, STONE)
    view = w.chunk_blocks(0, 0, 0)
    with pytest.raises(ValueError):
        view[0] = DIRT
    assert w.chunk_blocks(5, 5, 5).sum() == 0


def test_chunk_rejects_wrong_arrays():
    with pytest.raises(ValueError, match="blocks"):
        Chunk((0, 0, 0), np.zeros(4096, dtype=np.int32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="build_height"):
        World(build_height=(10, 10))


def test_far_apart_voxels_in_one_batch_land_in_their_own_chunks():
    w = World()
    far = WORLD_LIMIT - 1  # the world's last voxel on each side
    w.set_blocks(np.array([[0, 0, 0], [far, far, far], [-far, 3, far]]), np.array([1, 2, 3]))
    assert w.get_block(far, far, far) == 2 and w.get_block(-far, 3, far) == 3
    assert w.get_block(0, 0, 0) == 1 and len(w.chunks) == 3
    assert w.get_blocks(np.array([[far, far, far], [0, 0, 0]])).tolist() == [2, 1]


def test_floats_are_never_truncated_into_block_ids():
    w = World()
    with pytest.raises(ValueError, match="blocks"):
        w.put_chunk((0, 0, 0), np.full(CHUNK_VOLUME, 1.7))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="generator output"):
        World(generator=lambda cx, cy, cz: np.full(CHUNK_VOLUME, 1.0)).get_block(0, 0, 0)
    w.set_blocks(np.zeros((0, 3), dtype=np.int64), [])  # nothing to write is fine
    assert w.chunks == {}


# -- the world limit -----------------------------------------------------------------------------


magnitude = st.sampled_from(MAGNITUDES) | st.integers(-(2**66), 2**66)


def inside(*values: int) -> bool:
    return all(abs(v) < WORLD_LIMIT for v in values)


@settings(max_examples=300, deadline=None)
@given(integers_of_any_kind(), integers_of_any_kind(), integers_of_any_kind())
def test_voxel_coordinates_of_any_integer_kind_are_answered_or_refused_by_name(cx, cy, cz):
    (x, vx), (y, vy), (z, vz) = cx, cy, cz
    w = World()
    if inside(vx, vy, vz):
        w.set_block(x, y, z, 1)
        assert w.get_block(x, y, z) == 1 and w.get_block(vx, vy, vz) == 1
        w.set_block(x, y, z, 0)
        assert w.get_block(x, y, z) == 0
        return
    for call in (lambda: w.set_block(x, y, z, 1), lambda: w.get_block(x, y, z)):
        with pytest.raises(ValueError, match=r"wx|wy|wz"):
            call()
    assert w.chunks == {} and w.modified == set()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(*[st.sampled_from(MAGNITUDES) | st.integers(-(2**66), 2**66)] * 3),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from([*DTYPES, int]),
)
def test_voxel_arrays_of_any_integer_dtype_are_answered_or_refused_by_name(rows, kind):
    if kind is not int:
        info = np.iinfo(kind)
        rows = [r for r in rows if all(info.min <= v <= info.max for v in r)] or [(0, 0, 0)]
        xyz = np.array(rows, dtype=kind)
    else:
        xyz = [list(r) for r in rows]
    w = World()
    if inside(*(v for r in rows for v in r)):
        w.set_blocks(xyz, np.full(len(rows), 2, dtype=np.uint64))
        assert w.get_blocks(xyz).tolist() == [2] * len(rows)
        assert all(w.get_block(*r) == 2 for r in rows)
        return
    for call in (lambda: w.set_blocks(xyz, 1), lambda: w.get_blocks(xyz)):
        with pytest.raises(ValueError, match="xyz"):
            call()
    assert w.chunks == {} and w.modified == set()


@settings(max_examples=200, deadline=None)
@given(integers_of_any_kind(), integers_of_any_kind(), integers_of_any_kind())
def test_chunk_coordinates_of_any_integer_kind_are_answered_or_refused_by_name(cx, cy, cz):
    (x, vx), (y, vy), (z, vz) = cx, cy, cz
    w = World(generator=lambda *key: None)  # a chunk forgotten is then not loaded until read
    calls = [w.chunk, w.is_loaded, w.chunk_blocks, w.unload_chunk]
    if all(abs(v) <= CHUNK_LIMIT for v in (vx, vy, vz)):
        w.put_chunk((x, y, z), np.ones(CHUNK_VOLUME, dtype=np.uint16))
        assert w.is_loaded(x, y, z) and w.chunk_blocks(x, y, z)[0] == 1
        assert w.chunk(x, y, z) is w.chunks[(vx, vy, vz)]
        assert w.unload_chunk(x, y, z) and not w.is_loaded(vx, vy, vz)
        return
    for call in calls:
        with pytest.raises(ValueError, match=r"cx|cy|cz"):
            call(x, y, z)
    with pytest.raises(ValueError, match="key"):
        w.put_chunk((x, y, z), None)


def test_set_blocks_refuses_ids_beyond_the_registry_before_any_cast():
    w = World()
    with pytest.raises(ValueError, match="ids"):
        w.set_blocks([[0, 0, 0]], np.array([2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match="block_id"):
        w.set_block(0, 0, 0, np.uint64(2**64 - 1))
    with pytest.raises(ValueError, match="wx"):
        w.set_block(np.uint64(2**64 - 1), 0, 0, 1)
    assert w.chunks == {}


@pytest.mark.parametrize(
    ("xyz", "ids", "name"),
    [
        ([[0, 0, 0], [1, 1]], [1, 1], "xyz"),  # ragged
        ([[0, 0, 0], [1, 1, 1]], [1, 1, 1], "ids"),  # one id too many
        ([[0, 0, 0], [1, 1, 1]], [], "ids"),
        ([[0, 0, 0], [1, 1, 1]], [[1], [1, 2]], "ids"),  # ragged
        ([[0, 0, 0], [1, 1, 1]], [[1, 1]], "ids"),
        ([[0, 0, 0]], ["1"], "ids"),
        ([[0, 0, 0]], [True], "ids"),
    ],
)
def test_set_blocks_errors_name_xyz_or_ids(xyz, ids, name):
    w = World()
    with pytest.raises(ValueError, match=name):
        w.set_blocks(xyz, ids)
    assert w.chunks == {}


def test_a_voxel_set_far_out_is_refused_so_saves_never_overflow():
    w = World()
    with pytest.raises(ValueError, match="wx"):
        w.set_block(10**30, 0, 0, 1)
    with pytest.raises(ValueError, match="wx"):
        w.get_block(2**70, 0, 0)
    assert w.modified == set()


@given(low=st.integers(-100, 100), height=st.integers(1, 100))
def test_chunk_layers_are_the_layers_of_every_height_in_the_range(low: int, height: int) -> None:
    assert list(chunk_layers(low, low + height)) == sorted(
        {wy // 16 for wy in range(low, low + height)}
    )
