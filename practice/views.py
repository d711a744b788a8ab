"""Practice mode: new-game forms, the game page and its POST endpoints, replay links.

Every view renders ``practice/<page>.html#<partial>`` for htmx requests and the full page
otherwise.  Templates get the seat's view (through the shared presenter), never a state.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from games.adapters import ADAPTERS, adapter
from games.registry import GAME_TITLES
from games.table import mark_cards, table_context
from web import pagecache
from web.errors import Refusal
from web.forms import first_error
from web.htmx import HtmxHttpRequest, address_oob
from web.once import made, once

from . import service as P
from . import tasks
from .forms import (
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
from .presenter import game_page, view_for_page
from .presenter import urls as page_urls


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
        # ?opt_<name>= too (a tutorial's "Practise this" link carries its lesson's rules): a
        # value the form does not offer is ignored, as an unknown preset is.
        for field in form.option_fields():
            raw = request.GET.get(field.html_name, "")
            if raw and raw in {str(v) for v, _label in field.field.choices}:
                form.initial[field.html_name] = raw
        status = 200
    return render(request, "practice/new.html", {
        "form": form, "game": game, "title": GAME_TITLES[game],
        "rules_url": reverse(f"rules_{game}"), "variants_url": reverse(f"variants_{game}"),
        "friends_url": reverse(f"tables_{game}_new"),
    }, status=status)


# --------------------------------------------------------------------------- the game page
class NotHere(Http404):
    """No game of this browser at this address (another browser's, or none at all)."""

    def __init__(self, game: str, game_id) -> None:
        super().__init__()
        self.game, self.game_id = game, game_id


def _record(request: HttpRequest, game: str, game_id) -> PracticeGame:
    token = P.owner_token(request.session)
    try:
        if not token:
            raise PracticeGame.DoesNotExist
        return PracticeGame.objects.get(pk=game_id, game=game, owner=token)
    except PracticeGame.DoesNotExist:
        raise NotHere(game, game_id) from None


def _explained(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page of a practice game that is not this browser's says why (a 404 page of its
    own) and offers the replay link when the owner has made one; an htmx request loads that
    page whole."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NotHere as missing:
            if request.htmx:
                return HttpResponseClientRedirect(request.get_full_path(), status=204)
            return _not_here(request, missing)
    return wrapper


def _not_here(request: HttpRequest, missing: NotHere) -> HttpResponse:
    game = missing.game
    other = PracticeGame.objects.filter(pk=missing.game_id, game=game).only(
        "share_token").first()
    replay_url = (reverse(f"practice_{game}_replay", args=[other.share_token])
                  if other is not None and other.share_token else "")
    return render(request, "practice/not_here.html", {
        "game": game, "title": GAME_TITLES[game],
        "replay_url": replay_url, "new_url": reverse(f"practice_{game}"),
    }, status=404)


def _context(request: HttpRequest, record: PracticeGame, derived: P.Derived, *,
             error: str = "", show_hint: bool = False) -> dict[str, Any]:
    return game_page(record, derived, pace=_pace(request), bot_delay=_bot_delay(request),
                     absolute=request.build_absolute_uri, error=error, show_hint=show_hint)


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
@_explained
def play(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    """The game page.  Without a hint it is kept (``web/pagecache.py``, in the shared cache)
    under everything it shows: the game's version and its series' stamp, the replay link and
    the visitor's pace; the address (the game), the language and the release are in every
    kept page's key.  A reload, a return to the game or another tab gets it without
    replaying or rendering; a move makes a new version, hence a new page."""
    # Anything but ?hint=1 shows no hint, as the page links; a bare address builds no form.
    query = HintForm(request.GET) if request.GET else None
    if query is not None and query.is_valid() and query.cleaned_data["hint"] == 1:
        record = _record(request, game, game_id)
        ctx = _context(request, record, P.load(record), show_hint=True)
        response = _render(request, "practice/game.html", "update", ctx)
        if request.htmx:
            # The Hint button puts ?hint=1 in the address bar (hx-replace-url), so a reload
            # shows the hint again: the links that name the address follow it.
            response.content += address_oob(request, request.get_full_path()).encode()
        return response
    token = P.owner_token(request.session)
    stamp = P.page_stamp(game, game_id, token) if token else None
    if stamp is None:
        raise NotHere(game, game_id)
    pace, delay = _pace(request), _bot_delay(request)
    name = "practice/game.html#update" if request.htmx else "practice/game.html"

    def make(holes: dict[str, Any]) -> str:
        # A move made since the stamp was read is shown too: its page is newer than its key,
        # and no later request asks for that key again (versions only rise).
        try:
            record = PracticeGame.objects.get(pk=game_id, game=game, owner=token)
        except PracticeGame.DoesNotExist:  # deleted since the stamp was read
            raise NotHere(game, game_id) from None
        ctx = game_page(record, P.load(record), pace=pace, bot_delay=delay,
                        absolute=request.build_absolute_uri)
        return render_to_string(name, {**ctx, **holes}, request=request)

    return pagecache.cached_page(request, "practice", (name, *stamp, pace, delay), make,
                                 store="default", timeout=P.CACHE_SECONDS)


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
        if request.htmx:
            return _without_hint(request, record,
                                 _render(request, "practice/game.html", "update", ctx))
        return _render(request, "practice/game.html", "update", ctx, status=exc.status)
    if request.htmx:
        record.refresh_from_db()
        return _without_hint(request, record, _render(request, "practice/game.html", "update",
                                                      _context(request, record, P.load(record))))
    return HttpResponseRedirect(reverse(f"practice_{record.game}_play", args=[record.pk]))


def _without_hint(request: HtmxHttpRequest, record: PracticeGame,
                  response: HttpResponse) -> HttpResponse:
    """An htmx answer to a form of a page shown with ?hint=1: the page it swaps in shows no
    hint, so the address bar loses ?hint=1 (HX-Replace-Url) and the links that name the
    address follow; a reload then gives the page on screen."""
    if urlsplit(request.htmx.current_url or "").query:
        url = reverse(f"practice_{record.game}_play", args=[record.pk])
        response["HX-Replace-Url"] = url
        response.content += address_oob(request, url).encode()
    return response


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


@require_safe
@vary_on_headers("HX-Request")
@_explained
def log(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    """The whole game log: for htmx the list, put in place of the game page's log link; else
    a page of its own with a link back to the game."""
    record = _record(request, game, game_id)
    ctx = {"record": record, "title": GAME_TITLES[game], "urls": page_urls(record),
           "log": P.log_entries(record)}
    return _render(request, "practice/log.html", "log", ctx)


# --------------------------------------------------------------------------- review
@require_safe
@vary_on_headers("HX-Request")
@_explained
def review(request: HtmxHttpRequest, game: str, game_id) -> HttpResponse:
    """The post-game review: the decisions are analysed by a task (practice/tasks.py), which
    this request enqueues once; the page polls with the progress until it is done, then shows
    the three costliest clear mistakes, or says that it found none."""
    record = _record(request, game, game_id)
    urls = page_urls(record)
    try:
        progress = P.review_progress(record)
        if not progress["done"]:
            tasks.request_review(record)
            record.refresh_from_db(fields=["review"])
            progress = P.review_progress(record)
    except Refusal as exc:
        ctx = _context(request, record, P.load(record), error=exc.message)
        return _render(request, "practice/game.html", "update", ctx, status=exc.status)
    costliest = P.review_costliest(record, progress) if progress["done"] else []
    for item in costliest:
        item["step_url"] = _step_url(record, item["index"])
    # Stepping through the deal starts at the first decision listed, or at the deal.
    first = min((item["index"] for item in costliest), default=0)
    ctx = {"record": record, "title": GAME_TITLES[game], "urls": urls, "progress": progress,
           "costliest": costliest, "walk_url": _step_url(record, first), "percent": round(100 * progress["analysed"]
                                                    / max(progress["total"], 1)),
           "level": record.get_level_display()}
    return _render(request, "practice/review.html", "review", ctx)


def _step_url(record: PracticeGame, at: int) -> str:
    return reverse(f"practice_{record.game}_review_step", args=[record.pk, at])


@require_safe
@vary_on_headers("HX-Request")
@_explained
def review_at(request: HtmxHttpRequest, game: str, game_id, step: int) -> HttpResponse:
    """The review's step pages: the finished deal after move ``step`` with every hand open,
    and at each of the player's decisions what they chose; a flagged one is marked on the
    cards (the card played and the one the strong bot prefers), with its cost, reason and
    "Try it again".  They read the analysis stored so far and analyse nothing themselves.  An
    htmx step answers with the same markup a fresh load shows, and the address links."""
    record = _record(request, game, game_id)
    total = len(record.actions)
    if request.htmx and (record.result is None or step > total):
        # A step of a page shown before an undo: the whole page of this address says why.
        return HttpResponseClientRedirect(request.get_full_path(), status=204)
    try:
        walk = P.review_walk(record)
    except Refusal as exc:
        ctx = _context(request, record, P.load(record), error=exc.message)
        return render(request, "practice/game.html", ctx, status=exc.status)
    urls = page_urls(record)
    base = {"record": record, "title": GAME_TITLES[game], "urls": urls}
    if step > total:
        return render(request, "practice/review_step.html", {
            **base, "start_url": _step_url(record, 0),
            "missing": ngettext("This deal has no move %(n)s: it has %(total)s move.",
                                "This deal has no move %(n)s: it has %(total)s moves.",
                                total) % {"n": step, "total": total}}, status=404)
    at = step
    game_adapter = adapter(game)
    seat = record.human_seat
    state = walk.frames[at].state
    view, reveal, _marker = game_adapter.open_view(state, seat)
    table = table_context(view, reveal=reveal, label=_("Card table"), you=seat)
    flagged = {entry["index"]: entry for entry in walk.flagged}
    decision = None
    if at in walk.decisions and at < total:
        played, best = P.review_moves(record, walk, at)
        entry = flagged.get(at)
        decision = {"number": walk.decisions.index(at) + 1, "move": at + 1,
                    "played": game_adapter.describe(played, record.names),
                    "analysed": at in walk.analysed, "flagged": entry}
        if entry is not None and best is not None:
            marks: dict[int, list[str]] = {}
            for kind, action in (("played", played), ("best", best)):
                for card in game_adapter.move_cards(view, action):
                    marks.setdefault(card, []).append(kind)
            mark_cards(table, marks)
            decision["on_cards"] = bool(marks)
    names = record.names
    latest = (game_adapter.narrate(walk.frames[at].events, names, seat, you=seat)
              if at > 0 else [])
    before = [i for i in flagged if i < at]
    after = [i for i in flagged if i > at]
    ctx = {
        **base, "table": table, "at": at, "total": total, "latest": latest,
        "decision": decision, "done": walk.done,
        "flagged": [{**entry, "url": _step_url(record, entry["index"]),
                     "move": entry["index"] + 1, "current": entry["index"] == at}
                    for entry in walk.flagged],
        "start_url": _step_url(record, 0), "end_url": _step_url(record, total),
        "prev_url": _step_url(record, at - 1) if at > 0 else "",
        "next_url": _step_url(record, at + 1) if at < total else "",
        "prev_flag_url": _step_url(record, before[-1]) if before else "",
        "next_flag_url": _step_url(record, after[0]) if after else "",
    }
    if request.htmx:
        html = render_to_string("practice/review_step.html#walk", ctx, request=request)
        return HttpResponse(html + address_oob(request, request.get_full_path()))
    return render(request, "practice/review_step.html", ctx)


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
        view, reveal = view_for_page(record, derived.state), None
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

