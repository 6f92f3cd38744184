"""Tests for world.save.codec: chunk blobs, mod-storage rows and entities rows round-trip, and junk
is refused."""

from __future__ import annotations

import json
import math
import zlib
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world.save.codec import (
    CHUNK_FORMAT_ZLIB,
    ENTITY_FIELDS,
    decode_blob,
    decode_entities,
    decode_mod_rows,
    encode_blob,
    encode_entities,
    encode_mod_rows,
)
from world.validate import WORLD_LIMIT
from world.voxels.entities import chunk_of
from world.voxels.layout import CHUNK_VOLUME
from world.voxels.mod_storage import MAX_KEY, MAX_VALUE


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 65535))
def test_a_chunk_blob_round_trips(seed: int, top: int) -> None:
    ids = np.random.default_rng(seed).integers(0, top + 1, CHUNK_VOLUME).astype(np.uint16)
    np.testing.assert_array_equal(decode_blob(CHUNK_FORMAT_ZLIB, encode_blob(ids)), ids)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (zlib.compress(bytes(CHUNK_VOLUME * 2)) + b"\x00", "1 bytes of junk after"),
        (zlib.compress(bytes(CHUNK_VOLUME * 2)) * 2, "junk after its zlib stream"),
        (zlib.compress(bytes(CHUNK_VOLUME * 2 - 2)), "8190 bytes of block ids"),
        (zlib.compress(bytes(CHUNK_VOLUME * 2))[:-4], "complete zlib stream"),
        (b"", "complete zlib stream"),
        (bytearray(8), "not a blob"),
    ],
)
def test_a_chunk_blob_that_is_not_exactly_one_stream_of_8192_bytes_is_refused(
    data: object, problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        decode_blob(CHUNK_FORMAT_ZLIB, data)


def test_every_mod_storage_value_type_comes_back_as_itself() -> None:
    data = {
        "a": {"s": "text", "u": "x\udc80y", "i": -(2**63), "t": True, "f": False},
        "b": {"n": math.nan, "z": -0.0, "inf": math.inf, "x": 0.1, "b": b"\x00\xff"},
    }
    back = decode_mod_rows(encode_mod_rows(data))
    assert back.keys() == data.keys()
    for mod, items in data.items():
        for key, value in items.items():
            got = back[mod][key]
            assert type(got) is type(value), (mod, key)
            if isinstance(value, float):
                assert math.copysign(1, got) == math.copysign(1, value)  # type: ignore[arg-type]
                assert got == value or (got != got and value != value)
            else:
                assert got == value


@pytest.mark.parametrize(
    "row",
    [
        ("m", "k", "int", 1.5),
        ("m", "k", "bool", 1.0),
        ("m", "k", "str", b"\xff\xfe"),
        ("m", "k", "float", 1.5),
        ("m", "k", "bytes", "text"),
        ("m", "k", "pickle", b"x"),
        (None, "k", "int", 1),
        ("m", 5, "int", 1),
    ],
)
def test_a_mod_storage_row_of_the_wrong_shape_is_a_value_error(row: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        decode_mod_rows([row])


# -- entities rows ---------------------------------------------------------------------------------

entity_values = st.one_of(
    st.text(max_size=20),  # lone surrogates included
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),  # NaN, ±inf and -0.0 included
    st.booleans(),
    st.binary(max_size=20),
)
finite = st.floats(allow_nan=False, allow_infinity=False)
entity_records = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["builtin:item", "mobs:sheep", "gone:old_mod"]),
        "pos": st.tuples(*[st.floats(-(2**24), 2**24 - 1, allow_nan=False)] * 3),
        "velocity": st.tuples(finite, finite, finite),
        "yaw": finite,
        "age": st.floats(0.0, 1e12),
        "data": st.dictionaries(st.text(min_size=1, max_size=MAX_KEY), entity_values, max_size=6),
    }
)


def same_value(a: object, b: object) -> bool:
    """Equal with its type, a NaN equal to a NaN (whatever its sign bit: JSON's text keeps
    none) and -0.0 told from 0.0."""
    if isinstance(a, float) and isinstance(b, float):
        if a != a or b != b:
            return a != a and b != b
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and a == b


