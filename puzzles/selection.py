"""Which positions are puzzles: one move clearly best, measured by simulated play.

Pure engine code (no Django): the generator (``manage.py puzzles generate``) and the check
(``manage.py puzzles check``) both call :func:`measure` and :func:`clearly_best`.

``measure(state, seat, best, seed, deals)`` plays *every* legal move of ``seat`` in the same
``deals`` determinizations (simulated deals that agree with what the seat sees, from the
strong bot's ``resample``), each with the same random numbers for the rest of the deal, and
returns for each other move its paired difference to ``best`` (mean and standard error over
the deals).  So the luck of the deal cancels out, and a seed of the caller's own gives
determinizations independent of those that found the move.

A move is *clearly best* when, against every other legal move, its advantage lies ``z``
standard errors above zero (a 95% interval above zero at the review's 1.96) and exceeds the
game's floor (``mistake_floor`` in games/registry.py: the coach's own rule for a mistake,
``coach.is_mistake``).  The generator asks much more of a position than the check does
(several independent seeds, a wider ``z`` and several times the floor), so that the check
passes for any seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from rules.engine.bots.coach import MISTAKE_Z, paired_gap
from rules.engine.bots.search import search_for
from rules.engine.bots.strong import playout


class Gap(NamedTuple):
    """How far one other move is behind the solution: mean and standard error of the paired
    difference (positive: the other move is worse), over ``deals`` shared deals."""

    action: Any
    behind: float
    se: float
    deals: int


def play_all(state: Any, seat: int, moves: Sequence[Any], seed: int, deals: int
             ) -> list[list[float]]:
    """Each move's results (lower is better for ``seat``) in the same ``deals``
    determinizations drawn from ``seed`` alone, with the same random numbers per deal."""
    search = search_for(state)
    rng = random.Random(seed)
    results: list[list[float]] = [[] for _ in moves]
    for _ in range(deals):
        world = search.resample(state, seat, rng)
        play_seed = rng.getrandbits(32)
        for i, move in enumerate(moves):
            results[i].append(playout(search, world, move, seat, play_seed))
    return results


def gaps_to(moves: Sequence[Any], results: Sequence[list[float]], best: int) -> list[Gap]:
    """Every other move's paired gap to ``moves[best]``."""
    out = []
    for i, move in enumerate(moves):
        if i != best:
            d, se, n = paired_gap(results[i], results[best])
            out.append(Gap(move, d, se, n))
    return out


def measure(state: Any, seat: int, best: Any, seed: int, deals: int,
            among: Sequence[Any] | None = None) -> list[Gap]:
    """Every other legal move's gap to ``best`` from ``deals`` determinizations drawn from
    ``seed`` alone (see the module docstring); the state is left as it was.  ``among``: the
    moves a multiple-choice puzzle offers (``best`` among them), compared instead of every
    legal move."""
    pool = state.legal_actions() if among is None else among
    moves = [best, *(a for a in pool if a != best)]
    return gaps_to(moves, play_all(state, seat, moves, seed, deals), 0)


def clearly_best(gaps: Sequence[Gap], floor: float, z: float = MISTAKE_Z,
                 floor_factor: float = 1.0) -> bool:
    """Whether the move is ahead of every other by more than ``z`` standard errors and by
    more than ``floor_factor`` times the game's floor (see the module docstring)."""
    return bool(gaps) and all(g.behind - z * g.se > 0 and g.behind > floor * floor_factor
                              for g in gaps)


def smallest_gap(gaps: Sequence[Gap]) -> Gap:
    """The other move that comes closest to the solution."""
    return min(gaps, key=lambda g: g.behind)
