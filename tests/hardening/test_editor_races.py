"""The teacher editor never loses an update (issue #21, item 3): of two changes made against
the same step count only the first is stored and the second answers 409 "changed meanwhile";
a change made between reading and writing the record is never overwritten."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from teacher import service as S
from teacher.models import TeacherScenario


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def small_dam(client) -> TeacherScenario:
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "Anna Bo Cilla"})
    assert r.status_code == 303
    obj = TeacherScenario.objects.latest("created")
    for target, typed in (("hand:0", "4D 6D 9D KC 3S 8H"), ("hand:1", "7D 2D JS 5C TH AS"),
                          ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")):
        client.post(reverse("scenario_deal", args=[obj.code]),
                    {"action": "assign", "target": target, "typed": typed})
    obj.refresh_from_db()
    return obj


def post_move(client, obj, text, steps, **headers):
    return client.post(reverse("scenario_move", args=[obj.code]),
                       {"move": text, "action": "play", "steps": str(steps)}, **headers)


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_two_different_moves_against_the_same_step_count_store_the_first_only(client, htmx):
    obj = small_dam(client)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    first = post_move(client, obj, "Anna attack 4D 6D 9D", 0, **headers)
    second = post_move(client, obj, "Anna attack KC", 0, **headers)
    assert first.status_code == (200 if htmx else 303)
    if htmx:
        assert "Recorded: Anna attack 4D 6D 9D" in first.content.decode()
    # htmx swaps only 2xx answers: the partial carries the message with 200.
    assert second.status_code == (200 if htmx else 409)
    html = second.content.decode()
    assert "changed since this page was shown" in html and "Recorded:" not in html
    obj.refresh_from_db()
    assert obj.data["steps"] == [{"do": "Anna attack 4D 6D 9D"}]


@pytest.mark.django_db
def test_a_record_changed_between_reading_and_writing_answers_409(client, monkeypatch):
    """The record changes while this request judges its move (where SQLite, which has no row
    lock, lets another writer in): the conditional UPDATE finds it changed and answers 409.
    (The simulated write shares this request's transaction, so it is rolled back with it.)"""
    obj = small_dam(client)
    real_record = S.record

    def meanwhile(data, move):
        real_record(data, move)
        # The other request's write, committed while this one was judging its move.
        TeacherScenario.objects.filter(pk=obj.pk).update(
            data={**obj.data, "steps": [{"do": "Anna attack KC"}]}, updated=timezone.now())

    monkeypatch.setattr(S, "record", meanwhile)
    r = post_move(client, obj, "Anna attack 4D 6D 9D", 0)
    assert r.status_code == 409
    assert "changed since this page was shown" in r.content.decode()
    obj.refresh_from_db()
    assert {"do": "Anna attack 4D 6D 9D"} not in obj.data["steps"]


@pytest.mark.django_db
def test_saving_the_narration_keeps_a_move_recorded_meanwhile(client):
    obj = small_dam(client)
    post_move(client, obj, "Anna attack 4D 6D 9D", 0)
    stale = TeacherScenario.objects.get(pk=obj.pk)
    post_move(client, obj, "Bo beat 4D 7D", 1)  # recorded after the save form was shown
    from teacher import views

    assert not views._store(stale, data=stale.data, title="Old page")
    obj.refresh_from_db()
    assert len(obj.data["steps"]) == 2 and obj.title != "Old page"


@pytest.mark.django_db(transaction=True)
def test_two_moves_sent_at_once_from_threads_store_one(client):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (SQLite serialises the test database's writers)")
    obj = small_dam(client)
    session_cookie = client.cookies
    barrier = threading.Barrier(2)
    results: list[tuple[str, int, str]] = []

    def send(text):
        other = Client()
        other.cookies = session_cookie
        try:
            with translation.override("en"):
                barrier.wait()
                r = post_move(other, obj, text, 0, HTTP_HX_REQUEST="true")
            results.append((text, r.status_code, r.content.decode()))
        except Exception as exc:  # reported by the assertion below
            results.append((text, 0, repr(exc)))
        finally:
            connections.close_all()

    for _round in range(5):
        TeacherScenario.objects.filter(pk=obj.pk).update(data={**obj.data, "steps": []})
        results.clear()
        threads = [threading.Thread(target=send, args=(m,))
                   for m in ("Anna attack 4D 6D 9D", "Anna attack KC")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done = [text for text, _status, html in results if "Recorded:" in html]
        refused = [text for text, _status, html in results
                   if "changed since this page was shown" in html]
        assert len(done) == 1 and len(refused) == 1, results
        stored = TeacherScenario.objects.get(pk=obj.pk).data["steps"]
        assert stored == [{"do": done[0]}]
