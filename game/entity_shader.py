"""The entities' vertex shader: each vertex of an entity's model placed from its entity's row.

The drawing of `game.entity_view`, on the GPU (`entity_shader`: `VERTEX` with the chunk shader's
fragment stage, so an entity is shaded, lit and fogged as the blocks round it are; red the
face's shade, green and blue the light). What it is given:

- each vertex (`VERTEX_ROW`, `vertex_format`): its corner in its entity's frame (``pos`` at the
  origin, y up, the front towards -z), its shade, uv and tile corner, and beside them which row
  of entities it belongs to and which copy of a stack (0: the first);
- a float texture of rows (`write_rows`; `texel_rows` says where a row's `TEXELS` texels lie,
  `ROWS_WIDE` rows a line): the position and yaw the entity's last two steps gave (laid out
  from the render origin), the time the last was seen, its spin's and bob's phase (in turns),
  how its model moves (`game.entity_models.TURNED`, `SPINS`, `FACES`), its reach, its sky
  and block light;
- the frame's values, ``frame`` (`frame_values`): the eye (laid out as the rows are) and the
  time on the rows' clock; the turns of the spin and of the bob; a sprite's angle (turns).

What it does with them: a vertex is drawn between the entity's two steps by the time since the last
(`world.blocks.entity_type.STEP_SECONDS` a step), turned by the yaw between them the short way
round (plus half a turn: the model's front is north, yaw 0 faces south); a stack spins once every
`SPIN_SECONDS` and bobs `BOB_HEIGHT` up and down every `BOB_SECONDS` (never below its box's
bottom), each from its own phase; a sprite turns to the camera. A vertex of an entity beyond its
reach, or of a stack's further copy beyond `COPIES_WITHIN`, is put outside the picture (`HIDDEN`):
its triangles are dropped.

Angles go through ``turning``, a cosine and sine from the half angle's Taylor series (within
5e-5 of the exact ones): llvmpipe's own ``sin`` and ``cos`` are exact and slow.

`place` is the same work in numpy (float64, the same series): where the shader puts each
vertex, for what the view reports (`game.entity_view.EntityView.placed`) and the tests; a test
holds the picture to it.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    Geom,
    GeomVertexArrayFormat,
    GeomVertexFormat,
    InternalName,
    LVecBase4f,
    Shader,
)

from game.chunk_shader import MIN_BRIGHTNESS
from game.entity_models import FACES, SPINS
from world.blocks.entity_type import STEP_SECONDS

__all__ = [
    "BOB_HEIGHT",
    "BOB_SECONDS",
    "COPIES_WITHIN",
    "HIDDEN",
    "ROWS_WIDE",
    "SPIN_SECONDS",
    "TEXELS",
    "VERTEX",
    "VERTEX_ROW",
    "entity_shader",
    "frame_values",
    "place",
    "texel_rows",
    "turning",
    "vertex_format",
    "write_rows",
]

BOB_HEIGHT = 0.1  # blocks up and down about its middle height (Minecraft's)
BOB_SECONDS = 2.0  # one bob
SPIN_SECONDS = 3.0  # one turn
COPIES_WITHIN = 4.0  # blocks: a stack farther away shows one copy (they would overlap there)
ROWS_WIDE = 1024  # rows a line of the texture (its width in texels)
TEXELS = 4  # texels (lines) a row: where it was, where it is, timing, reach and light
HIDDEN = (2.0, 2.0, 2.0, 1.0)  # a clip position outside the picture: the triangle is dropped

VERTEX_ROW = np.dtype(
    [
        ("corner", "<f4", 3),  # in the entity's frame
        ("rgba", "u1", 4),  # red the face's shade, alpha the tile's (the light: the row's)
        ("uv", "<f4", 2),
        ("tile", "<f4", 2),
        ("entity", "<f4", 2),  # its row, its copy (0: the first)
    ]
)
"""A vertex as the buffer holds it."""

VERTEX = """
#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform float daylight;
uniform vec2 fog_range;
uniform vec4 frame[2];  // the eye (render space), the clock; spin, bob, a sprite's angle
uniform sampler2D rows;
in vec4 p3d_Vertex;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
in vec2 tile;
in vec2 entity;
out float bright;
out float fog;
out float alpha;
out vec2 local_uv;
out vec2 tile_origin;
const float FLOOR = %(floor)s;
const float STEP = %(step)s;
const float BOB = %(bob)s;
const float COPIES_WITHIN = %(copies)s;
const float SPINS = %(spins)s.0;
const float FACES = %(faces)s.0;
const int WIDE = %(wide)s;

