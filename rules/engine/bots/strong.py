"""The strong bot: determinized Monte Carlo rollouts on top of the engine, for every game.

For each decision the bot

1. builds *determinizations*: complete positions that agree with everything its seat can
   see, with every card the seat cannot see dealt at random (the game's ``resample``);
2. plays each candidate action in each determinization and finishes the deal with the game's
   bots: the heuristic for the other seats, the game's policy for its own (fast, reasonable
   play; in Dam med dolda kort the policy is a sharper one);
3. picks the action with the best average value for its seat (the game's ``value``; Dam: the
   chance of being left with the cards; Dam med dolda kort and Spardame: its own score
   relative to the table average).

What differs by game (those pieces and the numbers of the search: playouts, horizon, ...) is
the game's ``Search``, found from ``state.game`` (bots/search.py); this module calls nothing
else of a game but the state protocol (games.GameState).  It never reads a hidden card: a
determinization is built from the view and public facts only, with the bot's own random
source.

``StrongBot(seed).act(state, seat)`` has the same shape as the other bots; ``evaluate``
also returns every candidate's estimate.  The practice coach (hints and reviews) ranks moves
with bots/coach.py, which reuses the playouts and candidates here and stops early.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from .search import Policy, Search, search_for

# Candidates tried at most; a wider choice is cut down by the game's ``spread``.
MAX_CANDIDATES = 8
# No playout runs longer than this: it is cut and valued by the game's ``cut_value`` (a Dam
# deal has no move limit).
ROLLOUT_MOVE_CAP = 600


# --------------------------------------------------------------------------- evaluating
def _finish(search: Search[Any, Any], state: Any, seat: int, seed: int) -> float:
    """Play ``state`` (changed in place) with the game's bots, the searching seat with its
    policy, to the end or to the game's horizon (then valued as it stands)."""
    rng = random.Random(seed)
    make, own = search.heuristic, search.policy
    # One generator for the whole playout, shared by its bots (bots/search.py, Seed).
    bots = [(own if s == seat else make)(rng) for s in range(len(state.names))]
    moves = 0
    cap = search.params.horizon
    now = search.value_now
    while not state.over:
        if cap is not None and moves >= cap and now is not None:
            return now(state, seat)
        if moves >= ROLLOUT_MOVE_CAP:
            return search.params.cut_value
        who = state.to_move
        state.apply_in_place(bots[who].act(state, who))
        moves += 1
    return search.value(state, seat)


def playout(search: Search[Any, Any], world: Any, action: Any, seat: int, seed: int) -> float:
    after = world.clone()
    after.apply_in_place(action)
    return search.value(after, seat) if after.over else _finish(search, after, seat, seed)


def _candidates(search: Search[Any, Any], state: Any, seat: int, acts: Sequence[Any],
                rng: random.Random, first: Any = None) -> list[Any]:
    """The actions worth simulating: all of them when few, else the policy's choice and the
    first others of the game's ``spread``."""
    # The policy's choice comes first, so ties (a stable sort) keep the sensible move.
    if first is None:
        first = search.policy(rng.getrandbits(32)).act(state, seat)
    picked = [first]
    if len(acts) <= MAX_CANDIDATES:
        return picked + [a for a in acts if a != first]
    for a in search.spread(acts, rng, MAX_CANDIDATES):
        if len(picked) >= MAX_CANDIDATES:
            break
        if a not in picked:
            picked.append(a)
    return picked


class Estimate(NamedTuple):
    """One candidate's estimate: its mean result for the seat (lower is better), the playouts
    it rests on, and the paired difference to the best candidate with its standard error
    (over the simulated deals both were played in; 0 for the best itself)."""

    action: Any
    mean: float
    playouts: int
    behind: float
    behind_se: float


