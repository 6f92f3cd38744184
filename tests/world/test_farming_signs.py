"""The farming and signs example mods through the real pipeline: the hoe, wheat, bone meal used
up from a joined player's hand, signs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from world import World
from world.base import GAME
from world.blocks.drops import block_drops
from world.gen.generators import make_generator
from world.geometry import Int3
from world.items.crafting import craft
from world.items.inventory import Inventory, ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_registry
from world.mods.text_prompt import TextPrompt
from world.ray import Hit
from world.rules import Rules
from world.save.storage import WorldStore

UP = Int3(0, 1, 0)
HOE = "farming:hoe"


def setup() -> tuple[World, Rules]:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)
    assert not mods.errors
    world = World(make_registry(mods))
    return world, Rules(world, mods)


def top(world: World, pos: tuple[int, int, int]) -> Hit:
    x, y, z = pos
    return Hit(Int3(x, y, z), UP, 1.0, (x + 0.5, y + 1.0, z + 0.5), world.get_block(x, y, z))


def farmer(**kwargs: object) -> Actor:
    return Actor.at(
        "steve",
        (20.5, 1.0, 20.5),
        selected="farming:wheat",
        look=(0, -1, 1),
        item="farming:wheat",
        **kwargs,
    )  # type: ignore[arg-type]


def hoeing(**kwargs: object) -> Actor:
    return Actor.at("steve", (20.5, 1.0, 20.5), look=(0, -1, 1), item="farming:hoe", **kwargs)  # type: ignore[arg-type]


def test_the_hoe_tills_grass_then_wheat_grows_near_water_and_drops_more_when_ripe() -> None:
    world, rules = setup()
    registry = world.registry
    for x in range(6):
        world.set_block(x, 0, 0, registry.id("base:grass"))
    world.set_block(0, 0, 1, registry.id("base:water"))
    assert not rules.place_block(top(world, (2, 0, 0)), "farming:wheat", farmer())  # on grass
    assert not rules.use_block(top(world, (2, 0, 0)), farmer()).used  # seeds do not till
    assert registry.name(world.get_block(2, 0, 0)) == "base:grass"
    assert rules.use_block(top(world, (2, 0, 0)), hoeing()).used  # the hoe tills
    assert registry.name(world.get_block(2, 0, 0)) == "farming:farmland"
    assert world.get_block(2, 1, 0) == 0  # and places nothing
    assert rules.use_block(top(world, (2, 0, 0)), farmer())  # planted
    wheat = world.get_block(2, 1, 0)
    assert registry.name(wheat) == "farming:wheat" and registry.props(wheat)["age"] == 0
    for _ in range(20 * 60 * 30):
        rules.tick(1 / 20)
    ripe = world.get_block(2, 1, 0)
    assert registry.props(ripe)["age"] == 7
    assert block_drops(registry, ripe, __import__("random").Random(1))[0].count == 2
    digger = Actor.at("steve", (20.5, 1.0, 20.5), creative=True)
    assert rules.break_block(top(world, (2, 0, 0)), digger)  # the farmland goes
    assert world.get_block(2, 1, 0) == 0  # and the wheat on it pops off


def test_the_hoe_breaks_on_its_59th_tilled_block_and_wears_none_in_creative() -> None:
    world, rules = setup()
    grass = world.registry.id("base:grass")
    player = world.players.join("steve", (20.5, 1.0, 20.5), Inventory([ItemStack(HOE)]))
    slots = player.inventory.slots
    for tilled in range(1, 60):
        world.set_block(2, 0, 0, grass)
        assert rules.use_block(top(world, (2, 0, 0)), hoeing()).used
        assert slots[0] == (ItemStack(HOE, 1, tilled) if tilled < 59 else None)
    slots[0] = ItemStack(HOE, 1, 58)
    player.creative = True
    world.set_block(2, 0, 0, grass)
    assert rules.use_block(top(world, (2, 0, 0)), hoeing(creative=True)).used
    assert slots[0] == ItemStack(HOE, 1, 58)


def test_a_sign_keeps_its_text_through_a_save(tmp_path: Path) -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    told: list[str] = []
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1), inbox=told.append)
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    sign = world.get_block(0, 1, 0)
    assert world.registry.props(sign)["facing"] == "south"  # its text toward the player
    hit = top(world, (0, 1, 0))
    asked: list[TextPrompt] = []
    assert rules.use_block(hit, replace(actor, prompter=asked.append)).used
    assert told == ["the sign is blank"]  # a new sign is blank, as in Minecraft
    assert world.meta(0, 1, 0)["owner"] == "alex"  # who placed it, as Luanti's signs keep
    (prompt,) = asked
    assert prompt.text == "" and prompt.pos == (0, 1, 0)
    outcome = rules.submit_text(prompt, "Welcome to\nthe farm\x07, traveller!", actor)
    assert outcome.done
    assert world.meta(0, 1, 0)["text"] == "Welcome to\nthe farm, trave"  # 15 per line
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        store.save(world)
    with WorldStore(path) as store:
        again = store.load(world.registry, generator_factory=make_generator)
        assert again.meta(0, 1, 0)["text"] == "Welcome to\nthe farm, trave"


def test_placing_a_sign_opens_its_editor_at_once() -> None:
    """Minecraft and Luanti: the placed sign's text editor opens at once (issue 38, item 11);
    what the player confirms is the sign's text."""
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    asked: list[TextPrompt] = []
    actor = replace(Actor.at("alex", (0.5, 1.0, 3.5), look=(0, 0, -1)), prompter=asked.append)
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    (prompt,) = asked
    assert prompt.text == "" and prompt.pos == (0, 1, 0) and prompt.title == "Edit sign message"
    assert rules.submit_text(prompt, "Home", actor).done
    assert world.meta(0, 1, 0)["text"] == "Home"
    world.set_block(0, 2, 0, world.registry.id("base:stone"))
    screenless = Actor.at("bob", (0.5, 3.0, 3.5), look=(0, 0, -1))
    assert rules.place_block(top(world, (0, 2, 0)), "signs:sign", screenless)  # asks nothing


