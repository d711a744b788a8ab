"""Dam (Svarta Maja, Musta Maija): the attack game of rules-spec.md section 1.

Inside, a hand is an int bitmask over the 52 card ints (bit ``c`` set = card ``c`` held),
the stock is a tuple with its TOP LAST (drawing is a slice), the table is a tuple of the
unbeaten attack cards in attack order.  Tuples and ints are immutable, so ``clone`` is a
shallow copy of the slots plus one list (``hands``); what never changes during a deal (the
options, names, seed and the option flags the hot paths read) sits in one ``_Rules`` shared
by every state of the deal.  ``apply_in_place`` changes the state itself (events only when a
list is passed): simulations play that way; ``apply`` is clone plus ``apply_in_place``, and
never mutates the state it is called on.

Actions are plain tuples whose second item is always the acting seat:

    ("attack", seat, (card, ...))   ("beat", seat, attack_card, card)   ("take", seat)
    ("announce", seat, suit)        ("slap", seat)   ("wait", seat)
    ("add", seat, (card, ...))      ("done", seat)

Rule interpretations that the spec leaves open are marked "Decision" where they are made:

- A beaten pair goes to the discard pile at once (D-B4); ``beaten`` keeps the pairs of the
  current attack for the view only.
- While the stock lasts nobody is out; a player reached as attacker or defender with an empty
  hand (possible only after adding every card in an extra attack, D-A5) first draws up to the
  hand size, so the deal cannot stall.
- Under ``endgame_overplay=penalty`` an add that makes the attack larger than the defender's
  hand is an overplay too and is punished the same way (D-A4).
- A move of a kind the phase does not allow (``take`` between attacks, ``attack`` while
  defending, ``announce`` in the extra-attack step, ...) is ``bad_move``; a ``beat`` naming a
  card that is not in the attack is ``bad_move``; ``add`` with no card is ``bad_move``.
- A defender who beats with their last card while unbeaten cards remain (the attack was laid
  before the stock ran out) is not out: they still take the rest.
- Players who go out at the same moment are listed from the attacker clockwise.
- A first attack with an empty stock turns nothing: the deal has no trump (D-T2).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Mapping
from itertools import combinations
from math import comb
from typing import Any, Final, NoReturn

from .cards import QUEEN_OF_SPADES, SPADES, SUITS, CardError, code, parse, parse_suit
from .errors import IllegalAction, ScenarioError
from .expect import card_list, shown
from .match import Standing
from .options import choice

NAME = "dam"
# See the module docstring; the second item is always the acting seat.
Action = (tuple[str, int]  # take, slap, wait, done
          | tuple[str, int, int]  # announce (a suit)
          | tuple[str, int, tuple[int, ...]]  # attack, add (cards)
          | tuple[str, int, int, int])  # beat (the attack card, the card beating it)


# slots: the options are read on nearly every move, and a slotted dataclass reads its fields
# faster than a plain one.
@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    hand_size: int = choice(6, (3, 5, 6))  # D-S2: 6 Swedish, 5 Musta Maija, 3 Finnish 3-card
    max_players_8: bool = choice(False, (False, True))  # D-S1: Swedish Wikipedia allows 8
    trump: str = choice("turned", ("turned", "fixed", "marriage"))  # D-T1/D-T3/D-T4
    spades_can_be_trump: bool = choice(False, (False, True))  # D-T2 (and spade marriages)
    fixed_trump_suit: str = choice("D", ("C", "D", "H", "S"))  # D-T3, only with trump=fixed
    initial_trump: str | None = choice(None, (None, "C", "D", "H", "S"))  # D-T4 before any pair
    marriage_can_change: bool = choice(False, (False, True))  # D-T4: later pairs change trump
    attack_cap: int | None = choice(None, (None, *range(1, 14)))  # D-A3: most cards in one attack
    endgame_overplay: str = choice("forbidden", ("forbidden", "penalty"))  # D-A4
    extra_attack: bool = choice(False, (False, True))  # D-A5 Finnish "lisälyönti"


PRESETS: dict[str, dict[str, Any]] = {
    "svarta-maja": {"hand_size": 6, "trump": "turned", "spades_can_be_trump": False},
    "musta-maija": {"hand_size": 5, "trump": "turned", "spades_can_be_trump": False},
    "kolme-korttia": {"hand_size": 3, "trump": "marriage", "initial_trump": "D"},
    "aldre-svensk": {"hand_size": 6, "trump": "marriage", "marriage_can_change": False,
                     "endgame_overplay": "penalty"},
    "fast-trumf": {"hand_size": 6, "trump": "fixed", "fixed_trump_suit": "D"},
}
DEFAULT_PRESET = "svarta-maja"

# Phases of a deal.  The player to move follows from the phase (see State._set_phase).
ATTACK, EXTRA_DECIDE, EXTRA_ADD, DEFEND, OVER = range(5)
PHASE_NAMES = ("attack", "extra_decide", "extra_add", "defend", "over")

QS = QUEEN_OF_SPADES
QS_BIT = 1 << QS
NO_TRUMP = -1
SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
OTHER_SUITS = tuple(((1 << 52) - 1) ^ m for m in SUIT_MASK)  # ~SUIT_MASK, ready made
# Cards of the same suit that rank above a card; the queen of spades is left out because she
# never beats anything (D-B2), so a spade beater mask can never offer her.
HIGHER = tuple(
    (SUIT_MASK[c // 13] & ~((2 << c) - 1)) & ~QS_BIT for c in range(52)
)
BIG = 1 << 30
# BEATERS[trump][a]: the cards that may beat attack card ``a`` (D-B1, D-B2).  The row for no
# trump (NO_TRUMP, -1) comes last, so that BEATERS[-1] finds it.
BEATERS = tuple(
    tuple(0 if a == QS else HIGHER[a] | (SUIT_MASK[t] & ~QS_BIT if t >= 0 and a // 13 != t else 0)
          for a in range(52))
    for t in (0, 1, 2, 3, NO_TRUMP)
)


def player_range(options: Options) -> tuple[int, int]:
    return (2, 8 if options.max_players_8 else 6)  # D-S1


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# Two module-level caches of action tuples, filled as play needs them.  Both are safe to share
# between states, deals, rule sets and threads: an entry depends on its key alone (the rules
# and the position only cut a prefix of it, see UPTO), its tuples never change, and two
# threads filling one key at once store equal values.
#
# _SUBSET_CACHE: every same-suit subset of one suit's cards in a hand, as action tuples,
# smallest first.  The random bot asks for all of them on every attack and the same small
# holdings come up again and again, so they are kept: _SUBSET_CACHE[kind * 8 + seat][suit]
# (kind 0 attack, 1 add) maps the suit's 13-bit holding to them.  Only holdings of up to
# CACHED_HOLDING cards are kept, which bounds the cache by construction (377 holdings and
# 2,249 actions per seat, suit and kind: at most some 144,000 actions in all, far fewer in
# practice); a larger holding's actions are built afresh.  (Keeping only holdings of up to 2
# cards made bench/engine.py --game dam a fifth slower.)  The empty holding maps to no
# actions, so the common attack can look up all four suits without asking which it holds
# (see _attack_actions).
CACHED_HOLDING = 3
_SUBSET_CACHE: list[tuple[dict[int, tuple[Action, ...]], ...]] = [
    tuple({0: ()} for _suit in range(4)) for _ in range(2 * 8)]
# UPTO[n][k]: how many of those subsets of an n-card holding have at most k cards (k <= 13).
UPTO = tuple(tuple(sum(comb(n, j) for j in range(1, min(k, n) + 1)) for k in range(14))
             for n in range(14))
TAKE = tuple(("take", seat) for seat in range(8))  # offered on every defence: built once
# _BEAT_CACHE[seat][a * 52 + c]: the action of beating a with c, made once per seat when first
# needed, so that listing a defence makes no new tuples.  Bounded: 8 seats of 2,704 actions.
_BEAT_CACHE: list[tuple[Action, ...] | None] = [None] * 8


def _beat_actions(seat: int) -> tuple[Action, ...]:
    beats = _BEAT_CACHE[seat] = tuple(("beat", seat, a, c) for a in range(52) for c in range(52))
    return beats


def _subset_actions(kind: str, seat: int, suit_cards: int) -> tuple[Action, ...]:
    suit = (suit_cards.bit_length() - 1) // 13
    slots = _SUBSET_CACHE[(kind == "add") * 8 + seat][suit]
    holding = suit_cards >> (13 * suit)
    hit = slots.get(holding)
    if hit is None:
        cards = _bits(suit_cards)
        acts: list[Action] = []
        for k in range(1, len(cards) + 1):
            acts += [(kind, seat, combo) for combo in combinations(cards, k)]
        hit = tuple(acts)
        if len(cards) <= CACHED_HOLDING:
            slots[holding] = hit
    return hit


class _Rules:
    """What never changes during a deal, shared by every state of the deal: the options, the
    players, the seed, and the option flags the hot paths read on nearly every move."""

    __slots__ = ("cap", "extra", "forbid", "marriage", "n", "names", "opts", "plain", "seed",
                 "size", "turn")
    opts: Options
    n: int
    names: list[str]
    seed: Any
    plain: bool  # nothing to announce and no attack cap (D-A3, D-T4)
    cap: int  # the attack cap (D-A3), BIG when there is none
    marriage: bool  # trump by marriage (D-T4)
    forbid: bool  # endgame_overplay == "forbidden" (D-A4)
    size: int  # the hand size (D-S2, D-R1)
    extra: bool  # the extra attack (D-A5)
    turn: bool  # trump is turned (D-T1)

    def __init__(self, opts: Options, names: list[str], seed: Any) -> None:
        self.opts = opts
        self.n = len(names)
        self.names = list(names)
        self.seed = seed
        self.plain = opts.trump != "marriage" and opts.attack_cap is None
        self.cap = BIG if opts.attack_cap is None else opts.attack_cap
        self.marriage = opts.trump == "marriage"
        self.forbid = opts.endgame_overplay == "forbidden"
        self.size = opts.hand_size
        self.extra = opts.extra_attack
        self.turn = opts.trump == "turned"


_OPTION_DICTS: dict[Options, dict[str, Any]] = {}


def _options_dict(options: Options) -> dict[str, Any]:
    # asdict is slow and view() runs on every bot decision (the bots' playouts call it on
    # every move); the copy keeps callers apart.
    d = _OPTION_DICTS.get(options)
    if d is None:
        d = _OPTION_DICTS[options] = dataclasses.asdict(options)
    return dict(d)


class State:
    """One position of a deal.  ``apply`` leaves it alone; ``apply_in_place`` changes it."""

    __slots__ = ("attack_suit", "attacker", "beaten", "defender", "discard", "draws", "hands",
                 "loser", "maja", "out", "over", "phase", "rules", "stock", "table", "to_move",
                 "trump", "trump_set", "turned")

    game: Final = NAME  # the protocol's name of the game (games.GameState)
    rules: _Rules
    hands: list[int]
    stock: tuple[int, ...]  # top LAST
    discard: int  # mask of the discard pile (beaten pairs, out of the game)
    table: tuple[int, ...]  # unbeaten attack cards in attack order
    beaten: tuple[tuple[int, int], ...]  # (attack card, beating card) of the current attack
    phase: int
    attacker: int
    defender: int
    to_move: int | None
    over: bool
    trump: int  # suit, or NO_TRUMP
    attack_suit: int

    draws: int  # random draws used from random.Random(seed), for replay
    turned: int  # the card turned for trump (-1 none); under the stock until drawn
    trump_set: bool  # turned: trump was turned; marriage: a pair was announced
    out: tuple[int, ...]  # seats that went out, in order
    loser: int  # -1 while playing or when nobody holds cards at the end
    # The seat everyone saw get the queen of spades (taking her from the table, drawing her as
    # the turned card, showing a spade pair) and that has not laid her since; -1 when no seat
    # is known to hold her.
    maja: int

    @property
    def opts(self) -> Options:
        """The deal's rules."""
        return self.rules.opts

    @property
    def n(self) -> int:
        """The number of players."""
        return self.rules.n

    @property
    def names(self) -> list[str]:
        """The player names in seat order."""
        return self.rules.names

    @property
    def seed(self) -> Any:
        """The deal's seed."""
        return self.rules.seed

    # ----------------------------------------------------------------- copying
    def clone(self) -> State:
        """An independent copy: what ``apply_in_place`` changes is copied, the rest shared."""
        s = State()  # empty (no __init__), and cheaper to make than object.__new__(State)
        s.rules = self.rules
        s.hands = self.hands[:]
        s.stock = self.stock
        s.discard = self.discard
        s.table = self.table
        s.beaten = self.beaten
        s.phase = self.phase
        s.attacker = self.attacker
        s.defender = self.defender
        s.to_move = self.to_move
        s.over = self.over
        s.trump = self.trump
        s.attack_suit = self.attack_suit
        s.draws = self.draws
        s.turned = self.turned
        s.trump_set = self.trump_set
        s.out = self.out
        s.loser = self.loser
        s.maja = self.maja
        return s

    def _set_phase(self, phase: int) -> None:
        self.phase = phase
        if phase in (ATTACK, EXTRA_ADD):
            self.to_move = self.attacker
        elif phase == OVER:
            self.to_move = None
        else:
            self.to_move = self.defender

    # ----------------------------------------------------------------- small queries
    @property
    def stock_count(self) -> int:
        return len(self.stock)

    def hand_count(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def _rng(self) -> random.Random:
        """The deal's one random source, positioned after the ``draws`` already used.

        A state keeps the seed and the count rather than a Random object, so that clones stay
        cheap and to_json/state_from_json carry the source exactly.  Each ``random()`` takes
        two 32-bit words of the generator, so one ``getrandbits(64 * draws)`` skips the used
        ones in a single call (tests/engine/test_dam.py checks this against the replay)."""
        rng = random.Random(self.seed)
        if self.draws:
            rng.getrandbits(64 * self.draws)
        return rng

    def _attack_limit(self) -> int:
        """The most cards the attack may hold now: the cap (D-A3) and, with the stock gone,
        the defender's hand (D-A4 forbidden).  The one place of both rules."""
        rules = self.rules
        limit = rules.cap
        if not self.stock and rules.forbid:
            held = self.hands[self.defender].bit_count()
            if held < limit:
                limit = held
        return limit

    def _add_room(self) -> int:
        """How many more cards the attack may still take (D-A5): nothing is beaten before the
        defence, so that is the limit less the cards on the table."""
        return self._attack_limit() - len(self.table)

    def _marriage_suits(self, seat: int) -> list[int]:
        """Suits that ``seat`` could announce now (D-T4), in suit order."""
        opts = self.opts
        if opts.trump != "marriage" or (self.trump_set and not opts.marriage_can_change):
            return []
        hand = self.hands[seat]
        out = []
        for s in range(4):
            if s == SPADES and not opts.spades_can_be_trump:
                continue
            if s != self.trump and hand >> (s * 13 + 10) & 3 == 3:  # queen and king bits
                out.append(s)
        return out

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        seat = self.to_move
        if seat is None:  # the deal is over
            return []
        phase = self.phase
        if phase == DEFEND:
            return self._defend_actions(seat)
        if phase == ATTACK:
            return self._attack_actions(seat)
        if phase == EXTRA_DECIDE:
            return [("slap", seat), ("wait", seat)]
        return self._add_actions(seat)  # EXTRA_ADD

    def _defend_actions(self, seat: int) -> list[Action]:
        """Announcements, then every card that may beat an attack card (D-B1, D-B2), then
        taking (D-B5)."""
        hand = self.hands[seat]
        acts: list[Action] = (
            [("announce", seat, s) for s in self._marriage_suits(seat)]
            if self.rules.marriage else [])
        beaters = BEATERS[self.trump]
        beats = _BEAT_CACHE[seat] or _beat_actions(seat)
        for a in self.table:
            m = beaters[a] & hand
            row = a * 52 - 1
            while m:
                low = m & -m
                acts.append(beats[row + low.bit_length()])
                m ^= low
        acts.append(TAKE[seat])
        return acts

    def _attack_actions(self, seat: int) -> list[Action]:
        """Announcements, then the same-suit card sets the attack may hold (D-A1, D-A3, D-A4)."""
        hand = self.hands[seat]
        rules = self.rules
        if rules.plain and self._attack_limit() >= hand.bit_count():
            # Nothing to announce and no limit that could cut (D-A3, D-A4): every subset of
            # every suit, straight from the cache (most attacks under the usual rules).
            clubs, diamonds, hearts, spades = _SUBSET_CACHE[seat]
            try:
                return [*clubs[hand & 0x1FFF], *diamonds[hand >> 13 & 0x1FFF],
                        *hearts[hand >> 26 & 0x1FFF], *spades[hand >> 39]]
            except KeyError:  # a holding not cached yet, or too large to keep
                pass
        acts: list[Action] = ([("announce", seat, s) for s in self._marriage_suits(seat)]
                              if rules.marriage else [])
        limit = min(13, self._attack_limit())  # D-A3, D-A4
        for suit, slots in enumerate(_SUBSET_CACHE[seat]):
            h = hand >> 13 * suit & 0x1FFF
            if h:
                lst = slots.get(h) or _subset_actions("attack", seat, h << 13 * suit)
                acts += lst[: UPTO[h.bit_count()][limit]]
        return acts

    def _add_actions(self, seat: int) -> list[Action]:
        """The same-suit card sets the extra attack may still add (D-A5), then being done."""
        acts: list[Action] = []
        room = self._add_room()
        sc = self.hands[seat] & SUIT_MASK[self.attack_suit]
        if sc and room > 0:
            acts += _subset_actions("add", seat, sc)[: UPTO[sc.bit_count()][min(room, 13)]]
        acts.append(("done", seat))
        return acts

    # ----------------------------------------------------------------- apply
    def apply(self, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """The state after ``action`` and the events it caused; ``self`` is left as it was."""
        s = self.clone()
        events: list[dict[str, Any]] = []
        s.apply_in_place(action, events)
        return s, events

    def apply_in_place(self, action: Any, events: list[dict[str, Any]] | None = None) -> None:
        """Play ``action`` on this state itself; its events are appended to ``events`` if given.

        An illegal action raises IllegalAction before anything is changed.  Simulations use
        this with ``clone()``: a new state and event dicts per move were most of their time.
        """
        mover = self.to_move
        if mover is not None and self.phase == DEFEND and action is TAKE[mover]:
            self._do_take(mover, action, events)  # the commonest move: straight there
            return
        if self.over:
            raise IllegalAction("game_over")
        try:
            kind = action[0]
            seat = action[1]
        except (TypeError, IndexError, KeyError):
            raise IllegalAction("bad_move", detail=repr(action)) from None
        if seat != self.to_move:
            raise IllegalAction("not_your_turn")
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise IllegalAction("bad_move", detail=f"unknown move {kind!r}")
        handler(self, seat, action, events)

    # Each _do_* validates completely (raising before any change), then changes self.  The
    # checks run in the reason-code order of scenario-format.md, each written once.
    def _check_cards(self, seat: int, cards: Any) -> tuple[tuple[int, ...], int]:
        """The named cards as a tuple and as a mask: real cards, in the hand, each once."""
        if type(cards) is not tuple:
            if not isinstance(cards, (tuple, list)):
                raise IllegalAction("bad_move", detail="cards must be a sequence")
            cards = tuple(cards)
        m = 0
        for c in cards:
            if type(c) is not int or c < 0 or c > 51:
                raise IllegalAction("unknown_card", detail=repr(c))
            m |= 1 << c
        hand = self.hands[seat]
        if hand & m != m:
            # a card named twice is one missing card: the refusal names it once
            raise IllegalAction("card_not_in_hand",
                                *dict.fromkeys(c for c in cards if not hand >> c & 1))
        if m.bit_count() != len(cards):
            raise IllegalAction("bad_move", detail="a card named twice", why="card_twice")
        return cards, m

    def _do_attack(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 3:
            raise IllegalAction("bad_move")
        cards, m = self._check_cards(seat, action[2])
        if self.phase != ATTACK:
            raise IllegalAction("bad_move", detail="no attack now", why="not_now")
        if not cards:
            raise IllegalAction("attack_empty")
        suit = cards[0] // 13
        if m & OTHER_SUITS[suit]:  # D-A1
            raise IllegalAction("attack_mixed_suits", *cards)
        rules = self.rules
        if len(cards) > self._attack_limit():
            cap = rules.opts.attack_cap
            if cap is not None and len(cards) > cap:  # D-A3
                raise IllegalAction("attack_over_cap", *cards)
            raise IllegalAction("attack_exceeds_defender_hand", *cards)  # D-A4
        d = self.defender
        stock = self.stock
        hands = self.hands
        hands[seat] ^= m  # (m is in hand)
        if m & QS_BIT:
            self.maja = -1
        self.table = cards
        self.attack_suit = suit
        if events is not None:
            events.append({"type": "attack", "seat": seat, "defender": d, "cards": [*cards]})
        if not self.trump_set and rules.turn:
            self._turn_trump(events)  # D-T1: after the first attack is laid, before the refill
            stock = self.stock  # same cards, new order
        if stock:
            self._refill(seat, events)  # D-R1: the attacker draws first
            stock = self.stock
        elif not rules.forbid and len(cards) > hands[d].bit_count():
            self._overplay_penalty(events)  # D-A4 penalty reading
            return
        if not stock and hands.count(0) != len(self.out):  # (as in _note_out: cheap check)
            self._note_out(events)  # D-N2: an attacker who laid their last card
        if rules.extra:
            self._enter_extra_or_defence()
        else:
            self.phase = DEFEND
            self.to_move = d

    def _enter_extra_or_defence(self) -> None:
        # D-A5: the extra-attack step only when the attacker could add at all.
        if self.opts.extra_attack and self.hands[self.attacker] & SUIT_MASK[self.attack_suit] \
                and self._add_room() > 0:
            self._set_phase(EXTRA_DECIDE)
        else:
            self._set_phase(DEFEND)

    def _do_beat(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 4:
            raise IllegalAction("bad_move")
        a, c = action[2], action[3]
        for x in (a, c):
            if type(x) is not int or x < 0 or x > 51:
                raise IllegalAction("unknown_card", detail=repr(x))
        hands = self.hands
        hand = hands[seat]
        if not hand >> c & 1:
            raise IllegalAction("card_not_in_hand", c)
        if self.phase != DEFEND:
            raise IllegalAction("bad_move", detail="no defence now", why="not_now")
        table = self.table
        if a not in table or not BEATERS[self.trump][a] >> c & 1:  # D-B1, D-B2
            self._refuse_beat(a, c)
        hands[seat] = hand ^ (1 << c)  # (c is in hand)
        self.beaten = self.beaten + ((a, c),)
        self.discard |= (1 << a) | (1 << c)  # D-B4: out of the game at once, face down
        if events is not None:
            events.append({"type": "beat", "seat": seat, "attack_card": a, "card": c})
        if len(table) == 1:
            self.table = ()
            self._end_defence(True, events)  # D-B3: ends by itself
        else:
            rest = list(table)
            rest.remove(a)
            self.table = tuple(rest)

    def _refuse_beat(self, a: int, c: int) -> NoReturn:
        """Why ``c`` may not beat ``a``: the rule behind BEATERS, or ``a`` not in the attack."""
        if c == QS:  # D-B2
            raise IllegalAction("queen_of_spades_cannot_beat", c)
        unbeaten = a in self.table
        was_beaten = any(p[0] == a for p in self.beaten)
        if not unbeaten and not was_beaten:
            raise IllegalAction("bad_move", a, detail="that card is not in the attack",
                                 why="not_in_attack")
        if a == QS:  # D-B2
            raise IllegalAction("queen_of_spades_cannot_be_beaten", a)
        sa, sc = a // 13, c // 13
        if sa == sc:  # D-B1
            if c < a:
                raise IllegalAction("not_higher", a, c)
        elif sc != self.trump:
            raise IllegalAction("wrong_suit", a, c)
        if was_beaten:
            raise IllegalAction("already_beaten", a)
        raise AssertionError("BEATERS refused a beat that the rules allow")  # pragma: no cover

    def _do_take(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 2:
            raise IllegalAction("bad_move")
        if self.phase != DEFEND:
            raise IllegalAction("bad_move", detail="nothing to take", why="not_now")
        taken = self.table
        m = 0
        for c in taken:
            m |= 1 << c
        self.hands[seat] |= m  # D-B5
        if m & QS_BIT:
            self.maja = seat  # face up on the table: everyone saw where she went
        self.table = ()
        if events is not None:
            events.append({"type": "take", "seat": seat, "cards": [*taken]})
        self._end_defence(False, events)

    def _do_announce(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 3:
            raise IllegalAction("bad_move")
        suit = action[2]
        opts = self.opts
        if opts.trump != "marriage" or type(suit) is not int or not 0 <= suit < 4:
            raise IllegalAction("bad_move", detail="no announcing under these rules",
                                 why="no_announcing")
        king, queen = suit * 13 + 11, suit * 13 + 10
        hand = self.hands[seat]
        if not (hand >> king & 1 and hand >> queen & 1) or (
                suit == SPADES and not opts.spades_can_be_trump):
            raise IllegalAction("no_marriage")
        if (self.trump_set and not opts.marriage_can_change) or self.trump == suit:
            raise IllegalAction("trump_fixed", king, queen)
        if self.phase != ATTACK and self.phase != DEFEND:
            raise IllegalAction("bad_move", detail="announce before attacking or while defending", why="not_now")
        self.trump = suit
        self.trump_set = True
        if queen == QS:
            self.maja = seat  # a spade pair is shown to the table
        if events is not None:
            events.append({"type": "announce", "seat": seat, "suit": suit, "cards": [king, queen]})

    def _do_slap(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 2 or self.phase != EXTRA_DECIDE:
            raise IllegalAction("bad_move", why="not_now" if len(action) == 2 else "")
        self._set_phase(DEFEND)
        if events is not None:
            events.append({"type": "slap", "seat": seat})

    def _do_wait(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 2 or self.phase != EXTRA_DECIDE:
            raise IllegalAction("bad_move", why="not_now" if len(action) == 2 else "")
        self._set_phase(EXTRA_ADD)
        if events is not None:
            events.append({"type": "wait", "seat": seat})

    def _do_add(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 3:
            raise IllegalAction("bad_move")
        cards, m = self._check_cards(seat, action[2])
        if self.phase != EXTRA_ADD or not cards:
            raise IllegalAction("bad_move", detail="no adding now", why="not_now")
        if len(cards) > self._add_room():  # D-A3, D-A4 (nothing is beaten yet)
            raise IllegalAction("add_not_allowed", *cards)
        if any(c // 13 != self.attack_suit for c in cards):
            raise IllegalAction("add_wrong_suit", *cards)
        self.hands[seat] &= ~m
        if m & QS_BIT:
            self.maja = -1
        self.table = self.table + cards
        if events is not None:
            events.append({"type": "add", "seat": seat, "cards": list(cards)})
        if not self.stock and self.opts.endgame_overplay == "penalty" \
                and len(self.table) > self.hands[self.defender].bit_count():
            self._overplay_penalty(events)  # an add that overplays is an overplay too
            return
        if not self.stock:
            self._note_out(events)
        if not (self.hands[seat] & SUIT_MASK[self.attack_suit]) or self._add_room() <= 0:
            self._set_phase(DEFEND)  # the step ends by itself

    def _do_done(self, seat: int, action: Any, events: list[dict[str, Any]] | None) -> None:
        if len(action) != 2 or self.phase != EXTRA_ADD:
            raise IllegalAction("bad_move", why="not_now" if len(action) == 2 else "")
        self._set_phase(DEFEND)
        if events is not None:
            events.append({"type": "done", "seat": seat})

    # ----------------------------------------------------------------- automatic steps
    def _turn_trump(self, events: list[dict[str, Any]] | None) -> None:
        """D-T1/D-T2: turn the top stock card, putting back spades if need be."""
        self.trump_set = True
        stock = list(self.stock)  # top last
        spades_ok = self.opts.spades_can_be_trump
        if not stock or (not spades_ok and all(c // 13 == SPADES for c in stock)):
            # Decision (D-T2): a stock of only spades (or none at all) leaves the deal trumpless.
            self.trump = NO_TRUMP
            if events is not None:
                events.append({"type": "trump_turned", "card": None, "suit": None})
            return
        rng = None
        while not spades_ok and stock[-1] // 13 == SPADES:
            if rng is None:
                rng = self._rng()
            spade = stock.pop()
            # Any of the len+1 gaps, the top included (the spade may come straight back up).
            pos = int(rng.random() * (len(stock) + 1))
            self.draws += 1
            stock.insert(pos, spade)
            if events is not None:
                events.append({"type": "spade_returned", "card": spade})
        top = stock.pop()
        stock.insert(0, top)  # crosswise under the stock: the last card drawn
        self.stock = tuple(stock)
        self.turned = top
        self.trump = top // 13
        if events is not None:
            events.append({"type": "trump_turned", "card": top, "suit": top // 13})

    def _refill(self, seat: int, events: list[dict[str, Any]] | None) -> None:
        """D-R1: ``seat`` draws up to the hand size from the top of the stock; D-R2: as far as
        the stock goes.  The one place of both rules (after an attack, after a defence, and
        for a player reached with an empty hand)."""
        hands = self.hands
        h = hands[seat]
        need = self.rules.size - h.bit_count()
        stock = self.stock
        if need <= 0 or not stock:
            return
        k = need if need < len(stock) else len(stock)  # noqa: FURB136 - min() is slower
        for c in stock[-k:]:
            h |= 1 << c
        hands[seat] = h
        self.stock = stock = stock[:-k]
        if not stock and self.turned == QS:
            self.maja = seat  # the turned card is the last one drawn (D-T1)
        if events is not None:
            events.append({"type": "refill", "seat": seat, "count": k,
                           "stock_count": len(stock)})

    def _note_out(self, events: list[dict[str, Any]] | None) -> None:
        """D-N2: with the stock empty, everyone without cards is out (attacker first)."""
        hands = self.hands
        out = self.out
        if hands.count(0) == len(out):
            return  # the usual case: nobody new
        n = self.rules.n
        start = max(self.attacker, 0)
        for i in range(n):
            s = (start + i) % n
            if not hands[s] and s not in out:
                out = out + (s,)
                if events is not None:
                    events.append({"type": "player_out", "seat": s})
        self.out = out

    def _end_defence(self, beat_all: bool, events: list[dict[str, Any]] | None) -> None:
        d = self.defender
        self.beaten = ()
        stock = self.stock
        if stock:
            self._refill(d, events)  # D-R1: the defender draws after the defence
            stock = self.stock
            if stock:
                # Fast path: nobody is out while the stock lasts; D-N1 as below.
                hands = self.hands
                n = self.rules.n
                att = d if beat_all else (d + 1) % n
                nd = (att + 1) % n
                if hands[att] and hands[nd]:
                    self.attacker = att
                    self.defender = nd
                    self.phase = ATTACK
                    self.to_move = att
                    return
        if not self.stock and self.hands.count(0) != len(self.out):
            self._note_out(events)  # D-N2 (most defences end with nobody new out: no call)
        # D-N1: a defender who beat everything attacks next, else the player after them.
        self._next_attack(d if beat_all else (d + 1) % self.rules.n, events)

    def _overplay_penalty(self, events: list[dict[str, Any]] | None) -> None:
        """D-A4 penalty: attacker takes the attack back plus all of the defender's cards."""
        a, d = self.attacker, self.defender
        given = self.hands[d]
        back = self.table
        self.hands[a] |= _mask(back) | given
        if QS in back or self.maja == d:
            self.maja = a  # she was on the table, or known to be among the cards given
        self.hands[d] = 0
        self.table = ()
        self.beaten = ()
        if events is not None:
            events.append({"type": "overplay_penalty", "seat": a, "defender": d,
                           "returned": list(back), "count": given.bit_count()})
        self._note_out(events)
        self._next_attack((d + 1) % self.n, events)

    def _next_attack(self, candidate: int, events: list[dict[str, Any]] | None) -> None:
        """Settle who attacks whom next, or end the deal (D-N1, D-N2, D-E2)."""
        n = self.rules.n
        hands = self.hands
        if not self.stock:
            if n - hands.count(0) <= 1:
                holders = [s for s in range(n) if hands[s]]
                self._finish(holders[0] if holders else -1, events)
                return
            # The endgame, where most of a deal's attacks happen: skip the players who are
            # out; two or more still hold cards, so both searches end.
            att = candidate
            while not hands[att]:
                att = (att + 1) % n
            d = (att + 1) % n
            while not hands[d]:
                d = (d + 1) % n
            self.attacker = att
            self.defender = d
            self.table = ()
            self.beaten = ()
            self.phase = ATTACK
            self.to_move = att
            return
        # While the stock lasts nobody is out; a player reached with an empty hand then
        # (possible only after adding every card in an extra attack) draws up to the hand
        # size first.  Decision: that is "the attacker's next refill" of D-A5, and it is what
        # keeps an empty-handed player from stalling the deal.
        att = candidate
        if not hands[att]:
            self.attacker = att
            self._refill(att, events)
            if not self.stock:
                self._note_out(events)
        self.attacker = att
        d = (att + 1) % n
        for _ in range(n - 1):
            if d != att and (hands[d] or self.stock):
                break
            d = (d + 1) % n
        if d == att or not (hands[d] or self.stock):
            self._finish(att, events)  # nobody left to attack: the attacker holds the rest
            return
        if not hands[d]:
            self._refill(d, events)
            if not self.stock:
                self._note_out(events)
        self.defender = d
        self.table = ()
        self.beaten = ()
        self._set_phase(ATTACK)

    def _finish(self, loser: int, events: list[dict[str, Any]] | None) -> None:
        self.loser = loser
        self.over = True
        self.attacker = -1
        self.defender = -1
        self._set_phase(OVER)
        if events is not None:
            events.append({"type": "deal_over", "loser": None if loser < 0 else loser})

    # ----------------------------------------------------------------- views
    def view(self, seat: int) -> dict[str, Any]:
        hidden = (self.opts.endgame_overplay == "penalty" and not self.stock)
        counts = [None if (hidden and s != seat) else h.bit_count()
                  for s, h in enumerate(self.hands)]
        return {
            "game": NAME,
            "seat": seat,
            "names": list(self.names),
            "options": _options_dict(self.opts),
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.to_move,
            "over": self.over,
            "hand": _bits(self.hands[seat]),
            "hand_counts": counts,
            "table": list(self.table),
            "beaten": [list(p) for p in self.beaten],
            "attack_suit": self.attack_suit if self.phase != ATTACK and not self.over else None,
            "attacker": None if self.attacker < 0 else self.attacker,
            "defender": None if self.defender < 0 else self.defender,
            "trump": None if self.trump < 0 else self.trump,
            # public: everyone saw trump turned or a pair announced (D-T1, D-T4)
            "trump_decided": self.trump_set,
            "turned": None if self.turned < 0 else self.turned,
            "turned_in_stock": bool(self.stock) and self.stock[0] == self.turned,
            "stock_count": len(self.stock),
            "discard_count": self.discard.bit_count(),
            "out": list(self.out),
            "loser": None if self.loser < 0 else self.loser,
            # Public: the seat everyone saw get the queen of spades and that has not laid her
            # since (see State.maja); None otherwise.
            "maja_known_with": None if self.maja < 0 else self.maja,
        }

    def bot_view(self, seat: int) -> dict[str, Any]:
        """The part of ``view(seat)`` the heuristic bot reads (bots/dam.py), with the same
        values: a playout asks for it at every move, and the whole view (the options among
        it) was close to a third of a playout's time."""
        return {
            "seat": seat,
            "names": list(self.names),
            "hand": _bits(self.hands[seat]),
            "beaten": [list(p) for p in self.beaten],
            "trump": None if self.trump < 0 else self.trump,
            "stock_count": len(self.stock),
            "out": list(self.out),
            "maja_known_with": None if self.maja < 0 else self.maja,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "options": dataclasses.asdict(self.opts),
            "names": list(self.names),
            "hands": [_bits(h) for h in self.hands],
            "stock": list(reversed(self.stock)),  # top first, as in scenario files
            "turned": None if self.turned < 0 else self.turned,
            "discard": _bits(self.discard),
            "table": list(self.table),
            "beaten": [list(p) for p in self.beaten],
            "phase": PHASE_NAMES[self.phase],
            "attacker": self.attacker,
            "defender": self.defender,
            "trump": None if self.trump < 0 else self.trump,
            "trump_set": self.trump_set,
            "attack_suit": self.attack_suit,
            "out": list(self.out),
            "loser": self.loser,
            "maja": None if self.maja < 0 else self.maja,
            "seed": self.seed,
            "draws": self.draws,
        }

    def __repr__(self) -> str:
        hands = " | ".join(f"{self.names[s]}:{' '.join(code(c) for c in _bits(h))}"
                           for s, h in enumerate(self.hands))
        return (f"<dam {PHASE_NAMES[self.phase]} to_move={self.to_move} trump={self.trump} "
                f"table={[code(c) for c in self.table]} stock={len(self.stock)} {hands}>")


_HANDLERS = {
    "attack": State._do_attack,
    "beat": State._do_beat,
    "take": State._do_take,
    "announce": State._do_announce,
    "slap": State._do_slap,
    "wait": State._do_wait,
    "add": State._do_add,
    "done": State._do_done,
}


def state_from_json(data: Mapping[str, Any]) -> State:
    s = State()
    s.rules = _Rules(Options(**data["options"]), data["names"], data["seed"])
    s.hands = [_mask(h) for h in data["hands"]]
    s.stock = tuple(reversed(data["stock"]))
    s.turned = -1 if data["turned"] is None else data["turned"]
    s.discard = _mask(data["discard"])
    s.table = tuple(data["table"])
    s.beaten = tuple((p[0], p[1]) for p in data["beaten"])
    s.attacker = data["attacker"]
    s.defender = data["defender"]
    s.over = data["phase"] == "over"
    s._set_phase(PHASE_NAMES.index(data["phase"]))
    s.trump = NO_TRUMP if data["trump"] is None else data["trump"]
    s.trump_set = data["trump_set"]
    s.attack_suit = data["attack_suit"]
    s.out = tuple(data["out"])
    s.loser = data["loser"]
    maja = data.get("maja")  # absent from states saved before the field existed
    s.maja = -1 if maja is None else maja
    s.draws = data["draws"]
    return s


# --------------------------------------------------------------------- new deals
DEAL_KEYS = {"hands", "stock", "turned", "discard", "trump", "attacker", "rest"}


def _shuffle(cards: list[int], rng: random.Random) -> int:
    """Fisher-Yates with one ``random()`` per swap, so the draws can be counted (replay)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return max(len(cards) - 1, 0)


def _deal_cards(raw: Any, place: str, name: str = "") -> list[int]:
    if not isinstance(raw, list):
        raise ScenarioError("deal_not_cards", place=place, name=name)
    for c in raw:
        try:
            parse(c)
        except CardError:
            raise ScenarioError("deal_unknown_card", place=place, name=name, card=str(c)) from None
    return [parse(c) for c in raw]


def new_game(options: Options, names: list[str], dealer: int, seed: int,
             deal: Mapping[str, Any] | None) -> State:
    n = len(names)
    lo, hi = player_range(options)
    if not lo <= n <= hi:
        raise ScenarioError("player_count", game=NAME, lo=lo, hi=hi, n=n)
    s = State()
    s.rules = _Rules(options, names, seed)
    s.draws = 0
    s.turned = -1
    s.trump_set = False
    s.out = ()
    s.loser = -1
    s.maja = -1
    s.discard = 0
    s.table = ()
    s.beaten = ()
    s.attacker = -1
    s.defender = -1
    s.to_move = None
    s.over = False
    s.attack_suit = 0
    rng = random.Random(seed)
    # D-T3/D-T4: trump from the deal on, or None until turned/announced.
    if options.trump == "fixed":
        s.trump, s.trump_set = SUITS.index(options.fixed_trump_suit), True
    elif options.trump == "marriage":
        s.trump = NO_TRUMP if options.initial_trump is None else SUITS.index(options.initial_trump)
    else:
        s.trump = NO_TRUMP
    first = (dealer + 1) % n  # D-S4
    if deal is None:
        deck = list(range(52))
        s.draws = _shuffle(deck, rng)
        hands = [0] * n
        dealt = options.hand_size * n
        for i in range(n):  # D-S3: one at a time from the dealer's left
            hands[(first + i) % n] = _mask(deck[i:dealt:n])
        s.hands = hands
        s.stock = tuple(reversed(deck[dealt:]))
    else:
        first = _scenario_deal(s, options, deal, rng, first)
    s._next_attack(first, [])
    return s


def _scenario_deal(s: State, options: Options, deal: Mapping[str, Any], rng: random.Random,
                   first: int) -> int:
    if not isinstance(deal, Mapping):
        raise ScenarioError("deal_not_object")
    unknown = sorted(set(deal) - DEAL_KEYS)
    if unknown:
        raise ScenarioError("deal_unknown_field", fields=", ".join(f"'{k}'" for k in unknown))
    names = s.names
    raw_hands = deal.get("hands", {})
    if not isinstance(raw_hands, Mapping):
        raise ScenarioError("deal_hands")
    extra = [str(name) for name in raw_hands if name not in names]
    missing = [p for p in names if p not in raw_hands]
    if missing or extra:
        raise ScenarioError("deal_hand_names", missing=", ".join(missing) or "–",
                            unknown=", ".join(extra) or "–")
    hands = [_deal_cards(raw_hands[p], "hand", p) for p in names]
    stock = _deal_cards(deal.get("stock", []), "stock")
    discard = _deal_cards(deal.get("discard", []), "discard")
    turned_raw = deal.get("turned")
    turned = [] if turned_raw is None else _deal_cards([turned_raw], "turned")
    named = [c for h in hands for c in h] + stock + discard + turned
    if len(set(named)) != len(named):
        dup = sorted({code(c) for c in named if named.count(c) > 1})
        raise ScenarioError("deal_duplicate", cards=" ".join(dup))
    rest = [c for c in range(52) if c not in set(named)]
    s.draws = _shuffle(rest, rng)
    where = deal.get("rest", "stock")
    if where not in ("stock", "discard"):
        raise ScenarioError("deal_rest")
    if where == "discard":
        discard += rest
        rest = []
    # Internal stock is top last: turned card, then the shuffled rest, then the named stock.
    s.stock = tuple(turned + rest + stock[::-1])
    s.hands = [_mask(h) for h in hands]
    s.discard = _mask(discard)
    if turned:
        if options.trump != "turned":
            raise ScenarioError("deal_turned_option")
        if turned[0] // 13 == SPADES and not options.spades_can_be_trump:
            raise ScenarioError("deal_turned_spade")
        s.turned, s.trump, s.trump_set = turned[0], turned[0] // 13, True
    if "trump" in deal:
        raw = deal["trump"]
        try:
            suit = NO_TRUMP if raw is None else parse_suit(raw)
        except (CardError, AttributeError):
            raise ScenarioError("deal_trump_suit", value=json.dumps(raw)) from None
        if turned and suit != s.trump:
            raise ScenarioError("deal_trump_turned")
        if options.trump == "fixed" and suit != s.trump:
            raise ScenarioError("deal_trump_fixed")
        # turned: trump already turned; marriage: a pair was announced earlier.
        s.trump, s.trump_set = suit, True
    if "attacker" in deal:
        if deal["attacker"] not in names:
            raise ScenarioError("deal_not_player", field="attacker", name=str(deal["attacker"]))
        first = names.index(deal["attacker"])
    if not s.stock:
        s.attacker = first
        s._note_out([])
    return first


# --------------------------------------------------------------------- text edges
MOVES = ("attack", "beat", "take", "announce", "slap", "wait", "add", "done")


def parse_action(state: State, seat: int, words: list[str]) -> Action:
    """Scenario words after the player name -> action, checked in reason-code order."""
    if state.over:
        raise IllegalAction("game_over")
    if seat != state.to_move:
        raise IllegalAction("not_your_turn")
    if not words:
        raise IllegalAction("bad_move", detail="no move")
    kind = words[0].lower()
    if kind not in MOVES:
        raise IllegalAction("bad_move", detail=f"unknown move {words[0]!r}", why="unknown_move")
    args = words[1:]
    if kind == "announce":
        if len(args) != 1:
            raise IllegalAction("bad_move", detail="announce takes one suit", why="card_count")
        try:
            return ("announce", seat, parse_suit(args[0]))
        except CardError:
            raise IllegalAction("bad_move", detail=f"{args[0]!r} is not a suit",
                                why="not_a_suit") from None
    cards = []
    for w in args:
        try:
            cards.append(parse(w))
        except CardError:
            raise IllegalAction("unknown_card", detail=w) from None
    hand = state.hands[seat]
    if kind == "beat":
        if len(cards) != 2:
            raise IllegalAction("bad_move", detail="beat takes an attack card and a card",
                                why="card_count")
        if not hand >> cards[1] & 1:
            raise IllegalAction("card_not_in_hand", cards[1])
        return ("beat", seat, cards[0], cards[1])
    if kind in ("attack", "add"):
        missing = list(dict.fromkeys(c for c in cards if not hand >> c & 1))
        if missing:
            raise IllegalAction("card_not_in_hand", *missing)
        return (kind, seat, tuple(cards))
    if cards:
        raise IllegalAction("bad_move", detail=f"{kind} takes no cards", why="card_count")
    return (kind, seat)


def format_action(action: Action) -> str:
    kind = action[0]
    if len(action) == 4:  # beat
        return f"beat {code(action[2])} {code(action[3])}"
    if len(action) == 3:
        arg = action[2]
        if isinstance(arg, int):  # announce
            return f"{kind} {SUITS[arg]}"
        return " ".join([kind, *(code(c) for c in arg)])  # attack, add
    return kind


# --------------------------------------------------------------------- scenario checks
EXPECT_KEYS = ("to_move", "over", "hand", "hand_count", "stock_count", "discard_count", "trump",
               "attacker", "defender", "table", "out", "loser")


def _name(state: State, seat: int | None) -> str | None:
    return None if seat is None or seat < 0 else state.names[seat]


def _expect_per_player(state: State, value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError("expect_by_player", key=key)
    for name in value:
        if name not in state.names:
            raise ScenarioError("expect_not_player", key=key, name=name)
    return value


def check_expect(state: State, key: str, value: Any) -> str | None:
    """None when ``key`` holds, else what the game has (expect.shown)."""
    if key not in EXPECT_KEYS:
        raise ScenarioError("expect_key", key=key, game=NAME)
    if key == "to_move":
        got = _name(state, state.to_move)
        return None if got == value else shown(got)
    if key == "over":
        return None if state.over == value else shown(state.over)
    if key == "hand":
        hands = {}
        for name, cards in _expect_per_player(state, value, key).items():
            want = set(card_list(cards, key))
            have = set(_bits(state.hands[state.names.index(name)]))
            if want != have:
                hands[name] = [code(c) for c in sorted(have)]
        return shown(hands) if hands else None
    if key == "hand_count":
        counts = {name: state.hand_count(state.names.index(name))
                  for name, cnt in _expect_per_player(state, value, key).items()
                  if state.hand_count(state.names.index(name)) != cnt}
        return shown(counts) if counts else None
    if key == "stock_count":
        return None if len(state.stock) == value else shown(len(state.stock))
    if key == "discard_count":
        discarded = state.discard.bit_count()
        return None if discarded == value else shown(discarded)
    if key == "trump":
        suit = None if state.trump < 0 else SUITS[state.trump]
        want_suit = value.upper() if isinstance(value, str) else value
        return None if suit == want_suit else shown(suit)
    if key in ("attacker", "defender"):
        seat = state.attacker if key == "attacker" else state.defender
        who = _name(state, seat)
        return None if who == value else shown(who)
    if key == "table":
        want_cards = card_list(value, key)
        table = list(state.table)
        return None if table == want_cards else shown([code(c) for c in table])
    if key == "out":
        out = [state.names[s] for s in state.out]
        return None if out == value else shown(out)
    # loser
    loser = _name(state, state.loser)
    return None if loser == value else shown(loser)


# --------------------------------------------------------------------- results
def outcome(state: State) -> list[float]:
    """Per seat: 1.0 for the player who got Svarta Maja, else 0.0 (D-E2, no winners)."""
    return [1.0 if s == state.loser else 0.0 for s in range(state.n)]


def visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them: in Dam every event is public (refills name a
    count, never the cards drawn)."""
    return events


def deal_result(state: State) -> dict[str, Any]:
    """What a finished deal leaves for the series: who got Svarta Maja (None: nobody)."""
    if not state.over:
        raise ValueError("the deal is not over")
    return {"loser": None if state.loser < 0 else state.loser}


def match_standing(players: int, results: Iterable[Mapping[str, Any]]) -> Standing:
    """D-E3: a tally of lost deals; no points, so a session never ends by itself."""
    tally = [0] * players
    for r in results:
        if r.get("loser") is not None:
            tally[r["loser"]] += 1
    return Standing(tally, over=False)


def following_deal(options: Options, names: list[str], dealer: int, deal_number: int,
                   last: Mapping[str, Any], seed: int) -> State:
    """The following deal of a session: the deal passes to the left, hands start afresh."""
    return new_game(options, names, (dealer + 1) % len(names), seed, None)
