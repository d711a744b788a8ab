"""The coach's reasons are true of the move they are shown for (games/coach_reasons).

Over thousands of random reachable positions per game (random deals under every preset,
played on with random legal moves, seeded), the reason chosen for a move (random legal moves
on many positions, the strong bot's choice on a few) is checked with a claim check of its
own: written from the whole position (the engine's state: every hand, the stock, the legal
moves), not by calling the reason's predicate again.  So a predicate that reads the view
wrongly, or a sentence that claims more than its predicate checks, shows up as a
contradiction.  The sentence shown must be the chosen reason's, and it may name only cards
the seat can see."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import translation

from games.adapters import adapter
from games.cardnames import CARD_NAMES
from games.coach_reasons import dam as coach_dam
from games.coach_reasons import dolda as coach_dolda
from games.coach_reasons import no_rule
from games.coach_reasons import spardame as coach_spardame
from rules.engine import cards as C
from rules.engine.bots import dolda as dolda_bots
from rules.engine.bots import strong
from rules.engine.errors import ScenarioError
from rules.engine.options import option_choices

QS = C.QUEEN_OF_SPADES
NAMES = {2: ["Me", "Anna"], 3: ["Me", "Anna", "Bo"], 4: ["Me", "Anna", "Bo", "Cilla"],
         5: ["Me", "Anna", "Bo", "Cilla", "Dag"], 6: ["Me", "Anna", "Bo", "Cilla", "Dag", "Eva"]}
POSITIONS = 2500  # per game
STRONG = 12  # positions per game whose move is the strong bot's


def positions(game: str, count: int, seed: int) -> Iterator[Any]:
    """``count`` positions with a seat to move, from random deals under random presets and
    player counts, each reached by random legal moves (every few moves one is kept)."""
    module = adapter(game).engine
    rng = random.Random(seed)
    lo, hi = 2, 6
    made = 0
    while made < count:
        values = dict(module.PRESETS[rng.choice(sorted(module.PRESETS))])
        for name, choices in option_choices(module.Options).items():
            if rng.random() < 0.25:  # house rules beyond the presets (Dam's extra attack)
                values[name] = rng.choice(choices)
        try:
            options = module.Options(**values)
            a, b = module.player_range(options)
            n = rng.randint(max(lo, a), min(hi, b))
            state = module.new_game(options, NAMES[n], n - 1, rng.getrandbits(32), None)
        except (ValueError, ScenarioError):  # a combination the rules do not allow
            continue
        moves = 0
        while not state.over and made < count and moves < 400:
            acts = list(state.legal_actions())
            if rng.random() < 0.3:
                yield state
                made += 1
            state.apply_in_place(acts[rng.randrange(len(acts))])
            moves += 1


# --------------------------------------------------------------------------- claim checks
def _legal(state: Any) -> list[Any]:
    return list(state.legal_actions())


def _dam_hand(state: Any, seat: int) -> list[int]:
    return [c for c in range(52) if state.hands[seat] >> c & 1]


def _dam_trump(state: Any, card: int) -> bool:
    return state.trump >= 0 and card // 13 == state.trump


def _dam_beats_of(state: Any, target: int) -> list[int]:
    return [a[3] for a in _legal(state) if a[0] == "beat" and a[2] == target]


def _dam_lowest_beat(state: Any, seat: int, action: Any) -> bool:
    target, card = action[2], action[3]
    same = [c for c in _dam_beats_of(state, target) if c // 13 == target // 13]
    return card // 13 == target // 13 and card == min(same)


def _dam_single_attacks(state: Any) -> list[int]:
    return [a[2][0] for a in _legal(state) if a[0] == "attack" and len(a[2]) == 1]


DAM: dict[str, Callable[[Any, int, Any], bool]] = {
    "maja_with_spades": lambda s, seat, a: QS in a[2] and len(a[2]) > 1
    and all(c // 13 == C.SPADES for c in a[2]),
    "maja_alone": lambda s, seat, a: tuple(a[2]) == (QS,),
    "only_trumps_lowest": lambda s, seat, a: all(
        _dam_trump(s, c) for c in _dam_single_attacks(s))
    and a[2][0] == min(_dam_single_attacks(s), key=C.rank_of),
    "lowest_attack": lambda s, seat, a: len(a[2]) == 1 and not _dam_trump(s, a[2][0])
    and all(C.rank_of(c) >= C.rank_of(a[2][0])
            for c in _dam_single_attacks(s) if not _dam_trump(s, c)),
    "lowest_of_suit": lambda s, seat, a: len(a[2]) == 1 and not _dam_trump(s, a[2][0])
    and a[2][0] != QS
    and a[2][0] == min(c for c in _dam_single_attacks(s) if c // 13 == a[2][0] // 13 and c != QS)
    and any(c // 13 == a[2][0] // 13 and c > a[2][0] and c != QS for c in _dam_hand(s, seat)),
    "several": lambda s, seat, a: a[0] == "attack" and len(a[2]) >= 2,
    "adds": lambda s, seat, a: a[0] == "add",
    "done_nothing": lambda s, seat, a: a[0] == "done"
    and not any(c // 13 == s.attack_suit for c in _dam_hand(s, seat)),
    "done_trumps": lambda s, seat, a: a[0] == "done" and s.attack_suit == s.trump
    and len(s.stock) > 0 and any(c // 13 == s.attack_suit for c in _dam_hand(s, seat)),
    "done_keep": lambda s, seat, a: a[0] == "done"
    and any(c // 13 == s.attack_suit for c in _dam_hand(s, seat)),
    "slap": lambda s, seat, a: a[0] == "slap",
    "announce": lambda s, seat, a: a[0] == "announce",
    "beat_low_keep_trumps": lambda s, seat, a: _dam_lowest_beat(s, seat, a)
    and not _dam_trump(s, a[3]) and len(s.stock) > 0
    and any(_dam_trump(s, c) for c in _dam_hand(s, seat)),
    "beat_low": _dam_lowest_beat,
    "trump_endgame": lambda s, seat, a: not s.stock and _dam_trump(s, a[3])
    and not _dam_trump(s, a[2]),
    "lowest_trump_no_suit": lambda s, seat, a: _dam_trump(s, a[3]) and not _dam_trump(s, a[2])
    and not any(c // 13 == a[2] // 13 for c in _dam_beats_of(s, a[2]))
    and a[3] == min(c for c in _dam_hand(s, seat) if _dam_trump(s, c)),
    "trump_no_suit": lambda s, seat, a: _dam_trump(s, a[3]) and not _dam_trump(s, a[2])
    and not any(c // 13 == a[2] // 13 for c in _dam_beats_of(s, a[2])),
    "take_nothing_beats": lambda s, seat, a: a[0] == "take"
    and not any(x[0] == "beat" for x in _legal(s)),
    "take_keep_trumps": lambda s, seat, a: a[0] == "take" and len(s.stock) > 0
    and any(x[0] == "beat" for x in _legal(s))
    and all(_dam_trump(s, x[3]) for x in _legal(s) if x[0] == "beat"),
}


def _dolda_values(state: Any) -> tuple[int, ...]:
    return dolda_bots.row_values(state.view(state.to_move)["options"])


def _dolda_unseen_average(state: Any, seat: int) -> float:
    """From the state's knowledge masks: the cards ``seat`` cannot place or has not seen."""
    seen = set(state.discard)
    for row, masks in zip(state.rows, state.seen):
        seen.update(c for c, m in zip(row, masks) if m >> seat & 1)
    if state.secret is not None:
        seen.update(c for o, c in enumerate(state.secret) if o != seat)
    if state.held >= 0 and state.held_known >> seat & 1:
        seen.add(state.held)
    values = _dolda_values(state)
    unseen = [values[c] for c in range(52) if c not in seen]
    return sum(unseen) / len(unseen) if unseen else 6.0


