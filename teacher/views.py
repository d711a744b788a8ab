"""Teacher pages: new scenario and import, the editor, the share page, presenter mode and the
printable handout.

Every editor POST changes the stored scenario only when the engine accepts the change; an htmx
request gets the ``editor`` partial of ``teacher/edit.html``, a plain one a redirect (or the page
with the message).  Presenter pages render ``teacher/present.html#stage`` for htmx.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from games import presentation as P
from games import registry
from games.adapters import adapter
from games.reasons import reason_text
from games.replay import Frame, Replay, replay
from games.templatetags.cards import card_context
from practice.models import PracticeGame
from practice.service import owner_token
from rules.engine import cards as C
from rules.engine import scenario
from tutorials import lessons
from tutorials.converters import canonical_address
from web.errors import Refusal
from web.forms import first_error
from web.htmx import HtmxHttpRequest, address_oob
from web.once import Again, made, once

from . import forms as F
from . import service as S
from .models import TeacherScenario

GAME_TITLES = lessons.GAME_TITLES


def _get(code: str) -> TeacherScenario:
    obj = TeacherScenario.objects.filter(code=code[:16]).first()
    if obj is None:
        raise Http404
    return obj


def _partial(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


# --------------------------------------------------------------------------- new / import
def _new_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    finished = []
    token = owner_token(request.session)
    if token:
        finished = list(PracticeGame.objects.filter(owner=token, result__isnull=False)[:10])
    tutorials = [{"title": t.title, "game": GAME_TITLES[t.game],
                  "url": reverse("tutorial_present", kwargs={"game": t.game, "slug": t.slug,
                                                              "step": 1})}
                 for ts in lessons.BY_GAME.values() for t in ts]
    games = [{"value": g, "label": GAME_TITLES[g],
              "presets": [{"value": f"{g}:{p}", "label": p} for p in S.presets(g)]}
             for g in registry.KEYS]
    return {"games": games, "mine": S.mine(request.session), "practice": finished,
            "tutorials": tutorials, "max_kb": S.MAX_UPLOAD_BYTES // 1024,
            "form": {"rules": "dam:svarta-maja", "players": "Anna Bo Cilla"}, **extra}


@require_safe
def new(request: HttpRequest) -> HttpResponse:
    return render(request, "teacher/new.html", _new_context(request))


def _remembered(target: str) -> Again:
    """A form that makes a scenario, sent twice: the scenario the first send made, on the
    page ``target`` (a URL name) that answered it."""
    def again(request: HttpRequest, code: str) -> HttpResponse | None:
        obj = TeacherScenario.objects.filter(code=code).first()
        if obj is None:
            return None
        S.remember(request.session, obj.code)
        args = [obj.code, 0] if target == "scenario_present" else [obj.code]
        return HttpResponseRedirect(reverse(target, args=args), status=303)
    return again


@require_POST
@once(_remembered("scenario_edit"))
def create(request: HttpRequest) -> HttpResponse:
    form = F.CreateForm(request.POST)
    try:
        fields = F.checked(form)
        game, _sep, preset = fields["rules"].partition(":")
        data = S.blank(game, preset, S.parse_players(fields["players"]))
    except Refusal as exc:
        ctx = _new_context(request, create_error=exc.message, form={
            k: S.without_controls(form[k].value() or "")[:n]
            for k, n in (("rules", 60), ("players", 300))})
        return render(request, "teacher/new.html", ctx, status=400)
    obj = S.create(request.session, data)
    return made(HttpResponseRedirect(reverse("scenario_edit", args=[obj.code]), status=303),
                obj.code)


@require_POST
@once(_remembered("scenario_detail"))
def import_file(request: HttpRequest) -> HttpResponse:
    form = F.ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "teacher/new.html", _new_context(
            request, import_problems=[first_error(form)]), status=400)
    upload = form.cleaned_data["file"]
    pasted = form.cleaned_data["text"]
    problems: list[str]
    if upload is not None and upload.size > S.MAX_UPLOAD_BYTES:
        problems = [S.too_big()]
    elif upload is not None:
        text = upload.read(S.MAX_UPLOAD_BYTES + 1)
        problems = S.problems_in(text)
    elif pasted.strip():
        text = pasted.encode("utf-8")
        problems = S.problems_in(text)
    else:
        problems = [_("Choose a scenario file or paste its text.")]
    if not problems:
        try:
            obj = S.import_text(request.session, text, form.cleaned_data["title"])
        except S.ImportProblems as exc:
            problems = exc.problems
        else:
            return made(HttpResponseRedirect(reverse("scenario_detail", args=[obj.code]),
                                             status=303), obj.code)
    return render(request, "teacher/new.html", _new_context(request, import_problems=problems),
                  status=400)


@require_POST
@once(_remembered("scenario_present"))
def from_practice(request: HttpRequest) -> HttpResponse:
    form = F.FromPracticeForm(request.POST)
    key = form.cleaned_data["game_id"] if form.is_valid() else None
    token = owner_token(request.session)
    record = None
    if key is not None:
        record = (PracticeGame.objects.filter(pk=key, owner=token).first() if token else None) \
            or PracticeGame.objects.filter(share_token=key).first()
    try:
        if record is None:
            raise Refusal(_("No practice game of yours or shared with you has that "
                                   "address."), status=404)
        obj = S.from_practice(request.session, record)
    except Refusal as exc:
        return render(request, "teacher/new.html", _new_context(request, practice_error=exc.message),
                      status=exc.status)
    return made(HttpResponseRedirect(reverse("scenario_present", args=[obj.code, 0]),
                                     status=303), obj.code)


# --------------------------------------------------------------------------- share page
def _steps_list(rp: Replay) -> list[dict[str, Any]]:
    scn, frames = rp.scn, rp.frames
    out = []
    for f in frames[1:]:
        step = f.step
        assert step is not None  # every frame after the deal is a step's
        item: dict[str, Any] = {"n": f.number, "kind": step.kind, "move": step.move,
                                "say": P.narration(step.say), "raw_say": step.say,
                                "label": P.describe_move(scn, frames[f.number - 1].state, step.move)
                                if step.kind == "do" else ""}
        if step.kind == "illegal":
            item["reason"] = reason_text(f.refused or step.reason, (), scn.game)
        out.append(item)
    return out


def _deal_list(obj: TeacherScenario, start: Any = None) -> list[dict[str, Any]]:
    """The deal's places and cards; with ``start`` (the replayed deal) every card where it
    lies, the ones the file left to chance included."""
    data = obj.data
    if start is not None:
        data = {**data, "deal": adapter(data["game"]).start_deal(start, data.get("deal"))}
    out = []
    for s in S.slots(data):
        if start is not None and s.single and not s.cards:
            continue  # an empty one-card place (no turned card): the trump line says it all
        out.append({"label": s.label, "cards": [card_context(_parse(c), obj.data["game"])
                                                for c in s.cards]})
    return out


def _parse(code: str) -> int:
    return C.parse(code)


def _replay_or_none(obj: TeacherScenario) -> Replay | None:
    """The scenario's frames from the shared cache (presenting step after step replays the
    record once, on whichever server)."""
    return replay(obj.data)


@require_safe
def detail(request: HttpRequest, code: str) -> HttpResponse:
    obj = _get(code)
    rp = _replay_or_none(obj)
    editable = S.can_edit(request.session, obj)
    ctx = {"obj": obj, "game_title": GAME_TITLES[obj.data["game"]], "editable": editable,
           "steps": _steps_list(rp) if rp else [], "complete": rp is not None,
           "share_url": request.build_absolute_uri(reverse("scenario_detail", args=[obj.code])),
           "players": obj.data["players"], "rules": obj.data.get("rules", {})}
    if editable:
        ctx["edit_url"] = request.build_absolute_uri(
            reverse("scenario_edit", args=[obj.code]) + f"?key={obj.edit_token}")
    return render(request, "teacher/detail.html", ctx)


@require_safe
def export(request: HttpRequest, code: str) -> HttpResponse:
    obj = _get(code)
    response = HttpResponse(S.export_json(obj), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="scenario-{obj.code}.json"'
    return response


@require_safe
def print_view(request: HttpRequest, code: str) -> HttpResponse:
    obj = _get(code)
    rp = _replay_or_none(obj)
    ctx: dict[str, Any] = {
        "obj": obj, "game_title": GAME_TITLES[obj.data["game"]], "complete": rp is not None,
        "players": obj.data["players"], "steps": [], "positions": [], "trump": ""}
    if rp is None:
        ctx["deal"] = _deal_list(obj)
        return render(request, "teacher/print.html", ctx)
    scn, frames = rp.scn, rp.frames
    game = adapter(scn.game)
    chosen = F.HandoutForm(len(frames) - 1, request.GET).steps()
    steps = _steps_list(rp)
    for s in steps:
        s["shown"] = s["n"] in chosen
    ctx.update({
        "deal": _deal_list(obj, frames[0].state), "steps": steps, "after_deal": 0 in chosen,
        "trump": game.trump_text(rp.states, rp.events),
        "positions": [{"n": n, "table": _handout_table(scn, frames[n], n),
                       "label": steps[n - 1]["label"] if n else ""} for n in chosen]})
    return render(request, "teacher/print.html", ctx)


def _handout_table(scn: scenario.Scenario, frame: Frame, n: int) -> dict[str, Any]:
    """One of several tables on the handout: its ids and region names made its own."""
    table = P.table(scn, frame, None)
    when = _("after step %(n)s") % {"n": n} if n else _("after the deal")
    table.update({"prefix": f"after-{n}-", "suffix": f" ({when})",
                  "label": f"{table['label']} ({when})"})
    return table


# --------------------------------------------------------------------------- editor
def _editor_context(request: HttpRequest, obj: TeacherScenario, message: str = "",
                    kind: str = "") -> dict[str, Any]:
    data = obj.data
    game = data["game"]
    problem = S.deal_problem(data)
    ctx: dict[str, Any] = {
        "obj": obj, "game": game, "game_title": GAME_TITLES[game], "message": message,
        "message_kind": kind, "deal_problem": problem, "has_steps": bool(data.get("steps")),
        "slots": [{"key": s.key, "label": s.label, "single": s.single,
                   "cards": [card_context(_parse(c), game) for c in s.cards]}
                  for s in S.slots(data)],
        "languages": [{"code": c, "label": S.LANGUAGE_LABELS[c]} for c in S.LANGUAGES],
        "rules": S.rule_fields(data),
    }
    used = {c for s in S.slots(data) for c in s.cards}
    ctx["deck"] = [[{**card_context(c, game), "used": card_context(c, game)["code"] in used}
                    for c in range(suit * 13, suit * 13 + 13)] for suit in range(4)]
    if not problem:
        rp = replay(data)
        if rp is not None:
            scn, frames = rp.scn, rp.frames
            state = frames[-1].state
            ctx["table"] = P.table(scn, frames[-1], None)
            ctx["legal"] = S.legal_moves(scn, state)
            ctx["over"] = state.over
            ctx["steps"] = _steps_list(rp)
    return ctx


def _editor(request: HtmxHttpRequest, obj: TeacherScenario, message: str = "", kind: str = "",
            status: int = 200) -> HttpResponse:
    ctx = _editor_context(request, obj, message, kind)
    partial = _partial(request)
    template = "teacher/edit.html#editor" if partial else "teacher/edit.html"
    # htmx swaps only 2xx responses: the message is in the partial, so it says 200.
    return render(request, template, ctx, status=200 if partial else status)


def _editable(request: HttpRequest, code: str) -> TeacherScenario:
    obj = _get(code)
    if not S.can_edit(request.session, obj):
        raise PermissionDenied
    return obj


def _forbidden(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "teacher/forbidden.html", {
        "detail_url": reverse("scenario_detail", args=[code])}, status=403)


@require_safe
@vary_on_headers("HX-Request")
def edit(request: HtmxHttpRequest, code: str) -> HttpResponse:
    obj = _get(code)
    query = F.EditKeyForm(request.GET)
    key = query.cleaned_data["key"] if query.is_valid() else ""
    if key:
        if not S.grant_with_token(request.session, obj, key):
            return _forbidden(request, code)
        return HttpResponseRedirect(reverse("scenario_edit", args=[code]))
    if not S.can_edit(request.session, obj):
        return _forbidden(request, code)
    return _editor(request, obj)


CHANGED = gettext_lazy("The scenario changed since this page was shown (a second click or "
                       "another tab). Here is its current state; nothing was done.")


def _store(obj: TeacherScenario, **fields: Any) -> bool:
    """Write ``fields`` only if the record is still the one ``obj`` was read as (its
    ``updated`` stamp): a conditional UPDATE, so a change made meanwhile is never overwritten,
    whatever the database's locking."""
    fields["updated"] = timezone.now()
    stored = TeacherScenario.objects.filter(pk=obj.pk, updated=obj.updated).update(**fields)
    return stored == 1


