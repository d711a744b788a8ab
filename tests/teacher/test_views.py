"""Teacher tools through the views: create, deal, record, narrate, save, permissions, import
errors, presenter mode (all hands / one seat), print, export, practice and tutorial sources."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from teacher import service as S
from teacher.models import TeacherScenario

pytestmark = pytest.mark.django_db
# A small Dam file of the tests' own (the tutorials change with their lessons).
DAM_FILE = Path(__file__).resolve().parent / "data" / "dam-three-diamonds.json"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def create(client, rules="dam:svarta-maja", players="Anna Bo Cilla", empty=True
           ) -> TeacherScenario:
    """A new scenario; with ``empty`` its default deal cleared, for tests that deal by hand."""
    r = client.post(reverse("scenarios_create"), {"rules": rules, "players": players})
    assert r.status_code == 303, r.content.decode()[:500]
    obj = TeacherScenario.objects.latest("created")
    if empty:
        r = client.post(reverse("scenario_deal", args=[obj.code]), {"action": "clear"})
        assert r.status_code in (200, 303)
        obj.refresh_from_db()
    return obj


def deal(client, obj, target, typed="", cards=(), action="assign", **extra):
    return client.post(reverse("scenario_deal", args=[obj.code]),
                       {"action": action, "target": target, "typed": typed, "card": list(cards),
                        **extra}, **extra.pop("headers", {}))


def small_dam(client) -> TeacherScenario:
    obj = create(client)
    deal(client, obj, "hand:0", "4D 6D 9D KC 3S 8H")
    deal(client, obj, "hand:1", "7D 2D JS 5C TH AS")
    deal(client, obj, "hand:2", "3C 8C QD 2H 6S KS")
    deal(client, obj, "turned", "9H")
    obj.refresh_from_db()
    return obj


def move(client, obj, text, action="play", **headers):
    return client.post(reverse("scenario_move", args=[obj.code]), {"move": text, "action": action},
                       **headers)


def imported(client, text, name="s.json"):
    return client.post(reverse("scenarios_import"),
                       {"file": SimpleUploadedFile(name, text, "application/json")})


# --------------------------------------------------------------------------- create
def test_new_page_offers_every_game(client):
    r = client.get(reverse("scenarios_new"))
    assert r.status_code == 200
    html = r.content.decode()
    for value in ("dam:svarta-maja", "dolda:dolda-kort", "spardame:"):
        assert value in html


def test_create_makes_a_blank_scenario_the_session_may_edit(client):
    obj = create(client)
    assert obj.data["game"] == "dam" and obj.data["players"] == ["Anna", "Bo", "Cilla"]
    assert len(obj.code) >= 8 and obj.code != obj.edit_token
    assert client.get(reverse("scenario_edit", args=[obj.code])).status_code == 200


def test_create_refuses_too_few_players(client):
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja", "players": "Anna"})
    assert r.status_code == 400
    assert "player names" in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_create_refuses_an_unknown_rule_set(client):
    r = client.post(reverse("scenarios_create"), {"rules": "dam:nonsense", "players": "A B"})
    assert r.status_code == 400 and not TeacherScenario.objects.exists()


# --------------------------------------------------------------------------- deal
def test_typed_cards_go_into_the_chosen_hand(client):
    obj = create(client)
    deal(client, obj, "hand:1", "5c 10H")
    obj.refresh_from_db()
    assert obj.data["deal"]["hands"]["Bo"] == ["5C", "TH"]


def test_ticked_cards_move_from_one_slot_to_another(client):
    obj = create(client)
    deal(client, obj, "hand:0", cards=["5C", "9C"])
    deal(client, obj, "stock", cards=["9C"])
    obj.refresh_from_db()
    assert obj.data["deal"]["hands"]["Anna"] == ["5C"] and obj.data["deal"]["stock"] == ["9C"]


def test_a_garbled_card_is_explained_and_changes_nothing(client):
    obj = create(client)
    r = deal(client, obj, "hand:0", "5C XX")
    assert r.status_code == 400 and "is not a card" in r.content.decode()
    obj.refresh_from_db()
    assert obj.data["deal"]["hands"]["Anna"] == []


def test_an_unknown_target_changes_nothing(client):
    obj = create(client)
    r = deal(client, obj, "hand:9", "5C")
    assert r.status_code == 400
    obj.refresh_from_db()
    assert obj.data["deal"]["hands"]["Anna"] == []


def test_fill_random_completes_a_spardame_deal(client):
    obj = create(client, "spardame:" + S.presets("spardame")[0], "A B C D")
    deal(client, obj, "hand:0", "QS")
    deal(client, obj, "", action="fill")
    obj.refresh_from_db()
    assert S.deal_problem(obj.data) == ""
    assert "QS" in obj.data["deal"]["hands"]["A"]


def test_fill_random_completes_a_dolda_deal(client):
    obj = create(client, "dolda:hemligt-kort", "A B C")
    deal(client, obj, "", action="fill")
    obj.refresh_from_db()
    assert S.deal_problem(obj.data) == ""


# --------------------------------------------------------------------------- moves
def test_editor_offers_only_legal_moves(client):
    obj = small_dam(client)
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    offered = set(re.findall(r'data-move="([^"]+)"', html))
    assert "Anna attack 4D 6D 9D" in offered
    assert not any(m.startswith(("Bo", "Cilla")) for m in offered)


def test_a_legal_move_is_recorded(client):
    obj = small_dam(client)
    r = move(client, obj, "Anna attack 4D 6D 9D")
    assert r.status_code == 303
    obj.refresh_from_db()
    assert obj.data["steps"] == [{"do": "Anna attack 4D 6D 9D"}]


def test_a_refused_move_is_explained_and_not_recorded(client):
    obj = small_dam(client)
    r = move(client, obj, "Anna attack 4D KC")
    assert r.status_code == 200
    assert "same suit" in r.content.decode()
    obj.refresh_from_db()
    assert obj.data["steps"] == []


@pytest.mark.parametrize(("text", "why"), [
    ("Anna attack 4D 4D", "The same card is named twice."),
    ("Anna take", "That kind of move has no place at this point of the deal."),
    ("Anna fly", "That is not a move of this game."),
    ("Zed take", "A move starts with the name of one of the players."),
    ("Anna beat 4D", "That move takes a different number of cards or words."),
])
def test_a_move_refused_as_bad_move_says_what_is_wrong_with_it(client, text, why):
    """#34 item 9: not just "That move is not possible now." """
    obj = small_dam(client)
    page = html.unescape(move(client, obj, text).content.decode())
    assert f"That move is not possible now. {why}" in page
    obj.refresh_from_db()
    assert obj.data["steps"] == []


