"""Terrain and meshing speed, mesh size and block storage per voxel.

Figures (medians over 200 chunks unless said otherwise):

- generate one chunk of the surface with a cold column cache (its land, plants and cave lattice
  computed from noise: the cost of a chunk in a column never seen before), and with a warm one
  (the other chunks of a column reuse its cached land); and every chunk of a column from bedrock
  up with a cold cache (what a column new to the streamer costs, caves carved in each);
- mesh one chunk of generated terrain (its neighbours already generated, so only meshing is
  timed), and the faces and vertices in such a mesh;
- the same with smooth light, and with faces merged and vertices shared (`world.mesh.merge`,
  what the game draws), and the vertices of both;
- mesh one chunk of generated terrain where a quarter of the voxels (chosen at random, ground
  and air alike) were replaced by random slab, stairs and fence states (the shaped blocks'
  path: their boxes, culled by face coverage), over `SHAPED_SAMPLES` chunks;
- remesh a chunk after one ``set_block`` (the block broken and put back in turn);
- bytes of block storage per voxel for a region of 16×16×16 chunks from bedrock up (air chunks
  included: they cost nothing), counting the numpy arrays, and with Python's per-chunk objects;
- the vertices the game draws in its first view (`view_vertices`): the default seed's spawn at
  view distance 8, every chunk of the 197 columns, lit, meshed and packed as the worker does
  (`world.mesh.pack.drawn_mesh`), against the unmerged count; where they go, by face direction
  and by tile; and a floor: the corners of the regions the same faces cover, plane by plane
  and tile by tile, which any merging needs even with light and ambient occlusion out of the
  vertices (a triangulation of a region needs its corners), chunk by chunk as meshes are and
  with chunk borders ignored.

Where the view's vertices go (issue 39 asked for half of 256,119). Of 256,119: +y faces 32 %,
plants 15 %, +z 14 %, -x 13 %, +x 11 %, -z 11 %, -y 4 %; by tile grass sides 26 %, leaves
23 %, grass tops 21 %, tall grass 15 %, sand 9 %, log sides 4 %. The terrain is terraced (a
column's four neighbours share its height for 47 % of the columns near the spawn), so the tops
are bands a few blocks wide with staircase edges, the walls between them one block high, and
the trees small shells of leaves. Why quads stay apart, measured once with the merge's corner
values changed in the mesher: with light ignored 237,955 vertices (93 %), with ambient
occlusion ignored 231,829 (91 %), with both 201,344 (79 %); a sequential greedy that grows
each rectangle along whichever axis gives it more area, 255,901 (the two passes of
`world.mesh.merge` are within 0.1 % of it). The floor printed below, 195,676 (77 %; 186,416
with no chunk borders), is what any merge of these faces could reach: half needs fewer
faces, not better merging. Sharing is complete (every pair of vertices drawn alike is one
vertex) except plants', which the packing now shares: 1,396 vertices. No faces face unloaded
neighbours: the streamer meshes a chunk only when its 26 neighbours are loaded.

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
from world.blocks.atlas import tile_cells
from world.blocks.registry import BlockRegistry
from world.gen.generators import TerrainGenerator
from world.gen.terrain import clear_cache, generate_chunk, surface_height
from world.light.lighting import Light
from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk, mesh_inputs, mesh_padded
from world.mesh.pack import OTHER, drawn_mesh, pack
from world.voxels.layout import chunk_layers

SEED = 1
SAMPLES = 200
COLUMN = 8  # chunks from bedrock up: the terrain's highest peaks are below 8 * 16
REGION = 16  # chunks per side of the storage region
GENERATE_TARGET_MS = 5.0
MESH_TARGET_MS = 1.0
LIT_MESH_TARGET_MS = 1.5  # issue 17: mesh with smooth light
MERGED_VERTEX_TARGET = 0.5  # issue 13: merged faces, at most half the vertices
SHAPED_SAMPLES = 50
SHAPED_SHARE = 0.25
SHAPED_MESH_TARGET_MS = 2.0
BYTES_TARGET = 2.0
VIEW_SEED = 20240  # the game's default seed (`game.options.DEFAULT_SEED`): its first view
VIEW_DISTANCE = 8
VIEW_LOADED = VIEW_DISTANCE + 1.5  # the streamer loads every neighbour of a shown chunk
VIEW_VERTEX_TARGET = 256_119 // 2  # issue 39: half of what the game drew at view distance 8
_DIRECTIONS = ("+x", "-x", "+y", "-y", "+z", "-z", "plant")  # the packed groups' order
# Per 2x2 pattern of a lattice point's cells in a plane (bit qa + 2 qb for the cell at
# (a - 1 + qa, b - 1 + qb)), the corners a polygon of those cells has there: one where one or
# three cells meet, two where two meet across the diagonal.
_CORNERS_AT = np.array(
    [1 if bin(p).count("1") in (1, 3) else 2 if p in (0b1001, 0b0110) else 0 for p in range(16)]
)


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


def view_columns(center: tuple[int, int], radius: float) -> list[tuple[int, int]]:
    """The chunk columns within ``radius`` (Euclidean, in columns) of ``center``, as the
    streamer's (`world.stream.streamer`)."""
    reach = int(radius) + 1
    return [
        (center[0] + dx, center[1] + dz)
        for dx in range(-reach, reach + 1)
        for dz in range(-reach, reach + 1)
        if dx * dx + dz * dz <= radius * radius
    ]


