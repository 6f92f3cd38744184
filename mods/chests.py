"""Chests: 27 slots of storage in a block (Minecraft's chest, Luanti's ``default:chest``).

Right-clicking a chest opens it above the player's inventory (`world.items.containers`: its slots
are kept in the chest's own data, saved with the world); every move in or out of it is the
player's action through the rules (`world.actions.containers`: the mods' ``can_use``, so a chest
in someone else's protected area keeps its stacks). Broken, as Minecraft's, it spills what it
holds into the world (`world.blocks.block_type.BlockType.containers`): each stack lies as an item
entity where the chest stood, beside the chest's own drop, and the player picks them up; so it
does when another mod replaces it. Nothing is ever lost with the block, nor left both in it and
dropped (the break is one action). Only a chest whose slots cannot be read (damaged data, which
could not drop) refuses to break. Eight planks round an empty middle make one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.blocks import BlockType
from world.hooks import hookimpl
from world.items.containers import Container, decode_slots
from world.items.recipes import Recipe

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "chests that keep 27 stacks"

CHEST = "chests:chest"
SLOTS = "inventory"  # the data key of its slots (`world.items.containers.Container.key`)
SIZE = 27


def open_chest(world: ModWorld, pos: Int3, actor: Actor) -> bool:
    """Right click: show the chest's slots."""
    actor.open_container(Container(pos, "Chest", SIZE, SLOTS))
    return True


def chest_can_break(world: ModWorld, pos: Int3) -> str | None:
    """Breaks whatever it holds (its stacks drop), unless its slots cannot be read: data that is
    not slots could not drop, and would go with the block."""
    try:
        decode_slots(world.meta(*pos).get(SLOTS), SIZE)
    except ValueError:
        return "the chest is not empty"
    return None


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    registry.register(
        BlockType(
            CHEST,
            hardness=2.5,
            groups=("container", "choppy"),  # keeps items: protection guards it; an axe
            tiles=("base:log_top", "base:log_top", "base:planks"),
            on_use=open_chest,
            can_break=chest_can_break,
            containers=(SLOTS,),  # broken or replaced: its stacks drop into the world
        )
    )
    registry.register_craft(Recipe(CHEST, 1, ("PPP", "P P", "PPP"), {"P": "base:planks"}))
