"""The practice game page as its human seat sees it: the context the templates get.

The views (``views.py``) read the request, call the service and choose the template; what
the page shows of a game record is put together here, from the seat's view (never the
state), the shared move choices of ``games/moves.py`` and the coach's stored hint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.adapters import adapter
from games.moves import form_pairs, idle_reasons, move_choices
from games.registry import GAME_TITLES
from games.table import table_context
from rules.engine import cards as C

from . import service as P
from . import tasks
from .forms import PACE_CHOICES
from .models import PracticeGame


def urls(record: PracticeGame) -> dict[str, str]:
    g = record.game
    args = [record.pk]
    return {k: reverse(f"practice_{g}_{k}", args=args)
            for k in ("play", "move", "step", "undo", "next", "share", "export", "review",
                      "puzzle", "log")}


def view_for_page(record: PracticeGame, state: Any) -> dict[str, Any]:
    return adapter(record.game).page_view(state.view(record.human_seat), record.memory_aid)


def game_page(record: PracticeGame, derived: P.Derived, *, pace: str, bot_delay: int,
              absolute: Callable[[str], str], error: str = "",
              show_hint: bool = False) -> dict[str, Any]:
    """The game page's context for the human seat: what it sees, the moves it may make (with
    their cues), the hint when asked, the news since its last decision and the series.
    ``pace`` and ``bot_delay`` are the visitor's choice; ``absolute`` makes the share link
    a whole address."""
    state = derived.state
    view = view_for_page(record, state)
    actions = move_choices(record.game, state, view, record.human_seat, record.names)
    hint = None
    hint_pending = False
    if show_hint and actions["mine"]:
        # The analysis runs as a task (practice/tasks.py): a stored one is shown at once, else
        # it is enqueued and the page polls (an immediate backend has it done by the next line).
        hint = P.hint(record, derived, compute=False)
        if hint is None:
            tasks.request_hint(record)
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
    # The latest lines only (what happened since the player's last decision); the whole log
    # is its own request (``log``).  The series is read once.
    latest = P.latest_lines(record)
    series = P.series_games(record)
    human = record.names[record.human_seat]
    undoable = any(m.startswith(human + " ") for m in record.actions[record.puzzle_from:])
    puzzle = None
    if record.puzzle_of_id is not None:
        original = record.puzzle_of
        puzzle = {"review_url": reverse(f"practice_{record.game}_review", args=[original.pk])
                  if original is not None and original.owner == record.owner else ""}
    bot_turn = P.is_bot_turn(record, state)
    news_shown = NEWS_LINES if len(latest) > NEWS_LINES + 1 else len(latest)
    return {
        "record": record, "game": record.game, "title": GAME_TITLES[record.game],
        "table": table, "actions": actions, "hint": hint, "hint_pending": hint_pending,
        "hint_fields": form_pairs(hint.fields) if hint else [],
        "moves": len(record.actions), "latest": latest[len(latest) - news_shown:],
        "earlier": latest[:len(latest) - news_shown],
        "latest_seat": derived.seats[-1] if derived.seats else None,
        "why": idle_reasons(record.game, record.names, state, view, actions, record.human_seat),
        # The deal's result as its headline (the narration's last line is the result).
        "deal_over": latest[-1] if state.over and latest else "",
        "error": error, "urls": urls(record), "undoable": undoable, "bot_turn": bot_turn,
        "to_move_name": record.names[state.to_move] if state.to_move is not None else "",
        "to_move_you": state.to_move == record.human_seat,
        "over": state.over, "summary": P.series_summary(record, series),
        "can_deal_again": P.can_deal_again(record, series) if state.over else False,
        "bot_delay": bot_delay, "pace": pace, "paces": PACE_CHOICES,
        "share_url": absolute(
            reverse(f"practice_{record.game}_replay", args=[record.share_token]))
        if record.share_token else "",
        "deal_label": record.deal_number, "puzzle": puzzle,
        # Nothing played yet: the page deals the cards out (static/js/flip.js).
        "fresh_deal": not record.actions and record.puzzle_of_id is None,
    }


# The news shows the latest lines since the player's last decision; the earlier ones fold
# away (they were each shown as they happened, and the game log keeps them all), so a round
# of bot moves never pushes the table off a phone's screen.
NEWS_LINES = 3
