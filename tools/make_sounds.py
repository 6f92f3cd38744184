"""Synthesise the base game's block sounds, ``assets/sounds/``: ``python -m tools.make_sounds``.

Every sound is made here from noise and sine waves (numpy), shaped by envelopes and filters: stone
clicks and grit, wood knocks, gravel and snow crunches (many tiny grains), a grass rustle, a sand
hiss, a glass tinkle (high ringing shards), a cloth thud, a metal ping (inharmonic partials), a
water splash with bubbles and a swim stroke. Each name of `RECIPES` (``"base:stone_break"``) gets
a few variations, ``base_stone_break1.wav`` ... (`world.mods.sounds`: the game picks one at random
each time), 16-bit mono WAV at `RATE` written with the standard library's ``wave``, peak-normalised
to `PEAK_DBFS`. The names are the ones the base game's groups use (`world.base.sounds`).

Each file draws from its own generator seeded by its file name, so the output is the same on
every run and machine and adding a sound changes no other. ``--check`` compares the committed
files with a fresh synthesis: the same files, the same format and length, every sample within one
step (numpy's ``sin``/``exp`` may differ in the last bit between builds, which can move a rounding
by one step, never more).
"""

from __future__ import annotations

import argparse
import sys
import wave
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from world.mods.sounds import sound_file_stem
from world.shipped import sounds_dir

__all__ = ["PEAK_DBFS", "RATE", "RECIPES", "main", "synthesise", "variations"]

RATE = 22050  # Hz: the sounds hold nothing above 10 kHz that a player would miss, at half the size
PEAK_DBFS = -1.0
_PEAK = 32767 * 10 ** (PEAK_DBFS / 20)
Samples = NDArray[np.float64]
Rng = np.random.Generator


# -- building blocks ------------------------------------------------------------------------------


def _n(seconds: float) -> int:
    return round(seconds * RATE)


def _time(n: int) -> Samples:
    return np.arange(n) / RATE


def _noise(rng: Rng, n: int) -> Samples:
    return rng.random(n) * 2.0 - 1.0


def _lowpass(x: Samples, cutoff: float, taps: int = 63) -> Samples:
    """A windowed-sinc low-pass filter (linear phase: the sound keeps its place in time)."""
    k = np.arange(taps) - (taps - 1) / 2
    kernel = np.sinc(2 * cutoff / RATE * k) * np.hamming(taps)
    return np.convolve(x, kernel / kernel.sum(), mode="same")


def _highpass(x: Samples, cutoff: float) -> Samples:
    return x - _lowpass(x, cutoff)


def _bandpass(x: Samples, low: float, high: float) -> Samples:
    return _lowpass(x, high) - _lowpass(x, low)


def _envelope(n: int, at: float, attack: float, tau: float) -> Samples:
    """Silence until ``at`` seconds, a linear rise over ``attack``, then an exponential decay."""
    t = _time(n) - at
    rise = np.clip(t / max(attack, 1.0 / RATE), 0.0, 1.0)
    fall = np.exp(-np.clip(t - attack, 0.0, None) / tau)
    return np.where(t >= 0.0, rise * fall, 0.0)


def _ring(n: int, freq: float, tau: float, at: float = 0.0, attack: float = 0.001) -> Samples:
    """A damped sine: a struck mode of a board, a bar or a shard."""
    t = _time(n) - at
    return np.sin(2 * np.pi * freq * np.clip(t, 0.0, None)) * _envelope(n, at, attack, tau)


def _struck(
    n: int, base: float, partials: tuple[tuple[float, float, float], ...], at: float = 0.0
) -> Samples:
    """Several modes struck together: (ratio to ``base``, amplitude, decay) each."""
    return sum((amp * _ring(n, base * ratio, tau, at) for ratio, amp, tau in partials), np.zeros(n))


def _grains(
    rng: Rng, n: int, count: int, spread: float, low: float, high: float, tau: float
) -> Samples:
    """``count`` tiny clicks of band-passed noise, scattered over ``spread`` seconds, loudest
    first: the crunch of gravel or snow, the tick of sand."""
    impulses = np.zeros(n)
    where = np.minimum((rng.random(count) ** 1.6 * spread * RATE).astype(np.int64), n - 1)
    np.add.at(impulses, where, rng.random(count) * 0.7 + 0.3)
    grain = _noise(rng, _n(0.004)) * np.exp(-_time(_n(0.004)) / 0.0012)
    return _bandpass(np.convolve(impulses, grain)[:n], low, high) * _envelope(n, 0.0, 0.0, tau)


