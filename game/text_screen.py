"""The text-entry screen: what a mod's ``actor.ask_text`` opens (a sign's editor, as Minecraft's).

A panel over the view with the prompt's title and its text, a cursor at the end. Typed
characters are added (Panda3D's ``keystroke`` events: the character the keyboard layout and
Shift give), a full line wraps to the next, Backspace deletes, Enter confirms and Escape cancels.
The text keeps to the prompt's size (`world.mods.text_prompt.TextPrompt.clean`). The screen only
edits text: the game hands the confirmed text to the rules (`world.rules.Rules.submit_text`).
"""

from __future__ import annotations

from ursina import Entity, Text, color, destroy

from game.hud import WindowRoot
from game.hud_layout import fit_scale
from world.mods.text_prompt import TextPrompt

__all__ = ["TextScreen"]

_WIDTH = 0.9  # panel width in screen heights


class TextScreen:
    """`open` a prompt, `type_text` / `key`, then `confirm` or `close`; `shown` while open."""

    def __init__(self) -> None:
        self.prompt: TextPrompt | None = None
        self.text = ""
        self.root = WindowRoot("text entry", self._lay_out, enabled=False)
        self.panel = Entity(parent=self.root, name="text panel")
        self.backing = Entity(
            parent=self.panel,
            model="quad",
            color=color.rgba(0.12, 0.12, 0.14, 0.92),
            scale=(_WIDTH, 0.42),
            z=2,
        )
        self.title = Text(parent=self.panel, text="", origin=(0, 0), y=0.16, scale=1.1)
        self.field = Text(parent=self.panel, text="", origin=(0, 0), y=0.0, scale=1.2)
        self.help = Text(
            parent=self.panel,
            text="Enter: done    Esc: cancel",
            origin=(0, 0),
            y=-0.16,
            scale=0.8,
            color=color.light_gray,
        )

    @property
    def shown(self) -> bool:
        """A prompt is open."""
        return self.prompt is not None

    def _lay_out(self, aspect: float) -> None:
        self.panel.scale = fit_scale(_WIDTH + 0.04, aspect)

    def open(self, prompt: TextPrompt) -> None:
        """Show a prompt with its starting text."""
        self.prompt = prompt
        self.text = prompt.text
        self.title.text = prompt.title
        self.root.enabled = True
        self.root.follow()
        self._draw()

    def close(self) -> None:
        """Hide the screen; nothing is sent."""
        self.prompt = None
        self.root.enabled = False

    def confirm(self) -> tuple[TextPrompt, str] | None:
        """Close the screen and return the prompt and its text to send (None if none was open)."""
        prompt, text = self.prompt, self.text
        self.close()
        return None if prompt is None else (prompt, text)

    def type_text(self, typed: str) -> None:
        """Add typed characters; a full line goes on to the next (a newline starts one)."""
        prompt = self.prompt
        if prompt is None:
            return
        for char in typed:
            lines = self.text.split("\n")
            if char == "\n":
                candidate = self.text + "\n"
            elif not char.isprintable():
                continue
            elif len(lines[-1]) >= prompt.line_length:
                candidate = self.text + "\n" + char
            else:
                candidate = self.text + char
            if candidate.count("\n") < prompt.max_lines:
                self.text = candidate
        self._draw()

    def replace_text(self, text: str) -> None:
        """Put ``text`` in the field instead (the chat's history), cut to the prompt's size."""
        if self.prompt is not None:
            self.text = ""
            self.type_text(text)

    def backspace(self) -> None:
        """Delete the last character (or join the last line to the one before)."""
        self.text = self.text[:-1]
        self._draw()

    def _draw(self) -> None:
        self.field.text = self.text + "_"

    def destroy(self) -> None:
        """Remove the screen's entities."""
        self.prompt = None
        destroy(self.root)
