"""Merged chunk meshes (`world.mesh.merge`): fewer vertices, the same picture.

The reference is the unmerged mesh (one quad per block face, tested against brute force in
`test_mesher`): at sample points inside every one of its axis-aligned quads, the merged mesh
must have a triangle facing the same way that interpolates the same shade, sky and block light
and samples the same texel, and each plane must be covered by the same area.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from hypothesis import given, settings

from tests.world.mesh.test_mesher import REG, STONE, small_worlds
from world import World
from world.blocks.atlas import TILE_PX, TILE_ROWS, TILES_PER_ROW
from world.gen.generators import TerrainGenerator
from world.light.lighting import Light
from world.mesh.data import MeshData
from world.mesh.mesher import mesh_chunk
from world.mesh.shapes import UV_INSET_PX

# Barycentric weights of points inside a triangle, off its edges and its medians.
_WEIGHTS = np.array([(0.6, 0.3, 0.1), (0.2, 0.5, 0.3), (0.15, 0.15, 0.7), (0.45, 0.1, 0.45)])
_TILE = np.array([1.0 / TILES_PER_ROW, 1.0 / TILE_ROWS])
_INSET = UV_INSET_PX / TILE_PX


def _triangles(mesh: MeshData) -> dict[tuple[int, int, float], np.ndarray]:
    """Axis-aligned triangles (T, 3) by (axis, facing sign, plane)."""
    pos = mesh.vertices.reshape(-1, 3)
    tris = mesh.indices.reshape(-1, 3)
    p = pos[tris]
    # Right-handed: the component cross product points out of the block (`world.mesh.mesher`).
    inward = -np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    axis = np.abs(inward).argmax(axis=1)
    aligned = np.count_nonzero(np.abs(inward) > 1e-6, axis=1) == 1  # not a plant's slant
    sign = -np.sign(inward[np.arange(len(tris)), axis]).astype(int)
    plane = p[np.arange(len(tris)), 0, axis]
    groups: dict[tuple[int, int, float], list[int]] = defaultdict(list)
    for i in np.flatnonzero(aligned):
        groups[(int(axis[i]), int(sign[i]), float(plane[i]))].append(int(i))
    return {key: tris[rows] for key, rows in groups.items()}


def _at(mesh: MeshData, tris: np.ndarray, axis: int, points: np.ndarray) -> np.ndarray:
    """Shade, sky, block and the sampled atlas point at ``points`` (P, 3) in a plane, from the
    triangle of ``tris`` covering each, (P, 5)."""
    a, b = [i for i in range(3) if i != axis]
    corner = mesh.vertices.reshape(-1, 3)[tris][:, :, [a, b]]
    e1, e2 = corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0]
    det = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    d = points[:, None, [a, b]] - corner[None, :, 0]
    s = (d[..., 0] * e2[:, 1] - d[..., 1] * e2[:, 0]) / det
    t = (e1[:, 0] * d[..., 1] - e1[:, 1] * d[..., 0]) / det
    inside = (s >= -1e-6) & (t >= -1e-6) & (s + t <= 1 + 1e-6)
    assert inside.any(axis=1).all(), "a point no triangle covers"
    pick = inside.argmax(axis=1)
    rows = np.arange(len(points))
    s, t, tri = s[rows, pick], t[rows, pick], tris[pick]
    weights = np.stack([1 - s - t, s, t], axis=1)
    shade = (mesh.shade[tri] * weights).sum(axis=1)
    light = (mesh.light.reshape(-1, 2)[tri] * weights[..., None]).sum(axis=1)
    tiled = (mesh.tile_uvs.reshape(-1, 2)[tri] * weights[..., None]).sum(axis=1)
    inside = _INSET + (tiled - np.floor(tiled)) * (1 - 2 * _INSET)  # as the chunk shader
    texel = mesh.tile_origin.reshape(-1, 2)[tri[:, 0]] + inside * _TILE
    return np.column_stack([shade, light, texel])


def _upright(mesh: MeshData) -> int:
    """The triangles on no axis that stand upright (plants')."""
    normals = mesh.normals.reshape(-1, 3)[mesh.indices.reshape(-1, 3)[:, 0]]
    return int(((normals[:, 1] == 0) & (np.count_nonzero(normals, axis=1) == 2)).sum())


def _area(mesh: MeshData, tris: np.ndarray) -> float:
    p = mesh.vertices.reshape(-1, 3)[tris]
    return float(np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1).sum())


