"""Per-block callbacks (on_use, can_break, on_construct, on_destruct, placement_state) run in the
same pipeline as the mods' hooks: vetoes first, roll-back on error, the watchdog, the bounds."""

from __future__ import annotations

import logging

import pytest

from world import World
from world.actions.pipeline import MAX_CHAINED
from world.actions.transaction import MAX_UPDATES
from world.base import GAME
from world.blocks.block_type import BlockType
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules

UP = Int3(0, 1, 0)
EAST = Int3(1, 0, 0)


def hit_at(world, block, face=UP):
    block, face = Int3(*block), Int3(*face)
    point = (block.x + 0.5, block.y + 1.0, block.z + 0.5)
    return Hit(block, face, 1.0, point, world.get_block(*block))


def player(name="steve", **kwargs):
    return Actor.at(name, (100.5, 50.0, 100.5), look=(0.0, -0.5, -1.0), **kwargs)


class Gadgets:
    """A mod whose blocks log their callbacks into ``log`` and do what the test asks."""

    def __init__(self, **callbacks):
        self.blocks = callbacks
        self.log = []

    @hookimpl
    def register_blocks(self, registry):
        for name, callbacks in self.blocks.items():
            registry.register(BlockType(f"gadgets:{name}", hardness=0.5, **callbacks))


def game(*plugins, **named):
    mods = load_mods([], entry_points=False, plugins=dict(named), game=GAME)
    assert mods.errors == []
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    return mods, world, Rules(world, mods)


def snapshot(world):
    return {key: chunk.blocks.tobytes() for key, chunk in world.chunks.items()}


# -- each callback ------------------------------------------------------------------------------


def test_on_use_handles_the_right_click_with_the_arguments_it_asks_for():
    seen = []

    def on_use(world, pos, props, actor, hit):
        seen.append((pos, dict(props), actor.name, hit.face))
        world.set_block(*(pos + UP), "base:glass")
        return True

    _mods, world, rules = game(gadgets=Gadgets(button={"on_use": on_use}))
    world.set_block(0, 1, 0, world.registry.id("gadgets:button"))
    outcome = rules.use_block(hit_at(world, (0, 1, 0)), player(selected="base:dirt"))
    assert outcome.used and [c.pos for c in outcome.changes] == [(0, 2, 0)]
    assert seen == [((0, 1, 0), {}, "steve", (0, 1, 0))]


def test_an_on_use_that_does_not_handle_the_click_lets_the_block_be_placed():
    _mods, world, rules = game(gadgets=Gadgets(plate={"on_use": lambda pos: None}))
    world.set_block(0, 1, 0, world.registry.id("gadgets:plate"))
    outcome = rules.use_block(hit_at(world, (0, 1, 0)), player(selected="base:dirt"))
    assert outcome and not outcome.used
    assert world.get_block(0, 2, 0) == world.registry.id("base:dirt")


def test_can_use_vetoes_before_the_block_s_own_on_use():
    calls = []

    class Guard:
        @hookimpl
        def can_use(self):
            return "hands off"

    gadgets = Gadgets(button={"on_use": lambda: calls.append("used") or True})
    _mods, world, rules = game(gadgets=gadgets, guard=Guard())
    world.set_block(0, 1, 0, world.registry.id("gadgets:button"))
    outcome = rules.use_block(hit_at(world, (0, 1, 0)), player())
    assert not outcome and outcome.reason == "hands off" and calls == []


@pytest.mark.parametrize(
    ("answer", "reason"), [(False, "safe cannot be broken"), ("locked", "locked")]
)
def test_a_block_s_own_can_break_vetoes_before_the_mods_are_asked(answer, reason):
    asked = []

    class Spy:
        @hookimpl
        def can_break(self, pos):
            asked.append(pos)

    _mods, world, rules = game(gadgets=Gadgets(safe={"can_break": lambda: answer}), spy=Spy())
    world.set_block(0, 1, 0, world.registry.id("gadgets:safe"))
    outcome = rules.break_block(hit_at(world, (0, 1, 0)), player())
    assert not outcome and outcome.reason == reason and outcome.denied_by == "gadgets"
    assert asked == [] and world.get_block(0, 1, 0) == world.registry.id("gadgets:safe")


def test_can_break_sees_a_read_only_world():
    def can_break(world, pos):
        world.set_block(*pos, "air")

    _mods, world, rules = game(gadgets=Gadgets(safe={"can_break": can_break}))
    world.set_block(0, 1, 0, world.registry.id("gadgets:safe"))
    outcome = rules.break_block(hit_at(world, (0, 1, 0)), player())
    assert not outcome and "can_break of gadgets:safe" in outcome.reason
    assert "RuntimeError" in outcome.reason


