"""Vertex layouts: the byte strides the numpy mirrors of chunk and line vertices rely on."""

from __future__ import annotations

from game.geometry import interleaved_format


def test_strides_match_the_numpy_rows():
    assert interleaved_format(uv=True).getArray(0).getStride() == 12 + 4 + 8
    assert interleaved_format(uv=False).getArray(0).getStride() == 12 + 4
    assert interleaved_format(uv=True).getNumArrays() == 1
