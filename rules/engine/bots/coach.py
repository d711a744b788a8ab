"""The coach's one analysis of a decision: what a hint shows and the post-game review judges.

``analyse(state, seat, seed, cap)`` ranks the candidate moves of ``seat`` (the strong bot's
candidates, bots/strong.py) by simulated play, like ``strong.evaluate``, with two differences:

- it spends work only where it decides something (racing with confidence bounds): it plays
  the surviving candidates in batches of new determinizations, every candidate of a batch in
  the same simulated deals with the same random numbers, and after each batch drops every
  candidate whose paired difference to the leader lies more than ``ELIMINATE_Z`` standard
  errors above zero; it stops when one candidate is left, when every one left is within
  ``tie`` of the leader (the difference and its uncertainty together; ``analyse`` settles at
  ``SETTLE`` of the game's floor: nothing left that a review could call a mistake, and little
  left for a hint to choose), or when ``cap`` playouts are spent;
- a choice the game's policy calls clear (its ``decide`` margin above the search's ``clear``,
  as the strong bot plays it: Dam med dolda kort) is not searched at all;
- moves that are the same move in effect (the game's ``groups``: two Spardame cards with no
  card between them left in another hand or on the table; two Dam beats of one attack card
  with the six or the seven of hearts, nothing between them) are played once, as one
  candidate; the others of its group follow the ranking with its estimate, so a review finds
  them.

Everything comes from ``seed``: without a ``budget`` no clock is read, so the same decision
analysed twice gives the same ranking on any machine (the tests, the puzzles and the
benchmarks' fixed work).  The site gives a budget of CPU time as well
(practice/service.py): on a slower machine the race stops there, with fewer playouts, and the
hint still answers within its time; the analysis is stored, so the hint and the review of a
decision still read the same one.  ``compare`` races two given moves (the
review's played move when the analysis never tried it).  ``is_mistake`` is the review's rule.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from .search import Search, search_for
from .strong import Estimate, _candidates, playout

# Determinizations per batch: every surviving candidate is played in each.
BATCH = 16
# A candidate drops out when its paired difference to the leader is more than this many
# standard errors above zero (several looks at the data: stricter than a single 1.96).
ELIMINATE_Z = 3.0
# No candidate drops out, and no tie ends the race, before this many shared determinizations.
MIN_SHARED = 2 * BATCH
# The analysis settles (every move left within this share of the game's floor of the
# leader) before its cap.  A gap under the floor is never a mistake, but a hint still
# chooses: on 300 positions a race that settled at half the floor agreed with the reference
# run more often than at the whole floor (Spardame 0.879 -> 0.888; Dam med dolda kort at 560
# playouts 0.931 -> 0.940), and as often in Dam (0.538).
SETTLE = 0.5
# A move is a mistake only when the better move's advantage lies this many standard errors
# above zero (a 95% interval that excludes zero) and above the game's floor.
MISTAKE_Z = 1.96


def paired_gap(a: list[float], b: list[float]) -> tuple[float, float, int]:
    """Mean and standard error of a - b over the determinizations both were played in."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, 0.0, 0
    diffs = [a[j] - b[j] for j in range(n)]
    d = sum(diffs) / n
    var = sum([(x - d) ** 2 for x in diffs]) / (n - 1) if n > 1 else 0.0
    return d, (var / n) ** 0.5, n


