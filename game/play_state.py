"""The engine-free state of one game: its world and what acts on it, apart from what is drawn.

The mods (the game's own plugins first: the base game's content, then whatever the caller adds,
the chat's commands; then the mods of the mods folders), the registry they make, the world of
the session (a save, or an unsaved world) with the mods' ore and ``on_generated`` hooks in its
generator, the rules (`world.rules.Rules`), the world's light (`world.light.lighting.Light`: lit as
the view draws chunks, relit by the rules after every change; hooks read it through
``ModWorld.light_at``), the day's clock, and the player with their hotbar as the session saved
them, joined into the world (`game.player.Player.join`): the world holds the very inventory the
hotbar wraps, so the rules, the entities' pickups and the mods change it where the game reads
it. Nothing here draws: `game.play.Game` builds the view around it.
"""

from __future__ import annotations

from game.daylight import DayClock
from game.hotbar import Hotbar
from game.options import Options
from game.player import Player
from game.session import Session
from world.base import GAME
from world.gen.worldgen import mod_hooks, worldgen_factory
from world.light.lighting import Light
from world.mods.guard import HookGuard
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.registration import make_registry
from world.rules import Rules

__all__ = ["PlayState"]


class PlayState:
    """The world of ``session`` and its rules, light, day, player and hotbar (module notes);
    ``plugins`` are the game's own, registered after the base game's (`world.mods.loader`)."""

    def __init__(
        self, options: Options, session: Session, plugins: tuple[tuple[str, object], ...] = ()
    ) -> None:
        self.session = session
        self.mods_dirs = (DEFAULT_MODS_DIR, *options.mods)
        self.mods: Mods = load_mods(self.mods_dirs, game=(*GAME, *plugins))
        registry = make_registry(self.mods)
        self._worldgen_guard = HookGuard(self.mods.record)  # mods' on_generated hooks
        self.world = session.load_world(
            registry, worldgen_factory(mod_hooks(self.mods, self._worldgen_guard))
        )
        self.rules = Rules(self.world, self.mods)
        self.light = Light(self.world)
        self.world.light = self.light
        self.day = DayClock(self.world, options.day_minutes * 60.0)  # game.daylight
        self.player = Player(self.world, session.spawn())
        self.hotbar = Hotbar.default(registry)
        session.attach(self.player, self.hotbar)  # the saved mode, look, flying, hotbar
        self.player.join(self.hotbar.inventory)  # the world's player, carrying that inventory

    def worker_mod_error(self, mod: str, where: str, message: str) -> None:
        """A mod failed in the chunk worker process (its ``on_generated``): as if here."""
        self.mods.record(mod, where, RuntimeError(message), traceback=False)
