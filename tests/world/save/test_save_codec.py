"""Tests for world.save.codec: chunk blobs and mod-storage rows round-trip, and junk is refused."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from world.save.codec import (
    CHUNK_FORMAT_ZLIB,
    decode_blob,
    decode_mod_rows,
    encode_blob,
    encode_mod_rows,
)
from world.voxels.layout import CHUNK_VOLUME


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
