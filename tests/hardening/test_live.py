"""The live classroom's endpoints under attack (issue #19): made-up and ended codes, another
session's students and teachers, hidden cards, double and late answers, and the join limit."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from live import service as S
from live.models import LiveAnswer, LiveSession
from rules.engine import cards as C
from tests.pages import LANGUAGES
from tutorials.lessons import replay

pytestmark = pytest.mark.django_db
GAME, SLUG = "dam", "anna-bo-cilla"
ASK_STEP = 3  # Bo's "your move": beat the five of clubs
CARD = re.compile(r'data-card="([2-9TJQKA][CDHS])"')


def url(name, language="en", **kwargs):
    with translation.override(language):
        return reverse(name, **kwargs)


def go_live(client: Client, step: int = 1, seat: int | None = None) -> str:
    data = {"kind": "tutorial", "ref": f"{GAME}/{SLUG}", "step": step}
    if seat is not None:
        data["seat"] = seat
    r = client.post(url("live_start"), data)
    assert r.status_code == 303
    return r["Location"].rstrip("/").split("/")[-2]


def join(client: Client, code: str, language: str = "en", name: str = "") -> None:
    r = client.post(url("live_join", language), {"code": code, "name": name})
    assert r.status_code == 303, r.content.decode()[:300]


def control(client: Client, code: str, **data):
    return client.post(url("live_control", args=[code]), data)


def first_event(client: Client, code: str, language: str = "en") -> str:
    response = client.get(url("live_stream", args=[code, language]))
    assert response.status_code == 200
    chunks = iter(response.streaming_content)
    next(chunks)  # retry:
    text = next(chunks).decode()
    response.close()
    return text


def first_event_elsewhere(client: Client, code: str, language: str = "en") -> str:
    """``first_event`` in a thread of its own, for a transactional test that goes on using
    the database: leaving a stream early closes PostgreSQL's connection of the thread that
    read it, and a Playwright test run earlier in the worker leaves an event loop running in
    this thread, where the async stream view cannot be called from sync code."""
    out: dict[str, object] = {}

    def read() -> None:
        try:
            out["text"] = first_event(client, code, language)
        except BaseException as exc:  # reported in the test's thread
            out["error"] = exc
        finally:
            connections.close_all()

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(30)
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return str(out["text"])


@pytest.fixture
def teacher():
    return Client()


@pytest.fixture
def student():
    return Client()


# --------------------------------------------------------------------------- codes
@pytest.mark.parametrize("code", ["ZZZZZZ", "abc", "K7M4QP" * 3, "ÄÄÄÄÄÄ", "00000O", "-"])
def test_a_made_up_code_is_refused_to_join_with_a_clear_404(student, code):
    r = student.post(url("live_join"), {"code": code})
    assert r.status_code in (400, 404)
    assert "live-message--error" in r.content.decode()
    assert LiveSession.objects.count() == 0


def test_codes_are_six_unambiguous_characters_and_typed_in_any_case(teacher, student):
    code = go_live(teacher)
    assert len(code) == 6 and set(code) <= set(S.ALPHABET)
    assert not set(code) & set("01OIL")
    join(student, f" {code[:3].lower()}-{code[3:]} ")
    assert S.student_of(student.session, LiveSession.objects.get()) is not None


def test_an_unknown_code_and_an_unjoined_session_answer_alike(teacher, student):
    code = go_live(teacher)
    for c in (code, "ZZZZZZ"):
        stream = student.get(url("live_stream", args=[c, "en"]))
        assert stream.status_code == 404
        assert student.get(url("live_now", args=[c])).status_code == 404
        assert student.post(url("live_answer", args=[c]), {"question": 1,
                                                            "choice": "take"}).status_code == 404
        assert student.get(url("live_projector", args=[c])).status_code == 404
    assert stream.content.decode() == str(S.NO_SESSION)


def test_an_ended_session_cannot_be_joined_and_its_streams_stop(teacher, student):
    code = go_live(teacher)
    join(student, code)
    control(teacher, code, action="end")
    assert student.post(url("live_join"), {"code": code}).status_code == 404
    stranger = Client()
    assert stranger.get(url("live_stream", args=[code, "en"])).status_code == 404
    assert stranger.get(url("live_now", args=[code])).status_code == 404


def test_a_phone_that_missed_the_end_is_told_on_reconnecting_and_waits_an_hour(teacher, student):
    """A phone offline when the teacher ended the session reconnects (or catches up) later:
    it gets the ended notice, not a 404 it would ignore, and no more than once an hour."""
    code = go_live(teacher)
    join(student, code, "fi")
    control(teacher, code, action="end")
    response = student.get(url("live_stream", args=[code, "fi"]))
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode()
    assert "retry: 3600000" in body and 'class="live-ended"' in body
    with translation.override("fi"):
        from live.stream import _ended
        assert _ended("fi") in body
    now = student.get(url("live_now", args=[code]))
    assert now.status_code == 200 and 'class="live-ended"' in now.content.decode()


def test_a_session_ends_by_itself_after_its_hours(teacher, student):
    code = go_live(teacher)
    LiveSession.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert student.post(url("live_join"), {"code": code}).status_code == 404
    assert control(teacher, code, action="next").status_code == 410


@override_settings(LIVE_JOIN_FAILURES="10/m")
def test_wrong_codes_are_limited_per_address(student):
    cache.clear()
    statuses = [student.post(url("live_join"), {"code": "ZZZZZZ"}).status_code
                for _ in range(11)]
    refused = student.post(url("live_join"), {"code": "ZZZZZZ"})
    cache.clear()
    assert statuses[:10] == [404] * 10
    assert statuses[10] == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many wrong codes" in refused.content.decode()


@override_settings(LIVE_JOIN_FAILURES="10/m")
def test_a_whole_class_behind_one_address_can_join(teacher):
    cache.clear()
    code = go_live(teacher)
    statuses = [Client().post(url("live_join"), {"code": code}).status_code for _ in range(35)]
    cache.clear()
    assert statuses == [303] * 35


def test_the_base_settings_limit_wrong_codes_and_going_live():
    from dam_site.settings import base
    from web.ratelimit import limit_for

    assert base.LIVE_JOIN_FAILURES
    with override_settings(RATE_LIMITS=base.RATE_LIMITS):
        assert limit_for("live_start") is not None


# --------------------------------------------------------------------------- foreign sessions
def test_students_cannot_steer_or_see_the_teachers_controls(teacher, student):
    code = go_live(teacher)
    join(student, code)
    before = LiveSession.objects.get().version
    for action in ("next", "open", "end", "names_on"):
        assert control(student, code, action=action).status_code == 404
    assert student.get(url("live_projector", args=[code])).status_code == 404
    assert student.get(url("live_stream_teacher", args=[code, "en"])).status_code == 404
    assert LiveSession.objects.get().version == before


def test_a_student_of_one_session_is_a_stranger_to_another(teacher, student):
    mine, other = go_live(teacher), go_live(Client())
    join(student, mine)
    assert student.get(url("live_now", args=[other])).status_code == 404
    assert student.get(url("live_stream", args=[other, "en"])).status_code == 404
    r = student.get(url("live_follow", args=[other]))
    assert r.status_code == 302 and "join" in r["Location"]


def test_one_teacher_cannot_control_another_teachers_session(teacher):
    other = go_live(Client())
    go_live(teacher)
    assert control(teacher, other, action="next").status_code == 404


# --------------------------------------------------------------------------- hidden cards
def _seat_cards(step: int, seat: int) -> set[str]:
    """The cards a seat's presenter view shows at a tutorial step: its hand, the table."""
    from tutorials import lessons

    lesson = lessons.get(GAME, SLUG).steps[step - 1]
    rp = replay(GAME, SLUG)
    state = rp.states[lesson.at - 1 if lesson.your_move else lesson.at]
    view = state.view(seat)
    shown = set(view["hand"]) | set(view["table"]) | {c for p in view["beaten"] for c in p}
    if view.get("turned_in_stock") and view.get("turned") is not None:
        shown.add(view["turned"])
    return {C.code(c) for c in shown}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_in_one_seats_view_no_response_holds_another_hand(teacher, student, language):
    code = go_live(teacher, step=1, seat=1)
    join(student, code, language)
    for step in range(1, 7):
        control(teacher, code, action="goto", step=step)
        allowed = _seat_cards(step, 1)
        for html in (student.get(url("live_now", language, args=[code])).content.decode(),
                     student.get(url("live_follow", language, args=[code])).content.decode(),
                     first_event_elsewhere(student, code, language)):
            shown = set(CARD.findall(html))
            assert shown and shown <= allowed, step


