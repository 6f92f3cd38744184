"""The models that draw entities: each kind's quads in the entity's own frame, built once.

An entity's frame has its ``pos`` (the bottom centre of its box) at the origin, y up and its front
towards -z (north), as a yaw of 180 faces (Minecraft's yaw: 0 south, 90 west). Which model draws an
entity is its `model_key`, by its kind's ``visual`` (`world.blocks.entity_type`):

- ``item``, a dropped stack (Minecraft's ``ItemEntity``): a block's item as the block shrunk to
  `ITEM_SIZE` (its selection boxes, each face with the part of its tile the block shows there,
  as the mesher draws it); a plant's item, or an item that is no block, as its flat tile
  `ICON_SIZE` across, seen from both sides. A bigger stack shows more copies, slightly apart
  (`copies`: Minecraft's 1, 2 from 2 items, 3 from 17, 4 from 33). It `SPINS`.
- ``block``, a falling block: its state at full size (a plant as two crossed planes).
- ``cube``: a box of the kind's size, one tile a face; ``boxes``: the kind's model, each box
  with its tile on every face. Both are `TURNED` by the entity's yaw.
- ``sprite``: its tile at the kind's size, upright; it `FACES` the camera.

A model is its vertices' positions (four a quad, the mesher's corner order and winding, so the
chunk shader draws it as it draws blocks) and their columns that do not move: the face's shade
(`world.mesh.shapes.FACE_SHADE` in the model's frame; a flat tile is full bright) in red, the
uvs in tile units and the tile's corner in the atlas. The light is the entity's, given to the
shader beside its place (`game.entity_shader`). Building one takes a fraction of a millisecond;
the view keeps each it built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from world.blocks.atlas import tile_uv_rects
from world.blocks.block_type import AIR, DRAW_NONE, DRAW_PLANT
from world.blocks.entity_type import EntityType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box
from world.mesh.shapes import CORNER_AB, FACE_CORNERS, FACE_SHADE, RIGHTS, UPS
from world.voxels.entities import Entity

__all__ = [
    "FACES",
    "ICON_SIZE",
    "ITEM_SIZE",
    "SPINS",
    "STATIC_ROW",
    "TURNED",
    "Model",
    "ModelKey",
    "build_model",
    "copies",
    "model_key",
    "quad_normals",
]

ITEM_SIZE: Final = 0.25  # blocks: a dropped block item's cube (Minecraft's)
ICON_SIZE: Final = 0.5  # blocks: a dropped flat item's width (Minecraft's)
TURNED, SPINS, FACES = 0, 1, 2  # how a model moves: by the yaw, by the clock, to the camera
STATIC_ROW = np.dtype([("rgba", "u1", 4), ("uv", "<f4", 2), ("tile", "<f4", 2)])
"""A vertex's columns that do not move (the chunk shader's colour, uv and tile corner)."""

_COPY_OFFSETS = ((0.0, 0.0, 0.0), (0.05, 0.06, 0.04), (-0.05, 0.12, -0.03), (0.03, 0.18, -0.06))
_ICON_DEPTH = 0.03  # blocks between a flat item's copies, front to back
_UV_EDGE = 1e-4  # uvs kept this far inside a tile: the shader's fract() never wraps at 1
_FLAT = -1  # the face index of a flat tile: full bright

# The sign that turns the cross product of a quad's first two edges into its front's normal: the
# mesher's +x face, seen from +x.
_EDGES = (FACE_CORNERS[0, 1] - FACE_CORNERS[0, 0], FACE_CORNERS[0, 3] - FACE_CORNERS[0, 0])
_FRONT = float(np.sign(np.cross(*_EDGES)[0]))

ModelKey = tuple[str, str, int]
"""("item", item, copies), ("block", state key, 0) or ("kind", kind name, 0)."""
_Quads = list[tuple[NDArray[np.float64], NDArray[np.float64], int, int]]
"""Groups of quads: corners (Q, 4, 3), uvs (Q, 4, 2), face index (or `_FLAT`), tile."""


def copies(count: int) -> int:
    """How many copies a stack of ``count`` shows (Minecraft's ``ItemEntityRenderer``, to 4)."""
    return 1 if count <= 1 else 2 if count <= 16 else 3 if count <= 32 else 4


@dataclass(frozen=True)
class Model:
    """One model (module notes): ``corners`` (V, 3) float32, the vertices in the entity's
    frame, four a quad; ``normals`` (V / 4, 3) float32, the side each quad is seen from;
    ``static`` (V,) `STATIC_ROW`, the vertices' columns that do not move; ``motion`` one of
    `TURNED`, `SPINS`, `FACES`."""

    corners: NDArray[np.float32]
    normals: NDArray[np.float32]
    static: NDArray[np.void]
    motion: int

    @property
    def vertices(self) -> int:
        """How many vertices it has (four a quad)."""
        return len(self.corners)

    @property
    def radius(self) -> float:
        """The radius of the sphere round the entity's ``pos`` that holds every vertex,
        however it turns."""
        return float(np.sqrt((self.corners.astype(np.float64) ** 2).sum(axis=1)).max())


def model_key(entity: Entity, kind: EntityType) -> ModelKey | None:
    """Which model draws ``entity`` now (a stack's changes with its count); None: none (a
    stack or a falling block whose data is not one)."""
    if kind.visual == "item":
        item, count = entity.data.get("item"), entity.data.get("count")
        if not isinstance(item, str) or isinstance(count, bool) or not isinstance(count, int):
            return None
        return ("item", item, copies(count))
    if kind.visual == "block":
        key = entity.data.get("block")
        return ("block", key, 0) if isinstance(key, str) else None
    return ("kind", kind.name, 0)


def build_model(registry: BlockRegistry, key: ModelKey) -> Model | None:
    """The model of a key; None when it draws nothing (air, an unknown block or kind)."""
    what, name, shown = key
    if what == "item":
        return _item_model(registry, name, shown)
    if what == "block":
        state = registry.lookup_key(name)[0]
        if state is None or state == AIR:
            return None
        return _block_model(registry, state)
    kind = registry.entities.get(name)
    return None if kind is None else _kind_model(registry, kind)


def _model(quads: _Quads, motion: int = TURNED) -> Model:
    """A model from groups of quads."""
    corners = np.concatenate([q[0] for q in quads]).reshape(-1, 3)
    static = np.zeros(len(corners), dtype=STATIC_ROW)
    static["uv"] = np.concatenate([q[1] for q in quads]).reshape(-1, 2)
    faces = np.concatenate([np.full(len(q[0]) * 4, q[2]) for q in quads])
    shade = np.where(faces == _FLAT, 1.0, np.asarray(FACE_SHADE)[faces])
    static["rgba"][:, 0] = np.rint(shade * 255.0).astype(np.uint8)
    static["rgba"][:, 3] = 255
    tiles = np.concatenate([np.full(len(q[0]) * 4, q[3]) for q in quads])
    static["tile"] = tile_uv_rects(tiles)[:, :2]
    normals = quad_normals(corners).astype(np.float32)
    return Model(corners.astype(np.float32), normals, static, motion)


def quad_normals(corners: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each quad's unit normal on the side it is drawn from (its winding's front, as GL sees
    it): ``corners`` (Q * 4, 3) or (Q, 4, 3), four a quad in the mesher's order; (Q, 3)."""
    quads = corners.reshape(-1, 4, 3)
    normal = np.cross(quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]) * _FRONT
    length = np.sqrt((normal * normal).sum(axis=1, keepdims=True))
    unit: NDArray[np.float64] = normal / np.maximum(length, 1e-12)
    return unit


