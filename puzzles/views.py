"""The puzzle trainer: the sets, a puzzle, its answer.

A puzzle page is the position of a shipped puzzle (puzzles/store.py) from the solver's seat,
drawn like the practice table (its cards, its legal-move cues from ``move_choices``, so only
legal moves are offered) with the goal, the theme and the two hints of the tutorials (``?hint=1``
the idea, ``?hint=2`` the move).  An answer is a POST of practice's move form: the engine
judges it; a refused move comes back to the puzzle at an address that shows its translated
reason (``?fb=…``), a legal one is scored (the first try of a puzzle without a hint changes the
browser's Glicko-2 rating, puzzles/progress.py) and leads to the result's address (``?res=ok``
or ``?res=miss&m=<the move>``), which shows the solution with the coach's reason.  So a fresh
load of any address after an answer shows the same page: what it shows comes from the address
and the cookie, which only a POST changes.  No page holds a card the solver cannot see: the
table is drawn from the seat's view.

Sets: ``all``, a game (``dam``), a game's theme (``dam:maja``), ``daily`` (one puzzle a day,
the same for everyone: puzzles/choose.py) and ``streak`` (puzzles one after another, harder as
the streak grows, until a miss).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.adapters import adapter
from games.moves import canonical, move_choices, offered_choices
from games.reasons import reason_text
from games.registry import GAME_TITLES, GAMES
from games.table import table_context
from practice.service import BOT_NAMES
from rules.engine import cards as C
from rules.engine.errors import IllegalAction

from . import choose, progress, store, texts
from .forms import AnswerForm, PuzzleQuery
from .glicko import after_puzzle


def _names(puzzle: store.Puzzle) -> list[str]:
    pool = list(BOT_NAMES.get(get_language() or "en", BOT_NAMES["en"]))
    players = len(store.new_deal(puzzle.game, puzzle.preset, 0).names)
    names = pool[:players - 1]
    names.insert(puzzle.seat, _("You"))
    return names


def _puzzle_url(puzzle: store.Puzzle, set_code: str, **query: str) -> str:
    params = {"set": set_code, **{k: v for k, v in query.items() if v}}
    return f"{reverse('puzzle', args=[puzzle.id])}?{urlencode(params)}"


def _next_url(set_code: str) -> str:
    return reverse("puzzles_next", args=[set_code])


def _set_title(set_code: str) -> str:
    game, _sep, theme = set_code.partition(":")
    if set_code == "daily":
        return _("Puzzle of the day")
    if set_code == "streak":
        return _("Streak")
    if game == "all":
        return _("All games")
    title = str(GAME_TITLES.get(game, ""))
    return f"{title}: {texts.theme_title(theme)}" if theme else title


def _rating_text(record: progress.Record) -> str:
    return _("Your puzzle rating: %(rating)d (±%(rd)d)") % {
        "rating": round(record.rating.rating), "rd": round(2 * record.rating.rd)}


# --------------------------------------------------------------------------- the sets
@require_safe
def overview(request: HttpRequest) -> HttpResponse:
    record = progress.read(request)
    games = []
    for g in GAMES:
        mine = store.of_game(g.key)
        themes = choose.theme_counts(mine)
        games.append({"title": g.title, "count": len(mine), "url": _next_url(g.key),
                      "themes": [{"title": texts.theme_title(t), "count": n,
                                  "url": _next_url(f"{g.key}:{t}")} for t, n in themes]})
    daily = choose.daily(choose.today())
    return render(request, "puzzles/overview.html", {
        "games": games, "total": len(store.all_puzzles()), "all_url": _next_url("all"),
        "daily_url": _next_url("daily"), "streak_url": _next_url("streak"),
        "daily_game": GAME_TITLES[daily.game] if daily else "",
        "rating_text": _rating_text(record), "tried": len(record.recent),
        "best_streak": record.best, "has_progress": bool(record.recent or record.best)})


@require_safe
def next_puzzle(request: HttpRequest, set_code: str) -> HttpResponse:
    """The next puzzle of a set, chosen for this browser: the daily one, the streak's next,
    or an unseen one of the set nearest the player's rating."""
    query = PuzzleQuery({"set": set_code})
    if not query.is_valid() or not set_code:
        return render(request, "puzzles/not_found.html", {"overview_url": reverse("puzzles")},
                      status=404)
    record = progress.read(request)
    if set_code == "streak":
        ended = bool(record.last) and not record.last[1]
        if not record.token or (ended and not record.at):
            record.new_streak()
        if not record.at:
            found = choose.streak(record.token, record.streak, record.seen())
            record.at = found.id if found else ""
        puzzle = store.by_id().get(record.at)
        if puzzle is None:
            return HttpResponseRedirect(reverse("puzzles"))
        response = HttpResponseRedirect(_puzzle_url(puzzle, "streak"))
        progress.write(request, response, record)
        return response
    if set_code == "daily":
        found = choose.daily(choose.today())
    else:
        found = choose.next_in_set(set_code, record.rating.rating, record.seen())
        if found is None and ":" in set_code:  # a theme without puzzles: the game's set
            set_code = set_code.partition(":")[0]
            found = choose.next_in_set(set_code, record.rating.rating, record.seen())
    if found is None:
        return HttpResponseRedirect(reverse("puzzles"))
    return HttpResponseRedirect(_puzzle_url(found, set_code))