def test_a_question_naming_hidden_cards_is_refused(teacher, student):
    code = go_live(teacher, step=ASK_STEP, seat=0)  # Anna's view; Bo moves
    join(student, code)
    r = control(teacher, code, action="open")
    assert r.status_code == 409
    assert LiveSession.objects.get().question_state == ""
    assert "live-question" not in student.get(url("live_now", args=[code])).content.decode()


def test_the_lessons_move_is_not_told_before_the_teacher_shows_it(teacher, student):
    code = go_live(teacher, step=ASK_STEP)
    join(student, code)
    lesson = "Beat the five of clubs with the eight of clubs"
    for action in ("next", "back", "open"):  # before the question, and while it is open
        control(teacher, code, action=action)
        if LiveSession.objects.get().step != ASK_STEP:
            continue
        for html in (student.get(url("live_now", args=[code])).content.decode(),
                     teacher.get(url("live_projector", args=[code])).content.decode()):
            assert "present-note" not in html, action  # "Next move: Bo: Beat five …"
            assert "live-lesson" not in html and "live-bar--lesson" not in html
    control(teacher, code, action="reveal")
    html = student.get(url("live_now", args=[code])).content.decode()
    assert "present-note" in html and lesson in html.split('class="live-lesson"')[1]


# --------------------------------------------------------------------------- answers
def _open(teacher, student) -> tuple[str, int]:
    code = go_live(teacher, step=ASK_STEP)
    join(student, code)
    control(teacher, code, action="open")
    return code, LiveSession.objects.get().question


