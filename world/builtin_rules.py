"""The built-in rules (Minecraft's), checked before any mod is asked, and the argument checks
of the rules' public API.

- Nothing is broken where there is air or an unbreakable block (infinite hardness: bedrock,
  water); breaking takes the block's hardness in seconds by hand, nothing in creative.
- A block is placed into ``hit.block`` itself when that block is replaceable (tall grass), else
  into ``hit.block + hit.face``; never air, never into a block that is not replaceable, nor the
  same block again, nor outside the world's ``build_height`` (``low <= wy < high``), nor, for a
  solid block, into the actor's body.

`may_break` and `may_place` apply these, then ask the mods' ``can_*`` hooks through the action's
transaction: they answer a denial `Outcome`, or None when the action may go on.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from world import validate
from world.blocks import AIR, BlockType
from world.geometry import FACE_NORMALS, Int3
from world.outcome import Actor, Outcome, denied
from world.ray import Hit

if TYPE_CHECKING:
    from world.transaction import Transaction

__all__ = [
    "break_seconds",
    "check_actor",
    "check_hit",
    "may_break",
    "may_place",
    "place_target",
]

_FACES = frozenset((*FACE_NORMALS, Int3(0, 0, 0)))


def check_actor(actor: object) -> Actor:
    """``actor`` when it is an `Actor`; ``TypeError`` naming it otherwise."""
    if not isinstance(actor, Actor):
        raise TypeError(f"actor must be an Actor, got {type(actor).__name__}")
    return actor


def check_hit(hit: object) -> tuple[Int3, Int3] | None:
    """The voxel and face of a `Hit` (None for no hit), checked as the raycast could report them.

    Raises
    ------
    TypeError
        When ``hit`` is neither a `Hit` nor None.
    ValueError
        Naming ``hit.block`` or ``hit.face``: a coordinate outside the world, or a face that is
        not one of the six unit normals (`world.geometry.FACE_NORMALS`) or (0, 0, 0).
    """
    if hit is None:
        return None
    if not isinstance(hit, Hit):
        raise TypeError(f"hit must be a Hit or None, got {type(hit).__name__}")
    block = validate.position(hit.block, "hit.block")
    face = validate.position(hit.face, "hit.face")
    if face not in _FACES:
        raise ValueError(
            f"hit.face must be one of the six unit face normals or (0, 0, 0), got {tuple(face)}"
        )
    return block, face


def break_seconds(block: BlockType, actor: Actor) -> float:
    """Seconds ``actor`` holds the button to break ``block``: hardness, 0 in creative, inf."""
    if not block.breakable:
        return math.inf
    return 0.0 if actor.creative else float(block.hardness)


def may_break(tx: Transaction, pos: Int3, actor: Actor) -> Outcome | None:
    """The denial of breaking ``pos`` (built-in rules, then ``can_break``), or None."""
    block_id = tx.world.get_block(*pos)
    if block_id == AIR:
        return denied("nothing to break", pos)
    block = tx.world.registry[block_id]
    if not block.breakable:
        return denied(f"{block.description} cannot be broken", pos)
    return _ask(tx, "can_break", pos, block, actor)


def place_target(tx: Transaction, block: Int3, face: Int3) -> Int3 | Outcome:
    """Where a block placed at a hit goes: the hit voxel when replaceable, else against the face
    (a denial when there is no face: the eye is inside the block)."""
    world = tx.world
    if world.registry.replaceable[world.get_block(*block)]:
        return block
    if face == (0, 0, 0):
        return denied("no face to place against: the eye is inside the block", block)
    target = block + face
    if max(abs(target.x), abs(target.y), abs(target.z)) >= validate.WORLD_LIMIT:
        return denied("outside the world", target)
    return target


def may_place(tx: Transaction, pos: Int3, block_id: int, actor: Actor) -> Outcome | None:
    """The denial of placing ``block_id`` at ``pos`` itself (rules, then ``can_place``), or None."""
    world = tx.world
    registry = world.registry
    block = registry[block_id]
    if block_id == AIR:
        return denied("cannot place air", pos)
    low, high = world.build_height
    if not low <= pos.y < high:
        return denied(f"outside the build height ({low} to {high - 1})", pos)
    current_id = world.get_block(*pos)
    current = registry[current_id]
    if current_id == block_id:
        return denied(f"there is already {current.description} here", pos)
    if not current.replaceable:
        return denied(f"{current.description} is in the way", pos)
    if block.solid and actor.overlaps(pos):
        return denied(f"cannot place {block.description} inside yourself", pos)
    return _ask(tx, "can_place", pos, block, actor)


def _ask(tx: Transaction, hook: str, pos: Int3, block: BlockType, actor: Actor) -> Outcome | None:
    called = tx.call(hook, {"world": tx.view, "pos": pos, "block": block, "actor": actor})
    if called.error is not None:
        return Outcome(False, str(called.error), pos=pos, denied_by=called.error.mod)
    if called.answer is not None:
        return denied(str(called.answer), pos, called.mod)
    return None
