"""`world.entities`: what entities do in the world, above the store that holds them.

The records themselves (an `Entity`'s id, kind, position, velocity, data) live in
`world.voxels.entities` and the kinds (`EntityType`: size, visual, callbacks) in
`world.blocks.entity_type`; this package holds the rules that act on them and read them
against the blocks. Each module's own docstring states its contract exactly.

Modules:

- `world.entities.motion`: an entity's body for one step: gravity, drag, the ground's friction,
  and the swept collision with the blocks (`step_motion`; `move_short`, the player's sweep for a
  step's short move, checked equal to it).
- `world.entities.items`: stacks lying in the world: merging, being picked up (`merge`,
  `pick_up`).
- `world.entities.picking`: what the ray points at among the entities. `pick_entity`, the nearest
  pointable entity whose box (`entity_box`) a ray passes through within its reach, as an
  `EntityHit` (entity, distance, point, entered face), found by looking only at the chunks near
  the ray; `pick`, the nearer of that and the block raycast's `Hit` (an entity exactly as near
  as the block wins). Exact, with the block raycast's conventions (`world.ray`).

Layer: just above `world.physics` and below `world.mods`. It may import `world.physics`,
`world.ray`, `world.voxels`, `world.blocks`, `world.items` and the leaves (`world.geometry`,
`world.validate`, `world.tiles`), never `world.mods` or anything higher: the mod contract and the
actions call into it, not the other way.
"""

from __future__ import annotations

from world.entities.items import merge, pick_up, stack_of
from world.entities.motion import box_of, move_short, step_motion
from world.entities.picking import EntityHit, entity_box, pick, pick_entity

__all__ = [
    "EntityHit",
    "box_of",
    "entity_box",
    "merge",
    "move_short",
    "pick",
    "pick_entity",
    "pick_up",
    "stack_of",
    "step_motion",
]
