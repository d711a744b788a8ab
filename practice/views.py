"""Practice mode: new-game forms, the game page and its POST endpoints, replay links.

Every view renders ``practice/<page>.html#<partial>`` for htmx requests and the full page
otherwise.  Templates get the seat's view (through the shared presenter), never a state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from games.adapters import ADAPTERS, MOVE_LABELS, adapter
from games.registry import GAME_TITLES
from games.table import table_context
from rules.engine import cards as C
from web.errors import Refusal
from web.forms import first_error
from web.htmx import HtmxHttpRequest
from web.once import made, once

from . import service as P
from .forms import (
    PACE_CHOICES,
    PACES,
    HintForm,
    MoveForm,
    NewGameForm,
    PaceForm,
    PresetForm,
    PuzzleForm,
    ReplayStepForm,
    VersionForm,
)
from .models import PracticeGame


def _render(request: HtmxHttpRequest, template: str, partial: str, context: dict,
            status: int = 200) -> HttpResponse:
    name = f"{template}#{partial}" if request.htmx else template
    return render(request, name, context, status=status)


# --------------------------------------------------------------------------- overview
@require_safe
def overview(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "practice/overview.html", _overview_context(request))


def _overview_context(request: HttpRequest) -> dict[str, Any]:
    games = [{"key": g, "title": GAME_TITLES[g], "blurb": a.blurb,
              "url": reverse(f"practice_{g}")} for g, a in ADAPTERS.items()]
    token = P.owner_token(request.session)
    recent = []
    if token:
        for rec in PracticeGame.objects.filter(owner=token)[:10]:
            recent.append({"title": GAME_TITLES[rec.game], "names": rec.names,
                           "deal": rec.deal_number, "over": rec.result is not None,
                           "updated": rec.updated,
                           "url": reverse(f"practice_{rec.game}_play", args=[rec.pk])})
    return {"games": games, "recent": recent}


# --------------------------------------------------------------------------- new game
def _created(request: HttpRequest, game_id: str) -> HttpResponse | None:
    """The new-game form sent twice: the game the first send made, while nobody has moved
    (after that, the form sent again is a wish for another game)."""
    record = PracticeGame.objects.filter(pk=game_id, version=0).first()
    owner = P.owner_token(request.session)
    if record is None or owner not in (None, record.owner):
        return None
    request.session[P.OWNER_KEY] = record.owner  # a new visitor's second session
    return HttpResponseRedirect(reverse(f"practice_{record.game}_play", args=[record.pk]))


@require_http_methods(["GET", "HEAD", "POST"])
@once(_created)
def new_game(request: HtmxHttpRequest, game: str) -> HttpResponse:
    if request.method == "POST":
        form = NewGameForm(game, request.POST)
        if form.is_valid():
            rules = form.rules()
            try:
                owner = P.owner_token(request.session, create=True) or ""  # made: create=True
                record = P.create_game(
                    owner, game, {k: ("none" if v is None else v) for k, v in rules.items()},
                    form.cleaned_data["players"], form.cleaned_data["level"],
                    form.cleaned_data["name"], get_language() or "en",
                    form.cleaned_data.get("memory_aid", True))
            except Refusal as exc:
                form.add_error(None, exc.message)
            else:
                return made(HttpResponseRedirect(reverse(f"practice_{game}_play",
                                                         args=[record.pk])), str(record.pk))
        status = 400
    else:
        # ?preset= comes from links on the rules pages: an unknown one (an old link) is ignored
        # and the page starts from the default rule set.
        query = PresetForm(adapter(game).engine.PRESETS, request.GET)
        initial = {}
        if query.is_valid() and query.cleaned_data["preset"]:
            initial["preset"] = query.cleaned_data["preset"]
        form = NewGameForm(game, initial=initial)
        status = 200
    return render(request, "practice/new.html", {
        "form": form, "game": game, "title": GAME_TITLES[game],
        "rules_url": reverse(f"rules_{game}"), "variants_url": reverse(f"variants_{game}"),
    }, status=status)


# --------------------------------------------------------------------------- the game page
def _record(request: HttpRequest, game: str, game_id) -> PracticeGame:
    token = P.owner_token(request.session)
    if not token:
        raise Http404
    try:
        return PracticeGame.objects.get(pk=game_id, game=game, owner=token)
    except PracticeGame.DoesNotExist:
        raise Http404 from None


def _urls(record: PracticeGame) -> dict[str, str]:
    g = record.game
    args = [record.pk]
    return {k: reverse(f"practice_{g}_{k}", args=args)
            for k in ("play", "move", "step", "undo", "next", "share", "export", "review",
                      "puzzle")}


def _view_for_page(record: PracticeGame, state: Any) -> dict[str, Any]:
    return adapter(record.game).page_view(state.view(record.human_seat), record.memory_aid)


def _actions(record: PracticeGame, state: Any, view: dict) -> dict[str, Any]:
    """What the player can do now, straight from legal_actions(): a button per move that needs
    a choice of cards or positions, and one per move that needs none."""
    if state.over or state.to_move != record.human_seat:
        return {"mine": False}
    game = adapter(record.game)
    legal = list(state.legal_actions())
    kinds: list[str] = []
    simple: list[dict[str, Any]] = []
    seen_simple = set()
    for a in legal:
        kind = game.kind(a)
        if kind in game.choice_kinds:
            if kind not in kinds:
                kinds.append(kind)
        else:
            label = game.describe(a, record.names)
            if label not in seen_simple:
                seen_simple.add(label)
                simple.append({"label": label, "fields": _hidden(game.form_fields(a)),
                               "id": f"move-simple-{len(simple) + 1}", "tap": game.pile_tap(a)})
    # One tap on a card makes the move when it is the only kind of choice now (a Spardame
    # play): the card is the submit button, there is no separate one.
    one_tap = bool(kinds) and kinds == [game.one_tap_kind]
    buttons = [] if one_tap else [{"kind": k, "label": MOVE_LABELS[k]} for k in kinds]
    for i, entry in enumerate(simple, start=len(buttons) + 1):  # keys 1–9 (documented)
        entry["key"] = i if i <= 9 else None
    # One tap on the stock, the discard pile or the next place in your row makes that move.
    taps = {e["tap"]: {"form": e["id"], "label": e["label"]} for e in simple if e["tap"]}
    ctx: dict[str, Any] = {"mine": True, "buttons": buttons, "simple": simple, "taps": taps,
                           "selectable": game.picks_from_hand and bool(kinds),
                           "one_tap": game.one_tap_kind if one_tap else "", "choosing": bool(kinds)}
    ctx.update(game.choice_context(legal, view, record.human_seat, kinds))
    ctx.update(_cues(game, state, legal, view, record.human_seat, kinds)
               if ctx["selectable"] else {})
    return ctx


def _cues(game: Any, state: Any, legal: list, view: dict, seat: int, kinds: list[str]
          ) -> dict[str, Any]:
    """The legal-move cues, from legal_actions() through the adapter: which hand cards take
    part in no legal move (and why), and for a pairing move which table cards each may take."""
    usable = {c for a in legal for c in game.hand_cards(a)}
    unplayable = {c: game.unplayable_reason(state, seat, c, kinds)
                  for c in view.get("hand", ()) if c not in usable}
    pair = game.pair_template() if "beat" in kinds else ""
    beats: dict[int, list[int]] | None = None
    if pair:
        beats = {}
        for a in legal:
            if game.kind(a) == "beat":
                own, target = game.hand_cards(a)[0], game.targets(a)
                beats.setdefault(own, []).extend(target)
    return {"unplayable": unplayable, "beats": beats, "pair_template": pair}


def _hidden(fields: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for k, v in fields.items():
        for item in (v if isinstance(v, list) else [v]):
            out.append((k, str(item)))
    return out


def _context(request: HttpRequest, record: PracticeGame, derived: P.Derived, *,
             error: str = "", show_hint: bool = False) -> dict[str, Any]:
    state = derived.state
    view = _view_for_page(record, state)
    actions = _actions(record, state, view)
    hint = None
    hint_pending = False
    if show_hint and actions["mine"]:
        # The analysis runs as a task (practice/tasks.py): a stored one is shown at once, else
        # it is enqueued and the page polls (an immediate backend has it done by the next line).
        hint = P.hint(record, derived, compute=False)
        if hint is None:
            P.request_hint(record)
            hint = P.hint(record, derived, compute=False)
            hint_pending = hint is None
    selected = []
    if hint is not None:
        fields = hint.fields
        selected = [C.parse(c) for c in fields.get("card", [])]
        for t in actions.get("targets", []):
            t["checked"] = t["code"] == fields.get("target")
    elif len(actions.get("targets", [])) == 1:
        actions["targets"][0]["checked"] = True  # the only card there is to beat
    target = None
    for t in actions.get("targets", []):
        if t.get("checked"):
            target = C.parse(t["code"])
    table = table_context(view, selectable=actions.get("selectable", False), selected=selected,
                          highlight=selected,
                          label=_("Card table"), pick_target=bool(actions.get("beats")),
                          target=target, unplayable=actions.get("unplayable"),
                          one_tap=bool(actions.get("one_tap")), beats=actions.get("beats"),
                          taps=actions.get("taps"), slot_picks=actions.get("slot_picks"),
                          you=record.human_seat)
    log = P.game_log(record, derived)
    # What happened since the player's last decision: their move, then each bot reply as it
    # is shown (one more line per bot step).
    mine = [i for i, entry in enumerate(log) if entry["mine"]]
    since = mine[-1] if mine else 0
    latest = [line for entry in log[since:] for line in entry["lines"]]
    human = record.names[record.human_seat]
    undoable = any(m.startswith(human + " ") for m in record.actions[record.puzzle_from:])
    puzzle = None
    if record.puzzle_of_id is not None:
        original = record.puzzle_of
        puzzle = {"review_url": reverse(f"practice_{record.game}_review", args=[original.pk])
                  if original is not None and original.owner == record.owner else ""}
    bot_turn = P.is_bot_turn(record, state)
    return {
        "record": record, "game": record.game, "title": GAME_TITLES[record.game],
        "table": table, "actions": actions, "hint": hint, "hint_pending": hint_pending,
        "hint_fields": _hidden(hint.fields) if hint else [],
        "log": log, "latest": latest, "latest_seat": derived.seats[-1] if derived.seats else None,
        "error": error, "urls": _urls(record), "undoable": undoable, "bot_turn": bot_turn,
        "to_move_name": record.names[state.to_move] if state.to_move is not None else "",
        "to_move_you": state.to_move == record.human_seat,
        "over": state.over, "summary": P.series_summary(record),
        "can_deal_again": P.can_deal_again(record) if state.over else False,
        "bot_delay": _bot_delay(request), "pace": _pace(request), "paces": PACE_CHOICES,
        "share_url": request.build_absolute_uri(
            reverse(f"practice_{record.game}_replay", args=[record.share_token]))
        if record.share_token else "",
        "deal_label": record.deal_number, "puzzle": puzzle,
        # Nothing played yet: the page deals the cards out (static/js/flip.js).
        "fresh_deal": not record.actions and record.puzzle_of_id is None,
    }


PACE_KEY = "practice_bot_pace"


def _pace(request: HttpRequest) -> str:
    pace = request.session.get(PACE_KEY, "normal")
    return pace if pace in PACES else "normal"


def _bot_delay(request: HttpRequest) -> int:
    """Milliseconds before the page shows the next bot move; 0: only when asked."""
    return round(getattr(settings, "PRACTICE_BOT_DELAY_MS", 700) * PACES[_pace(request)])


@require_POST
def pace(request: HttpRequest) -> HttpResponse:
    """The bots' pace, kept in the session; back to the page the form was on."""
    form = PaceForm(request.POST)
    if not form.is_valid():
        return render(request, "practice/overview.html",
                      {**_overview_context(request), "error": first_error(form)}, status=400)
    request.session[PACE_KEY] = form.cleaned_data["pace"]
    target = form.cleaned_data["next"]
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = reverse("practice")
    return HttpResponseRedirect(target)


