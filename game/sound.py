"""The game's sounds: the world's (`world.rules.Rules.pop_sounds`), the player's footsteps, digging
and splashes, heard through the engine's audio or, with no device, only recorded.

Contract
--------
- `Sounds.play` plays one `world.blocks.sounds.SoundEvent` for the listener (`Sounds.listen`: the
  eye and its yaw): its gain times the distance's attenuation (Minecraft's: linear, to nothing
  at the event's ``max_distance``) times the volumes (`set_volumes`: master and blocks, percent;
  0 is off), its pitch times a small random variation (`PITCH_VARIATION`), one of the name's
  files at random (`world.mods.sounds.SoundFiles`: ``base_stone_break1.wav`` ...), panned by
  where it lies from the listener's facing. Every sound played is recorded (`played`, the last
  `RECORDED`), with a device or without: scripts and tests assert on what would have been heard.
  Out of range or muted, nothing is recorded nor heard.
- `open_audio` gives the engine's OpenAL audio manager for a window, quiet (OpenAL's log and
  Panda3D's audio notices off: a machine without a sound device starts without a word about
  audio), or None: headless runs (tests, ``--screenshot``, ``--script``) and machines without a
  device only record.
- The player's own sounds (`PlayerSounds.update`, each frame): a footstep every `STEP_DISTANCE`
  blocks walked on the ground (Minecraft's rhythm: its ``moveDist`` grows by 0.6 of the
  distance, a step at each whole), the block under the feet's ``step``; none while flying or
  sneaking. In liquid a swim stroke (its ``step``) every `SWIM_DISTANCE` blocks moved, and a
  splash (its ``fall``) on entering it. While a survival player digs, the block's ``dig`` sound
  every `DIG_INTERVAL` (Minecraft's every 4 game ticks), from the first hit.
"""

from __future__ import annotations

import math
import os
import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from world.blocks.sounds import SoundEvent, block_centre
from world.geometry import Vec3
from world.mods.sounds import SoundFiles
from world.voxels.chunks import World

__all__ = [
    "DIG_INTERVAL",
    "MAX_PLAYING",
    "PITCH_VARIATION",
    "RECORDED",
    "STEP_DISTANCE",
    "SWIM_DISTANCE",
    "PlayedSound",
    "PlayerSounds",
    "Sounds",
    "open_audio",
]

RECORDED = 1024  # the last sounds played, kept for scripts and tests
MAX_PLAYING = 32  # sounds heard at once; a new one past this is recorded, not heard
PITCH_VARIATION = 0.05  # each play's pitch times 1 ± this at most
STEP_DISTANCE = 1.0 / 0.6  # blocks walked between footsteps (Minecraft's moveDist × 0.6)
SWIM_DISTANCE = 2.5  # blocks swum between strokes
DIG_INTERVAL = 0.2  # seconds between digging hits (4 game ticks)
SPLASH_SPEED = 2.0  # blocks/s down or faster entering liquid: a splash


@dataclass(frozen=True)
class PlayedSound:
    """A sound as played: its name, where, the gain heard (attenuated, with the volumes), its
    pitch, the file chosen (None: the name has none), and whether the engine played it."""

    name: str
    pos: Vec3
    gain: float
    pitch: float
    file: Path | None
    heard: bool


def open_audio(*, headless: bool) -> Any:
    """The engine's audio manager for a window, or None (headless, or no sound device): of the
    audio library `game.engine.start` chose (OpenAL in a window), quiet."""
    if headless:
        return None
    from panda3d.core import AudioManager

    from game.engine import without_noise

    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")  # OpenAL Soft says nothing of missing devices
    with without_noise():  # nor ALSA, probed by OpenAL on a machine with a broken sound card
        manager = AudioManager.createAudioManager()
    return manager if manager.isValid() else None


class Sounds:
    """The sounds of one game (module notes).

    Parameters
    ----------
    files : SoundFiles
        Where each sound name's files are (`world.mods.sounds.load_sounds`).
    manager : panda3d.core.AudioManager or None
        The engine's audio (`open_audio`); None records only.
    seed : int, optional
        Makes the variations and pitches reproducible (tests).
    """

    def __init__(self, files: SoundFiles, manager: Any = None, seed: int | None = None) -> None:
        self.files = files
        self.manager = manager
        self.played: deque[PlayedSound] = deque(maxlen=RECORDED)
        self.total = 0  # sounds played since the start (the record keeps the last RECORDED)
        self._taken = 0  # `total` when `take_played` last looked
        self.master = 1.0
        self.blocks = 1.0
        self._random = random.Random(seed)
        self._eye: Vec3 = (0.0, 0.0, 0.0)
        self._right = (1.0, 0.0)
        self._playing: list[Any] = []

    def set_volumes(self, master: int, blocks: int) -> None:
        """The volumes in percent (0..100; 0 is off)."""
        self.master = min(max(master, 0), 100) / 100.0
        self.blocks = min(max(blocks, 0), 100) / 100.0

    def listen(self, eye: Iterable[float], yaw: float) -> None:
        """Where the listener is and faces (Minecraft's yaw: 0 south, 90 west)."""
        x, y, z = eye
        self._eye = (float(x), float(y), float(z))
        radians = math.radians(yaw)
        self._right = (-math.cos(radians), -math.sin(radians))  # facing north, east is right

    def play(self, event: SoundEvent) -> PlayedSound | None:
        """Play one sound (module notes); what was played, or None (too far or muted)."""
        dx, dy, dz = (a - b for a, b in zip(event.pos, self._eye, strict=True))
        distance = math.sqrt(dx * dx + dy * dy + dz * dz)
        gain = event.gain * max(0.0, 1.0 - distance / event.max_distance)
        gain *= self.master * self.blocks
        if gain <= 0.0:
            return None
        variation = 1.0 + self._random.uniform(-PITCH_VARIATION, PITCH_VARIATION)
        pitch = min(max(event.pitch * variation, 0.5), 2.0)
        choices = self.files.files(event.name)
        file = self._random.choice(choices) if choices else None
        heard = False
        if self.manager is not None and file is not None and len(self._playing) < MAX_PLAYING:
            heard = self._hear(file, min(gain, 1.0), pitch, _balance(dx, dz, self._right))
        played = PlayedSound(event.name, event.pos, gain, pitch, file, heard)
        self.played.append(played)
        self.total += 1
        return played

    def _hear(self, file: Path, gain: float, pitch: float, balance: float) -> bool:
        from panda3d.core import AudioSound, Filename

        sound = self.manager.getSound(Filename.fromOsSpecific(str(file)), False)
        if sound is None or sound.length() <= 0.0:
            return False
        sound.setVolume(gain)
        sound.setPlayRate(pitch)
        sound.setBalance(balance)
        sound.play()
        if sound.status() == AudioSound.PLAYING:
            self._playing.append(sound)
        return True

    def update(self) -> None:
        """Once a frame: the engine's audio moves on, finished sounds are let go."""
        if self.manager is None:
            return
        from panda3d.core import AudioSound

        self.manager.update()
        self._playing = [s for s in self._playing if s.status() == AudioSound.PLAYING]

    def take_played(self) -> list[str]:
        """The names of the sounds played since the last call (a script's ``expect_sound``)."""
        names = self.names(since=self._taken)
        self._taken = self.total
        return names

    def names(self, since: int = 0) -> list[str]:
        """The names of the sounds recorded, oldest first; those played after the first
        ``since`` of the game's (`total`), as far as the record reaches."""
        newer = min(max(self.total - since, 0), len(self.played))
        return [played.name for played in list(self.played)[len(self.played) - newer :]]


