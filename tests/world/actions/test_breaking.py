"""Survival breaking: takes the hardness time, resets on a new target or release."""

from __future__ import annotations

import math

import pytest

from world.actions.breaking import BREAK_DELAY, CRACK_STAGES, BreakProgress

DT = 1 / 60


def frames_to_break(progress: BreakProgress, target, duration: float, limit: int = 10_000) -> int:
    for frame in range(1, limit + 1):
        if progress.update(target, True, duration, DT):
            return frame
    raise AssertionError("never broke")


def test_breaking_takes_its_hardness_time_within_one_frame():
    progress = BreakProgress()
    frames = frames_to_break(progress, (0, 0, 0), 1.5)
    assert abs(frames * DT - 1.5) <= DT


def test_stages_rise_through_all_ten():
    progress = BreakProgress()
    seen = set()
    while not progress.update((1, 2, 3), True, 1.0, DT):
        if progress.stage is not None:
            seen.add(progress.stage)
    assert seen == set(range(CRACK_STAGES))
    assert progress.stage is None


def test_progress_resets_when_the_target_changes_or_the_button_is_released():
    progress = BreakProgress()
    for _ in range(60):
        assert not progress.update((0, 0, 0), True, 1.5, DT)
    assert progress.fraction == pytest.approx(60 * DT / 1.5)
    progress.update((0, 0, 1), True, 1.5, DT)
    assert progress.elapsed == pytest.approx(DT)
    progress.update((0, 0, 1), False, 1.5, DT)
    assert progress.target is None and progress.stage is None
    assert abs(frames_to_break(progress, (0, 0, 1), 1.5) * DT - 1.5) <= DT


def test_unbreakable_never_breaks():
    progress = BreakProgress()
    assert not any(progress.update((0, 0, 0), True, math.inf, DT) for _ in range(10_000))


def test_creative_breaks_at_once_then_waits_the_repeat_delay():
    progress = BreakProgress()
    assert progress.update((0, 0, 0), True, 0.0, DT)
    frames = frames_to_break(progress, (0, 0, 1), 0.0)
    assert abs(frames * DT - BREAK_DELAY) <= DT


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="dt"):
        BreakProgress().update(None, True, 1.0, -1.0)
    with pytest.raises(ValueError, match="duration"):
        BreakProgress().update(None, True, math.nan, DT)
