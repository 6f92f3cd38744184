"""Sky light and block light of a `World`: two 4-bit channels per voxel, kept per chunk.

Storage: ``light.sky[key]`` and ``light.block[key]`` are flat uint8 arrays of a loaded chunk, with
the chunk's own index ``x*256 + y*16 + z``. Voxels of chunks that are not loaded hold no light
(read as 0) and let nothing through them.

Rules (Minecraft Java's):

- opacity per state (`opacity_table`): 15 for opaque full cubes (not ``transparent``), 1 for
  liquids and leaves (a ``leaves`` group or a name ending in ``leaves``: they filter 1 more per
  block), 0 for everything else: air, glass, plants, torches, and slabs, stairs and other shaped
  blocks (Minecraft lets light into them; their level is the spread value).
- block light: ``light[v] = max(emit[v], max(neighbours) - max(1, opacity[v]))``, 0 inside an opaque
  block unless it emits itself (a lamp cube holds its own 15).
- sky light: the same spreading, plus a lossless 15 straight down: a voxel is *open sky* when no
  loaded voxel above it in its world column, up to the top loaded chunk of the column, stops sky
  (`sky_stop_table`: opacity > 0, or a solid non-full shape such as a slab or stairs). Above the
  top of the run of loaded chunks over a voxel is sky: an unbounded world has open sky over its
  loaded part (a loaded chunk above a gap of unloaded ones does not shade what lies below the gap).

The field is the least fixed point of those equations. It is computed on a box of voxels by numpy
relaxation (each pass takes the max over the six shifted neighbours; at most 16 passes, as every
non-lossless step loses at least 1), with the light of the one-voxel shell around the box held
fixed. An edit relights the box that can change: 15 voxels around the changed positions, extended
down each changed column to where open sky ends; within it, Minecraft's remove-then-refill
(`world.light.relax.relight_edits`): only the light that may have come through the changed
voxels is removed and flooded back. New chunks reset their box to its sources and refill it
from its shell. No whole-world pass.

The mesher reads `Light.padded(key)`: (18, 18, 18) arrays of one chunk and a one-voxel border.

New chunks may be lit in another process (the chunk worker): `Light.begin_chunks` reads their
box into plain arrays (`LightInputs`), `solve_light` relaxes them anywhere, and
`Light.finish_chunks` writes the answer back unless a chunk the job read changed meanwhile
(stamped while jobs are out), in which case nothing is written and the chunks are lit again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from world.blocks.registry import BlockRegistry
from world.light.boxes import Box as _Box
from world.light.boxes import merge_meeting
from world.light.boxes import pieces as _pieces
from world.light.relax import MAX_LIGHT, relax, relight_edits
from world.voxels.chunks import World
from world.voxels.layout import CHUNK_SHIFT, CHUNK_VOLUME, ChunkKey
from world.voxels.padded import neighbour_keys, pad

__all__ = [
    "Light",
    "LightAnswer",
    "LightInputs",
    "LightJob",
    "opacity_table",
    "sky_stop_table",
    "solve_light",
]

_S = 16
_DARK = np.zeros(CHUNK_VOLUME, np.uint8)  # a chunk without light
_NO_FLOOR = -(2**40)  # a floor below any world height: nothing stops sky
_FULL = np.int8(MAX_LIGHT)
_OPAQUE_LOSS = np.int8(MAX_LIGHT + 1)  # the loss into a voxel not loaded: nothing gets in
_INNER = (slice(1, -1),) * 3  # a padded box's own voxels

Pieces = tuple[tuple[ChunkKey, tuple[slice, ...], tuple[slice, ...]], ...]
"""The chunks a box covers: each key with its slice of the box and of the chunk's (16, 16, 16)."""
LightAnswer = dict[ChunkKey, tuple[NDArray[np.uint8], NDArray[np.uint8]]]
"""A solved box's new (sky, block) light, the piece of each chunk that changed (`solve_light`)."""


