"""Bot levels head to head, with raw results: one level A against level B.

    .venv/bin/python bench/bots.py --game dam --pair strong-normal --deals 600 --seed 1 --csv /tmp/dam.csv
    .venv/bin/python bench/bots.py --game spardame --pair normal-easy --deals 300 --seed 1 --csv /tmp/s.csv

Every deal seats one bot of level A and bots of level B in the other seats (three players in
Dam and Dam med dolda kort, four in Spardame); A's seat rotates with the deal number (deal d:
seat d mod players) and so does the dealer (one step every full round of seats), so A sits in
every position equally often.  Deal d is dealt from ``--seed`` and d; every bot has its own
seed from them as well, so a run is reproduced exactly by its command line (the strong bot
does a fixed number of playouts per decision, ``PLAYOUTS`` in rules/engine/bots/<game>.py).

The CSV has one row per seat and deal, ``deal,seat,level,metric``: the metric is 1 for the
player left with Svarta Maja and 0 for the others in Dam, the deal's points in Dam med dolda
kort and Spardame; lower is better in all three.  (A Dam deal that runs past 5,000 moves, which
the rules allow, counts 0 for everyone; ``runaway_deals`` says how many.)

Printed, one ``name=value`` line each: the mean metric of A and of B, ``diff_mean`` (the mean
over deals of A's metric minus the mean of the B seats' metrics in that deal: negative means
A did better), ``diff_ci95_low``/``diff_ci95_high`` (mean plus or minus 1.96 standard errors of
that per-deal difference), ``a_beats_b`` (1 when the whole interval lies below zero); then the
same deal played with level B in every seat (A's seat too, with the same bot seeds) gives
``control_diff_mean``, the luck of A's seats in these deals (the seat's cards; about 0 over
many deals), and ``paired_diff_mean``/``paired_ci95_low``/``paired_ci95_high``/
``paired_a_beats_b``: the interval of the per-deal difference minus that deal's control
difference, which takes most of the cards' luck out (the CSV holds the A-B deals only); and, when
A is strong, ``strong_decision_ms_p95`` last: the 95th percentile of the strong bot's time for a
decision with more than one legal move, as CPU time of the process (what the decision costs
this machine, whatever else runs on it); ``strong_decision_wall_ms_p95`` before it is the same
by the wall clock, which grows with the machine's load.

``--procs K`` plays the deals in K processes (the rows are the same as with one).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# One table of the levels and their classes, shared with bench/practice_bots.py.
from practice_bots import BOT_CLASSES, LEVELS  # noqa: E402, I001
from rules.engine.bots import strong  # noqa: E402
from rules.engine.games import game_module  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

PLAYERS = {"dam": 3, "dolda": 3, "spardame": 4}
MOVE_CAP = 5000


def make_bot(game: str, level: str, seed: int):
    if level == "strong":
        return strong.StrongBot(seed)
    return BOT_CLASSES[game][level](seed)


def play_deal(job: tuple[str, str, str, int, int]
              ) -> tuple[int, list[str], list[float], list[tuple[float, float]], bool, float]:
    """One deal: (deal, levels by seat, metric by seat, A's decision times in ms, runaway,
    the control difference: A's seat minus the others with level B in every seat)."""
    game, a, b, seed, deal = job
    out = _play(game, a, b, seed, deal)
    ctrl = _play(game, b, b, seed, deal)
    seat_a = deal % PLAYERS[game]
    metric = ctrl[2]
    others = [m for s, m in enumerate(metric) if s != seat_a]
    return (*out, metric[seat_a] - sum(others) / len(others))


def _play(game: str, a: str, b: str, seed: int, deal: int
          ) -> tuple[int, list[str], list[float], list[tuple[float, float]], bool]:
    module = game_module(game)
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {})
    n = PLAYERS[game]
    seat_a = deal % n
    levels = [a if s == seat_a else b for s in range(n)]
    names = ["A", "B", "C", "D"][:n]
    base = (seed * 1_000_003 + deal) * 16
    state = module.new_game(options, names, (deal // n) % n, base, None)
    bots = [make_bot(game, lv, base + 1 + s) for s, lv in enumerate(levels)]
    times: list[tuple[float, float]] = []  # (CPU ms, wall ms) per strong decision
    moves = 0
    while not state.over:
        if moves >= MOVE_CAP:
            return deal, levels, [0.0] * n, times, True
        who = state.to_move
        timed = who == seat_a and a == "strong" and len(state.legal_actions()) > 1
        t, c = time.perf_counter(), time.thread_time()
        action = bots[who].act(state, who)
        if timed:
            times.append(((time.thread_time() - c) * 1000, (time.perf_counter() - t) * 1000))
        state.apply_in_place(action)
        moves += 1
    return deal, levels, module.outcome(state), times, False


def interval(diffs: list[float]) -> tuple[float, float, float]:
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.95))] if values else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, choices=tuple(PLAYERS))
    ap.add_argument("--pair", required=True,
                    choices=[f"{a}-{b}" for a, b in zip(LEVELS, LEVELS[1:])])
    ap.add_argument("--deals", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--procs", type=int, default=1)
    args = ap.parse_args()
    a, b = args.pair.split("-")
    jobs = [(args.game, a, b, args.seed, d) for d in range(args.deals)]
    times: list[tuple[float, float]] = []
    diffs: list[float] = []
    paired: list[float] = []
    controls: list[float] = []
    sums = {a: 0.0, b: 0.0}
    seats = {a: 0, b: 0}
    runaway = 0
    pool = Pool(args.procs) if args.procs > 1 else None
    rows = pool.imap(play_deal, jobs, chunksize=2) if pool else map(play_deal, jobs)
    # Rows are written (and flushed) deal by deal, in deal order, so a long run that is
    # stopped still leaves every finished deal in the CSV.
    with open(args.csv, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["deal", "seat", "level", "metric"])
        for deal, levels, metric, t, ran_away, control in rows:
            runaway += ran_away
            times.extend(t)
            for seat, (lv, m) in enumerate(zip(levels, metric)):
                out.writerow([deal, seat, lv, f"{m:g}"])
                sums[lv] += m
                seats[lv] += 1
            f.flush()
            mine = [m for lv, m in zip(levels, metric) if lv == a]
            theirs = [m for lv, m in zip(levels, metric) if lv == b]
            diffs.append(mine[0] - sum(theirs) / len(theirs))
            controls.append(control)
            paired.append(diffs[-1] - control)
    if pool:
        pool.close()
    mean, low, high = interval(diffs)
    print(f"game={args.game}")
    print(f"pair={args.pair}")
    print(f"deals={args.deals}")
    print(f"runaway_deals={runaway}")
    print(f"{a}_mean_metric={sums[a] / seats[a]:.4f}")
    print(f"{b}_mean_metric={sums[b] / seats[b]:.4f}")
    print(f"diff_mean={mean:.4f}")
    print(f"diff_ci95_low={low:.4f}")
    print(f"diff_ci95_high={high:.4f}")
    print(f"a_beats_b={int(high < 0)}")
    print(f"control_diff_mean={sum(controls) / len(controls):.4f}")
    p_mean, p_low, p_high = interval(paired)
    print(f"paired_diff_mean={p_mean:.4f}")
    print(f"paired_ci95_low={p_low:.4f}")
    print(f"paired_ci95_high={p_high:.4f}")
    print(f"paired_a_beats_b={int(p_high < 0)}")
    if a == "strong":
        print(f"strong_decisions={len(times)}")
        print(f"strong_decision_wall_ms_p95={p95([w for _c, w in times]):.1f}")
        print(f"strong_decision_ms_p95={p95([c for c, _w in times]):.1f}", flush=True)


if __name__ == "__main__":
    main()
