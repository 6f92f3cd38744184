"""The base game's items that are not blocks: Minecraft's buckets, `BASE_ITEMS`, registered by
the base game's plugin (`world.base.BaseGame`) through the registrar as any mod's items.

Contract
--------
- ``base:bucket`` (empty, 16 a stack, as Minecraft's), ``base:water_bucket`` and
  ``base:lava_bucket`` (1 a stack). No recipe makes them: Minecraft's takes three iron ingots,
  and the game has no iron ingot (the ``ores`` mod's iron is ore, smelted into nothing); they
  come from the creative picker (or ``/give``).
- Picking up (`fill_bucket`, the empty bucket's ``on_use``; it points at liquid sources,
  ``points_at="liquid_sources"``: the game's ray stops at a source (not a falling column), and looks
  through flowing liquid, Minecraft's ``SOURCE_ONLY``): a click on a liquid's source (level
  `world.blocks.liquid.SOURCE`) whose liquid has a bucket (an item whose ``on_use`` is a `Pour` of
  that liquid into this empty bucket) makes the source air and turns one empty bucket into a
  full one. In survival the held stack loses one bucket and the full one takes its place when it
  was the last, else goes into the inventory, else is thrown from the eye (Minecraft's
  ``ItemUtils.createFilledResult``). In creative the empty bucket stays and the full one is added
  unless the inventory holds one already (Minecraft Java's creative: no duplicates; nothing when
  the inventory is full). Flowing liquid, a liquid without a bucket, or any other block: not
  handled. The pick-up is a use of the source's voxel: ``can_use`` vetoes it (the ``protection``
  mod refuses a stranger's).
- Pouring (`Pour`, a full bucket's ``on_use``; it points at blocks as the bare hand does:
  Minecraft's filled bucket looks through liquids and pours against the block behind): the
  source goes where a block placed at the click would: into the clicked voxel when that is
  replaceable (air, tall grass, a liquid), else against the clicked face. A block there that a
  liquid washes away and that is not replaceable (`world.blocks.block_type.BlockType.floodable`:
  a torch, a sapling) is broken first as the pourer (``world.dig``: its ``can_break`` and the
  mods' asked), its drops thrown there in survival (Minecraft's ``destroyBlock(pos, true)``).
  The source is placed with ``world.place`` as the pourer: the built-in rules (not into a block
  in the way, nor the same state again: a bucket poured into its own liquid's source keeps its
  liquid, where Minecraft's would empty for nothing), every mod's ``can_place``, protection. A
  liquid has no collision, so it may be poured where the player stands (Minecraft). A refusal
  is the click's answer and undoes the break, the bucket stays full. Done: the bucket becomes
  its empty bucket in survival (as `fill_bucket` exchanges it), stays full in creative
  (Minecraft). The source placed is a still source (the liquid's default state).
- A mod's liquid gets a bucket the same way::

      registry.register_item(Item("honey:honey_bucket", image="honey_bucket.png", stack_max=1,
                                  on_use=Pour("honey:honey")))

  and the base game's empty bucket picks its sources up (`Pour`'s ``empty``: another empty
  bucket, with ``on_use=fill_bucket, points_at="liquid_sources"``, holds its own liquids).
- Every change (the voxel, the inventory, a dropped stack) is made through the action's world
  view: a veto or a failing hook anywhere in the click leaves the world and every inventory as
  they were.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from world.actions.objects import THROW_SPEED
from world.blocks.drops import block_drops
from world.geometry import Int3
from world.items.inventory import ItemStack
from world.items.item import Item
from world.mods.outcome import Actor, Outcome
from world.tiles import NAME_PATTERN
from world.validate import WORLD_LIMIT

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.blocks.registry import BlockRegistry
    from world.mods.objects import PlayerRef
    from world.mods.view import ModWorld
    from world.ray import Hit

__all__ = [
    "BASE_ITEMS",
    "BUCKET",
    "BUCKET_STACK",
    "LAVA_BUCKET",
    "WATER_BUCKET",
    "Pour",
    "fill_bucket",
]

BUCKET: Final = "base:bucket"
WATER_BUCKET: Final = "base:water_bucket"
LAVA_BUCKET: Final = "base:lava_bucket"
BUCKET_STACK: Final = 16  # Minecraft's empty buckets stack to 16, its full ones to 1


@dataclass(frozen=True)
class Pour:
    """A full bucket's ``on_use`` (module notes): pour a source of ``liquid`` (a liquid block's
    name); the bucket becomes ``empty`` (an empty bucket's item name) in survival.

    Raises
    ------
    ValueError
        Naming ``liquid`` or ``empty`` when it is not a ``"mod:name"``. A ``liquid`` that is no
        registered liquid block is a `ValueError` when the bucket is used (the mod's failure).
    """

    liquid: str
    empty: str = BUCKET

    def __post_init__(self) -> None:
        for field in ("liquid", "empty"):
            value = getattr(self, field)
            if not isinstance(value, str) or not NAME_PATTERN.match(value):
                raise ValueError(f"{field} must be a name 'mod:name', got {value!r}")

    def __call__(
        self, world: ModWorld, hit: Hit, item: Item, actor: Actor, player: PlayerRef | None
    ) -> bool | Outcome | None:
        registry = world.registry
        if self.liquid not in registry or registry[self.liquid].liquid is None:
            raise ValueError(f"{item.name} pours {self.liquid!r}, which is no registered liquid")
        if player is None or not _holds(player, item):
            return None
        target = _pour_target(world, hit)
        if target is None:
            return None
        current = world.get_block(*target)
        if registry.liquids.floodable[current] and not registry.replaceable[current]:
            broken = world.dig(target, actor)  # a torch, a sapling: washed away, as the pourer
            if not broken.done:
                return broken
            if not player.creative:
                centre = (target.x + 0.5, target.y + 0.25, target.z + 0.5)
                for stack in block_drops(registry, current, random.Random()):
                    world.add_item(centre, stack)
        placed = world.place(target, self.liquid, actor)
        if not placed.done:
            return placed
        if not player.creative:
            _exchange(world, player, ItemStack(self.empty, 1))
        return True


def fill_bucket(
    world: ModWorld,
    pos: Int3,
    block: BlockType,
    state: int,
    item: Item,
    player: PlayerRef | None,
) -> bool | None:
    """An empty bucket's ``on_use`` (module notes): a liquid's source at ``pos`` becomes air and
    the bucket its full bucket; anything else is not handled (None)."""
    registry = world.registry
    if not registry.liquids.source[state] or player is None or not _holds(player, item):
        return None
    filled = _bucket_of(registry, block.name, item.name)
    if filled is None:
        return None
    world.set_block(*pos, "air")
    if not player.creative:
        _exchange(world, player, ItemStack(filled, 1))
    elif not player.inventory.contains(filled):
        player.inventory.add(ItemStack(filled, 1))  # Minecraft: nothing when there is no room
    return True


def _holds(player: PlayerRef, item: Item) -> bool:
    """Whether the player holds ``item`` (an actor who is no player of the world holds none)."""
    held = player.held
    return held is not None and held.item == item.name


def _bucket_of(registry: BlockRegistry, liquid: str, empty: str) -> str | None:
    """The first registered item that pours ``liquid`` and empties into ``empty``, or None."""
    for other in registry.items.values():
        pour = other.on_use
        if isinstance(pour, Pour) and pour.liquid == liquid and pour.empty == empty:
            return other.name
    return None


def _pour_target(world: ModWorld, hit: Hit) -> Int3 | None:
    """Where a block placed at ``hit`` would go: the clicked voxel when it is replaceable, else
    the voxel against the clicked face (None: the eye is inside the block, or the world ends)."""
    clicked = Int3(*hit.block)
    if world.registry.replaceable[world.get_block(*clicked)]:
        return clicked
    if tuple(hit.face) == (0, 0, 0):
        return None
    target = clicked + hit.face
    return target if max(abs(c) for c in target) < WORLD_LIMIT else None


def _exchange(world: ModWorld, player: PlayerRef, new: ItemStack) -> None:
    """One bucket of the held stack becomes ``new``: in the hand when it was the last, else into
    the inventory, else thrown from the eye along the look (Minecraft's)."""
    held = player.held
    if held is None or held.count <= 1:
        player.set_held(new)
        return
    player.take_held(1)
    left = player.inventory.add(new)
    if left is not None:
        velocity = tuple(THROW_SPEED * c for c in player.look)
        world.add_item(player.eye, left, velocity=velocity)


BASE_ITEMS: Final = (
    Item(
        BUCKET,
        description="bucket",
        image="base:bucket",
        stack_max=BUCKET_STACK,
        on_use=fill_bucket,
        points_at="liquid_sources",
    ),
    Item(
        WATER_BUCKET,
        description="water bucket",
        image="base:water_bucket",
        stack_max=1,
        on_use=Pour("base:water"),
    ),
    Item(
        LAVA_BUCKET,
        description="lava bucket",
        image="base:lava_bucket",
        stack_max=1,
        on_use=Pour("base:lava"),
    ),
)
"""The base game's items, registered after its blocks."""
