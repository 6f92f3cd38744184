"""The entities' vertex shader (`game.entity_shader`) through its numpy mirror `place`: rows
written as the view writes them, vertices placed between steps, stacks bobbing and spinning,
sprites turned, what is out of reach left out. (`tests/game/test_entity_view.py` holds the
picture the shader draws to the mirror.)"""

from __future__ import annotations

import numpy as np
import pytest
from panda3d.core import Shader

from game.chunk_shader import chunk_shader
from game.entity_models import FACES, SPINS, TURNED
from game.entity_shader import (
    BOB_HEIGHT,
    BOB_SECONDS,
    COPIES_WITHIN,
    ROWS_WIDE,
    SPIN_SECONDS,
    TEXELS,
    VERTEX_ROW,
    entity_shader,
    frame_values,
    place,
    texel_rows,
    turning,
    vertex_format,
    write_rows,
)
from world.blocks.entity_type import STEP_SECONDS

ROW = np.dtype(
    [
        ("before", "<f8", 3),
        ("pos", "<f8", 3),
        ("yaw_before", "<f8"),
        ("yaw", "<f8"),
        ("seen", "<f8"),
        ("phase", "<f8"),
        ("bob", "<f8"),
        ("motion", "i1"),
        ("reach", "<f8"),
        ("sky", "i1"),
        ("block", "i1"),
    ]
)
CORNER = (0.5, 0.0, 0.0)  # half a block east of the entity's pos, in its frame


def texels_of(*rows: dict[str, object]) -> np.ndarray:
    """A texture's image holding ``rows`` (fields of `ROW`; standing still where none was
    before), laid out from (0, 0, 0)."""
    table = np.zeros(len(rows), dtype=ROW)
    table["reach"] = 64.0
    for n, fields in enumerate(rows):
        for name, value in {"before": fields.get("pos", (0.0, 0.0, 0.0)), **fields}.items():
            table[name][n] = value
    texels = np.zeros((TEXELS, ROWS_WIDE, 4), dtype=np.float32)
    write_rows(texels, np.arange(len(rows)), table, (0.0, 0.0, 0.0), 0.0)
    return texels


def vertices(*entities: tuple[int, int]) -> np.ndarray:
    """One vertex at `CORNER` for each (row, copy)."""
    out = np.zeros(len(entities), dtype=VERTEX_ROW)
    out["corner"] = CORNER
    out["entity"] = entities
    return out


def frame(eye: tuple[float, float, float], since: float, clock: float, yaw: float) -> np.ndarray:
    return np.array([tuple(v) for v in frame_values(eye, since, clock, yaw)], dtype=np.float64)


def test_turning_is_the_cosine_and_sine_of_a_turn_within_5e_5() -> None:
    turns = np.linspace(-3.0, 3.0, 100_001)
    c, s = turning(turns)
    assert np.abs(c - np.cos(2 * np.pi * turns)).max() < 5e-5
    assert np.abs(s - np.sin(2 * np.pi * turns)).max() < 5e-5


def test_a_step_is_placed_between_its_two_positions_turning_the_short_way() -> None:
    texels = texels_of(
        {
            "before": (10.0, 4.0, 0.0),
            "pos": (11.0, 4.0, 0.0),
            "yaw_before": 350.0,
            "yaw": 10.0,
            "seen": 5.0,
            "motion": TURNED,
        }
    )
    halfway = frame((0.0, 5.0, 0.0), 5.0 + STEP_SECONDS / 2, 0.0, 0.0)
    at, hidden, _ = place(vertices((0, 0)), texels, halfway)
    # Yaw 0 (south): the model, whose front is north, turned half a turn.
    assert at[0] == pytest.approx((10.5 - 0.5, 4.0, 0.0), abs=1e-4)
    later = frame((0.0, 5.0, 0.0), 5.0 + 3 * STEP_SECONDS, 0.0, 0.0)
    at, _, _ = place(vertices((0, 0)), texels, later)
    turned = np.radians(10.0 + 180.0)  # the step done: at its last place and yaw
    expected = (11.0 + 0.5 * np.cos(turned), 4.0, 0.5 * np.sin(turned))
    assert at[0] == pytest.approx(expected, abs=1e-4)
    assert not hidden.any()


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0, 33.0])
def test_a_turned_models_front_faces_where_its_yaw_looks_as_minecrafts(yaw: float) -> None:
    """A model's front is north (-z); an entity's yaw is Minecraft's (0 south, 90 west)."""
    from world.physics.movement import look_direction

    texels = texels_of({"before": (3.0, 4.0, 2.0), "pos": (3.0, 4.0, 2.0), "yaw_before": yaw,
                        "yaw": yaw, "motion": TURNED})  # fmt: skip
    front = np.zeros(1, dtype=VERTEX_ROW)
    front["corner"] = (0.0, 0.0, -0.5)  # half a block before its front
    at, _, _ = place(front, texels, frame((0.0, 5.0, 0.0), 0.0, 0.0, 0.0))
    dx, _, dz = look_direction(yaw, 0.0)
    assert at[0] == pytest.approx((3.0 + 0.5 * dx, 4.0, 2.0 + 0.5 * dz), abs=1e-4)


