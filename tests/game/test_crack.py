"""The crack overlay: ten stages cut from the atlas's crack tiles, one drawn at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from world.atlas import CRACK_TILES, tile_uv_rect
from world.blocks import default_registry
from world.mods import Mods


@pytest.fixture
def crack(app: Any) -> Any:
    from game.crack import CrackOverlay
    from game.play import load_atlas

    overlay = CrackOverlay(default_registry(), load_atlas(default_registry(), Mods()))
    yield overlay
    overlay.destroy()


def test_each_stage_shows_its_atlas_tile_on_a_cube_just_larger_than_the_block(crack: Any) -> None:
    from game.crack import SCALE

    registry = default_registry()
    assert len(crack.meshes) == len(CRACK_TILES) == 10
    for stage, name in enumerate(CRACK_TILES):
        u0, v0, u1, v1 = tile_uv_rect(registry.tile_id(name))
        uvs = np.array(crack.meshes[stage].uvs)
        assert uvs[:, 0].min() == pytest.approx(u0) and uvs[:, 0].max() == pytest.approx(u1)
        assert uvs[:, 1].min() == pytest.approx(v0) and uvs[:, 1].max() == pytest.approx(v1)
        vertices = np.array(crack.meshes[stage].vertices)
        assert vertices.min() == pytest.approx(0.5 - SCALE / 2)
        assert vertices.max() == pytest.approx(0.5 + SCALE / 2)
        assert len(crack.meshes[stage].triangles) == 6 * 2 * 3  # six faces, two triangles each


def test_one_stage_is_drawn_at_a_time_on_the_given_block(crack: Any) -> None:
    assert not crack.entity.enabled
    for block, stage in [((1, 2, 3), 0), ((1, 2, 3), 4), ((-5, 0, 7), 9)]:
        crack.show(block, stage)
        assert crack.entity.enabled and tuple(crack.entity.position) == block
        assert [not m.isHidden() for m in crack.meshes] == [s == stage for s in range(10)]
    crack.show(None, None)
    assert not crack.entity.enabled and crack.stage is None
    crack.show((0, 0, 0), 2)
    assert [not m.isHidden() for m in crack.meshes] == [s == 2 for s in range(10)]
    with pytest.raises(ValueError, match="stage"):
        crack.show((0, 0, 0), 10)
