"""Asking the player for text: a sign's words (Minecraft's sign editor, a Luanti formspec with
a text field).

A mod's callback (a block's ``on_use``, say) calls ``actor.ask_text(TextPrompt(...))``. The game
opens a text-entry screen with the prompt's title and starting text; when the player confirms,
the game calls `world.rules.Rules.submit_text`, which runs the prompt's ``on_submit`` as an
action of that player: in a transaction, through the hook watchdog, rolled back on an error,
with protection's vetoes in force. Cancelling calls nothing. ``on_submit`` asks for any of
`PROMPT_ARGUMENTS` by name, as a hook implementation does.

The text is cleaned before ``on_submit`` sees it (`TextPrompt.clean`): printable characters only,
at most ``max_lines`` lines of ``line_length`` characters (a sign's four lines of 15, as
Minecraft's), lines joined by ``"\\n"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from world.geometry import Int3
from world.validate import mod_name

__all__ = ["MAX_PROMPT_CHARS", "PROMPT_ARGUMENTS", "TextPrompt"]

PROMPT_ARGUMENTS = ("world", "actor", "text", "pos", "player")
"""What a prompt's ``on_submit`` is offered."""

MAX_PROMPT_CHARS = 1024
"""The most characters a prompt may ask for (``max_lines * line_length``)."""


@dataclass(frozen=True)
class TextPrompt:
    """A request for text (module notes).

    Parameters
    ----------
    name : str
        ``"<mod>:<name>"``: the mod named first owns ``on_submit`` (failures are its).
    title : str
        Shown above the text field.
    on_submit : callable
        Called with the confirmed text (module notes).
    text : str
        The field's starting text (cleaned).
    pos : Int3 or None
        The voxel the prompt is about (a sign), offered to ``on_submit``.
    max_lines, line_length : int
        The text's size: 1..64 lines of 1..256 characters, at most `MAX_PROMPT_CHARS` in all.
    """

    name: str
    title: str
    on_submit: Callable[..., Any]
    text: str = ""
    pos: Int3 | None = None
    max_lines: int = 4
    line_length: int = 15

    def __post_init__(self) -> None:
        mod_name(self.name, "prompt")
        if not isinstance(self.title, str):
            raise ValueError(f"title must be a str, got {self.title!r}")
        if not callable(self.on_submit):
            raise ValueError(f"on_submit must be callable, got {self.on_submit!r}")
        for field, top in (("max_lines", 64), ("line_length", 256)):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise ValueError(f"{field} must be an integer 1..{top}, got {value!r}")
        if self.max_lines * self.line_length > MAX_PROMPT_CHARS:
            raise ValueError(
                f"max_lines * line_length must be at most {MAX_PROMPT_CHARS}, got "
                f"{self.max_lines} * {self.line_length}"
            )
        if self.pos is not None:
            object.__setattr__(self, "pos", Int3(*(int(v) for v in self.pos)))
        if not isinstance(self.text, str):
            raise ValueError(f"text must be a str, got {self.text!r}")
        object.__setattr__(self, "text", self.clean(self.text))

    @property
    def mod(self) -> str:
        """The mod that asked."""
        return self.name.split(":")[0]

    def clean(self, text: str) -> str:
        """``text`` cut to the prompt's size, printable characters only, lines joined by
        ``"\\n"``; anything else is a ``ValueError`` naming it."""
        if not isinstance(text, str):
            raise ValueError(f"text must be a str, got {type(text).__name__}")
        lines = text[: MAX_PROMPT_CHARS * 2].split("\n")[: self.max_lines]
        kept = ["".join(c for c in line if c.isprintable())[: self.line_length] for line in lines]
        return "\n".join(kept)
