"""`EntityType`: one kind of object in the world that is not a block (Luanti's
``core.register_entity``, Minecraft's entity types): a dropped item, a falling block, a creature.

Contract
--------
- A mod registers one in its ``register_blocks`` hook with
  ``registry.register_entity(EntityType("mobs:sheep", size=(0.9, 1.3), on_step=wander))``; its
  name is ``"<mod>:<name>"``. The engine's own, ``"builtin:item"`` and
  ``"builtin:falling_block"`` (`world.entities`), are registered by the registry itself.
- An entity stands at a position ``pos``: the centre of the bottom of its box, which is ``size``
  = (width, height) blocks, as wide on x as on z (Minecraft's ``EntityDimensions``). The box is
  what it collides with and what the raycast and a punch hit (``pointable``).
- ``physical``: gravity (``gravity`` blocks/s²) and collision with the blocks' collision shapes
  through the same swept-box code as the player's (`world.physics.collision`), so it never
  passes through a block; ``False``: it moves only as its callbacks move it.
- Drawn (`game.entity_view`) as ``visual``: ``"cube"`` (a box of the entity's size with
  ``tiles`` as a block's: one, three or six tile names), ``"boxes"`` (a box model: ``model`` is a
  tuple of (`world.blocks.shapes.Box` in blocks, relative to ``pos`` at the bottom centre, tile)
  pairs, turned with the entity's yaw), ``"sprite"`` (``tiles[0]`` facing the camera), or the
  engine's own ``"item"`` and ``"block"`` (a dropped item's and a falling block's).
- Callbacks ask for arguments by name, as blocks' do (`ENTITY_CALLBACK_ARGUMENTS`), and run
  inside a transaction through the hook watchdog: one that raises or runs late is undone alone,
  logged with its mod's name. ``on_activate`` when the entity is added or loaded with its chunk;
  ``on_step`` every ``step_interval`` seconds of world time (at least every entity step,
  `STEP_SECONDS`; its ``dt`` is the interval) while its chunk is loaded (a creature that thinks
  four times a second costs a fifth of one that thinks every step: Minecraft's AI goals too
  run at their own rates); ``on_punch`` when a
  player hits it (left click); ``on_use`` when a player right-clicks it (``True``: handled).
- ``max_age``: seconds of world time after which it goes by itself (``None``: never). A dropped
  item's is 300 (Minecraft's 5 minutes).
- Its saved state is its position, velocity, yaw, age and ``data`` (`world.voxels.entities`),
  saved with the chunk it stands in.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from world.blocks.shapes import Box
from world.tiles import check_tiles
from world.validate import mod_name

__all__ = [
    "BUILTIN_ENTITIES",
    "ENTITY_CALLBACK_ARGUMENTS",
    "FALLING_BLOCK",
    "ITEM_ENTITY",
    "MAX_ENTITY_SIZE",
    "STEP_SECONDS",
    "VISUALS",
    "EntityType",
]

ENTITY_CALLBACK_ARGUMENTS = ("entity", "world", "dt", "actor", "player", "data")
"""What an entity's callbacks are offered (``entity``: the `world.mods.objects.ObjectRef`)."""
STEP_SECONDS = 0.05
"""Entities step 20 times a second of world time (Minecraft's game tick)."""
MAX_ENTITY_SIZE = 4.0  # blocks: a box the swept collision handles in one step
VISUALS = ("cube", "boxes", "sprite", "item", "block")

_CALLBACKS = ("on_activate", "on_step", "on_punch", "on_use")


