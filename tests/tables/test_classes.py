"""Class tables from a live session and the class summary: the teacher splits the students into
tables that all play the same deal, the projector follows them, and the summary tells how the
class answered the polls; only the teacher sees any of it."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.adapters import adapter
from live.models import LiveQuestion, LiveSession, LiveStudent
from practice import service as P
from rules.engine import cards as CARDS
from tables import classes as C
from tables import service as TS
from tables.models import Table
from tests.hardening.test_live import ASK_STEP, control, go_live, join, url

pytestmark = pytest.mark.django_db
LANGUAGES = ("sv", "fi", "nb", "en")


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield


@pytest.fixture
def teacher():
    return Client()


def students(code: str, names: list[str]) -> list[Client]:
    out = []
    for name in names:
        c = Client()
        join(c, code, name=name)
        out.append(c)
    return out


def split(teacher: Client, code: str, players: int = 3, level: str = "easy", **extra):
    return teacher.post(url("live_class_split", args=[code]),
                        {"players": players, "level": level, **extra})


def split_class(teacher: Client, names: list[str], players: int = 3):
    code = go_live(teacher)
    phones = students(code, names)
    r = split(teacher, code, players)
    assert r.status_code == 303, r.content.decode()[:500]
    return code, phones


def hand(table: Table, seat: int) -> list[int]:
    table.refresh_from_db()
    return list(P.load(table.deal).state.view(seat)["hand"])


# --------------------------------------------------------------------------- splitting
def test_a_split_seats_every_student_and_fills_the_rest_with_bots(teacher):
    split_class(teacher, ["Sara", "Aino", "Ola", "Emma"], players=3)
    tables = list(Table.objects.order_by("class_number"))
    assert [t.class_number for t in tables] == [1, 2]
    seated = sorted(s["name"] for t in tables for s in t.seats if "student" in s)
    assert seated == ["Aino", "Emma", "Ola", "Sara"]
    # Two students and one bot at each table, not three and a lonely one.
    assert [sum("student" in s for s in t.seats) for t in tables] == [2, 2]
    assert all(len(t.deal.names) == 3 for t in tables)


def test_every_class_table_is_dealt_the_same_cards(teacher):
    split_class(teacher, ["Sara", "Aino", "Ola", "Emma", "Per"], players=3)
    tables = list(Table.objects.order_by("class_number"))
    for seat in range(3):
        assert len({tuple(hand(t, seat)) for t in tables}) == 1
    assert len({t.deal.seed for t in tables}) == 1


def test_a_split_sent_twice_makes_one_set_of_tables_and_says_so(teacher):
    code, _phones = split_class(teacher, ["Sara", "Aino"])
    before = list(Table.objects.values_list("pk", flat=True))
    r = split(teacher, code, players=2)
    assert r.status_code == 409
    assert "already split" in r.content.decode()
    assert list(Table.objects.values_list("pk", flat=True)) == before


def test_a_split_without_students_is_refused_and_changes_nothing(teacher):
    code = go_live(teacher)
    r = split(teacher, code)
    assert r.status_code == 409
    assert "No student has joined" in r.content.decode()
    assert LiveSession.objects.get().split is None and not Table.objects.exists()


def test_the_teacher_chooses_the_rule_set_every_class_table_plays(teacher):
    code = go_live(teacher)
    students(code, ["Sara", "Aino", "Ola", "Emma"])
    page = teacher.get(url("live_class_tables", args=[code])).content.decode()
    assert 'name="preset"' in page and "Musta Maija" in page
    r = split(teacher, code, players=2, preset="musta-maija")
    assert r.status_code == 303
    tables = list(Table.objects.all())
    assert len(tables) == 2
    for t in tables:
        assert t.rules == {"preset": "musta-maija"} and t.deal.rules == {"preset": "musta-maija"}
    page = teacher.get(url("live_class_tables", args=[code])).content.decode()
    assert "Every table plays by the rule set Musta Maija (Finnish rules)." in page


def test_a_split_without_a_rule_set_deals_the_usual_rules(teacher):
    split_class(teacher, ["Sara", "Aino"], players=2)
    assert Table.objects.get().rules == {"preset": "svarta-maja"}


def test_a_tampered_rule_set_is_refused_and_changes_nothing(teacher):
    code = go_live(teacher)
    students(code, ["Sara"])
    r = split(teacher, code, preset="hemligt-kort")  # a Dam med dolda kort rule set
    assert r.status_code == 400
    assert "Choose a rule set from the list." in r.content.decode()
    assert LiveSession.objects.get().split is None and not Table.objects.exists()


@pytest.mark.parametrize("players,level", [(7, "easy"), (1, "easy"), ("x", "easy"),
                                           (3, "grandmaster")])
def test_a_tampered_split_form_is_refused_and_changes_nothing(teacher, players, level):
    code = go_live(teacher)
    students(code, ["Sara"])
    r = split(teacher, code, players=players, level=level)
    assert r.status_code == 400
    assert 'role="alert"' in r.content.decode()
    assert LiveSession.objects.get().split is None and not Table.objects.exists()


def test_a_split_of_an_ended_session_is_refused(teacher):
    code = go_live(teacher)
    students(code, ["Sara"])
    control(teacher, code, action="end")
    r = split(teacher, code)
    assert r.status_code in (409, 410)
    assert not Table.objects.exists()


def test_a_student_cannot_split_the_class(teacher):
    code = go_live(teacher)
    (phone,) = students(code, ["Sara"])
    r = split(phone, code)
    assert r.status_code == 403
    assert "Only the teacher" in r.content.decode()
    assert not Table.objects.exists()


def test_a_made_up_code_gets_the_same_refusal_as_a_stranger(teacher):
    code = go_live(teacher)
    stranger = Client()
    real = stranger.get(url("live_class_tables", args=[code]))
    fake = stranger.get(url("live_class_tables", args=["ZZZZZZ"]))
    assert real.status_code == fake.status_code == 403
    said = [re.search(r'<p id="refusal">(.*?)</p>', r.content.decode()).group(1)
            for r in (real, fake)]
    assert said[0] == said[1] and "Only the teacher" in said[0]


@pytest.mark.parametrize("name", ["live_class_tables", "live_class_csv", "live_summary",
                                  "live_summary_csv"])
def test_a_stranger_is_refused_every_teacher_page(teacher, name):
    code = go_live(teacher)
    r = Client().get(url(name, args=[code]))
    assert r.status_code == 403
    assert "Only the teacher" in r.content.decode()


def test_seat_names_are_one_word_and_unique_at_a_table():
    taken: set[str] = set()
    assert C.seat_name("Anna Maria", 1, taken) == "Anna"
    assert C.seat_name("Anna", 2, taken) == "Anna2"
    assert C.seat_name("  <>  ", 3, taken) == "Student3"


# --------------------------------------------------------------------------- the seats
def test_a_student_is_sent_to_the_seat_kept_for_them(teacher):
    code, (sara, aino) = split_class(teacher, ["Sara", "Aino"], players=2)
    r = sara.get(url("live_class_seat", args=[code]))
    assert r.status_code == 303
    table = Table.objects.get()
    assert r["Location"] == reverse("tables_table", args=[table.code])
    page = sara.get(r["Location"]).content.decode()
    assert re.search(r'tables-seat--you[^"]*"><strong>Sara<', page)


def test_taking_the_seat_twice_changes_nothing(teacher):
    code, (sara,) = split_class(teacher, ["Sara"], players=2)
    sara.get(url("live_class_seat", args=[code]))
    table = Table.objects.get()
    version = table.version
    sara.get(url("live_class_seat", args=[code]))
    table.refresh_from_db()
    assert table.version == version


def test_a_student_who_joined_after_the_split_is_told_they_have_no_seat(teacher):
    code, _phones = split_class(teacher, ["Sara"], players=2)
    (late,) = students(code, ["Late"])
    r = late.get(url("live_class_seat", args=[code]))
    assert r.status_code == 409
    assert "joined after the teacher" in r.content.decode()


def test_a_stranger_cannot_sit_at_a_class_table(teacher):
    split_class(teacher, ["Sara"], players=3)
    table = Table.objects.get()
    r = Client().post(reverse("tables_sit", args=[table.code]), {"name": "Mallory"})
    assert r.status_code == 403
    assert "class table" in r.content.decode()
    table.refresh_from_db()
    assert "Mallory" not in [s["name"] for s in table.seats]


def test_the_students_phone_shows_the_way_to_the_table(teacher):
    code, (sara,) = split_class(teacher, ["Sara"], players=2)
    page = sara.get(url("live_follow", args=[code])).content.decode()
    assert reverse("live_class_seat", args=[code]) in page


def test_a_seat_nobody_took_is_played_by_a_bot_after_the_grace_period(teacher, settings):
    settings.TABLE_GRACE_SECONDS = 0
    split_class(teacher, ["Sara"], players=2)
    table = Table.objects.get()
    assert TS.is_bot(table, 0)


# --------------------------------------------------------------------------- the projector
def test_the_progress_names_the_tables_and_shows_no_card(teacher):
    code, (sara, aino) = split_class(teacher, ["Sara", "Aino"], players=3)
    page = teacher.get(url("live_class_tables", args=[code])).content.decode()
    assert "Table 1" in page and "Sara" in page and "Aino" in page
    # No card face at all: the progress tells moves and turns, never a hand.
    assert "data-card" not in page
    table = Table.objects.get()
    for seat in range(3):
        for card in hand(table, seat):
            assert f'"{CARDS.code(card)}"' not in page


def test_the_progress_stream_shows_no_card(teacher):
    code, _phones = split_class(teacher, ["Sara"], players=2)
    r = teacher.get(reverse("live_class_stream", args=[code, "en"]))
    assert r.status_code == 200
    chunks = iter(r.streaming_content)
    next(chunks)
    text = next(chunks).decode()
    r.close()
    assert text.startswith("event: progress") and "Table 1" in text
    assert "data-card" not in text


def test_a_student_cannot_open_the_progress_stream(teacher):
    code, (sara,) = split_class(teacher, ["Sara"], players=2)
    assert sara.get(reverse("live_class_stream", args=[code, "en"])).status_code == 404


def play_out(table: Table) -> None:
    """Every seat played by a bot to the end of the deal."""
    table.refresh_from_db()
    deal = table.deal
    for _move in range(500):
        deal.refresh_from_db()
        derived = P.load(deal)
        if derived.state.over:
            return
        seat = derived.state.to_move
        action = P.make_bot(deal, seat).act(derived.state, seat)
        TS._apply(table, deal, deal.version, derived, seat, action)
    raise AssertionError("the deal did not end")


def test_the_results_say_who_took_svarta_maja_at_each_table(teacher):
    code, _phones = split_class(teacher, ["Sara", "Aino"], players=2)
    table = Table.objects.get()
    play_out(table)
    table.refresh_from_db()
    page = teacher.get(url("live_class_tables", args=[code])).content.decode()
    outcome = adapter("dam").deal_outcome(table.deal.names, table.deal.result)
    assert "Svarta Maja" in outcome
    assert outcome in page and 'id="class-results"' in page


def test_the_results_csv_opens_in_excel_with_translated_headers(teacher):
    code, _phones = split_class(teacher, ["Sara", "Åsa"], players=2)
    play_out(Table.objects.get())
    r = teacher.get(url("live_class_csv", args=[code], language="sv"))
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in r["Content-Disposition"]
    assert r.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Bord", "Plats", "Spelare"]
    assert {row[2] for row in rows[1:]} == {"Sara", "Åsa"}
    assert all("Svarta Maja" in row[5] for row in rows[1:])


# --------------------------------------------------------------------------- the summary
def ask_and_answer(teacher: Client, code: str, answers: dict[Client, str]) -> None:
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    for phone, choice in answers.items():
        r = phone.post(url("live_answer", args=[code]), {"question": 1, "choice": choice})
        assert r.status_code in (200, 303), r.content.decode()[:300]
    control(teacher, code, action="reveal")


def options(code: str) -> tuple[str, str]:
    """The lesson's move of the question and another one offered."""
    q = LiveQuestion.objects.get()
    from live import service as S
    obj = LiveSession.objects.get(code=code)
    with translation.override("en"):
        question = S.question(S.presentation(obj.kind, obj.ref), q.step, q.seat)
    other = next(o.key for o in question.options if o.key != q.lesson)
    return q.lesson, other


