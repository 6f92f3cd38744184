"""Actions: breaking, placing and using a block as one transaction that mods veto and extend.

The contract: `actions.transaction` (one action's or tick's journal of changes, its roll-back,
its hook calls under their calling policy, and the settling of changed voxels), `actions.pipeline`
(Luanti's dig/place/use pipeline), `actions.checks` (the built-in rules, Minecraft's),
`actions.callbacks` (blocks' own callbacks as implementations), `actions.neighbors` (the bounded
neighbour queue), `actions.placement` (the built-in shape rules of neighbours: attached blocks
and fence links), `actions.breaking` (survival break progress), `actions.containers` (moving
items between a player's inventory and a block's, with the block's ``allow_*`` and ``on_*``
callbacks) and `actions.slot_clicks` (the inventory screen's clicks, shift-clicks, drags and
crafts, Minecraft's, through those callbacks). The rules object that owns them and the ticks
is `world.rules`. Imports the layers below it.
"""

from __future__ import annotations

from world.actions.pipeline import dig
from world.actions.transaction import Transaction

__all__ = ["Transaction", "dig"]
