"""Every hook of `world.mods.hooks` as a modder relies on it: when it is called, with what, in which
order, how results combine, and what happens when it raises."""

from __future__ import annotations

import logging
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world import World
from world.base import GAME, default_registry
from world.geometry import Int3
from world.mods.hooks import HOOK_NAMES, hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor as ActorType
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import NEIGHBOR_BUDGET, TICK_NEIGHBOR_BUDGET, Rules
from world.voxels.changes import Change

REG = default_registry()
STONE = REG.id("base:stone")
DIRT = REG.id("base:dirt")
GLASS = REG.id("base:glass")
SAND = REG.id("base:sand")
LAMP = REG.id("base:lamp")
UP = Int3(0, 1, 0)
EAST = Int3(1, 0, 0)


def hit_at(world, block, face=(0, 1, 0)):
    return Hit(Int3(*block), Int3(*face), 1.0, (0.0, 0.0, 0.0), world.get_block(*block))


def actor(**kwargs):
    return ActorType.at("steve", (100.5, 50.0, 100.5), **kwargs)


def loaded(**plugins):
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    assert mods.errors == []
    return mods


def snapshot(world):
    return {key: chunk.blocks.tobytes() for key, chunk in world.chunks.items()}


class Recorder:
    """A mod implementing every action hook; each call is logged as (mod, hook, details)."""

    def __init__(self, name, log, answers=None):
        self.name = name
        self.log = log
        self.answers = answers or {}

    def _note(self, hook, world, pos, block):
        # What the hook sees in the world at ``pos`` when it is called.
        self.log.append((self.name, hook, tuple(pos), block.name, world.get_block(*pos)))
        return self.answers.get(hook)

    @hookimpl
    def can_break(self, world, pos, block, actor):
        return self._note("can_break", world, pos, block)

    @hookimpl
    def on_break(self, world, pos, block, actor):
        return self._note("on_break", world, pos, block)

    @hookimpl
    def can_place(self, world, pos, block, actor):
        return self._note("can_place", world, pos, block)

    @hookimpl
    def on_place(self, world, pos, block, actor):
        return self._note("on_place", world, pos, block)

    @hookimpl
    def can_use(self, world, pos, block, actor):
        return self._note("can_use", world, pos, block)

    @hookimpl
    def on_use(self, world, pos, block, actor):
        return self._note("on_use", world, pos, block)


def recorders(log, **answers):
    return {name: Recorder(name, log, answers.get(name)) for name in ("alpha", "beta", "gamma")}


# -- order ------------------------------------------------------------------------------------


def test_break_runs_can_hooks_then_the_change_then_on_hooks_in_load_order():
    world = World()
    world.set_block(1, 1, 1, STONE)
    log = []
    outcome = Rules(world, loaded(**recorders(log))).break_block(hit_at(world, (1, 1, 1)), actor())
    assert outcome.done
    assert log == [
        ("alpha", "can_break", (1, 1, 1), "base:stone", STONE),
        ("beta", "can_break", (1, 1, 1), "base:stone", STONE),
        ("gamma", "can_break", (1, 1, 1), "base:stone", STONE),
        ("alpha", "on_break", (1, 1, 1), "base:stone", 0),
        ("beta", "on_break", (1, 1, 1), "base:stone", 0),
        ("gamma", "on_break", (1, 1, 1), "base:stone", 0),
    ]


def test_place_hooks_see_the_target_voxel_and_the_placed_block():
    world = World()
    world.set_block(1, 1, 1, STONE)
    log = []
    mods = loaded(**recorders(log))
    assert Rules(world, mods).place_block(
        hit_at(world, (1, 1, 1), (0, 0, 1)), "base:glass", actor()
    )
    assert [entry[0:2] for entry in log] == [
        (m, h) for h in ("can_place", "on_place") for m in ("alpha", "beta", "gamma")
    ]
    assert {entry[2:4] for entry in log} == {((1, 1, 2), "base:glass")}
    assert [entry[4] for entry in log] == [0, 0, 0, GLASS, GLASS, GLASS]


