"""The coach (#32) end to end: hints followed, reviews, their CPU and their accuracy.

    .venv/bin/python bench/coach.py --game dam --deals 20 --seed 1 [--positions 300]

Plays ``--deals`` practice deals through the service (practice/service.py, a throwaway SQLite
database, tasks run at once) with the strong bots in every other seat (three players in Dam
and Dam med dolda kort, four in Spardame) and the player's seat following every hint; then
reviews each deal as the review task does (``review_step``, then the page's
``review_costliest``).  Measured, as CPU time of the process: each hint's analysis at a
decision with more than one legal move (what the worker spends on it), and each deal's whole
review (after the hints, whose analyses it reuses); and the requests' own CPU: the game page
with a stored hint, and the finished review's page (``*_request_cpu_ms``).  ``followed_hint_flagged`` counts
reviewed decisions where the player played the hint and the review called it a mistake (the
goal is 0).  ``agreement`` is the share of ``--positions`` positions where the coach's move
equals that of a reference run with 8 x 800 playouts (bench/coach_agreement.py, which caches
the reference in /tmp; ``--positions 0`` skips it and prints ``agreement=nan``).

The last line is ``followed_hint_flagged=N hint_cpu_ms_p95=X review_cpu_s_p95=Y
agreement=Z``; goals: 0, at most 150, at most 2.0, not below the figure before #32.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ROOT first: bench/ (the script's own folder, already on the path) holds a tables.py
# that would hide the tables app.
sys.path.insert(0, ROOT)

PLAYERS = {"dam": 3, "dolda": 3, "spardame": 4}


def setup(workdir: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "dam_site.settings.test"
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/coach.sqlite3"
    import django
    from django.core.management import call_command

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host, for the requests measured
    call_command("migrate", verbosity=0)


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.95))] if values else 0.0


def client_for(owner: str):
    from django.test import Client

    client = Client()
    session = client.session
    session["practice_owner"] = owner
    session.save()
    return client


def page_cpu_ms(client, path: str) -> float:
    c = time.thread_time()
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return (time.thread_time() - c) * 1000


def play(game: str, deal: int, seed: int, hint_ms: list[float], request_ms: list[float]
         ) -> tuple[object, set[int]]:
    """One deal with the player following every hint; the record and the followed indices."""
    import random

    from games.adapters import adapter
    from practice import service as P

    rng = random.Random(seed * 1_000_003 + deal)
    P.new_seeds = lambda: (rng.getrandbits(128), rng.getrandbits(63))  # a seeded deal
    record = P.create_game("bench", game, {}, PLAYERS[game], "strong", "Me", "en")
    module = adapter(game).engine
    followed: set[int] = set()
    client = client_for("bench")
    from django.urls import reverse

    page = reverse(f"practice_{game}_play", args=[record.pk]) + "?hint=1"
    while True:
        derived = P.load(record)
        state = derived.state
        if state.over:
            return record, followed
        if P.is_bot_turn(record, state):
            P.step_bot(record, record.version)
            continue
        choice = len(state.legal_actions()) > 1
        c = time.thread_time()
        hint = P.hint(record, derived)
        if choice:
            hint_ms.append((time.thread_time() - c) * 1000)
            followed.add(len(record.actions))
            request_ms.append(page_cpu_ms(client, page))  # the hint's page, once stored
        assert hint is not None
        P.human_move(record, record.version, module.format_action(hint.action).split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, choices=tuple(PLAYERS))
    ap.add_argument("--deals", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--procs", type=int, default=1, help="for the agreement's reference only")
    ap.add_argument("--cap", type=int, default=0,
                    help="the analysis' playouts (default: the game's, games/registry.py)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        setup(workdir)
        from django.urls import reverse

        from practice import service as P

        if args.cap > 0:
            P.ANALYSIS_PLAYOUTS[args.game] = args.cap  # tuning: hints and reviews alike

        hint_ms: list[float] = []
        request_ms: list[float] = []
        review_request_ms: list[float] = []
        review_s: list[float] = []
        flagged = 0
        decisions = 0
        listed = 0
        for deal in range(args.deals):
            record, followed = play(args.game, deal, args.seed, hint_ms, request_ms)
            review_page = reverse(f"practice_{args.game}_review", args=[record.pk])
            c = time.thread_time()
            progress = P.review_step(record)
            costliest = P.review_costliest(record, progress)
            review_s.append(time.thread_time() - c)
            decisions += len(progress["items"])
            listed += len(costliest)
            flagged += sum(1 for i in progress["items"] if i["index"] in followed and i["flagged"])
            review_request_ms.append(page_cpu_ms(client_for("bench"), review_page))
    agreement = float("nan")
    if args.positions > 0:
        import coach_agreement as A

        agreement = A.measure(args.game, args.positions, args.seed, "coach", procs=args.procs,
                              cap=args.cap)
    print(f"game={args.game}")
    print(f"deals={args.deals}")
    print(f"hints={len(hint_ms)}")
    print(f"reviewed_decisions={decisions}")
    print(f"listed_mistakes={listed}")
    print(f"hint_cpu_ms_max={max(hint_ms, default=0.0):.0f}")
    print(f"hint_page_request_cpu_ms_p95={p95(request_ms):.0f}")
    print(f"review_page_request_cpu_ms_max={max(review_request_ms, default=0.0):.0f}")
    print(f"positions={args.positions}")
    print(f"followed_hint_flagged={flagged} hint_cpu_ms_p95={p95(hint_ms):.0f} "
          f"review_cpu_s_p95={p95(review_s):.2f} agreement={agreement:.3f}", flush=True)


if __name__ == "__main__":
    main()
