"""Dam med dolda kort's reasons (rules H-*): each a predicate on the seat's view and the move,
and the sentence that states it.  Points are the row values of the rules in force (H-E2,
H-V3, H-V5); the average of an unseen card is over the cards the seat has not seen (its
memory of the rows, the held card, the discard pile: ``HeuristicBot.unseen``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.numbers import tenths, to_tenth
from rules.engine.bots import dolda as bots
from rules.engine.dolda import Action

from . import Reason, View


# --------------------------------------------------------------------------- facts of a view
def values(view: View) -> tuple[int, ...]:
    return bots.row_values(view["options"])


def expected(view: View) -> float:
    """The average points of a card the seat has not seen, to one decimal as the sentences
    show it (so that a card's points and the average compare as they read)."""
    unseen = bots.HeuristicBot.unseen(view)
    vals = values(view)
    return float(to_tenth(sum(vals[c] for c in unseen) / len(unseen))) if unseen else 6.0


def held_value(view: View) -> int:
    return values(view)[view["held"]]


def known_next(view: View) -> int | None:
    """The card the seat knows at the position the held card would go into, if it knows it."""
    pos = view["next_position"]
    row = view["rows"][view["seat"]]
    if pos is None or pos > view["swappable"]:
        return None
    card: int | None = row[pos - 1]
    return card


def _chain(view: View, action: Action, kind: str) -> bool:
    return action.kind == kind and view["held"] is not None


# --------------------------------------------------------------------------- drawing
def stock_only(view: View, action: Action) -> bool:
    return action.kind == "draw" and view["discard_top"] is None


def take_discard(view: View, action: Action) -> bool:
    top = view["discard_top"]
    return (action.kind == "draw" and action.source == "discard" and top is not None
            and values(view)[top] < expected(view))


def leave_discard(view: View, action: Action) -> bool:
    top = view["discard_top"]
    return (action.kind == "draw" and action.source == "stock" and top is not None
            and values(view)[top] > expected(view))


# --------------------------------------------------------------------------- the swap chain
def crosswise(view: View, action: Action) -> bool:
    return _chain(view, action, "discard") and view["next_position"] > view["swappable"]


def swap_known(view: View, action: Action) -> bool:
    known = known_next(view) if _chain(view, action, "swap") else None
    return known is not None and held_value(view) < values(view)[known]


def discard_known(view: View, action: Action) -> bool:
    known = known_next(view) if _chain(view, action, "discard") else None
    return known is not None and values(view)[known] <= held_value(view)


def swap_unknown(view: View, action: Action) -> bool:
    return (_chain(view, action, "swap") and known_next(view) is None
            and held_value(view) < expected(view))


def discard_unknown(view: View, action: Action) -> bool:
    return (_chain(view, action, "discard") and view["next_position"] <= view["swappable"]
            and known_next(view) is None and held_value(view) > expected(view))


# --------------------------------------------------------------------------- shields and thieves
def _own_others(view: View) -> list[int]:
    """The positions of the seat's row other than the acting jack's."""
    row = view["rows"][view["seat"]]
    return [p for p, c in enumerate(row) if c != view["jack"]]


def shield_lowest(view: View, action: Action) -> bool:
    if action.kind != "shield":
        return False
    row, vals = view["rows"][view["seat"]], values(view)
    covered = [vals[row[p]] for p in action.positions]
    rest = [vals[row[p]] for p in _own_others(view) if p not in action.positions]
    return all(v >= max(covered) for v in rest)


def _stealable(view: View) -> list[int]:
    """The cards of the other rows a thief may take (H-V4: not shielded, owner not robbed)."""
    seat, shielded, robbed = view["seat"], set(view["shielded"]), set(view["robbed"])
    return [c for v, row in enumerate(view["rows"]) if v != seat and v not in robbed
            for c in row if c is not None and c not in shielded]


def _steal_cards(view: View, action: Action) -> tuple[int, int]:
    n, m = action.positions
    return view["rows"][view["seat"]][n], view["rows"][action.victim][m]


def steals_lowest(view: View, action: Action) -> bool:
    if action.kind != "steal":
        return False
    vals = values(view)
    taken = _steal_cards(view, action)[1]
    return all(vals[c] >= vals[taken] for c in _stealable(view))


def gives_highest(view: View, action: Action) -> bool:
    if action.kind != "steal":
        return False
    vals, row = values(view), view["rows"][view["seat"]]
    given = _steal_cards(view, action)[0]
    return all(vals[row[p]] <= vals[given] for p in _own_others(view))


def steal_best(view: View, action: Action) -> bool:
    return steals_lowest(view, action) and gives_highest(view, action)


# --------------------------------------------------------------------------- the sentences
def points(n: int) -> str:
    """A card's points in words ("1 point", "-2 points")."""
    return ngettext("%(n)d point", "%(n)d points", abs(n)) % {"n": n}


def _args(view: View, game: Any) -> dict[str, Any]:
    held = view["held"]
    return {"card": game.card(held), "v": points(held_value(view)),
            "e": tenths(expected(view)), "p": view["next_position"]}


def _say_take_discard(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    top = view["discard_top"]
    return _("Take %(card)s (%(v)s): a card from the stock is worth %(e)s points on average "
             "now, counting the cards you have seen.") % {
        "card": game.card(top), "v": points(values(view)[top]),
        "e": tenths(expected(view))}


def _say_leave_discard(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    top = view["discard_top"]
    return _("Leave %(card)s (%(v)s): a card from the stock is worth %(e)s points on average "
             "now, counting the cards you have seen.") % {
        "card": game.card(top), "v": points(values(view)[top]),
        "e": tenths(expected(view))}


def _say_crosswise(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    return _("The crosswise card at the end of your row can never be swapped: discard "
             "%(card)s.") % {"card": game.card(view["held"])}


def _say_swap_known(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    known = known_next(view)
    assert known is not None
    return _("Swap: %(card)s (%(v)s) is lower than %(known)s (%(w)s), the card you know lies "
             "at position %(p)d.") % {
        **_args(view, game), "known": game.card(known), "w": points(values(view)[known])}


def _say_discard_known(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    known = known_next(view)
    assert known is not None
    return _("Discard %(card)s (%(v)s): the card at position %(p)d is %(known)s (%(w)s), "
             "which you know is no higher.") % {
        **_args(view, game), "known": game.card(known), "w": points(values(view)[known])}


def _say_swap_unknown(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    return _("Swap: %(card)s (%(v)s) is lower than the %(e)s points an unseen card is worth "
             "on average, and you do not know the card at position %(p)d.") % _args(view, game)


def _say_discard_unknown(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    return _("Discard %(card)s (%(v)s): you do not know the card at position %(p)d, and an "
             "unseen card is worth only %(e)s points on average.") % _args(view, game)


def _say_shield(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    row = view["rows"][view["seat"]]
    return _("Shield %(cards)s: apart from the jack, none of your other row cards is "
             "lower, and low cards are the ones a thief wants.") % {
        "cards": game.cards(row[p] for p in action.positions)}


def _steal_args(view: View, action: Action, game: Any, names: Sequence[str]) -> dict[str, Any]:
    given, taken = _steal_cards(view, action)
    return {"card": game.card(taken), "mine": game.card(given), "name": names[action.victim]}


REASONS: tuple[Reason, ...] = (
    Reason("stock_only", stock_only, lambda v, a, g, n: _(
        "The discard pile is empty: the stock is the only place to draw from.")),
    Reason("take_discard", take_discard, _say_take_discard),
    Reason("leave_discard", leave_discard, _say_leave_discard),
    Reason("crosswise", crosswise, _say_crosswise),
    Reason("swap_known", swap_known, _say_swap_known),
    Reason("discard_known", discard_known, _say_discard_known),
    Reason("swap_unknown", swap_unknown, _say_swap_unknown),
    Reason("discard_unknown", discard_unknown, _say_discard_unknown),
    Reason("shield_lowest", shield_lowest, _say_shield),
    Reason("steal_best", steal_best, lambda v, a, g, n: _(
        "Steal %(card)s from %(name)s, the lowest card you may take, and give away %(mine)s, "
        "your highest card apart from the thief.") % _steal_args(v, a, g, n)),
    Reason("steals_lowest", steals_lowest, lambda v, a, g, n: _(
        "Steal %(card)s from %(name)s: no card you may take is lower.") % _steal_args(
        v, a, g, n)),
    Reason("gives_highest", gives_highest, lambda v, a, g, n: _(
        "Give away %(mine)s: apart from the thief, no card of your row is higher.") % _steal_args(v, a, g, n)),
)
