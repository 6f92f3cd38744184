"""The values a save's metadata holds: `WorldInfo` (the world) and `PlayerState` (the player).

Frozen dataclasses that check every field when built, so a value decoded from a file is either
valid or a ``ValueError`` naming the field (`world.save.format` turns it into a `SaveError`
naming the file). Numbers are finite, positions within the world limit
(`world.validate.WORLD_LIMIT`), and no integer too large for a float escapes as
``OverflowError``.

Angles are Minecraft's, as everywhere in the game (F3, scripts, `world.physics.movement`): ``yaw``
0 faces south (+z), 90 west (-x), 180 north (-z), 270 east (+x), and ``pitch`` is + looking down.
Saves written before those conventions are converted on load, so an old save keeps its camera:
one stored the pitch + looking up under ``"pitch"`` alone (a player object now also holds
``"pitch_convention": "down"``, `PITCH_CONVENTION`; one without it has its pitch negated), and
one stored the yaw of the game's mirrored frame of old, 90 facing east (a player object now
also holds ``"yaw_convention": "minecraft"``, `YAW_CONVENTION`; one without it has its yaw
negated, which faces the same way in Minecraft's frame).
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Final

from world.items.inventory import Inventory
from world.validate import WORLD_LIMIT
from world.voxels.layout import DEFAULT_BUILD_HEIGHT

__all__ = [
    "GAME_MODES",
    "PITCH_CONVENTION",
    "SEED_RANGE",
    "YAW_CONVENTION",
    "PlayerState",
    "WorldInfo",
    "random_seed",
]

GAME_MODES: Final = ("survival", "creative")
# A seed is a signed 64-bit integer, as in Minecraft, so every tool can hold it.
SEED_RANGE: Final = (-(2**63), 2**63)
# The metadata key and value marking a pitch stored + down; a player object without it is older.
PITCH_CONVENTION: Final = ("pitch_convention", "down")
# The same for a yaw stored as Minecraft's (0 south, 90 west); one without it faced 90 east.
YAW_CONVENTION: Final = ("yaw_convention", "minecraft")


def _finite(value: object, name: str, limit: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond float's range (math.isfinite would raise it)
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if abs(number) > limit:
        raise ValueError(f"{name} is outside the world (|{name}| <= {limit:g}), got {value!r}")
    return number


def _old_negated(angle: Any, *, old: bool) -> Any:
    """A stored angle in today's convention: an old save's negated (a pitch stored + up, a yaw
    of the mirrored frame), anything else as it is (checked by `PlayerState`)."""
    if old and isinstance(angle, int | float) and not isinstance(angle, bool):
        return -angle
    return angle


@dataclass(frozen=True)
class PlayerState:
    """The player part of a save: where the player is, where they look, what they hold.

    Parameters
    ----------
    position : (float, float, float)
        Feet position in world coordinates, within ``±WORLD_LIMIT`` (`world.validate`).
    yaw : float
        Degrees about the vertical axis, Minecraft's (module notes).
    pitch : float
        Degrees down (+) or up (-), within [-90, 90], as Minecraft counts it.
    hotbar : tuple of (str or None)
        Block names per slot (names, not ids, so they survive registration changes); ``None``
        is an empty slot. The game decides what to do with a name it no longer knows.
    selected : int
        Index of the selected hotbar slot.
    flying : bool
        Whether fly mode is on.
    inventory : tuple or None
        Every inventory slot, hotbar first (`world.items.inventory.Inventory.to_data`: ``(item,
        count)``, ``(item, count, wear)`` for a worn tool, or ``None`` per slot); ``None`` in
        saves written before the inventory, whose `hotbar` names are then the player's blocks.
    """

    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    yaw: float = 0.0
    pitch: float = 0.0
    hotbar: tuple[str | None, ...] = ()
    selected: int = 0
    flying: bool = False
    inventory: tuple[tuple[str | int, ...] | None, ...] | None = None

    def __post_init__(self) -> None:
        position = tuple(self.position)
        if len(position) != 3:
            raise ValueError(f"position must hold 3 numbers, got {self.position!r}")
        xyz = tuple(_finite(v, "position", WORLD_LIMIT) for v in position)
        object.__setattr__(self, "position", xyz)
        object.__setattr__(self, "yaw", _finite(self.yaw, "yaw"))
        pitch = _finite(self.pitch, "pitch")
        if not -90.0 <= pitch <= 90.0:
            raise ValueError(f"pitch must be within [-90, 90] degrees, got {pitch!r}")
        object.__setattr__(self, "pitch", pitch)
        hotbar = tuple(self.hotbar)
        for slot in hotbar:
            if slot is not None and not (isinstance(slot, str) and slot):
                raise ValueError(f"hotbar slots must be block names or None, got {slot!r}")
        object.__setattr__(self, "hotbar", hotbar)
        selected = self.selected
        if isinstance(selected, bool) or not isinstance(selected, int):
            raise ValueError(f"selected must be a slot index, got {selected!r}")
        if not 0 <= selected < max(len(hotbar), 1):
            raise ValueError(
                f"selected must be a slot of the hotbar of {len(hotbar)}, got {selected}"
            )
        if not isinstance(self.flying, bool):
            raise ValueError(f"flying must be a bool, got {self.flying!r}")
        if self.inventory is not None:
            data = [None if s is None else list(s) for s in self.inventory]
            stacks = Inventory.from_data(data).to_data()  # checks every slot, naming a bad one
            object.__setattr__(
                self, "inventory", tuple(None if s is None else tuple(s) for s in stacks)
            )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object stored under the ``player`` metadata key."""
        return {
            "position": list(self.position),
            "yaw": self.yaw,
            "pitch": self.pitch,
            PITCH_CONVENTION[0]: PITCH_CONVENTION[1],
            YAW_CONVENTION[0]: YAW_CONVENTION[1],
            "hotbar": list(self.hotbar),
            "selected": self.selected,
            "flying": self.flying,
            **(
                {}
                if self.inventory is None
                else {"inventory": [None if s is None else list(s) for s in self.inventory]}
            ),
        }

    @classmethod
    def from_dict(cls, data: object) -> PlayerState:
        """Rebuild from `to_dict` output (or an older save's); ``ValueError`` for anything else.

        A player object without ``"pitch_convention"`` was saved with the pitch + up: its pitch
        is negated; one without ``"yaw_convention"`` with the yaw of the mirrored frame of old:
        its yaw is negated (module notes).
        """
        if not isinstance(data, dict):
            raise ValueError(f"player must be a JSON object, got {type(data).__name__}")
        marker, down = PITCH_CONVENTION
        old = marker not in data
        if not old and data[marker] != down:
            raise ValueError(f"player {marker} must be {down!r}, got {data[marker]!r}")
        yaw_marker, minecraft = YAW_CONVENTION
        mirrored = yaw_marker not in data
        if not mirrored and data[yaw_marker] != minecraft:
            raise ValueError(f"player {yaw_marker} must be {minecraft!r}, got {data[yaw_marker]!r}")
        unknown = set(data) - set(cls.__dataclass_fields__) - {marker, yaw_marker}
        if unknown:
            raise ValueError(f"player has unknown fields {sorted(unknown)}")
        for key in ("position", "hotbar"):
            if key in data and not isinstance(data[key], list):
                raise ValueError(f"player {key} must be a JSON array, got {data[key]!r}")
        try:
            return cls(
                position=tuple(data.get("position", (0.0, 0.0, 0.0))),
                yaw=_old_negated(data.get("yaw", 0.0), old=mirrored),
                pitch=_old_negated(data.get("pitch", 0.0), old=old),
                hotbar=tuple(data.get("hotbar", ())),
                selected=data.get("selected", 0),
                flying=data.get("flying", False),
                inventory=_inventory(data.get("inventory")),
            )
        except TypeError as exc:
            raise ValueError(f"player: {exc}") from None