def test_dependencies_and_tryfirst_trylast_set_the_call_order():
    log = []

    class Late(Recorder):
        @hookimpl(trylast=True)
        def can_break(self, world, pos, block, actor):
            return self._note("can_break", world, pos, block)

    class Early(Recorder):
        @hookimpl(tryfirst=True)
        def can_break(self, world, pos, block, actor):
            return self._note("can_break", world, pos, block)

    alpha = Recorder("alpha", log)
    alpha.depends = ("gamma",)  # type: ignore[attr-defined]
    plugins = {
        "alpha": alpha,
        "beta": Recorder("beta", log),
        "gamma": Recorder("gamma", log),
        "aaa_late": Late("aaa_late", log),
        "zzz_early": Early("zzz_early", log),
    }
    mods = loaded(**plugins)
    assert mods.names == ("base", "aaa_late", "beta", "gamma", "alpha", "zzz_early")
    world = World()
    world.set_block(0, 0, 0, STONE)
    Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor())
    assert [m for m, hook, *_ in log if hook == "can_break"] == [
        "zzz_early",
        "beta",
        "gamma",
        "alpha",
        "aaa_late",
    ]
    assert [m for m, hook, *_ in log if hook == "on_break"] == [
        "aaa_late",
        "beta",
        "gamma",
        "alpha",
        "zzz_early",
    ]


# -- veto ---------------------------------------------------------------------------------------

ACTIONS = ["break", "place", "use"]


def act(action, world, mods, **actor_kwargs):
    hit = hit_at(world, (0, 0, 0))
    if action == "break":
        return Rules(world, mods).break_block(hit, actor(**actor_kwargs))
    if action == "place":
        return Rules(world, mods).place_block(hit, "base:dirt", actor(**actor_kwargs))
    return Rules(world, mods).use_block(hit, actor(selected="base:dirt", **actor_kwargs))


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize(
    ("answer", "reason"),
    [(False, "denied by mod 'beta'"), ("beta says no", "beta says no")],
)
def test_the_first_denial_wins_and_stops_the_chain(action, answer, reason):
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    log = []
    hook = f"can_{action}"
    mods = loaded(**recorders(log, beta={hook: answer}, gamma={hook: "gamma says no"}))
    outcome = act(action, world, mods)
    assert not outcome
    assert outcome.reason == reason and outcome.denied_by == "beta"
    assert [(m, h) for m, h, *_ in log] == [("alpha", hook), ("beta", hook)]
    assert snapshot(world) == before
    assert mods.errors == []


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("answer", [None, True])
def test_none_or_true_allows(action, answer):
    world = World()
    world.set_block(0, 0, 0, STONE)
    log = []
    hook = f"can_{action}"
    mods = loaded(**recorders(log, alpha={hook: answer}, beta={hook: answer}))
    assert act(action, world, mods).done
    assert [m for m, h, *_ in log if h == hook] == ["alpha", "beta", "gamma"]


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("answer", [3, "", ["no"]])
def test_a_can_hook_returning_nonsense_is_a_mod_error(action, answer):
    world = World()
    world.set_block(0, 0, 0, STONE)
    before = snapshot(world)
    hook = f"can_{action}"
    mods = loaded(**recorders([], beta={hook: answer}))
    outcome = act(action, world, mods)
    assert not outcome and outcome.denied_by == "beta"
    assert outcome.reason.startswith(f"mod 'beta' failed in {hook}: TypeError: returned")
    assert snapshot(world) == before
    assert [(e.mod, e.where) for e in mods.errors] == [("beta", hook)]


# -- use instead of place -----------------------------------------------------------------------


