"""What a click tells the block being placed: `PlaceContext` (Minecraft's ``BlockPlaceContext``,
Luanti's ``pointed_thing``).

A right click that places a block builds one: the raycast's `world.ray.Hit` (clicked voxel,
face, exact point, box), the voxel that will change, the actor, its look direction, its
horizontal facing and whether it sneaks. The rules (`world.actions.pipeline`) pass it to the placed
block's ``placement_state`` callback, which picks the state to place, and to the mods'
``can_place`` and ``on_place`` hooks. A mod-facing value, low in the layers, beside the hook
specifications that name it. Facing follows `world.blocks.shapes`: north is −z, east +x.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.geometry import FACE_NORMALS, Int3, Vec3

if TYPE_CHECKING:
    from world.blocks.block_type import BlockType
    from world.mods.outcome import Actor
    from world.ray import Hit

__all__ = ["DOWN", "FACING_NORMALS", "UP", "PlaceContext", "facing_of"]

UP = Int3(0, 1, 0)
DOWN = Int3(0, -1, 0)
FACING_NORMALS: Mapping[str, Int3] = {
    "north": Int3(0, 0, -1),
    "east": Int3(1, 0, 0),
    "south": Int3(0, 0, 1),
    "west": Int3(-1, 0, 0),
}
"""The unit vector of each horizontal facing (north is −z)."""


def facing_of(look: Vec3) -> str:
    """The horizontal facing a look direction points to most: ``"north"`` (−z), east, south or
    west; north when it points straight up or down. Ties go to the z axis."""
    dx, _, dz = look
    if dx == 0 and dz == 0:
        return "north"
    if abs(dx) > abs(dz):
        return "east" if dx > 0 else "west"
    return "south" if dz > 0 else "north"


@dataclass(frozen=True)
class PlaceContext:
    """What a click tells the block being placed (see the module notes).

    Attributes
    ----------
    hit : Hit
        The raycast's answer: ``hit.block`` the clicked voxel, ``hit.face`` the face entered
        (pointing back at the actor; (0, 0, 0) from inside), ``hit.point`` the exact point on
        the box ``hit.box`` of its selection shape.
    pos : Int3
        The voxel that will change: ``hit.block`` itself when it is replaceable (tall grass) or
        a merge (a slab into a slab), else ``hit.block + hit.face``.
    block : BlockType
        The block being placed.
    state : int
        The state id the actor holds (the one placed unless ``placement_state`` picks another).
    replacing : int
        The state id ``pos`` holds now: air, a replaceable block, or the same block (a merge).
    actor : Actor
    look : tuple of 3 float
        The actor's look direction, unit length.
    facing : str
        The actor's horizontal facing (`facing_of` of `look`).
    sneak : bool
        The actor sneaks.
    """

    hit: Hit
    pos: Int3
    block: BlockType
    state: int
    replacing: int
    actor: Actor
    look: Vec3
    facing: str
    sneak: bool

    @classmethod
    def make(
        cls, hit: Hit, pos: Int3, block: BlockType, state: int, replacing: int, actor: Actor
    ) -> PlaceContext:
        """The context of ``actor`` placing ``state`` at ``pos`` after clicking ``hit``.

        The look direction is ``actor.look``, else the direction from the actor's eye to the
        clicked point, else north.
        """
        look = actor.look
        if look is None:
            look = (hit.point[0] - actor.eye[0], hit.point[1] - actor.eye[1],
                    hit.point[2] - actor.eye[2])  # fmt: skip
        length = math.sqrt(look[0] ** 2 + look[1] ** 2 + look[2] ** 2)
        unit = (0.0, 0.0, -1.0) if length == 0 else (look[0] / length, look[1] / length,
                                                      look[2] / length)  # fmt: skip
        return cls(hit, pos, block, state, replacing, actor, unit, facing_of(unit), actor.sneak)

    @property
    def clicked(self) -> Int3:
        """The clicked voxel, ``hit.block``."""
        return self.hit.block

    @property
    def face(self) -> Int3:
        """The clicked face's normal, ``hit.face``."""
        return self.hit.face

    @property
    def point(self) -> Vec3:
        """The exact clicked point, on the box ``hit.box`` (``hit.point``)."""
        return self.hit.point

    @property
    def box(self) -> int:
        """The index of the clicked box in the clicked state's selection shape (``hit.box``)."""
        return self.hit.box

    @property
    def into_clicked(self) -> bool:
        """The block goes into the clicked voxel itself (Minecraft's
        ``replacingClickedOnBlock``)."""
        return self.pos == self.hit.block

    @property
    def click_height(self) -> float:
        """How high on `pos` the click was: ``hit.point.y - pos.y`` (a side click: 0..1)."""
        return self.hit.point[1] - self.pos.y

    @property
    def upper(self) -> bool:
        """The click asks for the upper half: a block's bottom face (a ceiling), or a side clicked
        above its middle; never a top face (Minecraft's slab and stair rule)."""
        if self.face == DOWN:
            return True
        return self.face != UP and self.click_height > 0.5

    @property
    def axis(self) -> str:
        """The clicked face's axis, ``"x"``, ``"y"`` or ``"z"`` (``"y"`` from inside a block)."""
        x, _, z = self.face
        return "x" if x else "z" if z else "y"

    def looking_directions(self) -> tuple[Int3, ...]:
        """The six face normals, the one the look points along most first (Minecraft's
        ``getNearestLookingDirections``)."""
        lx, ly, lz = self.look
        return tuple(sorted(FACE_NORMALS, key=lambda n: -(n.x * lx + n.y * ly + n.z * lz)))
