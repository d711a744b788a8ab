"""Spardame, the Norwegian Hearts-type game (rules-spec.md section 3, rules S-*).

Actions are plain tuples so that listing and comparing them stays cheap:

- ``("play", seat, card)``; the same tuple objects are reused (``PLAYS[seat][card]``);
- ``("pass", seat, c1, c2, c3)`` with the three cards in ascending order.

A hand is kept as four tuples (clubs, diamonds, hearts, spades) of play actions in rank
order, in one flat list for all seats (``hands[seat * 4 + suit]``), so the legal plays are a
suit tuple or a concatenation of them.  States share everything that does not change during
a deal through one ``_Deal`` object.

One generator per phase says what is legal: ``_plays`` (S-T1..S-T4) the legal plays, worked
out once after every move and kept in ``_legal``; during passing every choice of three cards
(S-P1).  ``legal_actions()`` lists them, ``apply_in_place`` accepts a move that is one of them
(a pass: once its cards are sorted), and a refused play is named by the rule ``_plays``
applied to it.

``apply_in_place(action, events=None)`` changes the state itself and builds event dicts only
when given a list to put them in; ``clone()`` copies what it changes.  ``apply`` is clone plus
``apply_in_place``: a new state and a list of event dicts per move were most of the time of a
simulation, which needs neither.

During passing, ``legal_actions()`` is a lazy read-only sequence (``PassChoices``) of the
C(k, 3) choices: building 286 tuples (680 with three players) per pass cost more than the
rest of a random deal.  Chosen cards are set aside face down, out of the hand, until everyone
has chosen (S-P1); the ``hand`` of a player who has chosen therefore holds the others only.
The deal's seed is used once, to shuffle; nothing after the deal is random.
"""

from __future__ import annotations

import _random
import dataclasses
import random
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, repeat
from operator import add, itemgetter
from typing import Any, Final, NoReturn, overload

from .cards import CLUBS, HEARTS, QUEEN_OF_SPADES, CardError, code, parse
from .errors import IllegalAction, ScenarioError
from .expect import by_seat, card_list, shown
from .match import Standing
from .options import choice

NAME = "spardame"


@dataclass(frozen=True)
class Options:
    # S-T4: no hearts or queen of spades on the first trick (unless nothing else is held).
    no_points_first_trick: bool = choice(True, (True, False))
    # S-T3: playing the queen of spades in any way also breaks hearts.
    qs_breaks_hearts: bool = choice(False, (False, True))
    # S-C1: a heart scores 10 and the queen of spades 100 instead of 1 and 13.
    high_values: bool = choice(False, (False, True))
    # S-C2: taking every point card of the deal scores 0 and gives everyone else the points.
    moon: bool = choice(True, (True, False))
    # S-C2: the moon gives the others 26 each whatever the card values.
    moon_fixed_26: bool = choice(False, (False, True))
    # S-C3: the match ends after the deal in which someone reaches this total.
    limit: int = choice(100, (100, 500))


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # The house rules of the Norwegian source: 100/10 values, play to 500, moon gives 26.
    "husregler": {"high_values": True, "limit": 500, "moon_fixed_26": True},
}
DEFAULT_PRESET = "standard"

MIN_PLAYERS, MAX_PLAYERS = 3, 6
QS = QUEEN_OF_SPADES
PASS, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("pass", "play", "over")

# S-S1: the twos taken out so that every hand has as many cards (5 players: 2D and 2S).
REMOVED: dict[int, tuple[int, ...]] = {3: (0,), 4: (), 5: (13, 39), 6: (0, 13, 26, 39)}

# PLAYS[seat][card] is the one play action reused everywhere, so membership tests usually
# succeed on identity.
PlayAction = tuple[str, int, int]
PLAYS: tuple[tuple[PlayAction, ...], ...] = tuple(
    tuple(("play", seat, card) for card in range(52)) for seat in range(MAX_PLAYERS))

PassAction = tuple[str, int, int, int, int]  # ("pass", seat, c1, c2, c3)
Action = PlayAction | PassAction


def player_range(options: Options) -> tuple[int, int]:
    return MIN_PLAYERS, MAX_PLAYERS


def deal_cards(n: int) -> list[int]:
    """S-S1: the cards of a deal for ``n`` players, ascending."""
    return list(_DEAL_CARDS[n])


_DEAL_CARDS = {n: tuple(c for c in range(52) if c not in REMOVED[n]) for n in REMOVED}


def pass_direction(n: int, deal_number: int) -> str:
    """S-P1: left, right, across, none; with 3 players left, right, none."""
    cycle = ("left", "right", "none") if n == 3 else ("left", "right", "across", "none")
    return cycle[(deal_number - 1) % len(cycle)]


