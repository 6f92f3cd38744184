"""Block types and the registry that maps block names to integer ids.

Blocks are named ``"mod:name"`` (``"base:stone"``); the integer id is an internal lookup index
into per-block numpy arrays (``registry.solid[ids]``) so kernels work on whole chunks. Id 0 is
always ``air``. Saves store the name→id table, so ids may differ between runs.

Texture tiles are named too (``"base:grass_top"``); ``face_tiles[id]`` gives the atlas tile index
of each face in the order +x, -x, +y, -y, +z, -z. The atlas's own tiles (`world.atlas.ATLAS_TILES`)
have fixed indices; any other tile name is numbered after them and shows the "missing" checker,
as tile 0 (``"base:missing"``) does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from world.atlas import ATLAS_TILES

__all__ = [
    "AIR",
    "BASE_BLOCKS",
    "MAX_BLOCKS",
    "MISSING_TILE",
    "NAME_PATTERN",
    "BlockRegistry",
    "BlockType",
    "Registers",
    "default_registry",
    "register_base_blocks",
]

AIR = 0
MAX_BLOCKS = 65536  # ids are stored as uint16
NAME_PATTERN = re.compile(r"^[a-z0-9_]+:[a-z0-9_]+$")
MISSING_TILE = "base:missing"


def _expand_tiles(name: str, tiles: tuple[str, ...]) -> tuple[str, ...]:
    """Expand 0, 1, 3 (top, bottom, side) or 6 tile names to one per face (+x,-x,+y,-y,+z,-z)."""
    if len(tiles) == 0:
        return (MISSING_TILE,) * 6
    if len(tiles) == 1:
        return tiles * 6
    if len(tiles) == 3:
        top, bottom, side = tiles
        return (side, side, top, bottom, side, side)
    if len(tiles) == 6:
        return tiles
    raise ValueError(
        f"tiles of {name!r}: give 1, 3 (top, bottom, side) or 6 names, not {len(tiles)}"
    )


@dataclass(frozen=True)
class BlockType:
    """One kind of block: data only, with Minecraft-like defaults.

    Parameters
    ----------
    name : str
        ``"mod:name"``, lower-case letters, digits and underscores (``"air"`` is reserved).
    description : str
        Human-readable name shown in the HUD; defaults to the name's second part.
    solid : bool
        The player collides with it.
    pointable : bool
        A raycast can target it (water is not).
    replaceable : bool
        Placing a block into it overwrites it (air, water, tall grass).
    transparent : bool
        It does not hide its neighbours' faces (glass, leaves, water).
    hardness : float
        Seconds to break by hand; 0 is instant, ``math.inf`` is unbreakable (bedrock).
    tiles : tuple of str
        Atlas tile names: 1 for all faces, 3 as (top, bottom, side), or 6 as (+x,-x,+y,-y,+z,-z).
    light : int
        Light emitted, 0..15 (a lit lamp is 15).
    groups : tuple of str
        Free-form tags mods can test (``"falling"``, ``"explosive"``).
    saved_name : str or None
        For a placeholder block only (a saved block whose mod is missing, `world.storage`): the
        name the save holds, under which the block is saved back. ``None`` for real blocks.
    """

    name: str
    description: str = ""
    solid: bool = True
    pointable: bool = True
    replaceable: bool = False
    transparent: bool = False
    hardness: float = 1.0
    tiles: tuple[str, ...] = ()
    light: int = 0
    groups: tuple[str, ...] = field(default_factory=tuple)
    saved_name: str | None = None

    def __post_init__(self) -> None:
        if self.name != "air" and not NAME_PATTERN.match(self.name):
            raise ValueError(
                f"name {self.name!r}: block names are 'mod:name' in lower-case letters, "
                "digits and underscores"
            )
        if not isinstance(self.hardness, int | float) or math.isnan(self.hardness):
            raise ValueError(f"hardness of {self.name!r} must be a number, got {self.hardness!r}")
        if self.hardness < 0:
            raise ValueError(f"hardness of {self.name!r} must be >= 0, got {self.hardness!r}")
        if (
            isinstance(self.light, bool)
            or not isinstance(self.light, int)
            or not 0 <= self.light <= 15
        ):
            raise ValueError(f"light of {self.name!r} must be an integer 0..15, got {self.light!r}")
        # A bare string would pass "x" in groups as a substring test: insist on a tuple of names.
        if not isinstance(self.groups, tuple) or not all(isinstance(g, str) for g in self.groups):
            raise ValueError(f"groups of {self.name!r} must be a tuple of str, got {self.groups!r}")
        if self.saved_name is not None and not (
            isinstance(self.saved_name, str) and self.saved_name
        ):
            raise ValueError(
                f"saved_name of {self.name!r} must be a non-empty str or None, "
                f"got {self.saved_name!r}"
            )
        for tile in self.tiles:
            if not NAME_PATTERN.match(tile):
                raise ValueError(f"tile {tile!r} of {self.name!r} is not a 'mod:name' tile name")
        object.__setattr__(self, "tiles", _expand_tiles(self.name, tuple(self.tiles)))
        if not self.description:
            object.__setattr__(self, "description", self.name.split(":")[-1].replace("_", " "))

    @property
    def breakable(self) -> bool:
        """False for blocks with infinite hardness (bedrock)."""
        return math.isfinite(self.hardness)


_T = TypeVar("_T", bound=np.generic)


def _frozen(arr: NDArray[_T]) -> NDArray[_T]:
    arr.flags.writeable = False
    return arr


AIR_TYPE = BlockType(
    "air", solid=False, pointable=False, replaceable=True, transparent=True, hardness=0.0
)


class BlockRegistry:
    """Names <-> ids, each id's `BlockType`, and per-block numpy lookup arrays.

    The arrays (``solid``, ``pointable``, ``replaceable``, ``transparent``, ``hardness``,
    ``light``, ``liquid`` (in the ``"liquid"`` group), ``plant`` (drawn as crossed quads: not
    solid, transparent, not liquid), ``face_tiles``) are read-only and rebuilt after each
    registration; index them with a block id or an array of ids. ``pointable_list`` is the same
    table as a tuple, for the scalar raycast loop where a tuple index is faster than a numpy one.
    """

    solid: NDArray[np.bool_]
    pointable: NDArray[np.bool_]
    replaceable: NDArray[np.bool_]
    transparent: NDArray[np.bool_]
    hardness: NDArray[np.float64]
    light: NDArray[np.uint8]
    liquid: NDArray[np.bool_]
    plant: NDArray[np.bool_]
    face_tiles: NDArray[np.int32]
    pointable_list: tuple[bool, ...]

    def __init__(self) -> None:
        self._types: list[BlockType] = []
        self._ids: dict[str, int] = {}
        # The atlas's tiles keep their atlas cells; other tile names are numbered after them.
        self.tile_names: list[str] = list(ATLAS_TILES)
        self._tile_ids: dict[str, int] = {name: i for i, name in enumerate(ATLAS_TILES)}
        self.register(AIR_TYPE)

    def register(self, block: BlockType) -> int:
        """Add a block type and return its new id.

        Raises
        ------
        ValueError
            If the name is taken or the registry is full.
        """
        if not isinstance(block, BlockType):
            raise TypeError(f"block must be a BlockType, got {type(block).__name__}")
        if block.name in self._ids:
            raise ValueError(f"block {block.name!r} is already registered")
        if len(self._types) >= MAX_BLOCKS:
            raise ValueError(f"cannot register {block.name!r}: all {MAX_BLOCKS} ids are used")
        for tile in block.tiles:
            if tile not in self._tile_ids:
                self._tile_ids[tile] = len(self.tile_names)
                self.tile_names.append(tile)
        block_id = len(self._types)
        self._types.append(block)
        self._ids[block.name] = block_id
        self._rebuild()
        return block_id

    def _rebuild(self) -> None:
        types = self._types

        self.solid = _frozen(np.array([t.solid for t in types], dtype=np.bool_))
        self.pointable = _frozen(np.array([t.pointable for t in types], dtype=np.bool_))
        self.replaceable = _frozen(np.array([t.replaceable for t in types], dtype=np.bool_))
        self.transparent = _frozen(np.array([t.transparent for t in types], dtype=np.bool_))
        self.hardness = _frozen(np.array([float(t.hardness) for t in types], dtype=np.float64))
        self.light = _frozen(np.array([t.light for t in types], dtype=np.uint8))
        self.liquid = _frozen(np.array(["liquid" in t.groups for t in types], dtype=np.bool_))
        # Drawn as crossed quads (tall grass): not solid, see-through and not a liquid.
        plant = ~self.solid & self.transparent & ~self.liquid
        plant[AIR] = False
        self.plant = _frozen(plant)
        tiles = [[self._tile_ids[tile] for tile in t.tiles] for t in types]
        self.face_tiles = _frozen(np.array(tiles, dtype=np.int32))
        self.pointable_list = tuple(t.pointable for t in types)

    def id(self, name: str) -> int:
        """The id of a block name; ``ValueError`` naming it when unknown."""
        try:
            return self._ids[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown block name {name!r}") from None

    def name(self, block_id: int) -> str:
        """The name of a block id."""
        return self[block_id].name

    def resolve(self, block: str | int) -> int:
        """A block given by name or id, as a checked id."""
        if isinstance(block, str):
            return self.id(block)
        if isinstance(block, bool) or not isinstance(block, int | np.integer):
            raise ValueError(f"block must be a block name or id, got {block!r}")
        block_id = int(block)
        if not 0 <= block_id < len(self._types):
            raise ValueError(f"unknown block id {block_id}")
        return block_id

    def __getitem__(self, block: str | int) -> BlockType:
        return self._types[self.resolve(block)]

    def __contains__(self, block: object) -> bool:
        if isinstance(block, str):
            return block in self._ids
        if isinstance(block, int | np.integer) and not isinstance(block, bool):
            return 0 <= int(block) < len(self._types)
        return False

    def __len__(self) -> int:
        return len(self._types)

    def __iter__(self) -> Iterator[BlockType]:
        return iter(self._types)

    @property
    def names(self) -> list[str]:
        """Block names in id order: the name→id table a save stores."""
        return [t.name for t in self._types]

    def tile_id(self, tile: str) -> int:
        """The atlas index of a tile name."""
        try:
            return self._tile_ids[tile]
        except KeyError:
            raise ValueError(f"unknown tile name {tile!r}") from None


class Registers(Protocol):
    """Anything blocks are registered with: a `BlockRegistry` or a mod's
    `world.registration.BlockRegistrar`."""

    def register(self, block: BlockType) -> int: ...


def register_base_blocks(registry: Registers) -> None:
    """Register the base game's blocks, stone first so that ``base:stone`` is id 1.

    The one place the base blocks are added: `default_registry` calls it on a bare registry and
    the base game's plugin (`world.registration.BaseGame`) on its registrar.
    """
    for block in BASE_BLOCKS:
        registry.register(block)


BASE_BLOCKS: tuple[BlockType, ...] = (
    BlockType("base:stone", hardness=1.5, tiles=("base:stone",)),
    BlockType("base:dirt", hardness=0.5, tiles=("base:dirt",)),
    BlockType(
        "base:grass",
        description="grass block",
        hardness=0.6,
        tiles=("base:grass_top", "base:dirt", "base:grass_side"),
    ),
    BlockType("base:sand", hardness=0.5, tiles=("base:sand",), groups=("falling",)),
    BlockType("base:gravel", hardness=0.6, tiles=("base:gravel",), groups=("falling",)),
    BlockType("base:log", hardness=2.0, tiles=("base:log_top", "base:log_top", "base:log_side")),
    BlockType("base:planks", hardness=2.0, tiles=("base:planks",)),
    BlockType("base:leaves", hardness=0.2, transparent=True, tiles=("base:leaves",)),
    BlockType("base:glass", hardness=0.3, transparent=True, tiles=("base:glass",)),
    BlockType(
        "base:water",
        solid=False,
        pointable=False,
        replaceable=True,
        transparent=True,
        hardness=math.inf,
        tiles=("base:water",),
        groups=("liquid",),
    ),
    BlockType("base:bedrock", hardness=math.inf, tiles=("base:bedrock",)),
    BlockType(
        "base:tall_grass",
        description="tall grass",
        solid=False,
        replaceable=True,
        transparent=True,
        hardness=0.0,
        tiles=("base:tall_grass",),
    ),
    BlockType("base:lamp", hardness=0.3, tiles=("base:lamp",)),
)


def default_registry() -> BlockRegistry:
    """A new registry holding air and the base game's blocks."""
    registry = BlockRegistry()
    register_base_blocks(registry)
    return registry