def test_on_construct_and_on_destruct_fire_for_the_voxel_that_itself_changes():
    log = []
    gadgets = Gadgets(
        box={
            "on_construct": lambda pos, state, actor: log.append(("construct", pos, actor)),
            "on_destruct": lambda pos, block, actor: log.append(("destruct", pos, block.name)),
        }
    )
    _mods, world, rules = game(gadgets=gadgets)
    steve = player()
    assert rules.place_block(hit_at(world, (0, 0, 0)), "gadgets:box", steve)
    assert rules.break_block(hit_at(world, (0, 1, 0)), steve)
    assert log == [("construct", (0, 1, 0), steve), ("destruct", (0, 1, 0), "gadgets:box")]


def test_writes_by_hooks_fire_them_too_and_a_tick_has_no_actor():
    log = []
    gadgets = Gadgets(box={"on_construct": lambda pos, actor: log.append((pos, actor))})

    class Builder:
        @hookimpl
        def on_tick(self, world):
            world.set_blocks([(5, 5, 5), (6, 5, 5)], "gadgets:box")

    _mods, _world, rules = game(gadgets=gadgets, builder=Builder())
    rules.tick(0.1)
    assert log == [((5, 5, 5), None), ((6, 5, 5), None)]


def test_a_state_change_of_the_same_block_is_neither_a_construct_nor_a_destruct():
    log = []

    def toggle(world, pos, state):
        world.set_block(
            *pos, world.registry.with_props(state, lit=not world.registry.props(state)["lit"])
        )
        return True

    gadgets = Gadgets(
        switch={
            "properties": {"lit": (False, True)},
            "on_use": toggle,
            "on_construct": lambda: log.append("construct"),
            "on_destruct": lambda: log.append("destruct"),
        }
    )
    _mods, world, rules = game(gadgets=gadgets)
    world.set_block(0, 1, 0, world.registry.id("gadgets:switch"))
    outcome = rules.use_block(hit_at(world, (0, 1, 0)), player())
    assert outcome.used and world.registry.props(world.get_block(0, 1, 0)) == {"lit": True}
    assert log == []


# -- failures -----------------------------------------------------------------------------------


def boom(*_args):
    raise ZeroDivisionError("boom")


FAILING = [
    ("use", {"on_use": boom}),
    ("break", {"can_break": boom}),
    ("break", {"on_destruct": boom}),
    ("place", {"on_construct": boom}),
    ("place", {"placement_state": boom}),
    ("place", {"placement_state": lambda: 42}),
    ("place", {"placement_state": lambda: {"no_such": 1}}),
    ("place", {"on_construct": lambda context: None}),  # asks for an argument it is not offered
]


@pytest.mark.parametrize(("action", "callbacks"), FAILING)
def test_a_failing_block_callback_is_logged_by_the_block_and_the_action_is_rolled_back(
    action, callbacks, caplog
):
    class Busy:
        """Changes blocks in every on_* hook, so there is something to roll back."""

        @hookimpl
        def on_break(self, world, pos):
            world.set_block(*(pos + UP), "base:glass")

        @hookimpl
        def on_place(self, world, pos):
            world.set_block(*(pos + UP), "base:glass")

    mods, world, rules = game(gadgets=Gadgets(gadget=callbacks), busy=Busy())
    if action != "place":
        world.set_block(0, 1, 0, world.registry.id("gadgets:gadget"))
    before = snapshot(world)
    steve = player(selected="base:dirt")
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        if action == "use":
            outcome = rules.use_block(hit_at(world, (0, 1, 0)), steve)
        elif action == "break":
            outcome = rules.break_block(hit_at(world, (0, 1, 0)), steve)
        else:
            outcome = rules.place_block(hit_at(world, (0, 0, 0)), "gadgets:gadget", steve)
    assert not outcome and outcome.denied_by == "gadgets"
    assert "mod 'gadgets' failed in " in outcome.reason and " of gadgets:gadget" in outcome.reason
    assert snapshot(world) == before
    assert any("gadgets:gadget" in str(error) for error in mods.errors)
    assert "gadgets:gadget" in caplog.text


def test_a_block_callback_that_never_returns_is_stopped_by_the_watchdog():
    def forever():
        while True:
            pass

    mods = load_mods(
        [], entry_points=False, plugins={"gadgets": Gadgets(trap={"on_use": forever})}, game=GAME
    )
    world = World(make_registry(mods))
    world.set_block(0, 1, 0, world.registry.id("gadgets:trap"))
    rules = Rules(world, mods, hook_time_limit=0.05)
    try:
        outcome = rules.use_block(hit_at(world, (0, 1, 0)), player())
    finally:
        rules.close()
    assert (
        not outcome
        and "HookTimeout" in outcome.reason
        and "on_use of gadgets:trap" in outcome.reason
    )


