"""The creative picker's pages (`game.picker`): each mod's items under its heading, nine to a
row, a page no taller than it may be."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.picker import COLUMNS, HEADING, PAGE_HEIGHT, CatalogItem, matching, pages


def items(*counts: tuple[str, int]) -> list[CatalogItem]:
    return [
        CatalogItem(f"{mod}:thing_{i}", i, mod, f"{mod} thing {i}")
        for mod, count in counts
        for i in range(count)
    ]


def test_each_mod_starts_under_its_heading_and_fills_rows_of_nine() -> None:
    (page,) = pages(items(("base", 11), ("gems", 2)))
    assert [line.heading for line in page] == ["Base", "", "", "Gems", ""]
    assert [len(line.items) for line in page] == [0, COLUMNS, 2, 0, 2]
    assert {item.mod for item in page[4].items} == {"gems"}


def test_a_mod_going_on_to_the_next_page_is_named_again_at_its_top() -> None:
    every = pages(items(("base", COLUMNS * 9)))  # nine rows: a heading and six fill a page
    assert PAGE_HEIGHT == HEADING + 6
    assert len(every) == 2
    assert [line.heading for line in every[0]] == ["Base"] + [""] * 6
    assert [line.heading for line in every[1]] == ["Base", "", "", ""]


def test_nothing_found_is_one_empty_page() -> None:
    assert pages([]) == [[]]


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(1, 40)), max_size=8))
def test_pages_keep_every_item_once_in_order_within_their_height(
    groups: list[tuple[str, int]],
) -> None:
    # One group per mod, as the catalog gives them.
    seen: dict[str, int] = {}
    for mod, count in groups:
        seen.setdefault(mod, count)
    given_items = items(*seen.items())
    every = pages(given_items)
    laid = [item for page in every for line in page for item in line.items]
    assert laid == given_items
    for page in every:
        assert sum(line.height for line in page) <= PAGE_HEIGHT
        for before, line in itertools.pairwise(page):
            if line.items and not before.heading:  # a row follows a row of its own mod
                assert before.items[0].mod == line.items[0].mod
        assert all(line.items or line.heading for line in page)
        assert not page or not page[-1].heading  # never a heading with nothing under it


@pytest.mark.parametrize(("query", "found"), [("", 3), ("gems", 1), ("THING 1", 1), ("x", 0)])
def test_the_search_matches_every_word_in_a_name_or_description(query: str, found: int) -> None:
    assert len(matching(items(("base", 2), ("gems", 1)), query)) == found