def _inventory(data: object) -> tuple[tuple[str | int, ...] | None, ...] | None:
    if data is None:
        return None
    if not isinstance(data, list):
        raise ValueError(f"player inventory must be a JSON array, got {data!r}")
    slots = Inventory.from_data(data).to_data()
    return tuple(None if s is None else tuple(s) for s in slots)


@dataclass(frozen=True)
class WorldInfo:
    """World-level metadata of a save.

    Parameters
    ----------
    name : str
        Shown in the world list.
    seed : int
        Signed 64-bit seed of the generator.
    generator : str or None
        Name of the generator that makes chunks never saved (``None``: they are air).
    build_height : (int, int)
        Players may place blocks at ``low <= wy < high``.
    game_mode : str
        ``"survival"`` or ``"creative"``.
    created, last_played : float
        Unix times in seconds.
    """

    name: str
    seed: int
    generator: str | None
    build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT
    game_mode: str = "survival"
    created: float = field(default_factory=time.time)
    last_played: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string, got {self.name!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ValueError(f"seed must be an integer, got {self.seed!r}")
        if not SEED_RANGE[0] <= self.seed < SEED_RANGE[1]:
            raise ValueError(f"seed must fit in a signed 64-bit integer, got {self.seed}")
        if self.generator is not None and not (isinstance(self.generator, str) and self.generator):
            raise ValueError(f"generator must be a generator name or None, got {self.generator!r}")
        low_high = tuple(self.build_height)
        if (
            len(low_high) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in low_high)
            or not -WORLD_LIMIT <= low_high[0] < low_high[1] <= WORLD_LIMIT
        ):
            raise ValueError(
                f"build_height must be (low, high) integers, low < high, within "
                f"±{WORLD_LIMIT}, got {low_high}"
            )
        object.__setattr__(self, "build_height", low_high)
        if self.game_mode not in GAME_MODES:
            raise ValueError(f"game_mode must be one of {GAME_MODES}, got {self.game_mode!r}")
        object.__setattr__(self, "created", _finite(self.created, "created"))
        object.__setattr__(self, "last_played", _finite(self.last_played, "last_played"))


def random_seed() -> int:
    """A fresh signed 64-bit seed."""
    return secrets.randbelow(SEED_RANGE[1] - SEED_RANGE[0]) + SEED_RANGE[0]
