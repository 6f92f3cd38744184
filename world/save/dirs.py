"""Where worlds live: the per-user data folder, world names and paths, the world list.

Contract
--------
- `default_data_dir` is the per-user data folder, chosen with the stdlib the way platformdirs'
  ``user_data_dir("blockpick", roaming=True)`` would (``world/`` takes no dependency beyond
  numpy): ``$BLOCKPICK_DATA_DIR`` when set (portable installs, tests); on Linux and the BSDs
  ``$XDG_DATA_HOME/blockpick`` or ``~/.local/share/blockpick``; on macOS
  ``~/Library/Application Support/blockpick``; on Windows ``%APPDATA%\\blockpick`` (roaming,
  like Minecraft's ``.minecraft``).
- Worlds are files ``<data>/worlds/<name>.sqlite``; `resolve_world` turns the command line's
  ``--world NAME`` or ``--world PATH`` into a file path, `list_worlds` lists the folder (most
  recently played first, unreadable saves listed with their problem rather than hidden),
  `create_world` makes a new world (``--new --seed N``) and never writes over an existing one,
  and `open_world` is the whole start-up rule the game follows.
- Listing opens every save read-only and never changes a file.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from world.save.format import SaveError
from world.save.meta import SEED_RANGE, WorldInfo, random_seed
from world.save.storage import WorldStore
from world.voxels.layout import DEFAULT_BUILD_HEIGHT

__all__ = [
    "APP_NAME",
    "DATA_DIR_ENV",
    "DEFAULT_GENERATOR",
    "WORLD_SUFFIX",
    "WorldEntry",
    "create_world",
    "default_data_dir",
    "list_worlds",
    "open_world",
    "parse_seed",
    "resolve_world",
    "unique_world_name",
    "world_path",
    "worlds_dir",
]

APP_NAME: Final = "blockpick"
DATA_DIR_ENV: Final = "BLOCKPICK_DATA_DIR"
WORLD_SUFFIX: Final = ".sqlite"
# The name `world.gen.generators.make_generator` knows for the standard hills-and-trees terrain.
DEFAULT_GENERATOR: Final = "terrain"
DEFAULT_WORLD_NAME: Final = "New World"
# Letters, digits, space, '_', '-', '.'; not starting with a dot or space, not ending with a dot
# or space (Windows drops those), at most 64 characters: safe as a file name everywhere.
WORLD_NAME: Final = re.compile(r"^[A-Za-z0-9_-](?:[A-Za-z0-9 _.-]{0,62}[A-Za-z0-9_-])?$")
_WINDOWS_DEVICES: Final = frozenset(
    {"CON", "PRN", "AUX", "NUL"}
    | {f"COM{i}" for i in range(1, 10)}
    | {f"LPT{i}" for i in range(1, 10)}
)


def default_data_dir() -> Path:
    """The per-user folder Blockpick keeps its worlds (and settings, screenshots) in."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        # The XDG spec says relative paths are invalid and must be ignored.
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / APP_NAME


def worlds_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder of world files inside the data folder."""
    return (default_data_dir() if data_dir is None else Path(data_dir)) / "worlds"


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not WORLD_NAME.match(name):
        raise ValueError(
            f"world name {name!r}: use 1-64 letters, digits, spaces, '_', '-' or '.', "
            "not starting or ending with a dot or space"
        )
    if name.split(".")[0].upper() in _WINDOWS_DEVICES:
        raise ValueError(f"world name {name!r} is a reserved device name on Windows")
    return name


def world_path(name: str, data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The file of the world called `name` in the data folder; ``ValueError`` for a bad name."""
    return worlds_dir(data_dir) / f"{_check_name(name)}{WORLD_SUFFIX}"


def resolve_world(
    name_or_path: str | os.PathLike[str], data_dir: str | os.PathLike[str] | None = None
) -> Path:
    """The file meant by ``--world NAME`` or ``--world PATH``.

    A path-like object, or a string holding a path separator, starting with ``~`` or ending in
    ``.sqlite``, is a path (``~`` expanded); any other string is a world name in the data folder.
    """
    if not isinstance(name_or_path, str):
        return Path(name_or_path).expanduser()
    text = name_or_path
    separators = {os.sep, "/"} | ({os.altsep} if os.altsep else set())
    if any(s in text for s in separators) or text.startswith("~") or text.endswith(WORLD_SUFFIX):
        return Path(text).expanduser()
    return world_path(text, data_dir)


@dataclass(frozen=True)
class WorldEntry:
    """One world in the list.

    Attributes
    ----------
    name : str
        The saved world name, or the file name when the save cannot be read.
    path : Path
    info : WorldInfo or None
        ``None`` when the save cannot be read.
    error : str or None
        Why the save cannot be opened (a newer version, damaged, ...).
    size : int
        File size in bytes.
    """

    name: str
    path: Path
    info: WorldInfo | None
    error: str | None
    size: int


