"""F3's debug overlay (text) and F4's view of the voxels the last ray traversed.

The overlay shows a `DebugSnapshot` of the running game (position, chunk, facing, target, chunk
counts, mode, mods), asked for through a callable, with its own frame rate count, and rewrites
its text `REFRESH_SECONDS` apart while shown: rebuilding a text every frame would cost more
than the numbers are worth. `debug_text` is the whole text for a snapshot, readable in tests.
It is drawn first of the 2D layer (`UNDER_EVERYTHING`), so the HUD and every screen (the pause
menu, the inventory and a chest on it, the sign editor, the chat line) draw over it, as
Minecraft's menus draw over its debug screen.

Facing names are Minecraft's and `world.blocks.shapes.FACINGS`': north is -z, east +x, south +z and
west -x, and so is the yaw: 0 (looking along +z) faces south, 90 west, 180 north and 270 east,
growing as the player turns right (south, west, north, east), and facing north east is on the
right (the world's frame is right-handed, as Minecraft's: `game.scene`). The pitch is Minecraft's
too, everywhere (F3, scripts, `game.player`, saves): + looks down, 90 straight down, -90 straight
up.

F4 freezes one ray: the view's ray when F4 is pressed and again at every mouse button press
(the ray that click's action used). `traced_cells` lists its voxels with `world.ray.traverse`
from the eye up to the reach, stopping at the targeted block; they are drawn as one wireframe
mesh (12 line segments a voxel, one vertex buffer), with the hit voxel in red, the selection box
the ray hit (`Hit.box`, `hit_box`) in magenta when the block is not a full cube, and the ray
itself as a yellow line, on top of the world so a ray running into the ground stays visible.
F3's target line names the box too when it is not the first (a stair's step, box 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    Geom,
    GeomLines,
    GeomNode,
    NodePath,
)
from ursina import Entity, Text, color, destroy, window

from game.geometry import indexed, interleaved_format, vertex_data
from game.hud import WindowRoot
from game.hud_layout import DEBUG_WIDTH, fit_scale, top_left
from game.render_origin import RenderOrigin
from game.scene import world_root
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FULL, Box
from world.geometry import Int3, Vec3
from world.ray import Hit, traverse
from world.voxels.layout import CHUNK_SHIFT

__all__ = [
    "REFRESH_SECONDS",
    "UNDER_EVERYTHING",
    "DebugOverlay",
    "DebugSnapshot",
    "TracedCells",
    "compass",
    "debug_text",
    "face_name",
    "hit_box",
    "traced_cells",
]

REFRESH_SECONDS = 0.25
UNDER_EVERYTHING = "background"  # Panda3D's cull bin drawn first (a fixed order within it)
_COMPASS = ("south (+z)", "west (-x)", "north (-z)", "east (+x)")  # yaw 0, 90, 180, 270
_FACES = {
    (0, 1, 0): "top",
    (0, -1, 0): "bottom",
    (1, 0, 0): "east",
    (-1, 0, 0): "west",
    (0, 0, -1): "north",
    (0, 0, 1): "south",
    (0, 0, 0): "inside",
}


def compass(yaw: float) -> str:
    """The compass direction nearest a yaw in degrees, with its axis: ``"east (+x)"``."""
    return _COMPASS[int(((yaw % 360.0) + 45.0) // 90.0) % 4]


def face_name(face: Sequence[int]) -> str:
    """The name of a face normal: top, bottom, north, south, east, west (inside: no face)."""
    return _FACES[(int(face[0]), int(face[1]), int(face[2]))]


@dataclass(frozen=True)
class DebugSnapshot:
    """What F3 shows, taken from the game when the text is due (the overlay never sees it).

    ``target_name``: the targeted block's name (None with no target); ``meshed`` / ``queued``:
    chunks drawn / waiting to be generated or meshed; ``mods``: the loaded mods' names;
    ``face_light``: the sky and block light of the voxel in front of the targeted face (what
    lights that face); ``time_of_day`` and ``daylight``: the clock and its share of sky light;
    ``sounds``, ``last_sound``, ``heard``: the sounds played so far, the last one's name, and
    whether a sound device hears them (`game.sound`).
    """

    python_ms: float
    position: Vec3
    yaw: float
    pitch: float
    target: Hit | None
    target_name: str | None
    loaded: int
    meshed: int
    queued: int
    creative: bool
    flying: bool
    mods: tuple[str, ...]
    mod_errors: int
    face_light: tuple[int, int] | None = None  # (sky, block) in front of the targeted face
    time_of_day: str = ""  # "07:00"
    daylight: float = 1.0  # the share of sky light showing
    sounds: int = 0  # sounds played (heard, or recorded with no sound device)
    last_sound: str | None = None
    heard: bool = False  # a sound device plays them


def debug_text(snapshot: DebugSnapshot, fps: float) -> str:
    """Every line of the F3 overlay for a snapshot of the game."""
    s = snapshot
    x, y, z = s.position
    wx, wy, wz = math.floor(x), math.floor(y), math.floor(z)
    cx, cy, cz = wx >> CHUNK_SHIFT, wy >> CHUNK_SHIFT, wz >> CHUNK_SHIFT
    target = s.target
    if target is None:
        aimed = "Target: nothing in reach"
    else:
        bx, by, bz = target.block
        fx, fy, fz = target.face
        aimed = (
            f"Target: {s.target_name} at {bx} {by} {bz}, {face_name(target.face)} face "
            f"({fx}, {fy}, {fz}){f' of box {target.box}' if target.box else ''}, "
            f"{target.distance:.2f} away"
        )
    mode = "creative" if s.creative else "survival"
    if s.flying:
        mode += ", flying"
    light = "-" if s.face_light is None else f"sky {s.face_light[0]}, block {s.face_light[1]}"
    count = s.mod_errors
    errors = f", {count} error{'' if count == 1 else 's'}" if count else ""
    return "\n".join(
        (
            f"Blockpick  {fps:.0f} fps, {s.python_ms:.1f} ms Python a frame",
            f"XYZ: {x:.3f} / {y:.3f} / {z:.3f}",
            f"Block: {wx} {wy} {wz}   Chunk: {cx} {cy} {cz}",
            f"Facing: {compass(s.yaw)}  yaw {s.yaw:.1f}  pitch {s.pitch:.1f}",
            aimed,
            f"Chunks: {s.loaded} loaded, {s.meshed} meshed, {s.queued} queued",
            f"Light at the face: {light}   Time: {s.time_of_day} ({s.daylight:.0%} daylight)",
            f"Mode: {mode}",
            f"Sounds: {s.sounds} {'played' if s.heard else 'recorded (no sound device)'}"
            f"{'' if s.last_sound is None else f', the last {s.last_sound}'}",
            f"Mods ({len(s.mods)}{errors}): {', '.join(s.mods)}",
        )
    )


class DebugOverlay:
    """F3: the debug text at the window's top-left corner, over a dark backing, hidden until
    toggled; it follows the corner when the window is resized.

    ``snapshot`` is called for the game's state when the text is due (not every frame).
    """

    def __init__(self, snapshot: Callable[[], DebugSnapshot]) -> None:
        self.snapshot = snapshot
        self.root = WindowRoot("debug overlay", self._lay_out, enabled=False)
        # Anchored to the window's top-left corner, shrunk to fit a narrow window.
        self.panel = Entity(parent=self.root, name="debug text")
        self.backing = Entity(
            parent=self.panel,
            model="quad",
            origin=(-0.5, 0.5),
            position=(-0.005, 0.005, 1),
            color=color.rgba(0, 0, 0, 0.45),
        )
        self.label = Text(parent=self.panel, text="", origin=(-0.5, 0.5))
        # Drawn first of the 2D layer, the backing then the text: beneath the HUD and every
        # screen (the pause menu, the inventory, a chest, the sign editor, the chat line), as
        # Minecraft draws its menus over the debug screen. Sorted by depth with them, it drew
        # over those whose panels lie further back than its own (the inventory's crafting grid).
        self.backing.setBin(UNDER_EVERYTHING, 0)
        self.label.setBin(UNDER_EVERYTHING, 1)
        self.fps = 0.0
        self._frames = 0
        self._elapsed = 0.0
        self._since_refresh = math.inf

    @property
    def shown(self) -> bool:
        """Whether the overlay is on screen."""
        return bool(self.root.enabled)

    @property
    def text(self) -> str:
        """The text on screen."""
        return str(self.label.text)

    def toggle(self) -> None:
        """Show or hide; showing draws the current state at once."""
        self.root.enabled = not self.root.enabled
        if self.root.enabled:
            self.root.follow()
            self.refresh()

    def _lay_out(self, aspect: float) -> None:
        """Put the text at the window's top-left corner, scaled to fit its width."""
        self.panel.position = top_left(aspect)
        # A fixed width, so the text keeps its size as numbers grow; a longer line widens it.
        self.panel.scale = fit_scale(max(DEBUG_WIDTH, float(self.label.width)), aspect)

    def update(self, dt: float) -> None:
        """Count the frame; rewrite the text when shown and due."""
        self._frames += 1
        self._elapsed += dt
        if self._elapsed >= REFRESH_SECONDS:
            self.fps = self._frames / self._elapsed
            self._frames, self._elapsed = 0, 0.0
        self._since_refresh += dt
        if self.shown and self._since_refresh >= REFRESH_SECONDS:
            self.refresh()

    def refresh(self) -> None:
        """Rewrite the text now."""
        self._since_refresh = 0.0
        text = debug_text(self.snapshot(), self.fps)
        if text != self.label.text:
            self.label.text = text
            self.backing.scale = (self.label.width + 0.01, self.label.height + 0.01)
            self._lay_out(float(window.aspect_ratio))  # same size unless a line passed DEBUG_WIDTH

    def destroy(self) -> None:
        """Remove the overlay."""
        destroy(self.root)


