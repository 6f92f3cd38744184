"""The world's entities in the scene: dropped stacks, falling blocks, mods' creatures.

Every entity in a chunk column within the view distance (the streaming's circle) is kept drawn
by its model (`game.entity_models`: a stack as its block shrunk or as its flat tile, a falling
block as the block, a mod's kind as its cube, box model or sprite). A stack bobs `BOB_HEIGHT`
up and down every `BOB_SECONDS` (never below its box's bottom) and turns once every
`SPIN_SECONDS`, each from its own phase, its copies shown within `COPIES_WITHIN`; a cube or box
model turns with the entity's yaw (0 faces north, -z; 90 east); a sprite turns to the camera. An
entity whose kind no loaded mod defines, or whose data names nothing drawable, is not drawn.

Positions and yaws are drawn between the last two the entity's steps gave
(`world.blocks.entity_type.STEP_SECONDS` apart), so what falls or walks moves smoothly at any
frame rate; a jump farther than `SNAP` (a teleport) is drawn at once. The light (the sky and
block light of the voxel at the entity's middle; full sky light where the chunk is not lit yet,
as its mesh is drawn then) is looked up when it moves and every `LIGHT_EVERY` frames, and so is
its model (a stack that merged shows more copies).

Drawing. Every entity's quads go into ONE vertex buffer and one geom, drawn by the chunk shader
with the chunks' own inputs (`game.chunk_shader`: red the face's shade, green and blue the
light: entities darken at night and in caves as the blocks round them, under the same fog).
Software GL costs about 3 µs for each geom it culls and draws (`game.chunk_parts`) and
transforms every vertex it is given on the CPU, so each frame:

- one Python pass over the entities in view finds those that came, went or moved (every step
  that moves one gives it a new ``pos`` tuple: an identity test); the rest is numpy over rows;
- a row is drawn only within its reach (`RENDER_REACH`, Minecraft's rule by the box's size) and
  when its model's sphere reaches into the cone that holds the picture; of its quads (a pool:
  its run of the view's arrays, kept while it is in view) only those facing the eye are copied
  into the buffer, positions worked out in float64 from the eye and laid out from the render
  origin (`game.render_origin`: nothing cracks far from 0, 0, 0).

Cost, headless (800×600, llvmpipe) at view distance 8, turning, with 500 stacks scattered within
24 blocks and 50 box-model sheep, alternating rounds against the same world without them
(medians): the frame takes 10.4 ms without, +0.5 ms for the world's entity steps, +1.6 ms for
drawing them, of which `EntityView.update`'s Python is 0.9-1.0 ms (0.35 ms run alone: most of it
is numpy's per-call cost in a frame's cold caches) and software GL the rest, for the ~70
entities in sight. Drawing every vertex of every entity each frame, without the cone, the reach
and the faces left out, cost about 5.5 ms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    NodePath,
    OmniBoundingVolume,
    RenderAttrib,
    ShaderAttrib,
)
from panda3d.core import Texture as PandaTexture
from ursina import camera

from game.entity_models import FACES, SPINS, STATIC_ROW, Model, ModelKey, build_model, model_key
from game.geometry import indexed
from world.blocks.entity_type import STEP_SECONDS
from world.geometry import Vec3
from world.light.lighting import Light
from world.mesh.shapes import TRIANGLES
from world.physics.movement import look_direction
from world.voxels.chunks import World
from world.voxels.entities import Entity
from world.voxels.layout import CHUNK_SHIFT

__all__ = [
    "BOB_HEIGHT",
    "BOB_SECONDS",
    "COPIES_WITHIN",
    "LIGHT_EVERY",
    "RENDER_REACH",
    "SNAP",
    "SPIN_SECONDS",
    "EntityView",
]

BOB_HEIGHT = 0.1  # blocks up and down about its middle height (Minecraft's)
BOB_SECONDS = 2.0  # one bob
SPIN_SECONDS = 3.0  # one turn
SNAP = 4.0  # blocks: a step farther than this is drawn at once (a teleport)
LIGHT_EVERY = 32  # frames between looks at the light and model of an entity that stood still
COPIES_WITHIN = 4.0  # blocks: a stack farther away shows one copy (they would overlap there)
RENDER_REACH = 64.0
"""An entity is drawn within this many blocks times the mean edge of its box (Minecraft's
``Entity.shouldRenderAtSqrDistance``): a dropped stack (0.25) within 16 blocks, a sheep (0.9 by
1.3) within 66, and never beyond the view distance."""
_FULL_LIGHT = (15, 0)  # sky, block: the light of a chunk not lit yet (its mesh is drawn so too)
_LIGHT_BYTE = 17  # a light level 0..15 as a colour byte (`world.mesh.pack`)
_GOLDEN = 0.6180339887498949  # spreads the stacks' phases by their ids


_ROW = np.dtype(
    [
        ("before", "<f8", 3),  # the position and yaw the step before the last gave
        ("pos", "<f8", 3),  # and the last
        ("yaw_before", "<f8"),
        ("yaw", "<f8"),
        ("since", "<f8"),  # seconds since the last step moved it
        ("phase", "<f8"),  # 0..1: where a stack's bob and spin start
        ("motion", "i1"),  # `game.entity_models.TURNED`, `SPINS` or `FACES`
        ("count", "<i8"),  # its vertices
        ("start", "<i8"),  # and the first one's index
        ("radius", "<f8"),  # the sphere round its place its model lies in
        ("reach", "<f8"),  # blocks from the eye it is drawn within (`RENDER_REACH`)
        ("copies", "<i8"),  # a stack's copies, one after the other in its run (else 1)
    ]
)
"""What the view keeps of each drawn entity, a row each."""


def _vertex_format() -> GeomVertexFormat:
    """Two arrays: the positions (3 float32), rewritten every frame; the colour (4 uint8), uv
    and tile corner (2 float32 each, the chunk shader's ``tile``), written when they change."""
    moving = GeomVertexArrayFormat()
    moving.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
    still = GeomVertexArrayFormat()
    still.addColumn(InternalName.getColor(), 4, Geom.NTUint8, Geom.CColor)
    still.addColumn(InternalName.getTexcoord(), 2, Geom.NTFloat32, Geom.CTexcoord)
    still.addColumn(InternalName.make("tile"), 2, Geom.NTFloat32, Geom.COther)
    layout = GeomVertexFormat()
    layout.addArray(moving)
    layout.addArray(still)
    registered: GeomVertexFormat = GeomVertexFormat.registerFormat(layout)
    if registered.getArray(1).getStride() != STATIC_ROW.itemsize:
        raise RuntimeError("the entity vertex layout and its numpy mirror disagree")
    return registered


def _quad_indices(quads: int) -> NDArray[np.uint32]:
    """The triangles of ``quads`` quads of four vertices each, in the mesher's order."""
    return (np.arange(quads, dtype=np.uint32)[:, None] * 4 + TRIANGLES).reshape(-1)


class EntityView:
    """The entities within the view distance, drawn as one geom (module notes).

    ``shading``: the chunk view's node, whose shader and inputs (day light, fog) the entities
    are drawn with, beside it; ``texture``: the block atlas; ``origin_of`` gives a world
    position's render position (`game.render_origin.RenderOrigin.to_render`);
    ``view_distance`` the chunk columns drawn round the camera; ``light`` the world's light
    (None: everything in full sky light).
    """

    def __init__(
        self,
        world: World,
        shading: NodePath,
        texture: PandaTexture,
        origin_of: Callable[[Vec3], Vec3],
        view_distance: Callable[[], int],
        light: Light | None = None,
    ) -> None:
        self.world = world
        self.light = light
        self._to_render = origin_of
        self._view_distance = view_distance
        self.models: dict[ModelKey, Model | None] = {}  # built once each
        self.clock = 0.0  # seconds of frames drawn: the stacks' bob and spin
        self._frame = 0
        # The drawn entities, one row each: who, which model, what the view saw of them last.
        self.ids: list[int] = []
        self.rows: dict[int, int] = {}  # entity id: its row
        self._keys: list[ModelKey] = []
        self._seen_pos: list[Vec3] = []  # the ``pos`` tuple last seen (identity: moved?)
        self._light: list[tuple[int, int]] = []
        self._row = np.zeros(0, dtype=_ROW)  # what is drawn of each row (`_ROW`)
        # Every drawn vertex, row by row: its place in its entity's frame (x, y and z each
        # one contiguous line: a frame's arithmetic runs along them), its still columns.
        self._corners = np.zeros((3, 0), dtype=np.float32)
        self._normals = np.zeros((3, 0), dtype=np.float32)  # a quad each, in its model's frame
        self._static = np.zeros(0, dtype=STATIC_ROW)
        self.shown = np.zeros(0, dtype=bool)  # the rows drawn last frame (the camera sees)
        self.quads = 0  # the quads drawn last frame (those facing the camera)
        self._indexed = -1  # quads the index buffer lists
        self._quad_indices = _quad_indices(0)
        self._vdata = GeomVertexData("entities", _vertex_format(), Geom.UHDynamic)
        self._triangles = GeomTriangles(Geom.UHDynamic)
        geom = Geom(self._vdata)
        geom.addPrimitive(self._triangles)
        node = GeomNode("entities")
        node.addGeom(geom)
        # Never culled as a whole (the entities lie all round the camera): no bounds are worked
        # out again from the vertices that change every frame.
        node.setBounds(OmniBoundingVolume())
        node.setFinal(True)
        self.node: NodePath = shading.getParent().attachNewNode(node)
        self.node.setTexture(texture, 1)
        self.node.hide()
        self._shading = shading
        self._shader: RenderAttrib | None = None  # the chunks' shader and inputs, as copied

    @property
    def vertices(self) -> int:
        """How many vertices the entities kept in view have (those drawn: `quads` times 4)."""
        return int(self._corners.shape[1])

    # -- every frame ------------------------------------------------------------------------

    def update(self, eye: Vec3, camera_yaw: float, camera_pitch: float, dt: float) -> None:
        """Draw the entities in view this frame, ``dt`` seconds after the last (0 while the game
        is paused), seen from ``eye`` along the player's yaw and pitch (degrees:
        `world.physics.movement.look_direction`): what is behind the camera is left out, and
        the sprites turn to it."""
        shader = self._shading.getAttrib(ShaderAttrib.getClassType())
        if shader != self._shader:  # the day light or the fog changed: the chunks' new inputs
            self._shader = shader
            self.node.setAttrib(shader)
        self.clock += dt
        self._frame += 1
        rows, seen_pos = self.rows, self._seen_pos
        new: list[Entity] = []
        moved: list[tuple[int, Entity]] = []
        seen = 0
        # The one loop over every entity in view: a dict look-up and an identity test each
        # (every step that moves or turns an entity gives it a new ``pos`` tuple).
        for in_chunk in self._in_view(eye):
            for entity in in_chunk:
                row = rows.get(entity.id)
                if row is None:
                    new.append(entity)  # drawn from now on, if its kind and data draw anything
                    continue
                seen += 1
                if entity.pos is not seen_pos[row]:
                    moved.append((row, entity))
        self._row["since"] += dt
        gone = [] if seen == len(self.ids) else self._gone(eye)
        gone += self._look_again(new)
        self._move(moved)
        if gone:
            self._remove(gone)
        if new:
            self._add(new)
        self._draw(eye, camera_yaw, camera_pitch)

    def _gone(self, eye: Vec3) -> list[int]:
        """The rows of entities no longer in view (gone from the world, or out of range)."""
        present = {entity.id for in_chunk in self._in_view(eye) for entity in in_chunk}
        return [row for row, entity_id in enumerate(self.ids) if entity_id not in present]

    def _look_again(self, new: list[Entity]) -> list[int]:
        """Every `LIGHT_EVERY` frames each row's entity has its light and model looked at
        again (a torch placed by it, a stack that merged); the rows whose model changed are
        returned, their entities put in ``new`` (drawn anew as they are now)."""
        kinds, entities = self.world.registry.entities, self.world.entities
        changed = []
        for row in range(self._frame % LIGHT_EVERY, len(self.ids), LIGHT_EVERY):
            entity = entities.get(self.ids[row])
            kind = None if entity is None else kinds.get(entity.kind)
            if entity is None or kind is None:
                continue  # gone: `_gone` has it
            if model_key(entity, kind) != self._keys[row]:
                changed.append(row)
                new.append(entity)
            else:
                self._set_light(row, self._light_at(entity.pos, kind.size[1]))
        return changed

    def _in_view(self, eye: Vec3) -> Iterator[list[Entity]]:
        """The entities of each chunk in a column within the view distance of the eye's."""
        entities = self.world.entities
        radius = self._view_distance()
        r2 = radius * radius
        cx0, cz0 = math.floor(eye[0]) >> CHUNK_SHIFT, math.floor(eye[2]) >> CHUNK_SHIFT
        for key in entities.chunks():
            dx, dz = key[0] - cx0, key[2] - cz0
            if dx * dx + dz * dz <= r2:
                yield entities.in_chunk(key)

    def _light_at(self, pos: Vec3, height: float) -> tuple[int, int]:
        """(sky, block) light of the voxel at the entity's middle (module notes)."""
        light = self.light
        if light is None:
            return _FULL_LIGHT
        wx, wz = math.floor(pos[0]), math.floor(pos[2])
        wy = math.floor(pos[1] + min(height / 2, 0.5))
        if (wx >> CHUNK_SHIFT, wy >> CHUNK_SHIFT, wz >> CHUNK_SHIFT) not in light.sky:
            return _FULL_LIGHT
        return light.at(wx, wy, wz)

    def _set_light(self, row: int, light: tuple[int, int]) -> None:
        """Write a row's light into its vertices' colours when it changed."""
        if light == self._light[row]:
            return
        self._light[row] = light
        start = int(self._row["start"][row])
        end = start + int(self._row["count"][row])
        self._static["rgba"][start:end, 1] = light[0] * _LIGHT_BYTE
        self._static["rgba"][start:end, 2] = light[1] * _LIGHT_BYTE

    # -- rows coming, moving and going ------------------------------------------------------

    def _move(self, moved: list[tuple[int, Entity]]) -> None:
        """Entities whose step moved or turned them: drawn from where they were to there."""
        if not moved:
            return
        kinds = self.world.registry.entities
        index = np.fromiter((row for row, _ in moved), dtype=np.int64, count=len(moved))
        pos = np.array([entity.pos for _, entity in moved], dtype=np.float64)
        yaw = np.array([entity.yaw for _, entity in moved], dtype=np.float64)
        rows = self._row
        last, last_yaw = rows["pos"][index], rows["yaw"][index]
        jump = np.abs(pos - last).max(axis=1) > SNAP
        rows["before"][index] = np.where(jump[:, None], pos, last)
        rows["pos"][index] = pos
        rows["yaw_before"][index] = np.where(jump, yaw, last_yaw)
        rows["yaw"][index] = yaw
        rows["since"][index] = 0.0
        for row, entity in moved:
            self._seen_pos[row] = entity.pos
            kind = kinds.get(entity.kind)
            if kind is not None:
                self._set_light(row, self._light_at(entity.pos, kind.size[1]))

    def _remove(self, gone: list[int]) -> None:
        """Forget rows (entities gone or out of view); the others' vertices close up."""
        keep = np.ones(len(self.ids), dtype=bool)
        keep[gone] = False
        for row in set(gone):
            del self.rows[self.ids[row]]
        kept = np.repeat(keep, self._row["count"])  # per vertex
        self._corners = self._corners[:, kept]
        self._normals = self._normals[:, kept[::4]]
        self._static = self._static[kept]
        self._row = self._row[keep]
        for name in ("ids", "_keys", "_seen_pos", "_light"):
            values = getattr(self, name)
            setattr(self, name, [v for v, k in zip(values, keep.tolist(), strict=True) if k])
        self.rows = {entity_id: row for row, entity_id in enumerate(self.ids)}
        self._restart()

    def _restart(self) -> None:
        """Each row's first vertex, after rows came or went."""
        count = self._row["count"]
        self._row["start"] = np.cumsum(count) - count

    def _add(self, entities: list[Entity]) -> None:
        """Entities come into view (or are drawn anew): a row and a run of vertices each."""
        kinds = self.world.registry.entities
        corners, normals, static = [self._corners], [self._normals], [self._static]
        added: list[tuple[Entity, ModelKey, Model, tuple[int, int], float]] = []
        for entity in entities:
            kind = kinds.get(entity.kind)
            key = None if kind is None else model_key(entity, kind)
            model = None if key is None else self._model(key)
            if kind is None or key is None or model is None:
                continue
            width, height = kind.size
            reach = RENDER_REACH * (2 * width + height) / 3
            added.append((entity, key, model, self._light_at(entity.pos, height), reach))
        if not added:
            return
        first = len(self.ids)
        for n, (entity, key, model, light, _) in enumerate(added):
            row = first + n
            self.rows[entity.id] = row
            self.ids.append(entity.id)
            self._keys.append(key)
            self._seen_pos.append(entity.pos)
            self._light.append(light)
            corners.append(model.corners.T)
            normals.append(model.normals.T)
            rows = model.static.copy()
            rows["rgba"][:, 1] = light[0] * _LIGHT_BYTE
            rows["rgba"][:, 2] = light[1] * _LIGHT_BYTE
            static.append(rows)
        more = np.zeros(len(added), dtype=_ROW)
        more["pos"] = more["before"] = [entity.pos for entity, *_ in added]
        more["yaw"] = more["yaw_before"] = [entity.yaw for entity, *_ in added]
        more["phase"] = (np.array([entity.id for entity, *_ in added]) * _GOLDEN) % 1.0
        more["motion"] = [model.motion for _, _, model, *_ in added]
        more["count"] = [model.vertices for _, _, model, *_ in added]
        more["radius"] = [model.radius + 2 * BOB_HEIGHT for _, _, model, *_ in added]
        more["reach"] = [reach for *_, reach in added]
        more["copies"] = [key[2] if key[0] == "item" else 1 for _, key, *_ in added]
        self._row = np.concatenate([self._row, more])
        self._corners = np.concatenate(corners, axis=1)
        self._normals = np.concatenate(normals, axis=1)
        self._static = np.concatenate(static)
        self._restart()

    def _model(self, key: ModelKey) -> Model | None:
        """The model of a key, built the first time."""
        if key not in self.models:
            self.models[key] = build_model(self.world.registry, key)
        return self.models[key]

    # -- drawing ----------------------------------------------------------------------------

    def _draw(self, eye: Vec3, yaw: float, pitch: float) -> None:
        """Work out the positions of the vertices of the entities the camera may see (the
        others' are left out of the buffer) and hand it to Panda3D."""
        rows = self._row
        step = np.minimum(rows["since"] / STEP_SECONDS, 1.0)
        before = rows["before"]
        place = before + (rows["pos"] - before) * step[:, None]
        place -= eye  # from the eye (world positions, float64: exact enough anywhere)
        shown, distance = self._in_sight(place, look_direction(yaw, pitch))
        self.shown = shown
        index = np.flatnonzero(shown)
        if not len(index):
            self.quads = 0
            self._hide()
            return
        row, step, place, distance = rows[index], step[index], place[index], distance[index]
        turn = (row["yaw"] - row["yaw_before"] + 180.0) % 360.0 - 180.0  # the short way
        angle = np.radians(row["yaw_before"] + turn * step)
        motion = row["motion"]
        spins = motion == SPINS
        if spins.any():
            phase = row["phase"][spins]
            angle[spins] = 2.0 * math.pi * ((self.clock / SPIN_SECONDS + phase) % 1.0)
            bob = np.sin(2.0 * math.pi * (self.clock / BOB_SECONDS + phase * 7.0 % 1.0))
            place[spins, 1] += BOB_HEIGHT * (1.0 + bob)
        angle[motion == FACES] = -math.radians(yaw)
        # The quads of the rows shown (a row's quads are one run, a stack's copy by copy: one
        # copy only beyond `COPIES_WITHIN`), and of those the ones that face the eye: a quad
        # seen from behind is never drawn (the chunk shader draws one side), so its vertices
        # are left out before software GL transforms them.
        quads = row["count"] // 4
        quads = np.where(distance > COPIES_WITHIN, quads // row["copies"], quads)
        first = row["start"] // 4
        quad = np.repeat(first - np.cumsum(quads) + quads, quads) + np.arange(quads.sum())
        turned = np.empty((len(index), 5), dtype=np.float32)  # per row: cos, sin, its place
        turned[:, 0], turned[:, 1], turned[:, 2:] = np.cos(angle), np.sin(angle), place
        each = np.repeat(turned, quads, axis=0)  # per quad
        c, s, at = each[:, 0], each[:, 1], each[:, 2:]
        nx, ny, nz = self._normals[:, quad]
        cx, cy, cz = self._corners[:, quad * 4]  # any corner lies in the quad's plane
        x = cx * c - cz * s + at[:, 0]
        z = cx * s + cz * c + at[:, 2]
        facing = (nx * c - nz * s) * x + ny * (cy + at[:, 1]) + (nx * s + nz * c) * z < 0.0
        quad = quad[facing]
        self.quads = len(quad)
        if not len(quad):
            self._hide()
            return
        vertex = (quad[:, None] * 4 + np.arange(4)).reshape(-1)
        each = np.repeat(each[facing], 4, axis=0)  # per vertex
        c, s = each[:, 0], each[:, 1]
        out = each[:, 2:] + np.asarray(self._to_render(eye), dtype=np.float32)  # laid out
        x, y, z = self._corners[:, vertex]
        out[:, 0] += x * c - z * s
        out[:, 1] += y
        out[:, 2] += x * s + z * c
        # Gathered as words: numpy copies a structured row field by field, five times slower.
        still = self._static.view(np.uint32).reshape(-1, STATIC_ROW.itemsize // 4)[vertex]
        count = len(out)
        vdata = self._vdata
        if vdata.getNumRows() != count:
            vdata.uncleanSetNumRows(count)
        memoryview(vdata.modifyArray(0)).cast("B")[:] = out.data.cast("B")
        memoryview(vdata.modifyArray(1)).cast("B")[:] = still.data.cast("B")
        if len(quad) != self._indexed:
            self._indexed = len(quad)
            if len(self._quad_indices) < 6 * len(quad):
                self._quad_indices = _quad_indices(2 * len(quad))
            indexed(self._triangles, self._quad_indices[: 6 * len(quad)])
        if self.node.isHidden():
            self.node.show()

    def _in_sight(
        self, offset: NDArray[np.float64], forward: Vec3
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Which rows, ``offset`` from the eye, are within their reach (`RENDER_REACH`) and
        have their model (in the sphere of its `game.entity_models.Model.radius`) reach into
        the cone round the view that holds the whole picture (its half angle the half diagonal
        of the lens's field of view); and how far each is. The sphere, seen from ``d`` away
        under the angle ``asin(r / d)``, is in the cone when the angle to its centre is at most
        the half angle plus that: compared as cosines."""
        across, up = (math.radians(v) / 2 for v in camera.lens.getFov())
        half = math.atan(math.hypot(math.tan(across), math.tan(up)))
        distance = np.sqrt((offset * offset).sum(axis=1))
        radius = self._row["radius"]
        seen = np.minimum(radius / np.maximum(distance, 1e-9), 1.0)  # sin of the sphere's angle
        edge = math.cos(half) * np.sqrt(1.0 - seen * seen) - math.sin(half) * seen
        ahead = offset @ np.asarray(forward)
        sight: NDArray[np.bool_] = (distance <= self._row["reach"]) & (
            (distance <= radius) | (ahead >= distance * edge)
        )
        return sight, distance

    def _hide(self) -> None:
        """Nothing to draw this frame (a node hidden or shown anew changes Panda3D's state:
        only when it changes)."""
        if not self.node.isHidden():
            self.node.hide()

    def destroy(self) -> None:
        """Remove the entities' node."""
        self.node.removeNode()
