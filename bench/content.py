"""Mod content at start: building the run's atlas from the base tiles and mods' PNG tiles.

Figures (medians of 15 runs): `game.atlas_build.build_atlas_image` for a mods folder holding 200
block tiles of 16×16 pixels (one mod, 200 blocks, one tile each), and for 100 tiles of 32×32
(averaged down). The PNG files are written once, before timing.

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
from world.atlas import TILE_PX
from world.mod_loader import load_mods
from world.registration import make_registry

REPEAT = 15
ATLAS_TARGET_MS = 100.0

MOD = """
    from world.blocks import BlockType
    from world.hooks import hookimpl

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
    mods = load_mods([folder], entry_points=False)
    registry = make_registry(mods)
    assert not [e for e in mods.errors if e.where == "textures"], mods.errors
    return median_seconds(lambda: build_atlas_image(registry, mods), REPEAT) * 1000


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
    print_table(f"Mod content at start (median of {REPEAT})", rows)


if __name__ == "__main__":
    main()
