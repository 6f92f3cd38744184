"""The neighbour queue stays bounded: one entry per voxel and cause, a cap with the overflow
reported once per mod, exact undo; and a never-settling cascade keeps memory flat."""

from __future__ import annotations

import gc
import logging
import tracemalloc

import pytest

from bench.mod_cascade import DT, start_cascade
from world.actions.neighbors import NeighborQueue, Pending
from world.geometry import Int3
from world.rules import TICK_NEIGHBOR_BUDGET

A, B, C = Int3(0, 0, 0), Int3(1, 0, 0), Int3(2, 0, 0)
CAP = 512


def drain(queue):
    out = []
    while (entry := queue.pop()) is not None:
        out.append(entry)
    return out


def test_a_voxel_changed_again_keeps_its_place_its_first_old_and_takes_the_latest_new():
    queue = NeighborQueue()
    queue.push(A, 0, 1, "m")
    queue.push(B, 0, 2, "m")
    queue.push(A, 1, 3, "m")
    assert len(queue) == 2
    assert drain(queue) == [Pending(A, 0, 3, "m"), Pending(B, 0, 2, "m")]


def test_changes_by_different_causes_are_separate_entries():
    queue = NeighborQueue()
    queue.push(A, 0, 1, "m")
    queue.push(A, 1, 2, None)
    assert drain(queue) == [Pending(A, 0, 1, "m"), Pending(A, 1, 2, None)]


def test_the_cap_drops_new_entries_and_reports_each_cause_once():
    reported = []
    queue = NeighborQueue(cap=2, on_overflow=reported.append)
    queue.push(A, 0, 1, "m")
    queue.push(B, 0, 1, "m")
    assert queue.push(C, 0, 1, "m") is None
    assert queue.push(C, 0, 1, "m") is None
    assert queue.push(C, 0, 1, "other") is None
    assert queue.push(A, 1, 2, "m") is not None  # coalescing still works when full
    assert reported == ["m", "other"] and queue.dropped == 3
    assert drain(queue) == [Pending(A, 0, 2, "m"), Pending(B, 0, 1, "m")]


def test_undo_takes_back_pushes_exactly():
    queue = NeighborQueue()
    queue.push(A, 0, 1, "m")
    records = [queue.push(B, 0, 1, "m"), queue.push(A, 1, 5, "m"), queue.push(C, 0, 7, "m")]
    for record in reversed(records):
        queue.undo(record)
    assert drain(queue) == [Pending(A, 0, 1, "m")]


def test_a_bad_cap_is_refused():
    with pytest.raises(ValueError, match="cap"):
        NeighborQueue(cap=-1)


@pytest.mark.slow
def test_a_never_settling_cascade_stays_bounded_with_flat_memory(caplog):
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        rules = start_cascade(side=12, max_pending=CAP)  # 1728 toggling voxels, more than CAP
        for _ in range(30):
            rules.tick(DT)
            assert rules.pending <= CAP
        gc.collect()
        tracemalloc.start()
        try:
            start = tracemalloc.get_traced_memory()[0]
            for _ in range(100):
                changes = rules.tick(DT)
                assert rules.pending <= CAP
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - start
        finally:
            tracemalloc.stop()
    assert changes  # still going: the cascade never settles
    assert len(changes) <= 6 * TICK_NEIGHBOR_BUDGET
    assert grown < 1_000_000
    overflow = [r for r in caplog.records if "wait for their neighbours" in r.getMessage()]
    assert len(overflow) == 1 and "pingpong" in overflow[0].getMessage()
    assert rules.mods is not None and [e.mod for e in rules.mods.errors] == ["pingpong"]
