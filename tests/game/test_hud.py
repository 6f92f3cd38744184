"""The HUD's message line: a mod's error is shown once, in full, and the game keeps running; the
info text of the block pointed at; the hotbar's icons, the inventory screen's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.game.runs import stone_in_view

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]


def record_flashes(game: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    flash = game.hud.flash

    def recording(text: str, *args: Any) -> None:
        shown.append(text)
        flash(text, *args)

    monkeypatch.setattr(game.hud, "flash", recording)
    return shown


def test_a_mod_failing_every_tick_is_shown_once(
    tmp_path: Path, make_game: Make, replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ticker.py").write_text(
        "from world.mods.hooks import hookimpl\n\n"
        "@hookimpl\n"
        "def on_tick(world, dt):\n"
        "    raise RuntimeError('the ticker broke')\n"
    )
    game = make_game(flat=True, mods=(tmp_path,))
    shown = record_flashes(game, monkeypatch)
    replay(game, "look 0 0\nmove 1 0 60")  # a second of frames, each calling the hook
    errors = [text for text in shown if "the ticker broke" in text]
    assert len(errors) == 1
    assert "ticker" in errors[0] and "on_tick" in errors[0]
    # After ten failures the breaker switched it off, and says so last: once, with the way back.
    switched_off = [text for text in shown if "/mods enable ticker" in text]
    assert len(switched_off) == 1
    assert game.hud.message.enabled and "/mods enable ticker" in game.hud.message.text
    assert game.player.body.pos[2] > 2.0  # the game went on: the player walked


def test_a_mod_failing_on_every_break_is_shown_in_full_once(
    tmp_path: Path, make_game: Make, replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "brittle.py").write_text(
        "from world.mods.hooks import hookimpl\n\n"
        "@hookimpl\n"
        "def can_break(pos, block, actor):\n"
        "    raise ValueError('brittle cannot decide')\n"
    )
    game = make_game(flat=True, creative=True, mods=(tmp_path,))
    shown = record_flashes(game, monkeypatch)
    replay(game, "look 0 90\nwait 1")
    cell = game.target.block
    before = game.world.get_block(*cell)
    replay(game, "break\nwait 30\nbreak\nwait 30\nbreak")
    assert game.world.get_block(*cell) == before  # denied: nothing lost
    full = [text for text in shown if "brittle cannot decide" in text]
    assert len(full) == 1 and "can_break" in full[0]
    repeats = [text for text in shown if text not in full]
    assert len(repeats) == 2 and all("brittle" in text for text in repeats)
    assert len(game.mods.errors) == 1


def test_messages_stack_newest_at_the_bottom_and_fade_away(make_game: Make) -> None:
    from game.hud import FADE_SECONDS, MAX_MESSAGES

    game = make_game(flat=True)
    hud = game.hud
    for n in range(MAX_MESSAGES + 2):
        hud.flash(f"message {n}", seconds=1.0 + n)
    texts = [line.text for line, _ in hud.older]
    assert hud.message.text == f"message {MAX_MESSAGES + 1}"
    assert texts == [f"message {n}" for n in range(MAX_MESSAGES, 1, -1)]  # at most 5 lines
    ys = [hud.message.y, *(line.y for line, _ in hud.older)]
    assert ys == sorted(ys)  # each older line above the newer one
    hud.update(2.5 + FADE_SECONDS / 2)  # "message 2" had 3 s: now fading
    fading = [line for line, _ in hud.older if line.text == "message 2"]
    assert fading and 0.0 < fading[0].alpha < 1.0
    hud.update(1.0)
    assert "message 2" not in [line.text for line, _ in hud.older]  # gone
    hud.update(10.0)
    assert hud.older == [] and not hud.message.enabled


def test_a_new_selection_shows_the_held_item_s_name_once_however_fast_the_wheel_turns(
    make_game: Make, replay: Replay
) -> None:
    from world.items.inventory import ItemStack

    game = make_game(flat=True, creative=True)
    hud = game.hud
    hud.flash("a mod said this")
    game.hotbar.inventory.put(2, ItemStack("tools:stone_pickaxe", 1))
    game.hotbar.inventory.put(3, None)
    replay(game, "select 3")
    assert hud.item_name.text == "stone pickaxe" and hud.item_name.enabled  # its description
    assert hud.message.text == "a mod said this" and hud.older == []  # messages stay put
    replay(game, "scroll -1\nscroll -1")  # slots 2 and 1: blocks' descriptions
    names = [game.world.registry[s.item].description for s in game.hotbar.inventory.slots[:2]]
    assert hud.item_name.text == names[0]  # each name replaced the last
    assert hud.message.text == "a mod said this" and hud.older == []
    replay(game, "select 4")  # an empty slot: nothing new is said
    assert hud.item_name.text == names[0]
    assert hud.item_name.x == 0.0  # centred above the hotbar, as Minecraft's
    hud.update(5.0)
    assert not hud.item_name.enabled


def test_messages_sit_at_the_bottom_left_on_dark_bands_readable_over_sand(
    app: Any, make_game: Make, replay: Replay
) -> None:
    """Minecraft's chat corner (issue 38, item 12): not in the middle of the view, each line on
    a band of black at half opacity, so a yellow line over sand still reads."""
    from ursina import window

    from game.engine import grab_frame

    game = make_game(flat=True, creative=True)
    sand = game.world.registry.id("base:sand")
    x, y, z = (int(v) for v in game.player.body.pos)
    game.world.set_blocks(
        np.array([(x + dx, y - 1, z + dz) for dx in range(-6, 7) for dz in range(-6, 7)]), sand
    )
    replay(game, "look 0 90\nwait 30")  # looking down at the sand
    before = grab_frame(app)
    hud = game.hud
    for n in range(3):
        hud.flash(f"mod error number {n}: a line long enough to cross the sand")
    replay(game, "wait 1")
    after = grab_frame(app)
    aspect = float(window.aspect_ratio)
    lines = [hud.message, *(line for line, _ in hud.older)]
    for line in lines:
        assert line.x < -aspect / 2 + 0.05  # from the window's left edge
        assert line.y < -0.25  # low on the screen, above the hotbar
        assert line._background is not None  # its band
    height, width = after.shape[:2]
    # The band round the newest line: from its left edge, over the first third of the screen.
    top = round((0.5 - (hud.message.y + float(hud.message.height) * hud.message.scale_y)) * height)
    bottom = round((0.5 - hud.message.y) * height)
    left = round((hud.message.x + aspect / 2) * height)
    region = (slice(top, bottom), slice(left, left + width // 3))
    lum_before = before[region].astype(float).mean()
    lum_after = after[region].astype(float).mean()
    assert lum_after < lum_before * 0.75, (lum_before, lum_after)  # the sand behind is dimmed


def test_the_crosshair_and_the_hotbar_draw_as_one_geom_each_whatever_the_slots_hold(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "select 3\nscroll 2\nwait 2")

    def drawn_geoms() -> int:  # text (the counts) is a TextNode of its own, not counted
        nodes = game.hud.root.findAllMatches("**/+GeomNode")
        return sum(path.node().getNumGeoms() for path in nodes if not path.isHidden())

    assert drawn_geoms() == 2  # the crosshair, and the hotbar's backing, frame, slots and icons
    assert game.hud.selection_x == pytest.approx(game.hud.slot_x[4])
    game.hotbar.inventory.put(7, None)
    game.hud.refresh_hotbar()
    assert drawn_geoms() == 2 and game.hud.icons[7] is None


def test_the_pointed_block_s_infotext_shows_at_the_top_until_the_player_looks_away(
    make_game: Make, replay: Replay
) -> None:
    from ursina import window

    from world.voxels.block_data import INFOTEXT, MAX_INFOTEXT_LINE

    game = make_game(flat=True, creative=True)
    replay(game, "look 0 50\nwait 1")
    cell = game.target.block
    shown = game.hud.infotext
    assert not shown.enabled  # nothing to show
    game.world.meta(*cell)[INFOTEXT] = "Chest <red>\nempty"
    replay(game, "wait 1")
    assert shown.enabled and shown.text == "Chest <red>\nempty"  # as written: no colour tags
    assert shown.y > 0.4  # at the top of the screen
    game.world.meta(*cell)[INFOTEXT] = "x" * (5 * MAX_INFOTEXT_LINE)
    replay(game, "wait 1")
    assert shown.text == "x" * (MAX_INFOTEXT_LINE - 1) + "…"
    assert float(shown.width) * float(shown.scale_x) <= window.aspect_ratio  # fits the window
    game.world.meta(*cell)[INFOTEXT] = b"bytes"  # not text: nothing shown
    replay(game, "wait 1")
    assert not shown.enabled
    game.world.meta(*cell)[INFOTEXT] = 42
    replay(game, "wait 1")
    assert shown.enabled and shown.text == "42"
    replay(game, "look 0 -60\nwait 1")  # the sky: no block pointed at
    assert game.target is None and not shown.enabled
    replay(game, "look 0 50\nwait 1")
    assert shown.enabled and shown.text == "42"
    game.world.set_block(*cell, 0)  # broken: its data goes with it
    replay(game, "wait 1")
    assert game.target is None or tuple(game.target.block) != tuple(cell)
    assert not shown.enabled


def _texture_rgba(texture: Any) -> Any:
    """A Panda3D texture's image, (height, width, 4) RGBA, bottom row first as Panda3D keeps it."""
    import numpy as np

    image = np.frombuffer(bytes(texture.getRamImageAs("RGBA")), dtype=np.uint8)
    return image.reshape(texture.getYSize(), texture.getXSize(), 4)


