"""Seeded hashing and noise: deterministic, in range, continuous, independent per salt."""

from __future__ import annotations

import numpy as np

from world.gen.noise import fractal_noise, hash2, stream_salt, unit


def grid(n: int = 64, scale: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    coords = (np.arange(n, dtype=np.float64) - n / 2) * scale
    return coords[:, None], coords[None, :]


def test_noise_is_deterministic_and_bounded():
    x, z = grid()
    a = fractal_noise(x, z, stream_salt(7, 1), 5)
    b = fractal_noise(x, z, stream_salt(7, 1), 5)
    assert a.shape == (64, 64) and np.array_equal(a, b)
    assert np.abs(a).max() < 1.0 and a.std() > 0.02


def test_noise_is_continuous_and_does_not_depend_on_the_sample_shape():
    x, z = grid(scale=0.001)
    field = fractal_noise(x, z, 12345, 4)
    assert np.abs(np.diff(field, axis=0)).max() < 0.02
    assert np.abs(np.diff(field, axis=1)).max() < 0.02
    # One column alone equals the same column inside a larger sample.
    column = fractal_noise(x[10:11], z, 12345, 4)
    assert np.array_equal(column[0], field[10])


def test_salts_give_independent_fields():
    x, z = grid()
    a = fractal_noise(x, z, stream_salt(7, 1), 5)
    b = fractal_noise(x, z, stream_salt(7, 2), 5)
    c = fractal_noise(x, z, stream_salt(8, 1), 5)
    assert abs(np.corrcoef(a.ravel(), b.ravel())[0, 1]) < 0.5
    assert abs(np.corrcoef(a.ravel(), c.ravel())[0, 1]) < 0.5
    assert len({stream_salt(s, k) for s in range(20) for k in range(5)}) == 100


def test_hashes_cover_negative_lattice_points_uniformly():
    ix = np.arange(-500, 500).repeat(100)
    iz = np.tile(np.arange(-50, 50), 1000)
    values = unit(hash2(ix, iz, 99))
    assert values.min() >= 0.0 and values.max() < 1.0
    counts, _ = np.histogram(values, bins=10, range=(0.0, 1.0))
    assert counts.min() > 0.9 * len(values) / 10
    assert not np.array_equal(hash2(ix, iz, 99), hash2(ix, iz, 100))
