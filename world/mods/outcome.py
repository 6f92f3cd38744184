"""What the rules take and give: `Actor` (who acts) and `Outcome` (what an action did).

Both are frozen value objects; hooks receive an `Actor` as is and the game shows an
`Outcome`'s ``reason``. An `Actor` checks its fields once, when it is made (`world.validate`):
every rule after that trusts them.

The player's inventory is the world's (`world.voxels.players`: a player the game joined): an
action changes it inside its transaction, so a denied or rolled-back action leaves it as it was,
and the `Outcome` tells what it did: the stacks a survival break gave (``drops``: lying in the
world as items, or in the inventory when the rules say so), the item a survival place or a throw
used up (``spent``), and the whole inventory after a move of items between it and a block's slots
(``inventory``, worked out by `world.actions.containers` from the slots the game handed in, for
the game to take). A denied or rolled-back action carries none of them.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import world.validate as validate
from world.geometry import Int3, Vec3
from world.items.containers import Container
from world.items.inventory import ItemStack
from world.mods.text_prompt import TextPrompt
from world.physics.body import EYE_HEIGHT, PLAYER_HEIGHT, PLAYER_WIDTH
from world.voxels.changes import Changes

__all__ = [
    "MAX_TELL",
    "NOTHING_TARGETED",
    "REACH_CREATIVE",
    "REACH_SURVIVAL",
    "Actor",
    "Outcome",
    "check_actor",
]

NOTHING_TARGETED = "nothing targeted"
MAX_TELL = 200  # characters of one `Actor.tell` message
_log = logging.getLogger("blockpick.tell")
NO_CHANGES = Changes()
# How far a player reaches (Minecraft Java: 5 blocks in creative, 4.5 in survival).
REACH_CREATIVE = 5.0
REACH_SURVIVAL = 4.5


@dataclass(frozen=True)
class Actor:
    """Who acts: a player (or a mod acting for one). A value object; hooks get it as is.

    Parameters
    ----------
    name : str
        Non-empty; protection mods compare it with an area's owner.
    eye : tuple of 3 float
        Eye position in world units (within the world limit, `world.validate.WORLD_LIMIT`).
    body_min, body_max : tuple of 3 float
        Corners of the body's axis-aligned box; a solid block may not be placed where it
        overlaps the box's interior (touching a face is allowed: you can build under your feet).
    creative : bool
        Creative mode: breaking is instant, unbreakable blocks may be picked and placed.
    selected : str or int or None
        The hotbar's selected block (name or id) that `use_block` places when no mod handles
        the click.
    look : tuple of 3 float or None
        Where the actor looks (any non-zero vector; kept as given). It gives the placement's
        horizontal facing (`world.mods.context.PlaceContext`); ``None``: the direction from the
        eye to the clicked point, or north when that is zero.
    sneak : bool
        Sneaking (left shift): a right click with a block selected places it against a usable
        block instead of using it (Minecraft's rule).
    item : str or None
        The name of the item held (a block's or a `world.items.item.Item`'s): an item's ``on_use``
        runs on a right click nothing else used.
    inbox : callable or None
        Where `tell` sends a message (the game: its HUD); not part of the actor's value.
    prompter : callable or None
        Where `ask_text` sends a `world.mods.text_prompt.TextPrompt` (the game: its text-entry
        screen); not part of the actor's value.
    opener : callable or None
        Where `open_container` sends a `world.items.containers.Container` (the game: its inventory
        screen); not part of the actor's value.
    """

    name: str
    eye: Vec3
    body_min: Vec3
    body_max: Vec3
    creative: bool = False
    selected: str | int | None = None
    look: Vec3 | None = None
    sneak: bool = False
    item: str | None = None
    inbox: Callable[[str], object] | None = field(default=None, compare=False, repr=False)
    prompter: Callable[[TextPrompt], object] | None = field(default=None, compare=False, repr=False)
    opener: Callable[[Container], object] | None = field(default=None, compare=False, repr=False)

    def tell(self, text: str) -> None:
        """Show the player a message (the HUD shows it for a few seconds; Luanti's
        ``chat_send_player``). Longer than `MAX_TELL` characters is cut; no inbox: logged."""
        if not isinstance(text, str):
            raise ValueError(f"text must be a str, got {type(text).__name__}")
        line = text if len(text) <= MAX_TELL else text[: MAX_TELL - 1] + "…"
        if self.inbox is None:
            _log.info("to %s: %s", self.name, line)
        else:
            self.inbox(line)

    def ask_text(self, prompt: TextPrompt) -> bool:
        """Ask the player for text (`world.mods.text_prompt`): the game opens its text-entry screen
        and, when the player confirms, runs ``prompt.on_submit`` as their action. Returns whether
        the prompt was shown (False for an actor without a screen: nothing is asked)."""
        if not isinstance(prompt, TextPrompt):
            raise ValueError(f"prompt must be a TextPrompt, got {type(prompt).__name__}")
        if self.prompter is None:
            return False
        self.prompter(prompt)
        return True

    def open_container(self, container: Container) -> bool:
        """Show the player a block's inventory (`world.items.containers`: a chest's slots) above
        their own, to move stacks between them. Returns whether it was shown (False for an actor
        without a screen)."""
        if not isinstance(container, Container):
            raise ValueError(f"container must be a Container, got {type(container).__name__}")
        if self.opener is None:
            return False
        self.opener(container)
        return True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        for field_name in ("eye", "body_min", "body_max"):
            value = validate.vec3(getattr(self, field_name), field_name, limit=validate.WORLD_LIMIT)
            object.__setattr__(self, field_name, value)
        if any(lo > hi for lo, hi in zip(self.body_min, self.body_max, strict=True)):
            raise ValueError(
                f"body_min must not exceed body_max on any axis, got {self.body_min} and "
                f"{self.body_max}"
            )
        if not isinstance(self.creative, bool):
            raise ValueError(f"creative must be a bool, got {self.creative!r}")
        if self.selected is not None and (
            isinstance(self.selected, bool) or not isinstance(self.selected, str | int)
        ):
            raise ValueError(f"selected must be a block name, id or None, got {self.selected!r}")
        if self.look is not None:
            look = validate.vec3(self.look, "look", limit=math.inf)
            if not any(look):
                raise ValueError(f"look must be a non-zero direction or None, got {self.look!r}")
            object.__setattr__(self, "look", look)
        if not isinstance(self.sneak, bool):
            raise ValueError(f"sneak must be a bool, got {self.sneak!r}")
        if self.item is not None and not isinstance(self.item, str):
            raise ValueError(f"item must be an item name or None, got {self.item!r}")

    @property
    def reach(self) -> float:
        """How far this actor reaches: `REACH_CREATIVE` or `REACH_SURVIVAL`."""
        return REACH_CREATIVE if self.creative else REACH_SURVIVAL

    @classmethod
    def at(
        cls,
        name: str,
        feet: Sequence[float],
        *,
        creative: bool = False,
        selected: str | int | None = None,
        look: Vec3 | None = None,
        sneak: bool = False,
        item: str | None = None,
        inbox: Callable[[str], object] | None = None,
        width: float = PLAYER_WIDTH,
        height: float = PLAYER_HEIGHT,
        eye_height: float = EYE_HEIGHT,
    ) -> Actor:
        """An actor standing with the centre of its feet at ``feet`` (Minecraft's 0.6 x 1.8 box)."""
        fx, fy, fz = validate.vec3(feet, "feet", limit=validate.WORLD_LIMIT)
        half = width / 2
        return cls(
            name,
            eye=(fx, fy + eye_height, fz),
            body_min=(fx - half, fy, fz - half),
            body_max=(fx + half, fy + height, fz + half),
            creative=creative,
            selected=selected,
            look=look,
            sneak=sneak,
            item=item,
            inbox=inbox,
        )

    def overlaps(self, pos: Sequence[int], boxes: Iterable[Sequence[float]] | None = None) -> bool:
        """True when voxel ``pos`` overlaps the body's interior: the unit cube at it, or, given
        ``boxes`` (a collision shape, `world.blocks.shapes.Box` es in block units), any of them."""
        if boxes is None:
            return all(
                v < hi and v + 1 > lo
                for v, lo, hi in zip(pos, self.body_min, self.body_max, strict=True)
            )
        return any(
            all(
                v + box[axis] < hi and v + box[axis + 3] > lo
                for axis, (v, lo, hi) in enumerate(
                    zip(pos, self.body_min, self.body_max, strict=True)
                )
            )
            for box in boxes
        )


@dataclass(frozen=True)
class Outcome:
    """What an action did: ``bool(outcome)`` is ``done``.

    Attributes
    ----------
    done : bool
        The action happened.
    reason : str
        Why not, for the player ("bedrock cannot be broken"); empty when done.
    pos : Int3 or None
        The voxel acted on (for a place, where the block went or would have gone).
    changes : Changes
        Every voxel the action changed, in order, mods' changes included (mods' neighbour
        updates deferred to a later tick are not listed): a sequence of
        `world.voxels.changes.Change`, equal to a tuple of the same changes.
    break_time : float
        Seconds the break takes by hand (0 in creative); 0 for other actions.
    used : bool
        A mod's ``on_use`` handled the right click (so nothing was placed).
    denied_by : str or None
        The mod that denied or failed; ``None`` when done or denied by a built-in rule.
    drops : tuple of ItemStack
        What a survival break gave (`world.blocks.drops.block_drops` of the broken block, or
        its ``get_drops``; Minecraft: nothing in creative): already lying in the world at the
        block (or in the player's inventory: ``Rules.drops_to_inventory``).
    spent : ItemStack or None
        What the action took from the held stack: one item of the placed block when a survival
        actor's player places one, what a throw (``Rules.drop_held``) threw; None otherwise.
    inventory : tuple of (ItemStack or None), or None
        The actor's inventory slots after a move of items (`world.rules.Rules.move_items`), for
        the game to take as they are; None when the action did not change them.
    """

    done: bool
    reason: str = ""
    pos: Int3 | None = None
    changes: Changes = NO_CHANGES
    break_time: float = 0.0
    used: bool = False
    denied_by: str | None = None
    drops: tuple[ItemStack, ...] = ()
    spent: ItemStack | None = None
    inventory: tuple[ItemStack | None, ...] | None = None

    def __bool__(self) -> bool:
        return self.done


def denied(reason: str, pos: Int3 | None = None, mod: str | None = None) -> Outcome:
    """A denial with the reason shown to the player (and the mod that denied, if one did)."""
    return Outcome(False, reason, pos=pos, denied_by=mod)


def check_actor(actor: object) -> Actor:
    """``actor`` when it is an `Actor`; ``TypeError`` naming it otherwise."""
    if not isinstance(actor, Actor):
        raise TypeError(f"actor must be an Actor, got {type(actor).__name__}")
    return actor
