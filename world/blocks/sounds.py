"""Sounds as values: a block's `SoundGroup` and a `SoundEvent`, one sound played in the world.

Contract
--------
- A sound is named ``"mod:name"`` (`check_sound_name`: lower-case letters, digits and
  underscores, the last character not a digit): the name ``"mymod:ding"`` plays one of the files
  ``mymod_ding.wav``, ``mymod_ding1.wav``, ``mymod_ding2.ogg`` ... of the mod ``mymod``'s
  ``sounds/`` folder, picked at random each time (`world.mods.sounds` finds them; the base
  game's are in ``assets/sounds/``). A name may not end in a digit: those are the variations.
- `SoundGroup` is what a block sounds like (Minecraft's ``SoundType``, Luanti's node
  ``sounds``): five sound names, ``dig`` (each hit while a survival player digs it: Minecraft's
  hit sound, Luanti's ``dig``), ``dug`` (broken: Minecraft's break sound, Luanti's ``dug``;
  ``break`` is a Python keyword), ``place``, ``step`` (a footstep on it; for a liquid, a swim
  stroke in it) and ``fall`` (landing on it; for a liquid, the splash of entering it), each
  ``None`` for silence, and a ``volume`` and ``pitch`` scaling them all.
  `world.blocks.block_type.BlockType` takes one as ``sounds`` (``None``, the default, is a
  silent block, as Luanti's default; the base game's groups are in `world.base.sounds`), and
  `world.blocks.registry.BlockRegistry.sounds_of` gives a state's.
- `SoundGroup.event` turns one of the five into a `SoundEvent` at a position, with Minecraft's
  gain and pitch for that use (`PLAYED`: a break at ``(volume + 1) / 2`` and ``0.8 * pitch``,
  a step at ``0.15 * volume``, ...), clamped into the event's ranges. The rules use it for a
  done break and place (`world.actions.pipeline`); the game for digging, footsteps, splashes.
- `SoundEvent` is one sound played at a point: its name, ``pos`` (three finite numbers within
  the world), ``gain`` (0..`MAX_GAIN`: 1 is the file as recorded), ``pitch`` (`MIN_PITCH`..
  `MAX_PITCH`, a playback rate: 2 is an octave up and half as long) and ``max_distance`` (1..
  `MAX_DISTANCE` blocks; heard fading with distance, not at all beyond it). It checks its
  fields when made: a `ValueError` names the bad one. The game plays it; it may vary the pitch a
  little per play, as Minecraft and Luanti do.

This module holds values only: no file is read here (`world.mods.sounds`), and nothing plays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import world.validate as validate
from world.geometry import Vec3

__all__ = [
    "DEFAULT_DISTANCE",
    "MAX_DISTANCE",
    "MAX_GAIN",
    "MAX_PITCH",
    "MIN_PITCH",
    "PLAYED",
    "SOUND_KINDS",
    "SOUND_NAME",
    "SoundEvent",
    "SoundGroup",
    "block_centre",
    "check_sound_name",
]

SOUND_NAME = re.compile(r"^[a-z0-9_]+:[a-z0-9_]*[a-z_]$")
MAX_GAIN = 10.0
MIN_PITCH = 0.5  # an octave down, twice as long
MAX_PITCH = 2.0
MAX_DISTANCE = 256.0
DEFAULT_DISTANCE = 16.0  # Minecraft's: a sound of volume 1 is heard 16 blocks away

SOUND_KINDS: Final = ("dig", "dug", "place", "step", "fall")
# Minecraft's use of a SoundType's volume v and pitch p (1.20): gain = (v + add) * times,
# pitch = p * shift. A hit while digging (v + 1) / 8 an octave down, a break and a place
# (v + 1) / 2 at 0.8, a step 0.15 v, a fall 0.5 v at 0.75.
PLAYED: Final[dict[str, tuple[float, float, float]]] = {
    "dig": (1.0, 0.125, 0.5),
    "dug": (1.0, 0.5, 0.8),
    "place": (1.0, 0.5, 0.8),
    "step": (0.0, 0.15, 1.0),
    "fall": (0.0, 0.5, 0.75),
}


def check_sound_name(value: object, what: str = "name") -> str:
    """A sound name, ``"mod:name"`` (module notes); ``ValueError`` naming ``what`` otherwise."""
    if not isinstance(value, str) or not SOUND_NAME.match(value):
        raise ValueError(
            f"{what} must be a sound name 'mod:name' (lower-case letters, digits and "
            f"underscores, not ending in a digit: numbered files are its variations), "
            f"got {value!r}"
        )
    return value


def _in_range(value: object, what: str, low: float, high: float) -> float:
    number = validate.number(value, what)
    if not low <= number <= high:  # NaN fails too
        raise ValueError(f"{what} must be a number in [{low:g}, {high:g}], got {value!r}")
    return number


@dataclass(frozen=True)
class SoundEvent:
    """One sound played at a point of the world (module notes); checked when made.

    Parameters
    ----------
    name : str
        ``"mod:name"``.
    pos : tuple of 3 float
        Where it sounds, world units (a block's centre is ``(x + 0.5, y + 0.5, z + 0.5)``).
    gain : float
        0..`MAX_GAIN`; 1 plays the file as recorded.
    pitch : float
        `MIN_PITCH`..`MAX_PITCH`, the playback rate.
    max_distance : float
        1..`MAX_DISTANCE` blocks: how far it is heard.

    Raises
    ------
    ValueError
        Naming the bad argument (``name``, ``pos``, ``gain``, ``pitch``, ``max_distance``).
    """

    name: str
    pos: Vec3
    gain: float = 1.0
    pitch: float = 1.0
    max_distance: float = DEFAULT_DISTANCE

    def __post_init__(self) -> None:
        check_sound_name(self.name, "name")
        pos = validate.vec3(self.pos, "pos", limit=validate.WORLD_LIMIT)
        object.__setattr__(self, "pos", tuple(float(v) for v in pos))
        object.__setattr__(self, "gain", _in_range(self.gain, "gain", 0.0, MAX_GAIN))
        object.__setattr__(self, "pitch", _in_range(self.pitch, "pitch", MIN_PITCH, MAX_PITCH))
        distance = _in_range(self.max_distance, "max_distance", 1.0, MAX_DISTANCE)
        object.__setattr__(self, "max_distance", distance)


@dataclass(frozen=True)
class SoundGroup:
    """What a block sounds like: a sound name (or None, silent) per use, a volume and a pitch.

    Parameters
    ----------
    dig : str or None
        Each hit while a survival player digs the block (Minecraft's hit, Luanti's ``dig``).
    dug : str or None
        The block broken (Minecraft's break, Luanti's ``dug``).
    place : str or None
        The block placed.
    step : str or None
        A footstep on the block; in a liquid, a swim stroke.
    fall : str or None
        Landing on the block; into a liquid, the splash.
    volume : float
        (0, `MAX_GAIN`]: Minecraft's ``SoundType`` volume, 1 for every base group.
    pitch : float
        [`MIN_PITCH`, `MAX_PITCH`]: Minecraft's ``SoundType`` pitch.

    Raises
    ------
    ValueError
        Naming the field and its value.
    """

    dig: str | None = None
    dug: str | None = None
    place: str | None = None
    step: str | None = None
    fall: str | None = None
    volume: float = 1.0
    pitch: float = 1.0

    def __post_init__(self) -> None:
        for kind in SOUND_KINDS:
            value = getattr(self, kind)
            if value is not None:
                check_sound_name(value, kind)
        volume = validate.number(self.volume, "volume")
        if not 0.0 < volume <= MAX_GAIN:
            raise ValueError(f"volume must be in (0, {MAX_GAIN:g}], got {self.volume!r}")
        object.__setattr__(self, "volume", volume)
        object.__setattr__(self, "pitch", _in_range(self.pitch, "pitch", MIN_PITCH, MAX_PITCH))

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct sound names the group uses, in `SOUND_KINDS` order."""
        found = (getattr(self, kind) for kind in SOUND_KINDS)
        return tuple(dict.fromkeys(name for name in found if name is not None))

    def event(
        self, kind: str, pos: Vec3, *, max_distance: float = DEFAULT_DISTANCE
    ) -> SoundEvent | None:
        """The ``kind`` sound (one of `SOUND_KINDS`) at ``pos`` with Minecraft's gain and pitch
        for that use (`PLAYED`), clamped into `SoundEvent`'s ranges; None when it is silent.

        Raises
        ------
        ValueError
            For an unknown ``kind``, or a bad ``pos`` or ``max_distance`` (`SoundEvent`).
        """
        if kind not in PLAYED:
            raise ValueError(f"kind must be one of {', '.join(SOUND_KINDS)}, got {kind!r}")
        name: str | None = getattr(self, kind)
        if name is None:
            return None
        add, times, shift = PLAYED[kind]
        gain = min((self.volume + add) * times, MAX_GAIN)
        pitch = min(max(self.pitch * shift, MIN_PITCH), MAX_PITCH)
        return SoundEvent(name, pos, gain, pitch, max_distance)


def block_centre(wx: int, wy: int, wz: int) -> Vec3:
    """The centre of a voxel, where its block's sounds play."""
    return (wx + 0.5, wy + 0.5, wz + 0.5)
