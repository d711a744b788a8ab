"""Hostile input to the teacher pages: control characters, numbers and nesting beyond what
JSON reading or the database take, list-typed rule sets and odd edit keys.  Each gets a clear
translated answer (never a server error) and nothing is saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teacher import service as S
from teacher.models import TeacherScenario

pytestmark = pytest.mark.django_db
BASE = {"format": "dam-scenario/1", "game": "dam", "players": ["Anna", "Bo", "Cilla"]}
CONTROL = "The text contains a control character (U+0000), which is not allowed."


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def create(client) -> TeacherScenario:
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "Anna Bo Cilla"})
    assert r.status_code == 303
    return TeacherScenario.objects.latest("created")


def recorded(client) -> TeacherScenario:
    obj = create(client)
    for target, typed in (("hand:0", "4D 6D 9D KC 3S 8H"), ("hand:1", "7D 2D JS 5C TH AS"),
                          ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")):
        client.post(reverse("scenario_deal", args=[obj.code]),
                    {"action": "assign", "target": target, "typed": typed})
    r = client.post(reverse("scenario_move", args=[obj.code]), {"move": "Anna attack 4D"})
    assert r.status_code in (200, 303)
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1
    return obj


def upload(client, text: bytes, **extra):
    return client.post(reverse("scenarios_import"),
                       {"file": SimpleUploadedFile("s.json", text, "application/json"), **extra})


def paste(client, text: str, **extra):
    return client.post(reverse("scenarios_import"), {"text": text, **extra})


def refused_without_saving(response, text: str = "") -> None:
    assert response.status_code == 400, response.status_code
    if text:
        assert text in response.content.decode()
    assert not TeacherScenario.objects.exists()


# --------------------------------------------------------------------------- rule sets
def test_import_with_a_list_as_rule_set_is_explained(client):
    r = upload(client, json.dumps({**BASE, "rules": {"preset": []}}).encode())
    refused_without_saving(r, "Unknown rule set “[]”")


def test_import_with_an_object_as_rule_set_is_explained(client):
    r = upload(client, json.dumps({**BASE, "rules": {"preset": {"x": 1}}}).encode())
    refused_without_saving(r, "Unknown rule set")


def test_import_with_a_list_as_option_value_is_explained(client):
    r = upload(client, json.dumps({**BASE, "rules": {"trump": ["fixed"]}}).encode())
    refused_without_saving(r, "The rule option “trump” cannot be")


# --------------------------------------------------------------------------- JSON types
BAD_GAME = "The field “game” must be one of dam, dolda, spardame."


@pytest.mark.parametrize("game", [[], ["dam"], {}, {"dam": 1}])
@pytest.mark.parametrize("send", [upload, paste])
def test_import_with_a_list_or_an_object_as_game_is_explained(client, game, send):
    text = json.dumps({**BASE, "game": game})
    r = send(client, text.encode() if send is upload else text)
    refused_without_saving(r, BAD_GAME)


ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [json.loads(p.read_text()) for p in sorted(ROOT.glob("rules/scenarios/*/*.json"))]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["dam", "dolda", "spardame", "Anna", "QS", "take"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6) | st.sampled_from(["en", "sv", "Anna", "preset", "hands"]), inner,
        max_size=3),
    max_leaves=6)


def _paths(value, path=()):
    """Every place in a JSON document: each key of an object, each item of a list."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@st.composite
def misshapen(draw) -> str:
    """A shipped scenario with the value at one place (top-level field, rule, deal, step,
    narration, ...) replaced by JSON of any shape."""
    data = json.loads(json.dumps(draw(st.sampled_from(SCENARIOS))))
    path = draw(st.sampled_from([p for p in _paths(data) if p]))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=misshapen())
def test_an_import_of_any_json_shape_is_saved_or_explained(text):
    """Whatever type a field has, the import saves the file or says what is wrong with it."""
    with translation.override("en"):
        try:
            obj = S.import_text(SessionStore(), text.encode())
        except S.ImportProblems as exc:
            assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
        else:
            obj.delete()


# --------------------------------------------------------------------------- numbers, nesting
def test_import_with_a_seed_of_5000_digits_is_explained(client):
    text = json.dumps(BASE)[:-1] + ', "seed": ' + "7" * 5000 + "}"
    r = upload(client, text.encode())
    refused_without_saving(r, "a number that is out of range or has too many digits")


def test_pasted_import_with_a_long_number_in_a_step_is_explained(client):
    text = json.dumps({**BASE, "steps": [{"expect": {"stock_count": 0}}]})
    r = paste(client, text.replace('"stock_count": 0', '"stock_count": -' + "1" * 5000))
    refused_without_saving(r, "too many digits")


def test_import_with_infinity_is_explained(client):
    text = json.dumps({**BASE, "steps": [{"expect": {"stock_count": 0}}]})
    r = paste(client, text.replace('"stock_count": 0', '"stock_count": 1e999'))
    refused_without_saving(r, "out of range")


def test_import_nested_100000_deep_is_explained(client):
    r = upload(client, b"[" * 100_000)
    refused_without_saving(r, "nested too deeply")


