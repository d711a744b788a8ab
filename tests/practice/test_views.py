"""Practice mode through the views, for every game: new game, move, refused move, hint, undo,
resume, export, foreign sessions, double submits and malformed posts."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from practice.models import PracticeGame
from rules.engine import scenario as scn
from rules.engine.games import game_module

from .helpers import bots_until_human, post_action, random_action, start, state_of, url

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_overview_lists_the_three_games(client):
    r = client.get(reverse("practice"))
    assert r.status_code == 200
    for g in GAMES:
        assert reverse(f"practice_{g}") in r.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_new_game_form_shows_presets_and_options(client, game):
    r = client.get(reverse(f"practice_{game}"))
    html = r.content.decode()
    assert r.status_code == 200
    for preset in game_module(game).PRESETS:
        assert f'value="{preset}"' in html
    assert html.count("<h1") == 1


def test_preset_in_the_url_is_preselected(client):
    r = client.get(reverse("practice_dam") + "?preset=musta-maija")
    assert 'value="musta-maija" selected' in r.content.decode()


def test_unknown_preset_in_the_url_is_ignored(client):
    r = client.get(reverse("practice_dam") + "?preset=<nope>")
    assert r.status_code == 200
    assert "&lt;nope&gt;" not in r.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_new_game_is_created_and_shown(client, game):
    record = start(client, game)
    r = client.get(url(record))
    assert r.status_code == 200
    assert record.names[0] == "Me"
    assert len(record.names) == {"dam": 3, "dolda": 3, "spardame": 4}[game]
    assert record.actions == [] and record.version == 0


def test_bad_player_count_is_refused_with_a_message(client):
    r = client.post(reverse("practice_dam"), {"preset": "svarta-maja", "players": 12,
                                              "level": "easy", "name": "Me"})
    assert r.status_code == 400
    assert PracticeGame.objects.count() == 0


def test_name_with_spaces_is_refused(client):
    r = client.post(reverse("practice_dam"), {"preset": "svarta-maja", "players": 3,
                                              "level": "easy", "name": "A B"})
    assert r.status_code == 400
    assert "without spaces" in r.content.decode()


@pytest.mark.parametrize("name", ["M\x01e", "\x07", "Me\x7f", "Me\x9b"])
def test_name_with_a_control_character_is_refused(client, name):
    r = client.post(reverse("practice_dam"), {"preset": "svarta-maja", "players": 3,
                                              "level": "easy", "name": name})
    assert r.status_code == 400
    assert "without spaces" in r.content.decode()
    assert PracticeGame.objects.count() == 0


def test_single_options_override_the_preset(client):
    start(client, "dam", opt_hand_size="5", opt_trump="fixed")
    record = PracticeGame.objects.get()
    assert record.rules == {"preset": "svarta-maja", "hand_size": 5, "trump": "fixed"}
    assert len(record.deal["hands"]["Me"]) == 5


@pytest.mark.parametrize("game", GAMES)
def test_a_legal_move_is_applied(client, game):
    record = start(client, game)
    state = state_of(record)
    action = state.legal_actions()[-1]
    r = post_action(client, record, action)
    assert r.status_code == 302
    record.refresh_from_db()
    assert record.version == 1 and record.actions[0].startswith("Me ")


@pytest.mark.parametrize("game,fields", [
    ("dam", {"move": "attack", "card": []}),
    ("dolda", {"move": "swap"}),
    ("spardame", {"move": "pass", "card": []}),
])
def test_refused_move_is_explained_and_changes_nothing(client, game, fields):
    record = start(client, game)
    if game == "spardame":
        # two cards of the hand: the engine refuses a pass of two
        hand = state_of(record).view(0)["hand"]
        from rules.engine.cards import code
        fields = {"move": "pass", "card": [code(hand[0]), code(hand[1])]}
    elif game == "dam":
        from rules.engine.cards import code
        # A six-card hand of one suit (about 1 deal in 3,000) cannot mix suits: deal again.
        for _attempt in range(10):
            suits = {}
            for c in state_of(record).view(0)["hand"]:
                suits.setdefault(c // 13, c)
            if len(suits) >= 2:
                break
            record = start(client, game)
        assert len(suits) >= 2
        fields = {"move": "attack", "card": [code(c) for c in list(suits.values())[:2]]}
    r = client.post(url(record, "move"), {**fields, "version": 0})
    assert r.status_code == 400
    html = r.content.decode()
    expected = {"dam": "same suit", "dolda": "Draw a card first", "spardame": "exactly three"}
    assert expected[game] in html
    record.refresh_from_db()
    assert record.version == 0 and record.actions == []


@pytest.mark.parametrize("payload", [
    {}, {"move": "fly", "version": 0}, {"move": "attack", "card": ["ZZ"], "version": 0},
    {"move": "beat", "version": 0}, {"move": "attack", "card": ["AS"], "version": "x"},
    {"move": "a" * 500, "version": 0}, {"move": "take", "card": ["QS"] * 100, "version": 0},
])
def test_malformed_posts_get_a_message_and_change_nothing(client, payload):
    record = start(client, "dam")
    r = client.post(url(record, "move"), payload)
    assert r.status_code == 400
    assert 'id="move-error"' in r.content.decode()
    record.refresh_from_db()
    assert record.version == 0


@pytest.mark.parametrize("digits", ["\u0660", "\uff10", "\u09e6", "\U0001d7ce"])
def test_a_version_in_other_than_ascii_digits_is_refused(client, digits):
    """Python's int() reads any script's digits ("\u0660" is the Arabic-Indic zero): a version
    is written the way the page writes it or not at all."""
    record = start(client, "dam")
    action = state_of(record).legal_actions()[-1]
    fields = adapter("dam").form_fields(action)
    r = client.post(url(record, "move"), {**fields, "version": digits})
    assert r.status_code == 400
    assert "The form was incomplete" in r.content.decode()
    record.refresh_from_db()
    assert record.version == 0 and record.actions == []
    for what in ("step", "undo"):
        assert client.post(url(record, what), {"version": digits}).status_code == 400
    record.refresh_from_db()
    assert record.version == 0


def test_double_submit_applies_the_move_once(client):
    record = start(client, "dam")
    action = state_of(record).legal_actions()[-1]
    first = post_action(client, record, action)
    fields = adapter("dam").form_fields(action)
    second = client.post(url(record, "move"), {**fields, "version": 0})
    assert first.status_code == 302
    assert second.status_code == 409
    assert "already made" in second.content.decode()
    record.refresh_from_db()
    assert record.version == 1 and len(record.actions) == 1


def test_htmx_move_returns_the_game_partial(client):
    record = start(client, "dam")
    action = state_of(record).legal_actions()[-1]
    r = post_action(client, record, action, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200
    assert html.lstrip().startswith('<div id="game"') and "<h1" not in html
    assert 'id="news" data-hx-swap-oob="true"' in html  # the live region, out of band


def test_htmx_refusal_is_swapped_in_with_the_message(client):
    record = start(client, "dolda")
    r = client.post(url(record, "move"), {"move": "swap", "version": 0}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    assert "Draw a card first" in r.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_bot_steps_one_move_at_a_time_with_narration(client, game):
    record = start(client, game)
    while not P.is_bot_turn(record, state_of(record)):
        post_action(client, record, state_of(record).legal_actions()[0])
    record.refresh_from_db()
    before = record.version
    r = client.post(url(record, "step"), {"version": before}, HTTP_HX_REQUEST="true")
    record.refresh_from_db()
    assert r.status_code == 200
    assert record.version == before + 1
    assert "practice-news__line" in r.content.decode()


def test_step_when_it_is_the_humans_turn_is_refused(client):
    record = start(client, "dam")
    r = client.post(url(record, "step"), {"version": 0})
    assert r.status_code == 409
    record.refresh_from_db()
    assert record.version == 0


@pytest.mark.parametrize("game", GAMES)
def test_hint_suggests_a_legal_move_with_a_reason(client, game):
    record = start(client, game)
    r = client.get(url(record) + "?hint=1")
    html = r.content.decode()
    assert r.status_code == 200
    assert 'id="play-hint"' in html
    assert "practice-hint" in html
    r = client.post(url(record, "move"), _hint_fields(html))
    assert r.status_code == 302
    record.refresh_from_db()
    assert record.version == 1


def _hint_fields(html: str) -> dict:
    import re
    section = html[html.index('class="practice-hint"'):]
    section = section[:section.index("</form>")]
    data: dict = {}
    for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', section):
        data.setdefault(name, []).append(value)
    return {k: v if len(v) > 1 else v[0] for k, v in data.items()}


@pytest.mark.parametrize("game", GAMES)
def test_undo_goes_back_to_the_players_previous_decision(client, game):
    record = start(client, game)
    post_action(client, record, state_of(record).legal_actions()[0])
    bots_until_human(client, record)
    record.refresh_from_db()
    assert record.actions[0].startswith("Me ")
    r = client.post(url(record, "undo"), {"version": record.version})
    assert r.status_code == 302
    record.refresh_from_db()
    assert record.actions == []
    assert state_of(record).to_move == 0


def test_undo_with_nothing_to_undo_is_explained(client):
    record = start(client, "dam")
    r = client.post(url(record, "undo"), {"version": 0})
    assert r.status_code == 400
    assert "no move of yours" in r.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_game_resumes_in_a_new_client_with_the_same_session(client, game):
    record = start(client, game)
    post_action(client, record, state_of(record).legal_actions()[0])
    cookie = client.cookies["sessionid"].value
    again = Client()
    again.cookies["sessionid"] = cookie
    r = again.get(url(record))
    assert r.status_code == 200
    assert 'data-version="1"' in r.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_foreign_session_gets_404(client, game):
    record = start(client, game)
    stranger = Client()
    assert stranger.get(url(record)).status_code == 404
    assert stranger.post(url(record, "move"), {"move": "take", "version": 0}).status_code == 404
    assert stranger.post(url(record, "undo"), {"version": 0}).status_code == 404
    assert stranger.get(url(record, "export")).status_code == 404
    stranger.post(reverse("practice_dam"), {"preset": "svarta-maja", "players": 3,
                                            "level": "easy", "name": "X"})
    assert stranger.get(url(record)).status_code == 404


def test_unknown_game_id_gets_404(client):
    start(client, "dam")
    assert client.get(reverse("practice_dam_play", args=["00000000-0000-4000-8000-000000000000"])
                      ).status_code == 404


def test_game_id_under_another_games_url_gets_404(client):
    record = start(client, "dam")
    assert client.get(reverse("practice_spardame_play", args=[record.pk])).status_code == 404


def test_posts_need_csrf():
    csrf_client = Client(enforce_csrf_checks=True)
    r = csrf_client.post(reverse("practice_dam"), {"preset": "svarta-maja", "players": 3,
                                                   "level": "easy", "name": "Me"})
    assert r.status_code == 403


def test_get_on_a_post_endpoint_is_refused(client):
    record = start(client, "dam")
    assert client.get(url(record, "move")).status_code == 405


def _finish(client, record, seed=1):
    rng = random.Random(seed)
    for _ in range(3000):
        state = bots_until_human(client, record)
        if state.over:
            record.refresh_from_db()
            return state
        post_action(client, record, random_action(state, rng))
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("game", GAMES)
def test_export_of_a_finished_deal_passes_scenario_check(client, game):
    record = start(client, game)
    _finish(client, record)
    r = client.get(url(record, "export"))
    assert r.status_code == 200
    data = json.loads(r.content)
    assert data["format"] == "dam-scenario/1" and data["deal"]
    assert scn.check_text(r.content) == []


def test_export_before_the_end_is_refused(client):
    record = start(client, "dam")
    r = client.get(url(record, "export"))
    assert r.status_code == 409


def test_dam_session_keeps_a_tally_over_deals(client):
    record = start(client, "dam")
    _finish(client, record)
    loser = record.result["loser"]
    r = client.post(url(record, "next"), {"version": record.version})
    assert r.status_code == 302
    new = PracticeGame.objects.latest("created")
    assert new.series == record.series and new.deal_number == 2
    assert P.series_summary(new)["rows"][loser]["value"] == (1 if loser is not None else 0)


def test_next_deal_before_the_end_is_refused(client):
    record = start(client, "dam")
    r = client.post(url(record, "next"), {"version": 0})
    assert r.status_code == 409
    assert PracticeGame.objects.count() == 1


def test_spardame_next_deal_carries_the_totals(client):
    record = start(client, "spardame")
    _finish(client, record)
    client.post(url(record, "next"), {"version": record.version})
    new = PracticeGame.objects.latest("created")
    assert new.deal["deal_number"] == 2
    # Compared by name: PostgreSQL's jsonb does not keep the keys in insertion order.
    assert [new.deal["scores"][name] for name in new.names] == record.result["totals"]
    assert state_of(new).view(0)["pass_direction"] == "right"


def test_dolda_match_is_one_deal_per_player(client):
    record = start(client, "dolda", players=2)
    _finish(client, record)
    client.post(url(record, "next"), {"version": record.version})
    second = PracticeGame.objects.latest("created")
    assert second.dealer == (record.dealer + 1) % 2
    _finish(client, second, seed=2)
    summary = P.series_summary(second)
    assert summary["match_over"] and summary["winners"]
    assert not P.can_deal_again(second)


def test_dolda_strict_mode_hides_remembered_row_cards(client):
    record = start(client, "dolda", memory_aid="")
    assert record.memory_aid is False
    state = state_of(record)
    post_action(client, record, [a for a in state.legal_actions() if a.kind == "draw"][0])
    post_action(client, record, [a for a in state_of(record).legal_actions()
                                 if a.kind == "swap"][0])
    record.refresh_from_db()
    view = state_of(record).view(0)
    seen = [c for c in view["rows"][0] if c is not None]
    assert seen  # the engine remembers ...
    from rules.engine.cards import code
    html = client.get(url(record)).content.decode()
    row = html[html.index('data-seat="0"'):html.index('data-seat="1"')]
    assert f'data-card="{code(seen[0])}"' not in row  # ... the strict page does not


def test_replay_link_is_read_only_and_works_in_another_browser(client):
    record = start(client, "dam")
    post_action(client, record, state_of(record).legal_actions()[0])
    client.post(url(record, "share"))
    record.refresh_from_db()
    assert record.share_token
    stranger = Client()
    link = reverse("practice_dam_replay", args=[record.share_token])
    r = stranger.get(link + "?step=1")
    assert r.status_code == 200
    assert 'name="move"' not in r.content.decode()
    assert stranger.get(link + "?step=abc").status_code == 200
    assert stranger.get(reverse("practice_dam_replay", args=[record.pk])).status_code == 404


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_game_page_in_every_language(client, language):
    with translation.override(language):
        record = start(client, "dam")
        r = client.get(url(record))
    html = r.content.decode()
    assert r.status_code == 200
    assert f'<html lang="{language}"' in html
    assert html.count("<h1") == 1
    assert record.names[1] in P.BOT_NAMES[language]


@pytest.mark.parametrize("game", GAMES)
def test_garbage_posts_never_give_a_server_error(client, game):
    record = start(client, game)
    rng = random.Random(game)
    words = ["attack", "beat", "take", "announce", "slap", "wait", "add", "done", "draw",
             "swap", "discard", "shield", "steal", "pass", "play", "", "x", "999", "-1",
             "stock", "discard", "QS", "10H", "2C", "AS", "Bo:3", "Me:1", ":", "１", "٣", "S"]
    for _ in range(120):
        data = {"move": rng.choice(words), "version": rng.choice([0, 0, 0, 1, "", "z"])}
        for key in ("card", "target", "suit", "source", "position"):
            if rng.random() < 0.5:
                data[key] = [rng.choice(words) for _ in range(rng.randrange(1, 4))]
        r = client.post(url(record, "move"), data)
        assert r.status_code in (302, 400, 409), (data, r.status_code)
        record.refresh_from_db()


def test_a_repeated_next_deal_answers_with_the_first_ones_record(client):
    record = start(client, "dam")
    _finish(client, record)
    first = client.post(url(record, "next"), {"version": record.version})
    again = client.post(url(record, "next"), {"version": record.version})
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert PracticeGame.objects.filter(series=record.series, deal_number=2).count() == 1


def test_one_record_per_deal_of_a_series_is_a_database_rule(client):
    from django.db import IntegrityError, transaction

    record = start(client, "dam")
    with pytest.raises(IntegrityError), transaction.atomic():
        PracticeGame.objects.create(owner=record.owner, series=record.series,
                                    deal_number=record.deal_number, game="dam")


def test_the_replay_link_is_made_once(client):
    record = start(client, "dam")
    client.post(url(record, "share"))
    token = PracticeGame.objects.get(pk=record.pk).share_token
    stale = PracticeGame.objects.get(pk=record.pk)
    stale.share_token = None  # a request that read the record before the first one stored it
    assert P.share(stale) == token
    assert client.get(reverse("practice_dam_replay", args=[token])).status_code == 200


def test_the_deal_seed_has_128_bits_and_the_bots_their_own_stream(client):
    seeds = [start(client, "dam") for _ in range(3)]
    assert all(int(r.seed) < 2 ** 128 for r in seeds)
    assert max(int(r.seed) for r in seeds) >= 2 ** 64  # 3 draws under 2**64: chance 2**-192
    assert all(r.bot_seed != int(r.seed) for r in seeds)
    assert P.export(seeds[0])["seed"] == int(seeds[0].seed)


def test_D_S1_eight_players_are_offered_and_need_the_rule_that_allows_them(client):
    page = client.get(reverse("practice_dam")).content.decode()
    assert '<option value="8">8</option>' in page
    module = game_module("dam")
    data = {"preset": module.DEFAULT_PRESET, "players": 8, "level": "easy", "name": "Me"}
    refused = client.post(reverse("practice_dam"), data)
    assert refused.status_code == 400 and PracticeGame.objects.count() == 0
    assert "2 to 6 players" in refused.content.decode()
    allowed = client.post(reverse("practice_dam"), {**data, "opt_max_players_8": "true"})
    assert allowed.status_code == 302
    assert len(PracticeGame.objects.get().names) == 8


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_a_new_game_sent_twice_is_created_once(client):
    path = reverse("practice_dam")
    token = CSRF.search(client.get(path).content.decode()).group(1)
    data = {"preset": "svarta-maja", "players": 3, "level": "easy", "name": "Me",
            "csrfmiddlewaretoken": token}
    first, second = client.post(path, data), client.post(path, data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert PracticeGame.objects.count() == 1
    assert client.get(second["Location"]).status_code == 200
    again = {**data, "csrfmiddlewaretoken": CSRF.search(
        client.get(path).content.decode()).group(1)}  # the page loaded anew: a new game
    assert client.post(path, again).status_code == 302
    assert PracticeGame.objects.count() == 2


@pytest.mark.parametrize("what", ["play", "log", "review"])
def test_a_game_of_another_browser_explains_why_it_cannot_open(client, what):
    """#34 item 8: not a bare 404, but why, and the replay link once the owner made one."""
    record = start(client, "dam")
    stranger = Client()
    r = stranger.get(url(record, what))
    assert r.status_code == 404
    page = r.content.decode()
    assert "kept in the browser that started them" in page
    assert 'id="not-here-replay"' not in page
    assert reverse("practice_dam") in page
    client.post(url(record, "share"))
    record.refresh_from_db()
    r = stranger.get(url(record, what))
    assert r.status_code == 404
    link = reverse("practice_dam_replay", args=[record.share_token])
    assert f'id="not-here-replay" href="{link}"' in r.content.decode()
    assert stranger.get(link).status_code == 200


def test_a_game_of_another_browser_over_htmx_loads_the_explaining_page():
    record = start(Client(), "dam")
    r = Client().get(url(record), headers={"HX-Request": "true"})
    assert r.status_code == 204 and r["HX-Redirect"] == url(record)


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_the_explanation_is_translated(client, language):
    record = start(client, "dam")
    with translation.override(language):
        r = Client().get(url(record))
    assert r.status_code == 404
    assert "This practice game is not in this browser" not in r.content.decode()
