"""The editor's default deal, "ready" only for a valid deal, the handout's trump and chosen
positions, export → import keeping title and narration (issue #20)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from teacher.models import TeacherScenario
from tests.games.helpers import replayed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def create(client, players="Anna Bo Cilla Dag", rules="dam:svarta-maja") -> TeacherScenario:
    r = client.post(reverse("scenarios_create"), {"rules": rules, "players": players})
    assert r.status_code == 303
    return TeacherScenario.objects.latest("created")


@pytest.mark.parametrize("players", ["Anna Bo", "Anna Bo Cilla", "Anna Bo Cilla Dag",
                                     "Anna Bo Cilla Dag Eva Fia"])
def test_default_dam_deal_gives_every_player_six_cards_and_writes_out_the_stock(client, players):
    obj = create(client, players)
    hands = obj.data["deal"]["hands"]
    assert [len(h) for h in hands.values()] == [6] * len(players.split())
    assert len(obj.data["deal"]["stock"]) == 52 - 6 * len(players.split())


@pytest.mark.parametrize("rules,players", [("dolda:dolda-kort", "Anna Bo Cilla Dag"),
                                           ("spardame:", "Anna Bo Cilla David")])
def test_default_deal_of_the_other_games_is_ready(client, rules, players):
    from teacher.service import presets
    game = rules.split(":")[0]
    obj = create(client, players, f"{game}:{presets(game)[0]}")
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    assert 'id="deal-ready"' in html


def test_four_player_default_deal_says_ready(client):
    obj = create(client)
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    assert 'id="deal-ready"' in html and 'id="deal-problem"' not in html


def test_deal_with_empty_hands_is_not_ready_and_cannot_be_recorded(client):
    obj = create(client)
    client.post(reverse("scenario_deal", args=[obj.code]), {"action": "clear"})
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    assert 'id="deal-ready"' not in html and 'id="deal-problem"' in html
    r = client.post(reverse("scenario_move", args=[obj.code]), {"move": "Anna attack 5C"})
    obj.refresh_from_db()
    assert obj.data["steps"] == [] and r.status_code == 400


def first_attack(obj) -> str:
    from teacher import service as S
    scn, frames = replayed(obj.data)
    return S.legal_moves(scn, frames[-1].state)[0]["move"]


def test_handout_states_the_trump_turned_at_the_first_attack(client):
    obj = create(client, "Anna Bo Cilla")
    scn, frames = replayed({**obj.data, "steps": []})
    _state, events = frames[0].state.apply(list(frames[0].state.legal_actions())[0])
    turned = next(e for e in events if e["type"] == "trump_turned")
    html = client.get(reverse("scenario_print", args=[obj.code])).content.decode()
    from games.cardnames import card_name
    assert "Trump:" in html and card_name(turned["card"], "dam") in html
    assert "Stock (top card first)" in html and "none" not in html.split("handout-deal")[2][:3000]


def test_handout_shows_the_positions_chosen_and_only_those(client):
    obj = create(client, "Anna Bo Cilla")
    client.post(reverse("scenario_move", args=[obj.code]), {"move": first_attack(obj)})
    url = reverse("scenario_print", args=[obj.code])
    html = client.get(url + "?after=1&after=99&after=x").content.decode()
    assert 'data-after="1"' in html and 'data-after="0"' not in html
    assert 'class="game-table' in html
    assert 'data-after' not in client.get(url).content.decode()


def test_export_then_import_keeps_title_and_narration(client):
    obj = create(client, "Anna Bo Cilla")
    client.post(reverse("scenario_move", args=[obj.code]), {"move": first_attack(obj)})
    client.post(reverse("scenario_save", args=[obj.code]),
                {"title": "Första anfallet", "say-1-sv": "Anna anfaller.", "say-1-en": "Anna attacks."})
    text = client.get(reverse("scenario_export", args=[obj.code])).content
    assert json.loads(text)["title"] == "Första anfallet"
    from django.core.files.uploadedfile import SimpleUploadedFile
    r = client.post(reverse("scenarios_import"),
                    {"file": SimpleUploadedFile("s.json", text, "application/json")})
    assert r.status_code == 303
    new = TeacherScenario.objects.latest("created")
    assert new.pk != obj.pk and new.title == "Första anfallet"
    assert new.data["steps"][0]["say"] == {"sv": "Anna anfaller.", "en": "Anna attacks."}
    assert "title" not in new.data


def test_import_form_title_wins_over_the_files(client):
    obj = create(client, "Anna Bo Cilla")
    client.post(reverse("scenario_save", args=[obj.code]), {"title": "A"})
    text = client.get(reverse("scenario_export", args=[obj.code])).content
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.post(reverse("scenarios_import"),
                {"file": SimpleUploadedFile("s.json", text, "application/json"), "title": "B"})
    assert TeacherScenario.objects.latest("created").title == "B"


def test_a_title_that_is_not_text_is_refused_on_import(client):
    from teacher import service as S
    assert S.problems_in(json.dumps({"format": "dam-scenario/1", "game": "dam", "title": 5,
                                     "players": ["A", "B"]}))
