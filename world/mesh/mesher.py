"""Chunk meshing: a chunk's visible faces as plain numpy arrays, ready for one engine mesh.

Contract
--------
``mesh_chunk(world, cx, cy, cz)`` returns a `MeshData` (`world.mesh.data`) of flat numpy arrays
(no engine types): 4 vertices and 2 triangles per quad (with ``merge=True``, what the game draws,
neighbouring cube faces are joined into larger quads and quads share vertices wherever that draws
the same picture: `world.mesh.merge`), vertices in CHUNK-LOCAL coordinates ``0 <= x, y, z <= 16``
(the game places the chunk's entity at ``(cx*16, cy*16, cz*16)``), uvs into the block atlas
(`world.blocks.atlas`), a normal and a shade per vertex. It reads the 26 neighbouring chunks' border
voxels through ``world.chunk_blocks`` (generating them on first read), so faces are culled and
corners darkened across chunk borders exactly as inside a chunk. Whole-chunk numpy: the work is
a fixed number of array operations on an 18³ padded copy of the neighbourhood, with no loop per
voxel or per face.

Which faces
-----------
Each state is drawn as its ``registry.draw`` kind: cubes (``DRAW_CUBE``) as unit cubes, liquids
(``DRAW_LIQUID``) as unit cubes whose tops and sides reach up to the heights of their top corners
(`world.mesh.liquids`), shaped states (``DRAW_BOXES``: slabs, stairs, fences, torches, doors)
as their selection boxes (`world.mesh.boxes`), plants (``DRAW_PLANT``) as crossed quads, and
``DRAW_NONE`` (air) not at all.

A face is hidden only by a neighbour face that covers it whole. A cube face is emitted unless
its neighbour shows a whole face on the shared side and is opaque, or transparent and the SAME
block: stone beside air, glass or water shows that face; a transparent block beside an opaque
cube does not; two identical transparent blocks (water-water, glass-glass, leaves-leaves) hide
the face between them. Cubes and liquids show whole faces on every side, shaped states where the
union of their boxes' faces on that side is the whole side (a bottom slab below, the back of
stairs), plants and air nowhere: a slab beside stone leaves stone's side face drawn, a bottom
slab hides the top of the stone under it. Box faces follow the same rule against their
neighbours' faces (`world.mesh.boxes`). Leaves follow the cube rule like glass (as
Minecraft's "fast" leaves: the canopy is a shell), which keeps forests cheap; the leaf texture is
mostly opaque so the shell reads as foliage. The one exception: the downward faces of the world's
lowest layer (``wy == world.build_height[0]``, the bedrock) are never emitted, since nobody can
stand below the build height to see them.

Plants (tall grass) are drawn as two crossed, double-sided quads (4 quads per plant, as
Minecraft's).

Liquids, as Minecraft's ``LiquidBlockRenderer``: a liquid's faces are culled as a cube's (its
top hidden under an opaque block or the same liquid, its sides against opaque blocks and the
same liquid, whose surface always meets it at the same height: no step between them). Its top
stands at the four corner heights `world.mesh.liquids` computes (1 under the same liquid, a
source's 8/9 on a still lake, sloping down from a source as the liquid flows), each side's upper
edge at the two corners at its ends; the bottom stays on the floor. Every top and side is drawn
twice, once facing out and once reversed, facing into the liquid, so its surface is seen from
inside it too (Minecraft draws fluid faces double-sided; the bottom faces only out).

Winding, uvs, shade
-------------------
The world's frame is Minecraft's, RIGHT-handed (x east, y up, z south). Every quad runs
counter-clockwise seen from outside (from the side its normal points to): vertices run
``(0,0) → (1,0) → (1,1) → (0,1)`` in the face's (right, up) texture frame, right × up = the
outward normal. The component formula of the cross product, ``(v1 - v0) × (v2 - v0)``, then
points OUT of the block, along the normal; the tests check exactly that. ursina runs Panda3D in
a left-handed frame; the game draws the world mirrored in z into it (`game.scene.world_root`),
so a quad runs counter-clockwise on screen seen from outside, GL's front face with back faces
culled, and its texture reads the right way round.

uvs follow Panda3D (origin at the image's bottom-left). Side faces are upright (v grows with y),
and no face shows its texture mirrored from outside. Each uv rectangle is inset by `UV_INSET_PX`
texels so rounding at a quad's edge never samples the next tile.

``shade`` is a per-vertex brightness in (0, 1] for the game to multiply into the texture colour:
a fixed shade per face direction whatever the light (`FACE_SHADE`: top 1, bottom 0.5, z sides
0.8, x sides 0.6, Minecraft's "shade"), so a block's sides read against its top in full sky
light too, times ambient occlusion (`AO_LEVELS`) from the three voxels touching the vertex in the
layer in front of the face (two sides and the diagonal; opaque voxels occlude). Light-emitting
blocks (``registry.light > 0``) have no occlusion (Minecraft draws them flat-lit) but keep their
direction's shade (a lamp as Minecraft's glowstone); a glowing liquid (lava) loses that too: full
brightness on every face, as Minecraft draws lava without shade. A liquid's face seen from inside
it takes its front's shade (vertex for vertex) and its own voxel's light. Each quad is split along
the diagonal that keeps a corner's shadow in its corner (the brighter diagonal), so occlusion does
not streak (a liquid's face seen from inside along the same diagonal: the same surface).

Box faces have no ambient occlusion: each takes `FACE_SHADE` of its direction. Plants' crossed
quads are not shaded (`PLANT_SHADE`: Minecraft's cross model has "shade" false). Faces of
transparent blocks come after all opaque faces in ``indices``, so a renderer that draws in index
order blends water over the ground already drawn: opaque cubes, opaque box faces, transparent
cubes, the liquids' faces seen from inside, transparent box faces, then plants.

Merging (``merge=True``) joins cube faces, their reversed copies, and a liquid's flat source
surface (all four corners at 8/9) with the surfaces of its plane only; a liquid's sloped quads
(any other top below 1, a side whose upper corners are not at 1) are never merged, and their
normal is their own (a sloped top's faces along its slope: `world.mesh.pack` leaves it to no
direction group). A still lake meshes as before, its surface 1/9 lower.

Cost: per-registry tables (`world.mesh.boxes.cull_tables`) turn every quad into rows of a
corner table and a uv table, so the output arrays are each one gather; see ``bench.terrain``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from world.blocks.block_type import DRAW_LIQUID
from world.blocks.registry import BlockRegistry
from world.geometry import FACE_NORMALS
from world.light.lighting import Light
from world.light.relax import MAX_LIGHT
from world.mesh.boxes import (
    CULL_BOXES,
    CULL_OPAQUE,
    CULL_PLANT,
    CullTables,
    QuadArrays,
    cull_tables,
    mesh_boxes,
)
from world.mesh.data import MeshData
from world.mesh.light import AO_OFFSETS_12, smooth_light
from world.mesh.liquids import liquid_quads, liquid_states
from world.mesh.merge import KINDS, NOT_MERGED, merge_faces, share_vertices, stretch
from world.mesh.shapes import (
    CORNER_CUBE,
    CORNER_PLANT,
    CORNER_SLOPED,
    FACE_SHADE,
    FRONT_OFFSETS,
    NORMALS,
    PADDED_INDEX,
    PLANT_RIGHTS,
    TRIANGLES,
    VOXEL_CORNERS,
    gather_rows,
)
from world.validate import chunk_coord, integer
from world.voxels.chunks import World
from world.voxels.layout import CHUNK
from world.voxels.padded import neighbour_keys, pad

__all__ = [
    "AO_LEVELS",
    "PLANT_SHADE",
    "MeshInputs",
    "PaddedLight",
    "mesh_chunk",
    "mesh_inputs",
    "mesh_padded",
    "padded_blocks",
]

PaddedLight = tuple[NDArray[np.uint8], NDArray[np.uint8]]  # sky and block light, (18,)*3 each
# `mesh_padded`'s arguments after the registry: padded blocks, the floor's layer, padded light
MeshInputs = tuple[NDArray[np.uint16], int, PaddedLight | None]

# Ambient-occlusion factor by the number of occluders (both sides count as three): 3, 2, 1, 0.
AO_LEVELS: tuple[float, ...] = (0.5, 0.65, 0.8, 1.0)
PLANT_SHADE = 1.0  # crossed quads lie on no face direction: unshaded, as Minecraft's

_SIZE = CHUNK[0]
_PAD = _SIZE + 2
_STRIDES = np.array([_PAD * _PAD, _PAD, 1], dtype=np.int64)  # of the padded 18³ array
# The two triangles of a quad split along the 1-3 diagonal.
_TRIANGLES_FLIPPED = np.array([1, 2, 3, 1, 3, 0], dtype=np.uint32)

_FRONT_OFFSETS = FRONT_OFFSETS
_FACE_SHADE = np.array(FACE_SHADE, dtype=np.float32)
_AO_LEVELS = np.array(AO_LEVELS, dtype=np.float32)

# Front side of a quad with right × up = -normal, up = +y: normal = up × right.
_PLANT_NORMALS = (np.cross(PLANT_RIGHTS, np.array([0, 1, 0])) / np.sqrt(2.0)).astype(np.float32)
# A quad's four vertex normals by its normal index (`QuadArrays.normal`): the six face
# directions, then the four plant planes.
_QUAD_NORMALS = np.repeat(
    np.concatenate([NORMALS.astype(np.float32), _PLANT_NORMALS])[:, None, :], 4, axis=1
)
# A quad's six triangle corners, split along 0-2 or (flipped) along 1-3.
_QUAD_TRIANGLES = np.stack([TRIANGLES, _TRIANGLES_FLIPPED])

_DOWN = FACE_NORMALS.index((0, -1, 0))
# The merging kind of each corner-table row (`world.mesh.merge`): the rows before
# `CORNER_SLOPED` are the kinds of the same numbers (cube faces, reversed, a liquid's flat
# surface), any other row (sloped liquid quads, plants, box faces) the last, not merged.
_KIND_OF_CORNER = np.full(CORNER_PLANT + 1, NOT_MERGED, np.int64)
_KIND_OF_CORNER[:KINDS] = np.arange(KINDS)
# Per face direction, each voxel's neighbour across that face in the padded array, and the
# side of the neighbour that faces back.
_FRONT_INDEX = (PADDED_INDEX[None, :] + FRONT_OFFSETS[:, None]).astype(np.intp)
_OPPOSITE = (np.arange(6) ^ 1)[:, None].astype(np.uint16)


def padded_blocks(world: World, cx: int, cy: int, cz: int) -> NDArray[np.uint16]:
    """The chunk's blocks with a one-voxel border read from its 26 neighbours, shape (18,)*3."""
    return pad([world.chunk_blocks(*key) for key in neighbour_keys((cx, cy, cz))])


