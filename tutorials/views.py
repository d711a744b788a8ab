"""Tutorial pages: overview, per-game index, step pages and the "your move" endpoint.

A step page is the scenario replayed through the engine up to that step (replays are computed
once per process and kept: they are pure functions of the shipped files).  A direct load renders
``tutorials/step.html``; an htmx request (Next/Back, a hint, a move) renders its ``htmx``
partial: the same markup a fresh load puts in ``#tutorial`` (progress, narration, stage), which
the page morphs in place (idiomorph), plus the links outside it that name the address
(``web.htmx.address_oob``).  Every link and form also works without JavaScript.

A "your move" step is a puzzle: the page offers only the actions legal now, and the learner
may ask for a nudge (``?hint=1``: the idea that matters) and then for the move (``?hint=2``).
A solved step earns three stars without help, two after the nudge, one after being shown the
move (``tutorials/progress.py``); skipping earns none.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url as htmx_push_url

from games.cardnames import card_list
from games.moves import (
    CARD_KINDS,
    MOVE_LABELS,
    NEED_TEXTS,
    BadInput,
    NeedChoice,
    canonical,
    legal_kinds,
    lesson_cards,
    move_kind,
    move_text,
)
from games.reasons import REASON_TEXTS, reason_text
from games.table import event_cards, table_context
from reference.rulebook import rule_by_id
from reference.variants import form_value
from rules.engine import cards as C
from rules.engine.errors import IllegalAction
from web import pagecache
from web.htmx import HtmxHttpRequest, address_oob

from . import lessons, progress
from .converters import canonical_address
from .forms import GoForm, LessonMoveForm, StepQueryForm
from .lessons import replay


# --------------------------------------------------------------------------- context
def _step_url(game: str, slug: str, n: int) -> str:
    return reverse(f"tutorial_step_{game}", kwargs={"slug": slug, "step": n})


def stars_label(stars: int) -> str:
    return ngettext("%(n)d star of 3", "%(n)d stars of 3", stars) % {"n": stars}


STAR_REASONS = {
    3: gettext_lazy("Solved without help."),
    2: gettext_lazy("Solved after a nudge."),
    1: gettext_lazy("Solved after seeing the move."),
}


def _success(stars: int) -> dict[str, Any]:
    return {"feedback": _("Well done: that is the move."), "feedback_kind": "success",
            "stars": stars, "stars_label": stars_label(stars),
            "stars_reason": STAR_REASONS.get(stars, "")}


def hint_level(tutorial: lessons.Tutorial, n: int, raw: str) -> int:
    """The hint level a query asks for; a step without a nudge goes straight to the move."""
    step = tutorial.steps[n - 1]
    if not step.your_move or raw not in ("1", "2"):
        return 0
    return 2 if raw == "2" or step.nudge is None else 1


def step_context(tutorial: lessons.Tutorial, n: int, *, hint: int = 0,
                 selected: list[int] | None = None, target: int | None = None,
                 feedback: str = "", feedback_kind: str = "", stars: int = 0,
                 stars_label: str = "", stars_reason: str = "") -> dict[str, Any]:
    game, slug = tutorial.game, tutorial.slug
    rp = replay(game, slug)
    names = rp.scn.players
    step = tutorial.steps[n - 1]
    viewer = names.index(tutorial.viewer) if tutorial.viewer else 0
    lesson_move = ""
    kinds: list[str] = []
    if step.your_move:
        lesson_move = rp.scn.steps[step.at - 1].move
        state = rp.states[step.at - 1]
        viewer = names.index(lesson_move.split()[0])
        kinds = legal_kinds(rp.scn.module, state)
        marks = set(lesson_cards(lesson_move)) if hint == 2 else set()
    else:
        state = rp.states[step.at]
        marks = event_cards(rp.events[step.at], viewer)
    view = state.view(viewer)
    reveal = ({s: state.view(s)["hand"] for s in range(len(names)) if s != viewer}
              if tutorial.reveal_hands else None)
    pick = any(k in CARD_KINDS for k in kinds)
    if hint == 2:
        selected = [c for c in lesson_cards(lesson_move) if c in view.get("hand", ())]
        if " beat " in lesson_move:
            target = lesson_cards(lesson_move)[0]
    table = table_context(view, reveal=reveal, highlight=marks, selectable=pick,
                          selected=selected or (), pick_target=True, target=target,
                          form="tutorial-move" if step.your_move else "")
    ctx: dict[str, Any] = {
        "tutorial": tutorial, "game": game, "n": n, "total": len(tutorial.steps),
        "step": step, "narration": step.say, "table": table,
        "rule_url": reverse(f"rules_{game}") + f"#{step.rule}", "rule_id": step.rule,
        "rule_title": _rule_title(game, step.rule),
        "prev_url": _step_url(game, slug, n - 1) if n > 1 else "",
        "next_url": _step_url(game, slug, n + 1) if n < len(tutorial.steps) else "",
        "step_url": _step_url(game, slug, n),
        "present_url": reverse("tutorial_present", kwargs={"game": game, "slug": slug,
                                                            "step": n}),
        "index_url": reverse(f"tutorials_{game}"),
        "game_title": lessons.GAME_TITLES[game],
        "feedback": feedback, "feedback_kind": feedback_kind, "hint": hint,
        "stars": stars, "stars_label": stars_label, "stars_reason": stars_reason,
    }
    if step.your_move:
        ctx.update({
            "your_move": True,
            "move_url": reverse(f"tutorial_move_{game}", kwargs={"slug": slug, "step": n}),
            "buttons": [{"value": k, "label": MOVE_LABELS[k]} for k in kinds],
            "player": names[viewer],
            "nudge": step.nudge if hint >= 1 else "",
            # the level the hint button asks for next (0: the move is shown, no button)
            "next_hint": 0 if hint == 2 else 1 if hint == 0 and step.nudge is not None else 2,
        })
        if hint == 2:
            label = MOVE_LABELS.get(move_kind(lesson_move.split()[1:]), "")
            named = lesson_cards(lesson_move)
            if named:
                ctx["hint_text"] = _("Choose %(cards)s, then press “%(button)s”.") % {
                    "cards": card_list(named, game), "button": label}
            else:
                ctx["hint_text"] = _("Press “%(button)s”.") % {"button": label}
    return ctx


def _rule_title(game: str, rule_id: str) -> str:
    """The title a learner knows the step's rule by (its id only if the page lacks it)."""
    rule = rule_by_id(game, rule_id)
    return str(rule.title) if rule is not None else rule_id


