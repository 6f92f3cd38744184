"""The creative picker's items and pages: every block and item, each mod's under its heading.

Pure layout (no engine): the catalog (`catalog`: base game first, then each mod in load order,
its blocks then its items that are not blocks), what the search line selects (`matching`), and
`pages`: the items in lines, a heading line naming each mod before its items (again at the top
of a page its items go on to), nine items to a row, as many lines as one page's height holds.
`game.inventory_screen` draws a page and numbers its items in reading order.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.blocks.registry import BlockRegistry
from world.save.format import PLACEHOLDER_GROUP

__all__ = [
    "COLUMNS",
    "HEADING",
    "PAGE_HEIGHT",
    "CatalogItem",
    "Line",
    "catalog",
    "heading",
    "matching",
    "pages",
]

COLUMNS = 9
HEADING = 0.5  # a heading line's height, in rows of items
PAGE_HEIGHT = 6.5  # a page's lines' height, in rows: five rows of items and three headings


@dataclass(frozen=True)
class CatalogItem:
    """One item of the creative picker."""

    item: str  # the block's (or the non-block item's) name
    state: int  # the state its icon shows (the block's default state), -1 for an item
    mod: str
    description: str
    tile: int = -1  # a non-block item's icon: its atlas tile, drawn flat


@dataclass(frozen=True)
class Line:
    """One line of a page: a mod's ``heading``, or a row of up to nine ``items``."""

    heading: str = ""
    items: tuple[CatalogItem, ...] = ()

    @property
    def height(self) -> float:
        """In rows of items."""
        return HEADING if self.heading else 1.0


def catalog(registry: BlockRegistry) -> list[CatalogItem]:
    """Every block a player can hold and every item that is not a block (`world.items.item`),
    grouped by mod in registration order (base first): each mod's blocks, then its items.

    Air, liquids and placeholders of missing mods are left out (Minecraft's creative inventory
    has no water block either).
    """
    items = []
    for block in registry:
        if block.name == "air" or "liquid" in block.groups or PLACEHOLDER_GROUP in block.groups:
            continue
        mod = block.name.partition(":")[0]
        items.append(CatalogItem(block.name, registry.id(block.name), mod, block.description))
    for thing in registry.items.values():
        tile = registry.tile_id(thing.image)
        items.append(CatalogItem(thing.name, -1, thing.mod, thing.description, tile))
    order: dict[str, int] = {}
    for item in items:
        order.setdefault(item.mod, len(order))
    return sorted(items, key=lambda item: order[item.mod])  # stable: blocks before items


def matching(items: list[CatalogItem], query: str) -> list[CatalogItem]:
    """The items whose name or description holds every word of ``query`` (all: none typed)."""
    words = query.lower().split()
    return [
        item
        for item in items
        if all(w in item.item or w in item.description.lower() for w in words)
    ]


def heading(mod: str) -> str:
    """A mod's heading: its name, capitalised (``base`` reads ``Base``)."""
    return mod[:1].upper() + mod[1:]


def pages(items: list[CatalogItem]) -> list[list[Line]]:
    """The items in pages of lines (module notes); one empty page when there is none."""
    rows: list[tuple[str, tuple[CatalogItem, ...]]] = []  # (mod, a row of its items)
    for item in items:
        if rows and rows[-1][0] == item.mod and len(rows[-1][1]) < COLUMNS:
            rows[-1] = (item.mod, (*rows[-1][1], item))
        else:
            rows.append((item.mod, (item,)))
    out: list[list[Line]] = [[]]
    used = 0.0
    for mod, row in rows:
        page = out[-1]
        new_group = not page or page[-1].items[0].mod != mod
        height = 1.0 + (HEADING if new_group else 0.0)
        if page and used + height > PAGE_HEIGHT:
            page = []
            out.append(page)
            used, new_group, height = 0.0, True, 1.0 + HEADING
        if new_group:
            page.append(Line(heading=heading(mod)))
        page.append(Line(items=row))
        used += height
    return out
