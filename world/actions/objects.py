"""What actions do with players' inventories and entities, inside the action's transaction.

- `give`: a survival break's drops lie in the world as stacks (``builtin:item`` entities at the
  broken voxel, Minecraft's rule), or, when the rules say so (``Rules.drops_to_inventory``), go
  into the actor's player's inventory, the rest lying in the world.
- `spend`: a survival place takes the placed item from the held stack (or, when the held stack
  is not that item, from the first slot holding it).
- `wear_tool`: a survival break of a block whose hardness is above 0 spends one use of the tool
  it was broken with (`world.items.item.Item.durability`: Minecraft's pickaxes, axes, shovels
  and hoes lose one a block, whatever the block), when the actor's player holds it; the tool
  breaks, its slot emptied, when its wear reaches its durability
  (`world.items.inventory.Inventory.add_wear`).
- `throw`: Q drops the held item (one, or the whole stack): a stack flying from the eye along
  the look (Minecraft: 0.3 blocks a tick), picked up again only after
  `world.entities.items.THROWN_DELAY`.
- `punch` and `use_entity`: a player hits or right-clicks an entity: its kind's ``on_punch`` /
  ``on_use`` runs as its mod's callback; a physical entity that is not a stack is knocked back
  (`KNOCKBACK`) unless its ``on_punch`` returns True (handled).

Every write goes through `world.voxels.players` and `world.voxels.entities`: recorded, so a
rolled-back action gives every item back.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import THROWN_DELAY
from world.geometry import Int3
from world.items.inventory import INVENTORY_SLOTS, ItemStack
from world.items.item import Item
from world.mods.outcome import Actor, Outcome, denied
from world.voxels.chunks import World
from world.voxels.entities import Entity, drop_item

if TYPE_CHECKING:
    from world.actions.transaction import Transaction

__all__ = [
    "KNOCKBACK",
    "THROW_SPEED",
    "give",
    "punch",
    "spend",
    "throw",
    "use_entity",
    "wear_tool",
]

THROW_SPEED = 6.0  # blocks/s along the look (Minecraft: 0.3 blocks a tick)
KNOCKBACK = (8.0, 4.0)  # blocks/s away from the puncher, and up (Minecraft: 0.4 a tick each)


def give(
    world: World,
    actor: Actor,
    pos: Int3,
    stacks: tuple[ItemStack, ...],
    *,
    into_inventory: bool = False,
) -> None:
    """A break's drops: into the world at ``pos``, or the inventory first (module notes)."""
    player = world.players.get(actor.name) if into_inventory else None
    for stack in stacks:
        if player is not None:
            left = player.inventory.add(stack.item, stack.count, wear=stack.wear)
            if not left:
                continue
            stack = stack.with_count(left)
        drop_item(world.entities, pos, stack)


def spend(world: World, actor: Actor, stack: ItemStack) -> int:
    """Take ``stack`` from the actor's player (module notes); how many were taken (0 when the
    actor is no player of the world)."""
    player = world.players.get(actor.name)
    if player is None or player.creative:
        return 0
    inventory = player.inventory
    order = [inventory.selected, *(i for i in range(INVENTORY_SLOTS) if i != inventory.selected)]
    taken = 0
    for slot in order:
        held = inventory.slots[slot]
        if held is not None and held.item == stack.item:
            got = inventory.take(slot, stack.count - taken)
            taken += 0 if got is None else got.count
            if taken >= stack.count:
                break
    return taken


def wear_tool(world: World, actor: Actor, tool: Item | None, hardness: float) -> bool:
    """A survival break with ``tool`` of a block of that ``hardness`` (module notes); whether
    the tool broke. Nothing wears for a creative actor or player, a block of hardness 0, an
    actor who is no player of the world, or a held stack that is not the tool."""
    player = world.players.get(actor.name)
    if player is None or actor.creative or player.creative or tool is None or hardness <= 0:
        return False
    held = player.held
    if held is None or held.item != tool.name:
        return False
    return player.inventory.add_wear(player.inventory.selected, 1, tool.durability)


def throw(world: World, actor: Actor, count: int) -> Outcome:
    """Q: throw up to ``count`` of the held stack (module notes)."""
    player = world.players.get(actor.name)
    if player is None:
        return denied("no player of this world is acting")
    inventory = player.inventory
    got = inventory.take(inventory.selected, count)
    if got is None:
        return denied("nothing held")
    look = actor.look or player.look
    length = math.sqrt(sum(v * v for v in look)) or 1.0
    direction = tuple(v / length for v in look)
    x, y, z = actor.eye
    start = (x + direction[0] * 0.3, y - 0.3, z + direction[2] * 0.3)
    velocity = (
        direction[0] * THROW_SPEED,
        direction[1] * THROW_SPEED + 1.0,
        direction[2] * THROW_SPEED,
    )
    cell = Int3(*(math.floor(v) for v in start))
    drop_item(world.entities, cell, got, pos=start, velocity=velocity, delay=THROWN_DELAY)
    return Outcome(True, pos=cell, spent=got)


def _callback(tx: Transaction, entity: Entity, name: str, actor: Actor) -> object:
    """Run an entity kind's ``on_punch`` / ``on_use``: its result (a failure is ``tx.error``)."""
    kind = tx.world.registry.entities.get(entity.kind)
    ref = tx.view.entity(entity.id)
    if kind is None or getattr(kind, name) is None or ref is None:
        return None
    offered = {
        "entity": ref,
        "world": tx.view,
        "dt": 0.0,
        "actor": actor,
        "player": tx.view.player(actor),
        "data": ref.data,
    }
    outer, tx.actor = tx.actor, actor
    try:
        result, error = tx.block_call(kind, name, offered)
        if error is None:
            error = tx.settle()
    finally:
        tx.actor = outer
    if error is not None and tx.error is None:
        tx.error = error
    return result


def punch(tx: Transaction, entity: Entity, actor: Actor) -> Outcome:
    """A player hits an entity (module notes); a failing callback is left in ``tx.error``."""
    result = _callback(tx, entity, "on_punch", actor)
    if tx.error is not None:
        return Outcome(False)
    kind = tx.world.registry.entities.get(entity.kind)
    pushed = kind is not None and kind.physical and kind is not ITEM_ENTITY
    if result is not True and pushed and not entity.removed:
        dx, dz = entity.pos[0] - actor.eye[0], entity.pos[2] - actor.eye[2]
        length = math.hypot(dx, dz) or 1.0
        push, up = KNOCKBACK
        vx, vy, vz = entity.velocity
        tx.world.entities.move(
            entity, entity.pos, (vx + dx / length * push, max(vy, up), vz + dz / length * push)
        )
        entity.resting = False
    return Outcome(True, used=result is True)


def use_entity(tx: Transaction, entity: Entity, actor: Actor) -> Outcome:
    """A player right-clicks an entity: its ``on_use``; ``used`` when it returned True."""
    result = _callback(tx, entity, "on_use", actor)
    return Outcome(tx.error is None, used=result is True)
