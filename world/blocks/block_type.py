"""`BlockType`: what one kind of block is, its state properties and their checks.

A block may declare *properties* with finite value sets (``facing``, ``half``, ``open``,
``age``); every combination is a *state* (`world.blocks.registry.BlockRegistry` gives each its own
id). Its shapes, light and tiles may be functions of a state's properties; the registry evaluates
them once per state at registration and checks the results (`world.blocks.shapes.check_shape`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from world.blocks.labels import Label
from world.blocks.liquid import LIQUID_PROPERTIES, Liquid
from world.blocks.shapes import COLLISION_TOP, FULL, Shape, check_shape
from world.blocks.sounds import SoundGroup
from world.items.inventory import Drop
from world.tiles import NAME_PATTERN, check_tiles

__all__ = [
    "AIR",
    "AIR_TYPE",
    "DRAW_BOXES",
    "DRAW_CUBE",
    "DRAW_KINDS",
    "DRAW_LIQUID",
    "DRAW_NONE",
    "DRAW_PLANT",
    "MAX_BLOCKS",
    "MAX_STATES_PER_BLOCK",
    "NO_TOOL_SLOWNESS",
    "PROPERTY_PATTERN",
    "BlockType",
    "PropValue",
    "Props",
    "Registers",
    "changed_values",
    "check_light",
    "parse_state_key",
    "same_value",
    "state_key_of",
    "value_text",
]

AIR = 0
MAX_BLOCKS = 65536  # ids are stored as uint16
MAX_STATES_PER_BLOCK = 4096
# How many times longer a block that needs a tool takes by hand (Minecraft: a hardness's 1/100
# of progress a tick without the correct tool against 1/30 with it).
NO_TOOL_SLOWNESS = 10.0 / 3.0
PROPERTY_PATTERN = re.compile(r"^[a-z_][a-z0-9_]*$")
_VALUE_PATTERN = re.compile(r"^[a-z0-9_]+$")


PropValue = str | int | bool
Props = Mapping[str, PropValue]
"""A state's property values by property name (``{"facing": "north", "open": False}``)."""

