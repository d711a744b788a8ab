"""The live classroom's pages: joining, the teacher's controls and the answers, as the phones
and the projector send them (the attacks on them are in tests/hardening/test_live.py)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client, override_settings

from live import service as S
from live.models import LiveAnswer, LiveSession, LiveStudent
from tests.hardening.test_live import ASK_STEP, control, go_live, join, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher():
    return Client()


@pytest.fixture
def student():
    return Client()


@pytest.mark.parametrize("number", ["\u0661", "\uff11", "\U0001d7cf"])
def test_a_question_number_in_other_than_ascii_digits_is_not_an_answer(teacher, student, number):
    code = go_live(teacher, step=ASK_STEP)
    join(student, code)
    control(teacher, code, action="open")
    assert LiveSession.objects.get().question == 1
    r = student.post(url("live_answer", args=[code]), {"question": number, "choice": "take"})
    assert r.status_code == 400
    assert LiveAnswer.objects.count() == 0


def test_a_seat_in_other_than_ascii_digits_is_refused(teacher):
    code = go_live(teacher)
    before = LiveSession.objects.get()
    r = control(teacher, code, action="goto", seat="\u0661")
    assert r.status_code == 400
    after = LiveSession.objects.get()
    assert (after.seat, after.version) == (before.seat, before.version)


# --------------------------------------------------------------------------- joining
@pytest.fixture
def join_limit():
    cache.clear()
    with override_settings(LIVE_JOIN_FAILURES="10/m"):
        yield
    cache.clear()


def test_a_right_code_is_never_held_back_by_wrong_ones(teacher, student, join_limit):
    """Ten mistyped codes behind a school's one address must not lock out the class."""
    code = go_live(teacher)
    statuses = [student.post(url("live_join"), {"code": "ZZZZZZ"}).status_code
                for _ in range(11)]
    assert statuses == [404] * 10 + [429]
    r = student.post(url("live_join"), {"code": code})
    assert r.status_code == 303
    classmate = Client()
    assert classmate.post(url("live_join"), {"code": code}).status_code == 303
    assert LiveStudent.objects.count() == 2
    assert student.post(url("live_join"), {"code": "ZZZZZZ"}).status_code == 429


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_codes_get_no_more_answers_than_the_limit(join_limit, monkeypatch):
    """Twelve guesses sent at once, all looked up before any is answered: ten are told the
    code is wrong, the other two only to wait."""
    guesses = 12
    arrived = threading.Barrier(guesses, timeout=10)
    looked_up = S.join

    def join_together(*args, **kwargs):
        arrived.wait()
        return looked_up(*args, **kwargs)

    monkeypatch.setattr(S, "join", join_together)
    statuses: list[int] = []

    def guess() -> None:
        try:
            statuses.append(Client().post(url("live_join"), {"code": "ZZZZZZ"}).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess) for _ in range(guesses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(statuses) == [404] * 10 + [429] * 2