def _change(request: HtmxHttpRequest, code: str, change) -> HttpResponse:
    """Run ``change(data)`` on a copy; store it only when it succeeds.

    The record is read under a row lock (PostgreSQL) and written back only if nobody changed
    it meanwhile, so of two changes sent at once against the same step count the second is
    refused with 409 "changed meanwhile" instead of being reported done and lost."""
    try:
        obj = _editable(request, code)
    except PermissionDenied:
        return _forbidden(request, code)
    try:
        with transaction.atomic():
            obj = TeacherScenario.objects.select_for_update().get(pk=obj.pk)
            data = json.loads(json.dumps(obj.data))
            seen = F.checked(F.StepsForm(request.POST))["steps"]
            if seen is not None and seen != len(data.get("steps", [])):
                # A double submit or a second tab: judge nothing against a position not shown.
                raise Refusal(str(CHANGED), status=409)
            message = change(data) or ""
            if not _store(obj, data=data):
                raise Refusal(str(CHANGED), status=409)
    except Refusal as exc:
        obj.refresh_from_db()
        return _editor(request, obj, exc.message, "error", status=exc.status)
    obj.refresh_from_db()
    if _partial(request):
        return _editor(request, obj, message, "success")
    return HttpResponseRedirect(reverse("scenario_edit", args=[code]), status=303)


