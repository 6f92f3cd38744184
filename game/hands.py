"""The player's hands: break, use, pick, throw and punch through the rules, and show what each
outcome did.

The hotbar's selection is theirs too. `world.rules.Rules` decides and carries the decision out in
the world, the player's inventory included (the world holds it: `game.player.Player.join`): a
survival break's drops lie in the world as stacks (``builtin:item`` entities) that the entities'
steps give to a player walking over them, a survival place takes its item from the held stack,
Q throws the held item (Ctrl+Q the stack). So the hands only show: the hotbar is redrawn
whenever the inventory's slots differ from those it last drew (a pickup happens in a tick, a
mod's hook may write them: `refresh_inventory`, every frame and after every action), the chunks
whose blocks or light changed are remeshed before the next frame, the broken blocks burst into
particles, and a denial's reason or a mod's failure is shown (a click at the sky is silent, as
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
    """The player's actions on what ``sight`` aims at and their outcomes (module notes);
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
        # The slots the hotbar last drew (`refresh_inventory`).
        self._drawn_slots: tuple[ItemStack | None, ...] = tuple(hotbar.inventory.slots)
        self._errors_shown = len(mods.errors)

    def break_block(self) -> None:
        """Break the target (in survival its drops fall into the world)."""
        self.after(self.rules.break_block(self.sight.target, self._actor()))

    def use_block(self) -> None:
        """Right click: a mod's use, or placing the selected block (which may spend one)."""
        self.after(self.rules.use_block(self.sight.target, self._actor()))

    def punch_entity(self) -> None:
        """Left click on the targeted entity: its kind's ``on_punch``, a knock back."""
        if self.sight.entity is not None:
            self.after(self.rules.punch_entity(self.sight.entity.entity_id, self._actor()))

    def use_entity(self) -> None:
        """Right click on the targeted entity: its kind's ``on_use``."""
        if self.sight.entity is not None:
            self.after(self.rules.use_entity(self.sight.entity.entity_id, self._actor()))

    def drop(self, *, stack: bool = False) -> None:
        """Q: throw one of the held item in front; Ctrl+Q (``stack``) the whole stack. Nothing
        held throws nothing, silently (Minecraft)."""
        held = self.hotbar.inventory.current
        if held is None:
            return
        self.after(self.rules.drop_held(self._actor(), held.count if stack else 1))

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
        """Show a denial; redraw what a done action changed (blocks, light, the target, the
        inventory)."""
        self.last_outcome = outcome
        self.refresh_inventory()
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

    def refresh_inventory(self) -> bool:
        """Redraw the hotbar when the inventory's slots changed since it was last drawn (a
        pickup in a tick, an action, a mod); True when they had. One tuple of 36 compared."""
        slots = tuple(self.hotbar.inventory.slots)
        if slots == self._drawn_slots:
            return False
        self._drawn_slots = slots
        self.hud.refresh_hotbar()
        return True

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
