"""The world as a mod's hook sees it: `ModWorld` (what an action changed is `world.voxels.changes`).

Hooks never get the `world.voxels.chunks.World` or its arrays: every hook call gets the `ModWorld`
of the action or tick it is part of. Reads return copies; writes are journalled by the action's
`world.actions.transaction.Transaction` (rolled back with it, notified to their neighbours, settled:
blocks' ``on_construct`` / ``on_destruct``); checks (`ModWorld.may_break`, `ModWorld.may_place`)
apply the built-in rules and the other mods' ``can_*`` hooks without changing anything; actions
as an actor (`ModWorld.dig`, `ModWorld.place`) run the whole pipeline; `ModWorld.storage` is the
calling mod's saved store (`ModWorld.storage_of` a named mod's, for a mod's functions other mods
call); players and entities are `world.mods.objects` references (``players``, ``player``,
``add_item``, ``add_entity``, ``entities_near``), their writes journalled the same way;
`ModWorld.play_sound` records a sound in the action, heard only if the action stands.
Every argument a mod passes is checked here (`world.validate`), with a message naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

import world.validate as validate
from world.blocks.registry import BlockRegistry
from world.blocks.sounds import DEFAULT_DISTANCE, SoundEvent
from world.geometry import Int3, Vec3
from world.items.inventory import ItemStack
from world.mods.objects import ObjectRef, PlayerRef
from world.mods.outcome import Actor, Outcome, check_actor
from world.ray import Hit, RayBatch, raycast, raycast_many
from world.validate import voxel
from world.voxels.block_data import Value, VoxelData
from world.voxels.entities import chunk_of, drop_item

if TYPE_CHECKING:
    from world.voxels.chunks import World
    from world.voxels.mod_storage import ModStore

__all__ = ["ModWorld", "Session"]


class _Declared(Protocol):
    """A loaded mod as a view reads it (`world.mods.host.Mod`)."""

    @property
    def plugin(self) -> object: ...

    @property
    def depends(self) -> tuple[str, ...]: ...

    @property
    def optional_depends(self) -> tuple[str, ...]: ...


class _Loaded(Protocol):
    """The loaded mods as a view reads them (`world.mods.host.Mods`)."""

    def __contains__(self, name: object) -> bool: ...

    def __getitem__(self, name: str) -> _Declared: ...


class Session(Protocol):
    """The action or tick a view belongs to, as the view needs it: what
    `world.actions.transaction.Transaction` gives (the view never names the actions' machinery; the
    transaction hands it the checks and nested actions the rules gave the transaction)."""

    @property
    def world(self) -> World: ...

    @property
    def mods(self) -> _Loaded | None: ...

    @property
    def mod(self) -> str | None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def read_only(self) -> str | None: ...

    def set(self, pos: Int3, block_id: int) -> None: ...

    def set_many(self, coords: NDArray[np.int64], ids: NDArray[np.int64]) -> None: ...

    def may_break(self, pos: Int3, actor: Actor) -> Outcome | None: ...

    def may_place(self, pos: Int3, block_id: int, actor: Actor) -> Outcome | None: ...

    def dig(self, pos: Int3, actor: Actor) -> Outcome: ...

    def place(self, pos: Int3, block_id: int, actor: Actor) -> Outcome: ...

    def play(self, event: SoundEvent) -> None: ...


class ModWorld:
    """The world as a hook sees it: reads return copies, writes are journalled.

    A `ModWorld` lives for one action or tick. Writes made through it in an ``on_*`` hook
    belong to that action: they are listed in its `Outcome`, restored if any hook of the action
    raises, notified to their neighbours' ``on_neighbor_changed``, and run the changed blocks'
    ``on_destruct`` / ``on_construct``. They are *not* vetoed by ``can_*`` hooks nor reported to
    ``on_break`` / ``on_place``; ask `may_break` / `may_place` first to respect other mods (a
    protected area), or act as the actor with `dig` / `place`, which run every hook. Inside
    ``can_*`` hooks every write raises ``RuntimeError``.
    """

    __slots__ = ("_tx",)

    def __init__(self, tx: Session) -> None:
        self._tx = tx

    @property
    def registry(self) -> BlockRegistry:
        """Block types by name or id (its arrays are read-only; do not register here)."""
        return self._tx.world.registry

    @property
    def build_height(self) -> tuple[int, int]:
        """``(low, high)``: players place blocks at ``low <= wy < high``."""
        return self._tx.world.build_height

    def get_block(self, wx: int, wy: int, wz: int) -> int:
        """The block id at a world voxel."""
        return self._tx.world.get_block(wx, wy, wz)

    def get_blocks(self, xyz: ArrayLike) -> NDArray[np.uint16]:
        """Block ids at N world voxels, shape (N, 3) -> (N,): a new array (empty input allowed)."""
        return self._tx.world.get_blocks(xyz)

    @property
    def storage(self) -> ModStore:
        """The calling mod's own saved key→value store (`world.voxels.mod_storage.ModStore`).

        A mutable mapping of str to str, int, float, bool or bytes, kept in the world
        (``world.mod_storage.for_mod(<this mod's name>)``), saved with it and loaded back;
        each mod sees only its own. Writes to it are not rolled back with a failing action.

        Raises
        ------
        RuntimeError
            Outside a hook call (a view kept from an earlier call).
        """
        mod = self._tx.mod
        if mod is None or self._tx.closed:
            raise RuntimeError("mod storage is reached from inside a hook call, through its world")
        return self._tx.world.mod_storage.for_mod(mod)

    def meta(self, wx: int, wy: int, wz: int) -> VoxelData:
        """The voxel's own data (`world.voxels.block_data`): a mapping of str to str, int, float or
        bytes, removed with the block (``on_destruct`` still sees it), saved with its chunk, and
        restored with the blocks when the action is rolled back. Read-only in ``can_*`` hooks."""
        self._tx.world.meta(wx, wy, wz)  # checks the position, loads the chunk's saved data
        writer = self._write_data if self._tx.read_only is None else None
        return VoxelData(self._tx.world.block_data, Int3(wx, wy, wz), writer)

    def _write_data(self, pos: Int3, name: str, value: Value | None) -> None:
        """A data write from a hook: only while its action runs (a mapping kept after the call
        raises), inside the action's journal."""
        self._writable()
        self._tx.world.write_data(pos, name, value)

    def light_at(self, wx: int, wy: int, wz: int) -> tuple[int, int]:
        """(sky, block) light of a voxel, 0..15 each, from the world's ``light``
        (`world.light.lighting`);
        (0, 0) when the world keeps no light or the voxel's chunk holds none. Integer voxel
        coordinates within the world limit, else a `ValueError` naming the argument."""
        x, y, z = voxel(wx, "wx"), voxel(wy, "wy"), voxel(wz, "wz")
        light = getattr(self._tx.world, "light", None)
        if light is None:
            return 0, 0
        sky, block = light.at(x, y, z)
        return int(sky), int(block)

    def start_timer(self, wx: int, wy: int, wz: int, seconds: float) -> None:
        """Start (or restart) the voxel's timer: its block's ``on_timer`` runs after `seconds`
        of world time, told the time that really passed (a chunk not loaded waits, then catches
        up). Rolled back with the action."""
        self._writable()
        self._tx.world.start_timer(wx, wy, wz, seconds)

    def mod(self, name: str) -> object:
        """Another loaded mod's module (or plugin object), to call its public functions:
        ``world.mod("protection").is_protected(world, pos, actor.name)`` (Luanti: another mod's
        global table).

        The calling mod must declare the other in its ``depends`` (loaded first, or the caller
        is not loaded) or ``optional_depends`` (check ``world.has_mod(name)`` first), so the
        load order is known.

        Raises
        ------
        LookupError
            Naming the mod when it is not loaded or not declared.
        """
        mods, caller = self._tx.mods, self._tx.mod
        if mods is None or name not in mods:
            raise LookupError(f"mod {name!r} is not loaded")
        if caller is not None and caller != name and caller in mods:
            declared = mods[caller]
            if name not in (*declared.depends, *declared.optional_depends):
                raise LookupError(
                    f"mod {caller!r} calls mod {name!r} without declaring it: add "
                    f"depends = [{name!r}] (or optional_depends) to {caller!r}"
                )
        return mods[name].plugin

    def has_mod(self, name: str) -> bool:
        """Whether a mod of that name is loaded (for ``optional_depends``)."""
        mods = self._tx.mods
        return mods is not None and name in mods

    def _writable(self) -> None:
        if self._tx.closed:
            raise RuntimeError(
                "this world view belonged to an action or tick that is over; "
                "change blocks through the world passed to the current hook"
            )
        if self._tx.read_only is not None:
            raise RuntimeError(
                f"blocks cannot be changed inside {self._tx.read_only}: "
                "can_* hooks only decide; change blocks in on_* hooks"
            )

    def set_block(self, wx: int, wy: int, wz: int, block: str | int) -> None:
        """Set one voxel to a block given by name or id (see the class notes).

        Raises
        ------
        ValueError
            For an unknown block or a non-integer coordinate.
        RuntimeError
            Inside a ``can_*`` hook.
        """
        self._writable()
        pos = Int3(voxel(wx, "wx"), voxel(wy, "wy"), voxel(wz, "wz"))
        self._tx.set(pos, self.registry.resolve(block))

    def set_blocks(self, xyz: ArrayLike, block: str | int | ArrayLike) -> None:
        """Set N voxels, shape (N, 3), to one block (name or id) or to N ids.

        For repeated coordinates the last one wins; no voxel (an empty list) is allowed.
        Raises as `set_block`.
        """
        self._writable()
        coords = validate.coords(xyz, "xyz")
        if isinstance(block, str | int | np.integer):
            block_id = self.registry.resolve(block if isinstance(block, str | int) else int(block))
            ids = np.full(len(coords), block_id, dtype=np.int64)
        else:
            try:
                ids = np.asarray(block)
            except (ValueError, TypeError):
                raise ValueError("block must be a block name, an id or a list of ids") from None
            if (ids.dtype.kind not in "iu" and ids.size) or ids.shape != (len(coords),):
                raise ValueError(
                    f"block must be a block name, an id or {len(coords)} integer ids, "
                    f"got {ids.dtype} {ids.shape}"
                )
            if ids.size and (ids.min() < 0 or ids.max() >= len(self.registry)):
                raise ValueError(f"block holds unknown ids: {sorted(set(ids.tolist()))}")
        if len(coords):
            self._tx.set_many(coords, ids.astype(np.int64))

    def may_break(self, pos: Sequence[int], actor: Actor) -> Outcome:
        """Would `break_block` let ``actor`` break ``pos``? Built-in rules and ``can_break``."""
        where = validate.position(pos, "pos")
        check_actor(actor)
        denied = self._tx.may_break(where, actor)
        return Outcome(True, pos=where) if denied is None else denied

    def may_place(self, pos: Sequence[int], block: str | int, actor: Actor) -> Outcome:
        """Would `place_block` let ``actor`` put ``block`` at ``pos`` itself? Rules and hooks."""
        where = validate.position(pos, "pos")
        check_actor(actor)
        block_id = self.registry.resolve(block)
        denied = self._tx.may_place(where, block_id, actor)
        return Outcome(True, pos=where) if denied is None else denied

    def dig(self, pos: Sequence[int], actor: Actor) -> Outcome:
        """Break ``pos`` as ``actor`` would: the whole pipeline of `world.rules.Rules.break_block`
        (built-in rules, the block's and every mod's ``can_break``, its ``on_destruct``, every
        mod's ``on_break``), as part of the current action.

        Protection applies to chained breaks this way (a door's other half, a vein miner). A
        denial changes nothing and is returned; a failing hook fails the whole action. Nested
        actions are bounded (`world.actions.pipeline.MAX_DEPTH`,
        `world.actions.pipeline.MAX_CHAINED`).

        Raises
        ------
        RuntimeError
            Inside a ``can_*`` hook or a deciding callback.
        """
        self._writable()
        where = validate.position(pos, "pos")
        check_actor(actor)
        return self._tx.dig(where, actor)

    def place(self, pos: Sequence[int], block: str | int, actor: Actor) -> Outcome:
        """Put ``block`` (a name, state key or state id) at ``pos`` itself as ``actor`` would: the
        built-in rules, every mod's ``can_place``, the change, its ``on_construct``, every mod's
        ``on_place`` (their ``context`` is None: there was no click), as part of the current
        action. The exact state given is placed: the block's ``placement_state`` is not asked.
        Raises as `dig`, and ``ValueError`` for an unknown block.
        """
        self._writable()
        where = validate.position(pos, "pos")
        check_actor(actor)
        return self._tx.place(where, self.registry.resolve(block), actor)

    def play_sound(
        self,
        name: str,
        pos: Sequence[float],
        gain: float = 1.0,
        pitch: float = 1.0,
        max_distance: float = DEFAULT_DISTANCE,
    ) -> None:
        """Play the sound ``name`` (``"mod:name"``: the files ``mod_name.wav``, ``mod_name1.wav``
        ... of that mod's ``sounds/`` folder, `world.mods.sounds`) at ``pos``, as part of the
        current action (Luanti's ``core.sound_play``). It is heard only if the action stands: a
        rolled-back action (a veto, a failing or stopped hook; in a tick, the hook call that
        failed) makes no sound. At most `world.actions.transaction.MAX_SOUNDS` per action or
        tick; the rest are dropped and reported once.

        Parameters
        ----------
        name : str
            ``"mod:name"``, not ending in a digit (`world.blocks.sounds.check_sound_name`).
        pos : sequence of 3 float
            Where it sounds, within the world (a block's centre: ``(x + 0.5, y + 0.5, z + 0.5)``).
        gain : float
            0..10; 1 plays the file as recorded.
        pitch : float
            0.5..2, the playback rate (2: an octave up).
        max_distance : float
            1..256 blocks: heard fading with the distance, not at all beyond it.

        Raises
        ------
        ValueError
            Naming the bad argument (`world.blocks.sounds.SoundEvent`).
        RuntimeError
            Inside a ``can_*`` hook or a deciding callback (they only decide), or through a view
            kept from an action that is over.
        """
        where = validate.vec3(pos, "pos", limit=validate.WORLD_LIMIT)
        event = SoundEvent(name, where, gain, pitch, max_distance)
        self._writable()
        self._tx.play(event)

    # -- players and entities -------------------------------------------------------------------

    def players(self) -> list[PlayerRef]:
        """Every player in the world (Luanti's ``core.get_connected_players``)."""
        world = self._tx.world
        return [PlayerRef(world, player, self._writable) for player in world.players]

    def player(self, name: str | Actor) -> PlayerRef | None:
        """The player of that name (or the actor's player), None when no such player is in the
        world (an actor a mod made up)."""
        key = name.name if isinstance(name, Actor) else name
        if not isinstance(key, str):
            raise ValueError(f"name must be a player's name or an Actor, got {name!r}")
        world = self._tx.world
        found = world.players.get(key)
        return None if found is None else PlayerRef(world, found, self._writable)

    def add_item(
        self,
        pos: Sequence[float],
        stack: ItemStack | tuple[str, int],
        *,
        velocity: Sequence[float] | None = None,
    ) -> ObjectRef:
        """A stack lying in the world at ``pos`` (Luanti's ``core.add_item``): it falls, merges
        with stacks near it and is picked up by a player who walks over it after half a second
        (`world.entities.items`); ``item`` must be a known block or item.

        Raises
        ------
        ValueError
            Naming ``pos``, ``stack`` or ``velocity``; ``pos`` must lie in a loaded chunk.
        """
        self._writable()
        if isinstance(stack, tuple) and len(stack) == 2:
            try:
                stack = ItemStack(*stack)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"stack: {exc}") from None
        if not isinstance(stack, ItemStack):
            raise ValueError(f"stack must be an ItemStack or (item, count), got {stack!r}")
        if stack.item not in self.registry and stack.item not in self.registry.items:
            raise ValueError(f"stack: unknown item {stack.item!r}")
        where = self._entity_pos(pos)
        world = self._tx.world
        cell = Int3(*(int(np.floor(v)) for v in where))
        moving = (0.0, 0.0, 0.0) if velocity is None else validate.vec3(velocity, "velocity")
        entity = drop_item(world.entities, cell, stack, pos=where, velocity=moving)
        return ObjectRef(world, entity, self._writable)

    def add_entity(
        self,
        pos: Sequence[float],
        kind: str,
        *,
        data: Mapping[str, Value] | None = None,
        velocity: Sequence[float] | None = None,
        yaw: float = 0.0,
    ) -> ObjectRef:
        """A new entity of a registered kind (`world.blocks.entity_type.EntityType`) standing
        at ``pos``, with its ``data``; its ``on_activate`` runs before its first step.

        Raises
        ------
        ValueError
            Naming ``kind`` (not registered), ``pos`` (not in a loaded chunk), ``data`` or
            ``velocity``.
        """
        self._writable()
        if kind not in self.registry.entities:
            raise ValueError(f"kind: no entity {kind!r} is registered")
        where = self._entity_pos(pos)
        moving = (0.0, 0.0, 0.0) if velocity is None else validate.vec3(velocity, "velocity")
        world = self._tx.world
        entity = world.entities.add(kind, where, velocity=moving, yaw=yaw, data=data)
        return ObjectRef(world, entity, self._writable)

    def _entity_pos(self, pos: Sequence[float]) -> Vec3:
        where = validate.vec3(pos, "pos", limit=validate.WORLD_LIMIT - 1)
        if not self._tx.world.is_loaded(*chunk_of(where)):
            raise ValueError(f"pos {tuple(pos)} lies in a chunk that is not loaded")
        return where

    def entities_near(
        self, pos: Sequence[float], radius: float, kind: str | None = None
    ) -> list[ObjectRef]:
        """The entities within ``radius`` (≤ 64) of ``pos``, of one ``kind`` if given."""
        where = validate.vec3(pos, "pos", limit=validate.WORLD_LIMIT)
        r = validate.number(radius, "radius")
        if not 0 <= r <= 64:
            raise ValueError(f"radius must be in [0, 64], got {radius!r}")
        world = self._tx.world
        return [
            ObjectRef(world, entity, self._writable)
            for entity in world.entities.near(where, r)
            if kind is None or entity.kind == kind
        ]

    def entity(self, entity_id: int) -> ObjectRef | None:
        """The loaded entity with that id, or None."""
        world = self._tx.world
        found = world.entities.get(entity_id)
        return None if found is None else ObjectRef(world, found, self._writable)

    def storage_of(self, mod: str) -> ModStore:
        """A mod's saved store by name: for a mod's own functions that other mods call with
        their world (``protection.protect(world, ...)`` reaches ``world.storage_of("protection")``
        whoever calls it). The mod must be loaded; writes are kept as `storage`'s are.

        Raises
        ------
        LookupError
            When no mod of that name is loaded.
        """
        mods = self._tx.mods
        if mods is not None and mod not in mods:
            raise LookupError(f"mod {mod!r} is not loaded")
        if self._tx.closed:
            raise RuntimeError("mod storage is reached from inside a hook call, through its world")
        return self._tx.world.mod_storage.for_mod(mod)

    def raycast(
        self,
        origin: ArrayLike,
        direction: ArrayLike,
        reach: float,
        *,
        hits: Callable[[int], bool] | None = None,
    ) -> Hit | None:
        """`world.ray.raycast` on this world."""
        return raycast(self._tx.world, origin, direction, reach, hits=hits)

    def raycast_many(
        self,
        origins: ArrayLike,
        directions: ArrayLike,
        reach: float | ArrayLike,
        *,
        hits: ArrayLike | None = None,
    ) -> RayBatch:
        """`world.ray.raycast_many` on this world: N rays at once (``hits``: a bool per id)."""
        return raycast_many(self._tx.world, origins, directions, reach, hits=hits)
