"""Crafting: matching a 3×3 grid against the registry's recipes (`world.items.recipes`), and
crafting.

The registry keeps recipes in registration order, and the first that matches wins; an
ingredient ``"group:<name>"`` matches any block of that group (items that are not blocks have
no groups). `craft` takes one of each grid cell's items and gives the output. The registry is
read through `Catalog`, what crafting needs of it (`world.blocks.registry.BlockRegistry` is
one): items sit below blocks in the layers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from world.items.inventory import ItemStack
from world.items.recipes import GRID, GRID_CELLS, Recipe, trim_borders

__all__ = ["Catalog", "Grid", "craft", "match"]


class _Grouped(Protocol):
    @property
    def groups(self) -> tuple[str, ...]: ...


class Catalog(Protocol):
    """What crafting reads of a registry: its recipes, the names of its items that are not
    blocks, and each block's groups by name."""

    @property
    def recipes(self) -> Sequence[Recipe]: ...

    @property
    def items(self) -> Mapping[str, object]: ...

    def __contains__(self, name: object) -> bool: ...

    def __getitem__(self, name: str) -> _Grouped: ...


Grid = Sequence[ItemStack | None]
"""The grid's cells, row by row from the top left: `GRID_CELLS` stacks or None."""


def _is(registry: Catalog, item: str, ingredient: str) -> bool:
    """Whether an item is the ingredient (its name, or a member of its group)."""
    if not ingredient.startswith("group:"):
        return item == ingredient
    group = ingredient.removeprefix("group:")
    if item in registry.items:
        return False
    return item in registry and group in registry[item].groups


def _shape(grid: Grid) -> list[list[str | None]]:
    """The grid's items without its empty border rows and columns."""
    rows = [
        [None if s is None else s.item for s in grid[r * GRID : (r + 1) * GRID]]
        for r in range(GRID)
    ]
    return trim_borders(rows, None)


def _shaped_fits(registry: Catalog, recipe: Recipe, shape: list[list[str | None]]) -> bool:
    pattern = recipe.pattern
    if len(shape) != len(pattern) or len(shape[0]) != len(pattern[0]):
        return False
    for mirror in (False, True):
        if all(
            (cell == " ") == (item is None)
            and (item is None or _is(registry, item, recipe.key[cell]))
            for row, keys in zip(shape, pattern, strict=True)
            for item, cell in zip(row[::-1] if mirror else row, keys, strict=True)
        ):
            return True
    return False


def _shapeless_fits(registry: Catalog, recipe: Recipe, items: list[str]) -> bool:
    """Each grid item matched to its own ingredient: a bipartite matching, searched over the
    sets of ingredients used (at most 9 × 2⁹ states, each tried once)."""
    ingredients = recipe.items
    if len(items) != len(ingredients):
        return False
    fits = [[_is(registry, item, ingredient) for ingredient in ingredients] for item in items]
    failed: set[tuple[int, int]] = set()

    def assign(i: int, used: int) -> bool:
        if i == len(items):
            return True
        if (i, used) in failed:
            return False
        for k in range(len(ingredients)):
            if not used & 1 << k and fits[i][k] and assign(i + 1, used | 1 << k):
                return True
        failed.add((i, used))
        return False

    return assign(0, 0)


def _check_grid(grid: object) -> Grid:
    if not isinstance(grid, Sequence) or len(grid) != GRID_CELLS:
        raise ValueError(f"grid must be a sequence of {GRID_CELLS} cells")
    for i, stack in enumerate(grid):
        if stack is not None and not isinstance(stack, ItemStack):
            raise ValueError(f"grid cell {i} must hold an ItemStack or None, got {stack!r}")
    return grid


def match(registry: Catalog, grid: Grid) -> Recipe | None:
    """The first of the registry's recipes the grid makes, or None."""
    grid = _check_grid(grid)
    shape = _shape(grid)
    if not shape:
        return None
    items = [item for row in shape for item in row if item is not None]
    for recipe in registry.recipes:
        if recipe.shaped:
            if _shaped_fits(registry, recipe, shape):
                return recipe
        elif _shapeless_fits(registry, recipe, items):
            return recipe
    return None


def craft(registry: Catalog, grid: Grid) -> tuple[ItemStack, list[ItemStack | None]] | None:
    """Craft once: (the output, the grid with one item taken from each filled cell), or None
    when the grid makes nothing. The grid given is not changed."""
    recipe = match(registry, grid)
    if recipe is None:
        return None
    left = [None if s is None or s.count == 1 else s.with_count(s.count - 1) for s in grid]
    return ItemStack(recipe.output, recipe.count), left
