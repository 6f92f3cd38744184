"""What blocks do on their own in a tick: timers that ran out, random ticks, mods' ABMs.

`world.rules.Rules.tick` runs `BlockTicks.run` inside its tick transaction, after the mods'
``on_tick``: first the timers whose time came (`world.block_data`: the block's ``on_timer``, told
the time that passed), then the frame's random ticks (`world.random_ticks`: the block's
``on_random_tick``, then every `world.abm.Abm` acting on its block, each with its chance). Each
call is isolated: it runs under the hook watchdog, its changes settle (``on_construct`` and the
rest), and when it fails only its own changes are undone and the tick goes on.
"""

from __future__ import annotations

import random

from world.abm import Abm
from world.block_callbacks import abm_implementation
from world.chunks import World
from world.geometry import Int3
from world.mods import Implementation
from world.random_ticks import SIMULATION_DISTANCE, RandomTicker
from world.transaction import Transaction

__all__ = ["BlockTicks"]


class BlockTicks:
    """Timers, random ticks and ABMs of one world (see the module notes)."""

    def __init__(
        self,
        world: World,
        random_tick_speed: int,
        seed: int | None = None,
        distance: int = SIMULATION_DISTANCE,
    ) -> None:
        self.world = world
        # ``seed``: reproducible; ``distance``: the simulation distance
        self.ticker = RandomTicker(world, random_tick_speed, seed, distance=distance)
        self.chance = random.Random(seed)  # ABMs' chance to act on a pick
        self.abm_impls: dict[int, Implementation | str] = {}

    def run(self, tx: Transaction, ticks: int) -> None:
        """Timers that ran out (``on_timer``), then this frame's random ticks
        (``on_random_tick``); each call isolated: a failing one is undone alone."""
        registry = self.world.registry
        data = self.world.block_data
        if data.timers:
            for pos, elapsed in data.due(self.world.chunks):
                state = tx.read(pos)
                block = registry[state]
                if block.on_timer is not None:
                    self.isolated(tx, pos, state, "on_timer", {"elapsed": elapsed})
        for _ in range(ticks):
            for pos, state in self.ticker.pick():
                if tx.read(pos) == state:  # an earlier tick of this frame may have changed it
                    if registry[state].on_random_tick is not None:
                        self.isolated(tx, pos, state, "on_random_tick", {})
                    for abm in registry.abms_of(state):
                        if tx.read(pos) == state and self.chance.random() < abm.chance:
                            self.abm(tx, abm, pos, state)

    def abm(self, tx: Transaction, abm: Abm, pos: Int3, state: int) -> None:
        """One mod's random-tick action on one voxel, isolated like a block's callback."""
        impl = self.abm_impls.get(id(abm))
        if impl is None:
            impl = self.abm_impls[id(abm)] = abm_implementation(abm)
        if isinstance(impl, str):
            tx.guard.record(abm.mod, "random tick", TypeError(impl))
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
