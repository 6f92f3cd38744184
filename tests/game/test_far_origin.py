"""Far from the origin the world looks as it does at the origin: chunks, camera and the
world-anchored overlays are drawn relative to a render origin near the camera
(`game.render_origin`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.render_origin import REBASE_DISTANCE, RenderOrigin
from tests.game.runs import finish_streaming
from world.validate import WORLD_LIMIT

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


class _Node:
    """A stand-in for a Panda3D node: remembers where it was put."""

    def __init__(self) -> None:
        self.pos: tuple[float, float, float] | None = None

        self.removed = False

    def setPos(self, x: float, y: float, z: float, /) -> None:
        assert not self.removed  # Panda3D raises for a removed node
        self.pos = (x, y, z)

    def isEmpty(self) -> bool:
        return self.removed


def test_nodes_are_drawn_at_their_position_minus_the_origin() -> None:
    origin = RenderOrigin(rebase_distance=100.0)
    node = _Node()
    origin.place(node, (32.0, -16.0, 48.5))
    assert node.pos == (32.0, -16.0, 48.5) and len(origin) == 1
    assert not origin.follow((99.0, -100.0, 0.0))  # within the distance on every axis
    assert origin.origin == (0, 0, 0) and origin.rebases == 0
    assert origin.follow((100.5, 7.0, -3.0))  # too far on x: the eye's chunk corner
    assert origin.origin == (96, 0, -16) and origin.rebases == 1
    assert node.pos == (32.0 - 96, -16.0, 48.5 + 16)
    assert origin.to_render((100.5, 7.0, -3.0)) == (4.5, 7.0, 13.0)
    origin.forget(node)
    origin.forget(node)  # twice is harmless
    assert origin.follow((1000.0, 0.0, 0.0)) and node.pos == (32.0 - 96, -16.0, 48.5 + 16)
    assert len(origin) == 0


def test_a_node_removed_without_being_forgotten_is_dropped_at_the_next_rebase() -> None:
    origin = RenderOrigin(rebase_distance=100.0)
    kept, removed = _Node(), _Node()
    origin.place(kept, (0.0, 0.0, 0.0))
    origin.place(removed, (16.0, 0.0, 0.0))
    removed.removed = True
    assert origin.follow((500.0, 0.0, 0.0))
    assert len(origin) == 1 and kept.pos == (-496.0, 0.0, 0.0)


@pytest.mark.parametrize("distance", [0.0, -1.0, math.nan])
def test_the_rebase_distance_must_be_positive(distance: float) -> None:
    with pytest.raises(ValueError, match="rebase_distance"):
        RenderOrigin(rebase_distance=distance)


_coordinate = st.floats(-WORLD_LIMIT, WORLD_LIMIT, allow_nan=False)


@given(st.lists(st.tuples(_coordinate, _coordinate, _coordinate), min_size=1, max_size=6))
def test_near_the_camera_everything_is_float32_exact_anywhere_in_the_world(
    eyes: list[tuple[float, float, float]],
) -> None:
    origin = RenderOrigin()
    chunk, nodes = _Node(), _Node()
    for eye in eyes:
        # A chunk corner and a voxel near the eye, placed before the camera moves there.
        corner = tuple(float(math.floor(v / 16) * 16) for v in eye)
        voxel = tuple(float(math.floor(v)) + 1.0 for v in eye)
        origin.place(chunk, corner)
        origin.place(nodes, voxel)
        origin.follow(eye)
        ox, oy, oz = origin.origin
        assert ox % 16 == oy % 16 == oz % 16 == 0  # whole chunks
        camera = origin.to_render(eye)
        assert max(abs(v) for v in camera) <= REBASE_DISTANCE
        for node, pos in ((chunk, corner), (nodes, voxel)):
            assert node.pos is not None
            drawn = np.array(node.pos, dtype=np.float32)  # what Panda3D keeps
            assert (drawn.astype(np.float64) == np.array(pos) - origin.origin).all()
        # The eye's render position in float32 is within 2**-14 of a block of the true one.
        error = np.abs(np.array(camera, dtype=np.float32) - (np.array(eye) - origin.origin))
        assert error.max() <= 2.0**-14


# -- the real game, headless -------------------------------------------------------------------

# Blocks around the spawn (relative to it) that give the view edges to crack along.
_PILLARS = [(dx, dy, dz) for dx, dz in ((2, 3), (-3, 4), (5, 7)) for dy in range(4)]
GROUND = 4  # the flat world's surface (bedrock, two dirt, grass)


def _frame_at(app: Any, game: Any, replay: Replay, x0: int, z0: int) -> np.ndarray:
    """The picture of the flat world with the pillars around (x0, z0), looking at them."""
    from game.engine import grab_frame

    replay(game, f"teleport {x0 + 0.3} {GROUND} {z0 - 0.6}\nlook 20 35\nwait 2")
    finish_streaming(app.step, game)
    # Set once the chunks there are loaded (the world forgets far chunks of an unsaved world).
    cells = np.array([(x0 + dx, GROUND + dy, z0 + dz) for dx, dy, dz in _PILLARS])
    game.world.set_blocks(cells, game.world.registry.id("base:stone"))
    game.chunks.remesh_dirty()  # at once, as after an action (a tick's would go to the worker)
    replay(game, "wait 3")  # the meshes reach the GPU
    return grab_frame(app).astype(np.int64)


@pytest.mark.parametrize("far", [10**7, WORLD_LIMIT - 64])
def test_the_same_terrain_looks_the_same_at_ten_million_blocks_and_at_the_limit(
    app: Any, make_game: Make, replay: Replay, far: int
) -> None:
    from ursina import camera, scene

    game = make_game(flat=True, creative=True)
    replay(game, "fly on")
    near = _frame_at(app, game, replay, 0, 0)
    target_near = game.target
    assert target_near is not None  # the outline is in both pictures
    far_frame = _frame_at(app, game, replay, far, -far)
    target = game.target
    assert target is not None
    assert tuple(target.block) == (target_near.block[0] + far, target_near.block[1],
                                   target_near.block[2] - far)  # fmt: skip
    # Everything drawn is near the scene's (0, 0, 0): the camera and every chunk's corner.
    assert max(abs(v) for v in camera.getPos()) < 16
    corners = [
        np.array(node.getPos(scene)) + part.corner
        for key, node in game.chunks.entities.items()
        for part in game.chunks._parts[key]
    ]
    assert corners and max(np.abs(pos).max() for pos in corners) < 16 * 16
    difference = np.abs(far_frame - near).max(axis=2)
    # A crack shows sky or a far face through the ground: a large difference in some pixels.
    # Without the render origin 36 % of the pixels differed at 10**7 (the camera in block steps).
    assert (difference > 24).mean() < 0.001
    assert difference.mean() < 0.5
