"""The interaction pipeline's built-in rules: what a player can break, where a block goes, and
what a hook's view of the world allows."""

from __future__ import annotations

import math
import signal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME, default_registry
from world.base.blocks import BASE_BLOCKS
from world.blocks.block_type import NO_TOOL_SLOWNESS
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import NOTHING_TARGETED, Actor, Outcome
from world.mods.registration import make_registry
from world.physics.body import EYE_HEIGHT, PLAYER_HEIGHT, PLAYER_WIDTH
from world.ray import Hit
from world.rules import Rules, break_block, break_time, pick_block, place_block, use_block
from world.voxels.changes import Change

REG = default_registry()
STONE = REG.id("base:stone")
DIRT = REG.id("base:dirt")
GLASS = REG.id("base:glass")
WATER = REG.id("base:water")
BEDROCK = REG.id("base:bedrock")
TALL_GRASS = REG.id("base:tall_grass")
SAND = REG.id("base:sand")

UP = (0, 1, 0)
# Far from every test's voxels, so the body rule only matters where a test says so.
FAR = (100.5, 50.0, 100.5)


def hit_at(world: World, block: tuple[int, int, int], face: tuple[int, int, int] = UP) -> Hit:
    """A Hit as the raycast reports it for ``block`` entered through ``face``."""
    return Hit(Int3(*block), Int3(*face), 1.0, (0.0, 0.0, 0.0), world.get_block(*block))


def actor(feet: tuple[float, float, float] = FAR, **kwargs: object) -> Actor:
    return Actor.at("steve", feet, **kwargs)  # type: ignore[arg-type]


def snapshot(world: World) -> dict[tuple[int, int, int], bytes]:
    return {key: chunk.blocks.tobytes() for key, chunk in world.chunks.items()}


# -- Actor and Outcome ------------------------------------------------------------------------


def test_actor_at_builds_minecraft_body_and_eye():
    a = Actor.at("alex", (10.5, 64.0, -3.5), creative=True, selected="base:dirt")
    assert a.body_min == pytest.approx((10.5 - PLAYER_WIDTH / 2, 64.0, -3.5 - PLAYER_WIDTH / 2))
    assert a.body_max == pytest.approx(
        (10.5 + PLAYER_WIDTH / 2, 64.0 + PLAYER_HEIGHT, -3.5 + PLAYER_WIDTH / 2)
    )
    assert a.eye == pytest.approx((10.5, 64.0 + EYE_HEIGHT, -3.5))
    assert (a.name, a.creative, a.selected) == ("alex", True, "base:dirt")
    with pytest.raises(AttributeError):
        a.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": ""}, "name"),
        ({"eye": (0.0, math.nan, 0.0)}, "eye"),
        ({"eye": (0.0, 1.0)}, "eye"),
        ({"body_min": (1.0, 0.0, 0.0), "body_max": (0.0, 1.0, 1.0)}, "body_min"),
        ({"creative": 1}, "creative"),
        ({"selected": 1.5}, "selected"),
        ({"selected": True}, "selected"),
        ({"look": (0.0, 0.0, 0.0)}, "look"),
        ({"look": (0.0, math.inf, 1.0)}, "look"),
        ({"sneak": 1}, "sneak"),
    ],
)
def test_actor_rejects_bad_values_naming_them(kwargs, message):
    values = {
        "name": "steve",
        "eye": (0.0, 1.62, 0.0),
        "body_min": (-0.3, 0.0, -0.3),
        "body_max": (0.3, 1.8, 0.3),
    } | kwargs
    with pytest.raises(ValueError, match=message):
        Actor(**values)


