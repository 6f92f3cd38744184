"""What entities do on their own: their steps, 20 a second of world time, inside the tick.

`world.rules.Rules.tick` runs `EntityTicks.run` in its tick transaction after the blocks' work.
The world time a frame advanced is cut into steps of `world.blocks.entity_type.STEP_SECONDS`
(at most `MAX_STEPS` a frame: a frame that came late does not make a burst; the rest is
dropped, as Minecraft skips ticks when it falls behind). In each step, every entity of a loaded
chunk, in id order:

1. goes when its kind's ``max_age`` has passed (a stack after 5 minutes);
2. moves (a physical kind: gravity, drag, collision, `world.entities.motion`), unless it rests,
   and unless the chunks around it are not loaded (it waits at the edge of the loaded world,
   and goes on when they load); a stack in water floats up and drifts with the current, a stack
   in lava burns (`world.physics.swimming.current`);
3. does its kind's own work: a stack merges and is picked up (`world.entities.items`), a falling
   block lands (`land`), a mod's kind runs its ``on_activate`` once, then ``on_step(entity, dt,
   world)``.

A frame's steps have a budget (`ENTITY_STEP_BUDGET`, read every 32 entities): when it runs out in
the middle of a step, the entities not reached yet move first in the next frame, before any new
step begins. Every entity moves once a step and no step overlaps the next (lockstep: a falling
column never overtakes itself), so a world crowded past the budget (a runaway spawner) moves
slower, never stalls a frame, and no entity starves.

Every call of a mod's callback is isolated as a block's timer is: a failing or late one is undone
alone, logged with its mod's name, and the others go on. Every write goes through the stores
(`world.voxels.entities`, `world.voxels.players`) or the transaction: recorded, marked for saving.

Resting entities cost almost nothing: a stack on the ground is not moved until a block within a
block of it changes (every committed change wakes those near it: `wake`, from the rules) or a mod
moves it or writes its data; once a second each is looked at for its age. A stack looks for
stacks to merge with every `world.entities.items.MERGE_EVERY` steps while it moves and once on
the step it comes to rest, never at rest (`world.entities.items`: why nothing is missed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable

from world.actions.transaction import Transaction
from world.blocks.block_type import AIR
from world.blocks.entity_type import FALLING_BLOCK, ITEM_ENTITY, STEP_SECONDS, EntityType
from world.entities.items import MERGE_EVERY, merge, pick_up
from world.entities.motion import REST_SPEED, box_of, speed, step_motion
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.physics.swimming import current
from world.voxels.chunks import World
from world.voxels.entities import Entity, chunk_of, drop_item
from world.voxels.layout import ChunkKey

__all__ = ["ENTITY_STEP_BUDGET", "MAX_STEPS", "RECHECK_EVERY", "EntityTicks", "land"]

MAX_STEPS = 4  # entity steps one frame runs at most
# Seconds one entity step may take before the entities not reached wait for the next (500
# stacks and 50 creatures take about 2 ms: `bench.entities`).
ENTITY_STEP_BUDGET = 0.004
# A stack in water rises (Minecraft's 5e-4 blocks/tick² up, to 0.06 blocks/tick) and drifts with
# the current (`world.physics.swimming.current`); in lava it burns.
ITEM_FLOAT = 0.2  # blocks/s², on top of cancelling its gravity
ITEM_FLOAT_SPEED = 1.2  # blocks/s
RECHECK_EVERY = 20  # steps between a resting entity's looks at its age (1 s)
# Blocks from a player's middle within which stacks are looked at for pickup: the pickup box
# (the player's grown by `world.entities.items.PICKUP_REACH`) lies within it.
PICKUP_RADIUS = 2.5
FALL_LIMIT = 30.0  # seconds a falling block falls before it drops as an item (Minecraft: 600 ticks)


class EntityTicks:
    """The entity steps of one world (module notes)."""

    def __init__(
        self,
        world: World,
        *,
        budget: float = ENTITY_STEP_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.world = world
        self.budget = budget
        self.clock = clock
        # A step the budget cut short: its entities in id order, and how many have moved.
        self._order: list[Entity] | None = None
        self._done = 0
        self._carry = 0.0
        self._steps = 0  # steps run so far: staggers merges and rest checks by entity id
        self._ready: dict[ChunkKey, bool] = {}  # this step: chunks whose neighbours are loaded
        self._still: frozenset[str] = frozenset()  # this step: the kinds with no on_step

    def due(self, seconds: float) -> int:
        """The steps a frame of ``seconds`` world time brings (at most `MAX_STEPS`)."""
        self._carry += seconds
        steps = int(self._carry / STEP_SECONDS)
        self._carry -= steps * STEP_SECONDS
        if steps > MAX_STEPS:
            steps = MAX_STEPS
            self._carry = 0.0
        return steps

    def run(self, tx: Transaction, seconds: float) -> None:
        """The steps due after ``seconds`` more world time, within the budget (module notes)."""
        steps = self.due(seconds)
        if not len(self.world.entities):
            self._order = None
            return
        deadline = self.clock() + self.budget
        if self._order is not None:  # first the step the last frame left unfinished
            steps = max(steps, 1)
        for _ in range(steps):
            if self._order is None:
                self._begin()
            if not self._step(tx, deadline):
                return  # the budget ran out: this step goes on in the next frame

    def wake(self, positions: Iterable[Int3]) -> None:
        """Blocks changed at ``positions``: the entities resting within a block of them move
        again."""
        entities = self.world.entities
        for pos in positions:
            centre = (pos[0] + 0.5, pos[1] + 0.5, pos[2] + 0.5)
            for entity in entities.near(centre, 2.0):
                entity.resting = False

    def _begin(self) -> None:
        """A new step: every entity, in id order, moves once in it; those at rest with nothing
        due (no ``on_step``, not their second for a look at their age) are left out at once (one
        woken during the step moves from the next)."""
        self._steps += 1
        self._ready.clear()
        kinds = self.world.registry.entities
        still = self._still = frozenset(n for n, kind in kinds.items() if kind.on_step is None)
        steps = self._steps
        self._order = [
            entity
            for entity in self.world.entities.by_id.values()
            if not entity.resting
            or entity.kind not in still
            or (steps + entity.id) % RECHECK_EVERY == 0
        ]
        self._done = 0

    def _step(self, tx: Transaction, deadline: float) -> bool:
        """Go on with the step begun (`_begin`) until every entity moved (True) or the
        deadline passed (False: the rest move first in the next frame)."""
        world = self.world
        registry = world.registry
        now = world.entities.clock
        order = self._order
        assert order is not None
        start = self._done
        steps, still = self._steps, self._still
        while self._done < len(order):
            n = self._done
            if n > start and (n - start) % 32 == 0 and self.clock() >= deadline:
                return False
            self._done = n + 1
            entity = order[n]
            visit = (steps + entity.id) % RECHECK_EVERY == 0  # once a second each
            if entity.resting and not visit and entity.kind in still:
                continue  # at rest: nothing to do until woken or visited
            if entity.removed:
                continue
            kind = registry.entities.get(entity.kind)
            if kind is None:
                continue  # a kind no loaded mod defines: kept, saved, still
            if visit and kind.max_age is not None and now - entity.born >= kind.max_age:
                world.entities.remove(entity)
                continue
            moving = not entity.resting
            if kind.physical and not self._move(entity, kind):
                continue
            if kind is ITEM_ENTITY:
                # Moving, every few steps; at rest, once: on the step it came to rest (it is
                # woken, and looks again, when its data is written or a block near it changes;
                # a stack arriving looks for it).
                if moving and (entity.resting or (steps + entity.id) % MERGE_EVERY == 0):
                    merge(world.entities, registry, entity)
            elif kind is FALLING_BLOCK:
                self._falling(tx, entity)
            else:
                self._mod(tx, entity, kind)
        self._order = None
        if len(world.players):
            self._pick_up()
        return True

    def _move(self, entity: Entity, kind: EntityType) -> bool:
        """One step of a physical entity's body; False when it waits for chunks to load."""
        world = self.world
        if entity.resting:
            return True  # until a change near it wakes it (`wake`) or it is moved
        if not _around_loaded(world, entity, kind, self._ready):
            return False
        velocity = entity.velocity
        if kind is ITEM_ENTITY:
            liquid = current(world, *box_of(entity.pos, kind))
            if liquid.burns:  # a stack fallen into lava burns up (Minecraft's)
                world.entities.remove(entity)
                return False
            if liquid.wet:  # it floats and drifts with the current
                vx, vy, vz = velocity
                dt = STEP_SECONDS
                vy = min(vy + (kind.gravity + ITEM_FLOAT) * dt, ITEM_FLOAT_SPEED)
                velocity = (vx + liquid.push[0] * dt, vy, vz + liquid.push[1] * dt)
        pos, velocity, on_ground = step_motion(world, entity.pos, velocity, kind, STEP_SECONDS)
        world.entities.step(entity, pos, velocity, on_ground)
        entity.resting = on_ground and speed(velocity) < REST_SPEED
        return True

    def _pick_up(self) -> None:
        """Every player picks up the stacks within their reach."""
        world = self.world
        for player in world.players:
            x, y, z = player.pos
            for entity in world.entities.near((x, y + 0.9, z), PICKUP_RADIUS):
                if entity.kind == ITEM_ENTITY.name and not entity.removed:
                    pick_up(world.entities, (player,), entity)

    def _falling(self, tx: Transaction, entity: Entity) -> None:
        world = self.world
        if entity.on_ground:
            land(tx, entity)
        elif world.entities.age(entity) > FALL_LIMIT or entity.pos[1] < world.build_height[0]:
            _drop_block(world, entity, Int3(*(math.floor(v) for v in entity.pos)))

    def _mod(self, tx: Transaction, entity: Entity, kind: EntityType) -> None:
        activate = not entity.activated
        every = max(1, round(kind.step_interval / STEP_SECONDS))
        step = kind.on_step is not None and (self._steps + entity.id) % every == 0
        if not (activate or step):
            return  # nothing of the mod's is due: no reference is made
        ref = tx.view.entity(entity.id)
        if ref is None:
            return
        offered = {
            "entity": ref,
            "world": tx.view,
            "dt": every * STEP_SECONDS,
            "actor": None,
            "player": None,
            "data": ref.data,
        }
        if activate:
            entity.activated = True
            if kind.on_activate is not None:
                _isolated(tx, kind, "on_activate", {**offered, "dt": STEP_SECONDS})
        if step and not entity.removed:
            _isolated(tx, kind, "on_step", offered)


