"""Labels (`world.blocks.labels`): where a block's text is drawn, what is drawn, and bad labels."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from world.blocks.block_type import BlockType
from world.blocks.labels import LABEL_GAP, Label, label_place, label_text
from world.blocks.shapes import FACINGS, Box, rotate

BOARD = Box(0.0, 0.5, 7 / 16, 1.0, 1.0, 9 / 16)


def test_a_label_faces_the_way_its_block_faces_on_the_turned_face() -> None:
    label = Label("text", BOARD)
    expected = {
        "north": ((0.5, 0.75, 7 / 16 - LABEL_GAP), (0, 0, -1)),
        "east": ((9 / 16 + LABEL_GAP, 0.75, 0.5), (1, 0, 0)),
        "south": ((0.5, 0.75, 9 / 16 + LABEL_GAP), (0, 0, 1)),
        "west": ((7 / 16 - LABEL_GAP, 0.75, 0.5), (-1, 0, 0)),
    }
    for facing, (centre, normal) in expected.items():
        place = label_place(label, facing)
        assert place.centre == pytest.approx(centre) and place.normal == normal, facing
        assert (place.width, place.height) == (1.0, 0.5)


boxes = st.tuples(
    *(st.integers(0, 15) for _ in range(3)), *(st.integers(1, 16) for _ in range(3))
).map(
    lambda v: Box(
        v[0] / 16,
        v[1] / 16,
        v[2] / 16,
        max(v[3], v[0] + 1) / 16,
        max(v[4], v[1] + 1) / 16,
        max(v[5], v[2] + 1) / 16,
    )
)


@given(boxes, st.sampled_from(FACINGS))
def test_a_label_lies_on_the_face_of_the_turned_box_that_faces_its_normal(
    box: Box, facing: str
) -> None:
    """Against the shapes' own rotation: the label is on the turned box's side its normal names,
    centred on that side, `LABEL_GAP` out."""
    place = label_place(Label("text", box), facing)
    (turned,) = rotate((box,), facing)
    low, high = (turned.x0, turned.y0, turned.z0), (turned.x1, turned.y1, turned.z1)
    axis = next(i for i, n in enumerate(place.normal) if n)
    face = high[axis] if place.normal[axis] > 0 else low[axis]
    assert place.centre[axis] == pytest.approx(face + place.normal[axis] * LABEL_GAP)
    for other in {0, 1, 2} - {axis}:
        assert place.centre[other] == pytest.approx((low[other] + high[other]) / 2)


def test_the_text_drawn_is_cut_to_the_label_s_lines_and_columns() -> None:
    label = Label("text", BOARD, lines=2, columns=5)
    assert label_text(label, "  Hello there\nsecond\nthird  ") == "Hello\nsecon"
    assert label_text(label, 42) == "42" and label_text(label, 1.5) == "1.5"
    assert label_text(label, b"bytes") == "" and label_text(label, True) == ""
    assert label_text(label, None) == "" and label_text(label, "   ") == ""
    assert label_text(label, "x" * 20_000) == "xxxxx"  # cut before it is split
    assert label_text(label, "\n" * 20_000 + "late") == ""


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"key": "", "box": BOARD}, "key"),
        ({"key": 3, "box": BOARD}, "key"),
        ({"key": "text", "box": (0, 0, 0, 1, 1)}, "box"),
        ({"key": "text", "box": Box(0.0, 0.0, 0.0, 1.0, 2.0, 1.0)}, "box"),
        ({"key": "text", "box": BOARD, "lines": 0}, "lines"),
        ({"key": "text", "box": BOARD, "columns": True}, "columns"),
    ],
)
def test_a_bad_label_is_refused_naming_what_is_wrong(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Label(**kwargs)  # type: ignore[arg-type]


def test_a_block_type_takes_a_label_or_none() -> None:
    assert BlockType("m:sign", label=Label("text", BOARD)).label == Label("text", BOARD)
    assert BlockType("m:stone").label is None
    with pytest.raises(ValueError, match="label of 'm:sign'"):
        BlockType("m:sign", label="text")  # type: ignore[arg-type]


def test_a_facing_that_is_not_horizontal_is_refused() -> None:
    with pytest.raises(ValueError, match="facing"):
        label_place(Label("text", BOARD), "up")
