"""Dam's reasons (rules D-*): each a predicate on the seat's view and the move, and the
sentence that states it.  Moves are the engine's tuples (rules/engine/dam.py):
("attack"|"add", seat, cards), ("beat", seat, attack_card, card), ("take", seat),
("done", seat), ("slap", seat), ("wait", seat), ("announce", seat, suit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.cardnames import suit_name
from rules.engine.cards import QUEEN_OF_SPADES as QS

from . import Reason, View

Action = tuple[Any, ...]


# --------------------------------------------------------------------------- facts of a view
def rank(card: int) -> int:
    return card % 13 + 2


def is_trump(view: View, card: int) -> bool:
    return view["trump"] is not None and card // 13 == view["trump"]


def trumps(view: View) -> list[int]:
    return [c for c in view["hand"] if is_trump(view, c)]


def beats(view: View, attack: int, card: int) -> bool:
    """Whether ``card`` may beat ``attack`` (D-B1, D-B2)."""
    if card == QS or attack == QS:
        return False
    if card // 13 == attack // 13:
        return card > attack
    return is_trump(view, card)


def beaters(view: View) -> list[int]:
    """The cards of the hand that can beat some card of the attack on the table."""
    return [c for c in view["hand"] if any(beats(view, a, c) for a in view["table"])]


def _attack_cards(action: Action) -> tuple[int, ...]:
    return tuple(action[2]) if action[0] in ("attack", "add") else ()


# --------------------------------------------------------------------------- attacks
def maja_with_spades(view: View, action: Action) -> bool:
    cards = _attack_cards(action)
    return QS in cards and len(cards) > 1


def maja_alone(view: View, action: Action) -> bool:
    return _attack_cards(action) == (QS,)


def only_trumps_lowest(view: View, action: Action) -> bool:
    hand = view["hand"]
    return (action[0] == "attack" and bool(hand) and all(is_trump(view, c) for c in hand)
            and tuple(action[2]) == (min(hand),))


def lowest_attack(view: View, action: Action) -> bool:
    """One card, not a trump, and no card of the hand outside trumps has a lower rank."""
    if action[0] != "attack" or len(action[2]) != 1:
        return False
    card = action[2][0]
    return not is_trump(view, card) and all(
        rank(c) >= rank(card) for c in view["hand"] if not is_trump(view, c))


def lowest_of_suit(view: View, action: Action) -> bool:
    """One card, not a trump, the lowest of its suit in the hand, which holds a higher one."""
    if action[0] != "attack" or len(action[2]) != 1:
        return False
    card = action[2][0]
    suit = [c for c in view["hand"] if c // 13 == card // 13 and c != QS]
    return (not is_trump(view, card) and card != QS and card == min(suit)
            and any(c > card for c in suit))


def several(view: View, action: Action) -> bool:
    return action[0] == "attack" and len(action[2]) >= 2


def adds(view: View, action: Action) -> bool:
    return bool(action[0] == "add")


# --------------------------------------------------------------------------- the extra attack
def _suit_left(view: View) -> list[int]:
    suit = view["attack_suit"]
    return [c for c in view["hand"] if suit is not None and c // 13 == suit]


def done_nothing(view: View, action: Action) -> bool:
    return action[0] == "done" and not _suit_left(view)


def done_trumps(view: View, action: Action) -> bool:
    return (action[0] == "done" and bool(_suit_left(view)) and view["stock_count"] > 0
            and view["attack_suit"] == view["trump"])


def done_keep(view: View, action: Action) -> bool:
    return action[0] == "done" and bool(_suit_left(view))


def slaps(view: View, action: Action) -> bool:
    return bool(action[0] == "slap")


def announces(view: View, action: Action) -> bool:
    return bool(action[0] == "announce")


# --------------------------------------------------------------------------- defence
def _beat(action: Action) -> tuple[int, int] | None:
    return (action[2], action[3]) if action[0] == "beat" else None


def _lowest_same_suit(view: View, action: Action) -> bool:
    pair = _beat(action)
    if pair is None:
        return False
    a, c = pair
    return c // 13 == a // 13 and not any(
        x < c and beats(view, a, x) for x in view["hand"] if x // 13 == a // 13)


def beat_low_keep_trumps(view: View, action: Action) -> bool:
    pair = _beat(action)
    return (pair is not None and _lowest_same_suit(view, action) and not is_trump(view, pair[1])
            and bool(trumps(view)) and view["stock_count"] > 0)


def beat_low(view: View, action: Action) -> bool:
    return _lowest_same_suit(view, action)


def _trump_on_plain(view: View, action: Action) -> bool:
    pair = _beat(action)
    return pair is not None and is_trump(view, pair[1]) and not is_trump(view, pair[0])


def _no_suit_beater(view: View, attack: int) -> bool:
    return not any(beats(view, attack, x) for x in view["hand"] if x // 13 == attack // 13)


def trump_endgame(view: View, action: Action) -> bool:
    return _trump_on_plain(view, action) and view["stock_count"] == 0


def lowest_trump_no_suit(view: View, action: Action) -> bool:
    return (_trump_on_plain(view, action) and _no_suit_beater(view, action[2])
            and action[3] == min(trumps(view)))


def trump_no_suit(view: View, action: Action) -> bool:
    return _trump_on_plain(view, action) and _no_suit_beater(view, action[2])


def take_nothing_beats(view: View, action: Action) -> bool:
    return action[0] == "take" and not beaters(view)


def take_keep_trumps(view: View, action: Action) -> bool:
    found = beaters(view)
    return (action[0] == "take" and view["stock_count"] > 0 and bool(found)
            and all(is_trump(view, c) for c in found))


# --------------------------------------------------------------------------- the list
def _card(view: View, action: Action, game: Any) -> str:
    return str(game.card(action[2][0]))


def _say_maja_with_spades(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    return _("Get rid of Svarta Maja together with %(cards)s: nothing can beat her, so the "
             "defender must take her.") % {
        "cards": game.cards(sorted(c for c in action[2] if c != QS))}


def _say_lowest_attack(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    if trumps(view):
        return _("Attack with %(card)s: apart from trumps you hold no lower card, and the "
                 "high ones are worth keeping for beating.") % {"card": _card(view, action, game)}
    return _("Attack with %(card)s: you hold no lower card, and the high ones are worth "
             "keeping for beating.") % {"card": _card(view, action, game)}


def _say_beat(text: Any) -> Any:
    """A sentence about a beat: ``text`` (lazy) with the attack card and the beating card."""
    def say(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
        return str(text) % {"target": game.card(action[2]), "card": game.card(action[3])}
    return say


def _say_done_trumps(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    n = view["stock_count"]
    return ngettext("Stop adding: the cards you could add are trumps, worth keeping while "
                    "%(n)d card is still in the stock.",
                    "Stop adding: the cards you could add are trumps, worth keeping while "
                    "%(n)d cards are still in the stock.", n) % {"n": n}


def _say_take_keep_trumps(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    n = view["stock_count"]
    return ngettext("Take the cards and keep your trumps: only a trump could beat them, and "
                    "%(n)d card is still in the stock.",
                    "Take the cards and keep your trumps: only a trump could beat them, and "
                    "%(n)d cards are still in the stock.", n) % {"n": n}


def _say_announce(view: View, action: Action, game: Any, names: Sequence[str]) -> str:
    suit = action[2]
    n = sum(1 for c in view["hand"] if c // 13 == suit)
    return ngettext("Announce the pair: %(suit)s become trump, and you hold %(n)d card of "
                    "that suit.",
                    "Announce the pair: %(suit)s become trump, and you hold %(n)d cards of "
                    "that suit.", n) % {"suit": suit_name(suit), "n": n}


REASONS: tuple[Reason, ...] = (
    Reason("maja_with_spades", maja_with_spades, _say_maja_with_spades),
    Reason("maja_alone", maja_alone, lambda v, a, g, n: _(
        "Play Svarta Maja out while you can: nothing can beat her, so the defender must "
        "take her.")),
    Reason("only_trumps_lowest", only_trumps_lowest, lambda v, a, g, n: _(
        "You hold only trumps: attack with the lowest, %(card)s.") % {"card": _card(v, a, g)}),
    Reason("lowest_attack", lowest_attack, _say_lowest_attack),
    Reason("lowest_of_suit", lowest_of_suit, lambda v, a, g, n: _(
        "Attack with %(card)s, the lowest card you hold of its suit: the higher ones stay in "
        "your hand for beating.") % {"card": _card(v, a, g)}),
    Reason("several", several, lambda v, a, g, n: _(
        "Attack with %(cards)s together: the defender must beat every one of them or take "
        "them.") % {"cards": g.cards(a[2])}),
    Reason("adds", adds, lambda v, a, g, n: ngettext(
        "Add %(cards)s: the defender must beat it too or take it.",
        "Add %(cards)s: the defender must beat them too or take them.", len(a[2])) % {
        "cards": g.cards(a[2])}),
    Reason("done_nothing", done_nothing, lambda v, a, g, n: _(
        "You hold no more cards of the attack's suit to add.")),
    Reason("done_trumps", done_trumps, _say_done_trumps),
    Reason("done_keep", done_keep, lambda v, a, g, n: _(
        "Stop adding: you keep %(cards)s for beating later.") % {
        "cards": g.cards(_suit_left(v))}),
    Reason("slap", slaps, lambda v, a, g, n: _(
        "Close the attack now: then the attacker may add no more cards to it.")),
    Reason("announce", announces, _say_announce),
    Reason("beat_low_keep_trumps", beat_low_keep_trumps, _say_beat(gettext_lazy(
        "Beat %(target)s with %(card)s, the lowest card of that suit that does it, and keep "
        "your trumps while the stock lasts."))),
    Reason("beat_low", beat_low, _say_beat(gettext_lazy(
        "Beat %(target)s with %(card)s, the lowest card of that suit that does it: keep the "
        "higher ones for later."))),
    Reason("trump_endgame", trump_endgame, _say_beat(gettext_lazy(
        "The stock is empty, so no more cards will come: beat %(target)s with the trump "
        "%(card)s rather than take it."))),
    Reason("lowest_trump_no_suit", lowest_trump_no_suit, _say_beat(gettext_lazy(
        "No card of that suit in your hand beats %(target)s: beat it with %(card)s, your "
        "lowest trump."))),
    Reason("trump_no_suit", trump_no_suit, _say_beat(gettext_lazy(
        "No card of that suit in your hand beats %(target)s: the trump %(card)s does."))),
    Reason("take_nothing_beats", take_nothing_beats, lambda v, a, g, n: _(
        "Nothing in your hand can beat %(cards)s: take the cards.") % {
        "cards": g.cards(v["table"])}),
    Reason("take_keep_trumps", take_keep_trumps, _say_take_keep_trumps),
)
