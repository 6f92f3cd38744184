"""Players and entities as mods see them: read them, give and take items, move them, spawn
stacks and entities; every write is part of the action, so a vetoed or failed one gives
everything back."""

from __future__ import annotations

import types
from typing import Any

import pytest

from world import World
from world.base import GAME
from world.blocks.entity_type import EntityType
from world.entities.items import stack_of
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.items.item import Item
from world.mods.commands import ChatCommand, CommandRegistrar
from world.mods.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.objects import PlayerRef
from world.mods.outcome import Actor
from world.mods.registrar import BlockRegistrar
from world.mods.registration import make_commands, make_registry
from world.mods.view import ModWorld
from world.ray import Hit
from world.rules import Rules

FEET = (0.5, 1.0, 3.5)


def setup(plugin: object) -> tuple[World, Rules, Any]:
    mods = load_mods([], entry_points=False, plugins={"tester": plugin}, game=GAME)
    world = World(make_registry(mods))
    stone = world.registry.id("base:stone")
    for x in range(-3, 4):
        for z in range(-3, 6):
            world.set_block(x, 0, z, stone)
    world.set_block(0, 1, 0, stone)
    player = world.players.join("steve", FEET)
    return world, Rules(world, mods), player


def stone_hit(world: World) -> Hit:
    return Hit(Int3(0, 1, 0), Int3(0, 0, 1), 2.0, (0.5, 1.5, 1.0), world.get_block(0, 1, 0))


def holding(player: Any, item: str, count: int) -> None:
    player.inventory.slots[0] = ItemStack(item, count)
    player.inventory.select(0)


def item_mod(use: Any) -> types.SimpleNamespace:
    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        registry.register_item(Item("tester:meal", on_use=use))

    return types.SimpleNamespace(register_blocks=register_blocks)


def test_an_items_on_use_uses_up_one_item_through_the_player() -> None:
    def use(player: PlayerRef | None) -> bool:
        assert player is not None
        assert player.take_held(1) == 1
        return True

    world, rules, player = setup(item_mod(use))
    holding(player, "tester:meal", 5)
    outcome = rules.use_block(stone_hit(world), Actor.at("steve", FEET, item="tester:meal"))
    assert outcome.used
    assert player.inventory.slots[0] == ItemStack("tester:meal", 4)


def test_a_failed_on_use_gives_the_item_back() -> None:
    def use(player: PlayerRef | None, world: ModWorld) -> bool:
        assert player is not None
        player.take_held(3)
        player.inventory.add(("base:dirt", 10))
        world.add_item((0.5, 2.0, 0.5), ("base:sand", 4))
        raise RuntimeError("spilled")

    world, rules, player = setup(item_mod(use))
    holding(player, "tester:meal", 5)
    outcome = rules.use_block(stone_hit(world), Actor.at("steve", FEET, item="tester:meal"))
    assert not outcome.done and outcome.denied_by == "tester"
    assert player.inventory.slots[0] == ItemStack("tester:meal", 5)
    assert player.inventory.count("base:dirt") == 0
    assert len(world.entities) == 0


def test_in_creative_using_an_item_uses_none_up() -> None:
    def use(player: PlayerRef | None) -> bool:
        assert player is not None
        return player.take_held(1) == 0

    world, rules, player = setup(item_mod(use))
    player.creative = True
    holding(player, "tester:meal", 5)
    outcome = rules.use_block(stone_hit(world), Actor.at("steve", FEET, item="tester:meal"))
    assert outcome.used and player.inventory.slots[0] == ItemStack("tester:meal", 5)


def shears_mod(use: Any) -> types.SimpleNamespace:
    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        registry.register_item(Item("tester:shears", stack_max=1, durability=5, on_use=use))

    return types.SimpleNamespace(register_blocks=register_blocks)


def test_an_items_on_use_wears_the_held_tool_until_it_breaks_and_creative_wears_none() -> None:
    broke: list[bool] = []

    def use(player: PlayerRef | None) -> bool:
        assert player is not None
        broke.append(player.wear_held(2))
        return True

    world, rules, player = setup(shears_mod(use))
    holding(player, "tester:shears", 1)
    shearing = Actor.at("steve", FEET, item="tester:shears")
    assert rules.use_block(stone_hit(world), shearing).used
    assert player.inventory.slots[0] == ItemStack("tester:shears", 1, 2)
    player.creative = True
    assert rules.use_block(stone_hit(world), shearing).used
    assert player.inventory.slots[0] == ItemStack("tester:shears", 1, 2)  # none in creative
    player.creative = False
    rules.use_block(stone_hit(world), shearing)
    assert player.inventory.slots[0] == ItemStack("tester:shears", 1, 4)
    rules.use_block(stone_hit(world), shearing)  # 6 uses of 5: broken
    assert player.inventory.slots[0] is None
    assert broke == [False, False, False, True]


