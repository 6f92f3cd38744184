"""Tools (`world.items.item.Item.digs`, the tools mod): a held tool divides a block's break time by
its speed for the block's groups; other blocks take their hardness, as by hand. Tools wear out
(`world.items.item.Item.durability`): a survival break of a block with a hardness spends a use,
inside the break's action, and the last use breaks the tool."""

from __future__ import annotations

import math
import re

import pytest

from world import World
from world.base import GAME
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.items.item import Item
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.ray import Hit
from world.rules import Rules

FEET = (0.5, 1.0, 2.5)


def _setup(**plugins: object) -> tuple[World, Rules]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=plugins, game=GAME)
    assert not mods.errors
    world = World(make_registry(mods))
    return world, Rules(world, mods)


def _holding(world: World, item: str, wear: int = 0) -> list[ItemStack | None]:
    """A player of the world holding one ``item`` in the selected slot; their slots."""
    player = world.players.join("alex", FEET)
    player.inventory.slots[0] = ItemStack(item, 1, wear)
    return player.inventory.slots


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


def test_a_tool_s_durability_is_checked_and_only_an_item_stacking_to_one_wears() -> None:
    assert Item("m:stick").durability == 0  # never wears
    assert Item("m:pick", stack_max=1, durability=250).durability == 250
    for kwargs, named in (
        ({"stack_max": 1, "durability": -1}, "durability of 'm:pick' must be an integer 0..65535"),
        ({"stack_max": 1, "durability": 65536}, "durability of 'm:pick' must be an integer"),
        ({"stack_max": 1, "durability": 2.5}, "durability of 'm:pick' must be an integer"),
        ({"stack_max": 1, "durability": True}, "durability of 'm:pick' must be an integer"),
        ({"durability": 59}, "only an item with stack_max=1 wears, got stack_max=64"),
        ({"stack_max": 16, "durability": 59}, "only an item with stack_max=1 wears"),
    ):
        with pytest.raises(ValueError, match=re.escape(named)):
            Item("m:pick", **kwargs)  # type: ignore[arg-type]


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


@pytest.mark.parametrize(
    ("item", "uses"),
    [
        ("tools:wood_pickaxe", 59),  # Minecraft's wooden tools
        ("tools:wood_axe", 59),
        ("tools:wood_shovel", 59),
        ("tools:stone_pickaxe", 131),  # and stone ones
        ("tools:stone_axe", 131),
        ("tools:stone_shovel", 131),
        ("farming:hoe", 59),  # a wooden hoe
    ],
)
def test_each_tool_lasts_as_many_uses_as_minecraft_s(item: str, uses: int) -> None:
    world, _ = _setup()
    assert world.registry.items[item].durability == uses


@pytest.mark.parametrize(
    ("item", "block", "uses", "gives"),
    [
        ("tools:wood_pickaxe", "base:stone", 59, "base:cobblestone"),
        ("tools:stone_shovel", "base:dirt", 131, "base:dirt"),
    ],
)
def test_a_tool_breaks_on_the_last_of_its_uses_in_survival_and_its_slot_is_empty(
    item: str, block: str, uses: int, gives: str
) -> None:
    world, rules = _setup()
    slots = _holding(world, item)
    told: list[str] = []
    actor = Actor.at("alex", FEET, item=item, inbox=told.append)
    for used in range(1, uses + 1):
        world.set_block(0, 0, 0, world.registry.id(block))
        outcome = rules.break_block(_hit(world, 0), actor)
        assert outcome.done and outcome.drops == (ItemStack(gives, 1),)  # the last one too
        assert slots[0] == (ItemStack(item, 1, used) if used < uses else None)
    assert told == [f"your {world.registry.items[item].description} broke"]


def test_any_block_with_a_hardness_wears_the_tool_and_one_without_wears_nothing() -> None:
    world, rules = _setup()
    slots = _holding(world, "tools:stone_axe", 7)
    actor = Actor.at("alex", FEET, item="tools:stone_axe")
    world.set_block(0, 0, 0, world.registry.id("base:stone"))  # not an axe's: one use all the same
    assert rules.break_block(_hit(world, 0), actor)
    assert slots[0] == ItemStack("tools:stone_axe", 1, 8)
    world.set_block(0, 0, 0, world.registry.id("base:tall_grass"))  # hardness 0
    assert rules.break_block(_hit(world, 0), actor)
    assert slots[0] == ItemStack("tools:stone_axe", 1, 8)


def test_creative_digging_wears_no_tool() -> None:
    world, rules = _setup()
    slots = _holding(world, "tools:wood_pickaxe", 58)  # one use left
    actor = Actor.at("alex", FEET, creative=True, item="tools:wood_pickaxe")
    for _ in range(3):
        world.set_block(0, 0, 0, world.registry.id("base:stone"))
        assert rules.break_block(_hit(world, 0), actor)
    assert slots[0] == ItemStack("tools:wood_pickaxe", 1, 58)


class _Veto:
    """Refuses every dig, or lets it through and then fails in ``on_break``."""

    def __init__(self) -> None:
        self.mode = "veto"

    @hookimpl
    def can_break(self) -> str | None:
        return "not here" if self.mode == "veto" else None

    @hookimpl
    def on_break(self) -> None:
        if self.mode == "fail":
            raise RuntimeError("on_break failed")


@pytest.mark.parametrize("mode", ["veto", "fail"])
def test_a_vetoed_or_failed_dig_wears_nothing(mode: str) -> None:
    veto = _Veto()
    veto.mode = mode
    world, rules = _setup(veto=veto)
    slots = _holding(world, "tools:wood_pickaxe", 58)  # the next use would break it
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    outcome = rules.break_block(_hit(world, 0), Actor.at("alex", FEET, item="tools:wood_pickaxe"))
    assert not outcome.done and outcome.denied_by == "veto"
    assert slots[0] == ItemStack("tools:wood_pickaxe", 1, 58)
    assert world.get_block(0, 0, 0) == world.registry.id("base:stone")


def test_only_the_tool_the_player_holds_wears() -> None:
    world, rules = _setup()
    slots = _holding(world, "base:dirt")  # the actor says a pickaxe; the hand holds dirt
    slots[1] = ItemStack("tools:wood_pickaxe", 1, 3)
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    assert rules.break_block(_hit(world, 0), Actor.at("alex", FEET, item="tools:wood_pickaxe"))
    assert slots[:2] == [ItemStack("base:dirt", 1), ItemStack("tools:wood_pickaxe", 1, 3)]
    world.set_block(0, 0, 0, world.registry.id("base:stone"))  # an actor who is no player
    assert rules.break_block(_hit(world, 0), Actor.at("sam", FEET, item="tools:wood_pickaxe"))
