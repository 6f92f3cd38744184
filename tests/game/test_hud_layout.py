"""The HUD fits any window: the layout arithmetic, and frames rendered offscreen at 400×800,
800×600 and 1600×500 (each reached by resizing the window the HUD was built in), read back
pixel by pixel: the hotbar whole and centred at the bottom, its icons showing only their own
icon's texels, the F3 text at the top-left corner, the pause menu whole, centred and above the
hotbar."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from PIL import Image

from game.hotbar import DEFAULT_BLOCKS
from game.hud_layout import (
    DEBUG_WIDTH,
    HOTBAR_HEIGHT,
    HOTBAR_WIDTH,
    HOTBAR_Y,
    MARGIN,
    fit_scale,
    hotbar_layout,
    top_left,
)
from world.base import default_registry
from world.blocks.atlas import ATLAS_PATH

from .conftest import SIZE

SIZES = [(400, 800), (800, 600), (1600, 500)]
BUILT_AT = (800, 600)
BACKGROUND = (128, 179, 255)  # a plain colour behind the HUD, nothing else drawn
Frame = NDArray[np.int64]


def test_a_piece_keeps_its_size_when_it_fits_and_shrinks_to_the_width_when_not() -> None:
    assert fit_scale(0.5, 16 / 9) == 1.0
    assert fit_scale(1.0, 0.5) == pytest.approx(0.5 - 2 * MARGIN)
    assert fit_scale(1.0, 0.01) == 0.0
    with pytest.raises(ValueError, match="width"):
        fit_scale(0.0, 1.0)
    with pytest.raises(ValueError, match="aspect"):
        fit_scale(1.0, -1.0)


@pytest.mark.parametrize("aspect", [0.3, 0.5, 0.75, 4 / 3, 3.2])
def test_the_hotbar_fits_the_width_and_keeps_its_bottom_edge(aspect: float) -> None:
    bar = hotbar_layout(aspect)
    assert bar.width <= aspect - 2 * MARGIN + 1e-9
    assert bar.scale == 1.0 or bar.width == pytest.approx(aspect - 2 * MARGIN)
    bottom = bar.y - HOTBAR_HEIGHT * bar.scale / 2
    assert bottom == pytest.approx(HOTBAR_Y - HOTBAR_HEIGHT / 2) and bottom > -0.5
    assert bar.slot_x(0) == pytest.approx(-bar.slot_x(8)) and bar.slot_x(4) == 0.0
    assert bar.top > bar.y


def test_the_top_left_corner_moves_with_the_window_width() -> None:
    assert top_left(2.0) == pytest.approx((-1.0 + MARGIN, 0.5 - MARGIN))
    assert top_left(0.5)[0] == pytest.approx(-0.25 + MARGIN)


def resize(app: Any, size: tuple[int, int]) -> None:
    """Resize the offscreen window, and the ui lens as ursina does for a window's resize."""
    from ursina import camera, window

    app.win.setSize(*size)
    camera.ui_lens.set_film_size(camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5)


def frame_of(app: Any) -> Frame:
    from game.engine import grab_frame

    for _ in range(2):
        app.step()
    return grab_frame(app).astype(np.int64)


def single_items(hotbar: Any) -> Any:
    """One item per slot: no count is drawn over the icons the pixel checks look at."""
    from world.items.inventory import ItemStack

    for slot, stack in enumerate(hotbar.inventory.hotbar):
        if stack is not None:
            hotbar.inventory.put(slot, ItemStack(stack.item, 1))
    return hotbar


@pytest.fixture
def pieces(app: Any) -> Iterator[dict[str, Any]]:
    """A HUD, an F3 overlay showing a long line and a pause menu, built at `BUILT_AT`."""
    from ursina import color, window

    from game.debug import DebugOverlay, DebugSnapshot
    from game.hotbar import Hotbar
    from game.hud import Hud
    from game.menu import PauseMenu
    from game.user_settings import Settings
    from world.ray import Hit

    saved = window.color
    window.color = color.rgb32(*BACKGROUND)
    resize(app, BUILT_AT)
    registry = default_registry()
    with Image.open(ATLAS_PATH) as image:
        atlas = np.asarray(image.convert("RGBA"))
    hit = Hit(
        block=(-1234, 56, -7890),
        face=(0, 0, 1),
        distance=4.25,
        point=(0.5, 0.5, 1.0),
        block_id=1,
    )
    snapshot = DebugSnapshot(
        python_ms=1.0, position=(-1234.5, 56.0, -7890.5), yaw=0.0, pitch=0.0, target=hit,
        target_name="base:grass", loaded=1, meshed=1, queued=0, creative=False, flying=False,
        mods=("lamp", "tnt"), mod_errors=0,
    )  # fmt: skip
    built = {
        "hud": Hud(registry, single_items(Hotbar.default(registry)), atlas),
        "debug": DebugOverlay(lambda: snapshot),
        "menu": PauseMenu(Settings(), on_change=print, on_resume=print, on_quit=print),
        "registry": registry,
    }
    try:
        yield built
    finally:
        for name in ("hud", "debug", "menu"):
            built[name].destroy()
        window.color = saved
        resize(app, SIZE)
        app.step()


