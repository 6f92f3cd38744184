"""The base blocks' placement rules (Minecraft's), as functions any mod may reuse for its own
blocks' ``placement_state`` (`world.mods.context.PlaceContext` is what the click tells them):

- `slab_state`: the lower or upper half from where on the face you clicked (the upper half of a
  side, or a block's bottom face, gives a top slab; a top face a bottom slab); a slab placed
  into a slab of the same kind (clicking the top face of a bottom slab or the bottom face of a
  top slab, or clicking any block's face against one) makes a double slab.
- `stairs_state`: facing the actor's facing, upside-down on a ceiling or an upper-half click.
- `axis_state`: a log's axis from the clicked face.
- `torch_state`: on the floor or on a wall (facing away from it), never on a ceiling, and only
  against a solid face (`world.actions.placement.supports`).
- `door_state`: facing the actor, needing a second free voxel above and a solid block below;
  the hinge on the side of the door's middle you clicked.
- `fence_state`: a fence's arms toward neighbouring fences and full solid blocks
  (`world.actions.placement.fence_links`, kept up to date as neighbours change).

Facing follows `world.blocks.shapes`: north is −z, east +x.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from world.actions.placement import FACING_OF_NORMAL, fence_links, supports
from world.geometry import Int3
from world.mods.context import DOWN, FACING_NORMALS, UP, PlaceContext

if TYPE_CHECKING:
    from world.blocks.block_type import PropValue
    from world.mods.view import ModWorld

__all__ = ["axis_state", "door_state", "fence_state", "slab_state", "stairs_state", "torch_state"]


def _props(world: ModWorld, state: int) -> Mapping[str, PropValue]:
    return world.registry.props(state)


def slab_state(world: ModWorld, context: PlaceContext) -> Mapping[str, PropValue] | None:
    """A slab's ``half`` (``"bottom"``, ``"top"``, ``"double"``) from the click (module notes).

    Asked twice when the clicked voxel holds the same slab: first to merge into it (None: the
    click was not on its open side; the slab then goes against the face as usual).
    """
    registry = world.registry
    if registry.block_of(context.replacing) is context.block:
        half = _props(world, context.replacing)["half"]
        if half == "double":
            return None
        if context.into_clicked:
            face, upper = context.face, context.click_height > 0.5
            side = face not in (UP, DOWN, Int3(0, 0, 0))
            fits = (
                face == UP or (upper and side)
                if half == "bottom"
                else face == DOWN or (not upper and side)
            )
            if not fits:
                return None
        return {"half": "double"}
    return {"half": "top" if context.upper else "bottom"}


def stairs_state(context: PlaceContext) -> Mapping[str, PropValue]:
    """Stairs facing the actor (you walk up them away from you), upside-down on a ceiling or an
    upper-half click."""
    return {"facing": context.facing, "half": "top" if context.upper else "bottom"}


def axis_state(context: PlaceContext) -> Mapping[str, PropValue]:
    """A log (any block with an ``axis`` property) along the clicked face's axis."""
    return {"axis": context.axis}


def torch_state(world: ModWorld, context: PlaceContext) -> Mapping[str, PropValue] | str:
    """A torch on the floor (``facing="up"``) or on a wall (facing away from it), only against a
    solid face; a ceiling is refused.

    Clicking a face puts it against that face; clicking into a replaceable block (tall grass) tries
    the directions the actor looks along, nearest first.
    """
    registry = world.registry
    if context.into_clicked or context.face == (0, 0, 0):
        tries = context.looking_directions()
    else:
        if context.face == DOWN:
            return "a torch cannot hang from a ceiling"
        tries = (-context.face,)
    for toward in tries:  # toward the supporting block
        if toward == UP:
            continue
        support = world.get_block(*(context.pos + toward))
        if toward == DOWN:
            if supports(registry, support, UP, centre=True):
                return {"facing": "up"}
        elif supports(registry, support, -toward):
            return {"facing": FACING_OF_NORMAL[-toward]}
    return "a torch needs a solid block to stand or hang on"


def door_state(world: ModWorld, context: PlaceContext) -> Mapping[str, PropValue] | str:
    """The lower half of a door facing the actor, if the voxel above is free too (within the
    build height, replaceable, and the actor may place there: ``world.may_place``) and the block
    below offers a solid top (`supports`).

    The hinge is on the side of the door's middle that was clicked (Minecraft's last rule).
    """
    above = context.pos + UP
    low, high = world.build_height
    if not low <= above.y < high or not world.registry.replaceable[world.get_block(*above)]:
        return "a door needs two free blocks"
    if not supports(world.registry, world.get_block(*(context.pos + DOWN)), UP):
        return "a door needs a solid block under it"
    facing = context.facing
    upper = world.registry.with_props(context.state, facing=facing, half="upper")
    allowed = world.may_place(above, upper, context.actor)
    if not allowed:
        return allowed.reason
    dx = context.hit.point[0] - context.pos.x
    dz = context.hit.point[2] - context.pos.z
    step = FACING_NORMALS[facing]
    right = (
        (step.x < 0 and dz < 0.5)
        or (step.x > 0 and dz > 0.5)
        or (step.z < 0 and dx > 0.5)
        or (step.z > 0 and dx < 0.5)
    )
    return {"facing": facing, "half": "lower", "hinge": "right" if right else "left"}


def fence_state(world: ModWorld, context: PlaceContext) -> Mapping[str, PropValue]:
    """A fence with its arms toward its neighbours (`fence_links`)."""
    return fence_links(lambda p: world.get_block(*p), world.registry, context.pos)
