"""Block inventories: a chest's slots (Luanti's node inventory, Minecraft's container).

A block's callback (a chest's ``on_use``) calls ``actor.open_container(Container(pos, "Chest"))``;
the game shows the container's slots above the player's inventory, and the player moves stacks
between them as in the inventory screen. The slots live in the voxel's own data
(`world.voxels.block_data`), under `Container.key`, as JSON text (`encode_slots`): saved with the
chunk. A block that names the key in its ``containers`` (`world.blocks.block_type.BlockType`) drops
the stacks into the world when it goes by any means (as ``builtin:item`` entities lying at the
voxel, `world.voxels.entities.drop_item`: players pick them up), so none goes with the data; a
block may still refuse to be broken by hand while it holds anything, as Luanti's chests do
(`unless_empty` makes that ``can_break``). Data that cannot be read as slots
is never written over: the game does not open it (`decode_slots` raises).

Reading is bounded: text longer than `MAX_SLOTS_TEXT` characters (what one voxel can hold,
`world.voxels.block_data.MAX_DATA_BYTES`; 27 full slots take about 1 KB) is refused before it is
parsed, and JSON nested too deep to parse is refused as well, so every unreadable value is a
``ValueError`` naming the container, never a ``RecursionError``, and `slots_empty` never raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from world.geometry import Int3
from world.items.inventory import ItemStack, stacks_from_data

__all__ = [
    "MAX_CONTAINER_SLOTS",
    "MAX_SLOTS_TEXT",
    "Container",
    "decode_slots",
    "encode_slots",
    "slots_empty",
    "unless_empty",
]

MAX_CONTAINER_SLOTS: Final = 27  # three rows of nine: a Minecraft chest
# Characters: no voxel holds a longer value (`world.voxels.block_data.MAX_DATA_BYTES`, the same 16
# KiB; the tests hold the two equal, and a block inventory sits below the voxel store).
MAX_SLOTS_TEXT: Final = 16 * 1024


class _Voxels(Protocol):
    """What a ``can_break`` reads: a world view's ``meta`` (`world.mods.view.ModWorld`)."""

    def meta(self, wx: int, wy: int, wz: int) -> Mapping[str, object]: ...


@dataclass(frozen=True)
class Container:
    """A block's inventory the player opens.

    Parameters
    ----------
    pos : Int3
        The voxel whose data holds the slots.
    title : str
        Shown above the slots.
    size : int
        How many slots, 1..27 (rows of nine).
    key : str
        The data key holding them.
    """

    pos: Int3
    title: str = "Chest"
    size: int = MAX_CONTAINER_SLOTS
    key: str = "inventory"

    def __post_init__(self) -> None:
        object.__setattr__(self, "pos", Int3(*(int(v) for v in self.pos)))
        if not isinstance(self.title, str):
            raise ValueError(f"title must be a str, got {self.title!r}")
        if isinstance(self.size, bool) or not isinstance(self.size, int):
            raise ValueError(f"size must be an integer 1..{MAX_CONTAINER_SLOTS}")
        if not 1 <= self.size <= MAX_CONTAINER_SLOTS:
            raise ValueError(f"size must be 1..{MAX_CONTAINER_SLOTS}, got {self.size}")
        if not isinstance(self.key, str) or not self.key:
            raise ValueError(f"key must be a non-empty str, got {self.key!r}")


def encode_slots(slots: Sequence[ItemStack | None]) -> str | None:
    """The slots as the data value: JSON ``[[item, count] or null, ...]`` (``[item, count,
    wear]`` for a worn tool: `world.items.inventory.ItemStack.to_data`); None when all are
    empty (the key is then removed)."""
    if all(stack is None for stack in slots):
        return None
    return json.dumps([None if s is None else s.to_data() for s in slots])


def decode_slots(value: object, size: int) -> list[ItemStack | None]:
    """The slots a data value holds (None or no value: all empty), padded to ``size``.

    Raises
    ------
    ValueError
        When the value is not slots (not JSON text, longer than `MAX_SLOTS_TEXT`, nested too
        deep to parse, not a list, a bad stack, more than ``size`` slots): the data is left
        alone.
    """
    if value is None:
        return [None] * size
    if not isinstance(value, str):
        raise ValueError(f"container data must be JSON text, got {type(value).__name__}")
    if len(value) > MAX_SLOTS_TEXT:
        raise ValueError(
            f"container data is {len(value)} characters long; slots take at most {MAX_SLOTS_TEXT}"
        )
    try:
        data = json.loads(value)
    except RecursionError:
        raise ValueError("container data is JSON nested too deep to be slots") from None
    except ValueError as exc:
        raise ValueError(f"container data is not JSON ({exc})") from None
    slots = stacks_from_data(data, size, "container")
    return slots + [None] * (size - len(slots))


def unless_empty(key: str, reason: str) -> Callable[..., str | None]:
    """A block's ``can_break`` that keeps it while its slots under ``key`` hold anything (or
    cannot be read), refusing with ``reason``: Luanti's chests."""

    def can_break(world: _Voxels, pos: Int3) -> str | None:
        return None if slots_empty(world.meta(*pos).get(key)) else reason

    return can_break


def slots_empty(value: object) -> bool:
    """Whether a data value holds no item (unreadable data counts as not empty: kept)."""
    try:
        return all(s is None for s in decode_slots(value, MAX_CONTAINER_SLOTS))
    except ValueError:
        return False
