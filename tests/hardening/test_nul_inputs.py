"""NUL and other control characters in every teacher field the probe of issue #21 found
reaching PostgreSQL (a DataError, so a 500, in production only: SQLite stores NUL).  Each must
get a 400-class answer in the page's language, naming the character, with nothing stored.

Run against PostgreSQL too:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/pytest tests/hardening/test_nul_inputs.py
"""

from __future__ import annotations

import html as htmllib
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.scenario_messages import scenario_problem
from teacher import service as S
from teacher.models import TeacherScenario
from tests.pages import LANGUAGES

pytestmark = pytest.mark.django_db
BASE = {"format": "dam-scenario/1", "game": "dam", "players": ["Anna", "Bo", "Cilla"]}
CHARACTERS = ["\x00", "\x07", "\x1b"]


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def message(language: str, char: str) -> str:
    with translation.override(language):
        return scenario_problem("control_character", {"char": f"U+{ord(char):04X}"})


def url(language: str, name: str, *args) -> str:
    with translation.override(language):
        return reverse(name, args=args)


def recorded(client, language: str) -> TeacherScenario:
    r = client.post(url(language, "scenarios_create"),
                    {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla"})
    assert r.status_code == 303
    obj = TeacherScenario.objects.latest("created")
    for target, typed in (("hand:0", "4D 6D 9D KC 3S 8H"), ("hand:1", "7D 2D JS 5C TH AS"),
                          ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")):
        client.post(url(language, "scenario_deal", obj.code),
                    {"action": "assign", "target": target, "typed": typed})
    client.post(url(language, "scenario_move", obj.code), {"move": "Anna attack 4D"})
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1
    return obj


def explained(r, language: str, char: str, status: int = 400) -> None:
    assert r.status_code == status, r.content.decode()[:300]
    page = r.content.decode()
    if "<html" in page:
        assert f'<html lang="{language}"' in page
    assert message(language, char) in htmllib.unescape(page)
    assert char not in page  # not echoed either


def nothing_with_controls_stored() -> None:
    for obj in TeacherScenario.objects.all():
        text = obj.title + json.dumps(obj.data, ensure_ascii=False)
        assert not any(c in text for c in CHARACTERS), obj.code


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("char", CHARACTERS)
def test_create_with_a_control_character_in_a_player_name(client, language, char):
    r = client.post(url(language, "scenarios_create"),
                    {"rules": "dam:svarta-maja", "players": f"Anna Bo Ci{char}lla"})
    explained(r, language, char)
    assert not TeacherScenario.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("field", ["title", "say-1-en", "say-1-fi"])
def test_save_with_nul_in_the_title_or_a_narration(client, language, field):
    obj = recorded(client, language)
    before = (obj.title, obj.data)
    fields = {"title": "Fine", field: "Look\x00 here"}
    explained(client.post(url(language, "scenario_save", obj.code), fields), language, "\x00")
    explained(client.post(url(language, "scenario_save", obj.code), fields,
                          HTTP_HX_REQUEST="true"), language, "\x00", status=200)
    obj.refresh_from_db()
    assert (obj.title, obj.data) == before
    nothing_with_controls_stored()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("how", ["file", "pasted", "escaped"])
def test_import_with_nul_in_a_narration(client, language, how):
    data = {**BASE, "steps": [{"expect": {"over": False}, "say": {"en": "Look\x00!"}}]}
    text = json.dumps(data)  # "\u0000", as JSON writes it
    if how != "escaped":
        text = text.replace("\\u0000", "\x00")  # a raw NUL in the file
    if how == "pasted":
        r = client.post(url(language, "scenarios_import"), {"text": text})
    else:
        r = client.post(url(language, "scenarios_import"), {
            "file": SimpleUploadedFile("s.json", text.encode(), "application/json")})
    if how == "escaped":
        explained(r, language, "\x00")
    else:
        # A raw control character inside a JSON string is not JSON at all: the file is
        # refused as such, at the place of the character, in the page language.
        assert r.status_code == 400 and f'<html lang="{language}"' in r.content.decode()
        with translation.override(language):
            problems = S.problems_in(text.encode())
        assert problems and all(p in htmllib.unescape(r.content.decode()) for p in problems)
        assert "\x00" not in r.content.decode()
    assert not TeacherScenario.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_import_with_nul_in_the_title(client, language):
    r = client.post(url(language, "scenarios_import"), {
        "file": SimpleUploadedFile("s.json", json.dumps(BASE).encode(), "application/json"),
        "title": "Lesson\x00 one"})
    explained(r, language, "\x00")
    assert not TeacherScenario.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("action", ["refuse", "play"])
def test_a_move_with_nul(client, language, action):
    obj = recorded(client, language)
    r = client.post(url(language, "scenario_move", obj.code),
                    {"move": "Bo\x00 take", "action": action, "steps": "1"})
    explained(r, language, "\x00")
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1
    nothing_with_controls_stored()
