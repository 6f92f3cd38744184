"""Mod content at start: building the run's atlas from the base tiles and mods' PNG tiles.

Figures (medians of 15 runs): `game.atlas_build.build_atlas_image` for a mods folder holding 200
block tiles of 16×16 pixels (one mod, 200 blocks, one tile each), and for 100 tiles of 32×32
(averaged down). The PNG files are written once, before timing.

Then, in an offscreen window (800×600, software GL where there is no GPU), with 500 blocks
registered: opening the creative picker the first time (the icon sheet of every block is drawn
then) and again, and the frame rate with the picker open.

Run: ``python -m bench.content``.
"""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

import numpy as np
from PIL import Image

from bench.common import median_seconds, print_table
from game.atlas_build import build_atlas_image
from world.base import GAME
from world.blocks.atlas import TILE_PX
from world.mods.loader import load_mods
from world.mods.registration import make_registry

REPEAT = 15
ATLAS_TARGET_MS = 100.0
PICKER_BLOCKS = 500
PICKER_TARGET_MS = 100.0
PICKER_FPS_TARGET = 30.0

MOD = """
    from world.blocks.registry import BlockType
    from world.mods.hooks import hookimpl

    @hookimpl
    def register_blocks(registry):
        for i in range({n}):
            registry.register(BlockType(f"{name}:block_{{i}}", tiles=(f"{name}_tile_{{i}}.png",)))
"""


def write_mod(folder: Path, name: str, n: int, size: int) -> None:
    """A package mod with `n` blocks, each drawn from its own `size`×`size` PNG."""
    package = folder / name
    (package / "textures").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(MOD.format(n=n, name=name)))
    rng = np.random.default_rng(7)
    for i in range(n):
        pixels = rng.integers(0, 256, (size, size, 4), dtype=np.uint8)
        Image.fromarray(pixels, "RGBA").save(package / "textures" / f"{name}_tile_{i}.png")


def atlas_ms(folder: Path) -> float:
    mods = load_mods([folder], entry_points=False, game=GAME)
    registry = make_registry(mods)
    assert not [e for e in mods.errors if e.where == "textures"], mods.errors
    return median_seconds(lambda: build_atlas_image(registry, mods), REPEAT) * 1000


def picker_figures() -> tuple[float, float, float]:
    """(first open ms, later open ms median, FPS with the picker open) with 500 blocks."""
    import os
    import time

    from PIL import Image as PilImage

    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="bench-xdg-"))
    from game.engine import gl_finisher, start
    from game.inventory_screen import InventoryScreen
    from world.base import default_registry
    from world.blocks.atlas import ATLAS_PATH
    from world.blocks.block_type import BlockType
    from world.blocks.shapes import slab, stairs
    from world.items.inventory import Inventory

    app = start(headless=True, size=(800, 600))
    registry = default_registry()
    shapes = [None, slab("bottom"), stairs("east")]
    while len(list(registry)) < PICKER_BLOCKS + 1:
        i = len(list(registry))
        shape = shapes[i % 3]
        name, tiles = f"bench:block_{i}", ("base:planks",)
        registry.register(
            BlockType(name, tiles=tiles)
            if shape is None
            else BlockType(name, tiles=tiles, selection=shape)
        )
    with PilImage.open(ATLAS_PATH) as image:
        atlas = np.asarray(image.convert("RGBA"))
    screen = InventoryScreen(registry, Inventory(), atlas)
    start_s = time.perf_counter()
    screen.open(creative=True)
    first = (time.perf_counter() - start_s) * 1000
    later = []
    for _ in range(REPEAT):
        screen.close()
        start_s = time.perf_counter()
        screen.open(creative=True)
        later.append((time.perf_counter() - start_s) * 1000)
    finish = gl_finisher()
    for _ in range(10):
        app.step()
    frames = []
    for _ in range(60):
        start_s = time.perf_counter()
        app.step()
        finish()
        frames.append(time.perf_counter() - start_s)
    screen.destroy()
    return first, float(np.median(later)), 1.0 / float(np.median(frames))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small", Path(tmp) / "large"
        write_mod(small, "tiles16", 200, TILE_PX)
        write_mod(large, "tiles32", 100, 2 * TILE_PX)
        ms16, ms32 = atlas_ms(small), atlas_ms(large)
    rows = [
        (
            "build the atlas with 200 mod tiles (16×16)",
            f"{ms16:.1f} ms",
            f"<= {ATLAS_TARGET_MS:.0f} ms",
            f"{ATLAS_TARGET_MS / ms16:.1f}× target",
        ),
        ("build the atlas with 100 mod tiles (32×32)", f"{ms32:.1f} ms", "-", "reported"),
    ]
    first, later, fps = picker_figures()
    rows += [
        (
            f"open the creative picker, {PICKER_BLOCKS} blocks, first time (icons drawn)",
            f"{first:.1f} ms",
            f"<= {PICKER_TARGET_MS:.0f} ms",
            f"{PICKER_TARGET_MS / first:.1f}× target",
        ),
        (
            "open it again",
            f"{later:.1f} ms",
            f"<= {PICKER_TARGET_MS:.0f} ms",
            f"{PICKER_TARGET_MS / later:.1f}× target",
        ),
        (
            "frame rate with the picker open (800×600)",
            f"{fps:.0f} FPS",
            f">= {PICKER_FPS_TARGET:.0f} FPS",
            f"{fps / PICKER_FPS_TARGET:.1f}× target",
        ),
    ]
    print_table(f"Mod content at start (median of {REPEAT})", rows)


if __name__ == "__main__":
    main()