def test_import_with_a_deeply_nested_field_is_explained(client):
    text = json.dumps(BASE)[:-1] + ', "deal": ' + "[" * 100_000 + "]" * 100_000 + "}"
    r = paste(client, text)
    refused_without_saving(r, "nested too deeply")


def test_import_with_a_huge_seed_within_the_digit_limit_is_saved(client):
    r = paste(client, json.dumps({**BASE, "seed": 10**4000}))
    assert r.status_code == 303
    assert TeacherScenario.objects.get().data["seed"] == 10**4000


# --------------------------------------------------------------------------- control characters
def test_create_with_control_characters_as_player_names_is_explained(client):
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "\x00 \x01 \x02"})
    refused_without_saving(r, CONTROL)


def test_create_with_nul_inside_a_player_name_is_explained(client):
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "Anna Bo Ci\x00lla"})
    refused_without_saving(r, CONTROL)


def test_create_with_a_control_character_does_not_echo_it(client):
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "An\x00na Bo\x07 Cilla"})
    assert r.status_code == 400
    assert "\x00" not in r.content.decode() and "\x07" not in r.content.decode()


def test_import_with_nul_in_narration_is_explained(client):
    data = {**BASE, "steps": [{"expect": {"over": False}, "say": {"en": "Look\x00!"}}]}
    refused_without_saving(upload(client, json.dumps(data).encode()), "Step 1: " + CONTROL)


def test_import_with_nul_in_a_player_name_is_explained(client):
    data = {**BASE, "players": ["Anna", "Bo", "C\x00"]}
    refused_without_saving(upload(client, json.dumps(data).encode()), CONTROL)


def test_import_with_a_lone_surrogate_is_explained(client):
    text = json.dumps({**BASE, "steps": [{"expect": {"over": False}, "say": {"en": "x"}}]})
    r = upload(client, text.replace('"x"', '"\\ud800"').encode())
    refused_without_saving(r, "U+D800")


def test_import_with_nul_in_the_title_is_explained(client):
    r = upload(client, json.dumps(BASE).encode(), title="Lesson\x00 one")
    refused_without_saving(r, CONTROL)


def test_save_with_nul_in_the_title_changes_nothing(client):
    obj = recorded(client)
    before = (obj.title, obj.data)
    r = client.post(reverse("scenario_save", args=[obj.code]), {"title": "A\x00B"})
    assert r.status_code == 400 and CONTROL in r.content.decode()
    obj.refresh_from_db()
    assert (obj.title, obj.data) == before


def test_save_with_nul_in_narration_changes_nothing(client):
    obj = recorded(client)
    before = (obj.title, obj.data)
    r = client.post(reverse("scenario_save", args=[obj.code]),
                    {"title": "Fine", "say-1-en": "Look\x00"})
    assert r.status_code == 400 and CONTROL in r.content.decode()
    obj.refresh_from_db()
    assert (obj.title, obj.data) == before


def test_save_with_nul_in_narration_over_htmx_shows_the_message(client):
    obj = recorded(client)
    r = client.post(reverse("scenario_save", args=[obj.code]), {"say-1-sv": "\x00"},
                    HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and CONTROL in r.content.decode()
    assert "HX-Redirect" not in r
    obj.refresh_from_db()
    assert "say" not in obj.data["steps"][0]


def test_save_keeps_line_breaks_in_narration(client):
    obj = recorded(client)
    r = client.post(reverse("scenario_save", args=[obj.code]), {"say-1-en": "One\r\nTwo\tthree"})
    assert r.status_code == 303
    obj.refresh_from_db()
    assert obj.data["steps"][0]["say"] == {"en": "One\r\nTwo\tthree"}


@pytest.mark.parametrize("action", ["refuse", "play"])
def test_a_move_with_nul_is_explained_and_not_recorded(client, action):
    obj = recorded(client)
    r = client.post(reverse("scenario_move", args=[obj.code]),
                    {"move": "Bo\x00 take", "action": action})
    assert r.status_code == 400 and CONTROL in r.content.decode()
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1


# --------------------------------------------------------------------------- edit keys
@pytest.mark.parametrize("key", ["ä", "\x00", "€" * 64, "🂡"])
def test_a_non_ascii_edit_key_is_a_wrong_key(client, key):
    obj = create(client)
    other = Client(raise_request_exception=False)
    r = other.get(reverse("scenario_edit", args=[obj.code]), {"key": key})
    assert r.status_code == 403
    assert "teacher/forbidden.html" in [t.name for t in r.templates]
    assert other.get(reverse("scenario_edit", args=[obj.code])).status_code == 403


# --------------------------------------------------------------------------- practice games
def test_a_practice_export_with_a_control_character_is_refused(client, monkeypatch):
    """A game stored before names were checked: its export no longer parses."""
    from practice import service as P
    from tests.practice.helpers import start

    record = start(client, "dam", players=2)
    record.result = {"loser": 1}
    record.save()
    monkeypatch.setattr(P, "export", lambda rec: {**BASE, "players": ["M\x01e", "Bo"]})
    r = client.post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert r.status_code == 409
    assert not TeacherScenario.objects.exists()
