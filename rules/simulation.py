"""Simulated statistics for the variant pages: heuristic bots play whole deals per preset.

The games themselves are pure engine work (no Django here); results are kept as sums so that
chunks played in different processes, or in different runs of ``simulate``, simply add up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rules.adapters import adapter
from rules.engine import cards
from rules.engine.games import game_module
from rules.engine.options import build_options

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]
PLAYERS = {"dam": 4, "dolda": 4, "spardame": 4}
Z95 = 1.959963984540054


@dataclass
class Sums:
    """Count, sum and sum of squares for every measure, mergeable across chunks."""

    games: int = 0
    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, key: str, value: float) -> None:
        n_s_ss = self.values.setdefault(key, [0, 0.0, 0.0])
        n_s_ss[0] += 1
        n_s_ss[1] += value
        n_s_ss[2] += value * value

    def merge(self, other: Sums) -> None:
        self.games += other.games
        for key, (n, s, ss) in other.values.items():
            mine = self.values.setdefault(key, [0, 0.0, 0.0])
            mine[0] += n
            mine[1] += s
            mine[2] += ss

    def to_json(self) -> dict:
        return {"games": self.games, "values": self.values}

    @classmethod
    def from_json(cls, data: dict) -> Sums:
        return cls(games=data.get("games", 0), values={k: list(v) for k, v in data.get("values", {}).items()})


def play_chunk(game: str, preset: str, first_seed: int, count: int) -> dict:
    """Play ``count`` deals with seeds ``first_seed``…; returns ``Sums.to_json()``."""
    module = game_module(game)
    bots_mod = __import__(f"rules.engine.bots.{game}", fromlist=["BOTS"])
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {"preset": preset})
    names = NAMES[: PLAYERS[game]]
    sums = Sums()
    for seed in range(first_seed, first_seed + count):
        bots = [bots_mod.BOTS["heuristic"](seed * 10 + i) for i in range(len(names))]
        state = module.new_game(options, names, len(names) - 1, seed, None)
        first_mover = state.to_move
        qs_seat = next((s for s in range(len(names)) if cards.QUEEN_OF_SPADES in state.view(s).get("hand", ())), None)
        actions = 0
        events: list[dict] = []
        while not state.over:
            seat = state.to_move
            state, step_events = state.apply(bots[seat].act(state, seat))
            actions += 1
            events += step_events
        result = module.outcome(state)
        sums.games += 1
        sums.add("actions", actions)
        adapter(game).add_statistics(sums, result, events, first_mover, qs_seat)
    return sums.to_json()


@dataclass(frozen=True)
class Estimate:
    key: str
    n: int
    mean: float
    low: float
    high: float
    rate: bool

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def estimate(key: str, n: int, s: float, ss: float, rate: bool) -> Estimate:
    """Mean with a 95% interval: Wilson's for rates, the normal one for other means."""
    if n == 0:
        return Estimate(key, 0, 0.0, 0.0, 0.0, rate)
    mean = s / n
    if rate:
        denom = 1 + Z95 ** 2 / n
        centre = (mean + Z95 ** 2 / (2 * n)) / denom
        half = Z95 * math.sqrt(mean * (1 - mean) / n + Z95 ** 2 / (4 * n * n)) / denom
        # Rounding can put a bound a hair past the mean when the rate is exactly 0 or 1.
        low, high = min(mean, max(0.0, centre - half)), max(mean, min(1.0, centre + half))
        return Estimate(key, n, mean, low, high, rate)
    variance = max(0.0, ss / n - mean * mean) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(variance / n)
    return Estimate(key, n, mean, mean - half, mean + half, rate)


RATE_PREFIXES = ("loss_seat_", "first_attacker_loses", "queen_holder_loses", "moon")


def estimates(sums: Sums) -> dict[str, Estimate]:
    return {key: estimate(key, n, s, ss, key.startswith(RATE_PREFIXES))
            for key, (n, s, ss) in sums.values.items()}