@given(
    st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
    st.lists(
        st.tuples(
            *(st.sampled_from((0.0, 0.25, 0.5, 0.75)),) * 3,
            *(st.sampled_from((0.25, 0.5, 1.0)),) * 3,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_actor_overlaps_a_shape_exactly_when_one_of_its_boxes_cuts_into_the_body(pos, raw):
    body = Actor.at("steve", (0.3, 0.2, -0.1))
    boxes = [(x, y, z, x + dx, y + dy, z + dz) for x, y, z, dx, dy, dz in raw]

    def cuts(box):  # brute force: the open boxes intersect on every axis
        return all(
            max(p + box[a], body.body_min[a]) < min(p + box[a + 3], body.body_max[a])
            for a, p in enumerate(pos)
        )

    assert body.overlaps(pos, boxes) == any(cuts(box) for box in boxes)
    assert body.overlaps(pos) == cuts((0, 0, 0, 1, 1, 1))


def test_outcome_is_truthy_only_when_done():
    assert Outcome(True)
    assert not Outcome(False, "no")


# -- breaking ---------------------------------------------------------------------------------


def test_break_leaves_air_and_reports_the_change_and_time():
    world = World()
    world.set_block(2, 3, 4, STONE)
    outcome = break_block(world, hit_at(world, (2, 3, 4)), actor())
    assert outcome.done and outcome.reason == ""
    assert world.get_block(2, 3, 4) == 0
    assert outcome.pos == (2, 3, 4)
    assert outcome.changes == (Change(Int3(2, 3, 4), STONE, 0),)
    assert outcome.break_time == REG["base:stone"].hardness * NO_TOOL_SLOWNESS  # by hand


def test_break_in_creative_is_instant():
    world = World()
    world.set_block(0, 0, 0, STONE)
    assert break_block(world, hit_at(world, (0, 0, 0)), actor(creative=True)).break_time == 0


@pytest.mark.parametrize("name", ["base:bedrock", "base:water"])
@pytest.mark.parametrize("creative", [False, True])
def test_unbreakable_blocks_are_never_broken(name, creative):
    world = World()
    world.set_block(0, 0, 0, REG.id(name))
    before = snapshot(world)
    outcome = break_block(world, hit_at(world, (0, 0, 0)), actor(creative=creative))
    assert not outcome
    assert outcome.reason == f"{REG[name].description} cannot be broken"
    assert outcome.denied_by is None
    assert snapshot(world) == before


def test_breaking_air_is_denied():
    world = World()
    outcome = break_block(world, hit_at(world, (0, 0, 0)), actor())
    assert not outcome and outcome.reason == "nothing to break"


def test_break_acts_on_the_current_block_not_the_stale_hit():
    world = World()
    world.set_block(0, 0, 0, STONE)
    hit = hit_at(world, (0, 0, 0))
    world.set_block(0, 0, 0, DIRT)
    outcome = break_block(world, hit, actor())
    assert outcome.changes == (Change(Int3(0, 0, 0), DIRT, 0),)
    assert outcome.break_time == REG["base:dirt"].hardness


@pytest.mark.parametrize("action", ["break", "place", "use"])
def test_nothing_targeted_is_denied_not_an_error(action):
    world = World()
    if action == "break":
        outcome = break_block(world, None, actor())
    elif action == "place":
        outcome = place_block(world, None, "base:dirt", actor())
    else:
        outcome = use_block(world, None, actor(selected="base:dirt"))
    assert not outcome and outcome.reason == NOTHING_TARGETED
    assert world.chunks == {}


def test_bad_arguments_raise_naming_them():
    world = World()
    world.set_block(0, 0, 0, STONE)
    hit = hit_at(world, (0, 0, 0))
    with pytest.raises(TypeError, match="hit"):
        break_block(world, (0, 0, 0), actor())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="actor"):
        break_block(world, hit, "steve")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="world"):
        place_block(object(), hit, "base:dirt", actor())  # type: ignore[arg-type]
    assert world.get_block(0, 0, 0) == STONE


# -- placing ----------------------------------------------------------------------------------

FACES = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]


@pytest.mark.parametrize("face", FACES)
def test_place_goes_against_the_entered_face(face):
    world = World()
    world.set_block(5, 5, 5, STONE)
    outcome = place_block(world, hit_at(world, (5, 5, 5), face), "base:dirt", actor())
    target = Int3(5, 5, 5) + face
    assert outcome.done and outcome.pos == target
    assert outcome.changes == (Change(target, 0, DIRT),)
    assert world.get_block(*target) == DIRT and world.get_block(5, 5, 5) == STONE


def test_place_into_a_replaceable_hit_block_replaces_it():
    world = World()
    world.set_block(0, 1, 0, TALL_GRASS)
    outcome = place_block(world, hit_at(world, (0, 1, 0)), "base:dirt", actor())
    assert outcome.pos == (0, 1, 0)
    assert outcome.changes == (Change(Int3(0, 1, 0), TALL_GRASS, DIRT),)
    assert world.get_block(0, 2, 0) == 0


def test_place_replaces_water_in_front_of_the_face():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(0, 1, 0, WATER)
    outcome = place_block(world, hit_at(world, (0, 0, 0)), STONE, actor())
    assert outcome.done and world.get_block(0, 1, 0) == STONE


