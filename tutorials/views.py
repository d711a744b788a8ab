"""Tutorial pages: overview, per-game index, step pages and the "your move" endpoint.

A step page is the scenario replayed through the engine up to that step (replays are computed
once per process and kept: they are pure functions of the shipped files).  A direct load renders
``tutorials/step.html``; an htmx request (Next/Back, hint, a move) renders its ``htmx`` partial:
the stage (table, form, navigation) plus the narration and progress as out-of-band swaps, so
the ``aria-live`` narration region stays in the page.  The htmx partial of a plain step is cached
per process (it depends only on the language and the step); the CSRF token is put in afterwards.

Next/Back send less when the page surely holds the canonical stage of the adjacent step: its
``HX-Current-URL`` is exactly that step's plain address (no query: no hint, no feedback),
``X-Tutorial-Build`` says it was rendered from the same files, and, if it is a "your move" step,
the learner has not changed it (a hint or a refused move's choice: ``X-Tutorial-Changed``) and
this step has no form that could keep boxes ticked there (unless the page expands compact
answers: its script then puts the boxes back first).  The response then carries only
out-of-band swaps turning that stage, progress and narration into this step's
(``tutorials/oob.py``, checked against a model of htmx before use) and the title, with
``HX-Reswap: none``; when the page's script says it expands them (``X-Tutorial-Swaps``), in the
compact text form of ``tutorials/wire.py`` (``X-Tutorial-Patch``; a quarter of the swaps' markup
for the first Next of the first Dam tutorial).
Anything else gets the whole stage.  The step links read "?go=next" / "?go=prev" (the same on
every step, so they need no swap); see ``_go``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import urlencode, urlsplit
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse, translate_url
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from dam_site.context_processors import LANGUAGE_NAMES
from rules.engine import cards as C
from rules.engine import scenario
from rules.engine.errors import IllegalAction
from rules.reasons import REASON_TEXTS, reason_text
from rules.templatetags.cards import card_context

from . import lessons, oob, progress, wire
from .presenters import event_cards, table_context


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# --------------------------------------------------------------------------- replays
@dataclass
class Replay:
    scn: scenario.Scenario
    states: list  # states[n]: the position after scenario step n (0 = the deal)
    events: list  # events[n]: what scenario step n did


@cache
def replay(game: str, slug: str) -> Replay:
    tutorial = lessons.TUTORIALS[(game, slug)]
    scn = scenario.loads(tutorial.scenario_path.read_text(encoding="utf-8"))
    states, events = [], []
    for _n, state, evs in scenario.states(scn):
        states.append(state)
        events.append(evs)
    return Replay(scn, states, events)


# --------------------------------------------------------------------------- moves
# The move vocabulary of each game, as buttons; which ones apply is the engine's business.
MOVE_LABELS = {
    "attack": pgettext_lazy("move button", "Attack"),
    "beat": pgettext_lazy("move button", "Beat"),
    "take": pgettext_lazy("move button", "Take the cards"),
    "announce": pgettext_lazy("move button", "Announce"),
    "slap": pgettext_lazy("move button", "Slap (close the attack)"),
    "wait": pgettext_lazy("move button", "Wait"),
    "add": pgettext_lazy("move button", "Add"),
    "done": pgettext_lazy("move button", "Done"),
    "draw_stock": pgettext_lazy("move button", "Draw from the stock"),
    "draw_discard": pgettext_lazy("move button", "Draw from the discard pile"),
    "swap": pgettext_lazy("move button", "Swap"),
    "discard": pgettext_lazy("move button", "Discard"),
    "pass": pgettext_lazy("move button", "Pass"),
    "play": pgettext_lazy("move button", "Play"),
}
CARD_CODE = re.compile(r"^(?:10|[2-9TJQKA])[CDHS]$", re.IGNORECASE)
MAX_CARDS = 13


def move_buttons(game: str, options: Any) -> list[str]:
    if game == "dam":
        kinds = ["attack", "beat", "take"]
        if options.trump == "marriage":
            kinds.append("announce")
        if options.extra_attack:
            kinds += ["slap", "wait", "add", "done"]
        return kinds
    if game == "dolda":
        return ["draw_stock", "draw_discard", "swap", "discard"]
    return ["pass", "play"]


class BadInput(Exception):
    """A form the page never offers (unknown action, garbled cards): said plainly, nothing done."""


class NeedChoice(Exception):
    """A move button pressed without the cards it needs: the page says what to choose."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


