"""Per-world mod storage (as Luanti's): a small key→value store per mod, saved with the world.

A mod keeps what it must remember (protected areas, a counter, a config value) here, never in
module-level variables: the store belongs to the `World`, so it is saved in the world file,
loaded with it, and starts empty in a new world. ``world.mod_storage.for_mod("protection")``
returns that mod's `ModStore`; mods reach it through ``ModWorld.storage`` in their hooks.

Keys are non-empty strings of at most `MAX_KEY` characters; values are ``str``, ``int`` (64-bit),
``float``, ``bool`` or ``bytes``, at most `MAX_VALUE` bytes each once encoded. Anything else is a
`ValueError` naming the key, so nothing is accepted that a save could not write back. A change marks
the storage ``modified`` so the store saves it with the next save.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping

__all__ = ["MAX_KEY", "MAX_VALUE", "ModStorage", "ModStore", "Value", "check_value"]

Value = str | int | float | bool | bytes
MAX_KEY = 256
MAX_VALUE = 1 << 20  # 1 MiB per value: mod storage is for state, not for bulk data
_INT64 = 1 << 63


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
        raise ValueError(
            f"mod storage key must be a string of 1 to {MAX_KEY} characters, got {key!r}"
        )
    return key


def check_value(key: str, value: object) -> Value:
    """``value`` when a save can keep it (module notes); a `ValueError` naming ``key`` else."""
    if isinstance(value, bool | float):
        return value
    if isinstance(value, int):
        if not -_INT64 <= value < _INT64:
            raise ValueError(f"mod storage value for {key!r} must fit 64 bits, got {value}")
        return value
    if isinstance(value, str):
        size = len(value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, bytes):
        size = len(value)
    else:
        raise ValueError(
            f"mod storage value for {key!r} must be str, int, float, bool or bytes, "
            f"got {type(value).__name__}"
        )
    if size > MAX_VALUE:
        raise ValueError(f"mod storage value for {key!r} is {size} bytes, over {MAX_VALUE}")
    return value


class ModStore(MutableMapping[str, Value]):
    """One mod's key→value store: a mutable mapping whose changes are saved with the world."""

    def __init__(self, owner: ModStorage, mod: str) -> None:
        self._owner = owner
        self.mod = mod
        self._data: dict[str, Value] = {}

    def __getitem__(self, key: str) -> Value:
        return self._data[key]

    def __setitem__(self, key: str, value: Value) -> None:
        key = _check_key(key)
        self._data[key] = check_value(key, value)
        self._owner.modified = True

    def __delitem__(self, key: str) -> None:
        del self._data[key]
        self._owner.modified = True

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"ModStore({self.mod!r}, {len(self._data)} keys)"


class ModStorage:
    """Every mod's store in one world; ``modified`` is True after a change until it is saved."""

    def __init__(self) -> None:
        self._stores: dict[str, ModStore] = {}
        self.modified = False

    def for_mod(self, mod: str) -> ModStore:
        """The store of the mod named ``mod`` (created empty on first use)."""
        if not isinstance(mod, str) or not mod:
            raise ValueError(f"mod must be a mod's name, got {mod!r}")
        store = self._stores.get(mod)
        if store is None:
            store = self._stores[mod] = ModStore(self, mod)
        return store

    def snapshot(self) -> dict[str, dict[str, Value]]:
        """A copy of every non-empty store: ``{mod: {key: value}}`` (what a save writes)."""
        return {mod: dict(store) for mod, store in self._stores.items() if len(store)}

    def restore(self, data: Mapping[str, Mapping[str, object]]) -> None:
        """Replace every store's contents with ``data`` (what a load reads), checking each item.

        Stores already handed out stay the same objects (a mod may hold on to its store).
        """
        checked = {
            mod: {_check_key(k): check_value(k, v) for k, v in items.items()}
            for mod, items in data.items()
        }
        for store in self._stores.values():
            store._data.clear()
        for mod, items in checked.items():
            self.for_mod(mod)._data.update(items)
        self.modified = False

    def __repr__(self) -> str:
        return f"ModStorage({sorted(self._stores)})"