def not_background(frame: Frame) -> NDArray[np.bool_]:
    return np.abs(frame - np.array(BACKGROUND)).max(axis=2) > 6


def columns(mask: NDArray[np.bool_]) -> tuple[int, int]:
    found = np.nonzero(mask.any(axis=0))[0]
    assert len(found), "nothing drawn there"
    return int(found[0]), int(found[-1])


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_hotbar_is_whole_centred_and_at_the_bottom(
    app: Any, pieces: dict[str, Any], size: tuple[int, int]
) -> None:
    width, height = size
    resize(app, size)
    frame = frame_of(app)
    bar = hotbar_layout(width / height)
    centre_row = round((0.5 - bar.y) * height)
    band = not_background(frame[centre_row - 2 : centre_row + 3])
    left, right = columns(band)
    assert left > 0 and right < width - 1  # both ends inside the window
    assert abs((left + right) / 2 - (width - 1) / 2) <= 2  # centred
    assert right - left + 1 == pytest.approx(bar.width * height, abs=3)
    assert not not_background(frame[height - 2 :]).any()  # a gap under it
    crosshair = frame[height // 2 - 1 : height // 2 + 1, width // 2 - 1 : width // 2 + 1]
    assert crosshair.min() > 200  # the crosshair at the centre


def icon_colours(hud: Any, name: str) -> Frame:
    icon = hud.icon(name).astype(np.int64)
    opaque = icon[..., 3] == 255
    assert (icon[..., 3][~opaque] == 0).all()  # clear or opaque: what is drawn is the texel
    return np.unique(icon[opaque][:, :3], axis=0)


@pytest.mark.parametrize("size", [*SIZES, (1200, 500)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_hotbar_icons_show_only_their_own_icon(
    app: Any, pieces: dict[str, Any], size: tuple[int, int]
) -> None:
    from game.hud import ICON_SIZE

    width, height = size
    hud = pieces["hud"]
    hud.hotbar.select(8)  # the selection frame away from the icons looked at
    hud.refresh_hotbar()
    resize(app, size)
    frame = frame_of(app)
    bar = hotbar_layout(width / height)
    backing = np.array(BACKGROUND) * 0.55  # the hotbar's black backing, 45 % opaque
    slot = 0.9 * 0.25 * 255 + 0.1 * backing  # a slot's grey over it
    row = (0.5 - bar.y) * height
    half = ICON_SIZE * bar.scale * height / 2
    for index, name in enumerate(DEFAULT_BLOCKS[:7]):
        if name == "base:glass":
            continue  # see-through: the slot shows through it
        colours = icon_colours(hud, name)
        col = width / 2 + bar.slot_x(index) * height
        box = frame[
            round(row - half) - 2 : round(row + half) + 3,
            round(col - half) - 2 : round(col + half) + 3,
        ].reshape(-1, 3)
        to_icon = np.abs(box[:, None, :] - colours[None]).max(axis=2).min(axis=1)
        is_slot = np.abs(box - slot).max(axis=1) <= 4
        stray = box[(to_icon > 2) & ~is_slot]
        assert len(stray) == 0, (name, stray[:5])  # nothing of a neighbour's icon
        assert (to_icon <= 2).sum() >= 0.5 * (2 * half) ** 2  # the block is there, a cube


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_f3_text_follows_the_top_left_corner_and_fits(
    app: Any, pieces: dict[str, Any], size: tuple[int, int]
) -> None:
    width, height = size
    pieces["debug"].toggle()
    resize(app, size)
    frame = frame_of(app)
    top_half = not_background(frame[: height // 2])
    left, right = columns(top_half)
    top = int(np.nonzero(top_half.any(axis=1))[0][0])
    corner = round(MARGIN * height)
    assert 0 < left <= corner and 0 < top <= corner  # the backing's corner, near the window's
    assert right < width - 1  # the longest line is not cut off
    scale = fit_scale(DEBUG_WIDTH, width / height)
    assert pieces["debug"].panel.scale_x == pytest.approx(scale)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_pause_menu_is_whole_and_centred(
    app: Any, pieces: dict[str, Any], size: tuple[int, int]
) -> None:
    from game.menu import MENU_WIDTH, STEPPED, WIDE

    width, height = size
    pieces["menu"].open(pieces["menu"].settings)
    resize(app, size)
    frame = frame_of(app)
    dimmed = np.round(np.array(BACKGROUND) * 0.45)
    assert (np.abs(frame[2:6, 2:6] - dimmed).max(axis=2) <= 3).all()  # dimmed to the corner
    above_hotbar = frame[: round((0.5 - hotbar_layout(width / height).top) * height) - 4]
    grey = (np.ptp(above_hotbar, axis=2) <= 4) & (above_hotbar[..., 0] < 120)
    left, right = columns(grey)  # the buttons
    assert left > 0 and right < width - 1
    assert abs((left + right) / 2 - (width - 1) / 2) <= 2
    # Down a column inside the buttons' left edge (clear of the crosshair), every row is whole
    # above the hotbar: back to game, the stepped settings, the mode, save and quit.
    x = round(width / 2 - (WIDE / 2 - 0.01) * fit_scale(MENU_WIDTH, width / height) * height)
    column = grey[:, x].astype(np.int8)
    assert column[0] == 0 and column[-1] == 0
    assert np.count_nonzero(np.diff(column) == 1) == len(STEPPED) + 3


def test_a_game_lays_its_hud_out_again_when_the_window_is_resized(
    app: Any, make_game: Any, replay: Any
) -> None:
    game = make_game(flat=True)
    try:
        resize(app, (400, 800))
        replay(game, "wait 2")
        bar = hotbar_layout(0.5)
        assert game.hud.bar.scale_x == pytest.approx(bar.scale) and bar.scale < 1
        assert game.hud.bar.y == pytest.approx(bar.y)
        assert bar.width < 0.5 < HOTBAR_WIDTH
    finally:
        resize(app, SIZE)


def test_an_f3_line_longer_than_usual_shrinks_the_text_until_it_is_gone(app: Any) -> None:
    from ursina import color, window

    from game.debug import DebugOverlay, DebugSnapshot

    mods = [tuple(f"a_mod_with_a_long_name_{n}" for n in range(6))]

    def snapshot() -> DebugSnapshot:
        return DebugSnapshot(
            python_ms=1.0, position=(0.5, 4.0, 0.5), yaw=0.0, pitch=0.0, target=None,
            target_name=None, loaded=1, meshed=1, queued=0, creative=False, flying=False,
            mods=mods[0], mod_errors=0,
        )  # fmt: skip

    saved = window.color
    window.color = color.rgb32(*BACKGROUND)
    overlay = DebugOverlay(snapshot)
    try:
        resize(app, (400, 800))
        overlay.toggle()
        frame = frame_of(app)
        usual = fit_scale(DEBUG_WIDTH, 0.5)
        assert overlay.panel.scale_x < usual
        assert columns(not_background(frame[:400]))[1] < 400 - 1  # the long line fits
        mods[0] = ("lamp",)
        overlay.refresh()
        assert overlay.panel.scale_x == pytest.approx(usual)
    finally:
        overlay.destroy()
        window.color = saved
        resize(app, SIZE)


def test_a_long_message_shrinks_to_fit_above_the_hotbar(app: Any, pieces: dict[str, Any]) -> None:
    width, height = 400, 800
    resize(app, (width, height))
    pieces["hud"].flash("a mod failed: " + "a long reason, " * 6)
    frame = frame_of(app)
    above_hotbar = frame[: round((0.5 - hotbar_layout(width / height).top) * height)]
    yellow = (np.abs(above_hotbar - np.array([255, 235, 153])).max(axis=2) <= 40) & (
        above_hotbar[..., 2] < above_hotbar[..., 0] - 40
    )
    left, right = columns(yellow)
    assert left > 0 and right < width - 1  # the whole message in the window
    assert pieces["hud"].message.scale_x < 1
