"""Shaped blocks in play, headless: the body walks up a slab, a door opens to the click and its
collision follows, placing picks the slab's half and the stairs' facing from the click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4  # the flat world's feet height


def test_walking_onto_a_slab_steps_up_without_jumping(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=False)
    slab = game.world.registry.state_id("base:stone_slab", half="bottom")
    for x in range(-1, 2):
        for z in range(2, 6):
            game.world.set_block(x, GROUND, z, slab)
    replay(game, "look 0 0\nmove 1 0 60")  # a second toward +z, never pressing jump
    x, y, z = game.player.body.pos
    assert z > 2.5 and y == GROUND + 0.5  # standing on the slab's top
    stone = game.world.registry.id("base:stone")
    for x in range(-1, 2):  # a full block ahead: no step-up, the body stops
        game.world.set_block(x, GROUND, 7, stone)
        game.world.set_block(x, GROUND + 1, 7, stone)
    replay(game, "move 1 0 60")
    assert game.player.body.pos[2] < 7.0 - 0.29


def test_a_door_opens_on_a_right_click_and_its_collision_follows(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    registry = game.world.registry
    game.hotbar.inventory.put(0, None)
    replay(game, "select 1")
    from world.items.inventory import ItemStack

    game.hotbar.inventory.put(0, ItemStack("base:door", 64))
    replay(game, "look 0 60\nwait 2")
    target = game.target
    assert target is not None and target.face == (0, 1, 0)
    at = target.block + target.face
    replay(game, "place")
    lower, upper = game.world.get_block(*at), game.world.get_block(at.x, at.y + 1, at.z)
    assert registry.name(lower) == registry.name(upper) == "base:door"
    assert registry.props(lower)["facing"] == "south"  # facing the way the player looked (+z)
    closed = registry.collision_boxes[lower]
    replay(game, "wait 2")  # now the door is in the way: either half is targeted
    assert game.target is not None
    assert tuple(game.target.block) in {tuple(at), (at.x, at.y + 1, at.z)}
    replay(game, "use")
    opened = game.world.get_block(*at)
    assert registry.props(opened)["open"] is True
    assert registry.props(game.world.get_block(at.x, at.y + 1, at.z))["open"] is True
    assert registry.collision_boxes[opened] != closed  # the panel swung to the side


def test_a_slab_takes_the_half_clicked_on_a_wall(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True, creative=True)
    registry = game.world.registry
    stone = registry.id("base:stone")
    for y in range(GROUND, GROUND + 3):
        game.world.set_block(0, y, 3, stone)  # a wall ahead, along +z
    from world.items.inventory import ItemStack

    game.hotbar.inventory.put(0, ItemStack("base:stone_slab", 64))
    replay(game, "select 1\nlook 0 -5\nwait 2")  # eye level, looking a little up: upper half
    target = game.target
    assert target is not None and target.face == (0, 0, -1)
    high = target.point[1] - int(target.point[1]) > 0.5
    replay(game, "place")
    placed = game.world.get_block(*(target.block + target.face))
    assert registry.props(placed)["half"] == ("top" if high else "bottom")


def test_the_outline_and_the_break_act_on_a_slab_only_where_its_half_is(
    make_game: Make, replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    registry = game.world.registry
    top_slab = registry.state_id("base:stone_slab", half="top")
    stone = registry.id("base:stone")
    # An upper slab at eye height two blocks ahead (+z), a stone wall behind it.
    game.world.set_block(0, GROUND + 1, 2, top_slab)
    for y in range(GROUND, GROUND + 3):
        game.world.set_block(0, y, 4, stone)
    # The eye is at y = GROUND + 1.62: level, the ray passes the slab's upper half (y 5.5..6).
    replay(game, "look 0 0\nwait 2")
    target = game.target
    assert target is not None and tuple(target.block) == (0, GROUND + 1, 2)
    assert target.face == (0, 0, -1) and target.point[1] > GROUND + 1.5
    # Looking down a little, the ray crosses the same voxel's empty lower half: the slab is not
    # targeted, the wall behind it is.
    replay(game, "look 0 14\nwait 2")
    target = game.target
    assert target is not None and tuple(target.block) == (0, GROUND, 4)
    replay(game, "break")
    assert game.world.get_block(0, GROUND + 1, 2) == top_slab  # the slab is untouched
    replay(game, "look 0 0\nwait 2\nbreak")
    assert game.world.get_block(0, GROUND + 1, 2) == 0