# --------------------------------------------------------------------------- this browser's part
def _practice_url(tutorial: lessons.Tutorial) -> str:
    """The practice page's new-game form with the lesson's rule set filled in."""
    rules = replay(tutorial.game, tutorial.slug).scn.rules or {}
    query = {("preset" if k == "preset" else f"opt_{k}"): (v if k == "preset" else form_value(v))
             for k, v in rules.items()}
    url = reverse(f"practice_{tutorial.game}")
    return f"{url}?{urlencode(query)}" if query else url


def _recap(tutorial: lessons.Tutorial) -> list[dict[str, str]]:
    """The rules the lesson showed, in its order, each once, by its title on the rules page."""
    out, seen = [], set()
    for step in tutorial.steps:
        if step.rule in seen:
            continue
        seen.add(step.rule)
        rule = rule_by_id(tutorial.game, step.rule)
        if rule is not None:
            out.append({"title": str(rule.title),
                        "url": reverse(f"rules_{tutorial.game}") + f"#{step.rule}"})
    return out


def personal_context(request: HttpRequest, tutorial: lessons.Tutorial, n: int,
                     earned: dict[tuple[str, int], int] | None = None) -> dict[str, Any]:
    """What step ``n`` shows of this browser's progress: a "your move" step already solved
    shows its stars, the last step the end of the lesson (stars, what was learned, what
    next).  ``earned``: stars this very response records (its cookie is not read back yet)."""
    stars = {**progress.stars(request), **(earned or {})}
    ctx: dict[str, Any] = {}
    key = tutorial.key
    if tutorial.steps[n - 1].your_move and (key, n) in stars:
        got = stars[(key, n)]
        ctx["solved"] = {"stars": got, "label": stars_label(got), "reason": STAR_REASONS[got]}
    if n == len(tutorial.steps):
        moves = [i for i, s in enumerate(tutorial.steps, 1) if s.your_move]
        got = sum(stars.get((key, i), 0) for i in moves)
        done = progress.finished(request) | {key}
        following = lessons.next_lesson(tutorial, done)
        ctx["end"] = {
            "stars": got, "max_stars": 3 * len(moves),
            "stars_text": _("%(got)d of %(max)d stars") % {"got": got, "max": 3 * len(moves)},
            "recap": _recap(tutorial),
            "next": {"title": str(following.title),
                     "game": lessons.GAME_TITLES[following.game],
                     "other_game": following.game != tutorial.game,
                     "url": _step_url(following.game, following.slug, 1)} if following else None,
            "practice_url": _practice_url(tutorial),
            "puzzles_url": reverse("puzzles_next",
                                   args=[f"{tutorial.game}:{tutorial.puzzle_theme}"]),
        }
    return ctx


