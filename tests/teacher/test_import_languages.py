"""Import errors read entirely in the page language: the engine's English never shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from rules.engine import scenario
from teacher.models import TeacherScenario

pytestmark = pytest.mark.django_db
# A small Dam file of the tests' own (the tutorials change with their lessons).
DAM_FILE = Path(__file__).resolve().parent / "data" / "dam-three-diamonds.json"


def _data():
    return json.loads(DAM_FILE.read_text())


DUPLICATE = _data()["deal"]["hands"]["Anna"][0]  # a card of Anna's given to Bo as well


def _duplicate():
    data = _data()
    data["deal"]["hands"]["Bo"][0] = DUPLICATE
    return json.dumps(data)


def _illegal_step():
    data = _data()
    data["steps"][1] = {"do": "Bo beat 4D 2D"}
    return json.dumps(data)


def _unknown_option():
    data = _data()
    data["rules"] = {"jokers": True}
    return json.dumps(data)


def _wrong_expect():
    data = _data()
    data["steps"].insert(0, {"expect": {"hand_count": {"Anna": 5}}})
    return json.dumps(data)


def _unknown_card():
    data = _data()
    data["deal"]["hands"]["Cilla"][0] = "1X"
    return json.dumps(data)


CASES = {
    "malformed": ('{"format": ', None),
    "duplicate": (_duplicate(), DUPLICATE),
    "illegal": (_illegal_step(), "Bo beat 4D 2D"),
    "option": (_unknown_option(), "jokers"),
    "expect": (_wrong_expect(), "hand_count"),
    "card": (_unknown_card(), "1X"),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("lang", ["sv", "fi", "nb"])
def test_import_problems_are_in_the_page_language(client, case, lang):
    text, _ = CASES[case]
    [problem] = scenario.check_text(text)
    with translation.override(lang):
        r = client.post(reverse("scenarios_import"),
                        {"file": SimpleUploadedFile("s.json", text.encode(), "application/json")})
    html = r.content.decode()
    assert r.status_code == 400
    assert escape(problem.message) not in html and problem.message not in html
    with translation.override(lang):
        from teacher.service import problem_text
        assert escape(problem_text(problem, "dam")) in html
    assert not TeacherScenario.objects.exists()


@pytest.mark.parametrize("case", ["duplicate", "illegal", "option", "expect", "card"])
def test_the_problem_names_what_to_fix_in_the_file(client, case):
    text, needle = CASES[case]
    with translation.override("fi"):
        r = client.post(reverse("scenarios_import"),
                        {"file": SimpleUploadedFile("s.json", text.encode(), "application/json")})
    assert escape(needle) in r.content.decode()


def test_a_step_problem_keeps_its_step_number(client):
    with translation.override("sv"):
        r = client.post(reverse("scenarios_import"), {"file": SimpleUploadedFile(
            "s.json", _illegal_step().encode(), "application/json")})
        html = r.content.decode()
    assert "Steg 2:" in html
