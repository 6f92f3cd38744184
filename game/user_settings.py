"""Settings remembered between runs: field of view, mouse sensitivity, view distance, game mode,
sound volumes.

Contract
--------
- The file is ``settings.json`` in the per-user data folder (`world.save.dirs.default_data_dir`,
  which honours ``$BLOCKPICK_DATA_DIR``), a JSON object with the fields of `Settings`.
- `load_settings` never fails: a missing file gives the defaults; a damaged file, a field of
  the wrong type or out of range gives that field's default (logged as a warning, logger
  ``blockpick.settings``); unknown fields are ignored (a newer version's file still loads).
- `remember` changes only the fields it is given (read, update, write), so a value that the
  command line overrode for one run is not written back. Writes go to a temporary file that
  replaces the old one, so a crash mid-write leaves the previous file whole.
- Precedence for a run: what the command line set, then the remembered settings, then the
  defaults (`with_command_line`); for the game mode a saved world's mode comes between the
  command line and the remembered one (new worlds start in the remembered mode). Only a live
  game (a window) reads the file: ``--script`` and ``--screenshot`` runs must give the same
  result on every machine.

Not named ``settings.py``: ursina runs a file of that name beside the main script
(``game/__main__.py``) as its own configuration.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from game.options import DEFAULT_FOV, DEFAULT_VIEW_DISTANCE, Options
from world.save.dirs import default_data_dir
from world.stream.streamer import MAX_VIEW_DISTANCE, MIN_VIEW_DISTANCE

__all__ = [
    "FOV_RANGE",
    "FOV_STEP",
    "SENSITIVITY_RANGE",
    "SENSITIVITY_STEP",
    "SETTINGS_FILE",
    "VIEW_DISTANCE_RANGE",
    "VOLUME_RANGE",
    "VOLUME_STEP",
    "Settings",
    "changed_fields",
    "given_options",
    "load_settings",
    "remember",
    "save_settings",
    "settings_path",
    "with_command_line",
]

SETTINGS_FILE = "settings.json"
FOV_RANGE = (30.0, 110.0)  # vertical degrees, as the --fov option (Minecraft: 30..110)
FOV_STEP = 5.0
SENSITIVITY_RANGE = (10, 400)  # percent of the default mouse speed
SENSITIVITY_STEP = 10
VIEW_DISTANCE_RANGE = (MIN_VIEW_DISTANCE, MAX_VIEW_DISTANCE)  # chunk columns each way
VOLUME_RANGE = (0, 100)  # whole percent of full loudness; 0 is off
VOLUME_STEP = 10
# Options filled in from the settings when the command line leaves them out.
_FILLED = ("fov", "view_distance")

logger = logging.getLogger("blockpick.settings")


@dataclass(frozen=True)
class Settings:
    """What the pause menu sets: each field has its default and its valid range above."""

    fov: float = DEFAULT_FOV
    mouse_sensitivity: int = 100  # percent: 100 turns 80 degrees per screen height of travel
    view_distance: int = DEFAULT_VIEW_DISTANCE
    creative: bool = False
    master_volume: int = 100  # percent, every sound
    block_volume: int = 100  # percent, the blocks' sounds (digging, placing, steps)

    def __post_init__(self) -> None:
        for field in fields(self):
            problem = _problem(field.name, getattr(self, field.name))
            if problem:
                raise ValueError(problem)


def _problem(name: str, value: object) -> str | None:
    """Why ``value`` cannot be the setting ``name``, or None when it can."""
    if name == "creative":
        return None if isinstance(value, bool) else f"creative must be true or false: {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{name} must be a number, got {value!r}"
    if name == "fov":
        low, high = FOV_RANGE
        if not (math.isfinite(value) and low <= value <= high):
            return f"fov must be {low:g}..{high:g} degrees, got {value!r}"
        return None
    bounds = {
        "mouse_sensitivity": SENSITIVITY_RANGE,
        "view_distance": VIEW_DISTANCE_RANGE,
        "master_volume": VOLUME_RANGE,
        "block_volume": VOLUME_RANGE,
    }
    low_i, high_i = bounds[name]
    if not isinstance(value, int) or not low_i <= value <= high_i:
        return f"{name} must be a whole number {low_i}..{high_i}, got {value!r}"
    return None


def settings_path() -> Path:
    """The settings file in the per-user data folder."""
    return default_data_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> Settings:
    """The remembered settings; defaults for a missing file or for any field that is bad."""
    path = settings_path() if path is None else path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        logger.warning("settings file %s cannot be read (%s): using the defaults", path, exc)
        return Settings()
    if not isinstance(data, dict):
        logger.warning("settings file %s holds no JSON object: using the defaults", path)
        return Settings()
    chosen: dict[str, object] = {}
    for field in fields(Settings):
        if field.name not in data:
            continue
        value = data[field.name]
        if field.name == "fov" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        problem = _problem(field.name, value)
        if problem:
            logger.warning("settings file %s: %s; using the default", path, problem)
        else:
            chosen[field.name] = value
    return Settings(**chosen)  # type: ignore[arg-type]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write every setting, replacing the file in one step (parent folders are created)."""
    path = settings_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def changed_fields(old: Settings, new: Settings) -> dict[str, object]:
    """The fields whose values differ, with the new values."""
    return {
        field.name: getattr(new, field.name)
        for field in fields(Settings)
        if getattr(new, field.name) != getattr(old, field.name)
    }


def remember(changes: Mapping[str, object], path: Path | None = None) -> Settings:
    """Store some settings for the next runs, keeping the other remembered ones; returns all."""
    unknown = set(changes) - {field.name for field in fields(Settings)}
    if unknown:
        raise ValueError(f"changes names no setting: {sorted(unknown)}")
    settings = replace(load_settings(path), **changes)  # type: ignore[arg-type]
    save_settings(settings, path)
    return settings


def given_options(options: Options) -> frozenset[str]:
    """The `Options` fields the command line set: typed (`Options.given`), or not None and not
    the field's default."""
    default = Options()
    return options.given | frozenset(
        field.name
        for field in fields(Options)
        if field.name != "given"
        and getattr(options, field.name) is not None
        and getattr(options, field.name) != getattr(default, field.name)
    )


def with_command_line(settings: Settings, options: Options) -> tuple[Settings, Options]:
    """The settings and options of one run: what the command line set wins over settings.

    Returns the settings the pause menu starts from (holding the command line's field of view,
    view distance and mode where it set them) and the options with the remembered field of view
    and view distance filled in where it did not. ``options.creative`` stays None when the
    command line did not set it: a saved world's mode comes before the remembered one.
    """
    given = given_options(options)
    chosen: dict[str, object] = {}
    if "fov" in given:
        chosen["fov"] = min(max(float(options.fov), FOV_RANGE[0]), FOV_RANGE[1])
    if "view_distance" in given:
        low, high = VIEW_DISTANCE_RANGE
        chosen["view_distance"] = min(max(int(options.view_distance), low), high)
    if options.creative is not None:
        chosen["creative"] = bool(options.creative)
    run_settings = replace(settings, **chosen)  # type: ignore[arg-type]
    filled = {name: getattr(run_settings, name) for name in _FILLED if name not in given}
    return run_settings, replace(options, **filled)