@require_POST
def reset(request: HttpRequest) -> HttpResponse:
    response = HttpResponseRedirect(reverse("puzzles"), status=303)
    progress.reset(response)
    return response


# --------------------------------------------------------------------------- a puzzle
def _visible(view: dict[str, Any], cards: list[int]) -> list[int]:
    """The cards of a reason that the solver can see (an address cannot name others)."""
    seen = set(view.get("hand", ())) | set(view.get("table", ())) | set(view.get("trick", ()))
    return [c for c in cards if c in seen]


def _context(request: HttpRequest, puzzle: store.Puzzle, set_code: str, *, hint: int = 0,
             result: str = "", played: Any = None, error: str = "",
             selected: list[int] | None = None) -> dict[str, Any]:
    names = _names(puzzle)
    state = puzzle.state(names)
    seat = puzzle.seat
    game = adapter(puzzle.game)
    solution = puzzle.solution_action(state)
    view = game.page_view(state.view(seat), True)
    answered = bool(result)
    offered = puzzle.choice_actions(state)
    actions: dict[str, Any] = {"mine": False}
    if not answered:
        actions = (offered_choices(puzzle.game, offered, names) if offered
                   else move_choices(puzzle.game, state, view, seat, names))
    chosen = list(selected or [])
    if hint == 2 and not answered:
        chosen = list(game.hand_cards(solution))
    target = None
    for t in actions.get("targets", []):
        t["checked"] = (hint == 2 and t["code"] in [C.code(c) for c in game.targets(solution)]) \
            or len(actions["targets"]) == 1
        if t["checked"]:
            target = C.parse(t["code"])
    marks = list(game.hand_cards(solution)) if answered else chosen
    table = table_context(view, selectable=actions.get("selectable", False), selected=chosen,
                          highlight=marks, label=_("Card table"),
                          pick_target=bool(actions.get("beats")), target=target,
                          unplayable=actions.get("unplayable"),
                          one_tap=bool(actions.get("one_tap")), beats=actions.get("beats"),
                          taps=actions.get("taps"), slot_picks=actions.get("slot_picks"),
                          you=seat)
    record = progress.read(request)
    attempt = record.attempt(puzzle.id)
    ctx: dict[str, Any] = {
        "puzzle": puzzle, "game_title": GAME_TITLES[puzzle.game], "set": set_code,
        "set_title": _set_title(set_code), "goal": texts.goal(puzzle.goal),
        "theme": texts.theme_title(puzzle.theme), "table": table, "actions": actions,
        "hint": hint, "nudge": texts.theme_nudge(puzzle.theme) if hint >= 1 else "",
        "hint_move": game.describe(solution, names) if hint == 2 else "",
        "next_hint": 0 if answered or hint == 2 else hint + 1,
        "error": error, "result": result,
        "answer_url": reverse("puzzle_answer", args=[puzzle.id]),
        "page_url": _puzzle_url(puzzle, set_code),
        "next_url": _next_url(set_code), "overview_url": reverse("puzzles"),
        "rating_text": _rating_text(record), "difficulty": puzzle.rating,
        "offered": len(puzzle.choices),
        "why": {"own": _("This card takes part in none of your moves now."),
                "other": _("%(name)s's cards take part in none of your moves.") % {
                    "name": "%(name)s"},
                "table": _("This card on the table takes part in none of your moves now."),
                "key": _("No move has the key %(key)s now.") % {"key": "%(key)s"}},
    }
    if answered:
        ctx["solution"] = game.describe(solution, names)
        ctx["reason"] = game.reason(state.view(seat), solution, names)
        ctx["played"] = game.describe(played, names) if played is not None else ""
        if attempt is not None:
            if attempt[3]:
                ctx["rated"] = _("Not rated: you asked for a hint.")
            else:
                ctx["rated"] = _("Your first try counted: rating %(change)+d.") % {
                    "change": round(attempt[2])}
        if set_code == "streak" and record.last and record.last[0] == puzzle.id:
            ctx["streak"] = {"ok": bool(record.last[1]), "length": record.last[2],
                             "best": record.best}
    return ctx