def _dolda_next_known(state: Any, seat: int) -> bool:
    return bool(state.seen[seat][state.pos] >> seat & 1)


def _dolda_steal_values(state: Any, action: Any) -> tuple[int, int, list[Any]]:
    values = _dolda_values(state)
    steals = [x for x in _legal(state) if x.kind == "steal"]
    n, m = action.positions
    return values[state.rows[action.seat][n]], values[state.rows[action.victim][m]], steals


def _dolda_steals_lowest(state: Any, seat: int, a: Any) -> bool:
    values = _dolda_values(state)
    _given, taken, steals = _dolda_steal_values(state, a)
    return all(values[state.rows[x.victim][x.positions[1]]] >= taken for x in steals)


def _dolda_gives_highest(state: Any, seat: int, a: Any) -> bool:
    values = _dolda_values(state)
    given, _taken, steals = _dolda_steal_values(state, a)
    return all(values[state.rows[seat][x.positions[0]]] <= given for x in steals)


def _dolda_shield_lowest(state: Any, seat: int, a: Any) -> bool:
    values = _dolda_values(state)
    row = state.rows[seat]
    covered = {row[p] for p in a.positions}
    # Every card a legal shield could cover is the jack's other row cards.
    coverable = {row[p] for x in _legal(state) for p in x.positions}
    return all(values[c] >= max(values[d] for d in covered) for c in coverable - covered)