def _balance(dx: float, dz: float, right: tuple[float, float]) -> float:
    """-1 (left) .. 1 (right): where a sound lies from the listener's facing, horizontally."""
    length = math.hypot(dx, dz)
    if length < 1e-9:
        return 0.0
    return max(-1.0, min(1.0, (dx * right[0] + dz * right[1]) / length))


class PlayerSounds:
    """The sounds the player makes: footsteps, swimming, splashes, digging (module notes)."""

    def __init__(self, sounds: Sounds, world: World) -> None:
        self.sounds = sounds
        self.world = world
        self._last: Vec3 | None = None
        self._walked = 0.0
        self._swum = 0.0
        self._wet = False
        self._dig_target: object = None
        self._next_hit = 0.0

    def update(
        self,
        feet: Vec3,
        *,
        on_ground: bool,
        flying: bool,
        sneaking: bool,
        depth: float,
        falling_speed: float,
    ) -> None:
        """The body's frame: its feet, on the ground or not, flying, sneaking, how deep in
        liquid, and how fast it falls (blocks/s, > 0 down)."""
        last, self._last = self._last, feet
        if last is None:
            self._wet = depth > 0.0
            return
        dx, dy, dz = (a - b for a, b in zip(feet, last, strict=True))
        if abs(dx) + abs(dy) + abs(dz) > 8.0:  # a teleport is no walk
            self._walked = self._swum = 0.0
            self._wet = depth > 0.0
            return
        if depth > 0.0 and not flying:
            if not self._wet:  # in: a splash when it came fast; strokes count from here
                if falling_speed >= SPLASH_SPEED:
                    self._liquid_sound(feet, "fall")
                self._swum = 0.0
            else:
                self._swum += math.sqrt(dx * dx + dy * dy + dz * dz)
            if self._swum >= SWIM_DISTANCE:
                self._swum -= SWIM_DISTANCE
                self._liquid_sound(feet, "step")
            self._walked = 0.0
        elif on_ground and not flying and not sneaking:
            self._walked += math.hypot(dx, dz)
            if self._walked >= STEP_DISTANCE:
                self._walked -= STEP_DISTANCE
                self._step(feet)
        self._wet = depth > 0.0 and not flying

    def _step(self, feet: Vec3) -> None:
        """A footstep on the block under the feet (the one below when that one is silent: a
        plant, a carpet)."""
        x, z = math.floor(feet[0]), math.floor(feet[2])
        y = math.floor(feet[1] - 0.2)
        registry = self.world.registry
        for cell in ((x, y, z), (x, y - 1, z)):
            group = registry.sounds_of(self.world.get_block(*cell))
            if group is not None:
                event = group.event("step", block_centre(*cell))
                if event is not None:
                    self.sounds.play(event)
                return

    def _liquid_sound(self, feet: Vec3, kind: str) -> None:
        cell = (math.floor(feet[0]), math.floor(feet[1] + 0.1), math.floor(feet[2]))
        group = self.world.registry.sounds_of(self.world.get_block(*cell))
        event = None if group is None else group.event(kind, feet)
        if event is not None:
            self.sounds.play(event)

    def digging(self, target: object, elapsed: float, duration: float) -> None:
        """The break progress of this frame: a ``dig`` sound at each `DIG_INTERVAL` of it, from
        the first hit, while a block takes time to break (a survival dig)."""
        if target is None or not 0.0 < duration < math.inf or elapsed <= 0.0:
            self._dig_target = None
            return
        if target != self._dig_target:
            self._dig_target, self._next_hit = target, 0.0
        while elapsed >= self._next_hit:
            self._next_hit += DIG_INTERVAL
            x, y, z = (int(v) for v in target)  # type: ignore[attr-defined]
            group = self.world.registry.sounds_of(self.world.get_block(x, y, z))
            event = None if group is None else group.event("dig", block_centre(x, y, z))
            if event is not None:
                self.sounds.play(event)
