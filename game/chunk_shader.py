"""The chunk shader: atlas tiles repeated across a quad, smooth light with day and night, fog.

GLSL 1.30, which Mesa's software renderer (llvmpipe) runs. Per vertex (`game.chunk_view`'s
layout): the position; a colour whose red is the mesher's shade (face direction times ambient
occlusion), green the sky light and blue the block light (each level 0..15 stored as
``level * 17``, so the channel reads ``level / 15``); the texture coordinates in tile units
(`world.mesh.data.MeshData.tile_uvs`) and, in the vertex column ``tile``, the tile's corner in the
atlas (``tile_origin``). The
fragment samples ``tile_origin + (inset + fract(tile_uvs) * (1 - 2 inset)) * tile size`` (the
tile's uv inset put back), so a quad spanning several blocks (`world.mesh.merge`) repeats its
tile texel for texel as one-block quads draw it. Every face is drawn one-sided (a plant both
ways round: `world.mesh.pack.drawn_mesh`).

Light, as Minecraft's: the brighter of the sky light scaled by the time of day (the ``daylight``
uniform, 0..1, set once for every chunk by `game.chunk_view.ChunkView.set_daylight`) and the
block light, through the brightness curve ``f / (4 - 3 f)`` of the level's fraction ``f`` (level
14 is 78 % of 15, level 8 about 22 %), above a floor of `MIN_BRIGHTNESS` so a cave is dark but
not black. Full sky light at full daylight is exactly the texture times the shade: the picture
of a sunny field is the fixed-function one. Fog is linear, by the distance along the view as
fixed-function fog, from the ``fog_range`` (start, end) and ``fog_color`` inputs that
`game.chunk_view.ChunkView` copies from ursina's ``scene.fog_density`` and ``scene.fog_color``
every frame (Panda3D's own ``p3d_Fog`` input is not refreshed when the fog object is edited in
place, as the underwater view does). Cut-outs (leaves, glass, plants) are discarded below
half alpha (Panda3D's binary transparency); liquids blend.

The brightness and the fog are worked out per vertex and interpolated, as the fixed-function
pipeline does, so a fragment only samples its texel, scales it and mixes in the fog. On
llvmpipe the per-fragment curve cost 13 % of the frame at view distance 8 (40.3 FPS against
46.1 per vertex, the fixed-function renderer 45.9, one process, alternating rounds); the
picture differs only in the dark, where a level between two vertices is now a brightness
between theirs.
"""

from __future__ import annotations

from panda3d.core import Shader

from world.blocks.atlas import TILE_PX, TILE_ROWS, TILES_PER_ROW
from world.mesh.shapes import UV_INSET_PX

__all__ = ["MIN_BRIGHTNESS", "brightness", "chunk_shader"]

MIN_BRIGHTNESS = 0.05

_VERTEX = """
#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform float daylight;
uniform vec2 fog_range;
in vec4 p3d_Vertex;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
in vec2 tile;
out float bright;  // shade times the light's brightness, per vertex
out float fog;
out float alpha;
out vec2 local_uv;
out vec2 tile_origin;
const float FLOOR = %(floor)s;
void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    float level = max(p3d_Color.g * daylight, p3d_Color.b);
    bright = p3d_Color.r * (FLOOR + (1.0 - FLOOR) * level / (4.0 - 3.0 * level));
    fog = clamp(  // linear fog by the distance along the view, as fixed-function fog
        (fog_range.y - gl_Position.w) / (fog_range.y - fog_range.x), 0.0, 1.0);
    alpha = p3d_Color.a;
    local_uv = p3d_MultiTexCoord0;
    tile_origin = tile;
}
"""

_FRAGMENT = """
#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 fog_color;
uniform float alpha_cut;
in float bright;
in float fog;
in float alpha;
in vec2 local_uv;
in vec2 tile_origin;
out vec4 frag_color;
const vec2 TILE = vec2(%(tile_u)s, %(tile_v)s);
const float INSET = %(inset)s;
void main() {
    vec2 local = fract(local_uv);
    vec2 inside = INSET + local * (1.0 - 2.0 * INSET);
    vec4 texel = texture(p3d_Texture0, tile_origin + inside * TILE);
    if (texel.a < alpha_cut) {
        discard;
    }
    frag_color = vec4(mix(fog_color.rgb, texel.rgb * bright, fog), texel.a * alpha);
}
"""


def brightness(level: float) -> float:
    """The shader's brightness of a light level fraction 0..1 (for tests and F3)."""
    return MIN_BRIGHTNESS + (1.0 - MIN_BRIGHTNESS) * level / (4.0 - 3.0 * level)


def chunk_shader() -> Shader:
    """The compiled-on-first-use GLSL program (module notes)."""
    values = {
        "tile_u": repr(1.0 / TILES_PER_ROW),
        "tile_v": repr(1.0 / TILE_ROWS),
        "inset": repr(UV_INSET_PX / TILE_PX),
        "floor": repr(MIN_BRIGHTNESS),
    }
    shader: Shader = Shader.make(Shader.SL_GLSL, _VERTEX % values, _FRAGMENT % values)
    return shader
