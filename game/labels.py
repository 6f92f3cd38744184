"""Labels drawn on blocks (`world.blocks.labels`): a sign's text on its board.

The chunk view tells this view which chunks it drew and dropped (`LabelView.chunk_shown`,
`LabelView.chunk_dropped`); each drawn chunk is scanned once (a table lookup of its block ids) for
the states whose block type has a `world.blocks.labels.Label`. Every frame (`LabelView.update`) the
labels within `LABEL_DISTANCE` blocks of the eye, nearest chunks first and at most `MAX_LABELS`,
read their voxel's data value and draw it as text: a Panda3D text node placed through the render
origin, `world.blocks.labels.LABEL_GAP` in front of the label's face, facing the way the block
faces. A label whose text did not change costs one data lookup a frame; a world without labels costs
a dictionary test.

Minecraft draws sign text up to a distance and not from behind (the text's back faces are
culled here too); it is black, as Minecraft's default sign text.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

import numpy as np
from numpy.typing import NDArray
from panda3d.core import NodePath, TextFont, TextNode
from ursina import Text, application

from game.render_origin import RenderOrigin
from game.scene import world_root
from world.blocks.labels import Label, LabelPlace, label_place, label_text
from world.blocks.shapes import FACINGS
from world.geometry import Int3
from world.voxels.chunks import World
from world.voxels.layout import CHUNK, ChunkKey, chunk_index, voxel_at

__all__ = ["LABEL_DISTANCE", "MAX_LABELS", "LabelView"]

LABEL_DISTANCE: Final = 24.0  # blocks from the eye within which labels are drawn
MAX_LABELS: Final = 256  # labels looked at in a frame at most (the nearest chunks' first)
_COLOUR: Final = (0.0, 0.0, 0.0, 1.0)
_HEADING: Final = {"north": 0.0, "east": 90.0, "south": 180.0, "west": -90.0}


@dataclass
class _Shown:
    """One label voxel of a drawn chunk: its state, and its text node once it has text."""

    state: int
    value: object = None  # the data value drawn (None: none, or not drawn)
    text: str = ""
    node: NodePath | None = field(default=None, repr=False)


class LabelView:
    """The labels of the drawn chunks, drawn near the eye."""

    def __init__(
        self, world: World, origin: RenderOrigin, distance: float = LABEL_DISTANCE
    ) -> None:
        if not distance > 0:
            raise ValueError(f"distance must be > 0, got {distance!r}")
        self.world = world
        self.origin = origin
        self.distance = float(distance)
        registry = world.registry
        states = len(registry.transparent)
        self._labelled: NDArray[np.bool_] = np.zeros(states, dtype=np.bool_)
        self._places: dict[int, tuple[Label, LabelPlace, str]] = {}
        for state in range(states):
            label = registry.block_of(state).label
            if label is None:
                continue
            facing = registry.props(state).get("facing", "north")
            facing = facing if facing in FACINGS else "north"
            self._labelled[state] = True
            self._places[state] = (label, label_place(label, facing), str(facing))
        self._by_chunk: dict[ChunkKey, dict[Int3, _Shown]] = {}
        self._near: list[tuple[Int3, _Shown]] = []  # what `update` looks at, nearest first
        self._near_from: tuple[int, int, int] | None = None  # the eye's chunk `_near` is for
        self.node = world_root().attachNewNode("labels")  # in world axes (`game.scene`)
        self._font: TextFont | None = None

    def __len__(self) -> int:
        """How many labels are drawn (have a text node)."""
        return sum(1 for _, shown in self._near if shown.node is not None)

    def chunk_shown(self, key: ChunkKey) -> None:
        """The chunk was drawn (again): find its label voxels; those gone lose their text."""
        found: dict[Int3, _Shown] = {}
        if self._places and self.world.is_loaded(*key):
            blocks = self.world.chunk_blocks(*key)
            indices = np.flatnonzero(self._labelled[blocks])
            old = self._by_chunk.get(key, {})
            for index in indices.tolist():
                state = int(blocks[index])
                pos = Int3(*voxel_at(key, index))
                shown = old.pop(pos, None)
                if shown is not None and shown.state != state:
                    self._remove(shown)
                    shown = None
                found[pos] = shown if shown is not None else _Shown(state)
            for shown in old.values():
                self._remove(shown)
        else:
            self.chunk_dropped(key)
        if found:
            self._by_chunk[key] = found
        else:
            self._by_chunk.pop(key, None)
        self._near_from = None  # look again

    def chunk_dropped(self, key: ChunkKey) -> None:
        """The chunk is no longer drawn: its labels go."""
        for shown in self._by_chunk.pop(key, {}).values():
            self._remove(shown)
        self._near_from = None

    def update(self, eye: Iterable[float]) -> None:
        """Draw the labels near the eye with their voxels' text now; drop the far ones."""
        if not self._by_chunk and not self._near:
            return
        ex, ey, ez = eye
        at, _ = chunk_index(math.floor(ex), math.floor(ey), math.floor(ez))
        if at != self._near_from:
            self._find_near(at)
        data = self.world.block_data
        limit = self.distance * self.distance
        for pos, shown in self._near:
            label, place, _ = self._places[shown.state]
            dx = pos[0] + place.centre[0] - ex
            dy = pos[1] + place.centre[1] - ey
            dz = pos[2] + place.centre[2] - ez
            near = dx * dx + dy * dy + dz * dz <= limit
            value = data.value(pos, label.key) if near else None
            if value is shown.value:  # as drawn (values are immutable: the same object)
                continue
            shown.value = value
            text = label_text(label, value)
            if text != shown.text:
                self._write(pos, shown, text)

    def _find_near(self, at: tuple[int, int, int]) -> None:
        """The labels of the chunks within reach of the eye's chunk, nearest chunks first."""
        reach = [math.ceil(self.distance / size) for size in CHUNK]
        keys = sorted(
            (
                key
                for key in self._by_chunk
                if all(abs(key[axis] - at[axis]) <= reach[axis] for axis in range(3))
            ),
            key=lambda key: sum((key[axis] - at[axis]) ** 2 for axis in range(3)),
        )
        near = [item for key in keys for item in self._by_chunk[key].items()][:MAX_LABELS]
        kept = {id(shown) for _, shown in near}
        for _, shown in self._near:
            if id(shown) not in kept:
                self._remove(shown)
        self._near, self._near_from = near, at

    def _write(self, pos: Int3, shown: _Shown, text: str) -> None:
        """Show ``text`` on the label (none: its node goes)."""
        shown.text = text
        if not text:
            self._remove(shown)
            return
        label, place, facing = self._places[shown.state]
        if shown.node is None:
            # An anchor at the face's centre, turned and sized; the text under it, centred.
            shown.node = self.node.attachNewNode("label")
            shown.node.setH(_HEADING[facing])
            self.origin.place(shown.node, [pos[axis] + place.centre[axis] for axis in range(3)])
            text_node = TextNode("label text")
            text_node.setFont(self._text_font())
            text_node.setAlign(TextNode.ACenter)
            text_node.setTextColor(*_COLOUR)
            shown.node.attachNewNode(text_node)
        holder = shown.node.getChild(0)
        text_node = holder.node()
        assert isinstance(text_node, TextNode)
        text_node.setText(text)
        # Sized so that the label's lines fill the face's height, smaller when a line would
        # overflow its width; the text's frame centred on the face's centre.
        left, right, bottom, top = text_node.getFrameActual()
        size = min(
            place.height * 0.95 / (label.lines * text_node.getLineHeight()),
            place.width * 0.85 / max(right - left, 1e-6),
        )
        # Under `world_root`'s mirror a text reads backwards: mirrored once more across its own
        # width, it reads the right way round from in front of its face.
        shown.node.setScale(-size, size, size)
        holder.setPos(-(left + right) / 2, -(bottom + top) / 2, 0)

    def _text_font(self) -> TextFont:
        if self._font is None:
            font = application.base.loader.loadFont(Text.default_font)  # as ursina's Text
            assert isinstance(font, TextFont)
            self._font = font
        return self._font

    def _remove(self, shown: _Shown) -> None:
        shown.value, shown.text = None, ""
        if shown.node is not None:
            self.origin.forget(shown.node)
            shown.node.removeNode()
            shown.node = None

    def destroy(self) -> None:
        """Remove every label's node."""
        for found in self._by_chunk.values():
            for shown in found.values():
                self._remove(shown)
        self._by_chunk.clear()
        self._near = []
        self.node.removeNode()
