"""Liquids flowing by Minecraft's rules: how far, which way, what they make and wash away, through
the real rules (a place is an action; the flow is the ticks), saves and unloaded neighbours."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from world import World
from world.blocks.block_type import BlockType
from world.blocks.liquid import Liquid, Meeting
from world.gen.generators import make_generator
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.mods.outcome import Actor
from world.ray import Hit
from world.rules import Rules
from world.save.storage import WorldStore
from world.ticks.liquids import RETRY_TICKS
from world.voxels.entities import drop_item

UP = Int3(0, 1, 0)
TICK = 0.05  # one game tick of world time
# The tests build inside chunk (0, 0, 0) and its neighbours; the floor is y = 16 so that the
# voxels below it (a hole's fall) stay inside chunks that exist.
Y = 16


def builder() -> Actor:
    return Actor.at("steve", (100.5, Y + 1.0, 100.5), creative=True)


def floor(world: World, radius: int = 12, y: int = Y - 1, block: str = "base:stone") -> None:
    xs, zs = np.meshgrid(np.arange(-radius, radius + 1), np.arange(-radius, radius + 1))
    cells = np.stack([xs.ravel(), np.full(xs.size, y), zs.ravel()], axis=1)
    world.set_blocks(cells, world.registry.id(block))


def pour(rules: Rules, pos: tuple[int, int, int], block: str = "base:water") -> None:
    """Place a block on the one below ``pos``, as a player does (the action schedules it)."""
    world = rules.world
    x, y, z = pos
    below = (x, y - 1, z)
    point = (x + 0.5, y, z + 0.5)
    hit = Hit(Int3(*below), UP, 1.0, point, world.get_block(*below))
    outcome = rules.place_block(hit, block, builder())
    assert outcome.done, outcome.reason


def run(rules: Rules, ticks: int = 400) -> int:
    """Game ticks until no liquid tick waits; how many it took."""
    for n in range(ticks):
        if not len(rules.world.block_data.liquids):
            return n
        rules.tick(TICK)
    raise AssertionError(f"liquids still moving after {ticks} game ticks")


def level(world: World, x: int, y: int, z: int, liquid: str = "base:water") -> int:
    """The liquid's level at a voxel (8 a source, 0 none of it)."""
    state = world.get_block(x, y, z)
    if world.registry.name(state) != liquid:
        return 0
    return int(world.registry.props(state)["level"])


def name(world: World, x: int, y: int, z: int) -> str:
    return world.registry.name(world.get_block(x, y, z))


def is_source(world: World, x: int, y: int, z: int) -> bool:
    props = world.registry.props(world.get_block(x, y, z))
    return props.get("level") == 8 and props.get("falling") is False


@pytest.fixture
def rules() -> Rules:
    world = World()
    floor(world)
    return Rules(world, drop_seed=1)


