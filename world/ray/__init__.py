"""`world.ray`: exact voxel raycasting (Amanatides & Woo 1987), one iteration per voxel crossed.

The ray is ``p(t) = origin + t * direction`` for ``t >= 0``; voxel (i, j, k) is the cube
[i, i+1]×[j, j+1]×[k, k+1]. A voxel is *entered* when the ray passes through its interior.

- The start voxel is the one the ray is in just after leaving the origin: per axis ``floor(o)``
  for a direction component >= 0 (``-0.0`` counts as 0) and ``ceil(o) - 1`` for a negative one.
- Each later voxel is entered through one face; ``face`` is that face's unit normal, pointing back
  toward the origin, so the place position of a hit is ``hit.block + hit.face``. The start voxel's
  face is (0, 0, 0) when the origin is strictly inside it, and the entry face when the origin lies
  exactly on it (distance 0).
- Distances are Euclidean, from the origin to the entry point; a voxel whose entry distance equals
  the reach is within reach.

Exactness. The parameter of the next crossing on each axis is computed afresh from the boundary
coordinate, ``(boundary - o) / d``, never accumulated, so nothing drifts over long rays. Those two
float operations are each correctly rounded, so the float order of two crossings can only be wrong
when they lie within a few ulps of each other; such near-ties (and distances within a few ulps of
the reach) are decided again with exact rational arithmetic (`fractions.Fraction`) on the input
floats. Exact ties (the ray passes through an edge or a corner) go to the lower axis, x before y
before z. Direction vectors are rescaled by a power of two when huge or tiny, which is exact.

Performance: `raycast` is a scalar loop that caches the current chunk (a reach-5 ray costs a few
microseconds in CPython); `raycast_many` runs the same float steps for N rays at once in numpy,
and hands the rare rays that met a near-tie to `raycast`, so both give identical answers.
"""

from __future__ import annotations

from world.ray._batch import RayBatch, raycast_many
from world.ray._walk import Hit, Step, raycast, segment_voxels, traverse

__all__ = ["Hit", "RayBatch", "Step", "raycast", "raycast_many", "segment_voxels", "traverse"]
