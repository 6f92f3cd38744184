"""An action's journal: every change can be rolled back exactly, its queued notifications with
it, and an exception escaping the transaction leaves the world as it was."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.actions.neighbors import NeighborQueue
from world.actions.transaction import Transaction
from world.base import GAME
from world.geometry import Int3
from world.mods.guard import HookGuard
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods


def snapshot(world):
    return {k: c.blocks.tobytes() for k, c in world.chunks.items() if c.blocks.any()}


def drain(queue):
    out = []
    while (entry := queue.pop()) is not None:
        out.append(entry)
    return out


class Listener:
    """A mod that listens to neighbour changes: without one, nothing is queued."""

    @hookimpl
    def on_neighbor_changed(self):
        pass


def transaction(world, queue):
    mods = load_mods([], entry_points=False, plugins={"listener": Listener()}, game=GAME)
    return Transaction(world, mods, HookGuard(mods.record), queue)


def test_nothing_is_queued_when_no_mod_listens_to_neighbour_changes():
    world = World()
    queue = NeighborQueue()
    mods = load_mods([], entry_points=False, game=GAME)
    with Transaction(world, mods, HookGuard(mods.record), queue) as tx:
        tx.set(Int3(0, 0, 0), 1)
        tx.set_many(np.array([[1, 0, 0], [2, 0, 0]], dtype=np.int64), np.array([1, 2]))
    assert world.get_block(2, 0, 0) == 2 and len(queue) == 0


voxels = st.tuples(*[st.integers(-3, 3)] * 3).map(lambda t: Int3(*t))
edits = st.lists(st.tuples(voxels, st.integers(0, 3)), max_size=12)


@settings(max_examples=60, deadline=None)
@given(before=edits, after=edits, cause=st.sampled_from([None, "m"]))
def test_rolling_back_to_a_mark_restores_the_world_and_the_queue_exactly(before, after, cause):
    world = World()
    queue = NeighborQueue()
    with transaction(world, queue) as tx:
        for pos, block_id in before:
            tx.set(pos, block_id)
        world_then, queue_then = snapshot(world), list(queue._entries.items())
        mark = tx.mark()
        tx.mod = cause  # None: the same cause as before, so entries coalesce
        for pos, block_id in after:
            tx.set(pos, block_id)
        tx.mod = None
        tx.rollback(mark)
        assert snapshot(world) == world_then
        assert list(queue._entries.items()) == queue_then
        assert len(drain(queue)) == len(queue_then)


def test_set_many_journals_each_changed_voxel_once_the_last_write_winning():
    world = World()
    queue = NeighborQueue()
    with transaction(world, queue) as tx:
        coords = np.array([[0, 0, 0], [1, 0, 0], [0, 0, 0]], dtype=np.int64)
        tx.set_many(coords, np.array([1, 2, 3], dtype=np.int64))
        assert [(c.pos, c.old, c.new) for c in tx.changes] == [((0, 0, 0), 0, 3), ((1, 0, 0), 0, 2)]
    assert world.get_block(0, 0, 0) == 3 and len(queue) == 2


def test_an_escaping_exception_restores_every_change_and_closes_the_view():
    world = World()
    world.set_block(0, 0, 0, 1)
    before = snapshot(world)
    with pytest.raises(KeyboardInterrupt), transaction(world, NeighborQueue()) as tx:
        tx.set(Int3(0, 0, 0), 2)
        tx.set(Int3(5, 5, 5), 3)
        raise KeyboardInterrupt
    assert snapshot(world) == before
    with pytest.raises(RuntimeError, match="over"):
        tx.view.set_block(1, 1, 1, 1)
