"""Shared value types of the core: integer voxel triples, float 3-vectors and the six faces.

Every module that speaks of a voxel position, a face or a float point uses these names, so a
hook's ``pos``, a ray's ``hit.block`` and a mesher's face table are the same types everywhere.
Nothing here checks its input: `world.validate` does that where untrusted input enters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["FACE_NORMALS", "Int3", "Vec3"]

Vec3 = tuple[float, float, float]
"""A float point or vector in world units (blocks)."""


class Int3(NamedTuple):
    """An integer triple whose ``+`` and ``-`` are elementwise (``hit.block + hit.face``)."""

    x: int
    y: int
    z: int

    def __add__(self, other: Sequence[int]) -> Int3:  # type: ignore[override]
        return Int3(self[0] + other[0], self[1] + other[1], self[2] + other[2])

    def __radd__(self, other: Sequence[int]) -> Int3:
        return Int3(other[0] + self[0], other[1] + self[1], other[2] + self[2])

    def __sub__(self, other: Sequence[int]) -> Int3:
        return Int3(self[0] - other[0], self[1] - other[1], self[2] - other[2])

    def __neg__(self) -> Int3:
        return Int3(-self[0], -self[1], -self[2])


# Face order used by every per-face table (tiles, mesher normals): +x, -x, +y, -y, +z, -z.
FACE_NORMALS: tuple[Int3, ...] = (
    Int3(1, 0, 0),
    Int3(-1, 0, 0),
    Int3(0, 1, 0),
    Int3(0, -1, 0),
    Int3(0, 0, 1),
    Int3(0, 0, -1),
)