@require_safe
@vary_on_headers("HX-Request")
def play(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    query = HintForm(request.GET)  # anything but ?hint=1 shows no hint, as the page links
    derived = P.load(record)
    ctx = _context(request, record, derived,
                   show_hint=query.is_valid() and query.cleaned_data["hint"] == 1)
    return _render(request, "practice/game.html", "update", ctx)


def _version(request: HttpRequest) -> int:
    """The game version the page showed; Refusal when the form lacks it."""
    form = VersionForm(request.POST)
    if not form.is_valid():
        raise Refusal(first_error(form))
    return form.cleaned_data["version"]


def _after_post(request: HtmxHttpRequest, record: PracticeGame, action) -> HttpResponse:
    try:
        action()
    except Refusal as exc:
        record.refresh_from_db()
        ctx = _context(request, record, P.load(record), error=exc.message)
        status = 200 if request.htmx else exc.status
        return _render(request, "practice/game.html", "update", ctx, status=status)
    if request.htmx:
        record.refresh_from_db()
        return _render(request, "practice/game.html", "update",
                       _context(request, record, P.load(record)))
    return HttpResponseRedirect(reverse(f"practice_{record.game}_play", args=[record.pk]))


@require_POST
@vary_on_headers("HX-Request")
def move(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)

    def act():
        form = MoveForm(adapter(game), request.POST)
        if not form.is_valid():
            raise Refusal(first_error(form))
        P.human_move(record, _version(request), form.cleaned_data["words"])

    return _after_post(request, record, act)


@require_POST
@vary_on_headers("HX-Request")
def step(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    return _after_post(request, record, lambda: P.step_bot(record, _version(request)))


@require_POST
@vary_on_headers("HX-Request")
def undo(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    return _after_post(request, record, lambda: P.undo(record, _version(request)))


@require_POST
@vary_on_headers("HX-Request")
def next_deal(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    return _to_new_game(request, record, lambda: P.next_deal(record, _version(request)))


def _to_new_game(request: HtmxHttpRequest, record: PracticeGame,
                 make: Callable[[], PracticeGame]) -> HttpResponse:
    """Open the game ``make`` creates (the next deal, a puzzle); a refusal is shown on this
    game's page and changes nothing."""
    try:
        new = make()
    except Refusal as exc:
        ctx = _context(request, record, P.load(record), error=exc.message)
        return _render(request, "practice/game.html", "update", ctx,
                       status=200 if request.htmx else exc.status)
    url = reverse(f"practice_{record.game}_play", args=[new.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url, status=204)
    return HttpResponseRedirect(url)


@require_POST
def share(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    return _after_post(request, record, lambda: P.share(record))


@require_safe
def export(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    record = _record(request, game, game_id)
    derived = P.load(record)
    if not derived.state.over:
        ctx = _context(request, record, derived,
                       error=_("The game can be exported once the deal is over: the file shows "
                               "every card."))
        return _render(request, "practice/game.html", "update", ctx, status=409)
    text = json.dumps(P.export(record), ensure_ascii=False, indent=2)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{game}-{str(record.pk)[:8]}-{record.deal_number}.json"')
    return response


# --------------------------------------------------------------------------- review
@require_safe
@vary_on_headers("HX-Request")
def review(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    """The post-game review: the decisions are analysed by a task (practice/tasks.py), which
    this request enqueues once; the page polls with the progress until it is done, then shows
    the three costliest clear mistakes, or says that it found none."""
    record = _record(request, game, game_id)
    urls = _urls(record)
    try:
        progress = P.review_progress(record)
        if not progress["done"]:
            P.request_review(record)
            record.refresh_from_db(fields=["review"])
            progress = P.review_progress(record)
    except Refusal as exc:
        ctx = _context(request, record, P.load(record), error=exc.message)
        return _render(request, "practice/game.html", "update", ctx, status=exc.status)
    costliest = P.review_costliest(record, progress) if progress["done"] else []
    ctx = {"record": record, "title": GAME_TITLES[game], "urls": urls, "progress": progress,
           "costliest": costliest, "percent": round(100 * progress["analysed"]
                                                    / max(progress["total"], 1)),
           "level": record.get_level_display()}
    return _render(request, "practice/review.html", "review", ctx)


@require_POST
@vary_on_headers("HX-Request")
def puzzle(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    """"Try it again": the reviewed position as a new game against the same bots."""
    record = _record(request, game, game_id)
    form = PuzzleForm(request.POST)

    def make() -> PracticeGame:
        if not form.is_valid():
            raise Refusal(first_error(form))
        return P.make_puzzle(record, form.cleaned_data["move"])

    return _to_new_game(request, record, make)


# --------------------------------------------------------------------------- replay links
@require_safe
@vary_on_headers("HX-Request")
def replay(request: HtmxHttpRequest, game: str, token) -> HttpResponse:
    try:
        record = PracticeGame.objects.get(share_token=token, game=game)
    except PracticeGame.DoesNotExist:
        raise Http404 from None
    total = len(record.actions)
    base = reverse(f"practice_{game}_replay", args=[token])
    # A step that is not a number shows the end, one out of range the nearest end (old links
    # of a game that was undone stay usable).
    query = ReplayStepForm(request.GET)
    at = query.cleaned_data["step"] if query.is_valid() else None
    at = total if at is None else max(0, min(total, at))
    derived = P.replay_shared(record, at)
    # Once the deal is over every card may be seen (the export shows them all): the replay
    # can then open every hand (?open=1); before that it shows only what the player saw.
    finished = record.result is not None
    opened = finished and query.is_valid() and query.cleaned_data["open"] == 1
    if opened:
        view, reveal, _marker = adapter(game).open_view(derived.state, record.human_seat)
    else:
        view, reveal = _view_for_page(record, derived.state), None
    table = table_context(view, reveal=reveal, label=_("Card table"), you=record.human_seat)
    log = P.game_log(record, derived)
    more = "&open=1" if opened else ""

    def url(n: int, extra: str = more) -> str:
        return f"{base}?step={n}{extra}"

    ctx = {"record": record, "title": GAME_TITLES[game], "table": table,
           "log": log, "latest": log[-1]["lines"] if log else [], "at": at, "total": total,
           "prev_url": url(at - 1) if at > 0 else "",
           "next_url": url(at + 1) if at < total else "",
           "start_url": url(0), "end_url": url(total), "finished": finished, "opened": opened,
           "toggle_url": url(at, "" if opened else "&open=1")}
    return _render(request, "practice/replay.html", "replay", ctx)

