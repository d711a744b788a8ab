"""The post-game review and its "try it again" puzzles, through the views and the service."""

from __future__ import annotations

import random
import re
import threading

import pytest
from django.db import connections
from django.test import Client
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from practice.models import Analysis, PracticeGame
from web.errors import Refusal

from .helpers import start, url

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 16, "dolda": 16, "spardame": 16})
    with translation.override("en"):
        yield


def finish(record: PracticeGame, seed: int = 1) -> PracticeGame:
    """Play the deal to its end through the service: random moves for the player."""
    rng = random.Random(seed)
    module = adapter(record.game).engine
    for _ in range(5000):
        record.refresh_from_db()
        state = P.load(record).state
        if state.over:
            return record
        if P.is_bot_turn(record, state):
            P.step_bot(record, record.version)
        else:
            acts = list(state.legal_actions())
            action = acts[rng.randrange(len(acts))]
            P.human_move(record, record.version, module.format_action(action).split())
    raise AssertionError("the deal did not end")


def full_review(client, record: PracticeGame) -> str:
    for _ in range(500):
        html = client.get(url(record, "review")).content.decode()
        if 'data-hx-trigger="load' not in html:
            return html
    raise AssertionError("the review never finished")


def test_review_before_the_end_of_the_deal_is_refused(client):
    record = start(client, "dam")
    r = client.get(url(record, "review"))
    assert r.status_code == 409
    assert "review the deal once it is over" in r.content.decode()


def test_finished_deal_offers_the_review(client):
    record = finish(start(client, "spardame"))
    html = client.get(url(record)).content.decode()
    assert 'id="review-link"' in html and url(record, "review") in html


@pytest.mark.parametrize("game", GAMES)
def test_review_lists_at_most_three_costliest_clear_mistakes_with_a_puzzle_each(
        client, game, monkeypatch):
    monkeypatch.setattr(P, "MISTAKE_FLOOR", {"dam": 0.0, "dolda": 0.0, "spardame": 0.0})
    record = finish(start(client, game))
    html = full_review(client, record)
    items = html.count('class="practice-review__item"')
    record.refresh_from_db()
    progress = P.review_progress(record)
    flagged = sorted((i for i in progress["items"] if i["flagged"]),
                     key=lambda i: (-i["cost"], i["index"]))
    assert items == min(3, len(flagged))
    assert html.count('name="move"') == items
    assert [i["index"] for i in P.review_costliest(record, progress)] == [
        i["index"] for i in flagged[:3]]
    assert ("found no clear mistake" in html) == (not flagged)
    for item in progress["items"]:
        assert set(item) >= {"index", "best", "cost", "se", "playouts", "flagged"}


def test_review_analyses_only_the_players_choices(client):
    record = finish(start(client, "dam"))
    progress = P.review_step(record)
    human = record.names[record.human_seat] + " "
    assert progress["done"]
    assert all(record.actions[i["index"]].startswith(human) for i in progress["items"])


def test_review_figures_are_reproducible(client):
    record = finish(start(client, "spardame"))
    one = P.review_step(record)["items"]
    PracticeGame.objects.filter(pk=record.pk).update(review=None)
    Analysis.objects.filter(record=record).delete()
    record.refresh_from_db()
    assert P.review_step(record)["items"] == one


def test_review_starts_again_after_an_undo_and_a_new_ending(client):
    record = finish(start(client, "dam"))
    P.review_step(record)
    record.refresh_from_db()
    old_version = record.review["version"]
    P.undo(record, record.version)
    record = finish(record, seed=2)
    progress = P.review_step(record)
    assert record.review["version"] == record.version != old_version
    assert progress["done"]


def _puzzle_index(client, record) -> int:
    progress = P.review_step(record)
    return progress["items"][0]["index"]


def test_try_it_again_opens_the_position_with_the_same_deal_and_bots(client):
    record = finish(start(client, "dam"))
    index = _puzzle_index(client, record)
    r = client.post(url(record, "puzzle"), {"move": index})
    assert r.status_code == 302
    puzzle = PracticeGame.objects.get(puzzle_of=record)
    assert r["Location"] == url(puzzle)
    assert puzzle.actions == record.actions[:index]
    assert (puzzle.deal, puzzle.seed, puzzle.bot_seed, puzzle.level) == (
        record.deal, record.seed, record.bot_seed, record.level)
    assert puzzle.series != record.series
    html = client.get(url(puzzle)).content.decode()
    assert "Puzzle: try it again" in html and url(record, "review") in html
    # The same move again: the bots answer as they did in the deal.
    words = record.actions[index].split()[1:]
    P.human_move(puzzle, puzzle.version, words)
    while P.is_bot_turn(puzzle, P.load(puzzle).state) and len(puzzle.actions) < len(record.actions):
        P.step_bot(puzzle, puzzle.version)
    assert puzzle.actions == record.actions[:len(puzzle.actions)]


