"""What the player aims at (`game.sight`): the target, its outline and info text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from world.voxels.block_data import INFOTEXT

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def test_the_info_text_hides_while_paused_and_the_target_stays_aimed(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 50\nwait 1")
    target = game.target
    assert target is not None and game.outline.entity.enabled
    game.world.meta(*target.block)[INFOTEXT] = "a note"
    replay(game, "wait 1")
    assert game.hud.infotext.enabled
    game.pause()
    replay(game, "wait 1")
    assert not game.hud.infotext.enabled and game.target == target  # covered, still aimed
    game.resume()
    replay(game, "wait 1")
    assert game.hud.infotext.enabled and game.hud.infotext.text == "a note"


def test_the_break_time_the_controls_wait_for_is_the_rules(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=False)
    replay(game, "look 0 50\nwait 1")
    aim = game.sight.breaking()
    assert aim.block == game.target.block
    assert aim.seconds == game.rules.break_time(game.target, game.player.actor(None))
    replay(game, "look 0 -60\nwait 1")  # the sky
    assert game.sight.breaking().block is None


def test_an_entity_in_front_of_a_block_is_aimed_at_and_one_behind_it_is_not(
    make_game: Make, zoo_mods: Path, replay: Replay
) -> None:
    """`world.entities.pick.pick`: the nearer of the two; the outline goes round its box."""
    game = make_game(flat=True, creative=True, mods=(str(zoo_mods),))
    crate = game.world.entities.add("zoo:crate", (0.5, 4.0, 2.5))
    replay(game, "look 0 30\nwait 1")
    assert game.sight.entity is not None and game.sight.entity.entity_id == crate.id
    assert game.target is None and game.sight.breaking().block is None  # nothing to break
    assert game.outline.entity.enabled and game.outline.shape == ((0, 0, 0, 0.5, 0.5, 0.5),)
    assert tuple(game.outline.entity.getPos()) == pytest.approx((0.25, 4.0, 2.25))
    stone = game.world.registry.id("base:stone")
    game.world.set_block(0, 4, 1, stone)  # a block between the eye and the crate
    replay(game, "wait 1")
    assert game.sight.entity is None and game.target is not None
    assert tuple(game.target.block) == (0, 4, 1)


def test_an_empty_bucket_aims_at_water_a_right_click_takes_it_and_the_full_one_pours_it_back(
    make_game: Make, replay: Replay
) -> None:
    """The held item decides what the ray stops at (`world.items.item.Item.points_at`): the
    empty bucket's at a water source, any other hand's (the full bucket's too) through it."""
    from world.items.inventory import INVENTORY_SLOTS, ItemStack

    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [None] * INVENTORY_SLOTS
    inventory.put(0, ItemStack("base:bucket", 1))
    inventory.put(1, ItemStack("base:dirt", 1))
    replay(game, "select 2\nlook 0 50\nwait 2")
    ground = game.target
    assert ground is not None and game.world.registry.name(ground.block_id) == "base:grass"
    pool = tuple(ground.block)
    water = game.world.registry.id("base:water")
    game.world.set_block(*pool, water)  # a source where the grass was
    game.chunks.remesh_dirty()
    replay(game, "wait 1")
    assert game.target is not None
    behind = tuple(game.target.block)
    assert behind != pool and game.target.block_id != water  # dirt in hand: looked through
    replay(game, "select 1\nwait 1")
    assert game.target is not None and tuple(game.target.block) == pool  # the bucket sees it
    assert game.outline.entity.enabled
    replay(game, "place\nwait 1")  # the right click, through the controls and the rules
    assert game.last_outcome.done and game.last_outcome.used
    assert game.world.get_block(*pool) == 0
    assert inventory.slots[0] == ItemStack("base:water_bucket", 1)
    assert inventory.slots[1] == ItemStack("base:dirt", 1)  # nothing else made or lost
    assert game.target is not None and tuple(game.target.block) == behind  # a full bucket's ray
    replay(game, "place\nwait 1")  # pours against the block behind, into the pool
    assert game.world.get_block(*pool) == water
    assert inventory.slots[0] == ItemStack("base:bucket", 1)
