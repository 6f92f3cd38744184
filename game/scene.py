"""The 3D view's set-up: sky, fog and lens for a view distance and field of view, and the camera.

Engine plumbing only: the camera follows the player's eye (`follow`), drawn relative to the
render origin (`game.render_origin`); the player itself knows nothing of the engine
(`game.player`).
"""

from __future__ import annotations

import math

from ursina import camera, color, scene, window

from game.render_origin import RenderOrigin
from world.geometry import Vec3

__all__ = ["SKY", "follow", "set_view"]

SKY = color.rgb(0.62, 0.78, 1.0)


def set_view(view_distance: int, fov: float) -> float:
    """Sky colour, fog up to ``view_distance`` chunks, vertical ``fov`` in degrees.

    Returns the window's aspect ratio the lens was set for: Panda3D keeps the horizontal fov
    when the window is resized, so the game calls this again when the ratio changes.
    """
    far = view_distance * 16
    window.color = SKY
    scene.fog_color = SKY
    scene.fog_density = (far * 0.55, far * 0.95)
    camera.clip_plane_far = far + 24
    camera.clip_plane_near = 0.05
    # ursina's fov is horizontal; the option is vertical, as Minecraft's.
    half = math.radians(fov) / 2
    aspect: float = window.aspect_ratio
    camera.fov = math.degrees(2 * math.atan(math.tan(half) * aspect))
    return aspect


def follow(eye: Vec3, yaw: float, pitch: float, origin: RenderOrigin | None = None) -> None:
    """Put the camera at ``eye``, facing ``yaw`` and ``pitch`` (degrees, pitch > 0 down).

    With a render ``origin`` (`game.render_origin`), the origin first follows the eye (moving
    every world-anchored node if it rebases) and the camera goes to the eye's render position;
    without one the scene is drawn at world positions.
    """
    if origin is not None:
        origin.follow(eye)
        eye = origin.to_render(eye)
    camera.position = eye
    camera.rotation = (pitch, yaw, 0.0)
