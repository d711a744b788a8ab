"""Dam med dolda kort (rules-spec.md section 2): rows of face-down cards swapped left to right.

State layout, chosen so simulations stay cheap: ``apply_in_place`` changes the state itself
(events only when a list is passed) and ``clone`` copies the few lists it changes; ``apply``
is the two together and never mutates the state it is called on.  The moves of the play
phase are made once per seat (``_SEAT_ACTIONS``), so legal-action lists hold no new objects
and a move that is one of them is recognised by identity.  Positions are 0-based inside and
1-based in moves, events and scenario files.  Stacks (stock, discard pile) keep their top at
the end of the list so drawing is ``pop()``; JSON and views show them top first.

Knowledge (H-T5): ``seen[owner][position]`` is a bitmask of the seats that have seen the card
there and can still place it, and ``held_known`` a bitmask of the seats that know the held
card.  A swap moves knowledge together with the card (two masks trade places), so the memory
aid and ``view`` need no guessing.  JSON keeps the older per-viewer form, ``known``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final, NamedTuple

from . import cards as C
from .errors import IllegalAction, ScenarioError
from .expect import by_seat, card_list, shown
from .match import Standing
from .options import build_options, choice, options_to_dict

NAME = "dolda"


@dataclass(frozen=True)
class Options:
    # H-S2 / H-V1: cards in the row, the last one crosswise.
    row_size: int = choice(6, (6, 7))
    # H-V2: 4 swappable cards plus a secret card seen by everyone but its owner.
    secret_card: bool = choice(False, (False, True))
    # H-V3: hearts ten scores -1, hearts king -2.
    special_cards: bool = choice(False, (False, True))
    # H-V4: black jacks steal, red jacks shield, after the rows are turned up.
    thieves_and_shields: bool = choice(False, (False, True))
    # H-V5: the secret card and the special cards score at most 5.
    cap_special_at_5: bool = choice(False, (False, True))


PRESETS: dict[str, dict[str, Any]] = {
    "dolda-kort": {},
    "sju-kort": {"row_size": 7},
    "hemligt-kort": {"secret_card": True},
    "avancerad": {"secret_card": True, "special_cards": True, "thieves_and_shields": True},
    "avancerad-max-5": {"secret_card": True, "special_cards": True, "thieves_and_shields": True,
                        "cap_special_at_5": True},
}
DEFAULT_PRESET = "dolda-kort"

# Phases of a deal.
DRAW, CHAIN, SHIELDS, THIEVES, OVER = "draw", "chain", "shields", "thieves", "over"

TEN_OF_HEARTS = C.make(10, C.HEARTS)
KING_OF_HEARTS = C.make(C.KING, C.HEARTS)
THIEF_JACKS = frozenset((C.make(C.JACK, C.SPADES), C.make(C.JACK, C.CLUBS)))
SHIELD_JACKS = frozenset((C.make(C.JACK, C.HEARTS), C.make(C.JACK, C.DIAMONDS)))
SECRET_ROW = 4  # H-V2: our reading, 4 swappable cards and no crosswise card

# Event keys that only the acting seat may see (see public_event).
PRIVATE_KEYS = ("card", "card_in", "card_out")


def player_range(options: Options) -> tuple[int, int]:
    return (2, 6)  # H-S1


def row_length(options: Options) -> int:
    # H-V2 says "a row of 4 swappable face-down cards plus one secret card": no crosswise
    # card then, and row_size does not apply (the secret card takes the crosswise card's role
    # of a card that never moves).
    return SECRET_ROW if options.secret_card else options.row_size


def swappable(options: Options) -> int:
    return SECRET_ROW if options.secret_card else options.row_size - 1


def _base_value(card: int) -> int:
    rank = card % 13 + 2
    if rank == C.QUEEN:
        return 0
    if rank == C.ACE:
        return 1
    return rank  # 2-10 face value, jack 11, king 13 (H-E2)


def value_tables(options: Options) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(row value, secret value) of every card under the active variants (H-E2, H-V3-H-V5)."""
    row = []
    for c in range(52):
        v = _base_value(c)
        special = False
        if options.special_cards and c in (TEN_OF_HEARTS, KING_OF_HEARTS):
            v = -1 if c == TEN_OF_HEARTS else -2
            special = True
        if options.thieves_and_shields and c % 13 + 2 == C.JACK:
            special = True
        if options.cap_special_at_5 and special:
            v = min(v, 5)
        row.append(v)
    secret = tuple(min(v, 5) if options.cap_special_at_5 else v for v in row)
    return tuple(row), secret


