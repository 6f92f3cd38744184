"""The Esc pause menu: back to the game, the settings, save and quit.

Each setting is a row ``[-]  FOV: 70°  [+]`` stepping through its range (`game.user_settings`), the
game mode one button that switches it. The buttons only call this class's methods (`resume`,
`step`, `toggle_mode`, `quit`), which tests drive directly: offscreen there is no pointer to
hover a button with. The menu is centred in the window and shrunk to fit a narrow one, laid
out again when the window is resized (`game.hud.WindowRoot`). The menu decides nothing about
the game: a change goes to ``on_change`` with the new `Settings`, and the game applies and
remembers it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ursina import Button, Entity, Text, color, destroy

from game.hud import WindowRoot
from game.hud_layout import fit_scale
from game.user_settings import (
    FOV_RANGE,
    FOV_STEP,
    SENSITIVITY_RANGE,
    SENSITIVITY_STEP,
    VIEW_DISTANCE_RANGE,
    VOLUME_RANGE,
    VOLUME_STEP,
    Settings,
)

__all__ = ["MENU_WIDTH", "STEPPED", "WIDE", "PauseMenu"]

# The settings stepped with - and +: (range, step).
STEPPED: dict[str, tuple[tuple[float, float], float]] = {
    "fov": (FOV_RANGE, FOV_STEP),
    "mouse_sensitivity": (SENSITIVITY_RANGE, SENSITIVITY_STEP),
    "view_distance": (VIEW_DISTANCE_RANGE, 1),
    "master_volume": (VOLUME_RANGE, VOLUME_STEP),
    "block_volume": (VOLUME_RANGE, VOLUME_STEP),
}
ROW_HEIGHT = 0.07
ROW_GAP = 0.08  # row to row: the title and eight rows fit between the top and the hotbar
TOP_ROW_Y = 0.27  # "Back to game"; the title above it, "Save and quit" a row and a half down
WIDE = 0.5
MENU_WIDTH = WIDE + 2 * (ROW_HEIGHT + 0.01)  # a settings row with its - and + buttons
_BUTTON = color.rgba(0.25, 0.25, 0.25, 0.95)


def _label(settings: Settings, name: str) -> str:
    """A setting as the menu shows it."""
    if name == "fov":
        return f"FOV: {settings.fov:g}°"
    if name == "mouse_sensitivity":
        return f"Mouse sensitivity: {settings.mouse_sensitivity}%"
    if name == "view_distance":
        return f"View distance: {settings.view_distance} chunks"
    if name == "master_volume":
        return f"Sound: {_volume(settings.master_volume)}"
    if name == "block_volume":
        return f"Blocks: {_volume(settings.block_volume)}"
    return f"Mode: {'Creative' if settings.creative else 'Survival'}"


def _volume(percent: int) -> str:
    """A volume as the menu shows it: 0 is off."""
    return f"{percent}%" if percent else "off"


class PauseMenu:
    """The pause menu over a dimmed screen; hidden until `open`."""

    def __init__(
        self,
        settings: Settings,
        *,
        on_change: Callable[[Settings], None],
        on_resume: Callable[[], None],
        on_quit: Callable[[], None],
    ) -> None:
        self.settings = settings
        self.on_change = on_change
        self.on_resume = on_resume
        self.on_quit = on_quit
        self.root = WindowRoot("pause menu", self._lay_out, enabled=False, z=-5)
        self.dim = Entity(parent=self.root, model="quad", color=color.rgba(0, 0, 0, 0.55), z=1)
        # The buttons, centred in the window and shrunk to fit a narrow one.
        self.panel = Entity(parent=self.root, name="menu panel")
        Text(parent=self.panel, text="Game paused", origin=(0, 0), y=TOP_ROW_Y + 0.11, scale=1.5)
        self.buttons: dict[str, Button] = {}
        self.labels: dict[str, Text] = {}
        y = TOP_ROW_Y
        self._button("resume", "Back to game", y, self.resume)
        for name in STEPPED:
            y -= ROW_GAP
            self._row(name, y)
        y -= ROW_GAP
        self._button("creative", _label(settings, "creative"), y, self.toggle_mode)
        y -= ROW_GAP * 1.5
        self._button("quit", "Save and quit", y, self.quit)

    def _button(self, key: str, text: str, y: float, action: Callable[[], None]) -> Button:
        button = Button(
            parent=self.panel,
            text=text,
            scale=(WIDE, ROW_HEIGHT),
            y=y,
            color=_BUTTON,
            on_click=action,
        )
        self.buttons[key] = button
        return button

    def _row(self, name: str, y: float) -> None:
        """A ``[-] label [+]`` row for a stepped setting."""
        Entity(parent=self.panel, model="quad", scale=(WIDE, ROW_HEIGHT), y=y, color=_BUTTON, z=0.5)
        self.labels[name] = Text(
            parent=self.panel, text=_label(self.settings, name), origin=(0, 0), y=y
        )
        for sign, x in ((-1, -(WIDE + ROW_HEIGHT) / 2 - 0.01), (1, (WIDE + ROW_HEIGHT) / 2 + 0.01)):
            self.buttons[f"{name}{'+' if sign > 0 else '-'}"] = Button(
                parent=self.panel,
                text="+" if sign > 0 else "-",
                scale=(ROW_HEIGHT, ROW_HEIGHT),
                position=(x, y),
                color=_BUTTON,
                on_click=lambda name=name, sign=sign: self.step(name, sign),
            )

    def _lay_out(self, aspect: float) -> None:
        """Dim the whole window and fit the buttons into its width."""
        self.dim.scale = (aspect + 0.01, 1.01)  # a little over: no edge left undimmed
        self.panel.scale = fit_scale(MENU_WIDTH, aspect)

    @property
    def shown(self) -> bool:
        """Whether the menu is open."""
        return bool(self.root.enabled)

    def open(self, settings: Settings) -> None:
        """Show the menu with the settings in effect."""
        self.settings = settings
        self._refresh()
        self.root.enabled = True
        self.root.follow()

    def close(self) -> None:
        """Hide the menu."""
        self.root.enabled = False

    def resume(self) -> None:
        """Back to the game."""
        self.close()
        self.on_resume()

    def step(self, name: str, steps: int) -> None:
        """Move a stepped setting by ``steps`` steps, within its range."""
        if name not in STEPPED:
            raise ValueError(f"name must be one of {', '.join(STEPPED)}, got {name!r}")
        (low, high), size = STEPPED[name]
        current = getattr(self.settings, name)
        value = min(max(current + steps * size, low), high)
        self._change(replace(self.settings, **{name: type(current)(value)}))

    def toggle_mode(self) -> None:
        """Switch between creative and survival."""
        self._change(replace(self.settings, creative=not self.settings.creative))

    def quit(self) -> None:
        """Save and quit."""
        self.on_quit()

    def _change(self, settings: Settings) -> None:
        if settings == self.settings:
            return
        self.settings = settings
        self._refresh()
        self.on_change(settings)

    def _refresh(self) -> None:
        """Show the current values."""
        for name, text in self.labels.items():
            text.text = _label(self.settings, name)
        self.buttons["creative"].text = _label(self.settings, "creative")

    def destroy(self) -> None:
        """Remove the menu."""
        destroy(self.root)