def pass_offset(n: int, direction: str) -> int:
    # Seats to the left the cards travel; "across" is floor(n/2) seats to the left.
    return {"none": 0, "left": 1, "right": n - 1, "across": n // 2}[direction]


class _Deal:
    """What stays fixed for a whole deal; shared by every state of the deal."""

    __slots__ = (
        "deal_number",
        "dealer",
        "direction",
        "first_trick_rule",
        "lowest_club",
        "n",
        "names",
        "offset",
        "options",
        "pass_order",
        "points_in_play",
        "qs_breaks",
        "scores_before",
        "seed",
        "tricks_per_deal",
        "values",
    )
    options: Options
    names: list[str]
    n: int
    dealer: int
    seed: int
    deal_number: int
    direction: str
    offset: int
    scores_before: list[int]
    lowest_club: int
    values: list[int]
    points_in_play: int
    tricks_per_deal: int
    pass_order: tuple[int, ...]
    qs_breaks: bool
    first_trick_rule: bool

    def __init__(self, options: Options, names: list[str], dealer: int, seed: int,
                 deal_number: int, scores_before: list[int]) -> None:
        n = len(names)
        self.options = options
        self.names = list(names)
        self.n = n
        self.dealer = dealer
        self.seed = seed
        self.deal_number = deal_number
        self.direction = direction = pass_direction(n, deal_number)
        self.offset, self.pass_order = _seating(n, dealer, direction)
        self.scores_before = list(scores_before)
        (self.lowest_club, self.values, self.points_in_play,
         self.tricks_per_deal) = _static(n, options.high_values)
        self.qs_breaks = options.qs_breaks_hearts
        self.first_trick_rule = options.no_points_first_trick


@cache
def _seating(n: int, dealer: int, direction: str) -> tuple[int, tuple[int, ...]]:
    # How far the cards travel (S-P1), and the order of choosing from forehand.
    return pass_offset(n, direction), tuple((dealer + 1 + i) % n for i in range(n))


@cache
def _static(n: int, high_values: bool) -> tuple[int, list[int], int, int]:
    cards = deal_cards(n)
    # S-T1: the two of clubs, or the lowest club left in the deal.
    lowest_club = min(c for c in cards if c // 13 == CLUBS)
    heart, queen = (10, 100) if high_values else (1, 13)  # S-C1
    values = [0] * 52
    for c in cards:
        if c // 13 == HEARTS:
            values[c] = heart
    values[QS] = queen
    return lowest_club, values, sum(values), len(cards) // n


def _split(seat: int, cards: Iterable[int]) -> list[tuple[PlayAction, ...]]:
    """A hand as four suit tuples of play actions in rank order."""
    get = PLAYS[seat].__getitem__
    cs = sorted(cards)
    a = bisect_left(cs, 13)
    b = bisect_left(cs, 26, a)
    c = bisect_left(cs, 39, b)
    return [tuple(map(get, cs[:a])), tuple(map(get, cs[a:b])), tuple(map(get, cs[b:c])),
            tuple(map(get, cs[c:]))]


_card = itemgetter(2)  # the card of a play action


def _cards(hand: Sequence[tuple[PlayAction, ...]]) -> list[int]:
    return [a[2] for suit in hand for a in suit]


def _flat(hands: list[list[tuple[PlayAction, ...]]]) -> list[tuple[PlayAction, ...]]:
    return [suit for hand in hands for suit in hand]


class PassChoices(Sequence[Action]):
    """Every choice of three cards to pass, in lexicographic order, without building them.

    A hand of 13 has 286 choices (17 cards: 680); building them as tuples for each pass
    cost more than playing the rest of a random deal, so they are made on demand.
    """

    __slots__ = ("_table", "cards", "seat")
    seat: int
    cards: tuple[int, ...]
    _table: tuple[tuple[int, int, int], ...]

    def __init__(self, seat: int, cards: Iterable[int], presorted: bool = False) -> None:
        self.seat = seat
        self.cards = tuple(cards) if presorted else tuple(sorted(cards))
        self._table = _triples(len(self.cards))

    @classmethod
    def of_sorted(cls, seat: int, cards: tuple[int, ...]) -> PassChoices:
        """The choices of ``cards`` already in ascending order (a hand is kept so): the
        constructor without its sort, for ``legal_actions``."""
        return cls(seat, cards, presorted=True)

    def __len__(self) -> int:
        return len(self._table)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._table)))]
        a, b, c = self._table[i]
        cards = self.cards
        return ("pass", self.seat, cards[a], cards[b], cards[c])

    def __iter__(self) -> Iterator[Action]:
        return map(add, repeat(("pass", self.seat)), combinations(self.cards, 3))

    def __contains__(self, action: object) -> bool:
        return (action.__class__ is tuple and len(action) == 5 and action[0] == "pass"
                and action[1] == self.seat and action[2] < action[3] < action[4]
                and all(c in self.cards for c in action[2:]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, PassChoices)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"PassChoices(seat={self.seat}, cards={list(self.cards)}, n={len(self)})"


# A cache: the index triples of every 3-card choice from a hand of k cards, by k, made when a
# hand of k cards first passes.  Bounded (k is at most 17, the largest hand) and safe to
# share: the tuples never change, and two threads filling one key at once store equal values.
_TRIPLES: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _triples(k: int) -> tuple[tuple[int, int, int], ...]:
    table = _TRIPLES.get(k)
    if table is None:
        table = _TRIPLES[k] = tuple(combinations(range(k), 3))
    return table


class State:
    """One position of a deal.  ``hands`` is flat: ``hands[seat * 4 + suit]``.

    During play ``_legal`` holds the legal plays (a suit tuple or a concatenation), worked
    out by the move that led here; in the other phases it is None.  ``over`` is a plain
    attribute kept equal to ``phase == OVER``: simulations read it after every move.
    """

    __slots__ = (
        "_legal",
        "best",
        "best_seat",
        "broken",
        "chosen",
        "d",
        "hands",
        "history",
        "leader",
        "over",
        "phase",
        "received",
        "result",
        "to_move",
        "trick",
        "trick_pts",
    )
    game: Final = NAME  # the protocol's name of the game (games.GameState)
    d: _Deal
    phase: int
    over: bool
    to_move: Any  # a seat, None once the deal is over
    hands: list[tuple[PlayAction, ...]]
    chosen: list[Any]
    received: list[Any]
    trick: tuple[int, ...]
    leader: Any
    best: int
    best_seat: int
    trick_pts: int
    broken: bool
    history: tuple[tuple[int, tuple[int, ...], int, int], ...]
    result: Any
    _legal: tuple[PlayAction, ...] | None

    # -- the protocol ---------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.d.names

    @property
    def options(self) -> Options:
        return self.d.options

    @property
    def pass_direction(self) -> str:
        return self.d.direction

    @property
    def tricks_done(self) -> int:
        return len(self.history)

    # Collected tricks are ``(leader, cards, winner, points)``; counts follow from them.
    @property
    def tricks_won(self) -> list[int]:
        won = [0] * self.d.n
        for trick in self.history:
            won[trick[2]] += 1
        return won

    @property
    def taken(self) -> list[int]:
        """Points taken so far in this deal, before any moon award."""
        taken = [0] * self.d.n
        for trick in self.history:
            taken[trick[2]] += trick[3]
        return taken

    def hand(self, seat: int) -> list[int]:
        return _cards(self.hands[seat * 4:seat * 4 + 4])

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action, in a fixed order, as a read-only sequence.

        During play the tuple ``_plays`` made (no copy: it is immutable).  During passing a
        ``PassChoices`` of every three-card choice: it supports len, indexing, iteration,
        ``in`` and ``==``.
        """
        legal = self._legal
        if legal is not None:
            return legal
        if self.phase == PASS:
            seat = self.to_move
            h = self.hands
            b = seat * 4
            return PassChoices.of_sorted(
                seat, tuple(map(_card, h[b] + h[b + 1] + h[b + 2] + h[b + 3])))
        return []

    def _plays(self) -> tuple[PlayAction, ...]:
        """The one play generator (S-T1..S-T4): the legal plays of the player to move, in card
        order.  ``apply_in_place`` keeps its answer for the position in ``_legal``; a refused
        play is explained by the rule it applied (``_check_play``)."""
        seat: int = self.to_move
        h = self.hands
        b = seat * 4
        trick = self.trick
        if trick:
            follow = h[b + trick[0] // 13]
            if follow:
                return follow  # S-T2
            if not self.history and self.d.first_trick_rule:
                # S-T4: no hearts or queen of spades on the first trick, unless that is all.
                spades = h[b + 3]
                if PLAYS[seat][QS] in spades:
                    spades = tuple(a for a in spades if a[2] != QS)
                safe = h[b] + h[b + 1] + spades
                if safe:
                    return safe
            return h[b] + h[b + 1] + h[b + 2] + h[b + 3]
        if not self.history:
            return (PLAYS[seat][self.d.lowest_club],)  # S-T1
        if not self.broken:
            # S-T3: hearts are led once broken, or when nothing else is held.
            other = h[b] + h[b + 1] + h[b + 3]
            if other:
                return other
        return h[b] + h[b + 1] + h[b + 2] + h[b + 3]

    def clone(self) -> State:
        """An independent copy: what ``apply_in_place`` changes is copied, the rest shared."""
        s = State()  # empty: State has no __init__
        s.d = self.d
        s.phase = self.phase
        s.over = self.over
        s.to_move = self.to_move
        s.hands = self.hands[:]
        s.chosen = self.chosen[:]
        s.received = self.received
        s.trick = self.trick
        s.leader = self.leader
        s.best = self.best
        s.best_seat = self.best_seat
        s.trick_pts = self.trick_pts
        s.broken = self.broken
        s.history = self.history
        s.result = self.result
        s._legal = self._legal
        return s

    def redealt(self, hands: list[list[int]], chosen: list[Any], received: list[Any],
                seed: int) -> State:
        """This position with other hands, set-aside passes and received cards, and another
        seed: what ``state_from_json`` of ``to_json()`` with those fields changed gives,
        without the round trip (the strong bot deals a position this way many times a
        decision, bots/spardame.py ``resample``)."""
        d = self.d
        s = self.clone()
        s.d = _Deal(d.options, d.names, d.dealer, seed, d.deal_number, d.scores_before)
        s.hands = _flat([_split(seat, cards) for seat, cards in enumerate(hands)])
        s.chosen = [tuple(c) if c is not None else None for c in chosen]
        s.received = [tuple(c) if c is not None else None for c in received]
        s._legal = s._plays() if s.phase == PLAY else None
        return s

    def apply(self, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """The state after ``action`` and the events it caused; ``self`` is left as it was."""
        s = self.clone()
        events: list[dict[str, Any]] = []
        s.apply_in_place(action, events)
        return s, events

    def apply_in_place(self, action: Any, events: list[dict[str, Any]] | None = None
                       ) -> None:
        """Play ``action`` on this state itself; its events are appended to ``events`` if given.

        An illegal action raises IllegalAction before anything is changed.  Simulations use
        this with ``clone()``: a new state and event dicts per move were most of their time.
        """
        legal = self._legal
        if legal is None:
            if self.phase == PASS and self._pass_ok(action):
                self._pass(action, events)
                return
            self._refuse(action)
        elif action not in legal:
            self._refuse(action)
        # A legal play.  The hot path of every simulation, so it is written out in one piece:
        # the card out of the hand, the trick, and the next legal plays (``_plays``).
        d = self.d
        _, seat, card = action
        suit = card // 13
        hands = self.hands
        k = seat * 4 + suit
        t = hands[k]
        i = t.index(action)
        hands[k] = t[1:] if i == 0 else t[:i] + t[i + 1:]
        if events is not None:
            events.append({"type": "card_played", "seat": seat, "cards": [card]})
        trick = self.trick
        if trick:
            if card > self.best and suit == trick[0] // 13:
                self.best = card  # S-T5: the highest card of the led suit
                self.best_seat = seat
            pts = self.trick_pts + d.values[card]
        else:
            self.leader = seat
            self.best = card
            self.best_seat = seat
            pts = d.values[card]
        trick += (card,)
        if not self.broken and (suit == HEARTS or (card == QS and d.qs_breaks)):
            self.broken = True  # S-T3
            if events is not None:
                events.append({"type": "hearts_broken", "seat": seat, "cards": [card]})
        if len(trick) < d.n:
            self.trick = trick
            self.trick_pts = pts
            self.to_move = seat + 1 if seat + 1 < d.n else 0
            self._legal = self._plays()
            return
        # The trick is complete: collect it; the winner leads the next (S-T5).
        winner = self.best_seat
        leader = self.leader
        if events is not None:
            events.append({"type": "trick_won", "seat": winner, "cards": list(trick),
                           "leader": leader, "points": pts})
        history = self.history = self.history + ((leader, trick, winner, pts),)
        self.trick = ()
        self.leader = winner
        self.to_move = winner
        self.best = -1
        self.best_seat = -1
        self.trick_pts = 0
        if len(history) == d.tricks_per_deal:
            self._legal = None
            self._score(events)
        else:
            self._legal = self._plays()

    def view(self, seat: int) -> dict[str, Any]:
        d = self.d
        n = d.n
        result = self.result
        return {
            "game": NAME,
            "seat": seat,
            "names": list(d.names),
            "dealer": d.dealer,
            "deal_number": d.deal_number,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.to_move,
            "pass_direction": d.direction,
            "pass_to": (seat + d.offset) % n if d.offset else None,
            "pass_from": (seat - d.offset) % n if d.offset else None,
            "hand": self.hand(seat),
            "hand_counts": [self.hand_count(i) for i in range(n)],
            "passed": list(self.chosen[seat]) if self.chosen[seat] is not None else None,
            "passes_chosen": [c is not None for c in self.chosen],
            "received": list(self.received[seat]) if self.received[seat] is not None else None,
            "leader": self.leader,
            "trick": list(self.trick),
            "last_trick": ({"leader": self.history[-1][0], "cards": list(self.history[-1][1]),
                            "winner": self.history[-1][2]} if self.history else None),
            # Cards of collected tricks: every player saw them played.
            "played": [c for trick in self.history for c in trick[1]],
            "tricks_won": list(self.tricks_won),
            "deal_points": list(self.taken),
            "points_in_play": d.points_in_play,
            "hearts_broken": self.broken,
            "scores": list(result["totals"]) if result else list(d.scores_before),
            "scores_before": list(d.scores_before),
            "deal_scores": list(result["deal_scores"]) if result else None,
            "moon": result["moon"] if result else None,
            "winners": list(result["winners"]) if result else [],
            "limit": d.options.limit,
        }

    def bot_view(self, seat: int) -> dict[str, Any]:
        """What the bots read of ``view(seat)`` (bots/spardame.py): a playout asks for it at
        every move, and building the whole view was close to half of a playout's time.  Its
        values are the view's, except ``queen_out``: whether the queen of spades is among the
        view's ``played`` cards, the one thing the bots asked of that list of up to 52."""
        queen_out = False
        for collected in self.history:
            if QS in collected[1]:
                queen_out = True
                break
        return {
            "seat": seat,
            "names": list(self.d.names),
            "phase": PHASE_NAMES[self.phase],
            "hand": self.hand(seat),
            "trick": list(self.trick),
            "queen_out": queen_out,
            "deal_points": list(self.taken),
            "points_in_play": self.d.points_in_play,
        }

    def hand_count(self, seat: int) -> int:
        h = self.hands
        b = seat * 4
        return len(h[b]) + len(h[b + 1]) + len(h[b + 2]) + len(h[b + 3])

    # -- moves ----------------------------------------------------------------------------
    def _score(self, events: list[dict[str, Any]] | None) -> None:
        """S-C1..S-C3: score the finished deal."""
        d = self.d
        o = d.options
        n = d.n
        out: list[dict[str, Any]] = []  # once a deal: not worth skipping when unasked
        points = list(self.taken)
        deal_scores = points[:]
        moon = None
        if o.moon:
            for seat in range(n):
                if points[seat] == d.points_in_play:  # every point card of the deal
                    moon = seat
            if moon is not None:
                award = 26 if o.moon_fixed_26 else d.points_in_play
                deal_scores = [0 if seat == moon else award for seat in range(n)]
                out.append({"type": "moon_shot", "seat": moon, "points": award})
        totals = [d.scores_before[i] + deal_scores[i] for i in range(n)]
        winners: list[int] = []
        if max(totals) >= o.limit:
            low = min(totals)
            winners = [i for i in range(n) if totals[i] == low]  # ties share the win
        out.append({"type": "deal_scored", "points": points, "scores": deal_scores,
                    "totals": totals})
        if winners:
            out.append({"type": "match_over", "winners": winners, "totals": totals})
        if events is not None:
            events += out
        self.result = {"points": points, "deal_scores": deal_scores, "totals": totals,
                       "moon": moon, "winners": winners}
        self.phase = OVER
        self.over = True
        self.to_move = None

    def _pass_ok(self, action: Any) -> bool:
        if action.__class__ is not tuple or len(action) != 5 or action[0] != "pass":
            return False
        seat = self.to_move
        if action[1] != seat:
            return False
        _, _, a, b, c = action
        if a.__class__ is not int or b.__class__ is not int or c.__class__ is not int:
            return False
        if a == b or b == c or a == c or not (0 <= a < 52 and 0 <= b < 52 and 0 <= c < 52):  # noqa: SIM109 - three distinct cards
            return False
        h = self.hands
        play = PLAYS[seat]
        base = seat * 4
        return (play[a] in h[base + a // 13] and play[b] in h[base + b // 13]
                and play[c] in h[base + c // 13])

    def _pass(self, action: Any, events: list[dict[str, Any]] | None) -> None:
        d = self.d
        n = d.n
        seat = action[1]
        chosen_cards: tuple[int, ...] = action[2:]
        if not chosen_cards[0] < chosen_cards[1] < chosen_cards[2]:
            chosen_cards = tuple(sorted(chosen_cards))
        hands = self.hands
        # The chosen cards are set aside face down until everyone has chosen (S-P1).
        play = PLAYS[seat]
        for c in chosen_cards:
            k = seat * 4 + c // 13
            t = hands[k]
            i = t.index(play[c])
            hands[k] = t[:i] + t[i + 1:]
        chosen = self.chosen
        chosen[seat] = chosen_cards
        if events is not None:
            events.append({"type": "pass", "seat": seat, "to": (seat + d.offset) % n,
                           "cards": list(chosen_cards)})
        if seat != d.pass_order[-1]:
            self.to_move = (seat + 1) % n  # choices go round the table from forehand
            return
        # Everyone has chosen: seat i receives from the seat d.offset to its right.
        received = self.received = chosen[n - d.offset:] + chosen[:n - d.offset]
        for i in range(n):
            play = PLAYS[i]
            b = i * 4
            for c in received[i]:
                k = b + c // 13
                t = hands[k]
                a = play[c]
                # Keep the suit in rank order: one seat's plays compare as their cards do.
                j = bisect_left(t, a)
                hands[k] = t[:j] + (a,) + t[j:]
        if events is not None:
            events.append({"type": "cards_exchanged", "direction": d.direction,
                           "given": list(map(list, chosen)),
                           "received": list(map(list, received))})
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        club = self.d.lowest_club
        for seat in range(self.d.n):
            if PLAYS[seat][club] in self.hands[seat * 4 + CLUBS]:
                self.to_move = seat
                self.leader = seat
                self._legal = self._plays()  # S-T1
                return
        raise AssertionError("the lowest club is in no hand")

    # -- refusals -------------------------------------------------------------------------
    def _refuse(self, action: Any) -> NoReturn:
        """Raise the IllegalAction with the first reason that applies (scenario-format.md)."""
        if self.phase == OVER:
            raise IllegalAction("game_over")
        if (action.__class__ is not tuple or len(action) < 2
                or action[0] not in ("play", "pass")):
            raise IllegalAction("bad_move", detail=f"not a spardame action: {action!r}")
        seat = action[1]
        if seat != self.to_move:
            raise IllegalAction("not_your_turn")
        cards = action[2:]
        for c in cards:
            if c.__class__ is not int or not 0 <= c < 52:
                raise IllegalAction("unknown_card", detail=repr(c))
        self._check_in_hand(seat, cards)
        if action[0] == "pass":
            self._check_pass(cards)
        else:
            self._check_play(cards)
        raise IllegalAction("bad_move", detail=f"not allowed now: {action!r}")

    def _check_in_hand(self, seat: int, cards: Sequence[int]) -> None:
        h = self.hands
        for c in cards:
            if PLAYS[seat][c] not in h[seat * 4 + c // 13]:
                raise IllegalAction("card_not_in_hand", c)

    def _check_pass(self, cards: Sequence[int]) -> None:
        if self.phase != PASS:
            raise IllegalAction("bad_move", *cards, detail="there is no passing now",
                                why="not_now")
        if len(cards) != 3 or len(set(cards)) != 3:
            raise IllegalAction("pass_three_cards", *cards)  # S-P1

    def _check_play(self, cards: Sequence[int]) -> None:
        """Why a card of the hand is not a legal play: the rule ``_plays`` applied."""
        if self.phase != PLAY:
            raise IllegalAction("bad_move", *cards, detail="cards are being passed",
                                why="not_now")
        if len(cards) != 1:
            raise IllegalAction("bad_move", *cards, detail="play one card", why="card_count")
        card = cards[0]
        legal = self._plays()
        if PLAYS[self.to_move][card] in legal:
            return
        # A card of the hand that _plays left out: which of its rules did it?
        if not self.trick:
            if not self.history:
                raise IllegalAction("must_lead_lowest_club", card, self.d.lowest_club)  # S-T1
            raise IllegalAction("hearts_not_broken", card)  # S-T3
        if legal[0][2] // 13 == self.trick[0] // 13:
            raise IllegalAction("must_follow_suit", card)  # S-T2
        raise IllegalAction("no_points_first_trick", card)  # S-T4

    # -- serialisation --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        d = self.d
        return {
            "game": NAME,
            "options": dataclasses.asdict(d.options),
            "names": list(d.names),
            "dealer": d.dealer,
            "seed": d.seed,
            "deal_number": d.deal_number,
            "scores_before": list(d.scores_before),
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.to_move,
            "hands": [self.hand(i) for i in range(d.n)],
            "chosen": [list(c) if c is not None else None for c in self.chosen],
            "received": [list(c) if c is not None else None for c in self.received],
            "trick": list(self.trick),
            "leader": self.leader,
            "hearts_broken": self.broken,
            "history": [[leader, list(cards), winner, points]
                        for leader, cards, winner, points in self.history],
            "result": self.result,
        }



def state_from_json(data: dict[str, Any]) -> State:
    options = Options(**data["options"])
    d = _Deal(options, data["names"], data["dealer"], data["seed"], data["deal_number"],
              data["scores_before"])
    s = State.__new__(State)
    s.d = d
    s.phase = PHASE_NAMES.index(data["phase"])
    s.over = s.phase == OVER
    s.to_move = data["to_move"]
    s.hands = _flat([_split(seat, cards) for seat, cards in enumerate(data["hands"])])
    s.chosen = [tuple(c) if c is not None else None for c in data["chosen"]]
    s.received = [tuple(c) if c is not None else None for c in data["received"]]
    s.trick = tuple(data["trick"])
    s.leader = data["leader"]
    s.broken = data["hearts_broken"]
    s.history = tuple((leader, tuple(cards), winner, points)
                      for leader, cards, winner, points in data["history"])
    s.result = data["result"]
    s._legal = None
    # The running trick winner and points follow from the trick itself.
    s.best, s.best_seat, s.trick_pts = -1, -1, 0
    n = d.n
    for i, card in enumerate(s.trick):
        seat = (s.leader + i) % n
        if i == 0 or (card // 13 == s.trick[0] // 13 and card > s.best):
            s.best, s.best_seat = card, seat
        s.trick_pts += d.values[card]
    if s.phase == PLAY:
        s._legal = s._plays()
    return s


DEAL_FIELDS = frozenset({"hands", "deal_number", "scores"})
_NO_SCORES: dict[str, Any] = {}


def new_game(options: Options, names: list[str], dealer: int, seed: int,
             deal: Mapping[str, Any] | None) -> State:
    n = len(names)
    lo, hi = player_range(options)
    if not lo <= n <= hi:
        raise ScenarioError("player_count", game=NAME, lo=lo, hi=hi, n=n)
    if deal is None:
        deal = {}
    if not deal.keys() <= DEAL_FIELDS:
        unknown = sorted(set(deal) - DEAL_FIELDS)
        raise ScenarioError("deal_unknown_field", fields=", ".join(f"'{k}'" for k in unknown))
    deal_number = deal.get("deal_number", 1)
    if not isinstance(deal_number, int) or isinstance(deal_number, bool) or deal_number < 1:
        raise ScenarioError("deal_number")
    scores = [0] * n
    raw_scores = deal.get("scores", _NO_SCORES)
    if not isinstance(raw_scores, dict):
        raise ScenarioError("deal_scores")
    for name, value in raw_scores.items():
        if name not in names:
            raise ScenarioError("deal_not_player", field="scores", name=name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScenarioError("deal_score_value", name=name)
        scores[names.index(name)] = value
    if max(scores) >= options.limit:
        raise ScenarioError("deal_match_over", limit=options.limit)
    d = _Deal(options, names, dealer, seed, deal_number, scores)
    if "hands" in deal:
        hands = _read_hands(deal["hands"], names, deal_cards(n))
        flat = _flat([_split(seat, hands[seat]) for seat in range(n)])
    else:
        flat = _random_hands(_DEAL_CARDS[n], n, dealer, seed)
    s = State.__new__(State)
    s.d = d
    s.phase = PASS
    s.over = False
    s.to_move = d.pass_order[0]
    s.hands = flat
    s.chosen = [None] * n
    s.received = [None] * n
    s.trick = ()
    s.leader = None
    s.best, s.best_seat, s.trick_pts = -1, -1, 0
    s.broken = False
    s.history = ()
    s.result = None
    s._legal = None
    if d.offset == 0:
        s._start_play()  # S-P1: a deal without passing starts with the first lead
    return s


# PLAYS by seat * 64 + card, so one sorted list of such keys splits into every hand and suit.
_KEYED: tuple[Any, ...] = tuple(PLAYS[seat][card] if card < 52 else None
               for seat in range(MAX_PLAYERS) for card in range(64))
_BOUNDS = {n: [seat * 64 + suit * 13 for seat in range(n) for suit in range(4)] + [n * 64]
           for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


@cache
def _seat_keys(n: int, dealer: int) -> tuple[int, ...]:
    # The p-th card of the deck goes to seat (dealer + 1 + p) % n.
    return tuple(((dealer + 1 + p) % n) * 64 for p in range(len(_DEAL_CARDS[n])))


def _random_hands(cards: tuple[int, ...], n: int, dealer: int, seed: Any
                  ) -> list[tuple[PlayAction, ...]]:
    """S-S1: shuffle with the deal's seed and deal one at a time from the dealer's left.

    No other random choice is ever made in a deal, so the seed is all to keep.  Everything
    here runs in C (sorting by random keys is a uniform shuffle), which matters for
    simulations: dealing was a fifth of a random deal.
    """
    m = len(cards)
    # The i-th card's key is the i-th 32-bit draw of random.Random(seed).  One getrandbits
    # call of 32 * m bits holds the same draws, the first in the lowest bits; an int seed
    # seeds the C generator exactly as random.Random does, without its Python layers.
    rng = _CRandom(seed) if seed.__class__ is int else random.Random(seed)
    keys = array("I", rng.getrandbits(32 * m).to_bytes(4 * m, "little"))
    if _BIG_ENDIAN:
        keys.byteswap()
    deck = sorted(range(m), key=keys.tolist().__getitem__)
    if m != 52:
        deck = list(map(cards.__getitem__, deck))  # with every card dealt, position is card
    keyed = sorted(map(add, _seat_keys(n, dealer), deck))
    bounds = [bisect_left(keyed, b) for b in _BOUNDS[n]]
    acts = list(map(_KEYED.__getitem__, keyed))
    return list(map(tuple, map(acts.__getitem__, map(slice, bounds, bounds[1:]))))


_CRandom = _random.Random
_BIG_ENDIAN = sys.byteorder == "big"
assert array("I").itemsize == 4


def _read_hands(raw: Any, names: list[str], cards: list[int]) -> list[list[int]]:
    if not isinstance(raw, dict):
        raise ScenarioError("deal_hands")
    missing = [name for name in names if name not in raw]
    extra = [str(name) for name in raw if name not in names]
    if missing or extra:
        raise ScenarioError("deal_hand_names", missing=", ".join(missing) or "–",
                            unknown=", ".join(extra) or "–")
    hands = []
    seen: set[int] = set()
    for name in names:
        texts = raw[name]
        if not isinstance(texts, list):
            raise ScenarioError("deal_not_cards", place="hand", name=name)
        hand = []
        for t in texts:
            try:
                c = parse(t)
            except CardError:
                raise ScenarioError("deal_unknown_card", place="hand", name=name,
                                    card=str(t)) from None
            if c in seen:
                raise ScenarioError("deal_duplicate", cards=code(c))
            seen.add(c)
            hand.append(c)
        hands.append(hand)
    wanted = set(cards)
    if seen != wanted:
        extra_cards = sorted(seen - wanted)
        missing_cards = sorted(wanted - seen)
        raise ScenarioError("deal_wrong_cards", n=len(names),
                            extra=" ".join(code(c) for c in extra_cards) or "–",
                            missing=" ".join(code(c) for c in missing_cards) or "–")
    if len({len(h) for h in hands}) != 1:
        raise ScenarioError("deal_uneven")
    return hands


def deal_result(state: State) -> dict[str, Any]:
    """What a finished deal leaves for the match: its points, the totals and any winners."""
    if not state.over:
        raise ValueError("the deal is not over")
    r = state.result
    return {"scores": list(r["deal_scores"]), "totals": list(r["totals"]),
            "winners": list(r["winners"])}


def match_standing(players: int, results: Iterable[Mapping[str, Any]]) -> Standing:
    """S-C3: the totals after the latest deal; the match is over once it has winners."""
    done = list(results)
    if not done:
        return Standing([0] * players, over=False)
    last = done[-1]
    winners = list(last["winners"])
    return Standing(list(last["totals"]), over=bool(winners), winners=winners)


def following_deal(options: Options, names: list[str], dealer: int, deal_number: int,
                   last: Mapping[str, Any], seed: int) -> State:
    """The following deal of the match: the next dealer and pass direction, the totals so far
    carried over (S-C3)."""
    if last["winners"]:
        raise ValueError("the match is over")
    return new_game(options, names, (dealer + 1) % len(names), seed,
                    {"deal_number": deal_number + 1, "scores": dict(zip(names, last["totals"]))})


# -- text at the edges ---------------------------------------------------------------------
def parse_action(state: State, seat: int, words: list[str]) -> Action:
    """Text-level checks in the order of scenario-format.md; the rules are left to apply."""
    if state.over:
        raise IllegalAction("game_over")
    if seat != state.to_move:
        raise IllegalAction("not_your_turn")
    if not words or words[0].lower() not in ("pass", "play"):
        # An unknown move word: its other words cannot be read as anything.
        raise IllegalAction("bad_move", detail=f"unknown move {' '.join(words)!r}",
                            why="unknown_move")
    verb = words[0].lower()
    cards = []
    for w in words[1:]:
        try:
            cards.append(parse(w))
        except CardError:
            raise IllegalAction("unknown_card", detail=w) from None
    state._check_in_hand(seat, cards)
    if verb == "pass":
        state._check_pass(cards)
        low, mid, high = sorted(cards)  # three: _check_pass
        return ("pass", seat, low, mid, high)
    if state.phase != PLAY:
        raise IllegalAction("bad_move", *cards, detail="cards are being passed",
                                why="not_now")
    if len(cards) != 1:
        raise IllegalAction("bad_move", *cards, detail="play one card", why="card_count")
    return PLAYS[seat][cards[0]]


def format_action(action: Action) -> str:
    return " ".join([action[0]] + [code(c) for c in action[2:]])


def visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them.

    A chosen pass lies face down, so only its giver sees the cards; at the exchange each seat
    sees what it gave and what it got.  Every other event is public (cards are played face up).
    """
    out = []
    for e in events:
        if e["type"] == "pass" and seat != e["seat"]:
            e = {k: v for k, v in e.items() if k != "cards"}
        elif e["type"] == "cards_exchanged":
            e = dict(e, given=[g if i == seat else [] for i, g in enumerate(e["given"])],
                     received=[r if i == seat else [] for i, r in enumerate(e["received"])])
        out.append(e)
    return out


def outcome(state: State) -> list[float]:
    """The deal points of a finished deal, after any moon award."""
    if not state.over:
        raise ValueError("the deal is not over")
    return [float(x) for x in state.result["deal_scores"]]


# -- scenario expectations -----------------------------------------------------------------
EXPECT_KEYS = ("to_move", "over", "hand", "hand_count", "pass_direction", "hearts_broken",
               "trick", "tricks_won", "deal_points", "scores", "winner")


def _int_arg(v: Any, key: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ScenarioError("expect_whole", key=key)
    return v


def check_expect(state: State, key: str, value: Any) -> str | None:
    """None when ``key`` holds, else what the game has (expect.shown)."""
    names = state.names
    if key == "to_move":
        got = None if state.to_move is None else names[state.to_move]
        return None if got == value else shown(got)
    if key == "over":
        if not isinstance(value, bool):
            raise ScenarioError("expect_bool", key=key)
        return None if state.over == value else shown(state.over)
    if key == "pass_direction":
        if value not in ("left", "right", "across", "none"):
            raise ScenarioError("expect_choice", key=key, choices="left, right, across, none")
        return None if state.d.direction == value else shown(state.d.direction)
    if key == "hearts_broken":
        if not isinstance(value, bool):
            raise ScenarioError("expect_bool", key=key)
        return None if state.broken == value else shown(state.broken)
    if key == "trick":
        want = card_list(value, key)
        got = list(state.trick)
        return None if got == want else shown([code(c) for c in got])
    if key == "winner":
        if not isinstance(value, list) or not all(v in names for v in value):
            raise ScenarioError("expect_names", key=key)
        got = [names[i] for i in (state.result["winners"] if state.result else [])]
        return None if set(got) == set(value) and len(value) == len(set(value)) else shown(got)
    if key in ("hand", "hand_count", "tricks_won", "deal_points", "scores"):
        wanted = by_seat(state.names, value, key)
        bad: dict[str, Any] = {}
        for seat, v in wanted.items():
            if key == "hand":
                want_set = set(card_list(v, key))
                got_cards = state.hand(seat)
                if want_set != set(got_cards) or len(v) != len(want_set):
                    bad[names[seat]] = [code(c) for c in got_cards]
                continue
            want_n = _int_arg(v, key)
            if key == "hand_count":
                got = state.hand_count(seat)
            elif key == "tricks_won":
                got = state.tricks_won[seat]
            elif key == "deal_points":
                got = state.taken[seat]
            else:
                got = (state.result["totals"] if state.result else state.d.scores_before)[seat]
            if got != want_n:
                bad[names[seat]] = got
        return shown(bad) if bad else None
    raise ScenarioError("expect_key", key=key, game=NAME)
