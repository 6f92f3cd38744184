"""The sounds of an action, recorded in its transaction: a done break or place sounds, a mod's
``world.play_sound`` is heard with its gain and position, and a rolled-back action (a veto, a
failing or stopped hook, a tick's failing call) makes none."""

from __future__ import annotations

import time
import types

import pytest

from world import World
from world.actions.transaction import MAX_SOUNDS
from world.base import GAME
from world.blocks.sounds import SoundEvent
from world.geometry import Int3
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import MAX_WAITING_SOUNDS, Rules

UP = (0, 1, 0)
FAR = (100.5, 50.0, 100.5)


def hit_at(world: World, block: tuple[int, int, int], face: tuple[int, int, int] = UP) -> Hit:
    return Hit(Int3(*block), Int3(*face), 1.0, (0.0, 0.0, 0.0), world.get_block(*block))


def steve(**kwargs: object) -> Actor:
    return Actor.at("steve", FAR, **kwargs)  # type: ignore[arg-type]


def setup(**plugins: object) -> tuple[World, Rules]:
    mods = load_mods([], entry_points=False, plugins=plugins, game=GAME)
    world = World(make_registry(mods))
    assert mods.errors == []
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    return world, Rules(world, mods, hook_time_limit=0.2)


def test_a_done_break_of_stone_sounds_one_stone_break_at_the_blocks_centre():
    world, rules = setup()
    assert rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert rules.pop_sounds() == [SoundEvent("base:stone_break", (0.5, 0.5, 0.5), 1.0, 0.8)]
    assert rules.pop_sounds() == []  # taken once


def test_a_done_place_sounds_the_placed_blocks_place_sound_where_it_went():
    world, rules = setup()
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:planks", steve(creative=True))
    assert rules.pop_sounds() == [SoundEvent("base:wood_break", (0.5, 1.5, 0.5), 1.0, 0.8)]


def test_a_vetoed_place_or_break_records_nothing():
    @hookimpl
    def can_place(pos: Int3) -> str:
        return "no building here"

    @hookimpl
    def can_break(pos: Int3) -> bool:
        return False

    world, rules = setup(keeper=types.SimpleNamespace(can_place=can_place, can_break=can_break))
    assert not rules.place_block(hit_at(world, (0, 0, 0)), "base:dirt", steve(creative=True))
    assert not rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert rules.pop_sounds() == []


def test_a_mods_sound_in_on_place_is_heard_with_its_gain_and_position():
    @hookimpl
    def on_place(world: object, pos: Int3) -> None:
        world.play_sound("chime:ding", (pos.x + 0.5, pos.y + 2.0, pos.z + 0.5), gain=0.4)  # type: ignore[attr-defined]

    world, rules = setup(chime=types.SimpleNamespace(on_place=on_place))
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:dirt", steve(creative=True))
    place, ding = rules.pop_sounds()
    assert place.name == "base:gravel_break"  # the block's own sound first
    assert ding == SoundEvent("chime:ding", (0.5, 3.0, 0.5), gain=0.4, pitch=1.0)


def test_a_failing_hook_after_a_sound_rolls_the_sound_back_with_the_action():
    @hookimpl
    def on_place(world: object, pos: Int3) -> None:
        world.play_sound("chime:ding", (0.5, 1.5, 0.5))  # type: ignore[attr-defined]

    @hookimpl(trylast=True)
    def on_break(world: object, pos: Int3) -> None:
        world.play_sound("chime:ding", (0.5, 0.5, 0.5))  # type: ignore[attr-defined]

    def broken(pos: Int3) -> None:
        raise RuntimeError("broken mod")

    chime = types.SimpleNamespace(on_place=on_place, on_break=on_break)
    bad = types.SimpleNamespace(on_place=hookimpl(trylast=True)(broken), depends=["chime"])
    world, rules = setup(chime=chime, bad=bad)
    denied = rules.place_block(hit_at(world, (0, 0, 0)), "base:dirt", steve(creative=True))
    assert not denied and denied.denied_by == "bad"
    assert rules.pop_sounds() == []  # neither the dirt's place sound nor the mod's
    assert rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert [s.name for s in rules.pop_sounds()] == ["base:stone_break", "chime:ding"]


def test_a_hook_stopped_by_the_watchdog_makes_no_sound():
    @hookimpl
    def on_break(world: object, pos: Int3) -> None:
        world.play_sound("chime:ding", (0.5, 0.5, 0.5))  # type: ignore[attr-defined]
        time.sleep(2.0)

    world, rules = setup(slow=types.SimpleNamespace(on_break=on_break))
    assert not rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert rules.pop_sounds() == []
    assert world.get_block(0, 0, 0) == world.registry.id("base:stone")


