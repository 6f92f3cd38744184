"""The example mods in ``mods/`` on a real World, loaded the way the game loads them."""

from __future__ import annotations

import inspect
import itertools
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from world import World
from world.base import GAME
from world.blocks.sounds import SoundEvent
from world.geometry import Int3
from world.items.inventory import INVENTORY_SLOTS, Inventory, ItemStack
from world.mods.hooks import hookimpl
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import Actor
from world.mods.registration import make_commands, make_registry
from world.ray import Hit
from world.rules import Rules

UP = (0, 1, 0)


@pytest.fixture
def game():
    """The project's mods, their registry and an empty world using it (building allowed below 0,
    where the TNT tests dig)."""
    mods = load_mods(entry_points=False, game=GAME)
    registry = make_registry(mods)
    assert mods.errors == []
    return mods, World(registry, build_height=(-64, 256))


def hit_at(world, block, face=UP):
    return Hit(Int3(*block), Int3(*face), 1.0, (0.0, 0.0, 0.0), world.get_block(*block))


def player(name="steve", **kwargs):
    return Actor.at(name, (500.5, 100.0, 500.5), **kwargs)


def fill(world, low, high, block):
    """Fill the box low..high (inclusive) with a block name."""
    xs, ys, zs = (np.arange(lo, hi + 1) for lo, hi in zip(low, high, strict=True))
    coords = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)
    world.set_blocks(coords, world.registry.id(block))


def blocks_where(world, low, high, block):
    ident = world.registry.id(block)
    return {
        pos
        for pos in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(low, high, strict=True)))
        if world.get_block(*pos) == ident
    }


# -- protection ---------------------------------------------------------------------------------


@pytest.fixture
def protected(game):
    mods, world = game
    protection = mods["protection"].plugin
    protection.protect(world, "spawn", (0, 0, 0), (4, 4, 4), owner="admin")
    fill(world, (-2, 0, -2), (6, 2, 6), "base:stone")
    return mods, world, protection


@pytest.mark.parametrize("creative", [False, True])
def test_protection_denies_strangers_breaking_and_placing(protected, creative):
    mods, world, _ = protected
    stranger = player("eve", creative=creative, selected="base:dirt")
    outcome = Rules(world, mods).break_block(hit_at(world, (2, 2, 2)), stranger)
    assert not outcome and outcome.reason == "spawn belongs to admin"
    assert outcome.denied_by == "protection"
    assert world.get_block(2, 2, 2) == world.registry.id("base:stone")
    outcome = Rules(world, mods).place_block(hit_at(world, (2, 2, 2)), "base:dirt", stranger)
    assert not outcome and outcome.reason == "spawn belongs to admin"
    assert not Rules(world, mods).use_block(hit_at(world, (2, 2, 2)), stranger)
    assert world.get_block(2, 3, 2) == 0


def test_protection_lets_the_owner_build(protected):
    mods, world, _ = protected
    admin = player("admin")
    assert Rules(world, mods).break_block(hit_at(world, (2, 2, 2)), admin)
    assert Rules(world, mods).place_block(hit_at(world, (2, 1, 2)), "base:glass", admin)
    assert world.get_block(2, 2, 2) == world.registry.id("base:glass")


def test_protection_covers_its_corners_and_nothing_beyond(protected):
    mods, world, _ = protected
    eve = player("eve")
    assert not Rules(world, mods).break_block(hit_at(world, (4, 2, 0)), eve)
    assert not Rules(world, mods).break_block(hit_at(world, (0, 0, 4)), eve)
    assert Rules(world, mods).break_block(hit_at(world, (5, 2, 0)), eve)
    assert Rules(world, mods).break_block(hit_at(world, (-1, 2, 2)), eve)


def test_protection_judges_the_voxel_that_changes(protected):
    mods, world, _ = protected
    eve = player("eve")
    # Clicking an unprotected block whose face leads into the area: the new block would be inside.
    world.set_block(5, 3, 2, world.registry.id("base:stone"))
    outcome = Rules(world, mods).place_block(hit_at(world, (5, 3, 2), (-1, 0, 0)), "base:dirt", eve)
    assert not outcome and outcome.pos == (4, 3, 2)
    # And the other way round: a protected block's face leading out of the area.
    outcome = Rules(world, mods).place_block(hit_at(world, (4, 2, 2), (1, 0, 0)), "base:dirt", eve)
    assert outcome.pos == (5, 2, 2) and not outcome  # (5, 2, 2) is stone: occupied
    outcome = Rules(world, mods).place_block(hit_at(world, (4, 2, 2), UP), "base:dirt", eve)
    assert not outcome and outcome.reason == "spawn belongs to admin"


