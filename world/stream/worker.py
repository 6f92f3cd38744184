"""Reading and generating chunks in a worker process, for `world.stream.loader.ChunkLoader`.

Why a process (measured, issue 13: a 60 s sprint-flight at view distance 8 over a saved world,
2 shared cores): with the loader in a thread, the frames that stream took twice their CPU time
in wall time, every part of them alike (random ticks 6.4 ms of CPU in 13.7 ms, meshing 13 ms in
26 ms), because the two threads pass the GIL back and forth: each time the main thread's numpy
lets go of it, the loader takes it and keeps it up to the switch interval. The loader itself
used only 7 % of a core. Loading in the frame instead, wall time equalled CPU time and the worst
Python-side frame fell from 37-44 ms to 22 ms. A process has its own GIL: the frame keeps the
main thread's alone and the loading still runs beside it, on the other core.

A `WorkerRecipe` says how to build the game's chunk source again in a fresh interpreter (the
mods' folders, the save file or the generator and seed); the worker (``python -m
world.stream.worker FD``, talking over one end of a socket pair) builds it, answers ``ready``
with a fingerprint of its block registry, and then loads batches of chunk keys, answering with
their arrays (``None``: all air), the saved per-voxel data and entities read with them
(`world.save.saved_chunks.SavedChunks.take_pending`) and the mods' errors
it met (``on_generated`` hooks run there, under its own hook watchdog: generation only ever
depends on the seed and the chunk's coordinates, so where it runs does not change the world). A
saved world is read through a read-only connection of its own, beside the game's writer
(`world.save.lock`: a reader never blocks the writer, and sees each save once committed).

It also meshes: a mesh job carries copies of what `world.mesh.mesher.mesh_padded` needs (the chunk's
padded blocks and light, 18³ each, about 23 KB), so the worker needs no world of its own and a
mesh never reads a chunk the game has changed since; the answer is packed as the game draws it
(`world.mesh.pack`), so the frame only copies it. The fingerprint covers the mesher's tables
(faces, culling, atlas uvs) too. Waiting mesh and light jobs are answered before the next load
batch.
Measured (issue 13): a chunk's mesh costs the game's frame 1.1-2 ms meshed there, and sprint
flight at view distance 8 brings about 115 chunks a second, each meshed twice then (in daylight
first, then with its light; now once, lit, while the light keeps up: `game.chunk_view`). It
lights as well: a light job carries a box's light, sources and losses
(`world.light.lighting.LightInputs`) and the answer the pieces of light that changed
(`world.light.lighting.solve_light`: the relaxation, a third of lighting new chunks).

The parent's side is `WorkerProcess`, talking through a `Link`, where the frame never waits (sends
the socket cannot take now go with the next call; an answer is taken only once whole); the worker
runs at the game's niceness (below it, it starved: `WorkerProcess`) under SCHED_BATCH on Linux,
so that its wake-ups do not preempt the frame. What the loader does when the worker fails (a
fingerprint that differs from the game's registry, a batch that raised, a worker that died) is
`world.stream.loader`'s: it loads that itself, and the game meshes a lost job itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import os
import pickle
import queue
import select
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from world.voxels.layout import ChunkKey

if TYPE_CHECKING:
    from world.blocks.registry import BlockRegistry
    from world.light.lighting import LightInputs
    from world.mesh.mesher import MeshInputs
    from world.mods.host import Mods

__all__ = [
    "Blocks",
    "Link",
    "WorkerProcess",
    "WorkerRecipe",
    "read_batch",
    "registry_fingerprint",
]

Blocks = NDArray[np.uint16] | None  # a chunk's array; None: all air


@dataclass(frozen=True)
class WorkerRecipe:
    """How a worker process builds the game's chunk source again.

    Attributes
    ----------
    mods_dirs : tuple of str
        The folders `world.mods.loader.load_mods` read (absolute paths).
    entry_points : bool
        Whether the installed ``blockpick.mods`` entry points were loaded too.
    save : str or None
        The world's save file (read-only in the worker), or None for a world never saved.
    generator : str or None
        The generator of a world never saved (`world.gen.generators.GENERATORS`; None: air).
    seed : int
        Its seed.
    fingerprint : str
        `registry_fingerprint` of the game's registry: a worker whose registry differs (a mod
        registering blocks differently in another interpreter) is not used.
    game : str
        Where the game's content plugins are, ``"module:attribute"`` (the base game's:
        ``"world.base:GAME"``), imported by the worker to load them first as the game did;
        ``""`` for none. Data, not an import: the worker, as the engine, knows no content.
    """

    mods_dirs: tuple[str, ...]
    entry_points: bool
    save: str | None
    generator: str | None
    seed: int
    fingerprint: str
    game: str = ""


def registry_fingerprint(registry: BlockRegistry) -> str:
    """A digest of every block's name and state count, in id order, and of the mesher's tables:
    equal fingerprints, equal ids and equal meshes."""
    from world.mesh.boxes import cull_tables

    text = "\n".join(f"{block.name} {block.state_count}" for block in registry)
    digest = hashlib.sha256(f"{len(registry)}\n{text}".encode())
    tables = cull_tables(registry)
    for table in (tables.cull, tables.side_bits, tables.corners, tables.uvs, tables.box_shade):
        digest.update(np.ascontiguousarray(table).tobytes())
    return digest.hexdigest()


class WorkerProcess:
    """The parent's side of one worker process (started at once; see the module notes).

    ``send`` a batch ``(batch_id, keys)`` and ``send_mesh`` a mesh job; ``poll`` and ``recv``
    the answers: ``("ready", fingerprint)`` once, then ``("done", batch_id, found, pending,
    mod_errors)`` (``pending``: the saved data and entities read with the chunks) or
    ``("failed", batch_id, message)`` per batch, ``("meshed", job_id, packed_mesh)`` or
    ``("mesh failed", job_id, message)`` per mesh job, ``("lit", job_id, answer)`` or ``("light
    failed", job_id, message)`` per light job, or ``("broken", message)`` when the
    worker could not build the chunk source.
    """

    def __init__(self, recipe: WorkerRecipe) -> None:
        if os.name != "posix":  # the socket is handed down as a file descriptor
            raise OSError("a chunk worker process needs a POSIX system")
        parent, child = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "world.stream", str(child.fileno())],
                pass_fds=(child.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        # The worker keeps the game's niceness (it inherits it). Below the game (niceness 5,
        # until session 39) the wall-clock sprint-flight at view distance 8 over a saved world
        # (`bench.game`, 2 cores) left it starved: the frame and llvmpipe's drawing threads took
        # both cores, the loads and meshes waited (the queue grew to 2,500) and 801-1023 of some
        # 2,800 frames had a hole ahead; at the game's, none, the queue drained, the frame's
        # median unchanged (20-22 ms).
        # Linux: SCHED_BATCH, so that the worker waking (a job or an answer through the
        # socket) does not preempt the game's main thread; its threads inherit it. Measured:
        # walking frames lost 4-5 ms to 16 involuntary switches inside one non-blocking send.
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(self.process.pid, os.SCHED_BATCH, os.sched_param(0))
        self._link = Link(parent)
        self._link.send(recipe)
        self.ready = False

    def send(self, batch_id: int, keys: list[ChunkKey]) -> None:
        """Ask for one batch."""
        self._link.send(("load", batch_id, keys))

    def send_mesh(self, job_id: int, job: MeshInputs) -> None:
        """Ask for one chunk's mesh (`world.mesh.mesher.mesh_inputs`)."""
        self._link.send(("mesh", job_id, job))

    def send_light(self, job_id: int, job: LightInputs) -> None:
        """Ask for one box of light solved (`world.light.lighting.solve_light`)."""
        self._link.send(("light", job_id, job))

    def poll(self, timeout: float = 0.0) -> bool:
        """Whether a whole answer is waiting (waits up to ``timeout`` seconds for one)."""
        return self._link.poll(timeout)

    def recv(self) -> Any:
        """The next answer; `EOFError` when the worker is gone."""
        return self._link.recv()

    def close(self) -> None:
        """Ask the worker to stop, and make sure it has (one still starting is stopped at once:
        it would only read the request once the mods are loaded)."""
        with contextlib.suppress(OSError):
            self._link.send(None)  # what does not fit now: the worker stops at the end anyway
        self._link.close()
        if not self.ready:
            self.process.kill()
        try:
            self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Link:
    """The game's end of the worker's socket, where the frame never waits: `send` writes what
    the socket takes now (``MSG_DONTWAIT``) and keeps the rest for the next call, and `poll`
    takes the bytes that have arrived and says yes only once an answer is whole.

    A `Connection` blocks both ways: its ``send`` while the socket's buffer is full, its
    ``poll`` is true at an answer's first bytes and its ``recv`` then waits for the rest. The
    worker runs below the game for the scheduler and reads or writes only when it next runs:
    measured, a walking frame waited 4.7 ms in one mesh job's send, and frames whose chunk
    work took 18-25 ms of wall time for 6-8 ms of the main thread's CPU. Messages keep
    `Connection`'s framing (a 4-byte big-endian length, or -1 and an 8-byte one, then the
    pickle), so the worker's side is a plain `Connection`.
    """

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._inbox = bytearray()
        self._outbox = bytearray()
        self._ended = False

    def send(self, message: Any) -> None:
        """Send ``message``: what the socket does not take now goes with the next call."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > 0x7FFFFFFF:
            self._outbox += struct.pack("!iQ", -1, len(data))
        else:
            self._outbox += struct.pack("!i", len(data))
        self._outbox += data
        self.flush()

    def flush(self) -> None:
        """Write what waits to be sent, as far as the socket takes it now."""
        while self._outbox:
            try:
                sent = self._sock.send(self._outbox[: 1 << 20], socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return
            del self._outbox[:sent]

    def poll(self, timeout: float = 0.0) -> bool:
        """Whether a whole answer (or the end) is in; waits up to ``timeout`` s for one."""
        deadline = time.monotonic() + timeout
        while True:
            self.flush()
            self._take_arrived()
            if self._ended or self._whole() is not None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            select.select([self._sock], [], [], left)

    def recv(self) -> Any:
        """The next answer (waiting for it when none is whole); `EOFError` at the end."""
        while (size := self._whole()) is None:
            if self._ended:
                raise EOFError("the chunk worker closed its socket")
            self.poll(60.0)
        head, length = size
        data = bytes(self._inbox[head : head + length])
        del self._inbox[: head + length]
        return pickle.loads(data)

    def close(self) -> None:
        self._sock.close()

    def _take_arrived(self) -> None:
        while not self._ended:
            try:
                data = self._sock.recv(1 << 20, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._ended = True
                return
            if not data:
                self._ended = True
                return
            self._inbox += data

    def _whole(self) -> tuple[int, int] | None:
        """(header size, length) of the first answer when it is all in, else None."""
        inbox = self._inbox
        if len(inbox) < 4:
            return None
        (length,) = struct.unpack_from("!i", inbox)
        head = 4
        if length == -1:
            if len(inbox) < 12:
                return None
            (length,) = struct.unpack_from("!Q", inbox, 4)
            head = 12
        return (head, length) if len(inbox) >= head + length else None


# -- the worker's side -------------------------------------------------------------------------


def _build(recipe: WorkerRecipe) -> tuple[Any, Mods, BlockRegistry]:
    """The chunk source the recipe describes, its mods and registry (in the worker)."""
    from world.gen.worldgen import mod_hooks, worldgen_factory
    from world.mods.guard import HookGuard
    from world.mods.loader import load_mods
    from world.mods.registration import make_registry
    from world.save.storage import WorldStore

    mods = load_mods(recipe.mods_dirs, entry_points=recipe.entry_points, game=_game(recipe.game))
    registry = make_registry(mods)
    factory = worldgen_factory(mod_hooks(mods, HookGuard(mods.record)))
    if recipe.save is not None:
        world = WorldStore(recipe.save, read_only=True).load(registry, generator_factory=factory)
        return world.generator, mods, registry
    if recipe.generator is None:
        return None, mods, registry
    return factory(recipe.generator, recipe.seed, registry), mods, registry


def _game(path: str) -> tuple[tuple[str, object], ...]:
    """The game's content plugins named by a recipe's ``game`` (``"module:attribute"``)."""
    if not path:
        return ()
    module, _, attribute = path.partition(":")
    plugins = getattr(importlib.import_module(module), attribute)
    return tuple((str(name), plugin) for name, plugin in plugins)


def read_batch(source: Any, keys: list[ChunkKey]) -> dict[ChunkKey, Blocks]:
    """A batch's arrays from a chunk source (None: all air, so nobody keeps an array): one
    ``load_many`` call when the source has it (one SQLite query), else one call a chunk. The
    loader's thread reads through it too."""
    if source is None:
        return dict.fromkeys(keys)
    many = getattr(source, "load_many", None)
    found: dict[ChunkKey, Blocks] = (
        dict(many(keys)) if many is not None else {key: source(*key) for key in keys}
    )
    for key, blocks in found.items():
        if blocks is not None and not blocks.any():
            found[key] = None
    return found


def _load(source: Any, keys: list[ChunkKey]) -> tuple[dict[ChunkKey, Blocks], dict[ChunkKey, Any]]:
    """A batch's arrays and the saved per-voxel data and entities read with them (in the
    worker)."""
    take = getattr(source, "take_pending", None)
    found = read_batch(source, keys)
    return found, ({} if take is None else take(keys))


def _mesh(registry: BlockRegistry, job_id: int, job: MeshInputs) -> tuple[Any, ...]:
    """One mesh job's answer (in the worker)."""
    from world.mesh.pack import drawn_mesh

    try:
        return ("meshed", job_id, drawn_mesh(registry, job))
    except Exception:  # the game meshes this one itself, and reports what it raises
        return ("mesh failed", job_id, traceback.format_exc(limit=3))


def _light(job_id: int, job: LightInputs) -> tuple[Any, ...]:
    """One light job's answer (in the worker)."""
    from world.light.lighting import solve_light

    try:
        return ("lit", job_id, solve_light(job))
    except Exception:  # the game solves this one itself, and reports what it raises
        return ("light failed", job_id, traceback.format_exc(limit=3))


def serve(conn: Connection) -> None:
    """The worker's loop: the recipe first, then batches until ``None`` or the parent is gone."""
    try:
        recipe = conn.recv()
        source, mods, registry = _build(recipe)
    except EOFError:
        return
    except Exception as exc:  # the parent loads in a thread instead
        conn.send(("broken", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", registry_fingerprint(registry)))
    reported = len(mods.errors)  # loading the mods: the game reported those itself
    # A thread reads every message as it comes, so the game's sends never wait for this
    # loop: both sides sending while neither reads (full socket buffers) cannot happen.
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_read_all, args=(conn, inbox), daemon=True).start()
    loads: deque[tuple[int, list[ChunkKey]]] = deque()
    while True:
        # Every message waiting is taken first: mesh jobs are answered at once (a chunk in
        # view waits for them), load batches queue for when none is left.
        if not loads or not inbox.empty():
            message = inbox.get()
            if message is None:  # the parent said stop, or is gone
                return
            if message[0] == "mesh":
                conn.send(_mesh(registry, message[1], message[2]))
            elif message[0] == "light":
                conn.send(_light(message[1], message[2]))
            else:
                loads.append(message[1:])
            continue
        batch_id, keys = loads.popleft()
        try:
            found, data = _load(source, keys)
        except Exception:  # the parent loads this batch itself and reports what it raises
            conn.send(("failed", batch_id, traceback.format_exc(limit=3)))
            continue
        errors = [(e.mod, e.where, e.message) for e in mods.errors[reported:]]
        reported = len(mods.errors)
        conn.send(("done", batch_id, found, data, errors))


def _read_all(conn: Connection, inbox: queue.SimpleQueue[Any]) -> None:
    """The worker's reader thread: every message into ``inbox``, then None at the end."""
    try:
        while (message := conn.recv()) is not None:
            inbox.put(message)
    except (EOFError, OSError):
        pass
    inbox.put(None)


def main(argv: list[str]) -> int:
    """``python -m world.stream FD``: serve the socket ``FD`` (see the module notes)."""
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m world.stream FD (started by the game)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="blockpick chunk worker: %(message)s")
    # A broken pipe: the game is gone.
    with (
        Connection(int(argv[0])) as conn,
        contextlib.suppress(BrokenPipeError, ConnectionResetError),
    ):
        serve(conn)
    return 0
