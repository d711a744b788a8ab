"""Tables with friends: the new-table form (from each game's practice page), the join page,
the table page with its POST endpoints, and the short address in the QR code.

Every page of a table is drawn for the seat of the browser asking (its token in the session),
from that seat's view of the position (``state.view(seat)``); a visitor without a seat sees only
what is public (the seats, whose turn it is, the scores and what everyone saw happen).  POSTs
answer htmx with the ``game`` partial and plain forms with a redirect to the page, so the page
works without JavaScript (reload to see the other players' moves).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.adapters import adapter
from games.adapters.base import winners_text
from games.moves import idle_reasons, move_choices
from games.registry import GAME_TITLES
from games.table import table_context
from live.service import spaced
from live.views import qr_svg
from practice import service as P
from practice.forms import MoveForm, NewGameForm, VersionForm
from web.errors import Refusal
from web.forms import first_error
from web.htmx import HtmxHttpRequest
from web.once import made, once
from web.ratelimit import client_key, sliding_usage

from . import service as S
from .forms import JoinForm, SitForm
from .models import Table

# How much later than the worker a page asks for a bot move itself (no worker running).
FALLBACK_MS = 4000


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def partial(request: HttpRequest, ctx: dict[str, Any]) -> str:
    """The ``game`` partial.  Drawn without the site's context processors (the menu and the
    language links of the whole layout, which the partial does not show and which cost about
    as much as the rest of it): it needs only the CSRF token of its forms."""
    return render_to_string("tables/table.html#game", {**ctx, "csrf_token": get_token(request)})


def _partial(request: HttpRequest, ctx: dict[str, Any], status: int = 200) -> HttpResponse:
    return _no_store(HttpResponse(partial(request, ctx), status=status))


# --------------------------------------------------------------------------- a new table
def _created(request: HttpRequest, code: str) -> HttpResponse | None:
    """The new-table form sent twice: the table the first send made."""
    table = S.find(code)
    if table is None:
        return None
    request.session[S.PLAYER_KEY] = table.host
    return HttpResponseRedirect(reverse("tables_table", args=[table.code]))


@require_http_methods(["GET", "HEAD", "POST"])
@once(_created)
def new(request: HttpRequest, game: str) -> HttpResponse:
    status = 200
    if request.method == "POST":
        form = NewGameForm(game, request.POST)
        if form.is_valid():
            d = form.cleaned_data
            try:
                table = S.create(S.player_token(request.session, create=True) or "", game,
                                 {k: ("none" if v is None else v)
                                  for k, v in form.rules().items()},
                                 d["players"], d["level"], d["name"],
                                 d.get("memory_aid", True))
            except Refusal as exc:
                form.add_error(None, exc.message)
            else:
                return made(HttpResponseRedirect(reverse("tables_table", args=[table.code])),
                            table.code)
        status = 400
    else:
        form = NewGameForm(game)
    return render(request, "tables/new.html", {
        "form": form, "game": game, "title": GAME_TITLES[game],
        "practice_url": reverse(f"practice_{game}")}, status=status)


# --------------------------------------------------------------------------- joining
@require_safe
def short(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``: the address in the QR code, to the table in the visitor's language."""
    language = translation.get_language_from_request(request, check_path=False)
    with translation.override(language):
        url = reverse("tables_table", args=[S.normalise_code(code) or "-"])
    response = HttpResponseRedirect(url)
    response["Vary"] = "Accept-Language, Cookie"
    return response


