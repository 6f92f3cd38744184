"""Settings remembered between runs: the file in the data folder, bad files, the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.options import Options, parse_args
from game.user_settings import (
    FOV_RANGE,
    SENSITIVITY_RANGE,
    VIEW_DISTANCE_RANGE,
    VOLUME_RANGE,
    Settings,
    load_settings,
    remember,
    save_settings,
    settings_path,
    with_command_line,
)


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BLOCKPICK_DATA_DIR", str(tmp_path))
    return tmp_path


def test_the_file_lives_in_the_data_folder(data_dir: Path) -> None:
    assert settings_path() == data_dir / "settings.json"
    assert load_settings() == Settings()  # no file yet: the defaults
    save_settings(Settings(fov=90.0))
    assert json.loads((data_dir / "settings.json").read_text())["fov"] == 90.0
    assert [p.name for p in data_dir.iterdir()] == ["settings.json"]  # no temporary left


valid_settings = st.builds(
    Settings,
    fov=st.floats(*FOV_RANGE),
    mouse_sensitivity=st.integers(*SENSITIVITY_RANGE),
    view_distance=st.integers(*VIEW_DISTANCE_RANGE),
    creative=st.booleans(),
    master_volume=st.integers(*VOLUME_RANGE),
    block_volume=st.integers(*VOLUME_RANGE),
)


@settings(max_examples=30, deadline=None)
@given(valid_settings)
def test_saved_settings_load_back_equal(
    tmp_path_factory: pytest.TempPathFactory, s: Settings
) -> None:
    path = tmp_path_factory.mktemp("s") / "settings.json"
    save_settings(s, path)
    assert load_settings(path) == s


def test_remember_changes_only_the_given_fields(data_dir: Path) -> None:
    save_settings(Settings(fov=50.0, view_distance=3))
    assert remember({"mouse_sensitivity": 150}) == Settings(
        fov=50.0, view_distance=3, mouse_sensitivity=150
    )
    assert load_settings() == Settings(fov=50.0, view_distance=3, mouse_sensitivity=150)
    with pytest.raises(ValueError, match="fov"):
        remember({"fov": 500.0})
    with pytest.raises(ValueError, match="brightness"):
        remember({"brightness": 2})
    assert load_settings().fov == 50.0


def test_the_volumes_are_remembered_alone(data_dir: Path) -> None:
    save_settings(Settings(fov=50.0, mouse_sensitivity=150))
    remember({"master_volume": 0})
    assert remember({"block_volume": 30}) == Settings(
        fov=50.0, mouse_sensitivity=150, master_volume=0, block_volume=30
    )
    stored = json.loads((data_dir / "settings.json").read_text())
    assert stored["master_volume"] == 0 and stored["block_volume"] == 30


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "", "\xff\xfe"])
def test_a_damaged_file_gives_the_defaults(data_dir: Path, text: str) -> None:
    (data_dir / "settings.json").write_bytes(text.encode("latin-1"))
    assert load_settings() == Settings()


def test_a_bad_field_falls_back_alone(data_dir: Path) -> None:
    (data_dir / "settings.json").write_text(
        json.dumps(
            {"fov": 500, "view_distance": 5, "mouse_sensitivity": "fast", "creative": 1, "x": 2}
        )
    )
    assert load_settings() == Settings(view_distance=5)


@pytest.mark.parametrize("bad", [101, -10, 50.5, "loud", True, None])
def test_a_bad_volume_falls_back_to_full_volume(
    data_dir: Path, bad: object, caplog: pytest.LogCaptureFixture
) -> None:
    (data_dir / "settings.json").write_text(
        json.dumps({"master_volume": bad, "block_volume": 40, "view_distance": 5})
    )
    assert load_settings() == Settings(block_volume=40, view_distance=5)
    assert "master_volume" in caplog.text
    (data_dir / "settings.json").write_text(json.dumps({"master_volume": 0, "block_volume": bad}))
    assert load_settings() == Settings(master_volume=0)


def test_a_whole_number_fov_is_read_as_degrees(data_dir: Path) -> None:
    (data_dir / "settings.json").write_text('{"fov": 85}')
    assert load_settings().fov == 85.0


@pytest.mark.parametrize(
    ("name", "value"),
    [("fov", 10.0), ("fov", float("nan")), ("view_distance", 40), ("view_distance", 4.5),
     ("mouse_sensitivity", 0), ("creative", "yes"), ("master_volume", 101),
     ("master_volume", -1), ("block_volume", 0.5), ("block_volume", False)],
)  # fmt: skip
def test_bad_values_are_refused_naming_the_field(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        Settings(**{name: value})  # type: ignore[arg-type]


def test_the_command_line_wins_for_its_run() -> None:
    remembered = Settings(fov=90.0, view_distance=5, creative=True, mouse_sensitivity=70)
    run, options = with_command_line(remembered, parse_args(["--fov", "60"]))
    assert options.fov == 60.0 and run.fov == 60.0
    assert options.view_distance == 5 and run.view_distance == 5  # not given: remembered
    assert run.mouse_sensitivity == 70 and run.creative
    run, options = with_command_line(remembered, parse_args(["--survival", "--view-distance", "3"]))
    assert not run.creative and options.creative is False
    assert options.view_distance == 3 and options.fov == 90.0
    # A value typed on the command line wins even when it equals the default.
    run, options = with_command_line(
        remembered, parse_args(["--fov", "70", "--view-distance", "8"])
    )
    assert options.fov == 70.0 and run.fov == 70.0
    assert options.view_distance == 8 and run.view_distance == 8


def test_the_mode_is_left_to_the_world_when_not_given() -> None:
    run, options = with_command_line(Settings(creative=True), Options())
    assert run.creative
    assert options == Options()  # the options keep saying "not given"