NEED_TEXTS = {
    "need_beat": gettext_lazy("Choose one card of yours and the attack card it should beat."),
    "need_announce": gettext_lazy("Choose the king and queen of the suit you announce."),
}


def move_text(game: str, player: str, action: str, cards: list[str], target: str,
              allowed: list[str]) -> str:
    """The scenario-notation move for a submitted form (the engine judges it)."""
    if action not in allowed:
        raise BadInput
    if game == "dolda":
        return f"{player} {action.replace('_', ' ')}"
    if action in ("take", "slap", "wait", "done"):
        return f"{player} {action}"
    if action == "beat":
        if len(cards) != 1 or not target:
            raise NeedChoice("need_beat")
        return f"{player} beat {target} {cards[0]}"
    if action == "announce":
        suits = sorted({c[-1].upper() for c in cards})
        if len(suits) != 1:
            raise NeedChoice("need_announce")
        return f"{player} announce {suits[0]}"
    return f"{player} {action} {' '.join(cards)}".strip()


def canonical(module, action) -> tuple:
    words = module.format_action(action).split()
    if words and words[0] in ("attack", "add", "pass"):
        return (words[0], *sorted(words[1:]))
    return tuple(words)


# --------------------------------------------------------------------------- context
def _step_url(game: str, slug: str, n: int) -> str:
    return reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


# What a step's stage is rendered from; a page sends it back (X-Tutorial-Build) so that swaps
# computed from this server's rendering of the step it shows are applied to that rendering only.
BUILD_SOURCES = (("templates", ("*.html",)), ("tutorials", ("*.py", "*.json", "*.txt")),
                 ("rules", ("*.py", "*.json")), ("locale", ("*.mo",)),
                 ("teacher", ("urls.py",)), ("dam_site", ("urls.py",)))


@cache
def build_id() -> str:
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for folder, patterns in BUILD_SOURCES:
        files = sorted({f for pattern in patterns for f in (root / folder).rglob(pattern)
                        if "__pycache__" not in f.parts})
        for f in files:
            digest.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _lesson_cards(move: str) -> list[int]:
    """The cards a scenario move names (for an announcement: the king and queen shown)."""
    words = move.split()
    if len(words) == 3 and words[1] == "announce":
        words = words[:2] + [f"K{words[2]}", f"Q{words[2]}"]
    cards = []
    for w in words[2:]:
        try:
            cards.append(C.parse(w))
        except C.CardError:
            pass
    return cards