@settings(max_examples=60, deadline=None)
@given(
    hit_block=st.sampled_from([STONE, TALL_GRASS, GLASS, WATER]),
    front_block=st.sampled_from([0, STONE, TALL_GRASS, WATER, BEDROCK]),
    face=st.sampled_from(FACES),
    placed=st.sampled_from([DIRT, GLASS, TALL_GRASS]),
)
def test_place_target_follows_the_replaceable_rule(hit_block, front_block, face, placed):
    world = World()
    world.set_block(8, 8, 8, hit_block)
    front = Int3(8, 8, 8) + face
    world.set_block(*front, front_block)
    outcome = place_block(world, hit_at(world, (8, 8, 8), face), placed, actor())
    if REG.replaceable[hit_block]:
        target, target_block = Int3(8, 8, 8), hit_block
    else:
        target, target_block = front, front_block
    assert outcome.pos == target
    expected_done = bool(REG.replaceable[target_block]) and target_block != placed
    assert outcome.done == expected_done
    assert world.get_block(*target) == (placed if expected_done else target_block)
    untouched = front if target == (8, 8, 8) else Int3(8, 8, 8)
    assert world.get_block(*untouched) == (front_block if untouched == front else hit_block)


def test_place_into_a_solid_block_is_denied_and_changes_nothing():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(0, 1, 0, DIRT)
    before = snapshot(world)
    outcome = place_block(world, hit_at(world, (0, 0, 0)), "base:glass", actor())
    assert not outcome and outcome.reason == "dirt is in the way" and outcome.pos == (0, 1, 0)
    assert snapshot(world) == before


def test_place_with_no_face_inside_a_solid_block_is_denied():
    world = World()
    world.set_block(0, 0, 0, STONE)
    outcome = place_block(world, hit_at(world, (0, 0, 0), (0, 0, 0)), "base:dirt", actor())
    assert not outcome and "no face" in outcome.reason
    assert world.get_block(0, 0, 0) == STONE


def test_placing_air_or_the_same_block_is_denied():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(0, 1, 0, WATER)
    assert place_block(world, hit_at(world, (0, 0, 0)), "air", actor()).reason == (
        "cannot place air"
    )
    water_hit = hit_at(world, (0, 1, 0))
    assert place_block(world, water_hit, WATER, actor()).reason == "there is already water here"


@pytest.mark.parametrize(("wy", "allowed"), [(-1, False), (0, True), (15, True), (16, False)])
def test_place_respects_the_build_height(wy, allowed):
    world = World(build_height=(0, 16))
    world.set_block(0, wy - 1, 0, STONE)
    outcome = place_block(world, hit_at(world, (0, wy - 1, 0)), "base:dirt", actor())
    assert outcome.done is allowed
    assert world.get_block(0, wy, 0) == (DIRT if allowed else 0)
    if not allowed:
        assert outcome.reason == "outside the build height (0 to 15)"


def test_place_respects_the_default_build_height():
    world = World()
    world.set_block(0, 255, 0, STONE)
    outcome = place_block(world, hit_at(world, (0, 255, 0)), "base:dirt", actor())
    assert not outcome and "build height" in outcome.reason


def test_solid_block_never_goes_into_the_actor_body():
    world = World()
    world.set_block(0, 0, 0, STONE)
    player = actor((0.5, 1.0, 0.5))
    before = snapshot(world)
    outcome = place_block(world, hit_at(world, (0, 0, 0)), "base:dirt", player)
    assert not outcome and outcome.reason == "cannot place dirt inside yourself"
    assert snapshot(world) == before
    # Tall grass does not collide: it may go where the player stands.
    assert place_block(world, hit_at(world, (0, 0, 0)), "base:tall_grass", player).done


def test_building_under_your_own_feet_is_allowed():
    world = World()
    world.set_block(0, 0, 0, STONE)
    player = actor((0.5, 2.0, 0.5))  # feet on the top face of (0, 1, 0)
    assert place_block(world, hit_at(world, (0, 0, 0)), "base:dirt", player).done


def _overlap_volume(pos, body_min, body_max):
    volume = 1.0
    for v, lo, hi in zip(pos, body_min, body_max, strict=True):
        volume *= max(0.0, min(v + 1, hi) - max(v, lo))
    return volume


