"""Practice mode over HTTP under load: the move endpoint and the bot replies that follow.

    .venv/bin/python bench/practice_http.py --players 8 --seconds 60 --workers 2 --level normal

Starts gunicorn (sync workers, the test settings, a fresh SQLite file in /tmp) on a free
port, then ``--players`` threads each play practice games of Dam as a browser would without
JavaScript: POST the new-game form, then repeatedly POST a move (a random legal move, chosen
by reading the record through the service layer) and POST ``step/`` once per bot reply until
it is the player's turn again.  Prints one ``name=value`` line per measure:
``move_ms_p50/p95`` (one move request), ``step_ms_p50/p95`` (one bot reply request),
``turn_ms_p50/p95`` (a move plus all the bot replies up to the player's next decision: the
sum of those requests' times, without the benchmark's own reads of the record),
``requests_per_s`` and ``errors``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # keep 302s visible to the caller
        return None


class Browser:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  NoRedirect())

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, path: str, data: dict | None = None) -> tuple[int, str, dict]:
        body = None
        headers = {}
        if data is not None:
            body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()},
                                          doseq=True).encode()
            headers["Referer"] = self.base + path
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, r.read().decode(), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(), dict(e.headers)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--level", default="normal", choices=("easy", "normal", "strong"))
    a = ap.parse_args()

    fd, db = tempfile.mkstemp(suffix=".sqlite3")
    os.close(fd)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dam_site.settings.test",
           "DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": ROOT}
    py = os.path.join(ROOT, ".venv", "bin", "python")
    subprocess.run([py, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")})
    import django

    django.setup()
    from django.urls import reverse
    from django.utils import translation

    from games.adapters import adapter
    from practice import service as P
    from practice.models import PracticeGame

    port = free_port()
    server = subprocess.Popen(
        [os.path.join(ROOT, ".venv", "bin", "gunicorn"), "dam_site.wsgi",
         "--workers", str(a.workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "dam_site.settings.test"})
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz/", timeout=1)
            break
        except Exception:  # noqa: BLE001 - whatever the server answers while it starts
            time.sleep(0.2)

    with translation.override("en"):
        new_url = reverse("practice_dam")
    moves: list[float] = []
    steps: list[float] = []
    turns: list[float] = []
    errors = [0]
    count = [0]
    lock = threading.Lock()
    stop = time.perf_counter() + a.seconds

    def player(index: int) -> None:
        rng = random.Random(index)
        b = Browser(base)
        while time.perf_counter() < stop:
            b.request(new_url)
            status, _, headers = b.request(new_url, {"preset": "svarta-maja", "players": 3,
                                                     "level": a.level, "name": "Me"})
            if status != 302:
                errors[0] += 1
                return
            path = urllib.parse.urlparse(headers["Location"]).path
            game_id = re.search(r"/([0-9a-f-]{36})/", path).group(1)
            while time.perf_counter() < stop:
                record = PracticeGame.objects.get(pk=game_id)
                state = P.load(record).state
                if state.over:
                    break
                acts = state.legal_actions()
                fields = adapter("dam").form_fields(acts[rng.randrange(len(acts))])
                t0 = time.perf_counter()
                status, _, _ = b.request(path + "move/", {**fields, "version": record.version})
                t1 = time.perf_counter()
                local_steps = []
                ok = status == 302
                version = record.version + 1
                while ok:
                    record = PracticeGame.objects.get(pk=game_id)
                    if not P.is_bot_turn(record, P.load(record).state):
                        break
                    s0 = time.perf_counter()
                    status, _, _ = b.request(path + "step/", {"version": version})
                    local_steps.append((time.perf_counter() - s0) * 1000)
                    ok = status == 302
                    version += 1
                with lock:
                    count[0] += 1 + len(local_steps)
                    if not ok:
                        errors[0] += 1
                        continue
                    moves.append((t1 - t0) * 1000)
                    steps.extend(local_steps)
                    turns.append((t1 - t0) * 1000 + sum(local_steps))

    started = time.perf_counter()
    threads = [threading.Thread(target=player, args=(i,)) for i in range(a.players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    server.terminate()
    server.wait()
    os.unlink(db)

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else float("nan")

    print(f"players={a.players}")
    print(f"gunicorn_workers={a.workers}")
    print(f"bot_level={a.level}")
    for name, xs in (("move", moves), ("step", steps), ("turn", turns)):
        print(f"{name}_count={len(xs)}")
        print(f"{name}_ms_p50={pct(xs, 0.5):.1f}")
        print(f"{name}_ms_p95={pct(xs, 0.95):.1f}")
    print(f"errors={errors[0]}")
    print(f"requests_per_s={count[0] / elapsed:.1f}")


if __name__ == "__main__":
    main()
