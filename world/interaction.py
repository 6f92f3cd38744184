"""Breaking, placing and using blocks: one rule pipeline that mods can veto and extend.

The game maps mouse buttons to `break_block` (left), `use_block` (right: a mod's ``on_use``
or else placing the actor's selected block) and `pick_block` (middle); each returns an
`Outcome`. Every action runs, in order (Luanti's dig/place pipeline):

1. the built-in rules (Minecraft's): nothing is broken where there is air or an unbreakable
   block (infinite hardness: bedrock, water); a block is placed into ``hit.block`` itself when
   that block is replaceable (tall grass), else into ``hit.block + hit.face``, and never into a
   block that is not replaceable, outside the world's ``build_height`` (``low <= wy < high``)
   or, for a solid block, into the actor's body;
2. the mods' ``can_*`` hooks (the first ``False`` or reason string denies);
3. the change;
4. the mods' ``on_*`` hooks, then the ``on_neighbor_changed`` notifications of every changed
   voxel, queued (never nested) and bounded by `NEIGHBOR_BUDGET` changed voxels per action;
   the rest waits for the next `world.mods.Mods.tick`, which goes on with at most
   `TICK_NEIGHBOR_BUDGET` per frame, so a falling-sand cascade or two mods that keep answering
   each other cannot hang the game.

Mods reach the pipeline explicitly: pass the `world.mods.Mods` the game loaded at start as
``mods=``; with ``mods=None`` only the built-in rules apply. A hook that raises is logged with its
mod's name (see `world.mods`), and the action is denied with a reason naming the mod and rolled
back: every block the action changed, its mods' changes included, is restored, so the world is as
before. (Luanti keeps the change after a failing callback; restoring it keeps "no block is lost
or half-changed" simple to state and to test.)

Hooks see the world through a `ModWorld`: reads return copies, writes (`ModWorld.set_block`)
are journalled for that roll-back and notify neighbours, and it is read-only inside ``can_*``
hooks. Survival breaking takes time: `break_time` gives the seconds (the game shows progress and
calls `break_block` when they have passed); the pipeline itself does not wait.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from world.blocks import AIR, BlockRegistry, BlockType
from world.chunks import World, as_coords
from world.geometry import FACE_NORMALS, Int3
from world.physics import EYE_HEIGHT, PLAYER_HEIGHT, PLAYER_WIDTH  # the player's box, defined once
from world.ray import Hit, RayBatch, raycast, raycast_many

if TYPE_CHECKING:
    from world.mods import Implementation, ModError, Mods

__all__ = [
    "EYE_HEIGHT",
    "NEIGHBOR_BUDGET",
    "NOTHING_TARGETED",
    "PLAYER_HEIGHT",
    "PLAYER_WIDTH",
    "REACH_CREATIVE",
    "REACH_SURVIVAL",
    "TICK_NEIGHBOR_BUDGET",
    "Actor",
    "Change",
    "ModWorld",
    "Outcome",
    "break_block",
    "break_time",
    "pick_block",
    "place_block",
    "tick",
    "use_block",
]

# Changed voxels whose neighbours are notified per action, and per tick. One change with 6
# non-air neighbours and one trivial neighbour hook costs ~15 µs in CPython (measured; real hooks
# add their own work): 256 bound a click to a few ms (a radius-3 explosion, 123 voxels, fits),
# 64 keep a frame's share to about 1 ms.
NEIGHBOR_BUDGET = 256
TICK_NEIGHBOR_BUDGET = 64
NOTHING_TARGETED = "nothing targeted"
# How far a player reaches (Minecraft Java: 5 blocks in creative, 4.5 in survival).
REACH_CREATIVE = 5.0
REACH_SURVIVAL = 4.5

Vec3 = tuple[float, float, float]


def _vec3(value: object, name: str) -> Vec3:
    try:
        x, y, z = (float(v) for v in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be 3 numbers, got {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return (x, y, z)


@dataclass(frozen=True)
class Actor:
    """Who acts: a player (or a mod acting for one). A value object; hooks get it as is.

    Parameters
    ----------
    name : str
        Non-empty; protection mods compare it with an area's owner.
    eye : tuple of 3 float
        Eye position in world units.
    body_min, body_max : tuple of 3 float
        Corners of the body's axis-aligned box; a solid block may not be placed where it
        overlaps the box's interior (touching a face is allowed: you can build under your feet).
    creative : bool
        Creative mode: breaking is instant.
    selected : str or int or None
        The hotbar's selected block (name or id) that `use_block` places when no mod handles
        the click.
    """

    name: str
    eye: Vec3
    body_min: Vec3
    body_max: Vec3
    creative: bool = False
    selected: str | int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        for field_name in ("eye", "body_min", "body_max"):
            object.__setattr__(self, field_name, _vec3(getattr(self, field_name), field_name))
        if any(lo > hi for lo, hi in zip(self.body_min, self.body_max, strict=True)):
            raise ValueError(
                f"body_min must not exceed body_max on any axis, got {self.body_min} and "
                f"{self.body_max}"
            )
        if not isinstance(self.creative, bool):
            raise ValueError(f"creative must be a bool, got {self.creative!r}")
        if self.selected is not None and (
            isinstance(self.selected, bool) or not isinstance(self.selected, str | int)
        ):
            raise ValueError(f"selected must be a block name, id or None, got {self.selected!r}")

    @property
    def reach(self) -> float:
        """How far this actor reaches: `REACH_CREATIVE` or `REACH_SURVIVAL`."""
        return REACH_CREATIVE if self.creative else REACH_SURVIVAL

    @classmethod
    def at(
        cls,
        name: str,
        feet: Sequence[float],
        *,
        creative: bool = False,
        selected: str | int | None = None,
        width: float = PLAYER_WIDTH,
        height: float = PLAYER_HEIGHT,
        eye_height: float = EYE_HEIGHT,
    ) -> Actor:
        """An actor standing with the centre of its feet at ``feet`` (Minecraft's 0.6 x 1.8 box)."""
        fx, fy, fz = _vec3(feet, "feet")
        half = width / 2
        return cls(
            name,
            eye=(fx, fy + eye_height, fz),
            body_min=(fx - half, fy, fz - half),
            body_max=(fx + half, fy + height, fz + half),
            creative=creative,
            selected=selected,
        )

    def overlaps(self, pos: Sequence[int]) -> bool:
        """True when voxel ``pos`` (the unit cube at it) overlaps the body's interior."""
        return all(
            v < hi and v + 1 > lo
            for v, lo, hi in zip(pos, self.body_min, self.body_max, strict=True)
        )


class Change(NamedTuple):
    """One voxel changed by an action: where, and the block ids before and after."""

    pos: Int3
    old: int
    new: int


@dataclass(frozen=True)
class Outcome:
    """What an action did: ``bool(outcome)`` is ``done``.

    Attributes
    ----------
    done : bool
        The action happened.
    reason : str
        Why not, for the player ("bedrock cannot be broken"); empty when done.
    pos : Int3 or None
        The voxel acted on (for a place, where the block went or would have gone).
    changes : tuple of Change
        Every voxel the action changed, in order, mods' changes included (mods' neighbour
        updates deferred to a later tick are not listed).
    break_time : float
        Seconds the break takes by hand (0 in creative); 0 for other actions.
    used : bool
        A mod's ``on_use`` handled the right click (so nothing was placed).
    denied_by : str or None
        The mod that denied or failed; ``None`` when done or denied by a built-in rule.
    """

    done: bool
    reason: str = ""
    pos: Int3 | None = None
    changes: tuple[Change, ...] = ()
    break_time: float = 0.0
    used: bool = False
    denied_by: str | None = None

    def __bool__(self) -> bool:
        return self.done


def _denied(reason: str, pos: Int3 | None = None, mod: str | None = None) -> Outcome:
    return Outcome(False, reason, pos=pos, denied_by=mod)


def _failed(error: ModError, pos: Int3 | None) -> Outcome:
    return Outcome(False, str(error), pos=pos, denied_by=error.mod)


class _Session:
    """One action's (or tick's) journal of changes and queue of neighbour notifications.

    Used as a context manager: on leaving it the session's `ModWorld` stops accepting writes (a
    mod that kept it cannot change blocks behind the pipeline's back), and an exception that
    escapes (not a mod's: those are caught and recorded) first restores every voxel the
    session changed, so no action is ever half applied.
    """

    def __init__(self, world: World, mods: Mods | None) -> None:
        self.world = world
        self.mods = mods
        self.changes: list[Change] = []
        self.queue: deque[Change] = deque()
        # The can_* hook running, while one runs: the world is read-only then.
        self.read_only: str | None = None
        # The first mod error met anywhere in the action, nested checks (a mod's may_break)
        # included: the action is then denied and rolled back whatever the asking mod did.
        self.error: ModError | None = None
        self.closed = False
        self.view = ModWorld(self)

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        if exc_type is not None:
            self.rollback((0, 0))
            self.queue.clear()
        self.closed = True

    def set(self, pos: Int3, block_id: int) -> None:
        old = self.world.get_block(*pos)
        if old == block_id:
            return
        self.world.set_block(*pos, block_id)
        change = Change(pos, old, block_id)
        self.changes.append(change)
        if self.mods is not None:
            self.queue.append(change)

    def set_many(self, coords: NDArray[np.int64], ids: NDArray[np.int64]) -> None:
        # Repeated coordinates: the last one wins, as in World.set_blocks.
        last = len(coords) - 1 - np.unique(coords[::-1], axis=0, return_index=True)[1]
        coords, ids = coords[last], ids[last]
        old = self.world.get_blocks(coords).astype(np.int64)
        changed = old != ids
        coords, old, ids = coords[changed], old[changed], ids[changed]
        self.world.set_blocks(coords, ids)
        new_changes = [
            Change(Int3(*xyz), before, after)
            for xyz, before, after in zip(coords.tolist(), old.tolist(), ids.tolist(), strict=True)
        ]
        self.changes.extend(new_changes)
        if self.mods is not None:
            self.queue.extend(new_changes)

    def mark(self) -> tuple[int, int]:
        return len(self.changes), len(self.queue)

    def rollback(self, mark: tuple[int, int]) -> None:
        """Restore every voxel changed since ``mark`` and forget their notifications.

        Only appends happen to the queue between a mark and its roll-back (a single hook call),
        except for a whole action, which clears the queue.
        """
        n_changes, n_queued = mark
        for change in reversed(self.changes[n_changes:]):
            self.world.set_block(*change.pos, change.old)
        del self.changes[n_changes:]
        while len(self.queue) > n_queued:
            self.queue.pop()


class ModWorld:
    """The world as a hook sees it: reads return copies, writes are journalled.

    A `ModWorld` lives for one action or tick. Writes made through it in an ``on_*`` hook
    belong to that action: they are listed in its `Outcome`, restored if any hook of the action
    raises, and notified to their neighbours' ``on_neighbor_changed``. They are *not* vetoed by
    ``can_*`` hooks nor reported to ``on_break`` / ``on_place``; ask `may_break` /
    `may_place` first to respect other mods (a protected area). Inside ``can_*`` hooks every
    write raises ``RuntimeError``.
    """

    __slots__ = ("_session",)

    def __init__(self, session: _Session) -> None:
        self._session = session

    @property
    def registry(self) -> BlockRegistry:
        """Block types by name or id (its arrays are read-only; do not register here)."""
        return self._session.world.registry

    @property
    def build_height(self) -> tuple[int, int]:
        """``(low, high)``: players place blocks at ``low <= wy < high``."""
        return self._session.world.build_height

    def get_block(self, wx: int, wy: int, wz: int) -> int:
        """The block id at a world voxel."""
        return self._session.world.get_block(wx, wy, wz)

    def get_blocks(self, xyz: ArrayLike) -> NDArray[np.uint16]:
        """Block ids at N world voxels, shape (N, 3) -> (N,): a new array (empty input allowed)."""
        return self._session.world.get_blocks(xyz)

    def _writable(self) -> None:
        if self._session.closed:
            raise RuntimeError(
                "this world view belonged to an action or tick that is over; "
                "change blocks through the world passed to the current hook"
            )
        if self._session.read_only is not None:
            raise RuntimeError(
                f"blocks cannot be changed inside {self._session.read_only}: "
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
        pos = Int3(*(_coordinate(v, n) for v, n in ((wx, "wx"), (wy, "wy"), (wz, "wz"))))
        self._session.set(pos, self.registry.resolve(block))

    def set_blocks(self, xyz: ArrayLike, block: str | int | ArrayLike) -> None:
        """Set N voxels, shape (N, 3), to one block (name or id) or to N ids.

        For repeated coordinates the last one wins; no voxel (an empty list) is allowed.
        Raises as `set_block`.
        """
        self._writable()
        coords = as_coords(xyz, "xyz")
        if isinstance(block, str | int | np.integer):
            block_id = self.registry.resolve(block if isinstance(block, str) else int(block))
            ids = np.full(len(coords), block_id, dtype=np.int64)
        else:
            ids = np.asarray(block)
            if (ids.dtype.kind not in "iu" and ids.size) or ids.shape != (len(coords),):
                raise ValueError(
                    f"block must be a block name, an id or {len(coords)} integer ids, "
                    f"got {ids.dtype} {ids.shape}"
                )
            if ids.size and (ids.min() < 0 or ids.max() >= len(self.registry)):
                raise ValueError(f"block holds unknown ids: {sorted(set(ids.tolist()))}")
        if len(coords):
            self._session.set_many(coords, ids.astype(np.int64))

    def may_break(self, pos: Sequence[int], actor: Actor) -> Outcome:
        """Would `break_block` let ``actor`` break ``pos``? Built-in rules and ``can_break``."""
        voxel = _position(pos)
        _check_actor(actor)
        denied = _may_break(self._session, voxel, actor)
        return Outcome(True, pos=voxel) if denied is None else denied

    def may_place(self, pos: Sequence[int], block: str | int, actor: Actor) -> Outcome:
        """Would `place_block` let ``actor`` put ``block`` at ``pos`` itself? Rules and hooks."""
        voxel = _position(pos)
        _check_actor(actor)
        block_id = self.registry.resolve(block)
        denied = _may_place(self._session, voxel, block_id, actor)
        return Outcome(True, pos=voxel) if denied is None else denied

    def raycast(
        self,
        origin: ArrayLike,
        direction: ArrayLike,
        reach: float,
        *,
        hits: Callable[[int], bool] | None = None,
    ) -> Hit | None:
        """`world.ray.raycast` on this world."""
        return raycast(self._session.world, origin, direction, reach, hits=hits)

    def raycast_many(
        self,
        origins: ArrayLike,
        directions: ArrayLike,
        reach: float | ArrayLike,
        *,
        hits: ArrayLike | None = None,
    ) -> RayBatch:
        """`world.ray.raycast_many` on this world: N rays at once (``hits``: a bool per id)."""
        return raycast_many(self._session.world, origins, directions, reach, hits=hits)


def _coordinate(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer voxel coordinate, got {value!r}")
    return int(value)


def _position(pos: object) -> Int3:
    values = tuple(pos) if isinstance(pos, Iterable) else ()
    if len(values) != 3:
        raise ValueError(f"pos must be 3 integer voxel coordinates, got {pos!r}")
    return Int3(*(_coordinate(v, f"pos {axis}") for v, axis in zip(values, "xyz", strict=True)))


def _check_actor(actor: object) -> None:
    if not isinstance(actor, Actor):
        raise TypeError(f"actor must be an Actor, got {type(actor).__name__}")


def _check(world: object, hit: object, actor: object) -> None:
    if not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    if hit is not None and not isinstance(hit, Hit):
        raise TypeError(f"hit must be a Hit or None, got {type(hit).__name__}")
    _check_actor(actor)


# -- hook calling ------------------------------------------------------------------------------


def _ask(session: _Session, hook: str, pos: Int3, block: BlockType, actor: Actor) -> Outcome | None:
    """Run a ``can_*`` hook chain: the first denial as an `Outcome`, or None when all allow."""
    mods = session.mods
    if mods is None:
        return None
    kwargs = {"world": session.view, "pos": pos, "block": block, "actor": actor}
    outer, session.read_only = session.read_only, hook
    try:
        for impl in mods.hook_impls(hook):
            result, error = mods.run(impl, kwargs)
            if error is not None:
                session.error = session.error or error
                return _failed(error, pos)
            if result is None or result is True:
                continue
            if result is False:
                return _denied(f"denied by mod {impl.mod!r}", pos, impl.mod)
            if isinstance(result, str) and result:
                return _denied(result, pos, impl.mod)
            bad = _bad_return(mods, impl, result, "None, True, False or a reason")
            session.error = session.error or bad
            return _failed(bad, pos)
    finally:
        session.read_only = outer
    return None


def _bad_return(mods: Mods, impl: Implementation, result: object, expected: str) -> ModError:
    return mods.record(impl.mod, impl.hook, TypeError(f"returned {result!r}; expected {expected}"))


def _notify(
    session: _Session, hook: str, kwargs: Mapping[str, object], *, until_true: bool = False
) -> tuple[bool, ModError | None]:
    """Run an ``on_*`` hook chain; (handled, the first error). Stops at an error or, with
    ``until_true``, at the first ``True``."""
    mods = session.mods
    if mods is None:
        return False, None
    for impl in mods.hook_impls(hook):
        result, error = mods.run(impl, kwargs)
        if error is not None:
            return False, error
        if until_true:
            if result is True:
                return True, None
            if result is not None and result is not False:
                return False, _bad_return(mods, impl, result, "True, False or None")
    return False, None


def _drain(session: _Session, budget: int, *, isolate: bool) -> ModError | None:
    """Notify the neighbours of queued changes, oldest first, up to ``budget`` changes.

    With ``isolate`` (ticks), a failing call's own changes are rolled back and the rest goes on;
    otherwise (actions) the first error is returned for the caller to roll the action back.
    """
    mods = session.mods
    impls: Iterable[Implementation] = mods.hook_impls("on_neighbor_changed") if mods else ()
    if mods is None or not impls:
        session.queue.clear()
        return None
    if not session.queue:  # the common case every frame: nothing to tell
        return None
    world = session.world
    types = tuple(world.registry)  # BlockType by id, without the registry's per-call checks
    for _ in range(budget):
        if not session.queue:
            break
        change = session.queue.popleft()
        old, new = types[change.old], types[change.new]
        for normal in FACE_NORMALS:
            pos = change.pos + normal
            block_id = world.get_block(*pos)
            if block_id == AIR:
                continue
            kwargs = {
                "world": session.view,
                "pos": pos,
                "block": types[block_id],
                "neighbor": change.pos,
                "old": old,
                "new": new,
            }
            for impl in impls:
                mark = session.mark()
                _, error = mods.run(impl, kwargs)
                error = error or session.error  # or a check the hook asked for failed
                if error is not None:
                    if not isolate:
                        return error
                    session.error = None
                    session.rollback(mark)
    return None


def _finish(session: _Session, pos: Int3, error: ModError | None, **fields: object) -> Outcome:
    """Close an action: notify neighbours, then keep it, or restore everything on an error."""
    error = error or session.error
    if error is None:
        error = _drain(session, NEIGHBOR_BUDGET, isolate=False)
    if error is not None:
        session.rollback((0, 0))
        session.queue.clear()
        return _failed(error, pos)
    if session.mods is not None and session.queue:
        session.mods.pending(session.world).extend(session.queue)
        session.queue.clear()
    return Outcome(True, pos=pos, changes=tuple(session.changes), **fields)  # type: ignore[arg-type]


# -- built-in rules ----------------------------------------------------------------------------


def _may_break(session: _Session, pos: Int3, actor: Actor) -> Outcome | None:
    registry = session.world.registry
    block_id = session.world.get_block(*pos)
    if block_id == AIR:
        return _denied("nothing to break", pos)
    block = registry[block_id]
    if not block.breakable:
        return _denied(f"{block.description} cannot be broken", pos)
    return _ask(session, "can_break", pos, block, actor)


def _may_place(session: _Session, pos: Int3, block_id: int, actor: Actor) -> Outcome | None:
    world = session.world
    registry = world.registry
    block = registry[block_id]
    if block_id == AIR:
        return _denied("cannot place air", pos)
    low, high = world.build_height
    if not low <= pos.y < high:
        return _denied(f"outside the build height ({low} to {high - 1})", pos)
    current_id = world.get_block(*pos)
    current = registry[current_id]
    if current_id == block_id:
        return _denied(f"there is already {current.description} here", pos)
    if not current.replaceable:
        return _denied(f"{current.description} is in the way", pos)
    if block.solid and actor.overlaps(pos):
        return _denied(f"cannot place {block.description} inside yourself", pos)
    return _ask(session, "can_place", pos, block, actor)


def _hit_voxel(hit: Hit) -> Int3:
    return _position(hit.block)


def _break_seconds(block: BlockType, actor: Actor) -> float:
    if not block.breakable:
        return math.inf
    return 0.0 if actor.creative else float(block.hardness)


# -- actions -----------------------------------------------------------------------------------


def break_block(
    world: World, hit: Hit | None, actor: Actor, *, mods: Mods | None = None
) -> Outcome:
    """Break the targeted block (left click), leaving air.

    Parameters
    ----------
    world : World
    hit : Hit or None
        The raycast's answer; ``None`` (nothing targeted) is denied.
    actor : Actor
    mods : Mods, optional
        The loaded mods; ``None`` applies the built-in rules only.

    Returns
    -------
    Outcome
        Done with the changes and ``break_time`` (the seconds the game should have made the
        player hold the button), or denied: air, an unbreakable block, a ``can_break`` veto or a
        failing hook (the world is then unchanged).
    """
    _check(world, hit, actor)
    if hit is None:
        return _denied(NOTHING_TARGETED)
    with _Session(world, mods) as session:
        return _break(session, _hit_voxel(hit), actor)


def _break(session: _Session, pos: Int3, actor: Actor) -> Outcome:
    denied = _may_break(session, pos, actor)
    if denied is not None:
        return denied
    block = session.world.registry[session.world.get_block(*pos)]
    session.set(pos, AIR)
    _, error = _notify(
        session, "on_break", {"world": session.view, "pos": pos, "block": block, "actor": actor}
    )
    return _finish(session, pos, error, break_time=_break_seconds(block, actor))


def place_block(
    world: World,
    hit: Hit | None,
    block: str | int,
    actor: Actor,
    *,
    mods: Mods | None = None,
) -> Outcome:
    """Place ``block`` (name or id) at the targeted spot.

    The block goes into ``hit.block`` itself when that block is replaceable (tall grass), else
    against the entered face, at ``hit.block + hit.face``.

    Returns
    -------
    Outcome
        Done, or denied by a built-in rule, a ``can_place`` veto or a failing hook; ``pos`` is
        the voxel the block went, or would have gone, into.

    Raises
    ------
    ValueError
        For an unknown block name or id (checked before anything else: nothing changes).
    """
    _check(world, hit, actor)
    block_id = world.registry.resolve(block)
    if hit is None:
        return _denied(NOTHING_TARGETED)
    with _Session(world, mods) as session:
        return _place(session, hit, block_id, actor)


def _place(session: _Session, hit: Hit, block_id: int, actor: Actor) -> Outcome:
    world = session.world
    pos = _hit_voxel(hit)
    if not world.registry.replaceable[world.get_block(*pos)]:
        face = _position(hit.face)
        if face == (0, 0, 0):
            return _denied("no face to place against: the eye is inside the block", pos)
        pos = pos + face
    denied = _may_place(session, pos, block_id, actor)
    if denied is not None:
        return denied
    session.set(pos, block_id)
    block = world.registry[block_id]
    _, error = _notify(
        session, "on_place", {"world": session.view, "pos": pos, "block": block, "actor": actor}
    )
    return _finish(session, pos, error)


def use_block(world: World, hit: Hit | None, actor: Actor, *, mods: Mods | None = None) -> Outcome:
    """Right click: let a mod's ``on_use`` handle the targeted block, or else place.

    When every ``can_use`` allows it and some ``on_use`` returns ``True``, that is the action
    (``outcome.used``). Otherwise the actor's selected block is placed as by `place_block`
    (denied with a reason when nothing is selected). A denied use is not turned into a place.

    Raises
    ------
    ValueError
        When ``actor.selected`` names an unknown block (checked before any hook runs).
    """
    _check(world, hit, actor)
    selected = None if actor.selected is None else world.registry.resolve(actor.selected)
    if hit is None:
        return _denied(NOTHING_TARGETED)
    with _Session(world, mods) as session:
        return _use(session, hit, selected, actor)


def _use(session: _Session, hit: Hit, selected: int | None, actor: Actor) -> Outcome:
    pos = _hit_voxel(hit)
    block_id = session.world.get_block(*pos)
    if block_id == AIR:
        return _denied("nothing to use", pos)
    block = session.world.registry[block_id]
    denied = _ask(session, "can_use", pos, block, actor)
    if denied is not None:
        return denied
    handled, error = _notify(
        session,
        "on_use",
        {"world": session.view, "pos": pos, "block": block, "actor": actor},
        until_true=True,
    )
    if handled or error is not None:
        return _finish(session, pos, error, used=True)
    if selected is None:
        placed = _denied(f"{block.description} cannot be used and no block is selected", pos)
    else:
        placed = _place(session, hit, selected, actor)
    if placed.done or not session.changes:
        return placed
    # No mod claimed the click and the place was denied, yet an on_use hook changed blocks:
    # those changes stand, as any on_* hook's do.
    kept = _finish(session, pos, None)
    return replace(placed, changes=kept.changes) if kept.done else kept


def break_time(world: World, hit: Hit | None, actor: Actor) -> float:
    """Seconds ``actor`` must hold the button to break the target.

    The block's ``hardness`` in survival, 0 in creative, ``inf`` for an unbreakable block, air or
    no target. The game shows the progress and calls `break_block` when the time has passed.
    """
    _check(world, hit, actor)
    if hit is None:
        return math.inf
    block_id = world.get_block(*_hit_voxel(hit))
    if block_id == AIR:
        return math.inf
    return _break_seconds(world.registry[block_id], actor)


def pick_block(world: World, hit: Hit | None) -> int | None:
    """The block id the middle click puts in the hotbar: the target's, or None for no target."""
    if not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    if hit is None:
        return None
    if not isinstance(hit, Hit):
        raise TypeError(f"hit must be a Hit or None, got {type(hit).__name__}")
    block_id = world.get_block(*_hit_voxel(hit))
    return None if block_id == AIR else block_id


def tick(world: World, dt: float, *, mods: Mods) -> tuple[Change, ...]:
    """One frame of mod time: every ``on_tick``, then the neighbour notifications waiting.

    Use `world.mods.Mods.tick`, which validates ``dt`` and calls this. Each hook call is
    isolated: when it raises, its own changes are restored and the others still run.

    Returns
    -------
    tuple of Change
        The voxels changed by this tick.
    """
    pending = mods.pending(world)
    with _Session(world, mods) as session:
        session.queue.extend(pending)
        pending.clear()
        kwargs = {"world": session.view, "dt": dt}
        for impl in mods.hook_impls("on_tick"):
            mark = session.mark()
            _, error = mods.run(impl, kwargs)
            if error is not None or session.error is not None:
                session.error = None
                session.rollback(mark)
        _drain(session, TICK_NEIGHBOR_BUDGET, isolate=True)
        pending.extend(session.queue)
        return tuple(session.changes)
