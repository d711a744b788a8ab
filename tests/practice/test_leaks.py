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
    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 16, "dolda": 16, "spardame": 16})


def _check(response, record, where, tracker):
    html = response.content.decode()
    record.refresh_from_db()
    bad = leaked(html, record, tracker.update())
    assert not bad, f"{where}: hidden cards {bad} in the response"


@pytest.fixture
def seeded_deals(monkeypatch):
    """Deals from a seed of the test's own, so that a leak found is found again on every run
    (and in CI) instead of once in a while."""
    def seed(case: int) -> None:
        rng = random.Random(f"deals-{case}")
        monkeypatch.setattr(P, "new_seeds", lambda: (rng.getrandbits(128), rng.getrandbits(63)))
    return seed


@pytest.mark.parametrize("case", range(len(CASES)))
def test_random_game_through_the_views_never_shows_a_hidden_card(client, case, seeded_deals):
    game, extra = CASES[case]
    rng = random.Random(case)
    seeded_deals(case)
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


def _seen_before(record, index: int) -> set[int]:
    """The cards the human had been shown before move ``index`` of the record."""
    from .helpers import seen_cards

    class Prefix:
        pass

    prefix = Prefix()
    prefix.__dict__.update({f: getattr(record, f) for f in (
        "game", "rules", "names", "dealer", "seed", "deal", "human_seat")})
    prefix.actions = record.actions[:index]
    return seen_cards(prefix)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_review_and_its_puzzles_never_show_a_hidden_card(client, case, monkeypatch,
                                                        seeded_deals):
    """Each listed decision shows only cards the player had seen before it, and the puzzle
    it opens (the real deal, replayed to that point) only what the player may see there."""
    import re

    from practice.models import PracticeGame

    from .test_review import finish, full_review

    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 40, "dolda": 40, "spardame": 40})
    monkeypatch.setattr(P, "MISTAKE_FLOOR", {"dam": 0.0, "dolda": 0.0, "spardame": 0.0})
    game, extra = CASES[case]
    seeded_deals(case)
    with translation.override("en"):
        record = finish(start(client, game, **extra), seed=case)
        html = full_review(client, record)
        record.refresh_from_db()
        listed = P.review_costliest(record, P.review_progress(record))
        parts = html.split('<li class="practice-review__item">')[1:]
        assert len(parts) == len(listed)
        for item, part in zip(listed, parts):
            part = part[:part.index("</li>")]
            bad = leaked(part, record, _seen_before(record, item["index"]))
            assert not bad, f"review item at move {item['index']}: hidden cards {bad}"
        rest = re.sub(r'<li class="practice-review__item">.*?</li>', "", html, flags=re.S)
        assert not leaked(rest, record, _seen_before(record, 0))
        for item in listed:
            client.post(url(record, "puzzle"), {"move": item["index"]})
            puzzle = PracticeGame.objects.get(puzzle_of=record, puzzle_from=item["index"])
            tracker = SeenTracker(puzzle)
            _check(client.get(url(puzzle)), puzzle, "puzzle", tracker)
            _check(client.get(url(puzzle) + "?hint=1"), puzzle, "puzzle hint", tracker)