_TABLES: dict[Options, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def cached_value_tables(options: Options) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``value_tables``, worked out once per set of options (a simulation asks at every
    move and every playout; the tables are tuples, safe to share)."""
    t = _TABLES.get(options)
    if t is None:
        t = _TABLES[options] = value_tables(options)
    return t


_OPTION_DICTS: dict[Options, dict[str, Any]] = {}


def _options_dict(options: Options) -> dict[str, Any]:
    # asdict is slow and view() runs on every bot decision; the copy keeps callers apart.
    d = _OPTION_DICTS.get(options)
    if d is None:
        d = _OPTION_DICTS[options] = options_to_dict(options)
    return dict(d)


class Action(NamedTuple):
    """One move; ``positions`` are 0-based (shield: covered cards; steal: own N, victim M)."""
    seat: int
    kind: str  # draw, swap, discard, shield, steal
    source: str = ""  # draw: "stock" or "discard"
    positions: tuple[int, ...] = ()
    victim: int = -1
    victim_name: str = ""  # carried so format_action can write the move without the state


def format_action(action: Action) -> str:
    if action.kind == "draw":
        return f"draw {action.source}"
    if action.kind == "shield":
        return "shield " + " ".join(str(p + 1) for p in action.positions)
    if action.kind == "steal":
        n, m = action.positions
        return f"steal {n + 1} {action.victim_name} {m + 1}"
    return action.kind


def public_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: private cards only for the acting seat."""
    if not event.get("private") or event.get("seat") == seat:
        return event
    return {k: v for k, v in event.items() if k not in PRIVATE_KEYS}


def visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them (None: a seat of nobody, an onlooker)."""
    return [public_event(e, seat) for e in events]


# Per seat: (draw stock, draw discard, swap, discard), made once (see the module docstring).
_SEAT_ACTIONS = tuple((Action(seat, "draw", "stock"), Action(seat, "draw", "discard"),
                       Action(seat, "swap"), Action(seat, "discard")) for seat in range(6))


class State:
    __slots__ = ("options", "names", "dealer", "seed", "rows", "times", "secret", "stock",
                 "discard", "to_move", "phase", "held", "held_time", "held_known", "pos",
                 "seen", "turn", "order", "step", "shielded", "robbed", "scores", "over",
                 "nswap")

    game: Final = NAME  # the protocol's name of the game (games.GameState)
    options: Options
    names: list[str]
    dealer: int
    seed: int
    rows: list[list[int]]
    times: list[list[int]]  # turn in which each row card was got (0 = dealt), for H-V4
    secret: list[int] | None
    stock: list[int]  # top last
    discard: list[int]  # top last
    to_move: int | None
    phase: str
    held: int  # -1 when nothing is held
    held_time: int
    held_known: int  # bitmask of seats that know the held card
    pos: int  # next row position the held card would go into
    seen: list[list[int]]  # seen[owner][position]: bitmask of the seats that know the card
    turn: int
    order: list[list[Any]]  # jack phase: [kind, owner seat, jack card] in acting order
    step: int  # index into order of the jack to act
    shielded: list[int]  # cards under a shield
    robbed: list[int]  # seats already robbed
    scores: list[int] | None
    over: bool  # phase == OVER, kept as a plain attribute: every loop asks it
    nswap: int  # swappable(options), asked on every step of the chain

    # -- protocol -------------------------------------------------------------------------

    @property
    def known(self) -> list[list[int]]:
        """``known[viewer][owner]``: bitmask of the owner's row positions the viewer knows."""
        n = len(self.names)
        return [[sum(1 << p for p, m in enumerate(self.seen[o]) if m >> v & 1) for o in range(n)]
                for v in range(n)]

    def legal_actions(self) -> list[Action]:
        seat = self.to_move
        if seat is None:
            return []
        phase = self.phase
        if phase == DRAW:
            acts = _SEAT_ACTIONS[seat]
            return [acts[0], acts[1]] if self.discard else [acts[0]]
        if phase == CHAIN:
            acts = _SEAT_ACTIONS[seat]
            return [acts[3], acts[2]] if self.pos < self.nswap else [acts[3]]
        jack = self.order[self.step][2]
        row = self.rows[seat]
        others = [p for p in range(len(row)) if row[p] != jack]
        if phase == SHIELDS:
            return ([Action(seat, "shield", positions=(p,)) for p in others]
                    + [Action(seat, "shield", positions=pair) for pair in combinations(others, 2)])
        steals: list[Action] = []
        targets = self._targets(seat)
        for n in others:
            for v, m in targets:
                steals.append(Action(seat, "steal", positions=(n, m), victim=v,
                                     victim_name=self.names[v]))
        return steals

    def apply(self, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """The state after ``action`` and the events it caused; ``self`` is left as it was."""
        s = self.clone()
        events: list[dict[str, Any]] = []
        s.apply_in_place(action, events)
        return s, events

    def apply_in_place(self, action: Any, events: list[dict[str, Any]] | None = None
                       ) -> None:
        """Play ``action`` on this state itself; its events are appended to ``events`` if given.

        An illegal action raises IllegalAction before anything is changed.
        """
        phase = self.phase
        if phase == CHAIN:
            seat = self.to_move
            assert seat is not None  # someone is to move in DRAW and CHAIN
            acts = _SEAT_ACTIONS[seat]
            if action is acts[2] and self.pos < self.nswap:
                self._swap(events)
                return
            if action is acts[3]:
                self._discard(events)
                return
        elif phase == DRAW:
            seat = self.to_move
            assert seat is not None
            acts = _SEAT_ACTIONS[seat]
            if action is acts[0]:
                self._draw_stock(events)
                return
        # Anything else (a draw from the pile, a jack, a move made elsewhere, an illegal one).
        self._validate(action)
        kind = action.kind
        if kind == "draw":
            if action.source == "stock":
                self._draw_stock(events)
            else:
                self._draw_discard(events)
        elif kind == "swap":
            self._swap(events)
        elif kind == "discard":
            self._discard(events)
        elif kind == "shield":
            self._shield(action.positions, events)
        else:
            self._steal(action.positions[0], action.victim, action.positions[1], events)

    # -- validation -----------------------------------------------------------------------

    def _validate(self, action: Any) -> None:
        """Raise IllegalAction in the reason-code order of scenario-format.md."""
        if self.phase == OVER:
            raise IllegalAction("game_over")
        if not isinstance(action, Action):
            raise IllegalAction("bad_move", detail="not a dolda action")
        if action.seat != self.to_move:
            raise IllegalAction("not_your_turn")
        phase, kind = self.phase, action.kind
        if kind == "draw":
            if phase == CHAIN:
                raise IllegalAction("already_drew", self.held)
            if phase != DRAW or action.source not in ("stock", "discard"):
                raise IllegalAction("bad_move")
            if action.source == "discard" and not self.discard:
                raise IllegalAction("discard_pile_empty")
            if action.positions or action.victim != -1:
                raise IllegalAction("bad_move")
        elif kind in ("swap", "discard"):
            if phase == DRAW:
                raise IllegalAction("no_card_held")
            if phase != CHAIN:
                raise IllegalAction("bad_move")
            if kind == "swap" and self.pos >= self.nswap:
                raise IllegalAction("cannot_swap_crosswise", self.held)
            if action.source or action.positions or action.victim != -1:
                raise IllegalAction("bad_move")
        elif kind == "shield":
            if phase == THIEVES:
                raise IllegalAction("not_a_shield", self.order[self.step][2])
            if phase != SHIELDS or not self._fair_positions(action.seat, action.positions, 2):
                raise IllegalAction("bad_move")
            if action.source or action.victim != -1:
                raise IllegalAction("bad_move")
        elif kind == "steal":
            if phase == SHIELDS:
                raise IllegalAction("not_a_thief", self.order[self.step][2])
            if phase != THIEVES or len(action.positions) != 2:
                raise IllegalAction("bad_move")
            seat, victim = action.seat, action.victim
            if victim == seat:
                raise IllegalAction("own_row")
            if (not isinstance(victim, int) or not 0 <= victim < len(self.names)
                    or action.victim_name != self.names[victim]):
                raise IllegalAction("bad_move")
            m = action.positions[1]
            vrow = self.rows[victim]
            m_ok = isinstance(m, int) and 0 <= m < len(vrow)
            if m_ok and vrow[m] in self.shielded:
                raise IllegalAction("target_shielded", vrow[m])
            if victim in self.robbed:
                raise IllegalAction("victim_already_robbed")
            if (not m_ok or action.source
                    or not self._fair_positions(seat, action.positions[:1], 1)):
                raise IllegalAction("bad_move")
        else:
            raise IllegalAction("bad_move")

    def _fair_positions(self, seat: int, positions: tuple[int, ...], most: int) -> bool:
        # The jack is laid on 1..most distinct other cards of its owner's own row.  Our
        # reading where H-V4 is silent: any other row card will do, a shielded one or another
        # jack included (a shield only stops a card being stolen; a thief laid on its owner's
        # shielded card gives that card away, still shielded, in the exchange).
        row = self.rows[seat]
        jack = self.order[self.step][2]
        return (1 <= len(positions) <= most and len(set(positions)) == len(positions)
                and all(isinstance(p, int) and 0 <= p < len(row) and row[p] != jack
                        for p in positions))

    def _targets(self, seat: int) -> list[tuple[int, int]]:
        # Unshielded cards of players not yet robbed (H-V4).
        out = []
        shielded = self.shielded
        for v, row in enumerate(self.rows):
            if v == seat or v in self.robbed:
                continue
            for m, c in enumerate(row):
                if c not in shielded:
                    out.append((v, m))
        return out

    # -- moves (in place, on a state already validated) --------------------------------

    def clone(self) -> State:
        """An independent copy: what ``apply_in_place`` changes is copied, the rest shared."""
        s = State()  # empty: State has no __init__
        s.options = self.options
        s.names = self.names
        s.dealer = self.dealer
        s.seed = self.seed
        s.rows = [r[:] for r in self.rows]
        s.times = [t[:] for t in self.times]
        s.secret = self.secret  # never changes
        s.stock = self.stock[:]
        s.discard = self.discard[:]
        s.to_move = self.to_move
        s.phase = self.phase
        s.held = self.held
        s.held_time = self.held_time
        s.held_known = self.held_known
        s.pos = self.pos
        s.seen = [k[:] for k in self.seen]
        s.turn = self.turn
        s.order = self.order  # these three are replaced, never changed
        s.step = self.step
        s.shielded = self.shielded
        s.robbed = self.robbed
        s.scores = self.scores
        s.over = self.over
        s.nswap = self.nswap
        return s

    def _draw_stock(self, events: list[dict[str, Any]] | None) -> None:
        seat = self.to_move
        self.turn = turn = self.turn + 1
        card = self.held = self.stock.pop()
        self.held_known = 1 << seat  # type: ignore[operator]
        self.held_time = turn
        self.pos = 0
        self.phase = CHAIN
        if events is not None:
            events.append({"type": "draw", "seat": seat, "source": "stock", "card": card,
                           "private": True})

    def _draw_discard(self, events: list[dict[str, Any]] | None) -> None:
        seat = self.to_move
        self.turn = turn = self.turn + 1
        card = self.held = self.discard.pop()
        self.held_known = (1 << len(self.names)) - 1  # everyone saw it face up
        self.held_time = turn
        self.pos = 0
        self.phase = CHAIN
        if events is not None:
            events.append({"type": "draw", "seat": seat, "source": "discard", "card": card,
                           "private": False})

    def _swap(self, events: list[dict[str, Any]] | None) -> None:
        seat = self.to_move
        p = self.pos
        row = self.rows[seat]  # type: ignore[index]
        times = self.times[seat]  # type: ignore[index]
        seen = self.seen[seat]  # type: ignore[index]
        card_in, card_out = self.held, row[p]
        row[p] = card_in
        # A card taken out keeps the time it was got, so a jack moving along its own row
        # keeps its place among the thieves (H-V4).
        times[p], self.held_time = self.held_time, times[p]
        # Who knew the card in hand now knows it in the row, and the other way round; the
        # owner knows both, having just held the one and looked at the other.
        me = 1 << seat  # type: ignore[operator]
        seen[p], self.held_known = self.held_known | me, seen[p] | me
        self.held = card_out
        self.pos = p + 1
        if events is not None:
            events.append({"type": "swap", "seat": seat, "position": p + 1, "card_in": card_in,
                           "card_out": card_out, "private": True})

    def _discard(self, events: list[dict[str, Any]] | None) -> None:
        # A card just taken from the pile may go straight back: H-T3 allows discarding the
        # held card whatever its source, and the stock still runs down on other turns.
        seat = self.to_move
        assert seat is not None
        card = self.held
        self.discard.append(card)
        if events is not None:
            events.append({"type": "discard", "seat": seat, "card": card,
                           "forced": self.pos >= self.nswap})
        self.held = -1
        self.held_time = 0
        self.held_known = 0
        self.pos = 0
        if self.stock:
            self.phase = DRAW
            self.to_move = (seat + 1) % len(self.names)
        else:
            self._end_of_play(events)  # H-E1

    def _end_of_play(self, events: list[dict[str, Any]] | None) -> None:
        if events is not None:
            events.append({"type": "deal_over"})
            events.append({"type": "rows_revealed", "rows": [r[:] for r in self.rows]})
        if not self.options.thieves_and_shields:
            self._score(events)
            return
        n = len(self.names)
        fore = (self.dealer + 1) % n
        shields, thieves = [], []
        for seat, row in enumerate(self.rows):
            order = (seat - fore) % n
            for p, c in enumerate(row):
                if c in SHIELD_JACKS:
                    shields.append((order, p, seat, c))
                elif c in THIEF_JACKS:
                    thieves.append((self.times[seat][p], order, p, seat, c))
        shields.sort()
        thieves.sort()
        self.order = ([["shield", s, c] for _, _, s, c in shields]
                      + [["thief", s, c] for _, _, _, s, c in thieves])
        self.step = -1
        self.shielded = []
        self.robbed = []
        self._next_jack(events)

    def _next_jack(self, events: list[dict[str, Any]] | None) -> None:
        """Move on to the next jack that can act; skipped thieves are reported (H-V4)."""
        while True:
            self.step += 1
            if self.step >= len(self.order):
                self._score(events)
                return
            kind, seat, jack = self.order[self.step]
            if kind == "shield":
                self.phase, self.to_move = SHIELDS, seat
                return
            # A thief no longer in its owner's row (stolen, or given away as the card under
            # another thief) does not act, not even for its new owner: the order was fixed
            # when the phase began.
            if jack not in self.rows[seat]:
                if events is not None:
                    events.append({"type": "steal", "seat": seat, "jack": jack, "victim": None,
                                   "skipped": "stolen"})
                continue
            if not self._targets(seat):
                if events is not None:
                    events.append({"type": "steal", "seat": seat, "jack": jack, "victim": None,
                                   "skipped": "no_victim"})
                continue
            self.phase, self.to_move = THIEVES, seat
            return

    def _shield(self, positions: tuple[int, ...], events: list[dict[str, Any]] | None) -> None:
        seat = self.to_move
        assert seat is not None
        row = self.rows[seat]
        covered = [row[p] for p in positions]
        self.shielded = self.shielded + covered
        if events is not None:
            events.append({"type": "shield", "seat": seat, "jack": self.order[self.step][2],
                           "positions": [p + 1 for p in positions], "cards": covered})
        self._next_jack(events)

    def _steal(self, n: int, victim: int, m: int, events: list[dict[str, Any]] | None) -> None:
        seat = self.to_move
        assert seat is not None
        own = self.rows[seat]
        vrow = self.rows[victim]
        # H-V4 decision: an exchange; the card under the thief goes where the stolen one was.
        given, taken = own[n], vrow[m]
        own[n], vrow[m] = taken, given
        self.robbed = self.robbed + [victim]
        if events is not None:
            events.append({"type": "steal", "seat": seat, "jack": self.order[self.step][2],
                           "position": n + 1, "victim": victim, "victim_position": m + 1,
                           "taken": taken, "given": given})
        self._next_jack(events)

    def _score(self, events: list[dict[str, Any]] | None) -> None:
        row_v, secret_v = cached_value_tables(self.options)
        scores = [sum(row_v[c] for c in row) for row in self.rows]
        if self.secret is not None:
            scores = [sc + secret_v[c] for sc, c in zip(scores, self.secret)]
        self.scores = scores
        self.phase = OVER
        self.over = True
        self.to_move = None
        if events is not None:
            best = min(scores)
            events.append({"type": "scored", "scores": scores[:],
                           "rows": [r[:] for r in self.rows],
                           "secret": None if self.secret is None else self.secret[:],
                           "winners": [s for s, sc in enumerate(scores) if sc == best]})

    # -- what a seat sees -----------------------------------------------------------------

    def revealed(self) -> bool:
        """Rows are face up (after play, in the thieves-and-shields phase and when over)."""
        return self.phase in (SHIELDS, THIEVES, OVER)

    def _shown(self, seat: int) -> tuple[bool, list[list[int | None]], list[int | None] | None,
                                         int | None, int | None]:
        """What ``seat`` sees of the cards (for ``view`` and ``bot_view``): whether the rows
        are face up, the rows, the secret cards, the holder and the held card (None where
        the seat has not seen it)."""
        open_rows = self.revealed()
        rows = [[c if open_rows or m >> seat & 1 else None for c, m in zip(row, seen)]
                for row, seen in zip(self.rows, self.seen)]
        secret: list[int | None] | None = None
        if self.secret is not None:
            # H-V2: everyone sees the others' secret cards, nobody their own until the end.
            secret = [c if (o != seat or self.phase == OVER) else None
                      for o, c in enumerate(self.secret)]
        holder = self.to_move if self.phase == CHAIN else None
        held = self.held if holder is not None and self.held_known >> seat & 1 else None
        return open_rows, rows, secret, holder, held

    def view(self, seat: int) -> dict[str, Any]:
        n = len(self.names)
        open_rows, rows, secret, holder, held = self._shown(seat)
        data: dict[str, Any] = {
            "game": NAME,
            "seat": seat,
            "names": list(self.names),
            "dealer": self.dealer,
            "options": _options_dict(self.options),
            "phase": self.phase,
            "to_move": self.to_move,
            "over": self.over,
            # Until the rows are turned up, a card shown in a row is the seat's memory (H-T5):
            # a "strict" practice page blanks those.
            "rows": rows,
            "rows_face_up": open_rows,
            "swappable": self.nswap,
            "secret": secret,
            "holder": holder,
            "held": held,
            "next_position": self.pos + 1 if holder is not None else None,
            "stock_count": len(self.stock),
            "discard_count": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            # Every discarded card was face up once; keeping them is what a good memory does.
            "discard_pile": self.discard[::-1],
            "shielded": list(self.shielded) if open_rows else [],
            "robbed": list(self.robbed) if open_rows else [],
            "jack": self.order[self.step][2] if self.phase in (SHIELDS, THIEVES) else None,
            "scores": list(self.scores) if self.scores is not None else None,
        }
        assert len(rows) == n
        return data

    def bot_view(self, seat: int) -> dict[str, Any]:
        """What the bots read of ``view(seat)`` (bots/dolda.py): a playout asks for it at
        every move, and the whole view with the bots' own work on it was most of a move.  Its
        values are the view's, and two that follow from it: ``row_values``, the points of
        every card under the view's options, and ``unseen``, the cards the seat has not seen
        (not in a row, a secret card or the held card as the view shows them, nor in the
        discard pile), in card order."""
        _open, rows, secret, holder, held = self._shown(seat)
        unseen = [True] * 52
        for row in rows:
            for c in row:
                if c is not None:
                    unseen[c] = False
        if secret is not None:
            for c in secret:
                if c is not None:
                    unseen[c] = False
        if held is not None:
            unseen[held] = False
        for c in self.discard:
            unseen[c] = False
        return {
            "seat": seat,
            "phase": self.phase,
            "rows": rows,
            "swappable": self.nswap,
            "secret": secret,
            "held": held,
            "next_position": self.pos + 1 if holder is not None else None,
            "stock_count": len(self.stock),
            "discard_top": self.discard[-1] if self.discard else None,
            "row_values": cached_value_tables(self.options)[0],
            "unseen": [c for c in range(52) if unseen[c]],
        }

    # -- persistence ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "options": options_to_dict(self.options),
            "names": list(self.names),
            "dealer": self.dealer,
            "seed": self.seed,
            "rows": [r[:] for r in self.rows],
            "times": [t[:] for t in self.times],
            "secret": None if self.secret is None else self.secret[:],
            "stock": self.stock[::-1],
            "discard": self.discard[::-1],
            "to_move": self.to_move,
            "phase": self.phase,
            "held": self.held,
            "held_time": self.held_time,
            "held_known": self.held_known,
            "pos": self.pos,
            "known": self.known,
            "turn": self.turn,
            "order": [o[:] for o in self.order],
            "step": self.step,
            "shielded": list(self.shielded),
            "robbed": list(self.robbed),
            "scores": None if self.scores is None else list(self.scores),
        }


def state_from_json(data: dict[str, Any]) -> State:
    s = State.__new__(State)
    s.options = Options(**data["options"])
    s.names = list(data["names"])
    s.dealer = data["dealer"]
    s.seed = data["seed"]
    s.rows = [list(r) for r in data["rows"]]
    s.times = [list(t) for t in data["times"]]
    s.secret = None if data["secret"] is None else list(data["secret"])
    s.stock = list(data["stock"])[::-1]
    s.discard = list(data["discard"])[::-1]
    s.to_move = data["to_move"]
    s.phase = data["phase"]
    s.held = data["held"]
    s.held_time = data["held_time"]
    s.held_known = data["held_known"]
    s.pos = data["pos"]
    known = data["known"]
    n = len(s.names)
    s.seen = [[sum(1 << v for v in range(n) if known[v][o] >> p & 1) for p in range(len(row))]
              for o, row in enumerate(s.rows)]
    s.turn = data["turn"]
    s.order = [list(o) for o in data["order"]]
    s.step = data["step"]
    s.shielded = list(data["shielded"])
    s.robbed = list(data["robbed"])
    s.scores = None if data["scores"] is None else list(data["scores"])
    s.over = s.phase == OVER
    s.nswap = swappable(s.options)
    return s


# -- new deals ------------------------------------------------------------------------------

DEAL_KEYS = {"rows", "secret", "stock", "discard", "to_move", "rest"}


def _card_list(value: Any, place: str, name: str = "") -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError("deal_not_cards", place=place, name=name)
    for v in value:
        try:
            C.parse(v)
        except C.CardError:
            raise ScenarioError("deal_unknown_card", place=place, name=name, card=str(v)) from None
    return [C.parse(v) for v in value]


def new_game(options: Options, names: list[str], dealer: int, seed: int,
             deal: dict[str, Any] | None) -> State:
    n = len(names)
    lo, hi = player_range(options)
    if not lo <= n <= hi:
        raise ScenarioError("player_count", game=NAME, lo=lo, hi=hi, n=n)
    rng = random.Random(seed)
    length = row_length(options)
    fore = (dealer + 1) % n
    to_move = fore  # H-T1
    secret: list[int] | None = None
    if deal is None:
        deck = list(range(52))
        rng.shuffle(deck)
        it = iter(deck)
        rows: list[list[int]] = [[] for _ in range(n)]
        # Dealt one at a time clockwise from the dealer's left, like the other games.
        for _ in range(length):
            for k in range(n):
                rows[(fore + k) % n].append(next(it))
        if options.secret_card:
            secret = [0] * n
            for k in range(n):
                secret[(fore + k) % n] = next(it)
        stock_top_first = list(it)
        discard_top_first: list[int] = []
    else:
        if not isinstance(deal, dict):
            raise ScenarioError("deal_not_object")
        unknown = sorted(set(deal) - DEAL_KEYS)
        if unknown:
            raise ScenarioError("deal_unknown_field", fields=", ".join(f"'{k}'" for k in unknown))
        named: list[int] = []
        raw_rows = deal.get("rows")
        if not isinstance(raw_rows, dict) or set(raw_rows) != set(names):
            raise ScenarioError("deal_rows")
        rows = []
        for name in names:
            row = _card_list(raw_rows[name], "row", name)
            if len(row) != length:
                raise ScenarioError("deal_row_length", name=name, n=length)
            rows.append(row)
            named += row
        if options.secret_card:
            raw_secret = deal.get("secret")
            if not isinstance(raw_secret, dict) or set(raw_secret) != set(names):
                raise ScenarioError("deal_secret")
            secret = []
            for name in names:
                sc = _card_list([raw_secret[name]], "secret", name)[0]
                secret.append(sc)
                named.append(sc)
        elif "secret" in deal:
            raise ScenarioError("deal_secret_option")
        stock_top_first = _card_list(deal.get("stock", []), "stock")
        discard_top_first = _card_list(deal.get("discard", []), "discard")
        named += stock_top_first + discard_top_first
        if len(set(named)) != len(named):
            dup = sorted({c for c in named if named.count(c) > 1})
            raise ScenarioError("deal_duplicate", cards=" ".join(C.codes(dup)))
        rest = [c for c in range(52) if c not in set(named)]
        rng.shuffle(rest)
        where = deal.get("rest", "stock")
        if where == "stock":
            stock_top_first += rest
        elif where == "discard":
            discard_top_first += rest
        else:
            raise ScenarioError("deal_rest")
        if "to_move" in deal:
            if deal["to_move"] not in names:
                raise ScenarioError("deal_not_player", field="to_move", name=str(deal["to_move"]))
            to_move = names.index(deal["to_move"])
    s = State.__new__(State)
    s.options = options
    s.names = list(names)
    s.dealer = dealer
    s.seed = seed
    s.rows = rows
    s.times = [[0] * length for _ in range(n)]
    s.secret = secret
    s.stock = stock_top_first[::-1]
    s.discard = discard_top_first[::-1]
    s.to_move = to_move
    s.phase = DRAW
    s.held = -1
    s.held_time = 0
    s.held_known = 0
    s.pos = 0
    s.seen = [[0] * length for _ in range(n)]
    s.turn = 0
    s.order = []
    s.step = -1
    s.shielded = []
    s.robbed = []
    s.scores = None
    s.over = False
    s.nswap = swappable(options)
    if not s.stock:
        s._end_of_play([])  # nothing left to draw: the deal is already over (H-E1)
    return s


# -- text at the edges ----------------------------------------------------------------------

def _position(word: str) -> int:
    if not word.isdigit():
        raise IllegalAction("bad_move", detail=f"{word!r} is not a position",
                            why="not_a_position")
    return int(word) - 1


def parse_action(state: State, seat: int, words: list[str]) -> Action:
    if state.over:
        raise IllegalAction("game_over")
    if seat != state.to_move:
        raise IllegalAction("not_your_turn")
    if not words:
        raise IllegalAction("bad_move")
    word, args = words[0].lower(), words[1:]
    if word == "draw":
        if state.phase == CHAIN:
            raise IllegalAction("already_drew", state.held)
        if len(args) != 1 or args[0].lower() not in ("stock", "discard"):
            raise IllegalAction("bad_move")
        action = Action(seat, "draw", args[0].lower())
    elif word in ("swap", "discard"):
        action = Action(seat, word)
        if args:
            # The game's own reasons come before ``bad_move`` (scenario-format.md): ``swap 1``
            # past the last swappable position is ``cannot_swap_crosswise`` (H-S2).
            state._validate(action)
            raise IllegalAction("bad_move", why="card_count")
    elif word in ("shield", "steal") and state.phase not in (SHIELDS, THIEVES):
        raise IllegalAction("bad_move", detail="jacks act only after the rows are turned up")
    elif word == "shield":
        if state.phase == THIEVES:
            raise IllegalAction("not_a_shield", state.order[state.step][2])
        if not 1 <= len(args) <= 2:
            raise IllegalAction("bad_move")
        action = Action(seat, "shield", positions=tuple(_position(a) for a in args))
    elif word == "steal":
        if state.phase == SHIELDS:
            raise IllegalAction("not_a_thief", state.order[state.step][2])
        if len(args) != 3:
            raise IllegalAction("bad_move")
        if args[1] == state.names[seat]:
            raise IllegalAction("own_row")
        if args[1] not in state.names:
            raise IllegalAction("bad_move", detail=f"unknown player {args[1]!r}")
        victim = state.names.index(args[1])
        action = Action(seat, "steal", positions=(_position(args[0]), _position(args[2])),
                        victim=victim, victim_name=args[1])
    else:
        raise IllegalAction("bad_move", detail=f"unknown move {words[0]!r}")
    state._validate(action)
    return action


def check_expect(state: State, key: str, value: Any) -> str | None:
    """None when ``key`` holds, else what the game has (expect.shown)."""
    names = state.names
    if key == "to_move":
        got = None if state.to_move is None else names[state.to_move]
        return None if got == value else shown(got)
    if key == "over":
        return None if state.over == value else shown(state.over)
    if key in ("hand", "hand_count"):
        wrong: dict[str, Any] = {}
        for seat, want in by_seat(state.names, value, key).items():
            have = [state.held] if state.phase == CHAIN and state.to_move == seat else []
            if key == "hand":
                if sorted(card_list(want, key)) != sorted(have):
                    wrong[names[seat]] = C.codes(have)
            elif want != len(have):
                wrong[names[seat]] = len(have)
        return shown(wrong) if wrong else None
    if key == "stock_count":
        return None if value == len(state.stock) else shown(len(state.stock))
    if key == "discard_count":
        return None if value == len(state.discard) else shown(len(state.discard))
    if key == "discard_top":
        want_top = None if value is None else card_list([value], key)[0]
        top = state.discard[-1] if state.discard else None
        return None if top == want_top else shown(None if top is None else C.code(top))
    if key == "row":
        rows = {names[seat]: C.codes(state.rows[seat])
                for seat, want in by_seat(state.names, value, key).items()
                if card_list(want, key) != state.rows[seat]}
        return shown(rows) if rows else None
    if key in ("scores", "winner"):
        if state.scores is None:  # the deal is not over
            return shown(None)
        if key == "scores":
            scores = {names[seat]: state.scores[seat]
                      for seat, want in by_seat(state.names, value, key).items()
                      if want != state.scores[seat]}
            return shown(scores) if scores else None
        if not isinstance(value, list) or any(v not in names for v in value):
            raise ScenarioError("expect_names", key=key)
        best = sorted(names[s] for s in winners(state))
        return None if sorted(value) == best else shown(best)
    raise ScenarioError("expect_key", key=key, game=NAME)


# -- results and matches --------------------------------------------------------------------

def winners(state: State) -> list[int]:
    """Seats with the lowest deal score (H-E2); empty until the deal is over."""
    if state.scores is None:
        return []
    best = min(state.scores)
    return [s for s, sc in enumerate(state.scores) if sc == best]


def outcome(state: State) -> list[float]:
    """Deal score per seat (lower is better)."""
    if state.scores is None:
        raise ValueError("the deal is not over")
    return [float(x) for x in state.scores]


def deal_result(state: State) -> dict[str, Any]:
    """What a finished deal leaves for the match: each seat's score."""
    if state.scores is None:
        raise ValueError("the deal is not over")
    return {"scores": list(state.scores)}


def match_standing(players: int, results: Iterable[Mapping[str, Any]]) -> Standing:
    """H-E3: one deal per player; once everyone has dealt, the lowest total wins."""
    totals = [0] * players
    played = 0
    for r in results:
        totals = [t + s for t, s in zip(totals, r["scores"])]
        played += 1
    over = played >= players
    best = min(totals)
    winners = [s for s, t in enumerate(totals) if t == best] if over else []
    return Standing(totals, over=over, winners=winners, deals_in_match=players)


def following_deal(options: Options, names: list[str], dealer: int, deal_number: int,
                   last: Mapping[str, Any], seed: int) -> State:
    """The following deal of the match: the deal passes to the left (H-E3)."""
    if deal_number >= len(names):
        raise ValueError("the match is over")
    return new_game(options, names, (dealer + 1) % len(names), seed, None)


def options_from_rules(rules: dict[str, Any] | None = None) -> Options:
    return build_options(Options, PRESETS, DEFAULT_PRESET, rules)
