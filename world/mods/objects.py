"""Players and entities as a mod sees them: `PlayerRef`, `ObjectRef`, `InventoryRef` (Luanti's
``ObjectRef`` and ``InvRef``).

A hook gets them from its world (``world.players()``, ``world.player(actor.name)``,
``world.add_entity(...)``, ``world.entities_near(...)``) and from callbacks that ask for
``player`` or ``entity``. Reads are always allowed; every write (``teleport``, the inventory's
``add``/``remove``, ``set_held``, ``take_held``, ``wear_held``, an entity's ``set_pos``,
``data[...] = ...``, ``remove``) goes through the world's stores (`world.voxels.players`,
`world.voxels.entities`), which record it in the running action's journal: a vetoed or failed
action takes it back with its blocks, so no item is made or lost. A write through a reference
kept after its hook returned raises ``RuntimeError``, as the world view's writes do; a write in
a ``can_*`` hook raises too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, MutableMapping, Sequence

from world.blocks.entity_type import EntityType
from world.geometry import Vec3
from world.items.inventory import INVENTORY_SLOTS, ItemStack
from world.physics.body import PLAYER_HEIGHT, PLAYER_WIDTH
from world.validate import WORLD_LIMIT
from world.voxels.chunks import World
from world.voxels.entities import Entity, chunk_of
from world.voxels.mod_storage import Value
from world.voxels.players import Player

__all__ = ["InventoryRef", "ObjectRef", "PlayerRef"]

Check = Callable[[], None]


def _stack(value: object, name: str = "stack") -> ItemStack:
    if isinstance(value, ItemStack):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        try:
            return ItemStack(*value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name}: {exc}") from None
    raise ValueError(f"{name} must be an ItemStack or (item, count), got {value!r}")


def _count(value: object, name: str = "count") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
    return value


class InventoryRef:
    """A player's inventory: 36 slots, the hotbar first (module notes)."""

    def __init__(self, player: Player, check: Check) -> None:
        self._player = player
        self._check = check

    @property
    def slots(self) -> tuple[ItemStack | None, ...]:
        """Every slot's stack (a copy)."""
        return tuple(self._player.inventory.slots)

    def count(self, item: str) -> int:
        """How many of ``item`` the inventory holds."""
        return self._player.inventory.count(item)

    def contains(self, item: str, count: int = 1) -> bool:
        """Whether it holds at least ``count`` of ``item``."""
        return self.count(item) >= _count(count)

    def add(self, stack: ItemStack | tuple[str, int]) -> ItemStack | None:
        """Put a stack in (onto stacks of the same item, then empty slots, hotbar first); what
        did not fit, or None."""
        stack = _stack(stack)
        self._check()
        left = self._player.inventory.add(stack.item, stack.count, wear=stack.wear)
        return stack.with_count(left) if left else None

    def remove(self, item: str, count: int = 1) -> int:
        """Take up to ``count`` of ``item`` out (the last slots first, the hotbar last, as
        Luanti's ``remove_item`` from the end); how many were taken."""
        count = _count(count)
        if not isinstance(item, str):
            raise ValueError(f"item must be an item name, got {item!r}")
        self._check()
        inventory = self._player.inventory
        taken = 0
        for slot in reversed(range(INVENTORY_SLOTS)):
            stack = inventory.slots[slot]
            if taken >= count:
                break
            if stack is not None and stack.item == item:
                got = inventory.take(slot, min(count - taken, stack.count))
                taken += 0 if got is None else got.count
        return taken