def list_worlds(data_dir: str | os.PathLike[str] | None = None) -> list[WorldEntry]:
    """Every world file in the data folder, most recently played first, broken ones last."""
    folder = worlds_dir(data_dir)
    if not folder.is_dir():
        return []
    entries: list[WorldEntry] = []
    for path in sorted(folder.glob(f"*{WORLD_SUFFIX}")):
        if path.name.startswith(".") or not path.is_file():
            continue
        size = path.stat().st_size
        try:
            with WorldStore(path, read_only=True) as store:
                entries.append(WorldEntry(store.info.name, path, store.info, None, size))
        except SaveError as exc:
            entries.append(WorldEntry(path.stem, path, None, exc.problem, size))
    entries.sort(key=lambda e: (e.info is None, -(e.info.last_played if e.info else 0.0)))
    return entries


def unique_world_name(
    base: str = DEFAULT_WORLD_NAME, data_dir: str | os.PathLike[str] | None = None
) -> str:
    """`base`, or ``"base 2"``, ``"base 3"``... : the first name with no world file yet."""
    _check_name(base)
    candidate, n = base, 1
    while world_path(candidate, data_dir).exists():
        n += 1
        candidate = f"{base} {n}"
    return candidate


def parse_seed(text: str) -> int:
    """The seed typed after ``--seed``: an integer as given, any other text hashed (stable).

    Like Minecraft, a word is a valid seed; it maps to a signed 64-bit integer through SHA-256,
    so the same text gives the same world on every machine. Empty text gives a random seed.
    """
    text = text.strip()
    if not text:
        return random_seed()
    try:
        seed = int(text)
    except ValueError:
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big", signed=True)
    if not SEED_RANGE[0] <= seed < SEED_RANGE[1]:
        raise ValueError(f"seed {seed} does not fit in a signed 64-bit integer")
    return seed


def create_world(
    name_or_path: str | os.PathLike[str] | None = None,
    *,
    seed: int | None = None,
    generator: str | None = DEFAULT_GENERATOR,
    game_mode: str = "survival",
    build_height: tuple[int, int] = DEFAULT_BUILD_HEIGHT,
    data_dir: str | os.PathLike[str] | None = None,
) -> WorldStore:
    """Create a new world (``--new [--world NAME|PATH] [--seed N]``) and return its open store.

    Parameters
    ----------
    name_or_path : str or path-like, optional
        As for `resolve_world`; a fresh ``"New World"``, ``"New World 2"``... when omitted.
    seed : int, optional
        Random when omitted (see `parse_seed` for text seeds).
    generator : str or None
        Generator name for ``world.gen.generators.make_generator``.

    Raises
    ------
    SaveError
        A world file already exists there (it is left untouched) or cannot be created.
    """
    if name_or_path is None:
        name = unique_world_name(data_dir=data_dir)
        path = world_path(name, data_dir)
    else:
        path = resolve_world(name_or_path, data_dir)
        name = path.stem
    return WorldStore.create(
        path,
        seed=seed,
        generator=generator,
        name=name,
        game_mode=game_mode,
        build_height=build_height,
    )


def open_world(
    name_or_path: str | os.PathLike[str] | None = None,
    *,
    new: bool = False,
    seed: int | None = None,
    generator: str | None = DEFAULT_GENERATOR,
    game_mode: str = "survival",
    read_only: bool = False,
    data_dir: str | os.PathLike[str] | None = None,
) -> WorldStore:
    """The store the game starts on, from ``[--world NAME|PATH] [--new] [--seed N]``.

    - ``new``: a new world (`create_world`); `SaveError` if that world exists.
    - a name or path that exists: that world (`seed` must then be omitted: it is the world's).
    - a name or path that does not exist: a new world there, as with ``new``.
    - nothing: the most recently played world that opens, else a new ``"New World"``.

    Raises
    ------
    SaveError
        The world cannot be opened (damaged, newer version...); it is left untouched.
    ValueError
        `seed` given for an existing world, `read_only` for a new one, or a bad world name.
    """
    if name_or_path is None and not new:
        playable = [e for e in list_worlds(data_dir) if e.info is not None]
        if playable:
            if seed is not None:
                raise ValueError("seed applies to a new world: give new=True")
            return WorldStore(playable[0].path, read_only=read_only)
    if name_or_path is not None and not new:
        path = resolve_world(name_or_path, data_dir)
        if path.exists():
            if seed is not None:
                raise ValueError(f"seed applies to a new world, and {path} exists")
            return WorldStore(path, read_only=read_only)
        if read_only:
            raise SaveError(path, "no such world file")
    if read_only:
        raise ValueError("a new world cannot be opened read-only")
    return create_world(
        name_or_path, seed=seed, generator=generator, game_mode=game_mode, data_dir=data_dir
    )
