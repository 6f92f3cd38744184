"""The circuit breaker: a mod's hook or callback that keeps failing is switched off in a world.

Contract
--------
- Every failure of a mod's call made by the rules (`world.mods.guard.HookGuard.fail`: a raise,
  a bad answer, or the watchdog stopping it) is counted against the pair (mod, hook), where
  *hook* is what the error names: a hook (``"on_tick"``), a block's callback (``"on_timer of
  furnace:furnace"``), an ABM (``"random tick of base:leaves"``), a text prompt or a command.
- A pair *trips* when `TRIP_TIMEOUTS` of its calls were stopped by the watchdog within
  `WINDOW_SECONDS`, or `TRIP_ERRORS` of them failed in any way (timeouts included) within that
  window. Failures older than the window are forgotten.
- A tripped pair is not called again by the rules that own this breaker: for that world, as
  long as it is open, until the player turns it back on (`Breaker.enable`, the chat's
  ``/mods enable <mod>``). Nothing of it is saved: the world opened again calls every hook.
- One message says so when it trips, recorded like any mod error (`world.mods.host.Mods.record`),
  naming the mod, the hook and how to turn it back on: *mod 'sponge' failed in on_tick:
  disabled after 3 calls ran past the time limit within 30 s; /mods enable sponge turns it
  back on*.
- Fail closed. A tripped *deciding* call (a ``can_*`` hook, `world.mods.hooks.Policy.VETO`; a
block's
  ``can_break`` or ``placement_state``, `world.actions.callbacks.DECIDING`) is not made but
  answers with a denial, `Breaker.refusal`, naming the mod and saying it is disabled: a
  protection mod that keeps crashing never opens the areas it protects. Any other tripped call
  is skipped (`world.actions.transaction.Transaction.run`): it costs a set lookup.

Why these numbers. A timeout freezes the game for `world.mods.guard.HOOK_TIME_LIMIT` (250 ms)
at least, and the watchdog already leaves out the garbage collector's time and a CPU taken by
other programs: one may be a rare slow path, three within 30 s is a hook that will go on doing
it, stopped after 0.75 s of frozen game instead of a quarter of a second every frame (2.5 FPS).
An error costs microseconds but denies an action or undoes a tick's call each time, and keeps
logging: ten within 30 s is a bug that fires all the time (an ``on_tick`` raising every frame
trips within 10 frames), while a player clicking a few times on the one block a mod gets wrong
does not lose that mod's hook for the whole world. 30 s is long enough to see a per-frame or
per-click failure repeat, short enough that rare failures over a long session never add up.

State lives on the `Breaker`, which the rules own (`world.rules.Rules.breaker`), never in a
module variable (STYLE rule 11): two worlds, or two tests, never share it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from world.mods.calls import ModError

__all__ = [
    "TRIP_ERRORS",
    "TRIP_TIMEOUTS",
    "WINDOW_SECONDS",
    "Breaker",
    "HookDisabled",
    "Report",
    "mods_command",
]

TRIP_TIMEOUTS = 3  # watchdog stops within the window that switch a hook off (module notes)
TRIP_ERRORS = 10  # failures of any kind within the window that switch a hook off
WINDOW_SECONDS = 30.0


class Report(Protocol):
    """How a failure is logged and kept: `world.mods.host.Mods.record`'s signature."""

    def __call__(
        self, mod: str, where: str, exc: BaseException, *, traceback: bool = True
    ) -> ModError: ...


class HookDisabled(RuntimeError):
    """What the message of a tripped hook is recorded as (it names the mod and the hook)."""