def mesh_inputs(
    world: World, cx: int, cy: int, cz: int, light: PaddedLight | None = None
) -> MeshInputs:
    """Copies of what `mesh_padded` meshes chunk (cx, cy, cz) from: its `padded_blocks`, the
    layer of the world's floor in it, and ``light`` (its `world.light.lighting.Light.padded`, or
    None)."""
    return padded_blocks(world, cx, cy, cz), world.build_height[0] - cy * _SIZE, light


def mesh_chunk(
    world: World, cx: int, cy: int, cz: int, light: Light | None = None, *, merge: bool = False
) -> MeshData:
    """The visible faces of one chunk.

    Parameters
    ----------
    world : World
        The world; neighbouring chunks are read (and generated on first read) for the border.
    cx, cy, cz : int
        Chunk coordinates.
    light : Light, optional
        The world's light: each quad takes the light of the voxel in front of it (a cube face)
        or of its own voxel (box faces, plants, a liquid's underside). Without it every vertex
        has sky light 15 and block light 0 (full daylight).
    merge : bool, default False
        Join neighbouring cube faces into larger quads and share vertices wherever that draws
        the same picture (`world.mesh.merge`), and give each plant plane one quad, not two:
        fewer vertices for a renderer that repeats tiles (``MeshData.tile_uvs``) and draws the
        plant quads (the normals on no axis) from both sides. Off, every quad is one block face
        and plants are seen from behind through their back quads.

    Returns
    -------
    MeshData
        Chunk-local geometry (see the module docstring for the face rules and conventions).
    """
    cx = chunk_coord(cx, "cx")
    cy = chunk_coord(cy, "cy")
    cz = chunk_coord(cz, "cz")
    if world.chunk(cx, cy, cz) is None:
        return MeshData.empty()
    lit = None if light is None else light.padded((cx, cy, cz))
    return mesh_padded(world.registry, *mesh_inputs(world, cx, cy, cz, lit), merge=merge)


