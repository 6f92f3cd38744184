"""`world.physics.collision` on collision shapes: random worlds of random boxes (slabs, steps,
posts, 1.5-high fences, boxes touching voxel faces) against a reference that sweeps in small
steps."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import COLLISION_TOP, Box
from world.physics.collision import EPS, block_ids, collision_region, move_aabb

SIZE = 6  # random worlds fill the voxels 0..SIZE-1 inside a shell of full cubes
H = 1 / 64  # the reference's step: thinner than every random box (1/8 at least)

Boxes = list[tuple[float, ...]]

# Eighths, so that boxes touch each other and the voxel faces exactly; y reaches 1.5.
eighths = [i / 8 for i in range(9)]
tall_eighths = [i / 8 for i in range(13)]


@st.composite
def boxes(draw: st.DrawFn) -> Box:
    x0, x1 = sorted(draw(st.lists(st.sampled_from(eighths), min_size=2, max_size=2, unique=True)))
    z0, z1 = sorted(draw(st.lists(st.sampled_from(eighths), min_size=2, max_size=2, unique=True)))
    y0, y1 = sorted(
        draw(st.lists(st.sampled_from(tall_eighths), min_size=2, max_size=2, unique=True))
    )
    return Box(x0, y0, z0, x1, y1, z1)


shapes = st.lists(st.lists(boxes(), min_size=1, max_size=3).map(tuple), min_size=1, max_size=4)


def shaped_world(shape_list: list[tuple[Box, ...]], cells: list[int]) -> World:
    """A registry of the full cube, a no-collision block, a liquid and the random shapes; a
    shelled world whose inside holds ``cells`` (indices into those blocks, 0 = air)."""
    registry = BlockRegistry()
    ids = [0, registry.register(BlockType("t:cube"))]
    ids.append(registry.register(BlockType("t:torch", solid=False, transparent=True)))
    ids.append(registry.register(BlockType("t:water", solid=False, groups=("liquid",))))
    for i, shape in enumerate(shape_list):
        ids.append(registry.register(BlockType(f"t:shape{i}", collision=shape)))
    world = World(registry)
    shell = np.argwhere(np.ones((SIZE + 2,) * 3, dtype=bool)) - 1
    world.set_blocks(shell, ids[1])
    inside = np.argwhere(np.ones((SIZE,) * 3, dtype=bool))
    world.set_blocks(inside, 0)
    for idx, cell in zip(inside, cells, strict=True):
        if cell:
            world.set_block(*(int(v) for v in idx), ids[cell % len(ids)])
    return world


def world_boxes(world: World) -> Boxes:
    """Every collision box of the shelled region, in world coordinates (brute force)."""
    registry = world.registry
    out: Boxes = []
    for x in range(-1, SIZE + 1):
        for y in range(-1, SIZE + 1):
            for z in range(-1, SIZE + 1):
                for b in registry.collision_boxes[world.get_block(x, y, z)]:
                    out.append((x + b[0], y + b[1], z + b[2], x + b[3], y + b[4], z + b[5]))
    return out


def overlaps(lo: list[float], hi: list[float], box: tuple[float, ...]) -> bool:
    """Deeper than EPS into the box on every axis (touching is not overlapping)."""
    return all(box[i] < hi[i] - EPS and box[i + 3] > lo[i] + EPS for i in range(3))


def small_step_move(
    all_boxes: Boxes, lo: list[float], hi: list[float], delta: tuple[float, float, float]
) -> tuple[list[float], list[bool]]:
    """Move one axis at a time (y, x, z) in steps of H; at the first step that overlaps a box
    the box was not already in, stop on the nearest face of the boxes that step overlaps."""
    lo, hi = list(lo), list(hi)
    blocked = [False, False, False]
    for axis in (1, 0, 2):
        d = delta[axis]
        inside = [b for b in all_boxes if overlaps(lo, hi, b)]
        moved = d
        for i in range(1, math.ceil(abs(d) / H) + 1):
            t = math.copysign(min(i * H, abs(d)), d)
            at_lo, at_hi = list(lo), list(hi)
            at_lo[axis] += t
            at_hi[axis] += t
            hit = [b for b in all_boxes if b not in inside and overlaps(at_lo, at_hi, b)]
            if hit:
                if d > 0:
                    moved = min(b[axis] for b in hit) - hi[axis]
                else:
                    moved = max(b[axis + 3] for b in hit) - lo[axis]
                blocked[axis] = True
                break
        lo[axis] += moved
        hi[axis] += moved
    return lo, blocked


cells = st.lists(
    st.integers(0, 23).map(lambda c: c if c <= 8 else 0), min_size=SIZE**3, max_size=SIZE**3
)


@settings(max_examples=80, deadline=None)
@given(
    shape_list=shapes,
    cells=cells,
    start=st.tuples(*(st.floats(0.0, SIZE - 2.0),) * 3),
    size=st.sampled_from([(0.6, 1.8, 0.6), (0.25, 0.25, 0.25), (1.3, 0.7, 0.9)]),
    delta=st.tuples(*(st.floats(-3.0, 3.0),) * 3),
)
def test_move_aabb_matches_a_small_step_sweep_through_random_box_shapes(
    shape_list: list[tuple[Box, ...]],
    cells: list[int],
    start: tuple[float, float, float],
    size: tuple[float, float, float],
    delta: tuple[float, float, float],
) -> None:
    world = shaped_world(shape_list, cells)
    lo = list(start)
    hi = [a + s for a, s in zip(lo, size, strict=True)]
    all_boxes = world_boxes(world)
    got_lo, got_blocked = move_aabb(world, tuple(lo), tuple(hi), delta)  # type: ignore[arg-type]
    want_lo, want_blocked = small_step_move(all_boxes, lo, hi, delta)
    assert list(got_blocked) == want_blocked
    assert got_lo == pytest.approx(want_lo, abs=1e-9)
    # Read up front for several moves (a physics tick), the same region answers the same, whether
    # the move stays inside it or leaves it.
    region = collision_region(
        world, (lo[0] - 1.5, lo[1] - 1.5, lo[2] - 1.5), (hi[0] + 1.5, hi[1] + 1.5, hi[2] + 1.5)
    )
    box_lo, box_hi = (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])
    assert move_aabb(world, box_lo, box_hi, delta, region) == (got_lo, got_blocked)
    ids, origin = block_ids(world, box_lo, box_hi, region)
    direct_ids, direct_origin = block_ids(world, box_lo, box_hi)
    assert origin == direct_origin and np.array_equal(ids, direct_ids)
    # A box that started clear of every collision box ends clear of them all.
    if not any(overlaps(lo, hi, b) for b in all_boxes):
        got_hi = [a + s for a, s in zip(got_lo, size, strict=True)]
        assert not any(overlaps(list(got_lo), got_hi, b) for b in all_boxes)


def test_a_fence_box_reaching_above_its_voxel_stops_a_fall_at_1_5() -> None:
    registry = BlockRegistry()
    fence = registry.register(
        BlockType("t:fence", collision=(Box(0.375, 0.0, 0.375, 0.625, COLLISION_TOP, 0.625),))
    )
    world = World(registry)
    world.set_block(0, 0, 0, fence)
    lo, blocked = move_aabb(world, (0.2, 5.0, 0.2), (0.8, 6.8, 0.8), (0.0, -10.0, 0.0))
    assert lo[1] == 1.5 and blocked == (False, True, False)


def test_torches_and_plants_have_no_collision_box() -> None:
    registry = BlockRegistry()
    torch = registry.register(
        BlockType("t:torch", solid=False, selection=(Box(0.4, 0.0, 0.4, 0.6, 0.6, 0.6),))
    )
    plant = registry.register(BlockType("t:grass", solid=False, transparent=True))
    world = World(registry)
    world.set_block(1, 0, 0, torch)
    world.set_block(2, 0, 0, plant)
    lo, blocked = move_aabb(world, (0.2, 0.0, 0.2), (0.8, 1.8, 0.8), (5.0, 0.0, 0.0))
    assert lo == (5.2, 0.0, 0.2) and blocked == (False, False, False)