def _same_picture(plain: MeshData, merged: MeshData) -> None:
    plain_groups, merged_groups = _triangles(plain), _triangles(merged)
    assert set(plain_groups) == set(merged_groups)
    for key, tris in plain_groups.items():
        axis = key[0]
        assert np.isclose(_area(plain, tris), _area(merged, merged_groups[key])), key
        # Points inside each of the plane's triangles (a liquid's side is no rectangle, and a
        # sloped top may have one triangle in a plane and the other not).
        c = plain.vertices.reshape(-1, 3)[tris]
        points = np.einsum("wk,tkd->twd", _WEIGHTS, c).reshape(-1, 3)
        want = _at(plain, tris, axis, points)
        got = _at(merged, merged_groups[key], axis, points)
        # Shade, light and the point sampled in the atlas, exactly (float rounding aside).
        assert np.allclose(got[:, :3], want[:, :3], atol=1e-4), key
        assert np.allclose(got[:, 3:], want[:, 3:], atol=1e-5), key


@given(small_worlds())
@settings(max_examples=30, deadline=None)
def test_a_merged_mesh_draws_what_the_unmerged_mesh_draws(
    case: tuple[World, tuple[int, int, int]],
) -> None:
    world, chunk = case
    light = Light(world)
    light.add_chunks(list(world.chunks))
    for lit in (None, light):
        plain = mesh_chunk(world, *chunk, lit)
        merged = mesh_chunk(world, *chunk, lit, merge=True)
        assert merged.vertex_count <= plain.vertex_count
        assert merged.face_count <= plain.face_count
        _same_picture(plain, merged)
        # Plants: one quad a plane (the renderer draws them two-sided), not a front and a back;
        # a liquid's sloped tops (on no axis either) are never merged.
        upright = [_upright(m) for m in (plain, merged)]
        assert upright[1] * 2 == upright[0]
        slanted = [
            m.face_count * 2 - sum(len(t) for t in _triangles(m).values()) for m in (plain, merged)
        ]
        assert slanted[1] - upright[1] == slanted[0] - upright[0]


def test_merging_halves_the_vertices_of_generated_terrain() -> None:
    world = World(REG, generator=TerrainGenerator(REG, 3))
    keys = [(cx, cy, cz) for cx in range(-2, 3) for cy in range(0, 6) for cz in range(-2, 3)]
    light = Light(world)
    for key in keys:
        world.chunk_blocks(*key)
    light.add_chunks(keys)
    inner = [(cx, cy, cz) for cx, cy, cz in keys if abs(cx) < 2 and abs(cz) < 2 and 0 < cy < 5]
    plain = [mesh_chunk(world, *key, light) for key in inner]
    merged = [mesh_chunk(world, *key, light, merge=True) for key in inner]
    assert sum(m.vertex_count for m in merged) < 0.5 * sum(m.vertex_count for m in plain)
    for a, b in zip(plain, merged, strict=True):
        if a.face_count:
            _same_picture(a, b)


def test_a_buried_chunk_merges_to_an_empty_mesh() -> None:
    """A chunk with blocks but no face to show (stone all round) meshes to nothing, merged too."""
    world = World(REG)
    stone = np.full(16**3, STONE, np.uint16)
    for key in np.ndindex(3, 3, 3):
        world.put_chunk(tuple(int(c) - 1 for c in key), stone)
    for merge in (False, True):
        mesh = mesh_chunk(world, 0, 0, 0, Light(world), merge=merge)
        assert mesh.vertex_count == 0 and mesh.face_count == 0
