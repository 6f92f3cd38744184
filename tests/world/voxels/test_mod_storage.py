"""Per-world mod storage: each mod's key→value store lives on the world and is checked on write."""

from __future__ import annotations

import pytest

from world import World
from world.voxels.mod_storage import MAX_VALUE, ModStorage


def test_each_world_starts_with_empty_stores_that_are_not_shared():
    a, b = World(), World()
    a.mod_storage.for_mod("protection")["areas"] = "[]"
    assert "areas" not in b.mod_storage.for_mod("protection")
    assert a.mod_storage.snapshot() == {"protection": {"areas": "[]"}}


def test_a_change_marks_the_storage_modified_until_restored():
    storage = ModStorage()
    assert not storage.modified
    store = storage.for_mod("counter")
    store["n"] = 1
    assert storage.modified
    storage.restore(storage.snapshot())
    assert not storage.modified
    del store["n"]
    assert storage.modified


def test_restore_keeps_the_store_objects_mods_hold():
    storage = ModStorage()
    held = storage.for_mod("lamp")
    held["on"] = True
    storage.restore({"lamp": {"on": False, "count": 3}})
    assert dict(held) == {"on": False, "count": 3}
    storage.restore({})
    assert dict(held) == {}


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("", 1, "key"),
        (3, 1, "key"),
        ("k", [1, 2], "'k'"),
        ("k", None, "'k'"),
        ("k", 1 << 64, "64 bits"),
        ("k", b"x" * (MAX_VALUE + 1), "over"),
    ],
)
def test_values_a_save_could_not_write_are_refused_naming_the_key(key, value, words):
    store = ModStorage().for_mod("m")
    with pytest.raises(ValueError, match=words):
        store[key] = value
    assert len(store) == 0


def test_restore_refuses_bad_items_and_changes_nothing():
    storage = ModStorage()
    storage.for_mod("m")["keep"] = "yes"
    with pytest.raises(ValueError, match="'bad'"):
        storage.restore({"m": {"ok": 1, "bad": object()}})
    assert storage.snapshot() == {"m": {"keep": "yes"}}
