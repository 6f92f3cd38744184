"""Creatures: sheep that wander about, flee when hit and eat wheat from the hand.

A sheep (``creatures:sheep``) is an entity (`world.blocks.entity_type.EntityType`), made from
the public modding API alone: a box model (body, head, eyes, four legs) drawn with the mod's own
tiles (``textures/creatures_sheep_*.png``), 0.9 blocks wide and 1.3 tall as Minecraft's, physical
(it falls and collides; the engine moves its body, `world.entities.motion`). Its own callbacks
decide where it goes:

- **Wandering** (``on_step``, every `THINK_SECONDS`: the kind has no ``drag``, so between two
  calls it keeps the velocity it chose, and the engine only moves it): every 2 to 6 seconds it
  chooses to stand and graze or to walk off in a random direction, turning to face it. The
  choice is drawn from a random generator whose state the sheep keeps in its own ``data``
  (``seed``), with the time of its next choice (``next``), so it is saved with it and a world
  behaves the same in every run.
- **Never walking off a drop of more than a block**: before each step it looks at the ground
  just beyond its box, ahead of it. Level ground or one block down: it walks on; a block up with
  room above: it hops onto it; a wall, a fence, or a drop deeper than `MAX_DROP`: it stops and
  turns away. A push may still send it over an edge.
- **Punched** (``on_punch``): the engine knocks it back (a physical kind's); it says *baa!* to
  the player and runs away from them for `FLEE_SECONDS`.
- **Fed** (``on_use``): right-clicked by a player holding wheat (``farming:wheat``), it eats one
  (`world.mods.objects.PlayerRef.take_held`: none in creative), stands still to chew, and counts
  it in its data (``fed``). With anything else in hand the click is not handled.

Players summon one with the chat command ``/summon [kind]`` (a sheep by default; any kind a mod
registered, by its full name or, for this mod's, its short one) at their feet, at most
`SUMMON_LIMIT` creatures within `SUMMON_REACH` blocks of them.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from world.blocks.entity_type import EntityType
from world.blocks.shapes import Box
from world.hooks import hookimpl
from world.mods.commands import ChatCommand

if TYPE_CHECKING:
    from collections.abc import MutableMapping

    from world.geometry import Vec3
    from world.mods.commands import CommandRegistrar
    from world.mods.objects import ObjectRef, PlayerRef
    from world.mods.outcome import Actor
    from world.mods.registrar import BlockRegistrar
    from world.mods.view import ModWorld
    from world.voxels.mod_storage import Value

description = "sheep that wander, flee when hit and eat wheat"

NAME = "creatures"
SHEEP = "creatures:sheep"
WHEAT = "farming:wheat"
SIZE = (0.9, 1.3)  # blocks: width, height (Minecraft's sheep)
WALK_SPEED = 1.0  # blocks/s while wandering
FLEE_SPEED = 2.5  # blocks/s while running from a punch
FLEE_SECONDS = 3.0
JUMP_SPEED = 10.0  # blocks/s up: 1.23 blocks high in the engine's steps (gravity 32, drag)
MAX_DROP = 1  # blocks a sheep walks down; before a deeper drop it turns
THINK_SECONDS = 0.2  # between its on_step calls: it walks on between them (no drag)
LOOK_AHEAD = 0.6  # blocks beyond its box's edge where it looks: past a think's flight (0.5)
CHOOSE_EVERY = (2.0, 6.0)  # seconds between choices, drawn between these
WALK_CHANCE = 0.6  # a choice is to walk, else to stand and graze
CHEW_SECONDS = 2.0  # a fed sheep stands still this long
SUMMON_LIMIT = 32  # creatures near a player beyond which /summon makes no more
SUMMON_REACH = 16.0

WOOL, SKIN, EYE = "creatures:sheep_wool", "creatures:sheep_skin", "creatures:sheep_eye"
# Boxes around the bottom centre of its box, in blocks, facing north (-z): the engine turns them
# with the sheep's yaw.
MODEL = (
    (Box(-0.35, 0.45, -0.5, 0.35, 1.05, 0.5), WOOL),  # body
    (Box(-0.2, 0.75, -0.8, 0.2, 1.2, -0.45), SKIN),  # head
    (Box(-0.22, 1.1, -0.72, 0.22, 1.26, -0.45), WOOL),  # the wool on its head
    (Box(-0.15, 1.0, -0.81, -0.07, 1.07, -0.79), EYE),
    (Box(0.07, 1.0, -0.81, 0.15, 1.07, -0.79), EYE),
    *(
        (Box(x, 0.0, z, x + 0.2, 0.5, z + 0.2), SKIN)  # legs
        for x in (-0.3, 0.1)
        for z in (-0.4, 0.2)
    ),
)


def _number(data: MutableMapping[str, Value], key: str) -> float:
    value = data.get(key, 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def heading(yaw: float) -> tuple[float, float]:
    """The unit (dx, dz) a yaw faces, Minecraft's: 0 south (+z), 90 west (-x), 180 north."""
    rad = math.radians(yaw)
    return -math.sin(rad), math.cos(rad)


def yaw_towards(dx: float, dz: float) -> float:
    """The yaw that faces along (dx, dz)."""
    return math.degrees(math.atan2(-dx, dz)) % 360.0


