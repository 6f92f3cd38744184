"""Run every benchmark: ``python -m bench`` (or ``make bench``)."""

from __future__ import annotations

import importlib
import pkgutil

import bench


def main() -> None:
    """Import each bench module and run its ``main``."""
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if info.name in {"common", "__main__"}:
            continue
        module = importlib.import_module(f"bench.{info.name}")
        run = getattr(module, "main", None)
        if callable(run):
            run()


if __name__ == "__main__":
    main()
