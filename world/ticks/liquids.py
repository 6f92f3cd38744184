"""Liquids that flow: Minecraft's fluid rules, stepped in numpy where their ticks came.

`world.rules.Rules` runs `LiquidFlow.run` in every tick's transaction and `LiquidFlow.touched` at
the end of every action and tick, on what it changed. A liquid is a block with a
`world.blocks.liquid.Liquid` (water and lava in the base game, any mod's the same way); its states
carry a ``level`` (8 a source, 7..1 flowing) and ``falling``.

Scheduling (Minecraft's scheduled fluid ticks, `world.voxels.liquid_ticks`)
-------------------------------------------------------------------------
Every change of an action or tick schedules the liquid voxels among the changed voxels and their
six neighbours, each `Liquid.tick_delay` game ticks later (water 5, lava 30). A liquid no change
came near is never looked at: a still lake costs nothing, and a flow stops costing once it
settles. The ticks are saved with their chunks, so a flow saved halfway resumes after loading.

One step of a liquid voxel whose tick came (Minecraft's ``FlowingFluid.tick``)
------------------------------------------------------------------------------
1. A flowing voxel takes its new state from its neighbours (``getNewLiquid``): the same liquid
   above makes it falling (level 8, falling); else the highest level beside it less `drop_off`
   (nothing left: it dries to air). A `renewable` liquid's flowing voxel with two sources beside
   it over a solid block or a source becomes a source (the infinite water spring).
2. Then it spreads (``spread``): down, into air or a `floodable` block below (the voxel below
   becomes falling liquid); sideways when it cannot go down (a source always; a flowing voxel
   not over the same liquid), and also beside a fall when it is a source with three sources
   beside it (a lake draining keeps its surface). Sideways it goes with its level less
   `drop_off` (a falling voxel: 8 less it), only toward the nearest drop: each side the liquid
   could enter costs the distance from it to a voxel it could fall from (a *hole*), searched up
   to `slope_distance` blocks through voxels it could enter (0 when that side is a hole); only
   the cheapest sides are taken, all four when none finds a drop (Minecraft's slope finding;
   `slope_distance` 0 spreads to every side as Luanti's liquids do). A voxel entered takes the
   state step 1 gives it.
3. A liquid never enters another liquid's voxel sideways; where a `world.blocks.liquid.Meeting`
   says so it falls into one (lava onto water: stone). A liquid voxel with another liquid beside
   or above it turns into the meeting's block, checked right after every change next to it
   (lava with water: obsidian from a source, cobblestone from flowing lava).
4. A `floodable` block entered is washed away: broken with its drops as items lying in the world
   (`washes="drop"`, water) or burnt to nothing (``"destroy"``, lava).

Where Minecraft's order of ticks within one game tick would decide, the voxels stepped together
are stepped at once (each reads the state before the step, then all spread from the state after
their own updates): the flows' shapes and resting levels are Minecraft's (the tests pin them);
the frame a given voxel changes in may differ by a tick. Not modelled: blocks' shapes as walls
(a slab holds liquid as a full block does), waterlogging, lava's random longer delays.

Cost and bounds
---------------
The voxels whose tick came are taken together, grouped by chunk; each group is stepped in numpy
on a box around it (its chunk at most, plus `slope_distance` + 2 blocks on each side): a fixed
number of array operations per group, none per voxel. A frame steps groups while its budget
lasts (`LIQUID_BUDGET`, read on the rules' clock between groups) and at most `STEP_LIMIT`
voxels: the rest keep their ticks for the next frame, first in line. A group whose box reaches a
chunk that is not loaded waits (`RETRY_TICKS`) and steps once its neighbours load. The
transaction's settling (the washed blocks' callbacks) runs on the step's changes, and a step that
fails is undone whole, its ticks with it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.actions.transaction import Transaction
from world.blocks.block_type import AIR
from world.blocks.drops import block_drops
from world.blocks.liquid import SOURCE, LiquidKind
from world.blocks.registry import BlockRegistry
from world.geometry import Int3
from world.physics.collision import block_ids
from world.voxels.chunks import World
from world.voxels.entities import drop_item
from world.voxels.layout import CHUNK_SHIFT, ChunkKey, by_chunk
from world.voxels.liquid_ticks import game_tick

__all__ = ["LIQUID_BUDGET", "RETRY_TICKS", "STEP_LIMIT", "LiquidFlow"]

# Seconds of liquid work per frame: a dam breaking floods a few chunks' worth of voxels a step,
# about a millisecond each (bench/liquids.py); the rest waits for the next frame.
LIQUID_BUDGET = 0.003
STEP_LIMIT = 8192  # voxels taken per frame at most
RETRY_TICKS = 20  # a group next to a chunk that is not loaded looks again a second later
_HORIZONTAL = np.array([(1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)], dtype=np.int64)
_AROUND = np.array(
    [(0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)],
    dtype=np.int64,
)
_MEETING_SIDES = np.array(
    [(0, 1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)], dtype=np.int64
)  # above and beside (Minecraft's lava looks at every side but below)
_FAR = 1000  # no drop found within the slope distance


@dataclass(frozen=True)
class _Kind:
    """One liquid's numbers, as the step reads them."""

    index: int
    states: NDArray[np.uint16]  # (9, 2): [level, falling]
    drop: int
    slope: int
    renewable: bool
    delay: int
    washes_drops: bool
    # Other liquids' kind index -> the block this one makes of them falling into them.
    below: dict[int, int]
    # Other liquids' kind index -> (this liquid's source becomes, its flowing becomes); 0 stays.
    meets: dict[int, tuple[int, int]]


