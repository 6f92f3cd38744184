"""The command line, run as a player would (a subprocess per run, no display): ``--screenshot``
and ``--script`` write PNGs showing terrain and the hotbar without touching the saves; a run on
a named world saves it when it ends and the next run carries on from there; a spoilt save is
refused; bad options fail cleanly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.hotbar import SLOTS
from game.hud import HOTBAR_Y, ICON_SIZE, SLOT_GAP, SLOT_SIZE
from game.icons import ICON_PX, item_icon
from game.scene import SKY
from tests.game.runs import blockpick
from world.base import default_registry
from world.blocks.atlas import ATLAS_PATH
from world.blocks.block_type import AIR
from world.gen.generators import make_generator
from world.save.storage import WorldStore

WIDTH, HEIGHT = 800, 600


def slot_centre(slot: int) -> tuple[int, int]:
    """Pixel (row, column) of a hotbar slot's centre in a WIDTH×HEIGHT frame."""
    x_ui = (slot - (SLOTS - 1) / 2) * (SLOT_SIZE + SLOT_GAP)
    return round((0.5 - HOTBAR_Y) * HEIGHT), round(WIDTH / 2 + x_ui * HEIGHT)


def check_frame(path: Path) -> None:
    frame = np.asarray(Image.open(path).convert("RGB")).astype(int)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 500  # not a uniform picture
    sky = np.round(np.array([SKY[0], SKY[1], SKY[2]]) * 255)
    is_sky = np.abs(frame - sky).sum(axis=2) < 12
    assert is_sky[:40].mean() > 0.5  # looking slightly down: mostly sky at the top
    ground = is_sky[HEIGHT // 2 + 20 : HEIGHT - 80]
    assert ground.mean() < 0.2  # terrain fills the lower part
    # Each opaque block's slot shows its icon (`game.icons.item_icon`, the inventory's): compare
    # the mean colours of their middles, where the cube's three faces meet.
    atlas = np.asarray(Image.open(ATLAS_PATH).convert("RGBA"))
    registry = default_registry()
    half = round(ICON_SIZE * HEIGHT * 0.2)
    middle = slice(round(ICON_PX * 0.3), round(ICON_PX * 0.7))
    for slot, name in ((0, "base:stone"), (1, "base:dirt"), (3, "base:planks")):
        made = item_icon(atlas, registry, name)
        assert made is not None and (made[middle, middle, 3] == 255).all()
        expected = made[middle, middle, :3].reshape(-1, 3).astype(int).mean(axis=0)
        row, col = slot_centre(slot)
        icon = frame[row - half : row + half, col - half : col + half].reshape(-1, 3).mean(axis=0)
        assert np.abs(icon - expected).max() < 12, (name, icon, expected)


def test_screenshot_and_script_work_with_no_display(tmp_path: Path) -> None:
    script = tmp_path / "walk.txt"
    shot = tmp_path / "from-script.png"
    final = tmp_path / "final.png"
    script.write_text(f"look 30 20\nmove 1 0 20\nscreenshot {shot}\nbreak\nwait 2\n")
    args = ("--script", str(script), "--screenshot", str(final), "--view-distance", "3")
    # Creative: its starting hotbar has the blocks whose icons are checked (survival starts
    # with nothing).
    result = blockpick(tmp_path, *args, "--creative")  # 3 chunks of terrain fill the picture
    assert result.returncode == 0, result.stderr
    for path in (shot, final):
        check_frame(path)
    assert not (tmp_path / "data").exists()  # an offscreen run names no world: nothing saved


def test_a_bad_script_is_refused_with_its_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("look 0 0\nfly sideways\n")
    result = blockpick(tmp_path, "--script", str(script))
    assert result.returncode == 2
    assert "line 2" in result.stderr and "fly" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"wait 1\nteleport 0 nan 0\n", "line 2: teleport y: must be a finite number"),
        (b"inf\n", "line 1: unknown action 'inf'"),
        (b"look nan 0\n", "line 1: look yaw: must be a finite number"),
        (b"wait 1\n# \xff\xfe\n", "line 2: not UTF-8 text"),
    ],
)
def test_bad_script_input_is_refused_cleanly_before_anything_starts(
    tmp_path: Path, content: bytes, message: str
) -> None:
    script = tmp_path / "bad.txt"
    script.write_bytes(content)
    result = blockpick(tmp_path, "--script", str(script))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_script_line_that_cannot_be_done_when_reached_is_named_and_the_world_saved(
    tmp_path: Path,
) -> None:
    """``type`` with no text prompt open is found only when the line is reached: one line on the
    terminal, exit 2, no traceback; what the script did before it is still saved."""
    world = tmp_path / "mine.sqlite"
    script = tmp_path / "late.txt"
    script.write_text("look 0 90\nwait 1\nbreak\nwait 1\ntype hello\n")
    args = ("--new", "--world", str(world), "--flat", "--creative", "--view-distance", "2")
    result = blockpick(tmp_path, *args, "--script", str(script))
    assert result.returncode == 2
    assert "line 5: type needs a text prompt open" in result.stderr
    assert "Traceback" not in result.stderr
    with WorldStore(world, read_only=True) as store:
        saved = store.load(default_registry(), generator_factory=make_generator)
        assert saved.get_block(0, 3, 0) == AIR  # the block broken before the bad line


