"""Stacks lying in the world (``builtin:item`` entities): merging and being picked up
(Minecraft's ``ItemEntity``, Luanti's ``builtin/game/item_entity.lua``).

- A stack's ``data`` holds ``item`` and ``count`` (1..its stack size), a worn tool's ``wear``
  (`world.items.inventory.ItemStack.wear`; absent: 0) and ``pickup_at``, the world time from
  which a player can pick it up (`world.voxels.entities.PICKUP_DELAY` after it dropped from a
  block, `THROWN_DELAY` after a player threw it).
- `merge`: a stack takes in a stack of the same item (and the same wear: a tool picked up again
  is as worn as it was) whose box is within `MERGE_REACH` of its own
  (Minecraft: 0.5 blocks horizontally, none vertically), the smaller into the larger, as far as
  the stack size allows; what is left stays where it was. Looked at every `MERGE_EVERY` steps
  while it moves, and once when it comes to rest (`world.ticks.entity_ticks`): a stack at rest
  is looked at again when it is woken (its data written, a block near it changed), and one
  arriving beside it looks for it. Two stacks at rest side by side that could merge have
  merged: only a full one losing items (a pickup that left some) makes a new pair, and the
  write wakes it.
- `pick_up`: a player whose box, grown by `PICKUP_REACH`, touches a stack that may be picked up
  takes as much of it as the inventory has room for (`world.items.inventory.Inventory.add`); the
  rest stays lying, with its count lowered. Creative players pick up too (Minecraft).
- A stack goes after 5 minutes of world time (`world.blocks.entity_type.ITEM_ENTITY.max_age`).

Every change goes through `world.voxels.entities.Entities` and the inventory's recorded slots, so
a step that is rolled back takes its merges and pickups back too: no item is made or lost.
"""

from __future__ import annotations

from collections.abc import Iterable

from world.blocks.entity_type import ITEM_ENTITY
from world.blocks.registry import BlockRegistry
from world.entities.motion import box_of
from world.items.inventory import STACK_MAX, ItemStack
from world.physics.body import PLAYER_HEIGHT, PLAYER_WIDTH
from world.voxels.entities import Entities, Entity
from world.voxels.players import Player

__all__ = [
    "MERGE_EVERY",
    "MERGE_REACH",
    "PICKUP_REACH",
    "THROWN_DELAY",
    "merge",
    "pick_up",
    "stack_of",
]

MERGE_REACH = (0.5, 0.0, 0.5)  # blocks each way a stack's box looks for another (Minecraft)
MERGE_EVERY = 10  # steps between a moving stack's looks (half a second; Minecraft: 2 ticks)
PICKUP_REACH = (1.0, 0.5, 1.0)  # a player's box grown by this picks stacks up (Minecraft)
THROWN_DELAY = 2.0  # seconds before a stack a player threw can be picked up (40 ticks)


def stack_of(entity: Entity) -> ItemStack | None:
    """The stack an item entity holds; None when its data is not a stack (a bad mod write)."""
    item, count = entity.data.get("item"), entity.data.get("count")
    wear = entity.data.get("wear", 0)
    if not isinstance(item, str) or isinstance(count, bool) or not isinstance(count, int):
        return None
    if isinstance(wear, bool) or not isinstance(wear, int):
        return None
    try:
        return ItemStack(item, count, wear)
    except ValueError:
        return None


def stack_max(registry: BlockRegistry, item: str) -> int:
    """How many of ``item`` make one stack."""
    kind = registry.items.get(item)
    return STACK_MAX if kind is None else kind.stack_max


def _overlap(
    a: tuple[tuple[float, float, float], tuple[float, float, float]],
    b: tuple[tuple[float, float, float], tuple[float, float, float]],
    grow: tuple[float, float, float],
) -> bool:
    (alo, ahi), (blo, bhi) = a, b
    return all(alo[i] - grow[i] <= bhi[i] and blo[i] <= ahi[i] + grow[i] for i in range(3))


def merge(entities: Entities, registry: BlockRegistry, entity: Entity) -> None:
    """Take in nearby stacks of the same item (module notes)."""
    mine = stack_of(entity)
    if mine is None:
        return
    top = stack_max(registry, mine.item)
    if mine.count >= top:
        return
    box = box_of(entity.pos, ITEM_ENTITY)
    for other in entities.near(entity.pos, 1.0):
        if other is entity or other.kind != ITEM_ENTITY.name or other.removed:
            continue
        theirs = stack_of(other)
        if theirs is None or not theirs.stacks_with(mine):
            continue
        if not _overlap(box, box_of(other.pos, ITEM_ENTITY), MERGE_REACH):
            continue
        big, small = (entity, other) if mine.count >= theirs.count else (other, entity)
        big_count = max(mine.count, theirs.count)
        small_count = min(mine.count, theirs.count)
        moved = min(small_count, top - big_count)
        if moved <= 0:
            continue
        entities.write(big, "count", big_count + moved)
        later = max(_number(big.data.get("pickup_at")), _number(small.data.get("pickup_at")))
        entities.write(big, "pickup_at", later)
        if moved == small_count:
            entities.remove(small)
        else:
            entities.write(small, "count", small_count - moved)
        if small is entity:
            return
        mine = mine.with_count(big_count + moved)
        if mine.count >= top:
            return


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def player_box(player: Player) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """A player's box at their position (Minecraft's 0.6 x 1.8)."""
    half = PLAYER_WIDTH / 2
    x, y, z = player.pos
    return (x - half, y, z - half), (x + half, y + PLAYER_HEIGHT, z + half)


def pick_up(entities: Entities, players: Iterable[Player], entity: Entity) -> int:
    """Give the stack to a player touching it, as far as their inventory has room (module
    notes); returns how many items were taken."""
    if entities.clock < _number(entity.data.get("pickup_at")):
        return 0
    stack = stack_of(entity)
    if stack is None:
        return 0
    box = box_of(entity.pos, ITEM_ENTITY)
    for player in players:
        if not _overlap(player_box(player), box, PICKUP_REACH):
            continue
        left = player.inventory.add(stack.item, stack.count, wear=stack.wear)
        taken = stack.count - left
        if left == 0:
            entities.remove(entity)
        elif taken:
            entities.write(entity, "count", left)
        return taken
    return 0
