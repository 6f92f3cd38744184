"""Block-break particles (`game.particles`): pieces of the broken block's colour that fly,
fall and go within a second, bounded in number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from game.engine import grab_frame
from game.particles import MAX_PARTICLES, PER_BLOCK
from world.blocks.atlas import tile_pixel_box

Replay = Callable[[Any, str], None]


def test_a_broken_block_scatters_pieces_of_its_colour_that_fall_and_go(
    app: Any, make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "look 0 50\nwait 2")
    target = game.target
    assert target is not None
    grass = game.world.get_block(*target.block)
    replay(game, "break")
    pieces = game.particles.pieces
    assert len(pieces) == PER_BLOCK
    x, y, z = target.block
    assert all(x <= p.pos[0] <= x + 1 and y <= p.pos[1] <= y + 1 for p in pieces)
    assert all(z <= p.pos[2] <= z + 1 for p in pieces)  # they start inside the block
    # Their colour is the mean of the grass block's side tile (dirt under a green edge).
    left, top, right, bottom = tile_pixel_box(int(game.world.registry.face_tiles[grass][0]))
    tile = game.atlas_pixels[top:bottom, left:right, :3].reshape(-1, 3).mean(axis=0) / 255
    assert tuple(pieces[0].entity.color)[:3] == pytest.approx(tuple(tile), abs=1e-3)
    heights = [p.pos[1] for p in pieces]
    replay(game, "wait 6")
    assert [p.pos[1] for p in pieces] != heights  # they move
    # On screen: the pieces are drawn (their pixels go when they are hidden).
    with_pieces = grab_frame(app).astype(int)
    for piece in pieces:
        piece.entity.enabled = False
    replay(game, "wait 1")
    changed = np.abs(grab_frame(app).astype(int) - with_pieces).max(axis=2) > 10
    assert changed.sum() > 50
    replay(game, "wait 60")  # a second: every piece is gone
    assert game.particles.pieces == []
    assert len(game.particles.node.children) == 0


def test_pieces_are_bounded_however_many_blocks_break_at_once(
    make_game: Callable[..., Any],
) -> None:
    game = make_game(flat=True, creative=True)
    stone = game.world.registry.id("base:stone")
    placed = len(game.origin)
    for n in range(40):
        game.particles.burst((n, 3, 0), stone)
        assert len(game.particles.pieces) <= MAX_PARTICLES
    assert len(game.particles.pieces) == MAX_PARTICLES
    assert len(game.particles.node.children) == MAX_PARTICLES  # the oldest were removed
    assert len(game.origin) == placed + MAX_PARTICLES  # the removed ones forgotten by it too
