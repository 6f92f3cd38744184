"""`world.physics.collision`'s limits: the world's edge is a wall, long moves stay bounded, wide
boxes are refused. (The sweep's exactness is checked against brute force in test_physics.py.)"""

from __future__ import annotations

import math
import tracemalloc

import pytest

from world import World
from world.base import default_registry
from world.physics.collision import MAX_BOX, move_aabb
from world.validate import WORLD_LIMIT

STONE = default_registry().id("base:stone")
L = float(WORLD_LIMIT)


def test_the_worlds_edge_stops_a_move_like_a_wall():
    lo, blocked = move_aabb(World(), (L - 1.0, 0.0, 0.0), (L - 0.4, 1.8, 0.6), (10.0, 0.0, 0.0))
    assert lo == (L, 0.0, 0.0) and blocked == (True, False, False)
    lo, blocked = move_aabb(World(), (0.0, -L + 2.0, 0.0), (0.6, -L + 3.8, 0.6), (0.0, -50.0, 0.0))
    assert lo == (0.0, -L, 0.0) and blocked == (False, True, False)


def test_a_long_diagonal_move_is_swept_in_bounded_memory_and_stops_at_the_first_wall():
    world = World()
    world.set_block(60_000, 0, 60_000, STONE)
    tracemalloc.start()
    free, blocked = move_aabb(world, (0.2, 0.0, 0.2), (0.8, 1.8, 0.8), (1e5, 0.0, 1e5))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert free == (0.2 + 1e5, 0.0, 0.2 + 1e5) and blocked == (False, False, False)
    assert peak < 4 * 2**20  # the old single grid of the whole move was 1e10 cells
    lo, blocked = move_aabb(world, (60_000.2, 0.0, 0.2), (60_000.8, 1.8, 0.8), (0.0, 0.0, 1e5))
    assert lo[2] == pytest.approx(60_000 - 0.6) and blocked == (False, False, True)


@pytest.mark.parametrize(
    ("lo", "hi", "delta", "name"),
    [
        ((L + 1, 0, 0), (L + 2, 1, 1), (0, 0, 0), "lo"),
        ((0, 0, 0), (MAX_BOX + 1, 1, 1), (0, 0, 0), "hi"),
        ((0, 0, 0), (-1, 1, 1), (0, 0, 0), "hi"),
        ((0, 0, 0), (1, 1, 1), (math.inf, 0, 0), "delta"),
        (("0", 0, 0), (1, 1, 1), (0, 0, 0), "lo"),
        ((0, 0, 0), (1, 1, 1), (True, 0, 0), "delta"),
    ],
)
def test_bad_boxes_and_moves_are_refused_naming_the_argument(lo, hi, delta, name):
    with pytest.raises(ValueError, match=name):
        move_aabb(World(), lo, hi, delta)