def test_a_question_is_kept_with_its_step_and_the_lessons_move(teacher):
    code = go_live(teacher)
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    q = LiveQuestion.objects.get()
    assert (q.number, q.step) == (1, ASK_STEP) and q.lesson


def test_the_summary_counts_right_and_wrong_answers_after_the_session_moved_on(teacher):
    code = go_live(teacher)
    a, b, c = students(code, ["Sara", "Aino", "Ola"])
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    lesson, other = options(code)
    for phone, choice in ((a, lesson), (b, other)):
        phone.post(url("live_answer", args=[code]), {"question": 1, "choice": choice})
    control(teacher, code, action="goto", step=1)
    control(teacher, code, action="end")
    page = teacher.get(url("live_summary", args=[code])).content.decode()
    assert "1 right · 1 wrong · 1 did not answer" in re.sub(r"\s+", " ", page)


def test_the_summary_names_students_only_when_names_were_shown(teacher):
    code = go_live(teacher)
    a, b = students(code, ["Sara", "Aino"])
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    lesson, _other = options(code)
    a.post(url("live_answer", args=[code]), {"question": 1, "choice": lesson})
    assert "Sara" not in teacher.get(url("live_summary", args=[code])).content.decode()
    control(teacher, code, action="names_on")
    assert "Sara" in teacher.get(url("live_summary", args=[code])).content.decode()


