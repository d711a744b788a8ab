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

The result has ``game`` and ``template`` (``games/<game>.html``) plus the game's own keys
(documented on each ``_dam``/``_dolda``/``_spardame`` function).  Render it with
``{% include "games/table.html" with table=table %}``; styles in ``static/css/games.css``.
Every card entry is the card component's context (``games.templatetags.cards.card_context``:
``code``, ``name``, ``rank``, ``symbol``, ``suit``, ``red``, ``highlight``), so templates draw it
with ``{% include "includes/card.html" with card=c %}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games import cardnames
from games.templatetags.cards import card_context
from rules.engine import cards as engine_cards

DEFAULT_LABEL = gettext_lazy("Card table")


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
    builder = _BUILDERS[game]
    marks = frozenset(highlight)
    shown = {int(s): sorted(cards, key=engine_cards.sort_key)
             for s, cards in (reveal or {}).items()}
    ctx = builder(view, shown, marks, selectable, frozenset(selected), you)
    if selectable and pick_target:
        _pick_target(view, ctx, target)
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
                "taps": dict(taps or {})})
    return ctx


# ----------------------------------------------------------------------------- helpers
def _card(card: int, game: str, marks: frozenset[int]) -> dict[str, Any]:
    return card_context(card, game, card in marks)


def _cards(cards: Iterable[int], game: str, marks: frozenset[int]) -> list[dict[str, Any]]:
    return [_card(c, game, marks) for c in cards]


def _pickable(cards: Iterable[int], game: str, marks: frozenset[int],
              selected: frozenset[int]) -> list[dict[str, Any]]:
    out = []
    for c in cards:
        entry = _card(c, game, marks)
        entry["checked"] = c in selected
        out.append(entry)
    return out


def _hand_cards(cards: list[int] | None, game: str, marks: frozenset[int], pick: bool,
                selected: frozenset[int]) -> list[dict[str, Any]] | None:
    if cards is None:
        return None
    return _pickable(cards, game, marks, selected) if pick else _cards(cards, game, marks)


def _suit(suit: int | None) -> dict[str, Any] | None:
    if suit is None:
        return None
    return {"name": cardnames.suit_name(suit), "symbol": cardnames.SUIT_SYMBOLS[suit],
            "code": engine_cards.SUITS[suit].lower(), "red": suit in (1, 2)}


def _hand_for(view: Mapping[str, Any], seat: int, shown: dict[int, list[int]]) -> list[int] | None:
    """The cards of ``seat`` the page may show, or None when they are hidden."""
    if seat == view["seat"]:
        return sorted(view["hand"], key=engine_cards.sort_key)
    return shown.get(seat)


# ----------------------------------------------------------------------------- dam
def _dam(view, shown, marks, selectable, selected, you=None) -> dict[str, Any]:
    """Keys: ``seats`` (name, is_viewer, cards or None, count (None = hidden size), backs,
    attacker, defender, to_move, out (1-based order or None), loser, pickable), ``attack``
    (``[{"card", "beaten_by"}]`` in attack order: beaten pairs first, then unbeaten cards),
    ``trump`` (suit dict or None), ``turned`` (the face-up trump card while it lies under the
    stock), ``stock_count``, ``discard_count``, ``phase``, ``over``, ``loser_name``."""
    game = "dam"
    names = view["names"]
    out = list(view["out"])
    seats = []
    for s, name in enumerate(names):
        cards = _hand_for(view, s, shown)
        count = view["hand_counts"][s]
        pick = selectable and s == view["seat"] and not view["over"]
        seats.append({
            "seat": s, "name": name, "is_viewer": s == view["seat"], "hand_id": f"hand-{s}",
            "hand_label": pgettext("the reader's own hand on the card table", "Your hand")
            if s == you else name,
            "cards": _hand_cards(cards, game, marks, pick, selected),
            "count": count, "backs": range(count or 0) if cards is None else range(0),
            "pickable": pick,
            "attacker": s == view["attacker"] and not view["over"],
            "defender": s == view["defender"] and not view["over"],
            "to_move": s == view["to_move"],
            "out": out.index(s) + 1 if s in out else None,
            "loser": s == view["loser"],
            # Public: she was taken from the table, drawn as the turned card or shown in a
            # pair (the seed's tactic "watch where Maja is").
            "maja_known": _maja_text(view, s, you),
        })
    attack = [{"card": _card(a, game, marks), "beaten_by": _card(b, game, marks)}
              for a, b in view["beaten"]]
    attack += [{"card": _card(a, game, marks), "beaten_by": None} for a in view["table"]]
    turned = view["turned"] if view.get("turned_in_stock") else None
    return {
        "seats": seats, "attack": attack, "trump": _suit(view["trump"]),
        "turned": _card(turned, game, marks) if turned is not None else None,
        "stock_count": view["stock_count"], "discard_count": view["discard_count"],
        "phase": view["phase"], "over": view["over"],
        "loser_name": names[view["loser"]] if view["loser"] is not None else None,
        "attack_suit": _suit(view.get("attack_suit")),
        "attacker_seat": view["attacker"], "defender_seat": view["defender"],
    }


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


