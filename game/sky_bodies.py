"""The sun and the moon: two square discs crossing the sky with the time of day, as Minecraft's.

The sun rises in the east (+x) at tick 0, stands overhead at noon (6000) and sets in the west
(-x) at 12000; the moon is always opposite, overhead at midnight. Both are flat squares that
face the camera, drawn behind everything (the background bin, no depth writes) and without fog,
at a fixed distance from the eye inside the view's far plane, so the terrain hides them and they
never come closer when the player walks or flies. Near the horizon the sun turns orange, as the
sky does (`game.daylight.sky_colour`).
"""

from __future__ import annotations

import math

from ursina import Entity, Vec3, camera, color, destroy, scene

from game.daylight import TICKS_PER_DAY

__all__ = ["SUN_DEGREES", "SkyBodies", "sun_direction"]

SUN_DEGREES = 10.0  # the sun's width seen from the eye; the moon is 3/4 of it
_SUN = (1.0, 0.97, 0.80)
_SUN_LOW = (1.0, 0.62, 0.30)  # near the horizon
_MOON = (0.86, 0.88, 0.96)
_DISTANCE_SHARE = 0.8  # of the camera's far plane
# The discs' up: the sun moves in the x, y plane, so the view of it is never along z.
_NEVER_ALONG_THE_VIEW = Vec3(0.0, 0.0, 1.0)


def sun_direction(tick: float) -> tuple[float, float, float]:
    """The unit vector from the eye towards the sun at ``tick`` (x east, y up)."""
    angle = 2.0 * math.pi * (tick % TICKS_PER_DAY) / TICKS_PER_DAY
    return (math.cos(angle), math.sin(angle), 0.0)


class SkyBodies:
    """The sun and the moon; call `update` each frame after the camera moved."""

    def __init__(self) -> None:
        self.sun = self._disc("sun", _SUN)
        self.moon = self._disc("moon", _MOON)
        self._tint: list[float] = []

    @staticmethod
    def _disc(name: str, rgb: tuple[float, float, float]) -> Entity:
        disc = Entity(name=name, model="quad", color=color.rgb(*rgb), double_sided=True)
        disc.setFogOff(1)
        disc.setLightOff(1)
        disc.setBin("background", 10)
        disc.setDepthWrite(False)
        return disc

    def update(self, tick: float) -> None:
        """Put both where they stand at ``tick``, around the camera; a disc wholly below the
        horizon is not drawn (the ground hides it anyway)."""
        eye = camera.getPos(scene)
        distance = float(camera.clip_plane_far) * _DISTANCE_SHARE
        size = 2.0 * distance * math.tan(math.radians(SUN_DEGREES) / 2.0)
        dx, dy, dz = sun_direction(tick)
        low = max(0.0, 1.0 - abs(dy) / 0.3)  # 1 on the horizon, 0 from 17° up
        tint = [s + (w - s) * low for s, w in zip(_SUN, _SUN_LOW, strict=True)]
        if tint != self._tint:  # ursina's colour setters cost more than the whole update
            self._tint = tint
            self.sun.setColorScale(*tint, 1.0)
        for disc, sign, scale in ((self.sun, 1.0, size), (self.moon, -1.0, size * 0.75)):
            # Plain Panda3D calls: ursina's property setters took 0.2 ms a frame for the two.
            if sign * dy * distance < -scale:
                disc.hide()
                continue
            disc.show()
            disc.setPos(
                scene,
                eye[0] + sign * dx * distance,
                eye[1] + sign * dy * distance,
                eye[2] + sign * dz * distance,
            )
            disc.setScale(scale)
            disc.lookAt(eye, _NEVER_ALONG_THE_VIEW)

    def destroy(self) -> None:
        """Remove both."""
        destroy(self.sun)
        destroy(self.moon)
