"""Survival breaking over time: progress toward breaking the targeted block, in crack stages.

The game asks `world.rules.Rules.break_time` for the seconds a block takes (its hardness in
survival, 0 in creative, ``inf`` for unbreakable blocks) and feeds `BreakProgress.update` every
frame with the current target and whether the button is held. Progress resets when the target
changes or the button is released, as in Minecraft. A break is followed by a short delay before
the next one starts (Minecraft's 5-tick delay), which is also what paces creative mode's
instant breaking while the button is held.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["BREAK_DELAY", "CRACK_STAGES", "BreakProgress"]

CRACK_STAGES = 10
BREAK_DELAY = 0.25  # seconds: Minecraft waits 5 ticks (of 50 ms) after a break


@dataclass
class BreakProgress:
    """Breaking progress on one target; `update` says when the block breaks.

    Attributes
    ----------
    target : object or None
        What is being broken (a voxel position); None when nothing is.
    elapsed, duration : float
        Seconds spent on the target and seconds it takes.
    cooldown : float
        Seconds left of the delay after the last break.
    """

    target: Any = None
    elapsed: float = 0.0
    duration: float = 0.0
    cooldown: float = 0.0

    def update(self, target: Any, holding: bool, duration: float, dt: float) -> bool:
        """Advance ``dt`` seconds; True when the target breaks on this frame.

        Parameters
        ----------
        target : object or None
            The voxel under the crosshair (None: nothing targeted).
        holding : bool
            Whether the break button is held.
        duration : float
            Seconds the target takes to break (0: instant; inf: never).
        dt : float
            Seconds since the last frame (>= 0).
        """
        if not dt >= 0:
            raise ValueError(f"dt must be >= 0, got {dt}")
        if math.isnan(duration) or duration < 0:
            raise ValueError(f"duration must be >= 0, got {duration}")
        self.cooldown = max(0.0, self.cooldown - dt)
        if not holding or target is None or math.isinf(duration):
            self.reset()
            return False
        if target != self.target:
            self.target, self.elapsed = target, 0.0
        self.duration = duration
        if self.cooldown > 0.0:
            return False
        self.elapsed += dt
        if duration == 0.0 or self.elapsed >= duration:
            self.reset()
            self.cooldown = BREAK_DELAY
            return True
        return False

    def reset(self) -> None:
        """Forget the target and its progress (the delay after a break stays)."""
        self.target, self.elapsed, self.duration = None, 0.0, 0.0

    @property
    def stage(self) -> int | None:
        """The crack stage to draw, 0..9, or None when nothing is being broken."""
        if self.target is None or self.duration <= 0.0 or self.elapsed <= 0.0:
            return None
        return min(CRACK_STAGES - 1, int(self.elapsed / self.duration * CRACK_STAGES))

    @property
    def fraction(self) -> float:
        """Progress 0..1 on the current target."""
        if self.target is None or self.duration <= 0.0:
            return 0.0
        return min(1.0, self.elapsed / self.duration)