@pytest.mark.parametrize("creative", [False, True])
def test_on_use_returning_true_handles_the_click_and_nothing_is_placed(creative):
    world = World()
    world.set_block(0, 0, 0, STONE)
    log = []
    mods = loaded(**recorders(log, beta={"on_use": True}))
    outcome = Rules(world, mods).use_block(
        hit_at(world, (0, 0, 0)), actor(selected=DIRT, creative=creative)
    )
    assert outcome.done and outcome.used and outcome.changes == ()
    assert world.get_block(0, 1, 0) == 0
    assert [(m, h) for m, h, *_ in log] == [
        ("alpha", "can_use"),
        ("beta", "can_use"),
        ("gamma", "can_use"),
        ("alpha", "on_use"),
        ("beta", "on_use"),
    ]


@pytest.mark.parametrize("answer", [None, False])
def test_unhandled_use_places_the_selected_block(answer):
    world = World()
    world.set_block(0, 0, 0, STONE)
    log = []
    mods = loaded(**recorders(log, alpha={"on_use": answer}))
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), actor(selected=DIRT))
    assert outcome.done and not outcome.used
    assert outcome.changes == (Change(Int3(0, 1, 0), 0, DIRT),)
    hooks = [h for m, h, *_ in log]
    assert hooks == ["can_use"] * 3 + ["on_use"] * 3 + ["can_place"] * 3 + ["on_place"] * 3


def test_a_denied_use_is_not_turned_into_a_place():
    world = World()
    world.set_block(0, 0, 0, STONE)
    log = []
    mods = loaded(**recorders(log, alpha={"can_use": "hands off"}))
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), actor(selected=DIRT))
    assert not outcome and outcome.reason == "hands off"
    assert world.get_block(0, 1, 0) == 0
    assert [h for m, h, *_ in log] == ["can_use"]


def test_on_use_returning_nonsense_is_a_mod_error_and_nothing_is_placed():
    world = World()
    world.set_block(0, 0, 0, STONE)
    mods = loaded(**recorders([], alpha={"on_use": "yes"}))
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), actor(selected=DIRT))
    assert not outcome and outcome.denied_by == "alpha" and "on_use" in outcome.reason
    assert world.get_block(0, 1, 0) == 0


def test_changes_of_an_unclaimed_use_stand_when_the_place_is_denied():
    world = World()
    world.set_block(0, 0, 0, STONE)

    class Marker:
        @hookimpl
        def on_use(self, world, pos):
            world.set_block(5, 0, 0, "base:glass")

    mods = loaded(marker=Marker())
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), actor())
    assert not outcome and "no block is selected" in outcome.reason
    assert outcome.changes == (Change(Int3(5, 0, 0), 0, GLASS),)
    assert world.get_block(5, 0, 0) == GLASS


# -- a raising hook ---------------------------------------------------------------------------


class Faulty:
    """Changes a block, then raises, in one chosen hook."""

    def __init__(self, hook):
        self.hook = hook

    def _maybe_fail(self, hook, world):
        if hook == self.hook:
            if not hook.startswith("can_"):
                world.set_block(7, 7, 7, "base:glass")
            raise ZeroDivisionError(f"bug in {hook}")

    @hookimpl
    def can_break(self, world):
        self._maybe_fail("can_break", world)

    @hookimpl
    def on_break(self, world):
        self._maybe_fail("on_break", world)

    @hookimpl
    def can_place(self, world):
        self._maybe_fail("can_place", world)

    @hookimpl
    def on_place(self, world):
        self._maybe_fail("on_place", world)

    @hookimpl
    def can_use(self, world):
        self._maybe_fail("can_use", world)

    @hookimpl
    def on_use(self, world):
        self._maybe_fail("on_use", world)

    @hookimpl
    def on_neighbor_changed(self, world):
        self._maybe_fail("on_neighbor_changed", world)


