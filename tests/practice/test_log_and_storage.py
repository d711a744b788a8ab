"""The practice page's narration, log and cache (issue #33): each move told once when it is made
and kept; the page shows the latest lines and loads the whole log when asked; the cache holds
what each move adds (linear in the game's length); the series is read once per request."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from practice import service as P
from practice.models import PracticeGame

from .helpers import bots_until_human, play_on, post_action, start, url

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def long_game(client, moves: int) -> PracticeGame:
    """A deal of Dam med dolda kort between two easy players that lasts ``moves`` moves."""
    for _ in range(30):
        record = start(client, "dolda", players=2)
        play_on(record, moves)
        if len(record.actions) == moves:
            return record
    raise AssertionError(f"no deal lasted {moves} moves")


def game_bytes(record: PracticeGame) -> tuple[int, int]:
    """Keys and bytes the cache holds for the game (local memory: pickled values)."""
    mark = f"practice:{record.pk}:"
    found = [(k, v) for k, v in cache._cache.items() if mark in k]
    return len(found), sum(len(k) + len(v) for k, v in found)


def human_and_bots(client, record: PracticeGame, rounds: int) -> None:
    """The player's first legal move, then the bots until the player's turn, ``rounds`` times."""
    for _ in range(rounds):
        state = bots_until_human(client, record)
        record.refresh_from_db()
        post_action(client, record, state.legal_actions()[0])
    bots_until_human(client, record)
    record.refresh_from_db()


def the_log(html: str) -> str:
    return html.split('<ol class="practice-log__list">', 1)[1].split("</ol>", 1)[0]


def news(html: str) -> list[str]:
    part = html.split('id="news"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'<p class="practice-news__line">(.*?)</p>', part)


def test_each_move_is_narrated_once_and_kept(client):
    record = start(client, "dam")
    with mock.patch.object(P, "_narrate", wraps=P._narrate) as told:
        human_and_bots(client, record, 2)
        moves = len(record.actions)
        assert moves > 0 and told.call_count == moves  # once, when made
        for _ in range(2):
            client.get(url(record))
            client.get(url(record, "log"))
            client.get(url(record, "log"), **HX)
        assert told.call_count == moves  # never again
        with translation.override("sv"):
            client.get(url(record, "log"))  # another language: told once more each
            client.get(url(record, "log"))
        assert told.call_count == 2 * moves


def test_a_lost_cache_entry_is_told_again_from_a_replay(client):
    record = start(client, "dam")
    human_and_bots(client, record, 2)
    before = the_log(client.get(url(record, "log")).content.decode())
    cache.clear()
    assert the_log(client.get(url(record, "log")).content.decode()) == before


def test_the_page_shows_the_latest_lines_and_links_the_whole_log(client):
    record = start(client, "dam")
    human_and_bots(client, record, 3)
    html = client.get(url(record)).content.decode()
    log = P.log_entries(record)
    mine = max(i for i, e in enumerate(log) if e["mine"])
    expected = [line for e in log[mine:] for line in e["lines"]]
    assert news(html) == [str(line).replace("'", "&#x27;") for line in expected]
    assert len(log) > len(log[mine:])  # older moves are not in the news
    assert "practice-log__list" not in html  # the log itself is not on the page
    link = re.search(r'<p class="practice-log" id="practice-log" data-moves="(\d+)"><a href="'
                     r'([^"]+)" data-hx-get="([^"]+)" data-hx-target="#practice-log"', html)
    assert link and int(link.group(1)) == len(record.actions) == len(log)
    assert link.group(2) == link.group(3) == url(record, "log")

    whole = client.get(link.group(2)).content.decode()  # without JavaScript: a page
    assert "<!doctype html>" in whole.lower() and f'href="{url(record)}"' in whole
    assert whole.count("<li") - whole.count('<li><a') >= len(log)
    part = client.get(link.group(2), **HX).content.decode()  # htmx: the list in its place
    assert "<html" not in part and part.strip().startswith('<section class="practice-log" '
                                                            'id="practice-log"')
    assert part.count("<li") == len(log)
    for entry in log:
        assert str(entry["lines"][0]).replace("'", "&#x27;") in part


def test_only_the_owner_sees_the_log(client):
    from django.test import Client

    record = start(client, "dam")
    assert Client().get(url(record, "log")).status_code == 404


def test_cache_storage_per_game_grows_linearly(client):
    record = long_game(client, 50)
    keys_50, bytes_50 = game_bytes(record)
    play_on(record, 150)
    assert len(record.actions) == 150, "the deal ended early"
    keys_150, bytes_150 = game_bytes(record)
    # One key per move and one for the position, whatever the length.
    assert (keys_50, keys_150) == (51, 151)
    # Three times the moves, about three times the bytes (quadratic growth would give ~9).
    assert 2.5 < bytes_150 / bytes_50 < 3.5, (bytes_50, bytes_150)


def series_reads(queries) -> list[str]:
    """The queries that read the series' deals."""
    return [q["sql"] for q in queries.captured_queries if '"series" = ' in q["sql"]]


def test_the_page_reads_the_series_once(client, django_assert_num_queries):
    record = start(client, "dam")
    client.get(url(record))
    cache.clear()  # the page is kept per version: rendered afresh here
    with CaptureQueriesContext(connection) as queries:
        client.get(url(record))
    assert len(series_reads(queries)) == 1, series_reads(queries)
    # The session, the page's stamp, the record and the series: nothing more, however long
    # the game.
    cache.clear()
    with django_assert_num_queries(4):
        client.get(url(record))
    play_on(record, 40)
    with django_assert_num_queries(4):
        client.get(url(record))


def test_a_kept_page_reads_only_the_session_and_its_stamp(client, django_assert_num_queries):
    record = start(client, "dam")
    play_on(record, 30)
    first = client.get(url(record)).content.decode()
    with django_assert_num_queries(2):
        again = client.get(url(record)).content.decode()
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    # The same page, but for the CSRF tokens, masked afresh for each response.
    assert csrf.sub("", first) == csrf.sub("", again)
    assert len(csrf.findall(again)) == len(csrf.findall(first)) > 0


def test_a_finished_deal_reads_the_series_once(client, django_assert_num_queries):
    record = start(client, "dam")
    play_on(record, 10_000)
    assert record.result is not None
    html = client.get(url(record)).content.decode()
    assert 'id="next-deal"' in html
    cache.clear()
    with django_assert_num_queries(4):
        client.get(url(record))


def test_the_series_query_leaves_the_moves_in_the_database(client):
    # The page's own record is read whole once; the series is read for its standing only, so
    # that the page's time does not grow with the length of its deals.
    record = long_game(client, 40)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url(record))
    series = series_reads(queries)
    assert len(series) == 1, series
    assert '"actions"' not in series[0] and '"deal"' not in series[0], series[0]
