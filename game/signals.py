"""Ending the game by a signal: SIGTERM and SIGHUP mean "Save and quit".

`kill`, `timeout`, a logout or a closed terminal send SIGTERM or SIGHUP. Inside a `StopSignals`
block the first such signal is only recorded (`StopSignals.received`); the run loop (`game.runner`)
looks at it once per frame and ends the game there, so the world is saved between two frames,
exactly as the pause menu's "Save and quit" saves it, and the exit status is 0. A signal arriving
while the save runs is recorded too and nothing else: the save finishes (the store writes in one
transaction either way; this also keeps a second ``kill`` from throwing the edits away). When the
block ends the previous handlers come back. Platforms without SIGHUP (Windows) handle SIGTERM only.
"""

from __future__ import annotations

import signal
from types import FrameType, TracebackType
from typing import Any

__all__ = ["STOP_SIGNALS", "StopSignals"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class StopSignals:
    """Records the stop signals received inside a ``with`` block instead of dying of them."""

    def __init__(self) -> None:
        self.received: signal.Signals | None = None  # the first stop signal, once one came
        self.count = 0  # how many came (the later ones only wait for the save)
        self._previous: dict[signal.Signals, Any] = {}

    @property
    def stopping(self) -> bool:
        """Whether a stop signal has asked the game to end."""
        return self.received is not None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        """The handler: remember the signal; the run loop acts on it between frames."""
        self.count += 1
        if self.received is None:
            self.received = signal.Signals(signum)

    def __enter__(self) -> StopSignals:
        for sig in STOP_SIGNALS:
            self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous.clear()
