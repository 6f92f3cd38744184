"""Mods' sound files: found in the mod's sounds/ folder by name, as textures are; a block's sound
without a file, or a file that may not play, is the mod's error naming the file."""

from __future__ import annotations

import textwrap
import types
import wave
from pathlib import Path

import pytest

from world.base import GAME
from world.mods.host import Mods
from world.mods.loader import load_mods
from world.mods.registration import make_registry
from world.mods.sounds import (
    MAX_SOUND_FILE_BYTES,
    SoundFiles,
    check_sound_file,
    load_sounds,
    sound_folder,
)
from world.shipped import sounds_dir

GEMS = """
    from world.blocks import BlockType, SoundGroup
    from world.base.sounds import STONE_SOUNDS
    from world.hooks import hookimpl

    CLINK = SoundGroup(dug="gems:clink", place="gems:clink", step="base:stone_step")

    @hookimpl
    def register_blocks(registry):
        registry.register(BlockType("gems:ruby", sounds=CLINK))
        registry.register(BlockType("gems:opal", sounds=STONE_SOUNDS))
        registry.register(BlockType("gems:glass", sounds=SoundGroup(dug="gems:shatter")))
        registry.register(BlockType("gems:bell", sounds=SoundGroup(dug="gems:bell")))
        registry.register(BlockType("gems:gong", sounds=SoundGroup(dug="gems:gong")))
"""


def write_wav(path: Path, frames: int = 2205) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes(b"\x10\x00" * frames)


@pytest.fixture
def gems(tmp_path: Path) -> Path:
    folder = tmp_path / "mods"
    sounds = folder / "gems" / "sounds"
    sounds.mkdir(parents=True)
    (folder / "gems" / "__init__.py").write_text(textwrap.dedent(GEMS))
    write_wav(sounds / "gems_clink1.wav")
    write_wav(sounds / "gems_clink.wav")
    (sounds / "gems_clink2.ogg").write_bytes(b"OggS" + bytes(60))
    write_wav(sounds / "gems_clinking.wav")  # another name's file: not a variation
    (sounds / "gems_bell.wav").write_bytes(b"RIFF but not a wave at all")
    (sounds / "gems_gong.ogg").write_bytes(b"ID3 an mp3 named .ogg")
    return folder


def load(folder: Path) -> tuple[Mods, SoundFiles]:
    mods = load_mods([folder], entry_points=False, game=GAME)
    registry = make_registry(mods)
    assert mods.errors == []
    return mods, load_sounds(registry, mods)


def test_a_sound_name_plays_the_mods_files_the_plain_one_first_then_the_numbered(gems):
    _, files = load(gems)
    folder = gems / "gems" / "sounds"
    assert files.files("gems:clink") == (
        folder / "gems_clink.wav",
        folder / "gems_clink1.wav",
        folder / "gems_clink2.ogg",
    )
    assert files.files("gems:clinking") == (folder / "gems_clinking.wav",)
    assert files.files("base:stone_step")[0].parent == sounds_dir()  # a base group's, shipped
    assert files.files("gems:nothing") == () and files.files("nomod:ding") == ()


def test_a_blocks_missing_or_unplayable_sound_file_is_the_mods_error_naming_the_file(gems):
    mods, _ = load(gems)
    errors = {error.message: error for error in mods.errors}
    assert {(e.mod, e.where) for e in mods.errors} == {("gems", "sounds")}
    assert len(errors) == 3, errors
    missing = next(m for m in errors if "gems:shatter" in m)
    assert "block 'gems:glass'" in missing
    assert str(gems / "gems" / "sounds" / "gems_shatter.wav") in missing
    bell = next(m for m in errors if "gems_bell.wav" in m)
    assert "not a readable PCM WAV" in bell
    gong = next(m for m in errors if "gems_gong.ogg" in m)
    assert "not an Ogg stream" in gong
    assert "mod 'gems' failed in sounds: sound 'gems:shatter'" in str(errors[missing])


def test_a_mod_with_no_sounds_folder_misses_every_own_sound_and_says_where(tmp_path):
    (tmp_path / "gems").mkdir()
    (tmp_path / "gems" / "__init__.py").write_text(textwrap.dedent(GEMS))
    mods, files = load(tmp_path)
    messages = [error.message for error in mods.errors]
    assert any(str(tmp_path / "gems" / "sounds" / "gems_clink.wav") in m for m in messages)
    assert "no loaded mod 'nomod' has a sound folder" in files.missing("nomod:ding")


def test_a_plugin_names_its_own_folder_and_a_single_file_mod_uses_the_folder_beside_it(tmp_path):
    named = types.SimpleNamespace(sound_folder=tmp_path / "here")
    assert sound_folder(named) == tmp_path / "here"
    module = types.SimpleNamespace(__file__=str(tmp_path / "mods" / "bells.py"))
    assert sound_folder(module) == tmp_path / "mods" / "sounds"
    assert sound_folder(object()) is None
    assert sound_folder(GAME[0][1]) == sounds_dir()


def test_a_file_is_checked_by_its_header_and_size_only(tmp_path):
    good = tmp_path / "a_b.wav"
    write_wav(good)
    assert check_sound_file(good) is None
    huge = tmp_path / "a_huge.ogg"
    with huge.open("wb") as out:
        out.write(b"OggS")
        out.truncate(MAX_SOUND_FILE_BYTES + 1)
    assert "larger than" in str(check_sound_file(huge))
    wide = tmp_path / "a_wide.wav"
    with wave.open(str(wide), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(4)
        out.setframerate(22050)
        out.writeframes(bytes(40))
    assert "32-bit" in str(check_sound_file(wide))
    assert "cannot be read" in str(check_sound_file(tmp_path / "a_gone.wav"))
