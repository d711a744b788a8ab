"""Hostile or mistyped scenario files: every one is a scenario error with a code, never a
traceback (scenario-format.md: "A malformed file ... is reported the same way")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import scenario
from rules.engine.errors import IllegalAction, ScenarioError

ROOT = Path(__file__).resolve().parents[2]
LAST_PLAYER_LOSES = ROOT / "rules/scenarios/dam/last-player-loses.json"
BASE = {"format": "dam-scenario/1", "game": "dam", "players": ["Anna", "Bo", "Cilla"]}


def codes(text: str) -> list[tuple[int, str]]:
    return [(p.step, p.code) for p in scenario.check_text(text)]


@pytest.mark.parametrize("preset", [[], {}, ["svarta-maja"], {"a": 1}])
def test_a_preset_that_is_not_a_name_is_an_unknown_preset(preset):
    text = json.dumps({**BASE, "rules": {"preset": preset}})
    assert codes(text) == [(0, "unknown_preset")]


@pytest.mark.parametrize("preset", [1, True, None, 1.5])
def test_a_scalar_preset_that_is_not_a_name_is_an_unknown_preset(preset):
    text = json.dumps({**BASE, "rules": {"preset": preset}})
    assert codes(text) == [(0, "unknown_preset")]


@pytest.mark.parametrize("value", [[], {}, ["turned"], {"x": "turned"}, 1, None, True])
def test_an_option_value_of_the_wrong_json_type_is_a_bad_option_value(value):
    text = json.dumps({**BASE, "rules": {"preset": "svarta-maja", "trump": value}})
    assert codes(text) == [(0, "bad_option_value")]


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_every_game_reports_a_list_preset(game):
    players = ["Anna", "Bo", "Cilla", "David"]
    text = json.dumps({**BASE, "game": game, "players": players, "rules": {"preset": []}})
    assert codes(text) == [(0, "unknown_preset")]


def test_an_unknown_player_after_the_deal_is_over_is_game_over():
    data = json.loads(LAST_PLAYER_LOSES.read_text())
    data["steps"].append({"illegal": "Zed take", "reason": "game_over"})
    assert scenario.check(scenario.parse(data)) == []


def test_an_empty_move_after_the_deal_is_over_is_game_over():
    data = json.loads(LAST_PLAYER_LOSES.read_text())
    scn = scenario.parse(data)
    *_, (_n, state, _events) = scenario.states(scn)
    assert state.over
    with pytest.raises(IllegalAction) as info:
        scenario.apply_move(scn.module, state, scn.players, "Zed")
    assert info.value.reason == "game_over"


def test_an_unknown_player_before_the_end_is_still_bad_move():
    text = json.dumps({**BASE, "steps": [{"illegal": "Zed take", "reason": "bad_move"}]})
    assert codes(text) == []


def test_a_number_with_thousands_of_digits_is_a_scenario_error():
    text = json.dumps(BASE)[:-1] + ', "seed": ' + "9" * 5000 + "}"
    assert codes(text) == [(0, "bad_number")]


def test_a_long_number_inside_a_step_is_a_scenario_error():
    text = json.dumps({**BASE, "steps": [{"expect": {"stock_count": 0}}]})
    text = text.replace('"stock_count": 0', '"stock_count": ' + "1" * 6000)
    assert codes(text) == [(0, "bad_number")]


def test_deeply_nested_json_is_a_scenario_error():
    assert codes("[" * 100_000) == [(0, "too_deep")]


def test_deeply_nested_json_in_a_field_is_a_scenario_error():
    text = json.dumps(BASE)[:-1] + ', "deal": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert codes(text) == [(0, "too_deep")]


def test_deeply_nested_objects_are_a_scenario_error():
    assert codes('{"a":' * 100_000) == [(0, "too_deep")]


def test_nesting_deeper_than_any_scenario_needs_is_refused_at_its_step():
    deep = "[" * 40 + "]" * 40
    text = json.dumps({**BASE, "steps": [{"expect": {"over": False}}, {"expect": {"hand": 0}}]})
    assert codes(text.replace('"hand": 0', f'"hand": {deep}')) == [(2, "too_deep")]


def test_scenario_errors_are_value_errors_with_a_code():
    with pytest.raises(ScenarioError) as info:
        scenario.loads("[" * 100_000)
    assert info.value.code == "too_deep" and info.value.step == 0


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, 10**300, -(10**4000)])
def test_a_seed_beyond_every_database_integer_still_replays(seed):
    # The format promises any integer; only the digit limit of JSON reading is a fault.
    assert codes(json.dumps({**BASE, "seed": seed})) == []


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_a_number_beyond_the_float_range_is_a_scenario_error(number):
    text = json.dumps({**BASE, "steps": [{"expect": {"stock_count": 0}}]})
    assert codes(text.replace('"stock_count": 0', f'"stock_count": {number}')) == [
        (0, "bad_number")]


@pytest.mark.parametrize("name", ["An\x00na", "\x01", "Bo\x7f", "Bo\x9b", "\ud800"])
def test_a_player_name_with_a_control_character_is_refused(name):
    text = json.dumps({**BASE, "players": ["Anna", "Bo", name]})
    assert codes(text) == [(0, "control_character")]


@pytest.mark.parametrize("name", ["An\tna", "An\nna", "An\u00a0na", "Anna\u2028"])
def test_a_player_name_with_other_white_space_is_a_bad_name(name):
    text = json.dumps({**BASE, "players": ["Cilla", "Bo", name]})
    assert codes(text) == [(0, "bad_player_name")]


def test_narration_with_nul_is_refused_at_its_step():
    text = json.dumps({**BASE, "steps": [{"expect": {"over": False}},
                                         {"expect": {"over": False}, "say": {"en": "a\x00b"}}]})
    assert codes(text) == [(2, "control_character")]


def test_narration_may_hold_line_breaks_and_tabs():
    text = json.dumps({**BASE, "steps": [{"expect": {"over": False},
                                          "say": {"en": "one\r\ntwo\tthree"}}]})
    assert codes(text) == []


def test_a_refused_move_with_nul_is_refused_as_text():
    text = json.dumps({**BASE, "steps": [{"illegal": "Anna\x00 take", "reason": "bad_move"}]})
    assert codes(text) == [(1, "control_character")]


def test_a_control_character_in_a_key_is_refused():
    text = json.dumps({**BASE, "deal": {"hands": {"\x00": []}}})
    assert codes(text) == [(0, "control_character")]


def test_the_control_character_is_named_in_the_message():
    text = json.dumps({**BASE, "players": ["Anna", "Bo", "C\x00"]})
    [problem] = scenario.check_text(text)
    assert "U+0000" in problem.message
