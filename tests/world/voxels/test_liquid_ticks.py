"""The scheduled liquid ticks' store: earliest tick kept, taken in order, rows round-tripped and a
damaged row refused whole, every change undone with the action that made it."""

from __future__ import annotations

import numpy as np
import pytest

from world.voxels.journal import Journal
from world.voxels.liquid_ticks import LiquidTicks


def test_a_voxel_keeps_its_earliest_tick_and_ticks_come_oldest_first_across_chunks() -> None:
    ticks = LiquidTicks(Journal(set()))
    cells = np.array([(0, 0, 0), (17, 3, -1), (-1, -1, -1)])
    ticks.schedule(cells, np.array([5, 3, 9]))
    ticks.schedule(cells[:1], 7)  # later than its 5: kept at 5
    ticks.schedule(cells[2:], 1)  # earlier than its 9: now 1
    assert [ticks.due_at(tuple(c)) for c in cells.tolist()] == [5, 3, 1]
    got, due = ticks.pop_due(5, limit=2)
    assert got.tolist() == [[-1, -1, -1], [17, 3, -1]] and due.tolist() == [1, 3]
    assert len(ticks) == 1 and ticks.due_at((0, 0, 0)) == 5


def test_a_chunks_ticks_round_trip_and_a_damaged_row_is_refused_whole() -> None:
    ticks = LiquidTicks(Journal(set()))
    ticks.schedule(np.array([(1, 2, 3), (15, 15, 15)]), np.array([40, 41]))
    rows = ticks.chunk_rows((0, 0, 0))
    assert rows == {"291": 40, "4095": 41}
    again = LiquidTicks(Journal(set()))
    again.restore_chunk((0, 0, 0), rows)
    assert again.due_at((1, 2, 3)) == 40 and len(again) == 2
    for bad in ({"0291": 1}, {"4096": 1}, {"-1": 1}, {"7": -1}, {"7": True}, {"7": 1.5}, [1]):
        with pytest.raises(ValueError, match="liquid tick"):
            again.restore_chunk((0, 0, 0), bad)
        assert again.due_at((1, 2, 3)) == 40  # nothing of the bad row was loaded


def test_a_rolled_back_action_leaves_the_ticks_and_their_unsaved_marks_as_they_were() -> None:
    modified: set[tuple[int, int, int]] = set()
    journal = Journal(modified)
    ticks = LiquidTicks(journal)
    ticks.schedule(np.array([(1, 1, 1)]), 10)
    modified.clear()
    journal.begin()
    mark = journal.mark()
    ticks.schedule(np.array([(1, 1, 1), (40, 0, 0)]), 2)
    ticks.remove(np.array([(40, 0, 0)]))
    assert ticks.due_at((1, 1, 1)) == 2 and modified == {(0, 0, 0), (2, 0, 0)}
    entries, fresh = journal.take_since(mark)
    journal.replaying = True
    for entry in entries:
        entry[1](entry[2])
    journal.replaying = False
    for key in fresh:
        modified.discard(key)
    journal.end()
    assert ticks.due_at((1, 1, 1)) == 10 and ticks.due_at((40, 0, 0)) is None
    assert len(ticks) == 1 and not modified
