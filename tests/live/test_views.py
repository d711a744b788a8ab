"""The live classroom's pages: joining, the teacher's controls and the answers, as the phones
and the projector send them (the attacks on them are in tests/hardening/test_live.py)."""

from __future__ import annotations

import re
import threading
from http.cookies import SimpleCookie

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

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


# --------------------------------------------------------------------------- asking
ASKED = re.compile(r'name="question" value="([0-9]+)"')


def test_the_same_ask_sent_again_opens_no_second_question(teacher, student):
    """A double click's second request, or the form sent again later, carries the question
    number the page showed when it was pressed."""
    code = go_live(teacher, step=ASK_STEP)
    join(student, code)
    control(teacher, code, action="open", question=0)
    control(teacher, code, action="reveal")
    control(teacher, code, action="open", question=0)
    obj = LiveSession.objects.get()
    assert (obj.question, obj.question_state) == (1, "revealed")
    control(teacher, code, action="close")
    page = teacher.get(url("live_projector", args=[code])).content.decode()
    controls = page.split('class="live-question-controls"')[1].split("</form>")[0]
    match = ASKED.search(controls)
    assert match and match.group(1) == "1"
    control(teacher, code, action="open", question=1)  # asked again on purpose
    assert LiveSession.objects.get().question == 2


@pytest.mark.django_db(transaction=True)
def test_two_asks_at_once_open_one_question(monkeypatch):
    """Both requests read the session before either opens the question."""
    if connections["default"].vendor != "postgresql":
        # The in-memory test database's shared cache answers a second writer "table is
        # locked" at once instead of waiting (a file database, as `make run` uses, waits).
        pytest.skip("needs PostgreSQL (SQLite serialises the test database's writers)")
    teacher, student = Client(), Client()
    code = go_live(teacher, step=ASK_STEP)
    join(student, code)
    arrived = threading.Barrier(2, timeout=10)
    first = threading.local()
    asked = S.question

    def question_together(*args, **kwargs):
        if not getattr(first, "done", False):
            first.done = True
            arrived.wait()
        return asked(*args, **kwargs)

    monkeypatch.setattr(S, "question", question_together)
    statuses: list[int] = []

    def ask() -> None:
        browser = Client()
        browser.cookies = SimpleCookie(teacher.cookies.output(header=""))
        try:
            statuses.append(control(browser, code, action="open", question=0).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    monkeypatch.undo()
    assert statuses == [303, 303]
    assert LiveSession.objects.get().question == 1
    r = student.post(url("live_answer", args=[code]), {"question": 1, "choice": "take"})
    assert r.status_code == 303 and LiveAnswer.objects.count() == 1


# --------------------------------------------------------------------------- double submits
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def form_token(client: Client, path: str, after: str = "") -> str:
    """The CSRF token of the form a page shows (after ``after`` in its markup): masked anew
    for each page, it is what a form sent twice sends twice."""
    html = client.get(path).content.decode()
    return CSRF.search(html[html.index(after):] if after else html).group(1)


def test_go_live_sent_twice_starts_one_session(teacher):
    with translation.override("en"):
        present = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla",
                                                       "step": 1})
    data = {"kind": "tutorial", "ref": "dam/anna-bo-cilla", "step": 1,
            "csrfmiddlewaretoken": form_token(teacher, present, 'id="present-live"')}
    first = teacher.post(url("live_start"), data)
    second = teacher.post(url("live_start"), data)
    assert first.status_code == second.status_code == 303
    assert first["Location"] == second["Location"]
    assert LiveSession.objects.count() == 1
    assert teacher.get(second["Location"]).status_code == 200


def test_go_live_again_from_a_page_reloaded_starts_another_session(teacher):
    with translation.override("en"):
        present = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla",
                                                       "step": 1})
    for _ in range(2):
        data = {"kind": "tutorial", "ref": "dam/anna-bo-cilla", "step": 1,
                "csrfmiddlewaretoken": form_token(teacher, present, 'id="present-live"')}
        assert teacher.post(url("live_start"), data).status_code == 303
    assert LiveSession.objects.count() == 2


def test_joining_twice_from_one_browser_counts_one_student(teacher, student):
    code = go_live(teacher)
    data = {"code": code, "name": "Sara",
            "csrfmiddlewaretoken": form_token(student, url("live_join"))}
    first = student.post(url("live_join"), data)
    second = student.post(url("live_join"), data)
    assert first.status_code == second.status_code == 303
    assert LiveStudent.objects.count() == 1
    panel = teacher.get(url("live_projector", args=[code])).content.decode()
    assert "1 student has joined." in panel


