"""Placement through the real pipeline: every rule of the base blocks, from a click's context."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.actions.placement import fence_links, still_attached, supports
from world.base import GAME, default_registry
from world.geometry import Int3
from world.mods.context import PlaceContext, facing_of
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules, break_block, place_block, use_block

REG = default_registry()
STONE = REG.id("base:stone")
UP, DOWN = Int3(0, 1, 0), Int3(0, -1, 0)
NORTH, SOUTH, EAST, WEST = Int3(0, 0, -1), Int3(0, 0, 1), Int3(1, 0, 0), Int3(-1, 0, 0)
LOOK = {"north": (0.0, -0.5, -1.0), "south": (0.0, -0.5, 1.0), "east": (1.0, -0.5, 0.0),
        "west": (-1.0, -0.5, 0.0)}  # fmt: skip


def player(look="north", **kwargs):
    return Actor.at("steve", (100.5, 50.0, 100.5), look=LOOK[look], **kwargs)


def click(world, block, face, height=0.5, across=0.5):
    """A hit on ``face`` of voxel ``block``, ``height`` up the face (0..1), ``across`` along it."""
    block, face = Int3(*block), Int3(*face)
    point = [block.x + across, block.y + height, block.z + across]
    for axis in range(3):
        if face[axis]:
            point[axis] = block[axis] + (1.0 if face[axis] > 0 else 0.0)
    return Hit(block, face, 1.0, tuple(point), world.get_block(*block))


def props_at(world, pos):
    return dict(world.registry.props(world.get_block(*pos)))


def name_at(world, pos):
    return world.registry.name(world.get_block(*pos))


@pytest.fixture
def world():
    world = World(build_height=(-64, 256))
    world.set_block(0, 0, 0, STONE)
    return world


# -- the context -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("look", "facing"),
    [
        ((0, 0, -1), "north"),
        ((1, 0, 0.2), "east"),
        ((0.3, -1, 1), "south"),
        ((-2, 5, 1), "west"),
        ((0, -1, 0), "north"),
        ((1, 0, 1), "south"),
    ],
)
def test_horizontal_facing_is_the_look_s_main_horizontal_axis_north_is_minus_z(look, facing):
    assert facing_of(look) == facing


def test_placing_passes_the_context_to_placement_state_can_place_and_on_place(world):
    seen = {}

    class Spy:
        @hookimpl
        def can_place(self, context):
            seen["can_place"] = context

        @hookimpl
        def on_place(self, context):
            seen["on_place"] = context

    mods = load_mods(plugins={"spy": Spy()}, entry_points=False, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, STONE)
    hit = click(world, (0, 0, 0), EAST, height=0.75)
    assert Rules(world, mods).place_block(hit, "base:stone_slab", player("west", sneak=True))
    context = seen["can_place"]
    assert context is seen["on_place"]
    assert isinstance(context, PlaceContext)
    assert context.hit == hit and context.clicked == (0, 0, 0) and context.face == EAST
    assert context.point == hit.point and context.box == 0
    assert context.pos == (1, 0, 0) and not context.into_clicked
    assert context.block.name == "base:stone_slab" and context.replacing == 0
    assert context.facing == "west" and context.sneak
    assert context.click_height == 0.75 and context.upper
    assert abs(sum(v * v for v in context.look) - 1.0) < 1e-12


def test_without_a_look_the_facing_comes_from_the_eye_to_the_clicked_point(world):
    eye_west = Actor.at("steve", (10.5, 0.0, 0.5))  # east of the block, looking west at it
    assert place_block(world, click(world, (0, 0, 0), UP), "base:stone_stairs", eye_west)
    assert props_at(world, (0, 1, 0))["facing"] == "west"


# -- slabs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "height", "half"),
    [
        (UP, 1.0, "bottom"),
        (DOWN, 0.0, "top"),
        (EAST, 0.25, "bottom"),
        (EAST, 0.75, "top"),
        (NORTH, 0.5, "bottom"),
        (WEST, 0.51, "top"),
    ],
)
def test_a_slab_takes_its_half_from_where_on_the_face_you_clicked(world, face, height, half):
    assert place_block(world, click(world, (0, 0, 0), face, height), "base:stone_slab", player())
    assert props_at(world, Int3(0, 0, 0) + face) == {"half": half}


def test_a_slab_clicked_on_its_open_top_becomes_a_double_slab(world):
    slab = world.registry.state_id("base:stone_slab", half="bottom")
    world.set_block(0, 1, 0, slab)
    outcome = place_block(
        world, click(world, (0, 1, 0), UP, height=0.5), "base:stone_slab", player()
    )
    assert outcome and outcome.pos == (0, 1, 0)
    assert props_at(world, (0, 1, 0)) == {"half": "double"}
    assert world.get_block(0, 2, 0) == 0


def test_a_top_slab_clicked_from_below_becomes_a_double_slab(world):
    world.set_block(0, 2, 0, world.registry.state_id("base:planks_slab", half="top"))
    hit = click(world, (0, 2, 0), DOWN, height=0.5)
    assert place_block(world, hit, "base:planks_slab", player())
    assert props_at(world, (0, 2, 0)) == {"half": "double"}


def test_a_slab_placed_against_a_face_merges_into_the_slab_there(world):
    world.set_block(1, 0, 0, world.registry.state_id("base:stone_slab", half="top"))
    assert place_block(world, click(world, (0, 0, 0), EAST, 0.2), "base:stone_slab", player())
    assert props_at(world, (1, 0, 0)) == {"half": "double"}


def test_a_slab_side_clicked_on_its_lower_half_goes_beside_it_not_into_it(world):
    world.set_block(0, 1, 0, world.registry.state_id("base:stone_slab", half="bottom"))
    hit = click(world, (0, 1, 0), EAST, height=0.25)
    assert place_block(world, hit, "base:stone_slab", player())
    assert props_at(world, (0, 1, 0)) == {"half": "bottom"}
    assert props_at(world, (1, 1, 0)) == {"half": "bottom"}


def test_different_slabs_and_double_slabs_do_not_merge(world):
    world.set_block(0, 1, 0, world.registry.state_id("base:stone_slab", half="bottom"))
    assert place_block(world, click(world, (0, 1, 0), UP, 0.5), "base:planks_slab", player())
    assert name_at(world, (0, 2, 0)) == "base:planks_slab"
    world.set_block(3, 0, 0, world.registry.state_id("base:stone_slab", half="double"))
    assert place_block(world, click(world, (3, 0, 0), UP, 1.0), "base:stone_slab", player())
    assert props_at(world, (3, 0, 0)) == {"half": "double"}
    assert props_at(world, (3, 1, 0)) == {"half": "bottom"}


def test_a_slab_may_go_under_your_feet_but_not_into_your_body(world):
    # Standing on the block at y = 1: a top slab at y = 1 would cut into the feet.
    standing = Actor.at("steve", (0.5, 1.0, 2.5), look=LOOK["north"])
    world.set_block(0, 1, 1, STONE)
    world.set_block(0, 1, 2, 0)
    bottom = place_block(world, click(world, (0, 1, 1), SOUTH, 0.25), "base:stone_slab", standing)
    assert not bottom and "inside yourself" in bottom.reason
    beside = Actor.at("steve", (0.5, 1.5, 2.5), look=LOOK["north"])  # feet at y = 1.5
    assert place_block(world, click(world, (0, 1, 1), SOUTH, 0.25), "base:stone_slab", beside)


# -- stairs and logs -----------------------------------------------------------------------------


@pytest.mark.parametrize("facing", ["north", "east", "south", "west"])
def test_stairs_face_the_player(world, facing):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:stone_stairs", player(facing))
    assert props_at(world, (0, 1, 0)) == {"facing": facing, "half": "bottom"}


@pytest.mark.parametrize(("face", "height"), [(DOWN, 0.0), (EAST, 0.8), (SOUTH, 0.6)])
def test_stairs_are_upside_down_on_a_ceiling_or_an_upper_half_click(world, face, height):
    hit = click(world, (0, 0, 0), face, height)
    assert place_block(world, hit, "base:planks_stairs", player("east"))
    assert props_at(world, Int3(0, 0, 0) + face) == {"facing": "east", "half": "top"}


@pytest.mark.parametrize(
    ("face", "axis"), [(UP, "y"), (DOWN, "y"), (EAST, "x"), (WEST, "x"), (NORTH, "z"), (SOUTH, "z")]
)
def test_a_log_takes_its_axis_from_the_clicked_face(world, face, axis):
    assert place_block(world, click(world, (0, 0, 0), face), "base:log", player())
    assert props_at(world, Int3(0, 0, 0) + face) == {"axis": axis}
    tiles = world.registry.face_tiles[world.get_block(*(Int3(0, 0, 0) + face))]
    ring = world.registry.tile_id("base:log_top")
    assert [i for i, tile in enumerate(tiles) if tile == ring] == {
        "x": [0, 1], "y": [2, 3], "z": [4, 5]}[axis]  # fmt: skip


# -- torches --------------------------------------------------------------------------------------


def test_a_torch_stands_on_a_floor(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:torch", player())
    assert props_at(world, (0, 1, 0)) == {"facing": "up"}
    assert world.registry.light[world.get_block(0, 1, 0)] == 14
    assert world.registry.collision_boxes[world.get_block(0, 1, 0)] == ()


@pytest.mark.parametrize(("face", "facing"), [(NORTH, "north"), (EAST, "east"), (SOUTH, "south"),
                                              (WEST, "west")])  # fmt: skip
def test_a_torch_hangs_on_a_wall_facing_away_from_it(world, face, facing):
    assert place_block(world, click(world, (0, 0, 0), face), "base:torch", player())
    assert props_at(world, Int3(0, 0, 0) + face) == {"facing": facing}


def test_a_torch_refuses_a_ceiling(world):
    outcome = place_block(world, click(world, (0, 0, 0), DOWN, 0.0), "base:torch", player())
    assert not outcome and outcome.reason == "a torch cannot hang from a ceiling"
    assert outcome.denied_by == "base"
    assert world.get_block(0, -1, 0) == 0


@pytest.mark.parametrize("support", ["base:glass", "base:stone_slab", "base:fence", "base:door"])
def test_a_torch_needs_a_solid_face_to_stand_or_hang_on(world, support):
    registry = world.registry
    world.set_block(5, 0, 0, registry.id(support))
    side = place_block(world, click(world, (5, 0, 0), EAST), "base:torch", player())
    top = place_block(world, click(world, (5, 0, 0), UP, 1.0), "base:torch", player())
    # Glass is a full solid block; a fence post holds a floor torch (Minecraft's centre support).
    assert bool(side) == (support == "base:glass")
    assert bool(top) == (support in ("base:glass", "base:fence"))
    if not side:
        assert side.reason == "a torch needs a solid block to stand or hang on"


def test_a_torch_clicked_into_tall_grass_finds_the_floor_it_looks_at(world):
    world.set_block(0, 1, 0, world.registry.id("base:tall_grass"))
    hit = click(world, (0, 1, 0), NORTH)
    down = Actor.at("steve", (0.5, 3.0, 0.5), look=(0.1, -1.0, 0.0))
    assert place_block(world, hit, "base:torch", down)
    assert props_at(world, (0, 1, 0)) == {"facing": "up"}


def test_a_torch_drops_when_its_wall_goes(world):
    mods = load_mods(entry_points=False, game=GAME)
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, STONE)
    rules = Rules(world, mods)
    assert rules.place_block(click(world, (0, 0, 0), EAST), "base:torch", player())
    assert rules.place_block(click(world, (0, 0, 0), UP, 1.0), "base:torch", player())
    outcome = rules.break_block(click(world, (0, 0, 0), UP), player())
    assert outcome
    assert world.get_block(1, 0, 0) == 0 and world.get_block(0, 1, 0) == 0
    assert {c.pos for c in outcome.changes} == {(0, 0, 0), (1, 0, 0), (0, 1, 0)}


# -- fences ---------------------------------------------------------------------------------------


def test_a_fence_links_to_fences_and_solid_blocks_and_follows_its_neighbours(world):
    world.set_block(5, 0, 0, STONE)
    world.set_block(5, 1, 1, world.registry.id("base:glass"))
    assert place_block(world, click(world, (5, 0, 0), UP, 1.0), "base:fence", player())
    assert props_at(world, (5, 1, 0)) == {
        "north": False,
        "east": False,
        "south": True,
        "west": False,
    }
    world.set_block(4, 0, 0, STONE)
    assert place_block(world, click(world, (4, 0, 0), UP, 1.0), "base:fence", player())
    assert props_at(world, (4, 1, 0)) == {
        "north": False,
        "east": True,
        "south": False,
        "west": False,
    }
    assert props_at(world, (5, 1, 0))["west"] is True  # the neighbour linked back
    fence = world.get_block(5, 1, 0)
    assert len(world.registry.selection_boxes[fence]) == 3  # the post and two arms
    assert max(box.y1 for box in world.registry.collision_boxes[fence]) == 1.5
    hit = Hit(Int3(4, 1, 0), UP, 1.0, (4.5, 2.0, 0.5), world.get_block(4, 1, 0))
    assert break_block(world, hit, player())
    assert props_at(world, (5, 1, 0))["west"] is False


# -- doors ----------------------------------------------------------------------------------------


def test_a_door_faces_the_player_and_places_its_upper_half(world):
    outcome = place_block(
        world, click(world, (0, 0, 0), UP, 1.0, across=0.3), "base:door", player()
    )
    assert outcome
    assert props_at(world, (0, 1, 0)) == {
        "facing": "north", "half": "lower", "open": False, "hinge": "left"}  # fmt: skip
    assert props_at(world, (0, 2, 0)) == {
        "facing": "north", "half": "upper", "open": False, "hinge": "left"}  # fmt: skip
    assert [c.pos for c in outcome.changes] == [(0, 1, 0), (0, 2, 0)]


def test_a_door_hinges_on_the_side_of_its_middle_you_clicked(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0, across=0.8), "base:door", player())
    assert props_at(world, (0, 1, 0))["hinge"] == "right"


@pytest.mark.parametrize("blocker", ["base:stone", "ceiling"])
def test_a_door_needs_two_free_blocks(world, blocker):
    if blocker == "ceiling":
        world = World(build_height=(0, 2))
        world.set_block(0, 0, 0, STONE)
    else:
        world.set_block(0, 2, 0, STONE)
    outcome = place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:door", player())
    assert not outcome and outcome.reason == "a door needs two free blocks"
    assert world.get_block(0, 1, 0) == 0


def test_a_door_needs_a_solid_block_under_it(world):
    world.set_block(0, 1, 0, world.registry.state_id("base:stone_slab", half="bottom"))
    outcome = place_block(world, click(world, (0, 1, 0), UP, 0.5), "base:door", player())
    assert not outcome and outcome.reason == "a door needs a solid block under it"


def test_right_click_opens_and_closes_both_halves_and_the_collision_follows(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:door", player())
    closed = world.registry.collision_boxes[world.get_block(0, 1, 0)]
    steve = player(selected="base:stone")
    used = use_block(world, click(world, (0, 2, 0), SOUTH), steve)
    assert used.used
    assert props_at(world, (0, 1, 0))["open"] and props_at(world, (0, 2, 0))["open"]
    opened = world.registry.collision_boxes[world.get_block(0, 1, 0)]
    assert opened != closed and opened and closed
    assert use_block(world, click(world, (0, 1, 0), SOUTH), steve).used
    assert not props_at(world, (0, 1, 0))["open"] and not props_at(world, (0, 2, 0))["open"]
    assert world.get_block(0, 1, 1) == 0  # nothing was placed


def test_sneaking_with_a_block_places_against_a_usable_block_instead_of_using_it(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:door", player())
    sneaking = player(selected="base:stone", sneak=True)
    outcome = use_block(world, click(world, (0, 1, 0), SOUTH), sneaking)
    assert outcome and not outcome.used
    assert world.get_block(0, 1, 1) == STONE
    assert not props_at(world, (0, 1, 0))["open"]
    empty_handed = player(sneak=True)
    assert use_block(world, click(world, (0, 1, 0), SOUTH), empty_handed).used


def test_breaking_either_half_of_a_door_breaks_both(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:door", player())
    outcome = break_block(world, click(world, (0, 2, 0), SOUTH), player())
    assert outcome
    assert world.get_block(0, 1, 0) == 0 and world.get_block(0, 2, 0) == 0


def test_a_closed_door_facing_north_stands_on_the_south_edge_of_its_voxels(world):
    assert place_block(world, click(world, (0, 0, 0), UP, 1.0), "base:door", player())
    for y in (1, 2):
        (panel,) = world.registry.selection_boxes[world.get_block(0, y, 0)]
        assert (panel.z0, panel.z1, panel.x0, panel.x1) == (13 / 16, 1.0, 0.0, 1.0)


# -- supports --------------------------------------------------------------------------------------


@given(st.sampled_from([b.name for b in REG if b.name != "air"]))
def test_a_full_solid_cube_supports_every_side_and_nothing_else_supports_all_six(name):
    state = REG.id(name)
    full = bool(REG.full_cube[state] and REG.solid[state])
    faces = [UP, DOWN, EAST, WEST, NORTH, SOUTH]
    assert all(supports(REG, state, face) for face in faces) == full


# -- invariants under any sequence of clicks ------------------------------------------------------

BLOCKS = ["base:stone", "base:stone_slab", "base:planks_stairs", "base:fence", "base:torch",
          "base:door", "base:log", "base:glass"]  # fmt: skip
FACES = [UP, DOWN, NORTH, SOUTH, EAST, WEST]
VOXEL = st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2))
CLICK = st.tuples(
    st.sampled_from(["place", "place", "break", "use"]),
    VOXEL,
    st.sampled_from(FACES),
    st.sampled_from([0.25, 0.75]),
    st.sampled_from(BLOCKS),
    st.sampled_from(list(LOOK)),
)


def check_invariants(world):
    """Brute force over the area: fences link as their neighbours say, torches have their
    support, door halves come in matching pairs."""
    registry = world.registry
    for x in range(-1, 5):
        for y in range(0, 6):
            for z in range(-1, 5):
                pos = Int3(x, y, z)
                state = world.get_block(*pos)
                name = registry.name(state)
                props = dict(registry.props(state))
                if name == "base:fence":
                    read = lambda p: world.get_block(*p)  # noqa: E731
                    assert props == fence_links(read, registry, pos), pos
                elif name == "base:torch":
                    assert still_attached(lambda p: world.get_block(*p), registry, pos), pos
                elif name == "base:door":
                    other = pos + (UP if props["half"] == "lower" else DOWN)
                    partner = dict(registry.props(world.get_block(*other)))
                    assert registry.name(world.get_block(*other)) == "base:door", pos
                    assert partner["half"] != props["half"], pos
                    for key in ("facing", "open", "hinge"):
                        assert partner[key] == props[key], (pos, key)


@settings(max_examples=60, deadline=None)
@given(st.lists(CLICK, min_size=5, max_size=30))
def test_any_sequence_of_clicks_keeps_fences_linked_torches_held_and_doors_whole(clicks):
    world = World(build_height=(0, 6))
    for x in range(-1, 5):
        for z in range(-1, 5):
            world.set_block(x, 0, z, STONE)
    rules = Rules(world)
    for action, voxel, face, height, block, look in clicks:
        if world.get_block(*voxel) == 0:
            continue
        hit = click(world, voxel, face, height)
        steve = Actor.at("steve", (50.5, 1.0, 50.5), look=LOOK[look], selected=block)
        if action == "place":
            rules.place_block(hit, block, steve)
        elif action == "break":
            rules.break_block(hit, steve)
        else:
            rules.use_block(hit, steve)
        check_invariants(world)