def _flutter(rng: Rng, n: int, step: float) -> Samples:
    """A slow random amplitude in [0.2, 1], a new level every ``step`` seconds, linearly joined:
    leaves and blades brushing past each other."""
    points = rng.random(int(n / (step * RATE)) + 2) * 0.8 + 0.2
    return np.interp(np.arange(n) / (step * RATE), np.arange(len(points)), points)


def _chirp(n: int, freq: float, at: float, length: float, rise: float = 0.6) -> Samples:
    """A bubble: a short sine gliding up by ``rise`` of its frequency over ``length`` seconds."""
    t = np.clip(_time(n) - at, 0.0, None)
    phase = 2 * np.pi * freq * (t + rise * t * t / (2 * length))
    return np.sin(phase) * _envelope(n, at, 0.002, length / 2.5)


# -- the materials --------------------------------------------------------------------------------


def stone_break(rng: Rng, n: int) -> Samples:
    """Three sharp clicks of stone on stone and a gritty tail."""
    x = _bandpass(_noise(rng, n), 700, 4500) * _envelope(n, 0.0, 0.002, 0.035) * 0.5
    for at, amp in (
        (0.0, 1.0),
        (0.01 + rng.random() * 0.03, 0.6),
        (0.045 + rng.random() * 0.04, 0.4),
    ):
        x += (
            _highpass(_noise(rng, n), 1200)
            * _envelope(n, at, 0.0005, 0.006 + rng.random() * 0.006)
            * amp
        )
    return x + _ring(n, 120 + rng.random() * 60, 0.02) * 0.3


def stone_step(rng: Rng, n: int) -> Samples:
    """One click and a little grit."""
    x = _highpass(_noise(rng, n), 1000 + rng.random() * 600) * _envelope(n, 0.0, 0.0005, 0.008)
    x += _bandpass(_noise(rng, n), 600, 3500) * _envelope(n, 0.002, 0.002, 0.02) * 0.4
    return x + _ring(n, 140 + rng.random() * 40, 0.015) * 0.3


def wood_break(rng: Rng, n: int) -> Samples:
    """A hollow knock (a board's modes) with a crack, and a smaller second knock."""
    partials = ((1.0, 1.0, 0.05), (2.3, 0.5, 0.03), (3.9, 0.25, 0.02))
    base = 170 + rng.random() * 70
    x = (
        _struck(n, base, partials)
        + _struck(n, base * 1.07, partials, 0.03 + rng.random() * 0.03) * 0.5
    )
    return x + _lowpass(_noise(rng, n), 2500) * _envelope(n, 0.0, 0.0005, 0.015) * 0.7


def wood_step(rng: Rng, n: int) -> Samples:
    """A short knock."""
    x = _struck(n, 200 + rng.random() * 80, ((1.0, 1.0, 0.03), (2.6, 0.4, 0.015)))
    return x + _lowpass(_noise(rng, n), 1800) * _envelope(n, 0.0, 0.0005, 0.01) * 0.5


def gravel_break(rng: Rng, n: int) -> Samples:
    """A crunch: many small stones grinding, over a rough bed of noise."""
    x = _grains(rng, n, 70, 0.15, 500, 5000, 0.08)
    return x + _bandpass(_noise(rng, n), 300, 3000) * _envelope(n, 0.0, 0.004, 0.05) * 0.15


def gravel_step(rng: Rng, n: int) -> Samples:
    """A short crunch."""
    x = _grains(rng, n, 28, 0.07, 500, 5000, 0.04)
    return x + _bandpass(_noise(rng, n), 300, 3000) * _envelope(n, 0.0, 0.003, 0.025) * 0.15


def grass_break(rng: Rng, n: int) -> Samples:
    """A rustle: bright noise brushed in and out, with a few snapping blades."""
    x = _bandpass(_noise(rng, n), 1800, 8000) * _flutter(rng, n, 0.012)
    x *= _envelope(n, 0.0, 0.01, 0.06)
    return x + _grains(rng, n, 12, 0.08, 2000, 7000, 0.05) * 0.5


def grass_step(rng: Rng, n: int) -> Samples:
    """A short rustle."""
    x = _bandpass(_noise(rng, n), 1500, 7000) * _flutter(rng, n, 0.01)
    return x * _envelope(n, 0.0, 0.008, 0.03)


def sand_break(rng: Rng, n: int) -> Samples:
    """A soft hiss of pouring grains."""
    x = _highpass(_noise(rng, n), 2500) * _envelope(n, 0.0, 0.015, 0.06)
    return x + _grains(rng, n, 30, 0.1, 1500, 6000, 0.06) * 0.4