def _pick_target(view: Mapping[str, Any], ctx: dict[str, Any], target: int | None) -> None:
    """In a defence, the defender also picks which attack card to beat: the unbeaten attack
    cards become radios named "target".  Only Dam's table has attack cards."""
    if "attack" not in ctx or view["phase"] != "defend" or view["to_move"] != view["seat"]:
        return
    for entry in ctx["attack"]:
        if entry["beaten_by"] is None:
            entry["pick"] = True
            entry["card"]["checked"] = engine_cards.parse(entry["card"]["code"]) == target
    ctx["pick_target"] = True


def _maja_text(view: Mapping[str, Any], seat: int, you: int | None) -> str:
    if view.get("maja_known_with") != seat or view["over"]:
        return ""
    if seat == you:
        return _("everyone saw you get Svarta Maja")
    return _("has Svarta Maja (everyone saw)")


# ----------------------------------------------------------------------------- dolda
def _dolda(view, shown, marks, selectable, selected, you=None) -> dict[str, Any]:
    """Keys: ``seats`` (name, is_viewer, to_move, row: ``[{"position", "card" or None,
    "crosswise", "shielded", "next"}]`` left to right, ``secret`` (``{"card" or None}`` or
    None), score, winner), ``holder`` (name or None), ``held`` (card or None: a back when the
    viewer may not see it), ``stock_count``, ``discard_top``, ``discard_count``,
    ``rows_face_up``, ``jack``, ``phase``, ``over``.  ``selectable`` has no hand to pick from
    in this game (moves are buttons)."""
    game = "dolda"
    names = view["names"]
    swappable = view["swappable"]
    shielded = set(view["shielded"])
    scores = view["scores"]
    best = min(scores) if scores else None
    seats = []
    for s, name in enumerate(names):
        row = []
        for p, c in enumerate(view["rows"][s]):
            row.append({
                "position": p + 1,
                "card": _card(c, game, marks) if c is not None else None,
                "crosswise": p >= swappable,
                "shielded": c is not None and c in shielded,
                "next": view["holder"] == s and view["next_position"] == p + 1,
            })
        secret = None
        if view["secret"] is not None:
            sc = view["secret"][s]
            secret = {"card": _card(sc, game, marks) if sc is not None else None}
        seats.append({
            "seat": s, "name": name, "is_viewer": s == view["seat"],
            "row_label": pgettext("the reader's own row on the card table", "Your row") if s == you else _("%(name)s's row") % {"name": name},
            "to_move": s == view["to_move"], "row": row, "secret": secret,
            "score": scores[s] if scores else None,
            "winner": scores is not None and scores[s] == best,
        })
    holder = view["holder"]
    held = view["held"]
    return {
        "seats": seats,
        "holder": names[holder] if holder is not None else None,
        "held": _card(held, game, marks) if held is not None else None,
        "stock_count": view["stock_count"], "discard_count": view["discard_count"],
        "discard_top": _card(view["discard_top"], game, marks)
        if view["discard_top"] is not None else None,
        "rows_face_up": view["rows_face_up"],
        "jack": _card(view["jack"], game, marks) if view["jack"] is not None else None,
        "phase": view["phase"], "over": view["over"],
    }