def test_unprotect_lifts_an_area(protected):
    mods, world, protection = protected
    assert [a.name for a in protection.areas(world)] == ["spawn"]
    protection.unprotect(world, "spawn")
    assert protection.areas(world) == ()
    assert Rules(world, mods).break_block(hit_at(world, (2, 2, 2)), player("eve"))


def test_protect_takes_corners_in_any_order_and_checks_them(game):
    mods, world = game
    protection = mods["protection"].plugin
    area = protection.protect(world, "box", (5, 9, -1), (1, 2, 3), owner="bob")
    assert (area.low, area.high) == ((1, 2, -1), (5, 9, 3))
    assert (1, 9, 3) in area and (0, 9, 3) not in area
    with pytest.raises(ValueError, match="corner"):
        protection.protect(world, "bad", (1, 2), (3, 4, 5), owner="bob")
    with pytest.raises(ValueError, match="owner"):
        protection.protect(world, "bad", (1, 2, 3), (3, 4, 5), owner="")
    with pytest.raises(ValueError, match="corner"):  # no silent rounding of -0.5 to voxel 0
        protection.protect(world, "bad", (-0.5, 2, 3), (3, 4, 5), owner="bob")
    with pytest.raises(ValueError, match="owner"):
        protection.protect(world, "bad", (1, 2, 3), (3, 4, 5), owner=5)
    assert [a.name for a in protection.areas(world)] == ["box"]


def test_protected_areas_survive_a_save_and_load_of_the_world(protected):
    mods, world, protection = protected
    protection.protect(world, "yard", (10, 0, 10), (12, 3, 12), owner="bob")
    saved = world.mod_storage.snapshot()
    loaded_world = World(world.registry)
    loaded_world.mod_storage.restore(saved)
    assert protection.areas(loaded_world) == protection.areas(world)
    assert [a.name for a in protection.areas(loaded_world)] == ["spawn", "yard"]
    fill(loaded_world, (-2, 0, -2), (6, 2, 6), "base:stone")
    outcome = Rules(loaded_world, mods).break_block(hit_at(loaded_world, (2, 2, 2)), player("eve"))
    assert not outcome and outcome.reason == "spawn belongs to admin"


def test_protected_areas_survive_saving_and_reopening_the_world_file(game, tmp_path):
    from world.gen.generators import make_generator
    from world.save.storage import WorldStore

    mods, _ = game
    protection = mods["protection"].plugin
    path = tmp_path / "w.sqlite"
    with WorldStore.create(path, seed=1) as store:
        world = store.load(mods.registry, generator_factory=make_generator)
        protection.protect(world, "spawn", (0, 0, 0), (4, 4, 4), owner="admin")
        world.set_block(2, 2, 2, world.registry.id("base:stone"))
        store.save(world)
    with WorldStore(path) as store:
        world = store.load(mods.registry, generator_factory=make_generator)
        assert [a.name for a in protection.areas(world)] == ["spawn"]
        outcome = Rules(world, mods).break_block(hit_at(world, (2, 2, 2)), player("eve"))
        assert not outcome and outcome.reason == "spawn belongs to admin"


def test_two_worlds_do_not_share_protected_areas(protected):
    mods, world, protection = protected
    other = World(world.registry)
    assert protection.areas(other) == ()
    fill(other, (-2, 0, -2), (6, 2, 6), "base:stone")
    assert Rules(other, mods).break_block(hit_at(other, (2, 2, 2)), player("eve"))
    protection.protect(other, "elsewhere", (0, 0, 0), (1, 1, 1), owner="eve")
    assert [a.name for a in protection.areas(world)] == ["spawn"]


def test_a_hook_reaches_only_its_own_mods_storage(game):
    mods, world = game
    seen = {}

    class Peek:
        @hookimpl
        def on_break(self, world):
            world.storage["breaks"] = int(world.storage.get("breaks", 0)) + 1
            seen["keys"] = sorted(world.storage)

    mods.add("peek", Peek())
    mods["protection"].plugin.protect(world, "spawn", (0, 0, 0), (4, 4, 4), owner="admin")
    world.set_block(9, 0, 9, world.registry.id("base:stone"))
    assert Rules(world, mods).break_block(hit_at(world, (9, 0, 9)), player())
    assert seen["keys"] == ["breaks"]
    assert world.mod_storage.snapshot()["peek"] == {"breaks": 1}


