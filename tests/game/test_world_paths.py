"""``--world NAME|PATH`` names a file as a player expects (`game.session.world_file`): a path
gets ``.sqlite``, a missing folder is refused unless ``--new``, a new world that cannot be made
is refused cleanly, and the notice for ``--seed`` on an existing world reads well."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.options import Options
from game.session import NewWorldError, Session, world_file
from tests.game.test_cli import blockpick
from world.save.dirs import world_path


def test_a_path_without_the_suffix_gets_it_and_a_name_lives_in_the_data_folder(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    assert world_file(Options(world=f"{tmp_path}/castle"), data) == tmp_path / "castle.sqlite"
    assert world_file(Options(world=f"{tmp_path}/b.sqlite"), data) == tmp_path / "b.sqlite"
    assert world_file(Options(world="Castle"), data) == world_path("Castle", data)
    old = tmp_path / "made-before"  # a save made without the suffix still opens
    old.write_bytes(b"")
    assert world_file(Options(world=str(old)), data) == old


def test_a_path_into_a_missing_folder_is_refused_unless_new(tmp_path: Path) -> None:
    where = f"{tmp_path}/a/b"
    with pytest.raises(ValueError, match=f"--world {where}: there is no folder {tmp_path}/a"):
        world_file(Options(world=where), tmp_path / "data")
    assert not (tmp_path / "a").exists()
    new = Options(world=where, new=True, flat=True)
    assert world_file(new, tmp_path / "data") == tmp_path / "a" / "b.sqlite"
    session = Session.open(new, tmp_path / "data")
    assert session.store is not None and session.store.path == tmp_path / "a" / "b.sqlite"
    assert session.name == "b"
    session.close()


def test_a_bad_world_name_or_path_names_the_option(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--world 'what\\?': world name"):
        world_file(Options(world="what?"), tmp_path)
    for folder in (str(tmp_path), "/"):  # never a "folder.sqlite" beside the folder
        with pytest.raises(ValueError, match=f"--world {folder}: is a folder"):
            world_file(Options(world=folder, new=True), tmp_path)
    with pytest.raises(ValueError, match="--world '~no-such-user-here/w'"):
        world_file(Options(world="~no-such-user-here/w"), tmp_path)


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder no file can be created in, for root too (immutable) where the system allows."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    locked = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if locked.returncode != 0:
        pytest.skip("running as root and chattr +i is not allowed: no read-only folder")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_new_world_in_a_read_only_folder_is_refused_cleanly(
    read_only_folder: Path, tmp_path: Path
) -> None:
    options = Options(world=str(read_only_folder / "w.sqlite"), new=True)
    with pytest.raises(NewWorldError, match="cannot create the world file") as exc:
        Session.open(options, tmp_path / "data")
    assert exc.value.path == read_only_folder / "w.sqlite"
    assert list(read_only_folder.iterdir()) == []  # no temporary file left behind


def test_seed_on_an_existing_world_says_it_keeps_its_own_in_plain_words(tmp_path: Path) -> None:
    Session.open(Options(world="kept", seed=7), tmp_path).close()
    again = Session.open(Options(world="kept", seed=8), tmp_path)
    again.close()
    (notice,) = again.notices
    assert "'kept' keeps its seed 7 and its generator 'terrain' (--new makes one)" in notice
    assert "terrain terrain" not in notice


def test_the_command_line_refuses_a_read_only_folder_with_exit_2(
    read_only_folder: Path, tmp_path: Path
) -> None:
    script = tmp_path / "wait.txt"
    script.write_text("wait 1\n")
    where = read_only_folder / "w.sqlite"
    result = blockpick(tmp_path, "--new", "--world", str(where), "--script", str(script))
    assert result.returncode == 2
    assert f"blockpick: {where}: cannot create the world file" in result.stderr
    assert "Traceback" not in result.stderr
