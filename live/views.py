"""Live classroom pages (served by the WSGI app servers; the streams are in ``live.stream``).

- ``start`` (POST from the presenter's "Go live"): a new session, the teacher's key in their
  session, on to the projector page.
- ``projector`` and ``control``: the teacher's page (code, QR code, join address, the step,
  question controls, the answers' chart) and its buttons (htmx, or plain forms).
- ``short``: ``/j/<code>/``, the address on the projector and in the QR code, sends a phone to
  the join page in its own language.
- ``join``: the code and an optional display name; wrong codes are limited per address.
- ``follow``, ``now`` and ``answer``: the student's page, its current state (what a phone
  reloads after sleeping) and its answer to a question.

Any bad code, a session that ended, or a session the visitor has not joined gets the same
404: the answers never tell an existing code from a made-up one, except to the join form,
which holds each address to a few wrong codes a minute.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, translate_url
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.presentation import Presentation
from web.context_processors import LANGUAGE_NAMES
from web.errors import Refusal
from web.htmx import HtmxHttpRequest
from web.once import made, once
from web.ratelimit import client_key, sliding_usage

from . import forms as F
from . import service as S
from .models import LiveSession, LiveStudent


def _not_found(request: HttpRequest, message: str = "") -> HttpResponse:
    return render(request, "live/not_found.html", {
        "message": message or str(S.NO_SESSION), "join_url": reverse("live_join")},
        status=404)


def _answer(request: HttpRequest, template: str, ctx: dict[str, Any],
            status: int = 200) -> HttpResponse:
    response = render(request, template, ctx, status=status)
    response["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- teacher
def _started(request: HttpRequest, code: str) -> HttpResponse | None:
    """"Go live" sent twice: the session the first send started, while it runs."""
    obj = LiveSession.objects.filter(code=code).first()
    if obj is None or not S.is_running(obj):
        return None
    S.grant_teacher(request.session, obj)
    return HttpResponseRedirect(reverse("live_projector", args=[obj.code]), status=303)


@require_POST
@once(_started)
def start(request: HttpRequest) -> HttpResponse:
    form = F.StartForm(request.POST)
    if not form.is_valid():
        return _not_found(request, _("There is no such presentation to go live with."))
    d = form.cleaned_data
    try:
        obj = S.start(request.session, d["kind"], d["ref"], d["step"], d["seat"],
                      translation.get_language() or "")
    except Refusal as exc:
        return _not_found(request, exc.message)
    return made(HttpResponseRedirect(reverse("live_projector", args=[obj.code]), status=303),
                obj.code)


def _teacher_session(request: HttpRequest, code: str) -> LiveSession | None:
    obj = LiveSession.objects.filter(code=S.normalise_code(code)).first()
    if obj is None or not S.is_teacher(request.session, obj):
        return None
    return obj


def join_address(request: HttpRequest, code: str) -> str:
    return request.build_absolute_uri(reverse("live_short", args=[code]))


def qr_svg(url: str) -> str:
    """The join address as a QR code, an inline SVG drawn on the server (segno)."""
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=6, border=2, dark="#000", light="#fff",
                         title=_("QR code for %(url)s") % {"url": url}, svgclass="live-qr-svg",
                         lineclass=None, omitsize=True)


def projector_context(request: HttpRequest, obj: LiveSession, message: str = "",
                      pres: Presentation | None = None) -> dict[str, Any]:
    """The projector page; ``pres``: the session's presentation if this request built it."""
    snap = S.snapshot(obj)
    pres = pres or S.presentation(obj.kind, obj.ref)
    ctx: dict[str, Any] = {"obj": obj, "code": obj.code, "spaced": S.spaced(obj.code),
                           "running": S.is_running(obj), "message": message}
    if pres is None or not ctx["running"]:
        ctx["running"] = False
        return ctx
    ctx.update(S.follow_context(snap, None, pres))
    url = join_address(request, obj.code)
    ctx.update({
        "join_url": url, "qr": qr_svg(url),
        "control_url": reverse("live_control", args=[obj.code]),
        "stream_url": reverse("live_stream_teacher", args=[obj.code, translation.get_language()]),
        "prev_step": obj.step - 1 if obj.step > pres.first else None,
        "next_step": obj.step + 1 if obj.step < pres.last else None,
        "seats": [{"value": "all", "label": _("All hands open"), "current": obj.seat is None}]
        + [{"value": str(i), "label": _("%(name)s's view") % {"name": p},
            "current": obj.seat == i} for i, p in enumerate(pres.players)],
        "panel": S.panel_context(obj, pres),
        "qs": obj.question_state,
        "expires": obj.expires,
    })
    try:
        S.question(pres, obj.step, obj.seat)
        ctx["can_ask"] = True
    except Refusal as exc:
        ctx["can_ask"], ctx["cannot_ask"] = False, exc.message
    ctx["present_url"] = (reverse("scenario_present", args=[obj.ref, obj.step])
                          if obj.kind == "scenario" else
                          reverse("tutorial_present", kwargs={
                              "game": pres.game, "slug": obj.ref.partition("/")[2],
                              "step": obj.step}))
    return ctx


