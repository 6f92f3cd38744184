"""Chests: 27 slots of storage in a block (Minecraft's chest, Luanti's ``default:chest``).

Right-clicking a chest opens it above the player's inventory (`world.items.containers`: its slots
are kept in the chest's own data, saved with the world); every move in or out of it is the
player's action through the rules (`world.actions.containers`: the mods' ``can_use``, so a chest
in someone else's protected area keeps its stacks). A chest holding anything cannot be broken,
as Luanti's: empty it first. Should another mod replace it anyway, its stacks drop into the world
and come to the player (`world.blocks.block_type.BlockType.containers`): nothing is ever lost with
the block. Eight planks round an empty middle make one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.blocks import BlockType
from world.hooks import hookimpl
from world.items.containers import Container, unless_empty
from world.items.recipes import Recipe

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "chests that keep 27 stacks"

CHEST = "chests:chest"
SLOTS = "inventory"  # the data key of its slots (`world.items.containers.Container.key`)


def open_chest(world: ModWorld, pos: Int3, actor: Actor) -> bool:
    """Right click: show the chest's slots."""
    actor.open_container(Container(pos, "Chest", 27, SLOTS))
    return True


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    registry.register(
        BlockType(
            CHEST,
            hardness=2.5,
            groups=("container", "choppy"),  # keeps items: protection guards it; an axe
            tiles=("base:log_top", "base:log_top", "base:planks"),
            on_use=open_chest,
            can_break=unless_empty(SLOTS, "the chest is not empty"),  # as Luanti's
            containers=(SLOTS,),  # replaced by a mod's change: its stacks drop, none is lost
        )
    )
    registry.register_craft(Recipe(CHEST, 1, ("PPP", "P P", "PPP"), {"P": "base:planks"}))
