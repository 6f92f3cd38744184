"""The game's composition root and frame loop: it builds the parts and runs them once a frame.

The parts, each its own module: the engine-free state (`game.play_state`: the mods, the world,
its rules, light and day, the player and hotbar, from a `game.session.Session`: a save, or an
unsaved world; the player joined into the world, which holds their inventory and sees where the
body is every frame: `game.player.Player.sync`); the frame's input (`game.frame_input`:
`game.controls.Controls` turns keys and buttons into intents and times the held buttons); the
player's hands (`game.hands`: break, use, pick, throw and punch through `world.rules`, which
decides and changes the world and the inventory; the view remeshed where the rules relit, the
hotbar redrawn when the inventory changed); the view's aim (`game.sight`: the block or entity
picked from the eye every frame, its outline, info text and crack); the entities
(`game.entity_view`: dropped stacks, falling blocks, mods' creatures); the screens that take the
keys (`game.screens`: a mod's text prompt, the chat line, the inventory and a block's
inventory, whose moves are the player's actions too); the sky (`game.sky`); the Esc pause
menu (`game.pause`) whose settings are remembered (`game.user_settings`); F3's debug text
(`game.debug`, fed a `DebugSnapshot`) and F4's traced voxels; and a mod's error shown once when
it first happens. The camera follows the player's eye (`game.player.Player` is pure), so the
same code path serves a player's mouse and a script's actions (`game.runner`), headless or not.

A window's game opens behind its loading screen (`game.loading`): its first frames prepare the
first view (`game.first_view`) and take no input; then the world shows and the mouse is taken.
The chunks around the player stream in and out (`game.chunk_view`), and the body is held still
until the column under it is loaded (movement waits for the ground, as in Minecraft). Methods
other parts call: `Game.save` (save now), `Game.save_and_quit` (the pause menu's "save and
quit"), `Game.close` (save and close the world when the game ends; idempotent),
`Game.set_view_distance`, `Game.take_screenshot` (F2).
"""

from __future__ import annotations

import math
import sys
import time as wallclock
from dataclasses import replace

from panda3d.core import Texture as PandaTexture
from ursina import Entity, application, destroy
from ursina import time as utime

from game.atlas_build import atlas_texture, build_atlas_image
from game.chat import GAME_COMMANDS, Chat, ChatSeat, GameCommands
from game.chunk_view import ChunkView
from game.controls import Controls, Pointer
from game.crack import CrackOverlay
from game.debug import DebugOverlay, DebugSnapshot, TracedCells
from game.engine import WindowPointer, collect_garbage, save_screenshot
from game.entity_view import EntityView
from game.first_view import FirstView
from game.frame_input import FrameInput
from game.hands import Hands
from game.hud import Hud
from game.inventory_screen import InventoryScreen
from game.labels import LabelView
from game.loading import LoadingScreen
from game.options import Options
from game.outline import BlockOutline
from game.particles import BreakParticles
from game.pause import Pause
from game.play_state import PlayState
from game.player import HeldInput
from game.render_origin import RenderOrigin
from game.scene import follow
from game.screens import Screens
from game.session import Session
from game.sight import Sight
from game.sky import Sky
from game.sound import PlayerSounds, Sounds, open_audio
from game.text_screen import TextScreen
from game.user_settings import Settings, load_settings, with_command_line
from world.blocks.registry import BlockRegistry
from world.geometry import Vec3
from world.mods.host import Mods
from world.mods.outcome import Actor, Outcome
from world.mods.sounds import load_sounds
from world.mods.text_prompt import TextPrompt
from world.physics.swimming import liquid_depth
from world.ray import Hit

__all__ = ["Game"]

STREAM_BUDGET_S = 0.003  # per frame, for generating and meshing chunks coming into view
# While more than CATCH_UP_WAITING chunks in view wait to be meshed (a flight outrunning the
# streaming), a frame's chunk work may take CATCH_UP_BUDGET_S: measured (`bench.game`'s
# wall-clock sprint-flight at view distance 12 over a saved world, 60 s), 3 ms a frame left
# 1,465 of 1,567 frames with a hole ahead, 6 ms 244 of 1,410, at 25 FPS rather than 28.
CATCH_UP_BUDGET_S = 0.006
CATCH_UP_WAITING = 32


