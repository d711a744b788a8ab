"""Live classroom sessions: codes, the presentations behind them (scenarios and tutorials),
questions and answers."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse
from django.utils import timezone, translation

from games import cardnames
from live import service as S
from live.models import LiveAnswer, LiveSession
from rules.engine import cards as C
from teacher import service as TS
from tests.pages import LANGUAGES
from tutorials import lessons
from web.errors import Refusal

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
CARD = re.compile(r'data-card="([2-9TJQKA][CDHS])"')


@pytest.fixture
def scenario_code():
    text = (ROOT / "rules" / "scenarios" / "dam" / "anna-bo-cilla.json").read_text()
    return TS.import_text(SessionStore(), text).code


def first_decision(pres) -> int:
    """The first step shown before a move (the file starts with a narrated check)."""
    return next(n for n in range(pres.first, pres.last + 1) if pres.decision(n) is not None)


def test_a_new_code_is_six_characters_of_the_alphabet():
    codes = {S.new_code() for _ in range(200)}
    assert all(len(c) == 6 and set(c) <= set(S.ALPHABET) for c in codes)
    assert len(codes) == 200


@pytest.mark.parametrize(("typed", "code"), [("k7m 4qp", "K7M4QP"), ("K7M-4QP", "K7M4QP"),
                                             ("K7M4Q", ""), ("K7M4Q0", ""), ("", "")])
def test_a_typed_code_is_read_in_any_case_with_separators(typed, code):
    assert S.normalise_code(typed) == code


def test_a_session_lasts_at_most_its_hours(settings):
    settings.LIVE_HOURS = 2
    obj = S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 1, None)
    assert obj.expires - obj.created <= timedelta(hours=2, seconds=1)
    LiveSession.objects.filter(pk=obj.pk).update(expires=timezone.now())
    assert S.active(obj.code) is None


def test_a_scenario_session_asks_at_the_step_before_a_move(scenario_code):
    pres = S.presentation("scenario", scenario_code)
    n = first_decision(pres)
    obj = S.start(SessionStore(), "scenario", scenario_code, n, None)
    dec = pres.decision(n)
    assert dec.move.startswith("Anna attack")
    with translation.override("en"):
        q = S.question(pres, n, None)
    assert q.mover == "Anna" and q.lesson in {o.key for o in q.options}
    assert S.open_question(obj).question_state == LiveSession.OPEN


def test_the_options_are_the_movers_legal_moves_only(scenario_code):
    pres = S.presentation("scenario", scenario_code)
    n = first_decision(pres)
    dec = pres.decision(n)
    q = S.question(pres, n, None)
    legal = [a for a in dec.state.legal_actions() if a[1] == dec.mover]
    assert len(q.options) == len(legal)


def test_a_question_with_one_answer_is_refused_and_the_projector_says_why(client):
    """Bo's only move at step 3 of the endgame lesson: a poll would offer one answer."""
    pres = S.presentation("tutorial", "dam/endgame")
    dec = pres.decision(3)
    assert len([a for a in dec.state.legal_actions() if a[1] == dec.mover]) == 1
    with translation.override("en"), pytest.raises(Refusal) as refused:
        S.question(pres, 3, None)
    assert "has only one move here" in str(refused.value)
    with translation.override("en"):
        r = client.post(reverse("live_start"), {"kind": "tutorial", "ref": "dam/endgame",
                                                "step": 3})
        projector = client.get(r["Location"]).content.decode()
    assert 'id="live-ask"' not in projector
    assert "has only one move here" in projector


def test_a_question_in_a_view_that_hides_the_movers_hand_is_refused(scenario_code):
    pres = S.presentation("scenario", scenario_code)
    n = first_decision(pres)
    with pytest.raises(Refusal):
        S.question(pres, n, 1)  # Bo's view; Anna attacks
    assert S.question(pres, n, 0).mover == "Anna"  # Anna's own view


def test_in_a_seat_view_the_teachers_narration_is_no_reason(scenario_code):
    pres = S.presentation("scenario", scenario_code)
    n = first_decision(pres)
    assert S.question(pres, n, None).reason  # the file narrates its moves
    assert S.question(pres, n, 0).reason == ""


def test_answers_are_one_per_student_and_question():
    obj = S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 3, None)
    obj = S.open_question(obj)
    S.join(SessionStore(), obj.code, "")
    student = obj.students.get()
    for choice in ("take", "take", "beat 5C 8C"):
        S.answer(obj, student, obj.question, choice)
    assert list(LiveAnswer.objects.values_list("choice", flat=True)) == ["beat 5C 8C"]


def test_a_new_question_starts_with_no_answers():
    obj = S.open_question(S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 3, None))
    S.join(SessionStore(), obj.code, "")
    S.answer(obj, obj.students.get(), obj.question, "take")
    obj = S.open_question(S.close_question(obj))
    assert S.snapshot(obj)["answers"] == {}
    assert S.panel_context(obj)["answered"] == 0


