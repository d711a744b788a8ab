"""Create-once in practice (issue #21, items 2 and 3): a "Next deal" or "Make a replay link"
sent twice at the same instant makes one thing, and both requests answer with it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from practice import service as P
from practice.models import PracticeGame
from tests.practice.helpers import start

pytestmark = pytest.mark.django_db(transaction=True)


def _finished(client) -> PracticeGame:
    record = start(client, "dam")
    state = P.load(record).state
    while not state.over:  # every seat played by the easy bot, through the service
        seat = state.to_move
        P._append(record, record.version, P.load(record), seat,
                  P.make_bot(record, seat).act(state, seat))
        state = P.load(record).state
    record.refresh_from_db()
    return record


def _at_once(client, url: str, data: dict) -> list[tuple[int, str]]:
    barrier = threading.Barrier(2)
    results: list[tuple[int, str]] = []

    def send():
        other = Client()
        other.cookies = client.cookies
        try:
            barrier.wait()
            r = other.post(url, data)
            results.append((r.status_code, r.get("Location", "")))
        except Exception as exc:  # reported by the assertions
            results.append((0, repr(exc)))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (SQLite serialises the test database's writers)")


def test_two_next_deals_at_once_make_one_deal(client, postgres):
    for _round in range(10):
        record = _finished(client)
        url = reverse("practice_dam_next", args=[record.pk])
        results = _at_once(client, url, {"version": record.version})
        assert [status for status, _ in results] == [302, 302], results
        assert results[0][1] == results[1][1]
        assert PracticeGame.objects.filter(series=record.series, deal_number=2).count() == 1


def test_two_replay_links_at_once_make_one_token(client, postgres):
    for _round in range(4):
        record = start(client, "dam")
        results = _at_once(client, reverse("practice_dam_share", args=[record.pk]), {})
        assert all(status == 302 for status, _ in results), results
        token = PracticeGame.objects.get(pk=record.pk).share_token
        assert token is not None
        assert client.get(reverse("practice_dam_replay", args=[token])).status_code == 200


def test_two_share_calls_at_once_hand_out_the_same_token(client, postgres):
    for _round in range(4):
        record = start(client, "dam")
        barrier = threading.Barrier(2)
        tokens = []

        def make(pk=record.pk, barrier=barrier, tokens=tokens):
            stale = PracticeGame.objects.get(pk=pk)  # both read it without a token
            barrier.wait()
            tokens.append(P.share(stale))
            connections.close_all()

        threads = [threading.Thread(target=make) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(tokens) == 2 and tokens[0] == tokens[1]
        assert PracticeGame.objects.get(pk=record.pk).share_token == tokens[0]
