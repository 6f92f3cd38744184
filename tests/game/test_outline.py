"""The outline around the target: every selection box of the targeted state, headless."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from world.base import default_registry
from world.blocks.block_type import BlockType
from world.blocks.registry import BlockRegistry
from world.blocks.shapes import FACINGS, FULL, Box, slab, stairs
from world.geometry import Int3
from world.ray import Hit

Make = Callable[..., Any]
Replay = Callable[[Any, str], None]

SLAB = BlockType(
    "test:slab",
    properties={"half": ("bottom", "top")},
    selection=lambda props: slab(props["half"]),
    tiles=("base:stone",),
)
STAIRS = BlockType(
    "test:stairs",
    properties={"facing": FACINGS, "half": ("bottom", "top")},
    selection=lambda props: stairs(props["facing"], props["half"]),
    tiles=("base:stone",),
)


@pytest.fixture
def registry() -> BlockRegistry:
    """The base blocks, a slab and stairs."""
    registry = default_registry()
    registry.register(SLAB)
    registry.register(STAIRS)
    return registry


@pytest.fixture
def outline(app: Any, registry: BlockRegistry) -> Iterator[Any]:
    from game.outline import BlockOutline

    shown = BlockOutline(registry)
    yield shown
    shown.destroy()


def _hit(block: tuple[int, int, int], block_id: int, box: int = 0) -> Hit:
    return Hit(Int3(*block), Int3(0, 1, 0), 1.0, (0.5, 1.0, 0.5), block_id, box)


def _drawn_boxes(outline: Any) -> np.ndarray:
    """The boxes the shown line mesh outlines, read back from its vertices (12 edges a box)."""
    shown = [mesh for mesh in outline.meshes.values() if not mesh.isHidden()]
    assert len(shown) == 1
    vertices = np.array(shown[0].vertices).reshape(-1, 24, 3)  # 12 segments, 2 ends each
    return np.concatenate([vertices.min(axis=1), vertices.max(axis=1)], axis=1)


def _grown(boxes: tuple[Box, ...]) -> np.ndarray:
    """The boxes as rows (x0, y0, z0, x1, y1, z1), grown by the outline's margin."""
    from game.outline import MARGIN

    return np.array(boxes, dtype=np.float64) + np.array([-MARGIN] * 3 + [MARGIN] * 3)


def test_each_box_is_outlined_by_its_twelve_edges() -> None:
    from game.outline import MARGIN, outline_segments

    boxes = stairs("east", "top")
    segments = np.array(outline_segments(boxes))
    assert segments.shape == (12 * len(boxes), 2, 3)
    for box, edges in zip(_grown(boxes), segments.reshape(len(boxes), 12, 2, 3), strict=True):
        # Every edge runs along one axis, between two corners of the grown box.
        assert ((edges[:, 0] != edges[:, 1]).sum(axis=1) == 1).all()
        low, high = box[:3], box[3:]
        assert (np.isclose(edges, low) | np.isclose(edges, high)).all()
        assert len({tuple(e) for e in edges.reshape(-1, 3)}) == 8  # all eight corners
    assert MARGIN > 0


def test_the_outline_follows_the_targeted_states_selection_boxes(
    outline: Any, registry: BlockRegistry
) -> None:
    stone = registry.id("base:stone")
    outline.show(_hit((3, 4, -5), stone))
    assert outline.entity.enabled and tuple(outline.entity.getPos()) == (3, 4, -5)
    assert np.allclose(_drawn_boxes(outline), _grown(FULL), atol=1e-6)
    top = registry.state_id("test:slab", half="top")
    outline.show(_hit((3, 5, -5), top))
    assert np.allclose(_drawn_boxes(outline), _grown(slab("top")), atol=1e-6)
    assert tuple(outline.entity.getPos()) == (3, 5, -5)
    for facing in FACINGS:  # every box of the state, not only the one the ray hit
        state = registry.state_id("test:stairs", facing=facing, half="bottom")
        outline.show(_hit((0, 0, 0), state, box=1))
        assert np.allclose(_drawn_boxes(outline), _grown(stairs(facing, "bottom")), atol=1e-6)
    outline.show(_hit((3, 5, -5), top))  # a shape seen before: its mesh again, not a new one
    assert len(outline.meshes) == 2 + len(FACINGS)
    outline.show(None)
    assert not outline.entity.enabled


def test_the_outline_is_placed_relative_to_the_render_origin(
    app: Any, registry: BlockRegistry
) -> None:
    from game.outline import BlockOutline
    from game.render_origin import RenderOrigin

    origin = RenderOrigin(rebase_distance=100.0)
    outline = BlockOutline(registry, origin)
    try:
        far = (10**7 + 3, 70, -(10**7) - 9)
        outline.show(_hit(far, registry.id("base:stone")))
        origin.follow((far[0] + 0.5, 71.6, far[2] + 0.5))
        assert origin.origin == (10**7, 64, -(10**7) - 16)
        assert tuple(outline.entity.getPos()) == (3, 6, 7)
    finally:
        outline.destroy()
    assert len(origin) == 0


_SLAB_MOD = '''"""A test slab."""
from world.blocks.block_type import BlockType
from world.mods.hooks import hookimpl
from world.blocks.shapes import slab


@hookimpl
def register_blocks(registry):
    registry.register(BlockType(
        "slabs:slab", properties={"half": ("bottom", "top")}, defaults={"half": "top"},
        selection=lambda props: slab(props["half"]), tiles=("base:stone",),
    ))
'''


def test_in_the_game_the_outline_and_f4_show_the_targeted_slab_half(
    tmp_path: Path, make_game: Make, replay: Replay
) -> None:
    (tmp_path / "slabs.py").write_text(_SLAB_MOD)
    game = make_game(flat=True, creative=True, mods=(tmp_path,))
    registry = game.world.registry
    top = registry.id("slabs:slab")
    assert registry.props(top) == {"half": "top"}
    ground = 4
    game.world.set_blocks(np.array([(0, ground, 2)]), top)
    replay(game, f"teleport 0.5 {ground} 0.5\nlook 0 30\nwait 2")  # the slab's upper half
    target = game.target
    assert target is not None and target.block == (0, ground, 2) and target.block_id == top
    assert game.outline.entity.enabled
    assert tuple(game.outline.entity.getPos()) == (0, ground, 2)
    assert np.allclose(_drawn_boxes(game.outline), _grown(slab("top")), atol=1e-6)
    game.input("f4")
    assert game.traced.box == Box(0.0, ground + 0.5, 2.0, 1.0, ground + 1.0, 3.0)
    cells = len(game.traced.cells)
    assert game.traced.vertex_count == 8 * cells + 8 + 2  # the cells, the hit box, the ray
