"""Water in the game, headless: the view through water is tinted blue and fogged, the normal view
comes back above it, and the player swims with the same keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from world.blocks.atlas import tile_cells
from world.mesh.pack import VERTEX_ROW

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]
GROUND = 4  # the flat world: bedrock, 2 dirt, grass; feet stand at y = 4


def fill(game: Any, lo: tuple[int, int, int], hi: tuple[int, int, int], name: str) -> None:
    """Set every voxel of the inclusive box lo..hi to the block ``name``."""
    axes = [np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True)]
    coords = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    game.world.set_blocks(coords, game.world.registry.id(name))


def flood(game: Any, top: int) -> None:
    """Water over the grass around the spawn, from y = GROUND to ``top`` inclusive."""
    fill(game, (-6, GROUND, -6), (6, top, 6), "base:water")


def off_centre(path: Path) -> tuple[int, int, int]:
    """A pixel beside the crosshair (which is white at the centre)."""
    with Image.open(path) as picture:
        rgb = picture.convert("RGB")
        r, g, b = rgb.getpixel((rgb.width // 2 + 40, rgb.height // 2 + 30))
    return int(r), int(g), int(b)


def bluish(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return b > r + 30 and b > g + 30


def test_the_view_under_water_is_blue_and_clear_above_it(
    make_game: Make, replay: Replay, tmp_path: Path
) -> None:
    from ursina import scene

    game = make_game(flat=True, creative=True)
    flood(game, GROUND + 2)  # three blocks deep: the eye (5.62) is under water
    fill(game, (3, GROUND, -6), (3, GROUND + 8, 6), "base:dirt")  # a brown wall through it
    replay(game, f"fly\nteleport 0.5 {GROUND} 0.5\nlook 270 0\nwait 3")
    replay(game, f"screenshot {tmp_path / 'under.png'}")
    assert game.underwater.active
    under_fog = scene.fog_density
    assert under_fog[1] < 20  # a few blocks of sight
    assert bluish(off_centre(tmp_path / "under.png"))

    replay(game, f"teleport 0.5 {GROUND + 3} 0.5\nwait 3")  # the same wall above the water
    replay(game, f"screenshot {tmp_path / 'above.png'}")
    assert not game.underwater.active
    assert scene.fog_density[1] > 20  # the view distance's fog is back
    assert not bluish(off_centre(tmp_path / "above.png"))


def test_the_player_sinks_in_water_and_space_swims_up(make_game: Make, replay: Replay) -> None:
    game = make_game(flat=True)
    flood(game, GROUND + 4)
    replay(game, f"teleport 0.5 {GROUND + 3} 0.5\nwait 30")  # half a second
    sunk = game.player.body.pos[1]
    assert GROUND + 3 - 1.0 < sunk < GROUND + 3 - 0.2  # slowly: the air would drop 4 blocks
    game.held.jump = True  # Space held down (a script's "jump" taps it for one frame)
    replay(game, "wait 60")
    assert game.player.body.pos[1] > sunk


def test_an_eye_beyond_the_worlds_edge_is_not_under_water(make_game: Make) -> None:
    from game.scene import eye_in_liquid
    from world.validate import WORLD_LIMIT

    game = make_game(flat=True)
    assert not eye_in_liquid(game.world, (0.5, WORLD_LIMIT + 1.2, 0.5))
    flood(game, GROUND)
    assert eye_in_liquid(game.world, (0.5, GROUND + 0.5, 0.5))


def test_only_liquid_faces_blend_and_every_other_face_draws_once(make_game: Make) -> None:
    """A chunk with water draws its water blended and every other face once, opaque (texels
    below half alpha cut by the shader): glass beside water looks as glass anywhere."""
    from panda3d.core import TransparencyAttrib

    game = make_game(flat=True, creative=True)
    flood(game, GROUND + 1)
    fill(game, (2, GROUND, 2), (2, GROUND + 2, 2), "base:glass")
    game.chunks.update(game.player.eye, 1.0)
    registry = game.world.registry
    water_tiles = set(registry.face_tiles[registry.liquid].ravel().tolist())
    key = (0, 0, 0)
    triangles, blended_tiles, opaque_tiles = [], set(), set()
    for part in game.chunks._parts[key]:
        node = part.node
        indices = part.triangles().ravel().astype(np.int64)
        triangles += [tuple(t) for t in np.sort(indices.reshape(-1, 3), axis=1).tolist()]
        rows = np.frombuffer(memoryview(part.vdata.getArray(0)), dtype=VERTEX_ROW)
        tiles = set(tile_cells(rows["tile"][indices[::3]]).tolist())
        attrib = node.getNetState().getAttrib(TransparencyAttrib)
        mode = TransparencyAttrib.M_none if attrib is None else attrib.getMode()
        if mode == TransparencyAttrib.M_alpha:
            blended_tiles |= tiles
        else:
            assert mode == TransparencyAttrib.M_none  # not dual: drawn once
            opaque_tiles |= tiles
    assert blended_tiles and blended_tiles <= water_tiles
    assert registry.tile_id("base:glass") in opaque_tiles and not opaque_tiles & water_tiles
    assert len(set(triangles)) == len(triangles)  # no face in two nodes


def test_water_shows_what_lies_under_it(make_game: Make, replay: Replay, tmp_path: Path) -> None:
    game = make_game(flat=True, creative=True)
    flood(game, GROUND)  # one block of water over the grass
    replay(game, f"fly\nteleport 0.5 {GROUND + 3} 0.5\nlook 0 70\nwait 2")
    replay(game, f"screenshot {tmp_path / 'over_grass.png'}")
    fill(game, (-6, GROUND - 1, -6), (6, GROUND - 1, 6), "base:sand")
    replay(game, f"wait 2\nscreenshot {tmp_path / 'over_sand.png'}")
    grass, sand = off_centre(tmp_path / "over_grass.png"), off_centre(tmp_path / "over_sand.png")
    assert bluish(grass) or bluish(sand)  # water's tint
    assert sum(abs(a - b) for a, b in zip(grass, sand, strict=True)) > 30  # the floor shows