def step_context(tutorial: lessons.Tutorial, n: int, *, hint: bool = False,
                 selected: list[int] | None = None, target: int | None = None,
                 feedback: str = "", feedback_kind: str = "") -> dict[str, Any]:
    game, slug = tutorial.game, tutorial.slug
    rp = replay(game, slug)
    names = rp.scn.players
    step = tutorial.steps[n - 1]
    viewer = names.index(tutorial.viewer) if tutorial.viewer else 0
    lesson_move = ""
    if step.your_move:
        lesson_move = rp.scn.steps[step.at - 1].move
        state = rp.states[step.at - 1]
        viewer = names.index(lesson_move.split()[0])
        marks = set(_lesson_cards(lesson_move)) if hint else set()
    else:
        state = rp.states[step.at]
        marks = event_cards(rp.events[step.at], viewer)
    view = state.view(viewer)
    reveal = ({s: state.view(s)["hand"] for s in range(len(names)) if s != viewer}
              if tutorial.reveal_hands else None)
    pick = step.your_move and game != "dolda"
    if hint and step.your_move:
        selected = [c for c in _lesson_cards(lesson_move) if c in view.get("hand", ())]
        if " beat " in lesson_move:
            target = _lesson_cards(lesson_move)[0]
    table = table_context(view, reveal=reveal, highlight=marks, selectable=pick,
                          selected=selected or (), pick_target=True, target=target,
                          form="tutorial-move" if step.your_move else "")
    ctx: dict[str, Any] = {
        "tutorial": tutorial, "game": game, "n": n, "total": len(tutorial.steps),
        "step": step, "narration": step.say, "table": table,
        "rule_url": reverse(f"rules_{game}") + f"#{step.rule}", "rule_id": step.rule,
        "prev_url": _step_url(game, slug, n - 1) if n > 1 else "",
        "next_url": _step_url(game, slug, n + 1) if n < len(tutorial.steps) else "",
        "build": build_id(),
        "step_url": _step_url(game, slug, n),
        "index_url": reverse(f"tutorials_{game}"),
        "game_title": lessons.GAME_TITLES[game],
        "feedback": feedback, "feedback_kind": feedback_kind, "hint": hint,
        # the stage is not the step's canonical one (the page says so with X-Tutorial-Changed)
        "changed": bool(hint or selected or target is not None),
    }
    if step.your_move:
        kinds = move_buttons(game, rp.scn.options)
        ctx.update({
            "your_move": True,
            "move_url": reverse(f"tutorial_move_{game}", kwargs={"slug": slug, "step": n}),
            "buttons": [{"value": k, "label": MOVE_LABELS[k]} for k in kinds],
            "player": names[viewer],
        })
        if hint:
            kind = lesson_move.split()[1]
            if kind == "draw":
                kind = "draw_" + lesson_move.split()[2]
            label = MOVE_LABELS.get(kind, "")
            named = [card_context(c, game)["name"] for c in _lesson_cards(lesson_move)]
            if named:
                ctx["hint_text"] = _("Choose %(cards)s, then press “%(button)s”.") % {
                    "cards": ", ".join(named), "button": label}
            else:
                ctx["hint_text"] = _("Press “%(button)s”.") % {"button": label}
    return ctx


# --------------------------------------------------------------------------- rendering
CSRF_SENTINEL = "__tutorial_csrf__"
CSRF_SENTINEL_BYTES = CSRF_SENTINEL.encode()
_PARTIALS: dict[tuple, tuple[bytes, bool, str, str | bool] | None] = {}  # body, last, key,
# swaps only ("html", "wire" or False)
_MAX_PARTIALS = 4000
# Ids of the step page outside the stage: never used to address an element inside it.
PAGE_IDS = frozenset({"main", "tutorial-progress", "tutorial-progressbar",
                      "tutorial-progress-label", "tutorial-narration", "tutorial-stage"})
STEP_NUMBER = re.compile(r"/\d+/$")


def _language_switcher_oob(request: HttpRequest, path: str) -> str:
    """The header's language switcher for ``path``, as an out-of-band swap: after htmx moved to
    another step, switching language must keep that step."""
    current = get_language()
    alternates = [{"code": code, "name": LANGUAGE_NAMES.get(code, code), "current": code == current,
                   "url": request.build_absolute_uri(translate_url(path, code))}
                  for code, _name in settings.LANGUAGES]
    html = render_to_string("includes/language_switcher.html", {"language_alternates": alternates})
    tag = '<nav class="language-switcher"'
    if not html.lstrip().startswith(tag):
        return ""  # the markup changed: better no update than a second switcher in the stage
    return html.replace(tag, tag + ' hx-swap-oob="outerHTML:.language-switcher"', 1)


def _switcher_follows(request: HttpRequest, old_path: str, new_path: str) -> bool:
    """Whether the language switcher for ``new_path`` is the one for ``old_path`` with the step
    number changed (what static/js/tutorial.js does after swaps-only responses)."""
    n = STEP_NUMBER.search(new_path)
    for code, _name in settings.LANGUAGES:
        old, new = translate_url(old_path, code), translate_url(new_path, code)
        if not (n and STEP_NUMBER.search(old) and STEP_NUMBER.sub(n.group(0), old) == new):
            return False
    return True