def test_block_callbacks_run_and_fail_cleanly_without_mods_too(caplog):
    from world.base import default_registry

    registry = default_registry()
    registry.register(BlockType("gadgets:bomb", on_construct=boom))
    world = World(registry)
    world.set_block(0, 0, 0, registry.id("base:stone"))
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        outcome = Rules(world).place_block(hit_at(world, (0, 0, 0)), "gadgets:bomb", player())
    assert not outcome and "on_construct of gadgets:bomb" in outcome.reason
    assert world.get_block(0, 1, 0) == 0 and "ZeroDivisionError" in caplog.text


# -- acting as the actor from a hook -------------------------------------------------------------


def protected_game(*low_high, **plugins):
    mods = load_mods(entry_points=False, plugins=plugins, game=GAME)
    assert mods.errors == []
    world = World(make_registry(mods))
    mods["protection"].plugin.protect(world, "vault", *low_high, owner="admin")
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    return mods, world, Rules(world, mods)


def test_protection_vetoes_breaking_a_door_whose_other_half_is_protected():
    _mods, world, rules = protected_game((0, 2, 0), (0, 2, 0))
    admin, eve = player("admin"), player("eve")
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:door", admin)
    outcome = rules.break_block(hit_at(world, (0, 1, 0)), eve)
    assert not outcome and outcome.reason == "vault belongs to admin"
    assert outcome.denied_by == "base"  # the door's own can_break, passing protection's reason
    assert world.registry.name(world.get_block(0, 1, 0)) == "base:door"
    assert world.registry.name(world.get_block(0, 2, 0)) == "base:door"
    assert rules.break_block(hit_at(world, (0, 1, 0)), admin)
    assert world.get_block(0, 2, 0) == 0


def test_protection_vetoes_the_upper_half_of_a_door_placed_below_an_area():
    _mods, world, rules = protected_game((0, 2, 0), (0, 2, 0))
    outcome = rules.place_block(hit_at(world, (0, 0, 0)), "base:door", player("eve"))
    assert not outcome and outcome.reason == "vault belongs to admin"
    assert world.get_block(0, 1, 0) == 0


class VeinMiner:
    """Breaking stone breaks the stone touching it, as the same actor (recursively)."""

    @hookimpl
    def on_break(self, world, pos, block, actor):
        if block.name != "base:stone":
            return
        for step in ((1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)):
            near = pos + step
            if world.registry.name(world.get_block(*near)) == "base:stone":
                world.dig(near, actor)


def test_a_chained_break_as_the_actor_is_vetoed_by_protection():
    _mods, world, rules = protected_game((3, 0, 0), (9, 0, 0), miner=VeinMiner())
    stone = world.registry.id("base:stone")
    for x in range(10):
        world.set_block(x, 0, 0, stone)
    outcome = rules.break_block(hit_at(world, (0, 0, 0)), player("eve"))
    assert outcome
    assert [world.get_block(x, 0, 0) for x in range(10)] == [0, 0, 0] + [stone] * 7
    assert [c.pos for c in outcome.changes] == [(0, 0, 0), (1, 0, 0), (2, 0, 0)]


def test_chained_actions_are_bounded_and_the_game_goes_on():
    _mods, world, rules = protected_game((900, 0, 0), (900, 0, 0), miner=VeinMiner())
    stone = world.registry.id("base:stone")
    for x in range(MAX_CHAINED + 50):
        world.set_block(x, 0, 0, stone)
    outcome = rules.break_block(hit_at(world, (0, 0, 0)), player("eve"))
    assert outcome
    removed = sum(world.get_block(x, 0, 0) == 0 for x in range(MAX_CHAINED + 50))
    assert 0 < removed <= MAX_CHAINED


def test_endless_constructs_stop_at_the_update_bound():
    def spread(world, pos):
        world.set_block(*(pos + EAST), "gadgets:weed")

    mods, world, rules = game(gadgets=Gadgets(weed={"on_construct": spread}))
    outcome = rules.place_block(hit_at(world, (0, 0, 0)), "gadgets:weed", player())
    assert outcome
    assert len(outcome.changes) == MAX_UPDATES + 1  # each update settled built one more weed
    assert any("settling" in str(error) for error in mods.errors)


def test_a_bulk_write_beside_a_fence_relinks_it():
    class Mason:
        @hookimpl
        def on_tick(self, world):
            world.set_blocks([(1, 1, 0), (20, 1, 20)], "base:stone")

    _, world, rules = game(mason=Mason())
    world.set_block(0, 1, 0, world.registry.id("base:fence"))
    changes = rules.tick(0.1)
    assert [c.pos for c in changes] == [(1, 1, 0), (20, 1, 20), (0, 1, 0)]
    assert world.registry.props(world.get_block(0, 1, 0))["east"] is True