@dataclass(frozen=True)
class EntityType:
    """One kind of entity (module notes).

    Parameters
    ----------
    name : str
        ``"<mod>:<name>"``.
    size : (float, float)
        Width (x and z) and height of its box in blocks, each in (0, `MAX_ENTITY_SIZE`].
    visual : str
        One of `VISUALS`.
    tiles : tuple of str
        Tile names for ``"cube"`` (1, 3 or 6, as a block's; kept as six) and ``"sprite"`` (1).
    model : tuple of (Box, str)
        The ``"boxes"`` visual's parts, each a box in blocks around the bottom centre and its
        tile.
    physical : bool
        Falls and collides with blocks.
    gravity : float
        Blocks per second squared when physical (players: 32).
    drag : bool
        Air drag and the ground's friction slow it (Minecraft's, `world.entities.motion`);
        ``False``: it keeps its velocity until its callbacks change it (Luanti's objects), but
        for gravity and what it bumps into, so a creature that walks sets its velocity when
        it chooses a way, not every step.
    pointable : bool
        The raycast and a punch can hit it.
    max_age : float or None
        Seconds of world time before it goes by itself.
    step_interval : float
        Seconds of world time between ``on_step`` calls, rounded to whole steps (>= one step).
    description : str
        Its name shown to the player; defaults to the name's part after the colon.
    on_activate, on_step, on_punch, on_use : callable or None
        Callbacks (module notes).
    """

    name: str
    size: tuple[float, float] = (0.6, 0.6)
    visual: str = "cube"
    tiles: tuple[str, ...] = ()
    model: tuple[tuple[Box, str], ...] = ()
    physical: bool = True
    gravity: float = 32.0
    drag: bool = True
    pointable: bool = True
    max_age: float | None = None
    step_interval: float = STEP_SECONDS
    description: str = ""
    on_activate: Callable[..., Any] | None = None
    on_step: Callable[..., Any] | None = None
    on_punch: Callable[..., Any] | None = None
    on_use: Callable[..., Any] | None = None

    @property
    def mod(self) -> str:
        """The mod that registered it (the name's prefix)."""
        return self.name.partition(":")[0]

    def __post_init__(self) -> None:
        name = mod_name(self.name, "entity")
        size = self.size
        if (
            not isinstance(size, tuple)
            or len(size) != 2
            or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= MAX_ENTITY_SIZE
                for v in size
            )
        ):
            raise ValueError(
                f"size of {name!r} must be (width, height), each in (0, {MAX_ENTITY_SIZE}], "
                f"got {size!r}"
            )
        object.__setattr__(self, "size", (float(size[0]), float(size[1])))
        if self.visual not in VISUALS:
            raise ValueError(f"visual of {name!r} must be one of {VISUALS}, got {self.visual!r}")
        if self.visual == "sprite":
            if not isinstance(self.tiles, tuple) or len(self.tiles) != 1:
                raise ValueError(f"tiles of {name!r} (a sprite) must be one tile name")
            object.__setattr__(self, "tiles", check_tiles(name, self.tiles)[:1])
        elif self.visual == "cube":
            object.__setattr__(self, "tiles", check_tiles(name, self.tiles))  # six, one a face
        if self.visual == "boxes":
            if not isinstance(self.model, tuple) or not self.model:
                raise ValueError(f"model of {name!r} (boxes) must be a tuple of (Box, tile)")
            for part in self.model:
                if (
                    not isinstance(part, tuple)
                    or len(part) != 2
                    or not isinstance(part[0], Box)
                    or not isinstance(part[1], str)
                ):
                    raise ValueError(f"model part of {name!r} must be (Box, tile), got {part!r}")
            object.__setattr__(
                self,
                "model",
                tuple((box, check_tiles(name, (tile,))[0]) for box, tile in self.model),
            )
        for flag in ("physical", "pointable", "drag"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} of {name!r} must be a bool")
        gravity = self.gravity
        if (
            isinstance(gravity, bool)
            or not isinstance(gravity, int | float)
            or not 0 <= gravity < 1000
        ):
            raise ValueError(f"gravity of {name!r} must be in [0, 1000) blocks/s², got {gravity!r}")
        age = self.max_age
        if age is not None and (
            isinstance(age, bool) or not isinstance(age, int | float) or not 0 < age < math.inf
        ):
            raise ValueError(f"max_age of {name!r} must be seconds > 0 or None, got {age!r}")
        interval = self.step_interval
        if (
            isinstance(interval, bool)
            or not isinstance(interval, int | float)
            or not STEP_SECONDS <= interval <= 60
        ):
            raise ValueError(
                f"step_interval of {name!r} must be seconds in [{STEP_SECONDS}, 60], "
                f"got {interval!r}"
            )
        for callback in _CALLBACKS:
            value = getattr(self, callback)
            if value is not None and not callable(value):
                raise ValueError(f"{callback} of {name!r} must be callable or None, got {value!r}")
        if not self.description:
            object.__setattr__(self, "description", name.partition(":")[2].replace("_", " "))


ITEM_ENTITY = EntityType(
    "builtin:item", size=(0.25, 0.25), visual="item", gravity=16.0, max_age=300.0
)
"""A stack lying in the world (``data``: ``item``, ``count``): Minecraft's ``ItemEntity``, a
0.25-block box falling at 0.04 blocks/tick² (16 blocks/s²), gone after 5 minutes."""
FALLING_BLOCK = EntityType("builtin:falling_block", size=(0.98, 0.98), visual="block")
"""A block falling as an object (``data``: ``block``, its state key): Minecraft's
``FallingBlockEntity``; it lands as the block, or drops as its item where it cannot."""
BUILTIN_ENTITIES = (ITEM_ENTITY, FALLING_BLOCK)