def _crop(image: Any, uv: Any) -> Any:
    """The texels of a uv box (u0, v0, u1, v1) of an image kept bottom row first."""
    height, width = image.shape[:2]
    sizes = (width, height) * 2
    u0, v0, u1, v1 = (round(float(c) * size) for c, size in zip(uv, sizes, strict=True))
    return image[v0:v1, u0:u1]


def test_the_hotbar_draws_each_item_with_the_inventory_screen_s_icon(
    make_game: Make, replay: Replay
) -> None:
    """A fence, stairs, a slab and a furnace in the hotbar look as they do in the inventory
    screen (their shape, seen from above a corner, faces shaded by direction), not as a flat
    tile of planks or stone; an item that is no block (a hoe) as its flat image, as there."""
    import numpy as np
    from panda3d.core import GeomVertexReader

    from world.items.inventory import ItemStack

    game = make_game(flat=True, creative=True)
    items = ["base:fence", "base:planks_stairs", "base:stone_slab", "furnace:furnace"]
    items.append("farming:hoe")
    for slot, item in enumerate(items):
        game.hotbar.inventory.put(slot, ItemStack(item, 5))
    for slot in range(len(items), 9):
        game.hotbar.inventory.put(slot, None)
    replay(game, "inventory\nwait 1\ninventory\nwait 1")  # the screen's icons: made on opening
    screen = game.inventory_screen
    listed = _texture_rgba(screen._sheet)
    # The hotbar as drawn: its one geom's quads, the icons last, one a slot holding an item.
    geom = game.hud.pieces.node().getGeom(0)
    reader = GeomVertexReader(geom.getVertexData(), "texcoord")
    uvs = []
    while not reader.isAtEnd():
        uv = reader.getData2()
        uvs.append((uv[0], uv[1]))
    icon_boxes = np.array(uvs).reshape(-1, 4, 2)[-len(items) :]
    drawn = _texture_rgba(game.hud.sheet)
    registry = game.world.registry
    for item, corners in zip(items, icon_boxes, strict=True):
        box = (*corners.min(axis=0), *corners.max(axis=0))
        icon = _crop(drawn, box)
        assert np.array_equal(icon, _crop(listed, screen._icon_uv(screen._icon_index[item])))
        if item in registry:  # a block's shape: clear round it, and its top and sides apart
            opaque = icon[..., 3] == 255
            assert 0.05 < opaque.mean() < 0.9, item  # a flat tile would fill the square
            assert len({int(v) for v in icon[opaque][:, :3].max(axis=1) // 16}) > 3, item
    assert [text.text for text in game.hud.counts[: len(items)]] == ["5"] * len(items)


def _hotbar_quads(game: Any) -> list[tuple[Any, tuple[int, ...]]]:
    """The hotbar's quads as drawn: each one's corners (4, 3) and its colour (RGBA 0..255)."""
    import numpy as np
    from panda3d.core import GeomVertexReader

    geom = game.hud.pieces.node().getGeom(0)
    where = GeomVertexReader(geom.getVertexData(), "vertex")
    paint = GeomVertexReader(geom.getVertexData(), "color")
    corners, colours = [], []
    while not where.isAtEnd():
        corners.append(tuple(where.getData3()))
        colours.append(tuple(round(c * 255) for c in paint.getData4()))
    quads = np.array(corners).reshape(-1, 4, 3)
    return [(quad, colours[4 * i]) for i, quad in enumerate(quads)]


def test_a_survival_break_wears_the_held_pickaxe_and_the_hotbar_draws_its_bar(
    make_game: Make, replay: Replay, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Minecraft's bar under a worn tool's icon: black, 13/16 of the icon wide, and over it a
    coloured one as long as the uses left, green when many are; none for a tool not worn. The
    last use breaks the pickaxe: its slot empties, the bar goes, the player is told."""
    from game.hud import ICON_SIZE
    from world.items.inventory import INVENTORY_SLOTS, ItemStack

    game = make_game(flat=True, creative=False)
    game.hotbar.inventory.slots[:] = [None] * INVENTORY_SLOTS
    game.hotbar.inventory.put(0, ItemStack("tools:wood_pickaxe", 1))
    replay(game, "select 1")
    target = stone_in_view(game, replay)
    black, white = (0, 0, 0, 255), (255, 255, 255, 255)
    assert not [q for q, colour in _hotbar_quads(game) if colour == black]  # not worn: no bar
    replay(game, "wait 2\nbreak 60")  # 0.75 s with a wooden pickaxe
    assert game.world.get_block(*target.block) == 0
    assert game.hotbar.inventory.slots[0] == ItemStack("tools:wood_pickaxe", 1, 1)
    quads = _hotbar_quads(game)
    (bar,) = [quad for quad, colour in quads if colour == black]
    ((used, colour),) = [(q, c) for q, c in quads if c[3] == 255 and c not in (black, white)]
    x0, x1 = bar[:, 0].min(), bar[:, 0].max()
    assert x1 - x0 == pytest.approx(13 / 16 * ICON_SIZE)  # in the hotbar's own units
    assert (x0 + x1) / 2 == pytest.approx(game.hud.slot_x[0] + 0.5 / 16 * ICON_SIZE)
    assert bar[:, 1].max() == pytest.approx(-ICON_SIZE / 2 + 3 / 16 * ICON_SIZE)  # at the bottom
    assert used[:, 0].max() - used[:, 0].min() == pytest.approx(13 / 16 * ICON_SIZE)  # 58 of 59
    assert colour[1] == 255 and colour[2] == 0 and colour[0] < 20  # green: many uses left
    shown = record_flashes(game, monkeypatch)
    game.hotbar.inventory.put(0, ItemStack("tools:wood_pickaxe", 1, 58))  # one use left
    game.world.set_block(*target.block, game.world.registry.id("base:stone"))
    game.chunks.remesh_dirty()
    replay(game, "wait 20\nbreak 60")
    assert game.world.get_block(*target.block) == 0
    assert game.hotbar.inventory.slots[0] is None  # broken
    assert shown == ["your wooden pickaxe broke"]
    assert not [q for q, colour in _hotbar_quads(game) if colour == black]
