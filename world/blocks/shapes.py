"""Block shapes: axis-aligned boxes in block units, and the helpers that build the common ones.

A shape is a tuple of `Box` es, each ``Box(x0, y0, z0, x1, y1, z1)`` in the block's own unit cube
(0 to 1 on each axis, the block's minimum corner at the origin). Every block state has two:

- a *selection* shape: what the raycast targets and the outline draws; its boxes lie in [0, 1]³;
- a *collision* shape: what the player's body collides with; boxes may reach ``y = 1.5`` (a fence
  cannot be jumped over), and ``()`` for none (torches, plants, an open gate).

`FULL` (the unit cube, one box) is the fast path everywhere: the raycast, the mesher and physics
treat a state whose shape is exactly `FULL` as a plain cube.

Facing follows Minecraft: ``north`` is −z, ``east`` +x, ``south`` +z, ``west`` −x. Helpers take a
shape drawn facing north and turn it with `rotate`; a quarter turn maps north → east → south →
west (clockwise seen from above).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, NamedTuple

__all__ = [
    "COLLISION_TOP",
    "EMPTY",
    "FACINGS",
    "FULL",
    "Box",
    "carpet",
    "check_shape",
    "door",
    "fence",
    "pane",
    "post",
    "rotate",
    "slab",
    "stairs",
    "torch",
]


class Box(NamedTuple):
    """One axis-aligned box in block units: the minimum corner, then the maximum corner."""

    x0: float
    y0: float
    z0: float
    x1: float
    y1: float
    z1: float


Shape = tuple[Box, ...]

FULL: Final[Shape] = (Box(0.0, 0.0, 0.0, 1.0, 1.0, 1.0),)
EMPTY: Final[Shape] = ()
COLLISION_TOP: Final = 1.5
"""How high a collision box may reach (Minecraft's fences and walls)."""

FACINGS: Final = ("north", "east", "south", "west")
"""Horizontal facings in clockwise order seen from above; north is −z."""


def check_shape(owner: str, kind: str, boxes: object, *, top: float = 1.0) -> Shape:
    """`boxes` as a tuple of `Box`, or a ``ValueError`` naming `owner` and `kind`.

    Each box needs finite numbers with ``x0 < x1``, ``y0 < y1`` and ``z0 < z1`` (no empty or
    zero-thickness box), inside [0, 1] on x and z and [0, `top`] on y.
    """
    if isinstance(boxes, Box) or not isinstance(boxes, tuple | list):
        raise ValueError(
            f"{kind} shape of {owner!r} must be a tuple of Box, got {type(boxes).__name__}"
        )
    out: list[Box] = []
    for i, raw in enumerate(boxes):
        if not isinstance(raw, tuple) or len(raw) != 6:
            raise ValueError(f"{kind} box {i} of {owner!r} must be a Box of 6 numbers, got {raw!r}")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw):
            raise ValueError(f"{kind} box {i} of {owner!r} must hold numbers, got {raw!r}")
        box = Box(*(float(v) for v in raw))
        if not all(math.isfinite(v) for v in box):
            raise ValueError(f"{kind} box {i} of {owner!r} must be finite, got {raw!r}")
        if not (box.x0 < box.x1 and box.y0 < box.y1 and box.z0 < box.z1):
            raise ValueError(
                f"{kind} box {i} of {owner!r} is inverted or empty (need x0 < x1, y0 < y1, "
                f"z0 < z1): {tuple(raw)}"
            )
        if not (box.x0 >= 0.0 and box.x1 <= 1.0 and box.z0 >= 0.0 and box.z1 <= 1.0):
            raise ValueError(
                f"{kind} box {i} of {owner!r} leaves the block on x or z: {tuple(raw)}"
            )
        if not (box.y0 >= 0.0 and box.y1 <= top):
            raise ValueError(
                f"{kind} box {i} of {owner!r} must lie within y 0..{top:g}, got {tuple(raw)}"
            )
        out.append(box)
    return tuple(out)


def _turn(box: Box, quarter_turns: int) -> Box:
    x0, y0, z0, x1, y1, z1 = box
    for _ in range(quarter_turns % 4):
        # A clockwise quarter turn about the block's vertical centre line: (dx, dz) -> (-dz, dx).
        x0, z0, x1, z1 = 1.0 - z1, x0, 1.0 - z0, x1
    return Box(x0, y0, z0, x1, y1, z1)


def rotate(boxes: Iterable[Box], facing: str) -> Shape:
    """A shape drawn facing north, turned to face `facing` (one of `FACINGS`)."""
    if facing not in FACINGS:
        raise ValueError(f"facing must be one of {', '.join(FACINGS)}, got {facing!r}")
    turns = FACINGS.index(facing)
    return tuple(_turn(Box(*b), turns) for b in boxes)


