"""Exact decisions for the ray walk of `world.ray`: which crossing comes first, and reach.

The walk compares float crossing parameters; where two of them lie within rounding of each
other (``NEAR``), or a crossing lies within rounding of the reach, it asks these functions,
which work on the input floats exactly. A float is a dyadic rational, so the crossing of the
boundary ``b`` on an axis, ``t = (b - o) / d``, is ``(b*q - p) * s / (q * r)`` with
``o = p / q`` and ``d = r / s`` as integer ratios: two crossings are ordered by comparing two
integer products, with no rational normalisation. On an exact diagonal every step is such a tie,
so this comparison is what keeps the walk proportional to the voxels crossed.
"""

from __future__ import annotations

from fractions import Fraction

from world.geometry import Vec3

__all__ = ["NEAR", "ExactForm", "exact_form", "first_axis", "within_reach"]

# Two crossings whose float parameters are closer than this (relative) may be misordered by
# rounding (each parameter carries at most ~2 ulp = 4.4e-16 relative error); such cases are
# re-decided exactly. The margin is wide on purpose: the exact path is always right.
NEAR = 1e-12

# Per axis ``(q, p, k, den)`` with ``t(b) = (b*q - p) * k / den`` and ``den > 0``; None where
# the direction component is zero (that axis is never crossed).
ExactForm = tuple[tuple[int, int, int, int] | None, ...]


def exact_form(o: Vec3, d: Vec3) -> ExactForm:
    """The integer form of the ray's crossing parameters on each axis."""
    form: list[tuple[int, int, int, int] | None] = []
    for oa, da in zip(o, d, strict=True):
        if da == 0.0:
            form.append(None)
            continue
        p, q = oa.as_integer_ratio()
        r, s = da.as_integer_ratio()
        form.append((q, p, s if r > 0 else -s, q * abs(r)))
    return tuple(form)


def first_axis(form: ExactForm, bx: int, by: int, bz: int) -> int:
    """The axis whose next crossing (boundaries bx, by, bz) comes first; the lower axis on a tie."""
    best, best_num, best_den = -1, 0, 1
    for axis, bound in ((0, bx), (1, by), (2, bz)):
        f = form[axis]
        if f is None:
            continue
        q, p, k, den = f
        num = (bound * q - p) * k
        if best < 0 or num * best_den < best_num * den:
            best, best_num, best_den = axis, num, den
    return best


def within_reach(boundary: int, axis: int, o: Vec3, d: Vec3, reach: float) -> bool:
    """Exactly: is the crossing of ``boundary`` on ``axis`` at a Euclidean distance <= reach?

    Called only for crossings within rounding of the reach, at most a few per ray.
    """
    t = (boundary - Fraction(o[axis])) / Fraction(d[axis])
    norm2 = sum((Fraction(c) ** 2 for c in d), Fraction(0))
    return t * t * norm2 <= Fraction(reach) ** 2
