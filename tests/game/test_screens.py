"""The screens that take the keys (`game.screens`): the inventory, a block's inventory on it,
the text prompt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from world.items.containers import Container
from world.items.inventory import ItemStack

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def test_an_open_chest_closes_when_its_data_becomes_unreadable(make_game: Make) -> None:
    game = make_game(flat=True, creative=False)
    chest = (0, 10, 0)
    game.world.set_block(*chest, game.world.registry.id("chests:chest"))
    game.screens.open_container(Container(chest, "Chest", 27))
    assert game.inventory_screen.shown and game.inventory_screen.container is not None
    game.world.meta(*chest)["inventory"] = "[[1]]"  # a mod wrote nonsense
    game.update(1 / 60)
    assert not game.inventory_screen.shown and game.screens.opened is None
    assert game.world.meta(*chest)["inventory"] == "[[1]]"  # kept as it was


def test_an_open_screen_takes_the_keys_the_game_would_act_on(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    game.hotbar.inventory.put(9, ItemStack("base:log", 3))
    replay(game, "select 1")
    game.input("e")
    assert game.inventory_screen.shown
    game.input("4")  # a hotbar key chooses the slot, as in play; the screen stays open
    assert game.hotbar.selected == 3 and game.inventory_screen.shown
    game.input("escape")  # closes the screen rather than pausing
    assert not game.inventory_screen.shown and not game.paused
    game.input("escape")
    game.input("e")  # paused: the inventory does not open
    assert game.paused and not game.inventory_screen.shown