# --------------------------------------------------------------------------- rendering
# A step's htmx answer without feedback depends only on the shipped files, the language and the
# address, so each is rendered once per process (the "shipped" cache); the CSRF token goes in
# per request.
CSRF_SENTINEL = "__tutorial_csrf__"


def _partial_html(request: HtmxHttpRequest, make_ctx: Callable[[], dict[str, Any]],
                  address: str, cacheable: bool) -> str:
    where = "|".join((get_language() or "", request.scheme or "", request.get_host(), address))
    key = "tutorial-step:" + hashlib.sha256(where.encode()).hexdigest()
    html = caches["shipped"].get(key) if cacheable else None
    if html is None:
        html = render_to_string("tutorials/step.html#htmx",
                                {**make_ctx(), "csrf_token": CSRF_SENTINEL}, request=request)
        html += address_oob(request, address)
        if cacheable:
            caches["shipped"].set(key, html)
    return html.replace(CSRF_SENTINEL, get_token(request))


def _render_step(request: HtmxHttpRequest, tutorial: lessons.Tutorial, n: int, *,
                 status: int = 200, push_url: str = "",
                 earned: dict[tuple[str, int], int] | None = None, **shown: Any) -> HttpResponse:
    """Step ``n`` as a full page, or for htmx the ``htmx`` partial with the address links of the
    page it leaves the browser on (``push_url``, else the request's own address).  ``shown``:
    what ``step_context`` shows besides the step (hint, feedback, the learner's choice);
    ``earned``: stars this response records.  A fresh load of ``push_url`` (or of the
    request's address) shows the same page: what differs by browser comes from its progress
    (``personal_context``), which this response's cookies carry."""
    personal = personal_context(request, tutorial, n, earned)

    def make_ctx() -> dict[str, Any]:
        return {**step_context(tutorial, n, **shown), **personal}

    if request.htmx and not request.htmx.history_restore_request:
        address = push_url or request.get_full_path()
        cacheable = not shown.get("feedback") and not shown.get("selected") and not personal
        response = HttpResponse(_partial_html(request, make_ctx, address, cacheable),
                                status=status)
        if push_url:
            htmx_push_url(response, push_url)
    elif not shown.get("feedback") and not shown.get("selected"):
        # The whole page depends only on the shipped files, the language and the address:
        # kept once rendered, with the CSRF token and the deck form filled in per request
        # (web/pagecache.py).  The learner's own progress (stars after a move) is feedback,
        # never kept; what a step shows of the progress kept in the cookies (a solved step's
        # stars, the end of the lesson) is part of the key, a few values per step.
        end = personal.get("end") or {}
        progress_key = (personal.get("solved", {}).get("stars"), end.get("stars"),
                        (end.get("next") or {}).get("url"))
        response = pagecache.cached_page(
            request, "tutorial-step", (tutorial.key, n, sorted(shown.items()), progress_key),
            lambda holes: render_to_string("tutorials/step.html", {**make_ctx(), **holes},
                                           request=request), status=status)
    else:
        response = render(request, "tutorials/step.html", make_ctx(), status=status)
    if n == len(tutorial.steps) and status == 200:
        progress.mark_finished(request, response, tutorial.key)
    return response


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
def _entries(request: HttpRequest, game: str, done: set[str]) -> list[dict[str, Any]]:
    """The game's lessons for its map, in stage order, the next one to take marked."""
    earned = progress.stars(request)
    entries = []
    following = next((t for t in lessons.BY_GAME[game] if t.key not in done), None)
    ordered = sorted(lessons.BY_GAME[game], key=lambda t: list(lessons.STAGES).index(t.stage))
    for t in ordered:
        moves = [i for i, s in enumerate(t.steps, 1) if s.your_move]
        got = sum(earned.get((t.key, i), 0) for i in moves)
        entries.append({"tutorial": t, "url": _step_url(game, t.slug, 1), "done": t.key in done,
                        "stage": str(lessons.STAGES[t.stage]), "next": t is following,
                        "steps": len(t.steps), "your_moves": len(moves),
                        "stars": got, "max_stars": 3 * len(moves),
                        "stars_text": _("%(got)d of %(max)d stars") % {"got": got,
                                                                       "max": 3 * len(moves)}})
    return entries


