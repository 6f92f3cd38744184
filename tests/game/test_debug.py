"""F3's debug overlay and F4's traced voxels, through the game's keys, headless."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from world.blocks.shapes import Box
from world.geometry import Int3
from world.ray import Hit, raycast, traverse

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4
DT = 1 / 60


@pytest.mark.parametrize(
    ("yaw", "name"),
    [(0, "south (+z)"), (44.9, "south (+z)"), (45.1, "west (-x)"), (90, "west (-x)"),
     (180, "north (-z)"), (270, "east (+x)"), (-90, "east (+x)"), (359, "south (+z)")],
)  # fmt: skip
def test_compass_names_the_nearest_direction(yaw: float, name: str) -> None:
    from game.debug import compass

    assert compass(yaw) == name


@pytest.mark.parametrize("facing", ["north", "east", "south", "west"])
def test_facing_words_are_minecrafts_and_the_shapes_ones(facing: str) -> None:
    from game.debug import compass, face_name
    from world.blocks.shapes import FACINGS, rotate
    from world.physics.movement import look_direction

    # The step of a north-facing stair is on its -z side (world.blocks.shapes): north is -z.
    axis_of = {"north": (0, 0, -1), "east": (1, 0, 0), "south": (0, 0, 1), "west": (-1, 0, 0)}
    normal = axis_of[facing]
    assert face_name(normal) == facing
    # The yaw whose view vector points that way is named that way.
    yaw = [y for y in (0.0, 90.0, 180.0, 270.0) if np.allclose(look_direction(y, 0.0), normal)]
    assert len(yaw) == 1 and compass(yaw[0]).startswith(facing)
    assert facing in FACINGS
    # A box hugging the north (-z) side, turned to ``facing``, hugs that side.
    (box,) = rotate([Box(0.0, 0.0, 0.0, 1.0, 1.0, 0.25)], facing)
    centre = np.array([box.x0 + box.x1, box.y0 + box.y1, box.z0 + box.z1]) / 2 - 0.5
    assert np.sign(centre).astype(int).tolist() == list(normal)


def test_the_debug_text_is_made_from_a_snapshot_alone() -> None:
    from game.debug import DebugSnapshot, debug_text

    hit = Hit(Int3(20, 3, -4), Int3(0, 1, 0), 1.5, (20.5, 4.0, -3.5), 2)
    snapshot = DebugSnapshot(
        python_ms=1.25, position=(20.5, 4.0, -3.5), yaw=270.0, pitch=60.0, target=hit,
        target_name="base:grass", loaded=40, meshed=13, queued=2, creative=True, flying=True,
        mods=("base", "quiet"), mod_errors=1, face_light=(12, 3), time_of_day="18:30",
        daylight=0.5, sounds=7, last_sound="base:stone_break",
    )  # fmt: skip
    assert debug_text(snapshot, 59.6).splitlines() == [
        "Blockpick  60 fps, 1.2 ms Python a frame",
        "XYZ: 20.500 / 4.000 / -3.500",
        "Block: 20 4 -4   Chunk: 1 0 -1",
        "Facing: east (+x)  yaw 270.0  pitch 60.0",
        "Target: base:grass at 20 3 -4, top face (0, 1, 0), 1.50 away",
        "Chunks: 40 loaded, 13 meshed, 2 queued",
        "Light at the face: sky 12, block 3   Time: 18:30 (50% daylight)",
        "Mode: creative, flying",
        "Sounds: 7 recorded (no sound device), the last base:stone_break",
        "Mods (2, 1 error): base, quiet",
    ]
    step = Hit(Int3(20, 3, -4), Int3(0, 1, 0), 1.5, (20.5, 4.0, -3.5), 9, 1)
    text = debug_text(replace(snapshot, target=step, target_name="test:stairs"), 60.0)
    assert "Target: test:stairs at 20 3 -4, top face (0, 1, 0) of box 1, 1.50 away" in text
    heard = debug_text(replace(snapshot, heard=True, sounds=0, last_sound=None), 60.0)
    assert "Sounds: 0 played" in heard.splitlines()


def test_the_overlay_asks_for_a_snapshot_only_when_shown_and_due(app: Any) -> None:
    from game.debug import REFRESH_SECONDS, DebugOverlay, DebugSnapshot

    taken: list[int] = []

    def snapshot() -> DebugSnapshot:
        taken.append(1)
        return DebugSnapshot(
            python_ms=0.0, position=(0.5, 4.0, 0.5), yaw=0.0, pitch=0.0, target=None,
            target_name=None, loaded=len(taken), meshed=0, queued=0, creative=False,
            flying=False, mods=(), mod_errors=0,
        )  # fmt: skip

    overlay = DebugOverlay(snapshot)
    try:
        frames = round(1 / DT)  # one second of frames
        for _ in range(frames):
            overlay.update(DT)
        assert taken == []  # hidden: the game is never read
        overlay.toggle()
        assert len(taken) == 1 and "1 loaded" in overlay.text  # shown at once
        for _ in range(frames):
            overlay.update(DT)
        assert abs(len(taken) - 1 - 1 / REFRESH_SECONDS) <= 1  # then every REFRESH_SECONDS
        assert f"{len(taken)} loaded" in overlay.text
    finally:
        overlay.destroy()


def test_traced_cells_are_traverse_up_to_the_hit() -> None:
    from game.debug import traced_cells

    origin, direction = (0.5, 5.6, 0.5), (1.0, -0.4, 0.3)
    every = [tuple(s.cell) for s in traverse(origin, direction, 5.0)]
    assert [tuple(c) for c in traced_cells(origin, direction, 5.0, None)] == every
    stop = every[4]
    hit = Hit(Int3(*stop), Int3(0, 1, 0), 2.0, (0.0, 0.0, 0.0), 1)
    assert [tuple(c) for c in traced_cells(origin, direction, 5.0, hit)] == every[:5]


def test_f3_shows_position_facing_target_chunks_and_mods(
    tmp_path: Path, make_game: Make, replay: Replay
) -> None:
    (tmp_path / "quiet.py").write_text('"""A mod that does nothing."""\n')
    game = make_game(flat=True, mods=(tmp_path,))
    replay(game, "teleport 20.5 4 -3.5\nlook 270 60\nwait 2")
    assert not game.debug.shown
    game.input("f3")
    assert game.debug.shown
    replay(game, "wait 20")
    text = game.debug.text
    target = game.target
    assert target is not None
    name = game.world.registry.name(target.block_id)
    assert f"{name} at {target.block[0]} {target.block[1]} {target.block[2]}" in text
    assert "top face (0, 1, 0)" in text or "west face (-1, 0, 0)" in text
    assert f"{len(game.world.chunks)} loaded" in text
    entities = getattr(game.chunks, "entities", None)
    if entities is not None:
        assert f"{len(entities)} meshed" in text
    assert "XYZ: 20.500 / 4.000 / -3.500" in text
    assert "Chunk: 1 0 -1" in text
    assert "east (+x)" in text and "yaw 270.0" in text and "pitch 60.0" in text
    assert "quiet" in text and ", ".join(game.mods.names) in text
    fps = float(text.split(" fps")[0].split()[-1])
    assert fps == pytest.approx(60, abs=1)  # the test clock runs 60 frames a game second
    replay(game, "look 0 -90\nwait 20")  # the sky: nothing in reach
    assert "Target: nothing in reach" in game.debug.text
    game.input("f3")
    assert not game.debug.shown


def test_f4_shows_the_cells_the_last_ray_traversed(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    stone = game.world.registry.id("base:stone")
    game.world.set_blocks(np.array([(3, y, 1) for y in range(GROUND, GROUND + 3)]), stone)
    replay(game, "look 290 10\nwait 1")
    eye, direction, reach = game.player.eye, game.player.direction, game.reach
    target = raycast(game.world, eye, direction, reach)
    assert target is not None and target.block_id == stone
    expected: list[tuple[int, ...]] = []
    for step in traverse(eye, direction, reach):
        expected.append(tuple(step.cell))
        if step.cell == target.block:
            break
    game.input("f4")
    assert game.traced.shown
    assert [tuple(c) for c in game.traced.cells] == expected
    assert game.traced.vertex_count == 8 * len(expected) + 2  # a cube a cell, and the ray
    replay(game, "look 180 10\nwait 5")  # turning away keeps the traced ray
    assert [tuple(c) for c in game.traced.cells] == expected
    assert game.target is None  # the ground that way is out of reach
    replay(game, "pick")  # a click traces its own ray, here up to the reach
    eye, direction = game.player.eye, game.player.direction
    assert [tuple(c) for c in game.traced.cells] == [
        tuple(s.cell) for s in traverse(eye, direction, reach)
    ]
    game.input("f4")
    assert not game.traced.shown


def test_f4_without_a_target_traces_to_the_reach(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    replay(game, "look 0 -30\nwait 1")
    assert game.target is None
    game.input("f4")
    cells = game.traced.cells
    last = list(traverse(game.player.eye, game.player.direction, game.reach))[-1]
    assert tuple(cells[-1]) == tuple(last.cell)
    assert all(math.isfinite(v) for v in cells.ravel())


def test_f4_draws_the_selection_box_the_ray_hit(app: Any) -> None:
    from game.debug import TracedCells, hit_box
    from game.render_origin import RenderOrigin
    from world.base import default_registry
    from world.blocks.block_type import BlockType
    from world.blocks.shapes import stairs

    registry = default_registry()
    registry.register(
        BlockType(
            "test:stairs",
            properties={"facing": ("north", "east", "south", "west")},
            selection=lambda props: stairs(props["facing"]),
            tiles=("base:stone",),
        )
    )
    state = registry.state_id("test:stairs", facing="east")
    far = 10**7
    block = Int3(far + 2, 64, 0)
    # The stair's step (box 1) of an east-facing stair is its +x half, upper part.
    hit = Hit(block, Int3(-1, 0, 0), 1.5, (far + 2.5, 64.75, 0.5), state, 1)
    assert hit_box(registry, hit) == Box(far + 2.5, 64.5, 0.0, far + 3.0, 65.0, 1.0)
    origin = RenderOrigin()
    traced = TracedCells(registry, origin)
    try:
        eye = (far + 0.5, 64.75, 0.5)
        origin.follow(eye)
        traced.trace(eye, (1.0, 0.0, 0.0), 5.0, hit)
        assert [tuple(c) for c in traced.cells] == [(far, 64, 0), (far + 1, 64, 0), tuple(block)]
        assert traced.box == hit_box(registry, hit)
        assert traced.vertex_count == 8 * 3 + 8 + 2
        # Drawn near the render origin: vertices relative to the ray's first voxel.
        node = traced._node
        assert node is not None and max(abs(v) for v in traced.entity.getPos()) < 16
        vertices = node.getTightBounds()
        assert max(abs(v) for corner in vertices for v in corner) < 8
        stone = registry.id("base:stone")
        traced.trace(eye, (1.0, 0.0, 0.0), 5.0, Hit(block, Int3(-1, 0, 0), 1.5, eye, stone))
        assert traced.box is None and traced.vertex_count == 8 * 3 + 2  # a cube: its cell only
    finally:
        traced.destroy()


def _pixel_box(piece: Any, size: tuple[int, int]) -> tuple[slice, slice]:
    """The rows and columns of the frame that ``piece`` covers (its box in ``camera.ui``)."""
    from ursina import camera

    low, high = piece.getTightBounds(camera.ui)
    width, height = size
    left, right = (width / 2 + float(x) * height for x in (low[0], high[0]))
    top, bottom = (height / 2 - float(y) * height for y in (high[1], low[1]))
    return slice(max(int(top), 0), int(bottom) + 1), slice(max(int(left), 0), int(right) + 1)


def _overlap(a: tuple[slice, slice], b: tuple[slice, slice]) -> bool:
    return all(x.start < y.stop and y.start < x.stop for x, y in zip(a, b, strict=True))


def _most_common_colour(pixels: np.ndarray) -> np.ndarray:
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    return np.asarray(colours[counts.argmax()])


@pytest.mark.parametrize("piece", ["pause title", "inventory title", "crafting grid"])
def test_menus_and_screens_draw_over_the_f3_text(app: Any, make_game: Make, piece: str) -> None:
    """As Minecraft's menus: a screen keeps its pixels where the F3 text lies under it: the
    pause menu's title, the survival inventory's title and its crafting grid's slots (the debug
    text is drawn first of the 2D layer: under every screen, the chest's, the sign editor's and
    the chat line's too, which it does not reach in this small window)."""
    from game.engine import grab_frame

    game = make_game(flat=True)
    if piece == "pause title":
        game.pause()
        drawn = next(t for t in game.menu.panel.children if getattr(t, "text", "") == "Game paused")
    else:
        game.screens.open_inventory()
        screen = game.inventory_screen
        drawn = screen.title if piece == "inventory title" else screen.slots
    for _ in range(2):
        app.step()
    without = grab_frame(app)
    game.debug.toggle()
    for _ in range(2):
        app.step()
    shown = grab_frame(app)
    size = (without.shape[1], without.shape[0])
    region = _pixel_box(drawn, size)
    assert _overlap(region, _pixel_box(game.debug.backing, size))  # F3 lies under it
    before = without[region].astype(int)
    if piece == "crafting grid":  # the slots' own grey
        mask = (np.abs(before - _most_common_colour(before)) <= 3).all(axis=2)
    else:  # the title's white letters
        mask = before.min(axis=2) > 200
    assert mask.sum() > 20
    change = np.abs(shown[region].astype(int)[mask] - before[mask])
    assert change.max() <= 24  # not darkened by F3's backing nor crossed by its letters
