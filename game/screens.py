"""The screens that take the keys from the game: text prompts and the inventory screen.

A mod's text prompt (and the chat line, T), the inventory screen (E) and a block's inventory shown
on it. While one is shown the body stands still and the crosshair hides; in a window the mouse is
let go (and taken back when it closes), and a text prompt takes the keyboard's typed characters. A
text prompt's Enter sends its text: the chat's line to `game.chat.Chat`, a mod's to its
``on_submit`` as the player's action; Escape sends nothing. A block's inventory (`game.containers`)
is read again every frame and before every click (a furnace's timer changes it), closes when its
block went or its data became unreadable, and every move that touches its slots goes through the
rules as the player's action (`world.rules.Rules.move_items`): its outcome is applied and shown as
any action's.
"""

from __future__ import annotations

from collections.abc import Callable

from ursina import application

from game.chat import CHAT_PROMPT, Chat
from game.containers import OpenContainer
from game.controls import Pointer
from game.hotbar import Hotbar
from game.hud import Hud
from game.inventory_screen import InventoryScreen
from game.text_screen import TextScreen
from world.actions.containers import Slot
from world.items.containers import Container
from world.mods.outcome import Actor, Outcome
from world.mods.text_prompt import TextPrompt
from world.rules import Rules

__all__ = ["Screens"]


