"""Spardame bots.  They see only ``state.view(seat)`` and ``state.legal_actions()``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import HEARTS, QUEEN_OF_SPADES, SPADES
from ..games import Action, GameState

QS = QUEEN_OF_SPADES
KS = QS + 1
AS = QS + 2


class RandomBot:
    """A uniformly random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState[Action], seat: int) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class HeuristicBot:
    """A careful beginner: passes danger, ducks, sheds high cards, fears the queen of spades.

    It also notices a moon attempt: when one opponent holds every point taken so far, and
    that is a good share of the points in play, it tries to take a point itself.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: GameState[Action], seat: int) -> Action:
        legal = state.legal_actions()
        view = state.view(seat)
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == "pass":
            return self._pass(view, legal)
        return self._play(view, legal)

    # -- passing ---------------------------------------------------------------------------
    def _pass(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        hand = view["hand"]
        spades = [c for c in hand if c // 13 == SPADES]
        low_spades = [c for c in spades if c < QS]
        by_suit = {s: [c for c in hand if c // 13 == s] for s in range(4)}

        def danger(card: int) -> float:
            rank = card % 13 + 2
            suit = card // 13
            score = float(rank)
            if card == QS:
                # Many low spades guard the queen; otherwise she goes.
                score += 30 if len(low_spades) < 4 else -5
            elif card in (KS, AS) and QS not in hand:
                score += 12 if len(low_spades) < 3 else 0
            elif suit == HEARTS:
                score += 3
            # Short suits are worth emptying: a void lets us shed later.
            score += max(0, 4 - len(by_suit[suit]))
            return score + self.rng.random() * 0.01  # seeded tie-break

        chosen = sorted(sorted(hand, key=danger, reverse=True)[:3])
        action: Action = ("pass", view["seat"], *chosen)
        return action if action in legal else legal[0]

    # -- play ------------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        cards = [a[2] for a in legal]
        trick = view["trick"]
        seat = view["seat"]
        n = len(view["names"])
        moon_threat = self._moon_threat(view)
        if moon_threat == seat:
            moon_threat = None  # our own attempt is not a threat
        qs_out = QS in view["played"] or QS in trick

        def pick(card: int) -> Action:
            return legal[cards.index(card)]

        if not trick:
            return pick(self._lead(view, cards, qs_out, moon_threat))
        led = trick[0] // 13
        best = max(c for c in trick if c // 13 == led)
        following = cards[0] // 13 == led
        last = len(trick) == n - 1
        points_on_table = any(c // 13 == HEARTS or c == QS for c in trick)
        if following:
            below = [c for c in cards if c < best]
            if moon_threat is not None and points_on_table:
                above = [c for c in cards if c > best]
                if above:
                    return pick(max(above))  # take a point away from the shooter
            if below:
                return pick(max(below))  # duck under the winning card, as high as possible
            if last and not points_on_table:
                safe = [c for c in cards if c != QS]
                return pick(max(safe) if safe else cards[0])  # winning anyway: dump the highest
            safe = [c for c in cards if c != QS]
            return pick(min(safe) if safe else cards[0])
        # Void in the led suit: shed.
        if moon_threat is not None:
            # Do not feed the shooter points; shed the highest harmless card.
            harmless = [c for c in cards if c // 13 != HEARTS and c != QS]
            if harmless:
                return pick(max(harmless, key=lambda c: c % 13))
        if QS in cards:
            return pick(QS)
        if not qs_out:
            for c in (AS, KS):
                if c in cards:
                    return pick(c)
        hearts = [c for c in cards if c // 13 == HEARTS]
        if hearts:
            return pick(max(hearts))
        return pick(max(cards, key=lambda c: (c % 13, c)))

    def _lead(self, view: dict[str, Any], cards: list[int], qs_out: bool,
              moon_threat: int | None) -> int:
        hand = view["hand"]
        if moon_threat is not None:
            return max(cards, key=lambda c: (c % 13, c))  # try to win a trick
        holds_qs = QS in hand

        def risk(card: int) -> tuple[float, float]:
            suit = card // 13
            rank = card % 13
            r = float(rank)
            if suit == SPADES and not qs_out:
                if holds_qs or card in (KS, AS):
                    r += 20  # leading spades while holding the queen or her cover invites her
                elif not holds_qs:
                    r -= 2  # low spades can flush the queen out
            if suit == HEARTS:
                r += 4
            return (r, self.rng.random())

        return min(cards, key=risk)

    @staticmethod
    def _moon_threat(view: dict[str, Any]) -> int | None:
        points = view["deal_points"]
        takers = [i for i, p in enumerate(points) if p > 0]
        total = view["points_in_play"]
        if len(takers) == 1 and points[takers[0]] * 3 >= total:
            return takers[0]
        return None


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
