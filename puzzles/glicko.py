"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a player's rating, its
deviation and volatility, updated after a rating period of games.  A solved puzzle is a won
game against the puzzle's own rating, a missed one a lost game; each attempt is its own
rating period (as puzzle sites do).  No Glicko-2 package is installable here, so this is the
paper's algorithm, tested against the paper's worked example (tests/puzzles/test_rating.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5  # how much the volatility may change (the paper's suggested 0.3 to 1.2)
EPSILON = 0.000001
START = (1500.0, 350.0, 0.06)
# A puzzle's rating is known from its construction, not from play: a small fixed deviation.
PUZZLE_RD = 60.0


@dataclass(frozen=True)
class Rating:
    rating: float = START[0]
    rd: float = START[1]
    vol: float = START[2]


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[float, float, float]]) -> Rating:
    """The player's rating after ``games``: (opponent rating, opponent RD, score 0..1)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    if not games:
        return Rating(player.rating, min(350.0, math.sqrt(phi ** 2 + player.vol ** 2) * SCALE),
                      player.vol)
    opponents = [((r - 1500) / SCALE, rd / SCALE, s) for r, rd, s in games]
    v = 1 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _s in opponents)
    delta = v * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opponents)
    a = math.log(player.vol ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / TAU ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    vol = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + vol ** 2)
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opponents)
    return Rating(1500 + SCALE * mu_new, SCALE * phi_new, vol)


def after_puzzle(player: Rating, puzzle_rating: float, solved: bool) -> Rating:
    return update(player, [(puzzle_rating, PUZZLE_RD, 1.0 if solved else 0.0)])
