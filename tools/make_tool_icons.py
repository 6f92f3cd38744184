"""Draw the `tools` mod's item icons: ``python -m tools.make_tool_icons``.

Each icon is a 16×16 RGBA PNG in ``mods/textures/`` (a mod's own textures, `world.mods.textures`):
a diagonal handle from the bottom left and a head in the material's colour at the top right,
drawn from small masks, two tones a part, as the hoe's icon is.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "mods" / "textures"
HANDLE = ((0x6B, 0x4A, 0x2B), (0x8A, 0x62, 0x3A))
MATERIALS = {
    "wood": ((0x9C, 0x7A, 0x48), (0xC2, 0x9D, 0x62)),
    "stone": ((0x6E, 0x6E, 0x6E), (0x9A, 0x9A, 0x9A)),
}
# Heads, as rows of 16 characters: '#' the head's dark edge, '+' its light face.
HEADS = {
    "pickaxe": [
        "................",
        "....#######.....",
        "...#+++++++#....",
        "....###...#+#...",
        "...........#+#..",
        "............#+#.",
        ".............#+#",
        "..............#.",
    ],
    "axe": [
        "................",
        "........###.....",
        ".......#+++#....",
        "......#++++#....",
        "......#+++#.....",
        ".......###......",
    ],
    "shovel": [
        "................",
        "...........###..",
        "..........#+++#.",
        "..........#+++#.",
        "...........#+#..",
    ],
}


def icon(tool: str, material: str) -> Image.Image:
    """One tool's icon: the handle, then its head over it."""
    pixels = np.zeros((16, 16, 4), np.uint8)
    for i in range(3, 13):  # the handle: two pixels wide, from the bottom left up and right
        y, x = 15 - i, i - 1
        pixels[y, x] = (*HANDLE[0], 255)
        pixels[y, x + 1] = (*HANDLE[1], 255)
    dark, light = MATERIALS[material]
    for y, row in enumerate(HEADS[tool]):
        for x, cell in enumerate(row):
            if cell != ".":
                pixels[y, x] = (*(dark if cell == "#" else light), 255)
    return Image.fromarray(pixels, "RGBA")


def main() -> None:
    for tool in HEADS:
        for material in MATERIALS:
            icon(tool, material).save(OUT / f"tools_{material}_{tool}.png")


if __name__ == "__main__":
    main()
