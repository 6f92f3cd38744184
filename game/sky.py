"""The sky around the player, kept each frame.

Its colour and the fog up to the view distance (`game.scene.set_view`, again when the window's shape
changes, so the vertical field of view holds), the time of day (`game.daylight`: the sky's colour,
the chunks' share of sky light, the sun and the moon) and the view through water
(`game.scene.Underwater`).
"""

from __future__ import annotations

from collections.abc import Callable

from ursina import window

from game.chunk_view import ChunkView
from game.daylight import DayClock
from game.scene import Underwater, set_sky, set_view
from game.sky_bodies import SkyBodies
from world.geometry import Vec3
from world.voxels.chunks import World

__all__ = ["Sky"]


class Sky:
    """The sky of ``day`` over ``chunks``; ``fov`` gives the field of view in effect."""

    def __init__(self, day: DayClock, chunks: ChunkView, *, fov: Callable[[], float]) -> None:
        self.day, self.chunks, self._fov = day, chunks, fov
        self.set_view()
        self.underwater = Underwater(restore=self.set_view)
        self.bodies = SkyBodies()  # the sun and the moon

    def set_view(self) -> None:
        """Sky colour, fog up to the view distance, field of view."""
        self._aspect = set_view(self.chunks.view_distance, self._fov())
        self._shown: tuple[float, float, float] | None = None  # set_view reset the sky

    def update(self, world: World, eye: Vec3) -> None:
        """Once a frame, after the camera moved."""
        if window.aspect_ratio != self._aspect:  # the window was resized: keep the vertical fov
            self.set_view()
        self.show_time_of_day()
        self.underwater.update(world, eye)

    def set_time(self, tick: int) -> None:
        """Make it that time of day (0..23999 ticks, `game.daylight`): a script's ``time``."""
        self.day.set_tick(tick)
        self.show_time_of_day()

    def show_time_of_day(self) -> None:
        """Sky colour and the chunks' share of sky light for the time of day (no remeshing)."""
        sky = self.day.sky
        if sky != self._shown:
            self._shown = sky
            set_sky(sky)
        self.chunks.set_daylight(self.day.daylight)
        self.bodies.update(self.day.tick)

    def destroy(self) -> None:
        """Remove the sky's entities."""
        self.underwater.destroy()
        self.bodies.destroy()