def race(search: Search[Any, Any], state: Any, seat: int, rng: random.Random,
         cands: Sequence[Any], cap: int, tie: float = 0.0, until: float | None = None
         ) -> list[Estimate]:
    """The candidates' estimates, best first, from at most ``cap`` playouts (see the module
    docstring), and none begun after the thread's CPU clock passes ``until`` when given.
    Ties in the mean keep the earlier candidate (the policy's move first)."""
    k = len(cands)
    if k == 1:
        return [Estimate(cands[0], 0.0, 0, 0.0, 0.0)]
    results: list[list[float]] = [[] for _ in range(k)]
    alive = list(range(k))
    used = 0

    def mean(i: int) -> float:
        r = results[i]
        return sum(r) / len(r) if r else float("inf")

    late = False
    while len(alive) > 1 and used + len(alive) <= cap and not late:
        for _ in range(min(BATCH, (cap - used) // len(alive))):
            if until is not None and time.thread_time() > until:
                late = True  # every candidate has played the same deals: stop here
                break
            world = search.resample(state, seat, rng)
            seed = rng.getrandbits(32)
            for i in alive:
                results[i].append(playout(search, world, cands[i], seat, seed))
            used += len(alive)
        leader = min(alive, key=lambda i: (mean(i), i))
        kept = [leader]
        close = True
        for i in alive:
            if i == leader:
                continue
            d, se, n = paired_gap(results[i], results[leader])
            if n >= MIN_SHARED and d - ELIMINATE_Z * se > 0:
                continue  # clearly worse: dropped
            kept.append(i)
            close = close and n >= MIN_SHARED and abs(d) + ELIMINATE_Z * se < tie
        alive = sorted(kept)
        if len(alive) > 1 and close:
            break  # every one left is as good as the leader, within the tie
    survivors = set(alive)
    order = sorted(range(k), key=lambda i: (i not in survivors, mean(i), i))
    best = results[order[0]]
    out = []
    for i in order:
        d, se, _n = paired_gap(results[i], best)
        out.append(Estimate(cands[i], mean(i), len(results[i]), d, se))
    return out


def candidates(search: Search[Any, Any], state: Any, seat: int, rng: random.Random
               ) -> tuple[list[Any], dict[Any, list[Any]]]:
    """The moves the analysis compares, the policy's first (only it for a choice the policy
    calls clear and for a position the game searches no further: Spardame's passes), and for
    each of them the other moves of its group (the same move in effect)."""
    policy = search.policy(rng.getrandbits(32))
    decide = getattr(policy, "decide", None)
    if decide is not None:
        first, margin = decide(state, seat)
        if margin > search.params.clear:
            return [first], {}
    else:
        first = policy.act(state, seat)
    if search.baseline_only(state):
        return [first], {}
    # One move of each group, the policy's for its own group.
    same: dict[Any, list[Any]] = {}
    for group in search.groups(state, seat, list(state.legal_actions())):
        lead = first if first in group else group[0]
        same[lead] = [a for a in group if a != lead]
    cands = _candidates(search, state, seat, list(same), rng, first)
    return cands, {a: same[a] for a in cands if same[a]}


def _deadline(budget: float | None) -> float | None:
    """The thread's CPU clock reading at which ``budget`` seconds from now are spent."""
    return None if budget is None else time.thread_time() + budget


def analyse(state: Any, seat: int, seed: int, cap: int, floor: float = 0.0,
            budget: float | None = None) -> list[Estimate]:
    """The one analysis of ``seat``'s decision in ``state`` (at most ``cap`` playouts, and
    at most ``budget`` seconds of the thread's CPU when given; the game's mistake ``floor``):
    every candidate's estimate, best first, then the moves that are the same as a candidate,
    each with its estimate; the hint's move is the first."""
    until = _deadline(budget)
    legal = state.legal_actions()
    if len(legal) == 1:
        return [Estimate(legal[0], 0.0, 0, 0.0, 0.0)]
    search = search_for(state)
    rng = random.Random(seed)
    cands, same = candidates(search, state, seat, rng)
    ranked = race(search, state, seat, rng, cands, cap, floor * SETTLE, until)
    return ranked + [e._replace(action=a) for e in ranked for a in same.get(e.action, ())]


def compare(state: Any, seat: int, seed: int, best: Any, other: Any, cap: int,
            budget: float | None = None) -> list[Estimate]:
    """``best`` and ``other`` raced alone (the review's played move that the analysis never
    tried: a clear choice of the policy, or one of too many moves); ``budget`` as in
    ``analyse``."""
    until = _deadline(budget)
    search = search_for(state)
    return race(search, state, seat, random.Random(seed), [best, other], cap, 0.0, until)


def is_mistake(behind: float, se: float, floor: float) -> bool:
    """The review's rule: the better move's advantage counts when its interval excludes zero
    (paired over the same determinizations) and it exceeds the game's floor."""
    return behind - MISTAKE_Z * se > 0 and behind > floor
