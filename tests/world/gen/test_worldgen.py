"""World-generation hooks: ores placed in numpy, mods editing each new chunk, deterministically."""

from __future__ import annotations

import types

import numpy as np
import pytest

from world import World
from world.base import GAME
from world.blocks.block_type import BlockType
from world.blocks.ores import Ore
from world.gen.worldgen import WorldgenGenerator, mod_hooks, worldgen_factory
from world.mods.guard import HookGuard
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.registration import make_registry

SEED = 99
KEYS = [(cx, cy, cz) for cx in range(-2, 2) for cy in range(-3, 2) for cz in range(-2, 2)]


def blocks_of(world: World, key: tuple[int, int, int]) -> np.ndarray:  # type: ignore[type-arg]
    chunk = world.chunk(*key)
    return np.zeros(16**3, dtype=np.uint16) if chunk is None else chunk.blocks


def ore_mod() -> types.SimpleNamespace:
    @hookimpl
    def register_blocks(registry: object) -> None:
        registry.register_ore(  # type: ignore[attr-defined]
            Ore("gems:ruby", in_=("base:stone",), veins_per_chunk=3.5, size=6, y_range=(-40, 5))
        )
        registry.register(BlockType("gems:ruby", tiles=("base:lamp",)))  # type: ignore[attr-defined]

    return types.SimpleNamespace(register_blocks=register_blocks)


def world_with(plugins: dict[str, object]) -> tuple[World, object]:
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    registry = make_registry(mods)
    hooks = mod_hooks(mods, HookGuard(mods.record))
    generator = worldgen_factory(hooks)("terrain", SEED, registry)
    return World(registry, generator), mods


def test_ores_replace_only_their_host_rock_inside_their_height_range() -> None:
    world, _ = world_with({"gems": ore_mod()})
    registry = world.registry
    ruby, stone = registry.id("gems:ruby"), registry.id("base:stone")
    plain = worldgen_factory()("terrain", SEED, registry).base  # type: ignore[attr-defined]
    found = 0
    for key in KEYS:
        blocks = blocks_of(world, key)
        before = plain(*key)
        changed = np.flatnonzero(blocks != (before if before is not None else 0))
        assert (blocks[changed] == ruby).all()  # nothing but ruby was added
        assert before is None or (before[changed] == stone).all()  # and only into stone
        ys = key[1] * 16 + (changed // 16) % 16
        found += len(changed)
        # Veins are blobs around centres in the range: they reach at most a few blocks out.
        assert ys.size == 0 or (ys.min() >= -40 - 8 and ys.max() <= 5 + 8)
    assert found > 100  # 3.5 veins of about 6 per chunk, in the stone of 40-odd chunks


def test_chunks_come_out_the_same_in_any_generation_order() -> None:
    first, _ = world_with({"gems": ore_mod()})
    second, _ = world_with({"gems": ore_mod()})
    for key in KEYS:
        first.chunk(*key)
    for key in reversed(KEYS):
        second.chunk(*key)
    for key in KEYS:
        assert np.array_equal(blocks_of(first, key), blocks_of(second, key))


class Pillars:
    """A mod that puts a glass pillar at a random column of every chunk it is given."""

    @hookimpl
    def on_generated(self, chunk: object) -> None:
        view = chunk.view  # type: ignore[attr-defined]
        x, z = chunk.rng.integers(0, 16, 2)  # type: ignore[attr-defined]
        view[x, :, z] = chunk.registry.id("base:glass")  # type: ignore[attr-defined]


class Broken:
    @hookimpl
    def on_generated(self, chunk: object) -> None:
        chunk.blocks[:] = 1  # type: ignore[attr-defined]
        raise RuntimeError("worldgen bug")


def test_a_mod_edits_each_new_chunk_and_its_random_draws_are_its_own() -> None:
    alone, _ = world_with({"pillars": Pillars()})
    # Another mod before it must not shift its random draws.
    with_other, mods = world_with({"broken": Broken(), "pillars": Pillars()})
    glass = alone.registry.id("base:glass")
    for key in KEYS[:6]:
        a, b = blocks_of(alone, key), blocks_of(with_other, key)
        assert (a.reshape(16, 16, 16) == glass).all(axis=1).any()  # a full glass column
        assert np.array_equal(a, b)  # the broken mod's edits were undone
    errors = [e for e in mods.errors if e.mod == "broken"]  # type: ignore[attr-defined]
    assert len(errors) == 1 and "worldgen bug" in str(errors[0])


def test_an_ore_naming_an_unknown_block_is_refused_naming_it() -> None:
    world, _ = world_with({})
    with pytest.raises(ValueError, match="'gems:opal'"):
        WorldgenGenerator(world.generator, world.registry, (Ore("gems:opal"),))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size of ore 'gems:opal'"):
        Ore("gems:opal", size=0)
    with pytest.raises(ValueError, match="veins_per_chunk"):
        Ore("gems:opal", veins_per_chunk=-1)


class Keeper:
    """A mod that keeps the chunk it was given, and a view of its blocks, for later."""

    def __init__(self) -> None:
        self.chunks: list[object] = []
        self.views: list[np.ndarray] = []  # type: ignore[type-arg]

    @hookimpl
    def on_generated(self, chunk: object) -> None:
        self.chunks.append(chunk)
        self.views.append(chunk.view)  # type: ignore[attr-defined]


def test_a_chunk_kept_after_on_generated_returns_can_no_longer_change_the_world() -> None:
    keeper = Keeper()
    world, _ = world_with({"keeper": keeper})
    chunk = world.chunk(0, 1, 0)  # generated in this process, as the game does without a worker
    assert chunk is not None
    before = chunk.blocks.copy()
    [kept], [view] = keeper.chunks, keeper.views
    glass = world.registry.id("base:glass")
    with pytest.raises(RuntimeError, match="sealed when on_generated returned"):
        kept.blocks[:] = glass  # type: ignore[attr-defined]
    with pytest.raises(RuntimeError, match="sealed when on_generated returned"):
        kept.view[0, 0, 0] = glass  # type: ignore[attr-defined]
    view[:] = glass  # a view taken during the call writes only to the mod's own copy
    assert np.array_equal(chunk.blocks, before)
    assert (before != glass).any()
