"""The 3D view, headless: the lens keeps the vertical field of view asked for, the fog hides the
edge of the view distance, and the camera looks where a facing looks."""

from __future__ import annotations

import math
from typing import Any

import pytest

from world.physics.movement import look_direction


@pytest.mark.parametrize(("view_distance", "fov"), [(2, 70.0), (8, 110.0), (16, 30.0)])
def test_the_lens_is_the_vertical_fov_and_fog_hides_the_views_edge(
    app: Any, view_distance: int, fov: float
) -> None:
    from ursina import camera, scene

    from game.scene import set_view

    aspect = set_view(view_distance, fov)
    assert aspect == pytest.approx(400 / 300)
    assert camera.lens.getFov()[1] == pytest.approx(fov, abs=0.01)
    near, far = scene.fog_density
    assert near < far < view_distance * 16 < camera.clip_plane_far


def test_the_camera_follows_an_eye_and_its_facing(app: Any) -> None:
    from ursina import camera

    from game.scene import follow, world_root

    follow((3.5, 70.25, -8.0), 135.0, -30.0)
    # Seen from the world's node (world axes, mirrored into ursina's): at the eye, looking
    # along the player's view vector.
    root = world_root()
    assert tuple(root.getRelativePoint(camera, (0, 0, 0))) == pytest.approx((3.5, 70.25, -8.0))
    forward = root.getRelativeVector(camera, (0, 0, 1))
    assert (forward[0], forward[1], forward[2]) == pytest.approx(
        look_direction(135.0, -30.0), abs=1e-6
    )
    right = root.getRelativeVector(camera, (1, 0, 0))  # the screen's right
    yaw = math.radians(135.0)
    assert (right[0], right[1], right[2]) == pytest.approx(  # Minecraft's: facing north, east
        (-math.cos(yaw), 0.0, -math.sin(yaw)), abs=1e-6
    )