FAILING = [
    ("break", "can_break"),
    ("break", "on_break"),
    ("break", "on_neighbor_changed"),
    ("place", "can_place"),
    ("place", "on_place"),
    ("place", "on_neighbor_changed"),
    ("use", "can_use"),
    ("use", "on_use"),
]


@pytest.mark.parametrize(("action", "hook"), FAILING)
def test_a_raising_hook_denies_the_action_logs_the_mod_and_changes_nothing(action, hook, caplog):
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(0, -1, 0, DIRT)  # a neighbour to notify
    world.set_block(1, 1, 0, DIRT)  # a neighbour of the placed block
    before = snapshot(world)
    log = []
    mods = loaded(**recorders(log), faulty=Faulty(hook))
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        outcome = act(action, world, mods)
    assert not outcome
    assert outcome.denied_by == "faulty"
    assert outcome.reason == f"mod 'faulty' failed in {hook}: ZeroDivisionError: bug in {hook}"
    assert snapshot(world) == before
    assert [(e.mod, e.where) for e in mods.errors] == [("faulty", hook)]
    records = [r for r in caplog.records if r.name == "blockpick.mods"]
    assert len(records) == 1 and "faulty" in records[0].getMessage()
    assert records[0].exc_info is not None
    # The mods loaded after the faulty one are not called for that hook once it failed.
    assert all(m != "gamma" or h != hook for m, h, *_ in log)
    # The game goes on: the same action works once the mod is gone.
    mods.disable("faulty", "removed by the test")
    assert act(action, world, mods).done


def test_a_repeating_error_is_kept_and_logged_once(caplog):
    world = World()
    world.set_block(0, 0, 0, STONE)
    mods = loaded(faulty=Faulty("can_break"))
    with caplog.at_level(logging.DEBUG, logger="blockpick.mods"):
        for _ in range(3):
            assert not act("break", world, mods)
    assert len(mods.errors) == 1
    assert [r.levelno for r in caplog.records] == [logging.ERROR, logging.DEBUG, logging.DEBUG]


# -- on_neighbor_changed ------------------------------------------------------------------------


class Neighbors:
    def __init__(self):
        self.calls = []

    @hookimpl
    def on_neighbor_changed(self, pos, block, neighbor, old, new):
        self.calls.append((tuple(pos), block.name, tuple(neighbor), old.name, new.name))


def test_every_non_air_face_neighbour_is_notified_once():
    world = World()
    world.set_block(4, 4, 4, STONE)
    world.set_block(5, 4, 4, DIRT)
    world.set_block(4, 3, 4, SAND)
    world.set_block(4, 4, 3, GLASS)
    world.set_block(5, 5, 4, GLASS)  # diagonal: not a face neighbour
    spy = Neighbors()
    assert Rules(world, loaded(spy=spy)).break_block(hit_at(world, (4, 4, 4)), actor())
    assert sorted(spy.calls) == sorted(
        [
            ((5, 4, 4), "base:dirt", (4, 4, 4), "base:stone", "air"),
            ((4, 3, 4), "base:sand", (4, 4, 4), "base:stone", "air"),
            ((4, 4, 3), "base:glass", (4, 4, 4), "base:stone", "air"),
        ]
    )


def test_place_notifies_the_neighbours_of_the_placed_block():
    world = World()
    world.set_block(0, 0, 0, STONE)
    spy = Neighbors()
    assert Rules(world, loaded(s=spy)).place_block(hit_at(world, (0, 0, 0)), "base:glass", actor())
    assert spy.calls == [((0, 0, 0), "base:stone", (0, 1, 0), "air", "base:glass")]


