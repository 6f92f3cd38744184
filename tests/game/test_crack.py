"""The crack overlay: ten stages cut from the atlas's crack tiles, one drawn at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from world.base import default_registry
from world.blocks.atlas import CRACK_TILES, tile_uv_rect
from world.mods.host import Mods


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


def test_on_a_shaped_block_the_crack_covers_its_selection_boxes(app: Any) -> None:
    from game.crack import SCALE, CrackOverlay
    from game.play import load_atlas
    from world.blocks.block_type import BlockType
    from world.blocks.shapes import slab

    registry = default_registry()
    registry.register(
        BlockType(
            "test:slab",
            properties={"half": ("bottom", "top")},
            selection=lambda props: slab(props["half"]),
            tiles=("base:stone",),
        )
    )
    overlay = CrackOverlay(registry, load_atlas(registry, Mods()))
    try:
        top = registry.state_id("test:slab", half="top")
        overlay.show((4, 5, 6), 3, top)
        shown = list(overlay.shaped_meshes.values())
        assert len(shown) == 1 and not shown[0].isHidden()
        assert all(m.isHidden() for m in overlay.meshes)
        vertices = np.array(shown[0].vertices)
        grow = (SCALE - 1) / 2
        assert vertices.min(axis=0) == pytest.approx([-grow, 0.5 - grow, -grow])
        assert vertices.max(axis=0) == pytest.approx([1 + grow, 1 + grow, 1 + grow])
        # A side face shows the half of the crack tile its half of the block covers.
        u0, v0, u1, v1 = tile_uv_rect(registry.tile_id(CRACK_TILES[3]))
        x_faces = np.array(shown[0].uvs)[:8]  # the -x and +x faces come first; u follows y
        assert x_faces[:, 0].min() == pytest.approx((u0 + u1) / 2)
        assert x_faces[:, 0].max() == pytest.approx(u1)
        assert (x_faces[:, 1].min(), x_faces[:, 1].max()) == pytest.approx((v0, v1))
        overlay.show((4, 5, 6), 3, registry.id("base:stone"))  # a cube: the cube's stage mesh
        assert [not m.isHidden() for m in overlay.meshes] == [s == 3 for s in range(10)]
        assert shown[0].isHidden()
        overlay.show((4, 5, 6), 3, top)  # made once, shown again
        assert list(overlay.shaped_meshes.values()) == shown and not shown[0].isHidden()
    finally:
        overlay.destroy()
