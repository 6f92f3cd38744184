"""The game shell, headless: targeting, breaking, placing, walking and falling through the
same input path a player uses (`Game.input` and the held-input state), replayed by scripts."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from game.script import ScriptError
from tests.game.runs import finish_streaming
from world.blocks.block_type import AIR

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4  # the flat world: bedrock, 2 dirt, grass; feet stand at y = 4


def region(game: Any, lo: tuple[int, int, int], hi: tuple[int, int, int]) -> np.ndarray:
    """Block ids of the inclusive box lo..hi, indexed [x, y, z]."""
    axes = [np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True)]
    coords = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    return game.world.get_blocks(coords).reshape([len(a) for a in axes])


def changed_voxels(before: np.ndarray, after: np.ndarray, lo: tuple[int, int, int]) -> set:
    return {tuple(int(v) for v in np.add(idx, lo)) for idx in np.argwhere(before != after)}


LO, HI = (-6, 0, -6), (6, 8, 6)


def dig_to_bedrock(game: Any) -> None:
    """Clear the column under the spawn down to the bedrock layer (y = 0)."""
    game.world.set_blocks(np.array([(0, y, 0) for y in range(1, GROUND)]), AIR)


def test_break_the_block_under_the_crosshair(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    assert game.player.body.pos == (0.5, GROUND, 0.5)
    grass = game.world.registry.id("base:grass")
    replay(game, "look 0 90\nwait 1")
    assert game.target is not None
    assert game.target.block == (0, GROUND - 1, 0) and game.target.face == (0, 1, 0)
    assert game.outline.entity.enabled and tuple(game.outline.entity.position) == (0, 3, 0)
    vertices_before = game.chunks.vertex_count((0, 0, 0))
    before = region(game, LO, HI)
    replay(game, "break")
    after = region(game, LO, HI)
    assert changed_voxels(before, after, LO) == {(0, GROUND - 1, 0)}
    assert before[0 - LO[0], GROUND - 1, 0 - LO[2]] == grass
    assert game.world.get_block(0, GROUND - 1, 0) == AIR
    assert game.chunks.vertex_count((0, 0, 0)) != vertices_before


def test_place_a_block_on_the_face_of_a_wall(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    stone = game.world.registry.id("base:stone")
    planks = game.world.registry.id("base:planks")
    wall = np.array([(3, y, z) for y in range(GROUND, GROUND + 3) for z in range(-2, 3)])
    game.world.set_blocks(wall, stone)
    replay(game, "look 270 0\nselect 4\nwait 1")  # face +x; slot 4 holds planks
    assert game.hotbar.current == planks
    assert game.target is not None
    assert game.target.block == (3, GROUND + 1, 0) and game.target.face == (-1, 0, 0)
    vertices_before = game.chunks.vertex_count((0, 0, 0))
    before = region(game, LO, HI)
    replay(game, "place")
    after = region(game, LO, HI)
    assert changed_voxels(before, after, LO) == {(2, GROUND + 1, 0)}
    assert game.world.get_block(2, GROUND + 1, 0) == planks
    assert game.last_outcome is not None and game.last_outcome.done
    assert game.chunks.vertex_count((0, 0, 0)) != vertices_before


def test_walking_into_a_wall_stops_at_it(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    stone = game.world.registry.id("base:stone")
    wall = np.array([(3, y, z) for y in range(GROUND, GROUND + 3) for z in range(-3, 4)])
    game.world.set_blocks(wall, stone)
    replay(game, "look 270 0\nmove 1 0 90")
    body = game.player.body
    assert body.aabb[1][0] == pytest.approx(3.0, abs=1e-9)  # the box's face touches the wall
    assert body.pos[1] == GROUND and body.on_ground
    assert body.pos[2] == pytest.approx(0.5)


def test_walking_moves_the_way_the_camera_faces(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    replay(game, "look 270 0\nmove 1 0 30")
    assert game.player.body.pos[0] > 1.5  # yaw 270 walks east, toward +x
    from ursina import camera

    forward = camera.forward
    assert (forward[0], forward[1], forward[2]) == pytest.approx(game.player.direction, abs=1e-6)


def test_falling_lands_on_the_ground(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    replay(game, "teleport 2.5 30 -1.5\nwait 150")
    body = game.player.body
    assert body.pos == (2.5, GROUND, -1.5)  # exactly on the grass's top face
    assert body.on_ground and body.vel[1] == 0.0


def test_placing_into_the_own_body_is_denied_with_its_reason_shown(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 90\nwait 1")  # the ground under the feet: placing goes into the body
    before = region(game, LO, HI)
    replay(game, "place")
    assert np.array_equal(region(game, LO, HI), before)
    outcome = game.last_outcome
    assert outcome is not None and not outcome.done and outcome.reason
    assert game.hud.message.enabled and game.hud.message.text == outcome.reason
    replay(game, "wait 200")  # the message goes away
    assert not game.hud.message.enabled


def test_breaking_bedrock_is_denied_with_its_reason(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    dig_to_bedrock(game)
    replay(game, "look 0 90\nwait 30\nbreak")
    assert game.player.body.pos[1] == 1.0
    assert game.world.get_block(0, 0, 0) == game.world.registry.id("base:bedrock")
    assert game.hud.message.enabled and "bedrock" in game.hud.message.text


def test_survival_breaking_takes_the_block_hardness(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    grass = game.world.registry.id("base:grass")
    hardness = game.world.registry.hardness[grass]
    frames = math.ceil(hardness * 60)
    replay(game, f"look 0 90\nwait 1\nbreak {frames - 5}")
    assert game.world.get_block(0, GROUND - 1, 0) == grass  # let go too early: nothing broke
    replay(game, f"break {frames + 2}")
    assert game.world.get_block(0, GROUND - 1, 0) == AIR


def test_hotbar_keys_wheel_and_pick(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "select 5")
    assert game.hotbar.selected == 4
    replay(game, "scroll 6")
    assert game.hotbar.selected == 1  # wraps around the 9 slots
    assert game.hud.selection_x == pytest.approx(game.hud.slot_x[1])
    bedrock = game.world.registry.id("base:bedrock")
    dig_to_bedrock(game)
    replay(game, "look 0 90\nwait 30\npick")
    assert game.hotbar.current == bedrock  # not in the hotbar: it replaces the selected slot
    assert game.hud.icons[1] == "base:bedrock"


def test_double_tap_space_flies_in_creative_only(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    game.input("space")
    game.input("space")
    assert game.player.body.flying
    replay(game, "sneak on\nwait 120\nsneak off")
    assert not game.player.body.flying and game.player.body.pos[1] == GROUND  # landed

    survivor = make_game(flat=True)
    for _ in range(5):  # tapping Space to swim up: jumps, no flight and no refusal (issue 38)
        survivor.input("space")
        survivor.input("space")
    assert not survivor.player.body.flying
    assert not survivor.hud.message.enabled and not survivor.hud.older
    with pytest.raises(ScriptError, match="fly needs creative mode"):
        replay(survivor, "fly on")


def test_pitch_is_clamped(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    replay(game, "look 0 130")
    assert game.player.pitch == 90.0
    replay(game, "turn 0 -500")
    assert game.player.pitch == -90.0


def test_an_edit_is_drawn_in_the_next_frame(app: Any, make_game: Make, replay: Replay) -> None:
    from game.engine import grab_frame

    game = make_game(flat=True, creative=True)
    replay(game, "look 0 60\nwait 2")

    def centre() -> np.ndarray:
        frame = grab_frame(app)
        h, w, _ = frame.shape
        return frame[h // 2 + 10 : h // 2 + 40, w // 2 - 20 : w // 2 + 20].astype(int)

    before = centre()
    game.input("left mouse down")
    game.input("left mouse up")
    app.step()
    assert np.abs(centre() - before).mean() > 5


def test_mods_from_a_folder_veto_with_their_reason(
    tmp_path: Any, make_game: Make, replay: Replay
) -> None:
    (tmp_path / "no_glass.py").write_text(
        "from world.mods.hooks import hookimpl\n\n"
        "@hookimpl\n"
        "def can_place(pos, block, actor):\n"
        "    if block.name == 'base:glass':\n"
        "        return 'no glass here'\n"
    )
    game = make_game(flat=True, creative=True, mods=(tmp_path,))
    assert "no_glass" in game.mods
    replay(game, "look 0 60\nselect 6\nwait 1\nplace")  # slot 6 holds glass
    assert game.hud.message.enabled and game.hud.message.text == "no glass here"
    replay(game, "select 1\nplace")  # stone is fine
    assert game.last_outcome is not None and game.last_outcome.done


def test_chunks_follow_the_player(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, view_distance=2)
    disc = {(x, z) for x in range(-2, 3) for z in range(-2, 3) if x * x + z * z <= 4}
    assert {(cx, cz) for cx, _, cz in game.chunks.entities} == disc
    replay(game, "teleport 100.5 4 0.5\nwait 60")  # chunk column (6, 0)
    finish_streaming(lambda: game.update(1 / 60), game)  # meshes from the worker come in real time
    assert {(cx, cz) for cx, _, cz in game.chunks.entities} == {(x + 6, z) for x, z in disc}


def test_keyboard_and_mouse_drive_the_player(make_game: Make, app: Any) -> None:
    from ursina import held_keys

    from tests.game.test_mouse import SyntheticPointer

    game = make_game(flat=True)
    game.live = True  # read the devices, as in a window
    game.pointer = SyntheticPointer()  # offscreen there is no pointer to capture
    game.capture_mouse(True)
    try:
        held_keys["w"] = 1
        game.update(1 / 60)  # the first pointer position after capturing is not a motion
        game.pointer.move_by(30.0, -15.0)  # a tenth of the screen height to the right, a bit up
        game.update(1 / 60)
        assert game.held.forward == 1.0
        assert game.player.yaw == pytest.approx(8.0) and game.player.pitch == pytest.approx(-4.0)
        for _ in range(60):
            game.update(1 / 60)
        assert game.player.body.pos[2] > 2.0  # walked forward (+z, turned slightly toward +x)
    finally:
        held_keys["w"] = 0
        game.live = False


@pytest.mark.parametrize(("creative", "reached"), [(True, True), (False, False)])
def test_reach_is_5_in_creative_and_4_5_in_survival(
    make_game: Make, replay: Replay, creative: bool, reached: bool
) -> None:
    game = make_game(flat=True, creative=creative)
    stone = game.world.registry.id("base:stone")
    game.world.set_blocks(np.array([(5, y, 0) for y in range(GROUND, GROUND + 3)]), stone)
    replay(game, "teleport 0.3 4 0.5\nlook 270 0\nwait 1")  # the wall's face is 4.7 away
    assert (game.target is not None) == reached


def test_a_new_survival_player_starts_with_nothing_and_a_creative_one_with_the_blocks(
    make_game: Make,
) -> None:
    """Minecraft: a survival world begins with an empty inventory (issue 38, item 10); creative
    keeps its starting hotbar of building blocks."""
    survivor = make_game(flat=True)
    assert not survivor.player.creative
    assert all(stack is None for stack in survivor.hotbar.inventory.slots)
    builder = make_game(flat=True, creative=True)
    held = [stack for stack in builder.hotbar.inventory.slots[:9] if stack is not None]
    assert len(held) == 9 and all(stack.count == 64 for stack in held)