def test_the_summary_csv_lists_each_move_offered_with_its_answers(teacher):
    code = go_live(teacher)
    (a,) = students(code, ["Sara"])
    control(teacher, code, action="names_on")
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    lesson, _other = options(code)
    a.post(url("live_answer", args=[code]), {"question": 1, "choice": lesson})
    r = teacher.get(url("live_summary_csv", args=[code], language="fi"))
    assert r.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0][0] == "Kysymys"
    lesson_rows = [row for row in rows[1:] if row[4] == "kyllä"]
    assert len(lesson_rows) == 1 and lesson_rows[0][5:] == ["1", "Sara"]


def test_the_summary_is_kept_with_the_session_record(teacher):
    code, _phones = split_class(teacher, ["Sara"], players=2)
    control(teacher, code, action="end")
    r = teacher.get(url("live_summary", args=[code]))
    assert r.status_code == 200 and "Table" in r.content.decode()
    LiveSession.objects.all().delete()
    assert not Table.objects.exists() and not LiveStudent.objects.exists()


def test_a_student_is_refused_the_summary(teacher):
    code = go_live(teacher)
    (sara,) = students(code, ["Sara"])
    r = sara.get(url("live_summary", args=[code]))
    assert r.status_code == 403 and "Only the teacher" in r.content.decode()


