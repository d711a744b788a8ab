"""Tables with friends under load: T tables of four phones on K app servers.

    nice -n 10 .venv/bin/python bench/tables.py --tables 50 --servers 2 --seconds 30

Starts, on loopback only, a throwaway PostgreSQL database and K app servers, each the pair
production runs (README, "Production"): gunicorn (sync workers) for the pages and POSTs and
uvicorn running ``dam_site.asgi`` for the ``/live/`` streams, all sharing Redis
(127.0.0.1:6379) as cache and bus.  Each table is a Spardame table of four people (no bots):
the host opens it, three friends sit down (each phone from its own address, behind a trusted
proxy), in sv/fi/nb/en in turn, and every phone reads its own stream from the uvicorn of
server ``(table + seat) % K`` and sends its POSTs to the gunicorn of the same server, so every
move crosses servers over the Redis bus.  A phone whose stream shows that it is to move
waits a human's thinking time (``--think``, uniform between half and one and a half times
it) and plays a legal move from what its page offers (a card it may tap, or the first cards
to pass); the host starts the next deal when one ends.

Measured:

- ``move_seen_ms``: from the moment a move's POST was sent to the moment each of the other
  three phones of the table received a state showing it (a stream event, or a page);
- ``missed``: (move, other phone) pairs never received by the end (after a short drain);
- ``leaks``: every page, POST answer and stream event a phone received is checked against
  the true deal (replayed from the database through the engine after the run): a card that
  seat had not been shown at that version (its hands so far and the events it saw) found in
  it, by card code or by the card's name in the phone's language;
- ``errors``: failed requests, streams that broke, refused moves;
- as a baseline in the same run, ``/healthz/`` answered by the gunicorns (a probe every
  0.2 s), and the time of the move POSTs themselves;
- where the time goes: the CPU seconds of the gunicorns and of the uvicorns while the tables
  play, per move (load-independent, unlike the times: the machine's capacity in moves per
  second is its cores over their sum).

Prints the load average before and after, then ``move_seen_ms_p95=X missed=N leaks=N
errors=N`` last.  Everything stops and the database is dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.servers import (  # noqa: E402
    Database,
    check_services,
    follow_events,
    production,
    server_env,
)

LANGS = ("sv", "fi", "nb", "en")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
GAME = re.compile(r'id="game"[^>]*data-deal="(\d+)" data-version="(\d+)"')
MOVE_FORM = re.compile(r'<form id="move-form"[^>]*action="([^"]+)"')
ONE_TAP = re.compile(r'<input type="hidden" name="move" value="([^"]+)">')
TAPS = re.compile(r'class="pick pick--tap" name="card" value="([^"]+)"')
BOXES = re.compile(r'<input class="pick__box" type="checkbox" name="card" value="([^"]+)"'
                   r'(?![^>]*aria-disabled)')
PASS = re.compile(r'<button type="submit" name="move" value="(pass)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
PASSES = 3  # Spardame's standard rules pass three cards


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and its children (gunicorn's workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


@dataclass
class Phone:
    table: int
    seat: int
    page: str  # the gunicorn base address
    stream: str  # the uvicorn base address
    lang: str
    address: str
    client: httpx.AsyncClient = field(init=False)
    # (deal number, version) -> first time this phone received it
    seen: dict[tuple[int, int], float] = field(default_factory=dict)
    payloads: list[tuple[int, int, str]] = field(default_factory=list)
    latest: str = ""
    position: tuple[int, int] = (0, -1)
    errors: int = 0
    csrf: str = ""
    table_url: str = ""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    connected: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.client = httpx.AsyncClient(
            headers={"X-Forwarded-For": self.address, "Accept-Language": self.lang},
            timeout=httpx.Timeout(30, read=60))

    def receive(self, html: str) -> None:
        """A state (stream event, page or POST answer): note when each position arrived."""
        match = GAME.search(html)
        if not match:
            return
        at = time.monotonic()
        deal, version = int(match.group(1)), int(match.group(2))
        self.payloads.append((deal, version, html))
        # A state showing version v shows every move before it too (events may coalesce).
        for v in range(version, -1, -1):
            if (deal, v) in self.seen:
                break
            self.seen[(deal, v)] = at
        if (deal, version) >= self.position:
            self.position = (deal, version)
            self.latest = html
            self.changed.set()

    async def get(self, url: str) -> httpx.Response:
        r = await self.client.get(url, follow_redirects=True)
        if r.status_code != 200:
            self.errors += 1
        self.csrf = self.client.cookies.get("csrftoken", self.csrf)
        return r

    async def post(self, url: str, data: dict, htmx: bool = True) -> httpx.Response:
        headers = {"X-CSRFToken": self.csrf, "Referer": self.page + self.table_url}
        if htmx:
            headers["HX-Request"] = "true"
        return await self.client.post(self.page + url, data=data, headers=headers)

    async def follow(self, code: str, stop: asyncio.Event) -> None:
        await follow_events(self.client, f"{self.stream}/live/table/{code}/{self.lang}/", stop,
                            self.received, self.error)

    def received(self, html: str) -> None:
        self.receive(html)
        self.connected.set()

    def error(self) -> None:
        self.errors += 1

    def choice(self, rng: random.Random) -> tuple[str, dict] | None:
        """The move this phone's latest state offers it, as (address, form), or None."""
        html = self.latest
        form = MOVE_FORM.search(html)
        version = VERSION.search(html)
        if not form or not version:
            return None
        data: dict = {"version": version.group(1)}
        taps = TAPS.findall(html)
        one_tap = ONE_TAP.search(html)
        if taps and one_tap:
            data.update(move=one_tap.group(1), card=rng.choice(taps))
            return form.group(1), data
        boxes = BOXES.findall(html)
        if PASS.search(html) and len(boxes) >= PASSES:
            data.update(move="pass", card=rng.sample(boxes, PASSES))
            return form.group(1), data
        return None


