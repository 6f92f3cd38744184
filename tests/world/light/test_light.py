"""Light: sky and block light, incremental relight, against a brute-force BFS reference."""

from __future__ import annotations

import pickle
from collections import deque

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME, default_registry
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.light.lighting import (
    Light,
    LightAnswer,
    LightJob,
    opacity_table,
    sky_stop_table,
    solve_light,
)
from world.light.relax import MAX_LIGHT


def registry() -> BlockRegistry:
    reg = default_registry()
    reg.register(BlockType("test:lamp", light=15, tiles=("base:lamp",)))
    reg.register(
        BlockType("test:torch", light=14, solid=False, transparent=True, tiles=("base:lamp",))
    )
    return reg


def loaded_world(keys) -> World:
    world = World(registry())
    for key in keys:
        world.put_chunk(key, None)
    return world


def reference(world: World) -> tuple[dict, dict]:
    """Brute force: Python BFS of both channels over every loaded voxel."""
    reg = world.registry
    op = opacity_table(reg)
    stop = sky_stop_table(reg)
    keys = set(world.chunks) | set(world._air)

    def loaded(p):
        return (p[0] >> 4, p[1] >> 4, p[2] >> 4) in keys

    voxels = [
        (k[0] * 16 + x, k[1] * 16 + y, k[2] * 16 + z)
        for k in keys
        for x in range(16)
        for y in range(16)
        for z in range(16)
    ]
    block = {p: world.get_block(*p) for p in voxels}

    def top_of_run(cx, cy, cz):
        while (cx, cy, cz) in keys:
            cy += 1
        return cy - 1

    result = []
    for channel in ("sky", "block"):
        level = {}
        for p in voxels:
            b = block[p]
            if channel == "block":
                level[p] = int(min(reg.light[b], 15))
            else:
                top = (top_of_run(p[0] >> 4, p[1] >> 4, p[2] >> 4) + 1) * 16
                is_open = all(
                    not (loaded((p[0], y, p[2])) and stop[block.get((p[0], y, p[2]), 0)])
                    for y in range(p[1], top)
                )
                level[p] = MAX_LIGHT if is_open else 0
        queue = deque(voxels)
        while queue:
            p = queue.popleft()
            v = level[p]
            for d in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                q = (p[0] + d[0], p[1] + d[1], p[2] + d[2])
                if q not in level or op[block[q]] >= MAX_LIGHT:
                    continue
                n = v - max(1, int(op[block[q]]))
                if n > level[q]:
                    level[q] = n
                    queue.append(q)
        result.append(level)
    return result[0], result[1]


def wrong_voxels(world: World, light: Light) -> list:
    """The first voxels (at most 5) whose (sky, block) light differs from the reference's."""
    sky, block = reference(world)
    return [p for p, v in sky.items() if light.at(*p) != (v, block[p])][:5]


def lit(world: World) -> Light:
    light = Light(world)
    for key in sorted(set(world.chunks) | set(world._air), key=lambda k: -k[1]):
        light.add_chunk(key)
    return light


