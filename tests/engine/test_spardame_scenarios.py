"""The shipped Spardame scenarios replay cleanly, and the checker catches wrong ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import scenario

FOLDER = Path(__file__).resolve().parents[2] / "rules" / "scenarios" / "spardame"
FILES = sorted(FOLDER.glob("*.json"))
LANGUAGES = {"sv", "fi", "nb", "en"}


def load(name: str) -> dict:
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


def test_the_folder_holds_the_promised_scenarios():
    names = {f.stem for f in FILES}
    assert {"pass-left", "pass-right", "pass-across", "no-passing", "first-lead-two-of-clubs",
            "first-lead-three-players", "first-lead-six-players", "follow-suit",
            "hearts-broken", "queen-breaks-hearts", "queen-does-not-break-hearts",
            "first-trick-no-points", "moon-standard", "moon-points-in-play", "moon-fixed-26",
            "high-values", "match-end-tie"} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_shipped_scenario_replays_without_problems(path):
    text = path.read_text(encoding="utf-8")
    assert [str(p) for p in scenario.check(scenario.loads(text))] == []
    data = json.loads(text)
    assert data["game"] == "spardame"
    said = [s["say"] for s in data["steps"] if "say" in s]
    assert said, "every scenario narrates at least one step"
    assert all(set(say) == LANGUAGES for say in said)


def test_checker_catches_a_wrong_expect():
    data = load("moon-standard.json")
    data["steps"][-1]["expect"]["scores"]["Bo"] = 25
    problems = scenario.check(scenario.parse(data))
    assert len(problems) == 1 and "scores" in problems[0].message
    assert problems[0].step == len(data["steps"])


def test_checker_catches_a_wrong_illegal_reason():
    data = load("follow-suit.json")
    n = next(i for i, s in enumerate(data["steps"], 1) if "illegal" in s)
    data["steps"][n - 1]["reason"] = "hearts_not_broken"
    problems = scenario.check(scenario.parse(data))
    assert [p.step for p in problems] == [n]
    assert "must_follow_suit" in problems[0].message


def test_checker_catches_an_accepted_illegal_step():
    data = load("no-passing.json")
    data["steps"].insert(1, {"illegal": "Cilla play 2C", "reason": "must_follow_suit"})
    problems = scenario.check(scenario.parse(data))
    assert [p.step for p in problems] == [2]


def test_checker_reports_an_expect_key_of_another_game():
    data = load("no-passing.json")
    data["steps"].append({"expect": {"stock_count": 0}})
    problems = scenario.check(scenario.parse(data))
    assert [p.step for p in problems] == [len(data["steps"])]


@pytest.mark.parametrize("change", [
    lambda d: d["deal"]["hands"]["Anna"].pop(),                      # unequal hands
    lambda d: d["deal"]["hands"]["Anna"].__setitem__(0, "ZZ"),       # no such card
    lambda d: d["deal"].__setitem__("stock", []),                    # a dam deal field
    lambda d: d["deal"].__setitem__("deal_number", 0),
    lambda d: d["deal"].__setitem__("scores", {"Anna": 100}),        # the match is over
])
def test_checker_reports_a_bad_deal_as_step_0(change):
    data = load("no-passing.json")
    change(data)
    problems = scenario.check(scenario.parse(data))
    assert [p.step for p in problems] == [0]
