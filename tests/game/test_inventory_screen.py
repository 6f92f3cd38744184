"""The E screen: the creative picker lists every block, mods' too, under each mod's heading; the
inventory shows each slot's stack; hovering a cell names its item in a tooltip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from game.hud_layout import SLOT_SIZE
from world.actions.containers import PLAYER, Slot
from world.actions.slot_clicks import GRID, OUTPUT
from world.base import default_registry
from world.blocks.atlas import ATLAS_PATH
from world.blocks.block_type import BlockType
from world.blocks.shapes import slab
from world.items.inventory import Inventory, ItemStack


@pytest.fixture
def registry() -> Any:
    registry = default_registry()
    registry.register(BlockType("gems:ruby", description="ruby block", tiles=("base:lamp",)))
    registry.register(BlockType("gems:ruby_slab", tiles=("base:lamp",), selection=slab("bottom")))
    return registry


@pytest.fixture
def screen(app: Any, registry: Any) -> Any:
    from game.inventory_screen import InventoryScreen

    with Image.open(ATLAS_PATH) as image:
        atlas = np.asarray(image.convert("RGBA"))
    screen = InventoryScreen(registry, Inventory(), atlas)
    yield screen
    screen.destroy()


def test_the_picker_lists_base_and_mod_blocks_grouped_by_mod(screen: Any, registry: Any) -> None:
    from game.picker import catalog

    items = [item.item for item in catalog(registry)]
    assert items[0] == "base:stone" and "gems:ruby" in items
    assert "base:water" not in items and "air" not in items
    mods = [item.partition(":")[0] for item in items]
    assert mods == sorted(mods, key=lambda m: m != "base")  # base first, then each mod together
    assert items.index("base:bucket") < items.index("gems:ruby")  # base's items with its blocks


def test_searching_and_clicking_puts_a_stack_in_the_selected_hotbar_slot(
    screen: Any, app: Any
) -> None:
    screen.open(creative=True)
    screen.set_query("ruby")
    assert [item.item for item in screen.visible] == ["gems:ruby", "gems:ruby_slab"]
    screen.inventory.select(3)
    message = screen.click(1)
    assert screen.inventory.slots[3] == ItemStack("gems:ruby_slab", 64)
    assert message == "ruby slab in slot 4"
    for key in "xyz":
        screen.type_key(key)
    assert screen.visible == []
    for _ in range(3):
        screen.type_key("backspace")
    assert len(screen.visible) == 2


def test_the_survival_screen_shows_each_slot_s_stack_and_which_slot_a_cell_is(screen: Any) -> None:
    inv = screen.inventory
    inv.put(0, ItemStack("base:dirt", 6))
    inv.put(9, ItemStack("base:dirt", 64))
    screen.open(creative=False)
    assert screen.slot_of(27) == Slot(PLAYER, 0) and screen.slot_of(0) == Slot(PLAYER, 9)
    assert screen.slot_of(36) == Slot(GRID, 0) and screen.slot_of(45) == Slot(OUTPUT, 0)
    assert screen.slot_of(46) is None and screen.slot_of(-1) is None
    assert [t.text for t in screen.counts] == ["64", "6"]


def test_the_carried_stack_is_drawn_at_the_pointer_with_its_count(screen: Any) -> None:
    screen.inventory.carried[0] = ItemStack("base:dirt", 5)
    screen.open(creative=False)
    screen.hover(3, (0.1, -0.05))
    assert screen.cursor.enabled and tuple(screen.cursor.position)[:2] == pytest.approx(
        (0.1, -0.05)
    )
    assert screen.cursor_count.text == "5"
    screen.inventory.put(9, ItemStack("base:grass", 1))
    screen.hover(0)
    assert screen.tooltip.text == ""  # no name while a stack is carried, as Minecraft
    screen.inventory.carried[0] = None
    screen.refresh()
    assert not screen.cursor.enabled and screen.tooltip.text == "grass block"


def test_hovering_a_cell_names_its_item_and_an_empty_cell_names_nothing(screen: Any) -> None:
    screen.open(creative=True)
    screen.set_query("ruby")
    screen.hover(0)
    assert screen.tooltip.text == "ruby block" and screen.tooltip.label.enabled
    screen.hover(1)  # no description given: its name, readable
    assert screen.tooltip.text == "ruby slab"
    screen.hover(None)
    assert screen.tooltip.text == "" and not screen.tooltip.label.enabled
    inv = screen.inventory
    inv.put(9, ItemStack("base:grass", 3))
    inv.put(10, ItemStack("gone:blue_gem", 2))  # an item of a mod no longer loaded
    screen.open(creative=False)
    screen.hover(0)
    assert screen.tooltip.text == "grass block"
    screen.hover(1)
    assert screen.tooltip.text == "blue gem"
    screen.hover(2)
    assert screen.tooltip.text == ""
    screen.hover(0)
    screen.close()
    assert not screen.tooltip.label.enabled


def test_the_tooltip_is_drawn_above_the_screen_near_the_pointer_and_hidden_again(
    screen: Any, app: Any
) -> None:
    from game.engine import grab_frame

    screen.inventory.put(9, ItemStack("base:grass", 3))
    screen.open(creative=False)
    x, y = screen.cell_centre(0)
    scale = float(screen.panel.scale_x)

    def frame() -> Any:
        for _ in range(2):
            app.step()
        return grab_frame(app).astype(int)

    before = frame()
    screen.hover(0, (x, y))
    shown = frame()
    height, width = shown.shape[:2]
    # The box lies just up and right of the pointer, over the next cells: dark, reddish-violet.
    px = int(width / 2 + (x + 0.03) * scale * height)
    py = int(height / 2 - (y + 0.02) * scale * height)
    area = (slice(py - 4, py + 5), slice(px - 4, px + 5))
    patch = shown[area].reshape(-1, 3)
    box = (patch.max(axis=1) < 60) & (patch[:, 2] > patch[:, 1])  # the name's letters aside
    assert box.mean() > 0.5, patch
    assert (before[area] != shown[area]).any()
    screen.hover(None, (x, y))
    assert (frame() == before).all()


def test_the_picker_draws_block_icons(screen: Any, app: Any, tmp_path: Path) -> None:
    from game.engine import grab_frame

    screen.open(creative=True)
    for _ in range(2):
        app.step()
    frame = grab_frame(app)
    height, width = frame.shape[:2]
    # The first cell holds stone's icon: grey pixels near its centre, inside the dark panel.
    from ursina import camera, window

    x, y = screen.cell_centre(0)
    scale = float(screen.panel.scale_x)
    px = int(width / 2 + x * scale * height)
    py = int(height / 2 - y * scale * height)
    patch = frame[py - 3 : py + 4, px - 3 : px + 4].reshape(-1, 3).astype(int)
    grey = (np.abs(patch[:, 0] - patch[:, 2]) < 20) & (patch.mean(axis=1) > 60)
    assert grey.mean() > 0.5, patch
    assert camera.ui is not None and window is not None


def test_the_picker_shows_each_mod_s_heading_above_its_items(screen: Any) -> None:
    screen.open(creative=True)
    texts = [h.text for h in screen.headings]
    assert texts[0] == "Base"
    first = screen.headings[0]
    assert first.y > screen.cell_centre(0)[1] + 0.03  # above the first row
    screen.set_query("ruby")
    assert [h.text for h in screen.headings] == ["Gems"]
    screen.set_query("")
    found = []
    for _ in range(40):
        found += [h.text for h in screen.headings]
        screen.scroll(1)
    assert "Gems" in found and "Base" in found


def test_the_search_line_is_cleared_each_time_the_picker_opens(screen: Any) -> None:
    screen.open(creative=True)
    everything = screen.title.text
    screen.set_query("ruby")
    screen.scroll(1)
    screen.close()
    screen.open(creative=True)
    assert screen.query == "" and screen.page == 0 and screen.title.text == everything
    assert screen.search.text == "Search: _"


def test_a_worn_tool_shows_its_durability_bar_and_its_uses_left_in_the_tooltip(
    app: Any, registry: Any
) -> None:
    """Minecraft's bar over the bottom of a worn tool's icon (green while many uses are left;
    none on a tool not worn), on the carried stack too, and ``Durability: 52 / 59`` under the
    name in the tooltip."""
    from game.engine import grab_frame
    from game.inventory_screen import InventoryScreen
    from world.items.item import Item

    pick = Item("gems:pick", "gem pickaxe", image="base:planks", stack_max=1, durability=59)
    registry.register_item(pick)
    with Image.open(ATLAS_PATH) as image:
        atlas = np.asarray(image.convert("RGBA"))
    screen = InventoryScreen(registry, Inventory(), atlas)
    try:
        screen.inventory.put(9, ItemStack("gems:pick"))  # cell 0: not worn
        screen.inventory.put(10, ItemStack("gems:pick", 1, 7))  # cell 1: 52 uses of 59 left
        screen.open(creative=False)

        def bar_pixels(cell: int) -> Any:
            for _ in range(2):
                app.step()
            frame = grab_frame(app).astype(int)
            height, width = frame.shape[:2]
            x, y = screen.cell_centre(cell)
            scale = float(screen.panel.scale_x) * height
            icon = SLOT_SIZE * 0.8
            px = int(width / 2 + x * scale)
            top = int(height / 2 - (y - icon / 2 + 4 / 16 * icon) * scale)
            low = int(height / 2 - (y - icon / 2) * scale)
            return frame[top : low + 1, px - 2 : px + 3].reshape(-1, 3)

        def green(patch: Any) -> bool:
            return bool(((patch[:, 1] > 150) & (patch[:, 0] < 110) & (patch[:, 2] < 80)).any())

        assert green(bar_pixels(1)) and not green(bar_pixels(0))
        assert (bar_pixels(1).max(axis=1) < 30).any()  # the black bar under the green one
        screen.hover(1)
        assert screen.tooltip.text == "gem pickaxe\nDurability: 52 / 59"
        screen.hover(0)
        assert screen.tooltip.text == "gem pickaxe"  # not worn: the name alone
        screen.inventory.carried[0] = screen.inventory.take(10)
        screen.refresh()
        screen.hover(3, (0.1, -0.05))
        assert screen.cursor.enabled and screen.cursor_bar.node().getNumGeoms() == 1
        assert not green(bar_pixels(1))  # the slot is empty now
    finally:
        screen.destroy()
