"""Entry point: ``python -m game`` and the ``blockpick`` console script."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Start the game (not built yet: the first-person game is issue 6)."""
    print("Blockpick: the first-person game is not built yet; the world core is.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
