"""Tests for world.save.meta: the world and player values a save holds check every field."""

from __future__ import annotations

import math

import pytest

from world.save.meta import PlayerState, WorldInfo
from world.validate import WORLD_LIMIT


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pitch": 90.5}, "pitch"),
        ({"position": (0.0, math.nan, 0.0)}, "position"),
        ({"position": (0.0, 1.0)}, "position"),
        ({"hotbar": ("base:stone",), "selected": 1}, "selected"),
        ({"hotbar": (3,)}, "hotbar"),
        ({"yaw": math.inf}, "yaw"),
    ],
)
def test_player_state_validates_its_fields(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PlayerState(**kwargs)  # type: ignore[arg-type]


def test_world_info_validates_its_fields() -> None:
    with pytest.raises(ValueError, match="seed"):
        WorldInfo(name="w", seed=2**63, generator=None)
    with pytest.raises(ValueError, match="game_mode"):
        WorldInfo(name="w", seed=0, generator=None, game_mode="hardcore")
    with pytest.raises(ValueError, match="build_height"):
        WorldInfo(name="w", seed=0, generator=None, build_height=(5, 5))


@pytest.mark.parametrize("position", [(WORLD_LIMIT + 1.0, 0.0, 0.0), (0.0, -1e300, 0.0)])
def test_a_player_beyond_the_world_limit_is_refused(position: tuple[float, ...]) -> None:
    with pytest.raises(ValueError, match="position is outside the world"):
        PlayerState(position=position)


def test_huge_integers_in_metadata_are_value_errors_not_overflow() -> None:
    with pytest.raises(ValueError, match="yaw"):
        PlayerState.from_dict({"yaw": 10**400})
    assert PlayerState(position=(WORLD_LIMIT, -WORLD_LIMIT, 0)).position[0] == WORLD_LIMIT


def test_a_saved_pitch_counts_down_and_says_so() -> None:
    data = PlayerState(pitch=30.0).to_dict()
    assert data["pitch"] == 30.0 and data["pitch_convention"] == "down"
    assert PlayerState.from_dict(data).pitch == 30.0


@pytest.mark.parametrize("pitch", [-90.0, -12.5, 0.0, 45.0, 90])
def test_an_old_save_counting_pitch_up_keeps_its_camera(pitch: float) -> None:
    old = {"position": [0.5, 1.0, 0.5], "yaw": 10.0, "pitch": pitch}
    state = PlayerState.from_dict(old)
    assert state.pitch == -pitch and state.yaw == -10.0  # looking up then is looking up now
    assert PlayerState.from_dict(state.to_dict()) == state


def test_the_old_fixture_save_loads_with_its_pitch_turned_down() -> None:
    from pathlib import Path

    from world.save.storage import WorldStore

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "pre_states.sqlite"
    with WorldStore(fixture, read_only=True) as store:
        player = store.player
    assert player is not None and player.pitch == -5.0  # stored as 5 degrees up


def test_an_unknown_pitch_convention_is_refused() -> None:
    with pytest.raises(ValueError, match="pitch_convention"):
        PlayerState.from_dict({"pitch": 10.0, "pitch_convention": "up"})


def test_a_worn_tool_round_trips_with_the_player_and_an_older_inventory_reads_unworn() -> None:
    state = PlayerState(inventory=(("tools:wood_pickaxe", 1, 52), ("base:dirt", 3), None))
    data = state.to_dict()
    assert data["inventory"][:3] == [["tools:wood_pickaxe", 1, 52], ["base:dirt", 3], None]
    assert PlayerState.from_dict(data) == state
    old = PlayerState.from_dict({"inventory": [["tools:wood_pickaxe", 1], None]})
    assert old.inventory is not None and old.inventory[0] == ("tools:wood_pickaxe", 1)
    with pytest.raises(ValueError, match="inventory slot 0: wear must be an integer"):
        PlayerState.from_dict({"inventory": [["tools:wood_pickaxe", 1, -1]]})
