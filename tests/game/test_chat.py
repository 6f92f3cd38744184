"""The chat line (`game.chat`): T opens it, Enter sends; the game's commands and the mods'."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.chat import MAX_GIVE
from game.script import ScriptError
from world.mods.breaker import TRIP_ERRORS, TRIP_TIMEOUTS
from world.mods.outcome import MAX_TELL

Replay = Callable[[Any, str], None]


def _shown(game: Any) -> str:
    """The HUD's message lines now."""
    return str(game.hud.message.text)


WARP = """
from world.mods.commands import ChatCommand
from world.mods.hooks import hookimpl


def warp(player, text):
    player.teleport((8.5, 12.0, -3.5))
    if text == "and fail":
        raise RuntimeError("the warp broke down")


@hookimpl
def register_commands(commands):
    commands.register(ChatCommand("warp", warp, "", "to the warp point"))
"""


def test_a_teleport_by_a_mod_s_command_or_by_tp_moves_the_body_the_world_put_there(
    make_game: Callable[..., Any], replay: Replay, tmp_path: Path
) -> None:
    """Both go through the world (`world.voxels.players.Players.teleport`, recorded in the
    command's action): the body follows in the frame; a command that fails moves nothing."""
    (tmp_path / "warp.py").write_text(WARP)
    game = make_game(flat=True, creative=True, mods=(str(tmp_path),))
    game.player.set_flying(True)  # stays where it is put
    joined = game.world.players.get("player")
    replay(game, "chat /warp")
    assert game.player.body.pos == pytest.approx((8.5, 12.0, -3.5)) and joined.moves == 1
    replay(game, "chat /tp_1_20_1\nwait 2")
    assert game.player.body.pos == pytest.approx((1.0, 20.0, 1.0)) and joined.moves == 2
    assert joined.pos == game.player.body.pos  # the world sees the body where it went
    replay(game, "chat /warp_and_fail\nwait 2")  # rolled back: the world's move with it
    assert "the warp broke down" in _shown(game)
    assert game.player.body.pos == pytest.approx((1.0, 20.0, 1.0)) and joined.moves == 2