@pytest.mark.parametrize("args", [["--fov", "500"], ["--creative", "--survival"], ["--size", "x"]])
def test_bad_options_exit_with_usage(tmp_path: Path, args: list[str]) -> None:
    result = blockpick(tmp_path, *args)
    assert result.returncode == 2 and "usage" in result.stderr


def test_a_run_on_a_named_world_saves_it_and_the_next_run_carries_on(tmp_path: Path) -> None:
    world = tmp_path / "mine.sqlite"
    edit = tmp_path / "edit.txt"
    edit.write_text("look 0 90\nwait 1\nbreak\nselect 4\nteleport 5.5 4 2.5\nlook 45 -10\nwait 2\n")
    near = ("--view-distance", "2")  # what is saved does not depend on what is shown
    args = ("--new", "--world", str(world), "--flat", "--seed", "3", "--creative", *near)
    made = blockpick(tmp_path, *args, "--script", str(edit))
    assert made.returncode == 0, made.stderr
    idle = tmp_path / "idle.txt"
    idle.write_text("wait 5\n")
    again = blockpick(tmp_path, "--world", str(world), "--script", str(idle), *near)
    assert again.returncode == 0, again.stderr
    with WorldStore(world, read_only=True) as store:
        assert store.info.seed == 3 and store.info.generator == "flat"
        assert store.info.game_mode == "creative"
        player = store.player
        assert player is not None  # where the first run left the player, kept by the second
        assert player.position == (5.5, 4.0, 2.5) and player.yaw == 45.0 and player.pitch == -10.0
        assert player.selected == 3
        assert (
            store.load(default_registry(), generator_factory=make_generator).get_block(0, 3, 0)
            == AIR
        )


def test_a_spoilt_world_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    world = tmp_path / "spoilt.sqlite"
    world.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    before = world.read_bytes()
    script = tmp_path / "wait.txt"
    script.write_text("wait 1\n")
    result = blockpick(tmp_path, "--world", str(world), "--script", str(script))
    assert result.returncode == 1
    assert "cannot open the world" in result.stderr and str(world) in result.stderr
    assert world.read_bytes() == before


def test_a_world_name_that_cannot_be_a_file_name_is_a_usage_error(tmp_path: Path) -> None:
    script = tmp_path / "wait.txt"
    script.write_text("wait 1\n")
    result = blockpick(tmp_path, "--world", "what?", "--script", str(script))
    assert result.returncode == 2 and "world name" in result.stderr


def test_a_missing_mods_folder_is_a_usage_error_not_a_warning(tmp_path: Path) -> None:
    result = blockpick(tmp_path, "--screenshot", str(tmp_path / "s.png"), "--mods", "/missing")
    assert result.returncode == 2
    assert "--mods /missing: does not exist" in result.stderr
    assert not (tmp_path / "s.png").exists()


def test_world_paths_get_the_suffix_and_a_missing_folder_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "wait.txt"
    script.write_text("wait 1\n")
    stray = tmp_path / "a" / "b"
    refused = blockpick(tmp_path, "--world", str(stray), "--script", str(script))
    assert refused.returncode == 2 and f"there is no folder {stray.parent}" in refused.stderr
    assert not stray.parent.exists()
    made = blockpick(tmp_path, "--world", str(tmp_path / "castle"), "--script", str(script))
    assert made.returncode == 0, made.stderr
    assert f"saved 'castle' in {tmp_path / 'castle.sqlite'}" in made.stderr
    assert (tmp_path / "castle.sqlite").is_file() and not (tmp_path / "castle").exists()


def test_a_new_world_that_cannot_be_made_is_a_clean_usage_error(tmp_path: Path) -> None:
    script = tmp_path / "wait.txt"
    script.write_text("wait 1\n")
    taken = tmp_path / "taken.sqlite"
    taken.write_bytes(b"mine")
    result = blockpick(tmp_path, "--new", "--world", str(taken), "--script", str(script))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{taken}: already exists" in result.stderr and taken.read_bytes() == b"mine"
