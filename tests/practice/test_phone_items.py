"""Issue #38 items 5, 6 and 11 through the views: the reasons a tap on a card that makes no
move shows, the news folded to its latest lines, a finished deal's headline and no Undo once
the deal is over (the browser side is tests/browser/test_phone.py)."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.utils import translation

from practice import presenter as V
from practice import service as P
from practice.models import PracticeGame

from .helpers import bots_until_human, post_action, start, state_of, url
from .test_views import _finish

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def why(page: str) -> dict[str, str]:
    game = re.search(r'<div id="game"[^>]*>', page).group(0)
    return {k: htmllib.unescape(v) for k, v in re.findall(r'data-why-(\w+)="([^"]*)"', game)}


@pytest.mark.parametrize("game", GAMES)
def test_the_page_says_why_a_tap_on_a_card_makes_no_move(client, game):
    record = start(client, game)
    bots_until_human(client, record)
    reasons = why(client.get(url(record)).content.decode())
    assert set(reasons) == {"own", "other", "table", "key"}
    assert "%(name)s" in reasons["other"] and "%(key)s" in reasons["key"]
    assert all(text.strip() for text in reasons.values())


def test_dolda_says_swaps_go_into_the_next_place(client):
    record = start(client, "dolda")
    state = bots_until_human(client, record)
    draw = next(a for a in state.legal_actions() if a.kind == "draw")
    post_action(client, record, draw)
    reasons = why(client.get(url(record)).content.decode())
    assert reasons["own"].startswith(
        "Swaps go into your row from left to right: the next place is place 1.")
    assert "Your moves now: " in reasons["own"] and "Swap the card you hold" in reasons["own"]


def test_while_a_bot_is_to_move_every_tap_says_so(client):
    record = start(client, "dam")
    state = state_of(record)
    post_action(client, record, next(iter(state.legal_actions())))
    record.refresh_from_db()
    state = state_of(record)
    assert P.is_bot_turn(record, state)
    reasons = why(client.get(url(record)).content.decode())
    wait = f"{record.names[state.to_move]} is to move now: wait for that move."
    assert set(reasons.values()) == {wait}


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_deal_has_a_headline_with_its_result_and_no_undo(client, game):
    record = start(client, game)
    _finish(client, record)
    page = client.get(url(record)).content.decode()
    head = page[page.index('class="practice-over"'):]
    head = head[:head.index("</section>")]
    assert f"Result of deal {record.deal_number}" in head
    last = P.log_entries(record)[-1]["lines"][-1]
    assert htmllib.escape(last) in head
    assert 'id="undo"' not in page  # nothing left to take back from a finished deal
    assert 'id="next-deal"' in page or 'id="review-link"' in page
    reasons = why(page)
    assert set(reasons.values()) == {"The deal is over; no more moves can be made."}


def test_undo_is_offered_while_the_deal_goes_on(client):
    record = start(client, "dam")
    state = state_of(record)
    post_action(client, record, next(iter(state.legal_actions())))
    assert 'id="undo"' in client.get(url(record)).content.decode()


def test_the_news_folds_all_but_its_latest_lines(client):
    record = start(client, "dolda", players=4)
    state = bots_until_human(client, record)
    while not P.is_bot_turn(record, state):  # the player's turn, to its end
        post_action(client, record, list(state.legal_actions())[-1])
        record.refresh_from_db()
        state = state_of(record)
    bots_until_human(client, record)  # a round of bot moves in the news
    page = client.get(url(record)).content.decode()
    news = page[page.index('id="news"'):]
    news = news[:news.index("</div>")]
    latest = re.findall(r'<p class="practice-news__line">', news.split("</details>")[-1])
    log = P.log_entries(record)
    since = max(i for i, e in enumerate(log) if e["mine"])
    lines = sum(len(e["lines"]) for e in log[since:])
    assert lines > V.NEWS_LINES + 1, "not enough news to fold"
    assert len(latest) == V.NEWS_LINES
    assert f"{lines - V.NEWS_LINES} earlier moves" in news


def test_next_deal_answers_at_once_and_leaves_the_bots_moves_to_the_page(client):
    record = start(client, "dolda", players=4, level="strong")
    _finish(client, record)
    r = client.post(url(record, "next"), {"version": record.version})
    assert r.status_code == 302
    new = PracticeGame.objects.get(series=record.series, deal_number=2)
    assert new.actions == []  # the bots' opening moves play on the page, at the pace
    assert P.is_bot_turn(new, state_of(new))
    page = client.get(r["Location"]).content.decode()
    assert 'data-fresh-deal="true"' in page
    assert 'data-hx-trigger="dealt delay:' in page  # the first step waits for the deal