def polygon_corners(meshes: list[tuple[MeshData, tuple[int, int, int]]]) -> int:
    """The corners of the regions the meshes' axis-aligned unit quads cover, plane by plane and
    tile by tile: the fewest vertices any merging of those faces could draw them with if light
    and ambient occlusion did not count (a triangulation of each region needs its corners).
    ``meshes``: unmerged meshes, each with the world offset of its chunk's origin."""
    planes, a_low, b_low = [], [], []
    for mesh, offset in meshes:
        quads = mesh.vertices.reshape(-1, 4, 3) + np.array(offset, np.float32)
        normals = mesh.normals.reshape(-1, 4, 3)[:, 0]
        aligned = np.abs(normals).max(axis=1) > 0.99
        quads, normals = quads[aligned], normals[aligned]
        axis = np.abs(normals).argmax(axis=1)
        low = quads.min(axis=1).astype(np.int64) + 2**15  # non-negative
        rows = np.arange(len(low))
        direction = axis * 2 + (normals[rows, axis] < 0)
        tile = tile_cells(mesh.tile_origin.reshape(-1, 4, 2)[aligned, 0])
        planes.append((direction << 12 | tile) << 20 | low[rows, axis])
        a_low.append(low[rows, (axis + 1) % 3])
        b_low.append(low[rows, (axis + 2) % 3])
    _, plane = np.unique(np.concatenate(planes), return_inverse=True)
    a, b = np.concatenate(a_low), np.concatenate(b_low)
    keys = [plane << 40 | (a + da) << 20 | (b + db) for da in (0, 1) for db in (0, 1)]
    bits = [np.full(len(a), 1 << (1 - da) + 2 * (1 - db)) for da in (0, 1) for db in (0, 1)]
    _, point = np.unique(np.concatenate(keys), return_inverse=True)
    pattern = np.zeros(point.max(initial=-1) + 1, np.int64)
    np.bitwise_or.at(pattern, point, np.concatenate(bits))
    return int(_CORNERS_AT[pattern].sum())


