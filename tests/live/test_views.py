"""The live classroom's pages: joining, the teacher's controls and the answers, as the phones
and the projector send them (the attacks on them are in tests/hardening/test_live.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from live.models import LiveAnswer, LiveSession
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
