"""Bytes of a save's rows <-> values in memory: chunk blobs, chunk keys, mod-storage rows, and
each chunk's entities.

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
- A chunk's entities row is one JSON array of `world.voxels.entities.Entity.saved` records,
  each an object of exactly ``kind``, ``pos``, ``velocity``, ``yaw``, ``born`` and ``data``:
  ``born`` is the world time the entity appeared (the save's clock less its ``age``), as a block
  timer keeps the time it started, so a row that later saves do not rewrite (its chunk
  unchanged) still gives its entities their right age against the world time then saved. JSON
  keeps a data value's type (a string, an integer, a number with a point or an exponent,
  ``true``/``false``); bytes are ``{"b64": "<base64>"}`` and a float that is not finite
  ``{"float": "nan"}`` (``"inf"``, ``"-inf"``), so the text is standard JSON. Decoding checks
  every field as `world.voxels.entities.Entities.add` checks its arguments, and that each entity
  stands in the row's chunk.
"""

from __future__ import annotations

import base64
import json
import math
import reprlib
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from world.validate import WORLD_LIMIT
from world.voxels.entities import chunk_of
from world.voxels.layout import CHUNK_SHIFT, CHUNK_VOLUME, ChunkKey
from world.voxels.mod_storage import MAX_KEY, Value, check_value

__all__ = [
    "CHUNK_FORMAT_ZLIB",
    "CHUNK_KEY_RANGE",
    "ENTITY_FIELDS",
    "RAW_CHUNK_BYTES",
    "ZLIB_LEVEL",
    "ModRow",
    "chunk_key",
    "decode_blob",
    "decode_entities",
    "decode_mod_rows",
    "encode_blob",
    "encode_entities",
    "encode_mod_rows",
    "turn_entities",
    "turned_half",
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
# The fields of one saved entity (`world.voxels.entities.Entity.saved`), every one always written.
ENTITY_FIELDS: Final = ("kind", "pos", "velocity", "yaw", "born", "data")
_NOT_FINITE: Final = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


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


# -- entities ------------------------------------------------------------------------------------


def _json_value(value: object) -> object:
    """One entity data value as the row holds it (module notes)."""
    if isinstance(value, bytes):
        return {"b64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"}
    return value


def encode_entities(records: Sequence[Mapping[str, object]], now: float) -> str | None:
    """A chunk's entities row from its `world.voxels.entities.Entity.saved` records taken at
    world time ``now``; None when there are none (a save then deletes the chunk's row)."""
    if not records:
        return None
    rows = []
    for record in records:
        data, age = record["data"], record["age"]
        assert isinstance(data, Mapping) and isinstance(age, float)  # Entity.saved's
        rows.append(
            {
                "kind": record["kind"],
                "pos": record["pos"],
                "velocity": record["velocity"],
                "yaw": record["yaw"],
                "born": now - age,
                "data": {key: _json_value(v) for key, v in data.items()},
            }
        )
    return json.dumps(rows, allow_nan=False, separators=(",", ":"))


def turned_half(yaw: object) -> float:
    """A yaw turned half a turn, in 0..360: a compass bearing (a file's from before
    `world.save.format.ENTITY_YAW`) to Minecraft's yaw, and back (the same turn)."""
    assert isinstance(yaw, int | float) and not isinstance(yaw, bool)  # a checked record's
    return (float(yaw) + 180.0) % 360.0


def turn_entities(text: str) -> str:
    """An entities row with every yaw turned half a turn (`turned_half`)."""
    rows = json.loads(text, parse_constant=_refuse_constant)
    for row in rows:
        row["yaw"] = turned_half(row["yaw"])
    return json.dumps(rows, allow_nan=False, separators=(",", ":"))


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not standard JSON")  # NaN, Infinity: never written


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a finite number, got {reprlib.repr(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer beyond a float's range
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{what} must be a finite number, got {reprlib.repr(value)}")
    return number


def _vector(value: object, what: str) -> tuple[float, float, float]:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError(f"{what} must be 3 numbers, got {reprlib.repr(value)}")
    x, y, z = (_number(v, what) for v in value)
    return x, y, z


def _data_value(value: object, what: str) -> Value:
    if isinstance(value, dict):
        if set(value) == {"b64"} and isinstance(value["b64"], str):
            try:
                return base64.b64decode(value["b64"], validate=True)
            except ValueError:
                pass
        elif set(value) == {"float"} and value["float"] in _NOT_FINITE:
            return _NOT_FINITE[value["float"]]
        raise ValueError(f"{what} is {reprlib.repr(value)}, not bytes nor a float")
    if isinstance(value, float) and not math.isfinite(value):  # "1e999": a save writes a tag
        raise ValueError(f"{what} is {value!r} written as a plain number")
    if not isinstance(value, str | int | float):  # bool is an int: kept as it is
        raise ValueError(f"{what} is {type(value).__name__}, not str, int, float, bool or bytes")
    return value


def _entity(row: object, key: ChunkKey, n: int) -> dict[str, object]:
    if not isinstance(row, dict):
        raise ValueError(f"entity {n} is {type(row).__name__}, not a JSON object")
    if set(row) != set(ENTITY_FIELDS):
        raise ValueError(f"entity {n} has the fields {sorted(row)}, not {list(ENTITY_FIELDS)}")
    kind = row["kind"]
    if not isinstance(kind, str) or kind.count(":") != 1:
        raise ValueError(
            f"entity {n} kind must be an entity's 'mod:name', got {reprlib.repr(kind)}"
        )
    pos = _vector(row["pos"], f"entity {n} pos")
    if any(abs(v) >= WORLD_LIMIT for v in pos):
        raise ValueError(f"entity {n} pos {pos} is outside the world limit ±{WORLD_LIMIT}")
    if chunk_of(pos) != key:
        raise ValueError(f"entity {n} pos {pos} is not in the row's chunk {key}")
    data = row["data"]
    if not isinstance(data, dict):
        raise ValueError(f"entity {n} data is {type(data).__name__}, not a JSON object")
    values: dict[str, Value] = {}
    for name, raw in data.items():
        if not 0 < len(name) <= MAX_KEY:
            raise ValueError(f"entity {n} data key {reprlib.repr(name)} is not 1 to {MAX_KEY} long")
        try:
            values[name] = check_value(name, _data_value(raw, f"entity {n} data {name!r}"))
        except ValueError as exc:
            raise ValueError(f"entity {n}: {exc}") from None
    return {
        "kind": kind,
        "pos": pos,
        "velocity": _vector(row["velocity"], f"entity {n} velocity"),
        "yaw": _number(row["yaw"], f"entity {n} yaw"),
        "born": _number(row["born"], f"entity {n} born"),
        "data": values,
    }


def decode_entities(text: object, key: ChunkKey) -> list[dict[str, object]]:
    """The entities of chunk ``key``'s row, each checked (module notes): the `Entity.saved` form
    with ``born`` for ``age`` (whose age depends on the world time it is put in at);
    ``ValueError`` saying what is wrong."""
    if not isinstance(text, str | bytes):
        raise ValueError(f"is {type(text).__name__}, not text")
    try:
        rows = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # nested past the parser's depth
        raise ValueError("is not valid JSON") from None
    if not isinstance(rows, list) or not rows:  # a chunk with none has no row
        raise ValueError("is not a JSON array of entities")
    return [_entity(row, key, n) for n, row in enumerate(rows)]
