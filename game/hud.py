"""The heads-up display: crosshair, hotbar with block icons, brief messages.

Everything is parented to ``camera.ui``, whose units are screen heights: y runs from -0.5
(bottom) to 0.5 (top), x over ±aspect/2. Each piece is anchored to the window (`game.hud_layout`):
the crosshair at the centre, the hotbar at the bottom centre, scaled down to fit a narrow or
portrait window, the message line just above it; `WindowRoot` lays them out again whenever the
window's aspect ratio changes. An icon is the +x side tile of its block, as the mesher draws it,
copied out of the atlas into a texture of its own (`tile_texture`): sampled from a shared atlas,
rounding at the quad's edge picked texels of the neighbouring tile at some sizes. Breaking
progress is not drawn here: the crack on the block shows it (`game.crack`), as in Minecraft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from panda3d.core import SamplerState
from panda3d.core import Texture as PandaTexture
from ursina import Entity, Text, Texture, camera, color, destroy, window

from game.hotbar import SLOTS, Hotbar
from game.hud_layout import (
    HOTBAR_HEIGHT,
    HOTBAR_WIDTH,
    HOTBAR_Y,
    SLOT_GAP,
    SLOT_SIZE,
    fit_scale,
    hotbar_layout,
)
from world.atlas import TILE_PX, tile_pixel_box
from world.blocks import BlockRegistry

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
    "tile_texture",
]

ICON_SIZE = SLOT_SIZE * 0.72
MESSAGE_SECONDS = 2.5
MAX_MESSAGES = 5  # lines shown at once, the newest at the bottom
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


def tile_texture(atlas: PandaTexture, tile: int) -> PandaTexture:
    """One atlas tile copied into a texture of its own, sampled nearest and clamped at its edges."""
    width, height = atlas.getXSize(), atlas.getYSize()
    image = np.frombuffer(bytes(atlas.getRamImageAs("RGBA")), dtype=np.uint8)
    image = image.reshape(height, width, 4)  # bottom row first, as Panda3D stores it
    left, top, right, bottom = tile_pixel_box(tile)
    pixels = np.ascontiguousarray(image[height - bottom : height - top, left:right])
    texture = PandaTexture(f"tile {tile}")
    texture.setup2dTexture(TILE_PX, TILE_PX, PandaTexture.TUnsignedByte, PandaTexture.FRgba)
    texture.setRamImageAs(pixels.tobytes(), "RGBA")
    texture.setMinfilter(SamplerState.FT_nearest)
    texture.setMagfilter(SamplerState.FT_nearest)
    texture.setWrapU(SamplerState.WM_clamp)
    texture.setWrapV(SamplerState.WM_clamp)
    return texture


class Hud:
    """Crosshair, hotbar and the message line."""

    def __init__(self, registry: BlockRegistry, hotbar: Hotbar, atlas: Texture) -> None:
        self.registry = registry
        self.hotbar = hotbar
        self.atlas = atlas
        self._tiles: dict[int, PandaTexture] = {}  # each icon's own texture, by atlas tile
        self.root = WindowRoot("hud", self._lay_out)
        bright = color.rgba(1, 1, 1, 0.85)
        self.crosshair = [
            Entity(parent=self.root, model="quad", color=bright, scale=(0.022, 0.0028)),
            Entity(parent=self.root, model="quad", color=bright, scale=(0.0028, 0.022)),
        ]
        # The hotbar is drawn at full size in its own units; `bar` moves and scales it.
        self.bar = Entity(parent=self.root, name="hotbar")
        Entity(
            parent=self.bar,
            model="quad",
            color=color.rgba(0, 0, 0, 0.45),
            scale=(HOTBAR_WIDTH, HOTBAR_HEIGHT),
            z=2,
        )
        self.selection = Entity(
            parent=self.bar,
            model="quad",
            color=color.rgba(1, 1, 1, 0.9),
            scale=SLOT_SIZE + 2 * SLOT_GAP,
            z=1,
        )
        self.slot_x = [(i - (SLOTS - 1) / 2) * (SLOT_SIZE + SLOT_GAP) for i in range(SLOTS)]
        for x in self.slot_x:
            Entity(
                parent=self.bar,
                model="quad",
                color=color.rgba(0.25, 0.25, 0.25, 0.9),
                scale=SLOT_SIZE,
                position=(x, 0, 0.5),
            )
        self.icons: list[Entity | None] = [None] * SLOTS
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
        self.message = Text(
            parent=self.root,
            text="",
            origin=(0, -0.5),
            color=color.rgb(1, 0.92, 0.6),
            enabled=False,
        )
        self.message_left = 0.0
        # Earlier messages still showing, newest first: they stack above the newest one.
        self.older: list[tuple[Text, float]] = []
        self._drawn: dict[int, int | None] = {}  # the atlas tile each slot's icon shows
        self.refresh_hotbar()
        self.root.follow()

    def _lay_out(self, aspect: float) -> None:
        """Anchor the hotbar to the bottom centre, scaled to fit, and the message above it."""
        bar = hotbar_layout(aspect)
        self.bar.scale = bar.scale
        self.bar.y = bar.y
        self._fit_message(aspect)

    def _fit_message(self, aspect: float) -> None:
        """Put the message line above the hotbar, shrunk if it is wider than the window."""
        bar = hotbar_layout(aspect)
        self.message.y = bar.top + 0.02
        width = float(self.message.width)  # unscaled
        self.message.scale = fit_scale(width, aspect) if width > 0.0 else 1.0

    def _icon_texture(self, tile: int) -> PandaTexture:
        """The tile's own texture, made once."""
        if tile not in self._tiles:
            self._tiles[tile] = tile_texture(self.atlas._texture, tile)
        return self._tiles[tile]

    def refresh_hotbar(self) -> None:
        """Redraw the icons and the selection frame from the hotbar's state.

        Only slots whose icon changed are rebuilt: scrolling moves just the frame.
        """
        for slot, count in enumerate(self.hotbar.counts):
            self.counts[slot].text = str(count) if count > 1 else ""
        for slot, tile in enumerate(self.hotbar.icon_tiles):
            if self._drawn.get(slot, -1) == tile:
                continue
            self._drawn[slot] = tile
            icon = self.icons[slot]
            if icon is not None:
                destroy(icon)
                self.icons[slot] = None
            if tile is None:
                continue
            icon = Entity(
                parent=self.bar, model="quad", scale=ICON_SIZE, position=(self.slot_x[slot], 0, 0)
            )
            icon.model.setTexture(self._icon_texture(tile), 1)
            self.icons[slot] = icon
        self.selection.x = self.slot_x[self.hotbar.selected]

    def show_crosshair(self, shown: bool) -> None:
        """Hide the crosshair while a screen (the inventory) is open, show it again after."""
        for line in self.crosshair:
            line.enabled = shown

    def flash(self, text: str, seconds: float = MESSAGE_SECONDS) -> None:
        """Show a short message (a denied action's reason, a mod's ``actor.tell``).

        The newest message sits just above the hotbar; one still showing moves up a line, up
        to `MAX_MESSAGES` lines, and each fades out over its last `FADE_SECONDS`.
        """
        if self.message.enabled and self.message_left > 0.0 and self.message.text:
            line = Text(
                parent=self.root,
                text=self.message.text,
                origin=(0, -0.5),
                color=self.message.color,
            )
            self.older.insert(0, (line, self.message_left))
            for old, _ in self.older[MAX_MESSAGES - 1 :]:
                destroy(old)
            del self.older[MAX_MESSAGES - 1 :]
        self.message.text = text
        self.message.enabled = True
        self.message_left = seconds
        self.message.alpha = 1.0
        self._fit_message(float(window.aspect_ratio))
        self._stack_older()

    def _stack_older(self) -> None:
        """Put the earlier messages above the newest, each a line higher."""
        y = self.message.y + float(self.message.height) * float(self.message.scale_y)
        for line, _ in self.older:
            line.scale = self.message.scale
            line.y = y
            y += float(line.height) * float(line.scale_y)

    def update(self, dt: float) -> None:
        """Age the messages: each fades over its last second, then goes."""
        if self.message_left > 0.0:
            self.message_left -= dt
            self.message.alpha = min(1.0, max(self.message_left, 0.0) / FADE_SECONDS)
            if self.message_left <= 0.0:
                self.message.enabled = False
        if self.older:
            kept = []
            for line, left in self.older:
                left -= dt
                if left <= 0.0:
                    destroy(line)
                else:
                    line.alpha = min(1.0, left / FADE_SECONDS)
                    kept.append((line, left))
            if len(kept) != len(self.older):
                self.older = kept
                self._stack_older()
            else:
                self.older = kept

    def destroy(self) -> None:
        """Remove the HUD."""
        destroy(self.root)
