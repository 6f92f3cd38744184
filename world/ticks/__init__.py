"""Ticks: what blocks do on their own, under the tick's time budget.

The contract: `ticks.block_ticks` (timers that ran out, random ticks and mods' ABMs, each call
isolated in the tick's transaction, together within `BLOCK_TICK_BUDGET`), `ticks.random_ticks`
(which voxels a tick picks, within the simulation distance of the player), `ticks.liquids`
(liquids flowing where their scheduled ticks came, within `LIQUID_BUDGET`) and
`ticks.entity_ticks` (the entities' steps). Imports `world.actions` and below.
"""

from __future__ import annotations

from world.ticks.block_ticks import BlockTicks
from world.ticks.liquids import LiquidFlow
from world.ticks.random_ticks import RandomTicker

__all__ = ["BlockTicks", "LiquidFlow", "RandomTicker"]
