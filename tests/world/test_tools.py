"""Tools (`world.items.item.Item.digs`, the tools mod): a held tool divides a block's break time by
its speed for the block's groups; other blocks take their hardness, as by hand."""

from __future__ import annotations

import math

import pytest

from world import World
from world.base import GAME
from world.geometry import Int3
from world.items.item import Item
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules


def _setup() -> tuple[World, Rules]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert not mods.errors
    world = World(make_registry(mods))
    return world, Rules(world, mods)


def _hit(world: World, x: int) -> Hit:
    return Hit(Int3(x, 0, 0), Int3(0, 1, 0), 1.0, (x + 0.5, 1.0, 0.5), world.get_block(x, 0, 0))


@pytest.mark.parametrize(
    ("block", "item", "seconds"),
    [
        ("base:stone", None, 5.0),  # needs a pickaxe: 10/3 of the hardness by hand
        ("base:stone", "tools:wood_pickaxe", 0.75),
        ("base:stone", "tools:stone_pickaxe", 0.375),
        ("base:stone", "tools:stone_axe", 5.0),  # the wrong tool: as by hand
        ("ores:coal_ore", "tools:stone_pickaxe", 0.75),
        ("base:log", "tools:stone_axe", 0.5),
        ("base:planks", "tools:wood_axe", 1.0),
        ("base:dirt", "tools:wood_shovel", 0.25),
        ("base:sand", "tools:stone_shovel", 0.125),
        ("farming:farmland", "tools:stone_shovel", 0.15),
        ("chests:chest", "tools:stone_axe", 0.625),
        ("furnace:furnace", "tools:stone_pickaxe", 0.875),
        ("base:glass", "tools:stone_pickaxe", 0.3),  # in no tool's group
        ("base:stone", "farming:hoe", 5.0),  # an item that digs nothing faster
        ("base:stone", "base:dirt", 5.0),  # a block held: a hand
        ("base:lamp", None, 0.3),  # cracky but gives itself by hand: at its hardness
        ("base:bedrock", "tools:stone_pickaxe", math.inf),
    ],
)
def test_a_held_tool_breaks_its_blocks_faster_in_survival(
    block: str, item: str | None, seconds: float
) -> None:
    world, rules = _setup()
    world.set_block(0, 0, 0, world.registry.id(block))
    actor = Actor.at("alex", (0.5, 1.0, 2.5), item=item)
    assert rules.break_time(_hit(world, 0), actor) == pytest.approx(seconds)
    creative = Actor.at("alex", (0.5, 1.0, 2.5), creative=True, item=item)
    assert rules.break_time(_hit(world, 0), creative) == (math.inf if seconds == math.inf else 0)


def test_a_tool_s_digs_are_checked_naming_what_is_wrong() -> None:
    assert Item("m:pick", digs={"cracky": 3, "choppy": 1.5}).digs == (
        ("choppy", 1.5),
        ("cracky", 3.0),
    )
    assert Item("m:pick", digs={"cracky": 3}).dig_speed(("merges", "cracky")) == 3.0
    assert Item("m:stick").dig_speed(("cracky",)) == 1.0
    for digs, named in (
        ({"cracky": 0}, "speed > 0"),
        ({"cracky": math.inf}, "speed > 0"),
        ({"cracky": True}, "speed > 0"),
        ({"": 2.0}, "group"),
        ("cracky", "digs"),
    ):
        with pytest.raises(ValueError, match=named):
            Item("m:pick", digs=digs)


def test_tools_are_crafted_and_the_outcome_of_a_break_tells_the_time_with_the_tool() -> None:
    world, rules = _setup()
    recipes = {r.output: r for r in world.registry.recipes if r.mod == "tools"}
    assert set(recipes) == {
        f"tools:{m}_{k}" for m in ("wood", "stone") for k in ("pickaxe", "axe", "shovel")
    }
    assert recipes["tools:stone_pickaxe"].key == {"M": "base:cobblestone", "P": "base:planks"}
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    outcome = rules.break_block(
        _hit(world, 0), Actor.at("alex", (0.5, 1.0, 2.5), item="tools:stone_pickaxe")
    )
    assert outcome.done and outcome.break_time == pytest.approx(0.375)


@pytest.mark.parametrize(
    ("block", "item", "drops"),
    [
        ("base:stone", None, ()),  # Minecraft: stone by hand gives nothing
        ("base:stone", "tools:wood_axe", ()),  # nor with the wrong tool
        ("base:stone", "tools:wood_pickaxe", (("base:cobblestone", 1),)),
        ("base:cobblestone", None, ()),
        ("base:cobblestone", "tools:stone_pickaxe", (("base:cobblestone", 1),)),
        ("base:stone_slab", None, ()),
        ("ores:coal_ore", None, ()),
        ("ores:coal_ore", "tools:wood_pickaxe", (("ores:coal_ore", 1),)),
        ("base:lamp", None, (("base:lamp", 1),)),
        ("base:dirt", None, (("base:dirt", 1),)),  # needs no tool
        ("base:log", None, (("base:log", 1),)),
    ],
)
def test_a_block_that_needs_a_tool_gives_nothing_without_one(
    block: str, item: str | None, drops: tuple[tuple[str, int], ...]
) -> None:
    """Minecraft's "requires the correct tool for drops": a survival player must make a pickaxe
    (from a tree's planks) before stone gives cobblestone (issue 38, item 10)."""
    world, rules = _setup()
    world.set_block(0, 0, 0, world.registry.id(block))
    outcome = rules.break_block(_hit(world, 0), Actor.at("alex", (0.5, 1.0, 2.5), item=item))
    assert outcome.done and world.get_block(0, 0, 0) == 0
    assert tuple((stack.item, stack.count) for stack in outcome.drops) == drops