# -- lamp ---------------------------------------------------------------------------------------


def test_lamp_toggles_on_and_off_instead_of_placing(game):
    mods, world = game
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:lamp"))
    steve = player(selected="base:dirt")
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), steve)
    assert outcome.done and outcome.used
    assert world.get_block(0, 0, 0) == registry.id("lamp:lamp_on")
    assert world.get_block(0, 1, 0) == 0
    assert Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), steve).used
    assert world.get_block(0, 0, 0) == registry.id("base:lamp")


def test_sneaking_with_a_block_places_it_against_a_lamp_instead_of_switching_it(game):
    mods, world = game
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:lamp"))
    outcome = Rules(world, mods).use_block(
        hit_at(world, (0, 0, 0)), player(selected="base:dirt", sneak=True)
    )
    assert outcome and not outcome.used
    assert world.get_block(0, 0, 0) == registry.id("base:lamp")
    assert world.get_block(0, 1, 0) == registry.id("base:dirt")


def test_lit_lamp_gives_light_and_breaks_like_a_lamp(game):
    mods, world = game
    lit = world.registry["lamp:lamp_on"]
    off = world.registry["base:lamp"]
    assert lit.light == 15 and off.light == 0
    assert lit.hardness == off.hardness and lit.solid
    world.set_block(0, 0, 0, world.registry.id("lamp:lamp_on"))
    assert Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), player())
    assert world.get_block(0, 0, 0) == 0


def test_using_other_blocks_still_places(game):
    mods, world = game
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player(selected="base:lamp"))
    assert outcome.done and not outcome.used
    assert world.get_block(0, 1, 0) == world.registry.id("base:lamp")


# The falling mod's tests: tests/world/test_falling.py.


# -- tnt ----------------------------------------------------------------------------------------


def sphere(centre, radius=3.0):
    cx, cy, cz = centre
    r = int(radius)
    return {
        (cx + dx, cy + dy, cz + dz)
        for dx, dy, dz in itertools.product(range(-r, r + 1), repeat=3)
        if 0 < dx * dx + dy * dy + dz * dz <= radius * radius
    }


@pytest.fixture
def tnt_in_stone(game):
    mods, world = game
    fill(world, (-6, -6, -6), (6, 6, 6), "base:stone")
    world.set_block(0, 0, 0, world.registry.id("tnt:tnt"))
    return mods, world


BOX = ((-6, -6, -6), (6, 6, 6))


@pytest.mark.parametrize("how", ["use", "break"])
def test_tnt_removes_the_blocks_within_its_radius(tnt_in_stone, how):
    mods, world = tnt_in_stone
    steve = player(selected="base:dirt")
    if how == "use":
        outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), steve)
        assert outcome.used
    else:
        outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), steve)
    assert outcome.done
    gone = blocks_where(world, *BOX, "air")
    assert gone == sphere((0, 0, 0)) | {(0, 0, 0)}
    assert {c.pos for c in outcome.changes} == gone
    assert all(c.new == 0 for c in outcome.changes)


def test_tnt_is_stopped_by_unbreakable_blocks(tnt_in_stone):
    mods, world = tnt_in_stone
    fill(world, (2, -6, -6), (2, 6, 6), "base:bedrock")
    assert Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player()).used
    gone = blocks_where(world, *BOX, "air")
    assert gone == {p for p in sphere((0, 0, 0)) if p[0] < 2} | {(0, 0, 0)}
    assert blocks_where(world, *BOX, "base:bedrock") == {
        (2, y, z) for y in range(-6, 7) for z in range(-6, 7)
    }


def test_tnt_respects_protected_areas(tnt_in_stone):
    mods, world = tnt_in_stone
    mods["protection"].plugin.protect(world, "vault", (-6, -6, 2), (6, 6, 6), owner="admin")
    assert Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player("eve")).used
    gone = blocks_where(world, *BOX, "air")
    assert gone == {p for p in sphere((0, 0, 0)) if p[2] < 2} | {(0, 0, 0)}
    # The owner's TNT may break them.
    world.set_block(0, 0, 0, world.registry.id("tnt:tnt"))
    assert Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player("admin")).used
    assert blocks_where(world, *BOX, "air") == sphere((0, 0, 0)) | {(0, 0, 0)}


