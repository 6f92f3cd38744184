"""Protected areas: inside one, only its owner may break or place blocks.

An area is a box of voxels between two opposite corners (both included) with an owner, an
actor's name. Everyone else, in creative mode too, is refused with the reason "<area> belongs to
<owner>". Areas are set from the game or from another mod (which lists ``"protection"`` in its
``optional_depends``), on a world::

    protection = mods["protection"].plugin
    protection.protect(world, "spawn", (-8, 0, -8), (8, 64, 8), owner="admin")

Areas belong to the world: they are kept in this mod's storage in it (one key
``"area:<name>"`` per area, its corners and owner as JSON), so they are saved and loaded with
the world, start empty in a new world and are never shared between two worlds. The hooks read
them through ``world.storage``; `protect`, `unprotect` and `areas` take the `world.chunks.World`
(or this mod's store itself, ``world.mod_storage.for_mod("protection")``).

Other mods respect areas by asking ``world.may_break`` / ``world.may_place`` before changing
blocks (as `tnt` does).
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.chunks import World
from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mod_storage import Value
    from world.mod_world import ModWorld
    from world.outcome import Actor

description = "areas where only their owner may break or place blocks"

NAME = "protection"
PREFIX = "area:"

Store = MutableMapping[str, "Value"]


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


def _store(world: World | Store) -> Store:
    if isinstance(world, World):
        return world.mod_storage.for_mod(NAME)
    if isinstance(world, MutableMapping):
        return world
    raise TypeError(f"world must be a World or this mod's storage, got {type(world).__name__}")


def protect(
    world: World | Store,
    name: str,
    corner: Sequence[int],
    other_corner: Sequence[int],
    owner: str,
) -> Area:
    """Protect the box between two corners for ``owner`` (replacing an area of that name)."""
    store = _store(world)
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
    store[PREFIX + name] = json.dumps({"low": low, "high": high, "owner": owner})
    return area


def unprotect(world: World | Store, name: str) -> None:
    """Remove an area (nothing happens when there is none of that name)."""
    _store(world).pop(PREFIX + name, None)


def areas(world: World | Store) -> tuple[Area, ...]:
    """The areas, oldest first."""
    found = []
    for key, value in _store(world).items():
        if key.startswith(PREFIX) and isinstance(value, str):
            data = json.loads(value)
            low, high = tuple(data["low"]), tuple(data["high"])
            found.append(Area(key.removeprefix(PREFIX), low, high, str(data["owner"])))
    return tuple(found)


def _refusal(world: ModWorld, pos: Int3, actor_name: str) -> str | None:
    for area in areas(world.storage):
        if pos in area and area.owner != actor_name:
            return f"{area.name} belongs to {area.owner}"
    return None


@hookimpl
def can_break(world: ModWorld, pos: Int3, actor: Actor) -> str | None:
    return _refusal(world, pos, actor.name)


@hookimpl
def can_place(world: ModWorld, pos: Int3, actor: Actor) -> str | None:
    return _refusal(world, pos, actor.name)
