"""The contract's address for saves (``../shared/DESIGN.md``): ``world.storage.WorldStore``.

Outside code opens a world file as ``from world.storage import WorldStore``; the store and its
errors live in `world.save` (`world.save.storage.WorldStore`, `world.save.format.SaveError`,
`world.save.lock.WorldLocked`), whose contract ``docs/save-format.md`` documents. Nothing inside
the project imports this module: it names, at the top of the package, what outside code calls.
"""

from __future__ import annotations

from world.save.format import SaveError
from world.save.lock import WorldLocked
from world.save.meta import PlayerState, WorldInfo
from world.save.storage import WorldStore

__all__ = ["PlayerState", "SaveError", "WorldInfo", "WorldLocked", "WorldStore"]
