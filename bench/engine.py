"""Engine benchmark: whole deals back to back with the chosen bots on every seat.

    .venv/bin/python bench/engine.py --game dam --players 4 --seconds 5 [--preset NAME]
                                     [--bot random|heuristic] [--mix heuristic,random,...]
                                     [--vs-openspiel] [--floor]

Prints one ``name=value`` line per measure; the last line is ``games_per_s=<number>``.
With ``--mix`` the seats get different bots and the average outcome per bot kind is printed
(Dam: loss rate; Dam med dolda kort: deal score; Spardame: deal points), which is how the
heuristic bots are compared with random ones.

With ``--vs-openspiel`` (when ``pyspiel`` imports, i.e. run with bench/.venv-openspiel/bin/python,
see bench/vs_openspiel.py) the time is split into slices that alternate between our games and
OpenSpiel's ``hearts`` played by its plain random loop (``rng.choice(state.legal_actions())``
then ``apply_action``, chance nodes included), so that machine load hits both alike; the
OpenSpiel rate and the ratio are printed on the lines before the last.

With ``--floor`` the same loop and random bot also play a stand-in game that knows no rules
(its ``legal_actions`` copies a fixed list, ``apply_in_place`` only counts) for as many
actions per game as ours took: what the loop itself costs.  ``rules_us_per_action`` is then
what the rules add per action (legal actions, checks, the change of state), the part an
engine can make faster; with ``--vs-openspiel`` it also prints what that part may cost at
most for our rate to reach 0.6 of OpenSpiel's (``rules_us_per_action_for_0.6``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine.games import GAME_NAMES, game_module
from rules.engine.options import build_options

NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


def play(module, options, names, seed, bots, timings=None):
    state = module.new_game(options, names, len(names) - 1, seed, None)
    actions = 0
    # In place and without events, as simulations play (and as OpenSpiel's apply_action
    # does); ``apply`` would add a copy of the state and the event dicts to every move.
    step = state.apply_in_place
    while not state.over:
        seat = state.to_move
        if timings is not None:
            t0 = time.perf_counter()
            action = bots[seat].act(state, seat)
            timings.append(time.perf_counter() - t0)
        else:
            action = bots[seat].act(state, seat)
        step(action)
        actions += 1
    return state, actions


class NoRules:
    """The floor: a game of ``length`` actions that checks and changes nothing (also used by
    bench/vs_openspiel.py)."""

    __slots__ = ("acts", "length", "moves", "over", "players", "to_move")

    def __init__(self, length: int, players: int) -> None:
        self.acts = [("attack", 0, (c,)) for c in range(10)]
        self.length = length
        self.players = players
        self.moves = 0
        self.over = False
        self.to_move = 0

    def legal_actions(self):
        return self.acts[:]

    def apply_in_place(self, action, events=None) -> None:
        self.moves += 1
        self.over = self.moves >= self.length
        self.to_move = self.moves % self.players


def floor_games_per_s(bot_class, length: int, players: int, seconds: float) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = NoRules(length, players)
        bots = [bot_class(games * 10 + i) for i in range(players)]
        step = state.apply_in_place
        while not state.over:
            seat = state.to_move
            step(bots[seat].act(state, seat))
        games += 1
    return games / (time.perf_counter() - start)


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
    parser.add_argument("--vs-openspiel", action="store_true",
                        help="also time OpenSpiel's hearts random loop in alternating slices")
    parser.add_argument("--floor", action="store_true",
                        help="also time the loop and random bot on a game without rules")
    args = parser.parse_args(argv)

    module = game_module(args.game)
    bots_mod = __import__(f"rules.engine.bots.{args.game}", fromlist=["BOTS"])
    rules = {"preset": args.preset} if args.preset else {}
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)
    names = NAMES[: args.players]
    kinds = args.mix.split(",") if args.mix else [args.bot] * args.players
    if len(kinds) != args.players:
        parser.error("--mix needs one bot per seat")

    totals = [0.0] * args.players
    run = {"games": 0, "actions": 0, "seed": args.seed, "elapsed": 0.0, "cpu": 0.0}

    def ours(seconds: float) -> None:
        deadline = time.perf_counter() + seconds
        start = time.perf_counter()
        cpu_start = time.process_time()
        while time.perf_counter() < deadline and (not args.games or run["games"] < args.games):
            seed = run["seed"]
            bots = [bots_mod.BOTS[k](seed * 10 + i) for i, k in enumerate(kinds)]
            state, n = play(module, options, names, seed, bots)
            run["games"] += 1
            run["actions"] += n
            for i, v in enumerate(module.outcome(state)):
                totals[i] += v
            run["seed"] = seed + 1
        run["elapsed"] += time.perf_counter() - start
        run["cpu"] += time.process_time() - cpu_start

    os_rate = None
    if args.vs_openspiel:
        try:
            import pyspiel

            # The same plain loop vs_openspiel.py compares against (bench/ is on sys.path
            # when this script runs).
            from vs_openspiel import openspiel_deals
        except ImportError:
            print("openspiel=not importable (run with bench/.venv-openspiel/bin/python)")
            ours(args.seconds)
        else:
            hearts = pyspiel.load_game("hearts")
            openspiel_deals(hearts, 0.2, 0)  # warm-up, like ours below
            ours(0.2)
            for key in ("games", "actions", "elapsed", "cpu"):
                run[key] = 0 if key in ("games", "actions") else 0.0
            totals[:] = [0.0] * args.players
            run["seed"] = args.seed
            slices = 6
            os_n, os_t = 0, 0.0
            for k in range(slices):
                ours(args.seconds / slices / 2)
                n, t = openspiel_deals(hearts, args.seconds / slices / 2, 1000 * k)
                os_n, os_t = os_n + n, os_t + t
            os_rate = os_n / os_t
    else:
        ours(args.seconds)
    games, actions = run["games"], run["actions"]
    elapsed, cpu = run["elapsed"], run["cpu"]

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
    if args.floor:
        length = max(1, round(actions / max(games, 1)))
        floor = floor_games_per_s(bots_mod.BOTS["random"], length, args.players,
                                  min(3.0, args.seconds))
        print(f"floor_games_per_s={floor:.1f}")
        print(f"rules_us_per_action={(elapsed / games - 1 / floor) / length * 1e6:.2f}")
        if os_rate is not None:
            budget = (1 / (0.6 * os_rate) - 1 / floor) / length * 1e6
            print(f"rules_us_per_action_for_0.6={budget:.2f}")
    if os_rate is not None:
        print(f"openspiel_hearts_deals_per_s={os_rate:.1f}")
        print(f"ratio_vs_openspiel={games / elapsed / os_rate:.2f}")
    print(f"games_per_s={games / elapsed:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
