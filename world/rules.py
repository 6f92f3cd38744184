"""Breaking, placing and using blocks: the rules of one world, which mods can veto and extend.

A `Rules` object owns a world, its mods and the queue of neighbour notifications still due. The
game makes one per world and maps mouse buttons to `Rules.break_block` (left), `Rules.use_block`
(right: a mod's ``on_use`` or else placing the actor's selected block) and `Rules.pick_block`
(middle), and calls `Rules.tick` every frame. Every action returns an `world.mods.outcome.Outcome`
and runs, in order (Luanti's dig/place pipeline, `world.actions.pipeline`):

1. the built-in rules (`world.actions.checks`, Minecraft's);
2. the block's own decision: its ``can_break``, or the placed block's ``placement_state``, which
   picks the state from the click's `world.mods.context.PlaceContext`;
3. the mods' ``can_*`` hooks (the first ``False`` or reason string denies);
4. the change, settled: the changed block's ``on_destruct`` / ``on_construct`` and the
   neighbours' built-in shape updates (`world.actions.transaction.Transaction.settle`);
5. the block's own ``on_use`` (a right click), the mods' ``on_*`` hooks, then the
   ``on_neighbor_changed`` notifications of every changed
   voxel, queued (never nested) and bounded by `NEIGHBOR_BUDGET` changed voxels per action;
   the rest waits in the rules' queue (`world.actions.neighbors`: one entry per voxel and cause, at
   most
   `world.actions.neighbors.MAX_PENDING`) for the next `Rules.tick`, which goes on, in place, with
   at most `TICK_NEIGHBOR_BUDGET` per frame. A falling-sand cascade or two mods that keep
   answering each other cannot hang the game nor grow its memory.

A hook or a block's callback that raises (``SystemExit`` and ``KeyboardInterrupt`` included) or
runs past
`world.mods.guard.HOOK_TIME_LIMIT` is logged with its mod's name and the action is denied with a
reason naming the mod and rolled back: every block the action changed, its mods' changes
included, is restored, so the world is as before. (Luanti keeps the change after a failing
callback; restoring it keeps "no block is lost or half-changed" simple to state and to test.)
The player's own Ctrl-C still quits, after restoring the action. One that keeps failing (three
timeouts, or ten failures, within 30 s) is switched off for this world by the rules' circuit
breaker (`world.mods.breaker`, `Rules.breaker`), with one message: the game runs at full speed
again, and a switched-off ``can_*`` hook or deciding callback denies (it fails closed).

Without mods, the module functions `break_block`, `place_block`, `use_block`, `pick_block` and
`break_time` apply the built-in rules and the blocks' own callbacks alone (``Rules(world)``).
Survival breaking takes time: `break_time` gives the seconds (the game shows progress and calls
`break_block` when they have passed); the rules themselves do not wait.

What an action does to the actor's inventory is the rules' too, done inside the action's
transaction on the actor's player (`world.voxels.players`: the world holds the inventory of every
player the game joined) and told in its outcome: a survival break's drops (``outcome.drops``,
lying in the world as ``builtin:item`` entities at the block, or in the inventory with
``Rules.drops_to_inventory``), the use of the held tool a survival break spends (its wear:
`world.actions.objects.wear_tool`; the last use breaks it, and the actor is told), the item a
survival place uses up (``outcome.spent``), Q's throw (`Rules.drop_held`), and
`Rules.move_items`, a move of items between the player's inventory and a block's (a chest's),
with the block's ``allow_*`` and ``on_put`` / ``on_take`` / ``on_move`` callbacks
(`world.actions.containers`), which returns the inventory after the move (``outcome.inventory``)
for the game to take. Entities act on their own in `Rules.tick`
(`world.ticks.entity_ticks`: stacks fall, merge and are picked up; falling blocks land; mods'
kinds step); a player punches or uses one with `Rules.punch_entity` / `Rules.use_entity`.

Light: when the world keeps one (``world.light``, a `world.light.lighting.Light`: the game's),
the rules relight around the voxels every committed action and tick changed, and keep the chunks
whose light changed until the caller takes them (`Rules.pop_relit`, as `World.pop_dirty` gives
the chunks whose blocks changed): the view remeshes both.

Sounds: every committed action and tick hands its sounds (`world.blocks.sounds.SoundEvent`: a done
break's and place's block sound, a hook's ``world.play_sound``) to the rules, which keep them,
oldest first, until the game takes them (`Rules.pop_sounds`) to play; a rolled-back action
(denied by a veto, a failing or stopped hook) or a tick's hook call rolled back alone makes none
(`world.actions.transaction.Transaction.play`). At most `MAX_WAITING_SOUNDS` wait (a game that
never takes them keeps the newest). A survival dig in progress, footsteps and splashes are the
game's: it plays ``registry.sounds_of(state).event("dig" | "step" | "fall", pos)``.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial

from world.actions import containers, objects, pipeline, slot_clicks
from world.actions.callbacks import BlockTables, implementation
from world.actions.checks import break_seconds, check_hit, held_tool, may_break, may_place
from world.actions.containers import Slot
from world.actions.neighbors import MAX_PENDING, NeighborQueue
from world.actions.slot_clicks import Click
from world.actions.transaction import START, Transaction
from world.blocks.block_type import AIR
from world.blocks.sounds import SoundEvent
from world.geometry import Int3
from world.items.containers import Container
from world.items.inventory import ItemStack
from world.light.lighting import Light
from world.mods.breaker import Breaker
from world.mods.calls import Implementation, ModError
from world.mods.guard import HOOK_TIME_LIMIT, HookGuard
from world.mods.host import Mods, logger
from world.mods.outcome import NO_CHANGES, NOTHING_TARGETED, Actor, Outcome, check_actor, denied
from world.mods.text_prompt import PROMPT_ARGUMENTS, TextPrompt
from world.ray import Hit
from world.ticks.block_ticks import BLOCK_TICK_BUDGET, BlockTicks
from world.ticks.entity_ticks import EntityTicks
from world.ticks.liquids import LiquidFlow
from world.ticks.random_ticks import RANDOM_TICK_SPEED, SIMULATION_DISTANCE
from world.validate import integer, number
from world.voxels.changes import Changes
from world.voxels.chunks import World
from world.voxels.entities import Entity
from world.voxels.layout import ChunkKey

__all__ = [
    "MAX_WAITING_SOUNDS",
    "NEIGHBOR_BUDGET",
    "TICK_NEIGHBOR_BUDGET",
    "Rules",
    "break_block",
    "break_time",
    "pick_block",
    "place_block",
    "use_block",
]

# Changed voxels whose neighbours are notified per action, and per tick. One change with 6
# non-air neighbours and one trivial neighbour hook costs ~25 µs in CPython (measured; real hooks
# add their own work): 256 bound a click to a few ms (a radius-3 explosion, 123 voxels, fits),
# 64 keep a frame's share to about 2 ms.
NEIGHBOR_BUDGET = 256
TICK_NEIGHBOR_BUDGET = 64
# Committed changes up to this many wake the entities resting near each; more wake them all.
WAKE_EACH = 256
# Sounds waiting for `Rules.pop_sounds`: four actions' or ticks' worth (MAX_SOUNDS each); a game
# that takes them every frame never comes near.
MAX_WAITING_SOUNDS = 256


class Rules:
    """The rules of one world: its actions, its mods' hooks and their pending notifications.

    Parameters
    ----------
    world : World
    mods : Mods, optional
        The loaded mods (`world.mods.loader.load_mods`); ``None`` applies the built-in rules only.
    hook_time_limit : float
        Seconds one hook call may run before it is stopped (`world.mods.guard`); without mods
        nothing is time-limited.
    max_pending : int
        The most changed voxels waiting for their neighbours' notification
        (`world.actions.neighbors.MAX_PENDING`).
    random_tick_speed : int
        Voxels picked per loaded chunk per game tick (`world.ticks.random_ticks.RANDOM_TICK_SPEED`).
    random_tick_seed : int, optional
        Makes the random ticks' picks and ABM chances reproducible (tests); random otherwise.
    simulation_distance : int
        Chunk columns around the position given to `tick` whose chunks get random ticks
        (`world.ticks.random_ticks.SIMULATION_DISTANCE`, Luanti's active block range).
    block_tick_budget : float
        Seconds per `tick` for the timers, random ticks and ABMs
        (`world.ticks.block_ticks.BLOCK_TICK_BUDGET`); what does not fit waits or is dropped as
        `world.ticks.block_ticks` says.
    clock : callable
        Seconds, monotonic (`time.perf_counter`): the clock of that budget and of the circuit
        breaker's window (`world.mods.breaker`); a fake one in tests.
    drop_seed : int, optional
        Makes the chances of survival drops reproducible (tests); random otherwise.
    """

    def __init__(
        self,
        world: World,
        mods: Mods | None = None,
        *,
        hook_time_limit: float = HOOK_TIME_LIMIT,
        max_pending: int = MAX_PENDING,
        random_tick_speed: int = RANDOM_TICK_SPEED,
        random_tick_seed: int | None = None,
        simulation_distance: int = SIMULATION_DISTANCE,
        block_tick_budget: float = BLOCK_TICK_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
        drop_seed: int | None = None,
    ) -> None:
        if not isinstance(world, World):
            raise TypeError(f"world must be a World, got {type(world).__name__}")
        if mods is not None and not isinstance(mods, Mods):
            raise TypeError(f"mods must be the loaded Mods or None, got {type(mods).__name__}")
        if not number(hook_time_limit, "hook_time_limit") > 0:
            raise ValueError(f"hook_time_limit must be seconds > 0, got {hook_time_limit!r}")
        if integer(max_pending, "max_pending") < 0:
            raise ValueError(f"max_pending must be >= 0, got {max_pending!r}")
        if not 0 < number(block_tick_budget, "block_tick_budget") < math.inf:
            raise ValueError(
                f"block_tick_budget must be a finite number of seconds > 0, "
                f"got {block_tick_budget!r}"
            )
        if not callable(clock):
            raise TypeError(f"clock must be callable, got {type(clock).__name__}")
        if drop_seed is not None:
            integer(drop_seed, "drop_seed")
        self._world = world
        self._mods = mods
        # Blocks' own callbacks run without mods too: their errors are then only logged, and
        # they are not time-limited (no watchdog thread: the watchdog guards against mods).
        # Either way a call that keeps failing is switched off for this world (world.mods.breaker).
        report = _log_error if mods is None else mods.record
        self._breaker = Breaker(report, clock=clock)
        limit = math.inf if mods is None else hook_time_limit
        self._guard = HookGuard(report, limit, self._breaker)
        self._callbacks: dict[object, Implementation | BlockTables | str] = {}
        self._ticks = BlockTicks(
            world,
            random_tick_speed,
            random_tick_seed,
            simulation_distance,
            budget=block_tick_budget,
            clock=clock,
        )
        # The report holds the mods, not the rules: no reference cycle keeps the rules alive.
        self._overflow = None if mods is None else partial(_report_overflow, mods, max_pending)
        self._pending = NeighborQueue(max_pending, self._overflow)
        self._drops = random.Random(drop_seed)
        self._relit: set[ChunkKey] = set()  # chunks relit since `pop_relit`
        self._sounds: deque[SoundEvent] = deque(maxlen=MAX_WAITING_SOUNDS)  # since `pop_sounds`
        self._dropped_sounds = 0
        self._entities = EntityTicks(world)
        self._liquids = LiquidFlow(world, clock=clock, seed=drop_seed)
        # Survival drops go into the breaker's inventory (the rest lying in the world) instead
        # of lying in the world as Minecraft's do: a setting (`world.actions.objects.give`).
        self.drops_to_inventory = False

    @property
    def world(self) -> World:
        """The world these rules act on."""
        return self._world

    @property
    def mods(self) -> Mods | None:
        """The mods whose hooks run, or None."""
        return self._mods

    @property
    def breaker(self) -> Breaker:
        """The circuit breaker of this world's hook calls: which are switched off, and
        `Breaker.enable` to turn a mod's back on (the chat's ``/mods``)."""
        return self._breaker

    @property
    def pending(self) -> int:
        """Changed voxels whose neighbours are still to be notified (by the next ticks)."""
        return len(self._pending)

    def pop_relit(self) -> set[ChunkKey]:
        """The chunks whose light the actions and ticks changed since the last call (none when
        the world keeps no light), for the view to remesh; forgotten here once taken."""
        relit, self._relit = self._relit, set()
        return relit

    def pop_sounds(self) -> list[SoundEvent]:
        """The sounds of the actions and ticks committed since the last call, oldest first, for
        the game to play (module notes); forgotten here once taken."""
        sounds = list(self._sounds)
        self._sounds.clear()
        return sounds

    @property
    def dropped_sounds(self) -> int:
        """Sounds dropped so far: past `world.actions.transaction.MAX_SOUNDS` in one action or
        tick, or past `MAX_WAITING_SOUNDS` waiting."""
        return self._dropped_sounds

    def close(self) -> None:
        """Stop the hook watchdog's thread (it also stops when the rules are collected)."""
        self._guard.close()

    def __repr__(self) -> str:
        return f"Rules({self._world!r}, {self._mods!r}, {len(self._pending)} pending)"

    # -- actions ------------------------------------------------------------------------------

    def break_block(self, hit: Hit | None, actor: Actor) -> Outcome:
        """Break the targeted block (left click), leaving air.

        Parameters
        ----------
        hit : Hit or None
            The raycast's answer; ``None`` (nothing targeted) is denied.
        actor : Actor

        Returns
        -------
        Outcome
            Done with the changes, ``break_time`` (the seconds the game should have made the
            player hold the button) and, for a survival actor, ``drops`` (what the broken block
            gives: `world.actions.pipeline.drops`; the held tool has spent a use, its slot
            emptied if that was its last: `world.actions.objects.wear_tool`), or denied: air,
            an unbreakable block, a ``can_break`` veto (the block's own or a mod's) or a failing
            hook or callback, its ``get_drops`` included (the world, the tool's wear included,
            is then unchanged).

        Raises
        ------
        TypeError, ValueError
            For a ``hit`` the raycast could not have made (naming ``hit.block``/``hit.face``)
            or an ``actor`` that is not an `Actor`.
        """
        target = check_hit(hit)
        check_actor(actor)
        if target is None:
            return denied(NOTHING_TARGETED)
        with self._transaction() as tx:
            pos = target[0]
            state = tx.read(pos)
            data = dict(self._world.block_data.get(pos)) if not actor.creative else {}
            outcome = pipeline.dig(tx, pos, actor)
            if not outcome and tx.error is None:
                return outcome
            gives: tuple[ItemStack, ...] = ()
            broke = None
            if tx.error is None and not actor.creative:  # Minecraft: creative breaks give none
                tool = held_tool(self._world, actor)
                gives = pipeline.drops(tx, state, self._drops, pos, data, tool)
                if tx.error is None:
                    objects.give(
                        self._world, actor, pos, gives, into_inventory=self.drops_to_inventory
                    )
                    hardness = float(self._world.registry.hardness[state])
                    if objects.wear_tool(self._world, actor, tool, hardness):
                        broke = tool
            finished = self._finish(tx, pos, break_time=outcome.break_time)
            if not finished.done:
                return finished
            if broke is not None:  # told once the break stands (Minecraft plays a sound)
                actor.tell(f"your {broke.description} broke")
            return replace(finished, drops=gives)

    def place_block(self, hit: Hit | None, block: str | int, actor: Actor) -> Outcome:
        """Place ``block`` (name, state key or id) at the targeted spot.

        The block goes into ``hit.block`` itself when that block is replaceable (tall grass) or
        the placed block merges into it (a slab into the same slab), else against the entered
        face, at ``hit.block + hit.face``. Its state is the one given unless the block's
        ``placement_state`` picks one from the click (`world.mods.context.PlaceContext`).

        Returns
        -------
        Outcome
            Done, or denied by a built-in rule, the block's ``placement_state``, a
            ``can_place`` veto or a failing hook; ``pos`` is the voxel the block went, or would
            have gone, into. A survival actor's done place ``spent`` one of the block's item.

        Raises
        ------
        ValueError
            For an unknown block name or id (checked before anything else: nothing changes),
            or a bad ``hit`` as `break_block`.
        """
        target = check_hit(hit)
        check_actor(actor)
        block_id = self._world.registry.resolve(block)
        if hit is None or target is None:
            return denied(NOTHING_TARGETED)
        hit = hit._replace(block=target[0], face=target[1])
        with self._transaction() as tx:
            outcome = pipeline.place_at_hit(tx, hit, block_id, actor)
            if not outcome and tx.error is None:
                return outcome
            return self._spend(self._finish(tx, outcome.pos or hit.block), block_id, actor)

    def use_block(self, hit: Hit | None, actor: Actor) -> Outcome:
        """Right click: use the targeted block, or else place the selected one.

        Unless the actor sneaks with a block selected (then it places, as in Minecraft), every
        ``can_use`` is asked, then the block's own ``on_use``, then the mods' ``on_use`` until
        one returns ``True``, then the held item's ``on_use``: that is the action
        (``outcome.used``; an item's denied `Outcome`, a bucket's refused pour, is the answer,
        its changes undone: `world.actions.pipeline.use`). Otherwise the actor's
        selected block is placed as by `place_block` (denied with a reason when nothing is
        selected). A denied use is not turned into a place. A survival actor's place
        ``spent`` one item of the selected block (a use spends nothing).

        Raises
        ------
        ValueError
            When ``actor.selected`` names an unknown block (checked before any hook runs), or
            for a bad ``hit`` as `break_block`.
        """
        target = check_hit(hit)
        check_actor(actor)
        registry = self._world.registry
        selected = None if actor.selected is None else registry.resolve(actor.selected)
        if hit is None or target is None:
            return denied(NOTHING_TARGETED)
        hit = hit._replace(block=target[0], face=target[1])
        with self._transaction() as tx:
            pos = hit.block
            block_id = tx.read(pos)
            if block_id == AIR:
                return denied("nothing to use", pos)
            if not (actor.sneak and selected is not None):
                used = pipeline.use(tx, hit, actor)
                if used is not None:
                    if tx.error is None and not used.used:
                        if not tx.changes:
                            return used  # a can_use denial, or the held item's
                        # A mod's on_use that did not handle the click changed blocks: kept.
                        kept = self._finish(tx, pos)
                        return replace(used, changes=kept.changes) if kept.done else kept
                    return self._finish(tx, pos, used=True)
            if selected is None:
                block = registry[block_id]
                placed = denied(f"{block.description} cannot be used and no block is selected", pos)
            else:
                placed = pipeline.place_at_hit(tx, hit, selected, actor)
            if tx.error is not None:
                return self._finish(tx, placed.pos or pos)
            if placed.done:
                assert selected is not None
                return self._spend(self._finish(tx, placed.pos or pos), selected, actor)
            if not tx.changes:
                return placed
            # No mod claimed the click and the place was denied, yet an on_use hook changed
            # blocks: those changes stand, as any on_* hook's do.
            kept = self._finish(tx, pos)
            return replace(placed, changes=kept.changes) if kept.done else kept

    def submit_text(self, prompt: TextPrompt, text: str, actor: Actor) -> Outcome:
        """The player confirmed a `world.mods.text_prompt.TextPrompt`: run its ``on_submit`` with
        the cleaned ``text`` as ``actor``'s action (watchdog, rollback on an error, neighbour
        updates), at ``prompt.pos`` (or the actor's eye voxel).

        Raises
        ------
        ValueError
            For a bad prompt, text or actor (checked before anything runs).
        """
        if not isinstance(prompt, TextPrompt):
            raise ValueError(f"prompt must be a TextPrompt, got {type(prompt).__name__}")
        text = prompt.clean(text)
        check_actor(actor)
        pos = prompt.pos or Int3(*(math.floor(v) for v in actor.eye))
        label = f"text prompt {prompt.name}"
        impl = implementation(prompt.mod, label, prompt.on_submit, PROMPT_ARGUMENTS)
        if not isinstance(impl, str) and self._breaker.tripped(impl.mod, impl.hook):
            return denied(self._breaker.refusal(impl.mod, impl.hook), pos, impl.mod)
        with self._transaction() as tx:
            if isinstance(impl, str):  # asks for an argument it is not offered
                tx.error = self._guard.record(prompt.mod, label, TypeError(impl))
                return self._finish(tx, pos)
            outer, tx.actor = tx.actor, actor
            try:
                offered = {
                    "world": tx.view,
                    "actor": actor,
                    "text": text,
                    "pos": pos,
                    "player": tx.view.player(actor),
                }
                _, error = tx.run(impl, offered)
                if error is None:
                    tx.settle()
                elif tx.error is None:
                    tx.error = error
            finally:
                tx.actor = outer
            return self._finish(tx, pos, used=True)

    def move_items(
        self,
        actor: Actor,
        container: Container,
        source: Slot,
        target: Slot,
        inventory: Sequence[ItemStack | None],
    ) -> Outcome:
        """Move the stack in ``source`` onto ``target`` as ``actor``: between the actor's
        inventory and a block's (a chest's), or within the block's (`world.actions.containers`:
        the mods' ``can_use``, the block's ``allow_*``, the change, its ``on_*``).

        Parameters
        ----------
        actor : Actor
        container : Container
            The block's inventory (`world.items.containers`): the voxel and the data key of its
            slots.
        source, target : Slot
            ``Slot(PLAYER, i)``, a slot of ``inventory``, or ``Slot(BLOCK, i)``, one of the
            block's (`world.actions.containers.PLAYER`, `world.actions.containers.BLOCK`); at
            least one is the block's.
        inventory : sequence of (ItemStack or None)
            The actor's inventory slots as they are (`world.items.inventory.INVENTORY_SLOTS`);
            not changed.

        Returns
        -------
        Outcome
            Done, with ``inventory`` the actor's slots after the move (None when it did not
            touch them): take them only from a done outcome. Or denied, nothing moved on either
            side: the block gone or its data unreadable, nothing in ``source``, a ``can_use``
            veto, the block's ``allow_*`` refusing, or a failing hook or callback (rolled back).

        Raises
        ------
        TypeError, ValueError
            For an actor that is not an `Actor`, or a container, slot or inventory that is not
            one (`world.actions.containers.check_move`), before anything runs.
        """
        check_actor(actor)
        container, source, target, pocket = containers.check_move(
            container, source, target, inventory
        )
        with self._transaction() as tx:
            moved = containers.move(tx, actor, container, source, target, pocket)
            if not moved and tx.error is None:
                return moved
            finished = self._finish(tx, container.pos)
            return replace(finished, inventory=moved.inventory) if finished.done else finished

    def click_slots(
        self, actor: Actor, click: Click, container: Container | None = None
    ) -> Outcome:
        """One click of the inventory screen as ``actor``'s action (`world.actions.slot_clicks`:
        pick up, put down, split, quick move, drag, craft), on the actor's player's inventory,
        its crafting grid and carried stack, and the open block inventory's slots if any.

        Parameters
        ----------
        actor : Actor
        click : Click
            The button and the slot (or a drag's slots): `world.actions.containers.Slot` s of
            the sides the screen shows.
        container : Container, optional
            The block inventory shown instead of the crafting grid (a chest), or None.

        Returns
        -------
        Outcome
            Done (the player's slots and the block's changed as the click says, perhaps not at
            all), or denied with nothing changed: no such player, the block gone or its data
            unreadable, a ``can_use`` veto, the block's ``allow_*`` refusing a clicked stack,
            or a failing hook or callback (rolled back, naming the mod).

        Raises
        ------
        TypeError, ValueError
            For an actor that is not an `Actor`, or a click or container that is not one
            (`world.actions.slot_clicks.check_click`), before anything runs.
        """
        check_actor(actor)
        click, container = slot_clicks.check_click(click, container)
        with self._transaction() as tx:
            clicked = slot_clicks.click(tx, actor, click, container)
            if not clicked.done and tx.error is None:
                tx.rollback(START)
                return clicked
            return self._finish(tx, clicked.pos or Int3(0, 0, 0))

    def put_back(self, actor: Actor) -> Outcome:
        """The inventory screen closes: the actor's carried stack and crafting grid go back
        into the inventory, what does not fit dropped at the player's feet (``drops``)."""
        check_actor(actor)
        with self._transaction() as tx:
            outcome = slot_clicks.put_back(self._world, actor)
            if not outcome.done:
                return outcome
            return replace(self._finish(tx, outcome.pos or Int3(0, 0, 0)), drops=outcome.drops)

    def pick_block(self, hit: Hit | None, actor: Actor) -> int | None:
        """The block id the middle click puts in the hotbar: the target's, or None (nothing
        targeted, air, or an unbreakable block in survival: only creative may pick bedrock)."""
        target = check_hit(hit)
        check_actor(actor)
        if target is None:
            return None
        block_id = self._world.get_block(*target[0])
        if block_id == AIR:
            return None
        if not actor.creative and not self._world.registry[block_id].breakable:
            return None
        return block_id

    def break_time(self, hit: Hit | None, actor: Actor) -> float:
        """Seconds ``actor`` must hold the button to break the target.

        The block's ``hardness`` in survival, 0 in creative, ``inf`` for an unbreakable block,
        air or no target. The game shows the progress and calls `break_block` when the time has
        passed.
        """
        target = check_hit(hit)
        check_actor(actor)
        if target is None:
            return math.inf
        block_id = self._world.get_block(*target[0])
        if block_id == AIR:
            return math.inf
        return break_seconds(self._world.registry[block_id], actor, held_tool(self._world, actor))

    def tick(self, dt: float, around: Iterable[float] | None = None) -> Changes:
        """One frame of mod time: every ``on_tick``, the timers and random ticks due, then the
        neighbour notifications waiting.

        ``around`` is the player's position: random ticks (and the ABMs they run) reach only
        the chunks within the simulation distance of its chunk column; ``None`` ticks every
        loaded chunk (no player).

        Each hook call is isolated: when it raises or runs too long, its own changes are
        restored and the others still run. The timers, random ticks and ABMs share the
        ``block_tick_budget`` (`world.ticks.block_ticks`: due timers wait, surplus picks are
        dropped). The pending queue is drained in place, at most `TICK_NEIGHBOR_BUDGET`
        changed voxels per call.

        Returns
        -------
        Changes
            The voxels changed by this tick (`world.voxels.changes`), relit (`pop_relit`).

        Raises
        ------
        ValueError
            When ``dt`` is not finite seconds >= 0, or ``around`` not a finite position.
        """
        seconds = number(dt, "dt")
        if not 0 <= seconds < math.inf:
            raise ValueError(f"dt must be a finite number of seconds >= 0, got {dt!r}")
        if self._world.journal.active:  # before any clock moves: a refused tick changes nothing
            raise RuntimeError("a transaction is already running on this world")
        self._ticks.ticker.centre_on(around)
        data = self._world.block_data
        data.advance(seconds)
        ticks = self._ticks.ticker.due(seconds)
        if (
            self._mods is None
            and not data.timers
            and not len(data.liquids)
            and not self._world.registry.random_ticks.any()
            and not len(self._world.entities)
        ):
            return NO_CHANGES
        with self._transaction(self._pending) as tx:
            if self._mods is not None:
                tx.call("on_tick", {"world": tx.view, "dt": seconds}, isolate=True)
            self._ticks.run(tx, ticks)
            self._liquids.run(tx)
            self._entities.run(tx, seconds)
            tx.notify_neighbors(TICK_NEIGHBOR_BUDGET, isolate=True)
            self._liquids.touched(tx)
            changes = tx.changes.all()
        self._keep_sounds(tx)
        self._relight(changes)
        return changes

    # -- players' objects -------------------------------------------------------------------

    def drop_held(self, actor: Actor, count: int = 1) -> Outcome:
        """Q: the actor's player throws up to ``count`` of the held stack into the world
        (`world.actions.objects.throw`); ``spent`` is what left the hand."""
        check_actor(actor)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 64:
            raise ValueError(f"count must be an integer 1..64, got {count!r}")
        with self._transaction() as tx:
            outcome = objects.throw(self._world, actor, count)
            if not outcome.done:
                return outcome
            return replace(self._finish(tx, outcome.pos or Int3(0, 0, 0)), spent=outcome.spent)

    def punch_entity(self, entity_id: int, actor: Actor) -> Outcome:
        """Left click on an entity: its kind's ``on_punch``, and a knock back
        (`world.actions.objects.punch`)."""
        return self._on_entity(entity_id, actor, objects.punch)

    def use_entity(self, entity_id: int, actor: Actor) -> Outcome:
        """Right click on an entity: its kind's ``on_use`` (`world.actions.objects.use_entity`);
        ``used`` when it handled the click."""
        return self._on_entity(entity_id, actor, objects.use_entity)

    def _on_entity(
        self,
        entity_id: int,
        actor: Actor,
        act: Callable[[Transaction, Entity, Actor], Outcome],
    ) -> Outcome:
        check_actor(actor)
        entity = self._world.entities.get(entity_id)
        if entity is None:
            return denied(NOTHING_TARGETED)
        pos = Int3(*(math.floor(v) for v in entity.pos))
        with self._transaction() as tx:
            outcome = act(tx, entity, actor)
            return replace(self._finish(tx, pos), used=outcome.used)

    # -- the transaction ------------------------------------------------------------------------

    def _transaction(self, queue: NeighborQueue | None = None) -> Transaction:
        """A transaction on this world; an action's gets a fresh queue, merged when it is done."""
        if queue is None:
            queue = NeighborQueue(self._pending.cap, self._overflow)
        return Transaction(self._world, self._mods, self._guard, queue, self._callbacks, _PIPELINE)

    def _finish(
        self,
        tx: Transaction,
        pos: Int3,
        *,
        break_time: float = 0.0,
        used: bool = False,
    ) -> Outcome:
        """Close an action: notify neighbours, then keep it, or restore everything on an error."""
        error = tx.error
        if error is None:
            error = tx.notify_neighbors(NEIGHBOR_BUDGET, isolate=False)
        if error is not None:
            tx.rollback(START)
            return Outcome(False, str(error), pos=pos, denied_by=error.mod)
        if tx.queue is not None:
            self._pending.merge(tx.queue)
        self._liquids.touched(tx)
        changes = tx.changes.all()
        self._keep_sounds(tx)
        self._relight(changes)
        return Outcome(True, pos=pos, changes=changes, break_time=break_time, used=used)

    def _keep_sounds(self, tx: Transaction) -> None:
        """Keep a committed transaction's sounds for `pop_sounds`, the oldest waiting dropped
        past `MAX_WAITING_SOUNDS`."""
        overflow = max(len(self._sounds) + len(tx.sounds) - MAX_WAITING_SOUNDS, 0)
        self._dropped_sounds += tx.dropped_sounds + overflow
        self._sounds.extend(tx.sounds)

    def _spend(self, outcome: Outcome, placed: int, actor: Actor) -> Outcome:
        """A done place by a survival actor uses up one item of the placed block: taken from the
        held stack of the actor's player (inside the action's transaction), and told in
        ``spent``."""
        if not outcome.done or actor.creative:
            return outcome
        spent = ItemStack(self._world.registry[placed].name, 1)
        objects.spend(self._world, actor, spent)
        return replace(outcome, spent=spent)

    def _relight(self, changes: Changes) -> None:
        """Relight around the committed changes that can change light, in one call (one bounded
        relight per chunk touched, each seeing them all), when the world keeps a light; wake the
        entities resting near them."""
        if changes and len(self._world.entities):
            if len(changes) <= WAKE_EACH:
                self._entities.wake(c.pos for c in changes)
            else:
                for entity in self._world.entities:
                    entity.resting = False
        light = self._world.light
        if not isinstance(light, Light) or not changes:
            return
        positions = [c.pos for c in changes if light.changes_light(c.old, c.new)]
        if positions:
            self._relit |= light.update(positions)


