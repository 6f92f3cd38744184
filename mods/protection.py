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
them through ``world.storage``. The public functions (`protect`, `unprotect`, `areas`,
`is_protected`) take any of: the `world.mods.view.ModWorld` a hook or callback was given
(another mod's included: ``world.mod("protection").protect(world, ...)`` reaches this mod's
store through ``world.storage_of("protection")``), the `world.voxels.chunks.World` itself (the
game, a test), or this mod's store (``world.mod_storage.for_mod("protection")``).

Inside an area, blocks that keep items (group ``container``: chests, furnaces) open only for
the owner, and only the owner moves stacks in or out of them: `can_use` is asked for every move
of items too (`world.rules.Rules.move_items`), so a chest opened before the area was set keeps
its stacks from a stranger; the chests' own callbacks need not know about areas. A stranger's
right click with an item that acts on blocks (an `world.items.item.Item` with an ``on_use``: the
hoe tilling, bone meal growing a crop, the quill) is refused too, on every block without a right
click of its own, before the item is used up. Doors, lamps and signs can be used by anyone (with
such a tool in hand, those with their own right click: a door, a sign). Other mods respect areas
by asking ``world.may_break`` / ``world.may_place`` (as `tnt` does) or `is_protected` before
changing blocks.

Players set them in the chat (`world.mods.commands`), as with Luanti's areas mod:
``/protect <name> <x1> <y1> <z1> <x2> <y2> <z2>`` protects a box of at most `MAX_SIDE` voxels a
side for the player (``~`` and ``~n`` are the player's feet voxel and n from it), refused where it
would overlap someone else's area or take another's name; ``/unprotect <name>`` removes one of
the player's areas; ``/areas`` lists them all.
"""

from __future__ import annotations

import json
import math
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.hooks import hookimpl
from world.mods.commands import ChatCommand, CommandRegistrar, coordinate
from world.mods.view import ModWorld
from world.voxels.chunks import World

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.voxels.mod_storage import Value

description = "areas where only their owner may break or place blocks"

NAME = "protection"
PREFIX = "area:"
MAX_SIDE = 256  # voxels a side of an area set by a player's command

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


Where = World | ModWorld | Store
"""What the public functions take: a hook's world (any mod's), the `World`, or this mod's store."""


def _store(world: Where) -> Store:
    if isinstance(world, ModWorld):
        return world.storage_of(NAME)
    if isinstance(world, World):
        return world.mod_storage.for_mod(NAME)
    if isinstance(world, MutableMapping):
        return world
    raise TypeError(
        f"world must be a hook's world, a World or this mod's storage, got {type(world).__name__}"
    )