def mesh_padded(
    registry: BlockRegistry,
    padded: NDArray[np.uint16],
    floor_ly: int,
    light: PaddedLight | None = None,
    *,
    merge: bool = False,
) -> MeshData:
    """`mesh_chunk` from copies alone: the chunk's `padded_blocks`, the layer of the world's
    floor in chunk-local y (``build_height[0] - cy * 16``: no downward faces there) and its
    `world.light.lighting.Light.padded` sky and block light (18³ each; None: daylight). What a
    worker process meshes from (`world.stream.worker`); the same registry gives the same mesh."""
    if not isinstance(padded, np.ndarray) or padded.shape != (_PAD,) * 3:
        raise ValueError(f"padded must be an array of shape {(_PAD,) * 3}, got {padded!r:.80}")
    if padded.dtype != np.uint16 or int(padded.max()) >= len(registry):
        raise ValueError(f"padded must hold uint16 state ids below {len(registry)}")
    if light is not None and (
        len(light) != 2
        or any(
            not isinstance(a, np.ndarray) or a.shape != (_PAD,) * 3 or a.dtype != np.uint8
            for a in light
        )
    ):
        raise ValueError(f"light must be two uint8 arrays of shape {(_PAD,) * 3}")
    floor_ly = integer(floor_ly, "floor_ly")
    transparent = registry.transparent
    tables = cull_tables(registry)

    see_through = transparent[padded]
    padded_cull = tables.cull[padded]
    inner = (slice(1, _SIZE + 1),) * 3
    centre = padded[inner]
    centre_cull = padded_cull[inner]
    # A cube hides its neighbour's face when it is opaque, or transparent and of the same block
    # (its code is then that block's index): the same code hides.
    cube = centre_cull >= CULL_OPAQUE
    any_shaped = bool((padded_cull == CULL_BOXES).any())
    if any_shaped:
        padded_bits = tables.side_bits[padded]
        any_same = bool((padded_bits >> 6).any())
        if any_same:
            padded_block = registry.block_index[padded]
            centre_block = padded_block[inner]

    # Per face direction and voxel, the neighbour across the face: (6, 4096) gathers.
    front_cull = padded_cull.reshape(-1).take(_FRONT_INDEX)
    masks = front_cull == centre_cull.reshape(-1)
    masks |= front_cull == CULL_OPAQUE
    np.greater(cube.reshape(-1), masks, out=masks)  # a cube, and not hidden
    if any_shaped:  # shaped neighbours hide the face when whole on the shared side
        front_bits = padded_bits.reshape(-1).take(_FRONT_INDEX)
        hidden = (front_bits >> _OPPOSITE & 1).astype(np.bool_)
        if any_same:
            same_side = (front_bits >> (_OPPOSITE + 6) & 1).astype(np.bool_)
            same_side &= padded_block.reshape(-1).take(_FRONT_INDEX) == centre_block.reshape(-1)
            hidden |= same_side
        masks &= ~hidden
    masks = masks.reshape(6, _SIZE, _SIZE, _SIZE)
    # The underside of the world's lowest layer faces the void below the build height, where
    # no player can stand: those faces are never seen (a third of a terrain view's vertices).
    if 0 <= floor_ly < _SIZE:
        masks[_DOWN, :, floor_ly, :] = False
    found = np.flatnonzero(masks)  # (np.nonzero of the (6, 4096) masks is seven times slower)
    face, voxel = found >> 12, found & 4095
    block = centre.reshape(-1)[voxel]
    # Opaque faces first, then the transparent blocks' (see the module docstring).
    order = np.argsort(transparent[block], kind="stable")
    face, voxel, block = face[order], voxel[order], block[order]
    uv = block.astype(np.int64) * 6 + face  # the uv table's row of the state's face

    occludes = (~see_through).ravel().astype(np.int8)
    front_index = PADDED_INDEX[voxel] + _FRONT_OFFSETS[face]
    near = occludes[np.take(AO_OFFSETS_12, face, axis=0) + front_index[:, None]].reshape(-1, 4, 3)
    side_r, side_u, diagonal = near[..., 0], near[..., 1], near[..., 2]
    level = np.where(side_r & side_u, 0, 3 - side_r - side_u - diagonal)
    glows = registry.light[block] > 0
    level[glows] = 3  # light sources: no occlusion, still their direction
    shade = _FACE_SHADE[face][:, None] * _AO_LEVELS[level]
    flip = level[:, 0] + level[:, 2] < level[:, 1] + level[:, 3]
    cubes = QuadArrays(voxel, face + CORNER_CUBE, uv, shade, flip, face)
    opaque_cubes = int(np.count_nonzero(~transparent[block]))

    # A liquid's tops and sides stand at its corners' heights, and are seen from inside it too.
    liquid = np.flatnonzero(registry.draw[block] == DRAW_LIQUID)
    drop: NDArray[np.float32] | None = None
    glowing: NDArray[np.bool_] | None = None
    backs, back_drop = _take(cubes, slice(0, 0)), None
    if len(liquid):
        # A glowing liquid (lava): no shade at all, and lit by its own light (15), not by the
        # voxel in front (14).
        glowing = np.zeros(len(face), np.bool_)
        glowing[liquid[glows[liquid]]] = True
        shade[glowing] = 1.0
        moved = liquid_quads(
            liquid_states(registry), padded, _take(cubes, liquid), 6 * len(registry)
        )
        cubes.corner[liquid] = moved.front_corner
        drop = np.zeros((len(face), 4), np.float32)
        drop[liquid] = moved.front_drop
        backs, back_drop = moved.back, moved.back_drop

    # The parts in drawing order (module notes), and how far their vertices drop.
    opaque, see_through_cubes = (
        _take(cubes, slice(0, opaque_cubes)),
        _take(cubes, slice(opaque_cubes, None)),
    )
    drops: list[NDArray[np.float32] | None]
    drops = [None, None] if drop is None else [drop[:opaque_cubes], drop[opaque_cubes:]]
    drops.append(back_drop)
    own_lit: list[NDArray[np.bool_] | None]
    own_lit = [None, None] if glowing is None else [glowing[:opaque_cubes], glowing[opaque_cubes:]]
    own_lit.append(None)
    parts = [opaque, see_through_cubes, backs]
    if any_shaped:
        shaped, opaque_shaped = mesh_boxes(registry, tables, padded, floor_ly)
        parts.insert(1, _take(shaped, slice(0, opaque_shaped)))
        parts.append(_take(shaped, slice(opaque_shaped, None)))
        for extra in (drops, own_lit):
            extra.insert(1, None)
            extra.append(None)
    is_plant = centre_cull == CULL_PLANT
    if is_plant.any():
        parts.append(_plants(centre, is_plant, both_sides=not merge))
        drops.append(None)
        own_lit.append(None)
    lit = None if light is None else (*light, occludes)
    return _assemble(tables, parts, lit, merge=merge, drops=drops, own_lit=own_lit)


