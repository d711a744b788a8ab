"""HTTP load on loopback: wrk on the tutorial step page and the practice move endpoints.

    .venv/bin/python bench/load.py [--seconds 30] [--connections 64] [--workers 4]

Creates a throwaway PostgreSQL database (127.0.0.1:5432, user postgres), starts gunicorn with
``dam_site.settings.e2e`` (prod settings on plain HTTP, Redis cache on 127.0.0.1:6379) on a
free loopback port, and runs wrk against it, one endpoint after the other:

- ``tutorial_step``: GET of one tutorial step page;
- ``practice_move``: POSTs of practice moves and bot replies, each a legal request that
  is accepted (302).  Hundreds of copies of one Dam deal are created for one browser session;
  the sequence of form posts of that deal is computed beforehand by replaying it through the
  engine.  Each wrk thread keeps a queue of its games that have no request in flight; a game
  goes back to the queue, one step further, when its move is answered with the redirect to
  it, so one game never has two requests in flight.

Prints per endpoint ``<name>_requests_per_s``, ``<name>_p50_ms``, ``<name>_p99_ms``,
``<name>_requests`` and ``<name>_errors`` (socket errors, timeouts and any status other than
2xx/3xx).  Bounded: wrk runs --seconds per endpoint; everything stops and the database is
dropped at the end.  Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.servers import (  # noqa: E402
    GAME_ID,
    Browser,
    Database,
    Server,
    check_services,
    server_env,
)

THREADS = 4


def parse_wrk(text: str) -> dict[str, float]:
    def ms(value: str) -> float:
        number, unit = re.match(r"([\d.]+)(us|ms|s|m)", value).groups()
        return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]

    out = {"requests_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
           "requests": int(re.search(r"(\d+) requests in", text).group(1))}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}(?:\.000)?%\s+(\S+)", text, re.MULTILINE)
        out[f"p{pct}_ms"] = ms(m.group(1)) if m else float("nan")
    errors = 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if m:
        errors += sum(int(x) for x in m.groups())
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if m:
        errors += int(m.group(1))
    out["errors"] = errors
    return out


def run_wrk(url: str, seconds: int, connections: int, script: str | None = None) -> dict:
    assert urllib.parse.urlparse(url).hostname == "127.0.0.1", "loopback only"
    cmd = ["wrk", "-t", str(THREADS), "-c", str(connections), "-d", f"{seconds}s",
           "--timeout", "10s", "--latency"]
    if script:
        cmd += ["-s", script]
    result = subprocess.run(cmd + [url], check=False, capture_output=True, text=True,
                            timeout=seconds + 60)
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return parse_wrk(result.stdout)


def lua_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def move_script(paths: list[str], steps: list[tuple[str, str]], cookie: str) -> str:
    games = ",\n".join(lua_string(p) for p in paths)
    seq = ",\n".join("{" + lua_string(s) + ", " + lua_string(b) + "}" for s, b in steps)
    return f"""
local games = {{{games}}}
local steps = {{{seq}}}
local cookie = {lua_string(cookie)}
local threads = {THREADS}
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  ready, head, tail, stepof = {{}}, 1, 1, {{}}
  for i = 1, #games do
    if (i - 1) % threads == tid then
      ready[tail] = games[i]
      tail = tail + 1
      stepof[games[i]] = 1
    end
  end
end
function request()
  if head == tail then
    return wrk.format("GET", "/healthz/")
  end
  local g = ready[head]
  ready[head] = nil
  head = head + 1
  local j = stepof[g]
  if j > #steps then
    return wrk.format("GET", g, {{["Cookie"] = cookie}})
  end
  local step = steps[j]
  return wrk.format("POST", g .. step[1], {{["Cookie"] = cookie,
    ["Content-Type"] = "application/x-www-form-urlencoded"}}, step[2])
end
function response(status, headers, body)
  -- An accepted move redirects to its game: that game may send its next step.
  local g = headers["Location"]
  if g and stepof[g] then
    stepof[g] = stepof[g] + 1
    ready[tail] = g
    tail = tail + 1
  end
