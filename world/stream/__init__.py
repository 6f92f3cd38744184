"""Streaming: which chunks to load, mesh and let go around the player, under a time budget.

The contract: `stream.streamer.ChunkStreamer` (a pure scheduler with callbacks and an injected
clock: the game's chunk view is a thin adapter over it), `stream.loader` (reading saved chunks in
batches and generating the others off the main thread), `stream.worker` (the worker process
that loads and meshes chunks, built again from a `WorkerRecipe`) and `stream.lighting` (which
loaded chunks to light next, `LightScheduler`). Imports every layer below it.
"""

from __future__ import annotations

from world.stream.streamer import ChunkStreamer
from world.stream.worker import WorkerRecipe

__all__ = ["ChunkStreamer", "WorkerRecipe"]