@dataclass(frozen=True, slots=True)
class LightInputs:
    """What lighting one box from its sources needs, read from the world and its light: plain
    arrays, so the chunk worker process can solve it (`solve_light`).

    Attributes
    ----------
    sky, blk : ndarray of int8, (X + 2, Y + 2, Z + 2)
        The light before, with the one-voxel shell held fixed.
    sky_src, blk_src : ndarray of int8, (X, Y, Z)
        The box's sources: 15 at open sky; what each block gives off.
    loss : ndarray of int8, (X, Y, Z)
        The loss into each voxel (16: nothing gets in).
    pieces : tuple
        The box's pieces of loaded chunks (`Pieces`).
    fresh : frozenset of ChunkKey
        Those chunks without light yet: their pieces are given back whatever they hold.
    """

    sky: NDArray[np.int8]
    blk: NDArray[np.int8]
    sky_src: NDArray[np.int8]
    blk_src: NDArray[np.int8]
    loss: NDArray[np.int8]
    pieces: Pieces
    fresh: frozenset[ChunkKey]


@dataclass(frozen=True, slots=True)
class LightJob:
    """Chunks lit elsewhere (`Light.begin_chunks`): their box's inputs, and the chunks whose
    change while it is solved makes the answer stale (`Light.finish_chunks`)."""

    keys: tuple[ChunkKey, ...]
    inputs: LightInputs
    stamp: int
    watched: frozenset[ChunkKey]


def opacity_table(registry: BlockRegistry) -> NDArray[np.uint8]:
    """Opacity per state id: 15 opaque cube, 1 liquids and leaves, 0 the rest (module notes)."""
    n = len(registry)
    op = np.zeros(n, dtype=np.uint8)
    opaque = np.asarray(registry.full_cube, bool) & ~np.asarray(registry.transparent, bool)
    op[opaque] = MAX_LIGHT
    op[np.asarray(registry.liquid, bool)] = 1
    for i in range(n):
        block = registry[i]
        if "leaves" in block.groups or block.name.endswith("leaves"):
            op[i] = 1
    return op


def sky_stop_table(registry: BlockRegistry) -> NDArray[np.bool_]:
    """States that end the lossless column of sky light: opacity > 0 or a solid shaped block."""
    shaped = np.asarray(registry.solid, bool) & ~np.asarray(registry.full_cube, bool)
    stop: NDArray[np.bool_] = (opacity_table(registry) > 0) | shaped
    return stop