class Breaker:
    """Failure counts of one world's hook calls, and the pairs (mod, hook) switched off.

    Parameters
    ----------
    report : Report
        Records the message of a pair that trips (`world.mods.host.Mods.record`).
    timeouts, errors : int
        Timeouts, and failures of any kind, within ``window`` that trip a pair (>= 1).
    window : float
        Seconds a failure counts (> 0).
    clock : callable
        Seconds, monotonic (`time.monotonic`; a fake in tests).
    """

    def __init__(
        self,
        report: Report,
        *,
        timeouts: int = TRIP_TIMEOUTS,
        errors: int = TRIP_ERRORS,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        for name, count in (("timeouts", timeouts), ("errors", errors)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {count!r}")
        if isinstance(window, bool) or not isinstance(window, int | float) or not window > 0:
            raise ValueError(f"window must be seconds > 0, got {window!r}")
        self.report = report
        self.timeouts = timeouts
        self.errors = errors
        self.window = float(window)
        self.clock = clock
        # Per pair, its failures within the window, oldest first: (when, was it a timeout).
        self._failures: dict[tuple[str, str], deque[tuple[float, bool]]] = {}
        self._tripped: set[tuple[str, str]] = set()
        self._order: list[tuple[str, str]] = []  # the tripped pairs, in the order they tripped
        self._trips: dict[tuple[str, str], int] = {}  # how often each pair tripped so far

    def failed(self, mod: str, hook: str, *, timeout: bool) -> bool:
        """Count one failure of ``hook`` of ``mod`` (``timeout``: the watchdog stopped it).

        Returns
        -------
        bool
            True when this failure tripped the pair: its message is recorded then.
        """
        pair = (mod, hook)
        if pair in self._tripped:
            return False
        now = self.clock()
        failures = self._failures.setdefault(pair, deque(maxlen=max(self.errors, self.timeouts)))
        failures.append((now, timeout))
        while failures[0][0] <= now - self.window:
            failures.popleft()
        stopped = sum(1 for _, late in failures if late)
        window = f"{self.window:g} s"
        if stopped >= self.timeouts:
            why = f"{stopped} calls ran past the time limit within {window}"
        elif len(failures) >= self.errors:
            why = f"{len(failures)} calls failed within {window}"
        else:
            return False
        del self._failures[pair]
        self._tripped.add(pair)
        self._order.append(pair)
        trips = self._trips[pair] = self._trips.get(pair, 0) + 1
        again = "" if trips == 1 else f" (disabled {trips} times now)"
        message = f"disabled after {why}{again}; /mods enable {mod} turns it back on"
        self.report(mod, hook, HookDisabled(message), traceback=False)
        return True

    def tripped(self, mod: str, hook: str) -> bool:
        """Whether ``hook`` of ``mod`` is switched off (the rules then do not call it)."""
        return bool(self._tripped) and (mod, hook) in self._tripped

    def refusal(self, mod: str, hook: str) -> str:
        """The denial a tripped deciding call answers with (module notes: fail closed)."""
        return (
            f"mod {mod!r} is disabled in {hook} after failing again and again; "
            f"/mods enable {mod} turns it back on"
        )

    @property
    def disabled(self) -> tuple[tuple[str, str], ...]:
        """The pairs (mod, hook) switched off, in the order they tripped."""
        return tuple(self._order)

    def enable(self, mod: str) -> tuple[str, ...]:
        """Turn every tripped hook of ``mod`` back on, its failures forgotten.

        Returns
        -------
        tuple of str
            The hooks turned back on (empty when none of the mod's was off).
        """
        hooks = tuple(hook for owner, hook in self._order if owner == mod)
        for hook in hooks:
            self._tripped.discard((mod, hook))
        self._order = [pair for pair in self._order if pair[0] != mod]
        for pair in [pair for pair in self._failures if pair[0] == mod]:
            del self._failures[pair]
        return hooks


def mods_command(text: str, names: Iterable[str], breaker: Breaker) -> list[str]:
    """``/mods``'s answer: the loaded mods (``names``, in load order) and the hooks ``breaker``
    switched off; ``/mods enable <mod>`` (``text`` ``"enable <mod>"``) turns that mod's back on.

    Raises
    ------
    ValueError
        When ``text`` is neither empty nor ``enable <mod>``, or names no loaded mod.
    """
    loaded = list(names)
    words = text.split()
    if not words:
        lines = [f"Mods: {', '.join(loaded)}"]
        off = breaker.disabled
        if not off:
            return [*lines, "Every hook is on"]
        listed = ", ".join(f"{hook} of {mod}" for mod, hook in off)
        return [*lines, f"Switched off: {listed}", "/mods enable <mod> turns a mod's back on"]
    if words[0].lower() != "enable" or len(words) != 2:
        raise ValueError("say /mods, or /mods enable <mod>")
    mod = words[1].lower()
    if mod not in loaded:
        raise ValueError(f"no mod {mod!r} is loaded")
    hooks = breaker.enable(mod)
    if not hooks:
        return [f"Nothing of mod {mod!r} was switched off"]
    return [f"Mod {mod!r} is on again: {', '.join(hooks)}"]
