"""Every fault the scenario checker reports has a code, and every code a sentence in each
language; the parameters stay in the file's notation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.scenario_messages import MESSAGES, PLACES, scenario_problem
from rules.engine import scenario
from rules.engine.errors import DEAL_PLACES, SCENARIO_MESSAGES, ScenarioError

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "engine"
# Parameters as the engine passes them, for rendering every sentence once.
SAMPLE = {"line": 3, "column": 7, "fields": "'colour'", "format": "dam-scenario/1",
          "games": "dam, dolda, spardame", "game": "dam", "lo": 2, "hi": 6, "n": 7,
          "name": "Anna", "preset": "x", "known": "svarta-maja", "option": "jokers",
          "value": "true", "allowed": "1, 2", "place": "hand", "card": "1X", "cards": "4D",
          "missing": "Bo", "unknown": "Eve", "field": "to_move", "limit": 100, "extra": "2C",
          "detail": "boom", "kind": "do", "move": "Bo beat 4D 2D", "reason": "not_higher",
          "got": "wrong_suit", "key": "hand", "want": "[\"4D\"]", "choices": "left, right",
          "char": "U+0000"}


def test_every_engine_code_has_a_site_sentence():
    assert set(MESSAGES) == set(SCENARIO_MESSAGES)
    assert set(PLACES) == set(DEAL_PLACES)


def test_the_engine_raises_only_known_codes():
    raised: set[str] = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        raised |= set(re.findall(r'ScenarioError\(\s*"([a-z_]+)"', text))
        raised |= set(m[2] for m in re.finditer(r'_require\((.*?),\s*"([a-z_]+)"', text, re.S))
    assert raised, "the scan found no ScenarioError at all"
    assert raised <= set(SCENARIO_MESSAGES), raised - set(SCENARIO_MESSAGES)


def test_an_unknown_code_is_refused():
    with pytest.raises(AssertionError):
        ScenarioError("no_such_code")


@pytest.mark.parametrize("code", sorted(SCENARIO_MESSAGES))
@pytest.mark.parametrize("lang", ["sv", "fi", "nb"])
def test_every_sentence_is_translated_and_fills_in(code, lang):
    with translation.override("en"):
        english = scenario_problem(code, SAMPLE, "dam")
    with translation.override(lang):
        text = scenario_problem(code, SAMPLE, "dam")
    assert text and text != english
    assert "%(" not in text


def test_the_command_line_keeps_english_sentences():
    [problem] = scenario.check_text('{"format": "dam-scenario/1", "game": "dam", "colour": 1}')
    assert str(problem) == "step 0: unknown field 'colour'"
    assert (problem.code, problem.params) == ("unknown_field", {"fields": "'colour'"})


def test_a_bad_json_file_reports_line_and_column():
    [problem] = scenario.check_text('{\n  "format": }')
    assert problem.code == "not_json" and problem.params == {"line": 2, "column": 13}


def test_a_failed_expect_shows_what_the_game_has_in_file_notation():
    text = Path(__file__).resolve().parents[2] / "tutorials/scenarios/dam/anna-bo-cilla.json"
    data = json.loads(text.read_text())
    data["steps"].insert(0, {"expect": {"hand_count": {"Anna": 5}}})
    [problem] = scenario.check_text(json.dumps(data))
    assert problem.code == "expect_mismatch"
    assert problem.params == {"key": "hand_count", "want": '{"Anna": 5}', "got": '{"Anna": 6}'}


@pytest.mark.parametrize(("game", "word"), [("dolda", "slänghögen"), ("dam", "kasthögen")])
def test_the_discard_pile_of_a_file_is_named_with_its_games_word(game, word):
    """Review S-64: in a file of Dam med dolda kort the pile is the slänghög, as on its table."""
    with translation.override("sv"):
        text = scenario_problem("deal_unknown_card", {**SAMPLE, "place": "discard"}, game)
    assert word in text
