"""Items in play, headless: survival breaks give drops, places use them up, the creative picker
(driven by the script language) puts a mod's block in the hotbar, the inventory is saved."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.game.runs import SyntheticPointer, stone_in_view
from world.blocks.entity_type import ITEM_ENTITY
from world.entities.items import stack_of
from world.items.inventory import INVENTORY_SLOTS, ItemStack

Replay = Callable[[Any, str], None]

GEMS = """
    from world.blocks.registry import BlockType
    from world.mods.hooks import hookimpl

    @hookimpl
    def register_blocks(registry):
        registry.register(BlockType("gems:ruby", description="ruby block", tiles=("base:lamp",)))
"""


@pytest.fixture
def gem_mods(tmp_path: Path) -> Path:
    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "gems.py").write_text(textwrap.dedent(GEMS))
    return folder


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("BLOCKPICK_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def play(app: Any, data_dir: Path) -> Iterator[Callable[..., Any]]:
    from game.options import Options
    from game.play import Game
    from game.session import Session

    games: list[Any] = []

    def start(**fields: Any) -> Any:
        options = Options(**{"view_distance": 2, **fields})
        game = Game(options, session=Session.open(options))
        games.append(game)
        return game

    yield start
    for game in games:
        game.close()
        game.destroy()


def empty(game: Any) -> None:
    game.hotbar.inventory.slots[:] = [None] * INVENTORY_SLOTS
    game.hud.refresh_hotbar()


def test_a_survival_break_gives_the_drop_and_a_place_uses_it_up(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    empty(game)
    registry = game.world.registry
    replay(game, "look 0 50\nwait 2")
    target = game.target
    assert target is not None and registry.name(target.block_id) == "base:grass"
    replay(game, "break 60")  # grass takes 0.6 s by hand
    assert game.world.get_block(*target.block) == 0
    assert game.hotbar.inventory.count("base:dirt") == 0  # its dirt fell into the hole
    replay(game, "move 1 0 30\nwait 30")  # into the hole, onto it
    assert game.hotbar.inventory.slots[0] == ItemStack("base:dirt", 1)  # grass drops dirt
    replay(game, "look 0 50\nwait 2\nplace")
    assert game.last_outcome.done
    assert game.hotbar.inventory.slots[0] is None  # used up
    before = game.world.get_block(*target.block)
    replay(game, "wait 2\nplace")  # an empty hand places nothing
    assert not game.last_outcome.done
    assert game.world.get_block(*target.block) == before


def test_creative_breaks_give_nothing_and_places_cost_nothing(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    before = [s for s in game.hotbar.inventory.slots]
    replay(game, "look 0 50\nwait 2\nbreak\nwait 2\nplace")
    assert game.last_outcome.done
    assert game.hotbar.inventory.slots == before


def test_the_creative_picker_puts_a_mods_block_in_the_hotbar(
    make_game: Callable[..., Any], replay: Replay, gem_mods: Path
) -> None:
    game = make_game(flat=True, creative=True, mods=(str(gem_mods),))
    ruby = game.world.registry.id("gems:ruby")
    replay(game, "select 3\ninventory\nsearch ruby\nclick_item 1\ninventory")
    assert not game.inventory_screen.shown
    assert game.hotbar.current == ruby and game.hotbar.selected == 2
    replay(game, "look 0 50\nwait 2\nplace")
    assert game.last_outcome.done and ruby in {c.new for c in game.last_outcome.changes}


@pytest.mark.parametrize("size", [(800, 600), (360, 640)], ids=["wide", "narrow"])
def test_a_mouse_click_on_a_picker_cell_takes_that_cells_item(
    app: Any, make_game: Callable[..., Any], gem_mods: Path, size: tuple[int, int]
) -> None:
    """The mouse's path, not a script's: the window's pointer over a cell (the panel shrunk to
    fit a narrow window) and a left click put that cell's item in the selected slot."""
    from ursina import camera, window

    from game.engine import WindowPointer

    game = make_game(flat=True, creative=True, mods=(str(gem_mods),))
    width, height = size
    app.win.setSize(width, height)
    camera.ui_lens.set_film_size(camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5)
    pointer = SyntheticPointer(size=size)
    game.pointer = pointer
    try:
        game.input("e")
        for _ in range(2):
            app.step()  # the panel lays itself out for the window
        screen = game.inventory_screen
        scale = float(screen.panel.scale_x)
        assert (scale < 1.0) == (width < height)
        screen.set_query("ruby")

        def point_at(x: float, y: float) -> None:  # panel units to the window's pixels
            pointer.x = width / 2 + x * scale * height
            pointer.y = height / 2 - y * scale * height

        point_at(*screen.cell_centre(0))
        game.input("left mouse down")
        assert game.hotbar.inventory.current == ItemStack("gems:ruby", 64)
        # Between two cells: nothing is taken.
        game.hotbar.inventory.select(1)
        before = game.hotbar.inventory.current
        (x0, y0), (x1, _) = screen.cell_centre(0), screen.cell_centre(1)
        point_at((x0 + x1) / 2, y0)
        game.input("left mouse down")
        assert game.hotbar.inventory.current == before
        # A pointer outside the window clicks nothing.
        point_at(*screen.cell_centre(0))
        pointer.in_window = False
        game.input("left mouse down")
        assert game.hotbar.inventory.current == before
        # A window with no size (minimised) clicks nothing, and does not fail.
        pointer.in_window, pointer.size = True, (0, 0)
        game.input("left mouse down")
        assert game.hotbar.inventory.current == before
        # Offscreen there is no pointer: a click takes nothing, and does not fail.
        game.pointer = WindowPointer(app.win)
        point_at(*screen.cell_centre(0))
        game.input("left mouse down")
        assert game.hotbar.inventory.current == before
    finally:
        app.win.setSize(800, 600)
        camera.ui_lens.set_film_size(
            camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5
        )
        app.step()


