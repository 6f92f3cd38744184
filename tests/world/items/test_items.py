"""Items that are not blocks (a hoe) and text prompts (a sign's editor): registered by mods,
used through the rules pipeline with the watchdog and rollback."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from world import World
from world.base import GAME
from world.blocks.block_type import BlockType
from world.geometry import Int3
from world.items.inventory import Inventory
from world.items.item import Item
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.mods.text_prompt import TextPrompt
from world.ray import Hit
from world.rules import Rules

UP = Int3(0, 1, 0)


def hit_at(world: World, pos: tuple[int, int, int]) -> Hit:
    block = Int3(*pos)
    point = (block.x + 0.5, block.y + 1.0, block.z + 0.5)
    return Hit(block, UP, 1.0, point, world.get_block(*block))


def holding(item: str | None, selected: str | None = None) -> Actor:
    return Actor.at("steve", (100.5, 50.0, 100.5), look=(0, -1, 0), item=item, selected=selected)


class Tools:
    """A mod with a wand: its on_use turns what it points at into glass (and may then fail)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    @hookimpl
    def register_blocks(self, registry):  # type: ignore[no-untyped-def]
        def zap(world, pos, item, actor):  # type: ignore[no-untyped-def]
            world.set_block(*pos, "base:glass")
            if self.fail:
                raise RuntimeError("the wand broke")
            return True

        registry.register_item(Item("tools:wand", image="base:planks", stack_max=1, on_use=zap))


def game(**plugins: object) -> tuple[object, World, Rules]:
    mods = load_mods([], entry_points=False, plugins=dict(plugins), game=GAME)
    assert mods.errors == []
    world = World(make_registry(mods))
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    return mods, world, Rules(world, mods)


def test_an_item_s_on_use_handles_a_right_click_and_places_nothing() -> None:
    _, world, rules = game(tools=Tools())
    outcome = rules.use_block(hit_at(world, (0, 0, 0)), holding("tools:wand"))
    assert outcome.done and outcome.used
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:glass"
    assert world.get_block(0, 1, 0) == 0


def test_an_item_held_without_on_use_places_nothing() -> None:
    _, world, rules = game(tools=Tools())
    outcome = rules.use_block(hit_at(world, (0, 0, 0)), holding("base:no_such_item"))
    assert not outcome and "no block is selected" in outcome.reason


def test_a_failing_item_is_logged_by_its_mod_and_its_changes_rolled_back(caplog) -> None:  # type: ignore[no-untyped-def]
    _mods, world, rules = game(tools=Tools(fail=True))
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        outcome = rules.use_block(hit_at(world, (0, 0, 0)), holding("tools:wand"))
    assert not outcome and outcome.denied_by == "tools"
    assert "on_use of tools:wand" in outcome.reason
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:stone"
    assert "the wand broke" in caplog.text