def test_a_lamp_gives_14_at_its_neighbour_and_0_at_15_blocks_and_breaking_it_darkens() -> None:
    world = loaded_world([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    world.put_chunk((0, 1, 0), np.full(4096, 1, dtype=np.uint16))  # stone roof: no sky
    world.put_chunk((1, 1, 0), np.full(4096, 1, dtype=np.uint16))
    world.put_chunk((2, 1, 0), np.full(4096, 1, dtype=np.uint16))
    light = lit(world)
    lamp = world.registry.id("test:lamp")
    world.set_block(8, 8, 8, lamp)
    changed = light.update([(8, 8, 8)])
    assert light.at(8, 8, 8) == (0, 15)
    assert light.at(9, 8, 8) == (0, 14)
    assert light.at(8 + 14, 8, 8) == (0, 1)
    assert light.at(8 + 15, 8, 8) == (0, 0)
    assert (1, 0, 0) in changed  # light crossed the chunk border
    world.set_block(8, 8, 8, 0)
    light.update([(8, 8, 8)])
    assert light.at(9, 8, 8) == (0, 0)
    assert light.at(17, 8, 8) == (0, 0)


def test_a_cave_is_dark_and_open_air_has_full_sky() -> None:
    world = loaded_world([(0, 0, 0)])
    world.put_chunk((0, -1, 0), np.full(4096, 1, dtype=np.uint16))
    blocks = np.full(4096, 1, dtype=np.uint16).reshape(16, 16, 16)
    blocks[4:8, 4:8, 4:8] = 0
    world.put_chunk((0, -2, 0), blocks.ravel())
    light = lit(world)
    assert light.at(5, -32 + 5, 5) == (0, 0)
    assert light.at(5, 5, 5) == (15, 0)


def test_sky_light_under_a_one_block_roof_falls_by_one_per_block_sideways() -> None:
    world = loaded_world([(0, 0, 0)])
    light = lit(world)
    stone = world.registry.id("base:stone")
    world.set_block(8, 10, 8, stone)
    light.update([(8, 10, 8)])
    assert light.at(8, 9, 8) == (14, 0)
    assert light.at(8, 0, 8) == (14, 0)
    assert light.at(9, 9, 8) == (15, 0)


def test_a_roof_over_a_shaft_shades_it_all_the_way_down_through_chunks() -> None:
    world = loaded_world([(0, 0, 0), (0, -1, 0), (0, -2, 0)])
    light = lit(world)
    assert light.at(3, -30, 3) == (15, 0)
    stone = world.registry.id("base:stone")
    world.set_block(3, 15, 3, stone)
    light.update([(3, 15, 3)])
    assert light.at(3, -30, 3) == (14, 0)
    world.set_block(3, 15, 3, 0)
    light.update([(3, 15, 3)])
    assert light.at(3, -30, 3) == (15, 0)


def test_water_and_leaves_filter_one_and_glass_none() -> None:
    op = opacity_table(registry())
    reg = registry()
    assert op[reg.id("base:water")] == 1
    assert op[reg.id("base:leaves")] == 1
    assert op[reg.id("base:glass")] == 0
    assert op[reg.id("base:stone")] == 15


def test_padded_gives_the_chunk_with_a_border_from_its_neighbours() -> None:
    world = loaded_world([(0, 0, 0), (1, 0, 0)])
    world.put_chunk((0, 1, 0), np.full(4096, 1, dtype=np.uint16))
    world.put_chunk((1, 1, 0), np.full(4096, 1, dtype=np.uint16))
    light = lit(world)
    world.set_block(16, 4, 4, world.registry.id("test:lamp"))
    light.update([(16, 4, 4)])
    sky, block = light.padded((0, 0, 0))
    assert sky.shape == block.shape == (18, 18, 18)
    assert block[17, 5, 5] == 15
    assert block[16, 5, 5] == 14


PALETTE = [
    "air",
    "base:stone",
    "base:glass",
    "base:water",
    "base:leaves",
    "test:lamp",
    "test:torch",
]

# One edit of the four loaded chunks: a position and what it becomes.
EDIT = st.tuples(
    st.integers(0, 31), st.integers(-16, 15), st.integers(0, 15), st.sampled_from(PALETTE)
)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(EDIT, min_size=1, max_size=12),
    st.integers(1, 4),
)
def test_incremental_relight_after_random_edits_equals_the_brute_force_reference(
    edits, batch
) -> None:
    world = loaded_world([(0, 0, 0), (1, 0, 0), (0, -1, 0), (1, -1, 0)])
    reg = world.registry
    light = lit(world)
    for i in range(0, len(edits), batch):
        group = edits[i : i + batch]
        for x, y, z, name in group:
            world.set_block(x, y, z, 0 if name == "air" else reg.id(name))
        light.update([(x, y, z) for x, y, z, _ in group])
    assert wrong_voxels(world, light) == []


STRUCTURE = ["base:stone", "base:leaves", "base:water", "base:glass", "base:stone_slab", "air"]


@settings(max_examples=20, deadline=None)
@given(
    st.lists(  # boxes built before the light: roofs, walls, canopies, caves
        st.tuples(
            st.tuples(st.integers(0, 31), st.integers(-16, 15), st.integers(0, 15)),
            st.tuples(st.integers(1, 12), st.integers(1, 4), st.integers(1, 12)),
            st.sampled_from(STRUCTURE),
        ),
        min_size=2,
        max_size=6,
    ),
    st.lists(  # then edits near one another, so that their light meets
        st.tuples(
            st.integers(8, 23), st.integers(-6, 8), st.integers(2, 13), st.sampled_from(PALETTE)
        ),
        min_size=1,
        max_size=10,
    ),
)
def test_remove_then_refill_in_shade_and_caves_equals_the_brute_force_reference(
    boxes, edits
) -> None:
    # Edits under roofs and canopies, next to lamps and in caves: light to remove reaches
    # shaded voxels lit from several sides, and sky columns open and close.
    world = loaded_world([(0, 0, 0), (1, 0, 0), (0, -1, 0), (1, -1, 0)])
    reg = world.registry
    for (x, y, z), (dx, dy, dz), name in boxes:
        ident = 0 if name == "air" else reg.id(name)
        for p in np.ndindex(dx, dy, dz):
            q = (x + p[0], y + p[1], z + p[2])
            if 0 <= q[0] < 32 and -16 <= q[1] < 16 and 0 <= q[2] < 16:
                world.set_block(*q, ident)
    light = lit(world)
    for x, y, z, name in edits:
        world.set_block(x, y, z, 0 if name == "air" else reg.id(name))
        light.update([(x, y, z)])
    assert wrong_voxels(world, light) == []


def test_a_chunk_loaded_over_a_lit_one_shades_it() -> None:
    # Streaming lights the chunks it has: a roof that loads later must darken what it covers.
    world = loaded_world([(0, 0, 0)])
    light = lit(world)
    assert light.at(5, 5, 5) == (MAX_LIGHT, 0)
    roof = np.zeros(16**3, dtype=np.uint16)
    roof.reshape(16, 16, 16)[:, 8, :] = world.registry.id("base:stone")
    world.put_chunk((0, 1, 0), roof)
    light.add_chunk((0, 1, 0))
    assert light.at(5, 5, 5) == (0, 0)
    assert wrong_voxels(world, light) == []


LOAD_ORDER_KEYS = [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)]