def test_a_failed_on_use_takes_the_wear_back_and_what_never_wears_does_not() -> None:
    def use(player: PlayerRef | None) -> bool:
        assert player is not None
        assert player.wear_held(5)  # broken
        raise RuntimeError("the blade snapped")

    world, rules, player = setup(shears_mod(use))
    holding(player, "tester:shears", 1)
    outcome = rules.use_block(stone_hit(world), Actor.at("steve", FEET, item="tester:shears"))
    assert not outcome.done and outcome.denied_by == "tester"
    assert player.inventory.slots[0] == ItemStack("tester:shears", 1)  # back, unworn
    ref = PlayerRef(world, player, lambda: None)
    holding(player, "base:dirt", 3)  # a block never wears
    assert not ref.wear_held(1) and player.inventory.slots[0] == ItemStack("base:dirt", 3)
    with pytest.raises(ValueError, match="amount must be an integer >= 0"):
        ref.wear_held(-1)
    assert ref.inventory.add(ItemStack("tester:shears", 1, 3)) is None  # given as worn
    assert player.inventory.slots[1] == ItemStack("tester:shears", 1, 3)


def test_a_mod_reads_the_players_and_gives_and_takes_items() -> None:
    seen: dict[str, object] = {}

    @hookimpl
    def on_break(world: ModWorld, pos: Int3, actor: Actor) -> None:
        me = world.player(actor)
        assert me is not None
        seen["names"] = [p.name for p in world.players()]
        seen["pos"], seen["eye"], seen["look"] = me.pos, me.eye, me.look
        seen["left"] = me.inventory.add(ItemStack("base:dirt", 10))
        seen["taken"] = me.inventory.remove("base:stone", 70)
        seen["contains"] = me.inventory.contains("base:dirt", 10)
        seen["nobody"] = world.player("alex")

    world, rules, player = setup(types.SimpleNamespace(on_break=on_break))
    player.inventory.slots[5] = ItemStack("base:stone", 64)
    player.inventory.slots[9] = ItemStack("base:stone", 3)
    assert rules.break_block(stone_hit(world), Actor.at("steve", FEET, creative=True))
    assert seen["names"] == ["steve"]
    assert seen["pos"] == FEET and seen["eye"] == pytest.approx((0.5, 2.62, 3.5))
    assert seen["left"] is None and seen["taken"] == 67 and seen["contains"] is True
    assert seen["nobody"] is None
    assert player.inventory.count("base:stone") == 0


def test_a_command_teleports_its_player_and_not_into_a_wall() -> None:
    said: list[str] = []

    def go(player: PlayerRef | None, text: str, actor: Actor) -> None:
        assert player is not None
        x, y, z = (float(v) for v in text.split())
        try:
            player.teleport((x, y, z))
        except ValueError as exc:
            actor.tell(str(exc))

    @hookimpl
    def register_commands(commands: CommandRegistrar) -> None:
        commands.register(ChatCommand("go", go, params="<x> <y> <z>"))

    _, rules, player = setup(types.SimpleNamespace(register_commands=register_commands))
    assert rules.mods is not None
    commands = make_commands(rules.mods)
    actor = Actor.at("steve", FEET, inbox=said.append)
    prompt = commands.prompt(commands["go"])
    assert rules.submit_text(prompt, "2.5 1 2.5", actor)
    assert player.pos == (2.5, 1.0, 2.5) and player.moves == 1
    assert rules.submit_text(prompt, "0.5 0.5 0.5", actor)  # inside the stone
    assert player.pos == (2.5, 1.0, 2.5) and "inside base:stone" in said[-1]


def test_a_mods_entity_kind_is_spawned_found_and_written_through_the_world() -> None:
    found: dict[str, object] = {}

    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        registry.register_entity(EntityType("tester:ball", size=(0.5, 0.5), tiles=("base:dirt",)))

    @hookimpl
    def on_break(world: ModWorld, pos: Int3, actor: Actor) -> None:
        ball = world.add_entity((0.5, 1.0, 0.5), "tester:ball", data={"colour": "red"})
        ball.data["bounces"] = 2
        found["near"] = world.entities_near((0.5, 1.0, 0.5), 1.0, kind="tester:ball")
        found["ball"] = ball
        with pytest.raises(ValueError, match="kind"):
            world.add_entity((0.5, 1.0, 0.5), "tester:nothing")

    world, rules, _ = setup(
        types.SimpleNamespace(register_blocks=register_blocks, on_break=on_break)
    )
    assert rules.break_block(stone_hit(world), Actor.at("steve", FEET, creative=True))
    ball = found["ball"]
    assert found["near"] == [ball]
    (entity,) = world.entities
    assert entity.kind == "tester:ball" and entity.data == {"colour": "red", "bounces": 2}
    with pytest.raises(RuntimeError, match="over"):
        ball.data["bounces"] = 3  # type: ignore[attr-defined]  # kept after its hook returned


