"""The strong bot: determinized Monte Carlo rollouts on top of the engine, for every game.

For each decision the bot

1. builds *determinizations*: complete positions that agree with everything its seat can
   see (``state.view(seat)`` plus public facts such as who attacks, which row positions a
   player has looked at, what has been played) and deals every card the seat cannot see at
   random into the places it cannot see (other hands, the stock, face-down row cards, its
   own secret card, the discard pile of Dam);
2. plays each candidate action in each determinization and finishes the deal with the
   heuristic bots of every seat (fast, reasonable play);
3. picks the action with the best average result for its seat (Dam: lowest chance of being
   left with the cards; Dam med dolda kort and Spardame: lowest own score, relative to the
   table average).

It never reads a hidden card: a determinization is built from the view and public fields
only, and the rest of the deck is shuffled with the bot's own random source.  The engine
rules are never re-implemented; the bot only calls ``legal_actions()``, ``apply()`` and
``state_from_json()``.

``StrongBot(seed).act(state, seat)`` has the same shape as the other bots; ``evaluate``
also returns every candidate's estimate (the hint in practice mode explains with it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .. import dam, dolda, spardame
from . import dam as dam_bots
from . import dolda as dolda_bots
from . import spardame as spardame_bots

# Per decision: wall-clock budget and hard caps.  With the engine's speed (about a
# millisecond for a whole heuristic deal) this gives a few dozen rollouts per decision.
TIME_BUDGET_S = 0.07
MAX_ROLLOUTS = 400
MAX_CANDIDATES = 8
ROLLOUT_MOVE_CAP = 600  # Dam has no move limit; a rollout that runs this long is a draw
MIN_SAMPLES = 4  # rollouts per candidate before the heuristic's move can be overruled


def _game_of(state: Any) -> str:
    if isinstance(state, dam.State):
        return "dam"
    if isinstance(state, dolda.State):
        return "dolda"
    return "spardame"


_MODULES = {"dam": dam, "dolda": dolda, "spardame": spardame}
class Bot(Protocol):
    """What every bot class here and in the game bot modules makes: ``Bot(seed).act(...)``."""

    def act(self, state: Any, seat: int) -> Any: ...


_HEURISTIC: dict[str, Callable[[int], Bot]] = {
    "dam": dam_bots.HeuristicBot, "dolda": dolda_bots.HeuristicBot,
    "spardame": spardame_bots.HeuristicBot}


# --------------------------------------------------------------------------- determinizing
def _deal_unknown(rng: random.Random, unknown: list[int], sizes: list[int]) -> list[list[int]]:
    rng.shuffle(unknown)
    out, pos = [], 0
    for k in sizes:
        out.append(unknown[pos:pos + k])
        pos += k
    return out


def determinize_dam(state: dam.State, seat: int, rng: random.Random) -> dam.State:
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
    sizes = [0 if s == seat else counts[s] for s in range(n)] + [stock_n]
    parts = _deal_unknown(rng, unknown, sizes)
    hands = [list(v["hand"]) if s == seat else parts[s] for s in range(n)]
    stock_top_first = parts[n] + ([turned] if turned_in_stock else [])
    discard = unknown[sum(sizes):]  # _deal_unknown shuffled ``unknown`` in place
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
        # The bot's own random source, never the deal's seed (that would predict the stock).
        "seed": rng.getrandbits(32), "draws": 0,
    }
    return dam.state_from_json(data)


def determinize_dolda(state: dolda.State, seat: int, rng: random.Random) -> dolda.State:
    v = state.view(seat)
    rows = v["rows"]
    seen: set[int] = {c for row in rows for c in row if c is not None}
    seen |= set(v["discard_pile"])
    secret = v["secret"]
    if secret is not None:
        seen |= {c for c in secret if c is not None}
    held = v["held"]
    if held is not None:
        seen.add(held)
    holder = v["holder"]
    unknown = [c for c in range(52) if c not in seen]
    rng.shuffle(unknown)
    it = iter(unknown)
    new_rows = [[c if c is not None else next(it) for c in row] for row in rows]
    new_secret = None
    if secret is not None:
        new_secret = [c if c is not None else next(it) for c in secret]
    new_held = -1
    if holder is not None:
        new_held = held if held is not None else next(it)
    stock = [next(it) for _ in range(v["stock_count"])]
    # Public facts of the position (who holds, which row positions each player has looked at,
    # the turn counter, the jack order once rows are face up), taken with the cards replaced.
    data = state.to_json()
    data.update({
        "rows": new_rows, "secret": new_secret, "stock": stock,
        "discard": list(v["discard_pile"]), "held": new_held, "seed": rng.getrandbits(32),
    })
    if state.phase not in (dolda.SHIELDS, dolda.THIEVES):
        data["order"] = []
    return dolda.state_from_json(data)


def determinize_spardame(state: spardame.State, seat: int, rng: random.Random
                         ) -> spardame.State:
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
    parts = _deal_unknown(rng, unknown, [sizes[s] + aside[s] for s in range(n)])
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
    data = state.to_json()
    data.update({"hands": hands, "chosen": chosen, "seed": rng.getrandbits(32)})
    if exchanged:
        data["chosen"] = [None] * n
        data["received"] = [None] * n
    return spardame.state_from_json(data)


DETERMINIZE: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "dam": determinize_dam, "dolda": determinize_dolda, "spardame": determinize_spardame}


# --------------------------------------------------------------------------- evaluating
def _result(game: str, state: Any, seat: int) -> float:
    """Lower is better for ``seat``."""
    if game == "dam":
        if state.loser == seat:
            return 1.0
        # A small tie-break among the deals not lost: going out early is safer (D-N2).
        out = list(state.out)
        return 0.05 * out.index(seat) / len(state.names) if seat in out else 0.0
    if game == "dolda":
        scores = state.scores
    else:
        scores = state.result["deal_scores"]
    mean = sum(scores) / len(scores)
    return float(scores[seat] - mean)


def _rollout(game: str, state: Any, seat: int, rng: random.Random) -> float:
    bots = [_HEURISTIC[game](rng.getrandbits(32)) for _ in range(len(state.names))]
    moves = 0
    while not state.over:
        if moves >= ROLLOUT_MOVE_CAP:
            return 0.5 if game == "dam" else 0.0
        who = state.to_move
        state, _ = state.apply(bots[who].act(state, who))
        moves += 1
    return _result(game, state, seat)


def _candidates(game: str, state: Any, seat: int, acts: Sequence[Any], rng: random.Random,
                first: Any = None) -> list[Any]:
    """The actions worth simulating: all of them when few, else a spread that always holds
    the heuristic bot's choice (Dam attacks can have hundreds of same-suit subsets)."""
    # The heuristic bot's choice comes first, so ties (a stable sort) keep the sensible move.
    if first is None:
        first = _HEURISTIC[game](rng.getrandbits(32)).act(state, seat)
    picked = [first]
    if len(acts) <= MAX_CANDIDATES:
        return picked + [a for a in acts if a != picked[0]]
    if game == "dam":
        # Singles and whole-suit attacks first, then random others.
        singles = [a for a in acts if a[0] in ("attack", "add") and len(a[2]) == 1]
        others = [a for a in acts if a not in singles]
        pool = singles + rng.sample(others, min(len(others), MAX_CANDIDATES))
    else:
        pool = list(acts)
        rng.shuffle(pool)
    for a in pool:
        if len(picked) >= MAX_CANDIDATES:
            break
        if a not in picked:
            picked.append(a)
    return picked