@dataclass
class Move:
    table: int
    seat: int
    deal: int
    version: int
    sent: float
    answered: float = 0.0


async def play(phone: Phone, tables: list[list[Phone]], moves: list[Move], stop: asyncio.Event,
               think: float, rng: random.Random) -> None:
    """Wait for this phone's turn, think, move; the host deals again when a deal ends."""
    while not stop.is_set():
        phone.changed.clear()
        pick = phone.choice(rng)
        nxt = phone.seat == 0 and 'id="next-deal"' in phone.latest
        if pick is None and not nxt:
            try:
                await asyncio.wait_for(phone.changed.wait(), 1.0)
            except TimeoutError:
                pass
            continue
        await asyncio.sleep(think * (0.5 + rng.random()))
        if stop.is_set():
            return
        deal, version = phone.position
        if pick is not None:
            url, data = pick
            move = Move(phone.table, phone.seat, deal, int(data["version"]), time.monotonic())
            try:
                r = await phone.post(url, data)
            except httpx.HTTPError:
                phone.errors += 1
                continue
            move.answered = time.monotonic()
            if r.status_code != 200 or 'id="move-error"' in r.text:
                phone.errors += 1
            else:
                moves.append(move)
            phone.receive(r.text)
        else:  # the host's "Next deal"
            try:
                r = await phone.post(phone.table_url + "next/", {"version": version})
                phone.receive(r.text)
            except httpx.HTTPError:
                phone.errors += 1
        # Wait for the state to move on before looking again (our own answer or the stream).
        try:
            await asyncio.wait_for(phone.changed.wait(), 5.0)
        except TimeoutError:
            pass


async def probe(base: str, stop: asyncio.Event, out: list[float]) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                r = await client.get(base + "/healthz/")
                if r.status_code == 200:
                    out.append((time.monotonic() - t0) * 1000)
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)