def test_try_it_again_twice_opens_the_same_unfinished_puzzle(client):
    record = finish(start(client, "spardame"))
    index = _puzzle_index(client, record)
    client.post(url(record, "puzzle"), {"move": index})
    client.post(url(record, "puzzle"), {"move": index})
    assert PracticeGame.objects.filter(puzzle_of=record).count() == 1


@pytest.mark.parametrize("move", ["", "x", "-1", "100000"])
def test_puzzle_of_a_position_that_is_no_decision_is_refused(client, move):
    record = finish(start(client, "dam"))
    r = client.post(url(record, "puzzle"), {"move": move})
    assert 400 <= r.status_code < 500
    assert not PracticeGame.objects.filter(puzzle_of=record).exists()


def test_puzzle_undo_stops_at_the_puzzles_start(client):
    record = finish(start(client, "dam"))
    index = _puzzle_index(client, record)
    client.post(url(record, "puzzle"), {"move": index})
    puzzle = PracticeGame.objects.get(puzzle_of=record)
    with pytest.raises(Refusal):
        P.undo(puzzle, puzzle.version)
    assert 'id="undo"' not in client.get(url(puzzle)).content.decode()


def test_a_finished_puzzle_offers_no_next_deal(client):
    record = finish(start(client, "dam"))
    index = _puzzle_index(client, record)
    client.post(url(record, "puzzle"), {"move": index})
    puzzle = finish(PracticeGame.objects.get(puzzle_of=record))
    assert not P.can_deal_again(puzzle)


def test_review_of_another_session_is_not_found(client):
    from django.test import Client

    record = finish(start(client, "dam"))
    assert Client().get(url(record, "review")).status_code == 404
    assert Client().post(url(record, "puzzle"), {"move": 0}).status_code in (403, 404)


def _estimates(playouts: int, behind: float = 0.1, se: float = 0.01):
    from rules.engine.bots.strong import Estimate

    return [Estimate(("take", 0), 0.2, playouts, 0.0, 0.0),
            Estimate(("done", 0), 0.3, playouts, behind, se)]


def test_hint_figure_needs_enough_playouts():
    names = ["Me", "Anna", "Bo", "Cilla"]
    least = P.FIGURE_MIN_PLAYOUTS
    assert adapter("dam").hint_figure(_estimates(least - 1), least, names) == ""
    text = adapter("dam").hint_figure(_estimates(least), least, names)
    assert f"{least} simulated" in text


@pytest.mark.parametrize(("behind", "se", "words"), [
    (0.2, 0.01, "clear"), (0.02, 0.015, "probably"), (0.01, 0.02, "about equally good")])
def test_hint_figure_says_how_sure_it_is_in_words(behind, se, words):
    text = adapter("dam").hint_figure(_estimates(300, behind, se), 200, ["Me", "A", "B"])
    assert words in text


@pytest.mark.parametrize("game", GAMES)
def test_hint_leads_with_a_reason_in_words_then_the_move(client, game):
    record = start(client, game)
    from .helpers import bots_until_human

    bots_until_human(client, record)
    html = client.get(url(record) + "?hint=1").content.decode()
    section = html[html.index('class="practice-hint"'):]
    assert section.index("practice-hint__reason") < section.index("practice-hint__move")
    reason = re.search(r'practice-hint__reason">([^<]+)<', section).group(1)
    assert len(reason.split()) >= 5
    assert "practice-hint__figure" not in section  # 16 playouts: no figure


@pytest.mark.django_db(transaction=True)
def test_a_second_review_while_one_runs_analyses_nothing_again(monkeypatch):
    """Two workers (a task enqueued again) reviewing the same deal: the second answers with
    the progress so far instead of analysing the same decisions a second time."""
    record = finish(start(Client(), "dam"))
    analysed: list[int] = []
    busy, other_done = threading.Event(), threading.Event()
    review_one = P._review_one

    def counted(rec, frames, index):
        analysed.append(index)
        if not busy.is_set():
            busy.set()
            other_done.wait(10)
        return review_one(rec, frames, index)

    monkeypatch.setattr(P, "_review_one", counted)

    def first_worker() -> None:
        try:
            P.review_step(PracticeGame.objects.get(pk=record.pk))
        finally:
            connections.close_all()

    worker = threading.Thread(target=first_worker)
    worker.start()
    assert busy.wait(10)
    second = P.review_step(PracticeGame.objects.get(pk=record.pk))
    other_done.set()
    worker.join(30)
    assert analysed[0] not in analysed[1:]  # nobody analysed it twice
    assert not second["done"]
    third = P.review_progress(PracticeGame.objects.get(pk=record.pk))
    assert third["done"] and third["analysed"] == len(set(analysed))