def _box_quads(
    low: NDArray[np.float64], high: NDArray[np.float64], *, part: bool
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The six faces of a box as quads (+x, -x, +y, -y, +z, -z; the mesher's corner order) and
    their uvs: the part of the tile a block's face shows there (``part``, the box in a voxel's
    units) or the whole tile on every face."""
    corners = low + FACE_CORNERS * (high - low)  # (6, 4, 3)
    if part:
        centred = corners - 0.5
        u = (centred * RIGHTS[:, None, :]).sum(axis=2) + 0.5
        v = (centred * UPS[:, None, :]).sum(axis=2) + 0.5
        uvs = np.stack([u, v], axis=2)
    else:
        uvs = np.broadcast_to(CORNER_AB.astype(np.float64), (6, 4, 2))
    return corners, np.clip(uvs, _UV_EDGE, 1.0 - _UV_EDGE)


def _faces(corners: NDArray[np.float64], uvs: NDArray[np.float64], tiles: object) -> _Quads:
    """A box's six faces as quad groups, face ``f`` with tile ``tiles[f]``."""
    return [
        (corners[f : f + 1], uvs[f : f + 1], f, int(tiles[f]))  # type: ignore[index]
        for f in range(6)
    ]


def _flat(width: float, height: float, tile: int, shift: tuple[float, float, float]) -> _Quads:
    """A flat tile standing on the origin facing -z, and its back facing +z, moved by
    ``shift``."""
    low = np.array([-width / 2, 0.0, 0.0]) + shift
    high = np.array([width / 2, height, 0.0]) + shift
    corners, uvs = _box_quads(low, high, part=False)
    return [(corners[f : f + 1], uvs[f : f + 1], _FLAT, tile) for f in (5, 4)]


def _state(registry: BlockRegistry, state: int, scale: float, shift: tuple[float, ...]) -> _Quads:
    """A block state as the mesher draws its boxes, scaled about its bottom centre, moved."""
    out: _Quads = []
    centre = np.array([0.5, 0.0, 0.5])
    for box in registry.selection_boxes[state] or FULL:
        corners, uvs = _box_quads(np.array(box[:3]), np.array(box[3:]), part=True)
        out += _faces((corners - centre) * scale + shift, uvs, registry.face_tiles[state])
    return out


def _item_model(registry: BlockRegistry, item: str, shown: int) -> Model | None:
    """A dropped stack's model, ``shown`` copies (module notes)."""
    if item in registry:
        state = registry.id(item)
        draw = int(registry.draw[state])
        if draw == DRAW_NONE:
            return None
        if draw != DRAW_PLANT:
            quads: _Quads = []
            for offset in _COPY_OFFSETS[:shown]:
                quads += _state(registry, state, ITEM_SIZE, offset)
            return _model(quads, SPINS)
        tile = int(registry.face_tiles[state][0])
    elif item in registry.items:
        tile = registry.tile_id(registry.items[item].image)
    else:
        tile = 0  # an item no loaded mod knows: the missing tile
    quads = []
    for n, (dx, dy, _) in enumerate(_COPY_OFFSETS[:shown]):
        quads += _flat(ICON_SIZE, ICON_SIZE, tile, (dx, dy, n * _ICON_DEPTH))
    return _model(quads, SPINS)


def _block_model(registry: BlockRegistry, state: int) -> Model | None:
    """A falling block: its state at full size."""
    draw = int(registry.draw[state])
    if draw == DRAW_NONE:
        return None
    if draw != DRAW_PLANT:
        return _model(_state(registry, state, 1.0, (0.0, 0.0, 0.0)))
    tile = int(registry.face_tiles[state][0])
    quads: _Quads = []
    for turn in (math.pi / 4, -math.pi / 4):
        cos, sin = math.cos(turn), math.sin(turn)
        for corners, uvs, face, t in _flat(1.0, 1.0, tile, (0.0, 0.0, 0.0)):
            x, z = corners[..., 0].copy(), corners[..., 2].copy()
            corners[..., 0], corners[..., 2] = x * cos - z * sin, x * sin + z * cos
            quads.append((corners, uvs, face, t))
    return _model(quads)


def _kind_model(registry: BlockRegistry, kind: EntityType) -> Model | None:
    """A mod's kind, as its visual says (module notes)."""
    width, height = kind.size
    if kind.visual == "sprite":
        tile = registry.tile_id(kind.tiles[0])
        return _model(_flat(width, height, tile, (0.0, 0.0, 0.0)), FACES)
    if kind.visual == "cube":
        half = width / 2
        parts = [(Box(-half, 0.0, -half, half, height, half), kind.tiles)]
    elif kind.visual == "boxes":
        parts = [(box, (tile,) * 6) for box, tile in kind.model]
    else:
        return None
    quads: _Quads = []
    for box, tiles in parts:
        corners, uvs = _box_quads(np.array(box[:3]), np.array(box[3:]), part=False)
        quads += _faces(corners, uvs, [registry.tile_id(tile) for tile in tiles])
    return _model(quads)
