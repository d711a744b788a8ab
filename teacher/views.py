"""Teacher pages: new scenario and import, the editor, the share page, presenter mode and the
printable handout.

Every editor POST changes the stored scenario only when the engine accepts the change; an htmx
request gets the ``editor`` partial of ``teacher/edit.html``, a plain one a redirect (or the page
with the message).  Presenter pages render ``teacher/present.html#stage`` for htmx.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from dam_site.forms import first_error
from dam_site.htmx import HtmxHttpRequest, address_oob
from dam_site.once import Again, made, once
from practice.models import PracticeGame
from rules.adapters import adapter
from rules.engine import scenario
from rules.engine.errors import IllegalAction
from rules.engine.games import GAME_NAMES
from rules.reasons import reason_text
from rules.templatetags.cards import card_context
from tutorials import lessons
from tutorials.presenters import event_cards, table_context

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
    from practice.service import owner_token

    token = owner_token(request.session)
    if token:
        finished = list(PracticeGame.objects.filter(owner=token, result__isnull=False)[:10])
    tutorials = [{"title": t.title, "game": GAME_TITLES[t.game],
                  "url": reverse("tutorial_present", kwargs={"game": t.game, "slug": t.slug,
                                                              "step": 1})}
                 for g in lessons.GAMES for t in lessons.BY_GAME[g]]
    games = [{"value": g, "label": GAME_TITLES[g],
              "presets": [{"value": f"{g}:{p}", "label": p} for p in S.presets(g)]}
             for g in GAME_NAMES]
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
    except S.TeacherError as exc:
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
    from practice.service import owner_token

    form = F.FromPracticeForm(request.POST)
    key = form.cleaned_data["game_id"] if form.is_valid() else None
    token = owner_token(request.session)
    record = None
    if key is not None:
        record = (PracticeGame.objects.filter(pk=key, owner=token).first() if token else None) \
            or PracticeGame.objects.filter(share_token=key).first()
    try:
        if record is None:
            raise S.TeacherError(_("No practice game of yours or shared with you has that "
                                   "address."), status=404)
        obj = S.from_practice(request.session, record)
    except S.TeacherError as exc:
        return render(request, "teacher/new.html", _new_context(request, practice_error=exc.message),
                      status=exc.status)
    return made(HttpResponseRedirect(reverse("scenario_present", args=[obj.code, 0]),
                                     status=303), obj.code)


# --------------------------------------------------------------------------- share page
def _steps_list(scn: scenario.Scenario, frames: list[S.Frame]) -> list[dict[str, Any]]:
    out = []
    for f in frames[1:]:
        step = f.step
        item: dict[str, Any] = {"n": f.number, "kind": step.kind, "move": step.move,
                                "say": S.narration(step.say), "raw_say": step.say,
                                "label": _describe(scn, frames[f.number - 1].state, step.move)
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
    from rules.engine import cards as C
    return C.parse(code)


def _replay_or_none(obj: TeacherScenario):
    """The scenario's frames from the shared cache (presenting step after step replays the
    record once, on whichever server)."""
    return S.replay_or_none(obj.data)


@require_safe
def detail(request: HttpRequest, code: str) -> HttpResponse:
    obj = _get(code)
    scn, frames = _replay_or_none(obj)
    editable = S.can_edit(request.session, obj)
    ctx = {"obj": obj, "game_title": GAME_TITLES[obj.data["game"]], "editable": editable,
           "steps": _steps_list(scn, frames) if scn else [], "complete": scn is not None,
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
    scn, frames = _replay_or_none(obj)
    ctx: dict[str, Any] = {
        "obj": obj, "game_title": GAME_TITLES[obj.data["game"]], "complete": scn is not None,
        "players": obj.data["players"], "steps": [], "positions": [], "trump": ""}
    if scn is None:
        ctx["deal"] = _deal_list(obj)
        return render(request, "teacher/print.html", ctx)
    game = adapter(scn.game)
    chosen = F.HandoutForm(len(frames) - 1, request.GET).steps()
    steps = _steps_list(scn, frames)
    for s in steps:
        s["shown"] = s["n"] in chosen
    ctx.update({
        "deal": _deal_list(obj, frames[0].state), "steps": steps, "after_deal": 0 in chosen,
        "trump": game.trump_text([f.state for f in frames], [f.events for f in frames]),
        "positions": [{"n": n, "table": _handout_table(scn, frames[n], n),
                       "label": steps[n - 1]["label"] if n else ""} for n in chosen]})
    return render(request, "teacher/print.html", ctx)


def _handout_table(scn: scenario.Scenario, frame: S.Frame, n: int) -> dict[str, Any]:
    """One of several tables on the handout: its ids and region names made its own."""
    table = _table(scn, frame, None)
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
        scn, frames = S.replay_or_none(data)
        if scn is not None:
            state = frames[-1].state
            ctx["table"] = _table(scn, frames[-1], None)
            ctx["legal"] = S.legal_moves(scn, state)
            ctx["over"] = state.over
            ctx["steps"] = _steps_list(scn, frames)
    return ctx


def _editor(request: HtmxHttpRequest, obj: TeacherScenario, message: str = "", kind: str = "",
            status: int = 200) -> HttpResponse:
    ctx = _editor_context(request, obj, message, kind)
    partial = _partial(request)
    template = "teacher/edit.html#editor" if partial else "teacher/edit.html"
    # htmx swaps only 2xx responses: the message is in the partial, so it says 200.
    response = render(request, template, ctx, status=200 if partial else status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _editable(request: HttpRequest, code: str) -> TeacherScenario:
    obj = _get(code)
    if not S.can_edit(request.session, obj):
        raise PermissionDenied403
    return obj


class PermissionDenied403(Exception):
    pass


def _forbidden(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "teacher/forbidden.html", {
        "detail_url": reverse("scenario_detail", args=[code])}, status=403)


@require_safe
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
    except PermissionDenied403:
        return _forbidden(request, code)
    try:
        with transaction.atomic():
            obj = TeacherScenario.objects.select_for_update().get(pk=obj.pk)
            data = json.loads(json.dumps(obj.data))
            seen = F.checked(F.StepsForm(request.POST))["steps"]
            if seen is not None and seen != len(data.get("steps", [])):
                # A double submit or a second tab: judge nothing against a position not shown.
                raise S.TeacherError(str(CHANGED), status=409)
            message = change(data) or ""
            if not _store(obj, data=data):
                raise S.TeacherError(str(CHANGED), status=409)
    except S.TeacherError as exc:
        obj.refresh_from_db()
        return _editor(request, obj, exc.message, "error", status=exc.status)
    obj.refresh_from_db()
    if _partial(request):
        return _editor(request, obj, message, "success")
    return HttpResponseRedirect(reverse("scenario_edit", args=[code]), status=303)


@require_POST
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
def rules(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        form = F.RulesForm(S.option_names(data), request.POST)
        fields = F.checked(form)
        S.set_rules(data, fields["preset"], form.options())
        return _("The rules were changed.")
    return _change(request, code, change)


@require_POST
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
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def change(data):
        S.undo(data)
        return _("The last step was removed.")
    return _change(request, code, change)


@require_POST
def save(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        obj = _editable(request, code)
    except PermissionDenied403:
        return _forbidden(request, code)
    data = json.loads(json.dumps(obj.data))
    form = F.SaveForm(len(data.get("steps", [])), request.POST)
    try:
        title = F.checked(form)["title"].strip()[:S.MAX_TITLE]
        S.set_narration(data, form.texts())
    except S.TeacherError as exc:  # nothing is stored
        return _editor(request, obj, exc.message, "error", status=exc.status)
    if not _store(obj, data=data, title=title):  # a move recorded meanwhile is kept
        obj.refresh_from_db()
        return _editor(request, obj, str(CHANGED), "error", status=409)
    url = reverse("scenario_detail", args=[code])
    if _partial(request):
        return HttpResponseClientRedirect(url, status=204)
    return HttpResponseRedirect(url, status=303)


# --------------------------------------------------------------------------- presenter
def _table(scn: scenario.Scenario, frame: S.Frame, seat: int | None, big: bool = False):
    """The table of a frame: every hand open (``seat`` None) or one seat's own view only."""
    state = frame.state
    if seat is None:
        viewer = state.to_move if state.to_move is not None else 0
        view, reveal, marker = adapter(scn.game).open_view(state, viewer)
        marks = event_cards(frame.events, marker)
    else:
        view = state.view(seat)
        reveal = None
        marks = event_cards(frame.events, seat)
    return table_context(view, reveal=reveal, highlight=marks)