def test_the_block_s_own_use_comes_before_the_item_s() -> None:
    _, world, rules = game(tools=Tools())
    door = world.registry.id("base:door")
    world.set_block(0, 1, 0, door)
    world.set_block(0, 2, 0, world.registry.with_props(door, half="upper"))
    outcome = rules.use_block(hit_at(world, (0, 1, 0)), holding("tools:wand"))
    assert outcome.used
    assert world.registry.props(world.get_block(0, 1, 0))["open"] is True  # opened, not zapped


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"name": "wand"}, "item name"),
        ({"name": "tools:wand", "stack_max": 0}, "stack_max"),
        ({"name": "tools:wand", "stack_max": 65}, "stack_max"),
        ({"name": "tools:wand", "image": ""}, "image"),
        ({"name": "tools:wand", "image": "other_wand.png"}, "tile file"),
        ({"name": "tools:wand", "on_use": "zap"}, "on_use"),
        ({"name": "tools:wand", "points_at": "fluids"}, "points_at"),
        ({"name": "tools:wand", "points_at": None}, "points_at"),
    ],
)
def test_a_bad_item_is_refused_naming_what_is_wrong(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Item(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("taken", ["tools:wand", "base:stone"])
def test_an_item_may_not_take_a_block_s_name_or_another_mod_s_prefix(taken: str) -> None:
    class Clash:
        @hookimpl
        def register_blocks(self, registry):  # type: ignore[no-untyped-def]
            registry.register(BlockType("tools:wand"))
            registry.register_item(Item(taken))

    mods = load_mods([], entry_points=False, plugins={"tools": Clash()}, game=GAME)
    registry = make_registry(mods)
    assert any("tools" in str(error) for error in mods.errors)
    assert taken not in registry.items and "tools:wand" not in registry  # nothing of the mod
    with pytest.raises(ValueError, match="already registered"):
        registry.register_item(Item("base:stone"))


def test_an_item_s_image_joins_the_atlas_tiles_and_tools_stack_to_one() -> None:
    _, world, _ = game(tools=Tools())
    registry = world.registry
    assert registry.items["tools:wand"].stack_max == 1
    assert registry.tile_id("base:planks") >= 0
    inventory = Inventory()
    inventory.limits = {name: item.stack_max for name, item in registry.items.items()}
    assert inventory.add("tools:wand", 3) == 0
    assert [s.count for s in inventory.slots[:3] if s is not None] == [1, 1, 1]
    inventory.move(1, 0)  # onto another wand: a full stack of one, so they stay apart
    assert inventory.slots[0] is not None and inventory.slots[0].count == 1
    assert inventory.slots[1] is not None and inventory.slots[1].count == 1


def test_a_text_prompt_cleans_its_text() -> None:
    prompt = TextPrompt("signs:edit", "Edit", lambda text: None, max_lines=2, line_length=4)
    assert prompt.clean("abcdef\nx\ty\nzz") == "abcd\nxy"
    with pytest.raises(ValueError, match="line_length"):
        TextPrompt("signs:edit", "Edit", lambda text: None, line_length=0)
    with pytest.raises(ValueError, match="prompt name"):
        TextPrompt("edit", "Edit", lambda text: None)


def test_a_failing_prompt_callback_is_logged_by_its_mod_and_rolled_back(caplog) -> None:  # type: ignore[no-untyped-def]
    _mods, world, rules = game(tools=Tools())

    def written(world, pos, text):  # type: ignore[no-untyped-def]
        world.set_block(*pos, "base:glass")
        raise RuntimeError(f"cannot keep {text!r}")

    prompt = TextPrompt("tools:note", "Note", written, pos=Int3(0, 0, 0))
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        outcome = rules.submit_text(prompt, "hello", holding(None))
    assert not outcome and outcome.denied_by == "tools"
    assert world.registry.name(world.get_block(0, 0, 0)) == "base:stone"
    assert "cannot keep 'hello'" in caplog.text


def test_a_prompt_callback_asking_for_what_is_not_offered_fails_cleanly() -> None:
    _, _world, rules = game(tools=Tools())
    prompt = TextPrompt("tools:note", "Note", lambda colour: None)
    outcome = rules.submit_text(prompt, "hi", holding(None))
    assert not outcome and "colour" in outcome.reason


def test_an_actor_without_a_screen_is_not_asked() -> None:
    asked: list[TextPrompt] = []
    prompt = TextPrompt("tools:note", "Note", lambda text: None)
    assert not holding(None).ask_text(prompt)
    assert replace(holding(None), prompter=asked.append).ask_text(prompt)
    assert asked == [prompt]


def test_an_item_points_at_blocks_unless_it_says_liquids_too() -> None:
    registry = World().registry
    source, flowing = registry.id("base:water"), registry.state_id("base:water", level=2)
    assert Item("tools:wand").points_at == "blocks"
    for points_at, sees in (
        ("blocks", (False, False)),
        ("liquid_sources", (True, False)),
        ("liquids", (True, True)),
    ):
        registry.register_item(Item(f"tools:{points_at}", points_at=points_at))
        table = registry.pointable_for(f"tools:{points_at}")
        assert (bool(table[source]), bool(table[flowing])) == sees
        assert (table | registry.liquid == registry.pointable | registry.liquid).all()
