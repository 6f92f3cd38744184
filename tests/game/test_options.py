"""Command-line options."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.options import DEFAULT_SEED, Options, parse_args


def test_defaults() -> None:
    options = parse_args([])
    assert options == Options()
    assert options.seed == DEFAULT_SEED and not options.creative and not options.flat
    assert not options.headless


def test_every_option() -> None:
    options = parse_args(
        [
            "--seed", "7", "--flat", "--creative", "--fov", "90", "--mods", "a", "--mods", "b",
            "--screenshot", "s.png", "--view-distance", "2", "--size", "640x480",
        ]
    )  # fmt: skip
    assert options.seed == 7 and options.flat and options.creative and options.fov == 90.0
    assert options.mods == (Path("a"), Path("b"))
    assert options.screenshot == Path("s.png") and options.headless
    assert options.view_distance == 2 and options.size == (640, 480)
    assert not parse_args(["--creative", "--survival"][1:]).creative


@pytest.mark.parametrize(
    "argv",
    [["--fov", "10"], ["--fov", "wide"], ["--view-distance", "0"], ["--size", "10x10"],
     ["--seed", "x"], ["--creative", "--survival"]],
)  # fmt: skip
def test_bad_values_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2
    assert "usage" in capsys.readouterr().err