def _isolated(tx: Transaction, kind: EntityType, callback: str, offered: dict[str, object]) -> None:
    mark = tx.mark()
    _, error = tx.block_call(kind, callback, offered)
    if error is None:
        error = tx.settle()
    if error is not None:
        tx.rollback(mark)
        tx.error = None


def _around_loaded(
    world: World, entity: Entity, kind: EntityType, known: dict[ChunkKey, bool]
) -> bool:
    """Whether every chunk the entity's box, grown by a block, touches is loaded (a step moves
    it less than a block: it reads nothing beyond them); ``known`` keeps this step's answers."""
    half = kind.size[0] / 2 + 1.0
    x, y, z = entity.pos
    low = chunk_of((x - half, y - 1.0, z - half))
    high = chunk_of((x + half, y + kind.size[1] + 1.0, z + half))
    for cx in range(low[0], high[0] + 1):
        for cy in range(low[1], high[1] + 1):
            for cz in range(low[2], high[2] + 1):
                key = (cx, cy, cz)
                loaded = known.get(key)
                if loaded is None:
                    loaded = known[key] = world.is_loaded(cx, cy, cz)
                if not loaded:
                    return False
    return True


def land(tx: Transaction, entity: Entity) -> None:
    """A falling block that came to rest: it becomes its block in the voxel it stands in when
    that voxel is replaceable, else drops as its item there (Minecraft's ``FallingBlockEntity``)."""
    world = tx.world
    registry = world.registry
    cell = Int3(
        math.floor(entity.pos[0]), math.floor(entity.pos[1] + 0.01), math.floor(entity.pos[2])
    )
    key = entity.data.get("block")
    state = registry.lookup_key(key)[0] if isinstance(key, str) else None
    if state is None or state == AIR:
        world.entities.remove(entity)
        return
    if registry.replaceable[tx.read(cell)] and cell[1] < world.build_height[1]:
        world.entities.remove(entity)
        tx.set(cell, state)
        error = tx.settle()
        if error is not None:
            tx.error = None  # the block's own callback failed: the tick goes on, logged
        return
    _drop_block(world, entity, cell)


def _drop_block(world: World, entity: Entity, cell: Int3) -> None:
    key = entity.data.get("block")
    world.entities.remove(entity)
    state = world.registry.lookup_key(key)[0] if isinstance(key, str) else None
    if state is not None and state != AIR:
        drop_item(world.entities, cell, ItemStack(world.registry[state].name, 1))
