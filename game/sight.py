"""What the player aims at, and what is drawn on it.

The view's raycast for the target (every frame, and again before a click acts), its outline and
the block's ``infotext`` (`world.voxels.block_data.INFOTEXT`; none over a menu or a screen), the
crack of the block being broken, and F4's frozen ray with the voxels it crosses.
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
from world.mods.outcome import Actor
from world.ray import Hit, raycast
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
        self.target: Hit | None = None

    def aim(self) -> None:
        """Raycast the view for the target and move the outline; show the target's info text
        unless a menu or a screen covers the view."""
        world, player = self.rules.world, self.player
        target = raycast(world, player.eye, player.direction, self._actor().reach)
        self.target = target
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
