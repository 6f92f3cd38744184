"""Seeded hashing and noise: deterministic, in range, continuous, independent per salt."""

from __future__ import annotations

import numpy as np

from world.gen.noise import fractal_noise, fractal_noise3, hash2, stream_salt, unit


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


def box(n: int = 24, scale: float = 0.07) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    coords = (np.arange(n, dtype=np.float64) - n / 2) * scale
    return coords[:, None, None], coords[None, :, None], coords[None, None, :]


def test_3d_noise_is_deterministic_bounded_and_varies():
    x, y, z = box()
    a = fractal_noise3(x, y, z, stream_salt(3, 20), 2)
    assert a.shape == (24, 24, 24) and np.array_equal(
        a, fractal_noise3(x, y, z, stream_salt(3, 20), 2)
    )
    assert np.abs(a).max() < 1.0 and a.std() > 0.02
    assert abs(np.corrcoef(a.ravel(), fractal_noise3(x, y, z, 99, 2).ravel())[0, 1]) < 0.5


def test_3d_noise_is_continuous_and_a_point_gives_the_same_value_in_any_sample():
    x, y, z = box(scale=0.002)
    field = fractal_noise3(x, y, z, 777, 2)
    for axis in range(3):
        assert np.abs(np.diff(field, axis=axis)).max() < 0.02
    alone = fractal_noise3(x[5:6], y[:, 7:8], z, 777, 2)
    assert np.array_equal(alone[0, 0], field[5, 7])


def test_several_salts_give_the_fields_each_salt_gives_alone():
    x, y, z = box(12)
    scales = np.array([1.0, 2.0]).reshape(2, 1, 1, 1)
    both = fractal_noise3(x[None] * scales, y[None] * scales, z[None] * scales, [5, 6], 2)
    assert np.array_equal(both[0], fractal_noise3(x, y, z, 5, 2))
    assert np.array_equal(both[1], fractal_noise3(x * 2.0, y * 2.0, z * 2.0, 6, 2))
    flat = fractal_noise(x[None, :, :, 0], z[None, :, 0, :], [5, 6], 3)
    assert np.array_equal(flat[1], fractal_noise(x[:, :, 0], z[:, 0, :], 6, 3))