@require_safe
@vary_on_headers("HX-Request")
def projector(request: HtmxHttpRequest, code: str) -> HttpResponse:
    obj = _teacher_session(request, code)
    if obj is None:
        return _not_found(request)
    return _answer(request, "live/projector.html", projector_context(request, obj))


@require_POST
@vary_on_headers("HX-Request")
def control(request: HtmxHttpRequest, code: str) -> HttpResponse:
    obj = _teacher_session(request, code)
    if obj is None:
        return _not_found(request)
    form = F.ControlForm(request.POST)
    message, status = "", 200
    # Built once for the whole request: the move, the question and the page all use it.
    pres = S.presentation(obj.kind, obj.ref)
    try:
        if not form.is_valid():
            raise Refusal(_("That button could not be read. Use the buttons on this page."))
        if not S.is_running(obj):
            raise Refusal(_("This live session has ended."), status=410)
        d = form.cleaned_data
        action = d["action"]
        if action in ("next", "back"):
            # Relative to the step now shown, so that two quick presses go two steps.
            S.goto(obj, obj.step + (1 if action == "next" else -1), obj.seat, pres)
        elif action == "goto":
            step = d["step"] if d["step"] is not None else obj.step
            seat = obj.seat if d["seat"] == "" else (None if d["seat"] == "all"
                                                    else int(d["seat"]))
            S.goto(obj, step, seat, pres)
        elif action == "open":
            S.open_question(obj, d["question"], pres)
        elif action == "reveal":
            S.reveal(obj)
        elif action == "close":
            S.close_question(obj)
        elif action in ("names_on", "names_off"):
            S.show_names(obj, action == "names_on")
        elif action == "end":
            S.end(obj)
    except Refusal as exc:
        message, status = exc.message, exc.status
    obj.refresh_from_db()
    if request.htmx and not request.htmx.history_restore_request:
        # htmx swaps only 2xx answers: the message is in the partial.
        return _answer(request, "live/projector.html#live",
                       projector_context(request, obj, message, pres))
    if message:
        return _answer(request, "live/projector.html",
                       projector_context(request, obj, message, pres), status=status)
    return HttpResponseRedirect(reverse("live_projector", args=[obj.code]), status=303)


# --------------------------------------------------------------------------- students
@require_safe
def short(request: HttpRequest, code: str = "") -> HttpResponse:
    """``/j/<code>/``: the join page in the visitor's language, the code filled in (whether
    it exists is told only by the rate-limited join form)."""
    language = translation.get_language_from_request(request, check_path=False)
    with translation.override(language):
        url = reverse("live_join")
    code = S.normalise_code(code)
    response = HttpResponseRedirect(f"{url}?code={code}" if code else url)
    response["Vary"] = "Accept-Language, Cookie"
    return response


def languages(request: HttpRequest, path: str, query: str = "", lesson: str = ""
              ) -> list[dict[str, Any]]:
    """The page at ``path`` in each language, for the switch on the students' pages (the
    site's own switcher hides in the menu on a phone); ``lesson``: the teacher's language."""
    return [{"code": code, "name": LANGUAGE_NAMES[code], "current": code == translation.get_language(),
             "lesson": code == lesson, "url": translate_url(path, code) + query}
            for code, _name in settings.LANGUAGES]


# The teacher's language in a sentence of the page's (a language's name is written in small
# letters in Swedish, Finnish and Norwegian, and "in" takes different forms).
TEACHER_PRESENTS_IN = {
    "sv": gettext_lazy("Your teacher presents in Swedish."),
    "fi": gettext_lazy("Your teacher presents in Finnish."),
    "nb": gettext_lazy("Your teacher presents in Norwegian Bokmål."),
    "en": gettext_lazy("Your teacher presents in English."),
}
assert set(TEACHER_PRESENTS_IN) == set(LANGUAGE_NAMES)


def lesson_language(code: str) -> str:
    """The sentence naming the teacher's language, "" for a session that did not keep it."""
    return str(TEACHER_PRESENTS_IN.get(code, ""))


def _join_page(request: HttpRequest, form: F.JoinForm, status: int = 200,
               error: str = "") -> HttpResponse:
    code = S.normalise_code(str(form["code"].value() or ""))
    return _answer(request, "live/join.html", {
        "form": form, "error": error,
        "languages": languages(request, request.path, "?" + urlencode({"code": code}) if code else "")},
        status=status)


def _failure(request: HttpRequest) -> int:
    """Count a wrong code tried from the visitor's address (``settings.LIVE_JOIN_FAILURES``, a
    sliding window as in web/ratelimit.py): the seconds to wait before trying again when
    it is one too many, or 0.  The count is taken (atomically, in the cache) before the
    visitor is told the code was wrong, so guesses sent at once get no more answers than the
    limit; a right code is never counted or refused, so a class behind one school address
    joins at once even after a few mistyped codes."""
    rate = getattr(settings, "LIVE_JOIN_FAILURES", None)
    if not rate:
        return 0
    usage = sliding_usage("live_join_failures", client_key(request), rate)
    return usage.retry_after if usage.should_limit else 0


