"""The entities in the scene (`game.entity_view`), headless: a row and a run of the buffer for
each entity in view, gone with it; stacks bob and spin, steps are drawn smoothly, what the
camera cannot see is left out, entities take the light of their voxel."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.entity_view import BOB_HEIGHT, LIGHT_EVERY, SNAP
from world.items.inventory import ItemStack
from world.voxels.entities import drop_item

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def colours(game: Any) -> np.ndarray:
    """The RGBA bytes of the vertices drawn in the last frame, (V, 4)."""
    vdata = game.entity_view.node.node().getGeom(0).getVertexData()
    rows = np.frombuffer(bytes(memoryview(vdata.getArray(1))), dtype=np.uint8)
    return rows.reshape(-1, 20)[:, :4]


def drawn(game: Any) -> np.ndarray:
    """The world positions of the vertices drawn in the last frame, (V, 3)."""
    view = game.entity_view
    if view.node.isHidden():
        return np.zeros((0, 3))
    vdata = view.node.node().getGeom(0).getVertexData()
    rows = np.frombuffer(bytes(memoryview(vdata.getArray(0))), dtype=np.float32)
    return rows.reshape(-1, 3).astype(np.float64) + np.array(game.origin.origin)


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
    assert view.shown.tolist() == [True]
    assert 1 <= view.quads <= 3  # of a box's six, at most three face an eye outside it
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
    assert {tuple(c) for c in colours(game)[:, 1:3]} == {(255, 0)}  # under the open sky
    stone = game.world.registry.id("base:stone")
    roof = [(x, 5, z) for x in (-1, 0, 1) for z in (2, 3, 4)]
    walls = [(x, 4, z) for x in (-1, 0, 1) for z in (2, 3, 4) if (x, z) != (0, 3)]
    game.world.set_blocks(np.array(roof + walls), stone)
    game.light.update(roof + walls)
    replay(game, f"wait {LIGHT_EVERY + 1}")
    assert {tuple(c) for c in colours(game)[:, 1:3]} == {(0, 0)}  # shut in: dark


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
