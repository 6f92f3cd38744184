"""Protected areas: inside one, only its owner may break or place blocks.

An area is a box of voxels between two opposite corners (both included) with an owner, an
actor's name. Everyone else, in creative mode too, is refused with the reason "<area> belongs to
<owner>". Areas are set from the game or from another mod (which lists ``"protection"`` in its
``optional_depends``)::

    protection = mods["protection"].plugin
    protection.protect("spawn", (-8, 0, -8), (8, 64, 8), owner="admin")

Areas live in memory for the run: Blockpick stores no per-block data to keep them in a save.
Other mods respect them by asking ``world.may_break`` / ``world.may_place`` before changing blocks
(as `tnt` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.outcome import Actor

description = "areas where only their owner may break or place blocks"


@dataclass(frozen=True)
class Area:
    """A box of voxels ``low <= pos <= high`` (per axis) owned by ``owner``."""

    name: str
    low: tuple[int, int, int]
    high: tuple[int, int, int]
    owner: str

    def __contains__(self, pos: object) -> bool:
        if not isinstance(pos, Sequence) or len(pos) != 3:
            return False
        return all(lo <= v <= hi for v, lo, hi in zip(pos, self.low, self.high, strict=True))


_areas: dict[str, Area] = {}


def protect(name: str, corner: Sequence[int], other_corner: Sequence[int], owner: str) -> Area:
    """Protect the box between two corners for ``owner`` (replacing an area of that name)."""
    for label, c in (("corner", corner), ("other_corner", other_corner)):
        if len(c) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in c):
            raise ValueError(f"{label} must be 3 integer voxel coordinates, got {c!r}")
    if not isinstance(owner, str) or not owner:
        raise ValueError(f"owner must be an actor's name, got {owner!r}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    (ax, ay, az), (bx, by, bz) = corner, other_corner
    low = (min(ax, bx), min(ay, by), min(az, bz))
    high = (max(ax, bx), max(ay, by), max(az, bz))
    area = Area(name, low, high, owner)
    _areas[name] = area
    return area


def unprotect(name: str) -> None:
    """Remove an area (nothing happens when there is none of that name)."""
    _areas.pop(name, None)


def areas() -> tuple[Area, ...]:
    """The areas, oldest first."""
    return tuple(_areas.values())


def _refusal(pos: Sequence[int], actor_name: str) -> str | None:
    for area in _areas.values():
        if pos in area and area.owner != actor_name:
            return f"{area.name} belongs to {area.owner}"
    return None


@hookimpl
def can_break(pos: Int3, actor: Actor) -> str | None:
    return _refusal(pos, actor.name)


@hookimpl
def can_place(pos: Int3, actor: Actor) -> str | None:
    return _refusal(pos, actor.name)
