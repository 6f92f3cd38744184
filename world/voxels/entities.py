"""The world's entities as data: where each stands, how it moves, its saved state, by chunk.

Contract
--------
- An `Entity` is a record: a per-run ``id`` (never reused in a run, not saved: Luanti's object
  ids), its ``kind`` (an `world.blocks.entity_type.EntityType`'s name; a kind no loaded mod
  defines is kept and saved as it is, and never steps), ``pos`` (the centre of its box's bottom),
  ``velocity`` (blocks/s), ``yaw`` (degrees), ``born`` (the world time it appeared, so its age
  needs no write as time passes) and ``data`` (str → str/int/float/bool/bytes, checked as mod
  storage values are). ``on_ground`` and ``resting`` are the step's own, not saved.
- One path for every change. `Entities.add`, `remove`, `move` and `write` are the only writers:
  each records its undo in the world's journal (`world.voxels.journal`) before it changes
  anything, so an action or tick that is rolled back takes its entities back with its blocks,
  and each marks the chunks it touches unsaved (the chunk an entity left and the one it
  entered), so a save holds them and the streaming keeps them until it has.
- An entity lives in the chunk its ``pos`` is in (``floor(pos) >> 4``); `in_chunk` lists a
  chunk's. `unload` forgets a chunk's entities when the chunk goes (saved first: the chunk was
  not unsaved), `install` takes a loaded chunk's saved ones back (`world.save`).
- Reads are cheap: `near` looks only at the chunks a sphere overlaps.

Cost: one dict entry per entity and two per chunk index; a move that stays in its chunk is one
tuple appended to the journal (inside an action) and one set lookup.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from world.blocks.entity_type import ITEM_ENTITY
from world.geometry import Int3, Vec3
from world.items.inventory import ItemStack
from world.validate import WORLD_LIMIT
from world.voxels.journal import Journal
from world.voxels.layout import CHUNK_SHIFT, ChunkKey
from world.voxels.mod_storage import Value, check_value

__all__ = [
    "DROP_HOP",
    "MAX_ENTITIES",
    "PICKUP_DELAY",
    "Entities",
    "Entity",
    "checked_vec3",
    "chunk_of",
    "drop_item",
]

MAX_ENTITIES = 1 << 16
"""The most entities one world holds loaded; `Entities.add` refuses more (a runaway spawner stops
there, not at the memory's end)."""


DROP_HOP = 3.0
"""Blocks/s up a stack dropped from a block starts with (Minecraft: 0.2 blocks a tick)."""
PICKUP_DELAY = 0.5
"""Seconds before a dropped stack can be picked up (Minecraft: 10 ticks)."""


def drop_item(
    entities: Entities,
    voxel: Int3,
    stack: ItemStack,
    *,
    pos: Vec3 | None = None,
    velocity: Vec3 | None = None,
    delay: float = PICKUP_DELAY,
) -> Entity:
    """A stack lying in the world: a ``builtin:item`` entity (``data``: ``item``, ``count``,
    ``wear`` for a worn tool only, and ``pickup_at``, the world time from which a player picks
    it up), by default at the centre of the voxel it dropped from, hopping up a little."""
    wx, wy, wz = voxel
    data: dict[str, Value] = {"item": stack.item, "count": stack.count}
    if stack.wear:
        data["wear"] = stack.wear
    data["pickup_at"] = entities.clock + delay
    return entities.add(
        ITEM_ENTITY.name,
        (wx + 0.5, wy + 0.25, wz + 0.5) if pos is None else pos,
        velocity=(0.0, DROP_HOP, 0.0) if velocity is None else velocity,
        data=data,
    )


def chunk_of(pos: Vec3) -> ChunkKey:
    """The chunk a position lies in."""
    return (
        math.floor(pos[0]) >> CHUNK_SHIFT,
        math.floor(pos[1]) >> CHUNK_SHIFT,
        math.floor(pos[2]) >> CHUNK_SHIFT,
    )


def checked_vec3(value: object, name: str, *, in_world: bool) -> Vec3:
    """Three finite numbers as floats (a position, a velocity, a look), each within the world
    limit when ``in_world``; a `ValueError` naming ``name`` otherwise."""
    if not isinstance(value, tuple | list) or len(value) != 3:
        raise ValueError(f"{name} must be 3 numbers, got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{name} must be 3 finite numbers, got {value!r}")
        out.append(float(v))
    if in_world and any(abs(v) >= WORLD_LIMIT for v in out):
        raise ValueError(f"{name} must lie within the world limit ±{WORLD_LIMIT}, got {value!r}")
    return out[0], out[1], out[2]


@dataclass(eq=False, slots=True)
class Entity:
    """One entity's record (module notes). Change it only through `Entities`."""

    id: int
    kind: str
    pos: Vec3
    velocity: Vec3 = (0.0, 0.0, 0.0)
    yaw: float = 0.0
    born: float = 0.0
    data: dict[str, Value] = field(default_factory=dict)
    on_ground: bool = False
    resting: bool = False  # settled: nothing to step until something near it changes
    activated: bool = False  # its kind's on_activate ran since it was added or loaded
    removed: bool = False
    chunk: ChunkKey = (0, 0, 0)

    def saved(self, now: float) -> dict[str, object]:
        """The record as a save keeps it (JSON-ready but for bytes values in ``data``)."""
        return {
            "kind": self.kind,
            "pos": list(self.pos),
            "velocity": list(self.velocity),
            "yaw": self.yaw,
            "age": max(0.0, now - self.born),
            "data": dict(self.data),
        }


class Entities:
    """Every loaded entity of one world, by id and by chunk (module notes).

    Parameters
    ----------
    journal : Journal
        The world's journal: undo entries and unsaved marks.
    clock : callable
        The world time in seconds (`world.voxels.block_data.BlockData.clock`): ages count it.
    """

    def __init__(self, journal: Journal, clock: Callable[[], float]) -> None:
        self._journal = journal
        self._clock = clock
        self._ids = itertools.count(1)
        self.by_id: dict[int, Entity] = {}
        self._by_chunk: dict[ChunkKey, dict[int, Entity]] = {}
        # Changes of any entity's place, velocity or turn so far (`step`, `move`, their undo):
        # while it stays, nothing moved (a view redraws nothing).
        self.moves = 0

    @property
    def clock(self) -> float:
        """The world time now."""
        return self._clock()

    def age(self, entity: Entity) -> float:
        """Seconds of world time since the entity appeared."""
        return max(0.0, self._clock() - entity.born)

    def __len__(self) -> int:
        return len(self.by_id)

    def __iter__(self) -> Iterator[Entity]:
        return iter(list(self.by_id.values()))

    def get(self, entity_id: int) -> Entity | None:
        """The loaded entity with that id, or None."""
        return self.by_id.get(entity_id)

    def in_chunk(self, key: ChunkKey) -> list[Entity]:
        """The entities standing in a chunk."""
        return list(self._by_chunk.get(key, {}).values())

    def chunks(self) -> list[ChunkKey]:
        """The chunks holding at least one entity."""
        return list(self._by_chunk)

    def near(self, pos: Vec3, radius: float) -> list[Entity]:
        """The entities whose ``pos`` lies within ``radius`` of ``pos`` (radius ≤ 64)."""
        if isinstance(radius, bool) or not isinstance(radius, int | float) or not 0 <= radius <= 64:
            raise ValueError(f"radius must be a number in [0, 64], got {radius!r}")
        pos = checked_vec3(pos, "pos", in_world=True)
        # One block more each way: ``pos - radius`` may round onto a chunk border that an entity
        # a hair below it, still within the radius, does not reach.
        reach = radius + 1.0
        low = chunk_of((pos[0] - reach, pos[1] - reach, pos[2] - reach))
        high = chunk_of((pos[0] + reach, pos[1] + reach, pos[2] + reach))
        found = []
        r2 = radius * radius
        px, py, pz = pos
        chunks = self._by_chunk
        for cx in range(low[0], high[0] + 1):
            for cy in range(low[1], high[1] + 1):
                for cz in range(low[2], high[2] + 1):
                    held = chunks.get((cx, cy, cz))
                    if not held:
                        continue
                    for entity in held.values():
                        x, y, z = entity.pos
                        if (x - px) ** 2 + (y - py) ** 2 + (z - pz) ** 2 <= r2:
                            found.append(entity)
        return found

    # -- the writers ----------------------------------------------------------------------------

    def add(
        self,
        kind: str,
        pos: Vec3,
        *,
        velocity: Vec3 = (0.0, 0.0, 0.0),
        yaw: float = 0.0,
        data: Mapping[str, Value] | None = None,
        age: float = 0.0,
    ) -> Entity:
        """A new entity (its arguments checked, naming the bad one); recorded and marked."""
        if not isinstance(kind, str) or kind.count(":") != 1:
            raise ValueError(f"kind must be an entity's 'mod:name', got {kind!r}")
        if len(self.by_id) >= MAX_ENTITIES:
            raise ValueError(f"the world holds {MAX_ENTITIES} entities already: no more is added")
        entity = Entity(
            next(self._ids),
            kind,
            checked_vec3(pos, "pos", in_world=True),
            checked_vec3(velocity, "velocity", in_world=False),
            _angle(yaw),
            self.clock - _age(age),
            _data(data or {}),
        )
        entity.chunk = chunk_of(entity.pos)
        self._journal.record(("undo", self._unadd, entity))
        self._index(entity)
        self._journal.touch(entity.chunk)
        return entity

    def remove(self, entity: Entity) -> None:
        """Take an entity out of the world (nothing when it is gone already)."""
        if entity.removed or self.by_id.get(entity.id) is not entity:
            return
        self._journal.record(("undo", self._unremove, entity))
        self._unindex(entity)
        entity.removed = True
        self._journal.touch(entity.chunk)

    def move(
        self,
        entity: Entity,
        pos: Vec3,
        velocity: Vec3 | None = None,
        yaw: float | None = None,
        *,
        on_ground: bool | None = None,
    ) -> None:
        """Set where an entity is and how it moves (a mod's writer: every argument checked)."""
        new_pos = checked_vec3(pos, "pos", in_world=True)
        new_velocity = (
            entity.velocity
            if velocity is None
            else checked_vec3(velocity, "velocity", in_world=False)
        )
        new_yaw = entity.yaw if yaw is None else _angle(yaw)
        grounded = entity.on_ground if on_ground is None else on_ground
        self.step(entity, new_pos, new_velocity, grounded, new_yaw)

    def step(
        self,
        entity: Entity,
        pos: Vec3,
        velocity: Vec3,
        on_ground: bool,
        yaw: float | None = None,
    ) -> None:
        """`move` for the engine's own step, whose floats need no checking (the motion keeps
        them finite and within the world's edge): recorded and marked as every change."""
        if yaw is None:
            yaw = entity.yaw
        if (
            pos == entity.pos
            and velocity == entity.velocity
            and yaw == entity.yaw
            and on_ground == entity.on_ground
        ):
            return
        before = (entity, entity.pos, entity.velocity, entity.yaw, entity.on_ground)
        self._journal.record(("undo", self._unmove, before))
        old_chunk = entity.chunk
        entity.pos, entity.velocity, entity.yaw, entity.on_ground = pos, velocity, yaw, on_ground
        self.moves += 1
        new_chunk = chunk_of(pos)
        if new_chunk != old_chunk:
            self._rechunk(entity, new_chunk)
            self._journal.touch(new_chunk)
        self._journal.touch(old_chunk)

    def write(self, entity: Entity, key: str, value: Value | None) -> None:
        """Set (or, with None, remove) one key of an entity's data."""
        if not isinstance(key, str) or not 0 < len(key) <= 256:
            raise ValueError(
                f"entity data key must be a string of 1 to 256 characters, got {key!r}"
            )
        old = entity.data.get(key)
        if value is None:
            if key not in entity.data:
                return
        else:
            value = check_value(key, value)
            if old == value and type(old) is type(value):
                return
        self._journal.record(("undo", self._unwrite, (entity, key, old)))
        if value is None:
            del entity.data[key]
        else:
            entity.data[key] = value
        entity.resting = False  # its steps look at it again (a stack whose count changed)
        self._journal.touch(entity.chunk)

    # -- chunks coming and going ------------------------------------------------------------------

    def unload(self, key: ChunkKey) -> list[Entity]:
        """Forget a chunk's entities (the chunk is going: its save holds them). Each is
        ``removed`` from then on, so a reference still held (a mod's) cannot move it back into
        the world beside the copy the chunk's next load brings."""
        gone = list(self._by_chunk.pop(key, {}).values())
        for entity in gone:
            del self.by_id[entity.id]
            entity.removed = True
        return gone

    def install(self, key: ChunkKey, saved: Iterable[Mapping[str, object]]) -> list[Entity]:
        """A loaded chunk's saved entities (`Entity.saved`'s form) back in the world, not marked
        unsaved; one that is not in ``key`` or is malformed is a `ValueError` naming it."""
        added = []
        for record in saved:
            pos = checked_vec3(record.get("pos"), "pos", in_world=True)
            if chunk_of(pos) != key:
                raise ValueError(f"a saved entity at {pos} is not in its chunk {key}")
            entity = Entity(
                next(self._ids),
                _kind(record.get("kind")),
                pos,
                checked_vec3(record.get("velocity", (0.0, 0.0, 0.0)), "velocity", in_world=False),
                _angle(record.get("yaw", 0.0)),
                self.clock - _age(record.get("age", 0.0)),
                _data(record.get("data", {})),
            )
            entity.chunk = key
            self._index(entity)
            added.append(entity)
        return added

    # -- undo -------------------------------------------------------------------------------

    def _index(self, entity: Entity) -> None:
        self.by_id[entity.id] = entity
        self._by_chunk.setdefault(entity.chunk, {})[entity.id] = entity

    def _unindex(self, entity: Entity) -> None:
        self.by_id.pop(entity.id, None)
        held = self._by_chunk.get(entity.chunk)
        if held is not None:
            held.pop(entity.id, None)
            if not held:
                del self._by_chunk[entity.chunk]

    def _unadd(self, entity: Entity) -> None:
        self._unindex(entity)
        entity.removed = True

    def _unremove(self, entity: Entity) -> None:
        entity.removed = False
        self._index(entity)

    def _rechunk(self, entity: Entity, key: ChunkKey) -> None:
        """An entity now stands in chunk ``key`` (its place in `by_id` stays: id order)."""
        if not entity.removed:
            held = self._by_chunk.get(entity.chunk)
            if held is not None:
                held.pop(entity.id, None)
                if not held:
                    del self._by_chunk[entity.chunk]
            self._by_chunk.setdefault(key, {})[entity.id] = entity
        entity.chunk = key

    def _unmove(self, state: tuple[Entity, Vec3, Vec3, float, bool]) -> None:
        entity, pos, velocity, yaw, on_ground = state
        entity.pos, entity.velocity, entity.yaw, entity.on_ground = pos, velocity, yaw, on_ground
        self.moves += 1
        key = chunk_of(pos)
        if key != entity.chunk:
            self._rechunk(entity, key)

    def _unwrite(self, state: tuple[Entity, str, Value | None]) -> None:
        entity, key, old = state
        if old is None:
            entity.data.pop(key, None)
        else:
            entity.data[key] = old
        entity.resting = False


def _key(key: object) -> str:
    if not isinstance(key, str) or not 0 < len(key) <= 256:
        raise ValueError(f"entity data key must be a string of 1 to 256 characters, got {key!r}")
    return key


def _angle(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"yaw must be a finite number of degrees, got {value!r}")
    return float(value) % 360.0


def _age(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"age must be finite seconds >= 0, got {value!r}")
    return float(value)


def _kind(value: object) -> str:
    if not isinstance(value, str) or value.count(":") != 1:
        raise ValueError(f"kind must be an entity's 'mod:name', got {value!r}")
    return value


def _data(value: object) -> dict[str, Value]:
    if not isinstance(value, Mapping):
        raise ValueError(f"data must be a mapping of str to values, got {type(value).__name__}")
    out: dict[str, Value] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not 0 < len(key) <= 256:
            raise ValueError(
                f"entity data key must be a string of 1 to 256 characters, got {key!r}"
            )
        out[_key(key)] = check_value(key, item)
    return out
