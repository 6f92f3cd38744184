"""Seeded hashing and coherent noise for world generation, whole arrays at a time.

Everything here is a pure function of its integer inputs and a 32-bit salt, computed with numpy
integer and float operations whose results do not depend on the platform's libm (the gradient
table is rounded), so a seed gives the same world on every machine. Hashes wrap modulo 2³².

- `stream_salt(seed, stream)`: an independent 32-bit salt per use of the seed (height, trees...).
- `hash2(ix, iz, salt)`: a uint32 per integer lattice point; `unit` maps it to [0, 1).
- `fractal_noise(x, z, salt, octaves)`: 2-D gradient (Perlin) noise summed over octaves, about
  ±0.5, all octaves in one numpy pass.
- `fractal_noise3(x, y, z, salt, octaves)`: the same in 3-D (Perlin's improved noise: the 12
  cube-edge gradients, whose integer components need no rounding), about ±0.5; the caves' noise.

Why our own and not a library: measured per 16×16 column, this is 218 µs against 69 µs for
pyfastnoiselite (a compiled float32 dependency, ~0.3 ms saved per new column against a 5 ms
budget) and 16 ms for opensimplex without numba; and it is bit-identical everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["fade", "fmix", "fractal_noise", "fractal_noise3", "hash2", "stream_salt", "unit"]

_U32 = np.uint32
_MASK64 = (1 << 64) - 1
# 16 gradient directions; rounded so that the table is the same whatever libm computed it.
_ANGLES = np.arange(16) * (2.0 * np.pi / 16)
_GRAD_X = np.round(np.cos(_ANGLES), 6)
_GRAD_Z = np.round(np.sin(_ANGLES), 6)
# Perlin's 3-D gradients: the 12 edges of a cube, the first four repeated to make 16 (a hash's
# low 4 bits pick one). Integers: nothing to round.
_EDGES = np.array(
    [
        (1, 1, 0),
        (-1, 1, 0),
        (1, -1, 0),
        (-1, -1, 0),
        (1, 0, 1),
        (-1, 0, 1),
        (1, 0, -1),
        (-1, 0, -1),
        (0, 1, 1),
        (0, -1, 1),
        (0, 1, -1),
        (0, -1, -1),
        (1, 1, 0),
        (-1, 1, 0),
        (0, -1, 1),
        (0, -1, -1),
    ],
    dtype=np.float64,
)
_GRAD3 = (_EDGES[:, 0].copy(), _EDGES[:, 1].copy(), _EDGES[:, 2].copy())
_KX, _KY = _U32(0x9E3779B1), _U32(0x85EBCA77)


def stream_salt(seed: int, stream: int) -> int:
    """A 32-bit hash salt from an arbitrary-size seed and a stream number (splitmix64)."""
    z = (seed * 0x9E3779B97F4A7C15 + stream * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) & 0xFFFFFFFF


def fmix(h: NDArray[np.uint32]) -> NDArray[np.uint32]:
    """MurmurHash3's 32-bit finaliser: every input bit flips about half the output bits."""
    h = h ^ (h >> _U32(16))
    h = h * _U32(0x7FEB352D)
    h = h ^ (h >> _U32(15))
    h = h * _U32(0x846CA68B)
    return h ^ (h >> _U32(16))


def hash2(ix: NDArray[np.int64], iz: NDArray[np.int64], salt: int) -> NDArray[np.uint32]:
    """A uint32 hash per integer lattice point; arrays wrap modulo 2³² (no overflow warning)."""
    kz = fmix(np.atleast_1d(iz).astype(np.uint32) ^ _U32(salt))
    return fmix((np.atleast_1d(ix).astype(np.uint32) * _U32(0x9E3779B1)) ^ kz)


def unit(h: NDArray[np.uint32]) -> NDArray[np.float64]:
    """Hashes as floats uniform in [0, 1)."""
    return (h >> _U32(8)).astype(np.float64) * (1.0 / (1 << 24))


def fade(t: NDArray[np.float64]) -> NDArray[np.float64]:
    """Perlin's quintic fade curve 6t⁵ - 15t⁴ + 10t³ on [0, 1]."""
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0)


