"""Which files play each sound name: mods ship their own sounds, found as their textures are.

Contract
--------
- A sound named ``"mymod:ding"`` (`world.blocks.sounds.check_sound_name`) plays one of the files
  ``mymod_ding.wav``, ``mymod_ding1.wav``, ``mymod_ding2.ogg`` ... (the stem, then nothing or a
  number, then ``.wav`` or ``.ogg``) in the mod ``mymod``'s sound folder, one picked at random
  each time it plays (the variations). The folder is ``sounds/`` inside a package mod's folder,
  or the ``sounds/`` folder beside a single-file mod (``mods/sounds/`` for ``mods/mymod.py``),
  shipped by an installed mod as package data beside its module, as `world.mods.textures` finds
  textures; a plugin may name its folder itself with a ``sound_folder`` attribute (a `Path`):
  the base game's is ``assets/sounds/`` (`world.shipped.sounds_dir`, made by
  ``tools/make_sounds.py``).
- `load_sounds` (the game calls it once, after `world.mods.registration.make_registry`) finds
  the files of every sound name a registered block's `world.blocks.sounds.SoundGroup` uses, and
  records each problem as the mod's error (`world.mods.host.Mods.record`, where ``"sounds"``),
  naming the mod and the file: a name with no file (*sound 'gems:clink' of block 'gems:ruby'
  has no file: .../sounds/gems_clink.wav (or .ogg, or numbered) is missing*), a file larger than
  `MAX_SOUND_FILE_BYTES`, a ``.wav`` whose header is not a PCM WAV's, an ``.ogg`` that does not
  start as an Ogg stream. The game goes on: the sound is silent.
- `SoundFiles.files` answers any name, a block's or one a mod plays
  (`world.mods.view.ModWorld.play_sound`), with its files (empty: none; the game then records
  `SoundFiles.missing` as the playing mod's error, once). Decoding is the game's: this module
  reads headers only, so `world` stays free of audio code.
"""

from __future__ import annotations

import re
import wave
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

from world.blocks.registry import BlockRegistry

if TYPE_CHECKING:
    from world.mods.host import Mods
from world.mods.textures import folder_beside

__all__ = [
    "MAX_SOUND_FILE_BYTES",
    "SOUND_ERROR",
    "SOUND_EXTENSIONS",
    "SOUND_FOLDER",
    "SoundFiles",
    "check_sound_file",
    "find_sound_files",
    "load_sounds",
    "sound_file_stem",
    "sound_folder",
]

SOUND_FOLDER = "sounds"
SOUND_EXTENSIONS: Final = (".wav", ".ogg")
SOUND_ERROR = "sounds"  # where a sound's problem is recorded (`world.mods.host.Mods.record`)
# A block's sound is a second or two; a mod's music may be longer. A file past this is refused
# unread: a mod's file is untrusted.
MAX_SOUND_FILE_BYTES = 8 << 20
_WAV_WIDTHS = (1, 2)  # 8- or 16-bit PCM: what Panda3D's audio reads everywhere


def sound_file_stem(name: str) -> str:
    """``"mymod:ding"`` -> ``"mymod_ding"`` (the files are the stem, a number or not, ``.wav`` or
    ``.ogg``)."""
    mod, _, rest = name.partition(":")
    return f"{mod}_{rest}"


def sound_folder(plugin: object) -> Path | None:
    """A mod's sound folder: its plugin's ``sound_folder`` attribute when it has one, else
    ``sounds/`` beside its module (inside a package); None for a plugin with neither."""
    named = getattr(plugin, "sound_folder", None)
    if isinstance(named, Path):
        return named
    return folder_beside(plugin, SOUND_FOLDER)