def sand_step(rng: Rng, n: int) -> Samples:
    """A short hiss."""
    x = _highpass(_noise(rng, n), 2200) * _envelope(n, 0.0, 0.01, 0.03)
    return x + _grains(rng, n, 12, 0.05, 1500, 6000, 0.03) * 0.4


def glass_break(rng: Rng, n: int) -> Samples:
    """A crash and a tinkle: shards ringing high, one after another."""
    x = _highpass(_noise(rng, n), 3000) * _envelope(n, 0.0, 0.0005, 0.02) * 0.8
    for _ in range(int(rng.integers(6, 10))):
        freq = 2500 + rng.random() * 4000
        at = rng.random() ** 1.5 * 0.1
        x += _ring(n, freq, 0.03 + rng.random() * 0.05, at) * (0.2 + rng.random() * 0.3)
    return x


def cloth_break(rng: Rng, n: int) -> Samples:
    """A dull thud."""
    x = _lowpass(_noise(rng, n), 500 + rng.random() * 200) * _envelope(n, 0.0, 0.004, 0.03)
    return x + _ring(n, 80 + rng.random() * 30, 0.03) * 0.5


def cloth_step(rng: Rng, n: int) -> Samples:
    """A soft short thud."""
    x = _lowpass(_noise(rng, n), 450 + rng.random() * 150) * _envelope(n, 0.0, 0.003, 0.018)
    return x + _ring(n, 90 + rng.random() * 30, 0.02) * 0.4


def snow_break(rng: Rng, n: int) -> Samples:
    """A muffled crunch."""
    x = _grains(rng, n, 45, 0.1, 300, 2500, 0.07)
    return x + _lowpass(_noise(rng, n), 1500) * _envelope(n, 0.0, 0.005, 0.04) * 0.3


def snow_step(rng: Rng, n: int) -> Samples:
    """A short muffled crunch."""
    x = _grains(rng, n, 18, 0.06, 300, 2500, 0.04)
    return x + _lowpass(_noise(rng, n), 1500) * _envelope(n, 0.0, 0.004, 0.02) * 0.3


_BAR = ((1.0, 1.0, 0.12), (2.76, 0.6, 0.08), (5.40, 0.35, 0.05), (8.93, 0.2, 0.03))


def metal_break(rng: Rng, n: int) -> Samples:
    """A ping: a struck bar's inharmonic partials ringing on, after a click."""
    x = _struck(n, 520 + rng.random() * 180, _BAR)
    return x + _highpass(_noise(rng, n), 2000) * _envelope(n, 0.0, 0.0005, 0.004) * 0.6


def metal_step(rng: Rng, n: int) -> Samples:
    """A short clank."""
    x = _struck(n, 300 + rng.random() * 120, tuple((r, a, t / 3) for r, a, t in _BAR[:3]))
    return x + _highpass(_noise(rng, n), 2000) * _envelope(n, 0.0, 0.0005, 0.004) * 0.6


def _bubbles(rng: Rng, n: int, count: int, start: float, spread: float) -> Samples:
    x = np.zeros(n)
    for _ in range(count):
        at = start + rng.random() * spread
        x += _chirp(n, 500 + rng.random() * 1000, at, 0.02 + rng.random() * 0.02) * 0.25
    return x


def water_splash(rng: Rng, n: int) -> Samples:
    """A splash: a broad burst of spray, a darker wash after it, and bubbles."""
    x = _bandpass(_noise(rng, n), 300, 6000) * _envelope(n, 0.0, 0.008, 0.12)
    x += _lowpass(_noise(rng, n), 1500) * _envelope(n, 0.03, 0.02, 0.2) * 0.3
    return x + _bubbles(rng, n, int(rng.integers(6, 11)), 0.05, 0.3)


def water_swim(rng: Rng, n: int) -> Samples:
    """A stroke: water swished aside, swelling and fading, with a bubble or two."""
    t = _time(n) / (n / RATE)
    swell = (t * (1.0 - t)) ** 1.5 * 5.2
    x = _lowpass(_noise(rng, n), 900 + rng.random() * 500) * swell * _flutter(rng, n, 0.03)
    return x + _bubbles(rng, n, int(rng.integers(1, 4)), 0.05, 0.15) * 0.6


