"""The E screen: the creative picker lists every block, mods' too; the inventory moves stacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

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
    from game.inventory_screen import catalog

    items = [item.item for item in catalog(registry)]
    assert items[0] == "base:stone" and "gems:ruby" in items
    assert "base:water" not in items and "air" not in items
    mods = [item.partition(":")[0] for item in items]
    assert mods == sorted(mods, key=lambda m: m != "base")  # base first, then each mod together


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


def test_the_survival_screen_moves_stacks_between_slots(screen: Any) -> None:
    inv = screen.inventory
    inv.put(0, ItemStack("base:dirt", 10))
    inv.put(9, ItemStack("base:dirt", 60))
    screen.open(creative=False)
    screen.click(27)  # the hotbar row's first cell: slot 0
    screen.click(0)  # the first inventory cell: slot 9, the same item: merge
    assert inv.slots[9] == ItemStack("base:dirt", 64) and inv.slots[0] == ItemStack("base:dirt", 6)
    assert [t.text for t in screen.counts] == ["64", "6"]


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
