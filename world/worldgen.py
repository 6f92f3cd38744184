"""World-generation hooks: ores placed in numpy, and mods' ``on_generated`` after terrain.

Contract
--------
- Ores (`world.ores.Ore`) are declared by mods with ``registry.register_ore(Ore(...))`` in
  their ``register_blocks`` hook and kept in ``registry.ores``.
- `WorldgenGenerator` wraps a `world.chunks.ChunkGenerator`: after the base terrain fills a
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
  `world.hook_guard.HookGuard` (time limit; a mod that raises is recorded with its name and its
  edits to that chunk are undone, the other mods still run). Each mod gets its own sealed
  `GeneratedChunk` over its own copy, taken into the chunk only when the mod returned without
  error and wrote only known block ids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.blocks import BlockRegistry
from world.chunk_layout import CHUNK, CHUNK_VOLUME, ChunkGenerator
from world.generators import make_generator
from world.hook_guard import HookGuard
from world.mods import Mods
from world.ores import Ore, chunk_rng, place_ores

__all__ = ["GeneratedChunk", "WorldgenGenerator", "mod_hooks", "worldgen_factory"]

_WX, _WY, _WZ = CHUNK


class GeneratedChunk:
    """A chunk just generated, as ``on_generated`` sees it: edit `blocks` in place.

    The arrays are a working copy, this call's own: `WorldgenGenerator` (and `mod_hooks`, per
    mod) copies them into the chunk only once the callback has returned without error, and then
    seals the object: reading `blocks` or `view` afterwards raises ``RuntimeError``, and the copy
    turns read-only, so a mod that keeps the object can never write into the world later. (A
    numpy view the mod took *during* the call keeps its own write flag; it writes only to the
    detached copy.)

    Attributes
    ----------
    key : tuple of int
        Chunk coordinates.
    blocks : ndarray of uint16, shape (CHUNK_VOLUME,)
        The chunk's blocks (state ids), local (x, y, z) at ``x*256 + y*16 + z``; `view` is the
        same memory as a (16, 16, 16) array indexed ``[x, y, z]``.
    registry : BlockRegistry
    seed : int
        The world seed.
    rng : numpy.random.Generator
        This chunk's generator for the current mod (`chunk_rng` salted with the mod's name).
    """

    def __init__(
        self,
        key: tuple[int, int, int],
        blocks: NDArray[np.uint16],
        registry: BlockRegistry,
        seed: int,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.key = key
        self._blocks: NDArray[np.uint16] | None = blocks
        self.registry = registry
        self.seed = seed
        self.rng = np.random.default_rng() if rng is None else rng

    @property
    def origin(self) -> tuple[int, int, int]:
        """World coordinates of the chunk's (0, 0, 0) voxel."""
        cx, cy, cz = self.key
        return (cx * _WX, cy * _WY, cz * _WZ)

    @property
    def blocks(self) -> NDArray[np.uint16]:
        """The blocks, flat; ``RuntimeError`` once sealed."""
        if self._blocks is None:
            raise RuntimeError(
                f"chunk {self.key} was sealed when on_generated returned: keep no chunk for "
                "later, a generated chunk can only be changed during the call"
            )
        return self._blocks

    @property
    def view(self) -> NDArray[np.uint16]:
        """The blocks as a (16, 16, 16) array ``[x, y, z]`` sharing `blocks`' memory."""
        return self.blocks.reshape(CHUNK)

    def seal(self) -> None:
        """End the call: the arrays go read-only and `blocks` and `view` raise from now on."""
        if self._blocks is not None:
            self._blocks.flags.writeable = False
            self._blocks = None


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
    """A `world.save_format.GeneratorFactory` adding the registry's ores and `on_generated`.

    The plain generator (`world.generators.make_generator`) when there is neither.
    """

    def make(name: str, seed: int, registry: BlockRegistry) -> ChunkGenerator:
        base = make_generator(name, seed, registry)
        if not registry.ores and on_generated is None:
            return base
        return WorldgenGenerator(base, registry, registry.ores, on_generated)

    return make