Synth = Callable[[Rng, int], Samples]
RECIPES: dict[str, tuple[float, int, Synth]] = {
    # name: (seconds, variations, synthesiser). Breaks and places a little longer than steps.
    "base:stone_break": (0.13, 3, stone_break),
    "base:stone_step": (0.07, 3, stone_step),
    "base:wood_break": (0.15, 3, wood_break),
    "base:wood_step": (0.08, 3, wood_step),
    "base:gravel_break": (0.16, 3, gravel_break),
    "base:gravel_step": (0.08, 3, gravel_step),
    "base:grass_break": (0.15, 3, grass_break),
    "base:grass_step": (0.08, 3, grass_step),
    "base:sand_break": (0.15, 3, sand_break),
    "base:sand_step": (0.08, 3, sand_step),
    "base:glass_break": (0.25, 3, glass_break),
    "base:cloth_break": (0.12, 3, cloth_break),
    "base:cloth_step": (0.07, 3, cloth_step),
    "base:snow_break": (0.14, 3, snow_break),
    "base:snow_step": (0.08, 3, snow_step),
    "base:metal_break": (0.25, 3, metal_break),
    "base:metal_step": (0.08, 3, metal_step),
    "base:water_splash": (0.45, 3, water_splash),
    "base:water_swim": (0.25, 3, water_swim),
}
"""Every sound the base game ships: the names `world.base.sounds`' groups use."""


def variations(name: str) -> list[str]:
    """The file names of a sound's variations: ``base_stone_break1.wav``, ..."""
    count = RECIPES[name][1]
    return [f"{sound_file_stem(name)}{i}.wav" for i in range(1, count + 1)]


def synthesise(file_name: str) -> NDArray[np.int16]:
    """One variation's samples, from a generator seeded by its file name: shaped (a 1 ms fade in,
    an 8 ms fade out: no click at either end), normalised to `PEAK_DBFS`, as 16-bit integers."""
    stem = file_name.removesuffix(".wav").rstrip("0123456789")
    name = next(n for n in RECIPES if sound_file_stem(n) == stem)
    seconds, _, synth = RECIPES[name]
    n = _n(seconds)
    x = synth(np.random.default_rng(zlib.crc32(file_name.encode())), n)
    x *= np.clip(np.arange(n) / _n(0.001), 0.0, 1.0) * np.clip(
        (n - np.arange(n)) / _n(0.008), 0.0, 1.0
    )
    peak = float(np.abs(x).max())
    return np.rint(x * (_PEAK / peak)).astype(np.int16)


def write_wav(path: Path, samples: NDArray[np.int16]) -> None:
    """16-bit mono PCM at `RATE`."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples.astype("<i2").tobytes())


def read_wav(path: Path) -> NDArray[np.int16] | None:
    """A 16-bit mono WAV at `RATE`'s samples, or None for any other file."""
    try:
        with wave.open(str(path), "rb") as sound:
            if (sound.getnchannels(), sound.getsampwidth(), sound.getframerate()) != (1, 2, RATE):
                return None
            return np.frombuffer(sound.readframes(sound.getnframes()), dtype="<i2").astype(np.int16)
    except (wave.Error, EOFError, OSError):
        return None


def _same_sound(path: Path, samples: NDArray[np.int16]) -> bool:
    found = read_wav(path)
    if found is None or found.shape != samples.shape:
        return False
    return int(np.abs(found.astype(np.int32) - samples.astype(np.int32)).max(initial=0)) <= 1


def main(argv: list[str] | None = None) -> int:
    """Write the sounds, or with ``--check`` compare the committed ones with a fresh synthesis."""
    parser = argparse.ArgumentParser(prog="python -m tools.make_sounds", description=__doc__)
    parser.add_argument(
        "--output", type=Path, default=sounds_dir(), help="folder to write or check"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a committed sound differs from a fresh synthesis, or is missing or extra",
    )
    args = parser.parse_args(argv)
    folder: Path = args.output
    files = [file for name in RECIPES for file in variations(name)]
    if args.check:
        stale = [file for file in files if not _same_sound(folder / file, synthesise(file))]
        extra = sorted({p.name for p in folder.glob("*.wav")} - set(files))
        for file in files:
            state = "differs from a fresh synthesis" if file in stale else "up to date"
            print(f"{folder / file}: {state}")
        for file in extra:
            print(f"{folder / file}: made by no recipe (remove it)")
        return 1 if stale or extra else 0
    folder.mkdir(parents=True, exist_ok=True)
    for file in files:
        write_wav(folder / file, synthesise(file))
    size = sum((folder / file).stat().st_size for file in files)
    print(f"wrote {len(files)} sounds to {folder} ({size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
