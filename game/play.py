"""The game's composition root and frame loop: world, mods, player, chunk view, HUD, controls.

`game.controls.Controls` turns keys and buttons into intents and times the held buttons; the game
carries the intents out, the actions through `world.rules` (a `Rules` object owning the world, its
mods and the neighbour queue) and nothing else: a break is `break_block` (once the held button has
lasted the target's ``break_time``: instant in creative, with a repeat delay), right click
`use_block` (a mod's use, or placing the selected block), middle click `pick_block`. Every frame
the view is raycast (`world.ray`) from the eye for the target and the camera follows the player's
eye (`game.player.Player` is pure), so the same code path serves a player's mouse and a script's
actions (`game.runner`), headless or not. Around that: the crack on the block being broken
(`game.crack`), the Esc pause menu (`game.menu`) whose settings are remembered
(`game.user_settings`), F3's debug text (`game.debug`, fed a `DebugSnapshot`) and F4's traced
voxels, and a mod's error shown once when it first happens. The game mode is the player's
(`Player.creative`); the settings show it.

The world comes from a `game.session.Session` (a save, or an unsaved world); the chunks around
the player stream in and out (`game.chunk_view`), and the body is held still until the column
under it is loaded (movement waits for the ground, as in Minecraft). Methods other parts call:
`Game.save` (save now), `Game.save_and_quit` (the pause menu's "save and quit"), `Game.close`
(save and close the world when the game ends; idempotent), `Game.set_view_distance`,
`Game.take_screenshot` (F2).
"""

from __future__ import annotations

import math
import random
import sys
import time as wallclock
from collections.abc import Iterable
from dataclasses import replace

from panda3d.core import Texture as PandaTexture
from ursina import (
    Entity,
    Texture,
    application,
    destroy,
    held_keys,
    window,
)
from ursina import time as utime

from game.atlas_build import atlas_texture, build_atlas_image
from game.chat import CHAT_PROMPT, GAME_COMMANDS, Chat, ChatSeat, GameCommands
from game.chunk_view import ChunkView
from game.controls import Act, Aim, Controls, Intent, Pointer
from game.crack import CrackOverlay
from game.daylight import DayClock
from game.debug import DebugOverlay, DebugSnapshot, TracedCells
from game.engine import WindowPointer, collect_all_garbage, collect_garbage, save_screenshot
from game.hotbar import Hotbar
from game.hud import ERROR_SECONDS, Hud
from game.inventory_screen import InventoryScreen
from game.labels import LabelView
from game.menu import PauseMenu
from game.options import Options
from game.outline import BlockOutline
from game.particles import MAX_PARTICLES, PER_BLOCK, BreakParticles
from game.player import HeldInput, Player
from game.render_origin import RenderOrigin
from game.scene import Underwater, follow, set_sky, set_view
from game.session import Session
from game.sky_bodies import SkyBodies
from game.text_screen import TextScreen
from game.user_settings import Settings, changed_fields, load_settings, remember, with_command_line
from world.base import GAME
from world.blocks.drops import block_drops
from world.blocks.registry import AIR, BlockRegistry
from world.gen.worldgen import mod_hooks, worldgen_factory
from world.items.containers import Container, decode_slots, encode_slots
from world.items.inventory import ItemStack
from world.light.lighting import Light
from world.mods.guard import HookGuard
from world.mods.host import Mods
from world.mods.loader import DEFAULT_MODS_DIR, load_mods
from world.mods.outcome import NOTHING_TARGETED, Actor, Outcome
from world.mods.registration import make_registry
from world.mods.text_prompt import TextPrompt
from world.ray import Hit, raycast
from world.rules import Rules
from world.voxels.block_data import INFOTEXT, infotext
from world.voxels.changes import Change

__all__ = ["Game"]