vec4 row(int slot, int line) {  // Panda3D keeps a texture's texels as BGRA
    return texelFetch(rows, ivec2(slot %% WIDE, slot / WIDE * %(texels)s + line), 0).bgra;
}

vec2 turning(float turns) {  // (cos, sin) of an angle in turns: `_turning`
    float h = 3.141592653589793 * (turns - floor(turns + 0.5));  // half of it, to +-pi/2
    float h2 = h * h;
    float s = h * (1.0 - h2 / 6.0 * (1.0 - h2 / 20.0 * (1.0 - h2 / 42.0 * (1.0 - h2 / 72.0))));
    float c = 1.0 - h2 / 2.0 * (1.0 - h2 / 12.0 * (1.0 - h2 / 30.0 * (1.0 - h2 / 56.0)));
    return vec2(c * c - s * s, 2.0 * s * c);
}

void main() {
    int slot = int(entity.x + 0.5);
    vec4 before = row(slot, 0);  // x, y, z, yaw
    vec4 last = row(slot, 1);
    vec4 timing = row(slot, 2);  // seen, spin phase, bob phase, motion
    vec4 seen = row(slot, 3);  // reach, sky light, block light
    float step = clamp((frame[0].w - timing.x) / STEP, 0.0, 1.0);
    vec3 place = mix(before.xyz, last.xyz, step);
    float away = distance(place, frame[0].xyz);
    float turns;  // its angle, in turns
    if (timing.w == SPINS) {
        turns = frame[1].x + timing.y;
        place.y += BOB * (1.0 + turning(frame[1].y + timing.z).y);
    } else if (timing.w == FACES) {
        turns = frame[1].z;
    } else {  // turned by its yaw, the short way round between two steps
        float turn = mod(last.w - before.w + 180.0, 360.0) - 180.0;
        turns = (before.w + turn * step) / 360.0 + 0.5;  // yaw 0 faces south, the model north
    }
    vec2 cs = turning(turns);
    vec3 corner = p3d_Vertex.xyz;
    place += vec3(corner.x * cs.x - corner.z * cs.y, corner.y, corner.x * cs.y + corner.z * cs.x);
    gl_Position = p3d_ModelViewProjectionMatrix * vec4(place, 1.0);
    if (away > seen.x || (entity.y > 0.5 && away > COPIES_WITHIN)) {
        gl_Position = vec4%(hidden)s;
    }
    float level = max(seen.y * daylight, seen.z);  // as the chunk shader's
    bright = p3d_Color.r * (FLOOR + (1.0 - FLOOR) * level / (4.0 - 3.0 * level));
    fog = clamp((fog_range.y - gl_Position.w) / (fog_range.y - fog_range.x), 0.0, 1.0);
    alpha = p3d_Color.a;
    local_uv = p3d_MultiTexCoord0;
    tile_origin = tile;
}
"""


def vertex_format() -> GeomVertexFormat:
    """One interleaved array, `VERTEX_ROW`."""
    array = GeomVertexArrayFormat()
    array.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
    array.addColumn(InternalName.getColor(), 4, Geom.NTUint8, Geom.CColor)
    array.addColumn(InternalName.getTexcoord(), 2, Geom.NTFloat32, Geom.CTexcoord)
    array.addColumn(InternalName.make("tile"), 2, Geom.NTFloat32, Geom.COther)
    array.addColumn(InternalName.make("entity"), 2, Geom.NTFloat32, Geom.COther)
    layout = GeomVertexFormat()
    layout.addArray(array)
    registered: GeomVertexFormat = GeomVertexFormat.registerFormat(layout)
    if registered.getArray(0).getStride() != VERTEX_ROW.itemsize:
        raise RuntimeError("the entity vertex layout and its numpy mirror disagree")
    return registered


def entity_shader(chunks: Shader) -> Shader:
    """`VERTEX` with the fragment stage of ``chunks``, the chunk shader
    (`game.chunk_shader.chunk_shader`)."""
    values = {
        "floor": repr(MIN_BRIGHTNESS),
        "step": repr(STEP_SECONDS),
        "bob": repr(BOB_HEIGHT),
        "copies": repr(COPIES_WITHIN),
        "spins": SPINS,
        "faces": FACES,
        "wide": ROWS_WIDE,
        "texels": TEXELS,
        "hidden": repr(HIDDEN),
    }
    fragment = chunks.getText(Shader.ST_fragment)
    shader: Shader = Shader.make(Shader.SL_GLSL, VERTEX % values, fragment)
    return shader


def texel_rows(rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The texture's first line and column of each row's texels (`VERTEX`'s ``row``)."""
    return rows // ROWS_WIDE * TEXELS, rows % ROWS_WIDE


