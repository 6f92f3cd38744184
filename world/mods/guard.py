"""Running one hook implementation so that no mod can stop or freeze the game.

`HookGuard.run` calls an implementation and turns everything it raises into a `ModError`
naming the mod, ``SystemExit`` and ``KeyboardInterrupt`` included (the docs promise that a mod's
bug never stops the game), except the player's own Ctrl-C, which still propagates: while a
guard is armed on the main thread it wraps the SIGINT handler to count real interrupts, and a
``KeyboardInterrupt`` that arrives with one is the player's.

The watchdog. A hook that runs longer than `HOOK_TIME_LIMIT` seconds is interrupted: a watchdog
thread, awake only while the rules run hooks (`HookGuard.arm`), polls every `POLL` seconds and
raises `HookTimeout` in the thread running the late hook with CPython's
``PyThreadState_SetAsyncExc``; the rules then roll the hook's action back and the game goes on.
A hook is late once it has run for the limit *and* its thread spent at least half of that
computing (the thread's CPU clock, where POSIX offers one), or once it has run four times the
limit whatever it does (a loop that sleeps): a game starved of CPU for a moment by other
programs does not stop an innocent hook, and a busy loop is stopped within
``HOOK_TIME_LIMIT + 2 * POLL`` plus one interpreter switch interval (5 ms). (Where there is no
thread CPU clock, the limit is on wall time alone.) Time the cyclic garbage collector spends
while a hook runs is not the hook's: a full collection of a large heap, which any allocation
can set off, takes hundreds of milliseconds on a slow machine, so while a guard is armed a
``gc.callbacks`` entry clocks collections and the watchdog takes them off both clocks.

Why a thread and an asynchronous exception rather than ``signal.setitimer``/``SIGALRM``: it
works on every platform (Windows has no ``SIGALRM``) and in any thread (signals only reach the
main one), leaves the process's signals to the engine, and costs the hot path two attribute
writes per hook call instead of two system calls (a neighbour cascade makes hundreds of calls
per frame). Its limit: the exception is delivered between bytecodes, so a hook blocked inside
one long C call (``time.sleep``, a huge numpy operation) is stopped only when that call
returns. `HookTimeout` derives from ``BaseException`` so that a mod's ``except Exception``
does not swallow it, and it is raised again every `POLL` seconds while the hook still runs.
Where ``ctypes.pythonapi`` is missing (not CPython) hooks are not time-limited.

Stopping is not enough: a hook that loops forever would be stopped every frame, and every frame
would cost the limit. Each failure therefore also goes to the rules' circuit breaker
(`HookGuard.fail`, `world.mods.breaker`), which switches a hook off after a few timeouts.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import signal
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from world.mods.breaker import Breaker
    from world.mods.calls import Implementation, ModError

__all__ = ["HOOK_TIME_LIMIT", "POLL", "HookGuard", "HookTimeout"]

# A frame is 16 ms; 250 ms is a visible hitch but not a freeze, and far above any sane hook
# (a radius-3 explosion with its 122 rays takes about 2 ms).
HOOK_TIME_LIMIT = 0.25
POLL = 0.05  # the watchdog's period: a late hook is stopped within HOOK_TIME_LIMIT + POLL

try:
    _set_async_exc: Callable[..., int] | None = ctypes.pythonapi.PyThreadState_SetAsyncExc
except AttributeError:  # not CPython
    _set_async_exc = None

# The Ctrl-C handler is swapped at every arm and disarm (every tick): through the C module, as
# the `signal` module's wrappers try each handler as a `signal.Handlers` member, and the error
# for a Python handler formats its repr (Panda3D's task manager's lists every task): 0.1 ms.
try:
    _raw_signal: Any = importlib.import_module("_signal")
except ImportError:  # not CPython
    _raw_signal = signal


class HookTimeout(BaseException):
    """Raised inside a hook that ran past its time limit (a ``BaseException``, so that a mod's
    ``except Exception`` does not swallow it)."""


Record = Callable[[str, str, BaseException], "ModError"]


class HookGuard:
    """Runs hook implementations with a time limit and turns their failures into `ModError`.

    Parameters
    ----------
    record : callable
        ``record(mod, hook, exception) -> ModError``: logs and keeps a failure
        (`world.mods.host.Mods.record`).
    limit : float
        Seconds a hook may run (`HOOK_TIME_LIMIT`); ``inf`` turns the watchdog off.
    breaker : Breaker, optional
        Counts each failure (`fail`) and says which hooks are switched off (`world.mods.breaker`);
        the rules' own. None: failures are only recorded.
    """

    def __init__(
        self, record: Record, limit: float = HOOK_TIME_LIMIT, breaker: Breaker | None = None
    ) -> None:
        if not limit > 0:
            raise ValueError(f"limit must be a number of seconds > 0, got {limit!r}")
        self.record = record
        self.limit = float(limit)
        self.breaker = breaker
        self._lock = threading.Lock()
        self._armed = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._depth = 0  # nested arm() calls, on every thread
        self._main_depth = 0  # of those, the main thread's (the one that swaps SIGINT's handler)
        # The hook calls running, innermost last, as [deadline, thread id, fired, collector
        # seconds at its start]; nested when a hook asks for a check (ModWorld.may_break) that
        # runs other hooks.
        self._running: list[list[float | int | bool]] = []
        self._interrupts = 0  # the player's Ctrl-C seen while armed
        self._seen: list[float | int | bool] | None = None  # the call the watchdog last saw
        self._seen_cpu: float | None = None  # its thread's CPU clock then
        self._seen_gc = 0.0  # and the collector's clock then
        self._previous_sigint: object = None

    # -- arming: around a whole action or tick ------------------------------------------------

    def arm(self) -> None:
        """Start watching (an action or tick begins); nested calls are counted, on any thread."""
        with self._lock:
            self._depth += 1
            first = self._depth == 1
        if first and self._watching:
            _GC_CLOCK.start()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=_watch,
                    args=(weakref.ref(self), self._armed),
                    daemon=True,
                    name="blockpick-hook-watchdog",
                )
                self._thread.start()
                weakref.finalize(self, self._armed.set)  # wake the thread to end with us
            self._armed.set()
        # Only the main thread receives signals, and only it may swap their handlers: its own
        # depth decides (the worldgen guard arms on the loader thread and the main thread both).
        if threading.current_thread() is threading.main_thread():
            self._main_depth += 1
            if self._main_depth == 1:
                current = _raw_signal.getsignal(signal.SIGINT)
                # Already ours when an earlier disarm found another guard's wrapper on top of
                # ours (out of order) and left ours in its chain: keep forwarding as before.
                if callable(current) and current != self._on_sigint:
                    self._previous_sigint = current
                    _raw_signal.signal(signal.SIGINT, self._on_sigint)

    def disarm(self) -> None:
        """Stop watching (the action or tick is over)."""
        if threading.current_thread() is threading.main_thread() and self._main_depth > 0:
            self._main_depth -= 1
            # Put the handler back only when ours is still the one installed: when another
            # guard armed after us and is still armed, restoring now would cut its wrapper out
            # (and later it would restore ours, with nothing behind it). Ours stays in its
            # chain instead, forwarding to the handler before us.
            if (
                self._main_depth == 0
                and self._previous_sigint is not None
                and _raw_signal.getsignal(signal.SIGINT) == self._on_sigint
            ):
                _raw_signal.signal(signal.SIGINT, self._previous_sigint)
                self._previous_sigint = None
        with self._lock:
            self._depth -= 1
            if self._depth > 0:
                return
            self._armed.clear()
        if self._watching:
            _GC_CLOCK.stop()

    @property
    def _watching(self) -> bool:
        """Whether hooks are time-limited here (a finite limit, on CPython)."""
        return self.limit != float("inf") and _set_async_exc is not None

    def close(self) -> None:
        """Stop the watchdog thread (it also stops when the guard is garbage-collected)."""
        self._closed = True
        self._armed.set()

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self._interrupts += 1
        previous = self._previous_sigint
        if callable(previous):
            previous(signum, frame)  # Python's default raises KeyboardInterrupt

    # -- one hook call ------------------------------------------------------------------------

    def run(
        self, impl: Implementation, kwargs: Mapping[str, object]
    ) -> tuple[object, ModError | None]:
        """Call ``impl`` with the arguments it asks for, within the time limit.

        Returns
        -------
        (result, None), or (None, error) when it raised or ran too long (the error is logged
        and recorded with the mod's name).

        Raises
        ------
        KeyboardInterrupt
            Only the player's own Ctrl-C.
        """
        args = [kwargs[name] for name in impl.argnames]
        interrupts = self._interrupts
        # Built before the try, watched inside it: a timeout that lands anywhere from here on
        # (even inside _begin) is caught below and the call leaves the watch list.
        call: list[float | int | bool] = [0.0, threading.get_ident(), False, 0.0]
        try:
            self._begin(call)
            result = impl.function(*args)
            self._end(call)
        except BaseException as exc:
            while True:  # a late timeout may land in here too: _end must finish
                try:
                    timed_out = self._end(call)
                    break
                except HookTimeout:
                    continue
            if isinstance(exc, KeyboardInterrupt) and self._interrupts != interrupts:
                raise  # the player pressed Ctrl-C: quit as asked
            if timed_out or isinstance(exc, HookTimeout):
                if not isinstance(exc, HookTimeout):  # it caught the timeout, raised another
                    exc = HookTimeout().with_traceback(exc.__traceback__)
                # The watchdog raised the bare class: say what happened, keep where it was.
                exc.args = (f"ran past the {self.limit * 1000:.0f} ms limit and was stopped",)
            return None, self.fail(impl.mod, impl.hook, exc)
        if call[2]:  # it swallowed the timeout and returned: still a failure
            error = HookTimeout(f"ran past the {self.limit * 1000:.0f} ms limit and was stopped")
            return None, self.fail(impl.mod, impl.hook, error)
        return result, None

    def fail(self, mod: str, where: str, exc: BaseException) -> ModError:
        """Record a failure of a mod's call (`record`) and count it against the pair (mod,
        where) in the `breaker`, a `HookTimeout` as a timeout; returns the recorded error."""
        error = self.record(mod, where, exc)
        if self.breaker is not None:
            self.breaker.failed(mod, where, timeout=isinstance(exc, HookTimeout))
        return error

    def _begin(self, call: list[float | int | bool]) -> None:
        deadline = time.perf_counter() + self.limit
        if self._running:  # a nested call ends by its caller's deadline at the latest
            deadline = min(deadline, float(self._running[-1][0]))
        call[0] = deadline
        call[3] = _GC_CLOCK.seconds()
        self._running.append(call)

    def _end(self, call: list[float | int | bool]) -> bool:
        """Stop watching ``call`` (and any call left above it); True when the watchdog fired
        at it (a timeout sent but not landed yet is then taken here, `_absorb`)."""
        with self._lock:
            for index in range(len(self._running) - 1, -1, -1):
                if self._running[index] is call:
                    del self._running[index:]
                    break
            fired = bool(call[2])
        if fired:
            _absorb()
        return fired

    def _check(self) -> None:
        """The watchdog's look: interrupt the innermost hook call when it is late."""
        with self._lock:
            if not self._running:
                self._seen = None
                return
            call = self._running[-1]
            cpu = _cpu_seconds(int(call[1]))
            collected = _GC_CLOCK.seconds()
            if call is not self._seen:  # first sight: CPU time is counted from here
                self._seen, self._seen_cpu, self._seen_gc = call, cpu, collected
            # Seconds running, the collector's passes left out.
            late = (
                time.perf_counter() - (float(call[0]) - self.limit) - (collected - float(call[3]))
            )
            if cpu is None or self._seen_cpu is None:
                stop = late >= self.limit
            else:
                busy = cpu - self._seen_cpu - (collected - self._seen_gc)
                stop = (late >= self.limit and busy >= self.limit / 2) or late >= 4 * self.limit
            if not stop:
                return
            call[2] = True
            if _set_async_exc is not None:
                _set_async_exc(ctypes.c_ulong(int(call[1])), ctypes.py_object(HookTimeout))


