"""`Liquid`: how a liquid block flows, declared on its `world.blocks.block_type.BlockType`.

A block with a ``liquid`` is a liquid of Minecraft's kind (its ``FlowingFluid``): the block has
the properties ``level`` (8 and not falling is the *source*, 7..1 flowing, each block out losing
`Liquid.drop_off` levels) and ``falling`` (liquid falling down a column: level 8 and falling, a
flowing voxel that counts as full, as Minecraft's falling fluid), added by the block type itself.
The engine (`world.ticks.liquids`) moves every liquid by the same rules, read
from these numbers; the base game's water and lava are two `Liquid` values
(`world.base.blocks`), and a mod declares its own the same way (Luanti's ``liquidtype``,
``liquid_range``, ``liquid_viscosity``, ``liquid_renewable``: here `drop_off`, `tick_delay`,
`renewable`).

The registry keeps each state's liquid as tables (`LiquidTables`): which liquid, its level, falling
or not, and for each liquid the state of every (level, falling) pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from world.tiles import NAME_PATTERN

__all__ = [
    "LEVELS",
    "LIQUID_PROPERTIES",
    "SOURCE",
    "WASHES",
    "Liquid",
    "LiquidKind",
    "LiquidTables",
    "Meeting",
]

SOURCE: Final = 8  # the level of a source, not falling (Minecraft's fluid amount 8)
LEVELS: Final = (8, 7, 6, 5, 4, 3, 2, 1)  # the first is the default state: a still source
LIQUID_PROPERTIES: Final = (("level", LEVELS), ("falling", (False, True)))
WASHES: Final = ("drop", "destroy")
_MAX_DELAY = 20 * 60  # a minute of game ticks between steps: slower is a still block


@dataclass(frozen=True)
class Meeting:
    """What happens where this liquid meets another (Minecraft's lava and water).

    Parameters
    ----------
    liquid : str
        The other liquid's block name.
    source, flowing : str or None
        The block a source (``source``) or a flowing voxel (``flowing``) of this liquid turns into
        when the other liquid lies beside it or above it (lava: obsidian, cobblestone); ``None``:
        it stays.
    below : str or None
        The block the other liquid turns into when this liquid flows down into it (lava falling
        on water: stone); ``None``: this liquid does not flow into it.
    """

    liquid: str
    source: str | None = None
    flowing: str | None = None
    below: str | None = None

    def __post_init__(self) -> None:
        for field in ("liquid", "source", "flowing", "below"):
            value = getattr(self, field)
            if (value is not None or field == "liquid") and not (
                isinstance(value, str) and NAME_PATTERN.match(value)
            ):
                raise ValueError(f"Meeting {field} must be a block name 'mod:name', got {value!r}")


@dataclass(frozen=True)
class Liquid:
    """How one liquid flows (Minecraft's numbers for water are the defaults).

    Parameters
    ----------
    tick_delay : int
        Game ticks (20 a second) between two steps of a voxel: water 5, lava 30 (Luanti's
        viscosity).
    drop_off : int
        Levels lost per block flowed sideways: water 1 (a source reaches 7 blocks out on a flat
        floor, levels 7..1), lava 2 (3 blocks: 6, 4, 2). See `reach`.
    slope_distance : int
        How far (in blocks, from the voxel it would flow into) the liquid looks for a drop and
        flows only toward the nearest (Minecraft's slope finding): water 4, lava 2; 0 spreads
        evenly on every side (Luanti's liquids).
    renewable : bool
        A flowing voxel between two sources (beside it), over a solid block or a source, becomes
        a source (Minecraft's infinite water); lava is not.
    washes : str
        What happens to a block the liquid flows into (`floodable`: torches, plants): ``"drop"``
        breaks it with its drops (water), ``"destroy"`` burns it to nothing (lava).
    meets : tuple of Meeting
        What it does to other liquids (lava: obsidian, cobblestone, stone with water).
    push : float
        How hard the current pushes a body or a stack in it, in blocks per second gained per
        second along the flow (Minecraft's 0.014 a tick for water is 5.6; lava 0.0023 a tick).
    opaque : bool
        Drawn as a solid surface, with the opaque faces, rather than blended over what lies
        behind it (`world.mesh.pack`): for a liquid whose tiles have no see-through texel
        (lava; Minecraft draws it in its solid layer, water in the translucent one).
    """

    tick_delay: int = 5
    drop_off: int = 1
    slope_distance: int = 4
    renewable: bool = True
    washes: str = "drop"
    meets: tuple[Meeting, ...] = ()
    push: float = 5.6
    opaque: bool = False

    def __post_init__(self) -> None:
        for field, low, high in (
            ("tick_delay", 1, _MAX_DELAY),
            ("drop_off", 1, SOURCE),
            ("slope_distance", 0, 8),
        ):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{field} must be an integer {low}..{high}, got {value!r}")
        for flag in ("renewable", "opaque"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be a bool, got {getattr(self, flag)!r}")
        if self.washes not in WASHES:
            raise ValueError(f"washes must be one of {', '.join(WASHES)}, got {self.washes!r}")
        if not isinstance(self.meets, tuple) or not all(isinstance(m, Meeting) for m in self.meets):
            raise ValueError(f"meets must be a tuple of Meeting, got {self.meets!r}")
        push = self.push
        if isinstance(push, bool) or not isinstance(push, int | float) or not 0 <= push < 100:
            raise ValueError(f"push must be a number 0..100 (blocks/s²), got {push!r}")

    @property
    def reach(self) -> int:
        """Blocks a source's flow reaches sideways on a flat floor (water 7, lava 3)."""
        return math.ceil(SOURCE / self.drop_off) - 1


@dataclass(frozen=True)
class LiquidKind:
    """One registered liquid block: its name, definition, and the state id of every
    ``(level, falling)``: ``states[level, falling]`` (row 0, no liquid, holds air's 0)."""

    name: str
    liquid: Liquid
    states: NDArray[np.uint16]  # (SOURCE + 1, 2)


@dataclass(frozen=True)
class LiquidTables:
    """Each state's liquid, indexed by state id: ``kind`` (index into ``kinds``, -1 for none),
    ``level`` (0 none, 1..8), ``falling``, ``source`` (level 8, not falling); and ``floodable``
    (a liquid flowing into the voxel replaces it: `world.blocks.block_type.BlockType.floodable`)."""

    kinds: tuple[LiquidKind, ...]
    kind: NDArray[np.int16]
    level: NDArray[np.uint8]
    falling: NDArray[np.bool_]
    floodable: NDArray[np.bool_]

    @property
    def source(self) -> NDArray[np.bool_]:
        """Which states are a liquid's source: level 8, not falling."""
        source: NDArray[np.bool_] = (self.level == SOURCE) & ~self.falling
        return source
