"""Entry point: ``python -m game`` and the ``blockpick`` console script."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the game; returns the exit status."""
    from game.options import parse_args

    options = parse_args(argv)
    # The engine is imported only after the options parsed: --help needs no window.
    from game.runner import run

    return run(options)


if __name__ == "__main__":
    raise SystemExit(main())