@require_safe
def puzzle_page(request: HttpRequest, pid: str) -> HttpResponse:
    puzzle = store.by_id().get(pid)
    if puzzle is None:
        return render(request, "puzzles/not_found.html", {"overview_url": reverse("puzzles")},
                      status=404)
    query = PuzzleQuery(request.GET)
    data = query.cleaned_data if query.is_valid() else {}
    set_code = data.get("set") or puzzle.game
    hint = int(data.get("hint") or 0)
    result, played, error, selected = data.get("res") or "", None, "", []
    state = puzzle.state(_names(puzzle))
    if result:
        try:
            played = puzzle.parse(state, data.get("m") or "")
            state.apply(played)
        except (IllegalAction, ValueError, KeyError, IndexError, TypeError):
            played = None
        solved = played is not None and _same(puzzle, state, played)
        if played is None or solved != (result == "ok"):
            result, played = "", None  # an address no answer leads to: the plain puzzle
    elif data.get("fb"):
        cards = [C.parse(c) for c in (data.get("c") or "").split(".") if c]
        shown = _visible(state.view(puzzle.seat), cards)
        error = reason_text(data["fb"], shown, puzzle.game)
        selected = [c for c in shown if c in state.view(puzzle.seat).get("hand", ())]
    ctx = _context(request, puzzle, set_code, hint=0 if result else hint, result=result,
                   played=played, error=error, selected=selected)
    return render(request, "puzzles/puzzle.html", ctx)


def game_module_of(puzzle: store.Puzzle) -> Any:
    return adapter(puzzle.game).engine


def _same(puzzle: store.Puzzle, state: Any, action: Any) -> bool:
    module = game_module_of(puzzle)
    return canonical(module, action) == canonical(module, puzzle.solution_action(state))


@require_POST
def answer(request: HttpRequest, pid: str) -> HttpResponse:
    puzzle = store.by_id().get(pid)
    if puzzle is None:
        return render(request, "puzzles/not_found.html", {"overview_url": reverse("puzzles")},
                      status=404)
    game = adapter(puzzle.game)
    form = AnswerForm(game, request.POST)
    set_code = "all"
    query = PuzzleQuery({"set": request.POST.get("set", "")})
    if query.is_valid() and query.cleaned_data.get("set"):
        set_code = query.cleaned_data["set"]
    if not form.is_valid():
        error = next(iter(form.errors.values()))[0] if form.errors else ""
        ctx = _context(request, puzzle, set_code, error=str(error) or _(
            "That form could not be read. Choose cards and press one of the buttons."))
        return render(request, "puzzles/puzzle.html", ctx, status=400)
    hint = int(form.cleaned_data.get("hint") or 0)
    state = puzzle.state(_names(puzzle))  # the names the page showed (a thief names its victim)
    module = game.engine
    try:
        action = module.parse_action(state, puzzle.seat, form.cleaned_data["words"])
        state.apply(action)  # the engine judges; the puzzle's position is never changed
    except IllegalAction as exc:
        cards = [c for c in exc.cards if isinstance(c, int) and 0 <= c < 52]
        address = _puzzle_url(puzzle, set_code, fb=exc.reason,
                              c=".".join(C.code(c) for c in cards), hint=str(hint or ""))
        return HttpResponseRedirect(address, status=303)
    offered = puzzle.choice_actions(puzzle.state(_names(puzzle)))
    if offered and canonical(module, action) not in {canonical(module, a) for a in offered}:
        # A multiple choice compares only the moves it offers: another legal move is not
        # an answer to it (the page never makes one).
        ctx = _context(request, puzzle, set_code, hint=hint,
                       error=_("Choose one of the moves offered."))
        return render(request, "puzzles/puzzle.html", ctx, status=400)
    solved = _same(puzzle, state, action)
    record = progress.read(request)
    if record.attempt(puzzle.id) is None:
        change = 0.0
        if not hint:
            before = record.rating
            record.rating = after_puzzle(before, puzzle.rating, solved)
            change = record.rating.rating - before.rating
        record.recent.insert(0, [puzzle.id, int(solved), round(change, 1), hint])
        del record.recent[progress.KEEP:]
    if set_code == "streak" and record.at == puzzle.id:
        record.streak = record.streak + 1 if solved else record.streak
        record.best = max(record.best, record.streak)
        record.last = [puzzle.id, int(solved), record.streak]
        record.at = ""
    address = _puzzle_url(puzzle, set_code, res="ok" if solved else "miss",
                          m=puzzle.words(state, action))
    response = HttpResponseRedirect(address, status=303)
    progress.write(request, response, record)
    return response
