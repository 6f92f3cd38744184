"""The inventory screen (E): the creative block picker, or the survival inventory.

Creative (Minecraft's creative inventory): every registered block's item, base game first, then
each mod's in load order under its heading (`game.picker`), nine to a row, with a search line
(type to filter by name or description; Backspace deletes; cleared each time the screen opens);
the number keys choose the hotbar slot (`game.screens`), and clicking an item puts a stack of 64
in it. Survival: the 27 inventory slots above the 9 hotbar slots, item counts on the icons, and
above them a 3×3 crafting grid (Luanti's inventory has one; Minecraft's a 2×2 and a crafting
table) and its output cell, showing what the grid makes. The stack the mouse carries
(`world.items.inventory.Inventory.carried`) is drawn at the pointer. This screen draws and finds
cells; what a click, a shift-click or a drag does is the world's (`game.slot_clicks` makes the
mouse's gestures, `world.actions.slot_clicks` carries them out as the player's action), and
`slot_of` tells which slot a cell shows.

A block's inventory (a chest: `world.items.containers`) opens in the grid's place
(`open_container`): its slots, rows of nine, above the player's, as the world last held them
(``stored``, set again after every click: `game.screens`).

Hovering a slot shows its item's name in a tooltip (`game.tooltip`), in either mode, unless a stack
is carried (Minecraft shows none then); a worn tool's adds its uses left (``Durability: 52 /
59``), and a durability bar is drawn over the bottom of its icon, in a slot or carried
(`game.durability`, Minecraft's).

Drawing is one mesh of quads for the slot backgrounds and one for the icons, textured with one
sheet holding every item's isometric icon (`game.icons.icon_sheet`, made once when the screen is
first opened), so opening the picker with hundreds of blocks creates no entity per item.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from panda3d.core import PandaNode, TransparencyAttrib
from panda3d.core import Texture as PandaTexture
from ursina import Entity, Mesh, Text, color, destroy

from game.atlas_build import atlas_texture
from game.durability import bar_boxes, durability_text, uses_left
from game.geometry import quads_node
from game.hud import WindowRoot
from game.hud_layout import SLOT_GAP, SLOT_SIZE, fit_scale
from game.icons import icon_sheet
from game.picker import COLUMNS, HEADING, CatalogItem, Line, catalog, matching, pages
from game.tooltip import Tooltip, item_name
from world.actions.containers import BLOCK, PLAYER, Slot
from world.actions.slot_clicks import GRID, OUTPUT
from world.blocks.registry import BlockRegistry
from world.items.containers import Container
from world.items.crafting import craft
from world.items.inventory import HOTBAR_SLOTS, INVENTORY_SLOTS, Inventory, ItemStack
from world.items.recipes import GRID as GRID_SIZE
from world.items.recipes import GRID_CELLS

__all__ = ["CRAFT_CELL", "OUTPUT_CELL", "InventoryScreen"]

_PITCH = SLOT_SIZE + SLOT_GAP
_ICON = SLOT_SIZE * 0.8
_MAX_QUERY = 40
CRAFT_CELL = INVENTORY_SLOTS  # survival: cells 36..44 are the crafting grid, row by row
OUTPUT_CELL = CRAFT_CELL + GRID_CELLS  # and 45 its output
_CRAFT_TOP = 0.36  # the crafting grid's top row, in survival
_CRAFT_SHIFT = 0.07  # how far the survival inventory's rows sit below the creative grid's
_PICKER_TOP = 0.19  # the top of the picker's first line


def _quads(
    centres: NDArray[np.float64], size: float, uvs: NDArray[np.float64] | None = None
) -> Mesh:
    """One mesh of axis-aligned squares; `uvs` rows are (u0, v0, u1, v1) per square."""
    n = len(centres)
    h = size / 2.0
    corners = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    verts = np.zeros((n, 4, 3), dtype=np.float32)
    verts[:, :, :2] = centres[:, None, :2] + corners[None]
    quad = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
    tris = (np.arange(n, dtype=np.uint32)[:, None] * 4 + quad).reshape(-1).astype(np.uint32)
    mesh_uvs = None
    if uvs is not None:
        u0, v0, u1, v1 = uvs.T
        mesh_uvs = np.stack([u0, v0, u1, v0, u1, v1, u0, v1], axis=1).astype(np.float32)
        mesh_uvs = mesh_uvs.reshape(-1)
    return Mesh(
        vertices=verts.reshape(-1),
        triangles=tris,
        uvs=mesh_uvs,
        static=False,
    )


def _bars_node(
    name: str,
    boxes: list[tuple[float, float, float, float, float]],
    colours: list[tuple[float, float, float, float]],
) -> PandaNode:
    """Durability bars as one geom (`game.geometry.quads_node`), or an empty node for none."""
    return quads_node(name, boxes, colours) if boxes else PandaNode(name)


class InventoryScreen:
    """The E screen: `open`, `close`, `type_key`, `scroll`, `click` (the picker), `hover`;
    `shown` while open."""

    def __init__(
        self, registry: BlockRegistry, inventory: Inventory, atlas: NDArray[np.uint8]
    ) -> None:
        self.registry = registry
        self.inventory = inventory
        self.atlas = atlas
        self.items = catalog(registry)
        self.creative = False
        self.query = ""
        self.page = 0
        self.grid = inventory.crafting  # survival: the crafting grid (the inventory keeps it)
        # A block's inventory shown instead of the grid (`open_container`), and its slots.
        self.container: Container | None = None
        self.stored: list[ItemStack | None] = []
        self.shown = False
        self._sheet: PandaTexture | None = None
        self._columns = 1
        self._icon_index: dict[str, int] = {}
        self.root = WindowRoot("inventory", self._lay_out, enabled=False)
        self.panel = Entity(parent=self.root, name="inventory panel")
        self.backing = Entity(
            parent=self.panel,
            model="quad",
            color=color.rgba(0.12, 0.12, 0.14, 0.92),
            scale=(COLUMNS * _PITCH + 0.04, 0.62),
            z=3,
        )
        self.title = Text(parent=self.panel, text="", origin=(0, 0), y=0.27, scale=1.1)
        self.arrow = Text(parent=self.panel, text="", origin=(0, 0), scale=1.6)
        self.search = Text(
            parent=self.panel, text="", origin=(-0.5, 0), x=-COLUMNS * _PITCH / 2, y=0.225
        )
        self.slots = Entity(parent=self.panel, z=2, color=color.rgba(0.3, 0.3, 0.32, 0.95))
        self.icons = Entity(parent=self.panel, z=1)
        # The worn tools' durability bars, over their icons: one geom (`refresh`), sorted with
        # the icons (Panda3D draws the transparent bin after the opaque one, back to front).
        self.bars = Entity(parent=self.panel, z=0.5, name="durability bars")
        self.bars.setTransparency(TransparencyAttrib.M_alpha)
        self._bar_node = self.bars.attachNewNode("durability bars")
        self.cursor = Entity(parent=self.panel, z=0, name="carried stack")  # at the pointer
        self.cursor_count = Text(parent=self.cursor, text="", origin=(0.5, -0.5), scale=0.8)
        self.cursor_bar = self.cursor.attachNewNode("carried stack's bar")
        self.tooltip = Tooltip(self.panel)
        self.pointer: tuple[float, float] | None = None  # the pointer, in the panel's units
        self.hovered: int | None = None  # the cell under it
        self.counts: list[Text] = []
        self.headings: list[Text] = []  # creative: the mods' headings on the page
        self.visible: list[CatalogItem] = []  # creative: the items on the page, in cell order
        self._centres: list[tuple[float, float]] = []  # creative: where they are drawn

    # -- geometry -----------------------------------------------------------------------------

    def cell_centre(self, index: int) -> tuple[float, float]:
        """Centre of cell `index` in the panel.

        Creative: the page's items in reading order (`game.picker`). Survival: rows of nine
        from the top; the last row (cells 27..35) is the hotbar, drawn a little apart as in
        Minecraft; above the inventory, the crafting grid (`CRAFT_CELL`...) and its output
        (`OUTPUT_CELL`), or a block's slots.
        """
        if self.creative:
            return self._centres[index] if index < len(self._centres) else (9.0, 9.0)
        if index >= CRAFT_CELL and self.container is not None:
            row, column = divmod(index - CRAFT_CELL, COLUMNS)
            return (column - (COLUMNS - 1) / 2) * _PITCH, _CRAFT_TOP - row * _PITCH
        if index >= CRAFT_CELL:
            row, column = divmod(index - CRAFT_CELL, GRID_SIZE)
            if index == OUTPUT_CELL:
                row, column = 1, 5
            return (column + 1 - (COLUMNS - 1) / 2) * _PITCH, _CRAFT_TOP - row * _PITCH
        row, column = divmod(index, COLUMNS)
        x = (column - (COLUMNS - 1) / 2) * _PITCH
        return x, 0.15 - _CRAFT_SHIFT - row * _PITCH - (0.03 if row >= 3 else 0.0)

    def cell_at(self, x: float, y: float) -> int | None:
        """The cell under a point in the panel's units, or None."""
        for index in range(self._cell_count()):
            cx, cy = self.cell_centre(index)
            if abs(x - cx) <= SLOT_SIZE / 2 and abs(y - cy) <= SLOT_SIZE / 2:
                return index
        return None

    def _cell_count(self) -> int:
        if self.creative:
            return len(self.visible)
        if self.container is not None:
            return CRAFT_CELL + self.container.size
        return OUTPUT_CELL + 1

    def _lay_out(self, aspect: float) -> None:
        self.panel.scale = fit_scale(COLUMNS * _PITCH + 0.06, aspect)

    # -- opening ------------------------------------------------------------------------------

    def _ensure_sheet(self) -> PandaTexture:
        if self._sheet is None:
            blocks = [item for item in self.items if item.state >= 0]
            things = [item for item in self.items if item.state < 0]
            pixels, self._columns = icon_sheet(
                self.atlas,
                self.registry,
                [item.state for item in blocks],
                flat_tiles=[item.tile for item in things],
            )
            self._sheet_px = pixels.shape[:2]
            self._sheet = atlas_texture(pixels)
            self._icon_index = {item.item: i for i, item in enumerate(blocks + things)}
        return self._sheet

    def open(self, *, creative: bool) -> None:
        """Show the screen: the picker in creative (its search line cleared, as Minecraft's),
        the inventory in survival."""
        self.container = None
        self.creative = creative
        self.shown = True
        self.query, self.page = "", 0
        self.pointer, self.hovered = None, None
        self.tooltip.hide()
        self._ensure_sheet()
        self.root.enabled = True
        self.refresh()
        self.root.follow()

    def open_container(self, container: Container, slots: list[ItemStack | None]) -> None:
        """Show a block's inventory above the player's (in either mode)."""
        self.open(creative=False)
        self.container, self.stored = container, list(slots)
        self.refresh()

    def close(self) -> None:
        """Hide the screen (the carried stack and the grid's were put back by the world:
        `game.screens.Screens.close_inventory`)."""
        self.shown = False
        self.root.enabled = False
        self.container, self.stored = None, []
        self.tooltip.hide()

    # -- input --------------------------------------------------------------------------------

    def type_key(self, key: str) -> bool:
        """A key typed while the picker is open; True if it edited the search line."""
        if not self.creative:
            return False
        if key == "backspace":
            self.query = self.query[:-1]
        elif key == "space" and len(self.query) < _MAX_QUERY:
            self.query += " "
        elif len(key) == 1 and (key.isalpha() or key in "_:") and len(self.query) < _MAX_QUERY:
            self.query += key.lower()
        else:
            return False
        self.page = 0
        self.refresh()
        return True

    def set_query(self, text: str) -> None:
        """Replace the search line (scripts)."""
        self.query = text.lower()[:_MAX_QUERY]
        self.page = 0
        self.refresh()

    def matches(self) -> list[CatalogItem]:
        """The catalog items the search line selects (all when it is empty)."""
        return matching(self.items, self.query)

    def _pages(self) -> list[list[Line]]:
        return pages(self.matches())

    def scroll(self, steps: int) -> None:
        """Turn the picker's pages (the mouse wheel)."""
        count = len(self._pages())
        self.page = min(max(self.page + steps, 0), count - 1)
        self.refresh()

    def click(self, index: int) -> str | None:
        """Click the picker's item `index` on the page: a full stack of it in the selected
        hotbar slot; returns a short message for the HUD, or None."""
        if not self.creative or not 0 <= index < len(self.visible):
            return None
        item = self.visible[index]
        full = self.inventory.stack_max(item.item)
        self.inventory.put(self.inventory.selected, ItemStack(item.item, full))
        self.refresh()
        return f"{item.description} in slot {self.inventory.selected + 1}"

    def slot_of(self, cell: int) -> Slot | None:
        """The slot a survival cell shows (None: no such cell): the player's inventory's, the
        crafting grid's or its output, or the open block inventory's."""
        if self.creative or not 0 <= cell < self._cell_count():
            return None
        if cell >= CRAFT_CELL and self.container is not None:
            return Slot(BLOCK, cell - CRAFT_CELL)
        if cell == OUTPUT_CELL:
            return Slot(OUTPUT, 0)
        if cell >= CRAFT_CELL:
            return Slot(GRID, cell - CRAFT_CELL)
        return Slot(PLAYER, cell - 27 if cell >= 27 else cell + HOTBAR_SLOTS)

    def _stack(self, cell: int) -> ItemStack | None:
        """The stack a survival cell shows (the output: what a click makes)."""
        slot = self.slot_of(cell)
        if slot is None:
            return None
        if slot.side == BLOCK:
            return self.stored[slot.index]
        if slot.side == OUTPUT:
            made = craft(self.registry, self.grid)
            return None if made is None else made[0]
        if slot.side == GRID:
            return self.grid[slot.index]
        return self.inventory.slots[slot.index]

    def hover(self, cell: int | None, at: tuple[float, float] | None = None) -> None:
        """The pointer is over ``cell`` (None: no cell) at ``at`` in the panel's units (None:
        the cell's corner, as a script points): the tooltip names its item, and the carried
        stack follows the pointer."""
        if at is None and cell is not None:
            x, y = self.cell_centre(cell)
            at = (x + SLOT_SIZE / 4, y + SLOT_SIZE / 4)
        self.pointer, self.hovered = at, cell
        self._show_tooltip()
        self._draw_carried()

    def _show_tooltip(self) -> None:
        """The hovered cell's name by the pointer (and a worn tool's uses left under it); none
        while a stack is carried (it is drawn there, as in Minecraft)."""
        carrying = not self.creative and self.inventory.carried[0] is not None
        name = "" if carrying else self.name_at(self.hovered)
        worn = "" if carrying or not name or self.creative else self._worn_text(self.hovered)
        self.tooltip.show(f"{name}\n{worn}" if worn else name, self.pointer or (0.0, 0.0))

    def _worn_text(self, cell: int | None) -> str:
        """A survival cell's worn tool's ``Durability: left / uses`` ("" for anything else)."""
        return "" if cell is None else durability_text(self.registry, self._stack(cell))

    def name_at(self, cell: int | None) -> str:
        """The name of the item a cell shows ("" for none: an empty slot, no cell)."""
        if cell is None or not self.shown:
            return ""
        if self.creative:
            return self.visible[cell].description if cell < len(self.visible) else ""
        stack = self._stack(cell)
        return "" if stack is None else item_name(self.registry, stack.item)

    # -- drawing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw the grid from the inventory (or the picker's page and search)."""
        if not self.shown:
            return
        for text in self.counts + self.headings:
            destroy(text)
        self.counts, self.headings = [], []
        if self.creative:
            self._lay_out_page()
            cells = list(range(len(self.visible)))
            shown = [(i, item.item) for i, item in enumerate(self.visible)]
        else:
            self.visible, self._centres = [], []
            self.title.text = "Inventory" if self.container is None else self.container.title
            self.search.text = ""
            cells = list(range(self._cell_count()))
            shown = []
            for index in cells:
                stack = self._stack(index)
                if stack is not None:
                    shown.append((index, stack.item))
                    if stack.count > 1:
                        self._count_text(index, stack.count)
        self._draw_bars([] if self.creative else cells)
        self._frame()
        if cells:
            centres = np.array([self.cell_centre(i) for i in cells], dtype=np.float64)
            self.slots.model = _quads(centres, SLOT_SIZE)
            self.slots.enabled = True
        else:
            self.slots.enabled = False
        self.slots.color = color.rgba(0.3, 0.3, 0.32, 0.95)
        known = [(i, self._icon_index[item]) for i, item in shown if item in self._icon_index]
        if known:
            icon_centres = np.array([self.cell_centre(i) for i, _ in known], dtype=np.float64)
            uvs = np.array([self._icon_uv(k) for _, k in known], dtype=np.float64)
            self.icons.model = _quads(icon_centres, _ICON, uvs)
            self.icons.model.setTexture(self._ensure_sheet(), 1)
            self.icons.enabled = True
        else:
            self.icons.enabled = False
        self._draw_carried(rebuild=True)
        self._show_tooltip()  # what the hovered cell holds now

    def _draw_bars(self, cells: list[int]) -> None:
        """The durability bars of the worn tools among ``cells``, over their icons."""
        boxes, colours = [], []
        for index in cells:
            worn = uses_left(self.registry, self._stack(index))
            if worn is not None:
                for (x, y, width, height), colour in bar_boxes(
                    self.cell_centre(index), _ICON, *worn
                ):
                    boxes.append((x, y, 0.0, width, height))
                    colours.append(colour)
        self._bar_node.removeNode()
        self._bar_node = self.bars.attachNewNode(_bars_node("durability bars", boxes, colours))

    def _lay_out_page(self) -> None:
        """The picker's page: its mods' headings and its items' cells, top down."""
        found = self.matches()
        every = pages(found)
        self.page = min(self.page, len(every) - 1)
        self.title.text = f"Creative: {len(found)} items (page {self.page + 1}/{len(every)})"
        self.search.text = f"Search: {self.query}_"
        self.visible, self._centres = [], []
        y = _PICKER_TOP
        left = -(COLUMNS * _PITCH) / 2
        for line in every[self.page]:
            if line.heading:
                text = Text(
                    parent=self.panel,
                    text=line.heading,
                    origin=(-0.5, 0),
                    scale=0.8,
                    position=(left, y - HEADING * _PITCH / 2, 0),
                    color=color.rgb(0.85, 0.85, 0.7),
                )
                self.headings.append(text)
                y -= HEADING * _PITCH
                continue
            for column, item in enumerate(line.items):
                self.visible.append(item)
                self._centres.append(((column - (COLUMNS - 1) / 2) * _PITCH, y - _PITCH / 2))
            y -= _PITCH

    def _draw_carried(self, *, rebuild: bool = False) -> None:
        """The carried stack's icon and count at the pointer (hidden when nothing is carried
        or the pointer is over no point of the screen)."""
        carried = self.inventory.carried[0] if not self.creative else None
        index = None if carried is None else self._icon_index.get(carried.item)
        if carried is None or index is None or self.pointer is None:
            self.cursor.enabled = False
            return
        count = str(carried.count) if carried.count > 1 else ""
        if rebuild or not self.cursor.enabled or self.cursor_count.text != count:
            uvs = np.array([self._icon_uv(index)], dtype=np.float64)
            self.cursor.model = _quads(np.zeros((1, 2)), _ICON, uvs)
            self.cursor.model.setTexture(self._ensure_sheet(), 1)
            self.cursor_count.text = count
            self.cursor_count.position = (SLOT_SIZE / 2 - 0.004, -SLOT_SIZE / 2 + 0.002, -0.1)
            worn = uses_left(self.registry, carried)
            bar = [] if worn is None else bar_boxes((0.0, 0.0), _ICON, *worn)
            self.cursor_bar.removeNode()
            self.cursor_bar = self.cursor.attachNewNode(
                _bars_node(
                    "carried stack's bar",
                    [(x, y, -0.05, width, height) for (x, y, width, height), _ in bar],
                    [colour for _, colour in bar],
                )
            )
            self.cursor_bar.setTransparency(TransparencyAttrib.M_alpha)
        self.cursor.position = (*self.pointer, 0)
        self.cursor.enabled = True

    def _frame(self) -> None:
        """The backing, the title and the crafting arrow for the mode shown."""
        tall = not self.creative
        self.backing.scale_y = 0.74 if tall else 0.7
        self.backing.y = 0.115 if tall else -0.02
        self.title.y = _CRAFT_TOP + 0.075 if tall else 0.29
        self.title.x = -(COLUMNS - 1) / 2 * _PITCH if tall else 0.0
        self.title.origin = (-0.5, 0) if tall else (0, 0)
        self.arrow.text = ">>" if tall and self.container is None else ""
        self.arrow.position = (0.5 * _PITCH, _CRAFT_TOP - _PITCH)

    def _icon_uv(self, k: int) -> tuple[float, float, float, float]:
        height, width = self._sheet_px
        size = width // self._columns
        row, column = divmod(k, self._columns)
        u0, u1 = column * size / width, (column + 1) * size / width
        v1 = 1.0 - row * size / height
        v0 = 1.0 - (row + 1) * size / height
        return (u0, v0, u1, v1)

    def _count_text(self, index: int, count: int) -> None:
        x, y = self.cell_centre(index)
        text = Text(
            parent=self.panel,
            text=str(count),
            origin=(0.5, -0.5),
            position=(x + SLOT_SIZE / 2 - 0.004, y - SLOT_SIZE / 2 + 0.002, 0),
            scale=0.8,
        )
        self.counts.append(text)

    def destroy(self) -> None:
        """Remove the screen."""
        destroy(self.root)
