"""Argument checks for everything that enters the core from outside, and the world's limit.

Untrusted input (the public world API, the mod-facing API, decoded saves, the command line) is
checked once, where it enters, by these functions; calls inside the core pass typed values and
are trusted. Every error is a `ValueError` (or `TypeError` for a wrong object kind) whose message
names the argument.

The world limit. Voxel coordinates on every axis lie in ``[-WORLD_LIMIT + 1, WORLD_LIMIT - 1]``
(±33,554,431, a little beyond Minecraft's ±30,000,000), and float positions (ray origins, the
player) within ``±WORLD_LIMIT``. Within it float64 positions carry 2^-27 of a block, chunk keys
and flat indices fit int64 with room to spare, and every voxel can be saved; outside it a voxel
could be set but never saved, so it is refused up front. Chunk coordinates lie within
``±CHUNK_LIMIT`` (2^22 chunks, twice the world's extent): a game streams, meshes and collides with
chunks a little beyond the world's edge (never written, so never saved), and chunk keys times the
chunk size stay far inside int64.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.geometry import Int3, Vec3

__all__ = [
    "CHUNK_LIMIT",
    "WORLD_LIMIT",
    "chunk_coord",
    "coords",
    "integer",
    "mod_name",
    "number",
    "position",
    "vec3",
    "voxel",
]

WORLD_LIMIT = 1 << 25  # |voxel coordinate| < WORLD_LIMIT on every axis; |float position| <= it
_FLOAT_MAX = sys.float_info.max
CHUNK_LIMIT = WORLD_LIMIT >> 3  # |chunk coordinate| <= CHUNK_LIMIT: twice the world's extent


def _triple(value: object) -> tuple[object, ...] | None:
    """The three items of a sequence (a tuple, list, array, `Int3`), or None for anything else."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        return None
    items = tuple(value)
    return items if len(items) == 3 else None


def mod_name(value: object, what: str) -> str:
    """A registered thing's name, ``"<mod>:<name>"`` with both parts non-empty (an item, an
    entity kind, a text prompt); ``what`` names the thing in the error."""
    if not isinstance(value, str) or value.count(":") != 1 or not all(value.split(":")):
        raise ValueError(f"{what} name must be 'mod:name', got {value!r}")
    return value


def integer(value: object, name: str) -> int:
    """``value`` as an int: a Python or numpy integer, never a bool, float or string."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def voxel(value: object, name: str) -> int:
    """An integer voxel coordinate within the world limit."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer voxel coordinate, got {value!r}")
    v = int(value)
    if not -WORLD_LIMIT < v < WORLD_LIMIT:
        raise ValueError(f"{name} is outside the world (|{name}| < {WORLD_LIMIT}), got {v}")
    return v


def chunk_coord(value: object, name: str) -> int:
    """An integer chunk coordinate within ``±CHUNK_LIMIT``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer chunk coordinate, got {value!r}")
    c = int(value)
    if not -CHUNK_LIMIT <= c <= CHUNK_LIMIT:
        raise ValueError(f"{name} is outside the world (|{name}| <= {CHUNK_LIMIT}), got {c}")
    return c


def position(value: object, name: str) -> Int3:
    """Three integer voxel coordinates within the world limit, as an `Int3`."""
    items = _triple(value)
    if items is None:
        raise ValueError(f"{name} must be 3 integer voxel coordinates, got {value!r}")
    return Int3(*(voxel(v, f"{name}.{axis}") for v, axis in zip(items, "xyz", strict=True)))


def number(value: object, name: str) -> float:
    """A real number (int or float, not a bool or string) as a float; NaN and inf pass."""
    if type(value) is float:  # the common cases, without the slow abstract-class check
        return value
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        return float(value)
    except OverflowError:  # an int beyond float's range
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]


def vec3(value: object, name: str, *, limit: float = math.inf) -> Vec3:
    """Three finite real numbers, each of magnitude at most ``limit``."""
    if limit > _FLOAT_MAX:  # without a limit, finite is the whole test
        limit = _FLOAT_MAX
    # Three plain floats (every call on a hot path) are answered here, by comparisons alone (NaN
    # and inf fail them); the generic checks below cost a microsecond.
    if type(value) is tuple or type(value) is list:
        try:
            x, y, z = value
        except ValueError:
            x = y = z = None
        if (
            type(x) is float
            and type(y) is float
            and type(z) is float
            and -limit <= x <= limit
            and -limit <= y <= limit
            and -limit <= z <= limit
        ):
            return (x, y, z)
    items = _triple(value)
    if items is None:
        raise ValueError(f"{name} must be 3 numbers, got {value!r}")
    x, y, z = (number(v, name) for v in items)
    # x - x is 0.0 for every finite x and NaN for inf and NaN: one test for all three.
    if (x - x) + (y - y) + (z - z) != 0.0:
        raise ValueError(f"{name} must be finite, got {(x, y, z)}")
    if max(abs(x), abs(y), abs(z)) > limit:
        raise ValueError(f"{name} is outside the world (|{name}| <= {limit:g}), got {(x, y, z)}")
    return (x, y, z)


def coords(xyz: ArrayLike, name: str) -> NDArray[np.int64]:
    """(N, 3) integer voxel coordinates within the world limit, as int64; empty gives (0, 3).

    The dtype and the range are checked before any cast, so a uint64 2^64 - 1 is refused, never
    wrapped to -1; a ragged or non-numeric input is refused naming ``name``.
    """
    try:
        arr: NDArray[Any] = np.asarray(xyz)
    except (ValueError, TypeError, OverflowError):
        raise ValueError(f"{name} must be an (N, 3) integer array, got a ragged sequence") from None
    if arr.size == 0:
        return np.zeros((0, 3), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (N, 3), got {arr.shape}")
    # numpy keeps Python integers beyond int64 as objects: range-checked below like any other.
    plain_ints = arr.dtype.kind == "O" and all(
        isinstance(v, int) and not isinstance(v, bool) for v in arr.flat
    )
    if arr.dtype.kind not in "iu" and not plain_ints:
        raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")
    low, high = arr.min(), arr.max()
    if not (int(low) > -WORLD_LIMIT and int(high) < WORLD_LIMIT):
        raise ValueError(
            f"{name} is outside the world (|coordinate| < {WORLD_LIMIT}), got range "
            f"[{int(low)}, {int(high)}]"
        )
    return arr.astype(np.int64, copy=False)
