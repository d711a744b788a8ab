"""No response of practice mode ever shows a card the player has not been allowed to see:
random games played through the views, every response checked (card codes in data-card and
form values, card names in the page language) against the cards the human seat has been
shown so far (its views and its visible events, replayed through the engine)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from practice import service as P

from .helpers import SeenTracker, leaked, post_action, random_action, start, state_of, url

pytestmark = pytest.mark.django_db

CASES = [
    ("dam", {"preset": "svarta-maja", "players": 3}),
    ("dam", {"preset": "aldre-svensk", "players": 4}),  # hidden hand sizes in the endgame
    ("dam", {"preset": "musta-maija", "players": 2, "opt_extra_attack": "true"}),
    ("dam", {"preset": "kolme-korttia", "players": 3}),
    ("dolda", {"preset": "dolda-kort", "players": 3}),
    ("dolda", {"preset": "avancerad", "players": 3}),  # secret card, thieves and shields
    ("dolda", {"preset": "hemligt-kort", "players": 2, "memory_aid": ""}),
    ("spardame", {"preset": "standard", "players": 4}),
    ("spardame", {"preset": "husregler", "players": 3}),
    ("spardame", {"preset": "standard", "players": 5}),
]


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("rules.engine.bots.strong.TIME_BUDGET_S", 0.005)


def _check(response, record, where, tracker):
    html = response.content.decode()
    record.refresh_from_db()
    bad = leaked(html, record, tracker.update())
    assert not bad, f"{where}: hidden cards {bad} in the response"


@pytest.mark.parametrize("case", range(len(CASES)))
def test_random_game_through_the_views_never_shows_a_hidden_card(client, case):
    game, extra = CASES[case]
    rng = random.Random(case)
    with translation.override("en"):
        record = start(client, game, **extra)
        tracker = SeenTracker(record)
        _check(client.get(url(record)), record, "start", tracker)
        for turn in range(2000):
            state = state_of(record)
            if state.over:
                break
            htmx = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
            if P.is_bot_turn(record, state):
                r = client.post(url(record, "step"), {"version": record.version}, **htmx)
                if r.status_code == 302:
                    r = client.get(url(record))
            else:
                if turn % 7 == 0:
                    _check(client.get(url(record) + "?hint=1", **htmx), record, "hint", tracker)
                r = post_action(client, record, random_action(state, rng), **htmx)
                if r.status_code == 302:
                    r = client.get(url(record))
            _check(r, record, f"move {len(record.actions)}", tracker)
        assert state_of(record).over
        _check(client.get(url(record)), record, "end", tracker)


def test_the_leak_check_finds_an_opponents_card(client):
    with translation.override("en"):
        record = start(client, "dam")
    from rules.engine.cards import code

    other = state_of(record).to_json()["hands"][1][0]
    assert leaked(f'<span data-card="{code(other)}"></span>', record) == [code(other)]
    assert leaked("<p>nothing</p>", record) == []