def test_stepping_closes_the_question():
    obj = S.open_question(S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 3, None))
    obj = S.goto(obj, 4, None)
    assert obj.question_state == LiveSession.NO_QUESTION


def test_every_change_raises_the_version():
    obj = S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 3, None)
    versions = [obj.version]
    for change in (lambda o: S.goto(o, 3, 1), S.open_question, S.reveal, S.close_question,
                   S.end):
        obj = change(obj)
        versions.append(obj.version)
    assert versions == sorted(set(versions))


def test_the_same_step_again_changes_nothing():
    obj = S.start(SessionStore(), "tutorial", "dam/anna-bo-cilla", 3, None)
    assert S.goto(obj, 3, None).version == obj.version


def test_in_a_seat_view_a_lessons_explanation_is_no_reason_either():
    pres = S.presentation("tutorial", "dam/anna-bo-cilla")
    assert S.question(pres, 3, None).reason
    assert S.question(pres, 3, 1).reason == ""


def test_go_live_on_the_presenter_names_the_step_shown_after_next(client):
    from django.urls import reverse

    with translation.override("en"):
        path = reverse("tutorial_present", kwargs={"game": "dam", "slug": "anna-bo-cilla",
                                                   "step": 3})
    html = client.get(path + "?seat=1", HTTP_HX_REQUEST="true").content.decode()
    form = html[html.index('id="present-live"'):]
    form = form[:form.index("</form>")]
    assert 'data-hx-swap-oob="true"' in form
    assert 'name="step" value="3"' in form and 'name="seat" value="1"' in form


# --------------------------------------------------------------------------- the lesson's move
def _presentations():
    """Every tutorial, and every shipped scenario file as a teacher scenario."""
    out = [("tutorial", f"{t.game}/{t.slug}") for ts in lessons.BY_GAME.values() for t in ts]
    for path in sorted((ROOT / "rules" / "scenarios").glob("*/*.json")):
        out.append(("scenario", TS.import_text(SessionStore(), path.read_text()).code))
    return out


def _revealed(kind: str, ref: str, step: int) -> str:
    """What a phone shows once the teacher has shown the lesson's move (all hands open)."""
    from live.render import render_follow

    snap = {"code": "ABCDEF", "v": 1, "kind": kind, "ref": ref, "step": step, "seat": None,
            "q": 1, "qs": LiveSession.REVEALED, "running": True, "expires": 0, "answers": {}}
    return render_follow(S.follow_context(snap, None), "/answer/")


def test_the_scoring_lessons_first_move_does_not_name_the_card_it_draws():
    """Dam med dolda kort, "The end of the deal": Anna is about to draw from the face-down
    stock, so nobody may hear which card she will draw (the next step's text names it)."""
    pres = S.presentation("tutorial", "dolda/scoring")
    for language in LANGUAGES:
        with translation.override(language):
            nine = cardnames.card_name(C.parse("9D"), "dolda")
            q = S.question(pres, 1, None)
            html = _revealed("tutorial", "dolda/scoring", 1)
            assert nine not in q.reason and nine not in q.label(q.lesson)
            assert "live-lesson" in html and nine not in html.lower(), language


def test_neither_the_projector_nor_a_phone_names_the_card_drawn_from_the_stock():
    from django.test import Client

    from tests.hardening.test_live import control, join, url

    teacher, student = Client(), Client()
    r = teacher.post(url("live_start"), {"kind": "tutorial", "ref": "dolda/scoring", "step": 1})
    code = r["Location"].rstrip("/").split("/")[-2]
    join(student, code)
    control(teacher, code, action="open")
    control(teacher, code, action="reveal")
    assert LiveSession.objects.get().question_state == LiveSession.REVEALED
    for html in (teacher.get(url("live_projector", args=[code])).content.decode(),
                 student.get(url("live_now", args=[code])).content.decode()):
        assert "live-lesson" in html and "Draw from the stock." in html
        assert "nine of diamonds" not in html


def test_the_lessons_move_and_its_reason_name_only_cards_the_table_shows():
    """Every question of every tutorial and shipped scenario, revealed with every hand open:
    a card the reason or the move names is one the table shows face up."""
    found = []
    for kind, ref in _presentations():
        pres = S.presentation(kind, ref)
        for step in range(pres.first, pres.last + 1):
            try:
                S.question(pres, step, None)
            except Refusal:
                continue
            for language in LANGUAGES:
                with translation.override(language):
                    html = _revealed(kind, ref, step)
                    shown = set(CARD.findall(html))
                    told = " ".join(re.findall(r'class="live-(?:lesson|reason)">([^<]*)', html))
                    for card in range(52):
                        name = cardnames.card_name(card, pres.game)
                        if name.lower() in told.lower() and C.code(card) not in shown:
                            found.append((ref, step, language, name))
    assert not found, "\n".join(map(str, found))
