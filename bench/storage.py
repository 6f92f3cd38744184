"""Bench for world.save.storage: saving edited chunks, opening a world, bytes per saved chunk.

Run ``.venv/bin/python -m bench.storage``. The world is the seeded terrain of `world.gen.terrain`
(a synthetic layered terrain, said so in the output, when that module is missing). The 8×8×8
chunks around the player's spawn are all saved first, so "open + load" reads 512 rows and
generates nothing. Files live in a temporary folder on the same disk as the system's temp dir;
reads are from a warm page cache (the common case: a world played recently).
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from bench.common import print_table
from world.base import default_registry
from world.blocks.registry import BlockRegistry
from world.save.format import GeneratorFactory
from world.save.storage import WorldStore
from world.voxels.layout import CHUNK, CHUNK_VOLUME, ChunkGenerator, ChunkKey

SEED = 20240601
REPEAT = 15
EDITED = 100
SAVE_TARGET_MS = 50.0
OPEN_TARGET_MS = 500.0
RADIUS = 4  # 8 chunks per axis around the player's chunk


class SyntheticTerrain:
    """Stand-in when world.gen.terrain is missing: bedrock, stone, dirt, grass on a sine height
    map."""

    name = "synthetic"

    def __init__(self, seed: int, registry: BlockRegistry) -> None:
        self.seed = seed
        self.ids = [
            registry.id(n) for n in ("base:bedrock", "base:stone", "base:dirt", "base:grass")
        ]

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        wx = cx * CHUNK[0] + np.arange(CHUNK[0])[:, None, None]
        wy = cy * CHUNK[1] + np.arange(CHUNK[1])[None, :, None]
        wz = cz * CHUNK[2] + np.arange(CHUNK[2])[None, None, :]
        ground = (48 + 10 * np.sin(wx / 23.0 + self.seed % 7) * np.cos(wz / 17.0)).astype(int)
        bedrock, stone, dirt, grass = self.ids
        blocks = np.select(
            [wy == 0, wy < ground - 3, wy < ground, wy == ground],
            [bedrock, stone, dirt, grass],
            0,
        )
        blocks = np.where(wy < 0, 0, blocks)
        return blocks.astype(np.uint16).reshape(-1) if blocks.any() else None


def terrain_factory() -> tuple[str, GeneratorFactory, str]:
    """The generator name, its factory, and a line saying which terrain the figures are for."""
    try:
        from world.gen.generators import make_generator
    except ImportError:

        def synthetic(name: str, seed: int, registry: BlockRegistry) -> ChunkGenerator:
            return SyntheticTerrain(seed, registry)

        return "synthetic", synthetic, "synthetic layered terrain (world.gen.terrain is missing)"
    return "terrain", make_generator, "world.gen.terrain generated terrain"


def spawn_chunk(generator: ChunkGenerator) -> ChunkKey:
    """The chunk of the first air voxel above the ground at (0, 0)."""
    surface = getattr(generator, "surface_height", None)
    if callable(surface):
        wy = int(surface(0, 0)) + 1
    else:
        column = [generator(0, cy, 0) for cy in range(16)]
        solid = [
            cy for cy, c in enumerate(column) if c is not None and c[: CHUNK[1] * CHUNK[2]].any()
        ]
        wy = (max(solid) + 1) * CHUNK[1] if solid else 0
    return (0, wy // CHUNK[1], 0)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Print the storage table."""
    registry = default_registry()
    name, factory, source = terrain_factory()
    generator = factory(name, SEED, registry)
    pcx, pcy, pcz = spawn_chunk(generator)
    span = range(-RADIUS, RADIUS)
    keys = [(pcx + dx, pcy + dy, pcz + dz) for dx in span for dy in span for dz in span]
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        with WorldStore.create(path, seed=SEED, generator=name) as store:
            world = store.load(registry, generator_factory=factory)
            for key in keys:
                world.chunk(*key)
                world.modified.add(key)
            save_all = timed(lambda: store.save(world))
        stats = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        # Rows above 64 bytes: chunks that are not all one block (air or stone compress to ~30).
        non_air = stats.execute(
            "SELECT count(*), avg(length(data)) FROM chunks WHERE length(data) > 64"
        ).fetchone()
        stats.close()
        file_bytes = path.stat().st_size

        save_ms = []
        with WorldStore(path) as store:
            world = store.load(registry, generator_factory=factory)
            for _ in range(REPEAT):
                for i in rng.choice(len(keys), EDITED, replace=False).tolist():
                    cx, cy, cz = keys[i]
                    lx, ly, lz = rng.integers(0, 16, 3).tolist()
                    old = world.get_block(cx * 16 + lx, cy * 16 + ly, cz * 16 + lz)
                    world.set_block(cx * 16 + lx, cy * 16 + ly, cz * 16 + lz, 2 if old != 2 else 1)
                assert len(world.modified) == EDITED
                save_ms.append(timed(lambda: store.save(world)) * 1000)

        open_ms, probe_ms = [], []
        for _ in range(REPEAT):
            start = time.perf_counter()
            store = WorldStore(path)
            opened = time.perf_counter()
            world = store.load(registry, generator_factory=factory)
            for key in keys:
                world.chunk(*key)
            done = time.perf_counter()
            store.close()
            open_ms.append((done - start) * 1000)
            probe_ms.append((opened - start) * 1000)

    save = statistics.median(save_ms)
    load = statistics.median(open_ms)
    rows = [
        (
            f"save {EDITED} edited chunks (one transaction, fsync)",
            f"{save:.1f} ms",
            f"<= {SAVE_TARGET_MS:.0f} ms",
            f"{SAVE_TARGET_MS / save:.1f}× target",
        ),
        (
            f"open + load the {len(keys)} chunks around the player",
            f"{load:.1f} ms",
            f"<= {OPEN_TARGET_MS:.0f} ms",
            f"{OPEN_TARGET_MS / load:.1f}× target",
        ),
        (
            "  of which opening (validation, quick_check)",
            f"{statistics.median(probe_ms):.1f} ms",
            "-",
            "reported",
        ),
        (f"first save of all {len(keys)} chunks", f"{save_all * 1000:.1f} ms", "-", "reported"),
        (
            "file size per saved chunk (air chunks included)",
            f"{file_bytes / len(keys):,.0f} B",
            "-",
            f"reported ({file_bytes / 1024:,.0f} KiB for {len(keys)} chunks)",
        ),
        (
            "row blob per non-uniform chunk",
            f"{non_air[1]:,.0f} B" if non_air[0] else "-",
            "-",
            f"reported ({non_air[0]} of {len(keys)} chunks; raw {CHUNK_VOLUME * 2:,} B)",
        ),
    ]
    print_table(f"World storage (median of {REPEAT}; {source}; SQLite WAL, zlib 6)", rows)


if __name__ == "__main__":
    main()