def evaluate(state: Any, seat: int, rng: random.Random, budget_s: float | None = None,
             first: Any = None) -> list[tuple[Any, float, int]]:
    """``[(action, mean result, rollouts)]`` best first (lower result is better)."""
    if budget_s is None:
        budget_s = TIME_BUDGET_S
    game = _game_of(state)
    acts = list(state.legal_actions())
    if game == "spardame" and state.phase == spardame.PASS:
        # 286 ways to pass: the heuristic choice only (rollouts would be too thin).
        if first is None:
            first = _HEURISTIC[game](rng.getrandbits(32)).act(state, seat)
        return [(first, 0.0, 0)]
    if len(acts) == 1:
        return [(acts[0], 0.0, 0)]
    cands = _candidates(game, state, seat, acts, rng, first)
    k = len(cands)
    totals = [0.0] * k
    counts = [0] * k
    # Paired differences against the heuristic's move (candidate 0): every candidate of a
    # round is played in the same world with the same random numbers for the rollout, so the
    # luck of the deal cancels out of the comparison.
    diff_sum = [0.0] * k
    diff_sq = [0.0] * k
    start = time.perf_counter()
    det = DETERMINIZE[game]
    done = 0
    out_of_time = False
    while done < MAX_ROLLOUTS and not out_of_time:
        world = det(state, seat, rng)
        rollout_seed = rng.getrandbits(32)
        base = 0.0
        for i, a in enumerate(cands):
            after, _ = world.apply(a)
            r = (_result(game, after, seat) if after.over
                 else _rollout(game, after, seat, random.Random(rollout_seed)))
            totals[i] += r
            counts[i] += 1
            if i == 0:
                base = r
            else:
                d = r - base
                diff_sum[i] += d
                diff_sq[i] += d * d
            done += 1
            # Every candidate gets at least one rollout; after that the clock may stop a
            # round half way (a busy machine must not push a decision far past the budget).
            if done >= k and time.perf_counter() - start > budget_s:
                out_of_time = True
                break
    means = [totals[i] / counts[i] for i in range(k)]
    # The heuristic's move stays unless another is better by more than the noise: 1.5
    # standard errors of the paired difference, with at least MIN_SAMPLES rollouts.
    adjusted = [0.0] * k
    for i in range(1, k):
        n = counts[i]
        if n < MIN_SAMPLES:
            adjusted[i] = float("inf")
            continue
        mean_d = diff_sum[i] / n
        var_d = max(diff_sq[i] / n - mean_d ** 2, 0.0) / (n - 1)
        adjusted[i] = mean_d + 1.5 * var_d ** 0.5
    def rank(i: int) -> tuple[int, float]:
        if i == 0:
            return (1, 0.0)
        return (0, adjusted[i]) if adjusted[i] < 0 else (2, means[i])

    order = sorted(range(k), key=rank)
    return [(cands[i], means[i], counts[i]) for i in order]


class StrongBot:
    """Determinized Monte Carlo: see the module docstring."""

    def __init__(self, seed: int, budget_s: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget_s = budget_s
        # The heuristic bot whose move is the baseline keeps its memory between decisions
        # (the Dam one counts the trumps it has seen go) when the same StrongBot plays on.
        self._base: dict[str, Any] = {}

    def act(self, state: Any, seat: int) -> Any:
        game = _game_of(state)
        base = self._base.get(game)
        if base is None:
            base = self._base[game] = _HEURISTIC[game](self.rng.getrandbits(32))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        first = base.act(state, seat)
        return evaluate(state, seat, self.rng, self.budget_s, first)[0][0]


BOTS = {"strong": StrongBot}