def _wrong_code(request: HttpRequest, form: JoinForm, status: int, message: str
                ) -> HttpResponse:
    """Count a wrong code from this address (``settings.TABLE_JOIN_FAILURES``): told to wait
    when there were too many, so codes cannot be tried one after another."""
    rate = getattr(settings, "TABLE_JOIN_FAILURES", None)
    if rate:
        usage = sliding_usage("table_join_failures", client_key(request), rate)
        if usage.should_limit:
            wait = usage.retry_after
            response = render(request, "tables/join.html", {"form": form, "error": ngettext(
                "Too many wrong codes were tried from this network. Wait %(n)d second and "
                "try again.", "Too many wrong codes were tried from this network. Wait "
                "%(n)d seconds and try again.", wait) % {"n": wait}}, status=429)
            response["Retry-After"] = str(wait)
            return response
    return render(request, "tables/join.html", {"form": form, "error": message},
                  status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = JoinForm(request.POST)
        if not form.is_valid():
            return _wrong_code(request, form, 400, first_error(form))
        table = S.find(form.cleaned_data["code"])
        if table is None or S.ended(table):
            return _wrong_code(request, form, 404, str(S.NOT_FOUND))
        return _sit(request, table, form.cleaned_data["name"])
    code = S.normalise_code(str(request.GET.get("code", ""))[:32])
    return render(request, "tables/join.html", {"form": JoinForm(initial={"code": code})})


def _sit(request: HttpRequest, table: Table, name: str) -> HttpResponse:
    try:
        S.join(table, S.player_token(request.session, create=True) or "", name)
    except Refusal as exc:
        return _page(request, table, error=exc.message, status=exc.status, name=name)
    return HttpResponseRedirect(reverse("tables_table", args=[table.code]))


@require_POST
def sit(request: HttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    form = SitForm(request.POST)
    return _sit(request, table, form.cleaned_data["name"] if form.is_valid() else "")


# --------------------------------------------------------------------------- the table page
def _table(code: str) -> Table:
    table = S.find(code)
    if table is None:
        raise Http404
    return table


def _urls(table: Table) -> dict[str, str]:
    urls = {k: reverse(f"tables_{k}", args=[table.code])
            for k in ("table", "sit", "move", "step", "start", "next", "leave", "back", "now")}
    urls["stream"] = reverse("tables_stream", args=[table.code, get_language()])
    return urls


def seats_context(table: Table, seat: int | None, state: Any) -> list[dict[str, Any]]:
    out = []
    for i, entry in enumerate(table.seats):
        human = bool(entry["player"])
        waiting = S.grace_left(table, i)
        if not human:
            status = _("bot") if table.deal_id else _("empty seat")
        elif S.is_bot(table, i):
            status = _("away: a bot plays for now")
        elif waiting:
            status = ngettext("left: a bot takes over in %(n)d second",
                              "left: a bot takes over in %(n)d seconds", waiting) % {"n": waiting}
        else:
            status = _("player")
        out.append({"number": i + 1, "name": entry["name"] or "–", "status": status,
                    "you": i == seat, "host": human and entry["player"] == table.host,
                    "to_move": state is not None and not state.over and state.to_move == i})
    return out


def context(request: HttpRequest, table: Table, *, error: str = "") -> dict[str, Any]:
    """The ``game`` partial for the seat of ``request``'s browser (or a visitor)."""
    token = S.player_token(request.session)
    seat = S.seat_of(table, token)
    deal = table.deal
    state = P.load(deal).state if deal is not None else None
    ctx: dict[str, Any] = {
        "t": table, "title": GAME_TITLES[table.game], "seat": seat, "error": error,
        "host": S.is_host(table, token), "urls": _urls(table), "deal": deal,
        "ended": S.ended(table), "idle_minutes": S.idle_minutes(),
        "grace": S.grace_seconds(), "seats": seats_context(table, seat, state),
        "spaced": spaced(table.code), "version": deal.version if deal else 0,
        "left": seat is not None and table.seats[seat].get("left") is not None,
        "free_seats": sum(not s["player"] for s in table.seats),
        "bot_delay": getattr(settings, "PRACTICE_BOT_DELAY_MS", 700),
    }
    if deal is None or state is None:
        return ctx
    game = adapter(table.game)
    mine = seat is not None and not ctx["left"]
    if seat is not None:
        view = game.page_view(state.view(seat), table.memory_aid)
        actions: dict[str, Any] = (move_choices(table.game, state, view, seat, deal.names)
                                   if mine else {"mine": False})
        if len(actions.get("targets", [])) == 1:
            actions["targets"][0]["checked"] = True
        ctx["table"] = table_context(
            view, selectable=actions.get("selectable", False), label=_("Card table"),
            pick_target=bool(actions.get("beats")), unplayable=actions.get("unplayable"),
            one_tap=bool(actions.get("one_tap")), beats=actions.get("beats"),
            taps=actions.get("taps"), slot_picks=actions.get("slot_picks"), you=seat)
        ctx["actions"] = actions
        ctx["why"] = idle_reasons(table.game, deal.names, state, view, actions, seat) \
            if mine else {}
    else:
        # A spectator: the public view only, every hand a count of backs.
        ctx["table"] = table_context(game.public_view(state), label=_("Card table"))
        ctx["actions"] = {"mine": False}
    to_move = state.to_move
    waiting = S.grace_left(table, to_move) if to_move is not None and not state.over else 0
    # The worker moves the bots (S.schedule_bots).  Should none be running, the phones ask
    # for the move a few seconds later: the first seated player's phone first, the others
    # later (should that phone be gone), so one request usually does it.
    present = [i for i in range(len(table.seats)) if not S.is_bot(table, i)
               and table.seats[i].get("left") is None]
    rank = present.index(seat) if seat in present else len(present) + 2
    delay = ctx["bot_delay"] * (1 + 2 * rank) + FALLBACK_MS
    games = P.series_games(deal)  # read once for the summary and the next-deal button
    ctx.update({
        "waiting": waiting,
        "step_delay": waiting * 1000 + 300 + FALLBACK_MS if waiting else delay,
        "over": state.over, "latest": S.latest_lines(deal, seat),
        "bot_turn": S.bot_to_move(table, state),
        "to_move_name": deal.names[to_move] if to_move is not None else "",
        "to_move_you": to_move is not None and to_move == seat,
        "summary": _summary(deal, seat, games),
        "can_deal_again": state.over and ctx["host"] and P.can_deal_again(deal, games),
        "deal_label": deal.deal_number,
    })
    return ctx


def _summary(deal: Any, seat: int | None, games: list[Any]) -> dict[str, Any]:
    summary = P.series_summary(deal, games)
    if seat is not None:
        now = P.standing(deal, games)
        summary["result"] = winners_text(deal.names, now.winners, seat) if now.winners else ""
    return summary


def _page(request: HttpRequest, table: Table, *, error: str = "", status: int = 200,
          name: str = "") -> HttpResponse:
    ctx = context(request, table, error=error)
    url = request.build_absolute_uri(reverse("tables_short", args=[table.code]))
    ctx.update({"join_url": url, "qr": qr_svg(url),
                "sit_form": SitForm(initial={"name": name})})
    return _no_store(render(request, "tables/table.html", ctx, status=status))


@require_safe
def table(request: HttpRequest, code: str) -> HttpResponse:
    return _page(request, _table(code))


@require_safe
@vary_on_headers("HX-Request")
def now(request: HttpRequest, code: str) -> HttpResponse:
    """The ``game`` partial as it is now (a phone back from sleep, or polling)."""
    return _partial(request, context(request, _table(code)))


def _after(request: HtmxHttpRequest, table: Table, action: Any, quiet: bool = False
           ) -> HttpResponse:
    """Run ``action``; answer htmx with the partial (with the refusal in it, if any), a plain
    form with the page.  ``quiet``: a refusal is not shown (a bot step another phone made)."""
    try:
        action()
    except Refusal as exc:
        table.refresh_from_db()
        message = "" if quiet else exc.message
        if request.htmx:
            return _partial(request, context(request, table, error=message))
        if quiet:
            return HttpResponseRedirect(reverse("tables_table", args=[table.code]))
        return _page(request, table, error=message, status=exc.status)
    if request.htmx:
        table.refresh_from_db()
        return _partial(request, context(request, table))
    return HttpResponseRedirect(reverse("tables_table", args=[table.code]))


def _version(request: HttpRequest) -> int:
    form = VersionForm(request.POST)
    if not form.is_valid():
        raise Refusal(first_error(form))
    return form.cleaned_data["version"]


@require_POST
@vary_on_headers("HX-Request")
def move(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)

    def act() -> None:
        form = MoveForm(adapter(table.game), request.POST)
        if not form.is_valid():
            raise Refusal(first_error(form))
        S.move(table, S.player_token(request.session), _version(request),
               form.cleaned_data["words"])

    return _after(request, table, act)


@require_POST
@vary_on_headers("HX-Request")
def step(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    return _after(request, table, lambda: S.step(table, _version(request)), quiet=True)


@require_POST
@vary_on_headers("HX-Request")
def start(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    token = S.player_token(request.session)
    return _after(request, table, lambda: S.start(table, token, get_language() or "en"))


@require_POST
@vary_on_headers("HX-Request")
def next_deal(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    token = S.player_token(request.session)
    return _after(request, table, lambda: S.next_deal(table, token, _version(request)))


@require_POST
@vary_on_headers("HX-Request")
def leave(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    return _after(request, table, lambda: S.leave(table, S.player_token(request.session)))


@require_POST
@vary_on_headers("HX-Request")
def back(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _table(code)
    return _after(request, table, lambda: S.come_back(table, S.player_token(request.session)))
