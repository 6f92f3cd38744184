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

Shapes. A voxel whose state has selection boxes (``registry.selection_boxes[id]`` not None: not
the full cube) is hit only through a box. Box ``(x0, y0, z0, x1, y1, z1)`` of voxel (X, Y, Z) is
the open box ``(X+x0, X+x1)×(Y+y0, Y+y1)×(Z+z0, Z+z1)`` (the floats as exact rationals); the ray
hits it when it passes through that interior at some ``t >= 0``: on an axis where the direction
component is zero the coordinate must lie in ``[lo, hi)`` (the floor convention of the voxels).
The hit is the box with the smallest entry distance within the reach (inclusive; the lower index
on an exact tie); ``Hit.box`` is its index, ``face`` the normal of the box face entered (the
lower axis on an exact edge tie; the face the origin lies on at distance 0; (0, 0, 0) when the
origin is strictly inside the box), ``point`` the entry point on that face and ``distance`` its
distance. A ray that misses every box of a voxel walks on. A full cube is box 0 and keeps the
voxel rules above; a state with no boxes (``()``) is never hit, even when ``hits`` accepts it.
Unlike a cube, a box is never reported for a ray that only touches it at an edge or corner.

Limits. Origins (and `segment_voxels`' ends) lie within ``±WORLD_LIMIT`` (`world.validate`); a
reach, ``max_distance`` or segment length is at most `MAX_REACH` = 1024 blocks (cells), far
beyond any player's reach; `traverse` also takes ``max_distance = inf`` and stays lazy. Voxels
outside the world (a coordinate with ``|c| >= WORLD_LIMIT``) are never entered: the walk ends at
the world's edge (a start voxel outside it gives no step and no hit). Coordinates and reaches are
real numbers: strings, bools, NaN and inf (but that ``max_distance``) are refused. Every refusal
is a `ValueError` naming the argument, and `raycast_many` refuses and answers as `raycast` does.

Exactness. The parameter of the next crossing on each axis is computed afresh from the boundary
coordinate, ``(boundary - o) / d``, never accumulated, so nothing drifts over long rays (within
the world, ``boundary - o`` never rounds to zero, so every step advances). Those two float
operations are each correctly rounded, so the float order of two crossings can only be wrong when
they lie within a few ulps of each other; such near-ties are decided again exactly on the input
floats, by comparing integer products (`world.ray._exact`), and distances within a few ulps of
the reach with `fractions.Fraction`; the box tests (`world.ray._shapes`) likewise decide in
floats and redo a voxel's boxes in `Fraction` when any comparison is within rounding. Exact ties
(the ray passes through an edge or a corner) go to the lower axis, x before y before z. Direction
vectors are rescaled by a power of two when huge or tiny, which is exact.

Performance: one loop iteration per voxel crossed, so every call's work is bounded by
``min(reach, MAX_REACH)``: at most ``sqrt(3) * reach + 4`` voxels. `raycast` is a scalar loop
that caches the current chunk (a reach-5 ray costs a few microseconds in CPython; the longest,
a reach-1024 diagonal with a tie at every step, about 1 ms); `raycast_many` runs the same float
steps for N rays at once in numpy, and hands the rare rays that met a near-tie, or may reach the
world's edge, and groups of fewer than 64 rays, to `raycast`, so both give identical answers
(``RayBatch.box`` is ``Hit.box``).
"""

from __future__ import annotations

from world.ray._batch import RayBatch, raycast_many
from world.ray._cast import raycast
from world.ray._walk import MAX_REACH, Hit, Step, segment_voxels, traverse

__all__ = [
    "MAX_REACH",
    "Hit",
    "RayBatch",
    "Step",
    "raycast",
    "raycast_many",
    "segment_voxels",
    "traverse",
]
