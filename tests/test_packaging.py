"""The game as a player installs it: ``pip install .`` (not editable) into a fresh venv, then
``blockpick --screenshot out.png`` from another folder renders the world with the atlas and the
example mods, which ship in the wheel as package data, as the base game's sounds do.

The wheel is built from a copy of the checkout (so no stale ``build/`` leaks in) without build
isolation, with this venv's setuptools (no network). The throwaway venv gets the dependencies
(numpy, ursina, …) from this venv's site-packages through a ``.pth`` path line: a path line adds
the folder only, so that folder's own ``.pth`` files, among them an editable install's finder of
this checkout, are not processed, and the installed copy of the game is the one that runs.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
NOT_SOURCE = (
    ".git",
    ".venv",
    ".cache",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "out",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
)
SETUPTOOLS = 77  # pyproject.toml's build-system needs it (license = "MIT")


def run(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result


def example_mod_names() -> set[str]:
    """The mods in the checkout's mods/: modules and packages not starting with ``_``."""
    folder = ROOT / "mods"
    modules = {p.stem for p in folder.glob("*.py")}
    packages = {p.parent.name for p in folder.glob("*/__init__.py")}
    return {name for name in modules | packages if not name.startswith("_")}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of this checkout."""
    version = importlib.metadata.version("setuptools")
    assert int(version.split(".")[0]) >= SETUPTOOLS, (
        f"setuptools {version} cannot build this project: install the test extras "
        "(pip install -e '.[test]'), which need setuptools>=77"
    )
    source = tmp_path_factory.mktemp("source") / "blockpick"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    dist = tmp_path_factory.mktemp("dist")
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    offline = ("--no-index", "--no-deps", "--no-build-isolation")
    run(*pip, "wheel", "-q", *offline, "-w", dist, ".", cwd=source)
    (built,) = dist.glob("blockpick-*.whl")
    return built


def test_the_wheel_holds_the_code_the_atlas_the_sounds_and_every_example_mod(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    example_mods = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mods").rglob("*.py")}
    assert len(example_mod_names()) >= 4
    assert {"assets/atlas.png", "mods/README.md", "world/__init__.py", "game/__main__.py"} <= names
    assert example_mods <= names
    textures = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mods").rglob("*.png")}
    assert len(textures) >= 9 and textures <= names  # the mods' own icons and tiles ship too
    sounds = {p.relative_to(ROOT).as_posix() for p in (ROOT / "assets" / "sounds").iterdir()}
    assert len(sounds) >= 30 and "assets/sounds/README.md" in sounds  # the files, their licence
    assert sounds <= names
    assert not {name for name in names if name.startswith(("tests/", "tools/", "bench/"))}


@pytest.mark.slow
def test_an_installed_game_renders_a_screenshot_from_another_folder_with_its_mods(
    wheel: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--python", python)
    run(*pip, "install", "-q", "--no-deps", "--no-index", wheel, cwd=tmp_path)
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(run(python, "-c", code, cwd=tmp_path).stdout.strip())
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "_blockpick_test_deps.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))

    # A player's folder, with mods/ and my-mods/ folders of their own: neither shadows the
    # shipped mods/ (both are empty).
    home = tmp_path / "player"
    (home / "mods").mkdir(parents=True)
    (home / "my-mods").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DISPLAY")}
    env |= {"XDG_CACHE_HOME": str(tmp_path / "cache"), "BLOCKPICK_DATA_DIR": str(home / "data")}

    where = json.loads(
        run(
            python,
            "-c",
            "import json, world, game, world.blocks.atlas as a, world.mods.loader as m\n"
            "from world.base import GAME\n"
            "from world.mods.registration import make_registry\n"
            "from world.mods.sounds import load_sounds\n"
            "mods = m.load_mods(entry_points=False, game=GAME)\n"
            "stone = load_sounds(make_registry(mods), mods).files('base:stone_break')\n"
            "print(json.dumps({'world': world.__file__, 'game': game.__file__,"
            " 'atlas': str(a.ATLAS_PATH), 'mods_dir': str(m.DEFAULT_MODS_DIR),"
            " 'sound': str(stone[0]), 'sounds': len(stone),"
            " 'mods': list(mods.names), 'errors': [str(e) for e in mods.errors]}))",
            cwd=home,
            env=env,
        ).stdout
    )
    for key in ("world", "game", "atlas", "mods_dir", "sound"):
        assert Path(where[key]).is_relative_to(venv), (key, where[key])
    assert where["sounds"] >= 3  # the base game's sounds, found where the wheel put them
    assert set(where["mods"]) == {"base", *example_mod_names()}
    assert where["errors"] == []

    # A --mods folder that does not exist is refused up front, named, with a usage error.
    typo = subprocess.run(
        [str(venv / "bin" / "blockpick"), "--screenshot", "out.png", "--mods", "typo"],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert typo.returncode == 2 and "--mods typo: does not exist" in typo.stderr
    args = ("--screenshot", "out.png", "--mods", "my-mods")
    output = run(venv / "bin" / "blockpick", *args, cwd=home, env=env).stderr.splitlines()
    assert not [line for line in output if "could not" in line.lower() or "Traceback" in line]
    frame = np.asarray(Image.open(home / "out.png").convert("RGB")).astype(int)
    assert frame.shape == (600, 800, 3)
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 500  # textured terrain, not a blank
    assert not (home / "data").exists()  # an offscreen run saves nothing