# ----------------------------------------------------------------------------- spardame
DIRECTION_LABELS = {
    "left": gettext_lazy("Passing to the left"),
    "right": gettext_lazy("Passing to the right"),
    "across": gettext_lazy("Passing across"),
    "none": gettext_lazy("No passing this deal"),
}


def _spardame(view, shown, marks, selectable, selected, you=None) -> dict[str, Any]:
    """Keys: ``seats`` (name, is_viewer, cards or None, count, backs, pickable, to_move,
    leader, chose_pass, tricks_won, deal_points, score, winner), ``trick`` (``[{"name",
    "card"}]`` in play order), ``last_trick`` (same shape plus ``winner``), ``pass_direction``,
    ``pass_label``, ``pass_to`` (name), ``passed`` / ``received`` (the viewer's own cards),
    ``hearts_broken``, ``phase``, ``over``, ``deal_number``, ``limit``, ``moon`` (name)."""
    game = "spardame"
    names = view["names"]
    n = len(names)
    seats = []
    phase = view["phase"]
    for s, name in enumerate(names):
        cards = _hand_for(view, s, shown)
        pick = selectable and s == view["seat"] and phase != "over"
        count = view["hand_counts"][s]
        seats.append({
            "seat": s, "name": name, "is_viewer": s == view["seat"], "hand_id": f"hand-{s}",
            "hand_label": pgettext("the reader's own hand on the card table", "Your hand")
            if s == you else name,
            "cards": _hand_cards(cards, game, marks, pick, selected),
            "count": count, "backs": range(count) if cards is None else range(0),
            "pickable": pick,
            "to_move": s == view["to_move"], "leader": s == view["leader"],
            "chose_pass": phase == "pass" and view["passes_chosen"][s],
            "tricks_won": view["tricks_won"][s], "deal_points": view["deal_points"][s],
            "score": view["scores"][s], "winner": s in view["winners"],
        })
    trick = []
    leader = view["leader"]
    for i, c in enumerate(view["trick"]):
        who = (leader + i) % n if leader is not None else None
        trick.append({"name": names[who] if who is not None else "", "seat": who,
                      "card": _card(c, game, marks)})
    last = None
    if view["last_trick"]:
        lt = view["last_trick"]
        last = {"winner": names[lt["winner"]], "winner_seat": lt["winner"],
                "key": " ".join(engine_cards.code(c) for c in lt["cards"]),
                "taken_by": _("You took the last trick") if lt["winner"] == you
                else _("Last trick taken by %(name)s") % {"name": names[lt["winner"]]},
                "cards": [{"name": names[(lt["leader"] + i) % n], "seat": (lt["leader"] + i) % n,
                           "card": _card(c, game, marks)}
                          for i, c in enumerate(lt["cards"])]}
    direction = view["pass_direction"]
    return {
        "seats": seats, "trick": trick, "last_trick": last,
        "pass_direction": direction,
        "pass_label": str(DIRECTION_LABELS.get(direction, "")) if phase == "pass" else "",
        "pass_to": names[view["pass_to"]] if view["pass_to"] is not None else None,
        "passed": _cards(view["passed"] or (), game, marks),
        "received": _cards(view["received"] or (), game, marks),
        "hearts_broken": view["hearts_broken"], "phase": phase, "over": phase == "over",
        "deal_number": view["deal_number"], "limit": view["limit"],
        "moon": names[view["moon"]] if view.get("moon") is not None else None,
        "moon_text": None if view.get("moon") is None else _("You shot the moon!")
        if view["moon"] == you else _("%(name)s shot the moon!") % {"name": names[view["moon"]]},
    }


_BUILDERS = {"dam": _dam, "dolda": _dolda, "spardame": _spardame}


def event_cards(events: list, viewer: int | None) -> set[int]:
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