def check_sound_file(path: Path) -> str | None:
    """What is wrong with a sound file, read as far as its header, or None when it may play."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"sound file {path} cannot be read ({exc.strerror})"
    if size > MAX_SOUND_FILE_BYTES:
        return f"sound file {path} is larger than {MAX_SOUND_FILE_BYTES} bytes"
    if path.suffix == ".ogg":
        with path.open("rb") as file:
            if file.read(4) != b"OggS":
                return f"sound file {path} is not an Ogg stream (no 'OggS' at its start)"
        return None
    try:
        with wave.open(str(path), "rb") as sound:
            width, channels, rate = sound.getsampwidth(), sound.getnchannels(), sound.getframerate()
    except (wave.Error, EOFError, OSError) as exc:
        return f"sound file {path} is not a readable PCM WAV ({exc})"
    if width not in _WAV_WIDTHS or channels not in (1, 2) or not 8000 <= rate <= 96000:
        return (
            f"sound file {path} is {8 * width}-bit, {channels} channels at {rate} Hz; "
            "sounds are 8- or 16-bit PCM, mono or stereo, 8000 to 96000 Hz"
        )
    return None


class SoundFiles:
    """The sound files of the loaded mods, by sound name (module notes).

    Parameters
    ----------
    folders : mapping of str to Path
        Each mod's sound folder by mod name (`sound_folder`); a mod not in it has no sounds.
    """

    def __init__(self, folders: Mapping[str, Path]) -> None:
        self.folders = dict(folders)
        self._listed: dict[Path, tuple[str, ...]] = {}
        self._found: dict[str, tuple[Path, ...]] = {}

    def _listing(self, folder: Path) -> tuple[str, ...]:
        listed = self._listed.get(folder)
        if listed is None:
            try:
                listed = tuple(sorted(p.name for p in folder.iterdir() if p.is_file()))
            except OSError:  # no such folder: the mod ships no sound
                listed = ()
            self._listed[folder] = listed
        return listed

    def files(self, name: str) -> tuple[Path, ...]:
        """The files of a sound name, the stem alone first, then by number; empty when it has
        none (an unknown mod, no folder, no such file)."""
        found = self._found.get(name)
        if found is not None:
            return found
        mod = name.partition(":")[0]
        folder = self.folders.get(mod)
        if folder is None:
            found = ()
        else:
            pattern = re.compile(rf"^{re.escape(sound_file_stem(name))}(\d*)\.(wav|ogg)$")
            matches = [(m, n) for n in self._listing(folder) if (m := pattern.match(n))]
            matches.sort(key=lambda item: (len(item[0][1]), item[0][1], item[1]))
            found = tuple(folder / n for _, n in matches)
        self._found[name] = found
        return found

    def missing(self, name: str, user: str = "") -> str:
        """The message for a sound name without a file, naming the file expected."""
        mod = name.partition(":")[0]
        folder = self.folders.get(mod)
        used = f" of {user}" if user else ""
        if folder is None:
            return f"sound {name!r}{used} has no file: no loaded mod {mod!r} has a sound folder"
        stem = sound_file_stem(name)
        return (
            f"sound {name!r}{used} has no file: {folder / stem}.wav "
            f"(or .ogg, or numbered: {stem}1.wav, ...) is missing"
        )


def find_sound_files(
    registry: BlockRegistry, mods: Mods
) -> tuple[SoundFiles, list[tuple[str, str]]]:
    """The loaded mods' sound files, and the problems of the sounds the registry's blocks use.

    Returns
    -------
    files : SoundFiles
    problems : list of (str, str)
        ``(mod, message)``: a block's sound name without a file (the block's mod's problem), a
        file that may not play (its mod's); each names the file. The caller records them.
    """
    folders = {mod.name: folder for mod in mods if (folder := sound_folder(mod.plugin))}
    files = SoundFiles(folders)
    problems: list[tuple[str, str]] = []
    checked: set[Path] = set()
    for block in registry:
        group = block.sounds
        if group is None:
            continue
        owner = block.name.partition(":")[0]
        for name in group.names:
            found = files.files(name)
            if not found:
                problems.append((owner, files.missing(name, f"block {block.name!r}")))
            for path in found:
                if path in checked:
                    continue
                checked.add(path)
                problem = check_sound_file(path)
                if problem is not None:
                    problems.append((name.partition(":")[0], problem))
    return files, problems


def load_sounds(registry: BlockRegistry, mods: Mods) -> SoundFiles:
    """`find_sound_files`, each problem recorded as its mod's error (where ``"sounds"``); never
    raises for a mod's file."""
    files, problems = find_sound_files(registry, mods)
    for mod, message in problems:
        mods.record(mod, SOUND_ERROR, ValueError(message), traceback=False)
    return files