def test_a_refused_move_can_be_kept_as_an_illegal_step(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D KC", action="refuse")
    obj.refresh_from_db()
    assert obj.data["steps"] == [{"illegal": "Anna attack 4D KC", "reason": "attack_mixed_suits"}]


def test_htmx_move_returns_the_editor_partial(client):
    obj = small_dam(client)
    r = move(client, obj, "Anna attack 4D 6D 9D", HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and html.lstrip().startswith('<div id="editor"')
    assert "<html" not in html


def test_the_deal_is_fixed_once_moves_are_recorded(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    r = deal(client, obj, "stock", "2C")
    assert r.status_code == 409
    obj.refresh_from_db()
    assert "2C" not in obj.data["deal"]["stock"]


def test_undo_removes_the_last_step(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    client.post(reverse("scenario_undo", args=[obj.code]))
    obj.refresh_from_db()
    assert obj.data["steps"] == []


def test_undo_with_nothing_to_undo_says_so(client):
    obj = small_dam(client)
    r = client.post(reverse("scenario_undo", args=[obj.code]))
    assert r.status_code == 409 and "no step to undo" in r.content.decode()


def test_save_stores_title_and_narration_then_shows_the_share_page(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    r = client.post(reverse("scenario_save", args=[obj.code]),
                    {"title": "Three diamonds", "say-1-sv": "Anna anfaller.", "say-1-en": "",
                     "say-7-en": "ignored", "say-1-xx": "ignored"})
    assert r.status_code == 303 and r["Location"] == reverse("scenario_detail", args=[obj.code])
    obj.refresh_from_db()
    assert obj.title == "Three diamonds"
    assert obj.data["steps"][0]["say"] == {"sv": "Anna anfaller."}


def test_narration_in_another_language_is_shown_with_its_lang(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    client.post(reverse("scenario_save", args=[obj.code]), {"say-1-sv": "Anna anfaller."})
    html = client.get(reverse("scenario_detail", args=[obj.code])).content.decode()
    assert 'lang="sv">Anna anfaller.' in html


# --------------------------------------------------------------------------- permissions
def test_another_session_may_view_but_not_edit(client):
    obj = small_dam(client)
    other = Client()
    assert other.get(reverse("scenario_detail", args=[obj.code])).status_code == 200
    assert other.get(reverse("scenario_edit", args=[obj.code])).status_code == 403
    r = other.post(reverse("scenario_move", args=[obj.code]), {"move": "Anna attack 4D"})
    assert r.status_code == 403
    assert other.post(reverse("scenario_save", args=[obj.code]), {"title": "x"}).status_code == 403
    obj.refresh_from_db()
    assert obj.data["steps"] == [] and obj.title == ""


def test_the_secret_edit_link_grants_editing(client):
    obj = small_dam(client)
    other = Client()
    r = other.get(reverse("scenario_edit", args=[obj.code]) + f"?key={obj.edit_token}")
    assert r.status_code == 302
    assert other.get(reverse("scenario_edit", args=[obj.code])).status_code == 200


def test_a_wrong_edit_key_is_refused(client):
    obj = small_dam(client)
    other = Client()
    assert other.get(reverse("scenario_edit", args=[obj.code]) + "?key=nope").status_code == 403


def test_the_edit_link_is_shown_only_to_editors(client):
    obj = small_dam(client)
    assert obj.edit_token in client.get(reverse("scenario_detail", args=[obj.code])).content.decode()
    assert obj.edit_token not in Client().get(
        reverse("scenario_detail", args=[obj.code])).content.decode()


def test_an_unknown_code_is_404(client):
    assert client.get(reverse("scenario_detail", args=["nosuchcode"])).status_code == 404
    assert client.post(reverse("scenario_move", args=["nosuchcode"]), {}).status_code == 404


# --------------------------------------------------------------------------- import
def test_import_saves_a_valid_file(client):
    r = imported(client, DAM_FILE.read_bytes())
    assert r.status_code == 303
    obj = TeacherScenario.objects.get()
    assert obj.data["players"] == ["Anna", "Bo", "Cilla"]


def test_import_reports_malformed_json(client):
    r = imported(client, b'{"format": ')
    assert r.status_code == 400 and "not valid JSON" in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_import_reports_a_duplicate_card(client):
    data = json.loads(DAM_FILE.read_text())
    data["deal"]["hands"]["Bo"][0] = "4D"
    r = imported(client, json.dumps(data).encode())
    assert r.status_code == 400
    assert "File or deal:" in r.content.decode() and "4D" in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_import_reports_an_illegal_step_with_its_number(client):
    data = json.loads(DAM_FILE.read_text())
    data["steps"][1] = {"do": "Bo beat 4D 2D"}
    r = imported(client, json.dumps(data).encode())
    assert r.status_code == 400 and "Step 2:" in r.content.decode()
    assert "To beat a card of the same suit you need a higher one." in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_import_reports_an_unknown_option(client):
    data = json.loads(DAM_FILE.read_text())
    data["rules"] = {"jokers": True}
    r = imported(client, json.dumps(data).encode())
    assert r.status_code == 400 and "jokers" in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_import_refuses_an_oversized_file(client):
    data = json.loads(DAM_FILE.read_text())
    data["steps"][0]["say"] = {"en": "x" * (S.MAX_UPLOAD_BYTES + 10)}
    r = imported(client, json.dumps(data).encode())
    assert r.status_code == 400 and "larger than 256 KB" in r.content.decode()
    assert not TeacherScenario.objects.exists()


def test_import_without_a_file_says_what_to_do(client):
    r = client.post(reverse("scenarios_import"), {})
    assert r.status_code == 400 and "Choose a scenario file" in r.content.decode()


def test_export_gives_back_the_scenario_format(client):
    imported(client, DAM_FILE.read_bytes())
    obj = TeacherScenario.objects.get()
    r = client.get(reverse("scenario_export", args=[obj.code]))
    data = json.loads(r.content)
    assert data["format"] == "dam-scenario/1"
    assert data["steps"][0] == {"do": "Anna attack 4D 6D 9D"}


# --------------------------------------------------------------------------- presenter, print
def _hidden_codes(obj, seat):
    hands = obj.data["deal"]["hands"]
    return [c for name, cards in hands.items() if name != obj.data["players"][seat] for c in cards]


def test_present_all_hands_shows_every_hand(client):
    obj = small_dam(client)
    html = client.get(reverse("scenario_present", args=[obj.code, 0])).content.decode()
    for code in ("4D", "7D", "KS"):
        assert f'data-card="{code}"' in html


def test_present_one_seat_hides_the_other_hands(client):
    obj = small_dam(client)
    html = client.get(reverse("scenario_present", args=[obj.code, 0]) + "?seat=1").content.decode()
    assert 'data-card="7D"' in html
    for code in _hidden_codes(obj, 1):
        assert f'data-card="{code}"' not in html


def test_present_htmx_returns_the_stage_only(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    r = client.get(reverse("scenario_present", args=[obj.code, 1]), HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and 'id="present-back"' in html and "<html" not in html
    switcher = re.search(r'<nav id="language-switcher"[^>]*data-hx-swap-oob="true">.*?</nav>', html, re.S)
    with translation.override("sv"):
        swedish = reverse("scenario_present", args=[obj.code, 1])
    assert switcher and swedish in switcher.group(0)


def test_the_step_shown_is_the_step_in_the_address(client):
    obj = small_dam(client)
    for text in ("Anna attack 4D 6D 9D", "Bo beat 4D 7D", "Bo beat 6D TH"):
        move(client, obj, text)
    label = re.compile(r'<span id="present-progress-label">([^<]*)</span>')
    shown = [label.search(client.get(reverse("scenario_present", args=[obj.code, n]))
                          .content.decode()).group(1) for n in range(4)]
    assert shown == ["The deal, before step 1 of 3", "Step 1 of 3", "Step 2 of 3",
                     "Step 3 of 3"]
    url = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla", "step": 2})
    assert label.search(client.get(url).content.decode()).group(1).startswith("Step 2 of ")


def test_present_an_unknown_step_is_404(client):
    obj = small_dam(client)
    assert client.get(reverse("scenario_present", args=[obj.code, 5])).status_code == 404


def test_present_an_unfinished_deal_is_404(client):
    obj = create(client, "dolda:dolda-kort", "A B C")
    assert client.get(reverse("scenario_present", args=[obj.code, 0])).status_code == 404


def test_print_lists_the_deal_and_the_moves(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    html = client.get(reverse("scenario_print", args=[obj.code])).content.decode()
    assert "Anna attack 4D 6D 9D" in html and 'data-card="KS"' in html
    assert "css/teacher.css" in html


def test_present_a_tutorial(client):
    url = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla", "step": 2})
    r = client.get(url)
    assert r.status_code == 200 and 'id="present-next"' in r.content.decode()


def test_present_an_unknown_tutorial_is_404(client):
    url = reverse("tutorial_present", kwargs={"game": "dam", "slug": "nope", "step": 1})
    assert client.get(url).status_code == 404


# --------------------------------------------------------------------------- practice games
def _finished_practice(client):
    from practice import service as P
    from practice.models import PracticeGame

    client.get(reverse("scenarios_new"))
    session = client.session
    owner = P.owner_token(session, create=True)
    session.save()
    record = P.create_game(owner, "dam", {}, 3, "easy", "Anna", "en")
    return record, PracticeGame


def test_an_unfinished_practice_game_cannot_be_presented(client):
    record, _model = _finished_practice(client)
    r = client.post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert r.status_code == 409
    assert not TeacherScenario.objects.exists()


def test_a_finished_practice_game_becomes_a_scenario(client):
    record, model = _finished_practice(client)
    model.objects.filter(pk=record.pk).update(result={"loser": 1})
    r = client.post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert r.status_code == 303
    obj = TeacherScenario.objects.get()
    assert obj.data["players"] == record.names


def test_someone_elses_practice_game_is_refused(client):
    record, model = _finished_practice(client)
    model.objects.filter(pk=record.pk).update(result={"loser": 1})
    r = Client().post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert r.status_code == 404 and not TeacherScenario.objects.exists()


def test_garbled_practice_id_is_refused(client):
    r = client.post(reverse("scenarios_from_practice"), {"game_id": "<script>"})
    assert r.status_code == 404


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_pages_render_in_every_language(client, language):
    obj = small_dam(client)
    with translation.override(language):
        for url in (reverse("scenarios_new"), reverse("scenario_detail", args=[obj.code]),
                    reverse("scenario_edit", args=[obj.code]),
                    reverse("scenario_present", args=[obj.code, 0]),
                    reverse("scenario_print", args=[obj.code])):
            r = client.get(url)
            assert r.status_code == 200, url
            assert f'<html lang="{language}"' in r.content.decode()


# --------------------------------------------------------------------------- other games, races
def _full(client, rules, players):
    obj = create(client, rules, players)
    deal(client, obj, "", action="fill")
    obj.refresh_from_db()
    return obj


def test_spardame_offers_its_many_passes_in_a_list_and_records_one(client):
    obj = _full(client, "spardame:" + S.presets("spardame")[0], "A B C D")
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    assert 'id="legal-select"' in html
    first = re.search(r'<option value="(A pass [^"]+)"', html).group(1)
    assert move(client, obj, first).status_code == 303
    obj.refresh_from_db()
    assert obj.data["steps"] == [{"do": first}]


def test_one_seat_view_does_not_name_cards_another_player_passed(client):
    obj = _full(client, "spardame:" + S.presets("spardame")[0], "A B C D")
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    first = re.search(r'<option value="(A pass [^"]+)"', html).group(1)
    move(client, obj, first)
    page = client.get(reverse("scenario_present", args=[obj.code, 1]) + "?seat=1").content.decode()
    for code in first.split()[2:]:
        assert f'data-card="{code}"' not in page
    assert "passes three cards" in page


def test_dolda_records_a_draw(client):
    obj = _full(client, "dolda:dolda-kort", "A B C")
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    offered = re.findall(r'data-move="([^"]+)"', html)
    assert offered and all(m.split()[1] in ("draw", "swap", "discard") for m in offered)
    move(client, obj, offered[0])
    obj.refresh_from_db()
    assert obj.data["steps"] == [{"do": offered[0]}]


def test_a_double_submit_records_once(client):
    obj = small_dam(client)
    client.post(reverse("scenario_move", args=[obj.code]),
                {"move": "Anna attack 4D 6D 9D", "action": "play", "steps": "0"})
    r = client.post(reverse("scenario_move", args=[obj.code]),
                    {"move": "Anna attack 4D 6D 9D", "action": "play", "steps": "0"})
    assert r.status_code == 409 and "nothing was done" in r.content.decode()
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1


def test_a_double_undo_removes_one_step(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    move(client, obj, "Bo beat 4D 7D")
    for _ in range(2):
        client.post(reverse("scenario_undo", args=[obj.code]), {"steps": "2"})
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 1


def test_a_malformed_move_post_changes_nothing(client):
    obj = small_dam(client)
    for data in ({"move": "", "action": "play"}, {"move": "x" * 500}, {"action": "fly"},
                 {"move": "Zed attack 4D"}):
        r = client.post(reverse("scenario_move", args=[obj.code]), data)
        assert r.status_code in (200, 400)
    obj.refresh_from_db()
    assert obj.data["steps"] == []


def test_import_pasted_text(client):
    r = client.post(reverse("scenarios_import"), {"text": DAM_FILE.read_text(), "title": "Pasted"})
    assert r.status_code == 303
    assert TeacherScenario.objects.get().title == "Pasted"


def test_tutorial_present_one_seat_hides_other_hands(client):
    url = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla", "step": 1})
    html = client.get(url + "?seat=0").content.decode()
    tutorial = Path(__file__).resolve().parents[2] / "tutorials/scenarios/dam/anna-bo-cilla.json"
    data = json.loads(tutorial.read_text())
    for code in data["deal"]["hands"]["Bo"] + data["deal"]["hands"]["Cilla"]:
        assert f'data-card="{code}"' not in html


def test_dolda_all_hands_open_shows_the_face_down_rows(client):
    obj = _full(client, "dolda:dolda-kort", "A B C")
    html = client.get(reverse("scenario_present", args=[obj.code, 0])).content.decode()
    for code in obj.data["deal"]["rows"]["B"]:
        assert f'data-card="{code}"' in html


def test_dolda_one_seat_view_keeps_the_rows_face_down(client):
    obj = _full(client, "dolda:dolda-kort", "A B C")
    html = client.get(reverse("scenario_present", args=[obj.code, 0]) + "?seat=0").content.decode()
    for name in ("A", "B", "C"):
        for code in obj.data["deal"]["rows"][name]:
            assert f'data-card="{code}"' not in html


def _tutorial_keys():
    from tutorials import lessons

    return sorted(lessons.TUTORIALS)


@pytest.mark.parametrize("game,slug", _tutorial_keys())
def test_every_tutorial_step_can_be_presented(client, game, slug):
    from tutorials import lessons

    for n in range(1, len(lessons.get(game, slug).steps) + 1):
        url = reverse("tutorial_present", kwargs={"game": game, "slug": slug, "step": n})
        assert client.get(url).status_code == 200
        assert client.get(url + "?seat=0", HTTP_HX_REQUEST="true").status_code == 200


def test_odd_digits_in_seat_and_narration_fields_are_ignored(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    assert client.get(reverse("scenario_present", args=[obj.code, 0]) + "?seat=²").status_code == 200
    r = client.post(reverse("scenario_save", args=[obj.code]), {"say-²-en": "x", "say-1-en": "y"})
    assert r.status_code == 303
    obj.refresh_from_db()
    assert obj.data["steps"][0]["say"] == {"en": "y"}


def test_a_refused_step_is_presented_with_its_reason(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D KC", action="refuse")
    html = client.get(reverse("scenario_present", args=[obj.code, 1])).content.decode()
    assert "same suit" in html


def test_imported_check_steps_are_presented(client):
    imported(client, DAM_FILE.read_bytes())
    obj = TeacherScenario.objects.get()
    last = len(obj.data["steps"])
    assert "expect" in obj.data["steps"][-1]
    r = client.get(reverse("scenario_present", args=[obj.code, last]))
    assert r.status_code == 200 and 'id="present-back"' in r.content.decode()


# --------------------------------------------------------------------------- rules
def test_rules_form_shows_every_option(client):
    obj = create(client)
    html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    assert 'name="opt_trump"' in html and 'name="opt_hand_size"' in html


def test_changing_an_option_stores_only_the_difference(client):
    obj = small_dam(client)
    r = client.post(reverse("scenario_rules", args=[obj.code]),
                    {"preset": "svarta-maja", "opt_trump": "fixed", "opt_hand_size": "6"})
    assert r.status_code == 303
    obj.refresh_from_db()
    assert obj.data["rules"] == {"preset": "svarta-maja", "trump": "fixed"}
    assert "turned" not in obj.data["deal"]  # no turned card without turned trump
    assert S.deal_problem(obj.data) == ""


def test_an_unknown_option_value_changes_nothing(client):
    obj = small_dam(client)
    r = client.post(reverse("scenario_rules", args=[obj.code]),
                    {"preset": "svarta-maja", "opt_trump": "jokers"})
    assert r.status_code == 400
    obj.refresh_from_db()
    assert obj.data["rules"] == {"preset": "svarta-maja"}


def test_rules_are_fixed_once_moves_are_recorded(client):
    obj = small_dam(client)
    move(client, obj, "Anna attack 4D 6D 9D")
    r = client.post(reverse("scenario_rules", args=[obj.code]), {"preset": "musta-maija"})
    assert r.status_code == 409
    obj.refresh_from_db()
    assert obj.data["rules"] == {"preset": "svarta-maja"}


def test_a_practice_player_called_you_is_presented_as_player(client):
    """The default practice name ("You", "Sinä", ...) would make the class read "You takes"."""
    from practice import service as P

    client.get(reverse("scenarios_new"))
    session = client.session
    owner = P.owner_token(session, create=True)
    session.save()
    record = P.create_game(owner, "dolda", {}, 3, "easy", "Sinä", "fi")
    module = adapter("dolda").engine
    for _ in range(12):
        state = P.replay(record).state
        if P.is_bot_turn(record, state):
            P.step_bot(record, record.version)
        else:
            action = state.legal_actions()[0]
            P.human_move(record, record.version, module.format_action(action).split())
    assert any(m.startswith("Sinä ") for m in record.actions)
    record.result = {"scores": [0, 0, 0]}
    record.save()
    r = client.post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert r.status_code == 303
    data = TeacherScenario.objects.get().data
    assert "Sinä" not in json.dumps(data, ensure_ascii=False)
    assert data["players"][0] == "Player"
    assert [s["do"].split()[0] for s in data["steps"]] == [
        "Player" if m.split()[0] == "Sinä" else m.split()[0] for m in record.actions]


def test_a_practice_player_with_a_name_keeps_it_when_presented(client):
    record, model = _finished_practice(client)
    model.objects.filter(pk=record.pk).update(result={"loser": 1})
    client.post(reverse("scenarios_from_practice"), {"game_id": str(record.pk)})
    assert TeacherScenario.objects.get().data["players"][0] == "Anna"


# --------------------------------------------------------------------------- double submits
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def new_page_token(client) -> str:
    return CSRF.search(client.get(reverse("scenarios_new")).content.decode()).group(1)


def test_a_new_scenario_sent_twice_is_created_once(client):
    data = {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla",
            "csrfmiddlewaretoken": new_page_token(client)}
    first = client.post(reverse("scenarios_create"), data)
    second = client.post(reverse("scenarios_create"), data)
    assert first.status_code == second.status_code == 303
    assert first["Location"] == second["Location"]
    assert TeacherScenario.objects.count() == 1
    assert client.get(second["Location"]).status_code == 200


@pytest.mark.parametrize("how", ["upload", "paste"])
def test_an_import_sent_twice_is_saved_once(client, how):
    text = DAM_FILE.read_bytes()
    token = new_page_token(client)

    def send():
        data = ({"file": SimpleUploadedFile("s.json", text, "application/json")} if how == "upload"
                else {"text": text.decode()})
        return client.post(reverse("scenarios_import"), {**data, "csrfmiddlewaretoken": token})

    first, second = send(), send()
    assert first.status_code == second.status_code == 303
    assert first["Location"] == second["Location"]
    assert TeacherScenario.objects.count() == 1


def test_a_practice_game_presented_twice_by_one_form_is_saved_once(client):
    record, model = _finished_practice(client)
    model.objects.filter(pk=record.pk).update(result={"loser": 1})
    data = {"game_id": str(record.pk), "csrfmiddlewaretoken": new_page_token(client)}
    first = client.post(reverse("scenarios_from_practice"), data)
    second = client.post(reverse("scenarios_from_practice"), data)
    assert first.status_code == second.status_code == 303
    assert TeacherScenario.objects.count() == 1


def test_the_editors_card_deck_leaves_the_layouts_deck_button_its_label(client):
    """The editor's context has a deck of cards; the footer's four-colour deck button is the
    layout's own (``deck_choice``) and keeps its words."""
    obj = create(client)
    with translation.override("en"):
        html = client.get(reverse("scenario_edit", args=[obj.code])).content.decode()
    button = re.search(r'<form[^>]*class="deck-form"[^>]*>.*?<button type="submit">([^<]*)</button>',
                       html, re.S)
    assert button and button.group(1).strip()