def test_t_opens_the_chat_next_frame_and_enter_sends_the_typed_line(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    game.input("t")
    assert not game.text_screen.shown  # the next frame: T's own keystroke is not typed
    replay(game, "wait 1")
    assert game.text_screen.shown and game.text_screen.text == ""
    feet = game.player.body.pos
    replay(game, "type hello_world\nwait 3")
    assert game.player.body.pos == feet  # typing does not walk
    replay(game, "key enter")
    assert not game.text_screen.shown
    assert "<player> hello world" in _shown(game)

    game.input("/")  # the slash opens it with the slash typed
    replay(game, "wait 1\ntype time_set_noon\nkey enter")
    assert not game.text_screen.shown and game.day.tick == pytest.approx(6000, abs=2)
    assert _shown(game) == "Set the time to 6000 (12:00)"  # the clock, not a method (issue 38)
    from ursina import window

    message = game.hud.message
    width = float(message.width) * float(message.scale_x)
    assert width <= float(window.aspect_ratio)  # within the window's width (its units)

    replay(game, "wait 1")
    game.input("t")
    replay(game, "wait 1\ntype /gamemode_survival\nkey escape")  # Escape sends nothing
    assert not game.text_screen.shown and game.player.creative


def test_the_game_s_commands_teleport_set_the_time_change_the_mode_and_give(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    game.player.set_flying(True)  # stays where it is put
    x, y, z = game.player.body.pos
    replay(game, "chat /tp_~_~10_~-2.5")
    assert game.player.body.pos == pytest.approx((x, y + 10, z - 2.5))
    replay(game, "chat /tp_100_20_-30")
    assert game.player.body.pos == pytest.approx((100, 20, -30))
    replay(game, "chat /TP_1_2")  # the name in any case; a bad use says how
    assert "give three coordinates. Usage: /tp <x> <y> <z>" in _shown(game)
    replay(game, "chat /tp_0_nan_0")
    assert "outside the world" in _shown(game)
    assert game.player.body.pos == pytest.approx((100, 20, -30))  # nothing moved

    replay(game, "chat /time_set_midnight")
    assert game.day.tick == pytest.approx(18000, abs=2)
    replay(game, "chat /time_query")
    assert "The time is 18000 (00:00)" in _shown(game)  # the clock as text

    replay(game, "chat /gamemode_survival")
    assert not game.player.creative and not game.player.body.flying  # survival ends a flight
    assert "Game mode: survival" in _shown(game)
    replay(game, "chat /gamemode_c")
    assert game.player.creative

    inventory = game.hotbar.inventory
    before = inventory.count("base:stone")
    replay(game, "chat /give_stone_10")
    assert inventory.count("base:stone") == before + 10
    assert "Gave 10 base:stone" in _shown(game)
    replay(game, "chat /give_signs:sign")
    assert inventory.count("signs:sign") == 1
    replay(game, "chat /give_coal\\_ore_3")  # a bare name: the base game's, else the one mod's
    assert inventory.count("ores:coal_ore") == 3
    replay(game, "chat /give_water")  # not something a player holds
    assert "no item 'water'" in _shown(game)
    replay(game, "chat /give_unobtainium")
    assert "no item 'unobtainium'" in _shown(game)
    replay(game, f"chat /give_stone_{MAX_GIVE + 1}")
    assert f"count must be 1..{MAX_GIVE}" in _shown(game)
    replay(game, f"chat /give_dirt_{MAX_GIVE}")  # more than fits: what fits, and it says so
    assert "did not fit" in _shown(game)

    replay(game, "chat /seed")
    assert "Seed: " in _shown(game)
    replay(game, "chat /frobnicate")
    assert "Unknown command /frobnicate. Type /help for the list" in _shown(game)
    replay(game, "chat /help")
    assert "/protect" in _shown(game) and "/give" in _shown(game)  # the mods' with the game's
    replay(game, "chat /help_tp")
    assert _shown(game).startswith("/tp <x> <y> <z>\n")  # the game's own: no owner shown
    replay(game, "chat /help_protect")
    assert "(mod protection)" in _shown(game)
    assert not [e for e in game.mods.errors if e.mod == "game"]  # a misuse is no failure


def test_the_game_s_commands_run_as_the_player_s_action_as_a_mod_s_do(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "chat /seed")
    assert game.last_outcome is not None and game.last_outcome.used  # through the rules

    def broken() -> int:
        raise RuntimeError("no seed")

    game.chat.seat = replace(game.chat.seat, seed=broken)  # a bug in the game's /seed
    replay(game, "chat /seed")
    assert "mod 'game' failed in text prompt game:/seed" in _shown(game)
    assert "no seed" in _shown(game) and game.last_outcome.denied_by == "game"
    for _ in range(TRIP_ERRORS):  # one that keeps failing is switched off, as a mod's is
        replay(game, "chat /seed")
    assert "'game' is disabled in text prompt game:/seed" in _shown(game)
    replay(game, "chat /mods_enable_game")
    assert "Mod 'game' is on again: text prompt game:/seed" in _shown(game)


def test_a_mod_s_command_runs_as_the_player_and_answers_in_the_hud(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "chat /protect_yard_~-2_~-1_~-2_~2_~3_~2")
    assert "protected yard" in _shown(game)
    replay(game, "chat /areas")
    assert "yard (player)" in _shown(game)


def test_the_chat_does_not_open_over_the_pause_menu_and_a_bad_script_line_is_named(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    game.pause()
    game.input("t")
    replay(game, "wait 2")
    assert not game.text_screen.shown
    game.resume()
    with pytest.raises(ScriptError, match="chat line must be at most 256"):
        replay(game, "chat " + "x" * 300)


def test_up_and_down_go_through_the_lines_sent_before(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "chat /time_set_noon\nchat hello\nchat hello")  # a repeat is kept once
    game.input("t")
    replay(game, "wait 1\ntype draft")
    screen = game.text_screen
    steps = []
    for key in ("up arrow", "up arrow", "up arrow", "down arrow", "down arrow", "down arrow"):
        game.input(key)
        steps.append(screen.text)
    assert steps == ["hello", "/time set noon", "/time set noon", "hello", "", ""]
    game.input("up arrow")
    game.input("up arrow")
    replay(game, "key enter")  # the recalled line is sent again
    assert game.chat.history[-1] == "/time set noon"
    game.input("t")
    replay(game, "wait 1")
    game.input("up arrow")  # a new chat starts from the newest line again
    assert screen.text == "/time set noon"
    replay(game, "key escape")


def test_mods_lists_the_mods_and_a_switched_off_hook_and_enable_turns_it_back_on(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    replay(game, "chat /mods")
    assert "Mods: base, " in _shown(game) and "protection" in _shown(game)
    assert "Every hook is on" in _shown(game)
    breaker = game.rules.breaker
    for _ in range(TRIP_TIMEOUTS):  # as if protection's can_break had run away three times
        breaker.failed("protection", "can_break", timeout=True)
    replay(game, "wait 1")
    assert "/mods enable protection turns it back on" in _shown(game)  # the one message
    replay(game, "chat /mods")
    assert "Switched off: can_break of protection" in _shown(game)
    replay(game, "chat /mods_enable_protection")
    assert "Mod 'protection' is on again: can_break" in _shown(game)
    assert breaker.disabled == ()
    replay(game, "chat /mods_enable_nope")
    assert "no mod 'nope' is loaded. Usage: /mods [enable <mod>]" in _shown(game)


def test_an_answer_longer_than_a_message_is_told_whole_in_stacked_messages(
    make_game: Callable[..., Any], replay: Replay
) -> None:
    game = make_game(flat=True, creative=True)
    breaker = game.rules.breaker
    for hook in ("can_break", "can_place", "can_use", "on_break", "on_place"):
        for _ in range(TRIP_TIMEOUTS):
            breaker.failed("protection", hook, timeout=True)
    replay(game, "wait 1\nchat /mods")  # the trips' own messages shown first
    (older, _), newest = game.hud.older[0], _shown(game)
    assert str(older.text).startswith("Mods: base, game, ") and len(newest) <= MAX_TELL
    assert newest.startswith("Switched off: can_break of protection, ")  # nothing cut
    assert newest.endswith("on_place of protection\n/mods enable <mod> turns a mod's back on")
