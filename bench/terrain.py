"""Terrain and meshing speed, mesh size and block storage per voxel.

Figures (medians over 200 chunks unless said otherwise):

- generate one chunk of the surface with a cold column cache (its height map and trees computed
  from noise: the cost of a chunk in a column never seen before), and with a warm one (the other
  chunks of a column reuse its cached height map);
- mesh one chunk of generated terrain (its neighbours already generated, so only meshing is
  timed), and the faces and vertices in such a mesh;
- the same with smooth light, and with faces merged and vertices shared (`world.mesh.merge`,
  what the game draws), and the vertices of both;
- mesh one chunk of generated terrain where a quarter of the voxels (chosen at random, ground
  and air alike) were replaced by random slab, stairs and fence states (the shaped blocks'
  path: their boxes, culled by face coverage), over `SHAPED_SAMPLES` chunks;
- remesh a chunk after one ``set_block`` (the block broken and put back in turn);
- bytes of block storage per voxel for a region of 16×16×16 chunks from bedrock up (air chunks
  included: they cost nothing), counting the numpy arrays, and with Python's per-chunk objects.

Run: ``python -m bench.terrain``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from bench.common import median_seconds, print_table
from world import World
from world.base import default_registry
from world.blocks.registry import BlockRegistry
from world.gen.generators import TerrainGenerator
from world.gen.terrain import clear_cache, generate_chunk, surface_height
from world.light.lighting import Light
from world.mesh.mesher import mesh_chunk

SEED = 1
SAMPLES = 200
REGION = 16  # chunks per side of the storage region
GENERATE_TARGET_MS = 5.0
MESH_TARGET_MS = 1.0
LIT_MESH_TARGET_MS = 1.5  # issue 17: mesh with smooth light
MERGED_VERTEX_TARGET = 0.5  # issue 13: merged faces, at most half the vertices
SHAPED_SAMPLES = 50
SHAPED_SHARE = 0.25
SHAPED_MESH_TARGET_MS = 2.0
BYTES_TARGET = 2.0


def surface_chunks(n: int) -> list[tuple[int, int, int]]:
    """n chunks, each in its own column, at the height of the ground in the column's middle."""
    keys = []
    for i in range(n):
        cx, cz = (i % 20) * 3 - 30, (i // 20) * 3 - 15
        keys.append((cx, surface_height(SEED, cx * 16 + 8, cz * 16 + 8) // 16, cz))
    return keys


def shaped_mesh_times(
    registry: BlockRegistry, keys: list[tuple[int, int, int]]
) -> tuple[list[float], list[int]]:
    """Seconds to mesh each chunk after a quarter of its voxels became slabs, stairs or fences,
    and the faces of each mesh."""
    names = ("base:stone_slab", "base:planks_slab", "base:stone_stairs", "base:fence")
    states = np.array(
        [s for s in range(len(registry)) if registry.block_of(s).name in names], dtype=np.uint16
    )
    rng = np.random.default_rng(SEED)
    world = World(registry, generator=TerrainGenerator(registry, SEED))
    local = np.stack(np.meshgrid(*[np.arange(16)] * 3, indexing="ij"), -1).reshape(-1, 3)
    for cx, cy, cz in keys:
        chosen = local[rng.random(len(local)) < SHAPED_SHARE] + 16 * np.array((cx, cy, cz))
        world.set_blocks(chosen, rng.choice(states, len(chosen)))
        mesh_chunk(world, cx, cy, cz)  # generates the neighbours
    times, faces = [], []
    for key in keys:
        start = time.perf_counter()
        mesh = mesh_chunk(world, *key)
        times.append(time.perf_counter() - start)
        faces.append(mesh.face_count)
    return times, faces


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    registry = default_registry()
    keys = surface_chunks(SAMPLES)

    cold = []
    for cx, cy, cz in keys:
        clear_cache()
        cold.append(timed(partial(generate_chunk, SEED, cx, cy, cz, registry)))
    warm = []
    for cx, cy, cz in keys:
        generate_chunk(SEED, cx, cy + 1, cz, registry)
        warm.append(timed(partial(generate_chunk, SEED, cx, cy, cz, registry)))

    world = World(registry, generator=TerrainGenerator(registry, SEED))
    for key in keys:
        mesh_chunk(world, *key)  # generates the neighbours
    mesh_times, faces = [], []
    for key in keys:
        start = time.perf_counter()
        mesh = mesh_chunk(world, *key)
        mesh_times.append(time.perf_counter() - start)
        faces.append(mesh.face_count)

    light = Light(world)  # every chunk the meshing loaded, lit
    light.add_chunks(list(world.loaded_keys()))
    lit_times, merged_times, lit_vertices, merged_vertices = [], [], 0, 0
    for key in keys:
        start = time.perf_counter()
        lit_vertices += mesh_chunk(world, *key, light).vertex_count
        lit_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        merged_vertices += mesh_chunk(world, *key, light, merge=True).vertex_count
        merged_times.append(time.perf_counter() - start)
    lit_ms = statistics.median(lit_times) * 1e3
    merged_ms = statistics.median(merged_times) * 1e3

    shaped_times, shaped_faces = shaped_mesh_times(registry, keys[:SHAPED_SAMPLES])
    shaped_ms = statistics.median(shaped_times) * 1e3

    cx, _, cz = keys[0]
    wx, wz = cx * 16 + 8, cz * 16 + 8
    wy = surface_height(SEED, wx, wz) - 1  # the top ground block: broken and put back in turn
    original = world.get_block(wx, wy, wz)
    flips = iter(range(SAMPLES))

    def remesh() -> None:
        world.set_block(wx, wy, wz, 0 if next(flips) % 2 == 0 else original)
        world.pop_dirty()
        mesh_chunk(world, wx >> 4, wy >> 4, wz >> 4)

    remesh_seconds = median_seconds(remesh, SAMPLES)

    clear_cache()
    region = World(registry, generator=TerrainGenerator(registry, SEED))
    start = time.perf_counter()
    for key in np.ndindex(REGION, REGION, REGION):
        region.chunk(*key)
    region_seconds = time.perf_counter() - start
    voxels = REGION**3 * 16**3
    array_bytes = sum(chunk.blocks.nbytes for chunk in region.chunks.values())
    object_bytes = sum(
        sys.getsizeof(chunk) + sys.getsizeof(chunk.blocks) for chunk in region.chunks.values()
    )

    gen_ms = statistics.median(cold) * 1e3
    mesh_ms = statistics.median(mesh_times) * 1e3
    per_voxel = array_bytes / voxels
    print_table(
        f"terrain and meshing (seed {SEED}, {SAMPLES} surface chunks, medians)",
        [
            (
                "generate chunk, cold column",
                f"{gen_ms:.3f} ms",
                f"<= {GENERATE_TARGET_MS} ms",
                f"{gen_ms / GENERATE_TARGET_MS:.2f} of target",
            ),
            ("generate chunk, warm column", f"{statistics.median(warm) * 1e3:.3f} ms", "", ""),
            (
                "mesh chunk",
                f"{mesh_ms:.3f} ms",
                f"<= {MESH_TARGET_MS} ms",
                f"{mesh_ms / MESH_TARGET_MS:.2f} of target",
            ),
            (
                "mesh chunk with smooth light (sky and block light per vertex)",
                f"{lit_ms:.3f} ms",
                f"<= {LIT_MESH_TARGET_MS} ms",
                f"{lit_ms / LIT_MESH_TARGET_MS:.2f} of target",
            ),
            (
                "mesh chunk with smooth light, faces merged (what the game draws)",
                f"{merged_ms:.3f} ms",
                f"<= {LIT_MESH_TARGET_MS} ms",
                f"{merged_ms / LIT_MESH_TARGET_MS:.2f} of target",
            ),
            (
                "  vertices merged / unmerged (same picture)",
                f"{merged_vertices:,} / {lit_vertices:,} ({merged_vertices / lit_vertices:.0%})",
                f"<= {MERGED_VERTEX_TARGET:.0%}",
                f"{merged_vertices / lit_vertices / MERGED_VERTEX_TARGET:.2f} of target",
            ),
            (
                f"mesh chunk, {SHAPED_SHARE:.0%} shaped blocks ({SHAPED_SAMPLES} chunks)",
                f"{shaped_ms:.3f} ms",
                f"<= {SHAPED_MESH_TARGET_MS} ms",
                f"{shaped_ms / SHAPED_MESH_TARGET_MS:.2f} of target",
            ),
            ("  faces per shaped chunk (median)", f"{statistics.median(shaped_faces):.0f}", "", ""),
            (
                "faces per chunk (median / mean / max)",
                f"{statistics.median(faces):.0f} / {statistics.mean(faces):.0f} / {max(faces)}",
                "",
                "",
            ),
            ("vertices per chunk (median)", f"{4 * statistics.median(faces):.0f}", "", ""),
            ("remesh after one set_block", f"{remesh_seconds * 1e3:.3f} ms", "", ""),
            (
                f"block storage, {REGION}³ chunks",
                f"{per_voxel:.3f} B/voxel",
                f"<= {BYTES_TARGET} B/voxel",
                f"{per_voxel / BYTES_TARGET:.2f} of target",
            ),
            ("  with the Chunk and array objects", f"{object_bytes / voxels:.3f} B/voxel", "", ""),
            (
                "  chunks stored / air (0 bytes)",
                f"{len(region.chunks)} / {REGION**3 - len(region.chunks)}",
                "",
                "",
            ),
            (f"generate all {REGION**3} region chunks", f"{region_seconds:.2f} s", "", ""),
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