def load_atlas(registry: BlockRegistry, mods: Mods) -> PandaTexture:
    """The block atlas with every loaded mod's own tiles (`game.atlas_build`), sampled nearest."""
    return atlas_texture(build_atlas_image(registry, mods))


class _Driver(Entity):  # type: ignore[misc]
    """Hands ursina's per-frame update and input events to the game."""

    def __init__(self, game: Game) -> None:
        super().__init__(name="blockpick")
        self.game = game

    def update(self) -> None:
        """ursina calls this once a frame."""
        self.game.update(utime.dt)

    def input(self, key: str) -> None:
        """ursina calls this for every key and button event."""
        self.game.input(key)


class Game:
    """One running game: build it after `game.engine.start`; `destroy` removes its entities.

    ``session``: the world to play (`Session.open`); an unsaved world from the options if None.
    ``loading``: the loading screen a window shows while the first view is prepared a frame at a
    time (`game.first_view`), taken away when the world is shown; None: the whole view is
    loaded before the constructor returns (offscreen pictures and scripts).
    """

    def __init__(
        self,
        options: Options,
        *,
        live: bool = False,
        session: Session | None = None,
        loading: LoadingScreen | None = None,
    ) -> None:
        # A window's run starts from the remembered settings, an offscreen one from the defaults
        # (scripts and pictures come out the same everywhere); the command line wins either way.
        settings, options = with_command_line(load_settings() if live else Settings(), options)
        self.options = options
        self.live = live  # read the keyboard and mouse (False: a script drives `held`)
        self.captured = False  # the mouse is captured for looking (live play only)
        self.pointer: Pointer = WindowPointer(application.base.win)  # what looking reads
        # The engine-free state (game.play_state): the game's content, then its chat commands'
        # plugin (bound by the chat, below), then the mods; the world, rules, light, player.
        state = PlayState(
            options,
            Session.unsaved(options) if session is None else session,
            ((GAME_COMMANDS, GameCommands()),),
        )
        self.session, self.mods, self.world = state.session, state.mods, state.world
        self.rules, self.light, self.day = state.rules, state.light, state.day
        self.player, self.hotbar = state.player, state.hotbar
        registry = self.world.registry
        self.controls = Controls()
        self.time = 0.0
        self.python_ms = 0.0  # time spent in `update` last frame

        # The sounds (game.sound): heard in a window with a sound device, recorded always.
        self.sounds = Sounds(load_sounds(registry, self.mods), open_audio(headless=not live))
        self.sounds.set_volumes(settings.master_volume, settings.block_volume)
        self.player_sounds = PlayerSounds(self.sounds, self.world)
        self.atlas_pixels = build_atlas_image(registry, self.mods)
        self.atlas = atlas_texture(self.atlas_pixels)
        self.origin = RenderOrigin()  # everything world-anchored is drawn relative to it
        self.labels = LabelView(self.world, self.origin)  # a sign's text on its board
        self.chunks = ChunkView(
            self.world,
            self.atlas,
            options.view_distance,
            on_save=lambda keys: self.save(),
            origin=self.origin,
            light=self.light,
            # Chunks load in a worker process (world.stream.worker): the frame keeps its GIL.
            worker=self.session.chunk_worker(state.mods_dirs, registry),
            on_mod_error=state.worker_mod_error,
            on_shown=self.labels.chunk_shown,
            on_dropped=self.labels.chunk_dropped,
        )
        # Dropped stacks, falling blocks and creatures, drawn by the chunks' shader and light.
        self.entity_view = EntityView(
            self.world, self.chunks.node, self.atlas, self.origin.to_render,
            lambda: self.chunks.view_distance, self.light,
        )  # fmt: skip
        self.hud = Hud(registry, self.hotbar, self.atlas_pixels)
        self.outline = BlockOutline(registry, self.origin)
        self.crack = CrackOverlay(registry, self.atlas, self.origin)
        self.particles = BreakParticles(registry, self.atlas_pixels, self.origin)
        self.debug = DebugOverlay(self._debug_snapshot)
        self.traced = TracedCells(registry, self.origin)
        self.sight = Sight(
            self.rules, self.player, self.hud, self.outline, self.crack, self.traced,
            actor=self._actor, covered=lambda: self.paused or self.screens.shown,
        )  # fmt: skip
        self.hands = Hands(
            self.rules, self.mods, self.hotbar, self.hud, self.chunks, self.particles, self.day,
            self.sight, actor=self._actor,
        )  # fmt: skip
        self.inventory_screen = InventoryScreen(registry, self.hotbar.inventory, self.atlas_pixels)
        self.text_screen = TextScreen()  # what a mod's actor.ask_text opens (a sign's editor)
        self.chat = Chat(self._chat_seat(), self.mods)  # T: the chat line and its commands
        self.screens = Screens(
            self.text_screen, self.inventory_screen, self.hud, self.hotbar, self.chat, self.rules,
            live=live, pointer=lambda: self.pointer, capture_mouse=self.capture_mouse,
            actor=self._actor, submit=self.submit_text, after=self.hands.after,
        )  # fmt: skip
        self.frame_input = FrameInput(
            self, self.controls, self.player, self.hands, self.sight, self.screens, self.debug
        )
        self._still = HeldInput()  # what the body gets while a screen has the keys
        self.sky = Sky(self.day, self.chunks, fov=lambda: self.options.fov)
        self.underwater = self.sky.underwater
        self.pausing = Pause(
            self, settings, self.player, self.controls, self.sight, self.sky, self.hud
        )
        self.menu = self.pausing.menu  # Esc's
        # A mod that failed to load, or a notice about the world, is reported; the game goes on.
        notices = [*(str(error) for error in self.mods.errors), *self.session.notices]
        if notices:
            self.hud.flash("\n".join(notices))
        self.session.report = self.hud.flash
        # Offscreen pictures and scripts wait here for the whole view; with a loading screen
        # the first view's chunks are prepared a frame at a time (`update`) and the rest
        # streams in once the world shows.
        self.loading = loading
        self.first_view: FirstView | None = None
        if loading is None:
            self.chunks.load_all(self.player.eye, math.inf)
        else:
            look = self.player.direction
            self.first_view = FirstView(self.chunks, self.player.eye, (look[0], look[2]))
        follow(self.player.eye, self.player.yaw, self.player.pitch, self.origin)
        self.sight.aim()
        self._driver = _Driver(self)

    @property
    def target(self) -> Hit | None:
        """The block the view aims at (`game.sight`), or None."""
        return self.sight.target

    @property
    def reach(self) -> float:
        """How far the player reaches."""
        return self._actor().reach

    @property
    def held(self) -> HeldInput:
        """What is held down this frame (`Controls.held`; a script fills it directly)."""
        return self.controls.held

    @property
    def settings(self) -> Settings:
        """The settings in effect, with the player's game mode (`game.pause`)."""
        return self.pausing.settings

    @property
    def last_outcome(self) -> Outcome | None:
        """The outcome of the player's latest action (`game.hands.Hands`)."""
        return self.hands.last_outcome

    # -- every frame ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """One frame: move, look, target, hold buttons, mod ticks, remesh, HUD."""
        started = wallclock.perf_counter()
        if self.first_view is not None:
            self._prepare_first_view()
            return
        self.time += dt
        self.frame_input.read(self.settings.mouse_sensitivity)
        # The pause menu stops the world, as single-player Minecraft's does.
        if not self.paused and self.chunks.ready_at(self.player.body.pos):  # else held until
            # the ground under it is loaded; a screen takes the keys, not the body
            self.player.update(dt, self._still if self.screens.shown else self.held)
        self.player.sync()  # a teleport by the world moves the body; the world sees the body
        follow(self.player.eye, self.player.yaw, self.player.pitch, self.origin)
        self.sky.update(self.world, self.player.eye)
        self.sight.aim()
        self.screens.update(paused=self.paused)
        if not self.paused:
            self.frame_input.hold(dt)
            self.rules.tick(dt, self.player.body.pos)
            self.chunks.relight(self.rules.pop_relit())  # what the tick relit, as there is room
            self._sound()
        if self.hands.refresh_inventory() and self.inventory_screen.shown:  # a pickup, a mod
            self.inventory_screen.refresh()
        player = self.player
        self.entity_view.update(player.eye, player.yaw, player.pitch, 0.0 if self.paused else dt)
        # The garbage collector's pass, if one is due, here rather than inside a chunk job, and
        # within the chunk work's budget (`game.engine.collect_garbage`).
        collecting = collect_garbage()
        behind = self.chunks.streamer.waiting_meshes > CATCH_UP_WAITING
        budget = CATCH_UP_BUDGET_S if behind else STREAM_BUDGET_S
        self.chunks.update(self.player.eye, max(budget - collecting, 0.0))
        self.labels.update(self.player.eye)
        if not self.paused:
            self.particles.update(dt)
        self.session.tick(dt)
        self.hands.show_new_mod_errors()
        self.hud.update(dt)
        self.debug.update(dt)
        self.python_ms = (wallclock.perf_counter() - started) * 1000.0

    def _prepare_first_view(self) -> None:
        """A loading frame: the first view's chunk work, its progress on the loading screen;
        once it is ready the screen goes and, in a window, the game takes the mouse (as
        Minecraft does on entering a world; `game.frame_input` lets it go while the window is
        not focused)."""
        assert self.first_view is not None
        progress = self.first_view.step()
        if self.loading is not None:
            self.loading.show(progress)
        if not self.first_view.done:
            return
        self.first_view = None
        if self.loading is not None:
            self.loading.destroy()
            self.loading = None
        self.sight.aim()
        if self.live:
            self.capture_mouse(True)

    def _chat_seat(self) -> ChatSeat:
        """What the chat acts on: the game's callbacks."""

        def give(item: str, count: int) -> int:
            left = self.hotbar.inventory.add(item, count)
            self.hud.refresh_hotbar()
            return left

        return ChatSeat(
            show=self.hud.flash,
            submit=self.submit_text,
            feet=lambda: self.player.body.pos,
            teleport=self._teleport,
            time_of_day=lambda: (self.day.tick, self.day.clock_text()),
            set_time=lambda tick: self.sky.set_time(tick),
            set_creative=self.player.set_creative,
            items=lambda: [item.item for item in self.inventory_screen.items],
            give=give,
            seed=lambda: self.session.world_seed,
            breaker=lambda: self.rules.breaker,
        )

    def _teleport(self, feet: Vec3) -> None:
        """``/tp``: the world moves its player (recorded in the command's action); the body
        follows in this frame (`game.player.Player.sync`)."""
        joined = self.player.joined
        if joined is None:
            self.player.teleport(feet)
        else:
            self.world.players.teleport(joined, feet)

    def _debug_snapshot(self) -> DebugSnapshot:
        """What F3 shows, now."""
        player, target = self.player, self.target
        return DebugSnapshot(
            python_ms=self.python_ms,
            position=player.body.pos,
            yaw=player.yaw,
            pitch=player.pitch,
            target=target,
            target_name=None if target is None else self.world.registry.name(target.block_id),
            loaded=len(self.world.chunks),
            meshed=len(self.chunks.entities),
            queued=self.chunks.pending,
            creative=player.creative,
            flying=player.body.flying,
            mods=tuple(self.mods.names),
            mod_errors=len(self.mods.errors),
            face_light=None if target is None else self.light.at(*(target.block + target.face)),
            time_of_day=self.day.clock_text(),
            daylight=self.day.daylight,
            sounds=self.sounds.total,
            last_sound=self.sounds.played[-1].name if self.sounds.played else None,
            heard=self.sounds.manager is not None,
        )

    # -- the player's input and actions --------------------------------------------------------

    def input(self, key: str) -> None:
        """Carry out what one key or button event means (`game.frame_input`); none while
        the loading screen is up (a click there is not meant for the world)."""
        if self.first_view is None:
            self.frame_input.key(key)

    def capture_mouse(self, captured: bool) -> None:
        """Capture the mouse for looking (hidden, held in the window), or let it go."""
        self.captured = captured
        self.controls.look.recapture()
        self.pointer.capture(captured)

    def toggle_fly(self) -> None:
        """Start or stop flying: creative only. In survival a double tap of Space is two
        jumps and says nothing (Minecraft): swimming up by tapping it must not fill the screen
        with refusals."""
        if self.player.creative:
            self.player.set_flying(not self.player.body.flying)

    def _actor(self) -> Actor:
        """The player as the rules see them, with the look and the sneak key the placement reads
        (`world.mods.context.PlaceContext`: facing, sneak-placing against a usable block)."""
        actor = self.player.actor(self.hotbar.current)
        return replace(
            actor,
            look=self.player.direction,
            sneak=self.held.sneak,
            item=self.hotbar.current_item,
            inbox=self.hud.flash,
            prompter=self.screens.ask_text,
            opener=self.screens.open_container,
        )

    def submit_text(self, prompt: TextPrompt, text: str) -> None:
        """Run a confirmed prompt (a mod's, or a chat command's) as the player's action."""
        self.hands.after(self.rules.submit_text(prompt, text, self._actor()))

    # -- the pause menu (game.pause) -------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the pause menu is open (the world waits)."""
        return self.menu.shown

    def pause(self) -> None:
        """Esc: open the pause menu and let the mouse go."""
        self.pausing.pause()

    def resume(self) -> None:
        """Close the pause menu and take the mouse back."""
        self.pausing.resume()

    # -- the world's lifecycle -------------------------------------------------------------------

    def save(self) -> bool:
        """Save the world now (edited chunks, player, mode); a failure is reported, False."""
        return self.session.save()

    def close(self) -> bool:
        """The game ends: save and close the world (idempotent); False if the save failed.

        Chunk loading stops first (its thread or worker process reads the file being closed).
        """
        self._ungrid()
        self.chunks.streamer.close()
        return self.session.close()

    def _ungrid(self) -> None:
        """The crafting grid's stacks back into the inventory before it is saved."""
        if self.inventory_screen.shown:
            self.screens.close_inventory()

    def save_and_quit(self) -> None:
        """Save, close the world and leave the game (the pause menu's "save and quit").

        A save that fails keeps the game open (its reason is on screen): quitting then would
        throw the unsaved edits away.
        """
        self._ungrid()
        if not self.save():
            return
        self.close()
        application.quit()

    def set_volumes(self, master: int, blocks: int) -> None:
        """The pause menu's volumes, percent (0 is off)."""
        self.sounds.set_volumes(master, blocks)

    def _sound(self) -> None:
        """The frame's sounds: the world's (the actions' and the ticks'), the player's footsteps,
        strokes and splash, the digging hits; then the engine's audio moves on."""
        player, body = self.player, self.player.body
        self.sounds.listen(player.eye, player.yaw)
        for event in self.rules.pop_sounds():
            self.sounds.play(event)
        lo, hi = body.aabb
        self.player_sounds.update(
            body.pos,
            on_ground=body.on_ground,
            flying=body.flying,
            sneaking=self.held.sneak,
            depth=0.0 if body.flying else liquid_depth(self.world, lo, hi),
            falling_speed=-body.vel[1],
        )
        breaking = self.controls.breaking
        self.player_sounds.digging(breaking.target, breaking.elapsed, breaking.duration)
        self.sounds.update()

    def set_view_distance(self, view_distance: int) -> None:
        """Show 2..16 chunk columns around the player from the next frame on (fog follows)."""
        self.chunks.set_view_distance(view_distance)
        self.sky.set_view()

    def take_screenshot(self) -> None:
        """F2: the last drawn frame as a PNG in the data folder's screenshots/, path flashed."""
        path = self.session.screenshot_path()
        try:
            save_screenshot(application.base, path)
        except OSError as exc:
            self.hud.flash(f"screenshot not saved: {exc}")
            print(f"blockpick: screenshot not saved: {exc}", file=sys.stderr)
            return
        self.hud.flash(f"screenshot saved: {path}")

    def destroy(self) -> None:
        """Remove every entity the game made (tests build several games in one process)."""
        destroy(self._driver)
        if self.loading is not None:
            self.loading.destroy()
        self.rules.close()
        self.entity_view.destroy()
        self.chunks.destroy()
        self.labels.destroy()
        self.hud.destroy()
        self.outline.destroy()
        self.crack.destroy()
        self.particles.destroy()
        self.debug.destroy()
        self.traced.destroy()
        self.inventory_screen.destroy()
        self.text_screen.destroy()
        self.menu.destroy()
        self.sky.destroy()
