"""One mod's call and its failure: the two values every layer that runs mods passes around.

`Implementation` is one mod's function for one hook (or a block's callback, an ABM, a command)
with the arguments it asks for; `ModError` is what a failed call comes to, named after the mod
and where it failed. They sit below everything that calls mods (`world.mods.guard`,
`world.actions.transaction`, `world.mods.host`), so that none of those needs another to name them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Implementation", "ModError"]


@dataclass(frozen=True)
class ModError:
    """A mod's failure: which mod, where (``"import"``, ``"load"`` or a hook name), and what."""

    mod: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"mod {self.mod!r} failed in {self.where}: {self.message}"


@dataclass(frozen=True)
class Implementation:
    """One mod's implementation of one hook; ``argnames`` are the arguments it asks for."""

    mod: str
    hook: str
    function: Callable[..., object]
    argnames: tuple[str, ...]
