"""The screens that take the keys from the game: text prompts and the inventory screen.

A mod's text prompt (and the chat line, T), the inventory screen (E) and a block's inventory shown
on it. While one is shown the body stands still and the crosshair hides; in a window the mouse is
let go (and taken back when it closes), and a text prompt takes the keyboard's typed characters. A
text prompt's Enter sends its text: the chat's line to `game.chat.Chat`, a mod's to its
``on_submit`` as the player's action; Escape sends nothing.

On the inventory screen the mouse's buttons, the Shift keys and, every frame, the cell under the
pointer make gestures (`game.slot_clicks`: clicks, shift-clicks, drags); each is the player's
action through the rules (`world.rules.Rules.click_slots`), whose outcome is applied and shown as
any action's; closing the screen puts the carried stack and the crafting grid's back
(`world.rules.Rules.put_back`). The cell under the pointer shows its item's name (the tooltip).
The number keys choose the hotbar slot. A block's inventory (`game.containers`) is read again
every frame and before every click (a furnace's timer changes it), and closes when its block went
or its data became unreadable.
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
from game.slot_clicks import Gesture, SlotMouse
from game.text_screen import TextScreen
from world.actions.slot_clicks import Click
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
        self.mouse = SlotMouse()  # the mouse's gestures on the inventory screen
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
        """Once a frame: follow the open block inventory and the pointer over the inventory
        screen (the tooltip, a drag); open the chat when it is due."""
        self._follow_container()
        if self.inventory.shown:
            at = self._pointer_at()
            if at is not None:  # no pointer (offscreen): what a script last pointed at stays
                cell = self.inventory.cell_at(*at)
                self.mouse.over(cell)
                self.inventory.hover(cell, at)
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
        self.mouse.key(key)  # the Shift keys, whoever takes them
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
        elif len(key) == 1 and key in "123456789":
            self.hotbar.select(int(key) - 1)  # as in play, not typed into the search line
            self.hud.refresh_hotbar()
            screen.refresh()
        elif key in ("left mouse down", "right mouse down"):
            self.press(key.split()[0], self._cell_under_pointer())
        elif key in ("left mouse up", "right mouse up"):
            self.release(key.split()[0])
        elif key in ("scroll up", "scroll down"):
            screen.scroll(-1 if key == "scroll up" else 1)
        else:
            screen.type_key(key)
        return True

    def _pointer_at(self) -> tuple[float, float] | None:
        """Where the mouse pointer is in the inventory panel's units (None: no pointer, as
        offscreen, or outside the window), read through the game's pointer as looking reads
        it."""
        sample = self._pointer().sample()
        at = None if sample is None else sample.ui_position
        if at is None:
            return None
        scale = float(self.inventory.panel.scale_x) or 1.0
        return at[0] / scale, at[1] / scale

    def _cell_under_pointer(self) -> int | None:
        """The inventory screen's cell under the mouse pointer (None: none, or no pointer)."""
        at = self._pointer_at()
        return None if at is None else self.inventory.cell_at(*at)

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
        self.inventory.open_container(container, opened.slots)
        self._hand_over(True)

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
        """Back to the game: the carried stack and the crafting grid's go back into the
        inventory (what does not fit drops at the player's feet), as the player's action."""
        self.mouse.cancel()
        self.inventory.close()
        self.opened = None
        self._after(self.rules.put_back(self._actor()))
        self._hand_over(False)
        self.hud.refresh_hotbar()

    # -- the mouse on the inventory screen (game.slot_clicks) ----------------------------------

    def press(self, button: str, cell: int | None) -> None:
        """A mouse button went down over ``cell`` (None: no cell): the picker's click, or the
        start of a gesture on the inventory's slots."""
        screen = self.inventory
        self._follow_container()
        if not screen.shown:
            return
        if screen.creative:
            message = screen.click(cell) if button == "left" and cell is not None else None
            self.hud.refresh_hotbar()
            if message:
                self.hud.flash(message)
            return
        carrying = screen.inventory.carried[0] is not None
        self._act(self.mouse.press(button, cell, carrying=carrying))

    def over(self, cell: int) -> None:
        """The pointer moved over ``cell`` (a script's drag): a drag crosses it; its name shows."""
        self.mouse.over(cell)
        self.inventory.hover(cell)

    def release(self, button: str) -> None:
        """A mouse button went up: the drag it ends, if any."""
        self._follow_container()
        if self.inventory.shown:
            self._act(self.mouse.release(button))
        else:
            self.mouse.cancel()

    def click(self, cell: int, button: str = "left") -> None:
        """Click a cell as the mouse does (a script's ``click_item``): ``left``, ``right``, or
        ``shift`` (Shift held for a left click)."""
        if button not in ("left", "right", "shift"):
            raise ValueError(f"button must be left, right or shift, got {button!r}")
        self.inventory.hover(cell)
        if button == "shift":
            self.mouse.key("left shift")
        try:
            self.press("right" if button == "right" else "left", cell)
            self.release("right" if button == "right" else "left")
        finally:
            if button == "shift":
                self.mouse.key("left shift up")

    def _act(self, gesture: Gesture | None) -> None:
        """Make a gesture the player's action on what the world holds now: an open block
        inventory whose block went since (its stacks dropped into the world) closes instead,
        so a click never moves a stack the world no longer has."""
        screen = self.inventory
        if gesture is None or not screen.shown:
            return
        slots = [screen.slot_of(cell) for cell in gesture.cells]
        chosen = tuple(slot for slot in slots if slot is not None)
        if not chosen:
            return
        container = None if self.opened is None else self.opened.container
        self._after(self.rules.click_slots(self._actor(), Click(gesture.button, chosen), container))
        self._follow_container()  # the block's slots as the click left them
        if screen.shown:
            if self.opened is not None:
                screen.stored = list(self.opened.slots)
            screen.refresh()
        self.hud.refresh_hotbar()
