"""Class tables and the class summary of a live session.

Class tables: the teacher splits the students who joined into tables of N; bots fill the empty
seats.  Each table is a table with friends (``tables.Table``, linked to the session), so moves,
bots, per-seat views, reconnecting and leaving work as there.  Every table gets the same deal
(one seed for all, as duplicate bridge deals the same boards to every table): seat 1 at every
table holds the same hand, so the results compare how each table played it.

A seat is kept for its student: the seat's ``player`` is a placeholder token no browser holds,
marked as away, until the student's phone opens the session's seat address and the seat takes
that browser's token.  A student who does not come is replaced by a bot after the tables' grace
period, as a player who left (and can still take the seat back).

The split is made once: a conditional update of the session's ``split`` is the guard, so a
second press (a double click, the form sent again) changes nothing and is told so.

The summary is read from the session's rows (its questions, answers and class tables), so it
lasts as long as the session's record.
"""

from __future__ import annotations

import csv
import io
import re
import time
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.adapters import adapter
from games.presentation import Presentation
from live import service as S
from live.models import LiveAnswer, LiveSession, LiveStudent
from practice import service as P
from reference.variants import preset_label
from web.errors import Refusal

from . import service as TS
from .models import Table

MIN_SEATS, MAX_SEATS = 2, 6
TEACHER_ONLY = gettext_lazy("Only the teacher who started this live session can see this "
                            "page, in the browser the session was started in.")
ALREADY_SPLIT = gettext_lazy("The class is already split into tables: the tables keep "
                             "playing.")
_NOT_IN_NAME = re.compile(r"[\s<>&\"'\x00-\x1f\x7f-\x9f]+")


# --------------------------------------------------------------------------- splitting
def _options(game: str, preset: str | None = None) -> dict[str, Any]:
    return {"preset": preset or adapter(game).engine.DEFAULT_PRESET}


def rule_set_label(obj: LiveSession) -> str:
    """The name of the rule set the session's class tables play ("" before the split)."""
    table = Table.objects.filter(live=obj).only("game", "rules").first()
    if table is None:
        return ""
    return str(preset_label(table.game, _options(table.game, table.rules.get("preset"))["preset"]))


def table_sizes(game: str, preset: str | None = None) -> list[int]:
    """The table sizes a split may choose: what the rule set ``preset`` (else the game's
    usual one) allows, within 2–6."""
    lo, hi = adapter(game).engine.player_range(P.options_for(game, _options(game, preset)))
    return list(range(max(lo, MIN_SEATS), min(hi, MAX_SEATS) + 1))


def all_table_sizes(game: str) -> list[int]:
    """The table sizes some rule set of ``game`` allows (the split form's list)."""
    return sorted({n for p in adapter(game).engine.PRESETS for n in table_sizes(game, p)})


def seat_name(name: str, number: int, taken: set[str]) -> str:
    """A student's display name as a seat's: one word of up to 20 characters (the deal's
    record writes "<name> <move>"), unique at the table."""
    word = next(iter(_NOT_IN_NAME.sub(" ", name).split()), "")[:20]
    if not word:
        word = _("Student%(n)d") % {"n": number}
    base, n = word[:18], 2
    while word in taken:
        word, n = f"{base}{n}", n + 1
    taken.add(word)
    return word


