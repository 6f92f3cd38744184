"""The entities in the scene (`game.entity_view`), headless: a row and a run of the buffer for
each entity in view, gone with it; stacks bob and spin, steps are drawn smoothly, what the
camera cannot see is left out, entities take the light of their voxel.

Where the shader puts each vertex is read through `EntityView.placed` (the vertex shader worked
out in numpy from what GL was given); the picture test holds the shader to it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.entity_shader import BOB_HEIGHT
from game.entity_view import LIGHT_EVERY, SNAP
from world.items.inventory import ItemStack
from world.voxels.entities import drop_item

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def lights(game: Any) -> set[tuple[int, int]]:
    """The (sky, block) light levels of the vertices drawn in the last frame."""
    return {(int(sky), int(block)) for sky, block in game.entity_view.placed()[1]}


def drawn(game: Any) -> np.ndarray:
    """The world positions of the vertices drawn in the last frame (facing the eye), (V, 3)."""
    positions: np.ndarray = game.entity_view.placed()[0]
    return positions


@pytest.fixture
def zoo_game(make_game: Make, zoo_mods: Path, replay: Replay) -> Any:
    """A flat creative world with the zoo's kinds, the player at (0.5, 4, 0.5) looking south
    (+z) a little down."""
    game = make_game(flat=True, creative=True, mods=(str(zoo_mods),))
    replay(game, "look 0 20\nwait 1")
    return game


def test_each_entity_in_view_is_drawn_and_one_gone_is_forgotten(
    zoo_game: Any, replay: Replay
) -> None:
    game, view = zoo_game, zoo_game.entity_view
    entities = game.world.entities
    cow = entities.add("zoo:cow", (0.5, 4.0, 5.5))
    crate = entities.add("zoo:crate", (2.5, 4.0, 5.5))
    dirt = drop_item(entities, (0, 4, 3), ItemStack("base:dirt", 1))
    unknown = entities.add("gone:dragon", (-1.5, 4.0, 4.5))  # no loaded mod draws it
    far = entities.add("zoo:cow", (0.5, 4.0, 200.5))  # beyond the view distance (2 columns)
    replay(game, "wait 1")
    assert set(view.rows) == {cow.id, crate.id, dirt.id}
    assert unknown.id not in view.rows and far.id not in view.rows
    assert view.vertices == 24 + 24 + 24  # a box each, all six faces, in the pool
    assert 0 < len(drawn(game)) <= view.vertices  # those facing away are left out
    entities.remove(crate)
    replay(game, "wait 1")
    assert set(view.rows) == {cow.id, dirt.id} and view.vertices == 48
    entities.remove(cow)
    entities.remove(dirt)
    replay(game, "wait 1")
    assert not view.rows and view.vertices == 0 and view.node.isHidden()


def test_what_the_camera_cannot_see_is_left_out_and_only_faces_looking_at_it_are_drawn(
    zoo_game: Any, replay: Replay
) -> None:
    game, view = zoo_game, zoo_game.entity_view
    crate = game.world.entities.add("zoo:crate", (0.5, 4.0, 4.5))
    replay(game, "wait 1")
    assert view.shown.tolist() == [True] and view.quads == 6  # listed; GL drops the backs
    assert 1 <= len(drawn(game)) // 4 <= 3  # of a box's six, at most three face an eye outside
    replay(game, "look 180 20\nwait 1")  # turned round: it is behind
    assert crate.id in view.rows and view.shown.tolist() == [False]
    assert view.quads == 0 and view.node.isHidden()


def test_a_stack_bobs_within_its_height_and_spins(zoo_game: Any, replay: Replay) -> None:
    game = zoo_game
    stack = drop_item(game.world.entities, (0, 4, 2), ItemStack("base:planks", 1))
    replay(game, "wait 40")  # it hops, falls back and rests on the ground at y = 4
    assert stack.pos[1] == 4.0 and stack.resting
    lows, widths = [], []
    for _ in range(150):  # more than a bob and a turn
        replay(game, "wait 1")
        vertices = drawn(game)
        lows.append(vertices[:, 1].min())
        widths.append(np.ptp(vertices[:, 0]))
    assert min(lows) == pytest.approx(4.0, abs=0.01)  # never below its box's bottom
    assert max(lows) == pytest.approx(4.0 + 2 * BOB_HEIGHT, abs=0.01)
    assert min(widths) == pytest.approx(0.25, abs=0.01)  # its quarter block, square on
    assert max(widths) == pytest.approx(0.25 * np.sqrt(2), abs=0.02)  # and corner on


def test_a_step_is_drawn_between_its_two_positions_and_a_teleport_at_once(
    zoo_game: Any, replay: Replay
) -> None:
    game = zoo_game
    entities = game.world.entities
    crate = entities.add("zoo:crate", (0.5, 4.0, 4.5))
    replay(game, "wait 2")

    def centre_x() -> float:
        xs = drawn(game)[:, 0]
        return float(xs.min() + xs.max()) / 2

    assert centre_x() == pytest.approx(0.5)
    entities.move(crate, (1.5, 4.0, 4.5))  # one step of a mod's on_step
    xs = []
    for _ in range(4):  # a step is 50 ms: three frames of 1/60 s
        replay(game, "wait 1")
        xs.append(centre_x())
    assert xs[0] == pytest.approx(0.5, abs=0.02) and xs[-1] == pytest.approx(1.5)
    assert 0.5 < xs[1] < xs[2] < 1.5  # on its way, never a jump
    entities.move(crate, (1.5 + SNAP + 1.0, 4.0, 4.5))
    replay(game, "wait 1")
    assert centre_x() == pytest.approx(1.5 + SNAP + 1.0)


def test_a_sprite_turns_to_face_the_camera(zoo_game: Any, replay: Replay) -> None:
    game = zoo_game
    game.world.entities.add("zoo:ghost", (0.5, 4.0, 6.5))
    for yaw in (0.0, 20.0, -15.0):
        replay(game, f"look {yaw} 10\nwait 1")
        vertices = drawn(game)
        assert len(vertices) == 4  # one side of it, the one facing the camera
        across = vertices[1] - vertices[0]  # along its bottom edge
        look = np.array(game.player.direction)
        assert abs(np.dot(across[[0, 2]], look[[0, 2]])) < 1e-4  # square on to the view


def test_an_entity_is_drawn_in_the_light_of_its_voxel(zoo_game: Any, replay: Replay) -> None:
    """Green is the sky light, blue the block light (the chunk shader's), as the chunks'."""
    game = zoo_game
    game.world.entities.add("zoo:crate", (0.5, 4.0, 3.5))
    replay(game, "wait 1")
    assert lights(game) == {(15, 0)}  # under the open sky
    stone = game.world.registry.id("base:stone")
    roof = [(x, 5, z) for x in (-1, 0, 1) for z in (2, 3, 4)]
    walls = [(x, 4, z) for x in (-1, 0, 1) for z in (2, 3, 4) if (x, z) != (0, 3)]
    game.world.set_blocks(np.array(roof + walls), stone)
    game.light.update(roof + walls)
    replay(game, f"wait {LIGHT_EVERY + 1}")
    assert lights(game) == {(0, 0)}  # shut in: dark


def test_a_stack_that_grew_shows_its_copies_within_a_look_again(
    zoo_game: Any, replay: Replay
) -> None:
    game, view = zoo_game, zoo_game.entity_view
    stack = drop_item(game.world.entities, (0, 4, 2), ItemStack("base:planks", 1))
    replay(game, "wait 1")
    assert view.vertices == 24  # one copy: a cube
    game.world.entities.write(stack, "count", 20)  # another stack merged into it
    replay(game, f"wait {LIGHT_EVERY}")
    assert view.vertices == 3 * 24 and list(view.rows) == [stack.id]


def test_a_stack_is_drawn_within_16_blocks_and_a_big_creature_much_farther(
    zoo_game: Any, replay: Replay
) -> None:
    """Minecraft's rule: 64 blocks times the mean edge of the entity's box."""
    game, view = zoo_game, zoo_game.entity_view
    entities = game.world.entities
    near = drop_item(entities, (0, 4, 14), ItemStack("base:dirt", 1))
    far = drop_item(entities, (0, 4, 20), ItemStack("base:dirt", 1))
    cow = entities.add("zoo:cow", (0.5, 4.0, 28.5))
    replay(game, "look 0 5\nwait 30")  # the stacks land
    shown = {entity_id for entity_id, row in view.rows.items() if view.shown[row]}
    assert shown == {near.id, cow.id} and far.id in view.rows  # kept, not drawn


def test_the_picture_shows_each_entity_where_the_view_places_it(
    app: Any, zoo_game: Any, replay: Replay
) -> None:
    """The shader against its mirror: a turned crate half way through a step, a stack bobbing
    and spinning, a sprite turned to the camera each cover on screen the box their placed
    vertices project to (within a pixel). Each stands aside from the crosshair: no outline."""
    from panda3d.core import Point2, Point3

    from game.engine import grab_frame

    game, view = zoo_game, zoo_game.entity_view
    entities = game.world.entities
    lens = app.cam.node().getLens()

    def projected() -> tuple[float, float, float, float]:
        """The screen box (pixels, left, top, right, bottom) of the vertices placed."""
        height, width = grab_frame(app).shape[:2]
        xs, ys = [], []
        for x, y, z in drawn(game):
            at = app.cam.getRelativePoint(view.node, Point3(*game.origin.to_render((x, y, z))))
            film = Point2()
            assert lens.project(at, film)
            xs.append((film.x + 1) / 2 * width)
            ys.append((1 - film.y) / 2 * height)
        return min(xs), min(ys), max(xs), max(ys)

    def covered(before: np.ndarray) -> tuple[float, float, float, float]:
        """The box of the pixels that changed from ``before`` (pixel edges)."""
        changed = np.argwhere(np.abs(grab_frame(app).astype(int) - before).max(axis=2) > 24)
        (top, left), (bottom, right) = changed.min(axis=0), changed.max(axis=0) + 1
        return float(left), float(top), float(right), float(bottom)

    replay(game, "look 10 15\nwait 2")
    empty = grab_frame(app).astype(int)
    crate = entities.add("zoo:crate", (0.5, 4.0, 3.5), yaw=10.0)
    replay(game, "wait 2")
    entities.move(crate, (0.8, 4.0, 3.5), yaw=70.0)
    replay(game, "wait 2")  # a third of the way (a frame is 1/60 s, a step 1/20)
    placed = projected()
    assert covered(empty) == pytest.approx(placed, abs=1.0)
    entities.remove(crate)
    stack = drop_item(entities, (0, 4, 3), ItemStack("base:planks", 40))  # four copies
    replay(game, "wait 47")
    assert stack.resting
    placed = projected()
    assert covered(empty) == pytest.approx(placed, abs=1.0)
    entities.remove(stack)
    entities.add("zoo:ghost", (-1.0, 4.0, 5.5))
    replay(game, "wait 1")
    placed = projected()
    assert covered(empty) == pytest.approx(placed, abs=1.0)


def test_an_entity_at_the_edge_of_the_picture_is_drawn_and_one_well_beyond_it_is_not(
    app: Any, zoo_game: Any, replay: Replay
) -> None:
    """What is listed for GL is what the lens sees, turned any way (a look down and aside)."""
    from panda3d.core import Point2, Point3

    game, view = zoo_game, zoo_game.entity_view
    replay(game, "look 30 35\nwait 1")
    lens, eye = app.cam.node().getLens(), np.array(game.player.eye)

    def along(fx: float, fy: float, distance: float) -> tuple[float, float, float]:
        """The world point ``distance`` from the eye through the film's point (fx, fy)."""
        near, far = Point3(), Point3()
        assert lens.extrude(Point2(fx, fy), near, far)
        ray = np.array(view.node.getRelativeVector(app.cam, far - near))
        x, y, z = eye + ray / np.linalg.norm(ray) * distance
        return float(x), float(y), float(z)

    edges = [(0.97, 0.0), (-0.97, 0.0), (0.0, 0.97), (0.0, -0.97), (0.97, -0.97), (-0.97, 0.97)]
    beyond = [(3.0, 0.0), (-3.0, 0.0), (0.0, 3.0), (0.0, -3.0)]
    entities = game.world.entities
    crates = {spot: entities.add("zoo:crate", along(*spot, 6.0)) for spot in edges}
    crates |= {spot: entities.add("zoo:crate", along(*spot, 12.0)) for spot in beyond}
    replay(game, "wait 1")
    listed = {spot for spot, crate in crates.items() if view.shown[view.rows[crate.id]]}
    assert listed == set(edges)