def test_changes_made_by_hooks_are_notified_in_queue_order():
    world = World()
    for x in range(6):
        world.set_block(x, 0, 0, GLASS)

    class Spread:
        """Turns glass next to a voxel that just became air into air too: a chain reaction."""

        @hookimpl
        def on_neighbor_changed(self, world, pos, block, new):
            if block.name == "base:glass" and new.name == "air":
                world.set_block(*pos, "air")

    spy = Neighbors()
    outcome = Rules(world, loaded(spread=Spread(), spy=spy)).break_block(
        hit_at(world, (0, 0, 0)), actor()
    )
    assert [c.pos.x for c in outcome.changes] == [0, 1, 2, 3, 4, 5]
    assert all(world.get_block(x, 0, 0) == 0 for x in range(6))
    # Breadth-first, not nested: each glass is told about its left neighbour before it goes.
    assert [c[0][0] for c in spy.calls] == [1, 2, 3, 4, 5]


def test_endless_neighbour_updates_are_bounded_per_action_and_per_tick():
    world = World()
    world.set_block(0, 0, 0, STONE)
    world.set_block(1, 0, 0, LAMP)

    class Flicker:
        """Answers every change next to a lamp by toggling it: never settles."""

        def __init__(self):
            self.calls = 0

        @hookimpl
        def on_neighbor_changed(self, world, pos, block):
            self.calls += 1
            if block.name == "base:lamp":
                above = pos + UP
                glass = world.get_block(*above) == GLASS
                world.set_block(*above, "air" if glass else "base:glass")

    flicker = Flicker()
    mods = loaded(flicker=flicker)
    rules = Rules(world, mods)
    outcome = rules.break_block(hit_at(world, (0, 0, 0)), actor())
    # Each processed change makes exactly one more: the budget bounds the action's work.
    assert outcome.done
    assert len(outcome.changes) == 1 + NEIGHBOR_BUDGET
    assert flicker.calls == NEIGHBOR_BUDGET
    assert rules.pending == 1
    changes = rules.tick(0.05)
    assert len(changes) == TICK_NEIGHBOR_BUDGET
    assert flicker.calls == NEIGHBOR_BUDGET + TICK_NEIGHBOR_BUDGET
    assert rules.pending == 1


def test_no_notification_work_without_a_neighbour_hook():
    world = World()
    world.set_block(0, 0, 0, STONE)
    rules = Rules(world, loaded())
    assert rules.break_block(hit_at(world, (0, 0, 0)), actor())
    assert rules.pending == 0


# -- on_tick ------------------------------------------------------------------------------------


def test_on_tick_gets_dt_in_load_order_and_its_changes_are_notified():
    world = World()
    world.set_block(0, 0, 0, STONE)
    log = []

    class Clock:
        def __init__(self, name):
            self.name = name

        @hookimpl
        def on_tick(self, world, dt):
            log.append((self.name, dt))
            if self.name == "b":
                world.set_block(0, 1, 0, "base:glass")

    spy = Neighbors()
    mods = loaded(b=Clock("b"), a=Clock("a"), spy=spy)
    changes = Rules(world, mods).tick(0.25)
    assert log == [("a", 0.25), ("b", 0.25)]
    assert changes == (Change(Int3(0, 1, 0), 0, GLASS),)
    assert spy.calls == [((0, 0, 0), "base:stone", (0, 1, 0), "air", "base:glass")]


def test_a_raising_on_tick_loses_only_its_own_changes(caplog):
    world = World()

    class Good:
        @hookimpl
        def on_tick(self, world):
            world.set_block(0, 0, 0, "base:dirt")

    class Bad:
        @hookimpl
        def on_tick(self, world):
            world.set_block(1, 0, 0, "base:dirt")
            raise KeyError("oops")

    mods = loaded(a_bad=Bad(), b_good=Good())
    rules = Rules(world, mods)
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        for _ in range(3):
            changes = rules.tick(0.016)
    assert world.get_block(0, 0, 0) == DIRT and world.get_block(1, 0, 0) == 0
    assert changes == ()  # the good change was made on the first tick
    assert [(e.mod, e.where) for e in mods.errors] == [("a_bad", "on_tick")]
    assert len([r for r in caplog.records if "a_bad" in r.getMessage()]) == 1


