"""A world saved while the game drew it mirrored (90 faced east) is the same world now that the
frame is Minecraft's (90 faces west): its blocks never moved, its player and its entities face
where they faced. The fixture `pre_minecraft_yaw.sqlite` was written by the code from before the
change: a player at (0.5, 4, 0.5) facing east (yaw 90 then), a stone pillar east of them at
x = 5, a stack at (2.5, 4, 3.5) facing east (bearing 90) and one facing north (bearing 0)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from world.base import default_registry
from world.gen.generators import make_generator
from world.physics.movement import look_direction
from world.save.format import ENTITY_YAW
from world.save.meta import YAW_CONVENTION, PlayerState
from world.save.storage import WorldStore

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pre_minecraft_yaw.sqlite"
EAST, NORTH = 270.0, 180.0  # Minecraft's yaws


def _raw(path: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    """The file's metadata and its entities' rows as stored."""
    with sqlite3.connect(path) as conn:
        meta = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        rows = [e for (t,) in conn.execute("SELECT data FROM entities") for e in json.loads(t)]
    return meta, rows


def _yaws(store: WorldStore) -> dict[str, float]:
    world = store.load(default_registry(), generator_factory=make_generator)
    world.chunk(0, 0, 0)
    return {str(e.data["item"]): e.yaw for e in world.entities}


def test_an_old_save_keeps_its_blocks_its_players_facing_and_its_entities_facing() -> None:
    with WorldStore(FIXTURE, read_only=True) as store:
        player = store.player
        assert player is not None
        # Facing east as before: +x, where the pillar stands.
        assert look_direction(player.yaw, 0.0) == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)
        world = store.load(default_registry(), generator_factory=make_generator)
        stone = world.registry.id("base:stone")
        assert [world.get_block(5, y, 0) for y in range(4, 7)] == [stone] * 3
        assert _yaws(store) == {"base:log": EAST, "base:dirt": NORTH}


def test_an_old_save_saved_again_keeps_its_bearings_and_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE, path)
    with WorldStore(path) as store:
        world = store.load(default_registry(), generator_factory=make_generator)
        world.chunk(0, 0, 0)
        log = next(e for e in world.entities if e.data["item"] == "base:log")
        world.entities.move(log, (2.5, 4.0, 3.25), yaw=EAST + 1.0)  # marks the chunk for saving
        player = store.player
        assert player is not None
        store.save(world, player)
    meta, rows = _raw(path)
    assert ENTITY_YAW[0] not in meta  # the file keeps its convention for its life
    assert {r["data"]["item"]: r["yaw"] for r in rows} == {"base:log": 91.0, "base:dirt": 0.0}  # type: ignore[index]
    saved_player = meta["player"]
    assert isinstance(saved_player, dict) and saved_player[YAW_CONVENTION[0]] == YAW_CONVENTION[1]
    with WorldStore(path, read_only=True) as store:
        assert _yaws(store) == {"base:log": EAST + 1.0, "base:dirt": NORTH}
        again = store.player
        assert again is not None and look_direction(again.yaw, 0.0)[0] == pytest.approx(1.0)


def test_a_new_save_holds_minecrafts_yaws(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with WorldStore.create(path, seed=1, generator="flat") as store:
        world = store.load(default_registry(), generator_factory=make_generator)
        world.chunk(0, 0, 0)
        world.entities.add(
            "builtin:item", (1.5, 4.0, 1.5), yaw=EAST, data={"item": "base:dirt", "count": 1}
        )
        store.save(world, PlayerState((0.5, 4.0, 0.5), yaw=NORTH))
    meta, rows = _raw(path)
    assert meta[ENTITY_YAW[0]] == ENTITY_YAW[1]
    assert [r["yaw"] for r in rows] == [EAST]
    assert meta["player"]["yaw"] == NORTH  # type: ignore[index]
    with WorldStore(path, read_only=True) as store:
        assert _yaws(store) == {"base:dirt": EAST}


@pytest.mark.parametrize("old_yaw", [0.0, 37.5, 90.0, 180.0, 270.0, -45.0])
def test_an_old_player_object_faces_where_it_faced(old_yaw: float) -> None:
    import math

    state = PlayerState.from_dict({"position": [0.5, 1.0, 0.5], "yaw": old_yaw, "pitch": 0.0})
    rad = math.radians(old_yaw)
    before = (math.sin(rad), 0.0, math.cos(rad))  # the old frame's look direction
    assert look_direction(state.yaw, 0.0) == pytest.approx(before, abs=1e-12)
    assert PlayerState.from_dict(state.to_dict()) == state
