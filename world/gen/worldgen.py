"""World-generation hooks: ores placed in numpy, and mods' ``on_generated`` after terrain.

Contract
--------
- Ores (`world.blocks.ores.Ore`) are declared by mods with ``registry.register_ore(Ore(...))`` in
  their ``register_blocks`` hook and kept in ``registry.ores``.
- `WorldgenGenerator` wraps a `world.voxels.chunks.ChunkGenerator`: after the base terrain fills a
  chunk it places every ore (in registration order) and then calls ``on_generated(chunk)``, a
  `GeneratedChunk` the callback may edit in place. It keeps the base's ``name`` and ``seed``, so a
  save records the same generator; anything else (``surface_height``, ``spawn_point``) is the
  base's.
- Generation is sealed: the callback edits a working copy, copied into the chunk when it
  returns; then the `GeneratedChunk` is sealed (`GeneratedChunk.seal`): its ``blocks`` and
  ``view`` raise ``RuntimeError`` and the copy is read-only, so a mod that keeps the object can
  never change the world outside an action. In the game the chunk's array is the world's own
  when generation runs in this process (no worker), so this is what keeps it the world's alone.
  Cost: two 8 KiB copies per chunk, and one more per mod (`mod_hooks`), against the terrain's
  milliseconds.
- Deterministic: every random draw comes from `chunk_rng`, seeded by the world seed, the chunk's
  coordinates and a salt (the ore's index and block, or the mod's name), so a chunk comes out the
  same whatever order chunks are generated in and whichever other mods are loaded.
- `mod_hooks` runs the loaded mods' ``on_generated`` hook implementations through a
  `world.mods.guard.HookGuard` (time limit; a mod that raises is recorded with its name and its
  edits to that chunk are undone, the other mods still run). Each mod gets its own sealed
  `GeneratedChunk` over its own copy, taken into the chunk only when the mod returned without
  error and wrote only known block ids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.blocks.ores import Ore, chunk_rng
from world.blocks.registry import BlockRegistry
from world.gen.generators import make_generator
from world.mods.generated import GeneratedChunk
from world.mods.guard import HookGuard
from world.mods.host import Mods
from world.voxels.layout import CHUNK, CHUNK_VOLUME, ChunkGenerator

__all__ = ["WorldgenGenerator", "mod_hooks", "place_ores", "worldgen_factory"]

_WX, _WY, _WZ = CHUNK


class WorldgenGenerator:
    """A base generator plus ores and an ``on_generated`` callback (see the module notes)."""

    def __init__(
        self,
        base: ChunkGenerator,
        registry: BlockRegistry,
        ores: tuple[Ore, ...] = (),
        on_generated: Callable[[GeneratedChunk], None] | None = None,
    ) -> None:
        for ore in ores:
            for name in (ore.block, *ore.in_):
                if name not in registry:
                    raise ValueError(f"ore {ore.block!r} names the unknown block {name!r}")
        self.base = base
        self.registry = registry
        self.ores = tuple(ores)
        self.on_generated = on_generated

    @property
    def name(self) -> str:
        """The base generator's name: a save records the same generator."""
        return self.base.name

    @property
    def seed(self) -> int:
        """The base generator's seed."""
        return self.base.seed

    def __getattr__(self, attribute: str) -> Any:
        # surface_height, spawn_point, ...: the terrain's own.
        return getattr(self.base, attribute)

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        key = (cx, cy, cz)
        made = self.base(cx, cy, cz)
        if made is None and self.on_generated is None:
            return None  # ores only replace blocks: an air chunk stays air
        blocks = (
            np.zeros(CHUNK_VOLUME, dtype=np.uint16)
            if made is None
            else np.array(made, dtype=np.uint16, copy=True)
        )
        if made is not None and self.ores:
            place_ores(blocks, key, self.seed, self.registry, self.ores)
        if self.on_generated is not None:
            work = blocks.copy()  # the callback's own: the world's array never leaves here
            chunk = GeneratedChunk(key, work, self.registry, self.seed)
            try:
                self.on_generated(chunk)
            finally:
                chunk.seal()
            blocks[:] = work
            if made is None and not blocks.any():
                return None
        return blocks

    def __repr__(self) -> str:
        return f"WorldgenGenerator({self.base!r}, {len(self.ores)} ores)"