@settings(max_examples=80, deadline=None)
@given(
    feet=st.tuples(
        st.sampled_from([-1.0, -0.3, 0.0, 0.3, 0.5, 0.7, 1.0, 1.3, 2.0]),
        st.sampled_from([-1.8, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5]),
        st.sampled_from([-1.0, -0.3, 0.0, 0.5, 0.7, 1.3, 2.0]),
    )
)
def test_body_rule_denies_exactly_when_volumes_overlap(feet):
    world = World()
    world.set_block(0, -1, 0, STONE)
    player = actor(feet)
    outcome = place_block(world, hit_at(world, (0, -1, 0)), "base:stone", player)
    overlapping = _overlap_volume((0, 0, 0), player.body_min, player.body_max) > 0
    assert outcome.done is not overlapping
    assert player.overlaps((0, 0, 0)) is overlapping


def test_unknown_blocks_raise_before_anything_changes():
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    hit = hit_at(world, (0, 0, 0))
    with pytest.raises(ValueError, match="nope:nothing"):
        place_block(world, hit, "nope:nothing", actor())
    with pytest.raises(ValueError, match="9999"):
        place_block(world, hit, 9999, actor())
    with pytest.raises(ValueError, match="block"):
        place_block(world, hit, 1.5, actor())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nope:nothing"):
        place_block(world, None, "nope:nothing", actor())
    with pytest.raises(ValueError, match="nope:nothing"):
        use_block(world, hit, actor(selected="nope:nothing"))
    assert snapshot(world) == before


# -- using ------------------------------------------------------------------------------------


def test_use_without_mods_places_the_selected_block():
    world = World()
    world.set_block(0, 0, 0, STONE)
    outcome = use_block(world, hit_at(world, (0, 0, 0), (1, 0, 0)), actor(selected="base:sand"))
    assert outcome.done and not outcome.used
    assert outcome.changes == (Change(Int3(1, 0, 0), 0, SAND),)


def test_use_with_nothing_selected_is_denied():
    world = World()
    world.set_block(0, 0, 0, STONE)
    outcome = use_block(world, hit_at(world, (0, 0, 0)), actor())
    assert not outcome and outcome.reason == "stone cannot be used and no block is selected"


def test_use_of_air_is_denied():
    world = World()
    outcome = use_block(world, hit_at(world, (0, 0, 0)), actor(selected="base:dirt"))
    assert not outcome and outcome.reason == "nothing to use"
    assert world.chunks == {}


def test_use_place_is_denied_by_the_same_rules():
    world = World()
    world.set_block(0, 0, 0, STONE)
    outcome = use_block(world, hit_at(world, (0, 0, 0)), actor((0.5, 1.0, 0.5), selected=DIRT))
    assert not outcome and "inside yourself" in outcome.reason


# -- break time and pick block ----------------------------------------------------------------


@pytest.mark.parametrize("block", BASE_BLOCKS, ids=lambda b: b.name)
def test_break_time_is_hardness_in_survival_zero_in_creative(block):
    """By hand: the hardness, or for a block that needs a tool (stone) 10/3 of it, as
    Minecraft's 1/100 of the hardness a tick without the tool against 1/30 with it."""
    world = World()
    world.set_block(0, 0, 0, REG.id(block.name))
    hit = hit_at(world, (0, 0, 0))
    slowness = NO_TOOL_SLOWNESS if block.needs_tool else 1.0
    assert break_time(world, hit, actor()) == block.hardness * slowness
    assert break_time(world, hit, actor(creative=True)) == (0.0 if block.breakable else math.inf)


def test_break_time_is_infinite_without_a_target():
    world = World()
    assert break_time(world, None, actor()) == math.inf
    assert break_time(world, hit_at(world, (0, 0, 0)), actor(creative=True)) == math.inf


def test_pick_block_returns_the_target_id():
    world = World()
    world.set_block(1, 2, 3, GLASS)
    assert pick_block(world, hit_at(world, (1, 2, 3)), actor()) == GLASS
    assert pick_block(world, None, actor()) is None
    assert pick_block(world, hit_at(world, (9, 9, 9)), actor()) is None
    with pytest.raises(TypeError, match="hit"):
        pick_block(world, (1, 2, 3), actor())  # type: ignore[arg-type]