def _describe(scn: scenario.Scenario, before: Any, move: str, seat: int | None = None) -> str:
    """A recorded move in words of the page language ("Anna: Attack with …").  In one seat's
    view, cards passed by another player stay unnamed (they are secret)."""
    words = move.split()
    try:
        mover = scn.players.index(words[0])
        action = scn.module.parse_action(before, mover, words[1:])
    except (IllegalAction, ValueError, IndexError):
        return ""
    if seat is not None and seat != mover and words[1:2] == ["pass"]:
        return _("%(name)s passes three cards.") % {"name": words[0]}
    return _("%(name)s: %(move)s") % {"name": words[0],
                                       "move": adapter(scn.game).describe(action, scn.players)}


# A move not made yet (the next one, or one the engine refuses) names cards that are still in
# the mover's hand: another seat's view names only the kind of move.
UNSEEN_MOVES = {
    "attack": gettext_lazy("%(name)s attacks."),
    "add": gettext_lazy("%(name)s adds cards to the attack."),
    "beat": gettext_lazy("%(name)s beats a card."),
    "announce": gettext_lazy("%(name)s announces a king and a queen."),
    "pass": gettext_lazy("%(name)s passes three cards."),
    "play": gettext_lazy("%(name)s plays a card."),
}


def _cards_named(words: list[str]) -> list[int]:
    from rules.engine import cards as C

    out = []
    for w in words:
        try:
            out.append(C.parse(w))
        except (C.CardError, ValueError, KeyError, IndexError, AttributeError):
            continue
    return out


