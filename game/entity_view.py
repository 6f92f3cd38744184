"""The world's entities in the scene: dropped stacks, falling blocks, mods' creatures.

Every entity in a chunk column within the view distance (the streaming's circle) is kept drawn
by its model (`game.entity_models`: a stack as its block shrunk or as its flat tile, a falling
block as the block, a mod's kind as its cube, box model or sprite). A stack bobs and spins, its
copies shown near it; a cube or box model turns with the entity's yaw (Minecraft's: 0 faces south,
+z; 90 west; 180 north); a sprite turns to the camera (`game.entity_shader`: how each is placed).
An entity whose kind no loaded mod defines, or whose data names nothing drawable, is not drawn.

Positions and yaws are drawn between the last two the entity's steps gave
(`world.blocks.entity_type.STEP_SECONDS` apart), so what falls or walks moves smoothly at any
frame rate; a jump farther than `SNAP` (a teleport) is drawn at once. The light (the sky and
block light of the voxel at the entity's middle; full sky light where the chunk is not lit yet,
as its mesh is drawn then) is looked up when it moves and every `LIGHT_EVERY` frames, and so is
its model (a stack that merged shows more copies). An entity is drawn within its reach
(`RENDER_REACH`, Minecraft's rule by the box's size).

Drawing. Every entity's quads go into ONE vertex buffer and one geom, drawn by
`game.entity_shader` (the chunks' fragment stage and inputs, copied from their node: entities
are lit, darkened at night and fogged as the blocks round them):

- the buffer holds each entity's model in its own frame, its row beside each vertex; it is
  written when entities come into view, go or change model, never because they move;
- what moves lives in the rows, a float texture: an entity's row is written when a step moved
  it or its light changed (a resting stack costs nothing), and the bob, the spin, the steps'
  interpolation and a sprite's turn are the shader's work from the frame's few values;
- the index buffer lists the quads of the entities the camera may see, nearest first: within
  their reach and inside the view's side planes (`_in_sight`), both made wider by `SIGHT_SLACK`
  and `SIGHT_TURN`, so that they are worked out again only when the view turned or the eye
  went that far, or an entity left its sphere, and listed again only when they changed. GL
  shades the vertices listed only, drops the faces looking away, and the shader leaves out
  exactly what is beyond reach;
- the entities are drawn before the chunks: the terrain they hide is passed over by software
  GL's early depth test.

Finding what moved. Every step that moves or turns an entity gives it a new ``pos`` tuple: in a
frame after one that moved any (the world's count of moves, `world.voxels.entities.Entities`'s
``moves``, changed: a frame in three or four at 80 FPS, the steps being 20 a second), one
identity test per loaded entity, run by C (`_changes`); entities coming and going are told by
the world's count of them and its last id (`_scan` looks at every one then).

Positions are laid out from the render origin (`game.render_origin`: nothing cracks far from
0, 0, 0): the rows hold them relative to it, written anew when it moves.

Cost, headless (800×600, llvmpipe) at view distance 8, turning, with 500 stacks scattered within
24 blocks and 50 box-model sheep against the same world without them (`bench.entities`; means
of a frame, with less without, session 38): the view's Python 0.13 ms and its drawing 0.3-0.5
ms, where working out every vertex's place on the CPU each frame (numpy, the faces looking
away left out there, the vertices uploaded every frame) cost 0.8 and 0.6-0.7 ms. The drawing
grows with the vertices listed (some 5,000: the nearer half of the entities' quads costs half
of it, at a quarter of the pixels as much), so it is the vertex shader's, not the fill. The
rest of what the entities cost a frame is the world's: their steps (0.24 ms: a step of 1.2 ms
every fifth frame) and the sight's pick among them (0.03 ms).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import compress
from operator import attrgetter, is_, not_

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    CullBinManager,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    NodePath,
    OmniBoundingVolume,
    PTA_LVecBase4f,
    SamplerState,
    ShaderAttrib,
    ShaderInput,
)
from panda3d.core import Texture as PandaTexture
from ursina import camera

from game.entity_models import Model, ModelKey, build_model, model_key, quad_normals
from game.entity_shader import (
    BOB_HEIGHT,
    COPIES_WITHIN,
    ROWS_WIDE,
    TEXELS,
    VERTEX_ROW,
    entity_shader,
    frame_values,
    place,
    vertex_format,
    write_rows,
)
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
    "LIGHT_EVERY",
    "RENDER_REACH",
    "SIGHT_SLACK",
    "SIGHT_TURN",
    "SNAP",
    "EntityView",
]

SNAP = 4.0  # blocks: a step farther than this is drawn at once (a teleport)
LIGHT_EVERY = 32  # frames between looks at the light and model of an entity that stood still
SIGHT_TURN = 10.0  # degrees the view may turn before what it may see is worked out again
SIGHT_SLACK = 1.0  # blocks the eye may go before the same
RENDER_REACH = 64.0
"""An entity is drawn within this many blocks times the mean edge of its box (Minecraft's
``Entity.shouldRenderAtSqrDistance``): a dropped stack (0.25) within 16 blocks, a sheep (0.9 by
1.3) within 66, and never beyond the view distance."""
_FULL_LIGHT = (15, 0)  # sky, block: the light of a chunk not lit yet (its mesh is drawn so too)
_GOLDEN = 0.6180339887498949  # spreads the stacks' phases by their ids
_EPOCH_SECONDS = 1024.0  # the clock the shader sees restarts this often (float32 keeps ms)
_POS = attrgetter("pos")
_BIN = "entities"
# Drawn before the chunks (their bin's sort is 5, `game.chunk_view`): the terrain an entity
# hides is then passed over by software GL's early depth test rather than shaded and drawn over.
CullBinManager.getGlobalPtr().addBin(_BIN, CullBinManager.BTUnsorted, 4)
_TURN_COS = math.cos(math.radians(SIGHT_TURN))


_ROW = np.dtype(
    [
        ("before", "<f8", 3),  # the position and yaw the step before the last gave
        ("pos", "<f8", 3),  # and the last
        ("yaw_before", "<f8"),
        ("yaw", "<f8"),
        ("seen", "<f8"),  # the view's clock when it saw the last step
        ("phase", "<f8"),  # 0..1: where a stack's spin starts
        ("bob", "<f8"),  # and its bob
        ("motion", "i1"),  # `game.entity_models.TURNED`, `SPINS` or `FACES`
        ("sky", "i1"),  # the light of its voxel (`_relight`)
        ("block", "i1"),
        ("lift", "<f8"),  # from its ``pos`` up to the voxel whose light it takes
        ("start", "<i8"),  # its first quad in the buffer
        ("quads", "<i8"),  # its quads, every copy's
        ("first", "<i8"),  # the first copy's quads (a stack's; else all of them)
        ("radius", "<f8"),  # the sphere round its place its model lies in, bobbing
        ("reach", "<f8"),  # blocks from the eye it is drawn within (`RENDER_REACH`)
        ("centre", "<f8", 3),  # half way between its last two positions
        ("spread", "<f8"),  # half the way between them
        ("bound", "<f8"),  # the sphere round the centre it lies in on its way: radius + spread
        ("sighted", "<f8", 3),  # the centre and spread `shown` was worked out with
        ("sighted_spread", "<f8"),
    ]
)
"""What the view keeps of each drawn entity, a row each."""


def _quad_vertices(quads: NDArray[np.int64]) -> NDArray[np.uint32]:
    """The vertex indices of those quads' triangles, in the mesher's order."""
    return (quads[:, None] * 4 + TRIANGLES).reshape(-1).astype(np.uint32)


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
        self._runs: dict[ModelKey, NDArray[np.void]] = {}  # each model's vertices as drawn
        self.clock = 0.0  # seconds of frames drawn: the stacks' bob and spin
        self._epoch = 0.0  # the clock's value the shader's clock counts from
        self._frame = 0
        # The drawn entities, one row each: who, which model, what the view saw of them last.
        self.ids: list[int] = []
        self.rows: dict[int, int] = {}  # entity id: its row
        self._keys: list[ModelKey] = []
        self._entities: list[Entity] = []
        self._seen_pos: list[Vec3] = []  # the ``pos`` tuple last seen (identity: moved?)
        # Every loaded entity, and its ``pos`` tuple last seen (`_changes`); the world's count of
        # entities and last id, the eye's chunk column and the view distance they were found at.
        self._watched: list[Entity] = []
        self._watched_pos: list[Vec3] = []
        self._census: tuple[int, int, int, int, int] | None = None
        self._moves = -1  # the world's count of entity moves last frame (`_changes`)
        self._row = np.zeros(0, dtype=_ROW)  # what is drawn of each row (`_ROW`)
        self._vertices = np.zeros(0, dtype=VERTEX_ROW)  # the buffer, row by row
        self.shown = np.zeros(0, dtype=bool)  # the rows the camera may see (drawn last frame)
        self._near = np.zeros(0, dtype=bool)  # of those, the ones showing every copy
        self._listed = False  # the index buffer lists `shown` and `_near`'s quads
        # The eye, view and field of view `shown` was worked out from (None: work it out anew).
        self._sight: tuple[Vec3, Vec3, tuple[float, ...]] | None = None
        self.quads = 0  # the quads listed last frame (GL drops those facing away)
        self._moved: set[int] = set()  # rows whose texels are to be written this frame
        self._origin = origin_of((0.0, 0.0, 0.0))  # the texels' positions are laid out from it
        self._vdata = GeomVertexData("entities", vertex_format(), Geom.UHStatic)
        self._triangles = GeomTriangles(Geom.UHDynamic)
        geom = Geom(self._vdata)
        geom.addPrimitive(self._triangles)
        node = GeomNode("entities")
        node.addGeom(geom)
        # Never culled as a whole (the entities lie all round the camera): their vertices' own
        # positions say nothing of where the shader puts them.
        node.setBounds(OmniBoundingVolume())
        node.setFinal(True)
        self.node: NodePath = shading.getParent().attachNewNode(node)
        self.node.setTexture(texture, 1)
        self.node.setBin(_BIN, 0)
        self.node.hide()
        self._texels = np.zeros((TEXELS, ROWS_WIDE, 4), dtype=np.float32)  # the texture's
        self._rows_texture = PandaTexture("entity rows")
        self._rows_texture.setMinfilter(SamplerState.FT_nearest)
        self._rows_texture.setMagfilter(SamplerState.FT_nearest)
        self._fit_texture()
        self._frame_values = PTA_LVecBase4f.emptyArray(2)  # the shader's ``frame``
        self._shading = shading
        self._program = entity_shader(shading.getShader())
        self._shader: ShaderAttrib | None = None  # the chunks' shader and inputs, as copied

    @property
    def vertices(self) -> int:
        """How many vertices the entities kept in view have (those of `quads` are listed)."""
        return len(self._vertices)

    # -- every frame ------------------------------------------------------------------------

    def update(self, eye: Vec3, camera_yaw: float, camera_pitch: float, dt: float) -> None:
        """Draw the entities in view this frame, ``dt`` seconds after the last (0 while the game
        is paused), seen from ``eye`` along the player's yaw and pitch (degrees:
        `world.physics.movement.look_direction`): what is behind the camera is left out, and
        the sprites turn to it."""
        self._copy_shading()
        self.clock += dt
        self._frame += 1
        new, gone, moved = self._changes(eye)
        gone += self._look_again(new)
        self._move(moved)
        if gone:
            self._remove(gone)
        if new:
            self._add(new)
        self._relay(eye, camera_yaw)
        self._draw(eye, camera_yaw, camera_pitch)

    def _copy_shading(self) -> None:
        """The chunks' shader inputs (day light, fog) with our program and inputs (the
        texture, the frame's values: read anew every frame), when theirs changed."""
        chunks = self._shading.getAttrib(ShaderAttrib.getClassType())
        if chunks == self._shader:  # Panda3D's attributes are unique: the same inputs
            return
        self._shader = chunks
        ours = chunks.setShader(self._program)
        ours = ours.setShaderInput(ShaderInput("rows", self._rows_texture))
        ours = ours.setShaderInput(ShaderInput("frame", self._frame_values))
        self.node.setAttrib(ours)

    def _changes(self, eye: Vec3) -> tuple[list[Entity], list[int], list[tuple[int, Entity]]]:
        """The entities that came into view, the rows whose entity left it (gone from the
        world, or out of range) and the rows whose entity moved or turned.

        Every step that moves or turns an entity gives it a new ``pos`` tuple: each frame an
        identity test per loaded entity, run by C (``map``), finds those. Every entity added
        to the world (or put back by an undo) is put last into `Entities.by_id`, and every one
        taken out leaves it: while its size and last key, the eye's chunk column and the view
        distance stay, no entity came or went but by moving (`_scan` otherwise)."""
        entities = self.world.entities
        by_id = entities.by_id
        radius = self._view_distance()
        cx, cz = math.floor(eye[0]) >> CHUNK_SHIFT, math.floor(eye[2]) >> CHUNK_SHIFT
        census = (len(by_id), next(reversed(by_id), 0), cx, cz, radius)
        moves, self._moves = self._moves, entities.moves
        if census != self._census:
            self._census = census
            return self._scan(cx, cz, radius)
        new: list[Entity] = []
        gone: list[int] = []
        moved: list[tuple[int, Entity]] = []
        if moves == entities.moves:
            return new, gone, moved  # no entity moved since the last frame (none stepped)
        watched, seen_pos = self._watched, self._watched_pos
        still = list(map(is_, map(_POS, watched), seen_pos))
        if False not in still:
            return new, gone, moved
        r2, rows = radius * radius, self.rows
        for at in compress(range(len(still)), map(not_, still)):
            entity = watched[at]
            seen_pos[at] = entity.pos
            row = rows.get(entity.id)
            key = entity.chunk
            inside = (key[0] - cx) ** 2 + (key[2] - cz) ** 2 <= r2
            if row is None:
                if inside:
                    new.append(entity)  # came into view (drawn if it draws anything)
            elif not inside:
                gone.append(row)
            else:
                moved.append((row, entity))
        return new, gone, moved

    def _scan(
        self, cx: int, cz: int, radius: int
    ) -> tuple[list[Entity], list[int], list[tuple[int, Entity]]]:
        """`_changes` by a look at every loaded entity: those in a chunk column within the
        view distance of the eye's (``cx``, ``cz``) are in view."""
        watched = self._watched = list(self.world.entities.by_id.values())
        self._watched_pos = list(map(_POS, watched))
        r2, rows, seen_pos = radius * radius, self.rows, self._seen_pos
        new: list[Entity] = []
        moved: list[tuple[int, Entity]] = []
        present = set()
        for entity in watched:
            key = entity.chunk
            if (key[0] - cx) ** 2 + (key[2] - cz) ** 2 > r2:
                continue
            row = rows.get(entity.id)
            if row is None:
                new.append(entity)  # drawn from now on, if its kind and data draw anything
                continue
            present.add(row)
            if entity.pos is not seen_pos[row]:
                moved.append((row, entity))
        gone = [row for row in range(len(self.ids)) if row not in present]
        return new, gone, moved

    def _look_again(self, new: list[Entity]) -> list[int]:
        """Every `LIGHT_EVERY` frames every row's entity has its light and model looked at
        again (a torch placed by it, a stack that merged), all at once (a frame's numpy calls
        cost as much for a few rows as for hundreds); the rows whose model changed are
        returned, their entities put in ``new`` (drawn anew as they are now)."""
        if self._frame % LIGHT_EVERY:
            return []
        kinds, keys = self.world.registry.entities, self._keys
        changed = []
        for row, entity in enumerate(self._entities):
            key = keys[row]
            if key[0] == "kind" or entity.removed:
                continue  # a kind's model is its own (and one gone: `_changes` has it)
            kind = kinds.get(entity.kind)
            if kind is not None and model_key(entity, kind) != key:
                changed.append(row)
                new.append(entity)
        self._relight(np.arange(len(keys)))
        return changed

    def _relight(self, index: NDArray[np.int64]) -> None:
        """Look up the light of those rows' entities (the sky and block light of the voxel at
        the entity's middle; full sky light where the chunk is not lit yet, as its mesh is
        drawn then); the rows whose light changed have their texels written."""
        if self.light is None or not len(index):
            return
        rows = self._row
        pos = rows["pos"][index]
        wx, wz = np.floor(pos[:, 0]).astype(np.int64), np.floor(pos[:, 2]).astype(np.int64)
        wy = np.floor(pos[:, 1] + rows["lift"][index]).astype(np.int64)
        flat = ((wx & 15) * 256 + (wy & 15) * 16 + (wz & 15)).tolist()
        keys = zip(
            (wx >> CHUNK_SHIFT).tolist(),
            (wy >> CHUNK_SHIFT).tolist(),
            (wz >> CHUNK_SHIFT).tolist(),
            strict=True,
        )
        sky_of, block_of = self.light.sky, self.light.block
        levels = [_FULL_LIGHT] * len(flat)
        for n, key in enumerate(keys):
            sky = sky_of.get(key)
            if sky is not None:
                levels[n] = (sky[flat[n]], block_of[key][flat[n]])
        light = np.array(levels, dtype=np.int8).reshape(-1, 2)
        differs = (light[:, 0] != rows["sky"][index]) | (light[:, 1] != rows["block"][index])
        if differs.any():
            rows["sky"][index], rows["block"][index] = light[:, 0], light[:, 1]
            self._moved.update(index[differs].tolist())

    # -- rows coming, moving and going ------------------------------------------------------

    def _move(self, moved: list[tuple[int, Entity]]) -> None:
        """Entities whose step moved or turned them: drawn from where they were to there."""
        if not moved:
            return
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
        rows["seen"][index] = self.clock
        centre = (rows["before"][index] + pos) / 2.0
        spread = np.sqrt(((pos - centre) ** 2).sum(axis=1))
        rows["centre"][index], rows["spread"][index] = centre, spread
        rows["bound"][index] = rows["radius"][index] + spread
        # What the camera may see is worked out again once a sphere left the one it was seen
        # in (`SIGHT_SLACK` wider): a walk of a few steps, a fall of one.
        drift = np.sqrt(((centre - rows["sighted"][index]) ** 2).sum(axis=1))
        if (drift + spread - rows["sighted_spread"][index] > SIGHT_SLACK).any():
            self._sight = None
        for row, entity in moved:
            self._seen_pos[row] = entity.pos
        self._moved.update(index.tolist())
        self._relight(index)

    def _remove(self, gone: list[int]) -> None:
        """Forget rows (entities gone or out of view); the others' vertices close up."""
        keep = np.ones(len(self.ids), dtype=bool)
        keep[gone] = False
        for row in set(gone):
            del self.rows[self.ids[row]]
        kept = np.repeat(keep, self._row["quads"] * 4)  # per vertex
        self._vertices = self._vertices[kept]
        self._row = self._row[keep]
        for name in ("ids", "_keys", "_entities", "_seen_pos"):
            values = getattr(self, name)
            setattr(self, name, [v for v, k in zip(values, keep.tolist(), strict=True) if k])
        self.rows = {entity_id: row for row, entity_id in enumerate(self.ids)}
        self._renumber()

    def _renumber(self) -> None:
        """Each row's first quad and its vertices' row, after rows came or went; the buffer and
        every row's texels written anew."""
        quads = self._row["quads"]
        self._row["start"] = np.cumsum(quads) - quads
        self._vertices["entity"][:, 0] = np.repeat(np.arange(len(quads)), quads * 4)
        self._moved = set(range(len(quads)))
        self._listed = False
        self.shown = np.zeros(len(quads), dtype=bool)
        self._near = self.shown
        vdata = self._vdata
        vdata.uncleanSetNumRows(len(self._vertices))
        if len(self._vertices):
            memoryview(vdata.modifyArray(0)).cast("B")[:] = self._vertices.view(np.uint8).data
        self._fit_texture()

    def _add(self, entities: list[Entity]) -> None:
        """Entities come into view (or are drawn anew): a row and a run of vertices each."""
        kinds = self.world.registry.entities
        added: list[tuple[Entity, ModelKey, Model, float, float]] = []
        for entity in entities:
            kind = kinds.get(entity.kind)
            key = None if kind is None else model_key(entity, kind)
            model = None if key is None else self._model(key)
            if kind is None or key is None or model is None:
                continue
            width, height = kind.size
            reach = RENDER_REACH * (2 * width + height) / 3
            added.append((entity, key, model, min(height / 2, 0.5), reach))
        if not added:
            return
        first = len(self.ids)
        vertices = [self._vertices]
        for n, (entity, key, model, _, _) in enumerate(added):
            self.rows[entity.id] = first + n
            self.ids.append(entity.id)
            self._keys.append(key)
            self._entities.append(entity)
            self._seen_pos.append(entity.pos)
            vertices.append(self._run(key, model))
        more = np.zeros(len(added), dtype=_ROW)
        more["pos"] = more["before"] = more["centre"] = [entity.pos for entity, *_ in added]
        more["yaw"] = more["yaw_before"] = [entity.yaw for entity, *_ in added]
        phase = (np.array([entity.id for entity, *_ in added]) * _GOLDEN) % 1.0
        more["phase"], more["bob"] = phase, phase * 7.0 % 1.0
        more["seen"] = self.clock - STEP_SECONDS  # drawn where it is
        more["motion"] = [model.motion for _, _, model, *_ in added]
        more["sky"], more["block"] = _FULL_LIGHT  # until `_relight` below
        more["lift"] = [lift for *_, lift, _ in added]
        more["quads"] = [model.vertices // 4 for _, _, model, *_ in added]
        more["first"] = more["quads"] // [key[2] if key[0] == "item" else 1 for _, key, *_ in added]
        more["radius"] = [model.radius + 2 * BOB_HEIGHT for _, _, model, *_ in added]
        more["bound"] = more["radius"]
        more["reach"] = [reach for *_, reach in added]
        self._row = np.concatenate([self._row, more])
        self._vertices = np.concatenate(vertices)
        self._renumber()
        self._relight(np.arange(first, len(self._row)))

    def _model(self, key: ModelKey) -> Model | None:
        """The model of a key, built the first time."""
        if key not in self.models:
            self.models[key] = build_model(self.world.registry, key)
        return self.models[key]

    def _run(self, key: ModelKey, model: Model) -> NDArray[np.void]:
        """A model's vertices as the buffer holds them (their row written by `_renumber`),
        made the first time."""
        run = self._runs.get(key)
        if run is None:
            run = self._runs[key] = np.zeros(model.vertices, dtype=VERTEX_ROW)
            run["corner"] = model.corners
            run["rgba"] = model.static["rgba"]
            run["uv"] = model.static["uv"]
            run["tile"] = model.static["tile"]
            copies = key[2] if key[0] == "item" else 1
            run["entity"][:, 1] = np.arange(model.vertices) // (model.vertices // copies)
        return run

    # -- the texture ------------------------------------------------------------------------

    def _fit_texture(self) -> None:
        """A texture with room for every row (whole lines of `ROWS_WIDE` entities)."""
        lines = max(1, -(-len(self._row) // ROWS_WIDE)) * TEXELS
        if lines != len(self._texels) or not self._rows_texture.hasRamImage():
            self._texels = np.zeros((lines, ROWS_WIDE, 4), dtype=np.float32)
            texture = self._rows_texture
            texture.setup2dTexture(ROWS_WIDE, lines, PandaTexture.T_float, PandaTexture.F_rgba32)
            texture.setRamImage(self._texels.tobytes())
            self._moved = set(range(len(self._row)))

    def _relay(self, eye: Vec3, yaw: float) -> None:
        """Write the texels of the rows that moved or were lit anew (all of them when the
        render origin or the shader's clock moved), then the frame's values (the camera's
        ``yaw``: the sprites' angle)."""
        origin = self._to_render((0.0, 0.0, 0.0))
        if origin != self._origin or self.clock - self._epoch > _EPOCH_SECONDS:
            self._origin = origin
            self._epoch = self.clock
            self._moved = set(range(len(self._row)))
        if self._moved:
            index = np.fromiter(self._moved, dtype=np.int64, count=len(self._moved))
            self._moved = set()
            write_rows(self._texels, index, self._row[index], origin, self._epoch)
            ram = memoryview(self._rows_texture.modifyRamImage())
            ram[:] = self._texels.view(np.uint8).reshape(-1).data
        since = self.clock - self._epoch
        self._frame_values[0], self._frame_values[1] = frame_values(
            self._to_render(eye), since, self.clock, yaw
        )

    # -- drawing ----------------------------------------------------------------------------

    def _draw(self, eye: Vec3, yaw: float, pitch: float) -> None:
        """List the quads of the rows the camera may see (module notes): worked out again when
        rows came, went or moved, the view turned `SIGHT_TURN` or the eye went `SIGHT_SLACK`
        from where they were last (the sight is that much wider)."""
        forward = look_direction(yaw, pitch)
        fov = tuple(camera.lens.getFov())
        if self._listed and self._sight is not None:
            last_eye, last_forward, last_fov = self._sight
            turned = sum(a * b for a, b in zip(forward, last_forward, strict=True))
            went = sum((a - b) ** 2 for a, b in zip(eye, last_eye, strict=True))
            if fov == last_fov and turned >= _TURN_COS and went <= SIGHT_SLACK**2:
                return
        self._sight = (eye, forward, fov)
        rows = self._row
        rows["sighted"], rows["sighted_spread"] = rows["centre"], rows["spread"]
        shown, distance = self._in_sight(rows["centre"] - eye, yaw, pitch, fov)
        near = shown & (distance - rows["spread"] <= COPIES_WITHIN + SIGHT_SLACK)
        if self._listed and np.array_equal(shown, self.shown) and np.array_equal(near, self._near):
            return
        self.shown, self._near, self._listed = shown, near, True
        index = np.flatnonzero(shown)
        index = index[np.argsort(distance[index])]  # near first: GL skips what they hide
        quads = np.where(near[index], rows["quads"][index], rows["first"][index])
        self.quads = int(quads.sum())
        if not self.quads:
            if not self.node.isHidden():  # a node shown anew changes Panda3D's state: only then
                self.node.hide()
            return
        listed = np.repeat(rows["start"][index] - np.cumsum(quads) + quads, quads)
        listed += np.arange(self.quads)
        indexed(self._triangles, _quad_vertices(listed))
        if self.node.isHidden():
            self.node.show()

    def _in_sight(
        self, offset: NDArray[np.float64], yaw: float, pitch: float, fov: tuple[float, ...]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Which rows, their sphere ``offset`` from the eye, may be within their reach
        (`RENDER_REACH`: the shader draws exactly those that are) and have their model reach
        into the picture: inside each of the four side planes of the view seen along ``yaw``
        and ``pitch`` with the lens's field of view ``fov`` (degrees across and up), its
        sides turned out by `SIGHT_TURN` and the spheres grown by `SIGHT_SLACK`; and how far
        each sphere's centre is. A row's sphere (``bound``) holds its model, bobbing,
        anywhere on its way between its last two steps (``spread``: half that way) round
        ``centre``, half way."""
        sy, cy = math.sin(math.radians(yaw)), math.cos(math.radians(yaw))
        sp, cp = math.sin(math.radians(pitch)), math.cos(math.radians(pitch))
        forward = (-sy * cp, -sp, cy * cp)  # `look_direction`'s
        sides = ((cy, 0.0, sy), (-sy * sp, cp, cy * sp))  # level across the view; up it
        planes = []  # each side's normal, into the view
        for angle, side in zip(fov, sides, strict=True):
            turned = math.radians(angle / 2 + SIGHT_TURN)
            along, out = math.sin(turned), math.cos(turned)
            for sign in (out, -out):
                planes.append([f * along + x * sign for f, x in zip(forward, side, strict=True)])
        distance = np.sqrt((offset * offset).sum(axis=1))
        radius, spread = self._row["bound"] + SIGHT_SLACK, self._row["spread"] + SIGHT_SLACK
        inside = (offset @ np.array(planes).T >= -radius[:, None]).all(axis=1)
        sight: NDArray[np.bool_] = (distance - spread <= self._row["reach"]) & inside
        return sight, distance

    # -- what was drawn ---------------------------------------------------------------------

    def placed(self) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """Where the last frame drew each vertex, and in what light: the world positions
        (V, 3) of the quads listed that the shader did not leave out and that face the eye
        (GL drops the others), four a quad, and each vertex's (sky, block) light levels
        (V, 2). Worked out in numpy, float64, from what GL was given (the buffers, the
        texture, the frame's values) by `game.entity_shader.place`: what tests and tools
        check."""
        if self.node.isHidden():
            return np.zeros((0, 3)), np.zeros((0, 2), dtype=np.int64)
        buffer = np.frombuffer(bytes(memoryview(self._vdata.getArray(0))), dtype=VERTEX_ROW)
        handle = self._triangles.getVertices()
        listed = np.frombuffer(bytes(memoryview(handle)), dtype=np.uint32).reshape(-1, 6)
        vertex = (listed[:, :1] + np.arange(4)).reshape(-1)  # four a quad
        ram = np.frombuffer(bytes(self._rows_texture.getRamImage()), dtype=np.float32)
        frame = np.array([tuple(self._frame_values[n]) for n in range(2)], dtype=np.float64)
        at, hidden, light = place(buffer[vertex], ram.reshape(-1, ROWS_WIDE, 4), frame)
        quads = at.reshape(-1, 4, 3)
        facing = (quad_normals(quads) * (quads[:, 0] - frame[0, :3])).sum(axis=1) < 0.0
        drawn = np.repeat(facing & ~hidden.reshape(-1, 4).any(axis=1), 4)
        world = at[drawn] - np.asarray(self._origin)
        return world, np.rint(light[drawn]).astype(np.int64)

    def destroy(self) -> None:
        """Remove the entities' node."""
        self.node.removeNode()