def step_ahead(world: ModWorld, pos: Vec3, dx: float, dz: float) -> int | None:
    """What lies just beyond the box ahead: 0 level ground, -1 one block down, 1 a block to hop
    onto; None for a wall, a block too tall to hop (a fence) or a drop deeper than `MAX_DROP`."""
    registry = world.registry
    reach = SIZE[0] / 2 + LOOK_AHEAD
    ax, az = math.floor(pos[0] + dx * reach), math.floor(pos[2] + dz * reach)
    feet = math.floor(pos[1] + 0.01)

    def top(wy: int) -> float:
        """How high the block at (ax, wy, az) stands: 0 when nothing is there to bump into."""
        boxes = registry.collision_boxes[world.get_block(ax, wy, az)]
        return max((box.y1 for box in boxes), default=0.0)

    if top(feet + 1):
        return None  # as high as its head: a wall
    if top(feet):
        above = world.get_block(math.floor(pos[0]), feet + 2, math.floor(pos[2]))
        hop = top(feet) <= 1.0 and not top(feet + 2) and not registry.solid[above]
        return 1 if hop else None
    for down in range(MAX_DROP + 1):
        if top(feet - 1 - down):
            return -down
    return None


def dice(entity: ObjectRef, data: MutableMapping[str, Value]) -> random.Random:
    """The sheep's own random numbers: a generator seeded from its data, whose next seed goes
    back there (saved with it; no state outside the world)."""
    seed = data.get("seed", entity.id)
    rng = random.Random(seed if isinstance(seed, int) else entity.id)
    data["seed"] = rng.getrandbits(31)
    return rng


def choose(entity: ObjectRef, data: MutableMapping[str, Value]) -> None:
    """Stand or walk off in a new direction, until the next choice."""
    rng = dice(entity, data)
    walking = rng.random() < WALK_CHANCE
    if walking:
        entity.set_yaw(rng.uniform(0.0, 360.0))
    data["walking"] = walking
    data["next"] = entity.age + rng.uniform(*CHOOSE_EVERY)


def stand(entity: ObjectRef) -> None:
    """Stop walking (nothing to write when it stands already: a resting sheep costs nothing)."""
    vx, vy, vz = entity.velocity
    if vx or vz:
        entity.set_velocity((0.0, vy, 0.0))


def sheep_step(entity: ObjectRef, world: ModWorld, data: MutableMapping[str, Value]) -> None:
    """Every step: choose when it is time, then walk on, hop, or stop and turn at an edge."""
    if not entity.on_ground:
        if data.get("hop"):  # its own hop: keep going forward over the block
            dx, dz = heading(entity.yaw)
            speed = _number(data, "speed")
            entity.set_velocity((dx * speed, entity.velocity[1], dz * speed))
        return  # else a fall or a knock back: the engine moves it
    if data.get("hop"):
        data["hop"] = False
    age = entity.age
    fleeing = age < _number(data, "flee_until")
    if not fleeing and age >= _number(data, "next"):
        choose(entity, data)
    if not fleeing and not data.get("walking"):
        stand(entity)
        return
    dx, dz = heading(entity.yaw)
    ahead = step_ahead(world, entity.pos, dx, dz)
    if ahead is None:
        stand(entity)
        entity.set_yaw(entity.yaw + dice(entity, data).uniform(90.0, 270.0))  # turn away
        return
    speed = FLEE_SPEED if fleeing else WALK_SPEED
    vy = entity.velocity[1]
    if ahead == 1:
        vy = JUMP_SPEED
        data["hop"], data["speed"] = True, speed
    entity.set_velocity((dx * speed, vy, dz * speed))


def sheep_punched(entity: ObjectRef, actor: Actor | None, data: MutableMapping[str, Value]) -> None:
    """Hit: baa, and run from the player (the engine knocks it back when this returns)."""
    if actor is None:
        return
    actor.tell("baa!")
    entity.set_yaw(yaw_towards(entity.pos[0] - actor.eye[0], entity.pos[2] - actor.eye[2]))
    data["flee_until"] = entity.age + FLEE_SECONDS
    data["hop"] = False


def sheep_fed(
    entity: ObjectRef,
    player: PlayerRef | None,
    actor: Actor | None,
    data: MutableMapping[str, Value],
) -> bool | None:
    """Right click holding wheat: it eats one from the hand and stands still to chew."""
    held = None if player is None else player.held
    if player is None or held is None or held.item != WHEAT:
        return None
    player.take_held(1)
    data["fed"] = int(_number(data, "fed")) + 1
    data["walking"] = False
    data["next"] = entity.age + CHEW_SECONDS
    if actor is not None:
        actor.tell("the sheep eats the wheat")
    return True


def summon(world: ModWorld, actor: Actor, text: str, player: PlayerRef | None) -> None:
    """``/summon [kind]``: a creature at the player's feet."""
    asked = text.strip() or "sheep"
    kind = asked if ":" in asked else f"{NAME}:{asked}"
    if kind not in world.registry.entities or kind.startswith("builtin:"):
        actor.tell(f"no creature {asked!r}: try /summon sheep")
        return
    if player is not None:
        feet = player.pos
    else:
        low, high = actor.body_min, actor.body_max
        feet = ((low[0] + high[0]) / 2, low[1], (low[2] + high[2]) / 2)
    near = [e for e in world.entities_near(feet, SUMMON_REACH) if not e.kind.startswith("builtin:")]
    if len(near) >= SUMMON_LIMIT:
        actor.tell(f"{len(near)} creatures are near already")
        return
    try:
        world.add_entity(feet, kind)
    except ValueError as exc:
        actor.tell(str(exc))
        return
    actor.tell(f"summoned a {world.registry.entities[kind].description}")


@hookimpl
def register_blocks(registry: BlockRegistrar) -> None:
    registry.register_entity(
        EntityType(
            SHEEP,
            size=SIZE,
            visual="boxes",
            model=MODEL,
            drag=False,
            step_interval=THINK_SECONDS,
            on_step=sheep_step,
            on_punch=sheep_punched,
            on_use=sheep_fed,
        )
    )


@hookimpl
def register_commands(commands: CommandRegistrar) -> None:
    commands.register(
        ChatCommand("summon", summon, "[kind]", "make a creature where you stand (a sheep)")
    )
