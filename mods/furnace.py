"""Furnaces: smelt sand into glass and cobblestone into stone, burning fuel (Minecraft's and
Luanti's furnace), built from the modding API alone: a block inventory, a timer and info text.

A furnace has three slots (`world.items.containers`, opened with a right click): what to smelt, the
fuel, and what came out. Its timer (`world.start_timer`) runs once a second while there is work:
a fuel item is burnt when something can be smelted and there is room for the result; while fuel
burns, the item in the first slot cooks, and after its cooking time one is taken and its result
added to the third slot. Its info text (`world.voxels.block_data.INFOTEXT`) says how far it has got.
Right-clicking it wakes it for a minute, and what the player puts in or moves about in its slots
wakes it at once (its ``on_put`` and ``on_move``: the player's moves go through the rules,
`world.actions.containers`, and Luanti's furnace notices them so too). Broken, as Minecraft's, it
drops what its three slots hold into the world as item entities, beside its own drop, and so it
does when another mod replaces it (``containers``): only a furnace whose slots cannot be read
refuses to break. Eight cobblestone round an empty middle make one.

Other mods add what smelts and what burns by calling `add_cooking` and `add_fuel` on this mod
(``world.mod("furnace")``, with ``"furnace"`` in their ``depends``) in their ``register_blocks``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from world.blocks import BlockType
from world.hooks import hookimpl
from world.items.containers import Container, decode_slots, encode_slots
from world.items.inventory import STACK_MAX, ItemStack
from world.items.recipes import Recipe
from world.voxels.block_data import INFOTEXT

if TYPE_CHECKING:
    from world.geometry import Int3
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld

description = "furnaces that smelt sand into glass and cobblestone into stone"

FURNACE = "furnace:furnace"
SLOTS = "inventory"
SOURCE, FUEL, OUTPUT = 0, 1, 2
TICK: Final = 1.0  # seconds between the timer's runs
AWAKE: Final = 60.0  # seconds a right click keeps it looking for work

# What smelts into what, in how many seconds; what burns, for how many (Minecraft's times).
COOKING: dict[str, tuple[str, float]] = {
    "base:sand": ("base:glass", 10.0),
    "base:cobblestone": ("base:stone", 10.0),
}
FUELS: dict[str, float] = {
    "ores:coal_ore": 80.0,
    "base:log": 15.0,
    "base:planks": 15.0,
    "base:sapling": 5.0,
}


def add_cooking(item: str, result: str, seconds: float = 10.0) -> None:
    """Make ``item`` smelt into ``result`` in ``seconds``."""
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")
    COOKING[item] = (result, float(seconds))


def add_fuel(item: str, seconds: float) -> None:
    """Make ``item`` burn for ``seconds``."""
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")
    FUELS[item] = float(seconds)


def _number(world: ModWorld, pos: Int3, key: str) -> float:
    value = world.meta(*pos).get(key, 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def _room(slots: list[ItemStack | None], result: str) -> bool:
    out = slots[OUTPUT]
    return out is None or (out.item == result and out.count < STACK_MAX)


def furnace_can_break(world: ModWorld, pos: Int3) -> str | None:
    """Breaks whatever it holds (its stacks drop), unless its slots cannot be read."""
    try:
        decode_slots(world.meta(*pos).get(SLOTS), 3)
    except ValueError:
        return "the furnace is not empty"
    return None


def use_furnace(world: ModWorld, pos: Int3, actor: Actor) -> bool:
    """Right click: show the slots, and look for work for a while."""
    world.meta(*pos)["awake"] = AWAKE
    world.start_timer(*pos, TICK)
    actor.open_container(Container(pos, "Furnace: smelt, fuel, result", 3, SLOTS))
    return True


def noticed(world: ModWorld, pos: Int3) -> None:
    """A stack put in or moved (``on_put``, ``on_move``): look for work now."""
    world.start_timer(*pos, TICK)


def furnace_tick(world: ModWorld, pos: Int3, elapsed: float) -> None:
    """The timer ran out: burn, cook, and say how far it has got (module notes)."""
    data = world.meta(*pos)
    try:
        slots = decode_slots(data.get(SLOTS), 3)
    except ValueError:
        return  # data that is not slots is left alone, and the furnace stops
    burn, cook = _number(world, pos, "burn"), _number(world, pos, "cook")
    awake = max(0.0, _number(world, pos, "awake") - elapsed)
    source = slots[SOURCE]
    recipe = COOKING.get(source.item) if source is not None else None
    can_cook = recipe is not None and _room(slots, recipe[0])
    fuel = slots[FUEL]
    if burn <= 0.0 and can_cook and fuel is not None and fuel.item in FUELS:
        burn = FUELS[fuel.item]
        slots[FUEL] = ItemStack(fuel.item, fuel.count - 1) if fuel.count > 1 else None
    if burn > 0.0:
        burn = max(0.0, burn - elapsed)
        if can_cook and recipe is not None and source is not None:
            cook += elapsed
            if cook >= recipe[1]:
                cook = 0.0
                slots[SOURCE] = (
                    ItemStack(source.item, source.count - 1) if source.count > 1 else None
                )
                out = slots[OUTPUT]
                slots[OUTPUT] = ItemStack(recipe[0], 1 if out is None else out.count + 1)
    if not can_cook:
        cook = 0.0
    value = encode_slots(slots)
    for key, number in (("burn", burn), ("cook", cook), ("awake", awake)):
        if number > 0.0:
            data[key] = number
        else:
            data.pop(key, None)
    if value is None:
        data.pop(SLOTS, None)
    else:
        data[SLOTS] = value
    if burn > 0.0 and recipe is not None and can_cook:
        data[INFOTEXT] = f"Furnace: {int(100 * cook / recipe[1])} % (fuel {int(burn)} s)"
    elif burn > 0.0:
        data[INFOTEXT] = f"Furnace: burning (fuel {int(burn)} s)"
    else:
        data.pop(INFOTEXT, None)
    source, fuel = slots[SOURCE], slots[FUEL]
    recipe = COOKING.get(source.item) if source is not None else None
    fuelled = burn > 0.0 or (fuel is not None and fuel.item in FUELS)
    if awake > 0.0 or burn > 0.0 or (recipe is not None and _room(slots, recipe[0]) and fuelled):
        world.start_timer(*pos, TICK)


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    registry.register(
        BlockType(
            FURNACE,
            hardness=3.5,
            groups=("container", "cracky"),  # keeps items: protection guards it; a pickaxe
            tiles=("base:stone", "base:stone", "base:cobblestone"),
            on_use=use_furnace,
            on_timer=furnace_tick,
            on_put=noticed,
            on_move=noticed,
            can_break=furnace_can_break,
            containers=(SLOTS,),  # broken or replaced: its stacks drop into the world
        )
    )
    registry.register_craft(Recipe(FURNACE, 1, ("CCC", "C C", "CCC"), {"C": "base:cobblestone"}))