class Light:
    """Light of the loaded chunks of ``world`` (module notes); update it explicitly after edits.

    Parameters
    ----------
    world : World
        The voxels; read only.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        reg = world.registry
        op = opacity_table(reg)
        self._loss = np.where(op >= MAX_LIGHT, MAX_LIGHT + 1, np.maximum(op, 1)).astype(np.int8)
        self._stop = sky_stop_table(reg)
        self._emit = np.minimum(np.asarray(reg.light), MAX_LIGHT).astype(np.int8)
        self.sky: dict[ChunkKey, NDArray[np.uint8]] = {}
        self.block: dict[ChunkKey, NDArray[np.uint8]] = {}
        # Per loaded chunk, (16, 16): 1 + the local y of the highest voxel that stops sky in
        # each column, 0 for none (`_tops`); dropped when the chunk's blocks change.
        self._top: dict[ChunkKey, NDArray[np.int16]] = {}
        # Per chunk key, (16, 16): the world height above the highest sky-stopping voxel of the
        # run of loaded chunks from that chunk up (`_floor`); per column (cx, cz), dropped
        # whenever a chunk of the column changes, loads or unloads.
        self._floors: dict[tuple[int, int], dict[int, NDArray[np.int64]]] = {}
        # Jobs begun and not finished (`begin_chunks`), the last one's stamp, and while any is
        # out, the stamp at which each chunk's light or blocks last changed (`_touch`).
        self._out = 0
        self._stamp = 0
        self._touched: dict[ChunkKey, int] = {}

    # -- reading ----------------------------------------------------------------------------

    def at(self, wx: int, wy: int, wz: int) -> tuple[int, int]:
        """(sky, block) light of one voxel; (0, 0) in a chunk without light."""
        key = (wx >> CHUNK_SHIFT, wy >> CHUNK_SHIFT, wz >> CHUNK_SHIFT)
        sky = self.sky.get(key)
        if sky is None:
            return 0, 0
        i = (wx & 15) * 256 + (wy & 15) * 16 + (wz & 15)
        return int(sky[i]), int(self.block[key][i])

    def padded(self, key: ChunkKey) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        """(sky, block) of chunk ``key`` and a one-voxel border as (18, 18, 18) uint8 arrays
        (0 in chunks without light)."""
        keys = neighbour_keys(key)
        sky = pad([self.sky.get(k, _DARK) for k in keys])
        return sky, pad([self.block.get(k, _DARK) for k in keys])

    # -- updating ---------------------------------------------------------------------------

    def add_chunk(self, key: ChunkKey) -> set[ChunkKey]:
        """Light a chunk that was just loaded or generated; the keys whose light changed."""
        return self.add_chunks([key])

    def add_chunks(self, keys: Iterable[ChunkKey]) -> set[ChunkKey]:
        """Light many chunks that were just loaded (a streaming batch); the keys that changed.

        Chunks are lit in groups sharing one relight of their bounding box (the whole batch
        when it spans at most 4 chunks on every axis, else those in the same 4³ block of
        chunks), so the 15-voxel margin around a box is paid once per group.
        """
        todo = list(keys)
        for key in todo:  # loaded now: its column's cached floors (the runs through it) change
            self._forget_top(key)
        if not todo:
            return set()
        span = np.ptp(np.array(todo, dtype=np.int64), axis=0)
        groups: dict[ChunkKey, list[ChunkKey]] = {}
        for key in todo:  # one box when the batch is within 4³ chunks, else per 4³ block
            group = (0, 0, 0) if span.max() < 4 else (key[0] >> 2, key[1] >> 2, key[2] >> 2)
            groups.setdefault(group, []).append(key)
        changed: set[ChunkKey] = set()
        for members in groups.values():
            box = self._group_box(members)
            if box is not None:
                changed |= self._solve(box)
        return changed

    def begin_chunks(self, keys: Iterable[ChunkKey]) -> LightJob | None:
        """Start lighting chunks that were just loaded, to be solved elsewhere (the chunk
        worker: `solve_light`): the job holds the inputs of their one box (their bounding box,
        15 voxels around it and down the open sky below), or None when none is loaded. Its
        answer goes to `finish_chunks`, or the job to `cancel`.

        The main thread's part is reading the box (about two thirds of lighting it here, the
        relaxation the rest); while jobs are out, every change of a chunk's light or blocks is
        stamped, so that an answer computed from what has changed since is never written.
        """
        todo = [key for key in dict.fromkeys(keys) if self._is_loaded(key)]
        if not todo:
            return None
        for key in todo:  # loaded now: its column's cached floors (the runs through it) change
            self._forget_top(key)
        box = self._group_box(todo)
        assert box is not None  # the chunks themselves are loaded
        self._stamp += 1
        self._out += 1
        watched = frozenset(key for key, _, _ in _pieces(_shell(box)))
        return LightJob(tuple(todo), self._inputs(box), self._stamp, watched)

    def finish_chunks(self, job: LightJob, answer: LightAnswer) -> set[ChunkKey] | None:
        """Write a job's answer (`solve_light` of its inputs); the keys whose light changed.
        None when a chunk the job read (its box and shell) changed since it began (its light,
        its blocks, loaded or forgotten): nothing is written, its chunks are to be lit again."""
        stale = any(self._touched.get(key, -1) >= job.stamp for key in job.watched)
        changed = None if stale else self._write(job.inputs.pieces, answer)
        self.cancel(job)
        return changed

    def cancel(self, job: LightJob) -> None:
        """A job that will not be finished (its answer lost): it is no longer out."""
        self._out -= 1
        if not self._out:
            self._touched.clear()

    def _touch(self, key: ChunkKey) -> None:
        """A chunk's light or blocks changed: jobs out that read it are stale."""
        if self._out:
            self._touched[key] = self._stamp

    def remove_chunk(self, key: ChunkKey) -> None:
        """Forget an unloaded chunk's light."""
        self.sky.pop(key, None)
        self.block.pop(key, None)
        self._forget_top(key)

    def changes_light(self, old: int, new: int) -> bool:
        """Whether replacing state ``old`` by ``new`` can change any light (their opacity,
        emission or stopping of sky light differ): grass spreading onto dirt cannot."""
        return bool(
            self._loss[old] != self._loss[new]
            or self._emit[old] != self._emit[new]
            or self._stop[old] != self._stop[new]
        )

    def update(self, changed: Iterable[tuple[int, int, int]]) -> set[ChunkKey]:
        """Relight around changed voxels (all the changes of an action: give them in one
        call); the chunk keys whose light changed (to remesh).

        The changes of each chunk are relit in one bounded box, and boxes that meet are
        merged: remove-then-refill needs every changed voxel in its box to be relit with it
        (one not relit yet still holds the light of its old block), and changes far apart
        (leaves decaying over the map) stay in small boxes.
        """
        pts = np.array([tuple(map(int, p)) for p in changed], dtype=np.int64).reshape(-1, 3)
        keys = pts >> CHUNK_SHIFT
        cores = []
        for key in dict.fromkeys(map(tuple, keys.tolist())):  # (np.unique's axis: 15 ms at first)
            self._forget_top(key)
            mine = pts[(keys == key).all(axis=1)]
            lo, hi = mine.min(axis=0), mine.max(axis=0) + 1
            cores.append((int(lo[0]), int(lo[1]), int(lo[2]), int(hi[0]), int(hi[1]), int(hi[2])))
        relit: set[ChunkKey] = set()
        for box in merge_meeting(cores, self._relight_region):
            clipped = self._clip_loaded(box)
            if clipped is not None:
                relit |= self._solve(clipped, pts)
        return relit

    def _group_box(self, keys: list[ChunkKey]) -> _Box | None:
        """The box lighting newly loaded chunks relights: their bounding box, 15 voxels around
        it and down the open sky below when they can shade it, within the loaded chunks."""
        ks = np.array(keys, dtype=np.int64) * _S
        lo, hi = ks.min(axis=0), ks.max(axis=0) + _S
        core = (int(lo[0]), int(lo[1]), int(lo[2]), int(hi[0]), int(hi[1]), int(hi[2]))
        down = any(self._shades_below(key) for key in keys)
        return self._clip_loaded(self._relight_region(core, down=down))

    def _relight_region(self, core: _Box, *, down: bool = True) -> _Box:
        """The box whose light a change in ``core`` can change: 15 voxels around it, and down
        to where the open-sky columns through it end (``down=False``: the caller knows the
        open sky below the core cannot change)."""
        x0, y0, z0, x1, y1, z1 = core
        bottom = self._sky_bottom(x0, z0, x1, z1, y0) if down else y0
        r = MAX_LIGHT
        return (x0 - r, min(y0, bottom) - r, z0 - r, x1 + r, y1 + r, z1 + r)

    # -- internals --------------------------------------------------------------------------

    def _clip_loaded(self, box: _Box) -> _Box | None:
        """Shrink the box to the loaded chunks (unloaded ones hold no light)."""
        ranges = [
            range(box[a] >> CHUNK_SHIFT, ((box[a + 3] - 1) >> CHUNK_SHIFT) + 1) for a in range(3)
        ]
        keys = [
            (cx, cy, cz)
            for cx in ranges[0]
            for cy in ranges[1]
            for cz in ranges[2]
            if self._is_loaded((cx, cy, cz))
        ]
        if not keys:
            return None
        ks = np.array(keys)
        lo = ks.min(axis=0) * _S
        hi = (ks.max(axis=0) + 1) * _S
        return (
            max(box[0], int(lo[0])),
            max(box[1], int(lo[1])),
            max(box[2], int(lo[2])),
            min(box[3], int(hi[0])),
            min(box[4], int(hi[1])),
            min(box[5], int(hi[2])),
        )

    def _is_loaded(self, key: ChunkKey) -> bool:
        return key in self.world.chunks or key in self.world._air

    def _top_loaded(self, cx: int, cy: int, cz: int) -> int:
        """Top chunk row of the run of loaded chunks from ``cy`` up (``cy - 1`` if none)."""
        while self._is_loaded((cx, cy, cz)):
            cy += 1
        return cy - 1

    def _sky_bottom(self, x0: int, z0: int, x1: int, z1: int, y: int) -> int:
        """Lowest y below ``y`` in the box's columns that had or may get open sky.

        Walks each column down while the old sky is 15 or nothing stops sky, chunk row by row.
        """
        bottom = y
        active = np.ones((x1 - x0, z1 - z0), dtype=bool)
        cy = (y - 1) >> CHUNK_SHIFT
        top = y
        while active.any():
            lo = cy * _S
            if not any(
                self._is_loaded((cx, cy, cz))
                for cx in range(x0 >> CHUNK_SHIFT, ((x1 - 1) >> CHUNK_SHIFT) + 1)
                for cz in range(z0 >> CHUNK_SHIFT, ((z1 - 1) >> CHUNK_SHIFT) + 1)
            ):
                break
            box = (x0, lo, z0, x1, min(top, (cy + 1) * _S), z1)
            ids, loaded = self._blocks(box)
            old15 = self._gather(self.sky, box) == MAX_LIGHT
            cond = (old15 | ~self._stop.take(ids)) & loaded
            # Column keeps going through this row only if cond holds all the way down from the top.
            run = np.logical_and.accumulate(cond[:, ::-1, :], axis=1)
            reached = run.any(axis=1) & active
            if reached.any():
                depth = run.sum(axis=1)
                bottom = min(bottom, box[4] - int(depth[reached].max()))
            active &= run.all(axis=1)
            top = lo
            cy -= 1
        return bottom

    def _blocks(self, box: _Box) -> tuple[NDArray[np.uint16], NDArray[np.bool_]]:
        """Blocks of a box and a mask of its loaded voxels."""
        x0, y0, z0, x1, y1, z1 = box
        ids = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=np.uint16)
        loaded = np.zeros(ids.shape, dtype=bool)
        for key, sl_box, sl_chunk in _pieces(box):
            chunk = self.world.chunks.get(key)
            if chunk is not None:
                ids[sl_box] = chunk.blocks.reshape(_S, _S, _S)[sl_chunk]
                loaded[sl_box] = True
            elif key in self.world._air:
                loaded[sl_box] = True
        return ids, loaded

    def _gather(self, store: dict[ChunkKey, NDArray[np.uint8]], box: _Box) -> NDArray[np.uint8]:
        x0, y0, z0, x1, y1, z1 = box
        out = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=np.uint8)
        for key, sl_box, sl_chunk in _pieces(box):
            arr = store.get(key)
            if arr is not None:
                out[sl_box] = arr.reshape(_S, _S, _S)[sl_chunk]
        return out

    def _shades_below(self, key: ChunkKey) -> bool:
        """Whether loading chunk ``key`` can change the open sky below it: it stops sky
        somewhere, or it joins the columns below to a run of loaded chunks above that does
        (an all-air chunk under open sky changes nothing below it)."""
        cx, cy, cz = key
        while True:
            tops = self._tops((cx, cy, cz))
            if tops is None:
                return False
            if tops.any():
                return True
            cy += 1

    def _forget_top(self, key: ChunkKey) -> None:
        """The chunk's blocks (or whether it is loaded) changed: drop its cached heights (the
        floors of its row and the rows below it: a row's floor is of the rows from it up)."""
        self._touch(key)
        self._top.pop(key, None)
        column = {r: f for r, f in self._floors.pop((key[0], key[2]), {}).items() if r > key[1]}
        if column:  # a column with no floor left is not kept (streaming forgets columns)
            self._floors[key[0], key[2]] = column

    def _floor(self, cx: int, cy: int, cz: int) -> NDArray[np.int64]:
        """(16, 16) world heights above the highest voxel stopping sky in each column of the
        run of loaded chunks from row ``cy`` up (very low where nothing stops sky)."""
        column = self._floors.setdefault((cx, cz), {})
        floor = column.get(cy)
        if floor is None:
            tops = self._tops((cx, cy, cz))
            if tops is None:  # not loaded: the run above it does not reach below
                floor = np.full((_S, _S), _NO_FLOOR, dtype=np.int64)
            else:
                above = (
                    self._floor(cx, cy + 1, cz)
                    if self._is_loaded((cx, cy + 1, cz))
                    else np.full((_S, _S), _NO_FLOOR, dtype=np.int64)
                )
                own = np.where(tops > 0, cy * _S + tops.astype(np.int64), _NO_FLOOR)
                floor = np.maximum(own, above)
            column[cy] = floor
        return floor

    def _tops(self, key: ChunkKey) -> NDArray[np.int16] | None:
        """(16, 16) tops of a loaded chunk (see ``_top``), or None when it is not loaded."""
        top = self._top.get(key)
        if top is None:
            chunk = self.world.chunks.get(key)
            if chunk is None:
                if not self._is_loaded(key):
                    return None
                top = np.zeros((_S, _S), dtype=np.int16)  # known air
            else:
                stop = self._stop.take(chunk.blocks.reshape(_S, _S, _S))
                any_stop = stop.any(axis=1)
                highest = _S - 1 - np.argmax(stop[:, ::-1, :], axis=1)
                top = np.where(any_stop, highest + 1, 0).astype(np.int16)
            self._top[key] = top
        return top

    def _sky_sources(self, box: _Box, loaded: NDArray[np.bool_]) -> NDArray[np.int8]:
        """Sky sources of a box: 15 at open sky (nothing stops sky above, up to the column's top
        loaded chunk) where ``loaded``, else 0.

        From each chunk's cached floor (`_floor`): per world column, the height above the
        highest sky-stopping voxel of the run of loaded chunks from the box's bottom row up;
        a row of the box that is not loaded does not break the run within the box.
        """
        x0, y0, z0, x1, y1, z1 = box
        floor = np.full((x1 - x0, z1 - z0), _NO_FLOOR, dtype=np.int64)
        rows = range(y0 >> CHUNK_SHIFT, ((y1 - 1) >> CHUNK_SHIFT) + 1)
        for cx in range(x0 >> CHUNK_SHIFT, ((x1 - 1) >> CHUNK_SHIFT) + 1):
            for cz in range(z0 >> CHUNK_SHIFT, ((z1 - 1) >> CHUNK_SHIFT) + 1):
                xs = slice(max(cx * _S, x0) - x0, min((cx + 1) * _S, x1) - x0)
                zs = slice(max(cz * _S, z0) - z0, min((cz + 1) * _S, z1) - z0)
                lx = slice(max(cx * _S, x0) - cx * _S, min((cx + 1) * _S, x1) - cx * _S)
                lz = slice(max(cz * _S, z0) - cz * _S, min((cz + 1) * _S, z1) - cz * _S)
                part = floor[xs, zs]
                # Each run of loaded rows starting in the box: its floor from its first row.
                for row in rows:
                    if self._is_loaded((cx, row, cz)) and (
                        row == rows[0] or not self._is_loaded((cx, row - 1, cz))
                    ):
                        np.maximum(part, self._floor(cx, row, cz)[lx, lz], out=part)
        ys = np.arange(y0, y1, dtype=np.int64)
        return np.multiply((ys[None, :, None] >= floor[:, None, :]) & loaded, _FULL, dtype=np.int8)

    def _edited_sky_sources(
        self, box: _Box, edits: NDArray[np.int64], sky: NDArray[np.int8], loaded: NDArray[np.bool_]
    ) -> NDArray[np.int8]:
        """The sky sources of a lit box after edits: 15 where its light (``sky``, its own
        voxels) was 15, exactly at open sky (any other step loses 1 or more), but worked out in
        the rectangle of world columns holding the edits, whose open sky they change."""
        src = np.where(sky == MAX_LIGHT, _FULL, np.int8(0))
        x0, y0, z0, x1, y1, z1 = box
        lo, hi = edits.min(axis=0), edits.max(axis=0) + 1
        ex0, ez0 = max(int(lo[0]), x0), max(int(lo[2]), z0)
        ex1, ez1 = min(int(hi[0]), x1), min(int(hi[2]), z1)
        if ex0 < ex1 and ez0 < ez1:
            part = (slice(ex0 - x0, ex1 - x0), slice(None), slice(ez0 - z0, ez1 - z0))
            src[part] = self._sky_sources((ex0, y0, ez0, ex1, y1, ez1), loaded[part])
        return src

    def _solve(self, box: _Box, edits: NDArray[np.int64] | None = None) -> set[ChunkKey]:
        """Relight a box (its shell held fixed); the keys whose light changed.

        ``edits``: the voxels whose blocks changed (every one within the box), when the rest of
        the box was lit and has not changed since: the box is then relit by remove-then-refill
        around them (`world.light.relax.relight_edits`). Without them, or when a chunk of the
        box has no light yet, the box is reset to its sources and refilled from its shell
        (`solve_light`, which the chunk worker runs too).
        """
        lit = edits is not None and all(
            not self._is_loaded(key) or key in self.sky for key, _, _ in _pieces(box)
        )
        if not lit:
            inputs = self._inputs(box)
            return self._write(inputs.pieces, solve_light(inputs))
        assert edits is not None
        inputs = self._inputs(box, edits)
        sky, blk = inputs.sky, inputs.blk
        before = sky[_INNER].copy(), blk[_INNER].copy()  # to tell what changed
        sources = (inputs.sky_src, inputs.blk_src)
        relight_edits(box[:3], edits, (sky, blk), sources, inputs.loss)
        return self._write(
            inputs.pieces, _changed_pieces(inputs.pieces, frozenset(), before, (sky, blk))
        )

    def _inputs(self, box: _Box, edits: NDArray[np.int64] | None = None) -> LightInputs:
        """What relighting ``box`` needs, read from the world and the light now: its sources
        from scratch (`solve_light`), or with ``edits``, those of a lit box after them."""
        ids, loaded = self._blocks(box)
        # int8 throughout, and views rather than copies (levels are 0..15): each array op on
        # a 46³ box costs about 0.1 ms, the larger part of lighting one chunk.
        sky = self._gather(self.sky, _shell(box)).view(np.int8)
        blk = self._gather(self.block, _shell(box)).view(np.int8)
        # (``take`` gathers twice as fast as ``table[ids]``; where not loaded, ids are air)
        loss = self._loss.take(ids)
        if not loaded.all():
            loss[~loaded] = _OPAQUE_LOSS
        pieces = tuple(piece for piece in _pieces(box) if self._is_loaded(piece[0]))
        return LightInputs(
            sky=sky,
            blk=blk,
            sky_src=(
                self._sky_sources(box, loaded)
                if edits is None
                else self._edited_sky_sources(box, edits, sky[_INNER], loaded)
            ),
            blk_src=self._emit.take(ids),
            loss=loss,
            pieces=pieces,
            fresh=frozenset(key for key, _, _ in pieces if key not in self.sky),
        )

    def _write(self, pieces: Pieces, answer: LightAnswer) -> set[ChunkKey]:
        """Put a solved box's changed pieces into the chunks' light (those still loaded); the
        keys written."""
        changed: set[ChunkKey] = set()
        for key, _, sl_chunk in pieces:
            new = answer.get(key)
            if new is None or not self._is_loaded(key):
                continue
            changed.add(key)
            self._touch(key)
            for store, piece in zip((self.sky, self.block), new, strict=True):
                arr = store.get(key)
                if arr is None:
                    arr = store[key] = np.zeros(CHUNK_VOLUME, dtype=np.uint8)
                arr.reshape(_S, _S, _S)[sl_chunk] = piece
        return changed


