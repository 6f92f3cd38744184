"""The loading screen: Minecraft's "Loading terrain", from a window's first frame until the world
is shown.

It covers the window with a dark backdrop and shows, centred, a title ("Loading world" while the
game is built, "Loading terrain" while the first view's chunks are prepared: `game.first_view`),
the world's name, a progress bar of that chunk work and a line counting it. Everything but the
backdrop is one panel, scaled down to fit the window's width and height whatever its size and
aspect (a long world name included), and laid out again when the window is resized
(`game.hud.WindowRoot`). It is drawn after the rest of the 2D layer (its own cull bin, in the
order its pieces were made), so neither the HUD nor a notice shows through it, and the 3D view
is not drawn under it.
"""

from __future__ import annotations

from ursina import Entity, Text, application, camera, color, destroy

from game.first_view import FirstViewProgress
from game.hud import WindowRoot
from game.hud_layout import MARGIN, fit_scale

__all__ = ["BAR_HEIGHT", "BAR_WIDTH", "LoadingScreen"]

BAR_WIDTH = 0.8  # the progress bar at full size, in screen heights
BAR_HEIGHT = 0.03
_BIN = "unsorted"  # drawn last of the 2D layer, in the order the screen's pieces were made
_BACKDROP = color.rgb(0.16, 0.12, 0.09)  # Minecraft's loading screens are dark earth
_BAR_BACK = color.rgb(0.3, 0.3, 0.3)
_BAR_FILL = color.rgb(0.35, 0.8, 0.3)


class LoadingScreen:
    """The loading screen over the whole window (module notes); shown until `destroy`."""

    def __init__(self, world_name: str = "") -> None:
        self.root = WindowRoot("loading screen", self._lay_out)
        self.root.setBin(_BIN, 0, 1)  # over every child's own bin: the screen draws last
        self.backdrop = Entity(parent=self.root, model="quad", color=_BACKDROP)
        self.panel = Entity(parent=self.root, name="loading panel")
        self.title = Text(parent=self.panel, text="Loading world", origin=(0, 0), y=0.1, scale=2)
        self.name = Text(parent=self.panel, text=world_name, origin=(0, 0), y=0.045)
        self.bar = Entity(
            parent=self.panel, model="quad", scale=(BAR_WIDTH, BAR_HEIGHT), color=_BAR_BACK
        )
        self.fill = Entity(
            parent=self.panel,
            model="quad",
            origin=(-0.5, 0),
            x=-BAR_WIDTH / 2,
            scale=(0.0, BAR_HEIGHT),
            color=_BAR_FILL,
        )
        self.fill.enabled = False  # a quad of width 0 would not be a quad
        self.counts = Text(parent=self.panel, text="", origin=(0, 0), y=-0.05)
        self.fraction = 0.0
        self.root.follow()
        # The 3D view is not drawn while the screen covers it: the chunks shown meanwhile cost
        # software GL tens of milliseconds a frame, time the chunk work would lose.
        application.base.camNode.setActive(False)

    def set_world(self, name: str) -> None:
        """Name the world being loaded."""
        self.name.text = name
        self._lay_out(self.root.laid_out_for)

    def show(self, progress: FirstViewProgress) -> None:
        """Show the first view's progress: the bar and its counts ("Loading terrain")."""
        self.title.text = "Loading terrain"
        self.fraction = progress.fraction
        self.fill.enabled = self.fraction > 0.0
        self.fill.scale_x = BAR_WIDTH * self.fraction
        lit = "" if progress.lit is None else f", {progress.lit} lit"
        self.counts.text = (
            f"{self.fraction:.0%}: chunks {progress.loaded} of {progress.loads} loaded"
            f"{lit}, {progress.shown} of {progress.needed} drawn"
        )
        self._lay_out(self.root.laid_out_for)

    @property
    def texts(self) -> tuple[Text, ...]:
        """The screen's lines of text."""
        return (self.title, self.name, self.counts)

    def bounds(self) -> list[tuple[float, float, float, float]]:
        """Each text's and the bar's box on screen, ``(x0, y0, x1, y1)`` in ``camera.ui`` units
        (screen heights from the window's centre, y up): what must fit in the window."""
        boxes = []
        for piece in (*self.texts, self.bar):
            found = piece.getTightBounds(camera.ui)
            if found is None:  # an empty text
                continue
            low, high = found
            boxes.append((float(low[0]), float(low[1]), float(high[0]), float(high[1])))
        return boxes

    def _lay_out(self, aspect: float) -> None:
        """Cover the window; scale the panel to fit its width and height with margins."""
        if not aspect > 0.0:
            return
        self.backdrop.scale = (aspect + 0.01, 1.01)  # a little over: no edge left uncovered
        self.panel.scale = 1.0
        widths, heights = [BAR_WIDTH], [0.0]
        for piece in self.texts:
            found = piece.getTightBounds(self.panel)
            if found is not None:
                low, high = found
                widths.append(2.0 * max(abs(float(low[0])), abs(float(high[0]))))
                heights.append(2.0 * max(abs(float(low[1])), abs(float(high[1]))))
        scale = fit_scale(max(widths), aspect)
        if max(heights) > 1.0 - 2.0 * MARGIN:  # taller than the window (never, at any width)
            scale = min(scale, (1.0 - 2.0 * MARGIN) / max(heights))
        self.panel.scale = scale

    def destroy(self) -> None:
        """Take the screen away, the 3D view drawn again."""
        application.base.camNode.setActive(True)
        destroy(self.root)