class _Octaves(NamedTuple):
    salt_mix: NDArray[np.uint32]  # per octave, mixed into the salt
    frequency: NDArray[np.float64]
    shift_x: NDArray[np.float64]  # lattice shifts, so octaves' lattice points do not line up
    shift_z: NDArray[np.float64]
    amplitude: list[float]
    amplitude_sum: float


@cache
def _octave_tables(octaves: int) -> _Octaves:
    """Per octave (1-D, reshaped by the caller): salt mix, frequency, lattice shifts, amplitude."""
    octave = np.arange(octaves)
    amplitude = [0.5**o for o in range(octaves)]
    return _Octaves(
        (octave.astype(np.uint32) * _U32(0x632BE5AB)),
        (2.0**octave).astype(np.float64),
        (octave * 17.31).astype(np.float64),
        (octave * -9.73).astype(np.float64),
        amplitude,
        float(sum(amplitude)),
    )


def _salts(table: _Octaves, salt: int | Sequence[int], ndim: int) -> NDArray[np.uint32]:
    """Each octave's (and field's) salt, octaves on the first axis, fields on the second."""
    axes = (-1,) + (1,) * ndim
    if isinstance(salt, int | np.integer):
        return table.salt_mix.reshape(axes) ^ _U32(salt)
    fields = np.array(salt, dtype=np.uint32).reshape((1, -1) + (1,) * (ndim - 1))
    return table.salt_mix.reshape(axes) ^ fields


def fractal_noise(
    x: NDArray[np.float64], z: NDArray[np.float64], salt: int | Sequence[int], octaves: int
) -> NDArray[np.float64]:
    """Fractal 2-D gradient (Perlin) noise, about ±0.5, all octaves in one numpy pass.

    Parameters
    ----------
    x, z : ndarray of float64, broadcastable ((16, 1) and (1, 16) for a column)
        Coordinates in units of the lowest octave's lattice.
    salt : int, or a sequence of F ints
        32-bit stream salt (`stream_salt`). Several salts give several independent fields in
        one pass (the numpy calls, not the points, are most of the cost of a small sample):
        the fields are stacked on a first axis, and x and z must then carry that axis too, of
        length F or 1.
    octaves : int
        Octaves summed, each at twice the frequency and half the amplitude of the last.

    Returns
    -------
    ndarray of float64, the broadcast shape of x and z
    """
    table = _octave_tables(octaves)
    ndim = max(np.ndim(x), np.ndim(z))
    axes = (-1,) + (1,) * ndim  # octaves first
    frequency = table.frequency.reshape(axes)
    x = x[np.newaxis] * frequency + table.shift_x.reshape(axes)
    z = z[np.newaxis] * frequency + table.shift_z.reshape(axes)
    salts = _salts(table, salt, ndim)
    x0 = np.floor(x)
    z0 = np.floor(z)
    fx = x - x0
    fz = z - z0
    ix = x0.astype(np.int64).astype(np.uint32)
    iz = z0.astype(np.int64).astype(np.uint32)
    hz0 = fmix(iz ^ salts)
    hz1 = fmix((iz + _U32(1)) ^ salts)
    kx0 = ix * _U32(0x9E3779B1)
    kx1 = (ix + _U32(1)) * _U32(0x9E3779B1)
    fx1 = fx - 1.0
    fz1 = fz - 1.0
    g = fmix(kx0 ^ hz0) & _U32(15)
    d00 = _GRAD_X[g] * fx + _GRAD_Z[g] * fz
    g = fmix(kx1 ^ hz0) & _U32(15)
    d10 = _GRAD_X[g] * fx1 + _GRAD_Z[g] * fz
    g = fmix(kx0 ^ hz1) & _U32(15)
    d01 = _GRAD_X[g] * fx + _GRAD_Z[g] * fz1
    g = fmix(kx1 ^ hz1) & _U32(15)
    d11 = _GRAD_X[g] * fx1 + _GRAD_Z[g] * fz1
    ux = fade(fx)
    near = d00 + ux * (d10 - d00)
    far = d01 + ux * (d11 - d01)
    layers = near + fade(fz) * (far - near)
    # Summed one octave at a time (not np.sum) so the order of additions never depends on shape.
    total: NDArray[np.float64] = layers[0]
    for o in range(1, octaves):
        total = total + layers[o] * table.amplitude[o]
    return total / table.amplitude_sum