def _assemble(
    tables: CullTables,
    parts: list[QuadArrays],
    light: tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.int8]] | None,
    *,
    merge: bool = False,
    drops: list[NDArray[np.float32] | None] | None = None,
    own_lit: list[NDArray[np.bool_] | None] | None = None,
) -> MeshData:
    """One mesh of the parts' quads, in order: each output array made by one table gather.

    ``light`` is the (sky, block) light of the padded 18³ neighbourhood and which of its voxels
    are opaque (flat), or None (daylight). With ``merge``, cube faces (and a liquid's faces seen
    from inside it) are joined into larger quads within their part, where that draws the same
    picture (`world.mesh.merge`); the parts keep their order. ``drops``, per part (None: 0),
    lowers each quad's vertices (Q, 4) below its corner row's (a liquid's, to its corners'
    heights: `world.mesh.liquids`); a sloped quad then takes its own normal. ``own_lit``, per
    part (None: none), marks quads lit by their own voxel (`world.mesh.light.smooth_light`).
    """
    voxel, corner, uv, flip, normal = (
        np.concatenate([part[i] for part in parts]) for i in (0, 1, 2, 4, 5)
    )
    shade = np.concatenate([part.shade for part in parts]).astype(np.float32, copy=False)
    drop = None
    if drops is not None and any(d is not None for d in drops):
        drop = np.concatenate(
            [
                np.zeros((len(part.voxel), 4), np.float32) if d is None else d
                for part, d in zip(parts, drops, strict=True)
            ]
        )
    if light is None:
        vertex_light = np.empty((len(voxel), 4, 2), np.float32)
        vertex_light[..., 0], vertex_light[..., 1] = MAX_LIGHT, 0
        twelfths = np.full((len(voxel), 4), MAX_LIGHT * 12 << 8, np.uint16)
    else:
        own = None
        if own_lit is not None and any(o is not None for o in own_lit):
            own = np.concatenate(
                [
                    np.zeros(len(part.voxel), np.bool_) if o is None else o
                    for part, o in zip(parts, own_lit, strict=True)
                ]
            )
        vertex_light, twelfths = smooth_light(voxel, corner, normal, light, own)
    merged = None
    if merge:  # the cube faces merged into rectangles, each part in its place
        part = np.repeat(np.arange(len(parts)), [len(part.voxel) for part in parts])
        merged = _merge(part, voxel, corner, uv, shade, twelfths)
        keep, kind, length_a, length_b, identity = merged
        voxel, corner, uv, flip = voxel[keep], corner[keep], uv[keep], flip[keep]
        normal, shade, vertex_light = normal[keep], shade[keep], vertex_light[keep]
        drop = None if drop is None else drop[keep]
    # Corner positions: the voxel's origin plus the table's corners, as two gathers of 12-float
    # rows (broadcasting (Q, 1, 3) against (Q, 4, 3) runs numpy's inner loop three wide).
    vertices = gather_rows(VOXEL_CORNERS, voxel).reshape(-1, 4, 3)
    vertices += gather_rows(tables.corners, corner).reshape(-1, 4, 3)
    if drop is not None:
        vertices[..., 1] -= drop
    uvs = gather_rows(tables.uvs, uv).reshape(-1, 4, 2)
    tile_origin = gather_rows(tables.tiles.origin, uv).reshape(-1, 4, 2)
    tile_uvs = gather_rows(tables.tiles.units, uv).reshape(-1, 4, 2)
    if merged is not None:  # stretched over their rectangles, and their atlas uvs to match
        stretch(tables.tiles, kind, uv, length_a, length_b, vertices, tile_uvs, uvs, tile_origin)
    indices = gather_rows(_QUAD_TRIANGLES, flip.view(np.uint8))
    indices += (np.arange(len(flip), dtype=np.uint32) * 4)[:, None]
    indices = indices.reshape(-1)
    quad_normals = gather_rows(_QUAD_NORMALS, normal).reshape(-1, 4, 3)
    sloped = np.flatnonzero((corner >= CORNER_SLOPED) & (corner < CORNER_SLOPED + 12))
    if len(sloped):  # a sloped top faces along its slope (diagonals' cross product, outward)
        quad = vertices[sloped]
        tilt = np.cross(quad[:, 2] - quad[:, 0], quad[:, 3] - quad[:, 1])
        quad_normals[sloped] = (tilt / np.linalg.norm(tilt, axis=1, keepdims=True))[:, None, :]
    fields = [
        vertices,
        uvs,
        quad_normals,
        shade[..., None],
        vertex_light,
        tile_origin,
        tile_uvs,
    ]
    if merged is not None:  # and one vertex where merged quads share one
        kept, number = share_vertices(kind, vertices, identity)
        fields = [gather_rows(field.reshape(-1, field.shape[2]), kept) for field in fields]
        indices = number[indices]
    position, atlas_uv, normals, shades, lights, origin, tiled = (
        field.astype(np.float32, copy=False).reshape(-1) for field in fields
    )
    return MeshData(
        vertices=position,
        indices=indices,
        uvs=atlas_uv,
        normals=normals,
        shade=shades,
        light=lights,
        tile_origin=origin,
        tile_uvs=tiled,
    )


