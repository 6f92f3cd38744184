"""Subprocesses of the storage tests: the kill test's saving loop, and a game taking turns.

``python storage_worker.py PATH`` (the kill test) opens the world, prints ``ready J`` (J = the
number of saves already in the file, kept in the saved player's x position), then repeats: apply
the edits of save J+1, save, print ``saved J+1``. Every edit is a pure function of the save
number, so the test recomputes the exact state of any save with `expected_states`. Each edited
chunk also gets per-block data (`world.voxels.block_data`) on its first solid voxel, ``{"save":
J}``, its earlier data dropped: the test checks data and blocks come back from the same save.

``python storage_worker.py --turns PATH ID`` (the one-writer test) plays a game that shares its
world with another: it opens the world for writing, or read-only when `WorldLocked` refuses it,
and prints ``ready rw`` or ``ready ro <message>``. Then for each line ``round N`` on stdin it sets
the voxels `turn_voxels` (N, ID) to stone, saves, and prints ``saved N`` or ``refused N``; at the
end of stdin it closes the world and exits.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from world.base import default_registry
from world.blocks.registry import BlockRegistry
from world.geometry import Int3
from world.save.format import SaveError
from world.save.lock import WorldLocked
from world.save.meta import PlayerState
from world.save.storage import WorldStore
from world.voxels.layout import CHUNK, CHUNK_VOLUME, ChunkKey

GENERATOR = "killtest"
SEED = 1234
N_IDS = len(default_registry())
# 32 chunks around the origin, negative coordinates included.
KEYS: tuple[ChunkKey, ...] = tuple(
    (cx, cy, cz) for cx in range(-2, 2) for cy in (-1, 0) for cz in range(-2, 2)
)


class KillTestGenerator:
    """Ground below y = 0 (a seeded mix of ids), air above: cheap and deterministic."""

    name = GENERATOR

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, cx: int, cy: int, cz: int) -> NDArray[np.uint16] | None:
        if cy >= 0:
            return None
        rng = np.random.default_rng([self.seed, cx + 1000, cy + 1000, cz + 1000])
        return rng.integers(1, 4, CHUNK_VOLUME).astype(np.uint16)


def factory(name: str, seed: int, registry: BlockRegistry) -> KillTestGenerator:
    """The `GeneratorFactory` the worker and the test load the world with."""
    if name != GENERATOR:
        raise ValueError(f"unknown generator {name!r}")
    return KillTestGenerator(seed)


def chunk_pattern(j: int, key: ChunkKey) -> NDArray[np.uint16]:
    """What save `j` writes into chunk `key`: air, noise, or layers (compressible)."""
    cx, cy, cz = key
    rng = np.random.default_rng([j, cx + 1000, cy + 1000, cz + 1000])
    mode = rng.integers(0, 8)
    if mode == 0:
        return np.zeros(CHUNK_VOLUME, dtype=np.uint16)
    if mode <= 3:
        return rng.integers(0, N_IDS, CHUNK_VOLUME).astype(np.uint16)
    heights = rng.integers(0, 17, (CHUNK[0], CHUNK[2]))
    ly = np.arange(CHUNK[1])[None, :, None]
    layered = np.where(ly < heights[:, None, :], rng.integers(1, N_IDS), 0)
    return layered.astype(np.uint16).reshape(-1)


def edits(j: int) -> dict[ChunkKey, NDArray[np.uint16]]:
    """The chunks save `j` rewrites (1 to 12 of `KEYS`) and their new blocks."""
    rng = np.random.default_rng(j)
    count = int(rng.integers(1, 13))
    chosen = rng.choice(len(KEYS), size=count, replace=False)
    return {KEYS[i]: chunk_pattern(j, KEYS[i]) for i in sorted(chosen.tolist())}


def initial_state() -> dict[ChunkKey, NDArray[np.uint16]]:
    """Every chunk of `KEYS` as generated, before any save."""
    gen = KillTestGenerator(SEED)
    state = {}
    for key in KEYS:
        blocks = gen(*key)
        state[key] = np.zeros(CHUNK_VOLUME, dtype=np.uint16) if blocks is None else blocks
    return state


def chunk_data(j: int, blocks: NDArray[np.uint16]) -> dict[int, dict[str, int]]:
    """The per-block data save `j` puts in a chunk it rewrites: on its first solid voxel."""
    solid = np.flatnonzero(blocks)
    return {} if not len(solid) else {int(solid[0]): {"save": j}}


def expected_states() -> Iterator[
    tuple[dict[ChunkKey, NDArray[np.uint16]], dict[ChunkKey, dict[int, dict[str, int]]]]
]:
    """The blocks and block data after save 0, 1, 2, ... (fresh copies each time)."""
    state = initial_state()
    data: dict[ChunkKey, dict[int, dict[str, int]]] = {}
    j = 0
    while True:
        yield dict(state), dict(data)
        j += 1
        for key, blocks in edits(j).items():
            state[key] = blocks
            data[key] = chunk_data(j, blocks)


def main(path: str) -> None:
    """Edit and save until killed."""
    store = WorldStore(path)
    world = store.load(default_registry(), generator_factory=factory)
    j = 0 if store.player is None else int(store.player.position[0])
    print(f"ready {j}", flush=True)
    while True:
        j += 1
        for key, blocks in edits(j).items():
            # Whole-chunk installs keep the loop's time in `save`, where the kills should land.
            world.put_chunk(key, blocks)
            world.modified.add(key)
            world.block_data.forget_chunk(key)  # the old blocks' data goes with them
            for index, values in chunk_data(j, blocks).items():
                cx, cy, cz = key
                pos = Int3(
                    cx * 16 + index // 256, cy * 16 + (index // 16) % 16, cz * 16 + index % 16
                )
                for name, value in values.items():
                    world.block_data.write(pos, name, value)
        store.save(world, PlayerState(position=(float(j), 0.0, 0.0)))
        print(f"saved {j}", flush=True)


def turn_voxels(n: int, worker: int) -> NDArray[np.int64]:
    """The voxels worker `worker` sets in round `n`: 20 voxels in chunks both workers edit."""
    rng = np.random.default_rng([n, worker])
    xyz = rng.integers(0, 32, (20, 3))
    xyz[:, 1] = 2 * n + worker  # a row of its own per round and worker: edits never overlap
    return xyz


def take_turns(path: str, worker: int) -> None:
    """Open the world (read-only if another game writes it) and save a round per stdin line."""
    try:
        store = WorldStore(path)
        print("ready rw", flush=True)
    except WorldLocked as exc:
        store = WorldStore(path, read_only=True)
        print(f"ready ro {exc}", flush=True)
    with store:
        world = store.load(default_registry(), generator_factory=factory)
        for line in sys.stdin:
            n = int(line.split()[1])
            world.set_blocks(turn_voxels(n, worker), 1)
            try:
                store.save(world)
            except SaveError:
                print(f"refused {n}", flush=True)
            else:
                print(f"saved {n}", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--turns":
        take_turns(sys.argv[2], int(sys.argv[3]))
    else:
        main(sys.argv[1])