@require_POST
@vary_on_headers("HX-Request")
def deal(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        fields = F.checked(F.DealForm(request.POST))
        action = fields["action"]
        if action == "fill":
            S.fill_random(data)
            return _("The rest of the deal was dealt at random.")
        if action == "clear":
            S.clear_deal(data)
            return _("Every card is back in the deck.")
        cards = S.parse_cards(fields["card"] + fields["typed"].split())
        S.assign(data, cards, fields["target"] if action == "assign" else "")
        return _("The deal was changed.")

    return _change(request, code, change)


@require_POST
@vary_on_headers("HX-Request")
def rules(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        form = F.RulesForm(S.option_names(data), request.POST)
        fields = F.checked(form)
        S.set_rules(data, fields["preset"], form.options())
        return _("The rules were changed.")
    return _change(request, code, change)


@require_POST
@vary_on_headers("HX-Request")
def move(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        fields = F.checked(F.MoveForm(request.POST))
        action, text = fields["action"] or "play", fields["move"]
        if action == "refuse":
            reason = S.record_refused(data, text)
            return _("Recorded as a refused move: %(reason)s") % {
                "reason": reason_text(reason, (), data["game"])}
        S.record(data, text)
        return _("Recorded: %(move)s") % {"move": " ".join(text.split())}

    return _change(request, code, change)


@require_POST
@vary_on_headers("HX-Request")
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        S.undo(data)
        return _("The last step was removed.")
    return _change(request, code, change)


@require_POST
@vary_on_headers("HX-Request")
def save(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        obj = _editable(request, code)
    except PermissionDenied:
        return _forbidden(request, code)
    data = json.loads(json.dumps(obj.data))
    form = F.SaveForm(len(data.get("steps", [])), request.POST)
    try:
        title = F.checked(form)["title"].strip()[:S.MAX_TITLE]
        S.set_narration(data, form.texts())
    except Refusal as exc:  # nothing is stored
        return _editor(request, obj, exc.message, "error", status=exc.status)
    if not _store(obj, data=data, title=title):  # a move recorded meanwhile is kept
        obj.refresh_from_db()
        return _editor(request, obj, str(CHANGED), "error", status=409)
    url = reverse("scenario_detail", args=[code])
    if _partial(request):
        return HttpResponseClientRedirect(url, status=204)
    return HttpResponseRedirect(url, status=303)


# --------------------------------------------------------------------------- presenter
def _seat_param(request: HttpRequest, players: list[str]) -> int | None:
    """?seat=<n>: that player's view; anything else (no seat, "all") shows every hand."""
    return F.SeatForm(players, request.GET).seat()


def _render_present(request: HtmxHttpRequest, ctx: dict[str, Any]) -> HttpResponse:
    if _partial(request):
        html = render_to_string("teacher/present.html#htmx", ctx, request=request)
        # After Next/Back the links to other languages must lead to this step.
        return HttpResponse(html + address_oob(request, request.get_full_path()))
    return render(request, "teacher/present.html", ctx)


def _present_ctx(*, title: str, game: str, n: int, first: int, last: int, table, say,
                 url_for, seat: int | None, players: list[str], note: str = "",
                 back_url: str) -> dict[str, Any]:
    q = "" if seat is None else f"?seat={seat}"
    return {
        "title": title, "game": game, "n": n, "first": first, "last": last, "table": table,
        "say": say, "note": note, "seat": seat, "back_url": back_url,
        # The step as the address numbers it (a scenario's 0 is the deal): never one more.
        "position": n, "count": last,
        "prev_url": url_for(n - 1) + q if n > first else "",
        "next_url": url_for(n + 1) + q if n < last else "",
        "seats": [{"value": "all", "label": _("All hands open"), "current": seat is None,
                   "url": url_for(n)}]
        + [{"value": str(i), "label": _("%(name)s's view") % {"name": p}, "current": seat == i,
            "url": url_for(n) + f"?seat={i}"} for i, p in enumerate(players)],
    }


@require_safe
@vary_on_headers("HX-Request")
def present(request: HtmxHttpRequest, code: str, step: int) -> HttpResponse:
    obj = _get(code)
    rp = _replay_or_none(obj)
    if rp is None:
        return render(request, "teacher/not_found.html", {
            "message": _("This scenario is not complete yet, so it cannot be presented."),
            "back_url": reverse("scenario_detail", args=[code])}, status=404)
    scn, frames = rp.scn, rp.frames
    if not 0 <= step < len(frames):
        return render(request, "teacher/not_found.html", {
            "message": _("This scenario has no step %(n)d.") % {"n": step},
            "back_url": reverse("scenario_present", args=[code, 0])}, status=404)
    seat = _seat_param(request, scn.players)
    ctx = _present_ctx(
        **P.scenario_show(S.title_of(obj), rp, step, seat), n=step, first=0, last=len(frames) - 1,
        url_for=lambda k: reverse("scenario_present", args=[code, k]), seat=seat,
        players=scn.players, back_url=reverse("scenario_detail", args=[code]))
    ctx["live"] = {"kind": "scenario", "ref": code, "step": step, "seat": seat}
    return _render_present(request, ctx)


@require_safe
@vary_on_headers("HX-Request")
@canonical_address
def present_tutorial(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    tutorial = lessons.get(game, slug) if game in registry.BY_KEY else None
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return render(request, "teacher/not_found.html", {
            "message": _("There is no such tutorial step."),
            "back_url": reverse("scenarios_new")}, status=404)
    rp = lessons.replay(game, slug)
    seat = _seat_param(request, rp.scn.players)
    ctx = _present_ctx(
        **P.tutorial_show(tutorial, rp, step, seat), n=step, first=1, last=len(tutorial.steps),
        url_for=lambda k: reverse("tutorial_present", kwargs={"game": game, "slug": slug,
                                                               "step": k}),
        seat=seat, players=rp.scn.players,
        back_url=reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": step}))
    ctx["live"] = {"kind": "tutorial", "ref": f"{game}/{slug}", "step": step, "seat": seat}
    return _render_present(request, ctx)
