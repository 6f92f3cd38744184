"""Crafting (`world.items.crafting`): shaped recipes anywhere in the grid and mirrored, shapeless
ones in any cells, groups, the base game's and the mods' recipes, and bad recipes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from world.base import GAME
from world.blocks.registry import BlockRegistry
from world.items.crafting import craft, match
from world.items.inventory import ItemStack
from world.items.recipes import GRID, GRID_CELLS, Recipe
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.registration import make_registry


def _registry(plugins: dict[str, object] | None = None) -> BlockRegistry:
    mods = load_mods([DEFAULT_MODS_DIR], entry_points=False, plugins=plugins, game=GAME)
    assert not mods.errors
    return make_registry(mods)


REGISTRY = _registry()


def _grid(rows: list[str], key: dict[str, str], count: int = 1) -> list[ItemStack | None]:
    """A grid from rows of keys (a space or a missing cell: empty)."""
    cells: list[ItemStack | None] = []
    for r in range(GRID):
        row = rows[r] if r < len(rows) else ""
        for c in range(GRID):
            cell = row[c] if c < len(row) else " "
            cells.append(None if cell == " " else ItemStack(key[cell], count))
    return cells


P = {"P": "base:planks", "L": "base:log", "S": "base:stone", "C": "ores:coal_ore"}


def test_a_log_makes_four_planks_in_any_cell_and_one_log_is_taken() -> None:
    for cell in range(GRID_CELLS):
        grid: list[ItemStack | None] = [None] * GRID_CELLS
        grid[cell] = ItemStack("base:log", 3)
        made = craft(REGISTRY, grid)
        assert made is not None
        output, left = made
        assert output == ItemStack("base:planks", 4)
        assert left[cell] == ItemStack("base:log", 2) and grid[cell] == ItemStack("base:log", 3)
    last = [None] * GRID_CELLS
    last[0] = ItemStack("base:log", 1)
    made = craft(REGISTRY, last)
    assert made is not None and made[1] == [None] * GRID_CELLS  # the last log is used up


@pytest.mark.parametrize(
    ("rows", "output", "count"),
    [
        (["PPP"], "base:planks_slab", 6),
        (["SSS"], "base:stone_slab", 6),
        (["P  ", "PP ", "PPP"], "base:planks_stairs", 4),
        (["  P", " PP", "PPP"], "base:planks_stairs", 4),  # mirrored
        (["PPP", "PPP"], "base:fence", 3),
        (["PP", "PP", "PP"], "base:door", 3),
        (["PPP", "PPP", " P "], "signs:sign", 3),
        (["C", "P"], "base:torch", 4),
        (["PP", " P", " P"], "farming:hoe", 1),
        (["PP", "P ", "P "], "farming:hoe", 1),  # the other hand
    ],
)
def test_the_game_s_and_the_mods_shaped_recipes_match_anywhere_in_the_grid(
    rows: list[str], output: str, count: int
) -> None:
    height, width = len(rows), max(len(r) for r in rows)
    for top, left in itertools.product(range(GRID - height + 1), range(GRID - width + 1)):
        placed = [""] * top + [" " * left + row for row in rows]
        recipe = match(REGISTRY, _grid(placed, P))
        assert recipe is not None and (recipe.output, recipe.count) == (output, count), placed


@pytest.mark.parametrize(
    "rows",
    [
        ["PP"],  # too few
        ["P P"],  # a gap where the slab's middle plank goes
        ["PPP", "P  "],  # an extra item beside a shape
        ["SPS"],  # mixed items
        ["P", "P"],  # no recipe takes two planks on end
        ["C", "S"],  # a torch needs planks under the coal
    ],
)
def test_a_grid_that_is_no_recipe_makes_nothing(rows: list[str]) -> None:
    assert match(REGISTRY, _grid(rows, P)) is None
    assert craft(REGISTRY, _grid(rows, P)) is None
    assert match(REGISTRY, [None] * GRID_CELLS) is None


def test_shapeless_recipes_take_their_items_in_any_cells_and_groups_any_member() -> None:
    class Kit:
        @hookimpl
        def register_blocks(self, registry: object) -> None:
            register = registry.register_craft  # type: ignore[attr-defined]
            register(Recipe("base:lamp", 1, items=("base:glass", "base:torch", "group:falling")))

    registry = _registry({"kit": Kit()})
    (recipe,) = [r for r in registry.recipes if r.mod == "kit"]
    falling = [b.name for b in registry if "falling" in b.groups]
    assert falling == ["base:sand", "base:gravel"]
    for cells in itertools.permutations(range(GRID_CELLS), 3):
        grid: list[ItemStack | None] = [None] * GRID_CELLS
        items = ("base:glass", "base:torch", falling[cells[0] % 2])
        for cell, item in zip(cells, items, strict=True):
            grid[cell] = ItemStack(item, 1)
        assert match(registry, grid) == recipe
    grid = [None] * GRID_CELLS
    grid[0], grid[1] = ItemStack("base:glass", 1), ItemStack("base:torch", 1)
    assert match(registry, grid) is None  # one short
    grid[2] = ItemStack("base:stone", 1)
    assert match(registry, grid) is None  # stone is not in the group
    grid[2], grid[3] = ItemStack("base:sand", 1), ItemStack("base:gravel", 1)
    assert match(registry, grid) is None  # one too many


@given(
    st.lists(
        st.sampled_from([None, "base:planks", "base:stone", "base:log"]), min_size=9, max_size=9
    )
)
def test_a_match_agrees_with_trying_each_recipe_by_brute_force(cells: list[str | None]) -> None:
    """Against a reference that places each shaped recipe at every offset, both ways round, and
    compares whole grids; and compares shapeless ones as sorted lists."""
    grid = [None if c is None else ItemStack(c, 1) for c in cells]
    expected = None
    for recipe in REGISTRY.recipes:
        if recipe.shaped:
            height, width = len(recipe.pattern), len(recipe.pattern[0])
            for mirror, top, left in itertools.product(
                (False, True), range(GRID - height + 1), range(GRID - width + 1)
            ):
                want: list[str | None] = [None] * GRID_CELLS
                for r, row in enumerate(recipe.pattern):
                    for c, key in enumerate(row[::-1] if mirror else row):
                        if key != " ":
                            want[(top + r) * GRID + left + c] = recipe.key[key]
                if want == cells:
                    expected = recipe
        elif all(not i.startswith("group:") for i in recipe.items) and sorted(
            c for c in cells if c is not None
        ) == sorted(recipe.items):
            expected = recipe
        if expected is not None:
            break
    assert match(REGISTRY, grid) == expected


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"output": "planks"}, "output"),
        ({"output": "base:planks", "count": 0, "items": ("base:log",)}, "count"),
        ({"output": "base:planks", "count": True, "items": ("base:log",)}, "count"),
        ({"output": "base:planks"}, "pattern"),
        ({"output": "base:planks", "pattern": ("P",), "items": ("base:log",)}, "pattern"),
        ({"output": "base:planks", "pattern": ("PPPP",), "key": {"P": "base:log"}}, "wider"),
        ({"output": "base:planks", "pattern": ("P",) * 4, "key": {"P": "base:log"}}, "rows"),
        ({"output": "base:planks", "pattern": ("PQ",), "key": {"P": "base:log"}}, "'Q'"),
        ({"output": "base:planks", "pattern": ("   ",), "key": {}}, "empty"),
        ({"output": "base:planks", "pattern": ("P",), "key": {"P": "log"}}, "ingredient"),
        ({"output": "base:planks", "items": ("base:log",) * 10}, "items"),
        ({"output": "base:planks", "items": ("group:",)}, "ingredient"),
    ],
)
def test_a_bad_recipe_is_refused_naming_what_is_wrong(
    kwargs: dict[str, object], named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        Recipe(**kwargs)  # type: ignore[arg-type]


def test_a_pattern_s_empty_border_is_dropped_and_a_bad_grid_refused() -> None:
    recipe = Recipe("base:door", 1, ("   ", " PP", " PP"), {"P": "base:planks"})
    assert recipe.pattern == ("PP", "PP")
    with pytest.raises(ValueError, match="grid"):
        match(REGISTRY, [None] * 4)
    with pytest.raises(ValueError, match="grid cell 0"):
        match(REGISTRY, ["base:log"] + [None] * 8)  # type: ignore[list-item]
