"""Live classroom sessions: join codes, the presentation behind a session, questions, answers.

A session follows one presentation the presenter can show: a teacher scenario (which is also
what a finished practice game becomes) or a tutorial.  Students are shown what the presenter
shows at the session's step and seat (``games.presentation``),
so nothing reaches a phone that the projector does not show.

A question ("What would you play?") can be opened at a decision: a step whose next move in
the presentation is a move of the game.  The choices are the moves the engine allows the
player to move then, and only when every card they name is face up in what the presentation
shows (otherwise the question would tell the class a hidden hand).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.adapters import adapter
from games.moves import canonical, cards_named
from games.presentation import (
    Presentation,
    brings_out,
    scenario_presentation,
    tutorial_presentation,
    visible_cards,
)
from games.replay import replay
from rules.engine.errors import IllegalAction
from teacher import service as TS
from teacher.models import TeacherScenario
from tutorials import lessons
from web.errors import Refusal

from . import bus
from .models import LiveAnswer, LiveQuestion, LiveSession, LiveStudent

# 31 letters and digits, none that reads as another (no 0/O, 1/I/L): 31**6, about 887 million
# codes, against a handful of live sessions and 10 wrong codes a minute per address
# (settings.LIVE_JOIN_FAILURES).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
SESSION_TEACHER = "live_teacher"  # {code: teacher key} in the teacher's session
SESSION_STUDENT = "live_student"  # {code: student id} in a student's session
MAX_NAME = 40
MAX_OPTIONS = 24  # more moves than a phone screen can offer (Spardame's passes): no question
KINDS = ("scenario", "tutorial")


def lifetime() -> timedelta:
    return timedelta(hours=getattr(settings, "LIVE_HOURS", 4))




NO_SESSION = gettext_lazy("No live session has that code. Check the code on the projector: "
                          "the session may also have ended.")


# --------------------------------------------------------------------------- codes
def normalise_code(text: str) -> str:
    """The code typed (any case, spaces or dashes between) or "" when it cannot be one."""
    code = "".join(ch for ch in (text or "")[:32].upper() if ch not in " -\t")
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return ""
    return code


def spaced(code: str) -> str:
    """A code as shown on the projector: ``K7M 4QP``."""
    return f"{code[:3]} {code[3:]}"


def new_code() -> str:
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if not LiveSession.objects.filter(code=code).exists():
            return code


def active(code: str) -> LiveSession | None:
    """The session with ``code`` if it is still running."""
    code = normalise_code(code)
    if not code:
        return None
    obj = LiveSession.objects.filter(code=code).first()
    if obj is None or not is_running(obj):
        return None
    return obj


def ended_for(code: str, student: int | None) -> bool:
    """Whether ``student`` joined the session ``code``, which has ended: their phone is told
    so (a phone that was offline when it ended would otherwise never hear of it)."""
    code = normalise_code(code)
    if not code or not isinstance(student, int):
        return False
    obj = LiveSession.objects.filter(code=code).first()
    return (obj is not None and not is_running(obj)
            and obj.students.filter(pk=student).exists())


def is_running(obj: LiveSession) -> bool:
    return obj.ended is None and obj.expires > timezone.now()


def is_teacher(session: Any, obj: LiveSession) -> bool:
    key = (session.get(SESSION_TEACHER) or {}).get(obj.code, "")
    return bool(key) and secrets.compare_digest(str(key), obj.teacher_key)


def student_of(session: Any, obj: LiveSession) -> LiveStudent | None:
    pk = (session.get(SESSION_STUDENT) or {}).get(obj.code)
    if not isinstance(pk, int):
        return None
    return LiveStudent.objects.filter(pk=pk, session=obj).first()


# --------------------------------------------------------------------------- presentations
def presentation(kind: str, ref: str) -> Presentation | None:
    """The presentation ``ref`` of ``kind`` (a scenario's share code, a tutorial's
    ``game/slug``), or None when there is none that can be presented."""
    if kind == "scenario":
        obj = TeacherScenario.objects.filter(code=ref[:16]).first()
        rp = replay(obj.data) if obj is not None else None
        if obj is None or rp is None:
            return None
        return scenario_presentation(obj.code, TS.title_of(obj), rp)
    if kind == "tutorial":
        game, _sep, slug = ref.partition("/")
        tutorial = lessons.get(game, slug)
        if tutorial is None:
            return None
        return tutorial_presentation(tutorial, lessons.replay(game, slug))
    return None


# --------------------------------------------------------------------------- questions
@dataclass
class Option:
    key: str  # the move in canonical notation (answers store it)
    label: str  # in the page language


@dataclass
class Question:
    mover: str
    options: list[Option]
    lesson: str  # key of the lesson's move
    reason: str

    def label(self, key: str) -> str:
        return next((o.label for o in self.options if o.key == key), "")


def _canonical(module: Any, action: Any) -> str:
    return " ".join(canonical(module, action))


def question(pres: Presentation, step: int, seat: int | None) -> Question:
    """The question at ``step`` as shown from ``seat``, in the page language; Refusal when
    there is none to ask there."""
    dec = pres.decision(step)
    if dec is None or dec.state.over:
        raise Refusal(_("There is no move to choose at this step: open a question where a "
                          "player is about to move."), status=409)
    module = dec.scn.module
    game = adapter(dec.scn.game)
    try:
        expected = module.parse_action(dec.state, dec.mover, dec.move.split()[1:])
    except (IllegalAction, ValueError, IndexError):
        raise Refusal(_("There is no move to choose at this step: open a question where a "
                          "player is about to move."), status=409) from None
    actions = [a for a in dec.state.legal_actions() if game.seat(a) == dec.mover]
    if len(actions) == 1:
        # A poll with one answer asks the class nothing: the teacher is told why instead.
        raise Refusal(_("%(name)s has only one move here (%(move)s), so there is nothing to "
                          "choose: ask at a step with a choice.")
                        % {"name": pres.players[dec.mover],
                           "move": game.describe(actions[0], dec.scn.players)}, status=409)
    if len(actions) > MAX_OPTIONS:
        raise Refusal(_("%(name)s has %(n)d moves to choose from here, too many to offer "
                          "on a phone.") % {"name": pres.players[dec.mover], "n": len(actions)},
                        status=409)
    visible = visible_cards(dec.scn.game, dec.state, seat)
    options = []
    for a in actions:
        text = module.format_action(a)
        if not set(cards_named(text.split())) <= visible:
            raise Refusal(_("The moves here name cards this view does not show. Show every "
                              "hand, or %(name)s's view, to ask this question.")
                            % {"name": pres.players[dec.mover]}, status=409)
        options.append(Option(_canonical(module, a),
                              game.describe(a, dec.scn.players)))
    # The teacher's narration and the lessons' explanations may name any card of any hand
    # (the presenter, too, shows them only with every hand open): a seat's view has none.
    reason: Any = ""
    if seat is None and dec.after is not None and brings_out(dec.scn, dec.state, dec.after):
        # The narration of the move itself may name a card only the move turns face up, still
        # hidden here: the game's own reason instead, from what the mover sees.
        reason = game.reason(dec.state.view(dec.mover), expected, dec.scn.players)
    elif seat is None:
        reason = dec.reason() if callable(dec.reason) else dec.reason
    return Question(pres.players[dec.mover], options, _canonical(module, expected),
                    str(reason or ""))


# --------------------------------------------------------------------------- changes
def start(session: Any, kind: str, ref: str, step: int, seat: int | None,
          language: str = "") -> LiveSession:
    pres = presentation(kind, ref) if kind in KINDS else None
    if pres is None:
        raise Refusal(_("There is no such presentation to go live with."), status=404)
    if not pres.first <= step <= pres.last:
        step = pres.first
    if seat is not None and not 0 <= seat < len(pres.players):
        seat = None
    obj = LiveSession.objects.create(
        code=new_code(), teacher_key=secrets.token_urlsafe(32), kind=kind, ref=pres.ref,
        step=step, seat=seat, expires=timezone.now() + lifetime(), language=language)
    grant_teacher(session, obj)
    return obj


def grant_teacher(session: Any, obj: LiveSession) -> None:
    keys = dict(session.get(SESSION_TEACHER) or {})
    keys[obj.code] = obj.teacher_key
    session[SESSION_TEACHER] = dict(list(keys.items())[-20:])


def join(session: Any, code: str, name: str) -> LiveSession:
    obj = active(code)
    if obj is None:
        raise Refusal(str(NO_SESSION), status=404)
    name = TS.without_controls(" ".join(name.split()))[:MAX_NAME]
    student = student_of(session, obj)
    if student is None:
        student = LiveStudent.objects.create(session=obj, name=name)
    elif name and name != student.name:
        student.name = name
        student.save(update_fields=["name"])
    grant_student(session, obj, student)
    publish_answers(obj)  # the projector counts who has joined
    return obj


def grant_student(session: Any, obj: LiveSession, student: LiveStudent) -> None:
    known = dict(session.get(SESSION_STUDENT) or {})
    known[obj.code] = student.pk
    session[SESSION_STUDENT] = dict(list(known.items())[-20:])


def _change(obj: LiveSession, when: dict[str, Any] | None = None, **fields: Any) -> LiveSession:
    """Store ``fields`` and a new version, then tell every follower; with ``when``, only if
    the row still holds those values (else nothing changes)."""
    changed = LiveSession.objects.filter(pk=obj.pk, **(when or {})).update(
        version=F("version") + 1, **fields)
    obj.refresh_from_db()
    if changed:
        publish_state(obj)
    return obj


def goto(obj: LiveSession, step: int, seat: int | None,
         pres: Presentation | None = None) -> LiveSession:
    """Show ``step`` from ``seat`` (``pres``: the session's presentation, when the caller has
    built it already for this request)."""
    pres = pres or presentation(obj.kind, obj.ref)
    if pres is None:
        raise Refusal(_("The presentation of this session is gone."), status=410)
    if not pres.first <= step <= pres.last:
        raise Refusal(_("This presentation has no step %(n)d.") % {"n": step}, status=400)
    if seat is not None and not 0 <= seat < len(pres.players):
        raise Refusal(_("There is no such player."), status=400)
    # Moving on closes the question; the same step and seat again changes nothing.
    if step == obj.step and seat == obj.seat:
        return obj
    return _change(obj, step=step, seat=seat, question_state=LiveSession.NO_QUESTION)


def open_question(obj: LiveSession, seen: int | None = None,
                  pres: Presentation | None = None) -> LiveSession:
    """Open the next question; ``seen`` is the question number the teacher's page showed when
    Ask was pressed.  A press sent twice (a double click, a form sent again after the reveal)
    opens one question: the second finds the number moved on, or loses the race to it."""
    pres = pres or presentation(obj.kind, obj.ref)
    if pres is None:
        raise Refusal(_("The presentation of this session is gone."), status=410)
    q = question(pres, obj.step, obj.seat)  # raises when there is none to ask
    if obj.question_state == LiveSession.OPEN or (seen is not None and seen != obj.question):
        return obj
    before = obj.question
    _change(obj, when={"question": obj.question, "question_state": obj.question_state},
            question=F("question") + 1, question_state=LiveSession.OPEN)
    if obj.question == before + 1:
        # Kept for the class summary: the session's step moves on, the question does not.
        LiveQuestion.objects.update_or_create(
            session=obj, number=obj.question,
            defaults={"step": obj.step, "seat": obj.seat, "lesson": q.lesson,
                      "names_shown": obj.show_names})
    return obj


def reveal(obj: LiveSession) -> LiveSession:
    if obj.question_state != LiveSession.OPEN:
        if obj.question_state == LiveSession.REVEALED:
            return obj
        raise Refusal(_("No question is open."), status=409)
    return _change(obj, question_state=LiveSession.REVEALED)


def close_question(obj: LiveSession) -> LiveSession:
    if obj.question_state == LiveSession.NO_QUESTION:
        return obj
    return _change(obj, question_state=LiveSession.NO_QUESTION)


def show_names(obj: LiveSession, on: bool) -> LiveSession:
    if obj.show_names == on:
        return obj
    LiveSession.objects.filter(pk=obj.pk).update(show_names=on)
    obj.refresh_from_db()
    if on and obj.question_state:
        LiveQuestion.objects.filter(session=obj, number=obj.question).update(names_shown=True)
    publish_answers(obj)
    return obj


def end(obj: LiveSession) -> LiveSession:
    if obj.ended is not None:
        return obj
    return _change(obj, ended=timezone.now(), question_state=LiveSession.NO_QUESTION)


def answer(obj: LiveSession, student: LiveStudent, number: int, choice: str) -> LiveAnswer:
    """Record ``student``'s answer to question ``number``: one per student and question (a
    second one replaces the first until the answer is revealed)."""
    if obj.question_state != LiveSession.OPEN or number != obj.question:
        raise Refusal(_("This question is closed; your answer was not counted."), status=409)
    pres = presentation(obj.kind, obj.ref)
    if pres is None:
        raise Refusal(_("The presentation of this session is gone."), status=410)
    q = question(pres, obj.step, obj.seat)
    if choice not in {o.key for o in q.options}:
        raise Refusal(_("Choose one of the moves offered."), status=400)
    try:
        with transaction.atomic():
            row, _created = LiveAnswer.objects.update_or_create(
                student=student, question=number, defaults={"choice": choice, "session": obj})
    except IntegrityError:  # two taps at once: the other request made the row
        row = LiveAnswer.objects.get(student=student, question=number)
        row.choice = choice
        row.save(update_fields=["choice", "answered"])
    publish_answers(obj)
    return row


# --------------------------------------------------------------------------- bus
def snapshot(obj: LiveSession) -> dict[str, Any]:
    """What followers need to draw the session (never sent to a browser as it is): the
    answers are there so that each student's stream can tell its student's result."""
    out: dict[str, Any] = {
        "code": obj.code, "v": obj.version, "kind": obj.kind, "ref": obj.ref,
        "step": obj.step, "seat": obj.seat, "q": obj.question, "qs": obj.question_state,
        "running": is_running(obj), "expires": obj.expires.timestamp(), "answers": {},
        "split": obj.split is not None}
    if obj.question_state:
        out["answers"] = {str(s): c for s, c in LiveAnswer.objects.filter(
            session=obj, question=obj.question).values_list("student_id", "choice")}
    return out


def publish_state(obj: LiveSession) -> None:
    bus.publish(bus.channel(obj.code), snapshot(obj))


def publish_answers(obj: LiveSession) -> None:
    bus.publish(bus.channel(obj.code, "answers"), {"code": obj.code})


def load_snapshot(code: str) -> dict[str, Any] | None:
    obj = LiveSession.objects.filter(code=code).first()
    return snapshot(obj) if obj is not None else None


# --------------------------------------------------------------------------- what is shown
def follow_context(snap: dict[str, Any], choice: str | None,
                   pres: Presentation | None = None) -> dict[str, Any]:
    """The student's view of a session state, in the active language: the presentation's step
    as the projector shows it and the question with this student's answer (``choice``)."""
    ctx: dict[str, Any] = {"v": snap["v"], "step": snap["step"], "running": snap["running"],
                           "code": snap["code"], "split": snap.get("split", False)}
    if not snap["running"]:
        return ctx
    pres = pres or presentation(snap["kind"], snap["ref"])
    if pres is None:
        ctx["running"] = False
        return ctx
    shown = pres.show(snap["step"], snap["seat"])
    qs = snap["qs"]
    if qs != LiveSession.REVEALED and snap["step"] in pres.tells_next:
        shown["note"] = ""  # it names the move a question would ask for
    ctx.update(shown)
    # As the teacher's presenter numbers it (teacher/views.py's _present_ctx).
    ctx["position"] = snap["step"]
    ctx["count"] = pres.last
    if qs:
        try:
            q = question(pres, snap["step"], snap["seat"])
        except Refusal:
            return ctx
        ctx["question"] = {
            "number": snap["q"], "open": qs == LiveSession.OPEN, "mover": q.mover,
            "options": [{"key": o.key, "label": o.label, "chosen": o.key == choice,
                         "lesson": qs == LiveSession.REVEALED and o.key == q.lesson}
                        for o in q.options],
            "choice": q.label(choice) if choice else "",
        }
        if qs == LiveSession.REVEALED:
            ctx["question"].update({
                "lesson": q.label(q.lesson), "reason": q.reason,
                "result": "none" if not choice else "right" if choice == q.lesson else "wrong"})
    return ctx


