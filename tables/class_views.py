"""The class tables' pages (``tables.classes``): the teacher's split and progress page with its
stream and CSV, the class summary with its CSV, and the address that seats a student.

The teacher's pages answer only the browser holding the session's teacher key
(``live.service.is_teacher``); anyone else, and any code that is not a session's, gets the same
translated refusal, so the answers do not tell an existing code from a made-up one.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_POST, require_safe

from games.presentation import Presentation
from live import service as S
from live.models import LiveSession
from live.stream import LANGUAGES, db, gone, redrawn, session_value, sse_response
from web.errors import Refusal
from web.forms import first_error

from . import classes as C
from . import forms as F
from . import service as TS

QUIET = 10.0  # seconds without a move before the progress is drawn again anyway


def _refused(request: HttpRequest, message: str, status: int = 403) -> HttpResponse:
    response = render(request, "live/refused.html", {"message": message}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _teacher(request: HttpRequest, code: str) -> LiveSession | None:
    obj = LiveSession.objects.filter(code=S.normalise_code(code)).first()
    if obj is None or not S.is_teacher(request.session, obj):
        return None
    return obj


def _title(pres: Presentation | None) -> str:
    """The presentation's title as its first step shows it."""
    return str(pres.show(pres.first, None).get("title", "")) if pres is not None else ""


def progress_context(obj: LiveSession) -> dict[str, Any]:
    rows = C.class_tables(obj)
    return {"rows": rows, "playing": C.still_playing(rows), "column": C.results_column(obj),
            "finished": sum(r.over for r in rows), "count": len(rows)}


def _page(request: HttpRequest, obj: LiveSession, form: F.SplitForm | None = None,
          message: str = "", status: int = 200) -> HttpResponse:
    pres = S.presentation(obj.kind, obj.ref)
    ctx: dict[str, Any] = {"obj": obj, "spaced": S.spaced(obj.code), "message": message,
                           "title": _title(pres),
                           "running": S.is_running(obj), "split": obj.split is not None,
                           "projector_url": reverse("live_projector", args=[obj.code]),
                           "summary_url": reverse("live_summary", args=[obj.code])}
    if obj.split is None and pres is not None:
        ctx["form"] = form or F.SplitForm(pres.game)
        ctx["joined"] = obj.students.count()
    else:
        ctx.update(progress_context(obj))
        ctx["stream_url"] = reverse("live_class_stream",
                                    args=[obj.code, translation.get_language()])
        ctx["rule_set"] = C.rule_set_label(obj)
    response = render(request, "live/class_tables.html", ctx, status=status)
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def tables(request: HttpRequest, code: str) -> HttpResponse:
    obj = _teacher(request, code)
    if obj is None:
        return _refused(request, str(C.TEACHER_ONLY))
    return _page(request, obj)


@require_POST
def split(request: HttpRequest, code: str) -> HttpResponse:
    obj = _teacher(request, code)
    if obj is None:
        return _refused(request, str(C.TEACHER_ONLY))
    pres = S.presentation(obj.kind, obj.ref)
    if pres is None:
        return _refused(request, _gone_text(), 410)
    form = F.SplitForm(pres.game, request.POST)
    try:
        if obj.split is not None:
            raise Refusal(str(C.ALREADY_SPLIT), status=409)
        if not form.is_valid():
            raise Refusal(first_error(form), status=400)
        C.split(obj, form.cleaned_data["players"], form.cleaned_data["level"],
                translation.get_language() or "en", form.cleaned_data["preset"])
    except Refusal as exc:
        obj.refresh_from_db()
        return _page(request, obj, form if obj.split is None else None, exc.message,
                     exc.status)
    return HttpResponseRedirect(reverse("live_class_tables", args=[obj.code]), status=303)


def _gone_text() -> str:
    return str(translation.gettext("The presentation of this session is gone."))


def _download(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def tables_csv(request: HttpRequest, code: str) -> HttpResponse:
    obj = _teacher(request, code)
    if obj is None:
        return _refused(request, str(C.TEACHER_ONLY))
    return _download(C.results_csv(obj), f"class-tables-{obj.code}.csv")


# --------------------------------------------------------------------------- summary
@require_safe
def summary(request: HttpRequest, code: str) -> HttpResponse:
    obj = _teacher(request, code)
    if obj is None:
        return _refused(request, str(C.TEACHER_ONLY))
    pres = S.presentation(obj.kind, obj.ref)
    ctx: dict[str, Any] = {
        "obj": obj, "spaced": S.spaced(obj.code), "title": _title(pres),
        "questions": C.questions(obj, pres), "joined": obj.students.count(),
        "running": S.is_running(obj),
        "projector_url": reverse("live_projector", args=[obj.code]),
        "tables_url": reverse("live_class_tables", args=[obj.code]),
        "csv_url": reverse("live_summary_csv", args=[obj.code])}
    if obj.split is not None:
        ctx.update(progress_context(obj))
    response = render(request, "live/summary.html", ctx)
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def summary_csv(request: HttpRequest, code: str) -> HttpResponse:
    obj = _teacher(request, code)
    if obj is None:
        return _refused(request, str(C.TEACHER_ONLY))
    return _download(C.summary_csv(obj, S.presentation(obj.kind, obj.ref)),
                     f"class-summary-{obj.code}.csv")


# --------------------------------------------------------------------------- students
@require_safe
def seat(request: HttpRequest, code: str) -> HttpResponse:
    """A student's way to their class table: the seat kept for them takes this browser (a
    second visit finds it taken by the same browser and changes nothing)."""
    obj = LiveSession.objects.filter(code=S.normalise_code(code)).first()
    student = S.student_of(request.session, obj) if obj is not None else None
    if obj is None or student is None:
        return _refused(request, str(S.NO_SESSION), 404)
    try:
        table = C.take_seat(obj, student, request.session)
    except Refusal as exc:
        return _refused(request, exc.message, exc.status)
    return HttpResponseRedirect(reverse("tables_table", args=[table.code]), status=303)


# --------------------------------------------------------------------------- stream
def _render(code: str, lang: str) -> tuple[str, bool]:
    obj = LiveSession.objects.filter(code=code).first()
    if obj is None:
        return "", False
    with translation.override(lang):
        ctx = progress_context(obj)
        return render_to_string("live/class_tables.html#progress", ctx), ctx["playing"]


@require_safe
async def stream(request: HttpRequest, code: str, lang: str
                 ) -> HttpResponse | StreamingHttpResponse:
    """The projector's progress of the class tables (event ``progress``), drawn again on every
    move at any class table (their moves are published on the session's class channel)."""
    code = S.normalise_code(code)
    key = await session_value(request, S.SESSION_TEACHER, code) if code else None
    if lang not in LANGUAGES or not key:
        return gone(lang)
    obj = await db(LiveSession.objects.filter(code=code).first, request)()
    if obj is None or not S.is_teacher({S.SESSION_TEACHER: {code: key}}, obj):
        return gone(lang)
    names = [TS.class_channel(obj.pk)]

    # Moves at several tables come close together: one drawing for a burst.
    return sse_response(request, *redrawn(lambda: _render(code, lang), "progress", names,
                                     quiet=QUIET, burst=0.3))
