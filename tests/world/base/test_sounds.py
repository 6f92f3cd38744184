"""The base game's sounds: every base block's group, and the shipped files tools/make_sounds.py
makes (they decode, they are short, loud enough and never clipped, and match a fresh synthesis)."""

from __future__ import annotations

import wave

import numpy as np
import pytest

from tools import make_sounds
from world.base import GAME, default_registry
from world.base.sounds import (
    BASE_GROUPS,
    CLOTH_SOUNDS,
    GLASS_SOUNDS,
    GRASS_SOUNDS,
    GRAVEL_SOUNDS,
    SAND_SOUNDS,
    SNOW_SOUNDS,
    STONE_SOUNDS,
    WATER_SOUNDS,
    WOOD_SOUNDS,
)
from world.mods.host import Mods
from world.mods.sounds import find_sound_files
from world.shipped import sounds_dir

REG = default_registry()
EXPECTED = {
    STONE_SOUNDS: "stone cobblestone bedrock obsidian sandstone stone_slab stone_stairs",
    WOOD_SOUNDS: "log planks planks_slab planks_stairs fence door torch",
    GRAVEL_SOUNDS: "dirt gravel",
    GRASS_SOUNDS: "grass leaves tall_grass sapling dead_bush",
    SAND_SOUNDS: "sand",
    GLASS_SOUNDS: "glass ice lamp",
    CLOTH_SOUNDS: "cactus",
    SNOW_SOUNDS: "snow",
    WATER_SOUNDS: "water",
}
SHIPPED = sorted(sounds_dir().glob("*.wav"))
FULL_SCALE = 32767


def test_every_base_block_sounds_like_its_material_and_lava_is_silent():
    expected = {
        f"base:{name}": group for group, names in EXPECTED.items() for name in names.split()
    }
    for block in REG.blocks[1:]:
        if block.name == "base:lava":
            assert block.sounds is None
        else:
            assert block.sounds == expected[block.name], block.name
        assert REG.sounds_of(REG.id(block.name)) is block.sounds
    assert set(expected) | {"base:lava"} == set(REG.names[1:])


def test_a_material_breaks_and_places_with_its_break_sounds_and_steps_hits_lands_with_its_steps():
    assert STONE_SOUNDS.dug == STONE_SOUNDS.place == "base:stone_break"
    assert STONE_SOUNDS.step == STONE_SOUNDS.dig == STONE_SOUNDS.fall == "base:stone_step"
    assert GLASS_SOUNDS.dug == "base:glass_break" and GLASS_SOUNDS.place == "base:stone_break"
    assert (WATER_SOUNDS.dug, WATER_SOUNDS.dig) == (None, None)
    assert (WATER_SOUNDS.fall, WATER_SOUNDS.step) == ("base:water_splash", "base:water_swim")


def test_every_base_sound_name_has_shipped_files_and_no_problem():
    names = {name for group in BASE_GROUPS.values() for name in group.names}
    assert names == set(make_sounds.RECIPES)
    mods = Mods(GAME)
    files, problems = find_sound_files(REG, mods)
    assert problems == []
    for name in names:
        assert [p.name for p in files.files(name)] == make_sounds.variations(name)
        assert len(files.files(name)) >= 3  # variations, as Minecraft's


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_each_shipped_sound_decodes_short_normalised_and_not_silent(path):
    with wave.open(str(path), "rb") as sound:
        assert (sound.getnchannels(), sound.getsampwidth()) == (1, 2)
        assert sound.getframerate() in (22050, 44100)
        seconds = sound.getnframes() / sound.getframerate()
        samples = np.frombuffer(sound.readframes(sound.getnframes()), dtype="<i2")
    assert 0.05 <= seconds <= (1.0 if "water_splash" in path.name else 0.5)
    peak = int(np.abs(samples.astype(np.int32)).max())
    assert peak < FULL_SCALE  # never clipped
    assert peak >= FULL_SCALE * 10 ** (-1.5 / 20)  # normalised: within 0.5 dB of -1 dBFS
    rms = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))
    assert rms > FULL_SCALE * 0.01  # not a click in silence
    edges = np.abs(samples[[0, -1]].astype(np.int32))
    assert edges.max() < FULL_SCALE * 0.02  # faded in and out: no click at either end


def test_the_shipped_sounds_are_a_few_hundred_kib_with_their_licence_note():
    size = sum(path.stat().st_size for path in SHIPPED)
    assert 100 * 1024 < size < 450 * 1024
    readme = (sounds_dir() / "README.md").read_text()
    assert "tools/make_sounds.py" in readme and "licence" in readme


def test_the_committed_sounds_match_a_fresh_synthesis(capsys):
    assert make_sounds.main(["--check"]) == 0
    assert "differs" not in capsys.readouterr().out


def test_check_finds_a_changed_a_missing_and_an_extra_file(tmp_path, capsys):
    assert make_sounds.main(["--output", str(tmp_path)]) == 0
    assert make_sounds.main(["--check", "--output", str(tmp_path)]) == 0
    samples = make_sounds.synthesise("base_stone_break1.wav")
    make_sounds.write_wav(tmp_path / "base_stone_break1.wav", samples // 2)
    (tmp_path / "base_wood_step2.wav").unlink()
    (tmp_path / "base_old5.wav").write_bytes(b"")
    capsys.readouterr()
    assert make_sounds.main(["--check", "--output", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "base_stone_break1.wav: differs" in out and "base_wood_step2.wav: differs" in out
    assert "base_old5.wav: made by no recipe" in out


def test_each_variation_is_its_own_sound_and_the_same_on_every_run():
    first, second = (make_sounds.synthesise(f"base_gravel_break{i}.wav") for i in (1, 2))
    assert not np.array_equal(first, second)
    assert np.array_equal(first, make_sounds.synthesise("base_gravel_break1.wav"))
