"""What blocks do on their own in a tick: timers that ran out, random ticks, mods' ABMs.

`world.rules.Rules.tick` runs `BlockTicks.run` inside its tick transaction, after the mods'
``on_tick``: first the timers whose time came (`world.voxels.block_data`: the block's ``on_timer``,
told the time that passed), then the frame's random ticks (`world.ticks.random_ticks`: the block's
``on_random_tick``, then every `world.blocks.abm.Abm` acting on its block, each with its chance).
Each call is isolated: it runs under the hook watchdog, its changes settle (``on_construct`` and the
rest), and when it fails only its own changes are undone and the tick goes on.

The budget. All of that shares one wall-clock budget per `BlockTicks.run` (a frame),
`BLOCK_TICK_BUDGET` unless the rules say otherwise, read on an injected clock (tests use a fake
one). The clock is read between calls, never inside one: a call is not cut short (the watchdog
stops one that runs away), so a frame's block work ends at most one call past its budget.

- Timers come first, oldest end first, taken from `world.voxels.block_data.BlockData.due` a few at a
  time (as many as the time left fits at the calls' average cost so far, at most
  `TIMER_BATCH`): those not taken stay due, in order, for the next frame, and fire then with
  the time that really passed. A running timer that is not due costs nothing (the store keeps a
  heap), so a million idle timers leave a frame as fast as none.
- Random ticks use what the timers left. The picks of a game tick that do not fit are dropped,
  as the remaining game ticks of the frame are: they are random samples (Minecraft too simply
  has fewer random ticks when the server falls behind), so a crowded world grows slower, never
  later. Which picks run rotates: a frame starts where the last one was cut off in the picks'
  chunk order, so chunks late in that order get their share.
- At least one unit of each runs in every frame that has work (one timer, one pick with its
  ABMs), whatever the time left: neither starves the other.
- The budget is the calls' (with their settling): drawing the picks
  (`world.ticks.random_ticks.RandomTicker.pick`) is not counted against it. That cost is bounded
  apart, by the chunks within the simulation distance and the chunks looked at per tick, and
  grows with no mod's work; counting it would let a world with many loaded chunks and no view
  clearing ``world.dirty`` (a test, a bench) starve the calls.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace

from world.actions.callbacks import abm_implementation
from world.actions.transaction import Transaction
from world.blocks.abm import Abm
from world.geometry import Int3
from world.mods.calls import Implementation
from world.ticks.random_ticks import SIMULATION_DISTANCE, RandomTicker
from world.voxels.chunks import World

__all__ = ["BLOCK_TICK_BUDGET", "TIMER_BATCH", "BlockTicks"]

# A frame at 60 FPS is 16.7 ms, of which chunk streaming and meshing take up to 3 ms
# (game.play.STREAM_BUDGET_S). The example mods' whole game tick costs about 0.1 ms
# (bench/ticks.py, whose target for it is 1 ms): 2 ms leaves them far more than they need, and
# a flood of timers or ABMs takes at most an eighth of a frame (plus one call).
BLOCK_TICK_BUDGET = 0.002
# Timers taken from the store at once, at most: the budget is looked at between batches, so a
# batch of slow timers overshoots by this many calls at worst (the batch is sized to the time
# left at the average cost so far, and the first is one timer).
TIMER_BATCH = 64


class BlockTicks:
    """Timers, random ticks and ABMs of one world, under a time budget (see the module notes).

    Parameters
    ----------
    world : World
    random_tick_speed : int
        Voxels picked per chunk per game tick (`world.ticks.random_ticks.RANDOM_TICK_SPEED`).
    seed : int, optional
        Makes the picks and the ABMs' chances reproducible.
    distance : int
        The simulation distance (`world.ticks.random_ticks.SIMULATION_DISTANCE`).
    budget : float
        Seconds of block work per `run` (`BLOCK_TICK_BUDGET`; checked by the rules).
    clock : callable
        Seconds, monotonic (`time.perf_counter`; a fake in tests).
    """

    def __init__(
        self,
        world: World,
        random_tick_speed: int,
        seed: int | None = None,
        distance: int = SIMULATION_DISTANCE,
        *,
        budget: float = BLOCK_TICK_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.world = world
        self.ticker = RandomTicker(world, random_tick_speed, seed, distance=distance)
        self.chance = random.Random(seed)  # ABMs' chance to act on a pick
        self.abm_impls: dict[int, Implementation | str] = {}
        self.budget = float(budget)
        self.clock = clock
        self._resume = 0  # where in a game tick's picks the last frame was cut off

    def run(self, tx: Transaction, ticks: int) -> None:
        """Timers that ran out (``on_timer``), then ``ticks`` game ticks' random ticks
        (``on_random_tick`` and ABMs), within `budget` (module notes); each call isolated: a
        failing one is undone alone."""
        deadline = self.clock() + self.budget
        if self.world.block_data.timers:
            self._timers(tx, deadline)
        for _ in range(ticks):
            started = self.clock()
            picks = self.ticker.pick()
            deadline += self.clock() - started  # drawing them is not the budget's (notes)
            if not self._random_tick(tx, picks, deadline):
                break

    def _timers(self, tx: Transaction, deadline: float) -> None:
        """Due timers, oldest first, in batches while the budget lasts (the first at once)."""
        registry = self.world.registry
        data = self.world.block_data
        started = self.clock()
        done = 0
        batch = 1
        while True:
            due = data.due(self.world.chunks, limit=batch)
            for pos, elapsed in due:
                state = tx.read(pos)
                if registry[state].on_timer is not None:
                    self.isolated(tx, pos, state, "on_timer", {"elapsed": elapsed})
            done += len(due)
            now = self.clock()
            if len(due) < batch or now >= deadline:  # none left due, or no time left
                return
            # As many as the time left fits at the average cost so far.
            average = (now - started) / done
            fits = TIMER_BATCH if average <= 0 else int((deadline - now) / average)
            batch = max(1, min(TIMER_BATCH, fits))

    def _random_tick(self, tx: Transaction, picks: list[tuple[Int3, int]], deadline: float) -> bool:
        """One game tick's picks, starting where the last frame was cut off, while the budget
        lasts (the first pick at once); False when the budget ran out."""
        registry = self.world.registry
        count = len(picks)
        first = self._resume % count if count else 0
        for n in range(count):
            if n and self.clock() >= deadline:
                self._resume = first + n  # the rest of the picks are dropped (module notes)
                return False
            pos, state = picks[(first + n) % count]
            if tx.read(pos) != state:  # an earlier tick of this frame may have changed it
                continue
            if registry[state].on_random_tick is not None:
                self.isolated(tx, pos, state, "on_random_tick", {})
            for abm in registry.abms_of(state):
                if tx.read(pos) == state and self.chance.random() < abm.chance:
                    self.abm(tx, abm, pos, state)
        self._resume = 0
        return self.clock() < deadline

    def abm(self, tx: Transaction, abm: Abm, pos: Int3, state: int) -> None:
        """One mod's random-tick action on one voxel, isolated like a block's callback; named
        ``random tick of <its blocks>`` in errors and by the circuit breaker."""
        impl = self.abm_impls.get(id(abm))
        label = f"random tick of {', '.join(abm.blocks)}"
        if impl is None:
            found = abm_implementation(abm)
            impl = found if isinstance(found, str) else replace(found, hook=label)
            self.abm_impls[id(abm)] = impl
        if isinstance(impl, str):
            tx.guard.record(abm.mod, label, TypeError(impl))
            return
        registry = self.world.registry
        offered = {
            "world": tx.view,
            "pos": pos,
            "block": registry[state],
            "state": state,
            "props": registry.props(state),
        }
        mark = tx.mark()
        _, error = tx.run(impl, offered)
        if error is None:
            error = tx.settle()
        if error is not None:
            tx.rollback(mark)
            tx.error = None

    def isolated(
        self, tx: Transaction, pos: Int3, state: int, callback: str, extra: dict[str, object]
    ) -> None:
        registry = self.world.registry
        block = registry[state]
        offered = {
            "world": tx.view,
            "pos": pos,
            "block": block,
            "state": state,
            "props": registry.props(state),
            **extra,
        }
        mark = tx.mark()
        _, error = tx.block_call(block, callback, offered)
        if error is None:
            error = tx.settle()
        if error is not None:
            tx.rollback(mark)
            tx.error = None  # a tick goes on: only the failing call is undone