STREAM_BUDGET_S = 0.003  # per frame, for generating and meshing chunks coming into view
START_LOAD_S = 1.0  # a window's first frame waits this long at most for chunks


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
    """

    def __init__(
        self, options: Options, *, live: bool = False, session: Session | None = None
    ) -> None:
        # A window's run starts from the remembered settings, an offscreen one from the defaults
        # (scripts and pictures come out the same everywhere); the command line wins either way.
        self._settings, options = with_command_line(
            load_settings() if live else Settings(), options
        )
        self.options = options
        self.live = live  # read the keyboard and mouse (False: a script drives `held`)
        self.captured = False  # the mouse is captured for looking (live play only)
        self.pointer: Pointer = WindowPointer(application.base.win)  # what looking reads
        self.session = Session.unsaved(options) if session is None else session
        mods_dirs = (DEFAULT_MODS_DIR, *options.mods)
        # The game's content, then its chat commands' plugin (bound by the chat, below).
        self.mods: Mods = load_mods(mods_dirs, game=(*GAME, (GAME_COMMANDS, GameCommands())))
        registry = make_registry(self.mods)
        self._worldgen_guard = HookGuard(self.mods.record)  # mods' on_generated hooks
        self.world = self.session.load_world(
            registry, worldgen_factory(mod_hooks(self.mods, self._worldgen_guard))
        )
        self.rules = Rules(self.world, self.mods)
        # Sky and block light (world.light.lighting), lit as chunks are drawn, relit after every
        # change; hooks read it through the world (`ModWorld.light_at`).
        self.light = Light(self.world)
        self.world.light = self.light
        self.day = DayClock(self.world, options.day_minutes * 60.0)  # game.daylight
        self.player = Player(self.world, self.session.spawn())
        self.hotbar = Hotbar.default(registry)
        self.session.attach(self.player, self.hotbar)  # the saved mode, look, flying, hotbar
        self.controls = Controls()
        self.time = 0.0
        self.target: Hit | None = None
        self.last_outcome: Outcome | None = None
        self.python_ms = 0.0  # time spent in `update` last frame

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
            worker=self.session.chunk_worker(mods_dirs, registry),
            on_mod_error=self._worker_mod_error,
            on_shown=self.labels.chunk_shown,
            on_dropped=self.labels.chunk_dropped,
        )
        # ursina's wrapper for the HUD icons; Panda3D's loader hands it the same cached texture.
        atlas = Texture(self.atlas)
        atlas.path, atlas._cached_image = None, None  # what ursina sets for a texture from a file
        self.hud = Hud(registry, self.hotbar, atlas)
        self.outline = BlockOutline(registry, self.origin)
        self.crack = CrackOverlay(registry, self.atlas, self.origin)
        self.particles = BreakParticles(registry, self.atlas_pixels, self.origin)
        self.debug = DebugOverlay(self._debug_snapshot)
        self.traced = TracedCells(registry, self.origin)
        self.inventory_screen = InventoryScreen(registry, self.hotbar.inventory, self.atlas_pixels)
        self.text_screen = TextScreen()  # what a mod's actor.ask_text opens (a sign's editor)
        self.chat = Chat(self._chat_seat(), self.mods)  # T: the chat line and its commands
        self._chat_opening: str | None = None  # the chat opens next frame, with this text
        self._waiting = 0  # items lying in the world that the inventory had no room for
        self._container_block = 0  # the block whose inventory is open (`open_container`)
        self._container_value: object = None  # its data as last shown
        self._drops = random.Random()
        self._still = HeldInput()  # what the body gets while the inventory screen has the keys
        self.menu = PauseMenu(
            self.settings,
            on_change=self.apply_settings,
            on_resume=self.resume,
            on_quit=lambda: self.save_and_quit(),
        )
        self._set_scene()
        self.underwater = Underwater(restore=self._set_scene)
        self.sky_bodies = SkyBodies()  # the sun and the moon
        # A mod that failed to load, or a notice about the world, is reported; the game goes on.
        notices = [*(str(error) for error in self.mods.errors), *self.session.notices]
        if notices:
            self.hud.flash("\n".join(notices))
        self._mod_errors_shown = len(self.mods.errors)
        self.session.report = self.hud.flash
        # Offscreen pictures and scripts wait for the whole view; a window shows the nearest
        # chunks within START_LOAD_S and streams in the rest (view distance 16 takes 3.6 s).
        self.chunks.load_all(self.player.eye, START_LOAD_S if live else math.inf)
        follow(self.player.eye, self.player.yaw, self.player.pitch, self.origin)
        self._retarget()
        self._driver = _Driver(self)

    def _set_scene(self) -> None:
        """Sky colour, fog up to the view distance, field of view."""
        self._aspect = set_view(self.chunks.view_distance, self.options.fov)
        self._sky_shown: tuple[float, float, float] | None = None  # set_view reset the sky

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
        """The settings in effect, with the player's game mode."""
        return replace(self._settings, creative=self.player.creative)

    # -- every frame ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """One frame: move, look, target, hold buttons, mod ticks, remesh, HUD."""
        started = wallclock.perf_counter()
        self.time += dt
        if window.aspect_ratio != self._aspect:  # the window was resized: keep the vertical fov
            self._set_scene()
        if self.live:
            turn = self.controls.read(
                held_keys,
                self.controls.look.travel(self.pointer) if self.captured else (0.0, 0.0),
                captured=self.captured,
                sensitivity=self._settings.mouse_sensitivity,
            )
            if self.captured:
                self.player.turn(*turn)
        # The pause menu stops the world, as single-player Minecraft's does.
        if not self.paused and self.chunks.ready_at(self.player.body.pos):  # else held until
            # the ground under it is loaded; the inventory screen takes the keys, not the body
            self.player.update(dt, self._still if self._screen_shown else self.held)
        follow(self.player.eye, self.player.yaw, self.player.pitch, self.origin)
        self._show_time_of_day()
        self.underwater.update(self.world, self.player.eye)
        self._retarget()
        if self._container_gone():
            self.close_inventory()
        self._sync_container()
        if self._chat_opening is not None:
            if not self._screen_shown and not self.paused:
                self.ask_text(self.chat.prompt(self._chat_opening))
            self._chat_opening = None
        if not self.paused:
            if not self._screen_shown:
                self._carry_out(self.controls.hold(dt, self._aim()))
            self._relight(self.rules.tick(dt, self.player.body.pos))
            self._pick_up()
        # The garbage collector's pass, if one is due, here rather than inside a chunk job, and
        # within the chunk work's budget (`game.engine.collect_garbage`).
        collecting = collect_garbage()
        self.chunks.update(self.player.eye, max(STREAM_BUDGET_S - collecting, 0.0))
        self.labels.update(self.player.eye)
        if not self.paused:
            self.particles.update(dt)
        self.session.tick(dt)
        self._show_new_mod_errors()
        self.hud.update(dt)
        self.debug.update(dt)
        self.python_ms = (wallclock.perf_counter() - started) * 1000.0

    def _show_time_of_day(self) -> None:
        """Sky colour and the chunks' share of sky light for the time of day (no remeshing)."""
        sky = self.day.sky
        if sky != self._sky_shown:
            self._sky_shown = sky
            set_sky(sky)
        self.chunks.set_daylight(self.day.daylight)
        self.sky_bodies.update(self.day.tick)

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
            teleport=self.player.teleport,
            time_of_day=lambda: (self.day.tick, self.day.clock_text()),
            set_time=self.set_time,
            set_creative=self.player.set_creative,
            items=lambda: [item.item for item in self.inventory_screen.items],
            give=give,
            seed=lambda: self.session.world_seed,
            breaker=lambda: self.rules.breaker,
        )

    def set_time(self, tick: int) -> None:
        """Make it that time of day (0..23999 ticks, `game.daylight`): a script's ``time``."""
        self.day.set_tick(tick)
        self._show_time_of_day()

    def _retarget(self) -> None:
        """Raycast the view for the targeted block, move the outline and show the block's
        ``infotext`` (`world.voxels.block_data.INFOTEXT`) unless a menu or a screen is open."""
        target = raycast(self.world, self.player.eye, self.player.direction, self.reach)
        self.target = target
        self.outline.show(target)
        value = None  # none over the pause menu or a screen (the inventory, a sign's editor)
        if target is not None and not (self.paused or self._screen_shown):
            value = self.world.block_data.value(target.block, INFOTEXT)
        self.hud.show_infotext(infotext(value))

    def _aim(self) -> Aim:
        """The target and the seconds the rules say it takes to break (inf: never)."""
        target = self.target
        seconds = self.rules.break_time(target, self._actor())
        return Aim(None if target is None else target.block, seconds)

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
        )

    # -- actions -------------------------------------------------------------------------------

    def input(self, key: str) -> None:
        """Carry out what one key or button event means (`Controls.key`)."""
        if self._text_input(key) or self._inventory_input(key):
            return
        grab = self.live and not self.captured
        self._carry_out(self.controls.key(key, now=self.time, paused=self.paused, grab=grab))

    def _carry_out(self, intents: Iterable[Intent]) -> None:
        """Do what the intents ask, in order; then draw the breaking progress."""
        for intent in intents:
            match intent.act:
                case Act.PAUSE:
                    self.pause()
                case Act.RESUME:
                    self.resume()
                case Act.CAPTURE:
                    self.capture_mouse(True)
                case Act.AIM:
                    self._retarget()
                    self._trace_ray()
                case Act.ATTACK:
                    self._carry_out(self.controls.attack(self._aim()))
                case Act.BREAK:
                    self._do_break()
                case Act.USE:
                    self._do_use()
                case Act.PICK:
                    self._do_pick()
                case Act.SELECT:
                    self.hotbar.select(intent.value)
                    self.hud.refresh_hotbar()
                    self._show_held()
                case Act.SCROLL:
                    self.hotbar.scroll(intent.value)
                    self.hud.refresh_hotbar()
                    self._show_held()
                case Act.SCREENSHOT:
                    self.take_screenshot()
                case Act.DEBUG:
                    self.debug.toggle()
                case Act.TRACE:
                    self.traced.toggle()
                    self._trace_ray()
                case Act.FLY:
                    self.toggle_fly()
                case Act.CHAT:
                    # Opened by the next frame, once this key's own keystroke went by (a live
                    # window would type the T into the line).
                    self._chat_opening = "/" if intent.value else ""
        self._show_crack()

    def _show_held(self) -> None:
        """The held item's name above the hotbar, a moment (the selection changed)."""
        item = self.hotbar.current_item
        registry = self.world.registry
        if item is None:
            return
        if item in registry.items:
            self.hud.show_item_name(registry.items[item].description)
        else:
            self.hud.show_item_name(registry[item].description if item in registry else item)

    def _show_crack(self) -> None:
        """The crack on the block being broken, at its stage (hidden when none is)."""
        breaking = self.controls.breaking
        target = breaking.target
        state = None if target is None else self.world.get_block(*target)
        self.crack.show(target, breaking.stage, state)  # covers the block's selection boxes

    def capture_mouse(self, captured: bool) -> None:
        """Capture the mouse for looking (hidden, held in the window), or let it go."""
        self.captured = captured
        self.controls.look.recapture()
        self.pointer.capture(captured)

    def toggle_fly(self) -> None:
        """Start or stop flying (creative only)."""
        if not self.player.creative:
            self.hud.flash("flying needs creative mode")
            return
        self.player.set_flying(not self.player.body.flying)

    def _actor(self) -> Actor:
        """The player as the rules see them, with the look and the sneak key the placement reads
        (`world.actions.placement.PlaceContext`: facing, sneak-placing against a usable block)."""
        actor = self.player.actor(self.hotbar.current)
        return replace(
            actor,
            look=self.player.direction,
            sneak=self.held.sneak,
            item=self.hotbar.current_item,
            inbox=self.hud.flash,
            prompter=self.ask_text,
            opener=self.open_container,
        )

    def _do_break(self) -> None:
        """Break the target through the rules; in survival its drops go to the inventory."""
        outcome = self.rules.break_block(self.target, self._actor())
        if outcome.done and not self.player.creative:
            self._collect(outcome)
        self._after(outcome)

    def _collect(self, outcome: Outcome) -> None:
        """The drops of the block a survival break took (Minecraft: none in creative)."""
        broken = [c for c in outcome.changes if c.pos == outcome.pos and c.old != AIR]
        if not broken:
            return
        registry = self.world.registry
        lost = 0
        for stack in block_drops(registry, broken[0].old, self._drops):
            lost += self.hotbar.inventory.add(stack.item, stack.count)
        if lost:
            self.hud.flash(f"inventory full: {lost} item(s) lost")
        self.hud.refresh_hotbar()

    def _pick_up(self) -> None:
        """Stacks lying in the world (``World.dropped``: a container's contents when a mod
        replaced its block) go into the inventory as far as it has room; the rest wait there,
        saved with the world, and the player is told once."""
        dropped = self.world.dropped
        if not dropped:
            self._waiting = 0
            return
        inventory = self.hotbar.inventory
        waiting = []
        for pos, stack in dropped:
            left = inventory.add(stack.item, stack.count)
            if left:
                waiting.append((pos, ItemStack(stack.item, left)))
        if len(waiting) != len(dropped) or sum(s.count for _, s in waiting) != self._waiting:
            self.hud.refresh_hotbar()
        count = sum(stack.count for _, stack in waiting)
        if count > self._waiting:
            self.hud.flash(f"inventory full: {count} item(s) wait for room")
        self._waiting = count
        dropped[:] = waiting

    def _do_use(self) -> None:
        """Right click through the rules: a mod's use, or placing the selected block.

        A survival place takes one item from the selected stack; an empty slot places nothing.
        """
        outcome = self.rules.use_block(self.target, self._actor())
        if outcome.done and not outcome.used and not self.player.creative:
            self.hotbar.take_one()
            self.hud.refresh_hotbar()
        self._after(outcome)

    def _do_pick(self) -> None:
        """Middle click: the target's block into the hotbar (creative), or selected (survival)."""
        block_id = self.rules.pick_block(self.target, self._actor())
        if block_id is not None:
            self.hotbar.pick(block_id, creative=self.player.creative)
            self.hud.refresh_hotbar()

    # -- the text-entry screen (a mod's actor.ask_text) -----------------------------------------

    @property
    def _screen_shown(self) -> bool:
        """A screen (the inventory, a text prompt) has the keys: the body stands still."""
        return self.inventory_screen.shown or self.text_screen.shown

    def ask_text(self, prompt: TextPrompt) -> None:
        """Open the text-entry screen for a mod's prompt, and let the mouse go."""
        self.text_screen.open(prompt)
        self.hud.show_crosshair(False)
        if self.live:
            application.base.buttonThrowers[0].node().setKeystrokeEvent("keystroke")
            application.base.accept("keystroke", self.text_screen.type_text)
            self.capture_mouse(False)

    def _text_input(self, key: str) -> bool:
        """While a text prompt is open it takes every key: Enter sends, Escape cancels."""
        if not self.text_screen.shown:
            return False
        if key == "enter":
            self.close_text(send=True)
        elif key == "escape":
            self.close_text(send=False)
        elif key in ("backspace", "backspace hold"):
            self.text_screen.backspace()
        elif key in ("up arrow", "down arrow") and self._chat_shown:
            line = self.chat.recall(1 if key == "up arrow" else -1)
            if line is not None:
                self.text_screen.replace_text(line)
        return True

    @property
    def _chat_shown(self) -> bool:
        prompt = self.text_screen.prompt
        return prompt is not None and prompt.name == CHAT_PROMPT

    def close_text(self, *, send: bool) -> None:
        """Close the text prompt; with ``send`` its text goes to the mod, through the rules."""
        sent = self.text_screen.confirm() if send else None
        self.text_screen.close()
        self.hud.show_crosshair(True)
        if self.live:
            application.base.ignore("keystroke")
            self.capture_mouse(True)
        if sent is not None and sent[0].name == CHAT_PROMPT:
            self.chat.send(sent[1])
        elif sent is not None:
            self.submit_text(*sent)

    def submit_text(self, prompt: TextPrompt, text: str) -> None:
        """Run a confirmed prompt (a mod's, or a chat command's) as the player's action."""
        self._after(self.rules.submit_text(prompt, text, self._actor()))

    # -- the inventory screen (E) ---------------------------------------------------------------

    def _inventory_input(self, key: str) -> bool:
        """E opens the inventory screen; while it is open it takes every key (True)."""
        screen = self.inventory_screen
        if not screen.shown:
            if key == "e" and not self.paused:
                self.open_inventory()
                return True
            return False
        if key == "escape" or (key == "e" and not screen.creative):
            self.close_inventory()
        elif key == "left mouse down":
            cell = self._cell_under_pointer()
            if cell is not None:
                self.click_inventory(cell)
        elif key in ("scroll up", "scroll down"):
            screen.scroll(-1 if key == "scroll up" else 1)
        else:
            screen.type_key(key)
        return True

    def _cell_under_pointer(self) -> int | None:
        """The inventory screen's cell under the mouse pointer (None: none, or no pointer, as
        offscreen), read through the game's pointer as looking reads it."""
        sample = self.pointer.sample()
        at = None if sample is None else sample.ui_position
        if at is None:
            return None
        x, y = at
        screen = self.inventory_screen
        scale = float(screen.panel.scale_x) or 1.0
        return screen.cell_at(x / scale, y / scale)

    def open_inventory(self) -> None:
        """Show the creative picker or the survival inventory, and let the mouse go."""
        self.inventory_screen.open(creative=self.player.creative)
        self.hud.show_crosshair(False)
        if self.live:
            self.capture_mouse(False)

    def open_container(self, container: Container) -> None:
        """Show a block's inventory above the player's (a mod's ``actor.open_container``: a
        chest). Each move in or out of it is written to the block's data at once; unreadable
        data is not opened (nor written over)."""
        try:
            slots = decode_slots(self.world.meta(*container.pos).get(container.key), container.size)
        except ValueError as exc:
            self.hud.flash(f"{container.title} cannot be opened, its data is kept as it is: {exc}")
            return
        block = self.world.get_block(*container.pos)
        self._container_block = block
        self._container_value = self.world.meta(*container.pos).get(container.key)

        def write(stored: list[ItemStack | None]) -> None:
            if self.world.get_block(*container.pos) != block:  # gone: its stacks dropped
                self.close_inventory()  # (`click_inventory` checks first: never reached)
                return
            value = encode_slots(stored)
            data = self.world.meta(*container.pos)
            if value is not None:
                data[container.key] = value
            elif container.key in data:
                del data[container.key]
            self._container_value = value

        self.inventory_screen.open_container(container, slots, write)
        self.hud.show_crosshair(False)
        if self.live:
            self.capture_mouse(False)

    def _sync_container(self) -> None:
        """An open block inventory shows its data as it is now: a mod's timer (a furnace's)
        may have changed it since it was drawn. Data that became unreadable closes it."""
        container = self.inventory_screen.container
        if container is None:
            return
        value = self.world.meta(*container.pos).get(container.key)
        if value == self._container_value:
            return
        self._container_value = value
        try:
            self.inventory_screen.stored = decode_slots(value, container.size)
        except ValueError:
            self.close_inventory()
            return
        self.inventory_screen.refresh()

    def _container_gone(self) -> bool:
        """An open block inventory whose block was replaced meanwhile (the screen then closes)."""
        container = self.inventory_screen.container
        return container is not None and (
            self.world.get_block(*container.pos) != self._container_block
        )

    def close_inventory(self) -> None:
        """Back to the game."""
        self.inventory_screen.close()
        self.hud.show_crosshair(True)
        self.hud.refresh_hotbar()
        if self.live:
            self.capture_mouse(True)

    def click_inventory(self, cell: int) -> None:
        """Click a cell of the open inventory screen (a script's ``click_item``): on what the
        world holds now. An open block inventory whose block went since (its stacks dropped
        into the world) closes instead: a click never moves a stack the world no longer has."""
        if self._container_gone():
            self.close_inventory()
            return
        self._sync_container()
        message = self.inventory_screen.click(cell)
        self.hud.refresh_hotbar()
        if message:
            self.hud.flash(message)

    def _after(self, outcome: Outcome) -> None:
        """Show a denial (a click at the sky is silent, as in Minecraft); redraw what changed."""
        self.last_outcome = outcome
        if not outcome.done:
            if outcome.reason == NOTHING_TARGETED and outcome.denied_by is None:
                return
            if not self._show_new_mod_errors():  # a mod's failure is shown in full once
                self.hud.flash(self._denial(outcome))
            return
        self._relight(outcome.changes)
        self.chunks.remesh_dirty()
        self._retarget()
        broken = [c for c in outcome.changes if c.old != AIR and c.new == AIR]
        brightness = 0.35 + 0.65 * self.day.daylight
        for change in broken[: MAX_PARTICLES // PER_BLOCK]:
            self.particles.burst(change.pos, change.old, brightness)

    def _relight(self, changes: Iterable[Change]) -> None:
        """Relight around changed voxels; the drawn chunks it reaches are remeshed with the
        dirty ones (before the next frame is drawn)."""
        light = self.light
        positions = [c.pos for c in changes if light.changes_light(c.old, c.new)]
        if positions:  # one call: one bounded relight per chunk touched, each seeing them all
            self.chunks.relight(light.update(positions), now=True)

    def _denial(self, outcome: Outcome) -> str:
        """A denied action's reason; a mod failure shown before is named in short."""
        if outcome.denied_by is not None and outcome.reason in {
            str(error) for error in self.mods.errors
        }:
            return f"mod {outcome.denied_by!r} failed again: nothing changed (see the log)"
        return outcome.reason

    def _worker_mod_error(self, mod: str, where: str, message: str) -> None:
        """A mod failed in the chunk worker process (its ``on_generated``): as if here."""
        self.mods.record(mod, where, RuntimeError(message), traceback=False)

    def _show_new_mod_errors(self) -> bool:
        """Show the mod errors not shown yet (each once); True when there were any."""
        errors = self.mods.errors[self._mod_errors_shown :]
        if not errors:
            return False
        self._mod_errors_shown += len(errors)
        self.hud.flash("\n".join(str(error) for error in errors), ERROR_SECONDS)
        return True

    def _trace_ray(self) -> None:
        """F4's view, when on: freeze the view's ray and the voxels it crosses."""
        if self.traced.shown:
            self.traced.trace(self.player.eye, self.player.direction, self.reach, self.target)

    # -- the pause menu --------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the pause menu is open (the world waits)."""
        return self.menu.shown

    def pause(self) -> None:
        """Esc: open the pause menu and let the mouse go."""
        self.controls.release()
        self._show_crack()
        self.menu.open(self.settings)
        if self.live:
            self.capture_mouse(False)
        collect_all_garbage()  # what the frames' passes leave frozen (`game.engine`)

    def resume(self) -> None:
        """Close the pause menu and take the mouse back."""
        self.menu.close()
        if self.live:
            self.capture_mouse(True)

    def apply_settings(self, settings: Settings) -> None:
        """Settings changed in the menu: apply them now and remember them for the next runs."""
        changed = changed_fields(self.settings, settings)
        self._settings = settings
        if self.player.creative != settings.creative:
            self.player.set_creative(settings.creative)  # survival ends a flight
        self.options = replace(self.options, fov=settings.fov)
        if settings.view_distance != self.chunks.view_distance:
            self.set_view_distance(settings.view_distance)
        else:
            self._set_scene()
        try:
            remember(changed)
        except OSError as exc:
            self.hud.flash(f"settings not saved: {exc}")

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
            self.close_inventory()

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

    def set_view_distance(self, view_distance: int) -> None:
        """Show 2..16 chunk columns around the player from the next frame on (fog follows)."""
        self.chunks.set_view_distance(view_distance)
        self._set_scene()

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
        self.rules.close()
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
        self.underwater.destroy()
        self.sky_bodies.destroy()