class PlayerRef:
    """A player in the world (module notes)."""

    def __init__(self, world: World, player: Player, check: Check) -> None:
        self._world = world
        self._player = player
        self._check = check
        self.inventory = InventoryRef(player, check)

    def __repr__(self) -> str:
        return f"PlayerRef({self._player.name!r} at {self.pos})"

    @property
    def name(self) -> str:
        """The player's name (an `world.mods.outcome.Actor`'s ``name``)."""
        return self._player.name

    @property
    def pos(self) -> Vec3:
        """Where the player's feet are (the centre of their bottom)."""
        return self._player.pos

    @property
    def eye(self) -> Vec3:
        """Where the player's eye is."""
        return self._player.eye

    @property
    def look(self) -> Vec3:
        """The unit direction the player looks in."""
        return self._player.look

    @property
    def creative(self) -> bool:
        """Whether the player plays in creative mode."""
        return self._player.creative

    @property
    def held(self) -> ItemStack | None:
        """The stack in the selected hotbar slot."""
        return self._player.held

    def set_held(self, stack: ItemStack | tuple[str, int] | None) -> None:
        """Replace the held stack (None empties the slot): a bucket filled, a tool worn out."""
        new = None if stack is None else _stack(stack)
        self._check()
        inventory = self._player.inventory
        inventory.slots[inventory.selected] = new

    def take_held(self, count: int = 1) -> int:
        """Use up ``count`` of the held stack (bone meal, seeds, food); how many were taken (0
        in creative, where nothing is used up, as in Minecraft)."""
        count = _count(count)
        self._check()
        if self._player.creative:
            return 0
        inventory = self._player.inventory
        got = inventory.take(inventory.selected, count) if count else None
        return 0 if got is None else got.count

    def wear_held(self, amount: int = 1) -> bool:
        """Spend ``amount`` uses of the held tool (`world.items.item.Item.durability`: a hoe's
        till, a shear's cut); True when that broke it (its wear reached its durability: the slot
        is empty now). Nothing wears in creative (Minecraft), nor a held stack of a thing that
        never wears (a block, an item without durability, an item no loaded mod knows)."""
        amount = _count(amount, "amount")
        self._check()
        held = self._player.held
        kind = None if held is None else self._world.registry.items.get(held.item)
        if self._player.creative or kind is None:
            return False
        inventory = self._player.inventory
        return inventory.add_wear(inventory.selected, amount, kind.durability)

    def teleport(self, pos: Sequence[float], *, into_solid: bool = False) -> None:
        """Move the player's feet to ``pos`` (the game's body follows at once).

        Raises
        ------
        ValueError
            Naming ``pos`` when it is not 3 finite numbers within the world limit, or when the
            player's box there would overlap a solid block's collision box (unless
            ``into_solid``).
        """
        if not isinstance(pos, Sequence) or len(pos) != 3:
            raise ValueError(f"pos must be 3 numbers, got {pos!r}")
        x, y, z = (float(v) if _finite(v) else math.nan for v in pos)
        if not all(math.isfinite(v) and abs(v) < WORLD_LIMIT - 2 for v in (x, y, z)):
            raise ValueError(f"pos must be 3 finite numbers within the world limit, got {pos!r}")
        if not into_solid:
            blocker = _solid_in(self._world, (x, y, z))
            if blocker is not None:
                raise ValueError(
                    f"pos {tuple(pos)}: the player would stand inside {blocker} (pass "
                    "into_solid=True to move them there anyway)"
                )
        self._check()
        self._world.players.teleport(self._player, (x, y, z))


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _solid_in(world: World, feet: Vec3) -> str | None:
    """The name of a block whose collision box the player's box at ``feet`` overlaps, or None."""
    half = PLAYER_WIDTH / 2
    lo = (feet[0] - half, feet[1], feet[2] - half)
    hi = (feet[0] + half, feet[1] + PLAYER_HEIGHT, feet[2] + half)
    registry = world.registry
    for vx in range(math.floor(lo[0]), math.floor(hi[0]) + 1):
        for vy in range(math.floor(lo[1]) - 1, math.floor(hi[1]) + 1):
            for vz in range(math.floor(lo[2]), math.floor(hi[2]) + 1):
                state = world.get_block(vx, vy, vz)
                for box in registry.collision_boxes[state]:
                    if all(
                        v + box[a] < h and v + box[a + 3] > low
                        for a, (v, low, h) in enumerate(zip((vx, vy, vz), lo, hi, strict=True))
                    ):
                        return registry[state].name
    return None