@pytest.mark.django_db(transaction=True)
def test_a_new_visitors_join_sent_twice_at_once_counts_one_student(monkeypatch):
    """Two sends at once of a browser's first form: two new sessions, one student, and
    whichever answer the browser shows leads to that student's page."""
    teacher = Client()
    code = go_live(teacher)
    token = form_token(Client(), url("live_join"))
    arrived = threading.Barrier(2, timeout=10)
    joining = S.join

    def join_together(*args, **kwargs):
        try:
            arrived.wait(2)  # the second send waits for the first's record instead
        except threading.BrokenBarrierError:
            pass
        return joining(*args, **kwargs)

    monkeypatch.setattr(S, "join", join_together)
    browsers = [Client(), Client()]
    answers: list = [None, None]

    def send(i: int) -> None:
        try:
            answers[i] = browsers[i].post(url("live_join"), {
                "code": code, "csrfmiddlewaretoken": token})
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    monkeypatch.undo()
    assert [a.status_code for a in answers] == [303, 303]
    assert LiveStudent.objects.count() == 1
    for browser, answer in zip(browsers, answers, strict=True):
        assert browser.get(answer["Location"]).status_code == 200


# --------------------------------------------------------------------------- the teacher's click
@pytest.mark.parametrize("action", [{"action": "next"}, {"action": "open", "question": 0},
                                    {"action": "goto", "step": 2, "seat": "0"}])
@pytest.mark.parametrize("htmx", [True, False])
def test_a_control_click_builds_the_presentation_once(teacher, monkeypatch, action, htmx):
    code = go_live(teacher, step=ASK_STEP)
    built = []
    real = S.presentation

    def counted(kind, ref):
        built.append(ref)
        return real(kind, ref)

    monkeypatch.setattr(S, "presentation", counted)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = teacher.post(url("live_control", args=[code]), action, **headers)
    assert r.status_code in (200, 303)
    assert len(built) == 1

# ------------------------------------------------------------------ the lesson's language
def test_the_short_link_keeps_the_phones_language_and_offers_the_others(teacher, student):
    """Issue #38 item 10: an en-US phone in a Finnish class gets the join page in English,
    with a visible switch to each language that keeps the code."""
    with translation.override("fi"):
        r = teacher.post(reverse("live_start"), {"kind": "tutorial", "ref": "dam/aino-eero-maija",
                                                 "step": 3})
    code = r["Location"].rstrip("/").split("/")[-2]
    assert LiveSession.objects.get(code=code).language == "fi"
    r = student.get(f"/j/{code.lower()}/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert r["Location"] == url("live_join", "en") + f"?code={code}"
    html = student.get(r["Location"]).content.decode()
    switch = html[html.index('class="live-languages"'):]
    switch = switch[:switch.index("</nav>")]
    for language in ("sv", "fi", "nb", "en"):
        assert f'href="{url("live_join", language)}?code={code}"' in switch
    assert 'hreflang="en" lang="en" aria-current="true"' in switch
    # The join page names no teacher's language: it does not tell a live code from another.
    assert "presents in" not in html
    wrong = student.get(url("live_join") + "?code=ZZZZZZ").content.decode()
    assert wrong.count("live-languages__lesson") == html.count("live-languages__lesson") == 0


def test_a_student_following_in_another_language_is_told_the_teachers(teacher, student):
    with translation.override("fi"):
        r = teacher.post(reverse("live_start"), {"kind": "tutorial", "ref": "dam/aino-eero-maija",
                                                 "step": 3})
    code = r["Location"].rstrip("/").split("/")[-2]
    join(student, code, "en")
    html = student.get(url("live_follow", args=[code])).content.decode()
    assert "Your teacher presents in Finnish." in html
    assert "switch the language to see them on your phone" in html
    assert (f'<a href="{url("live_follow", "fi", args=[code])}" hreflang="fi" lang="fi" '
            'class="live-languages__lesson">Suomi</a>') in html
    # In the teacher's own language there is nothing to switch to.
    same = student.get(url("live_follow", "fi", args=[code])).content.decode()
    assert "live-languages__lesson" in same
    with translation.override("fi"):
        assert translation.gettext("The buttons your teacher names are the ones on the "
                                   "projector: switch the language to see them on your "
                                   "phone.") not in same
