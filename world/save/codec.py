"""Bytes of a save's rows <-> values in memory: chunk blobs, chunk keys, mod-storage rows.

Pure functions with no file and no SQLite: each decoder takes what a row holds (any type: a
damaged file may hold anything) and returns the checked value or raises ``ValueError`` whose
message says what is wrong, which `world.save.storage` turns into a `SaveError` naming the file.

- A chunk blob (format 0) is ONE complete zlib stream of the chunk's 4096 block ids as
  little-endian uint16, nothing before or after it; inflating stops at `RAW_CHUNK_BYTES` + 1, so
  a hostile row cannot inflate without bound.
- A chunk key is three integers within the world limit (`world.validate.WORLD_LIMIT` voxels,
  so ``[-2**21, 2**21 - 1]`` chunks per axis): everything a save holds can be loaded and saved
  again, and no coordinate overflows anywhere.
- A mod-storage row is ``(mod, key, kind, value)``; ``kind`` names the value's type (``str``,
  ``int``, ``float``, ``bool``, ``bytes``) so every value comes back with its own type: floats as
  8 IEEE-754 bytes (SQLite would turn a NaN into NULL), strings as text (or UTF-8 bytes with
  surrogates kept, for a string SQLite's text cannot hold), booleans as 0 or 1.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import Final

import numpy as np
from numpy.typing import NDArray

from world.validate import WORLD_LIMIT
from world.voxels.layout import CHUNK_SHIFT, CHUNK_VOLUME, ChunkKey
from world.voxels.mod_storage import Value

__all__ = [
    "CHUNK_FORMAT_ZLIB",
    "CHUNK_KEY_RANGE",
    "RAW_CHUNK_BYTES",
    "ZLIB_LEVEL",
    "ModRow",
    "chunk_key",
    "decode_blob",
    "decode_mod_rows",
    "encode_blob",
    "encode_mod_rows",
]

# Chunk row format 0: zlib stream of the 4096 block ids as little-endian uint16 (8192 bytes).
CHUNK_FORMAT_ZLIB: Final = 0
RAW_CHUNK_BYTES: Final = CHUNK_VOLUME * 2
# Measured on world.gen.terrain chunks: level 6 rows are 40% smaller than level 1 (169 vs 290 bytes)
# for ~50 µs per chunk instead of 16; level 9 saves 10% more for 4× the time of level 6.
ZLIB_LEVEL: Final = 6
# Chunk coordinates of the voxels within the world limit, inclusive.
CHUNK_KEY_RANGE: Final = ((-WORLD_LIMIT + 1) >> CHUNK_SHIFT, (WORLD_LIMIT - 1) >> CHUNK_SHIFT)

ModRow = tuple[str, str, str, object]
_DOUBLE = struct.Struct("<d")


def encode_blob(file_ids: NDArray[np.uint16]) -> bytes:
    """A chunk row's blob: zlib of the file ids as little-endian uint16."""
    return zlib.compress(file_ids.astype("<u2", copy=False).tobytes(), ZLIB_LEVEL)


def decode_blob(fmt: object, data: object) -> NDArray[np.uint16]:
    """The file ids of one chunk row, checked: format, one whole zlib stream, length."""
    if fmt != CHUNK_FORMAT_ZLIB:
        raise ValueError(f"has unknown format {fmt!r} (a newer Blockpick?)")
    if not isinstance(data, bytes):
        raise ValueError(f"data is {type(data).__name__}, not a blob")
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, RAW_CHUNK_BYTES + 1)
    except zlib.error as exc:
        raise ValueError(f"is corrupt: zlib: {exc}") from None
    if not inflater.eof or inflater.unconsumed_tail or len(raw) != RAW_CHUNK_BYTES:
        raise ValueError(
            f"is corrupt: {len(raw)} bytes of block ids, expected {RAW_CHUNK_BYTES} in one "
            "complete zlib stream"
        )
    if inflater.unused_data:
        raise ValueError(
            f"is corrupt: {len(inflater.unused_data)} bytes of junk after its zlib stream"
        )
    return np.frombuffer(raw, dtype="<u2")


def chunk_key(cx: object, cy: object, cz: object) -> ChunkKey:
    """A chunk key read from a file: three integers within `CHUNK_KEY_RANGE`."""
    low, high = CHUNK_KEY_RANGE
    for value in (cx, cy, cz):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(
                f"chunk key {(cx, cy, cz)!r} is outside the world (chunk coordinates {low}..{high})"
            )
    return (cx, cy, cz)  # type: ignore[return-value]  # each checked to be an int just above


def encode_mod_rows(snapshot: Mapping[str, Mapping[str, Value]]) -> list[ModRow]:
    """The rows of a `world.voxels.mod_storage.ModStorage.snapshot`."""
    rows: list[ModRow] = []
    for mod, items in snapshot.items():
        for key, value in items.items():
            stored: object
            if isinstance(value, bool):
                kind, stored = "bool", int(value)
            elif isinstance(value, int):
                kind, stored = "int", value
            elif isinstance(value, float):
                kind, stored = "float", _DOUBLE.pack(value)
            elif isinstance(value, str):
                kind, stored = "str", value
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:  # lone surrogates: kept as bytes
                    stored = value.encode("utf-8", "surrogatepass")
            else:
                kind, stored = "bytes", bytes(value)
            rows.append((mod, key, kind, stored))
    return rows


def _decode_value(kind: object, stored: object) -> Value:
    if kind == "str" and isinstance(stored, str):
        return stored
    if kind == "str" and isinstance(stored, bytes):
        try:
            return stored.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise ValueError("a str value is not UTF-8") from None
    if kind == "int" and isinstance(stored, int):
        return stored
    if kind == "float" and isinstance(stored, bytes) and len(stored) == _DOUBLE.size:
        value: float = _DOUBLE.unpack(stored)[0]
        return value
    if kind == "bool" and stored in (0, 1) and isinstance(stored, int):
        return bool(stored)
    if kind == "bytes" and isinstance(stored, bytes):
        return stored
    raise ValueError(f"a value of kind {kind!r} holds {type(stored).__name__} {stored!r:.40}")


def decode_mod_rows(rows: Iterable[tuple[object, ...]]) -> dict[str, dict[str, Value]]:
    """``{mod: {key: value}}`` from the rows of the ``mod_storage`` table.

    Only the row's shape and types are checked here; the keys and values are checked again by
    `world.voxels.mod_storage.ModStorage.restore` (lengths, sizes) when a world is loaded.
    """
    data: dict[str, dict[str, Value]] = {}
    for row in rows:
        mod, key, kind, stored = row
        if not isinstance(mod, str) or not mod or not isinstance(key, str):
            raise ValueError(f"row {mod!r}, {key!r} does not name a mod and a key")
        try:
            data.setdefault(mod, {})[key] = _decode_value(kind, stored)
        except ValueError as exc:
            raise ValueError(f"mod {mod!r} key {key!r}: {exc}") from None
    return data
