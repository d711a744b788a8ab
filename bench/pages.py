"""Full pages against /healthz/ in the production arrangement.

    .venv/bin/python bench/pages.py [--seconds 3] [--rounds 3] [--connections 16] [--workers 2]

Starts, on loopback only, a throwaway PostgreSQL database (migrated, ``load_content`` run) and
one gunicorn with the production settings (``dam_site.settings.e2e``: prod over plain HTTP)
sharing Redis (127.0.0.1:6379), as ``bench/classroom.py`` does (``tests/hardening/servers.py``).
Two practice games of Dam med dolda kort (two players, easy bots) are made through the site
by one browser session and played on, every move through ``practice.service`` as the site
makes it, to move 5 and to move 150; the keys and bytes Redis holds for the longer game are
printed at 50 and 150 moves (linear growth: about 3 times as many).

Then wrk measures each full page for ``--seconds``, each followed by /healthz/ for as long,
``--rounds`` times over: home, a rules page, a tutorial step, the FAQ with a query, a variants
page and the two practice game pages (with the session's cookie).  A page's ratio is its
requests per second over the /healthz/ slice right after it (the machine is shared, so
neighbouring slices are compared); medians over the rounds are printed, with the load average
before and after.  The last line is ``worst_full_page_ratio=R practice_growth=G``: R the lowest
page ratio, G the practice page's time at move 150 over its time at move 5 (the inverse ratio
of their requests per second).  Goals (issue #33): R at least 0.3, G at most 1.1.

Everything stops and the database is dropped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.servers import (  # noqa: E402
    BIN,
    REDIS_URL,
    Browser,
    Database,
    Server,
    check_services,
    server_env,
)

PAGES = {
    "home": "/en/",
    "rules": "/en/dam/",
    "tutorial_step": "/en/dam/tutorials/anna-bo-cilla/4/",
    "faq_query": "/en/faq/?q=how+many+players",
    "variants": "/en/dam/variants/",
}
GAME = "dolda"
NEW_GAME = "/en/dam-with-hidden-cards/practice/"
MOVES = (5, 150)
GROWTH = (50, 150)  # Redis bytes of the longer game measured at these lengths


def wrk(url: str, seconds: int, connections: int, headers: dict[str, str]) -> float:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    for k, v in headers.items():
        args += ["-H", f"{k}: {v}"]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if bad:
        raise SystemExit(f"{url}: {bad.group(1)} error responses\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def redis_bytes(prefix: str, pk: object) -> tuple[int, int]:
    """Keys and bytes (keys and values) Redis holds for one practice game."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}:*practice:{pk}:*", count=1000))
    return len(keys), sum(len(k) + (client.strlen(k) or 0) for k in keys)


def practice_games(base: str, db_url: str, prefix: str
                   ) -> tuple[dict[int, str], str, dict[int, tuple[int, int]]]:
    """Two games of one session, played to MOVES[0] and MOVES[1] moves; their page addresses,
    the session cookie, and the Redis keys and bytes of the longer one at 50 and 150 moves."""
    browser = Browser()
    browser.request(base + NEW_GAME)
    urls: dict[int, str] = {}
    storage: dict[int, tuple[int, int]] = {}
    os.environ.update(server_env(db_url, prefix))
    import django

    django.setup()
    from django.utils import translation

    from practice import service as P
    from practice.models import PracticeGame

    translation.activate("en")
    for moves in MOVES:
        for _attempt in range(20):
            r = browser.request(base + NEW_GAME, {
                "preset": "dolda-kort", "players": "2", "level": "easy", "name": "Me",
                "memory_aid": "on"})
            assert r.status == 302, r.status
            path = r.headers["Location"]
            record = PracticeGame.objects.get(pk=path.rstrip("/").split("/")[-1])
            derived = P.load(record)
            while len(record.actions) < moves and not derived.state.over:
                seat = derived.state.to_move
                action = P.make_bot(record, seat).act(derived.state, seat)
                derived = P._append(record, record.version, derived, seat, action)
                if len(record.actions) in GROWTH:
                    storage[len(record.actions)] = redis_bytes(prefix, record.pk)
            if len(record.actions) == moves and not derived.state.over:
                urls[moves] = path
                break
        else:
            raise SystemExit(f"no deal lasted {moves} moves")
    cookie = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
    return urls, cookie, storage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    check_services()
    db = Database()
    db.create()
    prefix = f"bench-pages-{os.getpid()}-{secrets.token_hex(3)}"
    server = None
    try:
        subprocess.run([str(BIN / "python"), "manage.py", "load_content", "-v", "0"], cwd=ROOT,
                       env=server_env(db.url, prefix), check=True, timeout=300)
        server = Server(db.url, prefix, workers=args.workers).start()
        base = server.base
        practice, cookie, storage = practice_games(base, db.url, prefix)
        targets = {name: (base + path, {}) for name, path in PAGES.items()}
        for moves, path in practice.items():
            targets[f"practice_move_{moves}"] = (base + path, {"Cookie": cookie})
        for url, headers in targets.values():  # warm every worker's caches
            wrk(url, 1, args.connections, headers)
        load_before = Path("/proc/loadavg").read_text().strip()
        rps: dict[str, list[float]] = {name: [] for name in targets}
        ratios: dict[str, list[float]] = {name: [] for name in targets}
        health: list[float] = []
        for _ in range(args.rounds):
            for name, (url, headers) in targets.items():
                page = wrk(url, args.seconds, args.connections, headers)
                bare = wrk(base + "/healthz/", args.seconds, args.connections, {})
                rps[name].append(page)
                health.append(bare)
                ratios[name].append(page / bare)
        load_after = Path("/proc/loadavg").read_text().strip()
    finally:
        if server is not None:
            server.stop()
        db.drop()
    print(f"connections={args.connections} seconds={args.seconds} rounds={args.rounds} "
          f"workers={args.workers}")
    print(f"loadavg_before={load_before!r} loadavg_after={load_after!r}")
    print(f"healthz_rps_median={statistics.median(health):.0f}")
    for name in targets:
        print(f"{name}: rps_median={statistics.median(rps[name]):.0f} "
              f"ratio_median={statistics.median(ratios[name]):.3f} "
              f"rounds={' '.join(f'{r:.3f}' for r in ratios[name])}")
    for moves in GROWTH:
        keys, size = storage[moves]
        print(f"redis_practice_game_at_{moves}_moves: keys={keys} bytes={size}")
    print(f"redis_bytes_ratio_{GROWTH[1]}_to_{GROWTH[0]}="
          f"{storage[GROWTH[1]][1] / storage[GROWTH[0]][1]:.2f}")
    worst = min(statistics.median(r) for r in ratios.values())
    low, high = (f"practice_move_{m}" for m in MOVES)
    growth = statistics.median(a / b for a, b in zip(rps[low], rps[high]))
    print(f"worst_full_page_ratio={worst:.3f} practice_growth={growth:.3f}")


if __name__ == "__main__":
    main()