def protect(
    world: Where,
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


def unprotect(world: Where, name: str) -> None:
    """Remove an area (nothing happens when there is none of that name)."""
    _store(world).pop(PREFIX + name, None)


def areas(world: Where) -> tuple[Area, ...]:
    """The areas, oldest first."""
    found = []
    for key, value in _store(world).items():
        if key.startswith(PREFIX) and isinstance(value, str):
            data = json.loads(value)
            low, high = tuple(data["low"]), tuple(data["high"])
            found.append(Area(key.removeprefix(PREFIX), low, high, str(data["owner"])))
    return tuple(found)


def is_protected(world: Where, pos: Sequence[int], name: str | None = None) -> bool:
    """Whether the voxel ``pos`` lies in an area that the player ``name`` does not own (with no
    name: in any area). Luanti's ``core.is_protected(pos, name)``, for mods that change blocks
    without a `ModWorld.dig` / `ModWorld.place` (which ask this mod's hooks themselves)."""
    return _refusal(_store(world), pos, name) is not None


def _refusal(store: Store, pos: Sequence[int], actor_name: str | None) -> str | None:
    for area in areas(store):
        if pos in area and area.owner != actor_name:
            return f"{area.name} belongs to {area.owner}"
    return None


@hookimpl
def can_break(world: ModWorld, pos: Int3, actor: Actor) -> str | None:
    return _refusal(world.storage, pos, actor.name)


@hookimpl
def can_place(world: ModWorld, pos: Int3, actor: Actor) -> str | None:
    return _refusal(world.storage, pos, actor.name)


@hookimpl
def can_use(world: ModWorld, pos: Int3, block: BlockType, actor: Actor) -> str | None:
    """Blocks that keep items (group ``container``: chests, furnaces) open, and let their stacks
    be moved, only for the area's owner, as Luanti's protected chests; a held item that acts on
    blocks (its own ``on_use``) is refused a block it would reach (one without its own
    ``on_use``). Doors, lamps and signs stay usable by anyone."""
    held = world.registry.items.get(actor.item) if actor.item else None
    acts = held is not None and held.on_use is not None and block.on_use is None
    if "container" not in block.groups and not acts:
        return None
    return _refusal(world.storage, pos, actor.name)


def _overlap(a: Area, b: Area) -> bool:
    return all(
        lo <= other_hi and other_lo <= hi
        for lo, hi, other_lo, other_hi in zip(a.low, a.high, b.low, b.high, strict=True)
    )


def protect_command(world: ModWorld, actor: Actor, text: str) -> None:
    """``/protect <name> <x1> <y1> <z1> <x2> <y2> <z2>``: a new area of the player's."""
    words = text.split()
    if len(words) != 7:
        actor.tell("usage: /protect <name> <x1> <y1> <z1> <x2> <y2> <z2>")
        return
    name = words[0]
    low, high = actor.body_min, actor.body_max
    feet = (
        math.floor((low[0] + high[0]) / 2),
        math.floor(low[1]),
        math.floor((low[2] + high[2]) / 2),
    )
    try:
        x1, y1, z1, x2, y2, z2 = (
            int(coordinate(word, feet[i % 3], whole=True)) for i, word in enumerate(words[1:])
        )
    except ValueError as exc:
        actor.tell(str(exc))
        return
    area = Area(
        name,
        (min(x1, x2), min(y1, y2), min(z1, z2)),
        (max(x1, x2), max(y1, y2), max(z1, z2)),
        actor.name,
    )
    if any(hi - lo + 1 > MAX_SIDE for lo, hi in zip(area.low, area.high, strict=True)):
        actor.tell(f"an area is at most {MAX_SIDE} voxels a side")
        return
    for other in areas(world):
        if other.owner != actor.name and (other.name == name or _overlap(area, other)):
            actor.tell(f"{other.name} belongs to {other.owner}")
            return
    protect(world, name, area.low, area.high, owner=actor.name)
    actor.tell(f"protected {name}: {area.low} to {area.high}")


def unprotect_command(world: ModWorld, actor: Actor, text: str) -> None:
    """``/unprotect <name>``: remove one of the player's areas."""
    name = text.strip()
    found = {area.name: area for area in areas(world)}
    if name not in found:
        actor.tell(f"no area {name!r}")
    elif found[name].owner != actor.name:
        actor.tell(f"{name} belongs to {found[name].owner}")
    else:
        unprotect(world, name)
        actor.tell(f"{name} is no longer protected")


def areas_command(world: ModWorld, actor: Actor) -> None:
    """``/areas``: every area, its owner and corners (the first 10)."""
    found = areas(world)
    lines = [f"{a.name} ({a.owner}): {a.low} to {a.high}" for a in found[:10]]
    if len(found) > 10:
        lines.append(f"... and {len(found) - 10} more")
    actor.tell("\n".join(lines) if lines else "no protected areas")


@hookimpl
def register_commands(commands: CommandRegistrar) -> None:
    commands.register(
        ChatCommand(
            "protect",
            protect_command,
            "<name> <x1> <y1> <z1> <x2> <y2> <z2>",
            "protect a box of voxels: only you may change it",
        )
    )
    commands.register(
        ChatCommand("unprotect", unprotect_command, "<name>", "remove one of your areas")
    )
    commands.register(ChatCommand("areas", areas_command, "", "list the protected areas"))