# --------------------------------------------------------------------------- languages
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_pages_are_in_the_page_language(teacher, language):
    code, (sara,) = split_class(teacher, ["Sara"], players=2)
    play_out(Table.objects.get())
    english = {"live_class_tables": "Results of the class tables",
               "live_summary": "Class summary of live session %(code)s"}
    spaced = f"{code[:3]} {code[3:]}"
    with translation.override(language):
        expected = {name: translation.gettext(text) % {"code": spaced}
                    for name, text in english.items()}
        refusal = str(C.TEACHER_ONLY)
    for name, text in expected.items():
        page = teacher.get(url(name, language, args=[code])).content.decode()
        assert text in page
        if language != "en":
            assert english[name] % {"code": spaced} not in page
    refused = sara.get(url("live_summary", language, args=[code])).content.decode()
    assert refusal in refused


def test_the_new_pages_are_valid_html(teacher, tmp_path):
    from tests.site.test_html_validity import check

    code, (sara,) = split_class(teacher, ["Sara"], players=2)
    seat = sara.get(url("live_class_seat", args=[code]))["Location"]
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    play_out(Table.objects.get())
    pages = {"tables": teacher.get(url("live_class_tables", args=[code])),
             "summary": teacher.get(url("live_summary", args=[code])),
             "refused": sara.get(url("live_summary", args=[code])),
             "seat": sara.get(seat), "follow": sara.get(url("live_follow", args=[code])),
             "projector": teacher.get(url("live_projector", args=[code]))}
    files = []
    for name, r in pages.items():
        assert r.status_code in (200, 403), name
        path = tmp_path / f"{name}.html"
        path.write_bytes(r.content)
        files.append(path)
    assert check(files) == []


@pytest.mark.parametrize("game,result", [
    ("spardame", {"scores": [3, 0, 10, 13], "totals": [3, 0, 10, 13], "winners": []}),
    ("dolda", {"scores": [3, 0, 10, 13]})])
def test_a_points_game_result_gives_every_players_points(game, result):
    names = ["Anna", "Bo", "Cilla", "Dan"]
    with translation.override("en"):
        assert adapter(game).deal_outcome(names, result) == "Points: Anna 3, Bo 0, Cilla 10, Dan 13"


def test_a_dam_deal_nobody_lost_says_so():
    with translation.override("sv"):
        assert adapter("dam").deal_outcome(["Anna", "Bo"], {"loser": None}) == \
            "Ingen fick Svarta Maja."


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv(teacher):
    code = go_live(teacher)
    (a,) = students(code, ["=HYPERLINK(\"x\")"])
    control(teacher, code, action="names_on")
    control(teacher, code, action="goto", step=ASK_STEP)
    control(teacher, code, action="open", question=0)
    lesson, _other = options(code)
    a.post(url("live_answer", args=[code]), {"question": 1, "choice": lesson})
    rows = list(csv.reader(io.StringIO(
        teacher.get(url("live_summary_csv", args=[code])).content.decode("utf-8-sig"))))
    assert [row[6] for row in rows[1:] if row[6]] == ["'=HYPERLINK(\"x\")"]
