"""Command-line options of ``python -m game`` / ``blockpick``, parsed into a frozen `Options`.

World options (the rules are `game.session`'s, described in docs/controls.md):
``--world NAME|PATH`` picks a save (a path gets ``.sqlite``; its folder must exist unless
``--new``), ``--new`` makes a new one, ``--seed`` and ``--flat`` shape a
new world only, ``--read-only`` plays a save without writing it. ``--creative`` / ``--survival``
override the mode the world was saved in. ``--seed`` takes any text, as Minecraft's seed field
does: an integer as given, a word hashed to one (`world.save.dirs.parse_seed`). Every option is
checked here, or before the engine starts (`game.runner`), and a bad one ends the run with a
message naming it and exit status 2 (argparse's usage error); ``--mods`` must name folders.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from world.save.dirs import parse_seed
from world.stream.streamer import MAX_VIEW_DISTANCE, MIN_VIEW_DISTANCE

__all__ = ["DEFAULT_SEED", "DEFAULT_VIEW_DISTANCE", "Options", "parse_args"]

# The seed of a run that saves nothing (``--screenshot`` / ``--script`` with no ``--world``): the
# same hills every run, so pictures and replays are reproducible. Saved new worlds get a random
# seed unless ``--seed`` says otherwise.
DEFAULT_SEED = 20240
DEFAULT_FOV = 70.0  # vertical degrees, Minecraft's default
DEFAULT_VIEW_DISTANCE = 8  # chunk columns around the player: Minecraft's default render distance
DEFAULT_SIZE = (800, 600)
DEFAULT_DAY_MINUTES = 20.0  # Minecraft's day


@dataclass(frozen=True)
class Options:
    """Everything the command line decides (``None``: not given, the world or a default decides)."""

    seed: int | None = None
    flat: bool = False
    creative: bool | None = None
    fov: float = DEFAULT_FOV
    mods: tuple[Path, ...] = ()
    screenshot: Path | None = None
    script: Path | None = None
    view_distance: int = DEFAULT_VIEW_DISTANCE
    size: tuple[int, int] = DEFAULT_SIZE
    world: str | None = None
    new: bool = False
    read_only: bool = False
    day_minutes: float = DEFAULT_DAY_MINUTES  # minutes of play from one sunrise to the next
    # Options typed on the command line even when equal to their default (``--fov 70`` must win
    # over a remembered field of view for that run).
    given: frozenset[str] = frozenset()

    @property
    def headless(self) -> bool:
        """Rendered offscreen with no window: a screenshot or a script run."""
        return self.screenshot is not None or self.script is not None

    @property
    def saves(self) -> bool:
        """Whether the run plays a saved world (a window always does; offscreen runs on request)."""
        return not self.headless or self.world is not None or self.new


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


def _day_minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"day length must be minutes, got {text!r}") from None
    if not 0.1 <= value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"day length must be 0.1..1440 minutes, got {text!r}")
    return value


def _view_distance(text: str) -> int:
    """Parse a view distance in chunks."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"view distance must be whole: {text!r}") from None
    if not MIN_VIEW_DISTANCE <= value <= MAX_VIEW_DISTANCE:
        raise argparse.ArgumentTypeError(
            f"view distance must be {MIN_VIEW_DISTANCE}..{MAX_VIEW_DISTANCE} chunks, got {text!r}"
        )
    return value


def _seed(text: str) -> int:
    """Parse a seed: an integer, or any text hashed to one."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "seed must not be empty (leave --seed out for a random one)"
        )
    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also what ``--help`` prints)."""
    parser = argparse.ArgumentParser(
        prog="blockpick",
        description="Blockpick: a Minecraft-style voxel game. Walk, look, break and place blocks.",
    )
    worlds = parser.add_argument_group("worlds (saved in the data folder; see docs/controls.md)")
    worlds.add_argument(
        "--world",
        metavar="NAME|PATH",
        help="the world to play: a name in the data folder, or a .sqlite file "
        "(default: the last world played, or a new one)",
    )
    worlds.add_argument("--new", action="store_true", help="create a new world (never overwrites)")
    worlds.add_argument(
        "--seed",
        type=_seed,
        help="seed of a new world: a number or any word (default: random)",
    )
    worlds.add_argument("--flat", action="store_true", help="a new world is flat, not terrain")
    worlds.add_argument(
        "--read-only", action="store_true", help="play a saved world without saving anything"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--creative",
        dest="creative",
        action="store_const",
        const=True,
        help="instant breaking, flying (default: the world's saved mode)",
    )
    mode.add_argument(
        "--survival",
        dest="creative",
        action="store_const",
        const=False,
        help="timed breaking (a new world's default)",
    )
    parser.add_argument(
        "--fov", type=_fov, help=f"vertical field of view (default {DEFAULT_FOV:g})"
    )
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
        metavar="N",
        type=_view_distance,
        help=f"chunk columns shown around the player, {MIN_VIEW_DISTANCE}..{MAX_VIEW_DISTANCE} "
        f"(default {DEFAULT_VIEW_DISTANCE})",
    )
    parser.add_argument(
        "--size", type=_size, default=DEFAULT_SIZE, help="window size, WIDTHxHEIGHT"
    )
    parser.add_argument(
        "--day-length",
        metavar="MINUTES",
        type=_day_minutes,
        default=DEFAULT_DAY_MINUTES,
        help=f"minutes from one sunrise to the next (default {DEFAULT_DAY_MINUTES:g})",
    )
    return parser


def parse_args(argv: Sequence[str] | None = None) -> Options:
    """Parse the command line (``sys.argv[1:]`` when ``argv`` is None)."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.new and ns.read_only:
        parser.error("--new and --read-only do not go together: a new world is written")
    for folder in ns.mods:  # a mod that silently does not load is worse than no start
        if not folder.is_dir():
            problem = "is not a folder" if folder.exists() else "does not exist"
            parser.error(f"--mods {folder}: {problem} (give a folder of mods)")
    if ns.screenshot is not None and ns.screenshot.is_dir():
        parser.error(f"--screenshot {ns.screenshot}: is a folder (give a PNG file name)")
    return Options(
        seed=ns.seed,
        flat=ns.flat,
        creative=ns.creative,
        fov=DEFAULT_FOV if ns.fov is None else ns.fov,
        mods=tuple(ns.mods),
        screenshot=ns.screenshot,
        script=ns.script,
        view_distance=DEFAULT_VIEW_DISTANCE if ns.view_distance is None else ns.view_distance,
        size=ns.size,
        world=ns.world,
        new=ns.new,
        read_only=ns.read_only,
        day_minutes=ns.day_length,
        given=frozenset(name for name in ("fov", "view_distance") if getattr(ns, name) is not None),
    )
