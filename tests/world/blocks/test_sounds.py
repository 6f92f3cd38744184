"""Sound values: a block's SoundGroup, a SoundEvent, checked where they are made."""

from __future__ import annotations

import math

import pytest

from world.blocks.block_type import AIR, BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.sounds import (
    MAX_DISTANCE,
    SoundEvent,
    SoundGroup,
    block_centre,
    check_sound_name,
)

BELL = SoundGroup(dig="gems:tap", dug="gems:shatter", place="gems:set", step="gems:tap")


def test_a_sound_event_keeps_its_values_as_floats():
    event = SoundEvent("gems:ding", (1, 2, 3), gain=2, pitch=1.5, max_distance=32)
    assert event == SoundEvent("gems:ding", (1.0, 2.0, 3.0), 2.0, 1.5, 32.0)
    assert all(type(v) is float for v in (*event.pos, event.gain, event.pitch, event.max_distance))
    assert SoundEvent("gems:ding", (0.0, 0.0, 0.0)).max_distance == 16.0  # Minecraft's


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"name": "ding"}, "name"),
        ({"name": "gems:Ding"}, "name"),
        ({"name": "gems:ding2"}, "name"),  # a number is a variation's, not a name's
        ({"name": 7}, "name"),
        ({"pos": (0.0, math.nan, 0.0)}, "pos"),
        ({"pos": (0.0, 1.0)}, "pos"),
        ({"pos": (2.0**26, 0.0, 0.0)}, "pos"),
        ({"gain": -0.1}, "gain"),
        ({"gain": 10.5}, "gain"),
        ({"gain": math.nan}, "gain"),
        ({"pitch": 0.4}, "pitch"),
        ({"pitch": 2.5}, "pitch"),
        ({"pitch": "high"}, "pitch"),
        ({"max_distance": 0.5}, "max_distance"),
        ({"max_distance": MAX_DISTANCE + 1}, "max_distance"),
        ({"max_distance": math.inf}, "max_distance"),
    ],
)
def test_a_bad_sound_event_argument_is_named(kwargs, named):
    given = {"name": "gems:ding", "pos": (0.0, 0.0, 0.0), **kwargs}
    with pytest.raises(ValueError, match=rf"^{named} "):
        SoundEvent(**given)


def test_sound_names_are_mod_names_that_do_not_end_in_a_digit():
    assert check_sound_name("base:stone_break") == "base:stone_break"
    assert check_sound_name("mod2:a_1b") == "mod2:a_1b"
    for bad in ("base:stone1", "stone", "base:", ":x", "a:b:c", "base:Stone", None):
        with pytest.raises(ValueError, match="'mod:name'"):
            check_sound_name(bad)


def test_a_group_plays_each_use_with_minecrafts_gain_and_pitch():
    centre = block_centre(3, 4, -5)
    assert centre == (3.5, 4.5, -4.5)
    dug = BELL.event("dug", centre)
    assert dug == SoundEvent("gems:shatter", centre, gain=1.0, pitch=0.8)  # (1 + 1) / 2, 0.8
    assert BELL.event("place", centre) == SoundEvent("gems:set", centre, 1.0, 0.8)
    assert BELL.event("dig", centre) == SoundEvent("gems:tap", centre, 0.25, 0.5)
    assert BELL.event("step", centre) == SoundEvent("gems:tap", centre, 0.15, 1.0)
    assert BELL.event("fall", centre) is None  # silent: no fall sound given
    loud = SoundGroup(dug="gems:boom", step="gems:boom", volume=3.0, pitch=2.0)
    assert loud.event("dug", centre) == SoundEvent("gems:boom", centre, 2.0, 1.6)
    step = loud.event("step", centre, max_distance=64.0)
    assert step is not None and step.gain == pytest.approx(0.45)
    assert (step.pitch, step.max_distance) == (2.0, 64.0)


def test_a_group_clamps_pitch_into_the_events_range():
    low = SoundGroup(dig="gems:tap", pitch=0.5)
    event = low.event("dig", (0.0, 0.0, 0.0))
    assert event is not None and event.pitch == 0.5  # 0.25 asked: the lowest an event plays


def test_a_group_names_its_sounds_once_and_refuses_unknown_uses():
    assert BELL.names == ("gems:tap", "gems:shatter", "gems:set")
    with pytest.raises(ValueError, match="kind must be one of dig, dug, place, step, fall"):
        BELL.event("hit", (0.0, 0.0, 0.0))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dug": "gems:shatter1"}, "^dug must be a sound name"),
        ({"step": "shatter"}, "^step must be a sound name"),
        ({"volume": 0.0}, "^volume must be in"),
        ({"volume": math.nan}, "^volume must be in"),
        ({"pitch": 3.0}, "^pitch must be a number"),
    ],
)
def test_a_bad_group_is_refused_naming_the_field(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SoundGroup(**kwargs)


def test_a_block_takes_a_group_and_is_silent_without_one():
    registry = BlockRegistry()
    ruby = registry.register(BlockType("gems:ruby", sounds=BELL))
    plain = registry.register(BlockType("gems:plain"))
    assert registry.sounds_of(ruby) is BELL
    assert registry.sounds_of(plain) is None  # Luanti's default: no sound
    assert registry.sounds_of(AIR) is None
    with pytest.raises(ValueError, match="unknown block id"):
        registry.sounds_of(99)


def test_a_block_with_something_else_as_sounds_is_refused_naming_it():
    with pytest.raises(ValueError, match="sounds of 'gems:ruby' must be a SoundGroup"):
        BlockType("gems:ruby", sounds="gems:ding")  # type: ignore[arg-type]
