"""One action's (or tick's) journal: the changes it made, their roll-back, and its hook calls.

A `Transaction` is opened by `world.rules.Rules` around every action and tick. Every block an
action changes goes through `Transaction.set` / `Transaction.set_many`, which write the world,
journal the change and queue its neighbour notification, so the whole action, or one hook call
of it, can be rolled back exactly (`Transaction.mark` / `Transaction.rollback`). On leaving the
``with`` block the transaction's `world.mod_world.ModWorld` stops accepting writes, and an
exception that escapes (not a mod's: those are caught and recorded; the player's Ctrl-C is one)
first restores every voxel the transaction changed, so no action is ever half applied.

`Transaction.call` is the one place where the calling policies of `world.hooks.CALLING` are
applied to a hook's implementations; `Transaction.notify_neighbors` drains the neighbour queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from world.blocks import AIR
from world.chunks import chunk_index
from world.geometry import FACE_NORMALS, Int3
from world.hooks import CALLING, Policy
from world.mod_world import Change, ModWorld
from world.neighbors import NeighborQueue, Undo

if TYPE_CHECKING:
    from world.chunks import World
    from world.hook_guard import HookGuard
    from world.mods import Implementation, ModError, Mods

__all__ = ["Called", "Transaction"]

_EXPECTED = {
    Policy.VETO: "None, True, False or a reason",
    Policy.UNTIL_HANDLED: "True, False or None",
}


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
        None: no hooks run and no notifications are queued.
    guard : HookGuard or None
        Runs each hook call (required with ``mods``).
    queue : NeighborQueue or None
        Where this transaction's changes are queued for notification: a fresh queue for an
        action, the rules' own pending queue for a tick (drained in place).
    """

    def __init__(
        self,
        world: World,
        mods: Mods | None,
        guard: HookGuard | None,
        queue: NeighborQueue | None,
    ) -> None:
        self.world = world
        self.mods = mods
        self.guard = guard
        self.queue = queue if mods is not None else None
        self.changes: list[Change] = []
        self._undo: list[Undo | None] = []
        # The can_* hook running, while one runs: the world is read-only then.
        self.read_only: str | None = None
        # The mod whose hook is running (its storage, the cause of its changes); None: the action.
        self.mod: str | None = None
        # The first mod error met anywhere in the action, nested checks (a mod's may_break)
        # included: the action is then denied and rolled back whatever the asking mod did.
        self.error: ModError | None = None
        self.closed = False
        self.view = ModWorld(self)

    def __enter__(self) -> Transaction:
        if self.guard is not None:
            self.guard.arm()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        try:
            if exc_type is not None:
                self.rollback((0, 0))
        finally:
            self.closed = True
            if self.guard is not None:
                self.guard.disarm()

    # -- changes ------------------------------------------------------------------------------

    def read(self, pos: Int3) -> int:
        """The block id at a checked position (without the public API's argument checks: the
        neighbour loop reads six voxels per change)."""
        key, idx = chunk_index(*pos)
        chunk = self.world.chunk(*key)
        return AIR if chunk is None else int(chunk.blocks[idx])

    def set(self, pos: Int3, block_id: int) -> None:
        """Set one voxel (a checked position and id), journalled and queued."""
        old = self.read(pos)
        if old == block_id:
            return
        self.world.set_block(*pos, block_id)
        self.changes.append(Change(pos, old, block_id))
        if self.queue is not None:
            self._undo.append(self.queue.push(pos, old, block_id, self.mod))

    def set_many(self, coords: NDArray[np.int64], ids: NDArray[np.int64]) -> None:
        """Set N voxels (checked coordinates and ids); for repeated coordinates the last wins."""
        last = len(coords) - 1 - np.unique(coords[::-1], axis=0, return_index=True)[1]
        coords, ids = coords[last], ids[last]
        old = self.world.get_blocks(coords).astype(np.int64)
        changed = old != ids
        coords, old, ids = coords[changed], old[changed], ids[changed]
        self.world.set_blocks(coords, ids)
        for xyz, before, after in zip(coords.tolist(), old.tolist(), ids.tolist(), strict=True):
            pos = Int3(*xyz)
            self.changes.append(Change(pos, before, after))
            if self.queue is not None:
                self._undo.append(self.queue.push(pos, before, after, self.mod))

    def mark(self) -> tuple[int, int]:
        """A point to roll back to."""
        return len(self.changes), len(self._undo)

    def rollback(self, mark: tuple[int, int]) -> None:
        """Restore every voxel changed since ``mark`` and take back their notifications."""
        n_changes, n_undo = mark
        for change in reversed(self.changes[n_changes:]):
            self.world.set_block(*change.pos, change.old)
        del self.changes[n_changes:]
        if self.queue is not None:
            for record in reversed(self._undo[n_undo:]):
                if record is not None:
                    self.queue.undo(record)
        del self._undo[n_undo:]

    # -- hooks --------------------------------------------------------------------------------

    def run(
        self, impl: Implementation, kwargs: Mapping[str, object]
    ) -> tuple[object, ModError | None]:
        """Call one implementation as its mod: its result, and the error it caused (or that a
        check it asked for, `world.mod_world.ModWorld.may_break`, met)."""
        assert self.guard is not None
        outer, self.mod = self.mod, impl.mod
        try:
            result, error = self.guard.run(impl, kwargs)
        finally:
            self.mod = outer
        return result, error or self.error

    def call(self, hook: str, kwargs: Mapping[str, object], *, isolate: bool = False) -> Called:
        """Call every implementation of ``hook`` as its policy (`world.hooks.CALLING`) says.

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
                result, error = self.run(impl, kwargs)
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
                        error = self.mods.record(impl.mod, hook, bad)
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
        world = self.world
        types = tuple(world.registry)  # BlockType by id, without the registry's per-call checks
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
