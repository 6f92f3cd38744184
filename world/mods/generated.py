"""`GeneratedChunk`: a chunk just generated, as a mod's ``on_generated`` hook sees it.

A mod-facing value, below the generation machinery that makes it (`world.gen.worldgen`) and the hook
specification that names it (`world.mods.hooks`): the mod edits the blocks of its own working copy
during the call, and the object is sealed when the call returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from world.voxels.layout import CHUNK

if TYPE_CHECKING:
    from world.blocks.registry import BlockRegistry

__all__ = ["GeneratedChunk"]

_WX, _WY, _WZ = CHUNK


class GeneratedChunk:
    """A chunk just generated, as ``on_generated`` sees it: edit `blocks` in place.

    The arrays are a working copy, this call's own: `WorldgenGenerator` (and `mod_hooks`, per
    mod) copies them into the chunk only once the callback has returned without error, and then
    seals the object: reading `blocks` or `view` afterwards raises ``RuntimeError``, and the copy
    turns read-only, so a mod that keeps the object can never write into the world later. (A
    numpy view the mod took *during* the call keeps its own write flag; it writes only to the
    detached copy.)

    Attributes
    ----------
    key : tuple of int
        Chunk coordinates.
    blocks : ndarray of uint16, shape (CHUNK_VOLUME,)
        The chunk's blocks (state ids), local (x, y, z) at ``x*256 + y*16 + z``; `view` is the
        same memory as a (16, 16, 16) array indexed ``[x, y, z]``.
    registry : BlockRegistry
    seed : int
        The world seed.
    rng : numpy.random.Generator
        This chunk's generator for the current mod (`chunk_rng` salted with the mod's name).
    """

    def __init__(
        self,
        key: tuple[int, int, int],
        blocks: NDArray[np.uint16],
        registry: BlockRegistry,
        seed: int,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.key = key
        self._blocks: NDArray[np.uint16] | None = blocks
        self.registry = registry
        self.seed = seed
        self.rng = np.random.default_rng() if rng is None else rng

    @property
    def origin(self) -> tuple[int, int, int]:
        """World coordinates of the chunk's (0, 0, 0) voxel."""
        cx, cy, cz = self.key
        return (cx * _WX, cy * _WY, cz * _WZ)

    @property
    def blocks(self) -> NDArray[np.uint16]:
        """The blocks, flat; ``RuntimeError`` once sealed."""
        if self._blocks is None:
            raise RuntimeError(
                f"chunk {self.key} was sealed when on_generated returned: keep no chunk for "
                "later, a generated chunk can only be changed during the call"
            )
        return self._blocks

    @property
    def view(self) -> NDArray[np.uint16]:
        """The blocks as a (16, 16, 16) array ``[x, y, z]`` sharing `blocks`' memory."""
        return self.blocks.reshape(CHUNK)

    def seal(self) -> None:
        """End the call: the arrays go read-only and `blocks` and `view` raise from now on."""
        if self._blocks is not None:
            self._blocks.flags.writeable = False
            self._blocks = None
