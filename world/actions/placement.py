"""The built-in shape rules of neighbours: what holds a block up, and how fences link.

These run with or without mods, keyed by a block's groups, whenever a voxel changes
(`world.actions.transaction.Transaction.settle`):

- `supports`: whether a state offers a solid face (or the centre of one) on a side;
- `attached_to` / `still_attached`: a block of the group ``"attached"`` (a torch) and the
  neighbour holding it up; it drops when that support goes;
- `links_to_fence` / `fence_links`: a block of the group ``"fence"`` links its arms toward
  neighbouring fences and full solid blocks;
- `update_neighbor_shapes`: both, for the six neighbours of a changed voxel.

The base blocks' placement rules that use them (a torch's, a fence's) are content:
`world.base.placement`. Facing follows `world.blocks.shapes`: north is −z, east +x.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from world.geometry import FACE_NORMALS, Int3
from world.mods.context import DOWN, FACING_NORMALS, UP

if TYPE_CHECKING:
    from world.blocks.registry import BlockRegistry

__all__ = [
    "FACING_OF_NORMAL",
    "attached_to",
    "fence_links",
    "links_to_fence",
    "still_attached",
    "supports",
    "update_neighbor_shapes",
]

FACING_OF_NORMAL: Mapping[Int3, str] = {normal: name for name, normal in FACING_NORMALS.items()}
"""The horizontal facing of each horizontal unit vector."""
_CENTRE = (7 / 16, 9 / 16)  # what a floor torch needs under it (Minecraft's "center" support)


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