def traced_cells(
    origin: Sequence[float], direction: Sequence[float], reach: float, hit: Hit | None
) -> NDArray[np.int64]:
    """The voxels a ray from ``origin`` enters up to ``reach``, ending at ``hit.block`` if any.

    Returns an array of shape (N, 3), in the order the ray enters them.
    """
    cells: list[Int3] = []
    stop = None if hit is None else Int3(*hit.block)
    for step in traverse(origin, direction, reach):
        cells.append(step.cell)
        if step.cell == stop:
            break
    return np.array(cells, dtype=np.int64).reshape(-1, 3)


_MARGIN = 0.004  # just outside the voxel, so its edges are not lost in a block's faces
_CUBE = np.array(
    [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32
) * np.float32(1 + 2 * _MARGIN) - np.float32(_MARGIN)
# The 12 edges: corner pairs differing in one coordinate (corner index bits are x, y, z).
_EDGES = np.array(
    [(a, a | bit) for a in range(8) for bit in (4, 2, 1) if not a & bit], dtype=np.uint32
)
_ROW = np.dtype([("pos", "<f4", 3), ("rgba", "u1", 4)])
_CELL_RGBA = (80, 220, 255, 255)
_HIT_RGBA = (255, 60, 60, 255)
_BOX_RGBA = (255, 60, 255, 255)
_RAY_RGBA = (255, 230, 60, 255)
_BOX_CORNERS = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=bool)