# How the mesher draws a state (``registry.draw``).
DRAW_NONE: Final = 0  # nothing (air)
DRAW_CUBE: Final = 1  # a unit cube, faces culled against neighbours
DRAW_BOXES: Final = 2  # the selection boxes (slabs, stairs, fences, torches, doors)
DRAW_PLANT: Final = 3  # two crossed quads (tall grass)
DRAW_LIQUID: Final = 4  # a cube drawn as a liquid surface (water)
DRAW_KINDS: Final = {
    "none": DRAW_NONE,
    "cube": DRAW_CUBE,
    "boxes": DRAW_BOXES,
    "plant": DRAW_PLANT,
    "liquid": DRAW_LIQUID,
}


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
        The player collides with it (with its collision shape; see `collision`).
    pointable : bool
        A raycast can target it (water is not).
    replaceable : bool
        Placing a block into it overwrites it (air, water, tall grass).
    transparent : bool
        It does not hide its neighbours' faces (glass, leaves, water).
    hardness : float
        Seconds to break by hand; 0 is instant, ``math.inf`` is unbreakable (bedrock).
    needs_tool : bool
        Minecraft's "requires the correct tool for drops": broken without a tool that digs one
        of its `groups` (`world.items.item.Item.digs`: a pickaxe for ``cracky`` stone) it gives
        nothing of its `drops` and takes `NO_TOOL_SLOWNESS` times its hardness (stone by hand:
        5 s, and no cobblestone). A block with a `get_drops` decides its drops itself (a
        machine's contents are never lost). False by default.
    tiles : tuple of str, a mapping of face to str, or a function of the properties
        Atlas tile names: 1 for all faces, 3 as (top, bottom, side), or 6 as (+x,-x,+y,-y,+z,-z);
        or Luanti-style ``{"top": ..., "side": ..., "north": ...}``. A mod's own PNG tiles may
        be named by file, ``"mymod_ruby_top.png"`` (see `world.mods.textures`).
    light : int, or a function of the state's properties returning one
        Light emitted, 0..15 (a lit lamp is 15).
    groups : tuple of str
        Free-form tags mods can test (``"falling"``, ``"explosive"``).
    saved_name : str or None
        For a placeholder block only (a saved block whose mod is missing, `world.save.storage`): the
        state key the save holds, under which the block is saved back. ``None`` for real blocks.
    properties : mapping of str to a sequence of values
        State properties and their values (str, int or bool), e.g.
        ``{"facing": ("north", "east", "south", "west"), "open": (False, True)}``. Every
        combination is a state with its own id. Stored as a tuple of ``(name, values)`` pairs.
    defaults : mapping of str to a value
        The default state's values; a property not named here defaults to its first value.
    selection : tuple of Box, or a function of the state's properties returning one
        What the raycast targets and the outline draws, boxes within [0, 1]³
        (`world.blocks.shapes`). The full cube by default; ``()`` for nothing to target.
    collision : tuple of Box, a function of the properties, or None
        What the body collides with; boxes may reach y = 1.5. ``None``: the selection shape
        when `solid`, else no collision.
    draw : str
        How the mesher draws it: ``"auto"`` (default: liquids as liquid, a state with a non-cube
        selection shape as its boxes, a non-solid see-through block as a plant, else a cube),
        or one of ``"cube"``, ``"boxes"``, ``"plant"``, ``"liquid"``, ``"none"``.
    on_use, can_break, on_construct, on_destruct, placement_state : callable or None
        Per-block callbacks, as in Luanti's node definitions (`world.rules` calls them in the same
        pipeline as the mods' hooks; see docs/modding.md).
    on_random_tick : callable or None
        Called for the voxel when a random tick picks it (Minecraft's random ticks, Luanti's
        ABMs: crops growing, leaves decaying, grass spreading; `world.ticks.random_ticks`).
    on_timer : callable or None
        Called when a timer started on the voxel with ``world.start_timer`` runs out.
    allow_put, allow_take, allow_move : callable or None
        Decide a move of items into, out of or within one of the block's inventories
        (`world.actions.containers`; Luanti's ``allow_metadata_inventory_*``): return how many
        of the stack may go, 0 refuses. ``None``: every move is allowed.
    on_put, on_take, on_move : callable or None
        Called after such a move (Luanti's ``on_metadata_inventory_*``); one that raises rolls
        the whole move back.
    drops : tuple of world.items.inventory.Drop, or None
        What breaking it gives in survival: ``None`` its own item (the block's name), ``()``
        nothing (glass), else these drops (stone gives cobblestone).
    get_drops : callable or None
        ``get_drops(registry, state_id, rng) -> list of ItemStack``: decides the drops
        instead of `drops` (a crop dropping more when ripe; `world.blocks.drops.block_drops`).
    label : world.blocks.labels.Label or None
        Text the game draws on the block, from each voxel's data (a sign's text on its board;
        `world.blocks.labels`).
    containers : tuple of str
        The keys of the voxel's data that hold block inventories (`world.items.containers`: a
        chest's ``"inventory"``). When the block goes by any means (broken, replaced by a mod,
        a bulk write), their stacks drop into the world as items (``builtin:item`` entities,
        Minecraft's rule), never lost with the data.
    liquid : world.blocks.liquid.Liquid or None
        Makes the block a liquid that flows (`world.blocks.liquid`: water, lava, a mod's honey):
        it gets the properties ``level`` (8 the source, its default, down to 1) and ``falling``,
        is drawn as a liquid and is in the ``"liquid"`` group; it must not be `solid`.
    floodable : bool or None
        A liquid flowing into the voxel replaces it (washed away with its drops, or burnt:
        `world.blocks.liquid.Liquid.washes`). ``None`` (default): Minecraft's rule, a block
        without collision that is not a liquid, holds no inventory and no label (torches, plants
        wash away; signs and chests hold the water back).
    """

    name: str
    description: str = ""
    solid: bool = True
    pointable: bool = True
    replaceable: bool = False
    transparent: bool = False
    hardness: float = 1.0
    needs_tool: bool = False
    tiles: Any = ()
    light: int | Callable[[Props], int] = 0
    groups: tuple[str, ...] = field(default_factory=tuple)
    saved_name: str | None = None
    properties: Any = ()
    defaults: Any = ()
    selection: Shape | Callable[[Props], Shape] = FULL
    collision: Shape | Callable[[Props], Shape] | None = None
    draw: str = "auto"
    on_use: Callable[..., Any] | None = None
    can_break: Callable[..., Any] | None = None
    on_construct: Callable[..., Any] | None = None
    on_destruct: Callable[..., Any] | None = None
    placement_state: Callable[..., Any] | None = None
    on_random_tick: Callable[..., Any] | None = None
    on_timer: Callable[..., Any] | None = None
    allow_put: Callable[..., Any] | None = None
    allow_take: Callable[..., Any] | None = None
    allow_move: Callable[..., Any] | None = None
    on_put: Callable[..., Any] | None = None
    on_take: Callable[..., Any] | None = None
    on_move: Callable[..., Any] | None = None
    drops: tuple[Drop, ...] | None = None
    get_drops: Callable[..., Any] | None = None
    label: Label | None = None
    containers: tuple[str, ...] = ()
    sounds: SoundGroup | None = None
    liquid: Liquid | None = None
    floodable: bool | None = None

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
        if not isinstance(self.needs_tool, bool):
            raise ValueError(f"needs_tool of {self.name!r} must be a bool, got {self.needs_tool!r}")
        if not callable(self.light):
            check_light(self.name, self.light)
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
        if not callable(self.tiles):
            object.__setattr__(self, "tiles", check_tiles(self.name, self.tiles))
        if self.draw != "auto" and self.draw not in DRAW_KINDS:
            raise ValueError(
                f"draw of {self.name!r} must be 'auto' or one of {', '.join(DRAW_KINDS)}, "
                f"got {self.draw!r}"
            )
        if self.liquid is not None:
            self._check_liquid()
        if self.floodable is not None and not isinstance(self.floodable, bool):
            raise ValueError(
                f"floodable of {self.name!r} must be a bool or None, got {self.floodable!r}"
            )
        properties = _check_properties(self.name, self.properties)
        object.__setattr__(self, "properties", properties)
        object.__setattr__(self, "defaults", _check_defaults(self.name, properties, self.defaults))
        if not callable(self.selection):
            object.__setattr__(
                self, "selection", check_shape(self.name, "selection", self.selection)
            )
        if self.collision is not None and not callable(self.collision):
            object.__setattr__(
                self,
                "collision",
                check_shape(self.name, "collision", self.collision, top=COLLISION_TOP),
            )
        if self.drops is not None and (
            not isinstance(self.drops, tuple) or not all(isinstance(d, Drop) for d in self.drops)
        ):
            raise ValueError(
                f"drops of {self.name!r} must be None or a tuple of Drop, got {self.drops!r}"
            )
        if not isinstance(self.containers, tuple) or not all(
            isinstance(key, str) and key for key in self.containers
        ):
            raise ValueError(
                f"containers of {self.name!r} must be a tuple of data keys (non-empty str), "
                f"got {self.containers!r}"
            )
        if self.sounds is not None and not isinstance(self.sounds, SoundGroup):
            raise ValueError(
                f"sounds of {self.name!r} must be a SoundGroup or None, got {self.sounds!r}"
            )
        if self.label is not None and not isinstance(self.label, Label):
            raise ValueError(f"label of {self.name!r} must be a Label or None, got {self.label!r}")
        hooks = ("on_use", "can_break", "on_construct", "on_destruct", "placement_state")
        moves = ("allow_put", "allow_take", "allow_move", "on_put", "on_take", "on_move")
        for hook in (*hooks, *moves, "get_drops", "on_random_tick", "on_timer"):
            value = getattr(self, hook)
            if value is not None and not callable(value):
                raise ValueError(f"{hook} of {self.name!r} must be callable or None, got {value!r}")
        if not self.description:
            object.__setattr__(self, "description", self.name.split(":")[-1].replace("_", " "))

    def _check_liquid(self) -> None:
        if not isinstance(self.liquid, Liquid):
            raise ValueError(
                f"liquid of {self.name!r} must be a Liquid or None, got {self.liquid!r}"
            )
        if self.solid:
            raise ValueError(f"liquid {self.name!r} must not be solid (pass solid=False)")
        if self.properties not in ((), {}, LIQUID_PROPERTIES):
            raise ValueError(
                f"liquid {self.name!r} declares properties: a liquid's are its own "
                "('level' and 'falling'), leave them out"
            )
        object.__setattr__(self, "properties", LIQUID_PROPERTIES)
        if "liquid" not in self.groups:
            object.__setattr__(self, "groups", (*self.groups, "liquid"))

    @property
    def breakable(self) -> bool:
        """False for blocks with infinite hardness (bedrock)."""
        return math.isfinite(self.hardness)

    @property
    def state_count(self) -> int:
        """How many states (ids) the block has: the product of its properties' value counts."""
        return math.prod(len(values) for _, values in self.properties)

    def states(self) -> Iterator[dict[str, PropValue]]:
        """Every state's properties, in id order (the last property varies fastest)."""
        names = [name for name, _ in self.properties]
        for values in itertools.product(*(values for _, values in self.properties)):
            yield dict(zip(names, values, strict=True))


def check_light(owner: str, light: object) -> int:
    if isinstance(light, bool) or not isinstance(light, int) or not 0 <= light <= 15:
        raise ValueError(f"light of {owner!r} must be an integer 0..15, got {light!r}")
    return light


def value_text(value: PropValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_properties(owner: str, raw: object) -> tuple[tuple[str, tuple[PropValue, ...]], ...]:
    if isinstance(raw, Mapping):
        items: list[object] = list(raw.items())
    elif isinstance(raw, tuple | list):
        items = list(raw)
    else:
        raise ValueError(f"properties of {owner!r} must be a mapping of name to values")
    out: list[tuple[str, tuple[PropValue, ...]]] = []
    count = 1
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise ValueError(f"properties of {owner!r} must be a mapping of name to values")
        prop, values = item
        if not isinstance(prop, str) or not PROPERTY_PATTERN.match(prop):
            raise ValueError(
                f"property {prop!r} of {owner!r}: names are lower-case letters, digits and "
                "underscores"
            )
        if isinstance(values, str) or not isinstance(values, Sequence) or not values:
            raise ValueError(
                f"property {prop!r} of {owner!r} needs a non-empty sequence of values, "
                f"got {values!r}"
            )
        texts = set()
        for value in values:
            ok = isinstance(value, bool | int) or (
                isinstance(value, str) and _VALUE_PATTERN.match(value)
            )
            if not ok:
                raise ValueError(
                    f"value {value!r} of property {prop!r} of {owner!r} must be a bool, an int or "
                    "a lower-case word"
                )
            text = value_text(value)
            if text in texts:
                raise ValueError(f"value {value!r} of property {prop!r} of {owner!r} is repeated")
            texts.add(text)
        if any(prop == name for name, _ in out):
            raise ValueError(f"property {prop!r} of {owner!r} is declared twice")
        count *= len(values)
        out.append((prop, tuple(values)))
    if count > MAX_STATES_PER_BLOCK:
        raise ValueError(
            f"{owner!r} has {count} states; a block may have at most {MAX_STATES_PER_BLOCK}"
        )
    return tuple(out)


def _check_defaults(
    owner: str, properties: tuple[tuple[str, tuple[PropValue, ...]], ...], raw: object
) -> tuple[tuple[str, PropValue], ...]:
    given = dict(raw.items() if isinstance(raw, Mapping) else raw)  # type: ignore[call-overload]
    declared = dict(properties)
    out: list[tuple[str, PropValue]] = []
    for prop, value in given.items():
        if prop not in declared:
            raise ValueError(f"default for {prop!r} of {owner!r}: no such property")
        if not any(same_value(value, v) for v in declared[prop]):
            raise ValueError(
                f"default {value!r} for property {prop!r} of {owner!r} is not one of its values"
            )
        out.append((prop, value))
    return tuple(out)


def same_value(a: object, b: object) -> bool:
    """Equal and of the same kind: ``True`` is not ``1``."""
    return type(a) is type(b) and a == b


AIR_TYPE = BlockType(
    "air",
    solid=False,
    pointable=False,
    replaceable=True,
    transparent=True,
    hardness=0.0,
    selection=(),
    draw="none",
)


class Registers(Protocol):
    """Anything blocks are registered with: a `BlockRegistry` or a mod's
    `world.mods.registration.BlockRegistrar`."""

    def register(self, block: BlockType) -> int: ...


_KEY_PATTERN = re.compile(r"^([a-z0-9_:]+)(?:\[([a-z0-9_=,]*)\])?$")


def changed_values(
    block: BlockType, values: tuple[PropValue, ...], changes: Mapping[str, PropValue]
) -> tuple[PropValue, ...]:
    """A state's property ``values`` (in declaration order) with ``changes`` applied.

    Raises
    ------
    ValueError
        Naming the property or value the block does not have.
    """
    changed = list(values)
    for prop, value in changes.items():
        for i, (name, allowed) in enumerate(block.properties):
            if name == prop:
                matched = [v for v in allowed if same_value(v, value)]
                if not matched:
                    texts = ", ".join(value_text(v) for v in allowed)
                    raise ValueError(
                        f"{value!r} is not a value of property {prop!r} of {block.name!r} ({texts})"
                    )
                changed[i] = matched[0]
                break
        else:
            raise ValueError(f"block {block.name!r} has no property {prop!r}")
    return tuple(changed)


def state_key_of(name: str, props: Mapping[str, PropValue]) -> str:
    if not props:
        return name
    inner = ",".join(f"{prop}={value_text(value)}" for prop, value in props.items())
    return f"{name}[{inner}]"


def parse_state_key(key: str) -> tuple[str, dict[str, str]]:
    """``"mod:x[a=1,b=top]"`` -> ``("mod:x", {"a": "1", "b": "top"})``; values stay text."""
    match = _KEY_PATTERN.match(key) if isinstance(key, str) else None
    if match is None:
        raise ValueError(f"unknown block name {key!r}")
    name, inner = match.group(1), match.group(2)
    props: dict[str, str] = {}
    for part in (inner or "").split(","):
        if not part:
            continue
        prop, sep, value = part.partition("=")
        if not sep or not prop or not value:
            raise ValueError(f"state key {key!r}: write properties as name=value")
        props[prop] = value
    return name, props
