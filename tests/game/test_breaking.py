"""Breaking in the game: survival takes the block's hardness with a crack overlay in ten stages
and starts over on a new target or a release; creative is instant with a repeat delay; bedrock
never breaks. Driven frame by frame through the held button, as a player's mouse does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from world.actions.breaking import BREAK_DELAY, CRACK_STAGES
from world.blocks.block_type import AIR, NO_TOOL_SLOWNESS

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4  # the flat world: bedrock, 2 dirt, grass; feet stand at y = 4
FPS = 60


def press(game: Any) -> None:
    """Press and keep holding the left button."""
    game.held.attack = True
    game.input("left mouse down")


def release(game: Any) -> None:
    game.held.attack = False
    game.input("left mouse up")


def stone_wall(game: Any, cells: list[tuple[int, int, int]]) -> int:
    stone = game.world.registry.id("base:stone")
    game.world.set_blocks(np.array(cells), stone)
    game.chunks.remesh_dirty()
    return int(stone)


def frames_until_broken(app: Any, game: Any, cell: tuple[int, int, int], limit: int) -> int | None:
    """Frames of holding until ``cell`` turns to air (None: not within ``limit``)."""
    for frame in range(1, limit + 1):
        app.step()
        if game.world.get_block(*cell) == AIR:
            return frame
    return None


def hand_seconds(game: Any, state: int) -> float:
    """What breaking ``state`` by hand takes: its hardness, 10/3 of it for a block that needs a
    tool (stone: `world.blocks.block_type.BlockType.needs_tool`)."""
    block = game.world.registry[state]
    return float(block.hardness) * (NO_TOOL_SLOWNESS if block.needs_tool else 1.0)


def test_survival_stone_takes_its_break_time_within_one_frame(
    app: Any, make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True)
    cell = (0, GROUND - 1, 0)
    stone = stone_wall(game, [cell])
    replay(game, "look 0 90\nwait 1")
    assert game.target is not None and game.target.block == cell
    press(game)
    assert game.world.get_block(*cell) == stone  # the press alone breaks nothing in survival
    seconds = hand_seconds(game, stone)
    frames = frames_until_broken(app, game, cell, limit=int(seconds * FPS) + 10)
    release(game)
    assert frames is not None
    assert abs(frames / FPS - seconds) <= 1 / FPS


def test_progress_starts_over_on_a_new_target(app: Any, make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    first, second = (2, GROUND, 0), (2, GROUND + 1, 0)  # a two-high stone pillar ahead
    stone = stone_wall(game, [first, second])
    seconds = hand_seconds(game, stone)
    replay(game, "look 270 45\nwait 1")
    assert game.target is not None and game.target.block == first
    press(game)
    replay(game, f"wait {int(seconds * FPS * 0.8)}")  # 80% of the way
    replay(game, "look 270 -10\nwait 1")  # the crosshair moves up to the other block
    assert game.target is not None and game.target.block == second
    replay(game, f"wait {int(seconds * FPS * 0.8)}")
    assert game.world.get_block(*first) == stone and game.world.get_block(*second) == stone
    frames = frames_until_broken(app, game, second, limit=int(seconds * FPS))
    release(game)
    assert frames is not None and frames <= int(seconds * FPS * 0.2) + 2
    assert game.world.get_block(*first) == stone


def test_progress_starts_over_on_a_release(app: Any, make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    cell = (0, GROUND - 1, 0)
    stone = stone_wall(game, [cell])
    seconds = hand_seconds(game, stone)
    replay(game, "look 0 90\nwait 1")
    for _ in range(2):
        press(game)
        replay(game, f"wait {int(seconds * FPS * 0.7)}")
        release(game)
        replay(game, "wait 1")
    assert game.world.get_block(*cell) == stone
    assert not game.crack.entity.enabled


def test_the_crack_shows_ten_stages_in_order_on_the_target(
    app: Any, make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True)
    cell = (0, GROUND - 1, 0)
    stone = stone_wall(game, [cell])
    replay(game, "look 0 90\nwait 1")
    assert not game.crack.entity.enabled
    press(game)
    stages: list[int] = []
    while game.world.get_block(*cell) == stone:
        app.step()
        if game.crack.entity.enabled:
            assert tuple(game.crack.entity.position) == cell
            stages.append(game.crack.stage)
            shown = [m for m in game.crack.meshes if not m.isHidden()]
            assert shown == [game.crack.meshes[game.crack.stage]]  # one stage drawn
    release(game)
    assert stages == sorted(stages)
    assert sorted(set(stages)) == list(range(CRACK_STAGES))
    assert not game.crack.entity.enabled  # gone with the block


def test_bedrock_never_breaks(app: Any, make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    game.world.set_blocks(np.array([(0, y, 0) for y in range(1, GROUND)]), AIR)
    replay(game, "look 0 90\nwait 40")
    bedrock = game.world.registry.id("base:bedrock")
    assert game.target is not None and game.target.block_id == bedrock
    press(game)
    assert game.hud.message.enabled and "bedrock" in game.hud.message.text  # the rules' reason
    replay(game, "wait 300")
    release(game)
    assert game.world.get_block(0, 0, 0) == bedrock
    assert not game.crack.entity.enabled


def test_creative_breaks_at_once_then_repeats_after_a_delay(
    app: Any, make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    row = [(x, GROUND + 1, 0) for x in range(1, 5)]  # at eye level, ahead along +x
    stone_wall(game, row)
    replay(game, "look 270 0\nwait 1")
    assert game.target is not None and game.target.block == row[0]
    press(game)
    broken = [c for c in row if game.world.get_block(*c) == AIR]
    assert broken == row[:1]  # the press breaks at once
    delay_frames = round(BREAK_DELAY * FPS)
    replay(game, f"wait {delay_frames - 2}")
    assert [c for c in row if game.world.get_block(*c) == AIR] == row[:1]
    replay(game, "wait 3")
    assert [c for c in row if game.world.get_block(*c) == AIR] == row[:2]
    release(game)
    press(game)  # a fresh click does not wait for the delay
    assert [c for c in row if game.world.get_block(*c) == AIR] == row[:3]
    release(game)
