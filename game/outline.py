"""The thin dark outline drawn around the targeted block."""

from __future__ import annotations

import itertools

from ursina import Entity, Mesh, color, destroy

from world.ray import Hit

__all__ = ["BlockOutline"]

MARGIN = 0.003  # just outside the block's faces, so the lines are not hidden in them
_CORNERS = [(x, y, z) for x, y, z in itertools.product((-MARGIN, 1 + MARGIN), repeat=3)]
# The cube's 12 edges: corner pairs that differ in exactly one coordinate.
_EDGES = [
    (a, b)
    for a, b in itertools.combinations(range(8), 2)
    if sum(p != q for p, q in zip(_CORNERS[a], _CORNERS[b], strict=True)) == 1
]


class BlockOutline:
    """A line cube that follows the raycast's hit (hidden when nothing is targeted)."""

    def __init__(self) -> None:
        mesh = Mesh(vertices=_CORNERS, triangles=_EDGES, mode="line", thickness=2, static=True)
        self.entity = Entity(model=mesh, color=color.rgba(0, 0, 0, 0.7), enabled=False)

    def show(self, hit: Hit | None) -> None:
        """Put the outline around ``hit.block``, or hide it."""
        if hit is None:
            self.entity.enabled = False
            return
        self.entity.position = hit.block
        self.entity.enabled = True

    def destroy(self) -> None:
        """Remove the outline."""
        destroy(self.entity)
