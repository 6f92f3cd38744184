"""Labels: text the game draws on a block's face, read from the voxel's data (a sign's text).

A block type with a `Label` has its voxels' data value under `Label.key` drawn on one face of
`Label.box`: the box's north (−z) face for the block's state facing north, turned with the state's
``facing`` property as `world.blocks.shapes.rotate` turns shapes (a block without one is drawn as
facing north). Minecraft draws a sign's text on its board; Luanti's sign mods draw it with an entity
a sign. Here the block type says where, and the game draws it (`game.labels`): a modder writes the
text into the voxel's data (``world.meta(x, y, z)["text"] = ...``) and the board shows it.

What is drawn is `label_text` of the value: a str, int or float as text, at most `Label.lines`
lines, each cut to `Label.columns` characters; anything else (bytes), or an empty text, draws
nothing. The lines are centred on the face, sized so that `Label.lines` lines fill its height,
and shrunk further when the longest line would overflow its width.

This module is pure data and arithmetic; the game's `game.labels` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from world.blocks.shapes import FACINGS, Box, check_shape, rotate

__all__ = ["LABEL_GAP", "Label", "LabelPlace", "label_place", "label_text", "shown_text"]

LABEL_GAP: Final = 1 / 256
"""How far in front of its face a label is drawn (blocks): clear of the face's depth."""


@dataclass(frozen=True)
class Label:
    """Where a block draws one of its voxels' data values as text.

    Parameters
    ----------
    key : str
        The voxel data key whose value is drawn (``"text"`` for the `signs` mod).
    box : Box
        The board, in the block's unit cube for its state facing north: the text is drawn on
        this box's north (−z) face, centred.
    lines, columns : int
        At most this many lines of this many characters are drawn (Minecraft's signs: 4 of 15).
    """

    key: str
    box: Box
    lines: int = 4
    columns: int = 15

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise ValueError(f"key of a Label must be a non-empty str, got {self.key!r}")
        (box,) = check_shape("Label", "box", (self.box,))
        object.__setattr__(self, "box", box)
        for name in ("lines", "columns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
                raise ValueError(f"{name} of a Label must be an integer 1..64, got {value!r}")


def shown_text(value: object, limit: int) -> str:
    """A data value as text to show: a str, int or float as text, cut to ``limit`` characters
    (before anything splits it: a value may be 16 KiB of one line or of empty lines), without
    surrounding blanks; "" for anything else (bytes, a bool, None)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return str(value)[:limit].strip()


class LabelPlace(NamedTuple):
    """Where a label is drawn in its voxel: the face's centre, which way it faces, its size."""

    centre: tuple[float, float, float]  # in the voxel's unit cube, `LABEL_GAP` off the face
    normal: tuple[int, int, int]  # the way the text faces (toward who reads it)
    width: float
    height: float


_NORMALS: Final = {"north": (0, 0, -1), "east": (1, 0, 0), "south": (0, 0, 1), "west": (-1, 0, 0)}


def label_place(label: Label, facing: object = "north") -> LabelPlace:
    """Where `label` is drawn for a state facing `facing` (one of `world.blocks.shapes.FACINGS`)."""
    if facing not in FACINGS:
        raise ValueError(f"facing must be one of {', '.join(FACINGS)}, got {facing!r}")
    x0, y0, z0, x1, y1, _ = label.box
    # The north face as a box of no depth, turned as shapes are; its centre, moved off the face.
    (face,) = rotate((Box(x0, y0, z0, x1, y1, z0),), str(facing))
    nx, ny, nz = _NORMALS[str(facing)]
    centre = (
        (face.x0 + face.x1) / 2 + nx * LABEL_GAP,
        (face.y0 + face.y1) / 2,
        (face.z0 + face.z1) / 2 + nz * LABEL_GAP,
    )
    return LabelPlace(centre, (nx, ny, nz), x1 - x0, y1 - y0)


def label_text(label: Label, value: object) -> str:
    """The text `label` draws for a data value: at most its lines, each cut to its columns."""
    lines = shown_text(value, 4 * label.lines * (label.columns + 1)).splitlines()[: label.lines]
    return "\n".join(line.strip()[: label.columns] for line in lines)