def test_a_water_source_on_a_flat_floor_runs_seven_blocks_out_with_levels_seven_to_one(
    rules: Rules,
) -> None:
    pour(rules, (0, Y, 0))
    run(rules)
    world = rules.world
    # Minecraft's diamond: 8 less the blocks walked, on every side, nothing past 7 out.
    for x in range(-9, 10):
        for z in range(-9, 10):
            want = max(8 - (abs(x) + abs(z)), 0)
            assert level(world, x, Y, z) == want, (x, z)
    assert [level(world, x, Y, 0) for x in range(9)] == [8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert not any(world.registry.props(world.get_block(x, Y, 0))["falling"] for x in range(8))


def test_lava_runs_three_blocks_out_losing_two_levels_a_block(rules: Rules) -> None:
    pour(rules, (0, Y, 0), "base:lava")
    ticks = run(rules, 1000)
    world = rules.world
    assert [level(world, x, Y, 0, "base:lava") for x in range(6)] == [8, 6, 4, 2, 0, 0]
    assert level(world, 0, Y, -3, "base:lava") == 2 and level(world, 1, Y, 1, "base:lava") == 4
    # Lava steps every 30 game ticks (water every 5): three blocks out take some 90 ticks.
    assert ticks >= 90


def test_water_flows_only_toward_the_nearer_of_two_drops(rules: Rules) -> None:
    world = rules.world
    stone = world.registry.id("base:stone")
    floor(world, y=Y - 4)  # a lower floor the falls land on
    world.set_block(2, Y - 1, 0, 0)  # a drop 2 blocks east of the source
    world.set_block(-3, Y - 1, 0, 0)  # and one 3 blocks west
    del stone
    pour(rules, (0, Y, 0))
    run(rules, 1000)
    assert level(world, 1, Y, 0) == 7 and level(world, 2, Y, 0) == 6
    assert name(world, 2, Y - 1, 0) == "base:water"  # falling into the near drop
    # Nothing went west, north or south on the top floor: the near drop took the whole flow.
    for pos in ((-1, Y, 0), (-2, Y, 0), (0, Y, 1), (0, Y, -1)):
        assert name(world, *pos) == "air", pos
    assert name(world, -3, Y - 1, 0) == "air"


def test_two_sources_one_apart_make_a_third_between_them_and_it_stays(rules: Rules) -> None:
    world = rules.world
    floor(world, y=Y - 4)  # under the hole broken below
    pour(rules, (0, Y, 0))
    pour(rules, (2, Y, 0))
    run(rules)
    assert is_source(world, 1, Y, 0)
    outcome = rules.break_block(
        Hit(Int3(0, Y - 1, 0), UP, 1.0, (0.5, Y, 0.5), world.get_block(0, Y - 1, 0)),
        builder(),
    )
    assert outcome.done  # the floor under one source broken: it falls, the new source stays
    run(rules, 1000)
    assert is_source(world, 1, Y, 0) and is_source(world, 2, Y, 0)


def test_lava_lasts_water_when_neither_is_renewable(rules: Rules) -> None:
    """Lava is not renewable: two lava sources leave flowing lava between them."""
    pour(rules, (0, Y, 0), "base:lava")
    pour(rules, (2, Y, 0), "base:lava")
    run(rules, 1000)
    assert level(rules.world, 1, Y, 0, "base:lava") == 6


def walls(world: World, cells: list[tuple[int, int, int]]) -> None:
    world.set_blocks(np.array(cells), world.registry.id("base:stone"))


def test_water_reaching_a_lava_source_makes_obsidian(rules: Rules) -> None:
    world = rules.world
    # A channel along +x at z = 0, one block wide: lava at x = 0, water poured at x = 2.
    walls(world, [(x, Y, z) for x in range(-1, 6) for z in (-1, 1)] + [(-1, Y, 0), (6, Y, 0)])
    pour(rules, (0, Y, 0), "base:lava")
    pour(rules, (2, Y, 0))
    run(rules, 1000)
    assert name(world, 0, Y, 0) == "base:obsidian"
    assert level(world, 1, Y, 0) == 7  # the water that met it goes on flowing


def test_water_reaching_flowing_lava_makes_cobblestone(rules: Rules) -> None:
    world = rules.world
    walls(world, [(x, Y, z) for x in range(-1, 9) for z in (-1, 1)] + [(-1, Y, 0), (9, Y, 0)])
    pour(rules, (0, Y, 0), "base:lava")
    run(rules, 1000)
    assert [level(world, x, Y, 0, "base:lava") for x in range(5)] == [8, 6, 4, 2, 0]
    pour(rules, (5, Y, 0))
    run(rules, 1000)
    assert name(world, 3, Y, 0) == "base:cobblestone"
    assert name(world, 0, Y, 0) == "base:lava" and level(world, 4, Y, 0) == 7


def test_lava_falling_onto_water_turns_that_water_to_stone(rules: Rules) -> None:
    world = rules.world
    # A pit one block wide, three deep; water in its bottom, lava poured on a ledge above it.
    walls(world, [(x, y, z) for y in (Y, Y + 1, Y + 2) for x in (-1, 1) for z in (-1, 0, 1)])
    walls(world, [(0, y, z) for y in (Y, Y + 1, Y + 2) for z in (-1, 1)])
    pour(rules, (0, Y, 0))
    world.set_block(0, Y + 3, 0, world.registry.id("base:stone"))
    world.set_block(0, Y + 3, 0, 0)
    lava = world.registry.id("base:lava")
    world.set_block(0, Y + 2, 0, lava)  # a source above the pit (set directly: placed by a mod)
    world.block_data.liquids.schedule(np.array([[0, Y + 2, 0]]), 0)
    run(rules, 1000)
    assert name(world, 0, Y, 0) == "base:stone"
    assert name(world, 0, Y + 1, 0) == "base:lava"  # the falling lava rests on the new stone


def test_water_running_over_a_torch_washes_it_out_as_an_item(rules: Rules) -> None:
    world = rules.world
    pour(rules, (2, Y, 0), "base:torch")
    pour(rules, (0, Y, 0))
    run(rules)
    assert level(world, 2, Y, 0) == 6
    items = [e for e in world.entities if e.kind == "builtin:item"]
    assert [(e.data["item"], e.data["count"]) for e in items] == [("base:torch", 1)]
    assert items[0].pos[0] > 2.0  # where the torch stood, or carried on down the flow


def test_lava_burns_a_torch_to_nothing(rules: Rules) -> None:
    world = rules.world
    pour(rules, (1, Y, 0), "base:torch")
    pour(rules, (0, Y, 0), "base:lava")
    run(rules, 1000)
    assert level(world, 1, Y, 0, "base:lava") == 6
    assert not [e for e in world.entities if e.kind == "builtin:item"]


def test_a_sign_holds_water_back_and_a_mods_flag_decides(rules: Rules) -> None:
    registry = rules.world.registry
    registry.register(BlockType("mymod:reed", solid=False, transparent=True, floodable=False))
    registry.register(BlockType("mymod:mesh", floodable=True))  # solid, yet water goes through
    world = rules.world
    world.set_block(1, Y, 0, registry.id("mymod:reed"))
    world.set_block(0, Y, 1, registry.id("mymod:mesh"))
    pour(rules, (0, Y, 0))
    run(rules)
    assert name(world, 1, Y, 0) == "mymod:reed"
    assert level(world, 0, Y, 1) == 7


def test_a_flow_saved_halfway_resumes_after_loading_and_ends_as_an_unbroken_one(
    tmp_path: Path,
) -> None:
    def start() -> Rules:
        world = World()
        floor(world)
        return Rules(world, drop_seed=1)

    whole = start()
    pour(whole, (0, Y, 0))
    run(whole)
    halfway = start()
    pour(halfway, (0, Y, 0))
    for _ in range(12):
        halfway.tick(TICK)
    assert len(halfway.world.block_data.liquids)  # still flowing when saved
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        store.save(halfway.world)
    with WorldStore(path) as store:
        again = store.load(halfway.world.registry, generator_factory=make_generator)
        for cx in (-1, 0):
            for cy in (0, 1):
                for cz in (-1, 0):
                    again.chunk(cx, cy, cz)  # the streaming would load them round the player
        assert len(again.block_data.liquids) == len(halfway.world.block_data.liquids)
        resumed = Rules(again, drop_seed=1)
        run(resumed)
    for x in range(-9, 10):
        for z in range(-9, 10):
            assert level(again, x, Y, z) == level(whole.world, x, Y, z), (x, z)


def test_water_at_the_edge_of_the_loaded_chunks_waits_and_runs_once_they_load() -> None:
    world = World(World().registry, generator=lambda cx, cy, cz: None)
    floor(world, radius=7, y=7)  # a floor inside chunk (0, 0, 0) only: x, z in 0..7 written
    stone = world.registry.id("base:stone")
    world.set_blocks(np.array([(x, 7, z) for x in range(0, 16) for z in range(0, 16)]), stone)
    rules = Rules(world, drop_seed=1)
    water = world.registry.id("base:water")
    world.set_block(15, 8, 8, water)
    world.block_data.liquids.schedule(np.array([[15, 8, 8]]), 0)
    for _ in range(3 * RETRY_TICKS):
        rules.tick(TICK)
    assert name(world, 14, 8, 8) == "air"  # waiting: its neighbour chunk (1, 0, 0) is unknown
    assert world.block_data.liquids.due_at((15, 8, 8)) is not None
    world.set_blocks(np.array([(x, 7, z) for x in range(16, 32) for z in range(0, 16)]), stone)
    for key in ((1, 0, 0), (1, 1, 0), (1, -1, 0), (0, 1, 0), (0, -1, 0), (-1, 0, 0)):
        world.install_loaded(key, None)
    for key in ((1, 0, 1), (1, 0, -1), (0, 0, 1), (0, 0, -1), (-1, 0, 1), (-1, 0, -1)):
        world.install_loaded(key, None)
    for key in ((1, 1, 1), (1, 1, -1), (0, 1, 1), (0, 1, -1), (1, -1, 1), (1, -1, -1)):
        world.install_loaded(key, None)
    for key in ((0, -1, 1), (0, -1, -1), (-1, 1, 0), (-1, -1, 0), (-1, 1, 1), (-1, 1, -1)):
        world.install_loaded(key, None)
    for key in ((-1, -1, 1), (-1, -1, -1)):
        world.install_loaded(key, None)
    run(rules)
    assert level(world, 16, 8, 8) == 7 and level(world, 14, 8, 8) == 7


def test_a_flood_past_the_frames_budget_waits_for_the_next_frames() -> None:
    """A fake clock that says every group overran: one group a frame, the rest first next."""
    world = World()
    floor(world, radius=40)
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    rules = Rules(world, clock=clock, drop_seed=1)
    water = world.registry.id("base:water")
    spots = np.array([(x, Y, z) for x in (-32, 0, 32) for z in (-32, 0, 32)])
    world.set_blocks(spots, water)
    world.block_data.liquids.schedule(spots, 0)
    rules.tick(TICK)
    stepped = [level(world, x + 1, Y, z) == 7 for x, _, z in spots.tolist()]
    assert stepped.count(True) == 1  # one spot spread, the rest wait with their ticks
    waiting = [world.block_data.liquids.due_at(tuple(spot)) for spot in spots.tolist()]
    # The 8 keep their tick (0); the one stepped was scheduled again by its sides' change.
    assert [tick == 0 for tick in waiting] == [not s for s in stepped]
    assert len(world.block_data.liquids) == 8 + 5  # and the spread ones: 4 sides and the source
    for _ in range(8):
        rules.tick(TICK)
    assert all(level(world, x + 1, Y, z) == 7 for x, _, z in spots.tolist())


# -- a property: liquids make and remove only what the rules say ---------------------------------

SIZE = 6
# Plants that need no support (a torch in the air would drop by its own rule, not the liquid's).
BLOCKS = ("air", "air", "air", "base:stone", "base:sapling", "base:tall_grass", "base:glass")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # a sapling washed out by water that then dried where lava hardened beside it
    layout=["air"] * (SIZE * 3 * SIZE - 2) + ["base:sapling", "air"],
    sources=[(0, 0, 2, "base:water"), (0, 1, 0, "base:lava")],
)
@given(
    st.lists(st.sampled_from(BLOCKS), min_size=SIZE * 3 * SIZE, max_size=SIZE * 3 * SIZE),
    st.lists(
        st.tuples(
            st.integers(0, SIZE - 1),
            st.integers(0, 2),
            st.integers(0, SIZE - 1),
            st.sampled_from(["base:water", "base:lava"]),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_liquids_change_only_air_floodable_blocks_and_each_other_and_never_leave_a_basin(
    layout: list[str], sources: list[tuple[int, int, int, str]]
) -> None:
    world = World()
    registry = world.registry
    stone = registry.id("base:stone")
    # A sealed basin: a stone box round a SIZE × 3 × SIZE inside, open to nothing.
    box = [
        (x, y, z)
        for x in range(-1, SIZE + 1)
        for y in range(Y - 1, Y + 4)
        for z in range(-1, SIZE + 1)
        if not (0 <= x < SIZE and Y <= y < Y + 3 and 0 <= z < SIZE)
    ]
    world.set_blocks(np.array(box), stone)
    inside = np.array(
        [(x, y, z) for x in range(SIZE) for y in range(Y, Y + 3) for z in range(SIZE)]
    )
    world.set_blocks(inside, np.array([registry.id(b) for b in layout]))
    for x, y, z, liquid in sources:
        world.set_block(x, Y + y, z, registry.id(liquid))
    world.block_data.liquids.schedule(inside, 0)
    before = world.get_blocks(inside).astype(np.int64)
    rules = Rules(world, drop_seed=1)
    for _ in range(600):
        if not len(world.block_data.liquids):
            break
        rules.tick(TICK)
    assert not len(world.block_data.liquids)
    after = world.get_blocks(inside).astype(np.int64)
    liquid = registry.liquid
    floodable = registry.liquids.floodable
    made = {registry.id(n) for n in ("base:obsidian", "base:cobblestone", "base:stone")}
    for old, new in zip(before.tolist(), after.tolist(), strict=True):
        if old == new:
            continue
        # Only what liquid may enter changes: air, floodable blocks, liquid.
        assert old == 0 or floodable[old] or liquid[old], registry.state_key(old)
        if new == 0:
            assert liquid[old] or floodable[old]  # liquid dried up (perhaps after washing)
        elif not liquid[new]:
            assert new in made, registry.state_key(new)  # a meeting's block
    # Nothing outside the basin changed, and no liquid got out.
    assert (world.get_blocks(np.array(box)) == stone).all()
    outside = np.array([(x, Y + 4, z) for x in range(-2, SIZE + 2) for z in range(-2, SIZE + 2)])
    assert not world.get_blocks(outside).any()
    # Washed blocks: water's leave their drops, lava's none; no other item appears.
    items = sum(e.data["count"] for e in world.entities if e.kind == "builtin:item")
    washed = sum(  # a floodable block that changed was washed, whatever lies there at the end
        1
        for old, new in zip(before.tolist(), after.tolist(), strict=True)
        if floodable[old] and new != old
    )
    assert items <= washed


def test_a_liquid_definition_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="tick_delay"):
        Liquid(tick_delay=0)
    with pytest.raises(ValueError, match="drop_off"):
        Liquid(drop_off=9)
    with pytest.raises(ValueError, match="washes"):
        Liquid(washes="melt")
    with pytest.raises(ValueError, match="liquid"):
        Meeting("not a name")
    with pytest.raises(ValueError, match="solid"):
        BlockType("mymod:honey", liquid=Liquid())
    with pytest.raises(ValueError, match="properties"):
        BlockType("mymod:honey", solid=False, liquid=Liquid(), properties={"age": (0, 1)})
    honey = BlockType("mymod:honey", solid=False, liquid=Liquid(tick_delay=20, drop_off=3))
    assert dict(honey.properties)["level"][0] == 8 and "liquid" in honey.groups
    assert Liquid(drop_off=3).reach == 2 and Liquid().reach == 7 and Liquid(drop_off=2).reach == 3


def test_a_stack_in_flowing_water_drifts_downstream_and_one_in_lava_burns(rules: Rules) -> None:
    world = rules.world
    walls(world, [(x, Y, z) for x in range(-1, 10) for z in (-1, 1)] + [(-1, Y, 0)])
    pour(rules, (0, Y, 0))
    run(rules)
    stack = drop_item(world.entities, Int3(2, Y, 0), ItemStack("base:dirt", 1))
    for _ in range(40):
        rules.tick(TICK)
    assert stack.pos[0] > 3.0  # carried east, down the flow, two seconds
    pour(rules, (0, Y, 6), "base:lava")
    run(rules, 1000)
    burning = drop_item(world.entities, Int3(1, Y, 6), ItemStack("base:dirt", 1))
    for _ in range(10):
        rules.tick(TICK)
    assert burning.removed and not stack.removed


def test_lava_seeks_a_lake_below_its_ledge_as_a_drop_and_turns_the_water_it_falls_into_to_stone(
    rules: Rules,
) -> None:
    world = rules.world
    # The floor at y = Y - 1 has a pool of still water east of x = 2 (its surface one below),
    # walled in: the lava on the floor finds the pool within its two blocks of slope finding.
    water = world.registry.id("base:water")
    floor(world, y=Y - 2)
    pool = np.array([(x, Y - 1, z) for x in range(2, 8) for z in range(-3, 4)])
    world.set_blocks(pool, water)
    pour(rules, (0, Y, 0), "base:lava")
    run(rules, 2000)
    assert name(world, 2, Y - 1, 0) == "base:stone"  # lava fell into the water at the ledge
    assert level(world, 1, Y, 0, "base:lava") == 6 and level(world, 2, Y, 0, "base:lava") > 0
    assert name(world, -1, Y, 0) == "air"  # it ran only toward the drop
