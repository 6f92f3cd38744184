"""Suite-wide: the tests marked ``slow`` run first, so that under ``pytest -n 2`` (``make test``)
the longest ones start at once on a worker while the other works through the rest, instead of
starting last and keeping one core busy alone at the end; the `ctrl_c` fixture; and, in the
summary, the modules of ``world/`` and ``game/`` past ``tests.test_architecture.MAX_LINES``
lines: a prompt to ask whether one holds two concepts, never a failure (STYLE rule 9)."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from tests.test_architecture import MAX_LINES, PACKAGES, ROOT


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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the long modules (a prompt: see the module notes)."""
    long = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    if long:
        terminalreporter.section(f"modules over {MAX_LINES} lines: one concept each?")
        for line in long:
            terminalreporter.line(line)
