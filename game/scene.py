"""The 3D view's set-up: sky, fog and lens for a view distance and field of view, and the camera.

Engine plumbing only: the camera follows the player's eye (`follow`), drawn relative to the
render origin (`game.render_origin`); the player itself knows nothing of the engine
(`game.player`). With the eye inside a liquid block the view is seen through water
(`Underwater`): a blue veil under the HUD and short blue fog.

The world's frame is Minecraft's, right-handed (x east, y up, z south: facing north, east is on
the right); ursina's is left-handed. So everything world-anchored (chunks, entities, the
outline, the crack, labels, particles) hangs under `world_root`, a node mirrored in z
(scale (1, 1, -1)): its children are laid out in world axes, and the screen shows them as a
right-handed viewer sees them. The camera is not under it (the hand and the HUD are not
mirrored): `follow` puts it at the eye's mirrored position, turned by the player's yaw + 180
(Minecraft's yaw 180 faces north, -z, which is the mirror's +z: ursina's heading 0).
The mirror reverses every triangle's winding on screen; the meshes are built counter-clockwise
in the world's right-handed frame (`world.mesh.mesher`), which the mirror turns into GL's
counter-clockwise front.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ursina import Entity, camera, color, destroy, scene, window

from game.render_origin import RenderOrigin
from world.geometry import Vec3
from world.validate import WORLD_LIMIT
from world.voxels.chunks import World

__all__ = [
    "MIRROR",
    "SKY",
    "WATER_FOG",
    "WATER_FOG_RANGE",
    "Underwater",
    "eye_in_liquid",
    "follow",
    "set_sky",
    "set_view",
    "to_scene",
    "world_root",
]

SKY = color.rgb(0.62, 0.78, 1.0)
WATER_FOG = color.rgb(0.09, 0.22, 0.62)  # Minecraft's murky blue under water
WATER_FOG_RANGE = (0.5, 14.0)  # linear fog, blocks: a few blocks of sight, as Minecraft's
WATER_VEIL = color.rgba(0.02, 0.12, 0.75, 0.4)  # the tint laid over the view (not the HUD)


MIRROR = (1.0, 1.0, -1.0)  # `world_root`'s scale: world axes to ursina's
_ROOT: list[Entity] = []  # the one world root (per ursina app)


def world_root() -> Entity:
    """The node every world-anchored node hangs under: the world's right-handed frame, mirrored
    in z into ursina's scene (module notes). Made on first use, again if it was removed."""
    if not _ROOT or _ROOT[0].isEmpty():
        _ROOT[:] = [Entity(parent=scene, name="world (mirrored in z)")]
        _ROOT[0].setScale(*MIRROR)
    return _ROOT[0]


def to_scene(pos: Sequence[float]) -> Vec3:
    """Where a point given in `world_root`'s (world) axes lies in ursina's scene."""
    return (pos[0] * MIRROR[0], pos[1] * MIRROR[1], pos[2] * MIRROR[2])


def set_sky(rgb: tuple[float, float, float]) -> None:
    """The sky's colour (the time of day's, `game.daylight`); the fog fades to it."""
    sky = color.rgb(*rgb)
    window.color = sky
    scene.fog_color = sky


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
    """Put the camera at ``eye``, facing ``yaw`` and ``pitch`` (degrees, Minecraft's: yaw 0
    south, 180 north; pitch > 0 down), through `world_root`'s mirror.

    With a render ``origin`` (`game.render_origin`), the origin first follows the eye (moving
    every world-anchored node if it rebases) and the camera goes to the eye's render position;
    without one the scene is drawn at world positions.
    """
    if origin is not None:
        origin.follow(eye)
        eye = origin.to_render(eye)
    camera.position = to_scene(eye)
    camera.rotation = (pitch, yaw + 180.0, 0.0)


def eye_in_liquid(world: World, eye: Vec3) -> bool:
    """Whether the eye is inside a liquid block (``registry.liquid`` of its voxel)."""
    wx, wy, wz = (math.floor(v) for v in eye)
    if max(abs(wx), abs(wy), abs(wz)) >= WORLD_LIMIT:  # the eye above the world's top edge
        return False
    return bool(world.registry.liquid[world.get_block(wx, wy, wz)])


class Underwater:
    """The view through water: call `update` each frame after the camera moved.

    ``restore`` puts the normal sky and fog back (the game's own view set-up) when the eye
    leaves the liquid.
    """

    def __init__(self, restore: Callable[[], None]) -> None:
        # Far behind the HUD's own layers (z 0..2), so the hotbar and the text stay clear.
        self.veil = Entity(
            parent=camera.ui,
            name="underwater veil",
            model="quad",
            color=WATER_VEIL,
            scale=(8.0, 2.0),
            z=10,
            enabled=False,
        )
        self.restore = restore
        self.active = False

    def update(self, world: World, eye: Vec3) -> bool:
        """Tint and fog the view when ``eye`` is in a liquid, restore it when not; returns which."""
        under = eye_in_liquid(world, eye)
        if under:  # every frame: a resize or a settings change may have reset the fog
            window.color = WATER_FOG
            scene.fog_color = WATER_FOG
            scene.fog_density = WATER_FOG_RANGE
        if under != self.active:
            self.active = under
            self.veil.enabled = under
            if not under:
                self.restore()
        return under

    def destroy(self) -> None:
        """Remove the veil."""
        destroy(self.veil)