def evaluate(state: Any, seat: int, rng: random.Random, playouts: int | None = None,
             first: Any = None, keep: Any = None) -> list[Estimate]:
    """Every candidate's estimate, best first, from a fixed number of playouts.

    Sequential halving: the playouts are spread over ceil(log2 k) rounds; each round deals new
    simulated deals (determinizations) and plays every surviving candidate in each of them
    with the same random numbers for the rest of the deal, then the worse half drops out.  So
    every candidate has played a prefix of the same sequence of deals, and any two compare
    pairwise over the deals they share (the luck of the deal cancels out).  ``keep`` (the
    post-game review's actual move) never drops out.  No clock is read: the same ``rng``
    state gives the same answer on any machine.
    """
    search = search_for(state)
    if playouts is None:
        playouts = search.params.playouts
    if search.baseline_only(state):
        # Too many choices to search (the game says which): the policy's and the move under
        # review only.
        if first is None:
            first = search.policy(rng.getrandbits(32)).act(state, seat)
        cands = [first] + ([keep] if keep is not None and keep != first else [])
    else:
        acts = list(state.legal_actions())
        if len(acts) == 1:
            return [Estimate(acts[0], 0.0, 0, 0.0, 0.0)]
        cands = _candidates(search, state, seat, acts, rng, first)
        if keep is not None and keep not in cands:
            cands.append(keep)
    k = len(cands)
    if k == 1:
        return [Estimate(cands[0], 0.0, 0, 0.0, 0.0)]
    results: list[list[float]] = [[] for _ in range(k)]
    protected = {cands.index(keep)} if keep is not None else set()
    alive = list(range(k))
    rounds = max(1, math.ceil(math.log2(k)))
    resample = search.resample

    def mean(i: int) -> float:
        r = results[i]
        return sum(r) / len(r) if r else float("inf")

    for r in range(rounds):
        per = max(1, playouts // (len(alive) * rounds))
        for _ in range(per):
            world = resample(state, seat, rng)
            seed = rng.getrandbits(32)
            for i in alive:
                results[i].append(playout(search, world, cands[i], seat, seed))
        if r < rounds - 1 and len(alive) > 2:
            alive.sort(key=lambda i: (mean(i), i))
            kept = alive[:math.ceil(len(alive) / 2)]
            alive = kept + [i for i in alive if i in protected and i not in kept]
    # The survivors (most playouts) first, best mean first; ties keep the policy's move.
    survivors = set(alive)
    order = sorted(range(k), key=lambda i: (i not in survivors, mean(i), i))
    best = results[order[0]]
    out = []
    for i in order:
        n = min(len(results[i]), len(best))
        diffs = [results[i][j] - best[j] for j in range(n)]
        d = sum(diffs) / n
        var = sum([(x - d) ** 2 for x in diffs]) / (n - 1) if n > 1 else 0.0
        out.append(Estimate(cands[i], mean(i), len(results[i]), d, (var / n) ** 0.5))
    return out


class StrongBot:
    """Determinized Monte Carlo with a fixed number of playouts: see the module docstring."""

    def __init__(self, seed: int, playouts: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        # The game's policy, whose move is the baseline, keeps its memory between decisions
        # (the Dam one counts the trumps it has seen go) when the same StrongBot plays on.
        self._base: dict[str, Policy[Any, Any]] = {}

    def act(self, state: Any, seat: int) -> Any:
        search = search_for(state)
        base = self._base.get(state.game)
        if base is None:
            base = self._base[state.game] = search.policy(self.rng.getrandbits(32))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        decide = getattr(base, "decide", None)
        if decide is not None:
            # A policy that says how clear its choice is (Dam med dolda kort: expected
            # points): a clear choice is played at once, the search goes to the close ones.
            first, margin = decide(state, seat)
            if margin > search.params.clear:
                return first
        else:
            first = base.act(state, seat)
        ranked = evaluate(state, seat, self.rng, self.playouts, first)
        best = ranked[0]
        z = search.params.overrule_z
        if z and best.action != first:
            # The policy's move stays unless the search finds another clearly better
            # (its paired difference more than z standard errors).
            base_est = next((e for e in ranked if e.action == first), None)
            if base_est is not None and base_est.behind <= z * base_est.behind_se:
                return first
        return best.action


BOTS = {"strong": StrongBot}