class _Tables:
    """Per-registry arrays the step reads (rebuilt when the registry grows)."""

    def __init__(self, registry: BlockRegistry) -> None:
        liquids = registry.liquids
        self.size = len(registry)
        self.kind = liquids.kind.astype(np.int64)
        self.level = liquids.level.astype(np.int64)
        self.falling = liquids.falling
        self.open = liquids.floodable.copy()
        self.open[AIR] = True
        self.solid = registry.solid
        self.delay = np.zeros(len(registry), dtype=np.int64)
        self.kinds = tuple(_kind(registry, i, kind) for i, kind in enumerate(liquids.kinds))
        for kind in self.kinds:
            self.delay[self.kind == kind.index] = kind.delay
        self.meeting = any(kind.meets for kind in self.kinds)


def _kind(registry: BlockRegistry, index: int, kind: LiquidKind) -> _Kind:
    liquid = kind.liquid
    below: dict[int, int] = {}
    meets: dict[int, tuple[int, int]] = {}
    for meeting in liquid.meets:
        other = _kind_index(registry, meeting.liquid)
        if other is None:
            continue  # the other liquid is not registered: nothing to meet
        if meeting.below is not None:
            below[other] = _block(registry, meeting.below)
        if meeting.source is not None or meeting.flowing is not None:
            meets[other] = (
                0 if meeting.source is None else _block(registry, meeting.source),
                0 if meeting.flowing is None else _block(registry, meeting.flowing),
            )
    return _Kind(
        index,
        kind.states.astype(np.int64),
        liquid.drop_off,
        liquid.slope_distance,
        liquid.renewable,
        liquid.tick_delay,
        liquid.washes == "drop",
        below,
        meets,
    )


def _kind_index(registry: BlockRegistry, name: str) -> int | None:
    for i, kind in enumerate(registry.liquids.kinds):
        if kind.name == name:
            return i
    return None


def _block(registry: BlockRegistry, name: str) -> int:
    return registry.id(name)  # a Meeting naming an unknown block fails here, naming it


