"""A lamp that a right click switches on and off.

Two block types: the base game's ``base:lamp`` is the lamp switched off, and this mod registers
``lamp:lamp_on``, the same lamp giving light 15. Using either one swaps it for the other in
place, and the click counts as handled (``on_use`` returns True), so nothing is placed against a
lamp. Breaking a lit lamp simply removes it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from world.hooks import hookimpl

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.geometry import Int3
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "right click switches lamps on and off"

OFF = "base:lamp"
ON = "lamp:lamp_on"
SWITCH = {OFF: ON, ON: OFF}


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    # The lit lamp is the base lamp (same hardness, same shape) with light and its own tile, the
    # mod's file mods/textures/lamp_lamp_on.png.
    registry.register(
        replace(
            registry[OFF], name=ON, description="lit lamp", light=15, tiles=("lamp_lamp_on.png",)
        )
    )


@hookimpl
def on_use(world: ModWorld, pos: Int3, block: BlockType) -> bool | None:
    other = SWITCH.get(block.name)
    if other is None:
        return None
    world.set_block(*pos, other)
    return True