_FORMAT = interleaved_format(uv=False)


def _wireframe(
    cubes: NDArray[np.float64],
    colours: NDArray[np.uint8],
    ray: tuple[Sequence[float], Sequence[float]],
) -> GeomNode:
    """One geom: the edges of ``cubes`` (N, 8, 3 corners, each in its colour) and the ray."""
    count = len(cubes)
    rows = np.empty(count * 8 + 2, dtype=_ROW)
    rows["pos"][: count * 8] = cubes.reshape(-1, 3)
    rows["rgba"][: count * 8] = np.repeat(colours.reshape(-1, 4), 8, axis=0)
    rows["pos"][count * 8 :] = ray
    rows["rgba"][count * 8 :] = _RAY_RGBA
    indices = (_EDGES[np.newaxis] + 8 * np.arange(count, dtype=np.uint32)[:, None, None]).ravel()
    indices = np.concatenate([indices, np.array([count * 8, count * 8 + 1], dtype=np.uint32)])
    geom = Geom(vertex_data("traced cells", _FORMAT, rows))
    geom.addPrimitive(indexed(GeomLines(Geom.UHStatic), indices))
    node = GeomNode("traced cells")
    node.addGeom(geom)
    return node


def hit_box(registry: BlockRegistry, hit: Hit) -> Box:
    """The selection box ``hit.box`` of the hit state, in world coordinates."""
    boxes = registry.selection_boxes[hit.block_id]
    x0, y0, z0, x1, y1, z1 = FULL[0] if boxes is None else boxes[hit.box]
    bx, by, bz = hit.block
    return Box(bx + x0, by + y0, bz + z0, bx + x1, by + y1, bz + z1)