def test_a_stranger_cannot_light_tnt_inside_a_protected_area(tnt_in_stone):
    mods, world = tnt_in_stone
    mods["protection"].plugin.protect(world, "vault", (-1, -1, -1), (1, 1, 1), owner="admin")
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player("eve"))
    assert not outcome.changes
    assert world.get_block(0, 0, 0) == world.registry.id("tnt:tnt")
    assert blocks_where(world, *BOX, "air") == set()


def test_tnt_sets_off_tnt_in_its_blast(tnt_in_stone):
    mods, world = tnt_in_stone
    world.set_block(3, 0, 0, world.registry.id("tnt:tnt"))
    assert Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player()).used
    gone = blocks_where(world, *BOX, "air")
    assert gone == sphere((0, 0, 0)) | sphere((3, 0, 0)) | {(0, 0, 0), (3, 0, 0)}


def test_sand_falls_into_a_crater(tnt_in_stone):
    mods, world = tnt_in_stone
    world.set_block(0, 4, 0, world.registry.id("base:sand"))
    rules = Rules(world, mods)
    assert rules.use_block(hit_at(world, (0, 0, 0)), player()).used
    assert world.get_block(0, 4, 0) == 0  # falling, an entity
    for _ in range(120):
        rules.tick(1 / 60)
    assert world.get_block(0, -3, 0) == world.registry.id("base:sand")
    assert not len(world.entities)


# -- the modding guide's mods ---------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "modding.md"
MOD_FROM_DOCS = Path(__file__).resolve().parent / "mod_from_docs"


def docs_mods(folder: Path) -> list[str]:
    """Write every code block of the guide that starts with ``# mods/<name>.py`` to ``folder``."""
    names = []
    for block in re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL):
        first = block.split("\n", 1)[0]
        match = re.fullmatch(r"# mods/([a-z0-9_]+)\.py", first)
        if match:
            (folder / f"{match[1]}.py").write_text(block)
            names.append(match[1])
    return names


GUIDE_MODS = [
    "no_glass_theft",
    "quill",
    "honey",
    "farm",
    "homes",
    "kits",
    "magnet",
    "balloon",
    "sapling",
    "doors",
    "slabs",
]


@pytest.fixture
def guide(tmp_path):
    """The guide's example mods, loaded with the project's mods and the mod written from it."""
    assert docs_mods(tmp_path) == GUIDE_MODS
    mods = load_mods([DEFAULT_MODS_DIR, tmp_path, MOD_FROM_DOCS], entry_points=False, game=GAME)
    registry = make_registry(mods)
    assert mods.errors == []
    assert {*GUIDE_MODS, "sponge"} <= set(mods.names)
    return mods, World(registry)


def docs_tests() -> dict[str, str]:
    """Every code block of the guide that starts with ``# tests/test_<name>.py``, by name."""
    found = {}
    for block in re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL):
        match = re.fullmatch(r"# tests/(test_[a-z0-9_]+)\.py", block.split("\n", 1)[0])
        if match:
            found[match[1]] = block
    return found


def test_the_guide_shows_how_to_test_light_generation_saving_and_commands():
    assert list(docs_tests()) == [
        "test_sapling",
        "test_light",
        "test_generation",
        "test_biomes",
        "test_saving",
        "test_commands",
    ]


@pytest.mark.parametrize("name", list(docs_tests()))
def test_the_guide_s_test_files_pass(name, tmp_path, monkeypatch):
    """Run one of the guide's test files as a modder would: from a folder whose ``mods/`` holds
    the guide's mods, calling each of its tests (with ``tmp_path`` when it asks for it)."""
    (tmp_path / "mods").mkdir()
    docs_mods(tmp_path / "mods")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(docs_tests()[name], f"docs/modding.md ({name}.py)", "exec"), namespace)
    tests = [(key, value) for key, value in namespace.items() if key.startswith("test_")]
    assert tests
    for key, test in tests:
        assert callable(test)
        asks = inspect.signature(test).parameters
        (tmp_path / key).mkdir()
        test(**({"tmp_path": tmp_path / key} if "tmp_path" in asks else {}))


def test_guide_honey_runs_two_blocks_a_step_a_second(guide):
    mods, world = guide
    fill(world, (-6, 0, -6), (6, 0, 6), "base:stone")
    rules = Rules(world, mods, clock=lambda: 0.0)  # a still clock: no frame's budget runs out
    placed = rules.place_block(hit_at(world, (0, 0, 0)), "honey:honey", player(creative=True))
    assert placed.done
    levels = []
    for _ in range(3):  # a second of game time each: 20 game ticks, one step of honey
        for _ in range(20):
            rules.tick(0.05)
        props = [world.registry.props(world.get_block(x, 1, 0)) for x in (1, 2, 3)]
        levels.append([p.get("level") for p in props])
    # One block a second, losing 3 levels a block: 8, 5, 2, and nothing three out.
    assert levels == [[5, None, None], [5, 2, None], [5, 2, None]]
    assert not len(world.block_data.liquids)


