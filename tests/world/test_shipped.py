"""The shipped files are found through their packages: the atlas and the example mods of this
checkout (an installed game finds its own copies: tests/test_packaging.py), and a package that is
not installed is an error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from world import shipped
from world.blocks.atlas import ATLAS_PATH
from world.mods.loader import DEFAULT_MODS_DIR

ROOT = Path(__file__).resolve().parents[2]


def test_the_atlas_and_the_example_mods_are_this_checkouts() -> None:
    assert shipped.atlas_path() == ATLAS_PATH == (ROOT / "assets" / "atlas.png").resolve()
    assert ATLAS_PATH.is_file()
    assert shipped.example_mods_dir() == DEFAULT_MODS_DIR == (ROOT / "mods").resolve()
    assert (DEFAULT_MODS_DIR / "tnt.py").is_file()


def test_a_package_that_is_not_installed_is_an_error_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shipped, "MODS_PACKAGE", "blockpick_no_such_package")
    with pytest.raises(FileNotFoundError, match="blockpick_no_such_package"):
        shipped.example_mods_dir()