BOXES = st.lists(  # boxes of blocks built in the chunks of LOAD_ORDER_KEYS (`built_world`)
    st.tuples(
        st.tuples(st.integers(0, 31), st.integers(0, 31), st.integers(0, 15)),
        st.tuples(st.integers(1, 12), st.integers(1, 4), st.integers(1, 12)),
        st.sampled_from([*STRUCTURE, "test:lamp"]),
    ),
    min_size=1,
    max_size=6,
)


def built_world(boxes) -> World:
    """The chunks of `LOAD_ORDER_KEYS` with ``boxes`` of blocks built in them."""
    built = loaded_world(LOAD_ORDER_KEYS)
    reg = built.registry
    for (x, y, z), (dx, dy, dz), name in boxes:
        ident = 0 if name == "air" else reg.id(name)
        for p in np.ndindex(dx, dy, dz):
            q = (x + p[0], y + p[1], z + p[2])
            if 0 <= q[0] < 32 and 0 <= q[1] < 32 and 0 <= q[2] < 16:
                built.set_block(*q, ident)
    return built


@settings(max_examples=15, deadline=None)
@given(
    BOXES,
    st.permutations(LOAD_ORDER_KEYS),
    st.integers(1, 3),
)
def test_chunks_lit_as_they_load_in_any_order_equal_the_brute_force_reference(
    boxes, order, batch
) -> None:
    # The game lights chunks in the order they stream in, a few at a time: roofs, lamps and
    # caves loading before or after what lies under and beside them.
    built = built_world(boxes)
    reg = built.registry
    world = World(reg)
    light = Light(world)
    for i in range(0, len(order), batch):
        group = order[i : i + batch]
        for key in group:
            world.put_chunk(key, built.chunk_blocks(*key).copy())
        light.add_chunks(group)
    assert wrong_voxels(world, light) == []


