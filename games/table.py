"""The shared game-table presenter: one game's ``view(seat)`` dict -> a template context.

Used by the tutorials and by practice mode.  Templates get a view, never a state, so nothing
here can show a card the engine's view did not give, except the cards the caller passes in
``reveal`` on purpose (for example every hand in a scripted tutorial, where all hands are part
of the lesson; practice mode passes none).

API
---
``table_context(view, *, reveal=None, highlight=(), selectable=False, selected=(),
pick_target=False, target=None, label="", form="") -> dict``

- ``view``: the dict returned by ``state.view(seat)`` of ``dam``, ``dolda`` or ``spardame``.
- ``reveal``: ``{seat: [card ints]}`` of hands the page may show face up besides the viewer's
  own (dam and spardame hands).  Without it other hands are shown as counts / card backs.
  Dolda rows are never revealed beyond what the view gives (cards the viewer knows, or every
  card once the rows are turned up).
- ``highlight``: card ints to mark (``card--highlight``): the cards of the current move.
- ``selectable``: the viewer's own hand is drawn as real checkboxes ``name="card"``
  ``value="<card code>"`` labelled by the card's spoken name, for "your move" forms and
  practice mode.  ``selected``: card ints that start checked.
- ``pick_target`` (dam, with ``selectable``): in a defence, when the viewer is to move, the
  unbeaten attack cards on the table become radios ``name="target"`` for the card to beat
  (``target``: the card int that starts checked).
- ``label``: an accessible name for the whole table (defaults to "Card table").
- ``form``: the id of the form the checkboxes and radios belong to (their ``form`` attribute),
  when the table is not inside that form.
- ``you``: the seat of the reader (the practice player), whose row and tricks the table's
  words name in the second person ("Your row", "You took the last trick").

The result has ``game`` and ``template`` (``games/<game>.html``) plus the game's own keys,
which its adapter builds (``GameAdapter.table``, documented on each adapter).  Render it with
``{% include "games/table.html" with table=table %}``; styles in ``static/css/games.css``.
Every card entry is the card component's context (``games.templatetags.cards.card_context``:
``code``, ``name``, ``rank``, ``symbol``, ``suit``, ``red``, ``highlight``), so templates draw it
with ``{% include "includes/card.html" with card=c %}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from games import cardnames
from games.adapters import adapter
from rules.engine import cards as engine_cards

DEFAULT_LABEL = gettext_lazy("Card table")
TAP_PLACES = ("stock", "next", "discard")


def table_context(view: Mapping[str, Any], *, reveal: Mapping[int, Iterable[int]] | None = None,
                  highlight: Iterable[int] = (), selectable: bool = False,
                  selected: Iterable[int] = (), pick_target: bool = False,
                  target: int | None = None, label: str = "", form: str = "",
                  unplayable: Mapping[int, str] | None = None, one_tap: bool = False,
                  beats: Mapping[int, Iterable[int]] | None = None,
                  taps: Mapping[str, Mapping[str, str]] | None = None,
                  slot_picks: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
                  you: int | None = None) -> dict[str, Any]:
    game = view["game"]
    game_adapter = adapter(game)
    marks = frozenset(highlight)
    shown = {int(s): sorted(cards, key=engine_cards.sort_key)
             for s, cards in (reveal or {}).items()}
    ctx = game_adapter.table(view, shown, marks, selectable, frozenset(selected), you)
    if selectable and pick_target:
        game_adapter.pick_target(view, ctx, target)
    if selectable:
        _cue(ctx, unplayable or {}, one_tap, beats)
    if slot_picks:
        _slot_picks(ctx, slot_picks)
    ctx.update({"game": game, "template": f"games/{game}.html",
                "label": label or str(DEFAULT_LABEL), "selectable": selectable, "form": form,
                "viewer": view["seat"], "back_label": cardnames.face_down_name(),
                # A page with several tables (the handout) gives each its own ids and names.
                "prefix": "", "suffix": "",
                # Places a tap on which submits a one-button move: {"stock": {"form", "label"}}.
                # Every place the templates ask about is present (None: no tap there), so
                # that drawing the table never looks a missing key up (a failed lookup costs
                # Django's template engine an exception and a dir() of the dict).
                "taps": {**dict.fromkeys(TAP_PLACES), **(taps or {})}})
    return ctx


def _cue(ctx: dict[str, Any], unplayable: Mapping[int, str], one_tap: bool,
         beats: Mapping[int, Iterable[int]] | None) -> None:
    """Legal-move cues on the viewer's pickable cards: ``unplayable`` (card -> why it takes
    part in no legal move now), ``one_tap`` (a tap on a card makes the move), ``beats`` (card
    -> the table cards it may beat, for pairing it with one)."""
    targets_of = {c: " ".join(engine_cards.code(t) for t in ts)
                  for c, ts in (beats or {}).items()}
    beatable = {t for ts in (beats or {}).values() for t in ts}
    for seat in ctx.get("seats", ()):
        for entry in seat.get("cards") or () if seat.get("pickable") else ():
            card = engine_cards.parse(entry["code"])
            entry["why"] = unplayable.get(card, "")
            entry["one_tap"] = one_tap and not entry["why"]
            if beats is not None:
                entry["beats"] = targets_of.get(card, "")
    for pair in ctx.get("attack", ()):
        if pair.get("pick") and beats is not None:
            pair["card"]["why"] = "" if engine_cards.parse(pair["card"]["code"]) in beatable \
                else str(NO_BEAT)
    ctx["one_tap"] = one_tap
    ctx["pairing"] = beats is not None


def _slot_picks(ctx: dict[str, Any], picks: Mapping[tuple[int, int], Mapping[str, Any]]
                ) -> None:
    """Row places chosen on the table itself (a jack's cards): ``picks`` maps (seat,
    1-based position) to the input to draw there (name, value, type, label, why, max)."""
    for seat in ctx.get("seats", ()):
        for slot in seat.get("row") or ():
            pick = picks.get((seat["seat"], slot["position"]))
            if pick is not None:
                slot["pick"] = pick


NO_BEAT = gettext_lazy("None of your cards can beat this card.")


def event_cards(events: list[dict[str, Any]], viewer: int | None) -> set[int]:
    """Cards a move showed, to highlight them, as the viewer may see them (refills and the
    private cards of others left out)."""
    out: set[int] = set()
    for e in events:
        if e.get("type") == "refill" or (e.get("private") and e.get("seat") != viewer):
            continue
        for key in ("card", "attack_card", "card_in", "taken", "given"):
            if isinstance(e.get(key), int):
                out.add(e[key])
        if e.get("type") not in ("cards_exchanged", "trick_won", "deal_scored", "scored",
                                 "rows_revealed"):
            out |= {c for c in e.get("cards") or () if isinstance(c, int)}
    return out


# The review's marks on the cards (practice/views.py ``review_step``): a short tag on the card
# and the words a screen reader says after the card's name.
MARK_TAGS = {
    "played": gettext_lazy("You"),
    "best": pgettext_lazy("the card the strong bot prefers, a tag on the card", "Best"),
}
MARK_WORDS = {
    "played": gettext_lazy("you played it"),
    "best": gettext_lazy("the strong bot prefers it"),
}


def mark_cards(ctx: Any, marks: Mapping[int, Iterable[str]]) -> None:
    """Mark the face-up cards of a table context: ``marks`` maps a card to the marks it gets
    (``"played"``, ``"best"``).  Each marked card entry gets ``mark``: the classes, the tags
    and its full name for screen readers (the name, then what the marks say).  A reminder of
    a card shown elsewhere (``table_parts.note_items``) is not marked: one card, one tag."""
    if isinstance(ctx, dict):
        if {"code", "name", "rank", "suit"} <= ctx.keys() and isinstance(ctx["code"], str):
            if ctx.get("note"):
                return
            kinds = [k for k in MARK_TAGS if k in marks.get(engine_cards.parse(ctx["code"]), ())]
            if kinds:
                ctx["mark"] = {
                    "kinds": kinds,
                    "tags": [{"kind": k, "text": str(MARK_TAGS[k])} for k in kinds],
                    "label": "{} ({})".format(ctx["name"], "; ".join(
                        str(MARK_WORDS[k]) for k in kinds)),
                }
            return
        for value in ctx.values():
            mark_cards(value, marks)
    elif isinstance(ctx, (list, tuple)):
        for value in ctx:
            mark_cards(value, marks)
