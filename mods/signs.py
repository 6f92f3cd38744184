"""Signs: a board on a post (or on a wall) that keeps a line of text in its own block data.

Placing a sign writes who placed it into the sign's per-block data (``world.meta(pos)["owner"]``,
as Luanti's signs keep it); its text starts blank and its editor opens at once, as a new
sign's in Minecraft. Right-clicking it shows its text in the HUD (``actor.tell``) and opens the
game's text-entry screen on it (``actor.ask_text``, `world.mods.text_prompt`: four lines of 15
characters, as Minecraft's sign editor); what the player confirms is written back, as the
player's action, if the sign is still there. The text is saved with the chunk and survives save
and load. The sign's ``infotext`` (`world.voxels.block_data.INFOTEXT`) is its text in quotes, as
Luanti's signs keep theirs: the game shows it while the player points at the sign. The block
type's `world.blocks.labels.Label` draws the text on the board's front (`game.labels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.blocks import BlockType
from world.blocks.labels import Label
from world.blocks.shapes import FACINGS, Box, rotate
from world.hooks import hookimpl
from world.items.recipes import Recipe
from world.mods.text_prompt import TextPrompt
from world.voxels.block_data import INFOTEXT

if TYPE_CHECKING:
    from world.blocks.block_type import Props
    from world.geometry import Int3
    from world.mods.context import PlaceContext
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "signs that keep a text"

SIGN, EDIT = "signs:sign", "signs:edit"
# A board 2/16 thick on a post, facing north (its text toward -z); turned with the player.
_BOARD = (Box(0.0, 0.5, 7 / 16, 1.0, 1.0, 9 / 16), Box(7 / 16, 0.0, 7 / 16, 9 / 16, 0.5, 9 / 16))


def sign_shape(props: Props) -> tuple[Box, ...]:
    return rotate(_BOARD, str(props["facing"]))


def sign_facing(context: PlaceContext) -> dict[str, str]:
    """The board faces the player who places it (its text toward them)."""
    opposite = {"north": "south", "south": "north", "east": "west", "west": "east"}
    return {"facing": opposite[context.facing]}


def sign_placed(world: ModWorld, pos: Int3, actor: Actor | None) -> None:
    """Placed by a player: theirs, and its editor opens at once (Minecraft and Luanti)."""
    if actor is not None:
        world.meta(*pos)["owner"] = actor.name
        actor.ask_text(TextPrompt(EDIT, "Edit sign message", sign_written, text="", pos=pos))


def sign_read(world: ModWorld, pos: Int3, actor: Actor) -> bool:
    """Right click: show the text and ask the player for a new one."""
    text = str(world.meta(*pos).get("text", ""))
    actor.tell(f'sign: "{text}"' if text else "the sign is blank")
    actor.ask_text(TextPrompt(EDIT, "Edit sign message", sign_written, text=text, pos=pos))
    return True


def sign_written(world: ModWorld, pos: Int3, text: str) -> None:
    """The player confirmed a text: keep it, if the sign was not broken meanwhile."""
    if world.registry.name(world.get_block(*pos)) == SIGN:
        data = world.meta(*pos)
        data["text"] = text
        if text:
            data[INFOTEXT] = f'"{text}"'
        else:
            data.pop(INFOTEXT, None)


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    # Minecraft's three signs from six planks over a stick (a plank here).
    registry.register_craft(Recipe(SIGN, 3, ("PPP", "PPP", " P "), {"P": "base:planks"}))
    registry.register(
        BlockType(
            SIGN,
            hardness=1.0,
            groups=("choppy",),  # wood: an axe digs it faster
            solid=False,
            transparent=True,
            properties={"facing": FACINGS},
            selection=sign_shape,
            tiles=("base:planks",),
            placement_state=lambda context: sign_facing(context),
            on_construct=sign_placed,
            on_use=sign_read,
            label=Label("text", _BOARD[0]),  # the text drawn on the board's front
        )
    )
