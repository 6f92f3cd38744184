"""A save's own block id space: the file's name table, and its maps to and from a registry.

Contract
--------
- Chunk rows hold *file ids*: indices into the file's ``block_names`` table of *state keys*
  (`world.blocks.registry.BlockRegistry.state_key`: ``"base:stone"``, ``"base:oak_slab[half=top]"``;
  a save written before block states holds bare names, which are the keys of stateless blocks
  and the default state of a block that has since gained properties), which only ever
  grows (a save appends the names it writes that the file lacks), so rows written years apart
  stay valid whatever the game's registration order is now.
- `NameTable.sync` re-reads the table when another connection changed the file
  (``PRAGMA data_version``), so a stale copy never mislabels a healthy row as corrupt; a table
  that is no longer an extension of the copy (rewritten by another program) is an error.
- `NameTable.bind` maps file ids to a registry's ids (a property or value the block no longer
  has loads at its default, with a warning), registering a placeholder block for each
  saved block the registry lacks: ``"unknown:<mod>_<name>"``, solid, pointable, the missing
  texture, whose `world.blocks.registry.BlockType.saved_name` keeps the saved name. The placeholder
  lives in the registry itself, so a second load or a save after another world was bound finds it
  there; no table on the side. `NameTable.to_file` maps back, a placeholder to its saved name.

The store (`world.save.storage.WorldStore`) holds one table per file and calls these under its lock.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from world.blocks.block_type import MAX_BLOCKS, BlockType
from world.blocks.registry import BlockRegistry
from world.save.format import PLACEHOLDER_GROUP, SaveError, placeholder_name, read_names

__all__ = ["NameTable", "register_placeholder"]

_log = logging.getLogger("world.save.storage")


class NameTable:
    """The file's name→id table as last read or written, and the file->runtime map.

    Parameters
    ----------
    path : Path
        The world file (for messages).

    Attributes
    ----------
    names : list of str
        Saved names in file-id order.
    unknown_blocks : list of str
        Saved names the last bound registry lacked (each loaded as a placeholder).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.names: list[str] = []
        self.unknown_blocks: list[str] = []
        self._ids: dict[str, int] = {}
        self._data_version: object = None
        self._registry: BlockRegistry | None = None
        self._to_runtime = np.zeros(0, dtype=np.uint16)

    def sync(self, conn: sqlite3.Connection) -> None:
        """Re-read the table if another connection changed the file since it was last read.

        Raises
        ------
        SaveError
            The table is damaged, or no longer extends the names known so far.
        """
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version == self._data_version:
            return
        names = read_names(self.path, conn)
        if names[: len(self.names)] != self.names:
            raise SaveError(self.path, "its block name table was rewritten by another program")
        self.names.extend(names[len(self.names) :])
        self._ids = {name: i for i, name in enumerate(self.names)}
        self._data_version = version

    def added(self, new_names: list[str]) -> None:
        """Record names a committed save appended (they got the next file ids)."""
        first = len(self.names)
        self.names.extend(new_names)
        self._ids.update((name, first + i) for i, name in enumerate(new_names))

    def bind(self, registry: BlockRegistry) -> NDArray[np.uint16]:
        """File id -> runtime id of `registry` for every saved name, registering placeholders."""
        if registry is not self._registry:
            self._registry = registry
            self._to_runtime = np.zeros(0, dtype=np.uint16)
            self.unknown_blocks = []
        known = len(self._to_runtime)
        if known == len(self.names):
            return self._to_runtime
        placeholders = {
            key: i for i, key in enumerate(registry.state_keys) if registry[i].saved_name
        }
        missing: list[str] = []
        changed: list[str] = []
        extra = np.empty(len(self.names) - known, dtype=np.uint16)
        for i, name in enumerate(self.names[known:]):
            if name in placeholders:
                extra[i] = placeholders[name]
                missing.append(name)
                continue
            block_id, dropped = registry.lookup_key(name)
            if block_id is None:
                extra[i] = placeholders[name] = register_placeholder(registry, name)
                missing.append(name)
            else:
                extra[i] = block_id
                if dropped:
                    changed.append(f"{name} ({', '.join(dropped)})")
        if changed:
            _log.warning(
                "%s: %d saved block state(s) name properties or values their block no longer "
                "has; those properties load at their defaults: %s",
                self.path,
                len(changed),
                ", ".join(changed),
            )
        self._to_runtime = np.concatenate([self._to_runtime, extra])
        if missing:
            self.unknown_blocks.extend(missing)
            _log.warning(
                "%s: %d saved block type(s) are not registered, loaded as placeholder blocks "
                "and kept under their names when saved: %s",
                self.path,
                len(missing),
                ", ".join(missing),
            )
        return self._to_runtime

    def to_file(
        self, registry: BlockRegistry, arrays: list[NDArray[np.uint16]]
    ) -> tuple[NDArray[np.uint16], list[str]]:
        """Runtime id -> file id, and the names the file must add for the blocks being written.

        Only names that occur in `arrays` are added, so the file's table (which never shrinks)
        holds no name the world never used.
        """
        saved_as = registry.state_keys
        file_ids = [self._ids.get(name) for name in saved_as]
        used = np.zeros(len(saved_as), dtype=bool)
        if None in file_ids:
            for blocks in arrays:
                used[blocks] = True
        new_names: list[str] = []
        to_file = np.zeros(len(saved_as), dtype=np.uint16)
        for rid, file_id in enumerate(file_ids):
            if file_id is None:
                if not used[rid]:
                    continue  # not in any row written: it needs no file id
                file_id = len(self.names) + len(new_names)
                new_names.append(saved_as[rid])
            to_file[rid] = file_id
        if len(self.names) + len(new_names) > MAX_BLOCKS:
            raise SaveError(self.path, f"more than {MAX_BLOCKS} block names: ids are uint16")
        return to_file, new_names


def register_placeholder(registry: BlockRegistry, original: str) -> int:
    """Register the placeholder of a saved block name the registry lacks; its runtime id."""
    base = placeholder_name(original)
    candidate, n = base, 1
    while candidate in registry:
        n += 1
        candidate = f"{base}_{n}"
    return registry.register(
        BlockType(
            candidate,
            description=f"unknown block {original}",
            solid=True,
            pointable=True,
            groups=(PLACEHOLDER_GROUP,),
            saved_name=original,
        )
    )