@settings(max_examples=10, deadline=None)
@given(
    BOXES,
    st.permutations(LOAD_ORDER_KEYS),
    st.integers(1, 3),
    st.lists(
        st.tuples(
            st.tuples(st.integers(0, 31), st.integers(0, 31), st.integers(0, 15)),
            st.sampled_from(["air", "base:stone", "test:lamp"]),
        ),
        min_size=len(LOAD_ORDER_KEYS),
        max_size=len(LOAD_ORDER_KEYS),
    ),
    st.lists(st.booleans(), min_size=len(LOAD_ORDER_KEYS), max_size=len(LOAD_ORDER_KEYS)),
)
def test_chunks_lit_by_jobs_solved_elsewhere_equal_the_reference_and_a_stale_answer_is_refused(
    boxes, order, batch, edits, edit_meanwhile
) -> None:
    # The game's chunk worker: the frame reads a group's box, another process relaxes it (the
    # inputs and the answer pickled across), a later frame writes the answer, unless an edit
    # changed a chunk the job read meanwhile: then nothing is written and the group is lit
    # again.
    built = built_world(boxes)
    reg = built.registry
    world = World(reg)
    light = Light(world)

    def solved_elsewhere(job: LightJob) -> LightAnswer:
        inputs = pickle.loads(pickle.dumps(job.inputs))
        return pickle.loads(pickle.dumps(solve_light(inputs)))

    for step, i in enumerate(range(0, len(order), batch)):
        group = order[i : i + batch]
        for key in group:
            world.put_chunk(key, built.chunk_blocks(*key).copy())
        job = light.begin_chunks(group)
        assert job is not None and set(job.keys) == set(group)
        answer = solved_elsewhere(job)
        if edit_meanwhile[step]:  # an edit in the job's box, relit at once as the rules do
            pos, name = edits[step]
            if (pos[0] >> 4, pos[1] >> 4, pos[2] >> 4) in order[: i + batch]:  # loaded
                world.set_block(*pos, 0 if name == "air" else reg.id(name))
                light.update([pos])
                assert light.finish_chunks(job, answer) is None  # stale: nothing written
                job = light.begin_chunks(group)
                assert job is not None
                answer = solved_elsewhere(job)
        assert light.finish_chunks(job, answer) is not None
    assert wrong_voxels(world, light) == []


def test_a_light_job_is_stale_only_when_a_chunk_it_read_changed() -> None:
    world = loaded_world([(0, 0, 0), (0, 1, 0), (5, 0, 0)])
    light = lit(world)
    far = light.begin_chunks([(5, 0, 0)])
    job = light.begin_chunks([(0, 1, 0)])
    assert far is not None and job is not None
    world.set_block(3, 3, 3, world.registry.id("test:lamp"))  # in (0, 0, 0): the job reads it
    light.update([(3, 3, 3)])
    assert light.finish_chunks(job, solve_light(job.inputs)) is None
    assert light.at(3, 4, 3) == (MAX_LIGHT, MAX_LIGHT - 1)  # the edit's light stays
    assert light.finish_chunks(far, solve_light(far.inputs)) is not None  # 5 chunks away
    again = light.begin_chunks([(0, 1, 0)])
    assert again is not None
    light.cancel(again)  # no job out: nothing is watched any more
    assert not light._touched


def test_opening_and_plugging_a_hole_in_a_roof_and_a_lamp_beside_another() -> None:
    # Each step is relit incrementally (remove-then-refill) and must equal a full recompute:
    # sky pours 15 down the opened shaft and 14 beside it; plugging it takes the shade back;
    # a lamp beside a lit one, then broken, leaves the other's light whole.
    world = loaded_world([(0, 0, 0), (1, 0, 0), (0, -1, 0), (1, -1, 0)])
    reg = world.registry
    stone, lamp = reg.id("base:stone"), reg.id("test:lamp")
    for x in range(4, 20):
        for z in range(2, 12):
            world.set_block(x, 6, z, stone)
    world.set_block(14, 2, 8, lamp)
    light = lit(world)
    steps = [((10, 6, 6), 0), ((10, 6, 6), stone), ((10, 6, 6), 0), ((15, 2, 8), lamp)]
    steps += [((15, 2, 8), 0), ((14, 3, 8), stone), ((10, 6, 6), stone)]
    for pos, ident in steps:
        world.set_block(*pos, ident)
        light.update([pos])
        assert wrong_voxels(world, light) == [], (pos, ident)
    world.set_block(10, 6, 6, 0)
    light.update([(10, 6, 6)])
    assert [light.at(10, y, 6)[0] for y in range(0, 7)] == [15] * 7  # down the shaft
    assert light.at(11, 3, 6)[0] == 14


