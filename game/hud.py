"""The heads-up display: crosshair, hotbar with block icons, brief messages.

Everything is parented to ``camera.ui``, whose units are screen heights: y runs from -0.5
(bottom) to 0.5 (top), x over ±aspect/2. Icons are quads whose uvs cut one tile out of the block
atlas (`world.atlas.tile_uv_rect`), the +x side tile of the block, as the mesher draws it.
Breaking progress is not drawn here: the crack on the block shows it (`game.crack`), as in
Minecraft.
"""

from __future__ import annotations

import numpy as np
from ursina import Entity, Mesh, Text, Texture, camera, color, destroy

from game.hotbar import SLOTS, Hotbar
from world.atlas import tile_uv_rect
from world.blocks import BlockRegistry

__all__ = ["ERROR_SECONDS", "MESSAGE_SECONDS", "Hud"]

SLOT_SIZE = 0.075
SLOT_GAP = 0.006
HOTBAR_Y = -0.45
MESSAGE_SECONDS = 2.5
ERROR_SECONDS = 8.0  # a mod's error is shown once: long enough to read a traceback's last line
_QUAD = np.array([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0], dtype=np.float32)
_QUAD_TRIANGLES = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def _icon_mesh(tile: int) -> Mesh:
    """A unit quad showing one atlas tile."""
    u0, v0, u1, v1 = tile_uv_rect(tile)
    uvs = np.array([u0, v0, u1, v0, u1, v1, u0, v1], dtype=np.float32)
    return Mesh(vertices=_QUAD, triangles=_QUAD_TRIANGLES, uvs=uvs, static=True)


class Hud:
    """Crosshair, hotbar and the message line."""

    def __init__(self, registry: BlockRegistry, hotbar: Hotbar, atlas: Texture) -> None:
        self.registry = registry
        self.hotbar = hotbar
        self.atlas = atlas
        self.root = Entity(parent=camera.ui, name="hud")
        # Fixed-function drawing for the HUD: Panda3D's generated shader for ursina's text
        # does not compile on Mesa's software GL (it falls back, but logs an error).
        self.root.setShaderOff(1)
        bright = color.rgba(1, 1, 1, 0.85)
        self.crosshair = [
            Entity(parent=self.root, model="quad", color=bright, scale=(0.022, 0.0028)),
            Entity(parent=self.root, model="quad", color=bright, scale=(0.0028, 0.022)),
        ]
        width = SLOTS * SLOT_SIZE + (SLOTS + 1) * SLOT_GAP
        Entity(
            parent=self.root,
            model="quad",
            color=color.rgba(0, 0, 0, 0.45),
            scale=(width, SLOT_SIZE + 2 * SLOT_GAP),
            y=HOTBAR_Y,
            z=2,
        )
        self.selection = Entity(
            parent=self.root,
            model="quad",
            color=color.rgba(1, 1, 1, 0.9),
            scale=SLOT_SIZE + 2 * SLOT_GAP,
            y=HOTBAR_Y,
            z=1,
        )
        self.slot_x = [(i - (SLOTS - 1) / 2) * (SLOT_SIZE + SLOT_GAP) for i in range(SLOTS)]
        for x in self.slot_x:
            Entity(
                parent=self.root,
                model="quad",
                color=color.rgba(0.25, 0.25, 0.25, 0.9),
                scale=SLOT_SIZE,
                position=(x, HOTBAR_Y, 0.5),
            )
        self.icons: list[Entity | None] = [None] * SLOTS
        self.message = Text(
            parent=self.root,
            text="",
            origin=(0, 0),
            y=HOTBAR_Y + SLOT_SIZE + 0.03,
            color=color.rgb(1, 0.92, 0.6),
            enabled=False,
        )
        self.message_left = 0.0
        self._drawn: dict[int, int | None] = {}  # the block each slot's icon shows
        self.refresh_hotbar()

    def refresh_hotbar(self) -> None:
        """Redraw the icons and the selection frame from the hotbar's state.

        Only slots whose block changed are rebuilt: scrolling moves just the frame.
        """
        for slot, block_id in enumerate(self.hotbar.slots):
            if self._drawn.get(slot, -1) == block_id:
                continue
            self._drawn[slot] = block_id
            icon = self.icons[slot]
            if icon is not None:
                destroy(icon)
                self.icons[slot] = None
            if block_id is None:
                continue
            tile = int(self.registry.face_tiles[block_id][0])
            self.icons[slot] = Entity(
                parent=self.root,
                model=_icon_mesh(tile),
                texture=self.atlas,
                scale=SLOT_SIZE * 0.72,
                position=(self.slot_x[slot], HOTBAR_Y, 0),
            )
        self.selection.x = self.slot_x[self.hotbar.selected]

    def flash(self, text: str, seconds: float = MESSAGE_SECONDS) -> None:
        """Show a short message (a denied action's reason) for a few seconds."""
        self.message.text = text
        self.message.enabled = True
        self.message_left = seconds

    def update(self, dt: float) -> None:
        """Age the message."""
        if self.message_left > 0.0:
            self.message_left -= dt
            if self.message_left <= 0.0:
                self.message.enabled = False

    def destroy(self) -> None:
        """Remove the HUD."""
        destroy(self.root)