class LiquidFlow:
    """The liquids of one world flowing under a time budget (see the module notes).

    Parameters
    ----------
    world : World
    budget : float
        Seconds of stepping per `run` (`LIQUID_BUDGET`).
    clock : callable
        Seconds, monotonic (`time.perf_counter`; a fake one in tests).
    seed : int, optional
        Makes the drops of washed blocks reproducible.
    """

    def __init__(
        self,
        world: World,
        *,
        budget: float = LIQUID_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
        seed: int | None = None,
    ) -> None:
        self.world = world
        self.budget = float(budget)
        self.clock = clock
        self._drops = random.Random(seed)
        self._tables: _Tables | None = None

    def tables(self) -> _Tables:
        registry = self.world.registry
        if self._tables is None or self._tables.size != len(registry):
            self._tables = _Tables(registry)
        return self._tables

    # -- the tick's step ------------------------------------------------------------------------

    def run(self, tx: Transaction) -> None:
        """Step the liquid voxels whose tick came, group by group while the budget lasts."""
        ticks = self.world.block_data.liquids
        if not len(ticks):
            return
        now = game_tick(self.world.block_data.clock)
        mark = tx.mark()
        cells, due = ticks.pop_due(now, limit=STEP_LIMIT)
        if not len(cells):
            return
        deadline = self.clock() + self.budget
        groups = _by_chunk(cells, due)
        tables = self.tables()
        for n, group in enumerate(groups):
            if n and self.clock() >= deadline:
                rest = np.concatenate(groups[n:])
                ticks.schedule(cells[rest], due[rest])  # first in line next frame
                break
            self._step(tx, tables, cells[group], now)
        error = tx.settle()
        if error is not None:
            tx.rollback(mark)
            tx.error = None

    def _step(self, tx: Transaction, tables: _Tables, cells: NDArray[np.int64], now: int) -> None:
        """One group's step (one chunk's voxels at most) on a box around it."""
        margin = 2 + max((k.slope for k in tables.kinds), default=0)
        lo = cells.min(axis=0) - np.array([margin, 2, margin])
        hi = cells.max(axis=0) + np.array([margin, 2, margin]) + 1
        if not self._loaded(lo, hi):
            self.world.block_data.liquids.schedule(cells, now + RETRY_TICKS)
            return
        # The box's ids, copied chunk by chunk (its chunks are loaded: nothing is generated).
        corners = (
            (float(lo[0]), float(lo[1]), float(lo[2])),
            (float(hi[0] - 1), float(hi[1] - 1), float(hi[2] - 1)),
        )
        ids: NDArray[np.int64] = block_ids(self.world, *corners)[0].astype(np.int64)
        before = ids.copy()
        local = cells - lo
        flat = np.ravel_multi_index(local.T, ids.shape)
        kinds = tables.kind[ids.reshape(-1)[flat]]
        for kind in tables.kinds:
            mine = flat[kinds == kind.index]
            if len(mine):
                _flow(ids, mine, kind, tables)
        changed = np.flatnonzero(ids.reshape(-1) != before.reshape(-1))
        if not len(changed):
            return
        old = before.reshape(-1)[changed]
        new = ids.reshape(-1)[changed]
        where = np.stack(np.unravel_index(changed, ids.shape), axis=1) + lo
        tx.set_many(where, new)
        washed = tables.open[old] & (old != AIR)
        if washed.any():
            self._wash(where[washed], old[washed], tables.kind[new[washed]])

    def _wash(
        self, cells: NDArray[np.int64], old: NDArray[np.int64], by: NDArray[np.int64]
    ) -> None:
        """Blocks a liquid entered: their drops lie in the world where the liquid washes
        them out (water), none where it burns them (lava)."""
        tables = self.tables()
        registry = self.world.registry
        for pos, state, kind in zip(cells.tolist(), old.tolist(), by.tolist(), strict=True):
            if kind < 0 or not tables.kinds[kind].washes_drops:
                continue
            for stack in block_drops(registry, state, self._drops):
                drop_item(self.world.entities, Int3(*pos), stack)

    def _loaded(self, lo: NDArray[np.int64], hi: NDArray[np.int64]) -> bool:
        first = lo >> CHUNK_SHIFT
        last = (hi - 1) >> CHUNK_SHIFT
        for cx in range(int(first[0]), int(last[0]) + 1):
            for cy in range(int(first[1]), int(last[1]) + 1):
                for cz in range(int(first[2]), int(last[2]) + 1):
                    if not self.world.is_loaded(cx, cy, cz):
                        return False
        return True

    # -- after an action or a tick ---------------------------------------------------------------

    def touched(self, tx: Transaction) -> None:
        """The voxels the transaction changed: liquids meeting beside them turn to their
        meeting's block, and the liquid voxels among them and their neighbours are scheduled."""
        cells = tx.changes.all().arrays()[0]
        if not len(cells):
            return
        tables = self.tables()
        if not tables.kinds:
            return
        cells = self._near_liquid(cells)  # a bulk write far from any liquid costs a few lookups
        if not len(cells):
            return
        around = (cells[:, None, :] + _AROUND).reshape(-1, 3)
        liquid = tables.kind[_read_loaded(self.world, around)] >= 0
        if not liquid.any():
            return
        around = _unique_cells(around[liquid])  # (only the liquid ones: a bulk write has many)
        ids = _read_loaded(self.world, around)
        liquid = tables.kind[ids] >= 0
        if tables.meeting:
            met = self._meet(tx, tables, around[liquid], ids[liquid])
            if len(met):
                around = _unique_cells(
                    np.concatenate([around, (met[:, None, :] + _AROUND).reshape(-1, 3)])
                )
                ids = _read_loaded(self.world, around)
                liquid = tables.kind[ids] >= 0
        now = game_tick(self.world.block_data.clock)
        self.world.block_data.liquids.schedule(around[liquid], now + tables.delay[ids[liquid]])

    def _near_liquid(self, cells: NDArray[np.int64]) -> NDArray[np.int64]:
        """The cells whose chunk or a face neighbour of it holds liquid (the others' neighbours
        hold none)."""
        liquid = self.world.registry.liquid
        wet: dict[ChunkKey, bool] = {}

        def holds(key: ChunkKey) -> bool:
            if key not in wet:
                chunk = self.world.chunks.get(key)
                wet[key] = chunk is not None and bool(liquid[chunk.blocks].any())
            return wet[key]

        near = [
            rows
            for (cx, cy, cz), rows in by_chunk(cells)[0]
            if any(holds((cx + dx, cy + dy, cz + dz)) for dx, dy, dz in _AROUND.tolist())
        ]
        kept: NDArray[np.int64] = cells[np.sort(np.concatenate(near))] if near else cells[:0]
        return kept

    def _meet(
        self, tx: Transaction, tables: _Tables, cells: NDArray[np.int64], ids: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """Liquid voxels with another liquid above or beside them that they meet: made into the
        meeting's block. Returns the voxels changed."""
        kinds = tables.kind[ids]
        sides = _read_loaded(self.world, (cells[:, None, :] + _MEETING_SIDES).reshape(-1, 3))
        side_kinds = tables.kind[sides].reshape(len(cells), len(_MEETING_SIDES))
        source = (tables.level[ids] == SOURCE) & ~tables.falling[ids]
        result = np.zeros(len(cells), dtype=np.int64)
        for kind in tables.kinds:
            for other, (from_source, from_flowing) in kind.meets.items():
                hit = (kinds == kind.index) & (side_kinds == other).any(axis=1) & (result == 0)
                result[hit & source] = from_source
                result[hit & ~source] = from_flowing
        changed = result != 0
        if changed.any():
            tx.set_many(cells[changed], result[changed])
            tx.settle()
        met: NDArray[np.int64] = cells[changed]
        return met


# -- the step in numpy ------------------------------------------------------------------------


def _flow(ids: NDArray[np.int64], due: NDArray[np.intp], kind: _Kind, tables: _Tables) -> None:
    """Step one liquid's due voxels (flat indices into the box ``ids``, all of that liquid when
    the step began) in place: their own update, then their spreading (module notes)."""
    shape = ids.shape
    stride_y = shape[2]
    strides = np.array([shape[1] * shape[2], shape[2], 1], dtype=np.int64)
    flat = ids.reshape(-1)
    field = _Field(flat, shape, kind, tables)
    # 1. Flowing voxels take their state from their neighbours.
    flowing = due[~field.source[due]]
    if len(flowing):
        new = field.new_state(flowing)
        if np.any(new != flat[flowing]):
            flat[flowing] = new
            field = _Field(flat, shape, kind, tables)
    # 2. What is still this liquid spreads.
    due = due[field.mine[due]]
    if not len(due):
        return
    below = due - stride_y
    falls_into = field.falls_into(below)
    can_down = field.open[below] | (falls_into > 0)
    source = field.source[due]
    sources_beside = field.sources_beside(due)
    hole_below = field.open[below] | field.mine[below] | (falls_into > 0)
    sides = (can_down & source & (sources_beside >= 3)) | (~can_down & (source | ~hole_below))
    amount = np.where(field.falling[due], SOURCE, field.level[due]) - kind.drop
    sides &= amount > 0
    writes: list[tuple[NDArray[np.intp], NDArray[np.int64]]] = []
    down = below[can_down]
    if len(down):
        into = falls_into[can_down]
        writes.append((down, np.where(into > 0, into, field.new_state(down))))
    spreading = due[sides]
    if len(spreading):
        offsets = _HORIZONTAL @ strides
        beside = spreading[:, None] + offsets  # (M, 4)
        passable = field.passable[beside]
        if kind.slope:
            distance = field.slope_distance(kind.slope)
            cost = np.where(field.hole[beside], 0, distance[beside])
        else:
            cost = np.zeros(beside.shape, dtype=np.int64)
        cost = np.where(passable, cost, _FAR + 1)
        best = cost.min(axis=1, keepdims=True)
        chosen = passable & (cost == best) & field.open[beside]
        targets = np.unique(beside[chosen])
        if len(targets):
            new = field.new_state(targets)
            keep = new != AIR
            writes.append((targets[keep], new[keep]))
    for where, new in writes:
        flat[where] = new


class _Field:
    """One liquid's masks over a box (flat), and Minecraft's ``getNewLiquid`` for its voxels."""

    def __init__(
        self,
        flat: NDArray[np.int64],
        shape: tuple[int, ...],
        kind: _Kind,
        tables: _Tables,
    ) -> None:
        self.flat = flat
        self.shape = shape
        self.kind = kind
        self.strides = np.array([shape[1] * shape[2], shape[2], 1], dtype=np.int64)
        self.tables_kind = tables.kind[flat]  # every voxel's liquid kind, -1 none
        self.mine = self.tables_kind == kind.index
        self.level = np.where(self.mine, tables.level[flat], 0)
        self.falling = self.mine & tables.falling[flat]
        self.source = self.mine & (self.level == SOURCE) & ~self.falling
        self.open = tables.open[flat]
        self.solid = tables.solid[flat]
        # What this liquid makes of another it falls into (lava into water: stone), 0 none.
        self._into = np.zeros(len(tables.kinds) + 1, dtype=np.int64)
        for other, block in kind.below.items():
            self._into[other] = block
        # Where the liquid may go looking for a drop (Minecraft's canPassThrough): not one of
        # its sources, and air, a floodable block or its own flowing voxel; a hole is such a
        # voxel it could fall from (onto air, a floodable block, itself, or a liquid it falls
        # into: lava over water).
        self.passable = ~self.source & (self.open | self.mine)
        under = np.zeros_like(self.passable)
        stride_y = self.strides[1]
        fall = self.open | self.mine | (self._into[tables.kind[flat]] > 0)
        under[stride_y:] = fall[:-stride_y]
        self.hole = self.passable & under
        self._distance: NDArray[np.int64] | None = None

    def _beside(self, values: NDArray[np.int64], at: NDArray[np.intp]) -> NDArray[np.int64]:
        """``values`` at the four voxels beside each of ``at``, (N, 4)."""
        beside: NDArray[np.int64] = values[at[:, None] + _HORIZONTAL @ self.strides]
        return beside

    def falls_into(self, at: NDArray[np.intp]) -> NDArray[np.int64]:
        """The block this liquid makes of each voxel's liquid by falling into it, 0 none."""
        into: NDArray[np.int64] = self._into[self.tables_kind[at]]
        return into

    def sources_beside(self, at: NDArray[np.intp]) -> NDArray[np.int64]:
        count: NDArray[np.int64] = self._beside(self.source.astype(np.int64), at).sum(axis=1)
        return count

    def new_state(self, at: NDArray[np.intp]) -> NDArray[np.int64]:
        """The state ids Minecraft's ``getNewLiquid`` gives voxels (air when none is left)."""
        kind = self.kind
        stride_y = int(self.strides[1])
        highest = np.where(self.falling, SOURCE, self.level)  # a falling voxel counts as full (8)
        level = self._beside(highest, at).max(axis=1) - kind.drop
        falling = self.mine[at + stride_y]
        level = np.where(falling, SOURCE, np.maximum(level, 0))
        if kind.renewable:
            below = at - stride_y
            spring = (self.sources_beside(at) >= 2) & (self.solid[below] | self.source[below])
            level = np.where(spring, SOURCE, level)
            falling &= ~spring
        return np.where(level > 0, kind.states[level, falling.astype(np.int64)], AIR)

    def slope_distance(self, reach: int) -> NDArray[np.int64]:
        """Each voxel's distance to the nearest hole through passable voxels, searched
        ``reach`` steps (``_FAR`` beyond); on the box's layers alone (Minecraft's search stays
        level)."""
        if self._distance is None:
            grid_shape = self.shape
            passable = self.passable.reshape(grid_shape)
            distance = np.where(self.hole.reshape(grid_shape), 0, _FAR)
            for _ in range(reach):
                nearest = distance.copy()
                for axis in (0, 2):
                    for step in (1, -1):
                        shifted = np.full_like(distance, _FAR)
                        if step == 1:
                            _slices(shifted, axis, 1, None)[...] = _slices(distance, axis, None, -1)
                        else:
                            _slices(shifted, axis, None, -1)[...] = _slices(distance, axis, 1, None)
                        np.minimum(nearest, shifted + 1, out=nearest)
                distance = np.where(passable, np.minimum(nearest, _FAR), _FAR)
            self._distance = distance.reshape(-1)
        return self._distance


def _slices(
    array: NDArray[np.int64], axis: int, start: int | None, stop: int | None
) -> NDArray[np.int64]:
    index: list[slice] = [slice(None)] * array.ndim
    index[axis] = slice(start, stop)
    return array[tuple(index)]


def _by_chunk(cells: NDArray[np.int64], due: NDArray[np.int64]) -> list[NDArray[np.intp]]:
    """The rows of N cells grouped by chunk, the groups in the order of their earliest tick (so
    a group left for the next frame is not overtaken by newer ticks)."""
    groups = [rows for _, rows in by_chunk(cells)[0]]
    groups.sort(key=lambda rows: int(due[rows].min()))
    return groups


# -- reading the world without generating it ---------------------------------------------------


def _read_loaded(world: World, cells: NDArray[np.int64]) -> NDArray[np.int64]:
    """Block ids at N cells; a cell in a chunk not in memory reads as air (nothing generated)."""
    out = np.zeros(len(cells), dtype=np.int64)
    if not len(cells):
        return out
    groups, index = by_chunk(cells)
    for key, rows in groups:
        chunk = world.chunks.get(key)
        if chunk is not None:
            out[rows] = chunk.blocks[index[rows]]
    return out


def _unique_cells(cells: NDArray[np.int64]) -> NDArray[np.int64]:
    """The distinct rows of (N, 3) world cells (the world limit is 2^25: cells are not packed)."""
    order = np.lexsort((cells[:, 2], cells[:, 1], cells[:, 0]))
    ordered = cells[order]
    keep = np.ones(len(ordered), dtype=np.bool_)
    keep[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    unique: NDArray[np.int64] = ordered[keep]
    return unique
