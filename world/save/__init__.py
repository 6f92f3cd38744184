"""Saves: one SQLite file per world that never loses a block, and the folders saves live in.

The contract: `save.storage.WorldStore` (open, load lazily, save what changed in one transaction,
one writer per world), with the open file (`save.file`), the file's format and its checks
(`save.format`), its metadata values (`save.meta`), row bytes (`save.codec`), the block id space
(`save.names`), the one-writer lock (`save.lock`), one save's copy (`save.job`), a loaded world's
chunk source (`save.saved_chunks`) and the data folder's worlds (`save.dirs`).
``docs/save-format.md`` documents the format for people. Imports the layers below it.
"""

from __future__ import annotations

from world.save.format import SaveError
from world.save.storage import WorldStore

__all__ = ["SaveError", "WorldStore"]
