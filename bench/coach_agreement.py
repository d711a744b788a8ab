"""The coach's accuracy: agreement of its chosen move with a reference run of 8x the playouts.

    .venv/bin/python bench/coach_agreement.py --game dam --positions 300 --seed 1 [--procs 2]
        [--method today|coach] [--cache /tmp/coach-ref-dam.json] [--repeats 1]

Positions: seeded deals with the heuristic bot in every seat (the default rules, three players
in Dam and Dam med dolda kort, four in Spardame); every second decision of seat 0 with more than
one legal move, until ``--positions`` are collected.  The reference is ``strong.evaluate`` (the
sequential halving the hints used before #32) with 8 x 800 = 6,400 playouts and its own seed;
it is written to ``--cache`` (JSON, keyed by position) so that a second run, before and after a
change, computes only the method under test.  ``--method today`` is the hint before #32
(``evaluate`` with 800 playouts); ``coach`` is the coach's one analysis (``coach.analyse`` with
the game's cap and floor, games/registry.py).  Printed: ``agreement=<share>`` (the chosen move equals
the reference's), ``same_move`` (the chosen move is the reference's or the same move in effect,
the game's ``groups``: in Spardame the nine of spades where the reference played the ten, with
no spade between them left in another hand or on the table; in Dam a beat with the six of
hearts where the reference beat the same card with the seven), ``cpu_ms_p95`` of the method per
position and ``positions``.  One run's agreement moves by a few hundredths with the method's
seed: ``--repeats 3`` averages three runs on the same positions (``runs=`` lists each).
``--cap`` and ``--floor`` try other numbers for the coach (tuning; the analysis settles at
``coach.SETTLE`` of the floor).  The coach keeps to the site's CPU budget
(``practice.service.ANALYSIS_CPU_SECONDS``) unless ``--budget-ms`` says otherwise (``0``: none,
the fixed work of the cap); the machine's speed and load then count.  ``--versus-today``
adds the difference to the old hint on the same positions and seeds, per position, with its
95% interval (``vs_today=+0.004[-0.011,+0.019]``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.engine.bots import coach, strong  # noqa: E402
from rules.engine.bots.search import search_of  # noqa: E402
from rules.engine.games import game_module  # noqa: E402
from rules.engine.options import build_options  # noqa: E402

PLAYERS = {"dam": 3, "dolda": 3, "spardame": 4}
TODAY_PLAYOUTS = 800
REFERENCE_PLAYOUTS = 8 * TODAY_PLAYOUTS


def positions(game: str, count: int, seed: int) -> list[tuple[int, int, object]]:
    """(deal, decision number, state) of seat 0's decisions in seeded heuristic deals."""
    module = game_module(game)
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {})
    n = PLAYERS[game]
    out: list[tuple[int, int, object]] = []
    deal = 0
    while len(out) < count:
        base = (seed * 1_000_003 + deal) * 16
        state = module.new_game(options, ["A", "B", "C", "D"][:n], deal % n, base, None)
        heuristic = search_of(game).heuristic
        bots = [heuristic(base + 1 + s) for s in range(n)]
        decision = 0
        moves = 0
        while not state.over and len(out) < count and moves < 3000:
            who = state.to_move
            if who == 0 and len(state.legal_actions()) > 1:
                if decision % 2 == 0:
                    out.append((deal, decision, state.clone()))
                decision += 1
            state.apply_in_place(bots[who].act(state, who))
            moves += 1
        deal += 1
    return out


def key(game: str, deal: int, decision: int) -> str:
    return f"{game}:{deal}:{decision}"


@functools.cache
def _positions(game: str, count: int, seed: int) -> list[tuple[int, int, object]]:
    # Each worker makes the positions itself: a compiled engine's states do not pickle.
    return positions(game, count, seed)


def reference(job):
    game, k, (count, pseed, n), seed = job
    state = _positions(game, count, pseed)[n][2]
    ranked = strong.evaluate(state, 0, random.Random(seed), REFERENCE_PLAYOUTS)
    return k, game_module(game).format_action(ranked[0].action)


def method(job):
    game, k, (count, pseed, n), seed, how, cap, floor, wanted, budget = job
    state = _positions(game, count, pseed)[n][2]
    c = time.thread_time()
    if how == "today":
        ranked = strong.evaluate(state, 0, random.Random(seed), TODAY_PLAYOUTS)
    else:
        ranked = coach.analyse(state, 0, seed, cap, floor, budget)
    ms = (time.thread_time() - c) * 1000
    module = game_module(game)
    chosen = ranked[0].action
    # The same move in effect as the reference's (the game's groups).
    reference_move = module.parse_action(state, 0, wanted.split())
    groups = search_of(game).groups(state, 0, list(state.legal_actions()))
    same = any(chosen in g and reference_move in g for g in groups)
    return k, module.format_action(chosen), ms, same


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.95))] if values else 0.0


