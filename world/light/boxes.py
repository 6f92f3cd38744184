"""Boxes of voxels for `world.light.lighting`: the chunk pieces a box covers, and merging the boxes
of changes that meet (so that each relight sees every change within its box)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import lru_cache

from world.voxels.layout import CHUNK_SHIFT, ChunkKey

__all__ = ["Box", "merge_meeting", "pieces"]

Box = tuple[int, int, int, int, int, int]  # x0, y0, z0, x1, y1, z1: [lo, hi) per axis
_S = 1 << CHUNK_SHIFT


def merge_meeting(cores: list[Box], region: Callable[[Box], Box]) -> list[Box]:
    """The regions of ``cores`` (``region(core)``: the box a change in core can relight),
    with the cores of regions that meet or touch merged until none do: relit one after
    another, such regions never read or write one another's voxels."""
    cores = list(cores)
    boxes = [region(core) for core in cores]
    merging = True
    while merging:
        merging = False
        for i, j in itertools.combinations(range(len(boxes)), 2):
            a, b = boxes[i], boxes[j]
            if all(a[k] <= b[k + 3] and b[k] <= a[k + 3] for k in range(3)):  # shells too
                cores[i] = _union(cores[i], cores.pop(j))
                boxes.pop(j)
                boxes[i] = region(cores[i])
                merging = True
                break
    return boxes


def _union(a: Box, b: Box) -> Box:
    return (
        min(a[0], b[0]),
        min(a[1], b[1]),
        min(a[2], b[2]),
        max(a[3], b[3]),
        max(a[4], b[4]),
        max(a[5], b[5]),
    )


@lru_cache(maxsize=64)  # a relight asks for the same box's pieces four or five times
def pieces(box: Box) -> tuple[tuple[ChunkKey, tuple[slice, ...], tuple[slice, ...]], ...]:
    """The chunks a box covers, each with its slice in the box and in the chunk's (16,16,16)."""
    x0, y0, z0, x1, y1, z1 = box
    ranges = []
    for lo, hi in ((x0, x1), (y0, y1), (z0, z1)):
        parts = []
        c = lo >> CHUNK_SHIFT
        while c * _S < hi:
            a, b = max(lo, c * _S), min(hi, (c + 1) * _S)
            parts.append((c, slice(a - lo, b - lo), slice(a - c * _S, b - c * _S)))
            c += 1
        ranges.append(parts)
    out: list[tuple[ChunkKey, tuple[slice, ...], tuple[slice, ...]]] = []
    for px in ranges[0]:
        for py in ranges[1]:
            for pz in ranges[2]:
                out.append(((px[0], py[0], pz[0]), (px[1], py[1], pz[1]), (px[2], py[2], pz[2])))
    return tuple(out)
