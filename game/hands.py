"""The player's hands: break, use and pick through the rules, and apply what each outcome says.

The hotbar's selection is theirs too. `world.rules.Rules` decides; this only carries the decision
out in the game's own state: a survival break's drops go into the inventory (*inventory full: n
item(s) lost* when they do not fit), a place takes the item it spent from the selected slot, stacks
lying in the world (``World.dropped``: a container's when a mod replaced its block) come into the
inventory as it has room (the rest wait, saved with the world, and the player is told once), the
chunks whose blocks or light changed are remeshed before the next frame, the broken blocks burst
into particles, and a denial's reason or a mod's failure is shown (a click at the sky is silent, as
in Minecraft; a mod's failure in full once, in short after).
"""

from __future__ import annotations

from collections.abc import Callable

from game.chunk_view import ChunkView
from game.daylight import DayClock
from game.hotbar import Hotbar
from game.hud import ERROR_SECONDS, Hud
from game.particles import MAX_PARTICLES, PER_BLOCK, BreakParticles
from game.sight import Sight
from world.blocks.block_type import AIR
from world.items.inventory import ItemStack
from world.mods.host import Mods
from world.mods.outcome import NOTHING_TARGETED, Actor, Outcome
from world.rules import Rules

__all__ = ["Hands"]


class Hands:
    """The player's actions on the block ``sight`` aims at and their outcomes (module notes);
    ``actor`` gives the player as the rules see them now."""

    def __init__(
        self,
        rules: Rules,
        mods: Mods,
        hotbar: Hotbar,
        hud: Hud,
        chunks: ChunkView,
        particles: BreakParticles,
        day: DayClock,
        sight: Sight,
        *,
        actor: Callable[[], Actor],
    ) -> None:
        self.rules, self.mods, self.hotbar, self.hud = rules, mods, hotbar, hud
        self.chunks, self.particles, self.day, self.sight = chunks, particles, day, sight
        self._actor = actor
        self.last_outcome: Outcome | None = None
        self._waiting = 0  # items lying in the world that the inventory had no room for
        self._errors_shown = len(mods.errors)

    def break_block(self) -> None:
        """Break the target; in survival its drops go into the inventory."""
        outcome = self.rules.break_block(self.sight.target, self._actor())
        if outcome.drops:
            inventory = self.hotbar.inventory
            lost = sum(inventory.add(stack.item, stack.count) for stack in outcome.drops)
            if lost:
                self.hud.flash(f"inventory full: {lost} item(s) lost")
            self.hud.refresh_hotbar()
        self.after(outcome)

    def use_block(self) -> None:
        """Right click: a mod's use, or placing the selected block (which may spend one)."""
        outcome = self.rules.use_block(self.sight.target, self._actor())
        if outcome.spent is not None:
            self.hotbar.spend(outcome.spent)
            self.hud.refresh_hotbar()
        self.after(outcome)

    def pick_block(self) -> None:
        """Middle click: the target's block into the hotbar (creative), or selected (survival)."""
        actor = self._actor()
        block_id = self.rules.pick_block(self.sight.target, actor)
        if block_id is not None:
            self.hotbar.pick(block_id, creative=actor.creative)
            self.hud.refresh_hotbar()

    def select(self, slot: int | None = None, *, steps: int = 0) -> None:
        """Select a hotbar slot, or move the selection by ``steps`` (the wheel), and show the
        held item's name a moment."""
        if slot is None:
            self.hotbar.scroll(steps)
        else:
            self.hotbar.select(slot)
        self.hud.refresh_hotbar()
        item = self.hotbar.current_item
        registry = self.rules.world.registry
        if item in registry.items:
            self.hud.show_item_name(registry.items[item].description)
        elif item is not None:
            self.hud.show_item_name(registry[item].description if item in registry else item)

    def after(self, outcome: Outcome) -> None:
        """Show a denial; redraw what a done action changed (blocks, light, the target)."""
        self.last_outcome = outcome
        if not outcome.done:
            if outcome.reason == NOTHING_TARGETED and outcome.denied_by is None:
                return
            if not self.show_new_mod_errors():  # a mod's failure is shown in full once
                self.hud.flash(self._denial(outcome))
            return
        self.redraw()
        broken = [c for c in outcome.changes if c.old != AIR and c.new == AIR]
        brightness = 0.35 + 0.65 * self.day.daylight
        for change in broken[: MAX_PARTICLES // PER_BLOCK]:
            self.particles.burst(change.pos, change.old, brightness)

    def redraw(self) -> None:
        """Remesh the chunks whose light the rules relit and those whose blocks changed, before
        the next frame is drawn, and aim again."""
        self.chunks.relight(self.rules.pop_relit(), now=True)
        self.chunks.remesh_dirty()
        self.sight.aim()

    def pick_up(self) -> None:
        """Stacks lying in the world go into the inventory as far as it has room (module notes)."""
        dropped = self.rules.world.dropped
        if not dropped:
            self._waiting = 0
            return
        inventory = self.hotbar.inventory
        waiting = []
        for pos, stack in dropped:
            left = inventory.add(stack.item, stack.count)
            if left:
                waiting.append((pos, ItemStack(stack.item, left)))
        if len(waiting) != len(dropped) or sum(s.count for _, s in waiting) != self._waiting:
            self.hud.refresh_hotbar()
        count = sum(stack.count for _, stack in waiting)
        if count > self._waiting:
            self.hud.flash(f"inventory full: {count} item(s) wait for room")
        self._waiting = count
        dropped[:] = waiting

    def show_new_mod_errors(self) -> bool:
        """Show the mod errors not shown yet (each once); True when there were any."""
        errors = self.mods.errors[self._errors_shown :]
        if not errors:
            return False
        self._errors_shown += len(errors)
        self.hud.flash("\n".join(str(error) for error in errors), ERROR_SECONDS)
        return True

    def _denial(self, outcome: Outcome) -> str:
        """A denied action's reason; a mod failure shown before is named in short."""
        if outcome.denied_by is not None and outcome.reason in {
            str(error) for error in self.mods.errors
        }:
            return f"mod {outcome.denied_by!r} failed again: nothing changed (see the log)"
        return outcome.reason
