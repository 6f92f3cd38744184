"""Farming: till grass or dirt into farmland with a hoe, plant wheat, and watch it grow near water.

Right-click grass or dirt holding the hoe (``farming:hoe``, an item that is not a block: a tool,
one per stack) to till it into farmland, as in Minecraft. The hoe lasts 59 uses (Minecraft's
wooden hoe): each tilled block spends one (`world.mods.objects.PlayerRef.wear_held`; none in
creative), as does each block with a hardness above 0 it breaks, as any tool's. Right-click the
farmland holding wheat seeds (the ``farming:wheat`` item) to plant. Wheat has 8 stages (``age``
0..7) and grows one stage on a random tick (`world.ticks.random_ticks`) when water lies within
4 blocks of its farmland, as Minecraft's hydrated farmland. Ripe wheat drops two seeds, unripe
one (``get_drops``). It can only be planted on farmland, and pops off when the farmland goes.

Bone meal (``farming:bone_meal``) right-clicked on unripe wheat makes it grow 2 to 5 stages at
once, as Minecraft's, and is used up: one item from the player's held stack
(`world.mods.objects.PlayerRef.take_held`; none in creative). Used up inside the click's action,
it comes back should the action be refused or fail, and the `protection` mod refuses a
stranger's before it is used. There are no bones in the game: three wheat seeds and a dirt
compost into one (a shapeless recipe; Minecraft's composter makes bone meal from seeds too).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from world.blocks import BlockType
from world.blocks.shapes import Box
from world.hooks import hookimpl
from world.items.inventory import ItemStack
from world.items.item import Item
from world.items.recipes import Recipe

if TYPE_CHECKING:
    from world.blocks.block_type import Props
    from world.blocks.registry import BlockRegistry
    from world.geometry import Int3
    from world.mods.context import PlaceContext
    from world.mods.objects import PlayerRef
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "farmland and wheat that grows near water"

WHEAT, FARMLAND, HOE = "farming:wheat", "farming:farmland", "farming:hoe"
BONE_MEAL = "farming:bone_meal"
TILLABLE = ("base:grass", "base:dirt")
WATER_REACH = 4
RIPE = 7  # wheat's last age
BONE_MEAL_STAGES = (2, 5)  # stages one bone meal grows a crop, both included (Minecraft's)
HOE_USES = 59  # the hoe's durability: Minecraft's wooden hoe


def wheat_grows(world: ModWorld, pos: Int3, state: int, props: Props) -> None:
    """A random tick on wheat: one stage more when its farmland has water near."""
    age = int(props["age"])
    if age >= RIPE:
        return
    x, y, z = pos
    around = [
        (x + dx, y - 1, z + dz)
        for dx in range(-WATER_REACH, WATER_REACH + 1)
        for dz in range(-WATER_REACH, WATER_REACH + 1)
    ]
    if world.registry.liquid[world.get_blocks(around)].any():
        world.set_block(*pos, world.registry.with_props(state, age=age + 1))


def till(world: ModWorld, pos: Int3, block: BlockType, player: PlayerRef | None) -> bool | None:
    """The hoe's right click: grass or dirt with air above becomes farmland, and the hoe wears
    by one use (none in creative; none for an actor who is no player of the world)."""
    if block.name not in TILLABLE or world.get_block(pos.x, pos.y + 1, pos.z) != 0:
        return None
    world.set_block(*pos, FARMLAND)
    if player is not None:
        player.wear_held(1)
    return True


def fertilize(
    world: ModWorld, pos: Int3, block: BlockType, state: int, props: Props, player: PlayerRef | None
) -> bool | None:
    """Bone meal's right click: unripe wheat grows 2 to 5 stages, and one bone meal is used up
    (none in creative; none for an actor who is no player of the world, as a placed block)."""
    if block.name != WHEAT or int(props["age"]) >= RIPE:
        return None  # nothing to grow: not handled, nothing used up
    if player is not None and not player.creative:
        held = player.held
        if held is None or held.item != BONE_MEAL:
            return None  # the hand holds no bone meal to use up
        player.take_held(1)
    grown = min(RIPE, int(props["age"]) + random.Random().randint(*BONE_MEAL_STAGES))
    world.set_block(*pos, world.registry.with_props(state, age=grown))
    return True


def wheat_drops(registry: BlockRegistry, state: int, rng: random.Random) -> list[ItemStack]:
    """Ripe wheat gives two seeds back, unripe one."""
    return [ItemStack(WHEAT, 2 if registry.props(state)["age"] == RIPE else 1)]


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    # Minecraft's hoe, planks standing in for the sticks (either hand: recipes mirror).
    registry.register_craft(Recipe(HOE, 1, ("PP", " P", " P"), {"P": "base:planks"}))
    registry.register_item(
        Item(
            HOE,
            description="hoe",
            image="farming_hoe.png",
            stack_max=1,
            on_use=till,
            durability=HOE_USES,
        )
    )
    # No bones in the game: seeds composted in dirt (Minecraft's composter takes seeds too).
    registry.register_craft(Recipe(BONE_MEAL, 1, items=(WHEAT, WHEAT, WHEAT, "base:dirt")))
    registry.register_item(
        Item(BONE_MEAL, description="bone meal", image="farming_bone_meal.png", on_use=fertilize)
    )
    registry.register(
        BlockType(
            FARMLAND,
            hardness=0.6,
            groups=("crumbly",),  # earth: a shovel digs it faster
            selection=(Box(0.0, 0.0, 0.0, 1.0, 15 / 16, 1.0),),
            tiles=("base:dirt",),
            drops=(),  # Minecraft: farmland gives dirt; here tilling is free, so nothing
        )
    )
    registry.register(
        BlockType(
            WHEAT,
            solid=False,
            transparent=True,
            hardness=0.0,
            properties={"age": tuple(range(8))},
            selection=lambda p: (Box(0.0, 0.0, 0.0, 1.0, (int(p["age"]) + 1) / 8, 1.0),),
            tiles=("base:tall_grass",),
            draw="plant",
            on_random_tick=wheat_grows,
            get_drops=wheat_drops,
        )
    )


@hookimpl
def can_place(
    world: ModWorld, pos: Int3, block: BlockType, context: PlaceContext | None
) -> str | None:
    if block.name != WHEAT:
        return None
    below = world.registry.name(world.get_block(pos.x, pos.y - 1, pos.z))
    return None if below == FARMLAND else "wheat grows only on farmland (till grass first)"


@hookimpl
def on_neighbor_changed(world: ModWorld, pos: Int3, block: BlockType, neighbor: Int3) -> None:
    """Wheat whose farmland went pops off."""
    below = (pos.x, pos.y - 1, pos.z)
    if (
        block.name == WHEAT
        and neighbor == below
        and world.registry.name(world.get_block(*below)) != FARMLAND
    ):
        world.set_block(*pos, "air")