class TracedCells:
    """F4: the voxels of one frozen ray, drawn as wireframe cubes, and the selection box it hit.

    The hit voxel is red; when its state has a shape other than the full cube, the box the ray
    hit (`Hit.box`) is drawn too, in magenta. Drawn relative to the render origin.
    """

    def __init__(self, registry: BlockRegistry, origin: RenderOrigin | None = None) -> None:
        self.registry = registry
        self.origin = RenderOrigin() if origin is None else origin
        self.entity = Entity(parent=world_root(), name="traced cells", enabled=False)
        self.entity.setShaderOff(1)
        self.entity.setLightOff(1)
        self.entity.setRenderModeThickness(2)
        # Drawn last and through everything: the whole ray stays visible from anywhere.
        self.entity.setDepthTest(False, 1)
        self.entity.setDepthWrite(False, 1)
        self.entity.setBin("fixed", 50)
        self.cells: NDArray[np.int64] = np.zeros((0, 3), dtype=np.int64)
        self.box: Box | None = None  # the hit's selection box drawn (world coordinates), if any
        self._node: NodePath | None = None

    @property
    def shown(self) -> bool:
        """Whether the view is on."""
        return bool(self.entity.enabled)

    def toggle(self) -> bool:
        """Turn the view on or off; returns whether it is now on."""
        self.entity.enabled = not self.entity.enabled
        return self.shown

    def trace(
        self, origin: Sequence[float], direction: Sequence[float], reach: float, hit: Hit | None
    ) -> None:
        """Freeze this ray: list its voxels and the hit box, and redraw them."""
        self.cells = cells = traced_cells(origin, direction, reach, hit)
        end: Sequence[float]
        if hit is not None:
            end = hit.point
        else:
            norm = math.sqrt(sum(d * d for d in direction))
            end = tuple(o + d / norm * reach for o, d in zip(origin, direction, strict=True))
        # Vertices relative to the ray's first voxel (small numbers, float32-exact), and that
        # voxel placed through the render origin: no precision lost far from 0, 0, 0.
        anchor = np.array([math.floor(v) for v in origin], dtype=np.int64)
        cubes = ((cells - anchor)[:, np.newaxis, :] + _CUBE[np.newaxis]).astype(np.float64)
        colours = np.tile(np.array(_CELL_RGBA, dtype=np.uint8), (len(cells), 1))
        if hit is not None and len(cells):
            colours[-1] = _HIT_RGBA
        self.box = None
        if hit is not None and self.registry.selection_boxes[hit.block_id] is not None:
            self.box = box = hit_box(self.registry, hit)
            low = np.array(box[:3]) - anchor - _MARGIN / 2
            high = np.array(box[3:]) - anchor + _MARGIN / 2
            cubes = np.concatenate([cubes, np.where(_BOX_CORNERS, high, low)[np.newaxis]])
            colours = np.concatenate([colours, np.array([_BOX_RGBA], dtype=np.uint8)])
        ray = (
            tuple(float(v - a) for v, a in zip(origin, anchor, strict=True)),
            tuple(float(v - a) for v, a in zip(end, anchor, strict=True)),
        )
        if self._node is not None:
            self._node.removeNode()
        self._node = self.entity.attachNewNode(_wireframe(cubes, colours, ray))
        self.origin.place(self.entity, tuple(float(v) for v in anchor))

    @property
    def vertex_count(self) -> int:
        """Vertices in the drawn mesh (8 a voxel and a hit box, 2 for the ray; 0 before the first
        trace)."""
        if self._node is None:
            return 0
        count: int = self._node.node().getGeom(0).getVertexData().getNumRows()
        return count

    def destroy(self) -> None:
        """Remove the view."""
        self.origin.forget(self.entity)
        destroy(self.entity)
