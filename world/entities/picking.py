"""What the ray points at among the entities: `pick_entity`, and `pick`, the nearer of an entity
and a block.

The ray is ``p(t) = origin + t * direction`` for ``0 <= t``, its reach measured in blocks along
it (Euclidean, inclusive), exactly as `world.ray.raycast`'s. An entity's box (`entity_box`) is
``size = (width, height)`` blocks: ``(x - w/2, y, z - w/2)`` to ``(x + w/2, y + h, z + w/2)``
around its ``pos`` ``(x, y, z)``, each bound the float that formula gives, taken exactly.

- The ray *hits* a box when it passes through the box's open interior at some ``t >= 0``: per
  axis with a non-zero direction component the ray is inside the box's slab for ``t`` in the open
  interval ``(enter, leave)``; on an axis with a zero component (``-0.0`` too) the coordinate
  must lie in ``[lo, hi)`` (the block raycast's floor convention) and then is inside for every
  ``t``. The entry is ``max(0, enters)``; the box is hit when the entry is below every leave
  and its distance ``entry * |direction|`` is at most the reach.
- `EntityHit.face` is the unit normal of the entered face (the axis of the largest enter, the
  lower axis on an exact tie; the face the origin lies on, at distance 0, when it lies on one and
  the ray goes in), pointing back at the origin; (0, 0, 0) when the origin is strictly inside
  the box. ``point`` is the entry point (its coordinate on the entered face's axis is the face's
  exactly; the origin itself when inside), ``distance`` its distance from the origin (0 inside).
- Only entities of a kind in the world's registry (``world.registry.entities``) that is
  ``pointable`` are hit, and not those whose id is in ``exclude`` (the entity that casts the
  ray). The nearest is reported; on an exact tie, the lower id.
- `pick` answers with `world.ray.raycast`'s `Hit` or an `EntityHit`, whichever is nearer; an
  entity exactly as near as the block wins (it stands in front of the block's face: an entity's
  box may overlap the voxel it stands on).

Exactness. Every decision about a box (a zero-component axis inside or out, entry against
leave, which face, the reach, which entity is nearer) is made in float64 when it is not within
rounding of going the other way, and otherwise again in `fractions.Fraction` on the input
floats, as `world.ray`'s box tests do; the entity against the block is always decided in
`Fraction`, from the planes of the two faces entered. The reported entry parameter is the float
``(bound - o) / d`` of the entered face. Directions are rescaled by a power of two when huge or
tiny (`world.ray`'s own checks), which is exact.

Limits. Arguments are checked by `world.ray`'s own checks, so both raycasts refuse alike: an
origin within ``±WORLD_LIMIT``, a finite non-zero direction, a reach in [0, `MAX_REACH`]; each
refusal a `ValueError` naming the argument. Entities stand inside the world, but a box may stick
out of it by half its width: the ray is followed there too (the block walk ends at the edge).

Cost. Only the entities of the chunks near the segment ``origin → origin + reach·unit`` are
looked at: the chunks it passes through (`world.ray.segment_voxels` in a grid of chunks), grown
by the largest box a pointable kind of the registry has (at most
`world.blocks.entity_type.MAX_ENTITY_SIZE`: half its width sideways, all its height downwards,
since a box stands on its ``pos``), never every entity of the world. An entity whose ``pos``
lies beyond the segment's bounds grown so is passed over with six comparisons, before its kind
is looked up and its box's slab test. A reach-5 ray looks at one to eight chunks' entities
(measured here: about 20 µs more than the block raycast among 130 dropped items in those
chunks, 15 µs when they hold none); the longest, a `MAX_REACH` diagonal, walks about 110 chunks
and looks up the entities of a few hundred, in under 1 ms. A short ray (a player's reach, a
region under `AROUND_SPAN` wide) looks only at the entities of a box `AROUND_SLACK` wider than
its region, kept per world while no entity moves, comes or goes and the rays that follow stay
inside it: a player turning or walking a little looks at a few dozen entities a frame, not at
every one of the chunks round the eye (all of them again in a frame after an entity step).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from weakref import WeakKeyDictionary

from numpy.typing import ArrayLike

from world.blocks.entity_type import EntityType
from world.entities.motion import box_of
from world.geometry import Int3, Vec3
from world.ray import Hit, raycast, segment_voxels

# The ray's own argument checks, so both raycasts refuse (and rescale) alike.
from world.ray._walk import _ray, _reach
from world.voxels.chunks import World
from world.voxels.entities import Entities, Entity, chunk_of
from world.voxels.layout import CHUNK_SHIFT, ChunkKey

__all__ = ["EntityHit", "entity_box", "pick", "pick_entity"]

Box6 = tuple[float, float, float, float, float, float]
"""(x0, y0, z0, x1, y1, z1) in world units (blocks)."""

# A float parameter ``(bound - o) / d`` is two correctly rounded operations from the exact one:
# within 2^-52 of its size, or of the smallest normal float when it underflows. Two floats
# further apart than `_TOL` of their sizes plus `_TINY` compare as their exact values do.
_TOL = 2.0**-40
_TINY = 2.0**-1000
_ZERO = Int3(0, 0, 0)
_FACES = (
    (Int3(-1, 0, 0), Int3(1, 0, 0)),  # entered going +x (face -x), going -x (face +x)
    (Int3(0, -1, 0), Int3(0, 1, 0)),
    (Int3(0, 0, -1), Int3(0, 0, 1)),
)
# The chunks to look in around a point of the ray, in chunk units: a box reaches half its
# largest width sideways and its largest height up from its ``pos``, and the slack covers the
# rounding of the segment's points.
_CHUNK = float(1 << CHUNK_SHIFT)  # an entity is in the chunk floor(pos / 16)
_SLACK = 2.0**-6
_UP = _SLACK / _CHUNK
AROUND_SPAN = 16.0  # blocks: a ray's region no wider than this keeps the entities round it
AROUND_SLACK = 2.0  # blocks those are looked up round it (the eye may go this far meanwhile)


@dataclass(frozen=True)
class EntityHit:
    """The entity a ray targets (module notes).

    Attributes
    ----------
    entity_id : int
        The entity's ``id`` (`world.voxels.entities.Entity`).
    kind : str
        Its kind's name (``"mod:name"``).
    distance : float
        Euclidean distance from the origin to the entry point; 0 when the origin is inside.
    point : tuple of float
        The entry point (the origin itself when it is inside the box).
    face : Int3
        Unit normal of the entered face, pointing back at the origin; (0, 0, 0) inside.
    """

    entity_id: int
    kind: str
    distance: float
    point: Vec3
    face: Int3


@dataclass(frozen=True)
class _Found:
    """A box hit: the float entry parameter, the entered axis (-1: inside), the box, who."""

    t: float
    axis: int
    box: Box6
    entity: Entity


def entity_box(entity: Entity, kind: EntityType) -> Box6:
    """The entity's box ``(x0, y0, z0, x1, y1, z1)``: ``kind.size`` around its bottom centre.

    Parameters
    ----------
    entity : Entity
        Where it stands (``pos``: the centre of the box's bottom).
    kind : EntityType
        Its kind (``size``: width on x and z, height).
    """
    lo, hi = box_of(entity.pos, kind)
    return (*lo, *hi)


def pick_entity(
    world: World,
    origin: ArrayLike,
    direction: ArrayLike,
    reach: float,
    *,
    exclude: Iterable[int] = (),
) -> EntityHit | None:
    """The nearest pointable entity whose box the ray passes through within ``reach``.

    Parameters
    ----------
    world : World
        Its entities (``world.entities``) and their kinds (``world.registry.entities``).
    origin, direction : array_like of float, shape (3,)
        The ray (an origin within ``±WORLD_LIMIT``; the direction need not be normalised).
    reach : float
        Inclusive maximum Euclidean entry distance, in [0, `world.ray.MAX_REACH`].
    exclude : iterable of int
        Ids of entities the ray passes through (the one looking, say).

    Returns
    -------
    EntityHit or None

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction``, ``reach`` or ``exclude`` as `world.ray.raycast` does
        (not numbers, NaN or infinite, an origin outside the world, a zero direction, a reach
        negative or beyond `MAX_REACH`; ids that are not integers).
    TypeError
        When ``world`` is not a `World`.
    """
    o, d, norm, reach, excluded = _checked(world, origin, direction, reach, exclude)
    found = _nearest(world, o, d, norm, reach, excluded)
    return None if found is None else _entity_hit(found, o, d, norm, reach)


def pick(
    world: World,
    origin: ArrayLike,
    direction: ArrayLike,
    reach: float,
    *,
    exclude: Iterable[int] = (),
    hits: Callable[[int], bool] | None = None,
) -> Hit | EntityHit | None:
    """What the ray points at: the block (`world.ray.raycast`) or the entity, whichever is nearer.

    An entity exactly as near as the block is the answer (it stands in front). Arguments, and
    what they refuse, as `pick_entity`'s; ``hits`` is the block raycast's (which states it stops
    at: a held bucket's, `world.blocks.registry.BlockRegistry.pointable_for`).

    Returns
    -------
    Hit or EntityHit or None
    """
    o, d, norm, reach, excluded = _checked(world, origin, direction, reach, exclude)
    found = _nearest(world, o, d, norm, reach, excluded)
    block = raycast(world, o, d, reach, hits=hits)
    if found is None:
        return block
    entity = _entity_hit(found, o, d, norm, reach)
    if block is None:
        return entity
    # Decided exactly, always: a shaped block's float entry carries the rounding of its origin
    # relative to the voxel, which no relative bound covers (and two hits are rare).
    entity_t = _exact_t(found.box, found.axis, o, d)
    return entity if entity_t <= _block_t(world, block, o, d) else block


# -- the checks -------------------------------------------------------------------------------


def _checked(
    world: World, origin: ArrayLike, direction: ArrayLike, reach: float, exclude: Iterable[int]
) -> tuple[Vec3, Vec3, float, float, frozenset[int]]:
    """The validated ray (the direction rescaled as the block raycast does), reach and ids."""
    reach = _reach(reach, "reach", allow_inf=False)
    o, d, norm = _ray(origin, direction)
    if not isinstance(world, World):
        raise TypeError(f"world must be a World, got {type(world).__name__}")
    if isinstance(exclude, str | bytes) or not isinstance(exclude, Iterable):
        raise ValueError(f"exclude must be entity ids, got {exclude!r}")
    try:
        excluded = frozenset(exclude)
    except TypeError:  # an unhashable item: no id
        raise ValueError(f"exclude must be entity ids (integers), got {exclude!r}") from None
    for entity_id in excluded:
        if isinstance(entity_id, bool) or not isinstance(entity_id, int):
            raise ValueError(f"exclude must be entity ids (integers), got {entity_id!r}")
    return o, d, norm, reach, excluded


# -- the search -------------------------------------------------------------------------------


def _nearest(
    world: World, o: Vec3, d: Vec3, norm: float, reach: float, excluded: frozenset[int]
) -> _Found | None:
    """The nearest box hit among the entities near the segment (exact ties: the lower id)."""
    kinds = world.registry.entities
    t_max = reach / norm
    end = (o[0] + t_max * d[0], o[1] + t_max * d[1], o[2] + t_max * d[2])
    # The segment's bounds, grown by the slack (the end is rounded): a box beyond them is not
    # met, which six comparisons tell before the slab test.
    x0, y0, z0 = (min(a, b) - _SLACK for a, b in zip(o, end, strict=True))
    x1, y1, z1 = (max(a, b) + _SLACK for a, b in zip(o, end, strict=True))
    # Where an entity's ``pos`` may lie for its box to meet those bounds (the largest box of a
    # pointable kind: no more than `MAX_ENTITY_SIZE`): most entities of the chunks looked at
    # are passed over by these, before their kind.
    sizes = [kind.size for kind in kinds.values() if kind.pointable]
    if not sizes:
        return None
    half = max(width for width, _ in sizes) / 2
    tall = max(height for _, height in sizes)
    px0, px1, py0 = x0 - half, x1 + half, y0 - tall
    pz0, pz1 = z0 - half, z1 + half
    found: list[_Found] = []
    for entity in _candidates(world.entities, o, end, half, tall, (px0, py0, pz0, px1, y1, pz1)):
        x, y, z = entity.pos
        if x < px0 or x > px1 or y < py0 or y > y1 or z < pz0 or z > pz1 or entity.removed:
            continue
        kind = kinds.get(entity.kind)
        if kind is None or not kind.pointable or entity.id in excluded:
            continue
        box = entity_box(entity, kind)
        if box[0] > x1 or box[3] < x0 or box[1] > y1 or box[4] < y0 or box[2] > z1 or box[5] < z0:
            continue
        entry = _entry(box, o, d, t_max, reach)
        if entry is not None:
            found.append(_Found(entry[0], entry[1], box, entity))
    if not found:
        return None
    best_t = min(f.t for f in found)
    close = [f for f in found if not _apart(f.t, best_t)]
    if len(close) == 1:
        return close[0]
    return min(close, key=lambda f: (_exact_t(f.box, f.axis, o, d), f.entity.id))


@dataclass(slots=True)
class _Around:
    """The entities whose ``pos`` lay in a box (``low`` to ``high``) when the store was in a
    ``state``: its count of moves, of entities, and its last id."""

    state: tuple[int, int, int]
    low: Vec3
    high: Vec3
    entities: list[Entity]


# Per store, the entities round the last short ray's region (`_candidates`).
_AROUND: WeakKeyDictionary[Entities, _Around] = WeakKeyDictionary()


def _candidates(
    store: Entities,
    o: Vec3,
    end: Vec3,
    half: float,
    tall: float,
    region: tuple[float, float, float, float, float, float],
) -> Iterable[Entity]:
    """Entities that may stand in ``region`` (where a ``pos`` must lie for the box to meet the
    segment ``o → end``), a superset: for a short segment (a player's reach) the entities of a
    box `AROUND_SLACK` wider, kept while no entity moved, came or went and the regions that
    follow lie in it (the eye turning or walking a little: most frames look at a few dozen
    entities rather than every one of the chunks round the eye); for a long one, those of the
    chunks along it (`_chunks_near`)."""
    x0, y0, z0, x1, y1, z1 = region
    if max(x1 - x0, y1 - y0, z1 - z0) > AROUND_SPAN:
        return [e for key in _chunks_near(o, end, half, tall) for e in store.in_chunk(key)]
    by_id = store.by_id
    state = (store.moves, len(by_id), next(reversed(by_id), 0))
    kept = _AROUND.get(store)
    if (
        kept is not None
        and kept.state == state
        and kept.low[0] <= x0
        and kept.low[1] <= y0
        and kept.low[2] <= z0
        and x1 <= kept.high[0]
        and y1 <= kept.high[1]
        and z1 <= kept.high[2]
    ):
        return kept.entities
    low = (x0 - AROUND_SLACK, y0 - AROUND_SLACK, z0 - AROUND_SLACK)
    high = (x1 + AROUND_SLACK, y1 + AROUND_SLACK, z1 + AROUND_SLACK)
    c0, c1 = chunk_of(low), chunk_of(high)
    inside = [
        entity
        for cx in range(c0[0], c1[0] + 1)
        for cy in range(c0[1], c1[1] + 1)
        for cz in range(c0[2], c1[2] + 1)
        for entity in store.in_chunk((cx, cy, cz))
        if low[0] <= entity.pos[0] <= high[0]
        and low[1] <= entity.pos[1] <= high[1]
        and low[2] <= entity.pos[2] <= high[2]
    ]
    _AROUND[store] = _Around(state, low, high, inside)
    return inside


def _chunks_near(o: Vec3, end: Vec3, half: float, tall: float) -> Iterator[ChunkKey]:
    """The chunks whose entities' boxes (at most ``half`` a width sideways of their ``pos``,
    ``tall`` above it) may meet the segment ``o → end``, once each."""
    scale = 1.0 / _CHUNK  # a power of two: the points in chunk units are exact
    side, down = (half + _SLACK) * scale, (tall + _SLACK) * scale
    start = (o[0] * scale, o[1] * scale, o[2] * scale)
    end = (end[0] * scale, end[1] * scale, end[2] * scale)
    cells = segment_voxels(start, end)
    points = [point for _, point in cells]
    points.append(end)
    seen: set[ChunkKey] = set()
    for i in range(len(cells)):
        a, b = points[i], points[i + 1]
        x0, x1 = math.floor(min(a[0], b[0]) - side), math.floor(max(a[0], b[0]) + side)
        y0, y1 = math.floor(min(a[1], b[1]) - down), math.floor(max(a[1], b[1]) + _UP)
        z0, z1 = math.floor(min(a[2], b[2]) - side), math.floor(max(a[2], b[2]) + side)
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                for cz in range(z0, z1 + 1):
                    key = (cx, cy, cz)
                    if key not in seen:
                        seen.add(key)
                        yield key


# -- one box ----------------------------------------------------------------------------------


def _apart(a: float, b: float) -> bool:
    """Whether floats ``a`` and ``b`` compare as their exact values do (module notes)."""
    return abs(a - b) > (abs(a) + abs(b)) * _TOL + _TINY


def _entry(box: Box6, o: Vec3, d: Vec3, t_max: float, reach: float) -> tuple[float, int] | None:
    """The ray's entry into the box, ``(t, axis)`` (axis -1: inside), or None: decided in floats
    when no comparison is within rounding, else exactly (`_exact_entry`)."""
    enters = [-math.inf, -math.inf, -math.inf]
    enter, axis, leave = -math.inf, -1, math.inf
    for a in range(3):
        da, oa, lo, hi = d[a], o[a], box[a], box[a + 3]
        if da == 0.0:
            if not lo <= oa < hi:  # floats compared exactly
                return None
            continue
        if da > 0.0:
            t0, t1 = (lo - oa) / da, (hi - oa) / da
        else:
            t0, t1 = (hi - oa) / da, (lo - oa) / da
        enters[a] = t0
        if t0 > enter:
            enter, axis = t0, a
        if t1 < leave:
            leave = t1
    if enter > t_max * 2.0 or leave < 0.0:
        return None  # clearly beyond the reach, or behind the origin (an overflowed inf too)
    if not _apart(enter, 0.0):
        return _exact_entry(box, o, d, reach)  # the origin on (or within rounding of) a face
    t = enter if enter > 0.0 else 0.0
    if not _apart(t, leave):
        return _exact_entry(box, o, d, reach)
    if t > leave:
        return None
    if t == 0.0:
        return 0.0, -1
    if not _apart(t, t_max):
        return _exact_entry(box, o, d, reach)
    if t > t_max:
        return None
    for b in range(3):
        if b != axis and d[b] != 0.0 and not _apart(enters[b], t):
            return _exact_entry(box, o, d, reach)  # an edge or a corner: which face, exactly
    return t, axis


def _exact_entry(box: Box6, o: Vec3, d: Vec3, reach: float) -> tuple[float, int] | None:
    """`_entry` decided in rational arithmetic (the parameter reported is the float one)."""
    enter: Fraction | None = None
    leave: Fraction | None = None
    axis = -1
    norm2 = Fraction(0)
    for a in range(3):
        da = Fraction(d[a])
        norm2 += da * da
        if d[a] == 0.0:
            if not box[a] <= o[a] < box[a + 3]:
                return None
            continue
        oa = Fraction(o[a])
        t0, t1 = (Fraction(box[a]) - oa) / da, (Fraction(box[a + 3]) - oa) / da
        if d[a] < 0.0:
            t0, t1 = t1, t0
        if enter is None or t0 > enter:  # strictly: the lower axis on a tie
            enter, axis = t0, a
        if leave is None or t1 < leave:
            leave = t1
    assert enter is not None and leave is not None  # the direction is not zero
    if enter < 0:
        enter, axis = Fraction(0), -1
    if not enter < leave or enter * enter * norm2 > Fraction(reach) ** 2:
        return None
    return _float_t(box, axis, o, d), axis


def _float_t(box: Box6, axis: int, o: Vec3, d: Vec3) -> float:
    """The float entry parameter through the box's face on ``axis`` (0.0 for none)."""
    if axis < 0:
        return 0.0
    bound = box[axis] if d[axis] > 0.0 else box[axis + 3]
    return (bound - o[axis]) / d[axis]


def _exact_t(box: Box6, axis: int, o: Vec3, d: Vec3) -> Fraction:
    """The exact entry parameter through the box's face on ``axis`` (0 for none)."""
    if axis < 0:
        return Fraction(0)
    bound = box[axis] if d[axis] > 0.0 else box[axis + 3]
    return (Fraction(bound) - Fraction(o[axis])) / Fraction(d[axis])


def _block_t(world: World, hit: Hit, o: Vec3, d: Vec3) -> Fraction:
    """The exact entry parameter of the block raycast's hit: its entered face's plane."""
    face = hit.face
    if face == _ZERO:
        return Fraction(0)
    axis = 0 if face[0] else 1 if face[1] else 2
    boxes = world.registry.selection_boxes[hit.block_id]
    if boxes is None:  # a full cube: the voxel's face
        bound = Fraction(hit.block[axis] + (1 if face[axis] > 0 else 0))
    else:
        box = boxes[hit.box]
        bound = hit.block[axis] + Fraction(box[axis] if face[axis] < 0 else box[axis + 3])
    return (bound - Fraction(o[axis])) / Fraction(d[axis])


def _entity_hit(found: _Found, o: Vec3, d: Vec3, norm: float, reach: float) -> EntityHit:
    """The public answer for a box hit."""
    axis, t = found.axis, found.t
    if axis < 0:
        return EntityHit(found.entity.id, found.entity.kind, 0.0, o, _ZERO)
    point = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]]
    negative = d[axis] < 0.0
    point[axis] = found.box[axis + 3] if negative else found.box[axis]
    return EntityHit(
        found.entity.id,
        found.entity.kind,
        min(t * norm, reach),  # within the reach exactly: never a rounding beyond
        (point[0], point[1], point[2]),
        _FACES[axis][negative],
    )