def _swaps_html(request: HttpRequest, ctx: dict[str, Any], full: str, from_n: int,
                page_path: str) -> tuple[str, bool] | None:
    """Out-of-band swaps turning the page of step ``from_n`` (canonical) into ``ctx``'s step,
    and whether they are in the compact form of ``tutorials/wire.py`` (when the page's script
    expands it); None when they would not be smaller than ``full`` (the whole partial) or
    cannot be made."""
    old_ctx = step_context(ctx["tutorial"], from_n)

    def part(name: str, c: dict[str, Any]) -> str:
        return render_to_string(f"tutorials/step.html#{name}", {**c, "csrf_token": CSRF_SENTINEL},
                                request=request)

    swaps = _swap_kinds(request)
    attrs = "attrs" in swaps
    regions = ("stage", "progress", "narration")
    try:
        old = {f"tutorial-{r}": oob.parse(part(r, old_ctx)) for r in regions}
    except oob.Unsupported:
        return None
    title, old_title = part("title", ctx), part("title", old_ctx)
    page = wire.Page.of(old_title.removeprefix("<title>").removesuffix("</title>"), old)
    measure = wire.Wire(page) if wire.CAPABILITY in swaps else None
    ops = []
    for region in regions:
        found = oob.patch_ops(old[f"tutorial-{region}"], part(region, ctx), f"#tutorial-{region}",
                              reserved=PAGE_IDS if region == "stage" else frozenset(),
                              attrs=attrs, measure=measure)
        if found is None:
            return None
        ops += found
    switcher = ""
    if page_path and not _switcher_follows(request, old_ctx["step_url"], page_path):
        switcher = _language_switcher_oob(request, page_path)
    packed = None
    if measure and not switcher and title.startswith("<title>") and title.endswith("</title>"):
        packed = wire.pack(title[len("<title>"):-len("</title>")], ops, page)
    if packed is not None:
        body = packed
    else:
        body = title + "".join(op.html() for op in ops) + switcher
    return (body, packed is not None) if len(body) < len(full) else None


def _render_step(request: HtmxHttpRequest, make_ctx: Callable[[], dict[str, Any]],
                 status: int = 200, cache_key: tuple | None = None,
                 push_url: str = "", page_path: str = "",
                 from_n: int | None = None) -> HttpResponse:
    """The full page, or for htmx the ``htmx`` partial (cached by ``cache_key`` when given).

    ``page_path``: the step the browser shows afterwards, when the URL changes (the htmx
    partial then also updates the language switcher).  ``from_n``: the step the page shows
    (canonically; see ``_swaps_from``): the partial is then only the swaps from it, when smaller.
    """
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    if partial:
        if cache_key:
            cache_key = (*cache_key, request.scheme, request.get_host())
        swaps_key = ((*cache_key, "from", from_n, _swap_kinds(request))
                     if cache_key and from_n else None)
        entry = _PARTIALS.get(swaps_key) if swaps_key else None
        if entry is None:
            full = _PARTIALS.get(cache_key) if cache_key else None
            ctx = None
            if full is None:
                ctx = make_ctx()
                html = render_to_string("tutorials/step.html#htmx",
                                        {**ctx, "csrf_token": CSRF_SENTINEL}, request=request)
                if page_path:
                    html += _language_switcher_oob(request, page_path)
                full = (html.encode(), ctx["n"] == ctx["total"], ctx["tutorial"].key, False)
                _remember(cache_key, full)
            entry = full
            if swaps_key and swaps_key not in _PARTIALS:  # (None there: no swaps possible)
                swaps = _swaps_html(request, ctx or make_ctx(), full[0].decode(), from_n,
                                    page_path)
                swaps_entry = ((swaps[0].encode(), *full[1:3], "wire" if swaps[1] else "html")
                               if swaps else None)
                _remember(swaps_key, swaps_entry)
                entry = swaps_entry or full
        body, last, key, swaps_only = entry
        if CSRF_SENTINEL_BYTES in body:
            body = body.replace(CSRF_SENTINEL_BYTES, get_token(request).encode())
        response = HttpResponse(body, status=status)
        if swaps_only:
            response["HX-Reswap"] = "none"
        if swaps_only == "wire":
            response[wire.HEADER] = "1"
            response["Content-Type"] = "text/plain; charset=utf-8"
        if push_url:
            response["HX-Push-Url"] = push_url
    else:
        ctx = make_ctx()
        ctx["finished"] = progress.finished(request)
        response = render(request, "tutorials/step.html", ctx, status=status)
        last, key = ctx["n"] == ctx["total"], ctx["tutorial"].key
    patch_vary_headers(response, ("HX-Request", "HX-Current-URL", "X-Tutorial-Build",
                                  "X-Tutorial-Changed", "X-Tutorial-Swaps"))
    if last and status == 200:
        progress.mark_finished(request, response, key)
    return response


