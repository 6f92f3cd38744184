"""Shared helpers for the benchmark scripts: timing and table printing."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def print_table(title: str, rows: Sequence[tuple[str, str, str, str]]) -> None:
    """Print rows of (figure, value, target, verdict) as an aligned table."""
    header = ("figure", "value", "target", "ratio / verdict")
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(4)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
