"""The world a game plays and its save: chosen or created at start, autosaved, saved on quit.

Which world `Session.open` plays (from the command line):

- ``--new``: a new world, named by ``--world`` (else "New World", "New World 2", ...), seeded by
  ``--seed`` (else at random), flat with ``--flat``, in the mode ``--creative`` /
  ``--survival`` asks for (else the remembered mode of the settings, survival at first). An
  existing file is never written over: that is refused.
- ``--world NAME|PATH``: that world when its file exists, else a new world there (as ``--new``).
  A path without ``.sqlite`` gets it; a path into a folder that does not exist is refused
  unless ``--new`` is given (`world_file`), so a typo never makes a stray folder and world.
- neither: the most recently played world in the data folder (`world.save.dirs`, which honours
  ``$BLOCKPICK_DATA_DIR``), else a new "New World". Files whose metadata cannot be read (so
  nothing says when they were played) are named in the terminal and skipped; the chosen world,
  if its check finds damage, is refused like any other.
- ``--seed`` / ``--flat`` given for an existing world: the world keeps its own (said at start).
- offscreen runs (``--screenshot`` / ``--script``) with neither ``--world`` nor ``--new`` play an
  unsaved world (`Session.unsaved`) from ``--seed`` (default `DEFAULT_SEED`), so pictures and
  replays are reproducible and never touch the player's saves.

A save that cannot be opened (not a world, a newer version, damaged —
`world.save.storage.SaveError`; every chunk row is checked up front by `WorldStore.verify` on a
read-only connection) is refused: `Session.open` raises, the game says why in the terminal and on
screen and exits with status 1, and the file is never written. So is a world another game is playing
(one writer per world, `world.save.lock.WorldLocked`): the message names it and points to
``--read-only``. A new world that cannot be made (its file exists, its folder is read-only) raises
`NewWorldError`, a usage error (exit status 2).
``--read-only`` plays a readable world without ever writing it (a file you may not change, a
world another game is playing, or a look around without risk); edits then live only in memory.

Saving writes the edited chunks, the player (`world.save.storage.PlayerState`: feet position, yaw,
pitch, hotbar block names, selected slot, flying) and the mode, in one transaction
(`WorldStore.save`): every `AUTOSAVE_SECONDS` of game time, when chunks with edits leave the
view (streaming hands them over before forgetting them), and when the game ends (`close`). A
save that fails is reported and its edits stay in memory, marked, for the next save.

The autosave is copied in the frame and written on a saving thread (`world.save.job`), taken in
by a later frame: SQLite's commit waits for the disk (``synchronous=FULL``, so a save survives a
power cut), 2-7 ms here and more on a spinning disk, and in the frame that was a hitch every
30 s (the worst frame of a sprint-flight at view distance 8, 16.8 ms). Every other save waits
for an autosave still being written, so a later copy is always written last, and a chunk stays
marked, so in memory, until a save holding its current blocks is written.

Screenshots (F2) go to ``<data folder>/screenshots/``, named by the local time as Minecraft's
are (``2024-05-01_14.03.22.png``, ``..._2.png`` for a second one within the same second).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from game.hotbar import SLOTS, Hotbar
from game.options import DEFAULT_SEED, Options
from game.player import Player
from world.base import GAME_PATH
from world.blocks.registry import BlockRegistry
from world.gen.generators import FlatGenerator, make_generator
from world.items.inventory import STACK_MAX, Inventory, ItemStack
from world.physics.movement import Body
from world.save import lock as save_lock
from world.save.dirs import (
    DEFAULT_GENERATOR,
    WORLD_SUFFIX,
    create_world,
    default_data_dir,
    list_worlds,
    resolve_world,
    worlds_dir,
)
from world.save.format import GeneratorFactory, SaveError
from world.save.job import SaveJob
from world.save.meta import PlayerState
from world.save.storage import WorldStore
from world.stream.worker import WorkerRecipe, registry_fingerprint
from world.voxels.chunks import World

__all__ = ["AUTOSAVE_SECONDS", "SCREENSHOTS", "NewWorldError", "Session", "world_file"]

AUTOSAVE_SECONDS = 30.0  # game time between autosaves
SCREENSHOTS = "screenshots"  # folder in the data folder
_FLAT = FlatGenerator.name  # `world.gen.generators.make_generator`'s name for the flat world

Spawner = Callable[[], tuple[int, int, int]]


class Session:
    """One world: its store (``None``: nothing is saved), how it was chosen, and its saving."""

    def __init__(
        self,
        store: WorldStore | None,
        *,
        creative: bool,
        data_dir: Path | None = None,
        seed: int = DEFAULT_SEED,
        flat: bool = False,
        notices: tuple[str, ...] = (),
    ) -> None:
        self.store = store
        self._creative = creative  # the mode it opens in; `attach` hands it to the player
        self.data_dir = default_data_dir() if data_dir is None else Path(data_dir)
        self.seed = seed  # of the unsaved world (a store has its own)
        self.flat = flat
        self.notices: list[str] = list(notices)  # said at start: in the terminal and on screen
        self.report: Callable[[str], object] = lambda message: None  # the HUD's flash, once built
        self.since_save = 0.0
        self.world: World | None = None
        self.player: Player | None = None
        self.hotbar: Hotbar | None = None
        self._spawner: Spawner | None = None
        self._closed: bool | None = None  # once closed: whether its last save succeeded
        # The autosave being written on the saving thread, and the copy it writes.
        self._writing: tuple[Future[int], SaveJob] | None = None
        self._saver: ThreadPoolExecutor | None = None
        for notice in self.notices:
            print(f"blockpick: {notice}", file=sys.stderr)

    @property
    def world_seed(self) -> int:
        """The seed the world's terrain grows from (a saved world's own)."""
        return self.seed if self.store is None else int(self.store.info.seed)

    # -- choosing the world ---------------------------------------------------------------------

    @classmethod
    def unsaved(cls, options: Options) -> Session:
        """A world that is never saved, from ``--seed`` and ``--flat``."""
        return cls(
            None,
            creative=bool(options.creative),
            seed=DEFAULT_SEED if options.seed is None else options.seed,
            flat=options.flat,
        )

    @classmethod
    def open(
        cls, options: Options, data_dir: Path | None = None, *, new_world_creative: bool = False
    ) -> Session:
        """The world the options ask for, opened or created (rules in the module docstring).

        A new world starts creative when ``--creative`` says so, or ``new_world_creative`` (the
        remembered setting) when the command line names no mode. Raises `SaveError` for a world
        that cannot be opened or created (the file is left as it was), `ValueError` for a bad
        world name.
        """
        creative_new = new_world_creative if options.creative is None else options.creative
        data_dir = default_data_dir() if data_dir is None else Path(data_dir)
        notices: list[str] = []
        existing: Path | None = None
        path = None if options.world is None else world_file(options, data_dir)
        if not options.new:
            if path is not None:
                if _exists(path):
                    existing = path
                elif options.read_only:
                    raise SaveError(path, "no such world file (--read-only opens a saved world)")
            else:
                entries = list_worlds(data_dir)
                notices += [f"skipped {e.path}: {e.error}" for e in entries if e.error is not None]
                playable = [e for e in entries if e.info is not None]
                existing = playable[0].path if playable else None
        if existing is None:
            if options.read_only:
                raise SaveError(worlds_dir(data_dir), "no saved world to open read-only")
            store = _create(
                path,
                seed=options.seed,
                generator=_FLAT if options.flat else DEFAULT_GENERATOR,
                game_mode="creative" if creative_new else "survival",
                data_dir=data_dir,
            )
            creative = creative_new
        else:
            store = _open_checked(existing, read_only=options.read_only)
            info = store.info
            if (options.seed is not None and options.seed != info.seed) or (
                options.flat and info.generator != _FLAT
            ):
                made = "no generator" if info.generator is None else f"generator {info.generator!r}"
                notices.append(
                    f"--seed and --flat shape new worlds only: {info.name!r} keeps its seed "
                    f"{info.seed} and its {made} (--new makes one)"
                )
            if options.read_only:
                notices.append(f"{info.name!r} is open read-only: nothing will be saved")
            creative = (
                info.game_mode == "creative" if options.creative is None else options.creative
            )
        return cls(store, creative=creative, data_dir=data_dir, notices=tuple(notices))

    @property
    def name(self) -> str:
        """The world's name (the unsaved world says so)."""
        return "unsaved world" if self.store is None else self.store.info.name

    @property
    def saving(self) -> bool:
        """Whether saves are written (a store, opened for writing, with nothing found broken)."""
        return self.store is not None and not self.store.read_only

    # -- the world and the player -----------------------------------------------------------------

    def load_world(
        self, registry: BlockRegistry, factory: GeneratorFactory = make_generator
    ) -> World:
        """The world, over the save (chunks read lazily) or freshly generated.

        ``factory`` builds the generator (`world.gen.worldgen.worldgen_factory` adds the mods' ores
        and ``on_generated`` hooks).
        """
        if self.store is None:
            generator = factory(_FLAT if self.flat else DEFAULT_GENERATOR, self.seed, registry)
            self.world = World(registry, generator)
            self._spawner = generator.spawn_point  # type: ignore[attr-defined]
            return self.world
        self.world = self.store.load(registry, generator_factory=factory)
        info = self.store.info
        if info.generator is not None:
            self._spawner = make_generator(info.generator, info.seed, registry).spawn_point
        if self.store.unknown_blocks:
            self._notice(
                f"blocks of mods that are not installed show as placeholders and are kept: "
                f"{', '.join(self.store.unknown_blocks)}"
            )
        return self.world

    def chunk_worker(
        self, mods_dirs: Iterable[str | os.PathLike[str]], registry: BlockRegistry
    ) -> WorkerRecipe | None:
        """How a worker process builds this world's chunks again (`world.stream.worker`), for
        the world `load_world` made with the mods of ``mods_dirs`` (and the installed entry
        points) and ``registry``; None where a second reader of a save is not safe (no file
        locks: the reader could not tell that the game writes)."""
        if self.store is not None and not save_lock.locks_files():
            return None
        return WorkerRecipe(
            mods_dirs=tuple(str(Path(folder).resolve()) for folder in mods_dirs),
            entry_points=True,
            save=None if self.store is None else str(self.store.path.resolve()),
            generator=_FLAT if self.flat else DEFAULT_GENERATOR,
            seed=self.seed,
            fingerprint=registry_fingerprint(registry),
            game=GAME_PATH,
        )

    def spawn(self) -> Body:
        """Where the player starts: where they were saved, else the generator's spawn point."""
        state = None if self.store is None else self.store.player
        if state is not None:
            return Body(pos=state.position)
        if self._spawner is None:  # a world with no generator: stand on its floor
            return Body(pos=(0.5, float(self.world.build_height[0] if self.world else 0), 0.5))
        wx, wy, wz = self._spawner()
        return Body(pos=(wx + 0.5, float(wy), wz + 0.5))

    def attach(self, player: Player, hotbar: Hotbar) -> None:
        """Restore the game mode, the saved look, flying and hotbar onto them.

        From then on they are what saves write: the game mode is the player's
        (`Player.creative`); the session only remembers the mode the world opened in.
        """
        self.player, self.hotbar = player, hotbar
        player.creative = self._creative
        state = None if self.store is None else self.store.player
        if state is None:
            if not player.creative:  # a new survival player starts with nothing (Minecraft)
                hotbar.inventory.slots[:] = [None] * len(hotbar.inventory.slots)
            return
        player.look(state.yaw, state.pitch)
        player.set_flying(state.flying)
        registry = player.world.registry
        inventory = hotbar.inventory
        if state.inventory is not None:
            saved = Inventory.from_data([None if s is None else list(s) for s in state.inventory])
            inventory.slots[:] = saved.slots
        else:  # a save from before the inventory: its hotbar's blocks, a stack of each
            for slot, key in enumerate(state.hotbar[:SLOTS]):
                stack = None
                if key is not None and key in registry:
                    stack = ItemStack(registry.name(registry.id(key)), STACK_MAX)
                inventory.put(slot, stack)
        if 0 <= state.selected < SLOTS:
            hotbar.select(state.selected)

    def player_state(self) -> PlayerState:
        """The attached player and hotbar as a save holds them."""
        if self.player is None or self.hotbar is None:
            raise RuntimeError("no player attached to the session")
        registry = self.player.world.registry
        return PlayerState(
            position=self.player.body.pos,
            yaw=self.player.yaw,
            pitch=self.player.pitch,
            hotbar=tuple(None if b is None else registry.state_key(b) for b in self.hotbar.slots),
            selected=self.hotbar.selected,
            flying=self.player.body.flying,
            inventory=tuple(  # the crafting grid's stacks too, put back; tools' wear kept
                None if s is None else tuple(s.to_data())
                for s in self.hotbar.inventory.saved_slots()
            ),
        )

    # -- saving -----------------------------------------------------------------------------------

    def save(self) -> bool:
        """Write the edited chunks, the player and the mode now (after an autosave still being
        written, so the later copy is written last).

        False when this session never saves (unsaved, read-only) or the save failed (reported).
        """
        store = self.store
        if store is None or store.read_only:
            return False
        if self.world is None or self.player is None:
            return True  # nothing loaded, nothing to write
        self._collect_autosave(wait=True)
        self.since_save = 0.0
        try:
            store.save(self.world, self.player_state(), game_mode=self._game_mode())
        except SaveError as exc:
            self._notice(f"not saved: {exc}")
            return False
        return True

    def tick(self, dt: float) -> None:
        """Count game time; every `AUTOSAVE_SECONDS`, start an autosave on the saving thread
        (module notes), and take in the last one once it is written."""
        self._collect_autosave(wait=False)
        self.since_save += dt
        if self.since_save < AUTOSAVE_SECONDS or self._writing is not None:
            return
        store = self.store
        if store is None or store.read_only or self.world is None or self.player is None:
            return
        self.since_save = 0.0
        try:
            job = store.prepare_save(self.world, self.player_state(), game_mode=self._game_mode())
        except SaveError as exc:
            self._notice(f"not saved: {exc}")
            return
        if self._saver is None:
            self._saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="blockpick-save")
        self._writing = (self._saver.submit(store.write, job), job)

    def _collect_autosave(self, *, wait: bool) -> None:
        """Take in the autosave on the saving thread once written (``wait``: wait for it):
        unmark what it wrote (`world.save.job.SaveJob.settle`), or report why it failed."""
        if self._writing is None or not (wait or self._writing[0].done()):
            return
        (future, job), self._writing = self._writing, None
        try:
            future.result()
        except SaveError as exc:
            self._notice(f"not saved: {exc}")
            return
        assert self.world is not None
        job.settle(self.world)

    def _game_mode(self) -> str:
        assert self.player is not None
        return "creative" if self.player.creative else "survival"

    def close(self) -> bool:
        """Save (when saving) and close the file; True unless that save failed. Idempotent."""
        if self._closed is None:
            self._closed = self.save() if self.saving else True
            if self._saver is not None:
                self._saver.shutdown()
            if self.store is not None:
                self.store.close()
        return self._closed

    def screenshot_path(self, now: float | None = None) -> Path:
        """A fresh file name for a screenshot taken at ``now`` (Unix time; default: now)."""
        folder = self.data_dir / SCREENSHOTS
        stamp = time.strftime("%Y-%m-%d_%H.%M.%S", time.localtime(now))
        path, n = folder / f"{stamp}.png", 1
        while path.exists():
            n += 1
            path = folder / f"{stamp}_{n}.png"
        return path

    def _notice(self, message: str) -> None:
        """Tell the player: the terminal, and the screen (at start, when the HUD shows notices)."""
        with contextlib.suppress(OSError):  # a terminal gone (SIGHUP) must not stop a save
            print(f"blockpick: {message}", file=sys.stderr)
        self.notices.append(message)
        self.report(message)