def _swap_kinds(request: HttpRequest) -> frozenset[str]:
    """What static/js/tutorial.js on the page says it handles (``X-Tutorial-Swaps``): the
    ``attrs`` swap, and ``patch``, the compact form of tutorials/wire.py."""
    return frozenset(request.headers.get("X-Tutorial-Swaps", "").split()) & {
        "attrs", wire.CAPABILITY}


def _remember(key: tuple | None, entry: tuple | None) -> None:
    if key and len(_PARTIALS) < _MAX_PARTIALS:
        _PARTIALS[key] = entry


def _swaps_from(request: HtmxHttpRequest, tutorial: lessons.Tutorial, n: int) -> int | None:
    """The adjacent step whose canonical page the htmx request comes from, if it surely does."""
    htmx = request.htmx
    if (not htmx or htmx.history_restore_request or htmx.boosted
            or htmx.target != "tutorial-stage"
            or request.headers.get("X-Tutorial-Build") != build_id() or not htmx.current_url):
        return None
    current = urlsplit(htmx.current_url)
    if current.query:
        return None
    for m in (n - 1, n + 1):
        if 1 <= m <= len(tutorial.steps) and current.path == _step_url(tutorial.game,
                                                                       tutorial.slug, m):
            if tutorial.steps[m - 1].your_move and "X-Tutorial-Changed" in request.headers:
                # The learner changed that page: a hint or a refused move's choice.
                return None
            if (tutorial.steps[m - 1].your_move and tutorial.steps[n - 1].your_move
                    and wire.CAPABILITY not in _swap_kinds(request)):
                # Boxes ticked there would survive swaps that keep them; a page expanding
                # compact answers first puts its boxes back as rendered (tutorial.js).
                return None
            return m
    return None


def _not_found(request: HttpRequest, tutorial: lessons.Tutorial | None, game: str) -> HttpResponse:
    ctx: dict[str, Any] = {"game": game, "tutorial": tutorial,
                           "index_url": reverse(f"tutorials_{game}"),
                           "game_title": lessons.GAME_TITLES[game]}
    if tutorial is not None:
        ctx["first_url"] = _step_url(game, tutorial.slug, 1)
        ctx["last_url"] = _step_url(game, tutorial.slug, len(tutorial.steps))
        ctx["total"] = len(tutorial.steps)
    return render(request, "tutorials/not_found.html", ctx, status=404)


# --------------------------------------------------------------------------- views
def _entries(game: str, done: set[str]) -> list[dict[str, Any]]:
    return [{"tutorial": t, "url": _step_url(game, t.slug, 1), "done": t.key in done,
             "steps": len(t.steps), "your_moves": sum(s.your_move for s in t.steps)}
            for t in lessons.BY_GAME[game]]


