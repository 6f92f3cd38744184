"""Mod loading: folders and entry points, names and dependencies, and every way a mod can be
broken (each reported with its name while the others load)."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest

from world.base import BASE, GAME, default_registry
from world.blocks.block_type import BlockType
from world.mods.hooks import hookimpl
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, ENTRY_POINT_GROUP, load_mods
from world.mods.registration import make_registry

GOOD = '''
"""A mod that does nothing much."""
from world.mods.hooks import hookimpl

@hookimpl
def can_break(block):
    return None
'''


def write(folder: Path, relative: str, code: str) -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(code))
    return path


def errors_of(mods: Mods) -> dict[str, str]:
    return {error.mod: f"{error.where}: {error.message}" for error in mods.errors}


# -- finding mods -----------------------------------------------------------------------------


def test_a_folder_of_modules_and_packages_loads_with_names_and_descriptions(tmp_path):
    write(tmp_path, "single.py", GOOD)
    write(
        tmp_path,
        "bundle/__init__.py",
        '''
        """A mod in several files."""
        from .rules import can_place

        description = "a packaged mod"
        ''',
    )
    write(
        tmp_path,
        "bundle/rules.py",
        """
        from world.mods.hooks import hookimpl

        @hookimpl
        def can_place(block):
            return "no" if block.name == "base:glass" else None
        """,
    )
    write(tmp_path, "_private.py", "raise RuntimeError('never imported')")
    write(tmp_path, "notes.txt", "not a mod")
    write(tmp_path, "data/readme.md", "a folder without __init__.py is not a mod")
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert mods.errors == []
    assert mods.names == (BASE, "bundle", "single")
    assert mods["single"].description == "A mod that does nothing much."
    assert mods["bundle"].description == "a packaged mod"
    assert mods["single"].source == str(tmp_path / "single.py")
    assert mods["bundle"].source == str(tmp_path / "bundle")
    assert [impl.mod for impl in mods.hook_impls("can_place")] == ["bundle"]


def test_loading_again_gives_fresh_modules(tmp_path):
    write(tmp_path, "counter.py", GOOD + "\nstate = []\n")
    first = load_mods([tmp_path], entry_points=False, game=GAME)["counter"].plugin
    first.state.append(1)  # type: ignore[attr-defined]
    second = load_mods([tmp_path], entry_points=False, game=GAME)["counter"].plugin
    assert second is not first and second.state == []  # type: ignore[attr-defined]


def test_the_first_mod_of_a_name_wins(tmp_path):
    write(tmp_path / "one", "same.py", GOOD)
    write(tmp_path / "two", "same.py", GOOD.replace("much", "else"))
    mods = load_mods(
        [tmp_path / "one", tmp_path / "two", tmp_path / "one"], entry_points=False, game=GAME
    )
    assert mods["same"].source == str(tmp_path / "one" / "same.py")
    assert list(errors_of(mods)) == ["same"]
    assert "already loaded from" in errors_of(mods)["same"]


def test_bad_names_and_missing_folders_are_reported(tmp_path):
    write(tmp_path, "Bad-Name.py", GOOD)
    write(tmp_path, "base.py", GOOD)
    mods = load_mods([tmp_path, tmp_path / "nowhere"], entry_points=False, game=GAME)
    assert mods.names == (BASE,)
    errors = errors_of(mods)
    assert "not a mod name" in errors["Bad-Name"]
    assert "already loaded from built in" in errors["base"]
    assert "mods folder not found" in errors[str(tmp_path / "nowhere")]


def test_entry_points_are_loaded_by_name(tmp_path, monkeypatch):
    dist = tmp_path / "blockpick_demo-1.0.dist-info"
    write(dist, "METADATA", "Metadata-Version: 2.1\nName: blockpick-demo\nVersion: 1.0\n")
    write(
        dist,
        "entry_points.txt",
        f"[{ENTRY_POINT_GROUP}]\ndemo = blockpick_demo_mod\nbroken = blockpick_no_such_module\n",
    )
    write(tmp_path, "blockpick_demo_mod.py", GOOD)
    monkeypatch.syspath_prepend(str(tmp_path))
    mods = load_mods([], entry_points=True, game=GAME)
    assert "demo" in mods
    assert mods["demo"].source == "entry point blockpick_demo_mod"
    assert errors_of(mods)["broken"].startswith("import: ModuleNotFoundError")
    assert "demo" not in load_mods([], entry_points=False, game=GAME)


def test_the_project_mods_folder_is_the_default():
    mods = load_mods(entry_points=False, game=GAME)
    assert mods.errors == []
    assert DEFAULT_MODS_DIR.name == "mods"
    assert set(mods.names) == {
        BASE,
        "chests",
        "creatures",
        "falling",
        "farming",
        "furnace",
        "lamp",
        "leaf_decay",
        "ores",
        "protection",
        "signs",
        "tnt",
        "tools",
    }
    assert all(mod.description for mod in mods)
    registry = make_registry(mods)
    assert mods.errors == []
    assert {"lamp:lamp_on", "tnt:tnt"} <= set(registry.names)


# -- dependencies -----------------------------------------------------------------------------


def test_dependencies_decide_the_load_order(tmp_path):
    write(tmp_path, "aaa.py", GOOD + "\ndepends = ['ccc']\n")
    write(tmp_path, "bbb.py", GOOD + "\noptional_depends = ['zzz', 'not_installed']\n")
    write(tmp_path, "ccc.py", GOOD)
    write(tmp_path, "zzz.py", GOOD + "\ndepends = ['base']\n")
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert mods.errors == []
    assert mods.names == (BASE, "ccc", "aaa", "zzz", "bbb")
    assert mods["aaa"].depends == ("ccc",)
    assert mods["bbb"].optional_depends == ("zzz", "not_installed")


def test_missing_failed_and_cyclic_dependencies_are_reported(tmp_path):
    write(tmp_path, "needs_ghost.py", GOOD + "\ndepends = ['ghost']\n")
    write(tmp_path, "needs_broken.py", GOOD + "\ndepends = ['broken']\n")
    write(tmp_path, "needs_needs_ghost.py", GOOD + "\ndepends = ['needs_ghost']\n")
    write(tmp_path, "broken.py", "raise ImportError('cannot start')")
    write(tmp_path, "egg.py", GOOD + "\ndepends = ['hen']\n")
    write(tmp_path, "hen.py", GOOD + "\ndepends = ['egg']\n")
    write(tmp_path, "fine.py", GOOD)
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert mods.names == (BASE, "fine")
    errors = errors_of(mods)
    assert errors["needs_ghost"] == "load: needs mod 'ghost', which is not installed"
    assert errors["needs_broken"] == "load: needs mod 'broken', which failed to load"
    assert errors["needs_needs_ghost"] == "load: needs mod 'needs_ghost', which failed to load"
    assert errors["egg"] == errors["hen"] == "load: dependency cycle among egg, hen"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("depends = 'ccc'", "depends must be a list of mod names"),
        ("optional_depends = ['Not A Name']", "optional_depends holds 'Not A Name'"),
        ("description = 3", "description must be a string"),
    ],
)
def test_bad_metadata_is_reported(tmp_path, line, message):
    write(tmp_path, "meta.py", GOOD + "\n" + line + "\n")
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "meta" not in mods
    assert message in errors_of(mods)["meta"]


def test_add_refuses_a_mod_whose_dependency_is_not_loaded():
    mods = Mods()

    class Needy:
        depends = ("other",)

    assert mods.add("needy", Needy()) is None
    assert errors_of(mods)["needy"] == "load: needs mod 'other', which is not loaded"


# -- broken mods ------------------------------------------------------------------------------


def test_a_mod_that_fails_to_import_is_logged_with_its_name(tmp_path, caplog):
    write(tmp_path, "crashes.py", "import math\nmath.sqrt(-1)\n")
    write(tmp_path, "typo.py", "def broken(:\n")
    write(tmp_path, "fine.py", GOOD)
    with caplog.at_level(logging.ERROR, logger="blockpick.mods"):
        mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert mods.names == (BASE, "fine")
    errors = errors_of(mods)
    assert errors["crashes"] == "import: ValueError: math domain error"
    assert errors["typo"].startswith("import: SyntaxError")
    messages = [r.getMessage() for r in caplog.records]
    assert any("'crashes'" in m and "import" in m for m in messages)
    assert any("'typo'" in m for m in messages)


def test_an_unknown_hook_name_is_rejected_at_load_time(tmp_path):
    write(
        tmp_path,
        "typo_hook.py",
        """
        from world.mods.hooks import hookimpl

        @hookimpl
        def on_break(world):
            raise AssertionError("a refused mod's hooks never run")

        @hookimpl
        def can_brek(world, pos):
            return False
        """,
    )
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "typo_hook" not in mods
    assert mods.hook_impls("on_break") == ()
    message = errors_of(mods)["typo_hook"]
    assert "unknown hook 'can_brek'" in message and "did you mean 'can_break'" in message


def test_an_optional_unknown_hook_is_allowed(tmp_path):
    write(
        tmp_path,
        "future.py",
        """
        from world.mods.hooks import hookimpl

        @hookimpl(optionalhook=True)
        def on_explosion(world):
            pass
        """,
    )
    assert "future" in load_mods([tmp_path], entry_points=False, game=GAME)


def test_an_unknown_argument_name_is_rejected_at_load_time(tmp_path):
    write(
        tmp_path,
        "bad_args.py",
        """
        from world.mods.hooks import hookimpl

        @hookimpl
        def can_break(world, pos):
            return None

        @hookimpl
        def can_place(world, position, block):
            return None
        """,
    )
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "bad_args" not in mods
    message = errors_of(mods)["bad_args"]
    assert "can_place" in message and "position" in message
    assert mods.plugin_manager.get_plugin("bad_args") is None
    assert mods.plugin_manager.hook.can_break.get_hookimpls() == []


def test_a_hook_function_without_the_marker_is_rejected(tmp_path):
    write(tmp_path, "unmarked.py", "def on_place(world, pos):\n    pass\n")
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "unmarked" not in mods
    assert "decorate it with @hookimpl" in errors_of(mods)["unmarked"]


def test_hook_wrappers_are_rejected(tmp_path):
    write(
        tmp_path,
        "wrapper.py",
        """
        from world.mods.hooks import hookimpl

        @hookimpl(wrapper=True)
        def can_break(world):
            return (yield)
        """,
    )
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "wrapper" not in mods
    assert "hook wrappers are not supported" in errors_of(mods)["wrapper"]
    assert mods.plugin_manager.get_plugin("wrapper") is None


def test_hook_impls_refuses_an_unknown_hook_name():
    with pytest.raises(ValueError, match="on_explode"):
        Mods().hook_impls("on_explode")


# -- the registry -----------------------------------------------------------------------------


def test_make_registry_holds_base_blocks_first_then_each_mod_in_load_order(tmp_path):
    for name in ("bravo", "alpha"):
        write(
            tmp_path,
            f"{name}.py",
            f"""
            from world.blocks.registry import BlockType
            from world.mods.hooks import hookimpl

            @hookimpl
            def register_blocks(registry):
                registry.register(BlockType("{name}:one"))
                registry.register(BlockType("{name}:two", hardness=registry["base:sand"].hardness))
            """,
        )
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    registry = make_registry(mods)
    assert mods.errors == [] and mods.registry is registry
    base = default_registry().names
    assert registry.names == [*base, "alpha:one", "alpha:two", "bravo:one", "bravo:two"]
    assert registry["bravo:two"].hardness == registry["base:sand"].hardness


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'registry.register(BlockType("other:thing"))',
            "may only register blocks named 'grab:...'",
        ),
        ('registry.register(BlockType("grab:a"))\n    raise RuntimeError("half way")', "half way"),
        (
            'registry.register(BlockType("grab:a"))\n    registry.register(BlockType("grab:a"))',
            "already",
        ),
        ('registry.register("grab:a")', "must be a BlockType"),
    ],
)
def test_a_failing_register_blocks_adds_nothing_and_disables_the_mod(tmp_path, body, message):
    write(
        tmp_path,
        "grab.py",
        "from world.blocks.registry import BlockType\nfrom world.mods.hooks import hookimpl\n\n"
        "@hookimpl\ndef register_blocks(registry):\n    " + body + "\n",
    )
    write(tmp_path, "follower.py", GOOD + "\ndepends = ['grab']\n")
    write(tmp_path, "fine.py", GOOD)
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert mods.names == (BASE, "fine", "grab", "follower")
    registry = make_registry(mods)
    assert registry.names == default_registry().names
    assert mods.names == (BASE, "fine")
    errors = [(e.mod, e.where, e.message) for e in mods.errors]
    assert errors[0][:2] == ("grab", "register_blocks") and message in errors[0][2]
    assert ("follower", "load") in [e[:2] for e in errors]
    assert mods.plugin_manager.get_plugin("grab") is None


def test_mods_container_api(tmp_path):
    write(tmp_path, "solo.py", GOOD)
    mods = load_mods([tmp_path], entry_points=False, game=GAME)
    assert "solo" in mods and "other" not in mods and len(mods) == 2
    assert [m.name for m in mods] == [BASE, "solo"]
    with pytest.raises(KeyError, match="other"):
        mods["other"]
    assert "solo" in repr(mods)


def test_a_tryfirst_mod_registers_its_blocks_after_the_game_s_content() -> None:
    class Eager:
        @hookimpl(tryfirst=True)
        def register_blocks(self, registry: object) -> None:
            registry.register(BlockType("eager:first"))  # type: ignore[attr-defined]

    mods = load_mods([], entry_points=False, plugins={"eager": Eager()}, game=GAME)
    registry = make_registry(mods)
    assert registry.id("base:stone") == 1 and registry.id("eager:first") > registry.id("base:door")
