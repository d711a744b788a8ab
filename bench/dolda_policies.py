"""Dam med dolda kort policies without search, head to head with the normal bot, fast enough
for thousands of deals (a policy change is judged here before the strong bot's slow bench):

    .venv/bin/python bench/dolda_policies.py --policy sharper --seeds 101,102 --deals 2000
    .venv/bin/python bench/dolda_policies.py --policy row-oracle --seeds 17 --deals 600

The deals, seats, dealers and bot seeds are those of ``bench/bots.py --game dolda`` (three
players, the default rules), so ``--seeds 17 --deals 600`` plays the bench's deals with the
policy in the strong bot's seat.  Printed per policy: ``diff`` (the policy's points minus the
mean of the two normal bots' points in the same deal, the bench's ``diff_mean``, with its 95%
interval), ``paired`` (that minus the same deal played by normal bots only, the bench's
``paired_diff_mean``), ``own``/``others`` (the change in the policy seat's points and in the
others' mean points against that all-normal deal) and, with ``--vs``, the per-deal difference
to another policy in the same deals.

``row-oracle`` and ``oracle`` cheat, for measurement only: the sharper policy with its own whole
row known from the deal, and a policy that also sees the next stock card.  They bound what
any honest policy can gain over the normal bot.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.engine import dolda  # noqa: E402
from rules.engine.bots import dolda as bots  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

N = 3
OPTIONS = build_options(dolda.Options, dolda.PRESETS, dolda.DEFAULT_PRESET, {})


class RowOracle(bots.SharperBot):
    """CHEAT: the sharper policy, deciding as if it had seen every card of its own row."""

    def decide(self, state: dolda.State, seat: int) -> tuple[dolda.Action, float]:
        saved = state.seen[seat][:]
        state.seen[seat] = [m | 1 << seat for m in saved]
        try:
            return super().decide(state, seat)
        finally:
            state.seen[seat] = saved


class Oracle(bots.HeuristicBot):
    """CHEAT: knows its own row and the next stock card, and takes whichever is better."""

    def decide(self, state: dolda.State, seat: int) -> tuple[dolda.Action, float]:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0], float("inf")
        values = bots.row_values(state.view(seat)["options"])
        chain = bots._Chain([values[c] for c in state.rows[seat][:state.nswap]], [6])
        if state.phase == dolda.DRAW:
            top = state.discard[-1] if state.discard else None
            if top is not None and chain.best(0, values[top]) > chain.best(
                    0, values[state.stock[-1]]):
                return bots._pick(legal, "draw", "discard"), 0.0
            return bots._pick(legal, "draw", "stock"), 0.0
        gain = chain.swap_gain(state.pos, values[state.held])
        return bots._pick(legal, "swap" if gain > 0 else "discard"), abs(gain)


POLICIES: dict[str, Callable[[int], Any]] = {
    "normal": bots.HeuristicBot, "sharper": bots.SharperBot,
    "row-oracle": RowOracle, "oracle": Oracle}


def play(seed: int, deal: int, make: Callable[[int], Any]) -> tuple[float, float, float]:
    """(policy seat minus the others' mean, policy seat's points, others' mean points)."""
    seat_a = deal % N
    base = (seed * 1_000_003 + deal) * 16
    state = dolda.new_game(OPTIONS, ["A", "B", "C"], (deal // N) % N, base, None)
    players = [(make if s == seat_a else bots.HeuristicBot)(base + 1 + s) for s in range(N)]
    while not state.over:
        who = state.to_move
        assert who is not None
        state.apply_in_place(players[who].act(state, who))
    assert state.scores is not None
    others = sum(state.scores[s] for s in range(N) if s != seat_a) / (N - 1)
    return state.scores[seat_a] - others, float(state.scores[seat_a]), others


def interval(xs: list[float]) -> str:
    n = len(xs)
    mean = sum(xs) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", action="append", choices=tuple(POLICIES), required=True)
    ap.add_argument("--vs", choices=tuple(POLICIES))
    ap.add_argument("--seeds", required=True, help="comma-separated")
    ap.add_argument("--deals", type=int, required=True, help="per seed")
    a = ap.parse_args()
    jobs = [(int(s), d) for s in a.seeds.split(",") for d in range(a.deals)]
    control = [play(s, d, bots.HeuristicBot) for s, d in jobs]
    other = [play(s, d, POLICIES[a.vs]) for s, d in jobs] if a.vs else None
    for name in a.policy:
        got = [play(s, d, POLICIES[name]) for s, d in jobs]
        line = (f"policy={name} deals={len(jobs)} diff={interval([g[0] for g in got])} "
                f"paired={interval([g[0] - c[0] for g, c in zip(got, control)])} "
                f"own={sum(g[1] - c[1] for g, c in zip(got, control)) / len(jobs):+.3f} "
                f"others={sum(g[2] - c[2] for g, c in zip(got, control)) / len(jobs):+.3f}")
        if other is not None:
            line += f" vs_{a.vs}={interval([g[0] - o[0] for g, o in zip(got, other)])}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
