"""The base game's sound groups (`world.blocks.sounds.SoundGroup`), as content.

Each material has two families of files in ``assets/sounds/`` (made by ``tools/make_sounds.py``,
several variations each), as Minecraft's ``dig/`` and ``step/`` folders: ``base:<material>_break``
plays for a break and a place, ``base:<material>_step`` for a footstep, a hit while digging
(an octave down) and a landing. Glass breaks with its own shatter and otherwise sounds like stone
(Minecraft's glass places and steps as stone); water has a splash (``fall``: entering it; and
``place``: a bucket poured) and a swim stroke (``step``), and nothing to dig or break.

| group | blocks |
|---|---|
| `STONE_SOUNDS` | stone, cobblestone, bedrock, obsidian, sandstone, stone slabs and stairs |
| `WOOD_SOUNDS` | log, planks, their slabs and stairs, fence, door, torch |
| `GRAVEL_SOUNDS` | dirt, gravel |
| `GRASS_SOUNDS` | grass block, leaves, tall grass, sapling, dead bush |
| `SAND_SOUNDS` | sand |
| `GLASS_SOUNDS` | glass, ice, lamp |
| `CLOTH_SOUNDS` | cactus (Minecraft's wool sound) |
| `SNOW_SOUNDS` | snow layer |
| `METAL_SOUNDS` | none yet: a mod's iron block |
| `WATER_SOUNDS` | water (lava is silent) |

A mod gives its blocks one of these (``BlockType("gems:ruby", sounds=STONE_SOUNDS)``) or its own
group naming its own files.
"""

from __future__ import annotations

from typing import Final

from world.blocks.sounds import SoundGroup

__all__ = [
    "BASE_GROUPS",
    "CLOTH_SOUNDS",
    "GLASS_SOUNDS",
    "GRASS_SOUNDS",
    "GRAVEL_SOUNDS",
    "METAL_SOUNDS",
    "SAND_SOUNDS",
    "SNOW_SOUNDS",
    "STONE_SOUNDS",
    "WATER_SOUNDS",
    "WOOD_SOUNDS",
    "material_group",
]


def material_group(material: str, *, broken: str | None = None) -> SoundGroup:
    """A base material's group: its ``_break`` family breaks and places, its ``_step`` family
    steps, hits and lands; ``broken`` names another break sound (glass's shatter)."""
    hit = f"base:{material}_step"
    dug = f"base:{material}_break"
    return SoundGroup(dig=hit, dug=broken or dug, place=dug, step=hit, fall=hit)


STONE_SOUNDS: Final = material_group("stone")
WOOD_SOUNDS: Final = material_group("wood")
GRAVEL_SOUNDS: Final = material_group("gravel")
GRASS_SOUNDS: Final = material_group("grass")
SAND_SOUNDS: Final = material_group("sand")
GLASS_SOUNDS: Final = material_group("stone", broken="base:glass_break")
CLOTH_SOUNDS: Final = material_group("cloth")
SNOW_SOUNDS: Final = material_group("snow")
METAL_SOUNDS: Final = material_group("metal")
WATER_SOUNDS: Final = SoundGroup(
    place="base:water_splash", step="base:water_swim", fall="base:water_splash"
)

BASE_GROUPS: Final = {
    "stone": STONE_SOUNDS,
    "wood": WOOD_SOUNDS,
    "gravel": GRAVEL_SOUNDS,
    "grass": GRASS_SOUNDS,
    "sand": SAND_SOUNDS,
    "glass": GLASS_SOUNDS,
    "cloth": CLOTH_SOUNDS,
    "snow": SNOW_SOUNDS,
    "metal": METAL_SOUNDS,
    "water": WATER_SOUNDS,
}
"""Every base group by material name."""