def test_guide_first_mod_keeps_glass_in_survival(guide):
    mods, world = guide
    world.set_block(0, 0, 0, world.registry.id("base:glass"))
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), player())
    assert not outcome and outcome.reason == "glass is too fragile to take"
    assert outcome.denied_by == "no_glass_theft"
    assert Rules(world, mods).break_block(hit_at(world, (0, 0, 0)), player(creative=True))


def test_guide_quill_writes_the_note_the_player_types_on_the_block(guide):
    mods, world = guide
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    asked = []
    quill = replace(player(), item="quill:quill", prompter=asked.append)
    rules = Rules(world, mods)
    assert rules.use_block(hit_at(world, (0, 0, 0)), quill).used
    assert world.get_block(0, 1, 0) == 0  # an item that is not a block places nothing
    assert rules.submit_text(asked[0], "dig here\nnot there", quill)
    assert world.meta(0, 0, 0)["note"] == "dig here\nnot there"
    assert world.registry.items["quill:quill"].stack_max == 1


def test_guide_honey_is_picked_up_by_the_base_bucket_and_poured_from_its_own(guide):
    mods, world = guide
    rules = Rules(world, mods)
    honey = world.registry.id("honey:honey")  # a source: the liquid's default state
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    world.set_block(0, 1, 0, honey)
    slots = world.players.join("steve", (500.5, 100.0, 500.5)).inventory.slots
    slots[0] = ItemStack("base:bucket", 1)
    assert world.registry.pointable_for("base:bucket")[honey]  # the empty bucket's ray sees it
    assert rules.use_block(hit_at(world, (0, 1, 0)), player(item="base:bucket")).used
    assert world.get_block(0, 1, 0) == 0 and slots[0] == ItemStack("honey:bucket", 1)
    assert rules.use_block(hit_at(world, (0, 0, 0)), player(item="honey:bucket")).used
    assert world.get_block(0, 1, 0) == honey and slots[0] == ItemStack("base:bucket", 1)


def test_guide_homes_commands_remember_each_player_s_home(guide):
    mods, world = guide
    commands = make_commands(mods)
    rules = Rules(world, mods)
    told = []
    alex = replace(player(), name="alex", inbox=told.append)

    def say(line, actor=alex):
        command, _, rest = commands.parse(line)
        assert command is not None and command.mod == "homes"
        assert rules.submit_text(commands.prompt(command), rest, actor)

    say("/home")
    say("/sethome")
    say("/HOME")
    eye = tuple(math.floor(v) for v in alex.eye)
    assert told == [
        "set one with /sethome",
        "home set",
        f"your home is at {eye[0]} {eye[1]} {eye[2]}",
    ]
    say("/home", replace(alex, name="steve"))  # each player's own
    assert told[-1] == "set one with /sethome"


