"""The heads-up display: crosshair, hotbar with block icons, brief messages, the pointed block's
info text.

Everything is parented to ``camera.ui``, whose units are screen heights: y runs from -0.5 (bottom)
to 0.5 (top), x over ±aspect/2. Each piece is anchored to the window (`game.hud_layout`): the
crosshair at the centre, the hotbar at the bottom centre, scaled down to fit a narrow or portrait
window, the held item's name just above it, the messages at the bottom left above it (Minecraft's
chat corner, each line on a dark band: readable over sand and snow), the info text at the top
centre (the ``infotext`` of the block pointed at, `world.voxels.block_data.INFOTEXT`: Luanti
shows it at the top left, in its chat's corner; here the top left is F3's); `WindowRoot` lays
them out again whenever the window's aspect ratio changes. A slot's icon is its item's, the same
pixels as the inventory screen's (`game.icons.item_icon`: a block seen from above its south-east
corner, slabs, stairs and fences in their shape, each face shaded by its direction as the placed
block; an item that is no block as its flat tile), drawn on the hotbar's own small texture with a
clear border (`_sheet_pixels`), so rounding at a quad's edge never picks a neighbouring icon's
texels. A worn tool's durability bar is drawn over the bottom of its icon (`game.durability`,
Minecraft's). The crosshair and the hotbar (backing, selection frame, slots, icons, bars) are
one geom each (`game.geometry.quads_node`): drawn as an entity each, the hotbar's 20 pieces cost
software GL 2.3 ms a frame, a sixth of a frame at view distance 4. Breaking progress is not drawn
here: the crack on the block shows it (`game.crack`), as in Minecraft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from panda3d.core import SamplerState, TransparencyAttrib
from panda3d.core import Texture as PandaTexture
from ursina import Entity, Text, camera, color, destroy, window

from game.durability import bar_boxes
from game.geometry import quads_node
from game.hotbar import SLOTS, Hotbar
from game.hud_layout import (
    HOTBAR_HEIGHT,
    HOTBAR_WIDTH,
    HOTBAR_Y,
    MARGIN,
    SLOT_GAP,
    SLOT_SIZE,
    HotbarLayout,
    fit_scale,
    hotbar_layout,
)
from game.icons import ICON_PX, item_icon
from world.blocks.registry import BlockRegistry

__all__ = [
    "ERROR_SECONDS",
    "FADE_SECONDS",
    "HOTBAR_Y",
    "ICON_SIZE",
    "MAX_MESSAGES",
    "MESSAGE_SECONDS",
    "SLOT_GAP",
    "SLOT_SIZE",
    "Hud",
    "WindowRoot",
]

ICON_SIZE = SLOT_SIZE * 0.8  # as the inventory screen's (and Minecraft's 16 px in 20)
_CELL_PX = ICON_PX + 2  # an icon on the hotbar's texture, with a clear border
_SHEET_PX = (512, 64)  # the hotbar's texture: a white cell and nine icons, in a power of two
_BACKING = (0.0, 0.0, 0.0, 0.45)
_SELECTION = (1.0, 1.0, 1.0, 0.9)
_SLOT = (0.25, 0.25, 0.25, 0.9)
_INFOTEXT_MARGIN = 0.02  # screen heights between the top edge and the info text
_CROSSHAIR = (1.0, 1.0, 1.0, 0.85)
MESSAGE_SECONDS = 2.5
ITEM_NAME_SECONDS = 1.5  # the held item's name after the selection changed
MAX_MESSAGES = 5  # lines shown at once, the newest at the bottom
# A message line's band: black at half opacity, as Minecraft's chat lines, a little wider than
# its text; the lines sit `_MESSAGE_RAISE` above the hotbar (over the held item's name, which
# would cross a long line), `_MESSAGE_GAP` apart.
_MESSAGE_ALPHA = 0.5
_MESSAGE_PAD = 0.006
_MESSAGE_RAISE = 0.065
_MESSAGE_GAP = 0.006
FADE_SECONDS = 0.5
ERROR_SECONDS = 8.0  # a mod's error is shown once: long enough to read a traceback's last line


class WindowRoot(Entity):  # type: ignore[misc]
    """An entity under ``camera.ui`` whose ``on_aspect(aspect)`` lays its children out.

    Called whenever the window's aspect ratio has changed since the last call: checked every frame
    while enabled (an offscreen buffer sends no window event) and by `follow`, which the owner
    calls once its children exist.
    """

    def __init__(self, name: str, on_aspect: Callable[[float], None], **kwargs: Any) -> None:
        super().__init__(parent=camera.ui, name=name, **kwargs)
        # Fixed-function drawing: Panda3D's generated shader for ursina's text does not compile
        # on Mesa's software GL (it falls back, but logs an error).
        self.setShaderOff(1)
        self.on_aspect = on_aspect
        self.laid_out_for = 0.0

    def update(self) -> None:
        """ursina calls this once a frame while the entity is enabled."""
        self.follow()

    def follow(self) -> None:
        """Lay the children out again if the aspect ratio changed since the last time."""
        aspect = float(window.aspect_ratio)
        if aspect != self.laid_out_for:
            self.laid_out_for = aspect
            self.on_aspect(aspect)


def _back(line: Text) -> None:
    """A dark band behind a message line, the size of its text (Minecraft's chat lines)."""
    band = color.rgba(0.0, 0.0, 0.0, _MESSAGE_ALPHA)
    line.create_background(padding=(2 * _MESSAGE_PAD, 0.004), radius=0, color=band)


def _fade(line: Text, alpha: float) -> None:
    """A message line and its band at ``alpha`` (1: as shown first)."""
    line.alpha = alpha
    band = line._background
    if band is not None:
        band.alpha = _MESSAGE_ALPHA * alpha


def _line_height(line: Text) -> float:
    """How high a message line stands on screen, its band's gap included."""
    return float(line.height) * float(line.scale_y) + _MESSAGE_GAP


def _fit_width(text: Text, aspect: float) -> None:
    """Shrink a line of text when it is wider than the window (full size when it fits)."""
    width = float(text.width)  # unscaled
    text.scale = fit_scale(width, aspect) if width > 0.0 else 1.0


def _sheet_pixels(icons: list[NDArray[np.uint8] | None]) -> NDArray[np.uint8]:
    """The hotbar's texture, as Panda3D stores it (bottom row first): a white cell, then each
    slot's icon (top row first, as `game.icons` makes it) with a clear border of one texel, so
    rounding at an icon's edge picks its own texel or nothing, never a neighbour's."""
    sheet = np.zeros((_SHEET_PX[1], _SHEET_PX[0], 4), dtype=np.uint8)
    sheet[:_CELL_PX, :_CELL_PX] = 255
    for slot, icon in enumerate(icons):
        if icon is not None:
            x0 = (slot + 1) * _CELL_PX + 1
            sheet[1 : 1 + ICON_PX, x0 : x0 + ICON_PX] = icon[::-1]
    return sheet


def _icon_uv(slot: int) -> tuple[float, float, float, float]:
    """The box of a slot's icon on the hotbar's texture (`_sheet_pixels`), in uv."""
    x0 = (slot + 1) * _CELL_PX + 1
    return (
        x0 / _SHEET_PX[0],
        1 / _SHEET_PX[1],
        (x0 + ICON_PX) / _SHEET_PX[0],
        (1 + ICON_PX) / _SHEET_PX[1],
    )


# The white cell's centre, as a box of no size: a plain coloured piece samples only white.
_WHITE_UV = (_CELL_PX / 2 / _SHEET_PX[0], _CELL_PX / 2 / _SHEET_PX[1]) * 2


class Hud:
    """Crosshair, hotbar, the held item's name, the messages and the info text."""

    def __init__(self, registry: BlockRegistry, hotbar: Hotbar, atlas: NDArray[np.uint8]) -> None:
        """``atlas``: the block atlas's image, (height, width, 4) RGBA, top row first."""
        self.registry = registry
        self.hotbar = hotbar
        self.atlas = atlas
        # Each item's icon once made (a few a hotbar, each a fraction of a millisecond), and the
        # rays cast for each shape (`game.icons.block_icon`).
        self._icon_cache: dict[str, NDArray[np.uint8] | None] = {}
        self._casts: dict[Any, Any] = {}
        self.root = WindowRoot("hud", self._lay_out)
        # Each piece is one geom (one draw: `game.geometry.quads_node`).
        self.crosshair = self.root.attachNewNode(
            quads_node("crosshair", [(0, 0, 0, 0.022, 0.0028), (0, 0, 0, 0.0028, 0.022)],
                       [_CROSSHAIR, _CROSSHAIR])
        )  # fmt: skip
        self.crosshair.setTransparency(TransparencyAttrib.M_alpha)
        # The hotbar is drawn at full size in its own units; `bar` moves and scales it.
        self.bar = Entity(parent=self.root, name="hotbar")
        self.sheet = PandaTexture("hotbar")
        self.sheet.setup2dTexture(*_SHEET_PX, PandaTexture.TUnsignedByte, PandaTexture.FRgba)
        self.sheet.setMinfilter(SamplerState.FT_nearest)
        self.sheet.setMagfilter(SamplerState.FT_nearest)
        self.sheet.setWrapU(SamplerState.WM_clamp)
        self.sheet.setWrapV(SamplerState.WM_clamp)
        self.pieces = self.bar.attachNewNode("hotbar pieces")
        full_size = HotbarLayout(scale=1.0, y=0.0)  # the hotbar's own units
        self.slot_x = [full_size.slot_x(i) for i in range(SLOTS)]
        self.icons: list[str | None] = []  # the item whose icon each slot shows (None: none)
        self.selection_x = self.slot_x[0]
        self.counts: list[Text] = [
            Text(
                parent=self.bar,
                text="",
                origin=(0.5, -0.5),
                position=(x + SLOT_SIZE / 2 - 0.004, -SLOT_SIZE / 2 + 0.002, -0.1),
                scale=0.8,
            )
            for x in self.slot_x
        ]
        # Messages and a mod's text are shown as written: no ursina colour tags (``<red>``), so
        # a chat line's ``<player>`` and a mod's ``<3`` stay.
        self.message = Text(
            parent=self.root,
            text="",
            origin=(-0.5, -0.5),
            color=color.rgb(1, 0.92, 0.6),
            use_tags=False,
            enabled=False,
        )
        self.message_left = 0.0
        # The held item's name, centred just above the hotbar (Minecraft's): a line of its own,
        # each name replacing the last, never pushing the messages up.
        self.item_name = Text(
            parent=self.root,
            text="",
            origin=(0, -0.5),
            use_tags=False,
            enabled=False,
        )
        self.item_name_left = 0.0
        self.infotext = Text(
            parent=self.root,
            text="",
            origin=(0, 0.5),
            y=0.5 - _INFOTEXT_MARGIN,
            use_tags=False,
            enabled=False,
        )
        # Earlier messages still showing, newest first: they stack above the newest one.
        self.older: list[tuple[Text, float]] = []
        self.refresh_hotbar()
        self.root.follow()

    def _lay_out(self, aspect: float) -> None:
        """Anchor the hotbar to the bottom centre, scaled to fit, and the message above it."""
        bar = hotbar_layout(aspect)
        self.bar.scale = bar.scale
        self.bar.y = bar.y
        self._fit_message(aspect)
        if self.infotext.text:
            _fit_width(self.infotext, aspect)

    def show_item_name(self, name: str) -> None:
        """The held item's name for a moment, after the selection changed, centred above the
        hotbar as Minecraft shows it (each replacing the last); an empty slot shows nothing."""
        if not name:
            return
        self.item_name.text = name
        self.item_name.enabled = True
        self.item_name.alpha = 1.0
        self.item_name_left = ITEM_NAME_SECONDS
        self._fit_item_name(float(window.aspect_ratio))

    def show_infotext(self, text: str) -> None:
        """Show the pointed block's info text at the top centre ("" hides it); the text is
        only laid out again when it changed."""
        if text == self.infotext.text:
            return
        self.infotext.text = text
        self.infotext.enabled = bool(text)
        if text:
            self.infotext.create_background(radius=0)  # sized to the text
            _fit_width(self.infotext, float(window.aspect_ratio))

    def _fit_message(self, aspect: float) -> None:
        """Put the newest message at the bottom left, above the hotbar (Minecraft's chat
        corner), shrunk if it is wider than the window, and the earlier ones above it; the held
        item's name centred above the hotbar."""
        bar = hotbar_layout(aspect)
        self.message.x = -aspect / 2.0 + MARGIN + _MESSAGE_PAD
        self.message.y = bar.top + _MESSAGE_RAISE
        _fit_width(self.message, aspect)
        self._stack_older()
        self._fit_item_name(aspect)

    def _fit_item_name(self, aspect: float) -> None:
        self.item_name.y = hotbar_layout(aspect).top + 0.02
        _fit_width(self.item_name, aspect)

    def refresh_hotbar(self) -> None:
        """Redraw the icons, the counts, the worn tools' bars and the selection frame from the
        hotbar's state (one geom: backing, selection frame, slots, icons, bars, back to front),
        and the hotbar's texture when an icon changed."""
        for slot, count in enumerate(self.hotbar.counts):
            self.counts[slot].text = str(count) if count > 1 else ""
        items = self.hotbar.icon_items
        if items != self.icons:
            self.icons = items
            icons = [None if item is None else self.icon(item) for item in items]
            self.sheet.setRamImageAs(_sheet_pixels(icons).tobytes(), "RGBA")
        self.selection_x = self.slot_x[self.hotbar.selected]
        frame = SLOT_SIZE + 2 * SLOT_GAP
        boxes = [
            (0.0, 0.0, 2.0, HOTBAR_WIDTH, HOTBAR_HEIGHT),
            (self.selection_x, 0.0, 1.0, frame, frame),
        ]
        colours = [_BACKING, _SELECTION]
        uvs = [_WHITE_UV, _WHITE_UV]
        for x in self.slot_x:
            boxes.append((x, 0.0, 0.5, SLOT_SIZE, SLOT_SIZE))
            colours.append(_SLOT)
            uvs.append(_WHITE_UV)
        for slot, item in enumerate(items):
            if item is not None:
                boxes.append((self.slot_x[slot], 0.0, 0.0, ICON_SIZE, ICON_SIZE))
                colours.append((1.0, 1.0, 1.0, 1.0))
                uvs.append(_icon_uv(slot))
        for slot, worn in enumerate(self.hotbar.worn):
            if worn is not None:
                for (x, y, width, height), colour in bar_boxes(
                    (self.slot_x[slot], 0.0), ICON_SIZE, *worn
                ):
                    boxes.append((x, y, -0.05, width, height))
                    colours.append(colour)
                    uvs.append(_WHITE_UV)
        self.pieces.removeNode()
        self.pieces = self.bar.attachNewNode(quads_node("hotbar pieces", boxes, colours, uvs))
        self.pieces.setTexture(self.sheet, 1)
        self.pieces.setTransparency(TransparencyAttrib.M_alpha)

    def icon(self, item: str) -> NDArray[np.uint8] | None:
        """An item's icon, (`ICON_PX`, `ICON_PX`, 4) RGBA, top row first: the inventory
        screen's (`game.icons.item_icon`); None for an item no loaded mod knows."""
        if item not in self._icon_cache:
            self._icon_cache[item] = item_icon(
                self.atlas, self.registry, item, ICON_PX, self._casts
            )
        return self._icon_cache[item]

    def show_crosshair(self, shown: bool) -> None:
        """Hide the crosshair while a screen (the inventory) is open, show it again after."""
        if shown:
            self.crosshair.show()
        else:
            self.crosshair.hide()

    def flash(self, text: str, seconds: float = MESSAGE_SECONDS) -> None:
        """Show a short message (a denied action's reason, a command's reply, a mod's
        ``actor.tell``), as Minecraft's chat shows one: at the bottom left, above the hotbar, on
        a dark band that keeps it readable over any ground (sand, snow, the sky).

        The newest message is the lowest line; one still showing moves up a line, up to
        `MAX_MESSAGES` lines, and each fades out over its last `FADE_SECONDS`.
        """
        showing = self.message.enabled and self.message_left > 0.0 and bool(self.message.text)
        if showing:
            line = Text(
                parent=self.root,
                text=self.message.text,
                origin=(-0.5, -0.5),
                color=self.message.color,
                use_tags=False,
            )
            _back(line)
            self.older.insert(0, (line, self.message_left))
            for old, _ in self.older[MAX_MESSAGES - 1 :]:
                destroy(old)
            del self.older[MAX_MESSAGES - 1 :]
        self.message.text = text
        self.message.enabled = True
        self.message_left = seconds
        _back(self.message)
        _fade(self.message, 1.0)
        self._fit_message(float(window.aspect_ratio))

    def _stack_older(self) -> None:
        """Put the earlier messages above the newest, each a line higher, left-aligned."""
        y = self.message.y + _line_height(self.message)
        for line, _ in self.older:
            line.scale = self.message.scale
            line.x = self.message.x
            line.y = y
            y += _line_height(line)

    def update(self, dt: float) -> None:
        """Age the messages and the item's name: each fades over its last second, then goes."""
        if self.item_name_left > 0.0:
            self.item_name_left -= dt
            self.item_name.alpha = min(1.0, max(self.item_name_left, 0.0) / FADE_SECONDS)
            if self.item_name_left <= 0.0:
                self.item_name.enabled = False
        if self.message_left > 0.0:
            self.message_left -= dt
            _fade(self.message, min(1.0, max(self.message_left, 0.0) / FADE_SECONDS))
            if self.message_left <= 0.0:
                self.message.enabled = False
        if self.older:
            kept = []
            for line, left in self.older:
                left -= dt
                if left <= 0.0:
                    destroy(line)
                else:
                    _fade(line, min(1.0, left / FADE_SECONDS))
                    kept.append((line, left))
            if len(kept) != len(self.older):
                self.older = kept
                self._stack_older()
            else:
                self.older = kept

    def destroy(self) -> None:
        """Remove the HUD."""
        destroy(self.root)