def test_a_sign_text_confirmed_after_the_sign_was_broken_is_dropped() -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1))
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    asked: list[TextPrompt] = []
    assert rules.use_block(top(world, (0, 1, 0)), replace(actor, prompter=asked.append)).used
    assert rules.break_block(top(world, (0, 1, 0)), actor)
    assert rules.submit_text(asked[0], "too late", actor).done
    assert world.get_block(0, 1, 0) == 0 and "text" not in world.meta(0, 1, 0)


def test_a_sign_without_a_screen_only_shows_its_text() -> None:
    world, rules = setup()
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    told: list[str] = []
    actor = Actor.at("alex", (0.5, 1.0, 3.5), creative=True, look=(0, 0, -1), inbox=told.append)
    assert rules.place_block(top(world, (0, 0, 0)), "signs:sign", actor)
    world.meta(0, 1, 0)["text"] = "Keep out"
    assert rules.use_block(top(world, (0, 1, 0)), actor).used
    assert told == ['sign: "Keep out"']


# -- bone meal ----------------------------------------------------------------------------------

BONE_MEAL = "farming:bone_meal"


def wheat_field(mods_plugins: dict[str, object] | None = None) -> tuple[World, Rules]:
    """Farmland at (0..4, 0, 0) with wheat of age 0 on each, and steve (survival) joined,
    holding three bone meal."""
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=mods_plugins or {}, game=GAME)
    assert not mods.errors
    world = World(make_registry(mods))
    registry = world.registry
    for x in range(5):
        world.set_block(x, 0, 0, registry.id("farming:farmland"))
        world.set_block(x, 1, 0, registry.id("farming:wheat"))
    world.players.join("steve", (20.5, 1.0, 20.5), Inventory([ItemStack(BONE_MEAL, 3)]))
    return world, Rules(world, mods)


def fertilizer(name: str = "steve", **kwargs: object) -> Actor:
    return Actor.at(name, (20.5, 1.0, 20.5), item=BONE_MEAL, **kwargs)  # type: ignore[arg-type]


def age(world: World, x: int) -> int:
    return int(world.registry.props(world.get_block(x, 1, 0))["age"])