end
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    ap.add_argument("--games", type=int, default=600)
    a = ap.parse_args()

    check_services()
    db = Database()
    db.create()
    server = None
    try:
        os.environ.update({k: v for k, v in server_env(db.url, "bench").items()
                           if k in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "ALLOWED_HOSTS",
                                    "DATABASE_URL", "REDIS_URL", "E2E_CACHE_PREFIX")})
        import django

        django.setup()
        from django.urls import reverse
        from django.utils import translation

        from games.adapters import adapter
        from practice import service as P
        from practice.models import PracticeGame
        from tutorials import lessons

        server = Server(db.url, f"bench{os.getpid()}", workers=a.workers).start()
        with translation.override("en"):
            tutorial = next(t for t in lessons.TUTORIALS.values() if t.game == "dam")
            step_path = reverse("tutorial_step_dam", args=[tutorial.slug, 2])
            new_path = reverse("practice_dam")

        # One real game through HTTP gives the session and the deal.
        browser = Browser()
        browser.request(server.base + new_path)
        r = browser.request(server.base + new_path, {"preset": "svarta-maja", "players": 2,
                                                     "level": "easy", "name": "Me"})
        assert r.status == 302, r.status
        first = PracticeGame.objects.get(pk=GAME_ID.search(r.headers["Location"]).group(1))

        # The accepted form posts of that deal, computed by replaying it.
        from rules.engine.bots import dam as dam_bots
        from rules.engine.games import game_module

        module = game_module("dam")
        rec = PracticeGame(**{f.attname: getattr(first, f.attname)
                              for f in PracticeGame._meta.fields})
        rec.actions = list(rec.actions)
        steps: list[tuple[str, str]] = []
        csrf = browser.csrf()
        while True:
            state = P.replay(rec).state
            if state.over:
                break
            if P.is_bot_turn(rec, state):
                seat = state.to_move
                action = P.make_bot(rec, seat).act(state, seat)
                fields = {"version": rec.version}
                suffix = "step/"
            else:
                seat = rec.human_seat
                action = dam_bots.HeuristicBot(len(rec.actions)).act(state, seat)
                fields = {**adapter("dam").form_fields(action), "version": rec.version}
                suffix = "move/"
            body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf}, doseq=True)
            steps.append((suffix, body))
            rec.actions.append(f"{rec.names[seat]} {module.format_action(action)}")
            rec.version += 1

        clones = [PracticeGame(owner=first.owner, game="dam", rules=first.rules,
                               names=first.names, dealer=first.dealer,
                               human_seat=first.human_seat, level=first.level, seed=first.seed,
                               deal=first.deal) for _ in range(a.games)]
        PracticeGame.objects.bulk_create(clones)
        with translation.override("en"):
            paths = [reverse("practice_dam_play", args=[c.pk]) for c in clones]
        cookie = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
        capacity = len(paths) * len(steps)

        print(f"gunicorn_workers={a.workers}")
        print(f"wrk_threads={THREADS}")
        print(f"connections={a.connections}")
        print(f"seconds={a.seconds}")
        results = {"tutorial_step": run_wrk(server.base + step_path, a.seconds, a.connections)}
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(move_script(paths, steps, cookie))
        try:
            results["practice_move"] = run_wrk(server.base + "/", a.seconds, a.connections,
                                               f.name)
        finally:
            os.unlink(f.name)
        moves = PracticeGame.objects.filter(pk__in=[c.pk for c in clones])
        applied = sum(len(g.actions) for g in moves.only("actions"))
        for name, res in results.items():
            for key in ("requests_per_s", "p50_ms", "p99_ms", "requests", "errors"):
                value = res[key]
                print(f"{name}_{key}={value:.1f}" if isinstance(value, float)
                      else f"{name}_{key}={value}")
        print(f"practice_move_steps_per_game={len(steps)}")
        print(f"practice_move_capacity={capacity}")
        print(f"practice_move_applied={applied}")
    finally:
        if server is not None:
            server.stop()
        from django.db import connections

        connections.close_all()
        db.drop()


if __name__ == "__main__":
    main()
