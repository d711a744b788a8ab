"""Glicko-2 ratings for the puzzle trainer, by the ``glicko2`` package (Glickman's algorithm,
"Example of the Glicko-2 system", 2013).  A solved puzzle is a won game against the puzzle's
own rating, a missed one a lost game; each attempt is its own rating period (as puzzle sites
do).  tests/puzzles/test_rating.py checks the paper's worked example through this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import glicko2  # type: ignore[import-untyped]  # (it ships no type hints)

START = (1500.0, 350.0, 0.06)
# A puzzle's rating is known from its construction, not from play: a small fixed deviation.
PUZZLE_RD = 60.0


@dataclass(frozen=True)
class Rating:
    rating: float = START[0]
    rd: float = START[1]
    vol: float = START[2]


def update(player: Rating, games: Sequence[tuple[float, float, float]]) -> Rating:
    """The player's rating after ``games``: (opponent rating, opponent RD, score 0..1)."""
    p = glicko2.Player(rating=player.rating, rd=player.rd, vol=player.vol)
    if games:
        p.update_player([g[0] for g in games], [g[1] for g in games], [g[2] for g in games])
    else:
        p.did_not_compete()
    return Rating(float(p.getRating()), float(p.getRd()), float(p.vol))


def after_puzzle(player: Rating, puzzle_rating: float, solved: bool) -> Rating:
    return update(player, [(puzzle_rating, PUZZLE_RD, 1.0 if solved else 0.0)])
