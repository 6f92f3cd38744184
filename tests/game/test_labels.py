"""A sign's text drawn on its board (`game.labels`, from the block type's
`world.blocks.labels.Label`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from panda3d.core import TextNode

from game.engine import grab_frame
from game.labels import LABEL_DISTANCE, MAX_LABELS
from world.blocks.labels import label_place
from world.items.inventory import ItemStack

Replay = Callable[[Any, str], None]


def _place_sign(game: Any, replay: Replay) -> tuple[int, int, int]:
    """A sign placed in front of the player (flat world, looking along +z), and looked at."""
    game.hotbar.inventory.put(0, ItemStack("signs:sign", 1))
    replay(game, "select 1\nlook 0 50\nwait 2\nplace\nwait 2")
    placed = [c.pos for c in game.last_outcome.changes if c.new != 0]
    assert placed, game.last_outcome.reason
    assert game.text_screen.shown  # its editor opens at once: Escape leaves it blank
    replay(game, "key escape\nlook 0 35\nwait 2")
    assert game.target is not None and tuple(game.target.block) == tuple(placed[0])
    return tuple(placed[0])


def _drawn(game: Any) -> dict[tuple[int, int, int], Any]:
    """The labels drawn now, by voxel: their anchor nodes."""
    return {
        pos: shown.node
        for found in game.labels._by_chunk.values()
        for pos, shown in found.items()
        if shown.node is not None
    }


def _text(node: Any) -> str:
    text_node = node.getChild(0).node()
    assert isinstance(text_node, TextNode)
    return str(text_node.getText())


def _darker(before: np.ndarray, after: np.ndarray) -> int:
    """Pixels that went much darker (black letters on the board's light planks)."""
    return int((before.astype(int).sum(axis=2) - after.astype(int).sum(axis=2) > 150).sum())


def test_a_sign_s_text_is_drawn_on_its_board_and_follows_its_edits(
    app: Any, make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    sign = _place_sign(game, replay)
    assert _drawn(game) == {}  # a new sign is blank: nothing is drawn
    blank = grab_frame(app)

    game.world.meta(*sign)["text"] = "Keep out\nof the farm"  # as a mod writes it
    replay(game, "wait 1")
    (node,) = _drawn(game).values()
    assert _text(node) == "Keep out\nof the farm"
    state = game.world.get_block(*sign)
    facing = game.world.registry.props(state)["facing"]
    label = game.world.registry.block_of(state).label
    centre = label_place(label, facing).centre
    expected = [sign[axis] + centre[axis] - game.origin.origin[axis] for axis in range(3)]
    assert list(node.getPos()) == [float(np.float32(v)) for v in expected]
    # On the screen: the letters are dark pixels on the board, where the blank sign had none.
    written = grab_frame(app)
    assert _darker(blank, written) > 150
    rows, cols = np.nonzero((written.astype(int) - blank.astype(int)).any(axis=2))
    height, width = written.shape[:2]
    assert abs(cols.mean() - width / 2) < width / 10  # the sign is straight ahead
    assert rows.mean() > height / 2  # and below the eye

    game.world.meta(*sign)["text"] = "Welcome"
    replay(game, "wait 1")
    assert _text(_drawn(game)[sign]) == "Welcome"
    game.world.meta(*sign)["text"] = b"bytes"  # a value that is not text: nothing drawn
    replay(game, "wait 1")
    assert _drawn(game) == {}
    game.world.meta(*sign)["text"] = "Back"
    replay(game, "wait 1")
    assert _text(_drawn(game)[sign]) == "Back"
    replay(game, "break\nwait 2")
    assert game.world.get_block(*sign) == 0
    assert _drawn(game) == {} and sign not in {
        pos for found in game.labels._by_chunk.values() for pos in found
    }


def test_the_text_is_seen_from_the_front_only_on_each_facing(
    app: Any, make_game: Callable[..., Any], replay: Replay
) -> None:
    """A sign placed looking each way faces the player; its text reads from the front, and its
    back shows none (Minecraft's one-sided sign text)."""
    game = make_game(flat=True, creative=True)
    game.hotbar.inventory.put(0, ItemStack("signs:sign", 4))
    for yaw in (0, 90, 180, 270):
        replay(game, f"teleport 0.5 4 0.5\nselect 1\nlook {yaw} 50\nwait 2\nplace\nwait 2")
        sign = next(c.pos for c in game.last_outcome.changes if c.new != 0)
        replay(game, f"key escape\nlook {yaw} 20\nwait 2")  # the editor opened: left blank
        before = grab_frame(app)
        game.world.meta(*sign)["text"] = "Hello\nWorld"
        replay(game, "wait 1")
        assert _darker(before, grab_frame(app)) > 60, yaw
        # From behind: two blocks past the sign, looking back at it (it is targeted: in view).
        dx, dz = sign[0], sign[2]
        replay(game, f"teleport {0.5 + 2 * dx} 4 {0.5 + 2 * dz}\nlook {yaw + 180} 35\nwait 2")
        assert game.target is not None and tuple(game.target.block) == tuple(sign), yaw
        with_text = grab_frame(app)
        game.world.meta(*sign)["text"] = ""
        replay(game, "wait 1")
        assert _darker(grab_frame(app), with_text) < 10, yaw
        replay(game, "break\nwait 2")
        assert game.world.get_block(*sign) == 0, yaw


def test_labels_are_drawn_near_the_eye_and_a_bounded_number_at_most(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    sign = _place_sign(game, replay)
    game.world.meta(*sign)["text"] = "Near"
    replay(game, "wait 1")
    assert sign in _drawn(game)
    # Past the distance (on the same flat ground, still loaded): no longer drawn; back: drawn.
    far = LABEL_DISTANCE + 4.0
    replay(game, f"teleport {sign[0] + 0.5} 4 {sign[2] - far}\nwait 1")
    assert _drawn(game) == {}
    replay(game, f"teleport {sign[0] + 0.5} 4 {sign[2] - 3.0}\nwait 1")
    assert _text(_drawn(game)[sign]) == "Near"

    # A field of signs, more than the bound: only the bound is looked at and drawn.
    world = game.world
    state = world.get_block(*sign)
    field = [(x, 5, z) for x in range(-12, 12) for z in range(6, 20)]
    assert len(field) > MAX_LABELS
    world.set_blocks(np.array(field), np.full(len(field), state, dtype=np.uint16))
    for pos in field:
        world.meta(*pos)["text"] = f"{pos[0]},{pos[2]}"
    game.chunks.remesh_dirty()
    replay(game, "wait 2")
    assert len(_drawn(game)) == MAX_LABELS == len(game.labels)


def test_a_chunk_no_longer_drawn_takes_its_labels_and_brings_them_back(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    sign = _place_sign(game, replay)
    game.world.meta(*sign)["text"] = "Home"
    replay(game, "wait 1")
    key = (sign[0] >> 4, sign[1] >> 4, sign[2] >> 4)
    assert key in game.labels._by_chunk and sign in _drawn(game)
    # Far away: the chunk is dropped from the view (and unloaded), its label with it.
    replay(game, "teleport 400.5 4 0.5\nwait 30")
    assert key not in game.chunks.entities
    assert key not in game.labels._by_chunk and _drawn(game) == {}
    # Back: the chunk is loaded again (from memory or the save) with the sign and its text.
    replay(game, f"teleport {sign[0] + 0.5} 4 {sign[2] - 3.0}\nwait 30")
    assert key in game.chunks.entities
    assert _text(_drawn(game)[sign]) == "Home"