@settings(max_examples=20, deadline=None)
@given(
    st.lists(EDIT, min_size=2, max_size=12),
    st.booleans(),
)
@example(  # a box of the first chunk reaches the stone of the second, not relit yet
    edits=[(0, 0, 0, "air"), (14, 0, 0, "air"), (7, -2, 14, "base:stone"), (0, 0, 14, "air")],
    roofed=True,
)
@example(  # the lamp shades its column down to the floor, below the other chunk's box
    edits=[(4, 10, 14, "air"), (9, 7, 9, "air"), (16, 0, 0, "test:lamp")],
    roofed=True,
)
def test_one_action_changing_several_chunks_is_relit_in_one_update(edits, roofed) -> None:
    # The game applies an action's changes (an explosion, a mod's build), then relights them
    # in one call, one box per chunk touched: each box meets changed voxels of the others.
    world = loaded_world([(0, 0, 0), (1, 0, 0), (0, -1, 0), (1, -1, 0)])
    reg = world.registry
    if roofed:
        for x in range(2, 30):
            for z in range(1, 15):
                world.set_block(x, 4, z, reg.id("base:stone"))
    light = lit(world)
    for x, y, z, name in edits:
        world.set_block(x, y, z, 0 if name == "air" else reg.id(name))
    light.update([(x, y, z) for x, y, z, _ in edits])
    assert wrong_voxels(world, light) == []


def test_changes_far_apart_are_relit_in_separate_boxes_and_changes_that_meet_in_one() -> None:
    # Four chunks along x under a roof with gaps: changes at both ends are relit in two
    # boxes, one in the middle joins a box of each end, and every result equals the reference.
    keys = [(cx, cy, 0) for cx in range(4) for cy in (-1, 0)]
    world = loaded_world(keys)
    reg = world.registry
    stone, lamp = reg.id("base:stone"), reg.id("test:lamp")
    for x in range(64):
        for z in range(1, 15):
            if x % 9:
                world.set_block(x, 5, z, stone)
    light = lit(world)
    actions = [
        [((1, 5, 3), stone), ((62, -3, 7), lamp), ((60, 5, 9), 0)],
        [((1, 5, 3), 0), ((62, -3, 7), stone), ((33, 0, 8), lamp), ((9, 5, 4), stone)],
        [((33, 0, 8), 0), ((18, 5, 14), 0), ((46, -10, 2), lamp)],
    ]
    for changes in actions:
        for pos, ident in changes:
            world.set_block(*pos, ident)
        light.update([pos for pos, _ in changes])
        assert wrong_voxels(world, light) == [], changes


def test_boxes_that_meet_are_merged_in_a_chain_and_apart_stay_apart() -> None:
    from world.light.boxes import merge_meeting

    def grown(core):
        return (core[0] - 2, core[1], core[2], core[3] + 2, core[4], core[5])

    cores = [(0, 0, 0, 1, 1, 1), (4, 0, 0, 5, 1, 1), (8, 0, 0, 9, 1, 1), (20, 0, 0, 21, 1, 1)]
    # 0 and 4 meet (grown, [-2, 3) and [2, 7)), 4 and 8 too: one chain; 20 stays alone.
    assert merge_meeting(cores, grown) == [(-2, 0, 0, 11, 1, 1), (18, 0, 0, 23, 1, 1)]
    assert merge_meeting([], grown) == []


def test_hooks_read_light_at_from_the_worlds_light_and_zero_without_one() -> None:
    from world.actions.neighbors import NeighborQueue
    from world.actions.transaction import Transaction
    from world.mods.guard import HookGuard
    from world.mods.loader import load_mods

    world = loaded_world([(0, 0, 0)])
    world.put_chunk((0, 1, 0), np.full(4096, 1, dtype=np.uint16))
    mods = load_mods([], entry_points=False, game=GAME)
    view = Transaction(world, mods, HookGuard(mods.record), NeighborQueue()).view
    assert view.light_at(3, 3, 3) == (0, 0)
    world.light = lit(world)  # type: ignore[attr-defined]
    world.set_block(3, 3, 3, world.registry.id("test:lamp"))
    world.light.update([(3, 3, 3)])  # type: ignore[attr-defined]
    assert view.light_at(3, 4, 3) == (0, 14)


def test_the_light_keeps_nothing_of_a_column_whose_chunks_are_all_forgotten() -> None:
    # Streaming forgets columns as the player travels: their cached sky floors must go too.
    keys = [(0, 0, 0), (0, 1, 0), (1, 0, 0)]
    world = loaded_world(keys)
    light = lit(world)
    assert light._floors  # cached while lit
    for key in keys:  # the lower row first: the row above keeps its floor until it goes
        light.remove_chunk(key)
    assert light._floors == {}