async def open_table(t: int, pages: list[str], streams: list[str]) -> tuple[str, list[Phone]]:
    k = len(pages)
    phones = [Phone(t, s, pages[(t + s) % k], streams[(t + s) % k], LANGS[(t + s) % 4],
                    f"10.{t // 256 % 256}.{t % 256}.{s + 1}") for s in range(4)]
    host = phones[0]
    r = await host.get(f"{host.page}/en/spardame/practice/friends/")
    r = await host.client.post(str(r.url), data={
        "preset": "standard", "players": 4, "level": "easy", "name": "Host",
        "memory_aid": "on", "csrfmiddlewaretoken": csrf_of(r.text)},
        headers={"Referer": str(r.url)})
    code = r.headers["location"].rstrip("/").split("/")[-1]
    for phone in phones:
        page = await phone.get(f"{phone.page}/t/{code}/")
        phone.table_url = page.url.path
        phone.receive(page.text)
        phone.csrf = csrf_of(page.text) or phone.csrf
        if phone.seat:
            r = await phone.post(phone.table_url + "sit/", {"name": f"P{phone.seat}"},
                                 htmx=False)
            if r.status_code != 302:
                phone.errors += 1
    return code, phones


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    return match.group(1) if match else ""


async def run(args: argparse.Namespace, pages: list[str], streams: list[str],
              pids: dict[str, list[int]]
              ) -> tuple[list[str], list[tuple[str, list[Phone]]], list[Move]]:
    rng = random.Random(args.seed)
    tables = await asyncio.gather(*(open_table(t, pages, streams) for t in range(args.tables)))
    stop = asyncio.Event()
    followers = [asyncio.create_task(p.follow(code, stop)) for code, phones in tables
                 for p in phones]
    try:
        await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for _c, phones in tables
                                                for p in phones)), 60)
    except TimeoutError:
        pass
    health: list[float] = []
    probes = [asyncio.create_task(probe(base, stop, health)) for base in pages]
    # Each host deals (its page and stream then show the first position).
    for _code, phones in tables:
        host = phones[0]
        r = await host.post(host.table_url + "start/", {})
        host.receive(r.text)
    moves: list[Move] = []
    playing = asyncio.Event()
    players = [asyncio.create_task(play(p, [ps for _c, ps in tables], moves, playing,
                                        args.think, random.Random(rng.random())))
               for _c, phones in tables for p in phones]
    started = time.monotonic()
    cpu0 = {kind: sum(cpu_seconds(p) for p in ps) for kind, ps in pids.items()}
    await asyncio.sleep(args.seconds)
    playing.set()
    await asyncio.gather(*players, return_exceptions=True)
    elapsed = time.monotonic() - started
    await asyncio.sleep(1.0)  # the last moves' stream events
    cpu = {kind: sum(cpu_seconds(p) for p in ps) - cpu0[kind] for kind, ps in pids.items()}
    await asyncio.sleep(args.drain)
    stop.set()
    for task in followers + probes:
        task.cancel()
    await asyncio.gather(*followers, *probes, return_exceptions=True)
    for _c, phones in tables:
        await asyncio.gather(*(p.client.aclose() for p in phones))
    lines = [f"tables={args.tables}", f"phones={4 * args.tables}", f"servers={args.servers}",
             f"seconds={elapsed:.1f}", f"moves={len(moves)}",
             f"moves_per_s={len(moves) / elapsed:.1f}",
             f"move_post_ms_p50={pct([(m.answered - m.sent) * 1000 for m in moves], .5):.0f}",
             f"move_post_ms_p95={pct([(m.answered - m.sent) * 1000 for m in moves], .95):.0f}",
             # Where the time goes: the app servers' CPU per move (gunicorn: the POST, its
             # answer; uvicorn: the four phones' stream events).
             f"gunicorn_cpu_ms_per_move={cpu['gunicorn'] * 1000 / max(1, len(moves)):.0f}",
             f"uvicorn_cpu_ms_per_move={cpu['uvicorn'] * 1000 / max(1, len(moves)):.0f}",
             f"healthz_ms_p50={pct(health, .5):.0f}",
             f"healthz_ms_p95={pct(health, .95):.0f}"]
    return lines, tables, moves