class _Pipeline:
    """The checks and nested actions a hook's view runs (`world.actions.transaction.Actions`): the
    built-in rules' and the pipeline's, handed to every transaction the rules open."""

    may_break = staticmethod(may_break)
    may_place = staticmethod(may_place)
    dig = staticmethod(pipeline.dig)
    place = staticmethod(pipeline.place)


_PIPELINE = _Pipeline()


def _log_error(mod: str, where: str, exc: BaseException, *, traceback: bool = True) -> ModError:
    """Without loaded mods (a block's own callback failed): log the failure as `Mods.record`
    would, and return it."""
    message = str(exc) if not traceback else f"{type(exc).__name__}: {exc}"
    error = ModError(mod, where, message)
    logger.error("%s", error, exc_info=exc if traceback else None)
    return error


def _report_overflow(mods: Mods, cap: int, cause: str | None) -> None:
    """Log, once per mod, that its changes overflowed the neighbour queue."""
    message = (
        f"more than {cap} changed voxels wait for their neighbours' notification; "
        "the neighbours of further changes are not notified"
    )
    mods.record(cause or "base", "on_neighbor_changed", RuntimeError(message), traceback=False)


def break_block(world: World, hit: Hit | None, actor: Actor) -> Outcome:
    """`Rules.break_block` with the built-in rules only (no mods)."""
    return Rules(world).break_block(hit, actor)


def place_block(world: World, hit: Hit | None, block: str | int, actor: Actor) -> Outcome:
    """`Rules.place_block` with the built-in rules only (no mods)."""
    return Rules(world).place_block(hit, block, actor)


def use_block(world: World, hit: Hit | None, actor: Actor) -> Outcome:
    """`Rules.use_block` with the built-in rules only: places ``actor.selected``."""
    return Rules(world).use_block(hit, actor)


def pick_block(world: World, hit: Hit | None, actor: Actor) -> int | None:
    """`Rules.pick_block` on ``world``."""
    return Rules(world).pick_block(hit, actor)


def break_time(world: World, hit: Hit | None, actor: Actor) -> float:
    """`Rules.break_time` on ``world``."""
    return Rules(world).break_time(hit, actor)