@settings(max_examples=80, deadline=None)
@given(
    records=st.lists(entity_records, min_size=1, max_size=5),
    now=st.floats(0.0, 1e12),
)
def test_an_entities_row_round_trips_every_field_and_value_type(
    records: list[dict[str, Any]], now: float
) -> None:
    key = chunk_of(records[0]["pos"])
    records = [r for r in records if chunk_of(r["pos"]) == key]
    saved = [{**r, "pos": list(r["pos"]), "velocity": list(r["velocity"])} for r in records]
    text = encode_entities(saved, now)
    assert text is not None and text.isascii()  # standard JSON text, whatever the data held
    json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} written"))
    back = decode_entities(text, key)
    assert len(back) == len(records)
    for got, record in zip(back, records, strict=True):
        assert list(got) == list(ENTITY_FIELDS)
        for field in ("kind", "pos", "velocity", "yaw"):
            assert got[field] == record[field], field
        assert got["born"] == now - record["age"]  # the world time it appeared
        data = got["data"]
        assert isinstance(data, dict) and data.keys() == record["data"].keys()
        assert all(same_value(data[k], v) for k, v in record["data"].items()), data


def test_a_chunk_without_entities_has_no_row() -> None:
    assert encode_entities([], 5.0) is None


GOOD = {
    "kind": "mobs:sheep",
    "pos": [1.5, 2.0, 3.5],
    "velocity": [0.0, 0.0, 0.0],
    "yaw": 0.0,
    "born": -1.0,  # older than the world's clock: a mod added it old
    "data": {"wool": True},
}


def row(**changes: object) -> str:
    entity = {**GOOD, **changes}
    return json.dumps([{k: v for k, v in entity.items() if v is not ...}])


BAD_ENTITY_ROWS: dict[str, tuple[object, str]] = {
    "not_json": ("[{", "not valid JSON"),
    "nan_token": (row(yaw=math.nan), "not valid JSON"),
    "deep": ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    "not_text": (3, "int, not text"),
    "empty": ("[]", "not a JSON array"),
    "object": (json.dumps(GOOD), "not a JSON array"),
    "not_an_object": ("[1]", "entity 0 is int"),
    "missing": (row(born=...), "entity 0 has the fields"),
    "age_for_born": (row(born=..., age=1.0), "entity 0 has the fields"),
    "extra": (row(id=4), "entity 0 has the fields"),
    "kind": (row(kind="sheep"), "kind must be"),
    "kind_type": (row(kind=5), "kind must be"),
    "pos_short": (row(pos=[1.0, 2.0]), "pos must be 3"),
    "pos_text": (row(pos=[1.0, "2", 3.0]), "pos must be a finite"),
    "pos_bool": (row(pos=[True, 2.0, 3.0]), "pos must be a finite"),
    "pos_inf": (row(pos="INF").replace('"INF"', "[1e999, 0, 0]"), "pos must be a finite"),
    "pos_huge_int": (row(pos=[10**400, 0, 0]), "pos must be a finite"),
    "pos_limit": (row(pos=[float(WORLD_LIMIT), 0.0, 0.0]), "outside the world limit"),
    "pos_chunk": (row(pos=[17.0, 2.0, 3.5]), r"not in the row's chunk \(0, 0, 0\)"),
    "velocity": (row(velocity=[0.0, None, 0.0]), "velocity must be a finite"),
    "yaw": (row(yaw="north"), "yaw must be a finite"),
    "born": (row(born=[1.0]), "born must be a finite"),
    "data_type": (row(data=[1]), "data is list"),
    "data_key": (row(data={"": 1}), "data key"),
    "data_long_key": (row(data={"k" * (MAX_KEY + 1): 1}), "data key"),
    "data_null": (row(data={"k": None}), "NoneType"),
    "data_list": (row(data={"k": [1]}), "list"),
    "data_object": (row(data={"k": {"x": 1}}), "not bytes nor a float"),
    "data_b64": (row(data={"k": {"b64": "!!"}}), "not bytes nor a float"),
    "data_float_tag": (row(data={"k": {"float": "big"}}), "not bytes nor a float"),
    "data_plain_inf": (row(data={"k": "INF"}).replace('"INF"', "1e999"), "plain number"),
    "data_int": (row(data={"k": 2**63}), "64 bits"),
    "data_big": (row(data={"k": "x" * (MAX_VALUE + 1)}), "bytes, over"),
}


@pytest.mark.parametrize("case", sorted(BAD_ENTITY_ROWS))
def test_an_entities_row_that_no_save_writes_is_a_value_error_saying_what(case: str) -> None:
    text, problem = BAD_ENTITY_ROWS[case]
    with pytest.raises(ValueError, match=problem):
        decode_entities(text, (0, 0, 0))