def measure(game: str, count: int, seed: int, how: str, procs: int = 1, cache_path: str = "",
            cap: int = 0, floor: float = -1.0, out=None, repeats: int = 1,
            compare: bool = False, budget: float | None = -1.0) -> float:
    """The share of ``count`` positions where ``how`` chooses the reference's move, averaged
    over ``repeats`` runs of the method with different seeds on the same positions."""
    cache_path = cache_path or f"/tmp/coach-ref-{game}-{seed}.json"
    cached: dict[str, str] = {}
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            cached = json.load(f)
    found = _positions(game, count, seed)
    keyed = [(key(game, d, i), (count, seed, n)) for n, (d, i, _s) in enumerate(found)]
    pool = Pool(procs) if procs > 1 else None
    run = pool.imap if pool else map
    todo = [(game, k, s, seed * 7919 + n) for n, (k, s) in enumerate(keyed) if k not in cached]
    for k, best in run(reference, todo):
        cached[k] = best
        with open(cache_path, "w") as f:
            json.dump(cached, f)
    if how == "coach" and (cap <= 0 or floor < 0 or (budget is not None and budget < 0)):
        if not os.environ.get("DJANGO_SETTINGS_MODULE"):
            os.environ["DJANGO_SETTINGS_MODULE"] = "dam_site.settings.test"
            import django
            django.setup()
        from games.registry import get
        entry = get(game)
        cap = cap if cap > 0 else entry.analysis_playouts
        floor = floor if floor >= 0 else entry.mistake_floor
        if budget is not None and budget < 0:
            from practice.service import ANALYSIS_CPU_SECONDS
            budget = ANALYSIS_CPU_SECONDS
    shares: list[float] = []
    same_moves = 0
    times: list[float] = []
    # Per position, over the repeats: 1 where the method chose the reference's move.
    hits = [[0.0] * len(keyed), [0.0] * len(keyed)]  # agreement, same move
    for r in range(repeats):
        # Repeat 0 keeps the seeds of the single run, so earlier figures stay comparable.
        jobs = [(game, k, s, seed * 104_729 + n + r * 7_777_777, how, cap, floor, cached[k],
                 budget) for n, (k, s) in enumerate(keyed)]
        agreed = 0
        for n, (k, best, ms, same) in enumerate(run(method, jobs)):
            agreed += best == cached[k]
            same_moves += same
            hits[0][n] += (best == cached[k]) / repeats
            hits[1][n] += same / repeats
            times.append(ms)
        shares.append(agreed / len(keyed) if keyed else float("nan"))
    versus = ""
    if compare and how != "today":
        # The old hint's choices with the same seeds, kept in the cache file beside the
        # references: computed once, then only read.
        old = [[0.0] * len(keyed), [0.0] * len(keyed)]
        for r in range(repeats):
            jobs = [(game, k, s, seed * 104_729 + n + r * 7_777_777, "today", 0, 0.0, cached[k],
                     None) for n, (k, s) in enumerate(keyed) if f"today:{k}:{r}" not in cached]
            for k, best, _ms, same in run(method, jobs):
                cached[f"today:{k}:{r}"] = [best, same]
            if jobs:
                with open(cache_path, "w") as f:
                    json.dump(cached, f)
            for n, (k, _s) in enumerate(keyed):
                best, same = cached[f"today:{k}:{r}"]
                old[0][n] += (best == cached[k]) / repeats
                old[1][n] += same / repeats
        versus = " ".join(f"{name}={_paired(new, was)}" for name, new, was in
                          (("same_move_vs_today", hits[1], old[1]),
                           ("vs_today", hits[0], old[0]))) + " "
    if pool:
        pool.close()
    share = sum(shares) / len(shares)
    same_share = same_moves / (len(keyed) * repeats) if keyed else float("nan")
    each = f"runs={','.join(f'{x:.3f}' for x in shares)} " if repeats > 1 else ""
    spent = "none" if how == "today" or budget is None else f"{budget * 1000:.0f}ms"
    print(f"game={game} method={how} cap={cap} floor={floor} budget={spent} "
          f"positions={len(keyed)} "
          f"cpu_ms_p95={p95(times):.0f} {each}same_move={same_share:.3f} {versus}"
          f"agreement={share:.3f}", file=out or sys.stdout)
    return share


def _paired(new: list[float], was: list[float]) -> str:
    """The mean of new - was over the positions with its 95% interval: ``+0.004[-0.011,0.019]``."""
    d = [a - b for a, b in zip(new, was)]
    if len(d) < 2:
        return "nan"
    mean = sum(d) / len(d)
    se = (sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d)) ** 0.5
    return f"{mean:+.3f}[{mean - 1.96 * se:+.3f},{mean + 1.96 * se:+.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, choices=tuple(PLAYERS))
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--method", choices=("today", "coach"), default="coach")
    ap.add_argument("--cache", default="")
    ap.add_argument("--cap", type=int, default=0, help="playouts (default: the game's)")
    ap.add_argument("--floor", "--tie", dest="floor", type=float, default=-1.0,
                    help="the mistake floor given to the analysis (default: the game's)")
    ap.add_argument("--repeats", type=int, default=1,
                    help="runs of the method with different seeds, averaged (one run's "
                         "agreement varies by a few hundredths with its seed)")
    ap.add_argument("--versus-today", action="store_true",
                    help="also the difference to the old hint on the same positions and "
                         "seeds, per position, with its 95%% interval (the old hint's "
                         "choices are kept in the cache file)")
    ap.add_argument("--budget-ms", type=float, default=-1.0,
                    help="the analysis' CPU budget (default: the site's, "
                         "practice.service.ANALYSIS_CPU_SECONDS; 0: none, a fixed amount of "
                         "work)")
    args = ap.parse_args()
    budget = None if args.budget_ms == 0 else args.budget_ms / 1000 if args.budget_ms > 0 else -1.0
    measure(args.game, args.positions, args.seed, args.method, args.procs, args.cache,
            args.cap, args.floor, repeats=args.repeats, compare=args.versus_today,
            budget=budget)


if __name__ == "__main__":
    main()