class _EntityData(MutableMapping[str, Value]):
    """An entity's saved data, written through the store (recorded, marked for saving)."""

    def __init__(self, world: World, entity: Entity, check: Check) -> None:
        self._world, self._entity, self._check = world, entity, check

    def __getitem__(self, key: str) -> Value:
        return self._entity.data[key]

    def __setitem__(self, key: str, value: Value) -> None:
        if value is None:
            raise ValueError(f"entity data {key!r}: None is not a value (use del)")
        self._check()
        self._world.entities.write(self._entity, key, value)

    def __delitem__(self, key: str) -> None:
        if key not in self._entity.data:
            raise KeyError(key)
        self._check()
        self._world.entities.write(self._entity, key, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entity.data))

    def __len__(self) -> int:
        return len(self._entity.data)


class ObjectRef:
    """An entity in the world (module notes): a dropped stack, a falling block, a creature."""

    def __init__(self, world: World, entity: Entity, check: Check) -> None:
        self._world = world
        self._entity = entity
        self._check = check
        self.data: MutableMapping[str, Value] = _EntityData(world, entity, check)

    def __repr__(self) -> str:
        return f"ObjectRef({self._entity.kind!r} #{self._entity.id} at {self.pos})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectRef) and other._entity is self._entity

    def __hash__(self) -> int:
        return hash(self._entity.id)

    @property
    def id(self) -> int:
        """Its id in this run (not saved)."""
        return self._entity.id

    @property
    def kind(self) -> str:
        """Its kind's name (``"builtin:item"``, ``"mobs:sheep"``)."""
        return self._entity.kind

    @property
    def type(self) -> EntityType | None:
        """Its kind's definition (None for a kind no loaded mod defines)."""
        return self._world.registry.entities.get(self._entity.kind)

    @property
    def pos(self) -> Vec3:
        """The centre of its box's bottom."""
        return self._entity.pos

    @property
    def velocity(self) -> Vec3:
        """Blocks per second."""
        return self._entity.velocity

    @property
    def yaw(self) -> float:
        """Degrees, 0..360, Minecraft's yaw (0 faces south, +z; 90 west; 180 north; 270 east)."""
        return self._entity.yaw

    @property
    def on_ground(self) -> bool:
        """It stood on something after its last step."""
        return self._entity.on_ground

    @property
    def age(self) -> float:
        """Seconds of world time since it appeared."""
        return self._world.entities.age(self._entity)

    @property
    def removed(self) -> bool:
        """It has left the world."""
        return self._entity.removed

    def set_pos(self, pos: Sequence[float]) -> None:
        """Move it (within the loaded world: its new chunk must be loaded)."""
        self._check()
        key = chunk_of(_vec(pos, "pos"))
        if not self._world.is_loaded(*key):
            raise ValueError(f"pos {tuple(pos)} lies in a chunk that is not loaded")
        self._world.entities.move(self._entity, _vec(pos, "pos"))
        self._entity.resting = False

    def set_velocity(self, velocity: Sequence[float]) -> None:
        """Set how it moves, blocks per second (a push, a jump)."""
        self._check()
        self._world.entities.move(self._entity, self._entity.pos, _vec(velocity, "velocity"))
        self._entity.resting = False

    def set_yaw(self, yaw: float) -> None:
        """Turn it to face ``yaw`` degrees."""
        self._check()
        self._world.entities.move(self._entity, self._entity.pos, yaw=yaw)

    def remove(self) -> None:
        """Take it out of the world."""
        self._check()
        self._world.entities.remove(self._entity)


def _vec(value: object, name: str) -> Vec3:
    if not isinstance(value, Sequence) or len(value) != 3 or not all(_finite(v) for v in value):
        raise ValueError(f"{name} must be 3 finite numbers, got {value!r}")
    return float(value[0]), float(value[1]), float(value[2])