def slab(half: str = "bottom") -> Shape:
    """A half block: ``"bottom"`` or ``"top"`` half, or ``"double"`` (the full cube)."""
    if half == "bottom":
        return (Box(0.0, 0.0, 0.0, 1.0, 0.5, 1.0),)
    if half == "top":
        return (Box(0.0, 0.5, 0.0, 1.0, 1.0, 1.0),)
    if half == "double":
        return FULL
    raise ValueError(f"half must be 'bottom', 'top' or 'double', got {half!r}")


def stairs(facing: str = "north", half: str = "bottom") -> Shape:
    """Straight stairs: a slab and a step on the `facing` side (you walk up toward `facing`).

    ``half="top"`` is the upside-down stair (slab on top, step below).
    """
    if half not in ("bottom", "top"):
        raise ValueError(f"half must be 'bottom' or 'top', got {half!r}")
    if half == "bottom":
        north = (Box(0.0, 0.0, 0.0, 1.0, 0.5, 1.0), Box(0.0, 0.5, 0.0, 1.0, 1.0, 0.5))
    else:
        north = (Box(0.0, 0.5, 0.0, 1.0, 1.0, 1.0), Box(0.0, 0.0, 0.0, 1.0, 0.5, 0.5))
    return rotate(north, facing)


_POST = 6 / 16, 10 / 16


def post(top: float = 1.0) -> Shape:
    """A fence post, 4/16 wide, from the floor to `top`."""
    lo, hi = _POST
    return (Box(lo, 0.0, lo, hi, top, hi),)


def fence(
    north: bool = False,
    east: bool = False,
    south: bool = False,
    west: bool = False,
    *,
    top: float = 1.0,
) -> Shape:
    """A fence post and an arm toward each connected side (arms 2/16 wide, from 6/16 to `top`).

    The selection shape uses ``top=1.0``; the collision shape ``top=COLLISION_TOP``.
    """
    lo = _POST[0]
    arm_lo, arm_hi = 7 / 16, 9 / 16
    bottom = 6 / 16
    boxes = list(post(top))
    arm = Box(arm_lo, bottom, 0.0, arm_hi, top, lo)  # the north arm
    for facing, connected in zip(FACINGS, (north, east, south, west), strict=True):
        if connected:
            boxes.extend(rotate((arm,), facing))
    return tuple(boxes)


def pane(north: bool = False, east: bool = False, south: bool = False, west: bool = False) -> Shape:
    """A glass pane: a 2/16-thick centre and an arm toward each connected side, full height.

    Unconnected, it is a cross-free centre post (Minecraft draws a lone pane as a post).
    """
    lo, hi = 7 / 16, 9 / 16
    boxes = [Box(lo, 0.0, lo, hi, 1.0, hi)]
    arm = Box(lo, 0.0, 0.0, hi, 1.0, lo)
    for facing, connected in zip(FACINGS, (north, east, south, west), strict=True):
        if connected:
            boxes.extend(rotate((arm,), facing))
    return tuple(boxes)


def torch(facing: str | None = None) -> Shape:
    """A torch standing on the floor (`facing` None), or on a wall pointing toward `facing`.

    A wall torch facing north hangs on the wall to its south, leaning out toward −z.
    """
    if facing is None:
        return (Box(7 / 16, 0.0, 7 / 16, 9 / 16, 10 / 16, 9 / 16),)
    north = (Box(5.5 / 16, 3 / 16, 11 / 16, 10.5 / 16, 13 / 16, 1.0),)
    return rotate(north, facing)


def carpet(height: float = 1 / 16) -> Shape:
    """A thin layer on the floor (carpet, snow layer, pressure plate)."""
    if not 0.0 < height <= 1.0:
        raise ValueError(f"height must be in (0, 1], got {height!r}")
    return (Box(0.0, 0.0, 0.0, 1.0, height, 1.0),)


_DOOR = 3 / 16


def door(facing: str = "north", open_: bool = False, hinge: str = "left") -> Shape:
    """One half of a door: a 3/16-thick panel.

    Closed, a door facing north stands on the block's south edge (the player placed it looking
    north). Open, it swings a quarter turn about its hinge: toward east for a left hinge, west for a
    right one.
    """
    if hinge not in ("left", "right"):
        raise ValueError(f"hinge must be 'left' or 'right', got {hinge!r}")
    if facing not in FACINGS:
        raise ValueError(f"facing must be one of {', '.join(FACINGS)}, got {facing!r}")
    panel = (Box(0.0, 0.0, 1.0 - _DOOR, 1.0, 1.0, 1.0),)
    turns = FACINGS.index(facing)
    if open_:
        turns += 1 if hinge == "left" else 3
    return rotate(panel, FACINGS[turns % 4])