def test_the_inventory_survives_save_and_load(play: Callable[..., Any], replay: Replay) -> None:
    game = play(world="bag", flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.put(30, ItemStack("base:cobblestone", 17))
    inventory.put(4, ItemStack("gone:ruby", 2))  # a mod not loaded: the items are kept
    replay(game, "select 5")
    slots = list(inventory.slots)
    game.close()
    game.destroy()
    again = play(world="bag")
    assert again.hotbar.inventory.slots == slots and again.hotbar.selected == 4


def test_worn_tools_keep_their_wear_through_save_and_load_the_carried_one_too(
    play: Callable[..., Any],
) -> None:
    game = play(world="worn", flat=True, creative=False)
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(3, ItemStack("tools:wood_pickaxe", 1, 52))
    inventory.carried[0] = ItemStack("tools:stone_axe", 1, 9)  # on the mouse as the save comes
    game.close()
    game.destroy()
    again = play(world="worn").hotbar.inventory
    assert again.slots[3] == ItemStack("tools:wood_pickaxe", 1, 52)
    assert again.slots[0] == ItemStack("tools:stone_axe", 1, 9)  # put back into the inventory


def test_the_hoe_from_the_picker_tills_grass_in_survival_and_is_kept_one_use_worn(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "select 4\ninventory\nsearch hoe\nclick_item 1\ninventory")
    inventory = game.hotbar.inventory
    assert inventory.current == ItemStack("farming:hoe", 1)  # a tool stacks to one
    assert game.hotbar.current is None  # not a block: places nothing
    assert game.hotbar.icon_items[3] == "farming:hoe"
    assert game.hud.icons[3] == "farming:hoe"  # its icon is drawn
    game.player.creative = False
    replay(game, "look 0 50\nwait 2")
    target = game.target
    assert target is not None and game.world.registry.name(target.block_id) == "base:grass"
    replay(game, "place")
    assert game.last_outcome.used
    assert game.world.registry.name(game.world.get_block(*target.block)) == "farming:farmland"
    assert inventory.current == ItemStack("farming:hoe", 1, 1)  # kept, one of its uses spent


def test_a_sign_s_text_is_typed_in_its_editor_and_escape_keeps_the_old_one(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    game.hotbar.inventory.put(0, ItemStack("signs:sign", 1))
    replay(game, "select 1\nlook 0 50\nwait 2\nplace\nwait 2")
    placed = [c.pos for c in game.last_outcome.changes if c.new != 0]
    assert placed, game.last_outcome.reason
    sign = placed[0]
    assert game.text_screen.shown  # placed, its editor opens at once (Minecraft, Luanti)
    assert game.text_screen.text == ""  # a new sign is blank
    replay(game, "look 0 40\nwait 2")
    feet = game.player.body.pos
    replay(game, "type Keep_outs\nkey backspace\ntype /Welcome\nwait 3")
    assert game.player.body.pos == feet  # typing does not walk (w, a, s, d are letters)
    typed = game.text_screen.text
    assert typed == "Keep out\nWelcome"
    replay(game, "key enter")
    assert not game.text_screen.shown
    text = game.world.meta(*sign)["text"]
    assert text == typed
    assert game.target is not None and tuple(game.target.block) == tuple(sign)
    replay(game, "wait 1")  # pointing at the sign shows its text, as Luanti's signs do
    assert game.hud.infotext.enabled and game.hud.infotext.text == f'"{typed}"'
    replay(game, "use\ntype junk")
    assert game.text_screen.shown and not game.hud.infotext.enabled  # not over the editor
    replay(game, "key escape")
    assert not game.text_screen.shown and game.world.meta(*sign)["text"] == text
    replay(game, "wait 1")
    assert game.hud.infotext.enabled


def test_survival_crafts_in_the_inventory_s_grid_onto_the_carried_stack(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """Logs into the grid, the output clicked: four planks a log onto the stack the mouse
    carries (Minecraft's); planks laid out as a door's recipe make doors; closing puts what is
    left in the grid, and what is carried, back into the inventory."""
    game = make_game(flat=True, creative=False)
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(9, ItemStack("base:log", 3))  # cell 1: the inventory's top left
    replay(game, "inventory\nclick_item 1\nclick_item 41")  # the grid's centre
    screen = game.inventory_screen
    assert screen.grid[4] == ItemStack("base:log", 3) and inventory.slots[9] is None
    replay(game, "click_item 46\nclick_item 46")
    assert inventory.carried[0] == ItemStack("base:planks", 8)
    assert screen.grid[4] == ItemStack("base:log", 1)
    replay(game, "click_item 46\nclick_item 46")  # the last log, then nothing to craft
    assert inventory.carried[0] == ItemStack("base:planks", 12) and screen.grid == [None] * 9
    replay(game, "click_item 2")  # put down
    assert inventory.slots[10] == ItemStack("base:planks", 12) and inventory.carried[0] is None
    # A door: two columns of three planks, in the grid's left columns.
    inventory.put(10, None)
    for row in range(3):
        for column in range(2):
            screen.grid[row * 3 + column] = ItemStack("base:planks", 2)
    replay(game, "click_item 46")
    assert inventory.carried[0] == ItemStack("base:door", 3)
    assert screen.grid[:2] == [ItemStack("base:planks", 1)] * 2
    replay(game, "inventory")  # closing: the grid's planks and the doors go into the inventory
    assert not screen.shown and screen.grid == [None] * 9 and inventory.carried[0] is None
    assert inventory.count("base:planks") == 6 and inventory.count("base:door") == 3


def test_closing_with_a_full_inventory_drops_what_does_not_fit_and_quitting_puts_back(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """Every slot full: closing the screen puts the carried stack back and drops the grid's
    log that finds no room at the player's feet, as Minecraft does, so no item is lost; the
    game ending with the screen open puts the carried stack back too."""
    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    inventory.slots[:] = [ItemStack("base:dirt", 64)] * INVENTORY_SLOTS
    inventory.put(9, ItemStack("base:log", 2))
    replay(game, "inventory\nclick_item 1\nclick_item 37\nclick_item 46")
    assert inventory.carried[0] == ItemStack("base:planks", 4)
    assert game.inventory_screen.grid[0] == ItemStack("base:log", 1)
    replay(game, "inventory")
    assert inventory.slots[9] == ItemStack("base:planks", 4)
    lying = [stack_of(e) for e in game.world.entities if e.kind == ITEM_ENTITY.name]
    assert lying == [ItemStack("base:log", 1)] and game.last_outcome.drops == tuple(lying)
    replay(game, "inventory\nclick_item 1")
    assert inventory.carried[0] == ItemStack("base:planks", 4) and inventory.slots[9] is None
    assert game.close()  # the game ends with the screen open: the planks go back first
    assert inventory.slots[9] == ItemStack("base:planks", 4) and inventory.carried[0] is None


def _place_chest(game: Any, replay: Replay) -> tuple[int, int, int]:
    empty(game)
    game.hotbar.inventory.put(0, ItemStack("chests:chest", 1))
    game.hotbar.inventory.put(9, ItemStack("base:log", 20))
    replay(game, "select 1\nlook 0 50\nwait 2\nplace\nwait 2\nlook 0 45\nwait 1")
    placed = [c.pos for c in game.last_outcome.changes if c.new != 0]
    assert placed, game.last_outcome.reason
    return tuple(placed[0])


def test_a_chest_keeps_what_is_put_in_it_through_a_save_and_spills_it_when_broken(
    play: Callable[..., Any], replay: Replay
) -> None:
    game = play(world="store", flat=True, creative=False)
    chest = _place_chest(game, replay)
    replay(game, "use")
    screen = game.inventory_screen
    assert screen.shown and screen.container is not None and screen.title.text == "Chest"
    replay(game, "click_item 1\nclick_item 40")  # the logs into the chest's fourth slot
    assert screen.stored[3] == ItemStack("base:log", 20)
    assert game.hotbar.inventory.count("base:log") == 0
    assert "base:log" in game.world.meta(*chest)["inventory"]  # written at once
    replay(game, "inventory")  # E closes it
    assert not screen.shown and screen.container is None
    game.close()
    game.destroy()

    again = play(world="store", flat=True, creative=False)
    replay(again, "look 0 45\nwait 2\nuse")
    screen = again.inventory_screen
    assert screen.container is not None and screen.stored[3] == ItemStack("base:log", 20)
    replay(again, "inventory\nbreak 200\nwait 60")  # held long enough to break planks twice
    assert again.world.get_block(*chest) == 0  # broken, full as it was (Minecraft's)
    # What it held fell where it stood, beside the player, with the chest: picked up.
    inventory = again.hotbar.inventory
    assert inventory.count("base:log") == 20 and inventory.count("chests:chest") == 1
    assert not len(again.world.entities)


def test_a_chest_s_unreadable_data_is_not_opened_and_a_chest_replaced_closes_its_screen(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    chest = _place_chest(game, replay)
    game.world.meta(*chest)["inventory"] = "not slots"
    replay(game, "use")
    assert not game.inventory_screen.shown
    assert "cannot be opened" in str(game.hud.message.text)
    assert game.world.meta(*chest)["inventory"] == "not slots"  # kept as it was
    del game.world.meta(*chest)["inventory"]
    replay(game, "use\nclick_item 1\nclick_item 37")
    assert game.inventory_screen.stored[0] == ItemStack("base:log", 20)
    game.world.set_block(*chest, 0)  # a mod replaced it meanwhile
    replay(game, "wait 1")  # the screen closes; what the chest held is gone with its data
    assert not game.inventory_screen.shown


def test_a_furnace_smelts_sand_into_glass_with_fuel_and_shows_how_far_it_has_got(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """The furnace mod: a block inventory, a timer and info text. Sand and planks put in
    through its screen; glass comes out after its cooking time; the screen follows the changes
    the timer makes while it is open."""
    game = make_game(flat=True, creative=False)
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(0, ItemStack("furnace:furnace", 1))
    inventory.put(9, ItemStack("base:sand", 2))
    inventory.put(10, ItemStack("base:planks", 3))
    replay(game, "select 1\nlook 0 50\nwait 2\nplace\nwait 2\nlook 0 45\nwait 1")
    furnace = next(c.pos for c in game.last_outcome.changes if c.new != 0)
    replay(game, "use\nclick_item 1\nclick_item 37\nclick_item 2\nclick_item 38")
    screen = game.inventory_screen
    assert screen.stored[:2] == [ItemStack("base:sand", 2), ItemStack("base:planks", 3)]
    replay(game, "wait 180")  # 3 s: a plank burns, the sand cooks
    data = game.world.meta(*furnace)
    assert str(data["infotext"]).startswith("Furnace: ") and "%" in str(data["infotext"])
    assert screen.stored[1] == ItemStack("base:planks", 2)  # the screen shows the fuel used
    replay(game, "inventory\nwait 600")  # closed; 10 s more: one glass, the second cooking
    replay(game, "use")
    assert screen.stored[2] == ItemStack("base:glass", 1)
    assert screen.stored[0] == ItemStack("base:sand", 1)
    replay(game, "click_item 39\nclick_item 3")  # the glass taken out
    assert inventory.count("base:glass") == 1
    replay(game, "inventory\nwait 1500")  # the second plank burns out 15 s after it was lit
    assert game.world.meta(*furnace).get("infotext") is None  # done: nothing burns
    replay(game, "use")
    assert screen.stored[2] == ItemStack("base:glass", 1) and screen.stored[0] is None


def test_a_save_made_while_stacks_lie_in_the_crafting_grid_keeps_them(
    play: Callable[..., Any], replay: Replay
) -> None:
    """An autosave (or any save) with the inventory screen open writes the grid's stacks back
    into the saved inventory: a crash after it loses nothing."""
    game = play(world="grid", flat=True, creative=False)
    empty(game)
    game.hotbar.inventory.put(9, ItemStack("base:log", 5))
    replay(game, "inventory\nclick_item 1\nclick_item 41\nclick_item 46")  # 4 planks made
    assert game.inventory_screen.grid[4] == ItemStack("base:log", 4)
    assert game.save()  # as the autosave does, the screen still open
    saved = game.session.store.player.inventory
    assert ("base:log", 4) in saved and ("base:planks", 4) in saved
    assert game.inventory_screen.grid[4] == ItemStack("base:log", 4)  # still in the grid


def test_a_held_pickaxe_breaks_stone_in_a_quarter_of_the_time(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    empty(game)
    target = stone_in_view(game, replay)
    stone = game.world.registry.id("base:stone")
    replay(game, "wait 2\nbreak 30")  # by hand stone takes 5 s: 30 frames are not enough
    assert game.world.get_block(*target.block) == stone
    game.hotbar.inventory.put(0, ItemStack("tools:stone_pickaxe", 1))
    replay(game, "select 1\nwait 2\nbreak 30")  # 0.375 s with a stone pickaxe: 23 frames
    assert game.world.get_block(*target.block) == 0
    assert [e.data.get("item") for e in game.world.entities] == ["base:cobblestone"]
    assert game.hotbar.inventory.current == ItemStack("tools:stone_pickaxe", 1, 1)  # one use


def _counts(*groups: list[ItemStack | None]) -> dict[str, int]:
    total: dict[str, int] = {}
    for group in groups:
        for stack in group:
            if stack is not None:
                total[stack.item] = total.get(stack.item, 0) + stack.count
    return total


def test_clicks_in_any_order_never_lose_or_make_an_item(
    make_game: Callable[..., Any],
) -> None:
    """Random left, right and shift clicks and drags, through the screen's mouse path, over the
    inventory, the crafting grid and an open chest: every item is somewhere (the carried stack
    included), in the same numbers, whatever the order (crafting aside: its output cell is not
    clicked here; `tests/world/actions/test_slot_clicks.py` counts crafts recipe by recipe); the
    chest's data holds what its slots show."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from world.items.containers import Container, decode_slots

    game = make_game(flat=True, creative=False)
    screen = game.inventory_screen
    inventory = game.hotbar.inventory
    chest = (0, 10, 0)
    game.world.set_block(*chest, game.world.registry.id("chests:chest"))
    stock = [
        ItemStack("base:log", 40),
        ItemStack("base:log", 30),
        ItemStack("base:planks", 64),
        ItemStack("base:dirt", 5),
        ItemStack("tools:stone_axe", 1),
    ]

    cell = st.sampled_from([0, 1, 2, 9, 10, 27, 30, 36, 37, 40, 44, 50, 62])
    gesture = st.one_of(
        st.tuples(st.sampled_from(["left", "right", "shift"]), st.tuples(cell)),
        st.tuples(st.sampled_from(["left", "right"]), st.lists(cell, min_size=2, max_size=5)),
    )

    @settings(
        max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(st.booleans(), st.lists(gesture, max_size=30))
    def run(with_chest: bool, gestures: list[tuple[str, Any]]) -> None:
        inventory.slots[:] = [None] * INVENTORY_SLOTS
        inventory.crafting[:] = [None] * 9
        inventory.carried[0] = None
        for slot, stack in zip((0, 9, 10, 11, 12), stock, strict=True):
            inventory.slots[slot] = stack
        game.world.meta(*chest).pop("inventory", None)
        before = _counts(inventory.slots)
        if with_chest:
            game.screens.open_container(Container(chest, "Chest", 27))
        else:
            screen.open(creative=False)
        for button, cells in gestures:
            cells = [c for c in cells if with_chest or c < 45]  # 45 is the grid's output
            if len(cells) == 1:
                game.screens.click(cells[0], button)
            elif cells:  # a drag, as the mouse makes one
                game.screens.press(button, cells[0])
                for crossed in cells[1:]:
                    game.screens.over(crossed)
                game.screens.release(button)
        held = decode_slots(game.world.meta(*chest).get("inventory"), 27)
        assert _counts(inventory.slots, inventory.crafting, inventory.carried, held) == before
        if with_chest:
            assert held == screen.stored
        game.screens.close_inventory()
        assert inventory.crafting == [None] * 9 and inventory.carried[0] is None  # went back
        assert _counts(inventory.slots, held) == before

    run()


def test_a_chest_replaced_between_clicks_drops_what_it_held_and_no_click_makes_an_item(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """Random clicks on an open chest, the chest replaced by a mod's change (a bulk write or a
    single one, in the world's own code path), frames that may pick up what dropped, the chest
    put back and opened again, in any order: every item is in the inventory, the chest or lying
    in the world (item entities), in the same numbers, after every step (issue 35: the screen's
    stacks were given back on top of the chest's dropped ones, or lost with its data)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from world.items.containers import Container, decode_slots

    game = make_game(flat=True, creative=False)
    inventory = game.hotbar.inventory
    registry = game.world.registry
    chest, stone = registry.id("chests:chest"), registry.id("base:stone")
    at = (0, 10, 0)
    stock = [ItemStack("base:log", 40), ItemStack("base:planks", 64), ItemStack("base:dirt", 5)]
    steps = st.lists(
        st.one_of(
            st.tuples(st.just("click"), st.sampled_from([0, 9, 10, 11, 36, 37, 40, 50])),
            st.tuples(st.sampled_from(["replace", "bulk", "frame", "reopen"]), st.just(0)),
        ),
        max_size=25,
    )

    def total() -> dict[str, int]:
        held = [] if game.world.get_block(*at) != chest else game.world.meta(*at).get("inventory")
        lying = [stack_of(e) for e in game.world.entities if e.kind == ITEM_ENTITY.name]
        stored = decode_slots(held or None, 27)
        return _counts(inventory.slots, inventory.crafting, inventory.carried, stored, lying)

    @settings(
        max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(steps)
    def run(plan: list[tuple[str, int]]) -> None:
        game.screens.close_inventory()
        for entity in game.world.entities:
            game.world.entities.remove(entity)
        game.world.set_block(*at, 0)
        game.world.set_block(*at, chest)
        inventory.slots[:] = [None] * INVENTORY_SLOTS
        inventory.crafting[:] = [None] * 9
        inventory.carried[0] = None
        for slot, stack in zip((0, 9, 10), stock, strict=True):
            inventory.slots[slot] = stack
        before = total()
        game.screens.open_container(Container(at, "Chest", 27))
        for kind, cell in plan:
            if kind == "click" and game.inventory_screen.shown:
                game.screens.click(cell)
            elif kind == "replace":
                game.world.set_block(*at, stone)
            elif kind == "bulk":
                game.world.set_blocks([at, (1, 10, 0)], stone)
            elif kind == "frame":
                replay(game, "wait 1")
            elif kind == "reopen" and game.world.get_block(*at) != chest:
                game.screens.close_inventory()
                game.world.set_block(*at, chest)
                game.screens.open_container(Container(at, "Chest", 27))
            assert total() == before, (kind, cell)
        if game.world.get_block(*at) != chest:
            replay(game, "wait 1")  # the screen closes
            assert not game.inventory_screen.shown
        assert total() == before

    run()


def test_a_protected_chest_refuses_a_stranger_s_clicks_and_nothing_moves(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """The chest was opened before someone else's area was set around it (as ``/protect``
    does while it is open): every move the player clicks is refused through the rules
    (protection's ``can_use``), with its reason shown; nothing moves on either side. Once the
    area is the player's, the same clicks move the logs."""
    from game.player import PLAYER_NAME

    game = make_game(flat=True, creative=False)
    chest = _place_chest(game, replay)
    inventory = game.hotbar.inventory
    replay(game, "use")
    screen = game.inventory_screen
    assert screen.container is not None
    protection = game.mods["protection"].plugin
    protection.protect(game.world, "vault", chest, chest, owner="alex")
    replay(game, "click_item 1\nclick_item 37")  # the logs onto the chest's first slot
    assert game.last_outcome is not None and not game.last_outcome.done
    assert "vault belongs to alex" in str(game.hud.message.text)
    assert inventory.carried[0] == ItemStack("base:log", 20)  # still in the hand
    assert screen.stored == [None] * 27 and "inventory" not in game.world.meta(*chest)
    inventory.put(10, ItemStack("base:dirt", 3))
    replay(game, "click_item 2 shift")  # a quick move into the chest: refused too
    assert not game.last_outcome.done and "inventory" not in game.world.meta(*chest)
    assert inventory.slots[10] == ItemStack("base:dirt", 3)
    protection.protect(game.world, "vault", chest, chest, owner=PLAYER_NAME)
    replay(game, "click_item 37")
    assert game.last_outcome.done and screen.stored[0] == ItemStack("base:log", 20)
    assert inventory.count("base:log") == 0 and inventory.carried[0] is None
    assert "base:log" in game.world.meta(*chest)["inventory"]


STRONGBOX = """
    from world.blocks.registry import BlockType
    from world.mods.hooks import hookimpl

    def fail(stack):
        raise RuntimeError("the lock jammed")

    @hookimpl
    def register_blocks(registry):
        registry.register(BlockType("strongbox:box", containers=("inventory",), on_take=fail))
"""


def test_a_raising_on_take_clicked_on_the_screen_rolls_the_click_back(
    make_game: Callable[..., Any], tmp_path: Path
) -> None:
    """A block whose ``on_take`` fails: a click taking from its slots is rolled back (nothing
    moved, no item lost or made) and the mod's failure is shown; putting in still works."""
    from world.items.containers import Container, decode_slots

    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "strongbox.py").write_text(textwrap.dedent(STRONGBOX))
    game = make_game(flat=True, creative=False, mods=(str(folder),))
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(9, ItemStack("base:log", 20))
    box = (0, 10, 0)
    game.world.set_block(*box, game.world.registry.id("strongbox:box"))
    game.screens.open_container(Container(box, "Strongbox", 27))
    screen = game.inventory_screen
    game.screens.click(0)  # inventory slot 9
    game.screens.click(36)  # the box's first slot: a put, no on_put to fail
    assert screen.stored[0] == ItemStack("base:log", 20) and inventory.count("base:log") == 0
    game.screens.click(36, "right")  # half of it out: on_take fails
    assert game.last_outcome is not None and not game.last_outcome.done
    assert game.last_outcome.denied_by == "strongbox"
    assert "the lock jammed" in str(game.hud.message.text)
    held = decode_slots(game.world.meta(*box).get("inventory"), 27)
    assert held == screen.stored and held[0] == ItemStack("base:log", 20)
    assert inventory.carried[0] is None and inventory.count("base:log") == 0


def test_a_survival_player_splits_one_stack_of_planks_by_right_clicks_and_crafts_a_door(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    """Issue 38's acceptance, played by a script: one stack of 64 planks; a right click takes
    half of it into the hand, right clicks put one plank in each cell of a door's shape (two
    columns of three), the rest goes back onto the stack, and a shift-click on the output
    crafts the door into the inventory."""
    game = make_game(flat=True, creative=False)
    empty(game)
    replay(game, "chat /give_planks_64")
    inventory = game.hotbar.inventory
    assert inventory.slots[0] == ItemStack("base:planks", 64)  # the hotbar's first slot: cell 28
    replay(
        game,
        """
        inventory
        click_item 28 right   # half of the stack into the hand
        click_item 37 right   # one plank a cell
        click_item 38 right
        click_item 40 right
        click_item 41 right
        click_item 43 right
        click_item 44 right
        click_item 28         # the other 26 back onto the stack
        click_item 46 shift   # the output: crafted into the inventory
        inventory
        """,
    )
    assert inventory.count("base:door") == 3 and inventory.count("base:planks") == 58
    assert inventory.slots[0] == ItemStack("base:planks", 58)
    assert inventory.carried[0] is None and inventory.crafting == [None] * 9
    assert not game.inventory_screen.shown


def test_scripted_drags_spread_the_carried_stack_evenly_or_one_each(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(9, ItemStack("base:planks", 64))
    replay(game, "inventory\nclick_item 1\ndrag_item left 37 38 39 37 40 46")
    assert inventory.crafting[:4] == [ItemStack("base:planks", 16)] * 4  # the output: passed
    assert inventory.carried[0] is None
    replay(game, "click_item 37\ndrag_item right 2 3 4")  # 16 in hand: one each
    assert [inventory.slots[i] for i in (10, 11, 12)] == [ItemStack("base:planks", 1)] * 3
    assert inventory.carried[0] == ItemStack("base:planks", 13)
    replay(game, "drag_item left 5 6 7 8 9")  # 13 over five: two each, three stay held
    assert [inventory.slots[i] for i in range(13, 18)] == [ItemStack("base:planks", 2)] * 5
    assert inventory.carried[0] == ItemStack("base:planks", 3)


def test_shift_clicks_move_between_hotbar_and_inventory_and_into_and_out_of_a_chest(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=False)
    chest = _place_chest(game, replay)  # 20 logs in slot 9 (cell 1)
    inventory = game.hotbar.inventory
    replay(game, "inventory\nclick_item 1 shift")  # inventory -> the hotbar's first free slot
    assert inventory.slots[0] == ItemStack("base:log", 20) and inventory.slots[9] is None
    replay(game, "click_item 28 shift\ninventory")  # and back up
    assert inventory.slots[9] == ItemStack("base:log", 20) and inventory.slots[0] is None
    replay(game, "use\nclick_item 1 shift")  # into the chest
    assert game.inventory_screen.stored[0] == ItemStack("base:log", 20)
    assert inventory.count("base:log") == 0 and "base:log" in game.world.meta(*chest)["inventory"]
    replay(game, "click_item 37 shift")  # out: the hotbar's right end first, as Minecraft
    assert inventory.slots[8] == ItemStack("base:log", 20)
    assert "inventory" not in game.world.meta(*chest)


def test_the_mouse_drags_over_the_cells_it_crosses_and_shift_clicks_with_the_shift_key(
    app: Any, make_game: Callable[..., Any]
) -> None:
    """The mouse's path, not a script's: a right button held while the window's pointer moves
    over three grid cells, frame by frame, puts one plank in each; Shift held with a left click
    quick-moves a stack; hovering names it."""
    game = make_game(flat=True, creative=False)
    empty(game)
    inventory = game.hotbar.inventory
    inventory.put(9, ItemStack("base:planks", 10))
    pointer = SyntheticPointer(size=(400, 300))
    game.pointer = pointer
    game.input("e")
    app.step()
    screen = game.inventory_screen
    scale = float(screen.panel.scale_x)

    def point_at(cell: int) -> None:
        x, y = screen.cell_centre(cell)
        pointer.x = 200 + x * scale * 300
        pointer.y = 150 - y * scale * 300
        app.step()

    point_at(0)
    assert screen.tooltip.text == "planks"
    game.input("left mouse down")  # nothing carried: picked up at once
    game.input("left mouse up")
    assert inventory.carried[0] == ItemStack("base:planks", 10)
    point_at(36)
    game.input("right mouse down")  # carrying: a drag starts
    for cell in (37, 38):
        point_at(cell)
    game.input("right mouse up")
    assert inventory.crafting[:3] == [ItemStack("base:planks", 1)] * 3
    assert inventory.carried[0] == ItemStack("base:planks", 7)
    point_at(0)
    game.input("left mouse down")  # put the rest back
    game.input("left mouse up")
    game.input("left shift")
    game.input("left mouse down")  # Shift + click: up into the hotbar
    game.input("left mouse up")
    game.input("left shift up")
    assert inventory.slots[0] == ItemStack("base:planks", 7) and inventory.slots[9] is None


def test_the_number_keys_choose_the_hotbar_slot_in_the_picker_instead_of_typing(
    make_game: Callable[..., Any], replay: Replay, gem_mods: Path
) -> None:
    game = make_game(flat=True, creative=True, mods=(str(gem_mods),))
    replay(game, "inventory")
    screen = game.inventory_screen
    game.input("r")
    game.input("3")  # not typed: slot 3 chosen, the picker's clicks fill it
    game.input("u")
    assert screen.query == "ru" and game.hotbar.selected == 2
    replay(game, "click_item 1\ninventory\ninventory")
    assert game.hotbar.inventory.slots[2] == ItemStack("gems:ruby", 64)
    assert screen.query == "" and screen.search.text == "Search: _"  # cleared on opening
