"""Script parsing for ``--script``: both formats, defaults, and errors that say where."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.script import ACTIONS, ScriptError, parse_script, read_script


def test_text_lines_with_comments_and_defaults() -> None:
    actions = parse_script(
        """
        # walk to the wall
        look 90 -10   # facing +x
        move 1 0 30
        sprint off
        break
        select 4
        screenshot out/a.png
        """
    )
    assert [a.name for a in actions] == ["look", "move", "sprint", "break", "select", "screenshot"]
    assert actions[0].args == {"yaw": 90.0, "pitch": -10.0}
    assert actions[1].args == {"forward": 1.0, "strafe": 0.0, "frames": 30}
    assert actions[2].args == {"on": False}
    assert actions[3].args == {"frames": 1}
    assert actions[5].args == {"path": "out/a.png"}


def test_json_accepts_strings_lists_and_objects() -> None:
    text = '["look 0 90", ["wait", 3], {"action": "teleport", "x": 1, "y": 2, "z": 3}]'
    actions = parse_script(text)
    assert [a.name for a in actions] == ["look", "wait", "teleport"]
    assert actions[1]["frames"] == 3
    assert actions[2].args == {"x": 1.0, "y": 2.0, "z": 3.0}


def test_a_script_presses_q_and_ctrl_q_as_the_keyboard_does() -> None:
    actions = parse_script("key q\nkey ctrl+q\nkey Enter")
    assert [a["name"] for a in actions] == ["q", "ctrl+q", "enter"]
    with pytest.raises(ScriptError, match="line 1: key name: key must be one of"):
        parse_script("key w")


def test_inventory_clicks_take_a_button_and_drags_take_their_cells() -> None:
    actions = parse_script(
        "click_item 5\nclick_item 5 RIGHT\nclick_item 46 shift\ndrag_item left 37 38 39\n"
        "hover_item 2"
    )
    assert [a.args.get("button") for a in actions] == ["left", "right", "shift", "left", None]
    assert actions[3].rest == (37, 38, 39) and actions[4].args == {"cell": 2}
    data = parse_script(
        '[["drag_item", "right", 1, 2], {"action": "drag_item", "button": "left", "cells": [4, 5]}]'
    )
    assert [(a.args, a.rest) for a in data] == [
        ({"button": "right"}, (1, 2)),
        ({"button": "left"}, (4, 5)),
    ]
    for text, message in [
        ("click_item 5 middle", "line 1: click_item button: button must be left, right or shift"),
        ("drag_item shift 1 2", "line 1: drag_item button: button must be left or right"),
        ("drag_item left 1", "line 1: drag_item needs 2..63 cells, got 1"),
        ("drag_item left 1 64", "line 1: drag_item cells: cell must be 1..63"),
        ("hover_item 0", "line 1: hover_item cell: cell must be 1..63"),
        ("click_item 5 left 3", "line 1: click_item takes at most 2 arguments"),
    ]:
        with pytest.raises(ScriptError, match=message):
            parse_script(text)


def test_the_same_script_in_both_formats_parses_alike() -> None:
    text = parse_script("look 10 20\nmove 1 -1 5\nplace\nselect 9\nfly on")
    data = parse_script(
        '[["look", 10, 20], ["move", 1, -1, 5], ["place"], ["select", 9], "fly on"]'
    )
    assert [(a.name, a.args) for a in text] == [(a.name, a.args) for a in data]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("look 0 0\njump 3", "line 2: jump takes at most 0"),
        ("dance", "line 1: unknown action 'dance'"),
        ("look 10", "line 1: look needs its 'pitch'"),
        ("select 10", "slot must be 1..9"),
        ("wait -1", "frames must be >= 0"),
        ("fly maybe", "expected on or off"),
        ("move fast", "move forward"),
        ('[{"action": "look", "yaw": 1, "roll": 2}]', "item 1: look has no argument 'roll'"),
        ('[{"no": "action"}]', "item 1: expected"),
        ("[1, 2", "not valid JSON"),
        ("[" * 100_000, "not valid JSON"),
        ("look 0 0\nteleport 0 nan 0", "line 2: teleport y: must be a finite number"),
        ("teleport inf 0 0", "line 1: teleport x: must be a finite number"),
        ("teleport 0 0 -1e300", "line 1: teleport z: is outside the world"),
        ("look nan 0", "line 1: look yaw: must be a finite number"),
        ("turn 0 -inf", "line 1: turn pitch: must be a finite number"),
        ("move 1 nan", "line 1: move strafe: must be a finite number"),
        ("move 2", "line 1: move forward: must be -1..1"),
        ("scroll 1000000000", "line 1: scroll steps: steps must be -100..100"),
        ('[["teleport", 0, NaN, 0]]', "item 1: teleport y: must be a finite number"),
        ('[["look", 1e400, 0]]', "item 1: look yaw: must be a finite number"),
        ('[["screenshot", " "]]', "item 1: screenshot path: path must not be empty"),
        ("screenshot /", "line 1: screenshot path: '/' is a folder"),
        ('[["wait", 1%s]]' % ("0" * 5000), "not valid JSON: Exceeds the limit"),
    ],
)
def test_errors_name_the_place_and_the_problem(text: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script(text)


def test_every_action_has_documented_arguments() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "controls.md").read_text()
    for name, params in ACTIONS.items():
        assert f"`{name}" in doc, name
        for param in params:
            assert param.name.upper() in doc, (name, param.name)


def test_read_script_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot read script"):
        read_script(tmp_path / "nope.txt")


def test_read_script_refuses_text_that_is_not_utf8_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("look 0 0\n# caf\u00e9\n".encode("latin-1"))
    with pytest.raises(ScriptError, match=r"latin1.txt line 2: not UTF-8 text \(byte 0xe9\)"):
        read_script(path)


def test_read_script_skips_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "notepad.txt"
    path.write_bytes("look 0 0\n".encode("utf-8-sig"))
    assert [a.name for a in read_script(path)] == ["look"]


def test_typed_and_chat_text_spell_spaces_lines_and_their_escapes() -> None:
    typed, chat = parse_script("type Keep_out/of\\/the\\_farm\\\\\nchat /give_coal\\_ore_3")
    assert typed.args == {"text": "Keep out\nof/the_farm\\"}
    assert chat.args == {"text": "/give coal_ore 3"}  # in a chat line / is a slash
