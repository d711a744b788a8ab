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
