"""Sponges soak up the water around them; right click wrings a wet sponge out.

Written from docs/modding.md alone, as a modder would: a package mod (its hooks live in
``soak.py`` and are imported relatively), with metadata, its own blocks derived from a base one,
a veto with a reason, a handled right click, bulk reads and writes, and a tick.
"""

from .soak import can_break, on_place, on_tick, on_use, register_blocks

description = "sponges that soak up water"
optional_depends = ["falling"]

__all__ = ["can_break", "on_place", "on_tick", "on_use", "register_blocks"]