def _open_to(view: dict[str, Any]) -> set[int]:
    """The cards a seat's view shows face up in its hand or on the table."""
    out = set(view.get("hand") or ()) | set(view.get("table") or ()) | set(view.get("trick") or ())
    for pair in view.get("beaten") or ():
        out |= set(pair)
    return out


def _unseen_move(scn: scenario.Scenario, before: Any, move: str, seat: int | None
                 ) -> tuple[str, bool]:
    """A move still to be made (or refused), as ``seat`` may know it, and whether it is told
    in full: in full with every hand open, else only when every card it names is open to that
    seat (its own hand, the table) and, for another player's move, when it names no card of
    that player's hand; otherwise only the kind of move ("Anna attacks.").  ("", True) when
    the move names no player."""
    words = move.split()
    if not words or words[0] not in scn.players:
        return "", True
    mover = scn.players.index(words[0])
    kind = words[1] if len(words) > 1 else ""
    if seat is not None:
        named = _cards_named(words[1:])
        if seat != mover:
            knows = not named and kind not in UNSEEN_MOVES
        else:
            knows = set(named) <= _open_to(before.view(seat))
        if not knows:
            if kind in UNSEEN_MOVES:
                return str(UNSEEN_MOVES[kind]) % {"name": words[0]}, False
            return _("%(name)s makes a move.") % {"name": words[0]}, False
    return _describe(scn, before, move) or _("%(name)s makes a move.") % {"name": words[0]}, True


def _refused_note(scn: scenario.Scenario, before: Any, move: str, reason: str,
                  seat: int | None) -> str:
    """A refused step in the page language, naming only cards ``seat`` may see.  The reason
    tells something about the cards tried ("the queen of spades cannot beat"), so a view that
    may not see them gets the kind of move only."""
    described, in_full = _unseen_move(scn, before, move, seat)
    if not in_full:
        return _("Refused move: %(move)s") % {"move": described}
    said = reason_text(reason, (), scn.game)
    if described:
        return _("Refused: %(move)s %(reason)s") % {"move": described, "reason": said}
    return _("Refused: %(reason)s") % {"reason": said}


def _seat_narration(scn_game: str, events: list, players: list[str], seat: int
                    ) -> dict[str, str]:
    """One seat's narration, made from the engine's events as that seat may see them (the
    teacher's own text may name any card, so a seat view never shows it)."""
    text = adapter(scn_game).narrate(list(events or ()), players, seat)
    return {"text": " ".join(text), "lang": ""}


def _seat_param(request: HttpRequest, players: list[str]) -> int | None:
    """?seat=<n>: that player's view; anything else (no seat, "all") shows every hand."""
    return F.SeatForm(players, request.GET).seat()


def _render_present(request: HtmxHttpRequest, ctx: dict[str, Any]) -> HttpResponse:
    if _partial(request):
        html = render_to_string("teacher/present.html#htmx", ctx, request=request)
        # After Next/Back the links to other languages must lead to this step.
        response = HttpResponse(html + address_oob(request, request.get_full_path()))
        patch_vary_headers(response, ("HX-Request",))
        return response
    response = render(request, "teacher/present.html", ctx)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _present_ctx(*, title: str, game: str, n: int, first: int, last: int, table, say,
                 url_for, seat: int | None, players: list[str], note: str = "",
                 back_url: str) -> dict[str, Any]:
    q = "" if seat is None else f"?seat={seat}"
    return {
        "title": title, "game": game, "n": n, "first": first, "last": last, "table": table,
        "say": say, "note": note, "seat": seat, "back_url": back_url,
        "position": n - first + 1, "count": last - first + 1,
        "prev_url": url_for(n - 1) + q if n > first else "",
        "next_url": url_for(n + 1) + q if n < last else "",
        "seats": [{"value": "all", "label": _("All hands open"), "current": seat is None,
                   "url": url_for(n)}]
        + [{"value": str(i), "label": _("%(name)s's view") % {"name": p}, "current": seat == i,
            "url": url_for(n) + f"?seat={i}"} for i, p in enumerate(players)],
    }