def view_vertices(registry: BlockRegistry) -> list[tuple[str, str, str, str]]:
    """Where the vertices of the game's first view go (module notes): rows of `print_table`."""
    generator = TerrainGenerator(registry, VIEW_SEED)
    world = World(registry, generator=generator)
    wx, _, wz = generator.spawn_point()
    center = (wx >> 4, wz >> 4)
    layers = chunk_layers(*world.build_height)
    loaded = [(cx, cy, cz) for cx, cz in view_columns(center, VIEW_LOADED) for cy in layers]
    for key in loaded:
        world.chunk(*key)
    light = Light(world)
    light.add_chunks(loaded)
    shown = [(cx, cy, cz) for cx, cz in view_columns(center, VIEW_DISTANCE) for cy in layers]
    unmerged = before = after = 0
    by_direction = np.zeros(len(_DIRECTIONS), np.int64)
    by_tile: dict[str, int] = {}
    plain: list[tuple[MeshData, tuple[int, int, int]]] = []
    for key in shown:
        if world.chunk(*key) is None:
            continue
        inputs = mesh_inputs(world, *key, light.padded(key))
        mesh = mesh_padded(registry, *inputs)
        unmerged += mesh.vertex_count
        plain.append((mesh, key))
        before += pack(mesh_padded(registry, *inputs, merge=True)).vertex_count
        drawn = drawn_mesh(registry, inputs)
        after += drawn.vertex_count
        for group, (solid, liquid) in enumerate(zip(drawn.groups, drawn.liquid, strict=True)):
            by_direction[group] += len(np.unique(solid)) + len(np.unique(liquid))
        cells, counts = np.unique(tile_cells(drawn.rows["tile"]), return_counts=True)
        for cell, count in zip(cells.tolist(), counts.tolist(), strict=True):
            name = registry.tile_names[cell]
            by_tile[name] = by_tile.get(name, 0) + count
    plants = int(by_direction[OTHER])
    # Each chunk's regions apart (as meshes are), then joined across chunk borders.
    apart = polygon_corners([(mesh, (32 * i, 0, 0)) for i, (mesh, _) in enumerate(plain)])
    apart += plants
    joined = polygon_corners([(mesh, (16 * cx, 16 * cy, 16 * cz)) for mesh, (cx, cy, cz) in plain])
    rows = [
        (
            "vertices drawn (merged, shared, packed)",
            f"{after:,} (before plants shared: {before:,})",
            f"<= {VIEW_VERTEX_TARGET:,}",
            f"{after / VIEW_VERTEX_TARGET:.2f} of target",
        ),
        ("  unmerged (4 a face)", f"{unmerged:,} ({after / unmerged:.0%} drawn)", "", ""),
        (
            "  floor: light and AO ignored (the faces' polygon corners, plants)",
            f"{apart:,} ({apart / after:.0%})",
            "",
            "",
        ),
        (
            "  the same floor with chunks joined (no chunk borders)",
            f"{joined + plants:,} ({(joined + plants) / after:.0%})",
            "",
            "",
        ),
    ]
    rows += [
        (f"  {name} faces", f"{count:,} ({count / after:.0%})", "", "")
        for name, count in zip(_DIRECTIONS, by_direction.tolist(), strict=True)
    ]
    rows += [
        (f"  tile {name}", f"{count:,} ({count / after:.0%})", "", "")
        for name, count in sorted(by_tile.items(), key=lambda item: -item[1])[:6]
    ]
    return rows


def generate_column(registry: BlockRegistry, cx: int, cz: int) -> None:
    """Every chunk of a column from bedrock up."""
    for cy in range(COLUMN):
        generate_chunk(SEED, cx, cy, cz, registry)


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
    whole = []  # every chunk of a column from bedrock up, as the streamer loads a new column
    for cx, _, cz in keys:
        clear_cache()
        whole.append(timed(partial(generate_column, registry, cx, cz)))

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
                f"generate a whole column ({COLUMN} chunks from bedrock up), cold",
                f"{statistics.median(whole) * 1e3:.3f} ms",
                "",
                "",
            ),
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
    print_table(
        f"vertices of the game's first view (seed {VIEW_SEED}, view distance {VIEW_DISTANCE}, "
        "lit, every chunk of the columns around the spawn)",
        view_vertices(registry),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