class Screens:
    """The text prompt and the inventory screen, as the game opens, feeds and closes them.

    ``live``: a window's run (the mouse and the keyboard's characters are handed over);
    ``pointer`` gives what the mouse points at now; ``capture_mouse`` captures or lets it go;
    ``actor`` gives the player as the rules see them; ``submit`` runs a mod's confirmed prompt;
    ``after`` applies and shows an action's outcome (`game.hands.Hands.after`).
    """

    def __init__(
        self,
        text: TextScreen,
        inventory: InventoryScreen,
        hud: Hud,
        hotbar: Hotbar,
        chat: Chat,
        rules: Rules,
        *,
        live: bool,
        pointer: Callable[[], Pointer],
        capture_mouse: Callable[[bool], None],
        actor: Callable[[], Actor],
        submit: Callable[[TextPrompt, str], None],
        after: Callable[[Outcome], None],
    ) -> None:
        self.text, self.inventory, self.hud, self.hotbar = text, inventory, hud, hotbar
        self.chat, self.rules, self.live = chat, rules, live
        self._pointer, self._capture, self._actor = pointer, capture_mouse, actor
        self._submit, self._after = submit, after
        self.opened: OpenContainer | None = None  # the block inventory shown, if one is
        self._chat_opening: str | None = None  # the chat opens next frame, with this text

    @property
    def shown(self) -> bool:
        """A screen has the keys: the body stands still."""
        return self.inventory.shown or self.text.shown

    def _hand_over(self, shown: bool) -> None:
        """A screen opened (or the last closed): the crosshair and, in a window, the mouse."""
        self.hud.show_crosshair(not shown)
        if self.live:
            self._capture(not shown)

    def update(self, *, paused: bool) -> None:
        """Once a frame: follow the open block inventory; open the chat when it is due."""
        self._follow_container()
        if self._chat_opening is not None:
            if not self.shown and not paused:
                self.ask_text(self.chat.prompt(self._chat_opening))
            self._chat_opening = None

    def open_chat(self, text: str) -> None:
        """Open the chat line by the next frame, once this key's own keystroke went by (a live
        window would type the T into the line)."""
        self._chat_opening = text

    def input(self, key: str, *, paused: bool) -> bool:
        """A key or button event: True when a screen took it (an open screen takes every key)."""
        return self._text_input(key) or self._inventory_input(key, paused=paused)

    # -- the text prompt (a mod's actor.ask_text, the chat line) -------------------------------

    def ask_text(self, prompt: TextPrompt) -> None:
        """Open the text-entry screen for a prompt."""
        self.text.open(prompt)
        self._hand_over(True)
        if self.live:
            application.base.buttonThrowers[0].node().setKeystrokeEvent("keystroke")
            application.base.accept("keystroke", self.text.type_text)

    def _text_input(self, key: str) -> bool:
        """While a text prompt is open it takes every key: Enter sends, Escape cancels."""
        if not self.text.shown:
            return False
        if key == "enter":
            self.close_text(send=True)
        elif key == "escape":
            self.close_text(send=False)
        elif key in ("backspace", "backspace hold"):
            self.text.backspace()
        elif key in ("up arrow", "down arrow") and self._chat_shown:
            line = self.chat.recall(1 if key == "up arrow" else -1)
            if line is not None:
                self.text.replace_text(line)
        return True

    @property
    def _chat_shown(self) -> bool:
        prompt = self.text.prompt
        return prompt is not None and prompt.name == CHAT_PROMPT

    def close_text(self, *, send: bool) -> None:
        """Close the text prompt; with ``send`` its text goes to the chat or the mod."""
        sent = self.text.confirm() if send else None
        self.text.close()
        self._hand_over(False)
        if self.live:
            application.base.ignore("keystroke")
        if sent is not None and sent[0].name == CHAT_PROMPT:
            self.chat.send(sent[1])
        elif sent is not None:
            self._submit(*sent)

    # -- the inventory screen (E), and a block's inventory on it -------------------------------

    def _inventory_input(self, key: str, *, paused: bool) -> bool:
        """E opens the inventory screen; while it is open it takes every key (True)."""
        screen = self.inventory
        if not screen.shown:
            if key == "e" and not paused:
                self.open_inventory()
                return True
            return False
        if key == "escape" or (key == "e" and not screen.creative):
            self.close_inventory()
        elif key == "left mouse down":
            cell = self._cell_under_pointer()
            if cell is not None:
                self.click(cell)
        elif key in ("scroll up", "scroll down"):
            screen.scroll(-1 if key == "scroll up" else 1)
        else:
            screen.type_key(key)
        return True

    def _cell_under_pointer(self) -> int | None:
        """The inventory screen's cell under the mouse pointer (None: none, or no pointer, as
        offscreen), read through the game's pointer as looking reads it."""
        sample = self._pointer().sample()
        at = None if sample is None else sample.ui_position
        if at is None:
            return None
        x, y = at
        scale = float(self.inventory.panel.scale_x) or 1.0
        return self.inventory.cell_at(x / scale, y / scale)

    def open_inventory(self) -> None:
        """Show the creative picker or the survival inventory, as the player's mode is."""
        self.inventory.open(creative=self._actor().creative)
        self._hand_over(True)

    def open_container(self, container: Container) -> None:
        """Show a block's inventory above the player's (a mod's ``actor.open_container``: a
        chest); unreadable data is not opened (nor written over)."""
        try:
            opened = OpenContainer(self.rules, container)
        except ValueError as exc:
            self.hud.flash(f"{container.title} cannot be opened, its data is kept as it is: {exc}")
            return
        self.opened = opened
        self.inventory.open_container(container, opened.slots, self._move)
        self._hand_over(True)

    def _move(self, source: Slot, target: Slot) -> None:
        """A move touching the block's slots, as the player's action through the rules."""
        assert self.opened is not None
        self._after(self.opened.move(self._actor(), source, target, self.hotbar.inventory))
        self._follow_container()  # its slots as the move left them

    def _follow_container(self) -> None:
        """The open block inventory as the world holds it now: closed when its block went or its
        data became unreadable, redrawn when a mod changed it (a furnace's timer)."""
        opened = self.opened
        if opened is not None and self.inventory.container is None:  # closed by other means
            self.opened = opened = None
        if opened is None:
            return
        if opened.gone:
            self.close_inventory()
            return
        try:
            changed = opened.refresh()
        except ValueError:
            self.close_inventory()
            return
        if changed:
            self.inventory.stored = list(opened.slots)
            self.inventory.refresh()

    def close_inventory(self) -> None:
        """Back to the game (the crafting grid's stacks go back into the inventory)."""
        self.inventory.close()
        self.opened = None
        self._hand_over(False)
        self.hud.refresh_hotbar()

    def click(self, cell: int) -> None:
        """Click a cell of the open inventory screen, on what the world holds now: an open block
        inventory whose block went since (its stacks dropped into the world) closes instead, so a
        click never moves a stack the world no longer has."""
        self._follow_container()
        if not self.inventory.shown:
            return
        message = self.inventory.click(cell)
        self.hud.refresh_hotbar()
        if message:
            self.hud.flash(message)