@require_safe
def overview(request: HtmxHttpRequest) -> HttpResponse:
    done = progress.finished(request)
    games = [{"game": g, "title": lessons.GAME_TITLES[g], "url": reverse(f"tutorials_{g}"),
              "entries": _entries(g, done)} for g in lessons.GAMES]
    return render(request, "tutorials/overview.html", {
        "games": games, "done_count": len(done), "total": len(lessons.TUTORIALS)})


@require_safe
def game_index(request: HtmxHttpRequest, game: str) -> HttpResponse:
    done = progress.finished(request)
    return render(request, "tutorials/index.html", {
        "game": game, "game_title": lessons.GAME_TITLES[game], "entries": _entries(game, done),
        "rules_url": reverse(f"rules_{game}"), "overview_url": reverse("tutorials")})


@require_safe
def start(request: HtmxHttpRequest, game: str, slug: str) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None:
        return _not_found(request, None, game)
    return HttpResponseRedirect(_step_url(game, slug, 1))


@require_safe
def step(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    if "go" in request.GET:
        return _go(request, tutorial, step, request.GET["go"])
    if "fb" in request.GET and tutorial.steps[step - 1].your_move:
        shown = _feedback_from_query(request, tutorial, step)
        if shown is not None:  # a move refused without JavaScript (see ``move``)
            text, kind, selected, target = shown
            return _render_step(request, partial(
                step_context, tutorial, step, selected=selected, target=target,
                feedback=text, feedback_kind=kind))
    hint = request.GET.get("hint") == "1" and tutorial.steps[step - 1].your_move
    ok = request.GET.get("ok") == "1" and step > 1 and tutorial.steps[step - 2].your_move
    key = (get_language(), game, slug, step, hint, ok)
    plain = not hint and not ok and not request.GET
    return _render_step(request, partial(
        step_context, tutorial, step, hint=hint,
        feedback=_("Well done: that is the move.") if ok else "",
        feedback_kind="success" if ok else ""), cache_key=key, page_path=request.path,
        from_n=_swaps_from(request, tutorial, step) if plain else None)


def _go(request: HtmxHttpRequest, tutorial: lessons.Tutorial, n: int, go: str) -> HttpResponse:
    """``?go=next``, ``?go=prev``, ``?go=present``: the step after or before step n, or step n in
    presenter mode.  The step page's links say this, so they read the same on every step; a
    browser is sent to the step's own address, an htmx request gets that step (and its
    address to show, HX-Push-Url)."""
    game, slug = tutorial.game, tutorial.slug
    if go == "present":
        return HttpResponseRedirect(reverse("tutorial_present",
                                            kwargs={"game": game, "slug": slug, "step": n}))
    target = {"next": n + 1, "prev": n - 1}.get(go, 0)
    if not 1 <= target <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    url = _step_url(game, slug, target)
    if not request.htmx or request.htmx.history_restore_request:
        return HttpResponseRedirect(url)
    return _render_step(request, partial(step_context, tutorial, target),
                        cache_key=(get_language(), game, slug, target, False, False),
                        push_url=url, page_path=url,
                        from_n=_swaps_from(request, tutorial, target))


def _feedback_text(tutorial: lessons.Tutorial, step: int, kind: str, code: str,
                   cards: list[int]) -> str | None:
    if kind == "different":
        why = tutorial.steps[step - 1].better or gettext_lazy(
            "That move is allowed, but this lesson is about another one.")
        return _("Allowed, but not the best move here. %(why)s Try again.") % {"why": why}
    if kind == "illegal" and code in NEED_TEXTS:
        return str(NEED_TEXTS[code])
    if kind == "illegal" and code in REASON_TEXTS:
        return reason_text(code, cards, tutorial.game)
    return None


def _query_cards(value: str) -> list[int] | None:
    codes = [c for c in value.split(".") if c]
    if len(codes) > MAX_CARDS or not all(CARD_CODE.match(c) for c in codes):
        return None
    return [C.parse(c) for c in codes]


def _feedback_from_query(request: HttpRequest, tutorial: lessons.Tutorial, step: int):
    """Feedback carried in the query after a refused move without JavaScript; None if garbled."""
    q = request.GET
    cards, selected, target = (_query_cards(q.get("c", "")), _query_cards(q.get("s", "")),
                               _query_cards(q.get("t", "")))
    if cards is None or selected is None or target is None or len(target) > 1:
        return None
    text = _feedback_text(tutorial, step, q.get("fb", ""), q.get("r", ""), cards)
    if text is None:
        return None
    return text, q["fb"], selected, (target[0] if target else None)


def _posted_cards(request: HttpRequest) -> list[str]:
    raw = request.POST.getlist("card")
    if len(raw) > MAX_CARDS or not all(CARD_CODE.match(c) for c in raw):
        raise BadInput
    return [c.upper() for c in raw]


@require_POST
def move(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    lesson = tutorial.steps[step - 1]
    if not lesson.your_move:
        return _render_step(request, partial(
            step_context, tutorial, step, feedback_kind="error",
            feedback=_("There is no move to make at this step.")), status=400)
    rp = replay(game, slug)
    module = rp.scn.module
    lesson_move = rp.scn.steps[lesson.at - 1].move
    player = lesson_move.split()[0]
    seat = rp.scn.players.index(player)
    state = rp.states[lesson.at - 1]
    selected: list[int] = []
    target_card = None

    def again(feedback: str, kind: str, status: int = 200) -> HttpResponse:
        """The same step with a message; the learner's choice stays selected."""
        return _render_step(request, partial(
            step_context, tutorial, step, selected=selected, target=target_card,
            feedback=feedback, feedback_kind=kind), status=status)

    def refused(kind: str, code: str = "", cards: tuple[int, ...] = ()) -> HttpResponse:
        """The step again with the reason: in place for htmx, else redirected to the step's
        own address (so reloading, going back and switching language all behave)."""
        text = _feedback_text(tutorial, step, kind, code, list(cards)) or ""
        if request.htmx:
            return again(text, kind)
        query = urlencode({"fb": kind, "r": code, "c": ".".join(C.code(c) for c in cards),
                           "s": ".".join(C.code(c) for c in selected),
                           "t": C.code(target_card) if target_card is not None else ""})
        return HttpResponseRedirect(f"{_step_url(game, slug, step)}?{query}", status=303)

    try:
        cards = _posted_cards(request)
        selected = [C.parse(c) for c in cards]
        target = request.POST.get("target", "")
        if target and not CARD_CODE.match(target):
            raise BadInput
        target_card = C.parse(target) if target else None
        if not target and game == "dam":
            table = state.view(seat)["table"]
            if len(table) == 1:  # one attack card: nothing to choose
                target = C.code(table[0])
        text = move_text(game, player, request.POST.get("action", ""), cards, target,
                         move_buttons(game, rp.scn.options))
    except BadInput:
        selected, target_card = [], None
        return again(_("That form could not be read. Choose cards and press one of the "
                       "buttons."), "error", status=400)
    except NeedChoice as exc:
        return refused("illegal", exc.code)
    try:
        action = module.parse_action(state, seat, text.split()[1:])
        state.apply(action)  # the engine judges; the replayed state is never changed
    except IllegalAction as exc:
        return refused("illegal", exc.reason, exc.cards)
    expected = module.parse_action(state, seat, lesson_move.split()[1:])
    if canonical(module, action) != canonical(module, expected):
        return refused("different")
    next_n = min(step + 1, len(tutorial.steps))
    next_url = _step_url(game, slug, next_n)
    if request.htmx:
        return _render_step(request, partial(
            step_context, tutorial, next_n, feedback=_("Well done: that is the move."),
            feedback_kind="success"),
            cache_key=(get_language(), game, slug, next_n, False, True), push_url=next_url,
            page_path=next_url)
    return HttpResponseRedirect(next_url + "?ok=1", status=303)


@require_POST
def reset_progress(request: HttpRequest) -> HttpResponse:
    response = HttpResponseRedirect(reverse("tutorials"), status=303)
    progress.reset(response)
    return response