class NewWorldError(SaveError):
    """A new world that cannot be made (its file exists, or its folder cannot be written)."""


def world_file(options: Options, data_dir: Path | None = None) -> Path:
    """The file ``--world NAME|PATH`` names (``options.world`` must be given).

    A name is a file in the data folder's worlds (`world.save.dirs.resolve_world`). A path gets
    the ``.sqlite`` suffix when it lacks one (unless a file of exactly that name exists: a save
    made before this rule); its folder must exist unless ``--new`` asks for a new world (which
    makes the folder). Raises `ValueError` naming ``--world``: a usage error.
    """
    text = options.world
    if text is None:
        raise ValueError("--world was not given")
    data_dir = default_data_dir() if data_dir is None else Path(data_dir)
    try:
        path = resolve_world(text, data_dir)
    except (ValueError, RuntimeError) as exc:  # RuntimeError: ``~user`` with no such user
        raise ValueError(f"--world {text!r}: {exc}") from None
    if path.parent == worlds_dir(data_dir):  # a name: the data folder is made when needed
        return path
    if _is_dir(path) or not path.name:
        raise ValueError(f"--world {text}: is a folder (name a world file in it)")
    if path.suffix != WORLD_SUFFIX and not _is_file(path):
        path = path.with_name(path.name + WORLD_SUFFIX)
    if not options.new and not _is_dir(path.parent):
        raise ValueError(
            f"--world {text}: there is no folder {path.parent} (--new makes a world there)"
        )
    return path