def test_a_ticks_failing_call_drops_its_own_sound_and_keeps_the_others():
    @hookimpl
    def on_tick(world: object) -> None:
        world.play_sound("good:hum", (0.0, 0.0, 0.0))  # type: ignore[attr-defined]

    def failing(world: object) -> None:
        world.play_sound("bad:hum", (0.0, 0.0, 0.0))  # type: ignore[attr-defined]
        raise RuntimeError("broken tick")

    _, rules = setup(
        good=types.SimpleNamespace(on_tick=on_tick),
        bad=types.SimpleNamespace(on_tick=hookimpl(failing)),
    )
    rules.tick(0.05)
    assert [s.name for s in rules.pop_sounds()] == ["good:hum"]


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        (("ding", (0, 0, 0)), {}, "name"),
        (("chime:ding", (0, 0)), {}, "pos"),
        (("chime:ding", (0, float("inf"), 0)), {}, "pos"),
        (("chime:ding", (1e9, 0, 0)), {}, "pos"),
        (("chime:ding", (0, 0, 0)), {"gain": 11}, "gain"),
        (("chime:ding", (0, 0, 0)), {"pitch": 0.1}, "pitch"),
        (("chime:ding", (0, 0, 0)), {"max_distance": 300}, "max_distance"),
    ],
)
def test_a_bad_play_sound_argument_raises_naming_it(args, kwargs, named):
    raised: list[str] = []

    @hookimpl
    def on_break(world: object) -> None:
        try:
            world.play_sound(*args, **kwargs)  # type: ignore[attr-defined]
        except ValueError as exc:
            raised.append(str(exc))

    world, rules = setup(chime=types.SimpleNamespace(on_break=on_break))
    assert rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert len(raised) == 1 and raised[0].startswith(f"{named} ")
    assert [s.name for s in rules.pop_sounds()] == ["base:stone_break"]


def test_a_can_hook_may_not_make_a_sound():
    raised: list[str] = []

    @hookimpl
    def can_break(world: object) -> None:
        try:
            world.play_sound("chime:ding", (0, 0, 0))  # type: ignore[attr-defined]
        except RuntimeError as exc:
            raised.append(str(exc))

    world, rules = setup(chime=types.SimpleNamespace(can_break=can_break))
    assert rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    assert raised and "can_* hooks only decide" in raised[0]


def test_no_mod_floods_the_game_past_the_sounds_an_action_may_make():
    @hookimpl
    def on_break(world: object) -> None:
        for i in range(MAX_SOUNDS + 36):
            world.play_sound("chime:ding", (float(i), 0.0, 0.0))  # type: ignore[attr-defined]

    world, rules = setup(chime=types.SimpleNamespace(on_break=on_break))
    mods = rules.mods
    assert mods is not None
    assert rules.break_block(hit_at(world, (0, 0, 0)), steve(creative=True))
    sounds = rules.pop_sounds()
    assert len(sounds) == MAX_SOUNDS and sounds[0].name == "base:stone_break"
    assert rules.dropped_sounds == 37
    assert [str(e) for e in mods.errors] == [
        f"mod 'chime' failed in play_sound: RuntimeError: more than {MAX_SOUNDS} sounds in one "
        "action or tick; the rest are dropped"
    ]


def test_sounds_nobody_takes_keep_only_the_newest():
    @hookimpl
    def on_tick(world: object) -> None:
        for _ in range(MAX_SOUNDS):
            world.play_sound("chime:ding", (0.0, 0.0, 0.0))  # type: ignore[attr-defined]

    _, rules = setup(chime=types.SimpleNamespace(on_tick=on_tick))
    for _ in range(MAX_WAITING_SOUNDS // MAX_SOUNDS + 2):
        rules.tick(0.05)
    assert len(rules.pop_sounds()) == MAX_WAITING_SOUNDS
    assert rules.dropped_sounds == 2 * MAX_SOUNDS


def test_flowing_water_and_a_bulk_write_are_silent():
    world, rules = setup()
    registry = world.registry
    for x in range(-3, 4):
        for z in range(-3, 4):
            world.set_block(x, 0, z, registry.id("base:stone"))
    assert rules.place_block(hit_at(world, (0, 0, 0)), "base:water", steve(creative=True))
    assert [s.name for s in rules.pop_sounds()] == ["base:water_splash"]  # poured: a splash
    for _ in range(40):
        rules.tick(0.05)
    assert registry.name(world.get_block(1, 1, 0)) == "base:water"  # it flowed
    assert rules.pop_sounds() == []
