"""Practice-mode bots: strong vs normal vs easy, and the strong bot's decision time.

    .venv/bin/python bench/practice_bots.py --games 1000 --playouts 40 --procs 2
    .venv/bin/python bench/practice_bots.py --timing-only --decisions 300

Two tables of 3 players, ``--games`` games each per game: ``mixed`` seats one bot of each
level, ``h2h`` one strong bot against two normal ones (``--h2h-games``; the seats rotate from game to game so
every level sits in every position equally often).  Printed per table, game and level
(averaged over that level's seats):
Dam ``loss_rate`` (share of deals it was left with Svarta Maja; 1/3 = average), Dam med dolda
kort and Spardame ``mean_points`` per deal (lower is better).  The strong bot's playouts per
decision for the bulk run are ``--playouts`` (0: the practice-mode ``PLAYOUTS`` of the game's
bot module, rules/engine/bots/<game>.py); the decision-time figures (``strong_ms_p50/p95/max``)
are measured separately at the practice-mode playouts.  One ``name=value`` line per measure.
``bench/bots.py`` is the head-to-head benchmark with raw results and intervals.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.engine.bots import dam as dam_bots  # noqa: E402
from rules.engine.bots import dolda as dolda_bots  # noqa: E402
from rules.engine.bots import spardame as spardame_bots  # noqa: E402
from rules.engine.bots import strong  # noqa: E402
from rules.engine.games import game_module  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

# The same classes as the adapters' `bots` (rules/adapters; kept Django-free here).
BOT_CLASSES = {
    "dam": {"easy": dam_bots.RandomBot, "normal": dam_bots.HeuristicBot},
    "dolda": {"easy": dolda_bots.RandomBot, "normal": dolda_bots.HeuristicBot},
    "spardame": {"easy": spardame_bots.RandomBot, "normal": spardame_bots.HeuristicBot},
}

LEVELS = ("strong", "normal", "easy")


def _bot(game: str, level: str, seed: int, playouts: int):
    if level == "strong":
        return strong.StrongBot(seed, playouts=playouts or None)
    return BOT_CLASSES[game][level](seed)


TABLES = {"mixed": LEVELS, "h2h": ("strong", "normal", "normal")}


def play_one(args) -> tuple[str, list[str], list[float]]:
    game, index, playouts, table = args
    module = game_module(game)
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {})
    rot = index % 3
    seats = TABLES[table]
    levels = [seats[(i + rot) % 3] for i in range(3)]
    names = ["A", "B", "C"]
    state = module.new_game(options, names, index % 3, 10_000 + index, None)
    bots = [_bot(game, lv, index * 7 + i, playouts) for i, lv in enumerate(levels)]
    moves = 0
    while not state.over:
        seat = state.to_move
        state, _ = state.apply(bots[seat].act(state, seat))
        moves += 1
        if moves > 5000:  # Dam has no move limit; count a runaway deal as nobody's loss
            return game, levels, [0.0, 0.0, 0.0]
    return game, levels, module.outcome(state)


def timing(decisions: int) -> dict[str, float]:
    out = {}
    for game in ("dam", "dolda", "spardame"):
        module = game_module(game)
        options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {})
        times: list[float] = []
        index = 0
        while len(times) < decisions:
            players = 4 if game != "dam" else 3
            names = ["A", "B", "C", "D"][:players]
            state = module.new_game(options, names, 0, 500 + index, None)
            bots = [strong.StrongBot(index)] + [BOT_CLASSES[game]["normal"](index * 3 + i)
                                                for i in range(1, players)]
            moves = 0
            while not state.over and moves < 3000:
                seat = state.to_move
                t = time.perf_counter()
                action = bots[seat].act(state, seat)
                if seat == 0:
                    times.append((time.perf_counter() - t) * 1000)
                state, _ = state.apply(action)
                moves += 1
            index += 1
        times.sort()
        out[f"{game}_strong_ms_p50"] = times[len(times) // 2]
        out[f"{game}_strong_ms_p95"] = times[int(len(times) * 0.95)]
        out[f"{game}_strong_ms_max"] = times[-1]
        out[f"{game}_strong_decisions"] = len(times)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--h2h-games", type=int, default=300)
    ap.add_argument("--playouts", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--timing-only", action="store_true")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--game", choices=("dam", "dolda", "spardame"), action="append")
    a = ap.parse_args()
    if not a.timing_only:
        for table in ("mixed", "h2h"):
            for game in a.game or ("dam", "dolda", "spardame"):
                start = time.perf_counter()
                games = a.games if table == "mixed" else a.h2h_games
                jobs = [(game, i, a.playouts, table) for i in range(games)]
                totals = {lv: 0.0 for lv in LEVELS}
                seats = {lv: 0 for lv in LEVELS}
                with Pool(a.procs) as pool:
                    for _g, levels, result in pool.imap_unordered(play_one, jobs, chunksize=4):
                        for lv, r in zip(levels, result):
                            totals[lv] += r
                            seats[lv] += 1
                key = "loss_rate" if game == "dam" else "mean_points"
                for lv in LEVELS:
                    if seats[lv]:
                        print(f"{table}_{game}_{lv}_{key}={totals[lv] / seats[lv]:.3f}",
                              flush=True)
                print(f"{table}_{game}_games={games}", flush=True)
                print(f"{table}_{game}_bench_s={time.perf_counter() - start:.0f}", flush=True)
    if a.no_timing:
        return
    for k, v in timing(a.decisions).items():
        print(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}", flush=True)


if __name__ == "__main__":
    main()
