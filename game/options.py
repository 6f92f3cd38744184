"""Command-line options of ``python -m game`` / ``blockpick``, parsed into a frozen `Options`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_SEED", "Options", "parse_args"]

DEFAULT_SEED = 20240  # the default world: the same hills every run until saves arrive
DEFAULT_FOV = 70.0  # vertical degrees, Minecraft's default
DEFAULT_VIEW_DISTANCE = 4  # chunks each way: 9×9 columns, what software GL draws at 30 FPS
DEFAULT_SIZE = (800, 600)


@dataclass(frozen=True)
class Options:
    """Everything the command line decides."""

    seed: int = DEFAULT_SEED
    flat: bool = False
    creative: bool = False
    fov: float = DEFAULT_FOV
    mods: tuple[Path, ...] = ()
    screenshot: Path | None = None
    script: Path | None = None
    view_distance: int = DEFAULT_VIEW_DISTANCE
    size: tuple[int, int] = DEFAULT_SIZE

    @property
    def headless(self) -> bool:
        """Rendered offscreen with no window: a screenshot or a script run."""
        return self.screenshot is not None or self.script is not None


def _size(text: str) -> tuple[int, int]:
    """Parse ``WIDTHxHEIGHT``."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 800x600, got {text!r}") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"size must be 64..8192 pixels each way, got {text!r}")
    return width, height


def _fov(text: str) -> float:
    """Parse a vertical field of view in degrees."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"fov must be a number of degrees, got {text!r}") from None
    if not 30.0 <= value <= 110.0:
        raise argparse.ArgumentTypeError(f"fov must be 30..110 degrees, got {text!r}")
    return value


def _view_distance(text: str) -> int:
    """Parse a view distance in chunks."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"view distance must be whole: {text!r}") from None
    if not 1 <= value <= 16:
        raise argparse.ArgumentTypeError(f"view distance must be 1..16 chunks, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also what ``--help`` prints)."""
    parser = argparse.ArgumentParser(
        prog="blockpick",
        description="Blockpick: a Minecraft-style voxel game. Walk, look, break and place blocks.",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="world seed")
    parser.add_argument("--flat", action="store_true", help="a flat world instead of terrain")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--creative", dest="creative", action="store_true", help="instant breaking, flying"
    )
    mode.add_argument(
        "--survival", dest="creative", action="store_false", help="timed breaking (default)"
    )
    parser.add_argument("--fov", type=_fov, default=DEFAULT_FOV, help="vertical field of view")
    parser.add_argument(
        "--mods",
        metavar="DIR",
        type=Path,
        action="append",
        default=[],
        help="a folder of mods to load (repeatable); the project's mods/ always loads",
    )
    parser.add_argument(
        "--screenshot",
        metavar="FILE",
        type=Path,
        help="render offscreen, save a PNG and exit (no display needed)",
    )
    parser.add_argument(
        "--script",
        metavar="FILE",
        type=Path,
        help="replay a list of actions offscreen (text or JSON; see docs/controls.md)",
    )
    parser.add_argument(
        "--view-distance",
        type=_view_distance,
        default=DEFAULT_VIEW_DISTANCE,
        help="chunks drawn each way around the player",
    )
    parser.add_argument(
        "--size", type=_size, default=DEFAULT_SIZE, help="window size, WIDTHxHEIGHT"
    )
    return parser


def parse_args(argv: Sequence[str] | None = None) -> Options:
    """Parse the command line (``sys.argv[1:]`` when ``argv`` is None)."""
    ns = build_parser().parse_args(argv)
    return Options(
        seed=ns.seed,
        flat=ns.flat,
        creative=ns.creative,
        fov=ns.fov,
        mods=tuple(ns.mods),
        screenshot=ns.screenshot,
        script=ns.script,
        view_distance=ns.view_distance,
        size=ns.size,
    )
