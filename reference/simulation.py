"""Simulated statistics for the variant pages: heuristic bots play whole deals per preset.

The games themselves are pure engine work (no Django here); results are kept as sums so that
chunks played in different processes, or in different runs of ``simulate``, simply add up.
Every measure is a whole number per deal (a count, a 0/1 flag, points), so the sums are exact
and the same however the deals were split into chunks: the shipped file
(``reference/content/statistics.json``, written by ``simulate --write``) is byte for byte the same
on every run.

The file also records what it was made from: each preset's options and, for the first
``SAMPLE_DEALS`` seeds, a hash of every move of every deal and the sums of those deals.
``simulate --check`` plays that sample again: a rule change, a preset change, a change to the
bots' play or to the measures makes it fail with the command that regenerates the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.adapters import adapter
from games.registry import GAMES, KEYS
from rules.engine.games import game_module
from rules.engine.options import build_options

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]
PLAYERS = {g.key: g.simulated_players for g in GAMES}
Z95 = 1.959963984540054

SHIPPED = Path(__file__).resolve().parent / "content" / "statistics.json"
FORMAT = 2
# Deals per preset in the shipped file: a 95% interval of a rate near 25% is then about ±0.8
# percentage points; generating every preset takes a few minutes on one core.
SHIPPED_DEALS = 10_000
SAMPLE_DEALS = 20
REGENERATE = ".venv/bin/python manage.py simulate --write"


@dataclass
class Sums:
    """Count, sum and sum of squares for every measure, mergeable across chunks."""

    games: int = 0
    values: dict[str, list[int]] = field(default_factory=dict)

    def add(self, key: str, value: int) -> None:
        """``value`` is a whole number (bool counts as 0/1), which keeps the sums exact."""
        n_s_ss = self.values.setdefault(key, [0, 0, 0])
        n_s_ss[0] += 1
        n_s_ss[1] += int(value)
        n_s_ss[2] += int(value) * int(value)

    def merge(self, other: Sums) -> None:
        self.games += other.games
        for key, (n, s, ss) in other.values.items():
            mine = self.values.setdefault(key, [0, 0, 0])
            mine[0] += n
            mine[1] += s
            mine[2] += ss

    def to_json(self) -> dict:
        return {"games": self.games, "values": {k: self.values[k] for k in sorted(self.values)}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sums:
        return cls(games=data.get("games", 0), values={k: list(v) for k, v in data.get("values", {}).items()})


@dataclass
class SimulatedDeal:
    """One finished deal, as the adapters' ``add_statistics`` reads it.  Seats are numbered
    from the dealer's left: seat 0 plays first, the last seat deals."""

    options: Any
    start: Any  # the state as dealt, before the first move
    end: Any
    events: list[dict[str, Any]]
    actions: list[str]  # every move in the scenario notation (format_action)
    result: list[float]

    @property
    def moves(self) -> int:
        return len(self.actions)


def preset_options(game: str, preset: str) -> Any:
    module = game_module(game)
    return build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {"preset": preset})


def play_deals(game: str, preset: str, first_seed: int, count: int) -> Iterable[SimulatedDeal]:
    """Deals with seeds ``first_seed``…, each played by one heuristic bot per seat."""
    module = game_module(game)
    bots_mod = __import__(f"rules.engine.bots.{game}", fromlist=["BOTS"])
    options = preset_options(game, preset)
    names = NAMES[: PLAYERS[game]]
    dealer = len(names) - 1  # so that seat 0, the dealer's left, plays first
    for seed in range(first_seed, first_seed + count):
        bots = [bots_mod.BOTS["heuristic"](seed * 10 + i) for i in range(len(names))]
        start = state = module.new_game(options, names, dealer, seed, None)
        actions: list[str] = []
        events: list[dict[str, Any]] = []
        while not state.over:
            seat = state.to_move
            action = bots[seat].act(state, seat)
            state, step_events = state.apply(action)
            actions.append(f"{names[seat]} {module.format_action(action)}")
            events += step_events
        yield SimulatedDeal(options, start, state, events, actions, module.outcome(state))


def play_chunk(game: str, preset: str, first_seed: int, count: int) -> dict:
    """Play ``count`` deals with seeds ``first_seed``…; returns ``Sums.to_json()``."""
    sums = Sums()
    statistics = adapter(game).add_statistics
    for deal in play_deals(game, preset, first_seed, count):
        sums.games += 1
        statistics(sums, deal)
    return sums.to_json()


def sample_fingerprint(game: str, preset: str, count: int = SAMPLE_DEALS) -> dict:
    """The first ``count`` deals: a hash of every move and result (the play, which a change
    to the rules or the bots moves; how the engine writes its events does not), and their
    sums (which a change to the measures moves)."""
    digest = hashlib.sha256()
    sums = Sums()
    statistics = adapter(game).add_statistics
    for deal in play_deals(game, preset, 1, count):
        digest.update(json.dumps([deal.actions, deal.result]).encode())
        sums.games += 1
        statistics(sums, deal)
    return {"deals": count, "moves_sha256": digest.hexdigest(), "sums": sums.to_json()}