def fractal_noise3(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    z: NDArray[np.float64],
    salt: int | Sequence[int],
    octaves: int,
) -> NDArray[np.float64]:
    """Fractal 3-D gradient (Perlin) noise, about ±0.5, all octaves in one numpy pass.

    Each value depends on its own (x, y, z) and salt alone, as `fractal_noise`'s: a point gives
    the same value in any sample. The octaves' lattices are shifted as the 2-D noise's are.

    Parameters
    ----------
    x, y, z : ndarray of float64, broadcastable ((n, 1, 1), (1, m, 1), (1, 1, k) for a box)
        Coordinates in units of the lowest octave's lattice.
    salt : int, or a sequence of F ints
        32-bit stream salt (`stream_salt`). Several salts give several independent fields in
        one pass (the numpy calls, not the points, are most of the cost of a small sample):
        the fields are stacked on a first axis, and x, y and z must then carry that axis too,
        of length F or 1 (shape (F, n, 1, 1) lets each field have its own scale).
    octaves : int
        Octaves summed, each at twice the frequency and half the amplitude of the last.

    Returns
    -------
    ndarray of float64, the broadcast shape of x, y and z
    """
    table = _octave_tables(octaves)
    ndim = max(np.ndim(x), np.ndim(y), np.ndim(z))
    axes = (-1,) + (1,) * ndim  # octaves first
    frequency = table.frequency.reshape(axes)
    shift = table.shift_x.reshape(axes)
    x = x[np.newaxis] * frequency + shift
    y = y[np.newaxis] * frequency + table.shift_z.reshape(axes)
    z = z[np.newaxis] * frequency - shift
    salts = _salts(table, salt, ndim)
    x0, y0, z0 = np.floor(x), np.floor(y), np.floor(z)
    fx, fy, fz = x - x0, y - y0, z - z0
    ix = x0.astype(np.int64).astype(np.uint32)
    iy = y0.astype(np.int64).astype(np.uint32)
    iz = z0.astype(np.int64).astype(np.uint32)
    # Hash the small axes first (z, then y), the full shape only at the last mix.
    hz = (fmix(iz ^ salts), fmix((iz + _U32(1)) ^ salts))
    ky = (iy * _KY, (iy + _U32(1)) * _KY)
    kx = (ix * _KX, (ix + _U32(1)) * _KX)
    offsets = ((fx, fx - 1.0), (fy, fy - 1.0), (fz, fz - 1.0))
    gx, gy, gz = _GRAD3
    corners = {}
    for a in (0, 1):
        for b in (0, 1):
            hyz = fmix(ky[b] ^ hz[a])
            for c in (0, 1):
                # The top 4 bits of a multiply see every bit of the (mixed) key: the gradient.
                g = ((kx[c] ^ hyz) * _U32(0x27D4EB2D)) >> _U32(28)
                corners[c, b, a] = (
                    gx[g] * offsets[0][c] + gy[g] * offsets[1][b] + gz[g] * offsets[2][a]
                )
    ux, uy, uz = fade(fx), fade(fy), fade(fz)
    planes = []
    for a in (0, 1):
        near = corners[0, 0, a] + ux * (corners[1, 0, a] - corners[0, 0, a])
        far = corners[0, 1, a] + ux * (corners[1, 1, a] - corners[0, 1, a])
        planes.append(near + uy * (far - near))
    layers = planes[0] + uz * (planes[1] - planes[0])
    # The 12-edge gradients reach about ±1: halved, as the 2-D noise's ±0.5.
    total: NDArray[np.float64] = layers[0]
    for o in range(1, octaves):
        total = total + layers[o] * table.amplitude[o]
    return total * (0.5 / table.amplitude_sum)
