"""Bots for Dam.  Both see the game only through ``state.legal_actions()`` (and the heuristic
one through ``state.view(seat)``: the part of it ``state.bot_view(seat)`` builds), so they
can never use hidden information.  ``SEARCH`` at
the end is what the strong bot (bots/strong.py) needs of Dam (bots/search.py)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, cast

from .. import dam
from ..cards import QUEEN_OF_SPADES

# The generic action (games.Action), not dam.Action's union of shapes: the bots pick actions
# by their kind and read them by position, which a union of tuples cannot follow.
from ..games import Action, GameState
from .deal import deal_unknown
from .search import Search, SearchParams, Seed, source

QS = QUEEN_OF_SPADES


class RandomBot:
    """Uniform over the legal actions, from its own seeded random source."""

    def __init__(self, seed: Seed) -> None:
        self._random = source(seed).random

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

    def __init__(self, seed: Seed) -> None:
        self._rng = source(seed)
        # Cards seen going to the discard pile in beaten pairs (in the attacks this seat saw).
        self._seen: set[int] = set()

    def act(self, state: GameState[Action], seat: int) -> Action:
        # Any, not dam.State: a compiled build checks a cast, and the tests hand the bot a
        # stand-in that exposes only what a seat may see.
        view = cast(Any, state).bot_view(seat)
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


# --------------------------------------------------------------------------- the strong bot's search
# Playouts per decision, sized so that a decision's 95th percentile stays under 150 ms on a busy
# two-core machine (bench/bots.py prints it).
PLAYOUTS = 120
# The heuristic says nothing of how clear its choice is: every real choice is searched.
CLEAR = math.inf
# The best mean wins: the heuristic's move has no say once the playouts have run.
OVERRULE_Z = 0.0
# Playouts run to the end of the deal: only its end (who gets Svarta Maja) has a value.
HORIZON = None
# Dam has no move limit; a playout cut at the move cap counts as a draw, half a lost deal.
CUT_VALUE = 0.5


def resample(state: dam.State, seat: int, rng: random.Random) -> dam.State:
    """The position with every card ``seat`` cannot see dealt at random (bots/search.py):
    from its view and what the whole table saw, never a hidden card."""
    v = state.view(seat)
    n = len(v["names"])
    seen = set(v["hand"]) | set(v["table"]) | {c for pair in v["beaten"] for c in pair}
    turned = v["turned"]
    turned_in_stock = v["turned_in_stock"]
    if turned is not None and turned_in_stock:
        seen.add(turned)
    unknown = [c for c in range(52) if c not in seen]
    counts = list(v["hand_counts"])
    # Endgame "penalty" hides the other hand sizes: spread the unknown cards evenly over the
    # players who are not out (the view says who is out).
    stock_n = v["stock_count"] - (1 if turned_in_stock else 0)
    if any(c is None for c in counts):
        left = len(unknown) - stock_n - v["discard_count"]
        others = [s for s in range(n) if s != seat and counts[s] is None and s not in v["out"]]
        for s in range(n):
            if counts[s] is None:
                counts[s] = 0
        for i in range(max(left, 0)):
            if others:
                counts[others[i % len(others)]] += 1
    # Public: the seat everyone saw get the queen of spades, and that has not laid her since,
    # holds her in every resampled position.
    maja = v.get("maja_known_with")
    if maja is not None and maja != seat and QS in unknown and counts[maja]:
        unknown.remove(QS)
        counts[maja] -= 1
    else:
        maja = None
    sizes = [0 if s == seat else counts[s] for s in range(n)] + [stock_n]
    parts = deal_unknown(rng, unknown, sizes)
    hands = [list(v["hand"]) if s == seat else parts[s] for s in range(n)]
    if maja is not None:
        hands[maja].append(QS)
    stock_top_first = parts[n] + ([turned] if turned_in_stock else [])
    discard = unknown[sum(sizes):]  # deal_unknown shuffled ``unknown`` in place
    data = {
        "options": v["options"], "names": v["names"], "hands": hands,
        "stock": stock_top_first,
        "turned": turned, "discard": discard, "table": v["table"], "beaten": v["beaten"],
        "phase": v["phase"],
        "attacker": -1 if v["attacker"] is None else v["attacker"],
        "defender": -1 if v["defender"] is None else v["defender"],
        "trump": v["trump"],
        # Public: whether trump has been turned or announced (everyone at the table saw it).
        "trump_set": state.trump_set,
        "attack_suit": v["attack_suit"] if v["attack_suit"] is not None else 0,
        "out": v["out"], "loser": -1 if v["loser"] is None else v["loser"],
        "maja": v.get("maja_known_with"),
        # The bot's own random source, never the deal's seed (that would predict the stock).
        "seed": rng.getrandbits(32), "draws": 0,
    }
    return dam.state_from_json(data)


def value(state: dam.State, seat: int) -> float:
    """A finished deal for ``seat``, lower is better: its ``outcome`` (1 for getting Svarta
    Maja), and among the deals not lost a small tie-break: going out early is safer (D-N2)."""
    lost = dam.outcome(state)[seat]
    if lost:
        return lost
    out = list(state.out)
    return 0.05 * out.index(seat) / len(state.names) if seat in out else 0.0


def spread(acts: Sequence[Action], rng: random.Random, k: int) -> list[Action]:
    """The attacks worth trying when there are too many (an attack can have hundreds of
    same-suit sets): the widest of each suit and the single cards first, then ``k`` others
    at random."""
    singles = [a for a in acts if a[0] in ("attack", "add") and len(a[2]) == 1]
    widest: dict[int, Action] = {}
    for a in acts:
        if a[0] in ("attack", "add") and len(a[2]) > len(widest.get(a[2][0] // 13, ((), (), ()))[2]):
            widest[a[2][0] // 13] = a
    others = [a for a in acts if a not in singles]
    return list(widest.values()) + singles + rng.sample(others, min(len(others), k))


def alike(state: dam.State, seat: int) -> dict[int, int]:
    """The seat's cards that beat and are beaten alike, each with the lowest of its run: a
    run is cards of one suit in the seat's hand with nothing ranked between them but its
    own cards and this attack's beaten pairs (out of the game, D-B4), so no card elsewhere
    beats one of them and not another (D-B1).  The queen of spades (D-B2) and, where a pair
    may be announced, every king and queen (D-T4) stand alone and break a run.  The pile's
    older pairs do not join one: the view does not say which cards they were."""
    v = state.bot_view(seat)
    gone = {c for pair in v["beaten"] for c in pair}
    marriage = state.rules.marriage
    low: dict[int, int] = {}
    prev = -1
    for c in v["hand"]:  # in card order: by suit, then rank
        if c == QS or (marriage and c % 13 >= 10):
            prev = -1  # alone, and no run goes across it
            continue
        if prev >= 0 and prev // 13 == c // 13 and all(x in gone for x in range(prev + 1, c)):
            low[c] = low[prev]
        else:
            low[c] = c
        prev = c
    return low


def interchangeable(state: dam.State, seat: int, actions: Sequence[Action]
                    ) -> list[list[Action]]:
    """``actions`` in groups of moves that are the same move in effect (Search.groups): two
    beats of one attack card with cards of one run (``alike``).  The beaten pair leaves the
    game, and what stays in hand is the run less one card either way, with the same place
    among every card that can still meet it.  Attacks are never grouped: a card laid can be
    taken and come back, and then it matters which card of the run stayed in hand."""
    low = alike(state, seat) if state.phase == dam.DEFEND else {}
    groups: list[list[Action]] = []
    where: dict[tuple[int, int], list[Action]] = {}
    for a in actions:
        if a[0] == "beat" and a[3] in low:
            group = where.get((a[2], low[a[3]]))
            if group is not None:
                group.append(a)
                continue
            group = where[(a[2], low[a[3]])] = [a]
            groups.append(group)
        else:
            groups.append([a])
    return groups


SEARCH: Search[dam.State, Action] = Search(
    SearchParams(playouts=PLAYOUTS, clear=CLEAR, overrule_z=OVERRULE_Z, horizon=HORIZON,
                 cut_value=CUT_VALUE),
    resample=resample, value=value, heuristic=HeuristicBot, policy=HeuristicBot,
    spread=spread, groups=interchangeable)