class _CollectorClock:
    """Seconds the cyclic garbage collector has run while any guard was armed (a
    ``gc.callbacks`` entry, there only then: the collector runs thousands of times a second
    while the game streams chunks)."""

    def __init__(self) -> None:
        self._seconds = 0.0
        self._users = 0
        self._started: float | None = None

    def start(self) -> None:
        self._users += 1
        if self._users == 1:
            gc.callbacks.append(self._on_collect)

    def stop(self) -> None:
        self._users -= 1
        if self._users == 0:
            gc.callbacks.remove(self._on_collect)
            self._started = None

    def _on_collect(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._started = now
        elif self._started is not None:
            self._seconds += now - self._started
            self._started = None

    def seconds(self) -> float:
        """The collector's seconds so far, a collection under way included."""
        started = self._started
        running = 0.0 if started is None else time.perf_counter() - started
        return self._seconds + running


_GC_CLOCK = _CollectorClock()


def _absorb() -> None:
    """Take a `HookTimeout` the watchdog sent that has not landed yet: it lands at the
    interpreter's next check of its eval breaker, a loop's backward jump.

    Never cancelled with ``PyThreadState_SetAsyncExc(thread, NULL)``: in CPython 3.11 that
    call leaves the thread's eval breaker set with no exception behind it, and the next
    function call made under ``sys.setprofile`` then spins forever.
    """
    for _ in range(2):
        try:
            for _ in range(2):
                pass
        except HookTimeout:
            continue


def _cpu_seconds(thread_id: int) -> float | None:
    """CPU seconds a thread has used, where the platform tells (POSIX), else None."""
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(thread_id))
    except (AttributeError, OSError, ValueError):
        return None


def _watch(guard_ref: weakref.ref[HookGuard], armed: threading.Event) -> None:
    """The watchdog thread: while armed, look every POLL seconds; end with the guard."""
    while True:
        armed.wait()
        guard = guard_ref()
        if guard is None or guard._closed:
            return
        guard._check()
        del guard  # hold no reference while asleep, so the guard can be collected
        time.sleep(POLL)