def _wrong_code(request: HttpRequest, form: F.JoinForm, status: int,
                message: str) -> HttpResponse:
    wait = _failure(request)
    if wait:
        response = _join_page(request, form, 429, ngettext(
            "Too many wrong codes were tried from this network. Wait %(n)d second and "
            "try again.", "Too many wrong codes were tried from this network. Wait "
            "%(n)d seconds and try again.", wait) % {"n": wait})
        response["Retry-After"] = str(wait)
        return response
    return _join_page(request, form, status, message)


def _joined(request: HttpRequest, student_id: str) -> HttpResponse | None:
    """The join form sent twice: the student the first send made, while the session runs."""
    student = LiveStudent.objects.filter(pk=int(student_id)).select_related("session").first()
    if student is None or not S.is_running(student.session):
        return None
    S.grant_student(request.session, student.session, student)
    return HttpResponseRedirect(reverse("live_follow", args=[student.session.code]), status=303)


@require_http_methods(["GET", "HEAD", "POST"])
@once(_joined)
@vary_on_headers("HX-Request")
def join(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = F.JoinForm(request.POST)
        if not form.is_valid():
            return _wrong_code(request, form, 400, F.first_error(form))
        try:
            obj = S.join(request.session, form.cleaned_data["code"], form.cleaned_data["name"])
        except Refusal as exc:
            return _wrong_code(request, form, exc.status, exc.message)
        return made(HttpResponseRedirect(reverse("live_follow", args=[obj.code]), status=303),
                    str(request.session[S.SESSION_STUDENT][obj.code]))
    initial = F.JoinForm.initial_code(request.GET)
    return _join_page(request, F.JoinForm(initial={"code": initial}))


def _student(request: HttpRequest, code: str):
    obj = S.active(code)
    if obj is None:
        return None, None
    student = S.student_of(request.session, obj)
    return (obj, student) if student is not None else (None, None)


def follow_html(request: HttpRequest, obj: LiveSession, student_id: int) -> dict[str, Any]:
    snap = S.snapshot(obj)
    return S.follow_context(snap, snap["answers"].get(str(student_id)))


@require_safe
@vary_on_headers("HX-Request")
def follow(request: HttpRequest, code: str) -> HttpResponse:
    obj, student = _student(request, code)
    if obj is None:
        # Not joined (or no such session): the join form, code filled in.
        url = reverse("live_join")
        normal = S.normalise_code(code)
        return HttpResponseRedirect(f"{url}?code={normal}" if normal else url)
    ctx = follow_html(request, obj, student.pk)
    ctx.update({"name": student.name, "spaced": S.spaced(obj.code),
                "languages": languages(request, request.path, lesson=obj.language),
                "lesson_language": lesson_language(obj.language),
                "other_language": obj.language not in ("", translation.get_language()),
                "stream_url": reverse("live_stream", args=[obj.code, translation.get_language()]),
                "now_url": reverse("live_now", args=[obj.code]),
                "answer_url": reverse("live_answer", args=[obj.code])})
    return _answer(request, "live/follow.html", ctx)


@require_safe
@vary_on_headers("HX-Request")
def now(request: HttpRequest, code: str) -> HttpResponse:
    """The student's current state as the stream sends it (a phone back from sleep)."""
    obj, student = _student(request, code)
    if obj is None:
        joined = (request.session.get(S.SESSION_STUDENT) or {}).get(S.normalise_code(code))
        if S.ended_for(code, joined):
            return _answer(request, "live/follow.html#follow", {"running": False})
        return _not_found(request)
    ctx = follow_html(request, obj, student.pk)
    ctx["answer_url"] = reverse("live_answer", args=[obj.code])
    return _answer(request, "live/follow.html#follow", ctx)


@require_POST
@vary_on_headers("HX-Request")
def answer(request: HtmxHttpRequest, code: str) -> HttpResponse:
    obj, student = _student(request, code)
    if obj is None:
        return _not_found(request)
    form = F.AnswerForm(request.POST)
    message, status = "", 200
    try:
        if not form.is_valid():
            raise Refusal(_("Choose one of the moves offered."))
        S.answer(obj, student, form.cleaned_data["question"], form.cleaned_data["choice"])
    except Refusal as exc:
        message, status = exc.message, exc.status
    obj.refresh_from_db()
    ctx = follow_html(request, obj, student.pk)
    ctx.update({"answer_url": reverse("live_answer", args=[obj.code]), "message": message})
    if request.htmx:
        return _answer(request, "live/follow.html#follow", ctx)
    if message:
        ctx.update({"name": student.name, "spaced": S.spaced(obj.code),
                    "stream_url": reverse("live_stream",
                                          args=[obj.code, translation.get_language()]),
                    "now_url": reverse("live_now", args=[obj.code])})
        return _answer(request, "live/follow.html", ctx, status=status)
    return HttpResponseRedirect(reverse("live_follow", args=[obj.code]), status=303)
