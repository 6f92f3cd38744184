"""The inventory screen (E): the creative block picker, or the survival inventory.

Creative (Minecraft's creative inventory): every registered block's item, base game first, then
each mod's in load order, nine to a row, five rows to a page, with a search line (type to filter
by name or description; Backspace deletes); clicking an item puts a stack of 64 in the selected
hotbar slot. Survival: the 27 inventory slots above the 9 hotbar slots, item counts on the icons;
clicking a slot picks its stack up, clicking another puts it there (merging or swapping, as
`world.items.inventory.Inventory.move`). Above them, a 3×3 crafting grid (Luanti's inventory has
one; Minecraft's a 2×2 and a crafting table) and its output cell: stacks are put in the grid as in
any slot, and each click of the output crafts once (`world.items.crafting.craft`), taking one item
from each filled cell and adding the output to the inventory. A craft is refused when the output and
the grid's remaining stacks would not all fit in the inventory, so that closing the screen, which
puts the grid's stacks back into the inventory, never loses an item. The grid belongs to the
inventory (`world.items.inventory.Inventory.crafting`): a save made while stacks lie in it keeps
them.

A block's inventory (a chest: `world.items.containers`) opens in the grid's place
(`open_container`): its slots, rows of nine, above the player's. A move that touches its slots is
not made here: it is handed to ``move`` as two `world.actions.containers.Slot` s (the game makes
it the player's action through the rules, `game.containers`, and sets `InventoryScreen.stored`
to the block's slots after it); moves within the player's own slots stay the screen's.

Drawing is one mesh of quads for the slot backgrounds and one for the icons, textured with one
sheet holding every item's isometric icon (`game.icons.icon_sheet`, made once when the screen is
first opened), so opening the picker with hundreds of blocks creates no entity per item.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from panda3d.core import Texture as PandaTexture
from ursina import Entity, Mesh, Text, color, destroy

from game.atlas_build import atlas_texture
from game.hud import WindowRoot
from game.hud_layout import SLOT_GAP, SLOT_SIZE, fit_scale
from game.icons import icon_sheet
from world.actions.containers import BLOCK, PLAYER, Slot
from world.blocks.registry import BlockRegistry
from world.items.containers import Container
from world.items.crafting import craft
from world.items.inventory import HOTBAR_SLOTS, INVENTORY_SLOTS, Inventory, ItemStack
from world.items.recipes import GRID, GRID_CELLS
from world.save.format import PLACEHOLDER_GROUP

__all__ = [
    "COLUMNS",
    "CRAFT_CELL",
    "OUTPUT_CELL",
    "ROWS",
    "CatalogItem",
    "InventoryScreen",
    "catalog",
]

COLUMNS = 9
ROWS = 5  # creative items per page: 9 × 5, as Minecraft's creative tabs
_PITCH = SLOT_SIZE + SLOT_GAP
_ICON = SLOT_SIZE * 0.8
_MAX_QUERY = 40
CRAFT_CELL = INVENTORY_SLOTS  # survival: cells 36..44 are the crafting grid, row by row
OUTPUT_CELL = CRAFT_CELL + GRID_CELLS  # and 45 its output
_CRAFT_TOP = 0.36  # the crafting grid's top row, in survival
_CRAFT_SHIFT = 0.07  # how far the survival inventory's rows sit below the creative grid's


@dataclass(frozen=True)
class CatalogItem:
    """One item of the creative picker."""

    item: str  # the block's (or the non-block item's) name
    state: int  # the state its icon shows (the block's default state), -1 for an item
    mod: str
    description: str
    tile: int = -1  # a non-block item's icon: its atlas tile, drawn flat


def catalog(registry: BlockRegistry) -> list[CatalogItem]:
    """Every block a player can hold, grouped by mod in registration order (base first), then
    the items that are not blocks (`world.items.item`), in registration order.

    Air, liquids and placeholders of missing mods are left out (Minecraft's creative inventory
    has no water block either).
    """
    items = []
    for block in registry:
        if block.name == "air" or "liquid" in block.groups or PLACEHOLDER_GROUP in block.groups:
            continue
        mod = block.name.partition(":")[0]
        items.append(CatalogItem(block.name, registry.id(block.name), mod, block.description))
    for thing in registry.items.values():
        tile = registry.tile_id(thing.image)
        items.append(CatalogItem(thing.name, -1, thing.mod, thing.description, tile))
    return items


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


class InventoryScreen:
    """The E screen: `open`, `close`, `type_key`, `scroll`, `click`; `shown` while open."""

    def __init__(
        self, registry: BlockRegistry, inventory: Inventory, atlas: NDArray[np.uint8]
    ) -> None:
        self.registry = registry
        self.inventory = inventory
        self.atlas = atlas
        self.items = catalog(registry)
        self._descriptions = {item.item: item.description for item in self.items}
        self.creative = False
        self.query = ""
        self.page = 0
        self.held: int | None = None  # survival: the cell whose stack was picked up
        self.grid = inventory.crafting  # survival: the crafting grid (the inventory keeps it)
        # A block's inventory shown instead of the grid (`open_container`), its slots, and who
        # makes a move that touches them.
        self.container: Container | None = None
        self.stored: list[ItemStack | None] = []
        self._mover: Callable[[Slot, Slot], object] | None = None
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
            parent=self.panel, text="", origin=(-0.5, 0), x=-COLUMNS * _PITCH / 2, y=0.22
        )
        self.slots = Entity(parent=self.panel, z=2, color=color.rgba(0.3, 0.3, 0.32, 0.95))
        self.icons = Entity(parent=self.panel, z=1)
        self.counts: list[Text] = []
        self.visible: list[CatalogItem] = []  # creative: the items on the page, in cell order

    # -- geometry -----------------------------------------------------------------------------

    def cell_centre(self, index: int) -> tuple[float, float]:
        """Centre of grid cell `index` in the panel (row 0 at the top, 9 to a row).

        Survival's last row (cells 27..35) is the hotbar, drawn a little apart as in Minecraft;
        above the inventory, the crafting grid (`CRAFT_CELL`...) and its output (`OUTPUT_CELL`).
        """
        if self.creative:
            row, column = divmod(index, COLUMNS)
            return (column - (COLUMNS - 1) / 2) * _PITCH, 0.15 - row * _PITCH
        if index >= CRAFT_CELL and self.container is not None:
            row, column = divmod(index - CRAFT_CELL, COLUMNS)
            return (column - (COLUMNS - 1) / 2) * _PITCH, _CRAFT_TOP - row * _PITCH
        if index >= CRAFT_CELL:
            row, column = divmod(index - CRAFT_CELL, GRID)
            if index == OUTPUT_CELL:
                row, column = 1, 5
            return (column + 1 - (COLUMNS - 1) / 2) * _PITCH, _CRAFT_TOP - row * _PITCH
        row, column = divmod(index, COLUMNS)
        x = (column - (COLUMNS - 1) / 2) * _PITCH
        return x, 0.15 - _CRAFT_SHIFT - row * _PITCH - (0.03 if row >= 3 else 0.0)

    def cell_at(self, x: float, y: float) -> int | None:
        """The grid cell under a point in the panel's units, or None."""
        for index in range(self._cell_count()):
            cx, cy = self.cell_centre(index)
            if abs(x - cx) <= SLOT_SIZE / 2 and abs(y - cy) <= SLOT_SIZE / 2:
                return index
        return None

    def _cell_count(self) -> int:
        if self.creative:
            return ROWS * COLUMNS
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
        """Show the screen: the picker in creative, the inventory in survival."""
        self.container, self._mover = None, None
        self.creative = creative
        self.shown = True
        self.held = None
        self._ensure_sheet()
        self.root.enabled = True
        self.refresh()
        self.root.follow()

    def open_container(
        self,
        container: Container,
        slots: list[ItemStack | None],
        move: Callable[[Slot, Slot], object],
    ) -> None:
        """Show a block's inventory above the player's (in either mode); ``move`` makes each
        move that touches its slots (module notes)."""
        self.open(creative=False)
        self.container, self.stored, self._mover = container, list(slots), move
        self.refresh()

    def close(self) -> None:
        """Hide the screen (a stack still held goes back where it was); the crafting grid's
        stacks go back into the inventory (a craft left room for them)."""
        self.shown = False
        self.held = None
        self.root.enabled = False
        self.container, self.stored, self._mover = None, [], None
        for cell, stack in enumerate(self.grid):
            if stack is not None:
                left = self.inventory.add(stack.item, stack.count)
                self.grid[cell] = ItemStack(stack.item, left) if left else None

    # -- input --------------------------------------------------------------------------------

    def type_key(self, key: str) -> bool:
        """A key typed while the picker is open; True if it edited the search line."""
        if not self.creative:
            return False
        if key == "backspace":
            self.query = self.query[:-1]
        elif key == "space" and len(self.query) < _MAX_QUERY:
            self.query += " "
        elif len(key) == 1 and (key.isalnum() or key in "_:") and len(self.query) < _MAX_QUERY:
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
        words = self.query.split()
        return [
            item
            for item in self.items
            if all(w in item.item or w in item.description.lower() for w in words)
        ]

    def scroll(self, steps: int) -> None:
        """Turn the picker's pages (the mouse wheel)."""
        pages = max(1, -(-len(self.matches()) // (ROWS * COLUMNS)))
        self.page = min(max(self.page + steps, 0), pages - 1)
        self.refresh()

    def click(self, index: int) -> str | None:
        """Click grid cell `index`; returns a short message for the HUD, or None."""
        if self.creative:
            if not 0 <= index < len(self.visible):
                return None
            item = self.visible[index]
            full = self.inventory.stack_max(item.item)
            self.inventory.put(self.inventory.selected, ItemStack(item.item, full))
            self.refresh()
            return f"{item.description} in slot {self.inventory.selected + 1}"
        if not 0 <= index < self._cell_count():
            return None
        if index == OUTPUT_CELL and self.container is None:
            return self._craft()
        if self.held is None:
            if self._stack(index) is not None:
                self.held = index
        else:
            held, self.held = self.held, None
            if self._mover is None or max(held, index) < CRAFT_CELL:
                self._move(held, index)
            elif held != index and self._stack(held) is not None:
                self._mover(self.slot_of(held), self.slot_of(index))
        self.refresh()
        return None

    def slot_of(self, cell: int) -> Slot:
        """The slot a survival cell shows while a block's inventory is open: the block's, or
        the player's inventory's."""
        if cell >= CRAFT_CELL:
            return Slot(BLOCK, cell - CRAFT_CELL)
        return Slot(PLAYER, self._slot_of_cell(cell))

    def _stack(self, cell: int) -> ItemStack | None:
        """The stack in a survival cell: an inventory slot's, the crafting grid's or the open
        container's."""
        if cell >= CRAFT_CELL and self.container is not None:
            return self.stored[cell - CRAFT_CELL]
        if cell >= CRAFT_CELL:
            return self.grid[cell - CRAFT_CELL]
        return self.inventory.slots[self._slot_of_cell(cell)]

    def _put(self, cell: int, stack: ItemStack | None) -> None:
        if cell >= CRAFT_CELL and self.container is not None:
            self.stored[cell - CRAFT_CELL] = stack
        elif cell >= CRAFT_CELL:
            self.grid[cell - CRAFT_CELL] = stack
        else:
            self.inventory.slots[self._slot_of_cell(cell)] = stack

    def _move(self, source: int, target: int) -> None:
        """Move a stack onto a cell by `Inventory.moved`'s rule: into an empty cell, merged
        onto the same item as far as it stacks, else swapped."""
        if source != target:
            left, put = self.inventory.moved(self._stack(source), self._stack(target))
            self._put(source, left)
            self._put(target, put)

    def _craft(self) -> str | None:
        """The output cell was clicked: craft once, if the inventory has room (module notes)."""
        made = craft(self.registry, self.grid)
        if made is None:
            return None
        output, left = made
        if self.inventory.with_added([output, *left])[1]:
            return "no room in the inventory: make some first"
        self.inventory.add(output.item, output.count)
        self.grid[:] = left
        self.held = None
        self.refresh()
        return f"crafted {output.count} {self._descriptions.get(output.item, output.item)}"

    @staticmethod
    def _slot_of_cell(index: int) -> int:
        """Survival cells: rows 0..2 are inventory slots 9..35, row 3 the hotbar (slots 0..8)."""
        return index - 27 if index >= 27 else index + HOTBAR_SLOTS

    # -- drawing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw the grid from the inventory (or the picker's page and search)."""
        if not self.shown:
            return
        for text in self.counts:
            destroy(text)
        self.counts = []
        if self.creative:
            found = self.matches()
            per_page = ROWS * COLUMNS
            self.visible = found[self.page * per_page : (self.page + 1) * per_page]
            pages = max(1, -(-len(found) // per_page))
            self.title.text = f"Creative: {len(found)} items (page {self.page + 1}/{pages})"
            self.search.text = f"Search: {self.query}_"
            cells = list(range(per_page))
            shown = [(i, item.item) for i, item in enumerate(self.visible)]
        else:
            self.visible = []
            self.title.text = "Inventory" if self.container is None else self.container.title
            self.search.text = ""
            cells = list(range(self._cell_count()))
            shown = []
            made = None if self.container is not None else craft(self.registry, self.grid)
            for index in cells:
                if index == OUTPUT_CELL and self.container is None:  # what a click makes
                    stack = made[0] if made is not None else None
                else:
                    stack = self._stack(index)
                if stack is not None:
                    shown.append((index, stack.item))
                    if stack.count > 1:
                        self._count_text(index, stack.count)
        self._frame()
        centres = np.array([self.cell_centre(i) for i in cells], dtype=np.float64)
        self.slots.model = _quads(centres, SLOT_SIZE)
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

    def _frame(self) -> None:
        """The backing, the title and the crafting arrow for the mode shown."""
        tall = not self.creative
        self.backing.scale_y = 0.74 if tall else 0.62
        self.backing.y = 0.115 if tall else 0.0
        self.title.y = _CRAFT_TOP + 0.075 if tall else 0.27
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