def test_unbreakable_blocks_are_picked_and_placed_in_creative_only():
    world = World()
    world.set_block(1, 2, 3, BEDROCK)
    bedrock = hit_at(world, (1, 2, 3))
    assert pick_block(world, bedrock, actor()) is None
    assert pick_block(world, bedrock, actor(creative=True)) == BEDROCK
    survival = place_block(world, bedrock, BEDROCK, actor())
    assert not survival and survival.reason == "bedrock can only be placed in creative mode"
    assert world.get_block(1, 3, 3) == 0
    assert place_block(world, bedrock, BEDROCK, actor(creative=True))
    assert world.get_block(1, 3, 3) == BEDROCK


# -- what hooks see: ModWorld -----------------------------------------------------------------


class Spy:
    """Records the ModWorld it is given and does what the test asks with it."""

    def __init__(self, on_break=None, can_break=None):
        self.on_break_action = on_break
        self.can_break_action = can_break
        self.seen = []

    @hookimpl
    def can_break(self, world, pos):
        self.seen.append(world)
        return self.can_break_action(world, pos) if self.can_break_action else None

    @hookimpl
    def on_break(self, world, pos):
        self.seen.append(world)
        if self.on_break_action:
            self.on_break_action(world, pos)


def loaded(**plugins):
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    assert mods.errors == []
    return mods


def test_hooks_get_copies_not_the_world_arrays():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(1, 0, 0, DIRT)
    copies = []

    def grab(view, pos):
        blocks = view.get_blocks([[1, 0, 0]])
        blocks[0] = GLASS
        copies.append(blocks)
        assert view.get_block(1, 0, 0) == DIRT
        assert not view.registry.solid.flags.writeable

    spy = Spy(on_break=grab)
    assert Rules(world, loaded(spy=spy)).break_block(hit_at(world, (0, 0, 0)), actor()).done
    assert world.get_block(1, 0, 0) == DIRT and copies
    assert not hasattr(spy.seen[0], "__dict__")  # no attribute leads to the World itself


def test_blocks_cannot_change_inside_can_hooks():
    world = World()
    world.set_block(0, 0, 0, STONE)
    mods = loaded(sneaky=Spy(can_break=lambda view, pos: view.set_block(5, 5, 5, "base:dirt")))
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor())
    assert not outcome and outcome.denied_by == "sneaky"
    assert "can_break" in outcome.reason and "RuntimeError" in outcome.reason
    assert world.get_block(5, 5, 5) == 0 and world.get_block(0, 0, 0) == STONE


def test_mod_changes_join_the_action_and_are_listed():
    world = World()
    world.set_block(0, 0, 0, STONE)

    def more(view, pos):
        view.set_block(*(pos + Int3(0, 1, 0)), "base:glass")
        view.set_blocks([[3, 0, 0], [4, 0, 0], [3, 0, 0]], [DIRT, DIRT, SAND])

    outcome = Rules(world, loaded(m=Spy(more))).break_block(hit_at(world, (0, 0, 0)), actor())
    assert outcome.changes == (
        Change(Int3(0, 0, 0), STONE, 0),
        Change(Int3(0, 1, 0), 0, GLASS),
        Change(Int3(3, 0, 0), 0, SAND),
        Change(Int3(4, 0, 0), 0, DIRT),
    )
    assert [world.get_block(x, 0, 0) for x in (3, 4)] == [SAND, DIRT]


def test_mod_world_rejects_bad_writes():
    world = World()
    world.set_block(0, 0, 0, STONE)
    problems = []

    def bad(view, pos):
        for call in (
            lambda: view.set_block(0, 1, 0, "nope:x"),
            lambda: view.set_block(0, 1.5, 0, "base:dirt"),
            lambda: view.set_blocks([[0, 1, 0]], [70000]),
            lambda: view.set_blocks([0, 1, 0], "base:dirt"),
            lambda: view.may_break((0, 1), actor()),
            lambda: view.set_blocks([[0, 1, 0]], True),
            lambda: view.set_blocks([[0, 1, 0], [0, 2, 0]], [[1], [2, 3]]),
            lambda: view.set_block(2**40, 0, 0, "base:dirt"),
        ):
            with pytest.raises(ValueError) as info:
                call()
            problems.append(str(info.value))

    assert Rules(world, loaded(m=Spy(bad))).break_block(hit_at(world, (0, 0, 0)), actor()).done
    assert len(problems) == 8
    assert world.get_block(0, 1, 0) == 0


