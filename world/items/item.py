"""Items that are not blocks: tools and materials (Luanti's ``register_tool`` and
``register_craftitem``, Minecraft's items).

Contract
--------
- A mod registers an `Item` in its ``register_blocks`` hook with
  ``registry.register_item(Item("farming:hoe", image="farming_hoe.png", stack_max=1,
  on_use=till))``. Its name is ``"<mod>:<name>"`` and may not be a block's.
- ``image`` is a tile name, as a block's ``tiles`` are: a tile of the atlas (``"base:planks"``)
  or a PNG in the mod's ``textures/`` folder (``"farming_hoe.png"``); the inventory and the
  hotbar show it flat, as Minecraft draws items.
- ``stack_max`` (1..64): how many make one stack (tools 1, as Minecraft's).
- ``on_use``: a right click with the item held, on a block that nothing else used (the block's
  own ``on_use`` and the mods' ``on_use`` hooks come first, as Minecraft's ``useOn`` comes after
  the block's use). It asks for any of `ITEM_CALLBACK_ARGUMENTS` by name, like a block's
  callback, and runs through the same watchdog and rollback; ``True`` means it handled the
  click (nothing is placed, nothing is taken from the stack). It may instead return the denied
  `world.mods.outcome.Outcome` of a check or a nested action it asked for (``world.place(...)``
  refused by a mod's ``can_place``, protection): the click is then refused with that reason and
  whatever the ``on_use`` changed is undone, the inventory included. A held item that is not a
  block never places anything.
- ``points_at``: what the game's ray stops at while the item is held (`POINTS_AT`, Minecraft's
  ``ClipContext.Fluid``): ``"blocks"`` (the default: pointable blocks; liquids are looked
  through), ``"liquid_sources"`` (also a liquid's source, level 8: an empty bucket) or
  ``"liquids"`` (any liquid voxel). The hit is given to ``on_use`` as ``hit`` and ``pos``
  (`world.blocks.registry.BlockRegistry.pointable_for`).
- ``digs``: a tool's digging speeds by block group (Luanti's tool capabilities): ``{"cracky":
  4.0}`` breaks blocks of group ``cracky`` (stone) in a quarter of their hardness while the tool
  is held, in survival; the fastest of the block's groups counts; other blocks take their
  hardness, as by hand. The base game's groups: ``cracky`` (stone, cobblestone and what is made of
  them, the ores), ``crumbly`` (dirt, grass, sand, gravel, farmland), ``choppy`` (wood).
- ``durability``: how many uses a tool lasts (Minecraft's max damage: a wooden tool 59, a stone
  one 131); 0, the default, never wears. Each survival break of a block with a hardness above 0
  while it is held is one use, whatever the block (Minecraft's pickaxes, axes, shovels and
  hoes), and an ``on_use`` may spend uses with ``player.wear_held()``
  (`world.mods.objects.PlayerRef`: the farming mod's hoe, one a tilled block); creative players
  spend none. A stack's ``wear`` counts the uses spent (`world.items.inventory.ItemStack`); when
  it reaches the durability the tool breaks: the slot empties. Only an item that stacks to one
  (``stack_max=1``) may wear, as in Minecraft.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from world.items.inventory import MAX_WEAR, STACK_MAX
from world.tiles import MISSING_TILE, check_tiles
from world.validate import mod_name

__all__ = ["ITEM_CALLBACK_ARGUMENTS", "POINTS_AT", "Item"]

POINTS_AT = ("blocks", "liquid_sources", "liquids")
"""What a held item's ray may stop at (`Item.points_at`): pointable blocks only, those and liquid
sources, those and every liquid voxel."""

ITEM_CALLBACK_ARGUMENTS = (
    "world",
    "pos",
    "block",
    "state",
    "props",
    "actor",
    "hit",
    "item",
    "player",
)
"""What an item's ``on_use`` is offered (``item`` is the `Item` itself; ``player`` the acting
player, `world.mods.objects.PlayerRef`, whose ``take_held`` uses the item up, or None for an
actor who is no player of the world)."""


@dataclass(frozen=True)
class Item:
    """A non-block item (module notes).

    Parameters
    ----------
    name : str
        ``"<mod>:<name>"``.
    description : str
        Shown in the inventory; defaults to the name's part after the colon.
    image : str
        The tile name of its icon.
    stack_max : int
        1..64 items per stack.
    on_use : callable or None
        Right click with the item held (module notes).
    digs : mapping of str to float
        A tool's digging speed by block group, each > 0 (module notes); stored as sorted pairs.
    durability : int
        Uses it lasts, 0..`world.items.inventory.MAX_WEAR` (module notes); 0: it never wears.
        Only with ``stack_max`` 1.
    points_at : str
        One of `POINTS_AT`: what the ray stops at while it is held (module notes).
    """

    name: str
    description: str = ""
    image: str = MISSING_TILE
    stack_max: int = STACK_MAX
    on_use: Callable[..., Any] | None = None
    digs: Any = ()
    durability: int = 0
    points_at: str = "blocks"

    def digs_any(self, groups: tuple[str, ...]) -> bool:
        """Whether it is a tool for a block of these groups (it digs one of them)."""
        return any(group in groups for group, _ in self.digs)

    def dig_speed(self, groups: tuple[str, ...]) -> float:
        """How many times faster than by hand it breaks a block of these groups (1: no faster)."""
        return max((speed for group, speed in self.digs if group in groups), default=1.0)

    @property
    def mod(self) -> str:
        """The mod that registered it (the name's prefix)."""
        return self.name.partition(":")[0]

    def __post_init__(self) -> None:
        name = mod_name(self.name, "item")
        if not isinstance(self.description, str):
            raise ValueError(f"description of {name!r} must be a str, got {self.description!r}")
        if not self.description:
            object.__setattr__(self, "description", name.split(":")[1].replace("_", " "))
        if not isinstance(self.image, str) or not self.image:
            raise ValueError(f"image of {name!r} must be a tile name, got {self.image!r}")
        object.__setattr__(self, "image", check_tiles(name, (self.image,))[0])
        top = self.stack_max
        if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= STACK_MAX:
            raise ValueError(f"stack_max of {name!r} must be 1..{STACK_MAX}, got {top!r}")
        if self.on_use is not None and not callable(self.on_use):
            raise ValueError(f"on_use of {name!r} must be callable or None, got {self.on_use!r}")
        digs = dict(self.digs) if isinstance(self.digs, Mapping) else None
        if digs is None and self.digs != ():
            raise ValueError(f"digs of {name!r} must map block groups to speeds, got {self.digs!r}")
        for group, speed in (digs or {}).items():
            if not isinstance(group, str) or not group:
                raise ValueError(
                    f"digs of {name!r}: a group must be a non-empty str, got {group!r}"
                )
            number = isinstance(speed, int | float) and not isinstance(speed, bool)
            if not number or not (math.isfinite(speed) and speed > 0):
                raise ValueError(f"digs of {name!r}: {group!r} needs a speed > 0, got {speed!r}")
        object.__setattr__(
            self, "digs", tuple(sorted((g, float(v)) for g, v in (digs or {}).items()))
        )
        uses = self.durability
        if isinstance(uses, bool) or not isinstance(uses, int) or not 0 <= uses <= MAX_WEAR:
            raise ValueError(
                f"durability of {name!r} must be an integer 0..{MAX_WEAR}, got {uses!r}"
            )
        if uses and top != 1:
            raise ValueError(
                f"durability of {name!r}: only an item with stack_max=1 wears, got stack_max={top}"
            )
        if not isinstance(self.points_at, str) or self.points_at not in POINTS_AT:
            raise ValueError(
                f"points_at of {name!r} must be one of {', '.join(POINTS_AT)}, "
                f"got {self.points_at!r}"
            )
