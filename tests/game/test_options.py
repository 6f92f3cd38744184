"""Command-line options: defaults, every option, refusals with the usage text."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.options import DEFAULT_VIEW_DISTANCE, Options, parse_args
from world.save.dirs import parse_seed


def test_defaults() -> None:
    options = parse_args([])
    assert options == Options()
    assert options.seed is None and options.creative is None and not options.flat
    assert options.view_distance == DEFAULT_VIEW_DISTANCE == 8
    assert options.world is None and not options.new and not options.read_only
    assert not options.headless and options.saves


def test_every_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path)  # --mods names folders that exist
    options = parse_args(
        [
            "--seed", "7", "--flat", "--creative", "--fov", "90", "--mods", "a", "--mods", "b",
            "--screenshot", "s.png", "--view-distance", "2", "--size", "640x480",
            "--world", "My World", "--new",
        ]
    )  # fmt: skip
    assert options.seed == 7 and options.flat and options.creative and options.fov == 90.0
    assert options.mods == (Path("a"), Path("b"))
    assert options.screenshot == Path("s.png") and options.headless
    assert options.view_distance == 2 and options.size == (640, 480)
    assert options.world == "My World" and options.new and options.saves
    assert parse_args(["--survival"]).creative is False
    assert parse_args(["--view-distance", "16"]).view_distance == 16
    assert parse_args(["--world", "w", "--read-only"]).read_only


def test_offscreen_runs_save_only_when_a_world_is_named() -> None:
    assert not parse_args(["--screenshot", "s.png"]).saves
    assert not parse_args(["--script", "s.txt", "--seed", "3"]).saves
    assert parse_args(["--script", "s.txt", "--world", "w"]).saves
    assert parse_args(["--screenshot", "s.png", "--new"]).saves


def test_a_word_is_a_seed_as_in_minecraft() -> None:
    assert parse_args(["--seed", "glacier"]).seed == parse_seed("glacier")
    assert parse_args(["--seed", "glacier"]).seed != parse_args(["--seed", "glacie"]).seed
    assert parse_args(["--seed", "-12"]).seed == -12


@pytest.mark.parametrize(
    "argv",
    [["--fov", "10"], ["--fov", "wide"], ["--view-distance", "1"], ["--view-distance", "17"],
     ["--view-distance", "4.5"], ["--size", "10x10"], ["--seed", ""], ["--seed", str(2**63)],
     ["--creative", "--survival"], ["--new", "--read-only"]],
)  # fmt: skip
def test_bad_values_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2
    assert "usage" in capsys.readouterr().err


def test_a_mods_folder_that_does_not_exist_or_is_a_file_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "mod.py"
    a_file.write_text("")
    for folder, problem in ((tmp_path / "missing", "does not exist"), (a_file, "is not a folder")):
        with pytest.raises(SystemExit) as exc:
            parse_args(["--mods", str(tmp_path), "--mods", str(folder)])
        assert exc.value.code == 2
        assert f"--mods {folder}: {problem}" in capsys.readouterr().err
    assert parse_args(["--mods", str(tmp_path)]).mods == (tmp_path,)


def test_a_screenshot_path_that_is_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["--screenshot", str(tmp_path)])
    assert exc.value.code == 2 and "--screenshot" in capsys.readouterr().err
