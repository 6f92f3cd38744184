"""Controls without a window: keys and buttons become intents, held buttons are timed (breaking
over the target's seconds, the repeat of placing, the double tap of space), a press that
captured the mouse or was made while paused does not act, and pointer positions become look
motion only against an anchor taken while the window did not change."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.controls import (
    DOUBLE_TAP_SECONDS,
    MOUSE_SENSITIVITY,
    NO_AIM,
    REPEAT_SECONDS,
    Act,
    Aim,
    Controls,
    Intent,
    MouseLook,
    PointerSample,
)
from world.actions.breaking import BREAK_DELAY
from world.geometry import Int3

BLOCK = Int3(1, 2, 3)
DT = 1 / 60


def press(controls: Controls, key: str, *, now: float = 0.0, paused: bool = False) -> list[Act]:
    return [i.act for i in controls.key(key, now=now, paused=paused, grab=False)]


@pytest.mark.parametrize(
    ("key", "intents"),
    [("1", [Intent(Act.SELECT, 0)]), ("9", [Intent(Act.SELECT, 8)]), ("0", []),
     ("scroll up", [Intent(Act.SCROLL, -1)]), ("scroll down", [Intent(Act.SCROLL, 1)]),
     ("f2", [Intent(Act.SCREENSHOT)]), ("f3", [Intent(Act.DEBUG)]), ("f4", [Intent(Act.TRACE)]),
     ("middle mouse down", [Intent(Act.AIM), Intent(Act.PICK)]),
     ("right mouse down", [Intent(Act.AIM), Intent(Act.USE)]),
     ("left mouse down", [Intent(Act.AIM), Intent(Act.ATTACK)]),
     ("escape", [Intent(Act.PAUSE)]), ("q", [Intent(Act.DROP)]), ("e", []),
     ("left mouse up", [])],
)  # fmt: skip
def test_each_key_means_its_intent(key: str, intents: list[Intent]) -> None:
    assert Controls().key(key, now=0.0, paused=False, grab=False) == intents


def test_q_throws_one_and_with_a_ctrl_key_held_the_whole_stack() -> None:
    """Ctrl is followed by its own down and up events, whichever of the two is held."""
    controls = Controls()

    def press(key: str) -> list[Intent]:
        return controls.key(key, now=0.0, paused=False, grab=False)

    assert press("q") == [Intent(Act.DROP, 0)]
    assert press("left control") == []
    assert press("q") == [Intent(Act.DROP, 1)]
    assert press("left control up") == []
    assert press("q") == [Intent(Act.DROP, 0)]
    press("right control")
    assert press("q") == [Intent(Act.DROP, 1)]
    controls.release()  # the game paused: nothing is held any more
    assert press("q") == [Intent(Act.DROP, 0)]


def test_while_paused_only_escape_acts_and_it_resumes() -> None:
    controls = Controls()
    for key in ("left mouse down", "right mouse down", "1", "f3", "space"):
        assert press(controls, key, paused=True) == []
    assert press(controls, "escape", paused=True) == [Act.RESUME]


def test_the_click_that_captures_the_mouse_does_nothing_else() -> None:
    controls = Controls()
    assert controls.key("left mouse down", now=0.0, paused=False, grab=True) == [
        Intent(Act.CAPTURE)
    ]
    controls.read({"left mouse": 1}, (0.0, 0.0), captured=True, sensitivity=100)
    assert not controls.held.attack  # held on, it does not break
    press(controls, "left mouse up")
    press(controls, "left mouse down")
    controls.read({"left mouse": 1}, (0.0, 0.0), captured=True, sensitivity=100)
    assert controls.held.attack  # a new click does


def test_pausing_lets_go_of_every_button() -> None:
    controls = Controls()
    press(controls, "right mouse down")
    controls.attack(Aim(BLOCK, 1.0))
    controls.hold(0.5, Aim(BLOCK, 1.0))
    controls.release()
    assert controls.breaking.target is None and controls.breaking.stage is None
    controls.read({"right mouse": 1}, (0.0, 0.0), captured=True, sensitivity=100)
    assert not controls.held.use


def test_space_twice_within_the_double_tap_time_toggles_flying_once() -> None:
    controls = Controls()
    taps = [0.0, DOUBLE_TAP_SECONDS - 0.01, 1.0, 2.0, 2.0 + DOUBLE_TAP_SECONDS + 0.01]
    flights = [press(controls, "space", now=t) for t in taps]
    assert flights == [[], [Act.FLY], [], [], []]
    assert press(controls, "space", now=2.5) == [Act.FLY]  # 2.31 and 2.5 are a double tap


def test_the_mouse_turns_by_the_sensitivity_only_when_captured() -> None:
    controls = Controls()
    keys = {"w": 1, "a": 1, "left shift": 1}
    assert controls.read(keys, (0.1, 0.05), captured=False, sensitivity=100) == (0.0, 0.0)
    dyaw, dpitch = controls.read(keys, (0.1, 0.05), captured=True, sensitivity=50)
    assert dyaw == pytest.approx(0.1 * MOUSE_SENSITIVITY / 2)
    assert dpitch == pytest.approx(-0.05 * MOUSE_SENSITIVITY / 2)  # mouse up looks up
    held = controls.held
    assert (held.forward, held.strafe, held.sneak, held.jump) == (1.0, -1.0, True, False)


@given(
    seconds=st.floats(0.01, 3.0),
    dts=st.lists(st.floats(0.001, 0.1), min_size=1, max_size=400),
)
def test_holding_breaks_on_the_first_frame_the_held_time_reaches_the_aims_seconds(
    seconds: float, dts: list[float]
) -> None:
    controls = Controls()
    aim = Aim(BLOCK, seconds)
    assert controls.attack(aim) == []  # it takes time
    controls.held.attack = True
    broke_at = next(
        (n for n, dt in enumerate(dts) if Intent(Act.BREAK) in controls.hold(dt, aim)), None
    )
    total, expected = 0.0, None  # the reference: add up the frames' seconds
    for n, dt in enumerate(dts):
        total += dt
        if total >= seconds:
            expected = n
            break
    assert broke_at == expected


def test_a_new_target_or_a_release_starts_the_progress_over() -> None:
    controls = Controls()
    controls.held.attack = True
    controls.attack(Aim(BLOCK, 1.0))
    controls.hold(0.8, Aim(BLOCK, 1.0))
    assert controls.hold(0.8, Aim(Int3(0, 0, 0), 1.0)) == []  # the crosshair moved
    assert controls.breaking.fraction == pytest.approx(0.8)
    press(controls, "left mouse up")
    assert controls.breaking.target is None
    controls.attack(Aim(Int3(0, 0, 0), 1.0))
    assert controls.hold(0.5, Aim(Int3(0, 0, 0), 1.0)) == []


def test_creative_breaks_at_the_click_then_holding_repeats_after_the_delay() -> None:
    controls = Controls()
    instant = Aim(BLOCK, 0.0)
    assert controls.attack(instant) == [Intent(Act.BREAK)]
    controls.held.attack = True
    frames = [bool(controls.hold(DT, instant)) for _ in range(round(BREAK_DELAY / DT) + 2)]
    waited = (frames.index(True) + 1) * DT
    assert abs(waited - BREAK_DELAY) <= DT  # within a frame of the delay
    assert controls.attack(instant) == [Intent(Act.BREAK)]  # a new click does not wait


def test_a_click_on_nothing_breakable_asks_the_rules_for_their_reason() -> None:
    assert Controls().attack(NO_AIM) == [Intent(Act.BREAK)]
    assert Controls().attack(Aim(BLOCK, math.inf)) == [Intent(Act.BREAK)]  # bedrock


def test_a_held_right_button_repeats_the_use_every_repeat_time() -> None:
    controls = Controls()
    assert press(controls, "right mouse down") == [Act.AIM, Act.USE]
    controls.held.use = True
    uses = [n for n in range(1, 121) if controls.hold(DT, NO_AIM) == [Intent(Act.USE)]]
    gaps = [b - a for a, b in zip([0, *uses], uses, strict=False)]
    assert len(gaps) >= 6 and all(abs(gap * DT - REPEAT_SECONDS) <= DT for gap in gaps)


# -- mouse look ----------------------------------------------------------------------------------

WINDOW = (400, 300)


def sample(x: float, y: float, **window: object) -> PointerSample:
    return PointerSample(x, y, **{"size": WINDOW, **window})  # type: ignore[arg-type]


def test_the_first_position_after_a_capture_is_no_motion_and_is_put_back_at_the_centre() -> None:
    look = MouseLook()
    assert look.motion(sample(17, 260)) == ((0.0, 0.0), (200, 150))
    assert look.motion(sample(230, 135)) == ((0.1, 0.05), (200, 150))  # right and up
    assert look.motion(sample(200, 150)) == ((0.0, 0.0), None)  # still: left where it is
    look.recapture()
    assert look.motion(sample(380, 20)) == ((0.0, 0.0), (200, 150))


def test_raw_relative_positions_count_from_the_last_one_and_stay_where_they_are() -> None:
    look = MouseLook()
    assert look.motion(sample(900, -40, relative=True)) == ((0.0, 0.0), None)
    assert look.motion(sample(960, -70, relative=True)) == ((0.2, 0.1), None)


@given(
    st.lists(
        st.tuples(
            st.floats(-2000, 2000),
            st.floats(-2000, 2000),
            st.sampled_from([(400, 300), (800, 600), (300, 640), (1, 1)]),
            st.sampled_from([(0, 0), (50, 80)]),
            st.booleans(),
            st.booleans(),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_a_position_right_after_the_window_changed_never_turns(
    steps: list[tuple[float, float, tuple[int, int], tuple[int, int], bool, bool]],
) -> None:
    look = MouseLook()
    window = None
    for x, y, size, origin, focused, inside in steps:
        travel, _ = look.motion(
            sample(x, y, size=size, origin=origin, focused=focused, in_window=inside)
        )
        if (size, origin, focused, inside) != window or not (focused and inside):
            assert travel == (0.0, 0.0)
        window = (size, origin, focused, inside)


@pytest.mark.parametrize(
    ("pixel", "size", "expected"),
    [
        ((400, 300), (800, 600), (0.0, 0.0)),  # the centre
        ((0, 0), (800, 600), (-2 / 3, 0.5)),  # top left: half a height up, 4/3 / 2 left
        ((800, 600), (800, 600), (2 / 3, -0.5)),
        ((180, 640), (360, 640), (0.0, -0.5)),  # bottom centre of a portrait window
    ],
)
def test_the_pointer_in_the_uis_units_is_screen_heights_from_the_centre_y_up(
    pixel: tuple[int, int], size: tuple[int, int], expected: tuple[float, float]
) -> None:
    assert PointerSample(*pixel, size).ui_position == pytest.approx(expected)


def test_a_pointer_outside_the_window_or_in_a_window_of_no_size_is_nowhere() -> None:
    assert PointerSample(10, 10, (800, 600), in_window=False).ui_position is None
    assert PointerSample(0, 0, (0, 0)).ui_position is None  # a minimised window
    assert PointerSample(10, 10, (800, 600), focused=False).ui_position is not None
