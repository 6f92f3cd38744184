"""Light: sky and block light per chunk, 0..15, lit as chunks load and relit after edits.

The contract: `Light` (`light.lighting`: a world's light, lighting a chunk and relighting the
boxes a change reaches), the numpy relaxation it runs (`light.relax`) and the boxes a relight
covers (`light.boxes`). Imports `world.blocks` and `world.voxels`.
"""

from __future__ import annotations

from world.light.lighting import Light

__all__ = ["Light"]
