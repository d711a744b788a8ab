"""Spardame bots.  They see only ``state.view(seat)`` (the heuristic bot the part of it that
``state.bot_view(seat)`` builds) and ``state.legal_actions()``.
``SEARCH`` at the end is what the strong bot (bots/strong.py) needs of Spardame
(bots/search.py)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, cast

from .. import spardame
from ..cards import HEARTS, QUEEN_OF_SPADES, SPADES
from ..games import GameState
from ..spardame import Action
from .deal import deal_unknown
from .search import Search, SearchParams, Seed, below_table, source

QS = QUEEN_OF_SPADES
KS = QS + 1
AS = QS + 2


class RandomBot:
    """A uniformly random legal action."""

    def __init__(self, seed: Seed) -> None:
        self.rng = source(seed)

    def act(self, state: GameState[Action], seat: int) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class HeuristicBot:
    """A careful beginner: passes danger, ducks, sheds high cards, fears the queen of spades.

    It also notices a moon attempt: when one opponent holds every point taken so far, and
    that is a good share of the points in play, it tries to take a point itself.
    """

    def __init__(self, seed: Seed) -> None:
        self.rng = source(seed)

    def act(self, state: GameState[Action], seat: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = cast(Any, state).bot_view(seat)  # Any: see bots/dam.py
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
        qs_out = view["queen_out"] or QS in trick

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


# --------------------------------------------------------------------------- the strong bot's search
# Playouts per decision, sized so that a decision's 95th percentile stays under 150 ms on a busy
# two-core machine (bench/bots.py prints it).
PLAYOUTS = 120
# The heuristic says nothing of how clear its choice is: every real choice is searched.
CLEAR = math.inf
# The best mean wins: the heuristic's move has no say once the playouts have run.
OVERRULE_Z = 0.0
# Playouts run to the end of the deal, which is never far: one card a seat a trick.
HORIZON = None
# The value of a playout cut at the move cap (never reached: a deal has at most 52 moves).
CUT_VALUE = 0.0


def resample(state: spardame.State, seat: int, rng: random.Random) -> spardame.State:
    """The position with every card ``seat`` cannot see dealt at random (bots/search.py):
    from its view and the public facts of the deal (among them the suits a seat has shown
    it lacks), never a hidden card."""
    v = state.view(seat)
    n = len(v["names"])
    hand = list(v["hand"])
    played = set(v["played"]) | set(v["trick"])
    passed = v["passed"] or []
    seen = set(hand) | played | set(passed)
    deck = spardame.deal_cards(n)
    unknown = [c for c in deck if c not in seen]
    counts = list(v["hand_counts"])
    # Cards the seat passed and that are not yet played sit in the receiver's hand (after the
    # exchange) or are still set aside (before it).
    exchanged = v["received"] is not None
    known_in: dict[int, list[int]] = {s: [] for s in range(n)}
    if passed and exchanged and v["pass_to"] is not None:
        known_in[v["pass_to"]] = [c for c in passed if c not in played]
    sizes = [0 if s == seat else counts[s] - len(known_in[s]) for s in range(n)]
    # Set-aside passes of other seats (before the exchange) are hidden too.
    chosen_flags = v["passes_chosen"]
    aside = [3 if (chosen_flags[s] and s != seat and not exchanged) else 0 for s in range(n)]
    lacks = voids(v)
    if any(lacks):
        parts = _deal_with_voids(rng, unknown, [sizes[s] + aside[s] for s in range(n)], lacks)
    else:
        parts = deal_unknown(rng, unknown, [sizes[s] + aside[s] for s in range(n)])
    hands, chosen = [], []
    for s in range(n):
        if s == seat:
            hands.append(hand)
            chosen.append(list(passed) if v["passed"] is not None and not exchanged else None)
        else:
            cards = parts[s] + known_in[s]
            if aside[s]:
                chosen.append(cards[:3])
                cards = cards[3:]
            else:
                chosen.append(None)
            hands.append(cards)
    seed = rng.getrandbits(32)
    if exchanged:
        return state.redealt(hands, [None] * n, [None] * n, seed)
    return state.redealt(hands, chosen, list(state.received), seed)


def voids(v: dict[str, Any]) -> list[set[int]]:
    """The suits each seat has shown it lacks (it did not follow the led suit, S-T2): public,
    read from the view's played tricks.  The view lists the played cards trick by trick in
    playing order and says who led the last trick; each earlier leader follows backwards,
    because a trick's winner (the highest card of the led suit) leads the next one."""
    n = len(v["names"])
    played = v["played"]
    tricks = [played[i:i + n] for i in range(0, len(played), n)]
    lacks: list[set[int]] = [set() for _ in range(n)]
    leaders: list[int] = [0] * len(tricks)
    if tricks and v["last_trick"] is not None:
        leaders[-1] = v["last_trick"]["leader"]
        for t in range(len(tricks) - 2, -1, -1):
            cards = tricks[t]
            led = cards[0] // 13
            win = max(range(n), key=lambda i: cards[i] if cards[i] // 13 == led else -1)
            leaders[t] = (leaders[t + 1] - win) % n
    every = list(zip(leaders, tricks))
    if v["trick"] and v["leader"] is not None:
        every.append((v["leader"], v["trick"]))
    for leader, cards in every:
        led = cards[0] // 13
        for i, c in enumerate(cards[1:], start=1):
            if c // 13 != led:
                lacks[(leader + i) % n].add(led)
    return lacks


def _deal_with_voids(rng: random.Random, unknown: list[int], sizes: list[int],
                     lacks: list[set[int]]) -> list[list[int]]:
    """``deal_unknown`` that gives no seat a card of a suit it has shown it lacks: the cards
    with the fewest possible holders are placed first, each with a random holder that has
    room, weighted by the room left.  Falls back to the plain deal if it runs into a corner
    (it should not: the real deal is always one answer)."""
    for _attempt in range(20):
        cards = list(unknown)
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(1 for s in range(len(sizes)) if c // 13 not in lacks[s]))
        room = list(sizes)
        parts: list[list[int]] = [[] for _ in sizes]
        ok = True
        for c in cards:
            can = [s for s in range(len(sizes)) if room[s] > 0 and c // 13 not in lacks[s]]
            if not can:
                ok = False
                break
            pick = rng.random() * sum(room[s] for s in can)
            for s in can:
                pick -= room[s]
                if pick < 0:
                    break
            parts[s].append(c)
            room[s] -= 1
        if ok:
            rest = [c for c in unknown if all(c not in p for p in parts)]
            return parts + [rest]
    return deal_unknown(rng, unknown, sizes)


def value(state: spardame.State, seat: int) -> float:
    """A finished deal for ``seat``, lower is better: its points less the table's mean."""
    return below_table(spardame.outcome(state), seat)


def interchangeable(state: spardame.State, seat: int, actions: Sequence[Action]
                    ) -> list[list[Action]]:
    """``actions`` in groups of plays that are the same move in effect (Search.groups): two
    cards of a suit take the same tricks when every card of the deal ranked between them is
    in a collected trick or in the same hand (a card of the trick on the table still
    contends), and they score alike unless one is the queen of spades (every heart scores the
    same).  Only the bots' habit of comparing ranks across suits could tell them apart, not
    the game.  Passes are compared one by one."""
    if state.phase != spardame.PLAY:
        return [[a] for a in actions]
    groups: list[list[Action]] = []
    v = state.view(seat)
    known = set(v["hand"]) | set(v["played"])
    elsewhere = [c for c in spardame.deal_cards(len(v["names"])) if c not in known]
    for a in actions:
        card = a[2]
        for group in groups:
            other = group[0][2]
            lo, hi = min(card, other), max(card, other)
            if (other // 13 == card // 13 and QS not in (card, other)
                    and not any(lo < c < hi for c in elsewhere)):
                group.append(a)
                break
        else:
            groups.append([a])
    return groups


def passing(state: spardame.State) -> bool:
    """Whether the seat is choosing its pass: 286 ways (680 with three players) are too many
    to search, so only the heuristic's choice (and the move under review) are compared."""
    return state.phase == spardame.PASS


SEARCH: Search[spardame.State, Action] = Search(
    SearchParams(playouts=PLAYOUTS, clear=CLEAR, overrule_z=OVERRULE_Z, horizon=HORIZON,
                 cut_value=CUT_VALUE),
    resample=resample, value=value, heuristic=HeuristicBot, policy=HeuristicBot,
    baseline_only=passing, groups=interchangeable)