def test_a_raising_neighbour_hook_in_a_tick_loses_only_its_own_changes():
    world = World()
    world.set_block(0, 0, 0, STONE)

    class Placer:
        @hookimpl
        def on_tick(self, world):
            world.set_block(0, 1, 0, "base:glass")

    class Bad:
        @hookimpl
        def on_neighbor_changed(self, world, pos):
            world.set_block(*(pos + EAST), "base:sand")
            raise RuntimeError("neighbour bug")

    mods = loaded(placer=Placer(), bad=Bad())
    assert Rules(world, mods).tick(0.1) == (Change(Int3(0, 1, 0), 0, GLASS),)
    assert world.get_block(1, 0, 0) == 0
    assert [e.where for e in mods.errors] == ["on_neighbor_changed"]


@pytest.mark.parametrize("dt", [-0.1, math.nan, math.inf, "0.1", True])
def test_tick_rejects_a_bad_dt(dt):
    with pytest.raises(ValueError, match="dt"):
        Rules(World(), loaded()).tick(dt)


# -- register_blocks ----------------------------------------------------------------------------


def test_register_blocks_runs_in_load_order_base_first():
    from world.blocks.block_type import BlockType

    class Adds:
        def __init__(self, name):
            self.name = name

        @hookimpl
        def register_blocks(self, registry):
            assert "base:stone" in registry
            registry.register(BlockType(f"{self.name}:thing"))

    mods = loaded(zeta=Adds("zeta"), alpha=Adds("alpha"))
    registry = make_registry(mods)
    assert registry.names == [*REG.names, "alpha:thing", "zeta:thing"]
    assert registry.id("base:stone") == 1


def test_every_hook_is_specified_and_documented():
    from world.mods import hooks

    for name in HOOK_NAMES:
        spec = getattr(hooks, name)
        assert spec.__doc__ and len(spec.__doc__.strip()) > 40, name
        assert getattr(spec, "blockpick_spec", None) is not None, name
    documented = sorted(n for n in dir(hooks) if hasattr(getattr(hooks, n), "blockpick_spec"))
    assert documented == sorted(HOOK_NAMES)


# -- the journal: what an action reports and restores ------------------------------------------

VOXEL = st.tuples(st.integers(-2, 2), st.integers(0, 3), st.integers(-2, 2))
WRITE = st.one_of(
    st.tuples(st.just("one"), VOXEL, st.sampled_from([0, STONE, DIRT, GLASS, SAND])),
    st.tuples(
        st.just("many"),
        st.lists(VOXEL, min_size=0, max_size=6),
        st.sampled_from([0, STONE, DIRT, GLASS]),
    ),
)


class Writer:
    """Makes the given writes in on_break, then raises if told to."""

    def __init__(self, writes, fail):
        self.writes = writes
        self.fail = fail

    @hookimpl
    def on_break(self, world):
        for kind, where, block in self.writes:
            if kind == "one":
                world.set_block(*where, block)
            else:
                world.set_blocks(where, block)
        if self.fail:
            raise RuntimeError("after writing")


def voxels(world):
    return {
        (x, y, z): world.get_block(x, y, z)
        for x in range(-2, 3)
        for y in range(0, 4)
        for z in range(-2, 3)
    }


@settings(max_examples=60, deadline=None)
@given(writes=st.lists(WRITE, max_size=8), fail=st.booleans())
def test_outcome_changes_replay_the_action_and_a_failure_restores_everything(writes, fail):
    world = World()
    for x in range(-2, 3):
        world.set_block(x, 0, 0, STONE)
    world.set_block(0, 1, 0, GLASS)
    before = voxels(world)
    outcome = Rules(world, loaded(w=Writer(writes, fail))).break_block(
        hit_at(world, (0, 0, 0)), actor()
    )
    after = voxels(world)
    if fail:
        assert not outcome and outcome.changes == () and after == before
        return
    assert outcome.done
    replay = dict(before)
    for change in outcome.changes:
        assert replay[change.pos] == change.old != change.new
        replay[change.pos] = change.new
    assert replay == after