def _exists(path: Path) -> bool:
    """Whether a world file is there; `SaveError` when its folder cannot be read."""
    try:
        return path.exists()
    except OSError as exc:
        raise SaveError(path, f"cannot read its folder: {exc.strerror or exc}") from None


def _is_file(path: Path) -> bool:
    """`Path.is_file`, false where the folder cannot be read (the open says why later)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    """`Path.is_dir`, false where the folder cannot be read."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _create(path: Path | None, **how: Any) -> WorldStore:
    """A new world at ``path`` (None: the next free "New World"); `NewWorldError` if it cannot be.

    ``how`` is `world.save.dirs.create_world`'s keywords.
    """
    if path is not None and _is_dir(path.parent) and not os.access(path.parent, os.W_OK | os.X_OK):
        raise NewWorldError(path, f"cannot create the world file: {path.parent} is not writable")
    try:
        return create_world(path, **how)
    except NewWorldError:
        raise
    except SaveError as exc:
        raise NewWorldError(exc.path, exc.problem) from None


def _open_checked(path: Path, *, read_only: bool) -> WorldStore:
    """Open a save after checking every row read-only (so a refusal writes nothing)."""
    with WorldStore(path, read_only=True) as probe:
        probe.verify()
    return WorldStore(path, read_only=read_only)