def preset_record(game: str, preset: str, sums: Sums) -> dict:
    return {"options": dataclasses.asdict(preset_options(game, preset)),
            "players": PLAYERS[game],
            "sample": sample_fingerprint(game, preset),
            "sums": sums.to_json()}


def dump(data: Mapping[str, Any]) -> str:
    """The file's text: sorted keys, one line per measure (``[deals, sum, sum of squares]``)."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    return re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
                  lambda m: "[" + re.sub(r",\s*", ", ", m.group(1)) + "]", text) + "\n"


def read_shipped(path: Path = SHIPPED) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def check_shipped(data: Mapping[str, Any], full: bool = False,
                  only: Iterable[str] | None = None) -> list[str]:
    """Why the shipped statistics no longer fit the engine, the presets, the bots or the
    measures (empty when they do).  ``full`` plays every deal again instead of the sample;
    ``only`` limits the check to these games."""
    problems: list[str] = []
    if data.get("format") != FORMAT:
        return [f"format {data.get('format')!r}, expected {FORMAT}"]
    games = data.get("games", {})
    for game in sorted(set(games) - set(KEYS)):
        problems.append(f"{game}: not a game")
    for game in only or KEYS:
        stored = games.get(game, {})
        presets = game_module(game).PRESETS
        for preset in sorted(set(stored) - set(presets)):
            problems.append(f"{game}/{preset}: no longer a preset")
        for preset in presets:
            record = stored.get(preset)
            if record is None:
                problems.append(f"{game}/{preset}: missing")
                continue
            where = f"{game}/{preset}"
            if record.get("players") != PLAYERS[game]:
                problems.append(f"{where}: simulated with {record.get('players')} players, "
                                f"the pages show {PLAYERS[game]}")
            if record.get("options") != dataclasses.asdict(preset_options(game, preset)):
                problems.append(f"{where}: the preset's options changed")
            sample = record.get("sample", {})
            now = sample_fingerprint(game, preset, sample.get("deals", SAMPLE_DEALS))
            if now["moves_sha256"] != sample.get("moves_sha256"):
                problems.append(f"{where}: the sample deals play differently now (engine or bots)")
            elif now["sums"] != sample.get("sums"):
                problems.append(f"{where}: the measures of the sample deals changed")
            sums = record.get("sums", {})
            if set(sums.get("values", {})) != set(now["sums"]["values"]):
                problems.append(f"{where}: the file's measures are not the ones recorded now")
            if full and not any(p.startswith(f"{where}:") for p in problems):
                again = play_chunk(game, preset, 1, sums.get("games", 0))
                if again != sums:
                    problems.append(f"{where}: the full run gives other sums")
    return problems


@dataclass(frozen=True)
class Estimate:
    key: str
    n: int
    mean: float
    low: float
    high: float
    rate: bool
    variance: float = 0.0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def scaled(self, factor: float) -> Estimate:
        """The same estimate divided into a share (``factor`` = 1 / the whole)."""
        return dataclasses.replace(self, mean=self.mean * factor, low=self.low * factor,
                                   high=self.high * factor, variance=self.variance * factor ** 2)


def estimate(key: str, n: int, s: float, ss: float, rate: bool) -> Estimate:
    """Mean with a 95% interval: Wilson's for rates, the normal one for other means."""
    if n == 0:
        return Estimate(key, 0, 0.0, 0.0, 0.0, rate)
    mean = s / n
    variance = max(0.0, ss / n - mean * mean) * n / max(n - 1, 1)
    if rate:
        denom = 1 + Z95 ** 2 / n
        centre = (mean + Z95 ** 2 / (2 * n)) / denom
        half = Z95 * math.sqrt(mean * (1 - mean) / n + Z95 ** 2 / (4 * n * n)) / denom
        # Rounding can put a bound a hair past the mean when the rate is exactly 0 or 1.
        low, high = min(mean, max(0.0, centre - half)), max(mean, min(1.0, centre + half))
        return Estimate(key, n, mean, low, high, rate, variance)
    half = Z95 * math.sqrt(variance / n)
    return Estimate(key, n, mean, mean - half, mean + half, rate, variance)


def is_rate(n: int, s: float, ss: float) -> bool:
    """Whether a measure only ever took the values 0 and 1 (then its sum of squares equals
    its sum, for whole numbers): a rate, with Wilson's interval."""
    return s == ss and 0 <= s <= n


def estimates(sums: Sums) -> dict[str, Estimate]:
    return {key: estimate(key, n, s, ss, is_rate(n, s, ss))
            for key, (n, s, ss) in sums.values.items()}
