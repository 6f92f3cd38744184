"""The circuit breaker (`world.mods.breaker`): a hook that keeps failing is switched off for the
world with one message, a switched-off veto denies, and the player turns it back on."""

from __future__ import annotations

import pytest

from world import World
from world.base import GAME, default_registry
from world.blocks.block_type import BlockType
from world.geometry import Int3
from world.mods.breaker import TRIP_ERRORS, TRIP_TIMEOUTS, WINDOW_SECONDS, Breaker, HookDisabled
from world.mods.calls import ModError
from world.mods.guard import HookTimeout
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.ray import Hit
from world.rules import Rules

LIMIT = 0.05  # a short watchdog limit: each timeout costs about 0.1 s of the test


class Clock:
    """A fake clock: seconds set by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """`world.mods.host.Mods.record`'s stand-in: keeps (mod, where, message)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str]] = []

    def __call__(
        self, mod: str, where: str, exc: BaseException, *, traceback: bool = True
    ) -> ModError:
        self.seen.append((mod, where, str(exc)))
        return ModError(mod, where, str(exc))


def loaded(**plugins: object) -> Mods:
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    assert mods.errors == []
    return mods


def hit_at(world: World, pos: tuple[int, int, int]) -> Hit:
    return Hit(Int3(*pos), Int3(0, 1, 0), 1.0, (0.0, 0.0, 0.0), world.get_block(*pos))


PLAYER = Actor.at("alex", (9.5, 9.0, 9.5), creative=True)


class Forever:
    """An ``on_tick`` that never returns."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def on_tick(self) -> None:
        self.calls += 1
        while True:
            pass


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def on_tick(self) -> None:
        self.calls += 1


def test_a_hook_that_loops_forever_is_switched_off_after_three_timeouts_and_never_called_again():
    forever, counter = Forever(), Counter()
    mods = loaded(forever=forever, other=counter)
    rules = Rules(World(), mods, hook_time_limit=LIMIT)
    for _ in range(TRIP_TIMEOUTS + 20):
        rules.tick(1 / 60)
    # Stopped by the watchdog three times, then no longer called: the ticks after cost nothing.
    assert forever.calls == TRIP_TIMEOUTS
    assert counter.calls == TRIP_TIMEOUTS + 20  # the other mod is not touched
    assert rules.breaker.disabled == (("forever", "on_tick"),)
    # One timeout error (the same one again is not kept twice), then one message naming the
    # mod, the hook and how to turn it back on; no timeout is recorded after it.
    assert [(e.mod, e.where) for e in mods.errors] == [("forever", "on_tick")] * 2
    assert mods.errors[0].message.startswith("HookTimeout")
    assert str(mods.errors[1]) == (
        "mod 'forever' failed in on_tick: disabled after 3 calls ran past the time limit "
        "within 30 s; /mods enable forever turns it back on"
    )
    # The player turns it back on: it is called again (and switched off again after three).
    assert rules.breaker.enable("forever") == ("on_tick",)
    rules.tick(1 / 60)
    assert forever.calls == TRIP_TIMEOUTS + 1
    rules.close()


class Crashing:
    """A protection mod whose ``can_break`` always raises."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def can_break(self) -> None:
        self.calls += 1
        raise ZeroDivisionError("a bug")


def test_a_veto_that_keeps_raising_is_switched_off_and_then_denies_naming_the_mod():
    world = World()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    crashing = Crashing()
    mods = loaded(guard=crashing)
    rules = Rules(world, mods)
    for _ in range(TRIP_ERRORS):
        outcome = rules.break_block(hit_at(world, (0, 0, 0)), PLAYER)
        assert not outcome and "ZeroDivisionError" in outcome.reason
    assert crashing.calls == TRIP_ERRORS and rules.breaker.tripped("guard", "can_break")
    # Fail closed: no longer called, the break is denied with a reason naming the mod.
    for _ in range(3):
        outcome = rules.break_block(hit_at(world, (0, 0, 0)), PLAYER)
        assert not outcome and outcome.denied_by == "guard"
        assert outcome.reason == (
            "mod 'guard' is disabled in can_break after failing again and again; "
            "/mods enable guard turns it back on"
        )
    assert crashing.calls == TRIP_ERRORS
    assert world.get_block(0, 0, 0) == world.registry.id("base:stone")  # still protected
    assert rules.breaker.enable("guard") == ("can_break",)
    rules.break_block(hit_at(world, (0, 0, 0)), PLAYER)
    assert crashing.calls == TRIP_ERRORS + 1
    rules.close()


