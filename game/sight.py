"""What the player aims at, and what is drawn on it.

The view's ray (every frame, and again before a click acts) picks the nearer of a block and an
entity (`world.entities.picking.pick`; an entity standing in front of a block hides it, as in
Minecraft): `Sight.target`, the block, or `Sight.entity`, the entity, never both. The held item
says which blocks the ray stops at (`world.items.item.Item.points_at`, read through
`world.blocks.registry.BlockRegistry.pointable_for`): an empty bucket's stops at liquid sources,
which every other hand looks through. The outline
goes round the block's selection boxes or the entity's box; the block's ``infotext``
(`world.voxels.block_data.INFOTEXT`; none over a menu or a screen), the crack of the block being
broken, and F4's frozen ray with the voxels it crosses.
"""

from __future__ import annotations

from collections.abc import Callable

from game.controls import Aim
from game.crack import CrackOverlay
from game.debug import TracedCells
from game.hud import Hud
from game.outline import BlockOutline
from game.player import Player
from world.actions.breaking import BreakProgress
from world.entities.picking import EntityHit, entity_box, pick
from world.mods.outcome import Actor
from world.ray import Hit
from world.rules import Rules
from world.voxels.block_data import INFOTEXT, infotext

__all__ = ["Sight"]


class Sight:
    """The target of ``player``'s view and its overlays; ``actor`` gives the player as the rules
    see them (their reach, the time a break takes them), ``covered`` whether a menu or a screen
    is open (no info text then)."""

    def __init__(
        self,
        rules: Rules,
        player: Player,
        hud: Hud,
        outline: BlockOutline,
        crack: CrackOverlay,
        traced: TracedCells,
        *,
        actor: Callable[[], Actor],
        covered: Callable[[], bool],
    ) -> None:
        self.rules, self.player, self.hud = rules, player, hud
        self.outline, self.crack, self.traced = outline, crack, traced
        self._actor, self._covered = actor, covered
        self.target: Hit | None = None  # the block aimed at
        self.entity: EntityHit | None = None  # or the entity

    def aim(self) -> None:
        """Pick the block or the entity the view aims at (the held item's ray) and move the
        outline; show the block's info text unless a menu or a screen covers the view."""
        world, player, actor = self.rules.world, self.player, self._actor()
        pointed = world.registry.pointable_for(actor.item)
        plain = pointed is world.registry.pointable  # the raycast's own table: its fast path
        hits = None if plain else lambda block_id: bool(pointed[block_id])
        hit = pick(world, player.eye, player.direction, actor.reach, hits=hits)
        self.entity = hit if isinstance(hit, EntityHit) else None
        self.target = target = hit if isinstance(hit, Hit) else None
        entity = None if self.entity is None else world.entities.get(self.entity.entity_id)
        kind = None if entity is None else world.registry.entities.get(entity.kind)
        if entity is not None and kind is not None:
            x0, y0, z0 = entity_box(entity, kind)[:3]
            self.outline.show_box((x0, y0, z0), kind.size)
        else:
            self.outline.show(target)
        value = None
        if target is not None and not self._covered():
            value = world.block_data.value(target.block, INFOTEXT)
        self.hud.show_infotext(infotext(value))

    def breaking(self) -> Aim:
        """The target and the seconds the rules say it takes to break (inf: never)."""
        target = self.target
        seconds = self.rules.break_time(target, self._actor())
        return Aim(None if target is None else target.block, seconds)

    def show_crack(self, breaking: BreakProgress) -> None:
        """The crack on the block being broken, at its stage (hidden when none is)."""
        target = breaking.target
        state = None if target is None else self.rules.world.get_block(*target)
        self.crack.show(target, breaking.stage, state)  # covers the block's selection boxes

    def trace(self) -> None:
        """F4's view, when on: freeze the view's ray and the voxels it crosses."""
        if self.traced.shown:
            reach = self._actor().reach
            self.traced.trace(self.player.eye, self.player.direction, reach, self.target)