DOLDA: dict[str, Callable[[Any, int, Any], bool]] = {
    "stock_only": lambda s, seat, a: a.source == "stock" and not s.discard,
    "take_discard": lambda s, seat, a: a.source == "discard"
    and _dolda_values(s)[s.discard[-1]] < _dolda_unseen_average(s, seat),
    "leave_discard": lambda s, seat, a: a.source == "stock" and bool(s.discard)
    and _dolda_values(s)[s.discard[-1]] > _dolda_unseen_average(s, seat),
    "crosswise": lambda s, seat, a: a.kind == "discard" and _legal(s) == [a],
    "swap_known": lambda s, seat, a: a.kind == "swap" and _dolda_next_known(s, seat)
    and _dolda_values(s)[s.held] < _dolda_values(s)[s.rows[seat][s.pos]],
    "discard_known": lambda s, seat, a: a.kind == "discard" and _dolda_next_known(s, seat)
    and _dolda_values(s)[s.rows[seat][s.pos]] <= _dolda_values(s)[s.held],
    "swap_unknown": lambda s, seat, a: a.kind == "swap" and not _dolda_next_known(s, seat)
    and _dolda_values(s)[s.held] < _dolda_unseen_average(s, seat),
    "discard_unknown": lambda s, seat, a: a.kind == "discard" and len(_legal(s)) == 2
    and not _dolda_next_known(s, seat)
    and _dolda_values(s)[s.held] > _dolda_unseen_average(s, seat),
    "shield_lowest": _dolda_shield_lowest,
    "steal_best": lambda s, seat, a: _dolda_steals_lowest(s, seat, a)
    and _dolda_gives_highest(s, seat, a),
    "steals_lowest": _dolda_steals_lowest,
    "gives_highest": _dolda_gives_highest,
}


def _sp_others(state: Any, seat: int) -> set[int]:
    """Every card another player really holds."""
    return {c for s in range(len(state.names)) if s != seat for c in state.hand(s)}


def _sp_kept(state: Any, seat: int, a: Any) -> list[int]:
    return [c for c in state.hand(seat) if c not in a[2:]]