def test_may_break_and_may_place_apply_rules_and_hooks_without_changing():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(2, 0, 0, BEDROCK)
    world.set_block(3, 0, 0, DIRT)
    answers = {}

    class NoDirt:
        @hookimpl
        def can_break(self, block):
            return "dirt stays" if block.name == "base:dirt" else None

    def ask(view, pos):
        answers["bedrock"] = view.may_break((2, 0, 0), actor())
        answers["dirt"] = view.may_break((3, 0, 0), actor())
        answers["air"] = view.may_break((9, 0, 0), actor())
        answers["place"] = view.may_place((5, 0, 0), "base:glass", actor())
        answers["occupied"] = view.may_place((3, 0, 0), "base:glass", actor())

    mods = loaded(ask=Spy(ask), nodirt=NoDirt())
    assert Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor()).done
    assert answers["bedrock"].reason == "bedrock cannot be broken"
    assert answers["dirt"].reason == "dirt stays" and answers["dirt"].denied_by == "nodirt"
    assert answers["air"].reason == "nothing to break"
    assert answers["place"].done and answers["place"].pos == (5, 0, 0)
    assert answers["occupied"].reason == "dirt is in the way"
    assert world.get_block(3, 0, 0) == DIRT and world.get_block(5, 0, 0) == 0


def test_mod_world_raycasts_see_the_world():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(4, 0, 0, GLASS)
    found = {}

    def look(view, pos):
        found["one"] = view.raycast((0.5, 0.5, 0.5), (1, 0, 0), 10)
        found["many"] = view.raycast_many(
            np.array([[0.5, 0.5, 0.5]] * 2), [[1, 0, 0], [-1, 0, 0]], 10
        )

    assert Rules(world, loaded(m=Spy(look))).break_block(hit_at(world, (0, 0, 0)), actor()).done
    assert found["one"].block == (4, 0, 0)
    assert found["many"].hit.tolist() == [True, False]
    assert found["many"].block[0].tolist() == [4, 0, 0]


def test_mod_world_accepts_empty_voxel_lists():
    world = World()
    world.set_block(0, 0, 0, STONE)
    seen = {}

    def empty(view, pos):
        seen["read"] = view.get_blocks([])
        view.set_blocks([], "base:dirt")
        view.set_blocks([], [])  # no voxels and no ids
        with pytest.raises(ValueError, match="nope:x"):
            view.set_blocks([], "nope:x")

    outcome = Rules(world, loaded(m=Spy(empty))).break_block(hit_at(world, (0, 0, 0)), actor())
    assert outcome.changes == (Change(Int3(0, 0, 0), STONE, 0),)
    assert seen["read"].shape == (0,)


def test_a_kept_world_view_refuses_writes_after_its_action():
    world = World()
    world.set_block(0, 0, 0, STONE)
    kept = []
    assert Rules(world, loaded(m=Spy(lambda v, p: kept.append(v)))).break_block(
        hit_at(world, (0, 0, 0)), actor()
    )
    with pytest.raises(RuntimeError, match="over"):
        kept[0].set_block(1, 1, 1, "base:dirt")
    with pytest.raises(RuntimeError, match="storage"):
        kept[0].storage["x"] = 1
    assert kept[0].get_block(1, 1, 1) == 0  # reading stays possible


@pytest.mark.parametrize("exit_kind", [KeyboardInterrupt, SystemExit])
def test_a_hook_raising_an_exit_is_a_mod_error_and_the_game_goes_on(exit_kind):
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)

    def bail(view, pos):
        view.set_block(3, 3, 3, "base:dirt")
        raise exit_kind

    mods = loaded(m=Spy(bail))
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor())
    assert not outcome and outcome.denied_by == "m"
    assert exit_kind.__name__ in outcome.reason
    assert {k: v for k, v in snapshot(world).items() if v.strip(b"\0")} == before
    assert [(e.mod, e.where) for e in mods.errors] == [("m", "on_break")]


@pytest.mark.usefixtures("ctrl_c")
def test_the_players_ctrl_c_during_a_hook_still_quits_and_restores_the_world():
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)

    def slow(view, pos):
        view.set_block(3, 3, 3, "base:dirt")
        signal.raise_signal(signal.SIGINT)  # the player presses Ctrl-C while the hook runs
        for _ in range(10_000_000):
            pass

    with pytest.raises(KeyboardInterrupt):
        Rules(world, loaded(m=Spy(slow))).break_block(hit_at(world, (0, 0, 0)), actor())
    assert {k: v for k, v in snapshot(world).items() if v.strip(b"\0")} == before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_reach_follows_the_mode():
    assert Actor.at("p", (0.5, 0.0, 0.5), creative=True).reach == 5.0
    assert Actor.at("p", (0.5, 0.0, 0.5)).reach == 4.5