def _merge(
    part: NDArray[np.int64],
    voxel: NDArray[np.int64],
    corner: NDArray[np.int64],
    uv: NDArray[np.int64],
    shade: NDArray[np.float32],
    twelfths: NDArray[np.uint16],
) -> tuple[NDArray[np.int64], ...]:
    """The quads to draw after merging the cube faces (`world.mesh.merge.merge_faces`):
    indices into the quads, in the parts' order, with each one's kind, extents along its a and
    b axes and per vertex an identity for `world.mesh.merge.share_vertices`."""
    kind = _KIND_OF_CORNER[np.minimum(corner, len(_KIND_OF_CORNER) - 1)]
    # One integer per vertex for all it interpolates. Exact: shades are a few products of fixed
    # levels, and light comes as whole twelfths (`world.mesh.light.smooth_light`).
    code = np.rint(shade * 4096.0).astype(np.int64) << 16 | twelfths
    keep, length_a, length_b = merge_faces(part, kind, voxel, uv, code)
    identity = (uv[keep] << 3 | part[keep])[:, None] << 29 | code[keep]
    return keep, kind[keep], length_a, length_b, identity


def _take(quads: QuadArrays, which: slice | NDArray[Any]) -> QuadArrays:
    """Some of the quads."""
    return QuadArrays(*(array[which] for array in quads))


def _plants(
    centre: NDArray[np.uint16], is_plant: NDArray[np.bool_], *, both_sides: bool = True
) -> QuadArrays:
    """Plants' crossed quads (4 per plant: two planes, both sides; without ``both_sides`` only
    the front of each plane, for a renderer that draws them from both sides), their tile as
    face 0's."""
    planes = np.arange(4) if both_sides else np.array([0, 2])
    voxel = np.repeat(np.flatnonzero(is_plant), len(planes))
    count = len(voxel)
    return QuadArrays(
        voxel,
        np.tile(CORNER_PLANT + planes, count // len(planes)),
        centre.reshape(-1)[voxel].astype(np.int64) * 6,
        np.full((count, 4), PLANT_SHADE, np.float32),
        np.zeros(count, np.bool_),
        np.tile(6 + planes, count // len(planes)),
    )