def panel_context(obj: LiveSession, pres: Presentation | None = None) -> dict[str, Any]:
    """The projector's side panel: who joined, who answered, the chart."""
    ctx: dict[str, Any] = {"joined": obj.students.count(), "show_names": obj.show_names,
                           "qs": obj.question_state, "number": obj.question}
    if not obj.question_state:
        return ctx
    pres = pres or presentation(obj.kind, obj.ref)
    try:
        q = question(pres, obj.step, obj.seat) if pres else None
    except Refusal:
        q = None
    if q is None:
        return ctx
    rows = LiveAnswer.objects.filter(session=obj, question=obj.question)
    counts = dict(rows.values_list("choice").annotate(n=Count("id")))
    names: dict[str, list[str]] = {}
    if obj.show_names:
        for choice, name in rows.order_by("answered").values_list("choice", "student__name"):
            names.setdefault(choice, []).append(name or _("Anonymous"))
    answered = sum(counts.values())
    top = max(counts.values(), default=0)
    revealed = obj.question_state == LiveSession.REVEALED
    ctx.update({
        "answered": answered, "mover": q.mover,
        "bars": [{"label": o.label, "n": counts.get(o.key, 0),
                  "width": round(100 * counts.get(o.key, 0) / top) if top else 0,
                  "names": names.get(o.key, []), "lesson": revealed and o.key == q.lesson}
                 for o in q.options],
        "lesson": q.label(q.lesson) if revealed else "", "reason": q.reason if revealed else "",
    })
    return ctx