def leaks(tables: list[tuple[str, list[Phone]]]) -> tuple[int, list[str]]:
    """Cards each phone received that its seat had not been shown at that position: the
    truth is the deals in the database, replayed move by move through the engine."""
    import django

    django.setup()
    from django.utils import translation

    from games.adapters import adapter
    from games.cardnames import CARD_NAMES
    from games.reasons import REASON_TEXTS
    from practice import service as P
    from practice.models import PracticeGame
    from rules.engine import cards as C
    from rules.engine import scenario as scn
    from rules.engine.games import game_module
    from tables.models import Table
    from tests.practice.helpers import CARD_KEYS, _flatten, view_cards

    names: dict[str, list[str]] = {}
    rules: dict[str, list[str]] = {}  # rule sentences name cards in general ("no queen of
    for lang in LANGS:  # spades on the first trick"), as tests.practice.helpers.leaked knows
        with translation.override(lang):
            names[lang] = [str(CARD_NAMES[c]) for c in range(52)]
            rules[lang] = [str(sentence) for sentence in REASON_TEXTS.values()]
    codes = re.compile(r'(?:data-card|value)="([2-9TJQKA][CDHS])"')
    found, examples = 0, []
    for code, phones in tables:
        table = Table.objects.get(code=code)
        deals = {d.deal_number: d for d in PracticeGame.objects.filter(series=table.series)}
        for number, deal in deals.items():
            module = game_module(deal.game)
            sc = scn.parse({**P.export(deal), "steps": []})
            state = sc.initial_state()
            seen = [view_cards(state.view(s)) for s in range(4)]
            at = [[set(s)] for s in seen]  # at[seat][version]: the cards shown so far
            for move in deal.actions:
                state, events = scn.apply_move(module, state, sc.players, move)
                for s in range(4):
                    seen[s] |= view_cards(state.view(s))
                    for e in adapter(deal.game).visible(events, s):
                        for k, v in e.items():
                            if k in CARD_KEYS:
                                _flatten(v, seen[s])
                    at[s].append(set(seen[s]))
            for phone in phones:
                for d, version, html in phone.payloads:
                    if d != number:
                        continue
                    if version >= len(at[phone.seat]):
                        found += 1
                        examples.append(f"table {code} seat {phone.seat}: version {version} "
                                        "beyond the deal")
                        continue
                    allowed = at[phone.seat][version]
                    shown = {C.parse(c) for c in codes.findall(html)}
                    for sentence in rules[phone.lang]:
                        html = html.replace(sentence, "")
                    bad = {c for c in shown if c not in allowed}
                    bad |= {c for c in range(52) if c not in allowed
                            and names[phone.lang][c] in html}
                    if bad:
                        found += len(bad)
                        examples.append(f"table {code} seat {phone.seat} deal {d} v{version}: "
                                        + " ".join(C.code(c) for c in sorted(bad)))
    return found, examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a phone waits before its move")
    parser.add_argument("--drain", type=float, default=3.0,
                        help="seconds the streams are read after the last move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    check_services()
    print(f"load_before={os.getloadavg()[0]:.2f}", flush=True)
    db = Database()
    db.create()
    prefix = f"bench-tables-{os.getpid()}-{secrets.token_hex(3)}"
    os.environ["TRUSTED_PROXIES"] = "127.0.0.1"
    try:
        with production(args.servers, db.url, prefix, args.workers) as (pages, streams):
            pids = {"gunicorn": [s.process.pid for s in pages if s.process],
                    "uvicorn": [s.process.pid for s in streams if s.process]}
            lines, tables, moves = asyncio.run(run(args, [s.base for s in pages],
                                                   [s.base for s in streams], pids))
            load_after = os.getloadavg()[0]
        os.environ.update(server_env(db.url, prefix))
        leaked, examples = leaks(tables)
    finally:
        from django.db import connections

        connections.close_all()
        db.drop()
    delays, missed = [], 0
    by_table = {t: phones for t, (_code, phones) in enumerate(tables)}
    for m in moves:
        for phone in by_table[m.table]:
            if phone.seat == m.seat:
                continue
            at = phone.seen.get((m.deal, m.version + 1))
            if at is None:
                missed += 1
            else:
                delays.append(max(0.0, at - m.sent) * 1000)
    errors = sum(p.errors for phones in by_table.values() for p in phones)
    for line in lines:
        print(line)
    for example in examples[:5]:
        print("leak:", example)
    print(f"move_seen_ms_p50={pct(delays, .5):.0f}")
    print(f"move_seen_ms_max={max(delays) if delays else float('nan'):.0f}")
    print(f"load_after={load_after:.2f}")
    print(f"move_seen_ms_p95={pct(delays, .95):.0f} missed={missed} leaks={leaked} "
          f"errors={errors}")


if __name__ == "__main__":
    main()
