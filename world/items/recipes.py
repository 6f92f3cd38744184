"""Crafting recipes (Minecraft's crafting grid, Luanti's ``register_craft``): what they are.

A `Recipe` turns what lies in a 3×3 grid into an output stack. A *shaped* recipe gives rows of
keys (``("PP", "PP")``, a space for an empty cell) and what each key stands for; it matches
wherever its shape lies in the grid, and mirrored left to right, as Minecraft's do, with every
other cell empty. A *shapeless* recipe gives a list of ingredients; the grid must hold exactly
those, one item a cell, anywhere. An ingredient is an item name (``"base:planks"``) or a group
(``"group:wood"``: any block of that group, as in Luanti). A recipe is checked when it is made;
matching a grid against the registered recipes is `world.items.crafting`'s.

Mods register recipes in ``register_blocks`` with ``registry.register_craft(Recipe(...))``
(`world.mods.registration.BlockRegistrar`); the registry keeps them in registration order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from world.items.inventory import CRAFTING_SLOTS
from world.tiles import NAME_PATTERN

__all__ = ["GRID", "GRID_CELLS", "Recipe", "trim_borders"]

GRID: Final = 3  # the grid's side
GRID_CELLS: Final = CRAFTING_SLOTS  # GRID * GRID, as the inventory keeps them

_Row = TypeVar("_Row", str, list[str | None])


@dataclass(frozen=True)
class Recipe:
    """What a grid makes (module notes).

    Parameters
    ----------
    output : str
        The item made.
    count : int
        How many a craft makes, 1..64.
    pattern : tuple of str
        A shaped recipe's rows, at most 3 of at most 3 keys (a space: an empty cell); its empty
        border rows and columns are dropped.
    key : mapping of str to str
        What each key of the pattern stands for: an item name or ``"group:<name>"``.
    items : tuple of str
        A shapeless recipe's ingredients, 1..9 (give this or a pattern, not both).
    mod : str
        The mod that registered it (set at registration).
    """

    output: str
    count: int = 1
    pattern: tuple[str, ...] = ()
    key: Mapping[str, str] = field(default_factory=dict)
    items: tuple[str, ...] = ()
    mod: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.output, str) or not NAME_PATTERN.match(self.output):
            raise ValueError(
                f"output of a recipe must be an item name 'mod:name', got {self.output!r}"
            )
        if isinstance(self.count, bool) or not isinstance(self.count, int):
            raise ValueError(f"count of a recipe for {self.output!r} must be an integer")
        if not 1 <= self.count <= 64:
            raise ValueError(f"count of a recipe for {self.output!r} must be 1..64")
        if bool(self.pattern) == bool(self.items):
            raise ValueError(
                f"a recipe for {self.output!r} gives a pattern (shaped) or items (shapeless)"
            )
        if self.items:
            if not isinstance(self.items, tuple) or not 1 <= len(self.items) <= GRID_CELLS:
                raise ValueError(
                    f"items of a recipe for {self.output!r} must be a tuple of 1..9 names"
                )
            for name in self.items:
                _check_ingredient(self.output, name)
            return
        object.__setattr__(self, "key", dict(self.key))
        object.__setattr__(self, "pattern", _trimmed(self.output, self.pattern, self.key))

    @property
    def shaped(self) -> bool:
        return bool(self.pattern)


def _check_ingredient(output: str, name: object) -> None:
    group = isinstance(name, str) and name.startswith("group:") and len(name) > len("group:")
    if not group and not (isinstance(name, str) and NAME_PATTERN.match(name)):
        raise ValueError(
            f"an ingredient of the recipe for {output!r} must be an item name or "
            f"'group:<name>', got {name!r}"
        )


def _trimmed(output: str, pattern: object, key: Mapping[str, str]) -> tuple[str, ...]:
    """The pattern checked, without its empty border rows and columns."""
    rows = pattern if isinstance(pattern, tuple) else None
    if rows is None or not 1 <= len(rows) <= GRID or not all(isinstance(r, str) for r in rows):
        raise ValueError(f"pattern of a recipe for {output!r} must be a tuple of 1..3 str rows")
    width = max(len(row) for row in rows)
    if width > GRID:
        raise ValueError(f"pattern of a recipe for {output!r} is wider than {GRID}")
    padded = [row.ljust(width) for row in rows]
    for cell in "".join(padded).replace(" ", ""):
        if cell not in key:
            raise ValueError(f"pattern of a recipe for {output!r} uses {cell!r}, not in its key")
    for name in key.values():
        _check_ingredient(output, name)
    trimmed = trim_borders(padded, " ")
    if not trimmed:
        raise ValueError(f"pattern of a recipe for {output!r} is empty")
    return tuple(trimmed)


def trim_borders(rows: Sequence[_Row], empty: object) -> list[_Row]:
    """The rows without their border rows and columns of ``empty`` cells ([] when all are):
    a pattern's rows of keys, or a grid's rows of items."""
    filled = [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell != empty]
    if not filled:
        return []
    top, bottom = min(r for r, _ in filled), max(r for r, _ in filled) + 1
    left, right = min(c for _, c in filled), max(c for _, c in filled) + 1
    return [rows[r][left:right] for r in range(top, bottom)]
