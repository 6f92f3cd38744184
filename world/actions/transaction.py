"""One action's (or tick's) journal: the changes it made, their roll-back, and its hook calls.

A `Transaction` is opened by `world.rules.Rules` around every action and tick. Every block an
action changes goes through `Transaction.set` / `Transaction.set_many`, which write the world,
journal the change and queue its neighbour notification, so the whole action, or one hook call
of it, can be rolled back exactly (`Transaction.mark` / `Transaction.rollback`). On leaving the
``with`` block the transaction's `world.mods.view.ModWorld` stops accepting writes, and an
exception that escapes (not a mod's: those are caught and recorded; the player's Ctrl-C is one)
first restores every voxel the transaction changed, so no action is ever half applied.

`Transaction.call` is the one place where the calling policies of `world.mods.hooks.CALLING` are
applied to a hook's implementations; `Transaction.block_call` calls a block's own callback
(`world.blocks.registry.BlockType`: ``on_use``, ``can_break``, ``placement_state``,
``on_construct``, ``on_destruct``, the inventory callbacks ``allow_*`` and ``on_put`` /
``on_take`` / ``on_move``: `world.actions.callbacks.BLOCK_CALLBACKS`) the same way, through the
same watchdog, its failures named after the block and its mod; `Transaction.notify_neighbors`
drains the neighbour queue.

Settling. Every change is also an *update*, processed by `Transaction.settle` right after the
action's own change and after every hook call (queued, never nested, oldest first; at most
`MAX_UPDATES` per action or tick, the rest dropped and reported once): when the voxel's block
changed, the old block's ``on_destruct`` then the new block's ``on_construct`` run (with the
actor the change was made for, None in a tick); then the built-in shape rules update the six
neighbours: a block of the group ``"fence"`` re-links its arms
(`world.actions.placement.fence_links`), a block of the group ``"attached"`` whose support went
drops (becomes air). These run with or without mods (the base blocks use them).

Sounds. `Transaction.play` records a `world.blocks.sounds.SoundEvent` made during the action (a
hook's ``world.play_sound``, a done break's or place's block sound: `world.actions.pipeline`)
through the world journal, so a rolled-back action, or a hook call of a tick rolled back alone,
takes its sounds back with its changes; `world.rules.Rules` hands the committed ones to the game
(`world.rules.Rules.pop_sounds`). At most `MAX_SOUNDS` are kept per action or tick: the rest are
dropped, counted (`Transaction.dropped_sounds`) and reported once, so that no mod floods the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from world.actions.callbacks import DECIDING, BlockTables, callback_implementation
from world.actions.neighbors import NeighborQueue, Undo
from world.actions.placement import update_neighbor_shapes
from world.blocks.block_type import AIR
from world.blocks.sounds import SoundEvent
from world.geometry import FACE_NORMALS, Int3
from world.mods.calls import Implementation
from world.mods.hooks import CALLING, Policy
from world.mods.view import ModWorld
from world.voxels.changes import Change, ChangeLog
from world.voxels.chunks import ChunkDiff
from world.voxels.layout import CHUNK, ChunkKey, chunk_index

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.blocks.entity_type import EntityType
    from world.items.item import Item
    from world.mods.calls import ModError
    from world.mods.guard import HookGuard
    from world.mods.host import Mods
    from world.mods.outcome import Actor, Outcome
    from world.voxels.chunks import World

__all__ = ["MAX_SOUNDS", "MAX_UPDATES", "START", "Actions", "Called", "Transaction"]

# Updates (changed voxels) settled per action or tick: a radius-3 explosion chained 16 times
# changes about 2,000 voxels; past this a runaway of callbacks stops instead of hanging the game.
MAX_UPDATES = 4096
# Sounds kept per action or tick: a radius-3 explosion's blocks make no sound of their own (a bulk
# write is silent); a vein miner's 64 breaks are already a wall of sound.
MAX_SOUNDS = 64
START = (0, 0, 0, 0)
"""The mark of a transaction that changed nothing: `Transaction.rollback` (START) undoes all."""


_EXPECTED = {
    Policy.VETO: "None, True, False or a reason",
    Policy.UNTIL_HANDLED: "True, False or None",
}


class Actions(Protocol):
    """The checks and nested actions a transaction runs for its view, each given the
    transaction: the rules hand in the pipeline's (`world.actions.pipeline`,
    `world.actions.checks`), so that neither the transaction nor the view imports the machinery
    built on them."""

    def may_break(self, tx: Transaction, pos: Int3, actor: Actor) -> Outcome | None: ...

    def may_place(
        self, tx: Transaction, pos: Int3, block_id: int, actor: Actor
    ) -> Outcome | None: ...

    def dig(self, tx: Transaction, pos: Int3, actor: Actor) -> Outcome: ...

    def place(self, tx: Transaction, pos: Int3, block_id: int, actor: Actor) -> Outcome: ...


class Called(NamedTuple):
    """What calling one hook's implementations came to (see `Transaction.call`).

    ``answer``: for `Policy.VETO` the denial's reason (None: allowed), for
    `Policy.UNTIL_HANDLED` True when a mod handled it, else None. ``mod``: the mod that answered
    or failed. ``error``: the failure that stopped the chain, if any.
    """

    answer: str | bool | None = None
    mod: str | None = None
    error: ModError | None = None


_NOBODY = Called()


class Transaction:
    """The journal of one action or tick (see the module notes).

    Parameters
    ----------
    world : World
    mods : Mods or None
        None: no hooks run and no notifications are queued (blocks' own callbacks still run).
    guard : HookGuard
        Runs each hook and callback call (armed on entering with ``mods``, else at the first
        callback).
    queue : NeighborQueue or None
        Where this transaction's changes are queued for notification: a fresh queue for an
        action, the rules' own pending queue for a tick (drained in place); not used when no
        mod implements ``on_neighbor_changed``.
    callbacks : dict, optional
        A cache of blocks' callbacks as implementations, kept by the rules across transactions.
    actions : Actions, optional
        The checks and nested actions a hook's view asks for (`may_break`, `dig`, ...), given by
        the rules (`world.rules`: the pipeline's); without them a view can only read and write.
    """

    def __init__(
        self,
        world: World,
        mods: Mods | None,
        guard: HookGuard,
        queue: NeighborQueue | None,
        callbacks: dict[object, Implementation | BlockTables | str] | None = None,
        actions: Actions | None = None,
    ) -> None:
        self.world = world
        self.actions = actions
        self.mods = mods
        self.guard = guard
        # Nobody listens without an on_neighbor_changed: nothing is queued (a bulk write's
        # 262,144 changes cost no notification then).
        listening = mods is not None and bool(mods.hook_impls("on_neighbor_changed"))
        self.queue = queue if listening else None
        self.callbacks: dict[object, Implementation | BlockTables | str] = (
            {} if callbacks is None else callbacks
        )
        self.changes = ChangeLog()
        self._undo: list[Undo | None] = []
        # Updates still to settle: (pos, old, new, actor); settled up to _next.
        self._events: list[tuple[Int3, int, int, Actor | None]] = []
        self._next = 0
        self._unsettled = 0  # updates of a bulk write past MAX_UPDATES, never queued
        self._settling = False
        self.updates = 0
        self._armed = False
        # The can_* hook or deciding callback running, while one runs: the world is read-only.
        self.read_only: str | None = None
        # The mod whose hook is running (its storage, the cause of its changes); None: the action.
        self.mod: str | None = None
        # Who the changes being made are for: the action's actor (None in a tick).
        self.actor: Actor | None = None
        # Nested actions (`world.actions.pipeline`): how deep, how many so far, and the voxels whose
        # own can_break is deciding (a door asking about its other half is not asked again).
        self.depth = 0
        self.chained = 0
        self.deciding: set[Int3] = set()
        # The first mod error met anywhere in the action, nested checks (a mod's may_break)
        # included: the action is then denied and rolled back whatever the asking mod did.
        self.error: ModError | None = None
        # The sounds made so far (taken back by a roll-back), and those past MAX_SOUNDS.
        self.sounds: list[SoundEvent] = []
        self.dropped_sounds = 0
        self.closed = False
        self.view = ModWorld(self)

    def __enter__(self) -> Transaction:
        journal = self.world.journal
        if journal.active:
            raise RuntimeError("a transaction is already running on this world")
        journal.begin()  # blocks, data and timers recorded before they change: world.voxels.journal
        self.world.block_data.begin()
        if self.mods is not None:
            self.guard.arm()
            self._armed = True
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        try:
            if exc_type is not None:
                self.rollback(START)
        finally:
            self.world.block_data.commit()
            self.world.journal.end()
            self.closed = True
            if self._armed:
                self._armed = False
                self.guard.disarm()

    # -- changes ------------------------------------------------------------------------------

    def read(self, pos: Int3) -> int:
        """The block id at a checked position (without the public API's argument checks: the
        neighbour loop reads six voxels per change)."""
        key, idx = chunk_index(*pos)
        chunk = self.world.chunk(*key)
        return AIR if chunk is None else int(chunk.blocks[idx])

    def set(self, pos: Int3, block_id: int) -> None:
        """Set one voxel (a checked position and id), journalled, queued and to be settled."""
        old = self.read(pos)
        if old == block_id:
            return
        self.world.set_block(*pos, block_id)
        self.changes.append(Change(pos, old, block_id))
        self._events.append((pos, old, block_id, self.actor))
        if self.queue is not None:
            self._undo.append(self.queue.push(pos, old, block_id, self.mod))

    def set_many(self, coords: NDArray[np.int64], ids: NDArray[np.int64]) -> None:
        """Set N voxels (checked coordinates and ids); for repeated coordinates the last wins.

        Costs about what `World.set_blocks` does: the world journal copies each chunk touched,
        the changes are kept as arrays (`world.voxels.changes`), and only the voxels that settling
        has work for (at most the updates left, `MAX_UPDATES`) and the neighbour queue's room become
        Python objects.
        """
        diffs = self.world.write_many(coords, ids)
        if not diffs:
            return
        pos = np.concatenate([_positions(diff) for diff in diffs])
        old = np.concatenate([diff.old for diff in diffs]).astype(np.int64)
        new = np.concatenate([diff.new for diff in diffs]).astype(np.int64)
        self.changes.extend(pos, old, new)
        room = MAX_UPDATES - self.updates - (len(self._events) - self._next)
        worth = np.flatnonzero(self._worth_settling(diffs, old, new))
        for i in worth[: max(room, 0) + 1].tolist():  # one past the room: settle reports it
            self._events.append((Int3(*pos[i].tolist()), int(old[i]), int(new[i]), self.actor))
        self._unsettled += max(len(worth) - max(room, 0) - 1, 0)
        if self.queue is not None:
            self._undo.extend(self.queue.push_many(pos, old, new, self.mod))

    def _worth_settling(
        self, diffs: list[ChunkDiff], old: NDArray[np.int64], new: NDArray[np.int64]
    ) -> NDArray[np.bool_]:
        """Which of N changed voxels settling has work for (a bulk write of plain blocks among
        plain blocks has none): a block with ``on_construct`` / ``on_destruct`` before or after,
        or a neighbour that reacts (`world.actions.callbacks.BlockTables`), looked for only in
        chunks that hold or touch a reacting block."""
        tables = self._tables()
        worth = tables.lifecycle_array[old] | tables.lifecycle_array[new]
        if not tables.any_reactive:
            return worth
        start = 0
        for diff in diffs:
            stop = start + len(diff.idx)
            if self._reactive_near(diff.key, tables):
                near = _positions(diff)[:, None, :] + np.asarray(FACE_NORMALS, dtype=np.int64)
                around = self.world.get_blocks(near.reshape(-1, 3)).astype(np.int64)
                reacts = tables.reactive_array[around.reshape(-1, len(FACE_NORMALS))].any(axis=1)
                worth[start:stop] |= reacts
            start = stop
        return worth

    def _reactive_near(self, key: ChunkKey, tables: BlockTables) -> bool:
        """Whether the chunk or a face neighbour holds a block that reacts to its neighbours."""
        cx, cy, cz = key
        for dx, dy, dz in ((0, 0, 0), *FACE_NORMALS):
            chunk = self.world.chunk(cx + dx, cy + dy, cz + dz)
            if chunk is not None and tables.reactive_array[chunk.blocks].any():
                return True
        return False

    def mark(self) -> tuple[int, int, int, int]:
        """A point to roll back to."""
        return len(self.changes), len(self._undo), len(self._events), self.world.journal.mark()

    def rollback(self, mark: tuple[int, int, int, int]) -> None:
        """Restore every voxel changed since ``mark`` with its data and timer (the world
        journal's undo log), take back their notifications and forget their updates still to
        settle. `START` rolls the whole transaction back."""
        n_changes, n_undo, n_events, n_journal = mark
        self.world.rollback(n_journal)
        self.changes.truncate(n_changes)
        if self.queue is not None:
            for record in reversed(self._undo[n_undo:]):
                if record is not None:
                    self.queue.undo(record)
        del self._undo[n_undo:]
        del self._events[n_events:]
        self._next = min(self._next, n_events)

    # -- sounds -------------------------------------------------------------------------------

    def play(self, event: SoundEvent) -> None:
        """Record a sound made by this action (module notes): journalled, so that a roll-back
        past it takes it back; past `MAX_SOUNDS` it is dropped and counted, and reported once
        (as the running hook's mod's, or the base game's)."""
        if len(self.sounds) >= MAX_SOUNDS:
            self.dropped_sounds += 1
            if self.dropped_sounds == 1:
                message = (
                    f"more than {MAX_SOUNDS} sounds in one action or tick; the rest are dropped"
                )
                self.guard.record(self.mod or "base", "play_sound", RuntimeError(message))
            return
        self.world.journal.record(("undo", self._unplay, len(self.sounds)))
        self.sounds.append(event)

    def _unplay(self, count: int) -> None:
        del self.sounds[count:]

    # -- what a view asks for: the rules' checks and nested actions ----------------------------

    def _actions(self) -> Actions:
        if self.actions is None:
            raise RuntimeError("this transaction was given no actions: it only reads and writes")
        return self.actions

    def may_break(self, pos: Int3, actor: Actor) -> Outcome | None:
        """Would ``actor`` be let break ``pos``? A denial, or None (`Actions.may_break`)."""
        return self._actions().may_break(self, pos, actor)

    def may_place(self, pos: Int3, block_id: int, actor: Actor) -> Outcome | None:
        """Would ``actor`` be let place ``block_id`` at ``pos``? A denial, or None."""
        return self._actions().may_place(self, pos, block_id, actor)

    def dig(self, pos: Int3, actor: Actor) -> Outcome:
        """Break ``pos`` as ``actor``, a nested action of this one (`Actions.dig`)."""
        return self._actions().dig(self, pos, actor)

    def place(self, pos: Int3, block_id: int, actor: Actor) -> Outcome:
        """Place ``block_id`` at ``pos`` as ``actor``, a nested action of this one."""
        return self._actions().place(self, pos, block_id, actor)

    # -- settling -----------------------------------------------------------------------------

    def settle(self) -> ModError | None:
        """Settle the updates waiting (module notes), oldest first, the ones they cause included.

        Returns the first error of a block's callback (also kept in `error`), the rest then left
        unsettled for the caller to roll back. Called inside a settle (a callback that digs), it
        returns at once: the outer loop settles what the callback changed.
        """
        if self._settling or self._next >= len(self._events):
            return None
        self._settling = True
        try:
            while self._next < len(self._events):
                if self.updates >= MAX_UPDATES:
                    self._overflow()
                    return None
                pos, old, new, actor = self._events[self._next]
                self._next += 1
                self.updates += 1
                error = self._settle_one(pos, old, new, actor)
                if error is not None:
                    self.error = self.error or error
                    return error
        finally:
            self._settling = False
        return None

    def _overflow(self) -> None:
        dropped = len(self._events) - self._next + self._unsettled
        self._next = len(self._events)
        self._unsettled = 0
        message = (
            f"more than {MAX_UPDATES} changed voxels in one action or tick; the blocks' "
            f"callbacks and shape updates of {dropped} more were not run"
        )
        self.guard.record(self.mod or "base", "settling", RuntimeError(message))

    def _settle_one(self, pos: Int3, old: int, new: int, actor: Actor | None) -> ModError | None:
        registry = self.world.registry
        tables = self._tables()
        was, now = tables.types[old], tables.types[new]
        outer, self.actor = self.actor, actor
        try:
            if was is not now:
                for block, state, callback in (
                    (was, old, "on_destruct"),
                    (now, new, "on_construct"),
                ):
                    if getattr(block, callback) is None:
                        continue
                    offered = {
                        "world": self.view,
                        "pos": pos,
                        "block": block,
                        "state": state,
                        "props": registry.props(state),
                        "actor": actor,
                    }
                    error = self.block_call(block, callback, offered)[1]
                    if error is not None:
                        return error
                self.world.block_data.discard(pos)  # on_destruct has seen the old data
            if tables.any_reactive:
                self._update_shapes(pos, tables.reactive)
        finally:
            self.actor = outer
        return None

    def _tables(self) -> BlockTables:
        """This registry's per-state block types and flags, kept by the rules across actions."""
        registry = self.world.registry
        cached = self.callbacks.get("tables")
        if not isinstance(cached, BlockTables) or cached.size != len(registry):
            cached = BlockTables.of(registry)
            self.callbacks["tables"] = cached
        return cached

    def _update_shapes(self, pos: Int3, reactive: tuple[bool, ...]) -> None:
        """The built-in shape rules for the neighbours of a changed voxel (module notes)."""
        update_neighbor_shapes(self.read, self.set, self.world.registry, pos, reactive)

    # -- hooks --------------------------------------------------------------------------------

    def run(
        self, impl: Implementation, kwargs: Mapping[str, object], *, deciding: bool = False
    ) -> tuple[object, ModError | None]:
        """Call one implementation as its mod: its result, and the error it caused (or that a
        check it asked for, `world.mods.view.ModWorld.may_break`, met).

        One the rules' circuit breaker switched off (`world.mods.breaker`) is not called: a
        ``deciding`` one (a veto or a deciding callback) answers with its refusal, naming the
        mod, so that it fails closed; any other with None.
        """
        breaker = self.guard.breaker
        if breaker is not None and breaker.tripped(impl.mod, impl.hook):
            return (breaker.refusal(impl.mod, impl.hook) if deciding else None), self.error
        if not self._armed:  # no mods: armed at the first block callback only
            self.guard.arm()
            self._armed = True
        outer, self.mod = self.mod, impl.mod
        try:
            result, error = self.guard.run(impl, kwargs)
        finally:
            self.mod = outer
        return result, error or self.error

    def call(self, hook: str, kwargs: Mapping[str, object], *, isolate: bool = False) -> Called:
        """Call every implementation of ``hook`` as its policy (`world.mods.hooks.CALLING`) says.

        With ``isolate`` (ticks), a failing call's own changes are rolled back and the next
        implementation still runs; otherwise the first failure stops the chain, is kept in
        `error` and returned (the caller rolls the action back).
        """
        if self.mods is None:
            return _NOBODY
        policy = CALLING[hook]
        outer = self.read_only
        if policy is Policy.VETO:
            self.read_only = hook
        try:
            for impl in self.mods.hook_impls(hook):
                mark = self.mark()
                result, error = self.run(impl, kwargs, deciding=policy is Policy.VETO)
                if error is None and policy is not Policy.VETO:
                    error = self.settle()
                if error is None and policy is not Policy.NOTIFY:
                    if policy is Policy.VETO:
                        if result is False:
                            return Called(f"denied by mod {impl.mod!r}", impl.mod)
                        if isinstance(result, str) and result:
                            return Called(result, impl.mod)
                        ok = result is None or result is True
                    else:
                        if result is True:
                            return Called(True, impl.mod)
                        ok = result is None or result is False
                    if not ok:
                        expected = _EXPECTED[policy]
                        bad = TypeError(f"returned {result!r}; expected {expected}")
                        error = self.guard.fail(impl.mod, hook, bad)
                if error is not None:
                    if isolate:
                        self.error = None
                        self.rollback(mark)
                        continue
                    self.error = self.error or error
                    return Called(None, impl.mod, error)
        finally:
            self.read_only = outer
        return _NOBODY

    def block_call(
        self, block: BlockType | Item | EntityType, callback: str, offered: Mapping[str, object]
    ) -> tuple[object, ModError | None]:
        """Call ``block``'s own ``callback`` (one of `world.actions.callbacks.BLOCK_CALLBACKS`, or
        an item's ``on_use``) with the arguments it asks for, as the block's mod, through the
        watchdog: its result and error (also kept in `error`). Deciding callbacks
        (`world.actions.callbacks.DECIDING`: ``can_break``, ``placement_state``, ``allow_*``) see
        a read-only world.
        """
        function = getattr(block, callback)
        key = (block.name, callback)
        cached = self.callbacks.get(key)
        impl: Implementation | str
        if isinstance(cached, str) or (
            isinstance(cached, Implementation) and cached.function is function
        ):
            impl = cached
        else:
            impl = self.callbacks[key] = callback_implementation(block, callback, function)
        if isinstance(impl, str):  # asks for an argument it is not offered
            mod = block.name.split(":")[0]
            failure = self.guard.record(mod, f"{callback} of {block.name}", TypeError(impl))
            self.error = self.error or failure
            return None, failure
        outer = self.read_only
        if callback in DECIDING:
            self.read_only = f"{callback} of {block.name}"
        try:
            result, error = self.run(impl, offered, deciding=callback in DECIDING)
        finally:
            self.read_only = outer
        if error is not None and self.error is None:
            self.error = error
        return result, error

    def notify_neighbors(self, budget: int, *, isolate: bool) -> ModError | None:
        """Notify the neighbours of queued changes, oldest first, up to ``budget`` changes.

        With ``isolate`` (ticks), a failing call's own changes are rolled back and the rest goes
        on; otherwise (actions) the first error is returned for the caller to roll back.
        """
        queue, mods = self.queue, self.mods
        if queue is None or mods is None or not queue:
            return None
        if not mods.hook_impls("on_neighbor_changed"):
            queue.clear()
            return None
        types = self._tables().types  # BlockType by state id, without the registry's checks
        for _ in range(budget):
            entry = queue.pop()
            if entry is None:
                break
            old, new = types[entry.old], types[entry.new]
            for normal in FACE_NORMALS:
                pos = entry.pos + normal
                block_id = self.read(pos)
                if block_id == AIR:
                    continue
                kwargs = {
                    "world": self.view,
                    "pos": pos,
                    "block": types[block_id],
                    "neighbor": entry.pos,
                    "old": old,
                    "new": new,
                }
                error = self.call("on_neighbor_changed", kwargs, isolate=isolate).error
                if error is not None:
                    return error
        return None


def _positions(diff: ChunkDiff) -> NDArray[np.int64]:
    """The world voxels of a chunk diff's flat indices, (N, 3)."""
    local = np.stack(np.unravel_index(diff.idx, CHUNK), axis=1).astype(np.int64)
    return local + np.asarray(diff.key, dtype=np.int64) * np.asarray(CHUNK, dtype=np.int64)
