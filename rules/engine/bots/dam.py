"""Bots for Dam.  Both see the game only through ``state.legal_actions()`` (and the heuristic
one through ``state.view(seat)``), so they can never use hidden information."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import QUEEN_OF_SPADES
from ..games import Action, GameState

QS = QUEEN_OF_SPADES


class RandomBot:
    """Uniform over the legal actions, from its own seeded random source."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random

    def act(self, state: GameState[Action], seat: int) -> Action:
        acts = state.legal_actions()
        return acts[int(self._random() * len(acts))]


def _rank(card: int) -> int:
    return card % 13 + 2


def maja_threat(view: dict[str, Any]) -> bool:
    """Whether the seat is next in line after the player known to hold the queen of spades
    (the view's public ``maja_known_with``): that player's next attack, with her, comes to
    this seat.  "Sitter du efter den spelaren, se till att ha få kort på handen när talongen
    tar slut" (dam-svarta-maja-sv.txt, Taktik)."""
    holder = view.get("maja_known_with")
    seat = view["seat"]
    if holder is None or holder == seat:
        return False
    n = len(view["names"])
    out = set(view["out"])
    nxt = (holder + 1) % n
    while nxt in out and nxt != holder:
        nxt = (nxt + 1) % n
    return bool(nxt == seat)


class HeuristicBot:
    """Plays like a careful beginner: beats cheaply, saves trumps while the stock lasts, gets
    rid of the queen of spades inside a spade attack and counts the trumps it has seen go.
    Sitting right after the player known to hold the queen, it sheds cards as the stock runs
    out (beats rather than takes, attacks with more cards), so it is short of cards, or out,
    when she comes its way."""

    # "When the stock runs out": the last refills, from this many cards left.
    SHED_STOCK = 9

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        # Cards seen going to the discard pile in beaten pairs (in the attacks this seat saw).
        self._seen: set[int] = set()

    def act(self, state: GameState[Action], seat: int) -> Action:
        view = state.view(seat)
        acts = state.legal_actions()
        for a, c in view["beaten"]:
            self._seen.add(a)
            self._seen.add(c)
        trump = view["trump"]
        hand = view["hand"]
        endgame = view["stock_count"] == 0
        shed = view["stock_count"] <= self.SHED_STOCK and maja_threat(view)
        kinds = {a[0] for a in acts}
        if self._rng.random() < (0.1 if endgame else 0.03):
            # A little noise: fixed play can pass the same cards round the table forever (the
            # rules have no move limit), most of all once the stock is gone.
            plain = [a for a in acts if a[0] != "announce"]
            return plain[int(self._rng.random() * len(plain))]

        if "announce" in kinds:
            best = self._best_announce(acts, hand, trump)
            if best is not None:
                return best
        if "slap" in kinds:
            return next(a for a in acts if a[0] == "slap")  # never let the attacker add more
        if "done" in kinds:
            return self._add(acts, trump, endgame, shed)
        if "take" in kinds:
            return self._defend(acts, view, trump, endgame, shed)
        return self._attack(acts, trump, endgame, shed)

    # -------------------------------------------------------------- decisions
    def _best_announce(self, acts: Sequence[Action], hand: list[int], trump: int | None) -> Action | None:
        # Only a pair that gives more trumps than now; the count rises strictly, so announcing
        # can never go round in circles when marriages may change trump.
        def count(suit: int | None) -> int:
            return 0 if suit is None else sum(1 for c in hand if c // 13 == suit)
        best, best_n = None, count(trump)
        for a in acts:
            if a[0] == "announce" and count(a[2]) > best_n:
                best, best_n = a, count(a[2])
        return best

    def _unseen_trumps_above(self, card: int, trump: int | None, hand: list[int]) -> int:
        if trump is None:
            return 0
        mine = set(hand)
        return sum(1 for c in range(trump * 13, trump * 13 + 13)
                   if c > card and c not in self._seen and c not in mine)

    def _beat_cost(self, a: int, c: int, trump: int | None, endgame: bool,
                   hand: list[int]) -> float:
        if c // 13 == a // 13 and c // 13 != trump:
            return _rank(c) - _rank(a)  # a near card of the same suit is cheapest
        # A trump: dear while the stock lasts, cheaper once no more cards come; a trump that
        # no unseen trump can top is kept for the end.
        cost = 8 + _rank(c) if endgame else 14 + _rank(c)
        if self._unseen_trumps_above(c, trump, hand) == 0 and not endgame:
            cost += 6
        return cost

    def _defend(self, acts: Sequence[Action], view: dict[str, Any], trump: int | None,
                endgame: bool, shed: bool = False) -> Action:
        hand = view["hand"]
        best = None
        for a in acts:
            if a[0] != "beat":
                continue
            cost = self._beat_cost(a[2], a[3], trump, endgame or shed, hand)
            if best is None or cost < best[0] or (cost == best[0] and a < best[1]):
                best = (cost, a)
        # Shedding: every card taken now is one more in hand when the queen comes.
        limit = 30 if endgame or shed else 24
        if best is not None and best[0] <= limit:
            return best[1]
        return next(a for a in acts if a[0] == "take")

    def _attack_score(self, cards: tuple[int, ...], trump: int | None, endgame: bool,
                      shed: bool = False) -> float:
        # Shedding: a card laid now is one fewer in hand when the stock is gone.
        score = (16.0 if shed else 10.0) * len(cards)
        for c in cards:
            if c == QS:
                score += 100  # she must go, and inside a spade attack she takes others along
            elif c // 13 == trump:
                score -= 4 if endgame else 25 + _rank(c)
            else:
                score -= _rank(c) * 0.5  # low cards first, keep the high ones to beat with
        return score

    def _attack(self, acts: Sequence[Action], trump: int | None, endgame: bool,
                shed: bool = False) -> Action:
        best = None
        for a in acts:
            if a[0] != "attack":
                continue
            score = self._attack_score(a[2], trump, endgame, shed) + self._rng.random() * 0.01
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        return best[1]

    def _add(self, acts: Sequence[Action], trump: int | None, endgame: bool,
             shed: bool = False) -> Action:
        best = None
        for a in acts:
            if a[0] != "add":
                continue
            if not endgame and any(c // 13 == trump for c in a[2]):
                continue
            score = self._attack_score(a[2], trump, endgame, shed)
            if best is None or score > best[0]:
                best = (score, a)
        if best is not None and best[0] > 0:
            return best[1]
        return next(a for a in acts if a[0] == "done")


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