def groups(students: list[LiveStudent], size: int) -> list[list[LiveStudent]]:
    """Students in tables of at most ``size``, as even as can be (the bots spread over the
    tables rather than filling one)."""
    count = -(-len(students) // size)
    return [students[i::count] for i in range(count)]


def split(obj: LiveSession, players: int, level: str, language: str,
          preset: str | None = None) -> list[Table]:
    """Seat the students who joined at tables of ``players`` and deal every table the same
    cards, by the rule set ``preset`` (else the game's usual one); refused when the session
    has ended, was split already or has no students."""
    if not S.is_running(obj):
        raise Refusal(_("This live session has ended."), status=410)
    pres = S.presentation(obj.kind, obj.ref)
    if pres is None:
        raise Refusal(_("The presentation of this session is gone."), status=410)
    game = pres.game
    if preset is not None and preset not in adapter(game).engine.PRESETS:
        raise Refusal(_("Choose a rule set from the list."), status=400)
    if players not in table_sizes(game, preset) or level not in P.LEVELS:
        raise Refusal(_("Choose a table size and a bot level from the lists."), status=400)
    students = list(obj.students.order_by("joined", "pk"))
    position = {s.pk: n for n, s in enumerate(students, start=1)}
    if not students:
        raise Refusal(_("No student has joined yet: split the class once the students have "
                        "joined with the code."), status=409)
    seed, bot_seed = P.new_seeds()
    made: list[Table] = []
    with transaction.atomic():
        if not LiveSession.objects.filter(pk=obj.pk, split__isnull=True).update(
                split=timezone.now(), version=F("version") + 1):
            raise Refusal(str(ALREADY_SPLIT), status=409)
        now = time.time()
        for number, group in enumerate(groups(students, players), start=1):
            taken: set[str] = set()
            seats = [{"name": seat_name(s.name, position[s.pk], taken), "player": f"student:{s.pk}",
                      "left": now, "auto": True, "student": s.pk} for s in group]
            seats += [{"name": "", "player": "", "left": None}
                      for _seat in range(players - len(group))]
            table = Table(code=TS._new_code(), game=game, rules=_options(game, preset), level=level,
                          host=f"class:{obj.code}", seats=seats, active=timezone.now(),
                          live=obj, class_number=number)
            TS.deal_cards(table, language, seed, bot_seed)
            table.save()
            made.append(table)
    obj.refresh_from_db()
    S.publish_state(obj)  # the phones show the way to their seats
    for table in made:
        TS.publish(table)
    return made


def seat_of_student(obj: LiveSession, student: LiveStudent) -> tuple[Table, int] | None:
    for table in obj.class_tables.order_by("class_number"):
        for i, seat in enumerate(table.seats):
            if seat.get("student") == student.pk:
                return table, i
    return None


def take_seat(obj: LiveSession, student: LiveStudent, session: Any) -> Table:
    """Sit ``student``'s browser in the seat kept for them (again: nothing changes)."""
    found = seat_of_student(obj, student)
    if found is None:
        raise Refusal(_("You have no seat at the class tables: you joined after the teacher "
                        "made them. Follow the projector."), status=409)
    table, i = found
    token = TS.player_token(session, create=True) or ""
    if table.seats[i]["player"] == token:
        return table

    def sit(t: Table) -> None:
        t.seats[i].update({"player": token, "left": None, "auto": False})

    TS._changed(table, sit)
    return table


# --------------------------------------------------------------------------- progress
@dataclass
class TableRow:
    number: int
    code: str
    players: list[dict[str, Any]]
    moves: int
    over: bool
    ended: bool
    to_move: str
    outcome: str


def _status(table: Table, i: int) -> str:
    seat = table.seats[i]
    if "student" not in seat:
        return _("bot")
    if TS.is_bot(table, i):
        return _("a bot plays for them")
    if seat.get("left") is not None:
        return _("not at the table yet") if seat["player"].startswith("student:") else _("away")
    return _("student")


def class_tables(obj: LiveSession) -> list[TableRow]:
    """Each class table as the projector shows it: who sits where, how far the deal is, and
    the result once it is over.  Nothing of any hand."""
    rows = []
    for table in obj.class_tables.select_related("deal").order_by("class_number"):
        deal = table.deal
        if deal is None:  # every class table is dealt when it is made
            continue
        state = P.load(deal).state
        game = adapter(table.game)
        values = (game.deal_values(len(deal.names), deal.result)
                  if deal.result is not None else [None] * len(deal.names))
        rows.append(TableRow(
            number=table.class_number or 0, code=table.code,
            players=[{"name": deal.names[i], "status": _status(table, i),
                      "student": "student" in table.seats[i], "value": values[i],
                      "to_move": not state.over and state.to_move == i}
                     for i in range(len(deal.names))],
            moves=len(deal.actions), over=state.over, ended=TS.ended(table),
            to_move=(deal.names[state.to_move]
                     if not state.over and state.to_move is not None else ""),
            outcome=(game.deal_outcome(deal.names, deal.result)
                     if deal.result is not None else "")))
    return rows


def still_playing(rows: list[TableRow]) -> bool:
    return any(not r.over and not r.ended for r in rows)


def results_column(obj: LiveSession) -> str:
    table = obj.class_tables.first()
    return str(adapter(table.game).summary_column) if table is not None else ""


# --------------------------------------------------------------------------- the summary
@dataclass
class QuestionRow:
    number: int
    step: int | None
    mover: str
    lesson: str
    names_shown: bool
    options: list[dict[str, Any]]
    right: int
    wrong: int
    unanswered: int


def questions(obj: LiveSession, pres: Presentation | None) -> list[QuestionRow]:
    """Every question of the session with how the class answered it: per move offered, how
    many chose it and (when the projector showed names then) who."""
    asked = {q.number: q for q in obj.questions.all()}
    answers = list(LiveAnswer.objects.filter(session=obj).select_related("student")
                   .order_by("question", "answered"))
    joined = obj.students.count()
    out = []
    for number in sorted(asked.keys() | {a.question for a in answers}):
        record = asked.get(number)
        labels: dict[str, str] = {}
        mover = ""
        if record is not None and pres is not None:
            try:
                q = S.question(pres, record.step, record.seat)
            except Refusal:
                q = None
            if q is not None:
                labels = {o.key: o.label for o in q.options}
                mover = q.mover
        lesson = record.lesson if record is not None else ""
        mine = [a for a in answers if a.question == number]
        keys = list(labels) + sorted({a.choice for a in mine} - set(labels))
        names_shown = record is not None and record.names_shown
        options = []
        for key in keys:
            chosen = [a for a in mine if a.choice == key]
            options.append({
                "label": labels.get(key, key), "lesson": bool(lesson) and key == lesson,
                "n": len(chosen),
                "names": [a.student.name or _("Anonymous") for a in chosen]
                if names_shown else []})
        right = sum(1 for a in mine if lesson and a.choice == lesson)
        out.append(QuestionRow(
            number=number, step=record.step if record is not None else None, mover=mover,
            lesson=labels.get(lesson, lesson), names_shown=names_shown, options=options,
            right=right, wrong=len(mine) - right if lesson else 0,
            unanswered=max(0, joined - len(mine))))
    return out


# --------------------------------------------------------------------------- CSV
def _cell(value: Any) -> Any:
    """A text cell that a spreadsheet would read as a formula (a student may call themselves
    "=HYPERLINK(…)") is kept as text by a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _csv(rows: list[list[Any]]) -> str:
    """The rows as CSV that Excel opens as UTF-8 (a byte order mark first)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([[_cell(v) for v in row] for row in rows])
    return "\ufeff" + out.getvalue()


def _result_rows(obj: LiveSession) -> list[list[Any]]:
    rows: list[list[Any]] = [[_("Table"), _("Seat"), _("Player"), _("Who"),
                              results_column(obj) or _("Points"), _("Result")]]
    for table in class_tables(obj):
        for seat, p in enumerate(table.players, start=1):
            rows.append([table.number, seat, p["name"], _("student") if p["student"]
                         else _("bot"), "" if p["value"] is None else p["value"],
                         table.outcome or (_("still playing") if not table.ended
                                           else _("ended before the deal was over"))])
    return rows


def results_csv(obj: LiveSession) -> str:
    return _csv(_result_rows(obj))


def summary_csv(obj: LiveSession, pres: Presentation | None) -> str:
    rows: list[list[Any]] = [[_("Question"), _("Step"), _("Player to move"), _("Move"),
                              _("The lesson's move"), _("Answers"), _("Students")]]
    for q in questions(obj, pres):
        for o in q.options:
            rows.append([q.number, "" if q.step is None else q.step, q.mover, o["label"],
                         _("yes") if o["lesson"] else _("no"), o["n"], ", ".join(o["names"])])
    if obj.class_tables.exists():
        rows.append([])
        rows += _result_rows(obj)
    return _csv(rows)