def test_a_block_s_own_callbacks_trip_too_deciding_ones_denying_and_others_skipped():
    registry = default_registry()
    calls = {"can_break": 0, "on_use": 0}

    def vault_can_break() -> None:
        calls["can_break"] += 1
        raise RuntimeError("vault bug")

    def vault_use() -> None:
        calls["on_use"] += 1
        raise RuntimeError("vault bug")

    vault = registry.register(BlockType("vault:vault", can_break=vault_can_break, on_use=vault_use))
    world = World(registry)
    world.set_block(0, 0, 0, vault)
    rules = Rules(world)  # no mods: the blocks' callbacks still go through the breaker
    for _ in range(TRIP_ERRORS + 5):
        broken = rules.break_block(hit_at(world, (0, 0, 0)), PLAYER)
        used = rules.use_block(hit_at(world, (0, 0, 0)), PLAYER)
    assert calls == {"can_break": TRIP_ERRORS, "on_use": TRIP_ERRORS}
    assert not broken and broken.reason.startswith("mod 'vault' is disabled in can_break of")
    assert world.get_block(0, 0, 0) == vault
    # The use is no longer the callback's: nothing handles it, and with nothing selected the
    # click is denied as for any block that cannot be used.
    assert not used and "no block is selected" in used.reason
    assert set(rules.breaker.disabled) == {
        ("vault", "can_break of vault:vault"),
        ("vault", "on_use of vault:vault"),
    }


def test_failures_older_than_the_window_are_forgotten():
    clock, report = Clock(), Recorder()
    breaker = Breaker(report, clock=clock)
    for _ in range(TRIP_TIMEOUTS - 1):
        assert not breaker.failed("slow", "on_tick", timeout=True)
    clock.now = WINDOW_SECONDS + 0.001  # the first two are too old now
    assert not breaker.failed("slow", "on_tick", timeout=True)
    assert not breaker.tripped("slow", "on_tick") and report.seen == []
    assert not breaker.failed("slow", "on_tick", timeout=True)
    assert breaker.failed("slow", "on_tick", timeout=True)  # three within the window
    assert breaker.tripped("slow", "on_tick")


def test_errors_trip_at_ten_timeouts_at_three_and_each_pair_apart():
    report = Recorder()
    breaker = Breaker(report, clock=Clock())
    for _ in range(TRIP_ERRORS - 1):
        assert not breaker.failed("buggy", "on_break", timeout=False)
    breaker.failed("buggy", "on_place", timeout=True)  # another hook: counted apart
    assert not breaker.tripped("buggy", "on_break")
    assert breaker.failed("buggy", "on_break", timeout=False)
    assert report.seen == [
        (
            "buggy",
            "on_break",
            "disabled after 10 calls failed within 30 s; /mods enable buggy turns it back on",
        )
    ]
    assert not breaker.tripped("buggy", "on_place")
    assert breaker.disabled == (("buggy", "on_break"),)


def test_enabling_forgets_the_failures_and_a_second_trip_says_so():
    report = Recorder()
    breaker = Breaker(report, clock=Clock(), timeouts=1)
    breaker.failed("m", "on_tick", timeout=True)
    breaker.failed("m", "on_use", timeout=False)
    assert breaker.enable("other") == ()
    assert breaker.enable("m") == ("on_tick",)
    assert not breaker.tripped("m", "on_tick") and breaker.disabled == ()
    for _ in range(TRIP_ERRORS - 1):
        assert not breaker.failed("m", "on_use", timeout=False)  # the old one was forgotten
    breaker.failed("m", "on_tick", timeout=True)
    assert "(disabled 2 times now)" in report.seen[-1][2]


def test_the_message_is_recorded_as_a_hook_disabled_error_without_a_traceback():
    kinds: list[tuple[type[BaseException], bool]] = []

    def report(mod: str, where: str, exc: BaseException, *, traceback: bool = True) -> ModError:
        kinds.append((type(exc), traceback))
        return ModError(mod, where, str(exc))

    breaker = Breaker(report, timeouts=1)
    breaker.failed("m", "on_tick", timeout=True)
    assert kinds == [(HookDisabled, False)]
    assert not issubclass(HookTimeout, HookDisabled)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"timeouts": 0}, "timeouts must be"),
        ({"errors": True}, "errors must be"),
        ({"window": 0.0}, "window must be"),
        ({"window": "30"}, "window must be"),
    ],
)
def test_bad_settings_are_refused_naming_them(arguments: dict[str, object], message: str):
    with pytest.raises(ValueError, match=message):
        Breaker(Recorder(), **arguments)  # type: ignore[arg-type]