def _sp_low_spades(state: Any, seat: int, a: Any) -> int:
    return sum(1 for c in _sp_kept(state, seat, a) if c // 13 == C.SPADES and c < QS)


def _sp_shooter(state: Any, seat: int) -> bool:
    takers = [i for i, p in enumerate(state.taken) if p > 0]
    return len(takers) == 1 and takers[0] != seat


def _sp_best(state: Any) -> int:
    led = state.trick[0] // 13
    return max(c for c in state.trick if c // 13 == led)


def _sp_nobody_higher(state: Any, seat: int, card: int) -> bool:
    return not any(c // 13 == card // 13 and c > card for c in _sp_others(state, seat))


def _sp_mine(state: Any, seat: int, suit: int) -> list[int]:
    return sorted(c for c in state.hand(seat) if c // 13 == suit)


def _sp_points(cards: Any) -> bool:
    return any(c // 13 == C.HEARTS or c == QS for c in cards)


SPARDAME: dict[str, Callable[[Any, int, Any], bool]] = {
    "pass_queen_unguarded": lambda s, seat, a: QS in a[2:] and _sp_low_spades(s, seat, a) == 0,
    "pass_queen_few": lambda s, seat, a: QS in a[2:] and 0 < _sp_low_spades(s, seat, a) < 4,
    "keep_hearts_for_moon": lambda s, seat, a: not any(c // 13 == C.HEARTS for c in a[2:])
    and {C.make(r, C.HEARTS) for r in (12, 13, 14)} <= set(s.hand(seat))
    and len(_sp_mine(s, seat, C.HEARTS)) >= 6,
    "pass_high_spades": lambda s, seat, a: any(c in a[2:] for c in (QS + 1, QS + 2))
    and QS not in _sp_kept(s, seat, a),
    "empties_suit": lambda s, seat, a: any(
        _sp_mine(s, seat, suit) and set(_sp_mine(s, seat, suit)) <= set(a[2:])
        for suit in range(4)),
    "pass_highest": lambda s, seat, a: max(C.rank_of(c) for c in _sp_kept(s, seat, a))
    <= min(C.rank_of(c) for c in a[2:]),
    "keep_queen_guarded": lambda s, seat, a: QS in _sp_kept(s, seat, a)
    and _sp_low_spades(s, seat, a) >= 4,
    "first_lead": lambda s, seat, a: not s.history and not s.trick,
    "lead_to_stop_moon": lambda s, seat, a: not s.trick and _sp_shooter(s, seat)
    and _sp_nobody_higher(s, seat, a[2]),
    "lead_low_spade": lambda s, seat, a: not s.trick and a[2] // 13 == C.SPADES and a[2] < QS
    and QS in _sp_others(s, seat),
    "lead_sure_loser": lambda s, seat, a: not s.trick and bool(
        [c for c in _sp_others(s, seat) if c // 13 == a[2] // 13])
    and all(c > a[2] for c in _sp_others(s, seat) if c // 13 == a[2] // 13),
    "lead_lowest": lambda s, seat, a: not s.trick and a[2] == _sp_mine(s, seat, a[2] // 13)[0]
    and not _sp_nobody_higher(s, seat, a[2]),
    "take_to_stop_moon": lambda s, seat, a: bool(s.trick) and _sp_shooter(s, seat)
    and a[2] > _sp_best(s) and a[2] // 13 == s.trick[0] // 13
    and (len(s.trick) == len(s.names) - 1 or _sp_nobody_higher(s, seat, a[2]))
    and _sp_points([*s.trick, a[2]]),
    "duck_highest": lambda s, seat, a: bool(s.trick) and a[2] < _sp_best(s)
    and a[2] // 13 == s.trick[0] // 13
    and not any(a[2] < c < _sp_best(s) for c in s.hand(seat)),
    "duck": lambda s, seat, a: bool(s.trick) and a[2] // 13 == s.trick[0] // 13
    and a[2] < _sp_best(s),
    "last_high_no_points": lambda s, seat, a: len(s.trick) == len(s.names) - 1
    and a[2] > _sp_best(s) and not _sp_points([*s.trick, a[2]])
    and a[2] == _sp_mine(s, seat, a[2] // 13)[-1],
    "cannot_duck": lambda s, seat, a: bool(s.trick) and a[2] // 13 == s.trick[0] // 13
    and all(c > _sp_best(s) for c in _sp_mine(s, seat, a[2] // 13)),
    "shed_queen": lambda s, seat, a: a[2] == QS and bool(s.trick)
    and not _sp_mine(s, seat, s.trick[0] // 13),
    "shed_highest_heart": lambda s, seat, a: bool(s.trick)
    and not _sp_mine(s, seat, s.trick[0] // 13) and a[2] == _sp_mine(s, seat, C.HEARTS)[-1],
    "keep_hearts_closed": lambda s, seat, a: bool(s.trick) and not s.broken
    and bool(s.history) and a[2] // 13 != C.HEARTS and a[2] != QS
    and bool(_sp_mine(s, seat, C.HEARTS)) and not _sp_mine(s, seat, s.trick[0] // 13),
    "shed_highest": lambda s, seat, a: bool(s.trick) and not _sp_mine(s, seat, s.trick[0] // 13)
    and all(C.rank_of(c) <= C.rank_of(a[2]) for c in s.hand(seat)),
    "shed_highest_of_suit": lambda s, seat, a: bool(s.trick)
    and not _sp_mine(s, seat, s.trick[0] // 13) and a[2] == _sp_mine(s, seat, a[2] // 13)[-1],
}

CHECKS = {"dam": DAM, "dolda": DOLDA, "spardame": SPARDAME}
LISTS = {"dam": coach_dam.REASONS, "dolda": coach_dolda.REASONS,
         "spardame": coach_spardame.REASONS}


def test_every_reason_has_a_claim_check():
    for game, reasons in LISTS.items():
        assert [r.name for r in reasons] == list(CHECKS[game]), game


# --------------------------------------------------------------------------- what the seat sees
def _seen_cards(game: str, view: dict[str, Any]) -> set[int]:
    if game == "dam":
        return ({*view["hand"], *view["table"], *(c for p in view["beaten"] for c in p)}
                | ({view["turned"]} if view["turned"] is not None else set()))
    if game == "dolda":
        return ({c for row in view["rows"] for c in row if c is not None}
                | {c for c in view["secret"] or () if c is not None}
                | {*view["discard_pile"]} | ({view["held"]} if view["held"] is not None
                                               else set()))
    return {*view["hand"], *view["played"], *view["trick"], *(view["passed"] or ()),
            *(view["received"] or ())}


def _named_cards(text: str, names: list[tuple[str, int]]) -> set[int]:
    """The cards an English sentence names (``names``: the English card names)."""
    return {c for name, c in names if name in text}


def _check(game: str, state: Any, action: Any, tally: Counter[str],
           names: list[tuple[str, int]]) -> list[str]:
    """The contradictions of the reason shown for ``action``: none when its claim holds."""
    a = adapter(game)
    seat = state.to_move
    view = state.view(seat)
    chosen = a.chosen_reason(view, action)
    text = a.reason(view, action, NAMES[len(state.names)])
    tally[chosen.name if chosen else "(no rule)"] += 1
    problems = []
    if chosen is None:
        if text != no_rule():
            problems.append(f"no reason holds, yet the text is {text!r}")
        return problems
    if text != chosen.say(view, action, a, NAMES[len(state.names)]):
        problems.append(f"{chosen.name}: the text shown is not the reason's")
    if not CHECKS[game][chosen.name](state, seat, action):
        problems.append(f"{chosen.name} is false of {action!r} in {state!r}: {text}")
    hidden = _named_cards(text, names) - _seen_cards(game, view)
    if hidden:
        problems.append(f"{chosen.name} names cards the seat cannot see: {hidden}")
    return problems


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_the_reason_shown_is_true_of_the_move_in_thousands_of_random_positions(game):
    rng = random.Random(3200 + len(game))
    tally: Counter[str] = Counter()
    problems: list[str] = []
    checked = 0
    with translation.override("en"):
        names = [(str(CARD_NAMES[c]), c) for c in range(52)]
        for i, state in enumerate(positions(game, POSITIONS, seed=32 + len(game))):
            acts = list(state.legal_actions())
            picks = [acts[rng.randrange(len(acts))] for _ in range(2)]
            if i % (POSITIONS // STRONG) == 0:
                ranked = strong.evaluate(state, state.to_move, random.Random(i), 24)
                picks.append(ranked[0].action)
            for action in picks:
                problems += _check(game, state, action, tally, names)
                checked += 1
    assert checked >= 2 * POSITIONS
    assert problems == [], f"{len(problems)} contradictions in {checked} moves: {problems[:5]}"
    # The random positions reach most of the reasons (not a test that cannot fail: a reason
    # never chosen would go unchecked).
    never = [r.name for r in LISTS[game] if not tally[r.name]]
    assert len(never) <= len(LISTS[game]) // 4, (never, tally)
