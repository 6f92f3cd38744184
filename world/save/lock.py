"""One writer per world file: an OS file lock held for the life of a
`world.save.storage.WorldStore`.

Contract
--------
- A store opened for writing takes an exclusive lock; a second store that asks to write the same
  world (in another game, or in the same process) gets `WorldLocked`, a `SaveError` naming the
  world and saying how to look at it anyway (read-only).
- A read-only store takes a shared lock when it can (it never creates the side file: looking at
  a world writes nothing). Holding it, no writer can start, so the store may read the file
  alone (`world.save.format.connect`); without it (a writer is active) it reads through
  SQLite's WAL as a normal reader, which is safe beside one writer. With no side file at all (no
  writer opened the world since it was made, or read-only media) it reads alone, as before
  locks existed.
- The lock is on the file the side path names when it is taken, checked after locking: a lock
  file removed or replaced between the open and the lock (the classic lock-file race) is
  opened and locked again, so two stores never lock two different files of one path.
- A writer checks before every save that its lock file is still the one at the path
  (`FileLock.check`: the same device and inode). A lock file removed or replaced while a game
  runs (by hand, or by a cleaning tool) lets a second game in with a fresh one; the first then
  gets a `SaveError` saying so at its next save, and its store saves nothing more, so the two
  never write the same world.
- The lock dies with its process: a game that crashed or was killed never blocks the next start,
  and nothing has to be cleaned up.

Why an OS lock on a side file
-----------------------------
SQLite's own ``locking_mode=EXCLUSIVE`` would also stop a second writer, but it stops every
reader too (the second game could not even open the world read-only, and its error would be a
bare "database is locked"), and it is only taken at the first write, not at open. The lock is
``flock`` on ``<world file>-lock``, beside SQLite's own ``-wal`` and ``-shm`` files, rather than
on the world file itself: closing any descriptor of a file drops every POSIX lock the process
holds on it, so a descriptor of our own on the database could silently release SQLite's locks.
The side file is empty and stays after a game ends; deleting it while no game runs is harmless,
while a game runs it makes that game stop saving (above). Where ``fcntl`` does not exist
(Windows) no lock is taken: two games on one world there remain the player's care.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

from world.save.format import SaveError

try:
    import fcntl as _fcntl

    fcntl: ModuleType | None = _fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = ["LOCK_SUFFIX", "FileLock", "WorldLocked", "lock_path", "locks_files"]

LOCK_SUFFIX = "-lock"
# Times the lock is taken again when its file is replaced between open and flock; another
# program replacing it that often means something is wrong, not a race to wait out.
_LOCK_ATTEMPTS = 5


class WorldLocked(SaveError):
    """The world is open for writing in another game (or another store of this one)."""


def locks_files() -> bool:
    """Whether this system has the locks (``fcntl``); without them a reader beside a writer
    would read the file as immutable."""
    return fcntl is not None


def lock_path(path: Path) -> Path:
    """The lock's side file of a world file: ``<path>-lock``."""
    return Path(f"{path}{LOCK_SUFFIX}")


class FileLock:
    """The lock a store holds on its world file until `release`.

    Parameters
    ----------
    path : Path
        The world file.
    write : bool
        Exclusive (for writing; `WorldLocked` when another holder exists) or shared (best
        effort: `held` tells whether it was taken).

    Attributes
    ----------
    held : bool
        True when no other store can be writing the world while this one is open: the lock is
        held, or locking is impossible here (no ``fcntl``, no side file, no lock support) and
        the store goes on as before locks existed. True for a write lock until `check` finds
        its file removed or replaced. False for a shared lock a writer kept out (or whose file
        kept being replaced).
    """

    def __init__(self, path: Path, *, write: bool) -> None:
        self.held = False
        self._path = path
        self._side = lock_path(path)
        self._fd: int | None = None
        if fcntl is None:
            self.held = True  # no locks here: every store behaves as it did before locks
            return
        for _ in range(_LOCK_ATTEMPTS):
            if not self._lock_once(fcntl, write=write) or self._is_at_path():
                return
            # The lock file was removed or replaced between our open and our flock: a lock on
            # the old file guards nothing (the next game locks the new one). Lock the new one.
            self.release()
        if write:
            raise SaveError(
                path,
                f"cannot lock it: its lock file {self._side.name} keeps being replaced by "
                "another program",
            )

    def _lock_once(self, locks: ModuleType, *, write: bool) -> bool:
        """Open the side file and flock it; False when that settled the matter (locked out,
        no side file, no lock support: `held` says which), True when the lock must be checked."""
        cloexec = getattr(os, "O_CLOEXEC", 0)
        try:
            # A reader never creates the side file (looking at a world writes nothing).
            flags = os.O_RDWR | os.O_CREAT if write else os.O_RDONLY
            self._fd = os.open(self._side, flags | cloexec, 0o644)
        except OSError as exc:
            if write:
                raise SaveError(
                    self._path,
                    f"cannot create its lock file {self._side.name}: {exc.strerror or exc} "
                    "(is the folder write-protected? open it read-only)",
                ) from None
            # No side file: no writer opened this world since it was made (or the media is
            # read-only); the reader goes on as the only user, as it did before locks.
            self.held = True
            return False
        try:
            locks.flock(self._fd, (locks.LOCK_EX if write else locks.LOCK_SH) | locks.LOCK_NB)
        except BlockingIOError:
            self.release()
            if write:
                raise WorldLocked(
                    self._path,
                    "is open in another Blockpick game (one game at a time may change a world): "
                    "close it there, or open it read-only (--read-only) to look around",
                ) from None
            return False
        except OSError:  # a filesystem without locks: go on unguarded rather than not at all
            self.release()
            self.held = True
            return False
        self.held = True
        return True

    def _is_at_path(self) -> bool:
        """Whether the locked file is still the one at the side path (device and inode)."""
        if self._fd is None:
            return True  # nothing is locked (no locks here): nothing can have been replaced
        mine = os.fstat(self._fd)
        try:
            there = os.stat(self._side)
        except OSError:
            return False  # removed (or unreadable, which no game of ours would make it)
        return (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino)

    def check(self) -> None:
        """`SaveError` unless the lock still guards the world: the file it locked is still
        the one at ``<world file>-lock``. Two stats; a writer calls it before every save."""
        if self._is_at_path():
            return
        self.held = False
        raise SaveError(
            self._path,
            f"its lock file {self._side.name} was removed or replaced while this game had the "
            "world open, so another game may be writing this world: this game saves nothing "
            "more to it (close the world and open it again)",
        )

    def release(self) -> None:
        """Give the lock up (closing its descriptor). Idempotent."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.held = False
