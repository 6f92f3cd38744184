"""The public contract's addresses (../shared/DESIGN.md): what outside code and mods call works
at the names the contract gives, whatever the packages beneath."""

from __future__ import annotations

from pathlib import Path

from world import MAX_REACH, World, raycast
from world.base import GAME
from world.hooks import hookimpl
from world.mods.loader import load_mods
from world.mods.registration import make_registry
from world.rules import Rules
from world.storage import SaveError, WorldLocked, WorldStore


def test_a_world_of_the_base_game_is_made_saved_and_opened_at_the_contract_s_names(
    tmp_path: Path,
) -> None:
    world = World()
    stone = world.registry.id("base:stone")
    world.set_block(0, 0, 0, stone)
    hit = raycast(world, (0.5, 3.0, 0.5), (0.0, -1.0, 0.0), MAX_REACH)
    assert hit is not None and hit.block == (0, 0, 0)
    with WorldStore.create(tmp_path / "w.sqlite", seed=1) as store:
        store.save(world)
    with WorldStore(tmp_path / "w.sqlite") as store:
        try:
            WorldStore(tmp_path / "w.sqlite")
        except WorldLocked as exc:
            assert isinstance(exc, SaveError)
        else:
            raise AssertionError("a second writer was let in")


def test_a_mod_marked_with_world_hooks_runs_in_the_rules() -> None:
    seen: list[str] = []

    class Spy:
        @hookimpl
        def on_tick(self) -> None:
            seen.append("tick")

    mods = load_mods([], entry_points=False, plugins={"spy": Spy()}, game=GAME)
    Rules(World(make_registry(mods)), mods).tick(0.05)
    assert seen == ["tick"]
