"""The pause menu in a running game (Esc), and the settings in effect.

The world waits while the menu is open and the mouse is let go; the settings changed in it apply
at once (the game mode, the field of view, the view distance, the mouse's sensitivity, the
volumes) and are remembered for the next runs (`game.user_settings`). The volumes in effect are
handed to the game when the menu is made, so a window's run starts at the remembered ones.

`game.menu.PauseMenu` draws the menu and decides nothing; this holds the settings in effect and
applies a change to the game (`Host`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from game.controls import Controls
from game.engine import collect_all_garbage
from game.hud import Hud
from game.menu import PauseMenu
from game.options import Options
from game.player import Player
from game.sight import Sight
from game.sky import Sky
from game.user_settings import Settings, changed_fields, remember

__all__ = ["Host", "Pause"]


class Host(Protocol):
    """What the pause menu changes in the game (`game.play.Game` is one)."""

    live: bool  # a window's run: the mouse is handed over
    options: Options  # the field of view in effect is its ``fov``

    def capture_mouse(self, captured: bool) -> None: ...

    def set_view_distance(self, view_distance: int) -> None: ...

    def set_volumes(self, master: int, blocks: int) -> None:
        """Every sound at ``master`` percent, the blocks' at ``blocks`` (0..100, 0 is off)."""

    def save_and_quit(self) -> None: ...


class Pause:
    """The menu and the settings in effect (module notes); ``settings`` are the run's first."""

    def __init__(
        self,
        host: Host,
        settings: Settings,
        player: Player,
        controls: Controls,
        sight: Sight,
        sky: Sky,
        hud: Hud,
    ) -> None:
        self.host, self._settings, self.player, self.controls = host, settings, player, controls
        self.sight, self.sky, self.hud = sight, sky, hud
        self.menu = PauseMenu(
            self.settings,
            on_change=self.apply,
            on_resume=self.resume,
            on_quit=lambda: host.save_and_quit(),
        )
        host.set_volumes(settings.master_volume, settings.block_volume)

    @property
    def settings(self) -> Settings:
        """The settings in effect, with the player's game mode."""
        return replace(self._settings, creative=self.player.creative)

    def pause(self) -> None:
        """Esc: let go of every button, open the menu and let the mouse go."""
        self.controls.release()
        self.sight.show_crack(self.controls.breaking)
        self.menu.open(self.settings)
        if self.host.live:
            self.host.capture_mouse(False)
        collect_all_garbage()  # what the frames' passes leave frozen (`game.engine`)

    def resume(self) -> None:
        """Close the menu and take the mouse back."""
        self.menu.close()
        if self.host.live:
            self.host.capture_mouse(True)

    def apply(self, settings: Settings) -> None:
        """Settings changed in the menu: apply them now and remember them for the next runs."""
        host = self.host
        changed = changed_fields(self.settings, settings)
        self._settings = settings
        if self.player.creative != settings.creative:
            self.player.set_creative(settings.creative)  # survival ends a flight
        host.options = replace(host.options, fov=settings.fov)
        if settings.view_distance != self.sky.chunks.view_distance:
            host.set_view_distance(settings.view_distance)
        else:
            self.sky.set_view()
        if {"master_volume", "block_volume"} & changed.keys():
            host.set_volumes(settings.master_volume, settings.block_volume)
        try:
            remember(changed)
        except OSError as exc:
            self.hud.flash(f"settings not saved: {exc}")