@require_safe
def present(request: HtmxHttpRequest, code: str, step: int) -> HttpResponse:
    obj = _get(code)
    scn, frames = _replay_or_none(obj)
    if scn is None:
        return render(request, "teacher/not_found.html", {
            "message": _("This scenario is not complete yet, so it cannot be presented."),
            "back_url": reverse("scenario_detail", args=[code])}, status=404)
    if not 0 <= step < len(frames):
        return render(request, "teacher/not_found.html", {
            "message": _("This scenario has no step %(n)d.") % {"n": step},
            "back_url": reverse("scenario_present", args=[code, 0])}, status=404)
    seat = _seat_param(request, scn.players)
    ctx = _present_ctx(
        **scenario_show(obj, scn, frames, step, seat), n=step, first=0, last=len(frames) - 1,
        url_for=lambda k: reverse("scenario_present", args=[code, k]), seat=seat,
        players=scn.players, back_url=reverse("scenario_detail", args=[code]))
    ctx["live"] = {"kind": "scenario", "ref": code, "step": step, "seat": seat}
    return _render_present(request, ctx)


def scenario_show(obj: TeacherScenario, scn: scenario.Scenario, frames: list[S.Frame],
                  step: int, seat: int | None) -> dict[str, Any]:
    """What the presenter shows at a scenario's step ``step`` from ``seat``'s eyes (None: every
    hand open), in the page language: title, game, table, narration and note.  The live
    classroom (live/) shows students exactly this."""
    frame = frames[step]
    note = ""
    if frame.step is not None and frame.step.kind == "illegal":
        note = _refused_note(scn, frames[step - 1].state, frame.step.move,
                             frame.refused or frame.step.reason, seat)
    elif frame.step is not None and frame.step.kind == "do":
        note = _describe(scn, frames[step - 1].state, frame.step.move, seat)
    if seat is None:
        say = S.narration(frame.step.say if frame.step else None)
    else:
        say = _seat_narration(scn.game, frame.events, scn.players, seat)
    return {"title": obj.title or _("Scenario %(code)s") % {"code": obj.code},
            "game": scn.game, "table": _table(scn, frame, seat), "say": say, "note": note}


@require_safe
def present_tutorial(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    from tutorials.views import replay as tutorial_replay

    tutorial = lessons.get(game, slug) if game in GAME_NAMES else None
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return render(request, "teacher/not_found.html", {
            "message": _("There is no such tutorial step."),
            "back_url": reverse("scenarios_new")}, status=404)
    rp = tutorial_replay(game, slug)
    seat = _seat_param(request, rp.scn.players)
    ctx = _present_ctx(
        **tutorial_show(tutorial, rp, step, seat), n=step, first=1, last=len(tutorial.steps),
        url_for=lambda k: reverse("tutorial_present", kwargs={"game": game, "slug": slug,
                                                               "step": k}),
        seat=seat, players=rp.scn.players,
        back_url=reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": step}))
    ctx["live"] = {"kind": "tutorial", "ref": f"{game}/{slug}", "step": step, "seat": seat}
    return _render_present(request, ctx)


def tutorial_show(tutorial: lessons.Tutorial, rp: Any, step: int, seat: int | None
                  ) -> dict[str, Any]:
    """What the presenter shows at a tutorial's step ``step`` (see ``scenario_show``)."""
    lesson = tutorial.steps[step - 1]
    if lesson.your_move:
        frame = S.Frame(step, rp.states[lesson.at - 1])
        note = _("Next move: %(move)s") % {
            "move": _unseen_move(rp.scn, frame.state, rp.scn.steps[lesson.at - 1].move,
                                 seat)[0]}
    else:
        frame = S.Frame(step, rp.states[lesson.at], rp.events[lesson.at])
        note = ""
    # The lesson's text speaks of every hand: one seat's view narrates what that seat saw.
    say = ({"text": str(lesson.say), "lang": ""} if seat is None
           else _seat_narration(tutorial.game, frame.events, rp.scn.players, seat))
    return {"title": str(tutorial.title), "game": tutorial.game,
            "table": _table(rp.scn, frame, seat), "say": say, "note": note}
