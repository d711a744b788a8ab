"""Engine benchmark: whole deals back to back with the chosen bots on every seat.

    .venv/bin/python bench/engine.py --game dam --players 4 --seconds 5 [--preset NAME]
                                     [--bot random|heuristic] [--mix heuristic,random,...]

Prints one ``name=value`` line per measure; the last line is ``games_per_s=<number>``.
With ``--mix`` the seats get different bots and the average outcome per bot kind is printed
(Dam: loss rate; Dam med dolda kort: deal score; Spardame: deal points), which is how the
heuristic bots are compared with random ones.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine.games import GAME_NAMES, game_module  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


def play(module, options, names, seed, bots, timings=None):
    state = module.new_game(options, names, len(names) - 1, seed, None)
    actions = 0
    while not state.over:
        seat = state.to_move
        if timings is not None:
            t0 = time.perf_counter()
            action = bots[seat].act(state, seat)
            timings.append(time.perf_counter() - t0)
        else:
            action = bots[seat].act(state, seat)
        state, _events = state.apply(action)
        actions += 1
    return state, actions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, default="dam")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--preset", default=None)
    parser.add_argument("--bot", choices=["random", "heuristic"], default="random")
    parser.add_argument("--mix", default=None, help="comma-separated bot per seat")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    module = game_module(args.game)
    bots_mod = __import__(f"rules.engine.bots.{args.game}", fromlist=["BOTS"])
    rules = {"preset": args.preset} if args.preset else {}
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)
    names = NAMES[: args.players]
    kinds = args.mix.split(",") if args.mix else [args.bot] * args.players
    if len(kinds) != args.players:
        parser.error("--mix needs one bot per seat")

    games = actions = 0
    totals = [0.0] * args.players
    seed = args.seed
    deadline = time.perf_counter() + args.seconds
    start = time.perf_counter()
    cpu_start = time.process_time()
    while time.perf_counter() < deadline and (not args.games or games < args.games):
        bots = [bots_mod.BOTS[k](seed * 10 + i) for i, k in enumerate(kinds)]
        state, n = play(module, options, names, seed, bots)
        games += 1
        actions += n
        for i, v in enumerate(module.outcome(state)):
            totals[i] += v
        seed += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start

    # Decision time of the heuristic bot, measured on its own so the rate above stays clean.
    timings: list[float] = []
    t_end = time.perf_counter() + min(2.0, max(0.5, args.seconds / 4))
    s = 10_000_000
    while time.perf_counter() < t_end:
        hbots = [bots_mod.BOTS["heuristic"](s * 10 + i) for i in range(args.players)]
        play(module, options, names, s, hbots, timings)
        s += 1

    print(f"game={args.game}")
    print(f"preset={args.preset or module.DEFAULT_PRESET}")
    print(f"players={args.players}")
    print(f"bots={','.join(kinds)}")
    print(f"games={games}")
    print(f"seconds={elapsed:.2f}")
    # CPU time is what this process got; on a shared, busy machine it is the fairer figure.
    print(f"cpu_seconds={cpu:.2f}")
    print(f"games_per_cpu_s={games / cpu:.1f}")
    print(f"actions_per_game={actions / max(games, 1):.1f}")
    print(f"actions_per_s={actions / elapsed:.0f}")
    for kind in sorted(set(kinds)):
        seats = [i for i, k in enumerate(kinds) if k == kind]
        mean = sum(totals[i] for i in seats) / (len(seats) * max(games, 1))
        print(f"mean_outcome[{kind}]={mean:.3f}")
    if timings:
        timings.sort()
        print(f"heuristic_decisions={len(timings)}")
        print(f"heuristic_ms_per_decision_mean={statistics.fmean(timings) * 1000:.3f}")
        print(f"heuristic_ms_per_decision_p95={timings[int(len(timings) * 0.95)] * 1000:.3f}")
    print(f"games_per_s={games / elapsed:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