def test_a_double_answer_counts_once(teacher, student):
    code, number = _open(teacher, student)
    for _ in range(3):
        r = student.post(url("live_answer", args=[code]), {"question": number,
                                                           "choice": "beat 5C 8C"})
        assert r.status_code == 303
    assert LiveAnswer.objects.count() == 1
    panel = teacher.get(url("live_projector", args=[code])).content.decode()
    assert 'data-answered="1"' in panel


def test_a_changed_answer_replaces_the_first(teacher, student):
    code, number = _open(teacher, student)
    for choice in ("take", "beat 5C 8C"):
        student.post(url("live_answer", args=[code]), {"question": number, "choice": choice})
    assert list(LiveAnswer.objects.values_list("choice", flat=True)) == ["beat 5C 8C"]


@pytest.mark.parametrize("choice", ["beat 5C QS", "attack 5C", "Bo beat 5C 8C", "", "\x00",
                                    "take " * 50, "beat 9C 8C"])
def test_only_the_moves_offered_are_accepted(teacher, student, choice):
    code, number = _open(teacher, student)
    r = student.post(url("live_answer", args=[code]), {"question": number, "choice": choice})
    assert r.status_code == 400
    assert LiveAnswer.objects.count() == 0


@pytest.mark.parametrize("number", [0, 2, 999, -1, 2**40])
def test_an_answer_to_another_question_is_not_counted(teacher, student, number):
    code, _number = _open(teacher, student)
    r = student.post(url("live_answer", args=[code]), {"question": number, "choice": "take"})
    assert r.status_code in (400, 409)
    assert LiveAnswer.objects.count() == 0


def test_an_answer_after_the_reveal_is_not_counted(teacher, student):
    code, number = _open(teacher, student)
    control(teacher, code, action="reveal")
    r = student.post(url("live_answer", args=[code]), {"question": number, "choice": "take"})
    assert r.status_code == 409
    assert LiveAnswer.objects.count() == 0


def test_the_reveal_tells_each_student_whether_they_were_right(teacher, student):
    code, number = _open(teacher, student)
    wrong = Client()
    join(wrong, code)
    student.post(url("live_answer", args=[code]), {"question": number, "choice": "beat 5C 8C"})
    wrong.post(url("live_answer", args=[code]), {"question": number, "choice": "take"})
    control(teacher, code, action="reveal")
    assert "live-result--right" in student.get(url("live_now", args=[code])).content.decode()
    assert "live-result--wrong" in wrong.get(url("live_now", args=[code])).content.decode()
    assert "live-result--right" in first_event(student, code)


def test_names_appear_on_the_chart_only_when_the_teacher_shows_them(teacher, student):
    code = go_live(teacher, step=ASK_STEP)
    join(student, code, name="Sara")
    control(teacher, code, action="open")
    student.post(url("live_answer", args=[code]), {"question": 1, "choice": "take"})
    assert "Sara" not in teacher.get(url("live_projector", args=[code])).content.decode()
    control(teacher, code, action="names_on")
    assert "Sara" in teacher.get(url("live_projector", args=[code])).content.decode()


@pytest.mark.parametrize("data", [{"action": "goto", "step": 99}, {"action": "goto", "seat": "7"},
                                  {"action": "fly"}, {"action": "reveal"},
                                  {"action": "goto", "step": "x"}])
def test_bad_controls_are_refused_with_a_message_and_change_nothing(teacher, data):
    code = go_live(teacher)
    before = LiveSession.objects.get().version
    r = control(teacher, code, **data)
    assert 400 <= r.status_code < 500
    assert "live-message--error" in r.content.decode()
    assert LiveSession.objects.get().version == before


@pytest.mark.parametrize("data", [{"kind": "tutorial", "ref": "dam/nope", "step": 1},
                                  {"kind": "scenario", "ref": "zzzz", "step": 0},
                                  {"kind": "game", "ref": "x", "step": 0},
                                  {"kind": "tutorial", "ref": "dam/anna-bo-cilla"}])
def test_going_live_with_no_presentation_is_refused(teacher, data):
    r = teacher.post(url("live_start"), data)
    assert r.status_code == 404
    assert LiveSession.objects.count() == 0
