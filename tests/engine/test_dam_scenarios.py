"""The shipped Dam scenario files, and the checker catching wrong ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.engine import scenario

FOLDER = Path(__file__).resolve().parents[2] / "rules" / "scenarios" / "dam"
FILES = sorted(FOLDER.glob("*.json"))
EXPECTED = {"anna-bo-cilla", "aino-eero-maija", "queen-of-spades-dump", "spade-put-back",
            "endgame-attack-limit", "overplay-penalty", "marriage-trump-fixed",
            "marriage-trump-changes", "extra-attack-slap", "extra-attack-wait", "two-players",
            "player-out-skipped", "last-player-loses"}


def load(slug: str) -> dict:
    return json.loads((FOLDER / f"{slug}.json").read_text(encoding="utf-8"))


def problems(data: dict) -> list[str]:
    return [str(p) for p in scenario.check(scenario.parse(data))]


def test_every_expected_scenario_is_shipped():
    assert {f.stem for f in FILES} >= EXPECTED


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_file_replays_cleanly(path):
    assert scenario.check(scenario.loads(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_does_not_depend_on_the_seed(path):
    # "a portable scenario never depends on where a random card ends up"
    data = json.loads(path.read_text(encoding="utf-8"))
    for seed in (1, 2, 3, 17, 99):
        data["seed"] = seed
        assert problems(data) == [], seed


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_narration_is_in_all_four_languages(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    says = [s["say"] for s in data["steps"] if "say" in s]
    assert says
    for say in says:
        assert set(say) == {"sv", "fi", "nb", "en"} and all(v.strip() for v in say.values())


def test_checker_catches_a_wrong_expect():
    data = load("anna-bo-cilla")
    last = data["steps"][-1]["expect"]
    last["to_move"] = "Bo"  # the seed text says Cilla attacks next
    found = problems(data)
    assert len(found) == 1 and "to_move" in found[0] and "Cilla" in found[0]


def test_checker_catches_a_wrong_hand_expect():
    data = load("anna-bo-cilla")
    data["steps"][-1]["expect"]["hand"] = {"Bo": ["9D", "4S", "6H", "JH", "QC", "8C"]}
    assert len(problems(data)) == 1


def test_checker_catches_a_wrong_illegal_reason():
    data = load("queen-of-spades-dump")
    step = next(s for s in data["steps"] if s.get("illegal") == "Bo beat QS KS")
    step["reason"] = "not_higher"
    found = problems(data)
    assert len(found) == 1 and "queen_of_spades_cannot_be_beaten" in found[0]


def test_checker_catches_an_illegal_step_that_is_legal():
    data = load("queen-of-spades-dump")
    data["steps"].insert(1, {"illegal": "Anna attack 3S QS", "reason": "attack_mixed_suits"})
    found = problems(data)
    assert len(found) == 1 and "accepted" in found[0]


def test_checker_rejects_an_expect_key_of_another_game():
    data = copy.deepcopy(load("two-players"))
    data["steps"].append({"expect": {"row": {"Anna": []}}})
    found = problems(data)
    assert len(found) == 1 and "row" in found[0]


def test_checker_reports_a_bad_deal_as_step_zero():
    data = load("two-players")
    data["deal"]["hands"]["Bo"].append("2C")  # Anna holds it too
    found = problems(data)
    assert found and found[0].startswith("step 0")
