"""Suite-wide: the tests marked ``slow`` run first, so that under ``pytest -n 2`` (``make test``)
the longest ones start at once on a worker while the other works through the rest, instead of
starting last and keeping one core busy alone at the end."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the ``slow`` tests to the front, keeping the order within both groups."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