def test_a_failed_break_takes_back_its_drops_and_what_its_hooks_spawned_and_gave() -> None:
    @hookimpl
    def on_break(world: ModWorld, pos: Int3, actor: Actor) -> None:
        world.add_item((0.5, 2.0, 0.5), ("base:sand", 3))
        me = world.player(actor)
        assert me is not None
        me.inventory.add(("base:dirt", 5))
        me.teleport((2.5, 1.0, 2.5))
        raise RuntimeError("broke")

    world, rules, player = setup(types.SimpleNamespace(on_break=on_break))
    rules.drops_to_inventory = True
    outcome = rules.break_block(stone_hit(world), Actor.at("steve", FEET))
    assert not outcome.done and outcome.denied_by == "tester"
    assert len(world.entities) == 0
    assert player.inventory.count("base:dirt") == 0
    assert player.inventory.count("base:cobblestone") == 0
    assert player.pos == FEET and player.moves == 0
    assert world.get_block(0, 1, 0) == world.registry.id("base:stone")


def test_get_drops_sees_the_position_and_the_blocks_data() -> None:
    seen: list[object] = []

    def drops(pos: Int3, data: dict[str, object], registry: object) -> list[ItemStack]:
        seen.append((pos, data))
        return [ItemStack("base:dirt", int(data.get("held", 1)))]  # type: ignore[call-overload]

    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        from world.blocks.block_type import BlockType

        registry.register(BlockType("tester:box", tiles=("base:planks",), get_drops=drops))

    world, rules, _ = setup(types.SimpleNamespace(register_blocks=register_blocks))
    box = world.registry.id("tester:box")
    world.set_block(0, 1, 0, box)
    world.meta(0, 1, 0)["held"] = 7
    assert rules.break_block(stone_hit(world), Actor.at("steve", FEET))
    assert seen == [(Int3(0, 1, 0), {"held": 7})]
    assert [stack_of(e) for e in world.entities] == [ItemStack("base:dirt", 7)]


def test_q_throws_the_held_item_forward_and_it_is_not_picked_back_up_at_once() -> None:
    world, rules, player = setup(types.SimpleNamespace())
    holding(player, "base:dirt", 10)
    actor = Actor.at("steve", FEET, look=(0.0, 0.0, -1.0))
    outcome = rules.drop_held(actor, 1)
    assert outcome.spent == ItemStack("base:dirt", 1)
    assert player.inventory.count("base:dirt") == 9
    (thrown,) = world.entities
    for _ in range(20):  # one second: it flew away, and its pickup delay is two
        rules.tick(0.05)
    assert player.inventory.count("base:dirt") == 9
    assert thrown.pos[2] < FEET[2] - 1.0
    assert not rules.drop_held(Actor.at("alex", FEET), 1)  # no such player
    player.inventory.slots[0] = None
    assert not rules.drop_held(actor, 1)


def test_a_punch_knocks_a_physical_entity_back_unless_its_on_punch_handles_it() -> None:
    punched: list[str] = []

    def on_punch(player: PlayerRef | None) -> bool:
        punched.append(player.name if player else "?")
        return len(punched) > 1

    @hookimpl
    def register_blocks(registry: BlockRegistrar) -> None:
        registry.register_entity(
            EntityType("tester:ball", size=(0.5, 0.5), tiles=("base:dirt",), on_punch=on_punch)
        )

    world, rules, _ = setup(types.SimpleNamespace(register_blocks=register_blocks))
    ball = world.entities.add("tester:ball", (0.5, 1.0, 1.5))
    actor = Actor.at("steve", FEET)
    assert rules.punch_entity(ball.id, actor)
    assert ball.velocity[2] < 0 and ball.velocity[1] > 0  # away from the player, and up
    ball.velocity = (0.0, 0.0, 0.0)
    outcome = rules.punch_entity(ball.id, actor)
    assert outcome.used and ball.velocity == (0.0, 0.0, 0.0)
    assert punched == ["steve", "steve"]
    assert not rules.punch_entity(9999, actor)
