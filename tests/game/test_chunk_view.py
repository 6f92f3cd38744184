"""Chunk entities: direction groups hidden only when none of their faces can face the camera."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from world.mesh_pack import OTHER
from world.mesher import mesh_chunk


@pytest.mark.parametrize(
    "eye", [(3.5, 40.0, 5.5), (-20.0, 12.0, 30.0), (17.0, 90.0, -16.0), (8.0, -3.0, 8.0)]
)
def test_hidden_groups_hold_only_faces_turned_away(
    make_game: Callable[..., Any], eye: tuple[float, float, float]
) -> None:
    game = make_game(view_distance=2)
    view = game.chunks
    view.face_camera(eye)
    hidden_any = False
    for key, nodes in view._groups.items():
        data = mesh_chunk(game.world, *key)
        origin = np.array(key) * 16
        corners = data.vertices.reshape(-1, 3)[data.indices.reshape(-1, 3)[:, 0]] + origin
        normals = data.normals.reshape(-1, 3)[data.indices.reshape(-1, 3)[:, 0]]
        for group, node in enumerate(nodes):
            if node is None:
                continue
            triangles = node.node().getGeom(0).getPrimitive(0).getNumPrimitives()
            assert triangles > 0
            if not node.isHidden():
                continue
            assert group != OTHER  # plants face every way
            hidden_any = True
            # Brute force over the whole chunk's triangles of that direction: none may face
            # the camera (a face is seen from the side its normal points to).
            axis, negative = divmod(group, 2)
            sign = -1.0 if negative else 1.0
            of_group = np.isclose(normals[:, axis], sign)
            facing = (np.array(eye) - corners[of_group])[:, axis] * sign
            assert (facing <= 0).all(), (key, group)
    assert hidden_any
