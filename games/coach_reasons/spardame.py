"""Spardame's reasons (rules S-*): each a predicate on the seat's view and the move, and the
sentence that states it.  Moves are the engine's tuples (rules/engine/spardame.py):
("pass", seat, c1, c2, c3) and ("play", seat, card).  A card "still out" is one the seat has
not seen played and does not hold: some other player holds it (or it was taken out of the
deck, which only ever happens to twos, S-S1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine.cards import HEARTS, QUEEN_OF_SPADES, SPADES, make

from . import Reason, View

QS = QUEEN_OF_SPADES
HIGH_HEARTS = frozenset((make(14, HEARTS), make(13, HEARTS), make(12, HEARTS)))
Action = tuple[Any, ...]


# --------------------------------------------------------------------------- facts of a view
def rank(card: int) -> int:
    return card % 13 + 2


def is_point(card: int) -> bool:
    return card // 13 == HEARTS or card == QS


def still_out(view: View) -> set[int]:
    return set(range(52)) - set(view["hand"]) - set(view["played"]) - set(view["trick"])


def suit_cards(cards: Sequence[int] | set[int], suit: int) -> list[int]:
    return sorted(c for c in cards if c // 13 == suit)


def master(view: View, card: int) -> bool:
    """No card of its suit still out is higher: it wins a trick its suit leads."""
    return not any(c > card for c in suit_cards(still_out(view), card // 13))


def shooter(view: View) -> int | None:
    """Another player who has taken every point of the deal so far, at least a third of the
    points in play."""
    points = view["deal_points"]
    takers = [i for i, p in enumerate(points) if p > 0]
    if len(takers) == 1 and takers[0] != view["seat"] \
            and points[takers[0]] * 3 >= view["points_in_play"]:
        return takers[0]
    return None


def _played(action: Action) -> int | None:
    return action[2] if action[0] == "play" else None


def _led(view: View) -> int | None:
    return view["trick"][0] // 13 if view["trick"] else None


def _best(view: View) -> int:
    led = view["trick"][0] // 13
    best: int = max(c for c in view["trick"] if c // 13 == led)
    return best


def _passed(action: Action) -> list[int]:
    return sorted(action[2:]) if action[0] == "pass" else []


def _kept(view: View, action: Action) -> list[int]:
    gone = set(_passed(action))
    return [c for c in view["hand"] if c not in gone]


def _low_spades_kept(view: View, action: Action) -> int:
    return sum(1 for c in _kept(view, action) if c // 13 == SPADES and c < QS)


# --------------------------------------------------------------------------- passing
def pass_queen_unguarded(view: View, action: Action) -> bool:
    return QS in _passed(action) and _low_spades_kept(view, action) == 0


def pass_queen_few(view: View, action: Action) -> bool:
    return QS in _passed(action) and 1 <= _low_spades_kept(view, action) <= 3


def keep_hearts_for_moon(view: View, action: Action) -> bool:
    kept = _kept(view, action)
    hearts = [c for c in kept if c // 13 == HEARTS]
    return (action[0] == "pass" and not any(c // 13 == HEARTS for c in _passed(action))
            and HIGH_HEARTS <= set(hearts) and len(hearts) >= 6)


def _high_spades_passed(action: Action) -> list[int]:
    return [c for c in _passed(action) if c // 13 == SPADES and c > QS]


def pass_high_spades(view: View, action: Action) -> bool:
    return bool(_high_spades_passed(action)) and QS not in _kept(view, action)


def _emptied(view: View, action: Action) -> list[int]:
    """The cards of the first suit the pass empties (all the hand holds of it), if any."""
    passed = _passed(action)
    for suit in range(4):
        mine = suit_cards(view["hand"], suit)
        if mine and all(c in passed for c in mine):
            return mine
    return []


def empties_suit(view: View, action: Action) -> bool:
    return bool(_emptied(view, action))


def pass_highest(view: View, action: Action) -> bool:
    passed = _passed(action)
    return bool(passed) and all(rank(c) <= min(rank(p) for p in passed)
                                for c in _kept(view, action))


def keep_queen_guarded(view: View, action: Action) -> bool:
    return QS in _kept(view, action) and _low_spades_kept(view, action) >= 4 \
        and action[0] == "pass"


# --------------------------------------------------------------------------- leading
def first_lead(view: View, action: Action) -> bool:
    return _played(action) is not None and not view["trick"] and not view["played"]


def _lead(action: Action, view: View) -> int | None:
    card = _played(action)
    return card if card is not None and not view["trick"] and view["played"] else None


def lead_to_stop_moon(view: View, action: Action) -> bool:
    card = _lead(action, view)
    return card is not None and shooter(view) is not None and master(view, card)


def lead_low_spade(view: View, action: Action) -> bool:
    card = _lead(action, view)
    return (card is not None and card // 13 == SPADES and card < QS
            and QS in still_out(view))


def lead_sure_loser(view: View, action: Action) -> bool:
    card = _lead(action, view)
    if card is None:
        return False
    out = suit_cards(still_out(view), card // 13)
    return bool(out) and all(c > card for c in out)


def lead_lowest(view: View, action: Action) -> bool:
    card = _lead(action, view)
    if card is None:
        return False
    suit = card // 13
    return (card == suit_cards(view["hand"], suit)[0]
            and any(c > card for c in suit_cards(still_out(view), suit)))


# --------------------------------------------------------------------------- following
def _follow(view: View, action: Action) -> int | None:
    card = _played(action)
    return card if card is not None and view["trick"] and card // 13 == _led(view) else None


def _wins(view: View, card: int) -> bool:
    """The card takes the trick: it beats the trick so far, and it is the last card or no
    card still out can top it."""
    return card > _best(view) and (len(view["trick"]) == len(view["names"]) - 1
                                   or master(view, card))


def take_to_stop_moon(view: View, action: Action) -> bool:
    card = _follow(view, action)
    return (card is not None and shooter(view) is not None and _wins(view, card)
            and any(is_point(c) for c in [*view["trick"], card]))


def duck_highest(view: View, action: Action) -> bool:
    card = _follow(view, action)
    if card is None:
        return False
    best = _best(view)
    return card < best and not any(card < c < best for c in view["hand"])


def duck(view: View, action: Action) -> bool:
    card = _follow(view, action)
    return card is not None and card < _best(view)


def last_high_no_points(view: View, action: Action) -> bool:
    card = _follow(view, action)
    return (card is not None and len(view["trick"]) == len(view["names"]) - 1
            and card > _best(view) and not any(is_point(c) for c in [*view["trick"], card])
            and card == suit_cards(view["hand"], card // 13)[-1])


def cannot_duck(view: View, action: Action) -> bool:
    card = _follow(view, action)
    if card is None:
        return False
    mine = suit_cards(view["hand"], card // 13)
    return card == mine[0] and card > _best(view)


# --------------------------------------------------------------------------- shedding
def _shed(view: View, action: Action) -> int | None:
    card = _played(action)
    return card if card is not None and view["trick"] and card // 13 != _led(view) else None


def shed_queen(view: View, action: Action) -> bool:
    return _shed(view, action) == QS


def shed_highest_heart(view: View, action: Action) -> bool:
    card = _shed(view, action)
    return (card is not None and card // 13 == HEARTS
            and card == suit_cards(view["hand"], HEARTS)[-1])


def keep_hearts_closed(view: View, action: Action) -> bool:
    card = _shed(view, action)
    return (card is not None and card // 13 != HEARTS and card != QS
            and not view["hearts_broken"] and bool(view["played"])
            and bool(suit_cards(view["hand"], HEARTS)))


def shed_highest(view: View, action: Action) -> bool:
    card = _shed(view, action)
    return card is not None and all(rank(c) <= rank(card) for c in view["hand"])


def shed_highest_of_suit(view: View, action: Action) -> bool:
    card = _shed(view, action)
    return card is not None and card == suit_cards(view["hand"], card // 13)[-1]


# --------------------------------------------------------------------------- the sentences
def _card(view: View, action: Action, game: Any) -> str:
    return str(game.card(action[2]))


def _say_pass_queen_few(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    n = _low_spades_kept(view, action)
    return ngettext("Pass %(card)s on: you would keep only %(n)d lower spade to guard her.",
                    "Pass %(card)s on: you would keep only %(n)d lower spades to guard her.",
                    n) % {"card": game.card(QS), "n": n}


def _say_keep_queen(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    return _("Keep %(card)s: the %(n)d lower spades you keep guard her.") % {
        "card": game.card(QS), "n": _low_spades_kept(view, action)}


def _say_moon(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    n = sum(1 for c in view["hand"] if c // 13 == HEARTS)
    return _("Keep all your %(n)d hearts, the ace, king and queen among them: with that many "
             "high hearts you may try to take every point and shoot the moon.") % {"n": n}


def _say_stop_moon(text: Any) -> Any:
    """A sentence (lazy) about the player who has taken every point so far."""
    def say(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
        s = shooter(view)
        assert s is not None
        return str(text) % {"name": names[s], "card": game.card(action[2])}
    return say


def _say_follow(text: Any) -> Any:
    """A sentence (lazy) about a card played to the suit led, under the trick's best card."""
    def say(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
        return str(text) % {"card": game.card(action[2]), "best": game.card(_best(view))}
    return say


REASONS: tuple[Reason, ...] = (
    # passing
    Reason("pass_queen_unguarded", pass_queen_unguarded, lambda v, a, g, n: _(
        "Pass %(card)s on: you would keep no lower spade to guard her.") % {
        "card": g.card(QS)}),
    Reason("pass_queen_few", pass_queen_few, _say_pass_queen_few),
    Reason("keep_hearts_for_moon", keep_hearts_for_moon, _say_moon),
    Reason("pass_high_spades", pass_high_spades, lambda v, a, g, n: _(
        "Pass %(cards)s on: the queen is not among the cards you keep, and when spades are "
        "led, high spades are the ones that catch her.") % {
        "cards": g.cards(_high_spades_passed(a))}),
    Reason("empties_suit", empties_suit, lambda v, a, g, n: ngettext(
        "Empty a suit: %(cards)s is all you hold of it, and with that suit gone you may shed "
        "other cards when it is led.",
        "Empty a suit: %(cards)s are all you hold of it, and with that suit gone you may shed "
        "other cards when it is led.", len(_emptied(v, a))) % {"cards": g.cards(_emptied(v, a))}),
    Reason("pass_highest", pass_highest, lambda v, a, g, n: _(
        "Pass %(cards)s: you keep no higher card, and high cards win the tricks that carry "
        "points.") % {"cards": g.cards(_passed(a))}),
    Reason("keep_queen_guarded", keep_queen_guarded, _say_keep_queen),
    # leading
    Reason("first_lead", first_lead, lambda v, a, g, n: _(
        "The lowest club in play always leads the first trick, and you hold it: %(card)s.") % {
        "card": _card(v, a, g)}),
    Reason("lead_to_stop_moon", lead_to_stop_moon, _say_stop_moon(gettext_lazy(
        "%(name)s has taken every point so far and may be trying to shoot the moon: no card "
        "still out can beat %(card)s, so you win this trick."))),
    Reason("lead_low_spade", lead_low_spade, lambda v, a, g, n: _(
        "Lead %(card)s: the queen is still out among the spades, and a spade lower than her "
        "never wins the trick she falls on.") % {"card": _card(v, a, g)}),
    Reason("lead_sure_loser", lead_sure_loser, lambda v, a, g, n: _(
        "Lead %(card)s: every card of its suit still out is higher, so it wins the trick only "
        "if nobody can follow suit.") % {"card": _card(v, a, g)}),
    Reason("lead_lowest", lead_lowest, lambda v, a, g, n: _(
        "Lead %(card)s, your lowest card of its suit: higher ones are still out, so it may "
        "well lose the trick.") % {"card": _card(v, a, g)}),
    # following suit
    Reason("take_to_stop_moon", take_to_stop_moon, _say_stop_moon(gettext_lazy(
        "%(name)s has taken every point so far and may be trying to shoot the moon: %(card)s "
        "wins this trick and its points, and the moon cannot be shot."))),
    Reason("duck_highest", duck_highest, _say_follow(gettext_lazy(
        "Stay under %(best)s with %(card)s, the highest card you hold that still loses to "
        "it."))),
    Reason("duck", duck, _say_follow(gettext_lazy(
        "Stay under %(best)s: %(card)s cannot win this trick."))),
    Reason("last_high_no_points", last_high_no_points, _say_follow(gettext_lazy(
        "You play last and the trick holds no points: take it with %(card)s, your highest "
        "card of the suit, and keep the lower ones for later."))),
    Reason("cannot_duck", cannot_duck, _say_follow(gettext_lazy(
        "None of your cards of this suit is lower than %(best)s: play the lowest, "
        "%(card)s."))),
    # shedding (no card of the suit led)
    Reason("shed_queen", shed_queen, lambda v, a, g, n: _(
        "You have no card of the suit led: get rid of %(card)s now.") % {
        "card": _card(v, a, g)}),
    Reason("shed_highest_heart", shed_highest_heart, lambda v, a, g, n: _(
        "You have no card of the suit led: shed %(card)s, your highest heart.") % {
        "card": _card(v, a, g)}),
    Reason("keep_hearts_closed", keep_hearts_closed, lambda v, a, g, n: _(
        "Hearts are not broken yet, and shedding %(card)s rather than a heart keeps it so: "
        "nobody may lead hearts while holding other cards.") % {"card": _card(v, a, g)}),
    Reason("shed_highest", shed_highest, lambda v, a, g, n: _(
        "You have no card of the suit led: shed %(card)s, your highest card.") % {
        "card": _card(v, a, g)}),
    Reason("shed_highest_of_suit", shed_highest_of_suit, lambda v, a, g, n: _(
        "You have no card of the suit led: shed %(card)s, the highest card you hold of its "
        "suit.") % {"card": _card(v, a, g)}),
)