def write_rows(
    texels: NDArray[np.float32],
    index: NDArray[np.int64],
    rows: NDArray[np.void],
    laid: tuple[float, float, float],
    epoch: float,
) -> None:
    """Write rows ``index`` of ``texels`` (lines, `ROWS_WIDE`, 4), the texture's image, from
    ``rows`` (one each, fields ``before``, ``pos`` (world positions), ``yaw_before``, ``yaw``
    (degrees), ``seen`` (seconds), ``phase``, ``bob`` (turns), ``motion``, ``reach``
    (blocks), ``sky``, ``block`` (levels 0..15)), each position laid out by ``+ laid`` and
    ``seen`` counted from ``epoch``. The image holds each texel's values in the order stored
    here (Panda3D keeps a texture's image as BGRA: the shader reads it so)."""
    line, column = texel_rows(index)
    shift = np.asarray(laid)
    texels[line, column, :3] = rows["before"] + shift
    texels[line, column, 3] = rows["yaw_before"]
    texels[line + 1, column, :3] = rows["pos"] + shift
    texels[line + 1, column, 3] = rows["yaw"]
    texels[line + 2, column] = np.stack(
        [rows["seen"] - epoch, rows["phase"], rows["bob"], rows["motion"]], axis=1
    )
    texels[line + 3, column, 0] = rows["reach"]
    texels[line + 3, column, 1] = rows["sky"] / 15.0
    texels[line + 3, column, 2] = rows["block"] / 15.0


def frame_values(
    eye: tuple[float, float, float], since: float, clock: float, camera_yaw: float
) -> tuple[LVecBase4f, LVecBase4f]:
    """``frame``: the ``eye`` laid out as the rows' positions, ``since`` on the rows' clock
    (from its epoch); the spin's and bob's turns at ``clock``; a sprite's angle facing a camera
    at ``camera_yaw`` (degrees)."""
    spin, bob = (clock / SPIN_SECONDS) % 1.0, (clock / BOB_SECONDS) % 1.0
    return LVecBase4f(*eye, since), LVecBase4f(spin, bob, camera_yaw / 360.0, 0.0)


def turning(turns: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The cosine and sine of angles in turns as `VERTEX`'s ``turning`` works them out: from
    their half angle's Taylor series (within 5e-5), then doubled."""
    h = math.pi * (turns - np.floor(turns + 0.5))
    h2 = h * h
    s = h * (1.0 - h2 / 6.0 * (1.0 - h2 / 20.0 * (1.0 - h2 / 42.0 * (1.0 - h2 / 72.0))))
    c = 1.0 - h2 / 2.0 * (1.0 - h2 / 12.0 * (1.0 - h2 / 30.0 * (1.0 - h2 / 56.0)))
    return c * c - s * s, 2.0 * s * c


def place(
    vertices: NDArray[np.void], texels: NDArray[np.float32], frame: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.float64]]:
    """Where `VERTEX` puts ``vertices`` (`VERTEX_ROW`) given the texture's ``texels`` and
    ``frame`` (2, 4): their positions (V, 3, laid out as the rows' are), whether each is
    left out (beyond its reach, or a further copy beyond `COPIES_WITHIN`), and its (sky,
    block) light levels (V, 2, 0..15)."""
    entity = vertices["entity"].astype(np.float64)
    line, column = texel_rows(np.rint(entity[:, 0]).astype(np.int64))
    image = texels.astype(np.float64)
    before, last = image[line, column], image[line + 1, column]
    timing, seen = image[line + 2, column], image[line + 3, column]
    eye, now = frame[0, :3], frame[0, 3]
    step = np.clip((now - timing[:, 0]) / STEP_SECONDS, 0.0, 1.0)
    at = before[:, :3] + (last[:, :3] - before[:, :3]) * step[:, None]
    away = np.sqrt(((at - eye) ** 2).sum(axis=1))
    turn = (last[:, 3] - before[:, 3] + 180.0) % 360.0 - 180.0
    turns = (before[:, 3] + turn * step) / 360.0 + 0.5  # yaw 0 faces south, the model north
    spins, faces = timing[:, 3] == SPINS, timing[:, 3] == FACES
    turns[spins] = frame[1, 0] + timing[spins, 1]
    at[spins, 1] += BOB_HEIGHT * (1.0 + turning(frame[1, 1] + timing[spins, 2])[1])
    turns[faces] = frame[1, 2]
    c, s = turning(turns)
    x, y, z = vertices["corner"].astype(np.float64).T
    at += np.stack([x * c - z * s, y, x * s + z * c], axis=1)
    hidden = (away > seen[:, 0]) | ((entity[:, 1] > 0.5) & (away > COPIES_WITHIN))
    return at, hidden, seen[:, 1:3] * 15.0