# -- hand-made hits and bad arguments ---------------------------------------------------------


@pytest.mark.parametrize("face", [(0, 100, 0), (1, 1, 0), (0, -2, 0), (1, 0, -1)])
def test_a_hit_with_a_face_no_ray_could_enter_is_refused(face):
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    hit = Hit(Int3(0, 0, 0), Int3(*face), 1.0, (0.5, 1.0, 0.5), STONE)
    for call in (
        lambda: place_block(world, hit, "base:dirt", actor()),
        lambda: use_block(world, hit, actor(selected="base:dirt")),
        lambda: Rules(world, loaded()).place_block(hit, "base:dirt", actor()),
        lambda: break_block(world, hit, actor()),
    ):
        with pytest.raises(ValueError, match=r"hit\.face"):
            call()
    assert snapshot(world) == before


def test_mods_is_not_an_argument_of_the_actions():
    world = World()
    world.set_block(0, 0, 0, STONE)
    with pytest.raises(TypeError, match="mods"):
        place_block(world, hit_at(world, (0, 0, 0)), "base:dirt", actor(), mods="junk")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="mods"):
        Rules(world, "junk")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="world"):
        Rules("junk")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hook_time_limit"):
        Rules(world, hook_time_limit=0)
    with pytest.raises(ValueError, match="max_pending"):
        Rules(world, max_pending=-1)


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=3),
    st.tuples(st.integers(), st.integers()),
    st.tuples(st.integers(), st.integers(), st.integers()),
    st.tuples(st.floats(), st.floats(), st.floats()),
    st.tuples(st.text(max_size=1), st.text(max_size=1), st.text(max_size=1)),
)


@settings(max_examples=200, deadline=None)
@given(
    block=anything, face=anything, action=st.sampled_from(["break", "place", "use", "pick", "time"])
)
def test_any_hand_made_hit_is_answered_or_refused_with_a_value_or_type_error(block, face, action):
    world = World()
    world.set_block(0, 0, 0, STONE)
    hit = Hit(block, face, 1.0, (0.5, 1.0, 0.5), STONE)  # type: ignore[arg-type]
    rules = Rules(world)
    calls = {
        "break": lambda: rules.break_block(hit, actor()),
        "place": lambda: rules.place_block(hit, "base:dirt", actor()),
        "use": lambda: rules.use_block(hit, actor(selected="base:dirt")),
        "pick": lambda: rules.pick_block(hit, actor()),
        "time": lambda: rules.break_time(hit, actor()),
    }
    try:
        calls[action]()
    except (ValueError, TypeError) as exc:
        assert "hit" in str(exc)


def test_a_place_beyond_the_world_limit_is_denied():
    from world.validate import WORLD_LIMIT

    edge = WORLD_LIMIT - 1
    world = World()
    world.set_block(edge, 0, 0, STONE)
    hit = Hit(Int3(edge, 0, 0), Int3(1, 0, 0), 1.0, (edge + 1.0, 0.5, 0.5), STONE)
    outcome = place_block(world, hit, "base:dirt", actor((edge - 5.5, 0.0, 0.5)))
    assert not outcome and outcome.reason == "outside the world"


# -- what an action does to the actor's inventory, and the light ------------------------------


def test_a_survival_break_s_outcome_carries_its_drops_and_a_creative_one_none():
    world = World(REG)
    world.set_block(0, 0, 0, DIRT)
    world.set_block(1, 0, 0, GLASS)
    world.set_block(2, 0, 0, STONE)
    broken = Rules(world).break_block(hit_at(world, (0, 0, 0)), actor())
    assert broken.done and broken.drops == (ItemStack("base:dirt", 1),)
    assert Rules(world).break_block(hit_at(world, (1, 0, 0)), actor()).drops == ()  # glass: none
    by_hand = Rules(world).break_block(hit_at(world, (2, 0, 0)), actor())
    assert by_hand.done and by_hand.drops == ()  # stone needs a pickaxe (`test_tools`)
    world.set_block(0, 0, 0, STONE)
    creative = Rules(world).break_block(hit_at(world, (0, 0, 0)), actor(creative=True))
    assert creative.done and creative.drops == ()
    world.set_block(0, 0, 0, BEDROCK)
    assert Rules(world).break_block(hit_at(world, (0, 0, 0)), actor()).drops == ()  # denied


