"""One writer per world file: an OS file lock held for the life of a `world.storage.WorldStore`.

Contract
--------
- A store opened for writing takes an exclusive lock; a second store that asks to write the same
  world (in another game, or in the same process) gets `WorldLocked`, a `SaveError` naming the
  world and saying how to look at it anyway (read-only).
- A read-only store takes a shared lock when it can (it never creates the side file: looking at
  a world writes nothing). Holding it, no writer can start, so the store may read the file as
  immutable; without it (a writer is active) it reads through SQLite's WAL as a normal reader,
  which is safe beside one writer. With no side file at all (no writer opened the world since
  it was made, or read-only media) it reads alone, as before locks existed.
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
The side file is empty; deleting it while no game runs is harmless. Where ``fcntl`` does not
exist (Windows) no lock is taken: two games on one world there remain the player's care.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

from world.save_format import SaveError

try:
    import fcntl as _fcntl

    fcntl: ModuleType | None = _fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = ["LOCK_SUFFIX", "FileLock", "WorldLocked", "lock_path", "locks_files"]

LOCK_SUFFIX = "-lock"


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
        the store goes on as before locks existed. Always True for a write lock.
    """

    def __init__(self, path: Path, *, write: bool) -> None:
        self.held = False
        self._fd: int | None = None
        if fcntl is None:
            self.held = True  # no locks here: every store behaves as it did before locks
            return
        side = lock_path(path)
        cloexec = getattr(os, "O_CLOEXEC", 0)
        try:
            # A reader never creates the side file (looking at a world writes nothing).
            flags = os.O_RDWR | os.O_CREAT if write else os.O_RDONLY
            self._fd = os.open(side, flags | cloexec, 0o644)
        except OSError as exc:
            if write:
                raise SaveError(
                    path,
                    f"cannot create its lock file {side.name}: {exc.strerror or exc} "
                    "(is the folder write-protected? open it read-only)",
                ) from None
            # No side file: no writer opened this world since it was made (or the media is
            # read-only); the reader goes on as the only user, as it did before locks.
            self.held = True
            return
        try:
            fcntl.flock(self._fd, (fcntl.LOCK_EX if write else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            if write:
                raise WorldLocked(
                    path,
                    "is open in another Blockpick game (one game at a time may change a world): "
                    "close it there, or open it read-only (--read-only) to look around",
                ) from None
            return
        except OSError:  # a filesystem without locks: go on unguarded rather than not at all
            self.release()
            self.held = True
            return
        self.held = True

    def release(self) -> None:
        """Give the lock up (closing its descriptor). Idempotent."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.held = False
