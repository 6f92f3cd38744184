"""Tests for world.gen.generators: named generators, one constructor signature, one name table."""

from __future__ import annotations

import numpy as np
import pytest

from world import World
from world.base import default_registry
from world.gen.generators import (
    DEFAULT_FLAT_LAYERS,
    GENERATORS,
    FlatGenerator,
    TerrainGenerator,
    make_generator,
)
from world.gen.terrain import generate_chunk

REG = default_registry()
ID = {name.split(":")[-1]: REG.id(name) for name in REG.names if name != "air"}
SEED = 20240601


def test_world_generates_a_chunk_on_first_read():
    gen = TerrainGenerator(REG, SEED)
    world = World(REG, generator=gen)
    assert not world.is_loaded(0, 2, 0)
    blocks = world.chunk_blocks(0, 2, 0)
    assert world.is_loaded(0, 2, 0)
    expected = generate_chunk(SEED, 0, 2, 0, REG)
    assert np.array_equal(blocks, expected if expected is not None else np.zeros(4096))
    assert not world.modified


@pytest.mark.parametrize("name", ["terrain", "flat"])
def test_generators_rebuild_from_the_name_and_seed_a_save_records(name):
    gen = make_generator(name, 99, REG)
    assert gen.name == name and gen.seed == 99
    again = make_generator(gen.name, gen.seed, REG)
    for key in [(0, 0, 0), (1, 2, -1), (0, 3, 0)]:
        a, b = gen(*key), again(*key)
        assert (a is None and b is None) or np.array_equal(a, b)


def test_one_table_maps_every_generator_name_to_a_class_built_as_registry_then_seed():
    assert set(GENERATORS) == {"terrain", "flat"}
    for name, cls in GENERATORS.items():
        assert cls.name == name
        by_keyword = cls(registry=REG, seed=-5)
        by_position = cls(REG, -5)
        assert (by_keyword.name, by_keyword.seed) == (by_position.name, by_position.seed)
        assert type(make_generator(name, -5, REG)) is cls
        assert np.array_equal(by_keyword(0, 0, 0), by_position(0, 0, 0))
    with pytest.raises(TypeError):
        GENERATORS["caves"] = TerrainGenerator  # type: ignore[index]


@pytest.mark.parametrize("name", [None, 3, ""])
def test_a_generator_name_that_is_not_a_name_is_a_value_error(name):
    with pytest.raises(ValueError, match="unknown generator name"):
        make_generator(name, 1, REG)


def test_unknown_generator_name_is_a_value_error():
    with pytest.raises(ValueError, match="unknown generator name 'caves'"):
        make_generator("caves", 1, REG)


def test_flat_world_layers():
    gen = FlatGenerator(REG)
    blocks = gen(3, 0, -2).reshape(16, 16, 16)
    expected = [REG.id(name) for name, count in DEFAULT_FLAT_LAYERS for _ in range(count)]
    assert np.all(blocks[:, : len(expected), :] == np.array(expected)[None, :, None])
    assert not blocks[:, len(expected) :, :].any()
    assert gen(0, 1, 0) is None and gen(0, -1, 0) is None
    assert gen.surface_height(5, 5) == len(expected) == gen.spawn_point()[1]


def test_flat_world_with_custom_layers_spanning_chunks():
    gen = FlatGenerator(REG, layers=[("base:stone", 20), ("base:sand", 1)])
    assert np.all(gen(0, 0, 0) == ID["stone"])
    upper = gen(0, 1, 0).reshape(16, 16, 16)
    assert np.all(upper[:, :4, :] == ID["stone"]) and np.all(upper[:, 4, :] == ID["sand"])
    assert gen.surface_height(0, 0) == 21


def test_flat_world_rejects_unknown_blocks():
    with pytest.raises(ValueError, match="base:marble"):
        FlatGenerator(REG, layers=[("base:marble", 1)])