def test_leaves_drop_a_sapling_at_their_chance_reproducibly_with_a_seed():
    world = World(REG)
    leaves = REG.id("base:leaves")

    def saplings(seed: int) -> int:
        rules, count = Rules(world, drop_seed=seed), 0
        for _ in range(400):
            world.set_block(0, 0, 0, leaves)
            count += len(rules.break_block(hit_at(world, (0, 0, 0)), actor()).drops)
        return count

    assert saplings(7) == saplings(7)
    assert 5 <= saplings(7) <= 40  # one in twenty: about 20 of 400


def test_a_failing_get_drops_rolls_the_break_back_naming_its_mod():
    from world.blocks.block_type import BlockType

    class Cursed:
        @hookimpl
        def register_blocks(self, registry):
            def get_drops(registry, state, rng):
                raise RuntimeError("no drops today")

            registry.register(BlockType("cursed:stone", get_drops=get_drops))

    mods = loaded(cursed=Cursed())
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("cursed:stone"))
    failed = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor())
    assert not failed.done and failed.denied_by == "cursed"
    assert "get_drops of cursed:stone" in failed.reason and failed.drops == ()
    assert world.registry.name(world.get_block(0, 0, 0)) == "cursed:stone"  # not broken
    creative = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor(creative=True))
    assert creative.done  # creative breaks give nothing: get_drops is not asked


@pytest.mark.parametrize("creative", [False, True])
def test_a_survival_place_spends_one_of_the_placed_block_s_item_and_a_use_nothing(creative):
    world = World(REG)
    world.set_block(0, 0, 0, STONE)
    placer = actor(creative=creative, selected="base:dirt", item="base:dirt")
    placed = Rules(world).use_block(hit_at(world, (0, 0, 0)), placer)
    assert placed.done
    assert placed.spent == (None if creative else ItemStack("base:dirt", 1))
    again = Rules(world).place_block(hit_at(world, (0, 0, 0), (1, 0, 0)), "base:glass", placer)
    assert again.done and again.spent == (None if creative else ItemStack("base:glass", 1))
    refused = Rules(world).use_block(hit_at(world, (0, 0, 0)), placer)  # the dirt is in the way
    assert not refused.done and refused.spent is None


def test_an_item_s_handled_use_spends_nothing():
    class Wand:
        @hookimpl
        def on_use(self):
            return True

    mods = loaded(wand=Wand())
    world = World(REG)
    world.set_block(0, 0, 0, STONE)
    used = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), actor(selected="base:dirt"))
    assert used.used and used.spent is None


def test_the_rules_relight_what_actions_and_ticks_change_when_the_world_keeps_a_light():
    from world.light.lighting import Light

    class Torcher:
        def __init__(self) -> None:
            self.plan: list[tuple[int, int, int]] = []

        @hookimpl
        def on_tick(self, world):
            while self.plan:
                world.set_block(*self.plan.pop(), "base:torch")

    torcher = Torcher()
    mods = loaded(torcher=torcher)
    world = World(REG)
    world.set_blocks([(x, 0, z) for x in range(-4, 5) for z in range(-4, 5)], STONE)
    rules = Rules(world, mods)
    assert rules.pop_relit() == set()
    dark = Rules(World(REG))  # no light kept: nothing is relit, nothing fails
    dark.world.set_block(0, 0, 0, STONE)
    assert dark.place_block(hit_at(dark.world, (0, 0, 0)), "base:torch", actor()).done
    assert dark.pop_relit() == set()
    world.light = light = Light(world)
    light.add_chunks(list(world.chunks))
    assert light.at(0, 1, 0)[1] == 0  # block light: none yet
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:torch", actor()).done
    assert light.at(0, 1, 0)[1] == 14 and light.at(1, 1, 0)[1] == 13  # a torch's 14
    assert rules.pop_relit() == {(0, 0, 0), (-1, 0, 0), (0, 0, -1), (-1, 0, -1)}
    assert rules.pop_relit() == set()  # taken
    torcher.plan = [(0, 1, 8)]
    rules.tick(0.05)
    assert light.at(0, 1, 9)[1] == 13
    assert (0, 0, 0) in rules.pop_relit()
    assert rules.break_block(hit_at(world, (0, 1, 0)), actor()).done
    assert light.at(1, 1, 0)[1] == 14 - 9  # only the tick's torch lights it now, 9 steps away