def mod_hooks(mods: Mods, guard: HookGuard) -> Callable[[GeneratedChunk], None] | None:
    """The loaded mods' ``on_generated`` implementations as one callback, or None if none."""
    impls = mods.hook_impls("on_generated")
    if not impls:
        return None

    def run(chunk: GeneratedChunk) -> None:
        guard.arm()
        try:
            for impl in impls:
                key, seed = chunk.key, chunk.seed
                rng = chunk_rng(seed, key, f"mod {impl.mod}")
                work = chunk.blocks.copy()
                own = GeneratedChunk(key, work, chunk.registry, seed, rng)
                try:
                    _, error = guard.run(impl, {"chunk": own})
                finally:
                    own.seal()
                if error is not None:
                    continue  # a failing mod leaves the chunk as it found it
                if work.max(initial=0) >= len(chunk.registry):
                    mods.record(
                        impl.mod,
                        "on_generated",
                        ValueError("on_generated wrote an unknown block id"),
                        traceback=False,
                    )
                    continue
                chunk.blocks[:] = work
        finally:
            guard.disarm()

    return run


def worldgen_factory(
    on_generated: Callable[[GeneratedChunk], None] | None = None,
) -> Callable[[str, int, BlockRegistry], ChunkGenerator]:
    """A `world.save.format.GeneratorFactory` adding the registry's ores and `on_generated`.

    The plain generator (`world.gen.generators.make_generator`) when there is neither.
    """

    def make(name: str, seed: int, registry: BlockRegistry) -> ChunkGenerator:
        base = make_generator(name, seed, registry)
        if not registry.ores and on_generated is None:
            return base
        return WorldgenGenerator(base, registry, registry.ores, on_generated)

    return make


def place_ores(
    blocks: NDArray[np.uint16],
    key: tuple[int, int, int],
    seed: int,
    registry: BlockRegistry,
    ores: tuple[Ore, ...],
) -> None:
    """Scatter every ore's veins through one chunk's blocks, in place (numpy, per ore)."""
    cube = blocks.reshape(CHUNK)
    y0 = key[1] * _WY
    for number, ore in enumerate(ores):
        lo, hi = max(ore.y_range[0], y0), min(ore.y_range[1], y0 + _WY - 1)
        if lo > hi:
            continue
        rng = chunk_rng(seed, key, f"ore {number} {ore.block}")
        whole = int(ore.veins_per_chunk)
        veins = whole + int(rng.random() < ore.veins_per_chunk - whole)
        if veins == 0:
            continue
        ore_id = registry.id(ore.block)
        host = np.zeros(len(registry), dtype=bool)
        host[[registry.id(name) for name in ore.in_]] = True
        centres = np.stack(
            [
                rng.integers(0, _WX, veins),
                rng.integers(lo - y0, hi - y0 + 1, veins),
                rng.integers(0, _WZ, veins),
            ],
            axis=1,
        )
        # A blob around each centre: `size` voxels at normally spread offsets (σ grows as the
        # cube root of the size, so big veins spread wider and stay lumpy).
        spread = 0.55 * ore.size ** (1.0 / 3.0)
        offsets = np.rint(rng.normal(0.0, spread, (veins, ore.size, 3))).astype(np.int64)
        cells = (centres[:, None, :] + offsets).reshape(-1, 3)
        inside = (cells >= 0).all(axis=1) & (cells < np.array(CHUNK)).all(axis=1)
        x, y, z = cells[inside].T
        target = host[cube[x, y, z]]
        cube[x[target], y[target], z[target]] = ore_id
