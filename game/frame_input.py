"""The frame's input: what the keys, buttons and mouse mean, carried out.

Each frame a window's run reads the held keys and the mouse's travel (`game.controls.Controls.read`:
the body's held input, the look), and the held buttons' timing makes intents (breaking once the
target's ``break_time`` has passed, placing repeated). A key or button event goes to the screens
first (`game.screens`: an open one takes every key), else becomes the controls' intents. Each
intent is carried out by what owns it: the player's hands (`game.hands`: break, use, pick, the
hotbar's selection, Q's throw; a click on an entity the view aims at punches or uses it instead
of the block), the view's aim (`game.sight`: aim again, F4's trace), the screens (the chat
line) or the game itself (`Host`: the pause menu, the mouse, F2's screenshot, flying); then the
crack shows the breaking progress.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ursina import held_keys

from game.controls import Act, Controls, Intent, Pointer
from game.debug import DebugOverlay
from game.hands import Hands
from game.player import Player
from game.screens import Screens
from game.sight import Sight

__all__ = ["FrameInput", "Host"]


class Host(Protocol):
    """What the input asks of the game itself (`game.play.Game` is one)."""

    live: bool  # a window's run: the keyboard and the mouse are read
    captured: bool  # the mouse is captured for looking
    pointer: Pointer  # what looking reads
    time: float  # the game's clock, seconds

    @property
    def paused(self) -> bool: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def capture_mouse(self, captured: bool) -> None: ...

    def take_screenshot(self) -> None: ...

    def toggle_fly(self) -> None: ...


class FrameInput:
    """The input of ``host``'s frames (module notes)."""

    def __init__(
        self,
        host: Host,
        controls: Controls,
        player: Player,
        hands: Hands,
        sight: Sight,
        screens: Screens,
        debug: DebugOverlay,
    ) -> None:
        self.host, self.controls, self.player = host, controls, player
        self.hands, self.sight, self.screens, self.debug = hands, sight, screens, debug

    def read(self, sensitivity: int) -> None:
        """A window's frame: the held keys and the mouse's look (turning while captured).

        The mouse stays captured only while the window has the focus: once it has not (another
        window took it, or it never had it when the world appeared) the pointer is let go, so
        the click that brings the player back captures it and does nothing else (`Controls.key`'s
        ``grab``), as the click after Esc does.
        """
        host = self.host
        if not host.live:
            return
        if host.captured:
            sample = host.pointer.sample()
            if sample is not None and not sample.focused:
                host.capture_mouse(False)
        look = self.controls.look.travel(host.pointer) if host.captured else (0.0, 0.0)
        turn = self.controls.read(held_keys, look, captured=host.captured, sensitivity=sensitivity)
        if host.captured:
            self.player.turn(*turn)

    def key(self, key: str) -> None:
        """One key or button event (`Controls.key`); a screen takes it first."""
        host = self.host
        if self.screens.input(key, paused=host.paused):
            return
        grab = host.live and not host.captured
        self.carry_out(self.controls.key(key, now=host.time, paused=host.paused, grab=grab))

    def hold(self, dt: float) -> None:
        """``dt`` seconds of the held buttons on the target (no screen open)."""
        if not self.screens.shown:
            self.carry_out(self.controls.hold(dt, self.sight.breaking()))

    def carry_out(self, intents: Iterable[Intent]) -> None:
        """Do what the intents ask, in order; then draw the breaking progress."""
        host = self.host
        for intent in intents:
            match intent.act:
                case Act.PAUSE:
                    host.pause()
                case Act.RESUME:
                    host.resume()
                case Act.CAPTURE:
                    host.capture_mouse(True)
                case Act.AIM:
                    self.sight.aim()
                    self.sight.trace()
                case Act.ATTACK if self.sight.entity is not None:
                    self.hands.punch_entity()
                case Act.ATTACK:
                    self.carry_out(self.controls.attack(self.sight.breaking()))
                case Act.BREAK:
                    self.hands.break_block()
                case Act.USE if self.sight.entity is not None:
                    self.hands.use_entity()
                case Act.USE:
                    self.hands.use_block()
                case Act.DROP:
                    self.hands.drop(stack=bool(intent.value))
                case Act.PICK:
                    self.hands.pick_block()
                case Act.SELECT:
                    self.hands.select(intent.value)
                case Act.SCROLL:
                    self.hands.select(steps=intent.value)
                case Act.SCREENSHOT:
                    host.take_screenshot()
                case Act.DEBUG:
                    self.debug.toggle()
                case Act.TRACE:
                    self.sight.traced.toggle()
                    self.sight.trace()
                case Act.FLY:
                    host.toggle_fly()
                case Act.CHAT:
                    self.screens.open_chat("/" if intent.value else "")
        self.sight.show_crack(self.controls.breaking)