def _shell(box: _Box) -> _Box:
    """The box with its one-voxel shell."""
    x0, y0, z0, x1, y1, z1 = box
    return (x0 - 1, y0 - 1, z0 - 1, x1 + 1, y1 + 1, z1 + 1)


def solve_light(inputs: LightInputs) -> LightAnswer:
    """Relax one box of light from its sources (`world.light.relax.relax`) and give back the
    pieces of the chunks whose light changed, or that had none: a function of its inputs
    alone (their fields are relaxed in place), so the chunk worker process runs it as well as
    the main thread."""
    sky, blk = inputs.sky, inputs.blk  # relaxed in place: the inputs are used up
    before = sky[_INNER].copy(), blk[_INNER].copy()
    relax((sky, blk), (inputs.sky_src, inputs.blk_src), inputs.loss)
    return _changed_pieces(inputs.pieces, inputs.fresh, before, (sky, blk))


def _changed_pieces(
    pieces: Pieces,
    fresh: frozenset[ChunkKey],
    before: tuple[NDArray[np.int8], NDArray[np.int8]],
    after: tuple[NDArray[np.int8], NDArray[np.int8]],
) -> LightAnswer:
    """The (sky, block) light of each piece that differs from before, or is ``fresh``."""
    new_sky, new_blk = (field[_INNER].view(np.uint8) for field in after)
    differs = (new_sky != before[0].view(np.uint8)) | (new_blk != before[1].view(np.uint8))
    return {
        key: (new_sky[sl_box].copy(), new_blk[sl_box].copy())
        for key, sl_box, _ in pieces
        if key in fresh or differs[sl_box].any()
    }
