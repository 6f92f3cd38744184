"""Block types and the registry that maps block names to integer ids.

Blocks are named ``"mod:name"`` (``"base:stone"``). A block may declare *properties* with finite
value sets (``facing``, ``half``, ``open``, ``age``); every combination is a *state* with its own
``uint16`` id (Minecraft's flat palette), so a chunk stays one flat array and every per-block
table is a numpy array indexed by state id (``registry.solid[ids]``): kernels work on whole
chunks. A block without properties has one state. Id 0 is always ``air``. Ids are internal and
may differ between runs: saves store each id as its *state key*, ``"base:oak_slab[half=top]"``
(the bare name for a block without properties, as saves written before states did).

States are numbered per block in declaration order with the last property varying fastest, from
the block's first state id; `BlockRegistry.id` gives a block's default state (each property's
first value unless the block's ``defaults`` say otherwise).

Each state has a selection and a collision shape (`world.blocks.shapes`; the full cube is the fast
path) and named tiles: ``face_tiles[id]`` per face (+x, -x, +y, -y, +z, -z), the atlas's own
tiles (`world.blocks.atlas.ATLAS_TILES`) at fixed indices, other names numbered after them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from world.blocks.abm import Abm
from world.blocks.atlas import ATLAS_TILES
from world.blocks.block_type import (
    AIR_TYPE,
    DRAW_BOXES,
    DRAW_CUBE,
    DRAW_KINDS,
    DRAW_LIQUID,
    DRAW_NONE,
    DRAW_PLANT,
    MAX_BLOCKS,
    BlockType,
    PropValue,
    changed_values,
    check_light,
    parse_state_key,
    state_key_of,
    value_text,
)
from world.blocks.entity_type import BUILTIN_ENTITIES, EntityType
from world.blocks.liquid import SOURCE, LiquidKind, LiquidTables
from world.blocks.ores import Ore
from world.blocks.shapes import COLLISION_TOP, FULL, Shape, check_shape
from world.blocks.sounds import SoundGroup
from world.items.item import Item
from world.items.recipes import Recipe
from world.tiles import check_tiles

__all__ = [
    "BlockRegistry",
]


_T = TypeVar("_T", bound=np.generic)


def _frozen(arr: NDArray[_T]) -> NDArray[_T]:
    arr.flags.writeable = False
    return arr


@dataclass(frozen=True)
class _State:
    """What the registry knows of one state id."""

    block: int  # index into the registry's block list
    values: tuple[PropValue, ...]
    props: Mapping[str, PropValue]
    key: str
    selection: Shape
    collision: Shape
    light: int
    tiles: tuple[str, ...]
    draw: int


class BlockRegistry:
    """Names <-> state ids, each block's `BlockType`, and per-state numpy lookup arrays.

    The arrays (``solid`` (has a collision box), ``pointable``, ``replaceable``,
    ``transparent``, ``hardness``, ``light``, ``liquid`` (in the ``"liquid"`` group: a flowing
    liquid's block, `world.blocks.liquid`, is in it), ``liquids`` (the flowing liquids' tables,
    `world.blocks.liquid.LiquidTables`), ``plant``
    (drawn as crossed quads), ``draw`` (a ``DRAW_*`` kind), ``full_cube`` (its selection shape
    is the unit cube), ``collision_full`` (its collision shape is the unit cube), ``random_ticks``
    (its block has ``on_random_tick``), ``face_tiles``, ``block_index`` (the number of the
    block the state belongs to, in registration order: equal for two states of one block))
    are read-only, indexed by state id, and rebuilt after each registration. ``pointable_list``
    is the same table as a tuple, for the scalar raycast loop where a tuple index is faster than
    a numpy one; ``selection_boxes`` and ``collision_boxes`` hold each state's shape as a tuple
    of `world.blocks.shapes.Box` (``selection_boxes[id]`` is ``None`` for the full cube: the fast
    path); ``box_table`` packs them, zero-padded, as (states, most boxes, 6) for `raycast_many`.
    ``collision_reach`` is how far any state's collision boxes reach from its voxel's corner,
    ``(x0, y0, z0, x1, y1, z1)``: the least of every box's lower bounds and the most of its
    upper ones, taken with the unit cube's (``(0, 0, 0, 1, 1, 1)`` while no shape sticks out of
    its voxel; a fence makes ``y1`` 1.5): the voxels whose boxes may meet a region are those
    within it. `pointable_for` is ``pointable`` as a held item's ray sees it (an empty bucket's
    stops at liquid sources too).
    """

    solid: NDArray[np.bool_]
    pointable: NDArray[np.bool_]
    replaceable: NDArray[np.bool_]
    transparent: NDArray[np.bool_]
    hardness: NDArray[np.float64]
    light: NDArray[np.uint8]
    liquid: NDArray[np.bool_]
    liquids: LiquidTables
    plant: NDArray[np.bool_]
    draw: NDArray[np.uint8]
    full_cube: NDArray[np.bool_]
    collision_full: NDArray[np.bool_]
    random_ticks: NDArray[np.bool_]
    face_tiles: NDArray[np.int32]
    block_index: NDArray[np.int32]
    pointable_list: tuple[bool, ...]
    _pointed: dict[str, NDArray[np.bool_]]
    selection_boxes: tuple[Shape | None, ...]
    collision_boxes: tuple[Shape, ...]
    collision_reach: tuple[float, float, float, float, float, float]

    def __init__(self) -> None:
        self._types: list[BlockType] = []
        self._states: list[_State] = []
        self._first: dict[str, int] = {}  # block name -> its first state id
        self._ids: dict[str, int] = {}  # block name -> its default state id
        self._by_values: list[dict[tuple[PropValue, ...], int]] = []  # per block
        self.ores: tuple[Ore, ...] = ()  # `world.blocks.ores`: placed in new terrain, in this order
        self.abms: tuple[Abm, ...] = ()  # `world.blocks.abm`: mods' random-tick actions
        self.items: dict[str, Item] = {}  # `world.items.item`: items that are not blocks, by name
        # `world.blocks.entity_type`: kinds of entity by name, the engine's own first.
        self.entities: dict[str, EntityType] = {kind.name: kind for kind in BUILTIN_ENTITIES}
        self.recipes: tuple[Recipe, ...] = ()  # `world.items.recipes`, in registration order
        # The atlas's tiles keep their atlas cells; other tile names are numbered after them.
        self.tile_names: list[str] = list(ATLAS_TILES)
        self._tile_ids: dict[str, int] = {name: i for i, name in enumerate(ATLAS_TILES)}
        self.register(AIR_TYPE)

    def register(self, block: BlockType) -> int:
        """Add a block type and its states; return its default state id.

        Raises
        ------
        ValueError
            If the name is taken, the registry is full, or a state's shape, light or tiles (when
            given as functions of the properties) are invalid; the message names the block.
        """
        if not isinstance(block, BlockType):
            raise TypeError(f"block must be a BlockType, got {type(block).__name__}")
        if block.name in self._ids or block.name in self.items:
            raise ValueError(f"block {block.name!r} is already registered")
        first = len(self._states)
        if first + block.state_count > MAX_BLOCKS:
            raise ValueError(f"cannot register {block.name!r}: all {MAX_BLOCKS} ids are used")
        index = len(self._types)
        states = [self._make_state(block, index, props) for props in block.states()]
        for tile in (tile for state in states for tile in state.tiles):
            self._add_tile(tile)
        self._types.append(block)
        self._states.extend(states)
        self._first[block.name] = first
        self._by_values.append({s.values: first + i for i, s in enumerate(states)})
        defaults = tuple(
            dict(block.defaults).get(prop, values[0]) for prop, values in block.properties
        )
        self._ids[block.name] = self._by_values[index][defaults]
        self._rebuild()
        return self._ids[block.name]

    def register_item(self, item: Item) -> None:
        """Add a non-block item (`world.items.item.Item`); its name may not be a block's or
        item's."""
        if not isinstance(item, Item):
            raise TypeError(f"item must be an Item, got {type(item).__name__}")
        if item.name in self._ids or item.name in self.items:
            raise ValueError(f"item {item.name!r}: the name is already registered")
        self.items[item.name] = item
        self._add_tile(item.image)

    def _add_tile(self, tile: str) -> None:
        if tile not in self._tile_ids:  # a new tile name: the next atlas cell
            self._tile_ids[tile] = len(self.tile_names)
            self.tile_names.append(tile)

    def register_entity(self, kind: EntityType) -> None:
        """Add a kind of entity (`world.blocks.entity_type.EntityType`); its name must be new."""
        if not isinstance(kind, EntityType):
            raise TypeError(f"kind must be an EntityType, got {type(kind).__name__}")
        if kind.name in self.entities:
            raise ValueError(f"entity {kind.name!r}: the name is already registered")
        self.entities[kind.name] = kind
        for tile in (*kind.tiles, *(tile for _, tile in kind.model)):
            self._add_tile(tile)

    def register_abm(self, abm: Abm) -> None:
        """Add a mod's random-tick action on some blocks (`world.blocks.abm.Abm`)."""
        self.abms = (*self.abms, abm if isinstance(abm, Abm) else Abm(*abm))
        self._rebuild()

    def abms_of(self, state: int) -> tuple[Abm, ...]:  # the ABMs acting on a state's block
        return self._abms_by_block[self._states[state].block]

    def register_ore(self, ore: Ore) -> None:
        """Add an ore to place in new terrain (`world.blocks.ores.Ore`; checked when terrain is
        built)."""
        if not isinstance(ore, Ore):
            raise TypeError(f"ore must be an Ore, got {type(ore).__name__}")
        self.ores = (*self.ores, ore)

    @staticmethod
    def _make_state(block: BlockType, index: int, props: dict[str, PropValue]) -> _State:
        name = block.name
        where = name if not props else f"{name} in state {state_key_of(name, props)}"

        def evaluate(what: str, value: Any) -> Any:
            if not callable(value):
                return value
            try:
                return value(props)
            except Exception as exc:  # a mod's function failed: name the block and the state
                raise ValueError(f"{what} function of {where!r} raised {exc!r}") from exc

        selection = check_shape(where, "selection", evaluate("selection", block.selection))
        if block.collision is None:
            collision = selection if block.solid else ()
        else:
            collision = check_shape(
                where, "collision", evaluate("collision", block.collision), top=COLLISION_TOP
            )
        light = check_light(where, evaluate("light", block.light))
        tiles = check_tiles(where, evaluate("tiles", block.tiles))
        if block.draw != "auto":
            draw = DRAW_KINDS[block.draw]
        elif "liquid" in block.groups:
            draw = DRAW_LIQUID
        elif selection != FULL and block.pointable:
            draw = DRAW_BOXES
        elif not block.solid and block.transparent:
            draw = DRAW_PLANT
        else:
            draw = DRAW_CUBE
        return _State(
            block=index,
            values=tuple(props.values()),
            props=props,
            key=state_key_of(name, props),
            selection=selection,
            collision=collision,
            light=light,
            tiles=tiles,
            draw=draw,
        )

    def _rebuild(self) -> None:
        states = self._states
        types = [self._types[s.block] for s in states]

        def table(values: list[Any], dtype: type) -> NDArray[Any]:
            return _frozen(np.array(values, dtype=dtype))

        self.block_index = table([s.block for s in states], np.int32)
        self.solid = table([bool(s.collision) for s in states], np.bool_)
        self.pointable = table(
            [t.pointable and bool(s.selection) for t, s in zip(types, states, strict=True)],
            np.bool_,
        )
        self.replaceable = table([t.replaceable for t in types], np.bool_)
        self.transparent = table([t.transparent for t in types], np.bool_)
        self.hardness = table([float(t.hardness) for t in types], np.float64)
        self.light = table([s.light for s in states], np.uint8)
        self.liquid = table(["liquid" in t.groups for t in types], np.bool_)
        self.liquids = self._liquid_tables(types)
        self.draw = table([s.draw for s in states], np.uint8)
        self.plant = _frozen(self.draw == DRAW_PLANT)
        self.full_cube = table([s.selection == FULL for s in states], np.bool_)
        self.collision_full = table([s.collision == FULL for s in states], np.bool_)
        self._abms_by_block = [
            tuple(a for a in self.abms if a.matches(t.name, t.groups)) for t in self._types
        ]
        self.random_ticks = table(
            [
                t.on_random_tick is not None or bool(self._abms_by_block[s.block])
                for t, s in zip(types, states, strict=True)
            ],
            np.bool_,
        )
        tiles = [[self._tile_ids[tile] for tile in s.tiles] for s in states]
        self.face_tiles = table(tiles, np.int32)
        self.pointable_list = tuple(bool(p) for p in self.pointable)
        liquid_states = self.liquids.kind >= 0
        self._pointed = {
            "blocks": self.pointable,
            "liquid_sources": _frozen(self.pointable | (liquid_states & self.liquids.source)),
            "liquids": _frozen(self.pointable | liquid_states),
        }
        self.selection_boxes = tuple(None if s.selection == FULL else s.selection for s in states)
        self.collision_boxes = tuple(s.collision for s in states)
        boxes = [(0.0, 0.0, 0.0, 1.0, 1.0, 1.0), *(box for s in states for box in s.collision)]
        low = [min(box[i] for box in boxes) for i in range(3)]
        high = [max(box[i] for box in boxes) for i in range(3, 6)]
        self.collision_reach = (low[0], low[1], low[2], high[0], high[1], high[2])
        n = max(1, *(len(s.selection) for s in states))
        self.box_table = table([[*s.selection, *[(0.0,) * 6] * n][:n] for s in states], float)

    def pointable_for(self, item: str | None) -> NDArray[np.bool_]:
        """Which states the ray of a player holding ``item`` stops at, by state id (read-only):
        ``pointable``, widened by a held `world.items.item.Item`'s ``points_at`` to liquid
        sources (level `world.blocks.liquid.SOURCE`, not falling) or to every liquid voxel.
        A block's name, an unknown name or None (an empty hand) gives ``pointable``; for
        `world.ray.raycast`'s ``hits``.

        Raises
        ------
        ValueError
            When ``item`` is neither a str nor None.
        """
        if item is not None and not isinstance(item, str):
            raise ValueError(f"item must be an item's name or None, got {item!r}")
        held = None if item is None else self.items.get(item)
        return self._pointed["blocks" if held is None else held.points_at]

    def _liquid_tables(self, types: list[BlockType]) -> LiquidTables:
        """Each state's liquid (`world.blocks.liquid.LiquidTables`)."""
        kinds: list[LiquidKind] = []
        kind = np.full(len(self._states), -1, dtype=np.int16)
        level = np.zeros(len(self._states), dtype=np.uint8)
        falling = np.zeros(len(self._states), dtype=np.bool_)
        for block in self._types:
            if block.liquid is None:
                continue
            first = self._first[block.name]
            states = np.zeros((SOURCE + 1, 2), dtype=np.uint16)
            for offset in range(block.state_count):
                props = self._states[first + offset].props
                amount, fell = int(props["level"]), bool(props["falling"])
                states[amount, int(fell)] = first + offset
                kind[first + offset] = len(kinds)
                level[first + offset] = amount
                falling[first + offset] = fell
            kinds.append(LiquidKind(block.name, block.liquid, _frozen(states)))
        floodable = [
            t.floodable
            if t.floodable is not None
            else (
                not s.collision
                and s.draw != DRAW_NONE
                and "liquid" not in t.groups
                and not t.containers
                and t.label is None
            )
            for t, s in zip(types, self._states, strict=True)
        ]
        return LiquidTables(
            tuple(kinds),
            _frozen(kind),
            _frozen(level),
            _frozen(falling),
            _frozen(np.array(floodable, dtype=np.bool_)),
        )

    def id(self, name: str) -> int:
        """The default state id of a block name, or the id of a state key
        (``"base:stairs[facing=east]"``: unnamed properties keep their defaults); ``ValueError``
        naming it when unknown."""
        if isinstance(name, str) and name in self._ids:
            return self._ids[name]
        if isinstance(name, str) and "[" in name:
            block_id, dropped = self.lookup_key(name)
            if block_id is not None and not dropped:
                return block_id
            if block_id is not None:
                raise ValueError(f"state key {name!r}: {', '.join(dropped)} do not match the block")
        raise ValueError(f"unknown block name {name!r}")

    def state_id(self, name: str, **props: PropValue) -> int:
        """The id of block `name` in the state with `props` (others at their defaults)."""
        return self.with_props(self._default_of(name), **props)

    def _default_of(self, name: str) -> int:
        try:
            return self._ids[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown block name {name!r}") from None

    def props(self, block_id: int) -> Mapping[str, PropValue]:
        """The property values of a state id (read-only; empty for a block without properties)."""
        return self._states[self.resolve(block_id)].props

    def with_props(self, block_id: int, **changes: PropValue) -> int:
        """The id of the same block in the state with `changes` applied.

        Raises
        ------
        ValueError
            Naming the property or value the block does not have.
        """
        state = self._states[self.resolve(block_id)]
        block = self._types[state.block]
        if not changes:
            return self.resolve(block_id)
        return self._by_values[state.block][changed_values(block, state.values, changes)]

    def block_of(self, block_id: int) -> BlockType:
        """The block type a state id belongs to."""
        return self._types[self._states[self.resolve(block_id)].block]

    def sounds_of(self, block_id: int) -> SoundGroup | None:
        """What a state sounds like (its block's ``sounds``, `world.blocks.sounds.SoundGroup`), or
        None for a silent block (air, and any block defined without sounds): the game's dig,
        footstep and splash sounds come from here (``registry.sounds_of(state).event("step",
        pos)``); ``ValueError`` for an unknown id."""
        return self._types[self._states[self.resolve(block_id)].block].sounds

    def state_key(self, block_id: int) -> str:
        """A state as saves store it: ``"base:oak_stairs[facing=east,half=bottom]"``, or the
        bare name of a block without properties (a placeholder gives back its saved key)."""
        state = self._states[self.resolve(block_id)]
        return self._types[state.block].saved_name or state.key

    @property
    def state_keys(self) -> list[str]:
        """`state_key` of every id, in id order: the table a save maps ids through."""
        return [self._types[s.block].saved_name or s.key for s in self._states]

    def lookup_key(self, key: str) -> tuple[int | None, list[str]]:
        """A saved state key as an id of this registry, leniently, with what did not match.

        Returns ``(None, [])`` when the block is not registered. Properties the block no longer
        has, or values it no longer allows, are left at their defaults and listed in the second
        item (``"facing=up"``), so a save outlives a mod that changed its properties.
        """
        try:
            name, props = parse_state_key(key)
        except ValueError:
            return None, []
        if name not in self._ids:
            return None, []
        block_id = self._ids[name]
        block = self._types[self._states[block_id].block]
        declared = dict(block.properties)
        dropped: list[str] = []
        for prop, text in props.items():
            matches = [v for v in declared.get(prop, ()) if value_text(v) == text]
            if matches:
                block_id = self.with_props(block_id, **{prop: matches[0]})
            else:
                dropped.append(f"{prop}={text}")
        return block_id, dropped

    def name(self, block_id: int) -> str:
        """The block name of a state id."""
        return self[block_id].name

    def resolve(self, block: str | int) -> int:
        """A block given by name, state key or id, as a checked state id."""
        if isinstance(block, str):
            return self.id(block)
        if isinstance(block, bool) or not isinstance(block, int | np.integer):
            raise ValueError(f"block must be a block name or id, got {block!r}")
        block_id = int(block)
        if not 0 <= block_id < len(self._states):
            raise ValueError(f"unknown block id {block_id}")
        return block_id

    def __getitem__(self, block: str | int) -> BlockType:
        return self._types[self._states[self.resolve(block)].block]

    def __contains__(self, block: object) -> bool:
        if isinstance(block, str):
            if block in self._ids:
                return True
            try:
                self.id(block)
            except ValueError:
                return False
            return True
        if isinstance(block, int | np.integer) and not isinstance(block, bool):
            return 0 <= int(block) < len(self._states)
        return False

    def __len__(self) -> int:
        """The number of state ids (every block's states), not of block types."""
        return len(self._states)

    @property
    def blocks(self) -> list[BlockType]:
        """Every registered block type, in registration order (air first)."""
        return list(self._types)

    def __iter__(self) -> Iterator[BlockType]:
        """Each registered block type once, in registration order (air first)."""
        return iter(self._types)

    @property
    def names(self) -> list[str]:
        """Block names in registration order (one per block, not per state)."""
        return [t.name for t in self._types]

    def first_state(self, name: str) -> int:
        """The lowest state id of a block; its states are the next `BlockType.state_count` ids."""
        try:
            return self._first[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown block name {name!r}") from None

    def tile_id(self, tile: str) -> int:
        """The atlas index of a tile name."""
        try:
            return self._tile_ids[tile]
        except KeyError:
            raise ValueError(f"unknown tile name {tile!r}") from None