def test_a_stack_spins_and_bobs_from_its_phase_by_the_clock() -> None:
    texels = texels_of({"pos": (0.0, 4.0, 0.0), "phase": 0.25, "bob": 0.5, "motion": SPINS})
    for clock in np.linspace(0.0, 6.0, 13):
        at, _, _ = place(vertices((0, 0)), texels, frame((0.0, 5.0, 3.0), 0.0, clock, 0.0))
        spin = 2 * np.pi * (clock / SPIN_SECONDS + 0.25)
        bob = BOB_HEIGHT * (1 + np.sin(2 * np.pi * (clock / BOB_SECONDS + 0.5)))
        expected = (0.5 * np.cos(spin), 4.0 + bob, 0.5 * np.sin(spin))
        assert at[0] == pytest.approx(expected, abs=1e-4)
        low, high = 4.0 - 1e-6, 4.0 + 2 * BOB_HEIGHT + 1e-6  # (the series' rounding)
        assert low <= at[0][1] <= high  # never below its box's bottom


def test_a_sprite_turns_to_the_camera_s_yaw() -> None:
    texels = texels_of({"pos": (0.0, 4.0, 0.0), "yaw": 123.0, "motion": FACES})
    for yaw in (0.0, 30.0, -75.0):
        at, _, _ = place(vertices((0, 0)), texels, frame((0.0, 5.0, 3.0), 0.0, 0.0, yaw))
        angle = np.radians(yaw)  # its own yaw plays no part
        expected = (0.5 * np.cos(angle), 4.0, 0.5 * np.sin(angle))
        assert at[0] == pytest.approx(expected, abs=1e-4)


def test_what_is_beyond_its_reach_and_further_copies_far_off_are_left_out() -> None:
    texels = texels_of(
        {"pos": (10.0, 4.0, 0.0), "reach": 16.0, "motion": SPINS, "sky": 12, "block": 3},
        {"pos": (20.0, 4.0, 0.0), "reach": 16.0, "motion": SPINS},
    )
    eye = (0.0, 4.0, 0.0)
    _, hidden, light = place(vertices((0, 0), (0, 1), (1, 0)), texels, frame(eye, 0, 0, 0))
    assert hidden.tolist() == [False, True, True]  # one copy at 10 blocks, nothing at 20
    assert light[0] == pytest.approx((12, 3), abs=1e-5)
    near = frame((10.0 - COPIES_WITHIN + 0.01, 4.0, 0.0), 0, 0, 0)
    assert not place(vertices((0, 1)), texels, near)[1].any()  # the copies, close by


def test_rows_far_down_the_texture_are_read_back_where_they_were_written() -> None:
    index = np.array([0, ROWS_WIDE - 1, ROWS_WIDE, 3 * ROWS_WIDE + 7])
    line, column = texel_rows(index)
    assert line.tolist() == [0, 0, TEXELS, 3 * TEXELS]
    assert column.tolist() == [0, ROWS_WIDE - 1, 0, 7]
    table = np.zeros(len(index), dtype=ROW)
    table["pos"] = table["before"] = [(n, 4.0, 0.0) for n in range(len(index))]
    table["reach"] = 1e3
    texels = np.zeros((4 * TEXELS, ROWS_WIDE, 4), dtype=np.float32)
    write_rows(texels, index, table, (100.0, 0.0, -5.0), 0.0)  # laid out from an origin
    at, _, _ = place(vertices(*((int(i), 0) for i in index)), texels, frame((0, 0, 0), 0, 0, 0))
    assert at[:, 0] == pytest.approx(np.arange(len(index)) + 100.0 - 0.5)  # yaw 0: turned
    assert at[:, 2] == pytest.approx(-5.0, abs=1e-4)  # (the series turning half a turn)


def test_the_shader_draws_with_the_chunk_shader_s_fragment_stage() -> None:
    vertex_format()  # its layout and `VERTEX_ROW` agree (it raises otherwise)
    chunks = chunk_shader()
    shader = entity_shader(chunks)
    assert shader.getText(Shader.ST_fragment) == chunks.getText(Shader.ST_fragment)
    assert "%(" not in shader.getText(Shader.ST_vertex)
