"""Suite-wide: the tests marked ``slow`` run first, so that under ``pytest -n 2`` (``make test``)
the longest ones start at once on a worker while the other works through the rest, instead of
starting last and keeping one core busy alone at the end; and the `ctrl_c` fixture."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the ``slow`` tests to the front, keeping the order within both groups."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C handler during the test, whatever the process inherited: a shell
    starting a command in the background (``make test &``) makes it ignore SIGINT, and Python
    then installs no handler of its own."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