def test_guide_sapling_needs_soil_and_grows_into_a_tree(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:stone"))
    world.set_block(5, 0, 0, registry.id("base:grass"))
    on_stone = Rules(world, mods).place_block(hit_at(world, (0, 0, 0)), "sapling:sapling", player())
    assert not on_stone and on_stone.reason == "a sapling needs dirt or grass under it"
    rules = Rules(world, mods)
    assert rules.place_block(hit_at(world, (5, 0, 0)), "sapling:sapling", player())
    rules.tick(29.0)
    assert world.get_block(5, 1, 0) == registry.id("sapling:sapling")
    rules.tick(2.0)
    assert [registry.name(world.get_block(5, y, 0)) for y in range(1, 7)] == [
        "base:log",
        "base:log",
        "base:log",
        "base:log",
        "base:leaves",
        "air",
    ]
    assert len(blocks_where(world, (4, 4, -1), (6, 5, 1), "base:leaves")) == 3 * 2 * 3 - 1


def test_guide_sapling_pops_off_when_its_soil_goes(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:dirt"))
    rules = Rules(world, mods)
    assert rules.place_block(hit_at(world, (0, 0, 0)), "sapling:sapling", player())
    outcome = rules.break_block(hit_at(world, (0, 0, 0)), player())
    assert world.get_block(0, 1, 0) == 0
    assert [c.pos for c in outcome.changes] == [(0, 0, 0), (0, 1, 0)]
    rules.tick(60.0)
    assert world.get_block(0, 4, 0) == 0  # no tree grows from the lost sapling


def click(world, block, face, across=0.5):
    """A hit on ``face`` of ``block`` at the face's middle (``across`` along x and z)."""
    block, face = Int3(*block), Int3(*face)
    point = [block.x + across, block.y + 0.5, block.z + across]
    for axis in range(3):
        if face[axis]:
            point[axis] = block[axis] + (1.0 if face[axis] > 0 else 0.0)
    return Hit(block, face, 1.0, tuple(point), world.get_block(*block))


def test_guide_door_faces_the_player_opens_whole_and_breaks_whole(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:stone"))
    rules = Rules(world, mods)
    steve = Actor.at("steve", (0.5, 1.0, 5.5), look=(0.0, 0.0, -1.0), selected="base:dirt")
    assert rules.place_block(click(world, (0, 0, 0), UP), "doors:birch_door", steve)
    lower, upper = world.get_block(0, 1, 0), world.get_block(0, 2, 0)
    assert registry.props(lower) == {"facing": "north", "half": "lower", "open": False}
    assert registry.props(upper) == {"facing": "north", "half": "upper", "open": False}
    closed = registry.collision_boxes[lower]
    assert rules.use_block(click(world, (0, 2, 0), (0, 0, 1)), steve).used
    assert registry.props(world.get_block(0, 1, 0))["open"] is True
    assert registry.props(world.get_block(0, 2, 0))["open"] is True
    assert registry.collision_boxes[world.get_block(0, 1, 0)] != closed
    assert world.get_block(0, 2, 1) == 0  # used, not placed against
    assert rules.break_block(click(world, (0, 2, 0), (0, 0, 1)), steve)
    assert world.get_block(0, 1, 0) == 0 and world.get_block(0, 2, 0) == 0


def test_guide_door_needs_two_free_blocks_and_respects_protection(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:stone"))
    world.set_block(0, 2, 0, registry.id("base:stone"))
    rules = Rules(world, mods)
    outcome = rules.place_block(click(world, (0, 0, 0), UP), "doors:birch_door", player())
    assert not outcome and outcome.reason == "a door needs two free blocks"
    mods["protection"].plugin.protect(world, "attic", (5, 2, 0), (5, 2, 0), owner="admin")
    world.set_block(5, 0, 0, registry.id("base:stone"))
    outcome = rules.place_block(click(world, (5, 0, 0), UP), "doors:birch_door", player("eve"))
    assert not outcome and outcome.reason == "attic belongs to admin"
    assert rules.place_block(click(world, (5, 0, 0), UP), "doors:birch_door", player("admin"))
    outcome = rules.break_block(click(world, (5, 1, 0), (0, 0, 1)), player("eve"))
    assert not outcome and outcome.reason == "attic belongs to admin"
    assert registry.name(world.get_block(5, 2, 0)) == "doors:birch_door"


def test_guide_slab_takes_its_half_from_the_click_and_doubles_on_its_open_side(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:stone"))
    rules = Rules(world, mods)
    high = click(world, (0, 0, 0), (1, 0, 0))._replace(point=(1.0, 0.8, 0.5))
    assert rules.place_block(high, "slabs:sand_slab", player())
    assert registry.props(world.get_block(1, 0, 0)) == {"half": "top"}
    assert rules.place_block(click(world, (0, 0, 0), UP), "slabs:sand_slab", player())
    assert registry.props(world.get_block(0, 1, 0)) == {"half": "bottom"}
    top_of_slab = Hit(Int3(0, 1, 0), Int3(*UP), 1.0, (0.5, 1.5, 0.5), world.get_block(0, 1, 0))
    outcome = rules.place_block(top_of_slab, "slabs:sand_slab", player())
    assert outcome and outcome.pos == (0, 1, 0)
    assert registry.props(world.get_block(0, 1, 0)) == {"half": "double"}
    side = click(world, (1, 0, 0), (0, 0, 1))  # a side of the top slab: goes beside it
    assert rules.place_block(side, "slabs:sand_slab", player())
    assert registry.name(world.get_block(1, 0, 1)) == "slabs:sand_slab"
    assert registry.props(world.get_block(1, 0, 0)) == {"half": "top"}


def test_mod_written_from_the_guide_soaks_water(guide):
    mods, world = guide
    registry = world.registry
    assert mods["sponge"].source == str(MOD_FROM_DOCS / "sponge")
    assert mods["sponge"].description == "sponges that soak up water"
    assert mods.names.index("falling") < mods.names.index("sponge")
    fill(world, (-4, 0, -4), (4, 0, 4), "base:stone")
    fill(world, (-4, 1, -4), (4, 2, 4), "base:water")
    steve = player(selected="base:dirt")
    placed = Rules(world, mods).place_block(hit_at(world, (0, 0, 0)), "sponge:sponge", steve)
    assert placed.done
    assert world.get_block(0, 1, 0) == registry.id("sponge:wet_sponge")
    assert blocks_where(world, (-2, 1, -2), (2, 3, 2), "base:water") == set()
    assert len(blocks_where(world, (-4, 1, -4), (4, 2, 4), "base:water")) == 9 * 9 * 2 - 5 * 5 * 2
    # A wet sponge cannot be carried off; right click wrings it out instead of placing dirt.
    outcome = Rules(world, mods).break_block(hit_at(world, (0, 1, 0)), steve)
    assert not outcome and outcome.reason == "wring the sponge out first (right click)"
    used = Rules(world, mods).use_block(hit_at(world, (0, 1, 0)), steve)
    assert used.used and world.get_block(0, 1, 0) == registry.id("sponge:sponge")
    assert world.get_block(0, 2, 0) == 0
    assert Rules(world, mods).break_block(hit_at(world, (0, 1, 0)), steve)


def test_mod_written_from_the_guide_dries_in_the_sun(guide):
    mods, world = guide
    registry = world.registry
    world.set_block(0, 0, 0, registry.id("base:stone"))
    world.set_block(1, 1, 0, registry.id("base:water"))
    rules = Rules(world, mods)
    assert rules.place_block(hit_at(world, (0, 0, 0)), "sponge:sponge", player())
    assert world.get_block(0, 1, 0) == registry.id("sponge:wet_sponge")
    rules.tick(19.0)
    assert world.get_block(0, 1, 0) == registry.id("sponge:wet_sponge")
    changes = rules.tick(1.0)
    assert world.get_block(0, 1, 0) == registry.id("sponge:sponge")
    assert [c.pos for c in changes] == [(0, 1, 0)]


def test_a_failing_check_asked_for_by_a_mod_denies_and_restores_the_whole_action(tnt_in_stone):
    mods, world = tnt_in_stone

    class Buggy:
        """A protection mod with a bug: it raises for every voxel but the origin."""

        @hookimpl
        def can_break(self, pos):
            if tuple(pos) != (0, 0, 0):
                raise RuntimeError("boom")

    mods.add("buggy", Buggy())
    before = world.chunk_blocks(0, 0, 0).copy()
    outcome = Rules(world, mods).use_block(hit_at(world, (0, 0, 0)), player())
    assert not outcome.done and "buggy" in outcome.reason
    assert np.array_equal(world.chunk_blocks(0, 0, 0), before)
    assert any("buggy" in str(error) for error in mods.errors)


def test_guide_wheat_grows_near_water_and_keeps_who_planted_it(guide):
    mods, world = guide
    registry = world.registry
    for x in range(0, 12):
        world.set_block(x, 0, 0, registry.id("base:dirt"))
    world.set_block(0, 0, 1, registry.id("base:water"))
    rules = Rules(world, mods)
    near, far = (1, 0, 0), (10, 0, 0)  # 1 and 10 blocks from the water
    for pos in (near, far):
        assert rules.place_block(hit_at(world, pos), "farm:wheat", player())
    for _ in range(20 * 60 * 30):  # 30 minutes of game ticks: ~26 picks of each voxel expected
        rules.tick(1 / 20)
    grown = world.get_block(1, 1, 0)
    assert registry.name(grown) == "farm:wheat" and registry.props(grown)["age"] == 7
    assert registry.props(world.get_block(10, 1, 0))["age"] == 0  # no water near: no growth
    assert world.meta(1, 1, 0)["planted_by"] == "steve"  # kept through 7 state changes


def test_guide_bell_rings_on_its_timer(guide):
    mods, world = guide
    world.set_block(0, 0, 0, world.registry.id("base:stone"))
    rules = Rules(world, mods)
    assert rules.place_block(hit_at(world, (0, 0, 0)), "farm:bell", player())
    assert rules.pop_sounds() == [SoundEvent("base:metal_break", (0.5, 1.5, 0.5), 1.0, 0.8)]
    for _ in range(20 * 16):  # 16 s: rings at 5, 10 and 15
        rules.tick(1 / 20)
    assert world.meta(0, 1, 0)["rings"] == 3
    ring = SoundEvent("base:metal_break", (0.5, 1.5, 0.5), gain=0.8, max_distance=32.0)
    assert rules.pop_sounds() == [ring] * 3  # each ring heard, 32 blocks away


def guide_say(mods, rules, line, actor):
    commands = make_commands(mods)
    command, _, rest = commands.parse(line)
    assert command is not None
    assert rules.submit_text(commands.prompt(command), rest, actor).done


def test_guide_kits_gives_a_kit_once_and_what_does_not_fit_lies_at_the_player_s_feet(guide):
    mods, world = guide
    world.set_block(8, 0, 8, world.registry.id("base:stone"))
    full = Inventory([ItemStack("base:dirt", 64)] * INVENTORY_SLOTS)
    steve = world.players.join("steve", (8.5, 1.0, 8.5), full)
    told = []
    actor = Actor.at("steve", (8.5, 1.0, 8.5), inbox=told.append)
    rules = Rules(world, mods)
    guide_say(mods, rules, "/kit", actor)
    guide_say(mods, rules, "/kit", actor)
    guide_say(mods, rules, "/kit", replace(actor, name="nobody"))
    assert told == [
        "here is your kit",
        "you had your kit",
        "only a player of this world gets a kit",
    ]
    lying = sorted((e.data["item"], e.data["count"], e.pos) for e in world.entities)
    assert lying == [("base:planks", 16, steve.pos), ("base:torch", 8, steve.pos)]
    assert steve.inventory.count("base:dirt") == 64 * INVENTORY_SLOTS


def test_guide_top_lifts_the_player_onto_the_highest_block_above_them(guide):
    mods, world = guide
    for y in (0, 5, 9):
        world.set_block(8, y, 8, world.registry.id("base:stone"))
    steve = world.players.join("steve", (8.5, 1.0, 8.5))
    rules = Rules(world, mods)
    guide_say(mods, rules, "/top", Actor.at("steve", (8.5, 1.0, 8.5)))
    assert steve.pos == (8.5, 10.0, 8.5) and steve.moves == 1


def test_guide_lodestone_pulls_a_dropped_stack_to_itself(guide):
    mods, world = guide
    fill(world, (2, 0, 2), (14, 0, 14), "base:stone")
    rules = Rules(world, mods)
    steve = Actor.at("steve", (13.5, 1.0, 13.5))  # no player of the world: nothing is picked up
    assert rules.place_block(hit_at(world, (8, 0, 8)), "magnet:lodestone", steve)
    world.set_block(5, 1, 8, world.registry.id("base:dirt"))
    assert rules.break_block(hit_at(world, (5, 1, 8)), steve)  # survival: its dirt drops
    (stack,) = world.entities
    assert stack.data["item"] == "base:dirt" and stack.pos[0] < 6.0
    for _ in range(20 * 4):
        rules.tick(1 / 20)
    assert math.dist(stack.pos, (8.5, 1.0, 8.5)) < 1.5  # on top of the lodestone, or beside it


def test_guide_balloon_rises_goes_after_ten_seconds_and_pops_when_punched(guide):
    mods, world = guide
    world.set_block(8, 0, 8, world.registry.id("base:stone"))
    world.set_block(8, 30, 8, world.registry.id("base:stone"))  # chunks up to y 47 are loaded
    world.players.join("steve", (8.5, 1.0, 8.5))
    told = []
    steve = Actor.at("steve", (8.5, 1.0, 8.5), inbox=told.append)
    rules = Rules(world, mods)
    guide_say(mods, rules, "/balloon", steve)
    guide_say(mods, rules, "/balloon", steve)
    first, second = world.entities
    assert first.kind == "balloon:balloon" and first.data == {"owner": "steve"}
    for _ in range(20 * 2):
        rules.tick(1 / 20)
    assert first.pos[1] == pytest.approx(1.0 + 1.5 * 2.0, abs=0.1)  # risen: not physical
    assert rules.punch_entity(first.id, steve).done and told == ["pop!"]
    assert first.removed and first.pos[0] == 8.5  # popped, not knocked back
    for _ in range(20 * 9):
        rules.tick(1 / 20)
    assert second.removed and not len(world.entities)  # gone after its ten seconds