def bone_meal_held(world: World, name: str = "steve") -> int:
    player = world.players.get(name)
    assert player is not None
    return player.inventory.count(BONE_MEAL)


def test_bone_meal_grows_wheat_two_to_five_stages_and_is_used_up_one_at_a_time() -> None:
    world, rules = wheat_field()
    outcome = rules.use_block(top(world, (0, 1, 0)), fertilizer())
    assert outcome.done and outcome.used
    assert 2 <= age(world, 0) <= 5
    assert bone_meal_held(world) == 2
    assert world.get_block(0, 2, 0) == 0  # an item that is not a block places nothing
    while age(world, 0) < 7:
        assert rules.use_block(top(world, (0, 1, 0)), fertilizer()).used
    assert bone_meal_held(world) in (0, 1)  # ripe after two or three
    left = bone_meal_held(world)
    ripe = rules.use_block(top(world, (0, 1, 0)), fertilizer())
    assert not ripe.used and bone_meal_held(world) == left  # nothing left to grow: kept
    farmland = rules.use_block(top(world, (1, 0, 0)), fertilizer())
    assert not farmland.used and bone_meal_held(world) == left


def test_bone_meal_grows_by_every_amount_from_two_to_five() -> None:
    world, rules = wheat_field()
    steve = world.players.get("steve")
    assert steve is not None
    grown = set()
    for _ in range(40):  # the chance of missing one of four amounts in 40 draws: < 1e-4
        world.set_block(2, 1, 0, world.registry.id("farming:wheat"))
        steve.inventory.slots[0] = ItemStack(BONE_MEAL, 1)
        assert rules.use_block(top(world, (2, 1, 0)), fertilizer()).used
        grown.add(age(world, 2))
    assert grown == {2, 3, 4, 5}


def test_bone_meal_in_creative_is_never_used_up() -> None:
    world, rules = wheat_field()
    steve = world.players.get("steve")
    assert steve is not None
    steve.creative = True
    assert rules.use_block(top(world, (0, 1, 0)), fertilizer(creative=True)).used
    assert age(world, 0) >= 2 and bone_meal_held(world) == 3


def test_a_stranger_s_bone_meal_is_refused_in_a_protected_field_and_kept() -> None:
    world, rules = wheat_field()
    protection = load_mods([DEFAULT_MODS_DIR], entry_points=False, game=GAME)["protection"]
    protection.plugin.protect(world, "farm", (0, 0, 0), (4, 2, 0), owner="alex")
    world.players.join("alex", (22.5, 1.0, 20.5), Inventory([ItemStack(BONE_MEAL, 3)]))
    refused = rules.use_block(top(world, (0, 1, 0)), fertilizer())
    assert not refused.done and refused.reason == "farm belongs to alex"
    assert age(world, 0) == 0 and bone_meal_held(world) == 3
    assert rules.use_block(top(world, (0, 1, 0)), fertilizer("alex")).used  # the owner's
    assert age(world, 0) >= 2 and bone_meal_held(world, "alex") == 2


def test_bone_meal_used_up_by_an_action_that_fails_comes_back() -> None:
    class Brittle:
        """A mod whose neighbour hook fails: the farmland under the wheat hears it grow."""

        @hookimpl
        def on_neighbor_changed(self, pos: Int3, neighbor: Int3) -> None:
            if tuple(neighbor) == (0, 1, 0):
                raise RuntimeError("the field is brittle")

    world, rules = wheat_field({"brittle": Brittle()})
    outcome = rules.use_block(top(world, (0, 1, 0)), fertilizer())
    assert not outcome.done and "brittle" in outcome.reason
    assert age(world, 0) == 0 and bone_meal_held(world) == 3  # the wheat and the item back


def test_bone_meal_is_composted_from_three_wheat_seeds_and_dirt() -> None:
    world, _ = setup()
    seeds, dirt = ItemStack("farming:wheat", 1), ItemStack("base:dirt", 1)
    made = craft(world.registry, [seeds, None, dirt, seeds, None, None, None, seeds, None])
    assert made is not None and made[0] == ItemStack(BONE_MEAL, 1)
    assert world.registry.items[BONE_MEAL].image == "farming:bone_meal"
