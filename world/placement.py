"""Placement: the base blocks' placement rules, and the built-in shape rules of neighbours.

What a click tells the block being placed is `world.place_context.PlaceContext`. The base
blocks' rules (Minecraft's), as functions any mod may reuse for its own blocks:

- `slab_state`: the lower or upper half from where on the face you clicked (the upper half of a
  side, or a block's bottom face, gives a top slab; a top face a bottom slab); a slab placed
  into a slab of the same kind (clicking the top face of a bottom slab or the bottom face of a
  top slab, or clicking any block's face against one) makes a double slab.
- `stairs_state`: facing the actor's facing, upside-down on a ceiling or an upper-half click.
- `axis_state`: a log's axis from the clicked face.
- `torch_state`: on the floor or on a wall (facing away from it), never on a ceiling, and only
  against a solid face (`supports`).
- `door_state`: facing the actor, needing a second free voxel above and a solid block below;
  the hinge on the side of the door's middle you clicked.
- `fence_links` / `fence_state`: a fence's arms toward neighbouring fences and full solid
  blocks (kept up to date as neighbours change, `world.transaction.Transaction.settle`).

Facing follows `world.shapes`: north is −z, east +x.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from world.geometry import FACE_NORMALS, Int3
from world.place_context import DOWN, FACING_NORMALS, UP, PlaceContext

if TYPE_CHECKING:
    from world.blocks import BlockRegistry, PropValue
    from world.mod_world import ModWorld

__all__ = [
    "attached_to",
    "axis_state",
    "door_state",
    "fence_links",
    "fence_state",
    "links_to_fence",
    "slab_state",
    "stairs_state",
    "still_attached",
    "supports",
    "torch_state",
    "update_neighbor_shapes",
]

_FACING_OF_NORMAL = {normal: name for name, normal in FACING_NORMALS.items()}
_CENTRE = (7 / 16, 9 / 16)  # what a floor torch needs under it (Minecraft's "center" support)


# -- the base blocks' rules -----------------------------------------------------------------------


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


def supports(registry: BlockRegistry, state: int, side: Int3, *, centre: bool = False) -> bool:
    """Does the block in ``state`` offer a solid face on ``side`` (a unit normal)?

    A solid block (one with collision boxes) whose selection boxes include one covering the whole
    face on that side, or with ``centre`` only its middle 2/16 square (a fence post holds a
    torch, as in Minecraft).
    """
    if not registry.solid[state]:
        return False
    boxes = registry.selection_boxes[state]
    if boxes is None:
        return True
    axis = 0 if side.x else 1 if side.y else 2
    sign = side[axis]
    u, v = (a for a in range(3) if a != axis)
    lo, hi = _CENTRE if centre else (0.0, 1.0)
    for box in boxes:
        touching = box[axis + 3] == 1.0 if sign > 0 else box[axis] == 0.0
        if touching and box[u] <= lo and box[u + 3] >= hi and box[v] <= lo and box[v + 3] >= hi:
            return True
    return False


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
            return {"facing": _FACING_OF_NORMAL[-toward]}
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


def attached_to(registry: BlockRegistry, state: int) -> tuple[Int3, Int3, bool]:
    """Where a block of the group ``"attached"`` in ``state`` hangs: the offset of the voxel
    holding it, the side of that voxel it needs solid (`supports`), and whether only the side's
    centre is needed. By its ``facing`` property: ``"up"`` or none stands on the voxel below,
    ``"north"`` hangs on the wall to its south, and so on."""
    facing = registry.props(state).get("facing", "up")
    if facing in FACING_NORMALS:
        normal = FACING_NORMALS[str(facing)]
        return -normal, normal, False
    return DOWN, UP, True


def still_attached(read: Callable[[Int3], int], registry: BlockRegistry, pos: Int3) -> bool:
    """Whether the ``"attached"`` block at ``pos`` still has its support (`attached_to`)."""
    offset, side, centre = attached_to(registry, read(pos))
    return supports(registry, read(pos + offset), side, centre=centre)


def links_to_fence(registry: BlockRegistry, state: int) -> bool:
    """A fence's arm reaches toward this block: another fence (group ``"fence"``) or a solid full
    cube."""
    return "fence" in registry[state].groups or bool(registry.collision_full[state])


def fence_links(read: Callable[[Int3], int], registry: BlockRegistry, pos: Int3) -> dict[str, bool]:
    """``{"north": bool, ...}``: which of the four sides of ``pos`` hold a block a fence links to
    (``read`` gives the state id at a voxel)."""
    return {
        name: links_to_fence(registry, read(pos + normal))
        for name, normal in FACING_NORMALS.items()
    }


def fence_state(world: ModWorld, context: PlaceContext) -> Mapping[str, PropValue]:
    """A fence with its arms toward its neighbours (`fence_links`)."""
    return fence_links(lambda p: world.get_block(*p), world.registry, context.pos)


def update_neighbor_shapes(
    read: Callable[[Int3], int],
    write: Callable[[Int3, int], None],
    registry: BlockRegistry,
    pos: Int3,
    reactive: tuple[bool, ...],
) -> None:
    """The built-in shape rules for the six neighbours of a changed voxel: an ``"attached"``
    block (a torch) whose support went becomes air; a ``"fence"`` re-links its arms."""
    sides = tuple(FACING_NORMALS)
    for normal in FACE_NORMALS:
        near = pos + normal
        state = read(near)
        if not reactive[state]:
            continue
        groups = registry[state].groups
        if (
            "attached" in groups
            and near + attached_to(registry, state)[0] == pos
            and not still_attached(read, registry, near)
        ):
            write(near, 0)  # air
            continue
        if "fence" in groups and normal.y == 0 and all(s in registry.props(state) for s in sides):
            write(near, registry.with_props(state, **fence_links(read, registry, near)))