@require_safe
def overview(request: HtmxHttpRequest) -> HttpResponse:
    done = progress.finished(request)
    games = [{"game": g, "title": lessons.GAME_TITLES[g], "url": reverse(f"tutorials_{g}"),
              "entries": _entries(request, g, done)} for g in lessons.BY_GAME]
    return render(request, "tutorials/overview.html", {
        "games": games, "done_count": len(done), "total": len(lessons.TUTORIALS),
        "has_progress": bool(done or progress.stars(request))})


@require_safe
def game_index(request: HtmxHttpRequest, game: str) -> HttpResponse:
    done = progress.finished(request)
    return render(request, "tutorials/index.html", {
        "game": game, "game_title": lessons.GAME_TITLES[game],
        "entries": _entries(request, game, done),
        "rules_url": reverse(f"rules_{game}"), "overview_url": reverse("tutorials")})


@require_safe
@canonical_address
def start(request: HtmxHttpRequest, game: str, slug: str) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None:
        return _not_found(request, None, game)
    return HttpResponseRedirect(_step_url(game, slug, 1))


@require_safe
@vary_on_headers("HX-Request")
@canonical_address
def step(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    if "go" in request.GET:  # an old link; an unknown value leads to "no such step"
        go = GoForm(request.GET)
        return _go(request, tutorial, step, go.cleaned_data["go"] if go.is_valid() else "")
    query = StepQueryForm(request.GET)
    if tutorial.steps[step - 1].your_move:
        shown = _feedback_from_query(query, tutorial, step)
        if shown is not None:  # a move refused without JavaScript (see ``move``)
            text, kind, selected, target = shown
            return _render_step(request, tutorial, step, selected=selected, target=target,
                                feedback=text, feedback_kind=kind)
    valid = query.is_valid()
    hint = hint_level(tutorial, step, query.cleaned_data["hint"] if valid else "")
    feedback: dict[str, Any] = {}
    if valid and query.cleaned_data["ok"] == "1" and step > 1 and tutorial.steps[step - 2].your_move:
        feedback = _success(progress.stars(request).get((tutorial.key, step - 1), 0))
    response = _render_step(request, tutorial, step, hint=hint, **feedback)
    if hint:  # asking for help lowers the stars this step can still earn
        progress.record_help(request, response, tutorial.key, step, hint)
    return response


def _go(request: HtmxHttpRequest, tutorial: lessons.Tutorial, n: int, go: str) -> HttpResponse:
    """``?go=next``, ``?go=prev``, ``?go=present``: links of earlier versions of the page, sent
    on to the step after or before step n, or to step n in presenter mode."""
    game, slug = tutorial.game, tutorial.slug
    if go == "present":
        return HttpResponseRedirect(reverse("tutorial_present",
                                            kwargs={"game": game, "slug": slug, "step": n}))
    target = {"next": n + 1, "prev": n - 1}.get(go, 0)
    if not 1 <= target <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    return HttpResponseRedirect(_step_url(game, slug, target))


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


def _feedback_from_query(query: StepQueryForm, tutorial: lessons.Tutorial,
                         step: int) -> tuple[str, str, list[int], int | None] | None:
    """Feedback carried in the query after a refused move without JavaScript; None if there is
    none or it is garbled."""
    parts = query.feedback_parts()
    if parts is None:
        return None
    kind, code, cards, selected, target = parts
    text = _feedback_text(tutorial, step, kind, code, [C.parse(c) for c in cards])
    if text is None:
        return None
    return text, kind, [C.parse(c) for c in selected], (C.parse(target[0]) if target else None)


@require_POST
@vary_on_headers("HX-Request")
def move(request: HtmxHttpRequest, game: str, slug: str, step: int) -> HttpResponse:
    tutorial = lessons.get(game, slug)
    if tutorial is None or not 1 <= step <= len(tutorial.steps):
        return _not_found(request, tutorial, game)
    lesson = tutorial.steps[step - 1]
    if not lesson.your_move:
        return _render_step(request, tutorial, step, status=400, feedback_kind="error",
                            feedback=_("There is no move to make at this step."))
    rp = replay(game, slug)
    module = rp.scn.module
    lesson_move = rp.scn.steps[lesson.at - 1].move
    player = lesson_move.split()[0]
    seat = rp.scn.players.index(player)
    state = rp.states[lesson.at - 1]
    selected: list[int] = []
    target_card = None

    def again(feedback: str, kind: str, status: int = 200, push_url: str = "") -> HttpResponse:
        """The same step with a message; the learner's choice stays selected."""
        return _render_step(request, tutorial, step, status=status, selected=selected,
                            target=target_card, feedback=feedback, feedback_kind=kind,
                            push_url=push_url)

    def refused(kind: str, code: str = "", cards: tuple[int, ...] = ()) -> HttpResponse:
        """The step again with the reason, at an address of its own that shows the same
        (so reloading, going back and switching language all behave): in place for htmx,
        which moves the address bar there, else redirected to it."""
        text = _feedback_text(tutorial, step, kind, code, list(cards)) or ""
        query = urlencode({"fb": kind, "r": code, "c": ".".join(C.code(c) for c in cards),
                           "s": ".".join(C.code(c) for c in selected),
                           "t": C.code(target_card) if target_card is not None else ""})
        address = f"{_step_url(game, slug, step)}?{query}"
        if request.htmx:
            return again(text, kind, push_url=address)
        return HttpResponseRedirect(address, status=303)

    form = LessonMoveForm(request.POST)
    try:
        if not form.is_valid():
            raise BadInput
        cards, target = form.cleaned_data["card"], form.cleaned_data["target"]
        selected = [C.parse(c) for c in cards]
        target_card = C.parse(target) if target else None
        action_kind = form.cleaned_data["action"]
        if not target and action_kind == "beat":
            table = state.view(seat).get("table", ())
            if len(table) == 1:  # one attack card: nothing to choose
                target = C.code(table[0])
        text = move_text(player, action_kind, cards, target, legal_kinds(module, state))
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
    stars = 3 - progress.help_level(request, tutorial.key, step)
    earned = {(tutorial.key, step): max(stars, progress.stars(request).get((tutorial.key, step), 0))}
    if step == len(tutorial.steps):
        # The last step solved: it shows its stars and the end of the lesson.
        address = _step_url(game, slug, step)
        shown: dict[str, Any] = {}
    else:
        # The next step, with the praise a fresh load of its ?ok=1 address shows too.
        address = _step_url(game, slug, step + 1) + "?ok=1"
        shown = _success(earned[(tutorial.key, step)])
    if request.htmx:
        response = _render_step(request, tutorial, step if not shown else step + 1,
                                push_url=address, earned=earned, **shown)
    else:
        response = HttpResponseRedirect(address, status=303)
    progress.record_stars(request, response, tutorial.key, step, stars)
    return response


@require_POST
def reset_progress(request: HttpRequest) -> HttpResponse:
    response = HttpResponseRedirect(reverse("tutorials"), status=303)
    progress.reset(response)
    return response
