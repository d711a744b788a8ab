"""The game page is kept per version (practice.views.play, web/pagecache.py, issue #33): a
kept page is exactly the page a fresh render gives, after every change it shows: a move, the
replay link, the next deal of the series, the pace, the deck, the language."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from practice import service as P
from practice.models import PracticeGame

from .helpers import play_on, start, url

pytestmark = pytest.mark.django_db
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+"')
HX = {"HTTP_HX_REQUEST": "true"}


def page(client, address: str, **headers) -> str:
    r = client.get(address, **headers)
    assert r.status_code == 200
    return CSRF.sub(r'\1"', r.content.decode())


def fresh(client, address: str, **headers) -> str:
    cache.clear()
    return page(client, address, **headers)


def assert_kept_is_fresh(client, address: str, **headers) -> str:
    kept = page(client, address, **headers)
    assert kept == fresh(client, address, **headers)
    return kept


def test_a_move_shows_at_once(client):
    record = start(client, "dam")
    before = page(client, url(record))
    play_on(record, len(record.actions) + 1)
    after = assert_kept_is_fresh(client, url(record))
    assert after != before
    assert f'data-version="{record.version}"' in after


def test_the_replay_link_shows_at_once(client):
    record = start(client, "dam")
    page(client, url(record))
    client.post(url(record, "share"))
    record.refresh_from_db()
    after = assert_kept_is_fresh(client, url(record))
    assert str(record.share_token) in after


def test_the_next_deal_changes_the_last_ones_page(client):
    record = start(client, "dam")
    play_on(record, 10_000)
    before = page(client, url(record))
    assert 'id="next-deal"' in before
    r = client.post(url(record, "next"), {"version": record.version})
    assert r.status_code == 302
    after = assert_kept_is_fresh(client, url(record))
    assert 'id="next-deal"' not in after  # no longer the series' latest deal


def test_a_later_deals_result_changes_the_earlier_deals_standing(client):
    record = start(client, "dolda")
    play_on(record, 10_000)
    client.post(url(record, "next"), {"version": record.version})
    second = PracticeGame.objects.get(series=record.series, deal_number=2)
    before = page(client, url(record))
    play_on(second, 10_000)
    after = assert_kept_is_fresh(client, url(record))
    assert after != before


def test_the_pace_is_the_visitors(client):
    record = start(client, "dam")
    normal = page(client, url(record))
    client.post(reverse("practice_pace"), {"pace": "slow", "next": url(record)})
    slow = assert_kept_is_fresh(client, url(record))
    assert slow != normal and 'value="slow" selected' in slow


def test_the_deck_and_the_return_address_are_the_requests(client):
    record = start(client, "dam")
    page(client, url(record))
    client.post(reverse("deck_preference"), {"four_colour": "1", "next": url(record)})
    four = page(client, url(record) + "?from=here")
    assert "deck-4" in four
    assert f'name="next" value="{url(record)}?from=here"' in four


def test_each_language_and_the_htmx_part_are_their_own(client):
    record = start(client, "dam")
    pages = {}
    for code in ("sv", "fi", "nb", "en"):
        with translation.override(code):
            address = url(record)
        pages[code] = assert_kept_is_fresh(client, address)
        assert f'lang="{code}"' in pages[code]
    assert len(set(pages.values())) == 4
    part = assert_kept_is_fresh(client, url(record), **HX)
    assert "<html" not in part and 'id="game"' in part


def test_a_hint_page_is_not_kept(client):
    record = start(client, "dam")
    page(client, url(record))
    with_hint = page(client, url(record) + "?hint=1")
    assert 'class="practice-hint' in with_hint
    assert 'class="practice-hint' not in page(client, url(record))


def test_another_browser_gets_no_kept_page(client):
    from django.test import Client

    record = start(client, "dam")
    page(client, url(record))
    other = Client()
    r = other.get(url(record))
    assert r.status_code == 404
    assert f'data-version="{record.version}"' not in r.content.decode()


def test_the_stamp_is_the_series_versions(client):
    record = start(client, "dolda")
    play_on(record, 10_000)
    client.post(url(record, "next"), {"version": record.version})
    client.post(url(record, "share"))
    second = PracticeGame.objects.get(series=record.series, deal_number=2)
    play_on(second, 7)
    record.refresh_from_db()
    stamp = P.page_stamp(record.game, record.pk, record.owner)
    assert stamp == (record.version, record.version + 1 + second.version + 1,
                     str(record.share_token))
    assert P.page_stamp(record.game, record.pk, "someone else") is None
    assert P.page_stamp("dam", record.pk, record.owner) is None
    assert P.page_stamp(record.game, "not-a-uuid", record.owner) is None


def test_a_game_deleted_while_its_page_is_made_is_not_here(client, monkeypatch):
    record = start(client, "dam")
    real = P.page_stamp

    def stamp_then_delete(*args):
        found = real(*args)
        PracticeGame.objects.filter(pk=record.pk).delete()
        return found

    monkeypatch.setattr(P, "page_stamp", stamp_then_delete)
    cache.clear()
    r = client.get(url(record))
    assert r.status_code == 404