def test_every_specified_hook_declares_its_calling_policy_in_one_table():
    from world.mods import hooks
    from world.mods.hooks import CALLING, Policy

    specs = {
        name
        for name in dir(hooks)
        if callable(getattr(hooks, name)) and hasattr(getattr(hooks, name), "blockpick_spec")
    }
    assert set(CALLING) == specs == set(HOOK_NAMES)
    assert {name for name, p in CALLING.items() if p is Policy.VETO} == {
        "can_break",
        "can_place",
        "can_use",
    }
    assert [name for name, p in CALLING.items() if p is Policy.UNTIL_HANDLED] == ["on_use"]


# -- acting as the actor from a hook ----------------------------------------------------------


class Keeper:
    """Refuses everything at x = 9 (a protected column), and records what on_place receives."""

    def __init__(self):
        self.placed = []

    @hookimpl
    def can_place(self, pos):
        return "column 9 is kept" if pos.x == 9 else None

    @hookimpl
    def can_break(self, pos):
        return "column 9 is kept" if pos.x == 9 else None

    @hookimpl
    def on_place(self, pos, block, context):
        self.placed.append((tuple(pos), block.name, context))


class Builder:
    """Placing dirt also places a glass state beside it and digs the stone two away, as the actor;
    the outcomes are kept."""

    def __init__(self):
        self.outcomes = []

    @hookimpl
    def on_place(self, world, pos, block, actor):
        if block.name == "base:dirt":
            glass = world.registry.id("base:glass")
            self.outcomes.append(world.place(pos + EAST, glass, actor))
            self.outcomes.append(world.dig(pos + EAST + EAST, actor))


@pytest.mark.parametrize("x", [0, 7])
def test_place_and_dig_from_a_hook_run_every_mod_s_hooks_as_the_actor(x):
    world = World()
    world.set_block(x, 0, 0, STONE)
    world.set_block(x + 2, 1, 0, STONE)
    keeper, builder = Keeper(), Builder()
    mods = loaded(keeper=keeper, builder=builder)
    outcome = Rules(world, mods).place_block(hit_at(world, (x, 0, 0)), "base:dirt", actor())
    assert outcome
    placed, dug = builder.outcomes
    assert placed and world.get_block(x + 1, 1, 0) == GLASS
    # The builder (loaded before the keeper) placed the glass inside the dirt's on_place: the
    # keeper hears of the glass first, without a context (no click), then of the clicked dirt.
    glass, dirt = keeper.placed
    assert glass == ((x + 1, 1, 0), "base:glass", None)
    assert dirt[:2] == ((x, 1, 0), "base:dirt") and dirt[2].pos == (x, 1, 0)
    if x == 0:
        assert dug and world.get_block(2, 1, 0) == 0
        assert [c.pos for c in outcome.changes] == [(0, 1, 0), (1, 1, 0), (2, 1, 0)]
    else:  # the stone is in column 9: the chained break is vetoed, the rest stands
        assert not dug and dug.reason == "column 9 is kept" and dug.denied_by == "keeper"
        assert world.get_block(9, 1, 0) == STONE
        assert [c.pos for c in outcome.changes] == [(7, 1, 0), (8, 1, 0)]


def test_acting_from_a_can_hook_is_refused_like_any_write():
    class Sneaky:
        @hookimpl
        def can_break(self, world, pos, actor):
            world.dig(pos + UP, actor)

    world = World()
    world.set_block(0, 0, 0, STONE)
    mods = loaded(sneaky=Sneaky())
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), actor())
    assert not outcome and "RuntimeError" in outcome.reason and "can_break" in outcome.reason
    assert world.get_block(0, 0, 0) == STONE
